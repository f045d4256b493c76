/* stats compare: the % change between two cells (or paired sessions), its interval, p-value and verdict. */
#include "stats/internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

/* Why two cells cannot be compared, or NULL when they can. */
static const char *stats_insufficient(const struct stats_cell *base, const struct stats_cell *other,
				      enum stats_rule rule, const struct stats_estimate *eb,
				      const struct stats_estimate *eo, double cb, double co)
{
	if (base->n < 2)
		return "fewer than 2 samples in the base column";
	if (other->n < 2)
		return "fewer than 2 samples in the compared column";
	/* one session's samples share its offset: pooled, they would call that offset a change */
	if (rule == STATS_RULE_NESTED && base->sessions < 2)
		return "fewer than 2 sessions in the base column";
	if (rule == STATS_RULE_NESTED && other->sessions < 2)
		return "fewer than 2 sessions in the compared column";
	if (!(cb > 0))
		return "base mean is not positive, so a relative change means nothing";
	/* Cells not from stats_cell_compute; GSL's default handler aborts on df <= 0. */
	if (!(eb->var_mean >= 0 && eb->df > 0) || !(eo->var_mean >= 0 && eo->df > 0))
		return "no variance estimate with positive degrees of freedom";
	/* Zero spread on both sides leaves no yardstick: a coarse timer or a constant metric. */
	if (stats_no_spread(eb->var_mean, cb) && stats_no_spread(eo->var_mean, co))
		return "no spread in either column, nothing to judge the difference by";
	return NULL;
}

/* Welch-Satterthwaite df of Vb + Vo; a zero term carries no information and drops out. */
static double stats_welch_df_of(double vb, double vo, const struct stats_estimate *eb,
				const struct stats_estimate *eo)
{
	double den = 0;

	if (vb > 0)
		den += vb * vb / eb->df;
	if (vo > 0)
		den += vo * vo / eo->df;
	return (vb + vo) * (vb + vo) / den;
}

static double stats_welch_df(const struct stats_estimate *eb, const struct stats_estimate *eo)
{
	double df = stats_welch_df_of(eb->var_mean, eo->var_mean, eb, eo);
	double scale = eb->var_mean > eo->var_mean ? eb->var_mean : eo->var_mean;

	/*
	 * Squaring variances such as 1e296 (means of 1e150) overflows, and a NaN
	 * df makes GSL's t quantile abort the program: then both relative to the
	 * larger, which leaves df as it is.
	 */
	if (isfinite(df) || !(scale > 0))
		return df;
	return stats_welch_df_of(eb->var_mean / scale, eo->var_mean / scale, eb, eo);
}

/* A column's estimate with rounding-level variance set to exactly 0, so it drops out. */
static struct stats_estimate stats_cleaned(const struct stats_estimate *e, double center)
{
	struct stats_estimate c = *e;

