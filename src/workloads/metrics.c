/* metrics: turn a run's --counters totals and --profile shares into result metrics, normalised so runs of one benchmark compare. */
#include "workloads/workload.h"

#include <stdio.h>
#include <string.h>

/* What a count is divided by: per thread, per byte, per KB or per page of the run, or nothing. */
enum metric_per { PER_THREAD_MS, PER_PAGE, PER_RUN, PER_BYTE, PER_KB };

/* Indexed by enum counters_id; units read as perf stat's, scaled to the run. */
static const struct {
	enum metric_per per;
	const char *unit;
} metric_units[COUNTERS_N] = {
	[COUNTERS_TASK_CLOCK] = { PER_THREAD_MS, "msec" },
	[COUNTERS_PAGE_FAULTS] = { PER_PAGE, "faults/page" },
	[COUNTERS_CONTEXT_SWITCHES] = { PER_RUN, "count" },
	[COUNTERS_CPU_MIGRATIONS] = { PER_RUN, "count" },
	[COUNTERS_CYCLES] = { PER_BYTE, "cycles/byte" },
	[COUNTERS_INSTRUCTIONS] = { PER_BYTE, "instructions/byte" },
	[COUNTERS_CACHE_MISSES] = { PER_KB, "misses/KB" },
	[COUNTERS_DTLB_LOAD_MISSES] = { PER_PAGE, "misses/page" },
};

static double metric_scale(enum metric_per per, double v, double bytes, double threads, double page)
{
	switch (per) {
	case PER_THREAD_MS:
		return v / threads / 1e6;	/* task-clock counts nanoseconds */
	case PER_PAGE:
		return v / (bytes / page);
	case PER_BYTE:
		return v / bytes;
	case PER_KB:
		return v / (bytes / 1024);
	case PER_RUN:
		break;
	}
	return v;
}

static bool metric_present(const struct wl_result *res, const char *name)
{
	for (size_t i = 0; i < res->nmetrics; i++)
		if (!strcmp(res->metrics[i].name, name))
			return true;
	return false;
}

void wl_counter_metrics(struct wl_result *res, uint64_t page)
{
	const struct counters_totals *c = &res->counters;
	unsigned threads = res->threads ?: 1;
	/* res->bytes is one thread's; the counts are summed over every thread */
	double bytes = (double)res->bytes * threads;

	if (!c->on || !res->bytes || !page)
		return;
	for (size_t i = 0; i < COUNTERS_N; i++) {
		const char *name = counters_events[i].name;

		/* -c measured the same cycles over the same region: one metric, not two */
		if (c->err[i] || metric_present(res, name))
			continue;
		wl_result_add(res, name,
			      metric_scale(metric_units[i].per, c->value[i], bytes, threads, (double)page),
			      metric_units[i].unit, false);
	}
}

void wl_profile_metrics(struct wl_result *res)
{
	const struct profile_summary *p = &res->profile;

	if (!p->on || !p->valid)
		return;
	snprintf(res->profile_metric[0], sizeof(res->profile_metric[0]), "profile:clearing");
	wl_result_add(res, res->profile_metric[0], p->clearing, "%", false);
	for (size_t i = 0; i < p->ntop; i++) {
		char *name = res->profile_metric[i + 1];

		snprintf(name, sizeof(res->profile_metric[0]), "profile:%s", p->top[i].name);
		wl_result_add(res, name, p->top[i].share, "%", false);
	}
}
