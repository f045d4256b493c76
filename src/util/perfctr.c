/* perfctr: a thin wrapper over perf_event_open(2) for counting one event in the calling thread. */
#include "util/perfctr.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int perfctr_try(uint32_t type, uint64_t config, int exclude_kernel, uint64_t read_format)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.exclude_hv = 1;
	attr.exclude_kernel = exclude_kernel;
	attr.read_format = read_format;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

static int perfctr_open_fmt(uint32_t type, uint64_t config, uint64_t read_format)
{
	int fd = perfctr_try(type, config, 0, read_format);

	if (fd == -EACCES || fd == -EPERM)
		fd = perfctr_try(type, config, 1, read_format);
	return fd;
}

int perfctr_open(uint32_t type, uint64_t config)
{
	return perfctr_open_fmt(type, config, 0);
}

int perfctr_open_timed(uint32_t type, uint64_t config)
{
	return perfctr_open_fmt(type, config,
				PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING);
}

int perfctr_read(int fd, uint64_t *value)
{
	ssize_t n = read(fd, value, sizeof(*value));

	if (n == (ssize_t)sizeof(*value))
		return 0;
	return n < 0 ? -errno : -EIO;
}

int perfctr_read_timed(int fd, struct perfctr_count *c)
{
	/* read_format order: value, time_enabled, time_running */
	uint64_t v[3];
	ssize_t n = read(fd, v, sizeof(v));

	if (n != (ssize_t)sizeof(v))
		return n < 0 ? -errno : -EIO;
	c->value = v[0];
	c->enabled_ns = v[1];
	c->running_ns = v[2];
	return 0;
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
