/* stats cell: one column's summary: descriptive statistics plus the nested (session-aware), robust and pooled estimates. */
#include "stats/internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

/* One sample tagged with its session, so sorting groups the sessions. */
struct stats_obs {
	int session;
	double value;
};

/* One-way ANOVA of samples grouped by session. */
struct stats_anova {
	size_t k;		/* sessions */
	double N, sum_n2;	/* samples, sum of squared session sizes */
	double msb, msw;	/* mean squares; NAN when their df is 0 */
	double df_b, df_w;
};

/* One term c * MS (MS with df degrees of freedom) of a variance estimate. */
struct stats_ms_term {
	double c, ms, df;
};

void stats_estimate_interval(struct stats_estimate *e, double mean, double alpha)
{
	double half;

	if (!(e->df > 1e-9) || isnan(e->var_mean)) {
		e->ci_low = e->ci_high = NAN;
		return;
	}
	half = e->var_mean > 0 ? gsl_cdf_tdist_Pinv(1 - alpha / 2, e->df) * sqrt(e->var_mean) : 0;
	e->ci_low = mean - half;
	e->ci_high = mean + half;
}

static int stats_obs_cmp(const void *a, const void *b)
{
	const struct stats_obs *x = a, *y = b;

	return (x->session > y->session) - (x->session < y->session);
}

bool stats_no_spread(double var_mean, double center)
{
	/* relative sd 1e-9: far above double rounding (1e-16), far below any timer's noise */
	return !(var_mean > 1e-18 * center * center);
}

/* @o must be sorted by session.  Every pass is over one session's run of @o. */
static void stats_anova_compute(const struct stats_obs *o, size_t n, double grand, struct stats_anova *a)
{
	double ssb = 0, ssw = 0;

	memset(a, 0, sizeof(*a));
	for (size_t i = 0, j; i < n; i = j) {
		double sum = 0, ni, mi;

		for (j = i; j < n && o[j].session == o[i].session; j++)
			sum += o[j].value;
		ni = (double)(j - i);
		mi = sum / ni;
		for (size_t t = i; t < j; t++)
			ssw += (o[t].value - mi) * (o[t].value - mi);
		ssb += ni * (mi - grand) * (mi - grand);
		a->sum_n2 += ni * ni;
		a->k++;
	}
	a->N = (double)n;
	a->df_b = (double)a->k - 1;
	a->df_w = (double)(n - a->k);
	a->msb = a->df_b > 0 ? ssb / a->df_b : NAN;
	a->msw = a->df_w > 0 ? ssw / a->df_w : NAN;
}

/*
 * Sum c_i * MS_i into e->var_mean with Satterthwaite's df.  When the sum is 0
 * (no spread at all) df is 0/0; @nominal_df stands in, since the interval is
 * a point anyway.
 */
static void stats_satterthwaite(const struct stats_ms_term *t, size_t nt, double nominal_df,
				struct stats_estimate *e)
{
	double var = 0, den = 0;

	for (size_t i = 0; i < nt; i++) {
		double part = t[i].c * t[i].ms;

		var += part;
		den += part * part / t[i].df;
	}
	e->var_mean = var;
	e->df = den > 0 ? var * var / den : nominal_df;
}

/* Samples as if independent: s^2 / N with N - 1 df. */
static void stats_pooled_estimate(double sd, size_t n, struct stats_estimate *e)
{
	e->var_mean = n > 1 ? sd * sd / (double)n : NAN;
	e->df = n > 1 ? (double)(n - 1) : 0;
}

/*
 * Session-aware estimate.  It falls back to the pooled one when the sessions
 * cannot be told apart from the samples: one session (nothing to estimate
 * the between part from), or one sample per session (then the samples are
 * the session means and s^2 / N is already the right variance).
 */
static void stats_nested_estimate(const struct stats_anova *a, struct stats_cell *c)
{
	struct stats_ms_term t[2];
	size_t nt = 0;
	double n0, vb, w;

	c->var_between = NAN;
	c->var_within = a->msw;
	if (a->k < 2 || a->df_w == 0) {
		c->nested = c->pooled;
		return;
	}
	n0 = (a->N - a->sum_n2 / a->N) / a->df_b;
	vb = (a->msb - a->msw) / n0;
	/* Weight of var_between in Var(mean of all samples) = sum(n_i^2) / N^2. */
	w = a->sum_n2 / (a->N * a->N);
	if (vb > 0) {
		c->var_between = vb;
		t[nt++] = (struct stats_ms_term){ w / n0, a->msb, a->df_b };
		t[nt++] = (struct stats_ms_term){ 1 / a->N - w / n0, a->msw, a->df_w };
	} else {
		/* Clamped: the sessions look no more different than the samples within them. */
		c->var_between = 0;
		t[nt++] = (struct stats_ms_term){ 1 / a->N, a->msw, a->df_w };
	}
	stats_satterthwaite(t, nt, a->df_b, &c->nested);
}

