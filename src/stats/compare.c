/* stats compare: the % change between two cells, its Fieller interval, p-value and verdict under either rule. */
#include "stats/internal.h"

#include <errno.h>
#include <math.h>

#include <gsl/gsl_cdf.h>

/* Why two cells cannot be compared, or NULL when they can. */
static const char *stats_insufficient(const struct stats_cell *base, const struct stats_cell *other,
				      const struct stats_estimate *eb, const struct stats_estimate *eo)
{
	if (base->n < 2)
		return "fewer than 2 samples in the base column";
	if (other->n < 2)
		return "fewer than 2 samples in the compared column";
	if (!(base->mean > 0))
		return "base mean is not positive, so a relative change means nothing";
	/* Cells not from stats_cell_compute; GSL's default handler aborts on df <= 0. */
	if (!(eb->var_mean >= 0 && eb->df > 0) || !(eo->var_mean >= 0 && eo->df > 0))
		return "no variance estimate with positive degrees of freedom";
	/* Zero spread on both sides leaves no yardstick: a coarse timer or a constant metric. */
	if (eb->var_mean == 0 && eo->var_mean == 0)
		return "no spread in either column, nothing to judge the difference by";
	return NULL;
}

/* Welch-Satterthwaite df of Vb + Vo; a zero term carries no information and drops out. */
static double stats_welch_df(const struct stats_estimate *eb, const struct stats_estimate *eo)
{
	double v = eb->var_mean + eo->var_mean;
	double den = 0;

	if (eb->var_mean > 0)
		den += eb->var_mean * eb->var_mean / eb->df;
	if (eo->var_mean > 0)
		den += eo->var_mean * eo->var_mean / eo->df;
	return v * v / den;
}

/*
 * Fieller: the ratios r with (mo - r mb)^2 <= t^2 (Vo + r^2 Vb), a quadratic
 * A r^2 - 2 mo mb r + (mo^2 - t^2 Vo) <= 0.  Unlike the delta method it is
 * exact under normality and agrees with the Welch test: r = 1 is outside
 * exactly when p < alpha.  Returns -ERANGE when A <= 0 (the interval is
 * unbounded because mb is not distinguishable from 0).
 */
static int stats_fieller(double mb, double mo, const struct stats_estimate *eb, const struct stats_estimate *eo,
			 double tq, double *lo, double *hi)
{
	double t2 = tq * tq;
	double A = mb * mb - t2 * eb->var_mean;
	double sq;

	if (!(A > 0))
		return -ERANGE;
	sq = sqrt(t2 * (mo * mo * eb->var_mean + A * eo->var_mean));
	*lo = (mo * mb - sq) / A;
	*hi = (mo * mb + sq) / A;
	return 0;
}

/* The older rule: the columns' t intervals (at this alpha) do not overlap. */
static bool stats_intervals_apart(const struct stats_cell *base, const struct stats_cell *other, double alpha)
{
	struct stats_estimate b = base->pooled, o = other->pooled;

	stats_estimate_interval(&b, base->mean, alpha);
	stats_estimate_interval(&o, other->mean, alpha);
	return o.ci_low > b.ci_high || o.ci_high < b.ci_low;
}

/* Interval, p-value and df of the change; returns the reason when none can be had. */
static const char *stats_change_interval(const struct stats_cell *base, const struct stats_cell *other,
					 const struct stats_estimate *eb, const struct stats_estimate *eo,
					 double alpha, struct stats_change *ch)
{
	double lo, hi, tq, tstat;

	ch->df = stats_welch_df(eb, eo);
	tq = gsl_cdf_tdist_Pinv(1 - alpha / 2, ch->df);
	if (stats_fieller(base->mean, other->mean, eb, eo, tq, &lo, &hi))
		return "base mean is not distinguishable from 0, the change interval is unbounded";
	ch->ci_low = 100 * (lo - 1);
	ch->ci_high = 100 * (hi - 1);
	tstat = (other->mean - base->mean) / sqrt(eb->var_mean + eo->var_mean);
	ch->p_value = 2 * gsl_cdf_tdist_Q(fabs(tstat), ch->df);
	return NULL;
}

