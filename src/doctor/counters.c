/* counters: doctor checks of performance counters: perf_event_paranoid and which hardware events open. */
#include "doctor/checks.h"
#include "util/counters.h"
#include "util/perfctr.h"
#include "util/sysfs.h"

#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int doctor_check_paranoid(const struct doctor_ctx *ctx, struct doctor_report *rep)
{
	char value[32];
	long level;

	(void)ctx;
	/* not sysfs_read_u64: -1 is a valid level */
	if (sysfs_read_line("/proc/sys/kernel/perf_event_paranoid", value, sizeof(value)))
		return doctor_add(rep, "perf.paranoid", DOCTOR_WARN, "absent", NULL,
				  "no perf_event_paranoid: the kernel may lack perf events (CONFIG_PERF_EVENTS)");
	level = strtol(value, NULL, 10);
	if (level <= 1)
		return doctor_add(rep, "perf.paranoid", DOCTOR_PASS, value, NULL,
				  "counters include kernel work, where page faults clear pages");
	if (geteuid() == 0)
		return doctor_add(rep, "perf.paranoid", DOCTOR_PASS, value, NULL,
				  "running as root: counters include kernel work regardless");
	return doctor_add(rep, "perf.paranoid", DOCTOR_WARN, value,
			  "sysctl kernel.perf_event_paranoid=1, or run as root",
			  level == 2 ? "counters see user space only: the kernel clearing pages in faults is invisible"
				     : "unprivileged users cannot open perf events at all");
}

/* Open and close one event: 0 when it opens, else -errno. */
static int doctor_try_event(int (*open_counter)(uint32_t, uint64_t), uint32_t type, uint64_t config)
{
	int fd = open_counter(type, config);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

int doctor_check_events(const struct doctor_ctx *ctx, struct doctor_report *rep)
{
	int (*open_counter)(uint32_t, uint64_t) = ctx->opts->open_counter ? ctx->opts->open_counter
									  : perfctr_open;
	char ok[128] = "", missing[128] = "", value[280];
	int first_err = 0, sw;

	/* The hardware events --counters reports, in the order perf stat lists them. */
	for (size_t i = COUNTERS_FIRST_HW; i < COUNTERS_N; i++) {
		const struct counters_event *e = &counters_events[i];
		int err = doctor_try_event(open_counter, e->type, e->config);
		char *list = err ? missing : ok;
		size_t len = strlen(list);

		snprintf(list + len, sizeof(ok) - len, "%s%s", len ? " " : "", e->name);
		if (err && !first_err)
			first_err = err;
	}
	if (!first_err)
		return doctor_add(rep, "perf.hw-events", DOCTOR_PASS, ok, NULL,
				  "hardware counters open: -c and cycle counts work");
	sw = doctor_try_event(open_counter, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	snprintf(value, sizeof(value), "unavailable: %s%s%s", missing, ok[0] ? "; open: " : "", ok);
	return doctor_add(rep, "perf.hw-events", DOCTOR_WARN, value, NULL,
			  "%s: -c and hardware counters are unavailable; software counters %s", perfctr_strerror(first_err),
			  sw ? "do not open either" : "(task-clock, page-faults) work");
}
