/* perfctr: open and read one perf_event_open counter for the calling thread. */
#ifndef CLEARPATH_UTIL_PERFCTR_H
#define CLEARPATH_UTIL_PERFCTR_H

#include <stdint.h>

/*
 * Open a counting event (@type, @config as in perf_event_attr) on the calling
 * thread, any CPU, already enabled.  Counts kernel work too when
 * perf_event_paranoid allows, since page faults are part of what clearpath
 * measures; falls back to user-only.  Returns an fd >= 0 or -errno.
 */
int perfctr_open(uint32_t type, uint64_t config);
/* Read the running count.  0 or -errno. */
int perfctr_read(int fd, uint64_t *value);

/* A count with the times the event was enabled and actually on a counter (multiplexing). */
struct perfctr_count {
	uint64_t value;
	uint64_t enabled_ns;
	uint64_t running_ns;
};

/*
 * As perfctr_open(), but the fd reads with the enabled and running times
 * (PERF_FORMAT_TOTAL_TIME_ENABLED|RUNNING), so a multiplexed count can be
 * scaled.  Read it with perfctr_read_timed() only.  An fd >= 0 or -errno.
 */
int perfctr_open_timed(uint32_t type, uint64_t config);
/* Read an fd of perfctr_open_timed().  0 or -errno (@c untouched). */
int perfctr_read_timed(int fd, struct perfctr_count *c);
/* A sentence saying why @err (a -errno from perfctr_open) means no counter. */
const char *perfctr_strerror(int err);

#endif
