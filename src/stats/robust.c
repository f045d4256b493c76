/* stats robust: each session's level, its samples' mean once the wild ones (far from the session median) are set aside. */
#include "stats/internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

/*
 * Why this estimator (tests/unit/test_stats_sim.c has the numbers): the
 * session mean is efficient on clean data but one -15% dip in a session of
 * three moves it by 5%, and the rule then finds a true +3% change less than
 * half the time.  The session median ignores the dip but throws away a
 * third of the information on clean data.  Setting aside only the samples
 * that are far from the median, on a scale pooled over the cell's sessions,
 * keeps the mean's efficiency when nothing is wild and the median's
 * robustness when something is: a hard-rejection (skipped-mean) M-estimate.
 */

/* One sample with its session and its place in the caller's arrays. */
struct stats_robs {
	int session;
	size_t idx;
	double value;
};

static int stats_robs_cmp(const void *a, const void *b)
{
	const struct stats_robs *x = a, *y = b;

	if (x->session != y->session)
		return (x->session > y->session) - (x->session < y->session);
	return (x->value > y->value) - (x->value < y->value);
}

/* The end of the session run of @o starting at @i. */
static size_t stats_run_end(const struct stats_robs *o, size_t n, size_t i)
{
	size_t j = i;

	while (j < n && o[j].session == o[i].session)
		j++;
	return j;
}

/* Median of the value-sorted run o[i..j). */
static double stats_run_median(const struct stats_robs *o, size_t i, size_t j)
{
	size_t m = i + (j - i) / 2;

	return (j - i) % 2 ? o[m].value : (o[m - 1].value + o[m].value) / 2;
}

/*
 * The robust within-session sd: 1.4826 x the median absolute residual about
 * the session medians, over sessions of >= 3 samples, leaving out the
 * median sample of an odd session (its residual is 0 by construction).
 * NAN with fewer than 2 residuals.  @res is scratch of n entries.
 */
static double stats_within_scale(const struct stats_robs *o, size_t n, double *res)
{
	size_t m = 0;

	for (size_t i = 0, j; i < n; i = j) {
		double med;

		j = stats_run_end(o, n, i);
		if (j - i < 3)
			continue;
		med = stats_run_median(o, i, j);
		for (size_t t = i; t < j; t++)
			if ((j - i) % 2 == 0 || t != i + (j - i) / 2)
				res[m++] = fabs(o[t].value - med);
	}
	if (m < 2)
		return NAN;
	gsl_sort(res, 1, m);
	return 1.4826 * gsl_stats_median_from_sorted_data(res, 1, m);
}

/* Whether @v is wild in a session with median @med, on the scale @sigma. */
static bool stats_is_outlier(double v, double med, double sigma)
{
	double r = fabs(v - med);

	/* rounding-level residuals are never wild, even when the scale is 0 */
	return r > STATS_OUTLIER_K * sigma && r > 1e-9 * fabs(med);
}

/*
 * The level of the session o[i..j): the mean of its samples that are not
 * wild; sessions of fewer than 3 cannot say which sample is, and keep all.
 */
static double stats_session_level(const struct stats_robs *o, size_t i, size_t j, double sigma, bool *flags,
				  struct stats_robust_sum *rs)
{
	double med = stats_run_median(o, i, j), sum = 0, level;
	size_t kept = 0;

	for (size_t t = i; t < j; t++) {
		bool wild = j - i >= 3 && !isnan(sigma) && stats_is_outlier(o[t].value, med, sigma);

		if (flags)
			flags[o[t].idx] = wild;
		rs->outliers += wild;
		if (!wild) {
			sum += o[t].value;
			kept++;
		}
	}
	/* the median itself is never wild (residual 0), so kept > 0 for odd sessions */
	if (!kept)
		return med;
	level = sum / (double)kept;
	for (size_t t = i; t < j; t++)
		if (!flags || !flags[o[t].idx])
			rs->ssw += (o[t].value - level) * (o[t].value - level);
	rs->df_w += (double)(kept - 1);
	rs->inv_n += 1 / (double)kept;
	return level;
}

int stats_robust_levels(const struct stats_sample_set *s, int *ids, double *levels, bool *flags,
			struct stats_robust_sum *sum)
{
	struct stats_robs *o = malloc(s->n * sizeof(*o));
	double *res = malloc(s->n * sizeof(*res)), sigma;
	bool *fl = flags ? flags : malloc(s->n * sizeof(*fl));
	size_t k = 0;

	if (!o || !res || !fl) {
		if (!flags)
			free(fl);
		free(o);
		free(res);
		return -ENOMEM;
	}
	for (size_t i = 0; i < s->n; i++)
		o[i] = (struct stats_robs){ s->session ? s->session[i] : 0, i, s->values[i] };
	qsort(o, s->n, sizeof(*o), stats_robs_cmp);
	sigma = s->keep_all ? NAN : stats_within_scale(o, s->n, res);
	*sum = (struct stats_robust_sum){ 0 };
	for (size_t i = 0, j; i < s->n; i = j, k++) {
		j = stats_run_end(o, s->n, i);
		ids[k] = o[i].session;
		levels[k] = stats_session_level(o, i, j, sigma, fl, sum);
	}
	free(o);
	free(res);
	if (!flags)
		free(fl);
	return (int)k;
}

int stats_session_levels(const struct stats_sample_set *s, int *ids, double *levels)
{
	struct stats_robust_sum sum;

	if (!ids || !levels || stats_check_input(s, 0.5))
		return -EINVAL;
	return stats_robust_levels(s, ids, levels, NULL, &sum);
}

int stats_outliers(const struct stats_sample_set *s, bool *flags)
{
	double *levels;
	int *ids, ret;
	struct stats_robust_sum sum = { 0 };

	if (stats_check_input(s, 0.5))
		return -EINVAL;
	levels = malloc(s->n * sizeof(*levels));
	ids = malloc(s->n * sizeof(*ids));
	ret = levels && ids ? stats_robust_levels(s, ids, levels, flags, &sum) : -ENOMEM;
	free(levels);
	free(ids);
	return ret < 0 ? ret : (int)sum.outliers;
}