int stats_compare(const struct stats_cell *base, const struct stats_cell *other, bool higher_is_better,
		  enum stats_rule rule, double alpha, double min_effect_pct, struct stats_change *out)
{
	struct stats_change ch = { NAN, NAN, NAN, NAN, NAN, STATS_NONE, NULL };
	const struct stats_estimate *eb, *eo;
	bool fires;

	if (!base || !other || !out || !(alpha > 0 && alpha < 1) || !(min_effect_pct >= 0))
		return -EINVAL;
	if (rule == STATS_RULE_NESTED) {
		eb = &base->nested;
		eo = &other->nested;
	} else if (rule == STATS_RULE_FASTPATH) {
		eb = &base->pooled;
		eo = &other->pooled;
	} else {
		return -EINVAL;
	}
	if (base->mean > 0)
		ch.pct = 100 * (other->mean / base->mean - 1);
	ch.why_insufficient = stats_insufficient(base, other, eb, eo);
	if (!ch.why_insufficient)
		ch.why_insufficient = stats_change_interval(base, other, eb, eo, alpha, &ch);
	if (ch.why_insufficient) {
		ch.ci_low = ch.ci_high = ch.p_value = ch.df = NAN;
		ch.verdict = STATS_INSUFFICIENT;
		*out = ch;
		return 0;
	}
	if (rule == STATS_RULE_NESTED)
		fires = ch.ci_low > 0 || ch.ci_high < 0;
	else
		fires = stats_intervals_apart(base, other, alpha);
	if (fires && fabs(ch.pct) >= min_effect_pct)
		ch.verdict = (ch.pct > 0) == higher_is_better ? STATS_IMPROVEMENT : STATS_REGRESSION;
	*out = ch;
	return 0;
}

const char *stats_verdict_name(enum stats_verdict v)
{
	switch (v) {
	case STATS_NONE:
		return "none";
	case STATS_IMPROVEMENT:
		return "improvement";
	case STATS_REGRESSION:
		return "regression";
	case STATS_INSUFFICIENT:
		return "insufficient";
	}
	return "?";
}

double stats_ratio_better(double base_mean, double other_mean, bool higher_is_better)
{
	if (!(base_mean > 0 && other_mean > 0) || !isfinite(base_mean) || !isfinite(other_mean))
		return NAN;
	return higher_is_better ? other_mean / base_mean : base_mean / other_mean;
}

double stats_geomean(const double *ratios, size_t n)
{
	double sum = 0;

	if (!ratios || n == 0)
		return NAN;
	/* Summing logs rather than multiplying keeps many ratios from overflowing. */
	for (size_t i = 0; i < n; i++) {
		if (!(ratios[i] > 0) || !isfinite(ratios[i]))
			return NAN;
		sum += log(ratios[i]);
	}
	return exp(sum / (double)n);
}

double stats_geomean_change_pct(const struct stats_pair *p, size_t n)
{
	double sum = 0;
	size_t used = 0;

	for (size_t i = 0; p && i < n; i++) {
		double q = stats_ratio_better(p[i].base_mean, p[i].other_mean, p[i].higher_is_better);

		if (isfinite(q)) {
			sum += log(q);
			used++;
		}
	}
	return used ? 100.0 * (exp(sum / (double)used) - 1) : NAN;
}

double stats_ci_halfwidth_pct(double mean, const struct stats_estimate *e)
{
	if (!isfinite(e->ci_low) || !isfinite(e->ci_high) || mean == 0 || !isfinite(mean))
		return NAN;
	return 100.0 * (e->ci_high - e->ci_low) / 2 / fabs(mean);
}
