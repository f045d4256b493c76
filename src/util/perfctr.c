/* perfctr: a thin wrapper over perf_event_open(2) for counting one event in the calling thread. */
#include "util/perfctr.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int perfctr_try(uint32_t type, uint64_t config, int exclude_kernel)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.exclude_hv = 1;
	attr.exclude_kernel = exclude_kernel;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

int perfctr_open(uint32_t type, uint64_t config)
{
	int fd = perfctr_try(type, config, 0);

	if (fd == -EACCES || fd == -EPERM)
		fd = perfctr_try(type, config, 1);
	return fd;
}

int perfctr_read(int fd, uint64_t *value)
{
	ssize_t n = read(fd, value, sizeof(*value));

	if (n == (ssize_t)sizeof(*value))
		return 0;
	return n < 0 ? -errno : -EIO;
}

const char *perfctr_strerror(int err)
{
	switch (-err) {
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		return "this CPU or hypervisor does not expose the hardware counter (common in VMs)";
	case EACCES:
	case EPERM:
		return "not permitted: lower /proc/sys/kernel/perf_event_paranoid or run as root";
	case ENOSYS:
		return "the kernel was built without perf events (CONFIG_PERF_EVENTS)";
	default:
		return strerror(-err);
	}
}
