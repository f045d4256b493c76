/* stats: pure statistics for comparing result columns: per-cell summaries, session-aware CIs, % change verdicts. */
#ifndef CLEARPATH_STATS_STATS_H
#define CLEARPATH_STATS_STATS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Everything here is a pure function over arrays of numbers: no I/O, no
 * globals, no logging.  Quantities that are undefined for the data at hand
 * (a standard deviation from one sample, a between-session variance from one
 * session) are NAN, never a made-up 0; renderers print them as "-".
 */

#define STATS_DEFAULT_ALPHA		0.05	/* two-sided: 95% intervals */
#define STATS_DEFAULT_MIN_EFFECT_PCT	0.5	/* smaller changes are never called */
#define STATS_DEFAULT_TARGET_PCT	1.0	/* the change "what more data would decide" plans for */
#define STATS_POWER			0.8	/* the power mde_pct and sessions_needed are for */
/*
 * A sample is flagged as an outlier when it is this many robust standard
 * deviations (1.4826 x the median absolute residual) from its session's
 * median; tests/unit/test_stats_sim.c measures how rarely clean data is.
 */
#define STATS_OUTLIER_K			5.0

/* One column's samples for one result class. */
struct stats_sample_set {
	const double *values;
	const int *session;	/* session id per value (any ints); NULL: all one session */
	size_t n;
};

/*
 * An estimate of the mean with its uncertainty: the variance of the mean,
 * its degrees of freedom and the (1 - alpha) two-sided t interval.  With
 * var_mean == 0 (no spread) the interval collapses onto the mean and df is
 * the nominal one.  With n < 2 everything but the mean is NAN and df is 0.
 */
struct stats_estimate {
	double var_mean, df, ci_low, ci_high;
};

/* One cell of the table: one column (swprofile) of one result class. */
struct stats_cell {
	size_t n, sessions;
	/* Descriptive, over all samples (sessions ignored); cv = stddev / |mean|. */
	double mean, stddev, cv, min, max, median;
	/*
	 * One-way random-effects ANOVA components (NAN when not estimable:
	 * var_between needs >= 2 sessions, var_within needs a session with
	 * >= 2 samples).  var_between is clamped at 0.
	 */
	double var_between, var_within;
	/* Session-aware inference (STATS_RULE_NESTED). */
	struct stats_estimate nested;
	/* Samples treated as independent: Student t, n - 1 df (STATS_RULE_FASTPATH). */
	struct stats_estimate pooled;
	/*
	 * Robust and session-level, what STATS_RULE_NESTED compares: each
	 * session's level is the mean of its samples once those stats_outliers()
	 * flags are set aside, so one wild sample in a session of three does not
	 * move it; level is the mean of the session levels, var_sessions their
	 * variance (NAN with one session), and robust.var_mean = var_sessions /
	 * sessions with sessions - 1 df.
	 */
	double level, var_sessions;
	struct stats_estimate robust;
	size_t outliers;	/* samples stats_outliers() flags */
};

/*
 * Each session's level (the mean of its samples that stats_outliers() does
 * not flag; see stats_cell.level): ids[i] and levels[i] for
 * the sessions in ascending id order; both arrays must hold @s->n entries.
 * Returns the number of sessions, or -EINVAL / -ENOMEM.
 */
int stats_session_levels(const struct stats_sample_set *s, int *ids, double *levels);

/*
 * Flag the samples that lie more than STATS_OUTLIER_K robust standard
 * deviations from their session's median: flags[i] for values[i].  The
 * scale is pooled over the cell's sessions of 3 or more samples (smaller
 * sessions cannot say which of their samples is wild, and are not flagged),
 * from the absolute residuals about each session's median without the
 * median sample itself, whose residual is 0 by construction.  A flagged
 * sample is left out of its session's level, and shown: never silently dropped.
 * Returns the number flagged, or -EINVAL / -ENOMEM.
 */
int stats_outliers(const struct stats_sample_set *s, bool *flags);

