/* stats modes: whether a column's session levels fall into two clusters well apart (a boot lands in a fast or a slow mode). */
#include "stats/internal.h"

#include <math.h>

#include <gsl/gsl_sort.h>

/*
 * The statistic: sort the k levels, split them at the widest gap that leaves
 * at least 2 on each side, and divide that gap by the pooled sd of the
 * levels about their cluster's mean (k - 2 df).  Normal levels give small
 * values, two modes far apart large ones; how large a value normal levels
 * reach depends strongly on k (a 2 + 2 split of 4 normal levels often has
 * tight pairs), so the threshold is a table: the 99th percentile of the
 * statistic over 200,000 sets of k standard normal levels per k
 * (test_stats_sim --modes-table prints it again).  Beyond 40 sessions the
 * k = 40 value stands, which flags fewer normal columns, not more.
 */
static const double stats_modes_crit[] = {
	/* k = 4 .. 40 */
	16.204, 10.147, 7.596, 5.966, 5.063, 4.373, 3.896, 3.531, 3.224, 2.957,
	2.787, 2.637, 2.475, 2.358, 2.243, 2.161, 2.073, 2.007, 1.944, 1.890,
	1.836, 1.794, 1.753, 1.708, 1.683, 1.652, 1.622, 1.584, 1.563, 1.548,
	1.521, 1.499, 1.471, 1.470, 1.444, 1.434, 1.414,
};

#define STATS_MODES_MIN_K	4
#define STATS_MODES_MAX_K	(STATS_MODES_MIN_K + sizeof(stats_modes_crit) / sizeof(stats_modes_crit[0]) - 1)

double stats_modes_threshold(size_t k)
{
	if (k < STATS_MODES_MIN_K)
		return NAN;
	return stats_modes_crit[(k > STATS_MODES_MAX_K ? STATS_MODES_MAX_K : k) - STATS_MODES_MIN_K];
}

/* Sum of squares of sorted[i..j) about their mean, into *@ss; returns the mean. */
static double stats_run_ss(const double *sorted, size_t i, size_t j, double *ss)
{
	double m = 0;

	for (size_t t = i; t < j; t++)
		m += sorted[t];
	m /= (double)(j - i);
	*ss = 0;
	for (size_t t = i; t < j; t++)
		*ss += (sorted[t] - m) * (sorted[t] - m);
	return m;
}

/* The widest gap of the sorted levels with at least 2 on each side: the index of its upper side. */
static size_t stats_widest_gap(const double *sorted, size_t k)
{
	size_t at = 2;

	for (size_t i = 3; i + 2 <= k; i++)
		if (sorted[i] - sorted[i - 1] > sorted[at] - sorted[at - 1])
			at = i;
	return at;
}

double stats_modes_statistic(double *sorted, size_t k, double level_noise_var, double *gap_pct, size_t *low)
{
	double ss_lo, ss_hi, m_lo, m_hi, var, stat;
	size_t at;

	if (k < STATS_MODES_MIN_K || !sorted)
		return NAN;
	gsl_sort(sorted, 1, k);
	at = stats_widest_gap(sorted, k);
	m_lo = stats_run_ss(sorted, 0, at, &ss_lo);
	m_hi = stats_run_ss(sorted, at, k, &ss_hi);
	var = (ss_lo + ss_hi) / (double)(k - 2);
	/* levels closer than their own within-session noise allows say nothing about clusters */
	if (level_noise_var > var)
		var = level_noise_var;
	stat = sorted[at] - sorted[at - 1];
	stat = var > 0 ? stat / sqrt(var) : (stat > 0 ? INFINITY : 0);
	if (gap_pct)
		*gap_pct = m_lo > 0 ? 100 * (m_hi - m_lo) / m_lo : NAN;
	if (low)
		*low = at;
	return stat;
}

bool stats_share_modes(struct stats_cell *const *cells, size_t n, double alpha)
{
	double ss = 0, df = 0, pooled;
	bool modes = false;

	for (size_t i = 0; i < n; i++) {
		if (!cells[i] || cells[i]->sessions < 2)
			continue;
		modes |= cells[i]->modes == 2;
		ss += cells[i]->var_sessions * (double)(cells[i]->sessions - 1);
		df += (double)(cells[i]->sessions - 1);
	}
	if (!modes || !(df > 0))
		return false;
	pooled = ss / df;
	for (size_t i = 0; i < n; i++) {
		struct stats_cell *c = cells[i];

		if (!c || c->sessions < 2 || !(c->var_sessions < pooled))
			continue;
		c->var_sessions = pooled;
		c->robust.var_mean = pooled / (double)c->sessions;
		c->robust.df = df;
		c->sessions_df = df;
		stats_estimate_interval(&c->robust, c->level, alpha);
		c->modes_shared = true;
	}
	return true;
}
