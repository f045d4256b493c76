/* noise: doctor checks of what else disturbs a run: load, busy processes, virtualisation, NUMA and its balancing, isolation. */
#include "doctor/checks.h"
#include "machine/machine.h"
#include "util/boot.h"
#include "util/sysfs.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int doctor_check_load(const struct doctor_ctx *ctx, struct doctor_report *rep)
{
	unsigned ncpus = ctx->ncpus ? ctx->ncpus : 1;
	char line[128], value[64];
	double load1;

	if (sysfs_read_line("/proc/loadavg", line, sizeof(line)) || sscanf(line, "%lf", &load1) != 1)
		return doctor_add(rep, "load", DOCTOR_WARN, "unknown", NULL, "cannot read /proc/loadavg");
	snprintf(value, sizeof(value), "%.2f on %u CPUs", load1, ncpus);
	/* above half the CPUs busy, a run is likely to share its core or its memory bandwidth */
	if (load1 > ncpus / 2.0)
		return doctor_add(rep, "load", DOCTOR_WARN, value, "wait for the machine to go quiet, or stop the jobs",
				  "other work competes for cores and memory bandwidth");
	return doctor_add(rep, "load", DOCTOR_PASS, value, NULL, "the machine is mostly idle");
}

/* One process's CPU time, from /proc/[pid]/stat. */
struct doctor_proc {
	long pid;
	char comm[32];
	unsigned long long ticks;	/* utime + stime */
	double pct;
};

