/* counters: open, read and sum the --counters perf events of the calling thread; say once what could not count. */
#include "util/counters.h"
#include "util/log.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

const struct counters_event counters_events[COUNTERS_N] = {
	[COUNTERS_TASK_CLOCK] = { "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, false },
	[COUNTERS_PAGE_FAULTS] = { "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, false },
	[COUNTERS_CONTEXT_SWITCHES] = { "context-switches", PERF_TYPE_SOFTWARE,
					PERF_COUNT_SW_CONTEXT_SWITCHES, false },
	[COUNTERS_CPU_MIGRATIONS] = { "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS,
				      false },
	[COUNTERS_CYCLES] = { "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, true },
	[COUNTERS_INSTRUCTIONS] = { "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, true },
	[COUNTERS_CACHE_MISSES] = { "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, true },
	[COUNTERS_DTLB_LOAD_MISSES] = { "dTLB-load-misses", PERF_TYPE_HW_CACHE,
					PERF_COUNT_HW_CACHE_DTLB | (PERF_COUNT_HW_CACHE_OP_READ << 8) |
						(PERF_COUNT_HW_CACHE_RESULT_MISS << 16),
					true },
};

/* Our own reason for an event that opened but never ran on a counter over a timed region. */
#define COUNTERS_ENEVER EBUSY

size_t counters_open(struct counters_set *s, counters_open_fn open)
{
	size_t n = 0;

	memset(s, 0, sizeof(*s));
	s->tot.on = true;
	for (size_t i = 0; i < COUNTERS_N; i++) {
		s->fd[i] = (open ?: perfctr_open_timed)(counters_events[i].type, counters_events[i].config);
		if (s->fd[i] < 0) {
			s->tot.err[i] = s->fd[i];
			s->fd[i] = -1;
		} else {
			n++;
		}
	}
	return n;
}

static void counters_drop(struct counters_set *s, size_t i, int err)
{
	close(s->fd[i]);
	s->fd[i] = -1;
	s->tot.err[i] = err;
}

void counters_start(struct counters_set *s)
{
	for (size_t i = 0; i < COUNTERS_N; i++) {
		int ret;

		if (s->fd[i] >= 0 && (ret = perfctr_read_timed(s->fd[i], &s->start[i])))
			counters_drop(s, i, ret);
	}
}

/*
 * Add one interval.  A multiplexed event (running < enabled) is scaled up by
 * enabled/running, as perf stat does; one that never ran has no value to
 * scale, so it is dropped rather than reported as zero.
 */
static void counters_add(struct counters_set *s, size_t i, const struct perfctr_count *end)
{
	const struct perfctr_count *b = &s->start[i];
	uint64_t value = end->value - b->value, enabled = end->enabled_ns - b->enabled_ns,
		 running = end->running_ns - b->running_ns;

	if (running < enabled) {
		if (!running) {
			counters_drop(s, i, -COUNTERS_ENEVER);
			return;
		}
		s->tot.value[i] += (double)value * ((double)enabled / (double)running);
		s->tot.scaled[i] = true;
		return;
	}
	s->tot.value[i] += (double)value;
}

void counters_stop(struct counters_set *s)
{
	struct perfctr_count end[COUNTERS_N];
	int ret[COUNTERS_N];

	/* All reads first, in start's order; the arithmetic after them counts in no event. */
	for (size_t i = 0; i < COUNTERS_N; i++)
		ret[i] = s->fd[i] >= 0 ? perfctr_read_timed(s->fd[i], &end[i]) : 0;
	for (size_t i = 0; i < COUNTERS_N; i++) {
		if (s->fd[i] < 0)
			continue;
		if (ret[i])
			counters_drop(s, i, ret[i]);
		else
			counters_add(s, i, &end[i]);
	}
}

void counters_close(struct counters_set *s)
{
	for (size_t i = 0; i < COUNTERS_N; i++) {
		if (s->fd[i] >= 0)
			close(s->fd[i]);
		s->fd[i] = -1;
	}
}

void counters_merge(struct counters_totals *into, const struct counters_totals *from)
{
	into->on |= from->on;
	for (size_t i = 0; i < COUNTERS_N; i++) {
		if (from->err[i] && !into->err[i])
			into->err[i] = from->err[i];
		into->value[i] += from->value[i];
		into->scaled[i] |= from->scaled[i];
	}
}

const char *counters_strerror(int err)
{
	if (err == -COUNTERS_ENEVER)
		return "never got a hardware counter: other events (perf, the NMI watchdog) hold them all";
	return perfctr_strerror(err);
}

/* Append the events of @t missing for reason @err to @buf ("a, b"); whether all are hardware. */
static bool counters_names_for(const struct counters_totals *t, int err, char *buf, size_t len)
{
	bool all_hw = true;

	buf[0] = '\0';
	for (size_t i = 0; i < COUNTERS_N; i++) {
		if (t->err[i] != err)
			continue;
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? ", " : "",
			 counters_events[i].name);
		all_hw &= counters_events[i].hardware;
	}
	return all_hw;
}

/* Whether reason @i (an index into t->err) already showed up at a smaller index. */
static bool counters_reason_seen(const struct counters_totals *t, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (t->err[j] == t->err[i])
			return true;
	return false;
}

size_t counters_describe_missing(const struct counters_totals *t, char *buf, size_t len)
{
	size_t lines = 0;
	char names[256];

	buf[0] = '\0';
	if (!t->on)
		return 0;
	for (size_t i = 0; i < COUNTERS_N; i++) {
		bool hw;

		if (!t->err[i] || counters_reason_seen(t, i))
			continue;
		hw = counters_names_for(t, t->err[i], names, sizeof(names));
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s unavailable (%s): %s",
			 lines ? "\n" : "", hw ? "hardware counters" : "counters",
			 counters_strerror(t->err[i]), names);
		lines++;
	}
	return lines;
}

void counters_warn_once(const struct counters_totals *t)
{
	static bool warned_missing, warned_scaled;
	char buf[1024], names[256] = "";

	if (!warned_missing && counters_describe_missing(t, buf, sizeof(buf))) {
		warned_missing = true;
		for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
			log_warn("%s", line);
	}
	for (size_t i = 0; t->on && i < COUNTERS_N; i++)
		if (t->scaled[i] && !t->err[i])
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 names[0] ? ", " : "", counters_events[i].name);
	if (!warned_scaled && names[0]) {
		warned_scaled = true;
		log_warn("counters multiplexed, values scaled by the time they ran: %s", names);
	}
}
