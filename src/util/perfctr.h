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
/* A sentence saying why @err (a -errno from perfctr_open) means no counter. */
const char *perfctr_strerror(int err);

#endif