/* Read utime+stime of @pid; 0, or -1 when it is gone or unreadable. */
static int doctor_proc_read(long pid, struct doctor_proc *p)
{
	char path[64], line[1024], *open, *close;
	unsigned long long ut, st;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (sysfs_read_line(path, line, sizeof(line)))
		return -1;
	/* comm may hold spaces and parentheses; the last ')' ends it */
	open = strchr(line, '(');
	close = strrchr(line, ')');
	if (!open || !close || close < open)
		return -1;
	/* after ")": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime */
	if (sscanf(close + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
		return -1;
	p->pid = pid;
	snprintf(p->comm, sizeof(p->comm), "%.*s", (int)(close - open - 1), open + 1);
	p->ticks = ut + st;
	return 0;
}

/* Every process under /proc except ourselves, into a malloc'd array; *n says how many. */
static struct doctor_proc *doctor_procs(size_t *n)
{
	char **names = sysfs_list_dir("/proc", "");
	struct doctor_proc *procs;
	size_t cap = 0;

	*n = 0;
	for (size_t i = 0; names && names[i]; i++)
		cap++;
	procs = calloc(cap ? cap : 1, sizeof(*procs));
	for (size_t i = 0; procs && names && names[i]; i++) {
		long pid = isdigit((unsigned char)names[i][0]) ? atol(names[i]) : 0;

		if (pid > 0 && pid != getpid() && !doctor_proc_read(pid, &procs[*n]))
			++*n;
	}
	sysfs_list_free(names);
	return procs;
}

static int doctor_pct_cmp(const void *a, const void *b)
{
	double x = ((const struct doctor_proc *)a)->pct, y = ((const struct doctor_proc *)b)->pct;

	return (x < y) - (x > y);
}

int doctor_check_busy(const struct doctor_ctx *ctx, struct doctor_report *rep)
{
	unsigned ms = ctx->opts->sample_ms;
	char value[160] = "";
	struct doctor_proc *procs;
	size_t n, shown = 0;
	int ret;

	if (!ms)
		return doctor_add(rep, "busy-processes", DOCTOR_PASS, "not sampled", NULL,
				  "process sampling was turned off");
	procs = doctor_procs(&n);
	if (!procs)
		return -ENOMEM;
	if (n) {
		long hz = sysconf(_SC_CLK_TCK);

		nanosleep(&(struct timespec){ ms / 1000, (ms % 1000) * 1000000L }, NULL);
		for (size_t i = 0; i < n; i++) {
			struct doctor_proc now;

			if (!doctor_proc_read(procs[i].pid, &now))
				procs[i].pct = 100.0 * (double)(now.ticks - procs[i].ticks) / hz / (ms / 1000.0);
		}
		qsort(procs, n, sizeof(*procs), doctor_pct_cmp);
	}
	/* the top 3 that used a measurable share; below 5% a process is background noise */
	for (size_t i = 0; i < n && shown < 3 && procs[i].pct >= 5.0; i++, shown++) {
		size_t len = strlen(value);

		snprintf(value + len, sizeof(value) - len, "%s%s[%ld] %.0f%%", shown ? ", " : "",
			 procs[i].comm, procs[i].pid, procs[i].pct);
	}
	if (shown)
		ret = doctor_add(rep, "busy-processes", DOCTOR_WARN, value, "stop them, or wait for them to finish",
				 "other processes used CPU over %u ms", ms);
	else
		ret = doctor_add(rep, "busy-processes", DOCTOR_PASS, n ? "none" : "none visible", NULL,
				 "no process used 5%% or more of a CPU over %u ms", ms);
	free(procs);
	return ret;
}

int doctor_check_virt(const struct doctor_ctx *ctx, struct doctor_report *rep)
{
	char what[256];

	doctor_virt(what, sizeof(what));
	if (ctx->vm)
		return doctor_add(rep, "virtualisation", DOCTOR_WARN, what,
				  "compare only runs made on the same instance type; prefer bare metal for final numbers",
				  "a virtual machine: the host decides frequency, THP backing and neighbours, so expect more noise");
	return doctor_add(rep, "virtualisation", DOCTOR_PASS, what, NULL, "bare metal");
}

/* The calling thread's memory policy name via get_mempolicy(2); "unknown" when the kernel says no. */
static const char *doctor_mempolicy(void)
{
	static const char *const modes[] = { "default", "preferred", "bind", "interleave",
					     "local", "preferred-many", "weighted-interleave" };
	int mode;

	if (syscall(SYS_get_mempolicy, &mode, NULL, 0UL, NULL, 0UL) ||
	    mode < 0 || (size_t)mode >= sizeof(modes) / sizeof(modes[0]))
		return "unknown";
	return modes[mode];
}

int doctor_check_numa(const struct doctor_ctx *ctx, struct doctor_report *rep)
{
	unsigned nodes = machine_numa_nodes();
	const char *policy = doctor_mempolicy();
	char value[160], allowed[64] = "?";

	(void)ctx;
	sysfs_read_key("/proc/self/status", "Mems_allowed_list", allowed, sizeof(allowed));
	snprintf(value, sizeof(value), "%u node%s, policy %s, Mems_allowed %s", nodes,
		 nodes == 1 ? "" : "s", policy, allowed);
	if (nodes <= 1)
		return doctor_add(rep, "numa", DOCTOR_PASS, value, NULL, "one memory node: no remote memory");
	if (!strcmp(policy, "default") || !strcmp(policy, "unknown"))
		return doctor_add(rep, "numa", DOCTOR_WARN, value,
				  "numactl --cpunodebind=0 --membind=0 clearpath ...",
				  "pages may land on a remote node, and which node differs from run to run");
	return doctor_add(rep, "numa", DOCTOR_PASS, value, NULL, "a memory policy pins where pages land");
}

int doctor_check_numa_balancing(const struct doctor_ctx *ctx, struct doctor_report *rep)
{
	static const char check[] = "numa.balancing";
	unsigned nodes = machine_numa_nodes();
	char value[64];
	long mode = -1;
	int ret = doctor_numa_balancing(&mode);

	(void)ctx;
	if (ret == -ENOENT)
		return doctor_add(rep, check, DOCTOR_PASS, "not built in", NULL,
				  "the kernel has no automatic NUMA balancing: pages stay where they were faulted in");
	if (ret)
		return doctor_add(rep, check, DOCTOR_WARN, "unknown", NULL, "cannot read " DOCTOR_NUMA_BALANCING);
	if (!mode)
		return doctor_add(rep, check, DOCTOR_PASS, "off", NULL,
				  "pages stay on the node they were faulted in");
	/* 1 balances, 2 tiers memory, 3 both: any of them moves pages */
	snprintf(value, sizeof(value), "on (%ld), %u node%s", mode, nodes, nodes == 1 ? "" : "s");
	if (nodes <= 1)
		return doctor_add(rep, check, DOCTOR_PASS, value, NULL, "one memory node: no other node to move pages to");
	return doctor_add(rep, check, DOCTOR_WARN, value,
			  "clearpath doctor --fix (or: sysctl -w kernel.numa_balancing=0) until reboot; "
			  "numa_balancing=disable on the kernel command line keeps it off",
			  "the kernel unmaps a running task's pages to sample its accesses and migrates them between "
			  "nodes, so pages can move during a run and its times depend on when the scanner passed");
}

int doctor_check_isolation(const struct doctor_ctx *ctx, struct doctor_report *rep)
{
	static const char *const keys[] = { "isolcpus=", "nohz_full=", "rcu_nocbs=" };
	char cmdline[4096], value[160] = "", *save = NULL;

	(void)ctx;
	if (boot_cmdline(cmdline, sizeof(cmdline)))
		return doctor_add(rep, "isolation", DOCTOR_WARN, "unknown", NULL, "cannot read /proc/cmdline");
	for (char *tok = strtok_r(cmdline, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (!strncmp(tok, keys[i], strlen(keys[i]))) {
				size_t len = strlen(value);

				snprintf(value + len, sizeof(value) - len, "%s%s", len ? " " : "", tok);
			}
	if (value[0])
		return doctor_add(rep, "isolation", DOCTOR_PASS, value, NULL,
				  "run on the isolated CPUs (taskset -c) to benefit");
	return doctor_add(rep, "isolation", DOCTOR_PASS, "none", NULL,
			  "fine for memory clearing; isolcpus=/nohz_full= on a spare CPU would cut scheduler noise further");
}
