/* clock: the one monotonic clock clearpath times with. */
#ifndef CLEARPATH_UTIL_CLOCK_H
#define CLEARPATH_UTIL_CLOCK_H

#include <stdint.h>

/*
 * CLOCK_MONOTONIC in nanoseconds.  System-wide, so values taken in one
 * process (a run's start) compare with values taken in another (a session's).
 */
uint64_t clock_now_ns(void);

#endif
