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

#endif