	if (stats_no_spread(c.var_mean, center))
		c.var_mean = 0;
	return c;
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

/*
 * The df of a spread the two columns share, or 0 when they do not: equal
 * session counts (the t statistic is then the same whether the spread is
 * pooled or not, only its df differ), spreads of their own sessions (not
 * already the row's, stats_share_modes, nor a floor), and an F test that finds the spreads
 * agreeing (p above STATS_SHARED_SPREAD_P).  Welch-Satterthwaite's df,
 * random and below the pooled ones, cost the seed protocol a tenth of its
 * power; tests/unit/test_stats_sim.c measures what sharing costs where the
 * spreads differ.
 */
static double stats_shared_df(const struct stats_cell *base, const struct stats_cell *other)
{
	double fb = base->sessions_df, fo = other->sessions_df, f, p;

	if (base->sessions != other->sessions || base->sessions < STATS_SHARED_MIN_SESSIONS ||
	    base->modes_shared || other->modes_shared || base->spread_floored || other->spread_floored ||
	    !(fb > 0 && fo > 0) || !(base->var_sessions > 0 && other->var_sessions > 0))
		return 0;
	f = base->var_sessions / other->var_sessions;
	p = 2 * fmin(gsl_cdf_fdist_P(f, fb, fo), gsl_cdf_fdist_Q(f, fb, fo));
	return p > STATS_SHARED_SPREAD_P ? fb + fo : 0;
}

/*
 * Interval, p-value and df of the change; returns the reason when none can
 * be had.  @df_cap > 0 caps the Welch df (a column of 2 sessions: Hsu's
 * conservative min(k) - 1, which holds whatever the columns' variances);
 * else @df_shared > 0 (stats_shared_df) raises it to the shared spread's.
 */
static const char *stats_change_interval(double cb, double co, const struct stats_estimate *eb,
					 const struct stats_estimate *eo, double alpha, double df_cap,
					 double df_shared, struct stats_change *ch)
{
	double lo, hi, tq, tstat;

	ch->df = stats_welch_df(eb, eo);
	if (df_cap > 0 && !(ch->df <= df_cap))
		ch->df = df_cap;
	else if (!(df_cap > 0) && df_shared > ch->df)
		ch->df = df_shared;
	tq = gsl_cdf_tdist_Pinv(1 - alpha / 2, ch->df);
	if (stats_fieller(cb, co, eb, eo, tq, &lo, &hi))
		return "base mean is not distinguishable from 0, the change interval is unbounded";
	ch->ci_low = 100 * (lo - 1);
	ch->ci_high = 100 * (hi - 1);
	tstat = (co - cb) / sqrt(eb->var_mean + eo->var_mean);
	ch->p_value = 2 * gsl_cdf_tdist_Q(fabs(tstat), ch->df);
	/* delta method: Var(co / cb) ~ (Vo + r^2 Vb) / cb^2 */
	ch->se_pct = 100 * sqrt(eo->var_mean + (co / cb) * (co / cb) * eb->var_mean) / cb;
	return NULL;
}

/* Relative sd of one session's level, or NAN. */
static double stats_rsd(const struct stats_cell *c)
{
	return c->sessions > 1 && c->level > 0 ? sqrt(c->var_sessions) / c->level : NAN;
}

void stats_judge(struct stats_change *ch, bool fires, bool higher_is_better, double min_effect_pct)
{
	if (!ch || ch->verdict == STATS_INSUFFICIENT)
		return;
	ch->verdict = STATS_NONE;
	if (fires && !ch->why_undecided && fabs(ch->pct) >= min_effect_pct)
		ch->verdict = (ch->pct > 0) == higher_is_better ? STATS_IMPROVEMENT : STATS_REGRESSION;
}

static void stats_set_insufficient(struct stats_change *ch, const char *why)
{
	ch->why_insufficient = why;
	ch->ci_low = ch->ci_high = ch->p_value = ch->p_adjusted = ch->df = ch->se_pct = NAN;
	ch->verdict = STATS_INSUFFICIENT;
}

static const struct stats_change stats_change_init = {
	.pct = NAN, .ci_low = NAN, .ci_high = NAN, .p_value = NAN, .p_adjusted = NAN, .df = NAN,
	.verdict = STATS_NONE, .se_pct = NAN, .rsd_base = NAN, .rsd_other = NAN, .rsd_df_base = NAN,
	.rsd_df_other = NAN, .mde_pct = NAN, .sessions_needed = NAN,
};

/* Why a nested comparison of these columns can have an interval but no verdict, or NULL. */
static const char *stats_too_few(const struct stats_cell *base, const struct stats_cell *other)
{
	if (base->sessions < STATS_MIN_SESSIONS)
		return "2 sessions in the base column: a verdict needs 3 (the spread of 2 has 1 degree of freedom)";
	if (other->sessions < STATS_MIN_SESSIONS)
		return "2 sessions in the compared column: a verdict needs 3 (the spread of 2 has 1 degree of freedom)";
	return NULL;
}

/* The spread of one session's level in @c, for planning, and its df. */
static void stats_rsd_of(const struct stats_cell *c, double *rsd, double *df)
{
	*rsd = stats_rsd(c);
	*df = isfinite(*rsd) ? c->sessions_df : NAN;
}

int stats_compare(const struct stats_cell *base, const struct stats_cell *other, bool higher_is_better,
		  enum stats_rule rule, double alpha, double min_effect_pct, struct stats_change *out)
{
	struct stats_change ch = stats_change_init;
	struct stats_estimate eb, eo;
	double cb, co;
	const char *why;

