/* checks: what the doctor's check files share: the context, the result builder and the machine facts. */
#ifndef CLEARPATH_DOCTOR_CHECKS_H
#define CLEARPATH_DOCTOR_CHECKS_H

#include "doctor/doctor.h"

/* Facts every check may need, gathered once per doctor_run(). */
struct doctor_ctx {
	const struct doctor_opts *opts;
	const struct doctor_needs *needs;	/* never NULL: a zeroed struct when none stated */
	bool vm;		/* a hypervisor is between us and the hardware */
	bool x86;		/* /proc/cpuinfo has x86 "flags" (pdpe1gb means something) */
	unsigned ncpus;		/* cpuN directories in sysfs */
};

/* One entry of the registry: a check appends one or more results, returns 0 or -ENOMEM. */
struct doctor_check {
	const char *name;
	int (*run)(const struct doctor_ctx *ctx, struct doctor_report *rep);
	unsigned session;	/* DOCTOR_SESSION_* bits: when a session records it (0: never) */
};

/* cpu.c */
int doctor_check_governor(const struct doctor_ctx *ctx, struct doctor_report *rep);
int doctor_check_boost(const struct doctor_ctx *ctx, struct doctor_report *rep);
/* memory.c */
int doctor_check_thp(const struct doctor_ctx *ctx, struct doctor_report *rep);
int doctor_check_hugetlb(const struct doctor_ctx *ctx, struct doctor_report *rep);
int doctor_check_1gb(const struct doctor_ctx *ctx, struct doctor_report *rep);
int doctor_check_memory(const struct doctor_ctx *ctx, struct doctor_report *rep);
int doctor_check_swap(const struct doctor_ctx *ctx, struct doctor_report *rep);
int doctor_check_page_reporting(const struct doctor_ctx *ctx, struct doctor_report *rep);
/* noise.c */
int doctor_check_load(const struct doctor_ctx *ctx, struct doctor_report *rep);
int doctor_check_busy(const struct doctor_ctx *ctx, struct doctor_report *rep);
int doctor_check_virt(const struct doctor_ctx *ctx, struct doctor_report *rep);
int doctor_check_numa(const struct doctor_ctx *ctx, struct doctor_report *rep);
int doctor_check_numa_balancing(const struct doctor_ctx *ctx, struct doctor_report *rep);
int doctor_check_isolation(const struct doctor_ctx *ctx, struct doctor_report *rep);
/* counters.c */
int doctor_check_paranoid(const struct doctor_ctx *ctx, struct doctor_report *rep);
int doctor_check_events(const struct doctor_ctx *ctx, struct doctor_report *rep);
/* boot.c */
int doctor_check_boot(const struct doctor_ctx *ctx, struct doctor_report *rep);
/* profile.c */
int doctor_check_profile(const struct doctor_ctx *ctx, struct doctor_report *rep);

/* facts.c: machine facts shared by the checks, --fix and the snapshot. */

/* The cpuN directory names under /sys/devices/system/cpu, as sysfs_list_dir(); NULL on failure. */
char **doctor_cpu_dirs(void);

/*
 * The scaling governor across CPUs: "performance", or "mixed: performance,
 * powersave" when they differ, into @buf; *@nfreq = CPUs with cpufreq,
 * *@nperf = those on performance.  0, or -ENOENT when no CPU exposes cpufreq.
 */
int doctor_governor(char *buf, size_t len, unsigned *nfreq, unsigned *nperf);

/*
 * Boost/turbo: 1 on, 0 off, -ENOENT when the platform exposes no switch.
 * *@path names the file that said so (for messages and fixes).
 */
int doctor_boost(const char **path);

/* Whether a hypervisor is present; @what names it ("QEMU Standard PC", "hypervisor flag"). */
bool doctor_virt(char *what, size_t len);

/* What the virtio balloons do with memory the guest frees, weakest first: the strongest found wins. */
enum doctor_balloon {
	DOCTOR_NO_BALLOON,	/* none bound to a driver */
	DOCTOR_BALLOON_KEEPS,	/* bound, without free page reporting */
	DOCTOR_BALLOON_UNKNOWN,	/* bound, features unreadable */
	DOCTOR_BALLOON_REPORTS,	/* bound, hands freed blocks to the host */
};

/* The bound virtio balloon that does the most with freed memory, named into @dev. */
enum doctor_balloon doctor_balloon(char *dev, size_t len);

/*
 * page_reporting_order into *@order (-1 while unset: the kernel then uses
 * the pageblock order), the raw text into @raw.  0, -ENOENT before Linux
 * 5.14 (the order was the pageblock order, fixed), or -EINVAL.
 */
int doctor_reporting_order(long *order, char *raw, size_t len);

/* machine_max_order(), or x86-64's 10 when /proc/buddyinfo cannot tell. */
int doctor_max_order(void);

/* kernel.numa_balancing into *@mode (0 off; 1, 2, 3 on).  0, -ENOENT without NUMA balancing, or -EINVAL. */
int doctor_numa_balancing(long *mode);

/* Memory facts (page sizes, pools, NUMA nodes) and fit checks are machine/'s. */

#define DOCTOR_THP_DIR "/sys/kernel/mm/transparent_hugepage"
#define DOCTOR_CPU_DIR "/sys/devices/system/cpu"
#define DOCTOR_VIRTIO_DIR "/sys/bus/virtio/devices"
#define DOCTOR_REPORTING_ORDER "/sys/module/page_reporting/parameters/page_reporting_order"
#define DOCTOR_NUMA_BALANCING "/proc/sys/kernel/numa_balancing"

#endif