/*
 * Summarise @s into *out, intervals at level 1 - @alpha.
 *
 * nested: with k >= 2 sessions the mean is the mean of all N samples and its
 * variance follows from the random-effects model,
 *     Var(mean) = var_between * sum(n_i^2) / N^2 + var_within / N,
 * which is exact for unbalanced sessions too (for balanced ones it is
 * MSB / N).  The components come from the ANOVA mean squares (MSB with k - 1
 * df, MSW with N - k df, var_between = (MSB - MSW) / n0 with
 * n0 = (N - sum(n_i^2) / N) / (k - 1), clamped at 0), so Var(mean) is a linear
 * combination of MSB and MSW and its df is Satterthwaite's.  With one session
 * (or one sample per session) this is the ordinary t on the samples.
 *
 * Returns 0, -EINVAL for NULL pointers, n == 0, a non-finite value or alpha
 * outside (0, 1), -ENOMEM when scratch memory cannot be had.  *out is only
 * written on success.
 */
int stats_cell_compute(const struct stats_sample_set *s, double alpha, struct stats_cell *out);

/*
 * Whether a variance of the mean is no more than rounding noise around
 * @center (relative sd below 1e-9): samples that are all equal can leave a
 * variance of a few ulps, which must not read as a very precise estimate.
 */
bool stats_no_spread(double var_mean, double center);

enum stats_rule {
	STATS_RULE_NESTED,	/* change CI from the session levels (robust, sessions the unit) */
	STATS_RULE_FASTPATH,	/* "the two columns' 95% CIs do not overlap" on pooled samples */
};

enum stats_verdict { STATS_NONE, STATS_IMPROVEMENT, STATS_REGRESSION, STATS_INSUFFICIENT };

/*
 * The change of other relative to base, in percent: pct = 100 * (other/base - 1)
 * of the rule's centres (nested: the cells' levels; fastpath: their means).
 * ci_low/ci_high: Fieller's (1 - alpha) interval for that ratio,
 * shifted to percent, using the rule's estimates (robust or pooled) and the
 * Welch-Satterthwaite df of the two variances of the mean.  p_value: two-sided
 * Welch t test of equal means with the same variances and df, so
 * p < alpha exactly when the interval excludes 0.
 */
struct stats_change {
	double pct, ci_low, ci_high, p_value, df;
	enum stats_verdict verdict;
	const char *why_insufficient;	/* static text when verdict is STATS_INSUFFICIENT, else NULL */
	/* What the comparison rests on, for stats_plan(). */
	bool paired;		/* within each session (stats_compare_paired) */
	size_t sessions;	/* pairs, or the fewer sessions of the two columns */
	double se_pct;		/* standard error of the change, in percent; NAN when unknown */
	/*
	 * Relative sd of one session's level (paired: of one session's log
	 * ratio) in each column; NAN when unknown.  For planning only.
	 */
	double rsd_base, rsd_other;
	/* Filled by stats_plan(); NAN until then or when unknown. */
	double mde_pct;		/* smallest change this data detects with STATS_POWER */
	double sessions_needed;	/* sessions per column to detect target_pct with STATS_POWER */
	bool decided;		/* (I)/(R), or the interval lies within +-target_pct */
};

/*
 * Compare @other against @base (both from stats_cell_compute).
 *
 * Verdict: improvement or regression when the rule fires and
 * |pct| >= @min_effect_pct; the direction comes from @higher_is_better (a
 * positive change of a lower-is-better metric is a regression).  The rule
 * fires for STATS_RULE_NESTED when the change interval excludes 0, and for
 * STATS_RULE_FASTPATH when the columns' pooled t intervals (level 1 - @alpha)
 * do not overlap.
 *
 * STATS_INSUFFICIENT, with why_insufficient saying which, when the data
 * cannot decide: a column has n < 2; under the nested rule, a column has
 * fewer than 2 sessions (one session's samples share its offset, and
 * pooling them would call that offset a change); a column's estimate has
 * no usable variance or df (only hand-made cells); both columns have no
 * spread beyond rounding (stats_no_spread: no
 * variance to judge a difference by: a coarse timer or a constant metric);
 * the base mean is not positive (a relative change is meaningless); or the
 * Fieller interval is unbounded (the base mean is not distinguishable from
 * 0).  pct is still filled in when both means allow it, the rest is NAN.
 *
 * Returns 0, or -EINVAL for NULL pointers, alpha outside (0, 1), a negative
 * or NaN min_effect_pct, or an unknown rule; *out is only written on success.
 */