	if (!base || !other || !out || !(alpha > 0 && alpha < 1) || !(min_effect_pct >= 0))
		return -EINVAL;
	if (rule == STATS_RULE_NESTED) {
		eb = base->robust;
		eo = other->robust;
		cb = base->level;
		co = other->level;
	} else if (rule == STATS_RULE_FASTPATH) {
		eb = base->pooled;
		eo = other->pooled;
		cb = base->mean;
		co = other->mean;
	} else {
		return -EINVAL;
	}
	if (cb > 0)
		ch.pct = 100 * (co / cb - 1);
	ch.sessions = base->sessions < other->sessions ? base->sessions : other->sessions;
	stats_rsd_of(base, &ch.rsd_base, &ch.rsd_df_base);
	stats_rsd_of(other, &ch.rsd_other, &ch.rsd_df_other);
	why = stats_insufficient(base, other, rule, &eb, &eo, cb, co);
	if (!why && rule == STATS_RULE_NESTED)
		ch.why_undecided = stats_too_few(base, other);
	if (!why) {
		eb = stats_cleaned(&eb, cb);
		eo = stats_cleaned(&eo, co);
		why = stats_change_interval(cb, co, &eb, &eo, alpha,
					    ch.why_undecided ? (double)ch.sessions - 1 : 0,
					    rule == STATS_RULE_NESTED ? stats_shared_df(base, other) : 0, &ch);
	}
	if (why) {
		stats_set_insufficient(&ch, why);
		*out = ch;
		return 0;
	}
	ch.p_adjusted = ch.p_value;
	stats_judge(&ch, rule == STATS_RULE_NESTED ? ch.ci_low > 0 || ch.ci_high < 0
						    : stats_intervals_apart(base, other, alpha),
		    higher_is_better, min_effect_pct);
	*out = ch;
	return 0;
}

/* Why @k paired levels cannot be compared, or NULL; the log ratios go into @d. */
static const char *stats_paired_logs(const double *base, const double *other, size_t k, double *d)
{
	for (size_t i = 0; i < k; i++) {
		if (!(base[i] > 0 && other[i] > 0) || !isfinite(base[i]) || !isfinite(other[i]))
			return "a session level is not positive, so a relative change means nothing";
		d[i] = log(other[i] / base[i]);
	}
	if (k < 2)
		return "fewer than 2 sessions measured both columns";
	return NULL;
}

int stats_compare_paired(const double *base, const double *other, size_t k, bool higher_is_better, double alpha,
			 double min_effect_pct, struct stats_change *out)
{
	struct stats_change ch = stats_change_init;
	double *d, mean, se, half;
	const char *why;

	if (!base || !other || !out || !(alpha > 0 && alpha < 1) || !(min_effect_pct >= 0))
		return -EINVAL;
	d = malloc((k ? k : 1) * sizeof(*d));
	if (!d)
		return -ENOMEM;
	d[0] = NAN;	/* stays NaN unless the first session gives a usable ratio */
	ch.paired = true;
	ch.sessions = k;
	why = stats_paired_logs(base, other, k, d);
	/* one session still says how large the change is, only not whether it is real */
	if (k == 1 && isfinite(d[0]))
		ch.pct = 100 * expm1(d[0]);
	if (!why) {
		mean = gsl_stats_mean(d, 1, k);
		ch.pct = 100 * expm1(mean);
		ch.rsd_base = ch.rsd_other = gsl_stats_sd_m(d, 1, k, mean);
		ch.rsd_df_base = ch.rsd_df_other = (double)(k - 1);
		se = ch.rsd_base / sqrt((double)k);
		/* the log ratios are close to 0, so an absolute threshold is the relative one */
		if (stats_no_spread(se * se, 1))
			why = "no spread among the sessions' ratios, nothing to judge the difference by";
	}
	if (why) {
		stats_set_insufficient(&ch, why);
		free(d);
		*out = ch;
		return 0;
	}
	ch.df = (double)(k - 1);
	if (k < STATS_MIN_SESSIONS)
		ch.why_undecided = "2 sessions measured both columns: a verdict needs 3 (the spread of 2 has 1 degree of freedom)";
	half = gsl_cdf_tdist_Pinv(1 - alpha / 2, ch.df) * se;
	ch.ci_low = 100 * expm1(mean - half);
	ch.ci_high = 100 * expm1(mean + half);
	ch.p_value = ch.p_adjusted = 2 * gsl_cdf_tdist_Q(fabs(mean) / se, ch.df);
	ch.se_pct = 100 * se;
	stats_judge(&ch, ch.ci_low > 0 || ch.ci_high < 0, higher_is_better, min_effect_pct);
	free(d);
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
