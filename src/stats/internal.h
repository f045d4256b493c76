/* stats internal: helpers shared by the stats .c files, not part of the module's API. */
#ifndef CLEARPATH_STATS_INTERNAL_H
#define CLEARPATH_STATS_INTERNAL_H

#include "stats/stats.h"

/*
 * Fill e->ci_low/ci_high with mean -/+ t(1 - alpha/2, e->df) * sqrt(e->var_mean).
 * A zero variance gives the point interval; an undefined variance or df < 1e-9
 * (n < 2) gives NAN bounds.  Never fails.
 */
void stats_estimate_interval(struct stats_estimate *e, double mean, double alpha);

/* 0 when @s has values, n > 0, all finite, and alpha is in (0, 1); else -EINVAL. */
int stats_check_input(const struct stats_sample_set *s, double alpha);

/* What stats_robust_levels() found besides the levels. */
struct stats_robust_sum {
	size_t outliers;	/* samples flagged */
	double ssw, df_w;	/* kept samples: squares about their session's level, and their df */
	double inv_n;		/* sum over sessions of 1 / (samples kept) */
};

/*
 * Each session's level into @ids/@levels (sessions in ascending id order,
 * both arrays of @s->n entries), outlier flags into @flags (may be NULL) in
 * @s's order, the rest into *@sum.  Returns the number of sessions, or
 * -ENOMEM.  @s must have passed stats_check_input().
 */
int stats_robust_levels(const struct stats_sample_set *s, int *ids, double *levels, bool *flags,
			struct stats_robust_sum *sum);

#endif
