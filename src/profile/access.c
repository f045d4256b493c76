/* access: whether this process may sample the kernel and read its symbol addresses, and what to change if not. */
#include "profile/profile.h"
#include "util/sysfs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Capability bits (linux/capability.h) that lift the two restrictions. */
#define PROFILE_CAP_SYS_ADMIN 21
#define PROFILE_CAP_SYSLOG 34
#define PROFILE_CAP_PERFMON 38

/* The effective capabilities of this process (read through the root, so a fixture can be unprivileged). */
static uint64_t access_caps(void)
{
	char hex[64];

	if (sysfs_read_key("/proc/self/status", "CapEff", hex, sizeof(hex)))
		return 0;
	return strtoull(hex, NULL, 16);
}

static bool access_has(uint64_t caps, int cap)
{
	return caps & (1ull << cap);
}

/* A signed sysctl (perf_event_paranoid may be -1) into *@out.  0 or -errno. */
static int access_sysctl(const char *path, long *out)
{
	char value[32], *end;

	if (sysfs_read_line(path, value, sizeof(value)))
		return -ENOENT;
	*out = strtol(value, &end, 10);
	return end == value ? -EINVAL : 0;
}

int profile_access(char *why, size_t whylen, char *fix, size_t fixlen)
{
	uint64_t caps = access_caps();
	long paranoid, kptr;

	why[0] = fix[0] = '\0';
	if (access_sysctl("/proc/sys/kernel/perf_event_paranoid", &paranoid)) {
		snprintf(why, whylen, "this kernel has no perf events (no /proc/sys/kernel/perf_event_paranoid)");
		snprintf(fix, fixlen, "boot a kernel built with CONFIG_PERF_EVENTS");
		return -ENOSYS;
	}
	if (paranoid > 1 && !access_has(caps, PROFILE_CAP_PERFMON) &&
	    !access_has(caps, PROFILE_CAP_SYS_ADMIN)) {
		snprintf(why, whylen,
			 "kernel.perf_event_paranoid is %ld: an unprivileged profile cannot see the kernel, "
			 "where page faults clear pages", paranoid);
		snprintf(fix, fixlen, "sysctl -w kernel.perf_event_paranoid=1 (or run as root)");
		return -EACCES;
	}
	/* 0 shows addresses to all; 1 to CAP_SYSLOG; 2 to nobody */
	if (!access_sysctl("/proc/sys/kernel/kptr_restrict", &kptr) &&
	    (kptr >= 2 || (kptr == 1 && !access_has(caps, PROFILE_CAP_SYSLOG)))) {
		snprintf(why, whylen,
			 "kernel.kptr_restrict is %ld: /proc/kallsyms hides kernel addresses, so kernel "
			 "samples cannot be named", kptr);
		snprintf(fix, fixlen, "sysctl -w kernel.kptr_restrict=%s", kptr >= 2 ? "0" : "0 (or run as root)");
		return -EPERM;
	}
	return 0;
}