/*
 * The mean and spread of the session levels: the estimate STATS_RULE_NESTED
 * compares.  Each level varies by the between-session part plus its own
 * within-session noise, so Var(mean of levels) is at least
 * sigma_w^2 * sum(1 / n_i) / k^2; when the levels agree more closely than
 * that (as the ANOVA clamps a negative between-session component at 0), the
 * within-session variance of the kept samples, with its df, stands in.
 */
static void stats_robust_estimate(double *levels, size_t k, const struct stats_robust_sum *rs,
				  struct stats_cell *c)
{
	double floor = rs->df_w > 0 ? rs->ssw / rs->df_w * rs->inv_n / (double)k : NAN;

	c->level = gsl_stats_mean(levels, 1, k);
	c->var_sessions = k > 1 ? gsl_stats_variance_m(levels, 1, k, c->level) : NAN;
	c->robust.var_mean = k > 1 ? c->var_sessions / (double)k : NAN;
	c->robust.df = k > 1 ? (double)(k - 1) : 0;
	c->sessions_df = k > 1 ? (double)(k - 1) : NAN;
	c->spread_floored = false;
	if (k > 1 && c->robust.var_mean < floor / (double)k) {
		c->robust.var_mean = floor / (double)k;
		c->robust.df = rs->df_w;
		c->var_sessions = floor;	/* for planning: one session's level varies at least this much */
		c->spread_floored = true;
	}
	c->modes = 0;
	c->mode_low = 0;
	c->mode_gap_pct = NAN;
	if (k >= 4) {
		double stat = stats_modes_statistic(levels, k, floor, &c->mode_gap_pct, &c->mode_low);

		c->modes = stat > stats_modes_threshold(k) ? 2 : 1;
		if (c->modes == 1) {
			c->mode_low = 0;
			c->mode_gap_pct = NAN;
		}
	}
}

int stats_check_input(const struct stats_sample_set *s, double alpha)
{
	if (!s || !s->values || s->n == 0 || !(alpha > 0 && alpha < 1))
		return -EINVAL;
	for (size_t i = 0; i < s->n; i++)
		if (!isfinite(s->values[i]))
			return -EINVAL;
	return 0;
}

/* min, max, median from a sorted copy; mean, stddev, cv over all samples. */
static void stats_describe(const double *sorted, size_t n, struct stats_cell *c)
{
	c->n = n;
	c->mean = gsl_stats_mean(sorted, 1, n);
	c->stddev = n > 1 ? gsl_stats_sd_m(sorted, 1, n, c->mean) : NAN;
	c->cv = c->mean != 0 ? c->stddev / fabs(c->mean) : NAN;
	c->min = sorted[0];
	c->max = sorted[n - 1];
	c->median = gsl_stats_median_from_sorted_data(sorted, 1, n);
}

int stats_cell_compute(const struct stats_sample_set *s, double alpha, struct stats_cell *out)
{
	struct stats_obs *obs = NULL;
	double *sorted = NULL, *levels = NULL;
	int *ids = NULL;
	struct stats_robust_sum rs;
	struct stats_anova a;
	struct stats_cell c;
	int ret;

	ret = out ? stats_check_input(s, alpha) : -EINVAL;
	if (ret)
		return ret;
	ret = -ENOMEM;
	sorted = malloc(s->n * sizeof(*sorted));
	levels = malloc(s->n * sizeof(*levels));
	ids = malloc(s->n * sizeof(*ids));
	obs = malloc(s->n * sizeof(*obs));
	if (!sorted || !obs || !levels || !ids)
		goto out;
	for (size_t i = 0; i < s->n; i++) {
		sorted[i] = s->values[i];
		obs[i] = (struct stats_obs){ s->session ? s->session[i] : 0, s->values[i] };
	}
	gsl_sort(sorted, 1, s->n);
	qsort(obs, s->n, sizeof(*obs), stats_obs_cmp);

	memset(&c, 0, sizeof(c));
	stats_describe(sorted, s->n, &c);
	stats_anova_compute(obs, s->n, c.mean, &a);
	c.sessions = a.k;
	stats_pooled_estimate(c.stddev, s->n, &c.pooled);
	stats_nested_estimate(&a, &c);
	ret = stats_robust_levels(s, ids, levels, NULL, &rs);
	if (ret < 0)
		goto out;
	c.outliers = rs.outliers;
	stats_robust_estimate(levels, (size_t)ret, &rs, &c);
	stats_estimate_interval(&c.pooled, c.mean, alpha);
	stats_estimate_interval(&c.nested, c.mean, alpha);
	stats_estimate_interval(&c.robust, c.level, alpha);
	*out = c;
	ret = 0;
out:
	free(sorted);
	free(obs);
	free(levels);
	free(ids);
	return ret;
}
