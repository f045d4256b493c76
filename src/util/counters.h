/* counters: the --counters event set (software and hardware perf events) of one thread over a timed region. */
#ifndef CLEARPATH_UTIL_COUNTERS_H
#define CLEARPATH_UTIL_COUNTERS_H

#include "util/perfctr.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The events, software first; the order is also the read order (see counters_start()). */
enum counters_id {
	COUNTERS_TASK_CLOCK,
	COUNTERS_PAGE_FAULTS,
	COUNTERS_CONTEXT_SWITCHES,
	COUNTERS_CPU_MIGRATIONS,
	COUNTERS_CYCLES,	/* first hardware event */
	COUNTERS_INSTRUCTIONS,
	COUNTERS_CACHE_MISSES,
	COUNTERS_DTLB_LOAD_MISSES,
	COUNTERS_N,
};

#define COUNTERS_FIRST_HW COUNTERS_CYCLES

struct counters_event {
	const char *name;	/* as perf stat names it; also the result-class suffix */
	uint32_t type;		/* perf_event_attr.type */
	uint64_t config;	/* perf_event_attr.config */
	bool hardware;
};

/* Every event, indexed by enum counters_id (doctor probes the hardware ones from here). */
extern const struct counters_event counters_events[COUNTERS_N];

/* What one set counted over its start/stop pairs: the part a result carries. */
struct counters_totals {
	bool on;			/* counting was asked for (--counters) */
	double value[COUNTERS_N];	/* summed over pairs (and threads); scaled when multiplexed */
	int err[COUNTERS_N];		/* 0: value is a count; else -errno: no value at all */
	bool scaled[COUNTERS_N];	/* multiplexed: extrapolated by enabled/running time */
};

/* The open set of the calling thread. */
struct counters_set {
	int fd[COUNTERS_N];		/* -1: not open (err says why) */
	struct perfctr_count start[COUNTERS_N];
	struct counters_totals tot;
};

/* Opens one event as perfctr_open_timed() does: an fd or -errno.  Injectable for tests. */
typedef int (*counters_open_fn)(uint32_t type, uint64_t config);

/*
 * Open every event for the calling thread with @open (NULL: perfctr_open_timed)
 * and mark the set on.  An event that cannot open keeps its -errno in
 * s->tot.err and is skipped from then on; nothing else fails.  Returns how
 * many events opened.
 */
size_t counters_open(struct counters_set *s, counters_open_fn open);
/*
 * Read every open event: call right before the timed region starts (stop:
 * right after it ends).  Both read in the same fixed order, so each event
 * counts the same number of reads of the others.  A failed read drops that
 * event (err set, fd closed).
 */
void counters_start(struct counters_set *s);
void counters_stop(struct counters_set *s);
/* Close the set's fds; its totals stay.  Safe to call twice. */
void counters_close(struct counters_set *s);

/*
 * Add @from (another thread's totals) into @into.  An event missing in either
 * is missing in the sum: a total over some threads only would be a lie.
 */
void counters_merge(struct counters_totals *into, const struct counters_totals *from);

/* A sentence saying why @err (a -errno in counters_totals.err) left an event without a value. */
const char *counters_strerror(int err);

/*
 * Describe the events of @t without a value, one line per distinct reason
 * ("hardware counters unavailable (<why>): cycles, instructions"), lines
 * separated by '\n', into @buf.  Returns the number of lines; 0 (and "")
 * when every event counted or @t is not on.
 */
size_t counters_describe_missing(const struct counters_totals *t, char *buf, size_t len);

/*
 * log_warn() what counters_describe_missing() and multiplexing say about @t,
 * the first time there is anything to say in this process: the harness runs
 * many invocations in one process, and the reason does not change between them.
 */
void counters_warn_once(const struct counters_totals *t);

#endif