int stats_compare(const struct stats_cell *base, const struct stats_cell *other, bool higher_is_better,
		  enum stats_rule rule, double alpha, double min_effect_pct, struct stats_change *out);

/*
 * Compare two columns measured in the same sessions, paired by session:
 * @base[i] and @other[i] are session i's levels (stats_session_levels) in
 * the two columns, k sessions.  Each session's offset cancels in its ratio
 * other/base; the change is exp(mean log ratio) - 1, its interval the t
 * interval of the mean log ratio (k - 1 df) and the p-value its t test.
 * Verdicts as stats_compare's nested rule.  STATS_INSUFFICIENT with fewer
 * than 2 sessions, a level that is not positive, or no spread among the
 * ratios.  Returns 0, or -EINVAL for NULL pointers, alpha outside (0, 1) or a
 * bad min_effect_pct.
 */
int stats_compare_paired(const double *base, const double *other, size_t k, bool higher_is_better, double alpha,
			 double min_effect_pct, struct stats_change *out);

/*
 * What more data would decide @ch: decided when the verdict is (I)/(R) or
 * the change's interval lies within +-@target_pct (no change that large);
 * otherwise mde_pct, the smallest change the present data detects at
 * STATS_POWER (two-sided, level 1 - @alpha), and sessions_needed, the
 * sessions per column (pairs when paired) that would detect a change of
 * @target_pct at that power, from the session-level spread (a column with
 * one session borrows the other's).  Either is NAN when the data cannot say.
 * No-op for a NULL @ch or a target_pct that is not positive.
 */
void stats_plan(struct stats_change *ch, double alpha, double target_pct);

/*
 * Planning before any comparison (clearpath calibrate): two columns measured
 * in different sessions, each session's level with relative sd @rsd.
 * stats_mde_independent: the smallest change, in per cent, that @sessions
 * sessions per column detect with STATS_POWER at level 1 - @alpha.
 * stats_sessions_independent: the sessions per column that detect
 * @target_pct.  NAN when the inputs cannot say (rsd not finite and > 0,
 * fewer than 2 sessions).
 */
double stats_mde_independent(double rsd, size_t sessions, double alpha);
double stats_sessions_independent(double rsd, double target_pct, double alpha);

/*
 * The level for each look of a sequential run (plan run --until-decided):
 * sessions are added one at a time and the comparison looked at after each,
 * from @first to @last sessions, stopping once decided.  Each look tests at
 * @alpha / (number of looks) (Bonferroni), so the chance of a false (I)/(R)
 * over all looks stays at or below @alpha however the looks correlate;
 * tests/unit/test_stats_sim.c measures it.  @alpha itself when @last <= @first.
 */
double stats_sequential_alpha(double alpha, unsigned first, unsigned last);

/* "improvement" | "regression" | "none" | "insufficient"; "?" for an unknown value. */
const char *stats_verdict_name(enum stats_verdict v);

/*
 * other/base oriented so that > 1 means better: other/base when higher is
 * better, base/other when lower is better.  NAN unless both are positive.
 */
double stats_ratio_better(double base_mean, double other_mean, bool higher_is_better);

/*
 * Geometric mean of @n ratios, exp(mean(log r)): the "geomean" row over
 * result classes.  Orient the ratios first (stats_ratio_better) so that
 * classes whose metrics point different ways do not cancel.  Returns NAN for
 * n == 0, a NULL array, or any ratio that is not finite and positive.
 */
double stats_geomean(const double *ratios, size_t n);

/* One result class's means in the base column and in another, for the geomean row. */
struct stats_pair {
	double base_mean, other_mean;
	bool higher_is_better;
};

/*
 * The geomean row's cell: 100 * (geometric mean of the pairs' oriented
 * ratios (stats_ratio_better) - 1), so + is better whichever way each metric
 * points.  Pairs without a ratio (a mean that is not positive and finite)
 * are left out.  NAN when no pair has one or @p is NULL.
 */
double stats_geomean_change_pct(const struct stats_pair *p, size_t n);

/*
 * Half the width of @e's interval as a percentage of |@mean|: the "±x%" of a
 * base cell.  NAN when the interval is not finite or @mean is 0.
 */
double stats_ci_halfwidth_pct(double mean, const struct stats_estimate *e);

#endif
