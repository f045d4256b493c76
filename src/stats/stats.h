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
 * A verdict needs this many sessions in each column (pairs when paired):
 * the spread of 2 sessions' levels has 1 degree of freedom, and
 * Welch-Satterthwaite then calls 7-11% of A/A comparisons against a larger
 * column (tests/unit/test_stats_sim.c measures it).
 */
#define STATS_MIN_SESSIONS		3
/*
 * Two columns with equal session counts, at least STATS_SHARED_MIN_SESSIONS,
 * whose spreads of session levels an F test finds agreeing (two-sided p
 * above STATS_SHARED_SPREAD_P) are judged with the df of the shared spread,
 * not Welch-Satterthwaite's (stats_compare): the seed protocol finds +2% in
 * 58.6% of cases instead of 56.5%, for 0.3-0.5 points more false marks
 * where one column's spread is 4 times the other's (test_stats_sim.c).
 */
#define STATS_SHARED_MIN_SESSIONS	4
#define STATS_SHARED_SPREAD_P		0.2
/*
 * Plans (mde_pct, sessions_needed, calibrate's advice) are for the upper
 * confidence bound at this level of the spread they are planned from, and
 * say "at least" when that spread has fewer df than STATS_PLAN_MIN_DF.
 */
#define STATS_PLAN_CONFIDENCE		0.75
#define STATS_PLAN_MIN_DF		3
/*
 * A plan from a spread of fewer than STATS_PLAN_SURE_DF df that asks for
 * fewer than twice the sessions it was planned from is "at least" too: with
 * so few df, more than 1 pilot in 20 reads a spread below a third of the
 * truth, and a small plan is mostly such a pilot (tests/unit/test_stats_sim.c:
 * 4 calibration sessions asking for at most 7 found +1% in 25% of cases).
 */
#define STATS_PLAN_SURE_DF		8
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
	/*
	 * No value is set aside as an outlier: shares of a --profile, where a
	 * 0 (the symbol below a run's top five) is a value, not a wild sample.
	 */
	bool keep_all;
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
	/*
	 * Modes: 2 when the session levels fall into two clusters well apart
	 * (stats_modes_statistic() above stats_modes_threshold(): a boot landing
	 * in a fast or a slow mode), 1 when they do not, 0 with fewer than 4
	 * sessions (too few to tell).  mode_gap_pct: the clusters' means apart,
	 * in per cent of the lower one; mode_low: the sessions in the lower.
	 */
	size_t modes, mode_low;
	double mode_gap_pct;
	/* var_sessions and robust raised to the row's pooled spread by stats_share_modes() */
	bool modes_shared;
	/*
	 * The levels agreed more closely than their within-session noise
	 * allows: var_sessions and robust are that noise's (the floor), a lower
	 * bound of one session's spread.  sessions_df: the df var_sessions has
	 * as an estimate of that spread, for planning (sessions - 1, however
	 * many df the floor has; the row's when modes_shared; NAN with one session).
	 */
	bool spread_floored;
	double sessions_df;
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
 * Whether the session levels of a column fall into two modes.  The
 * statistic sorts @levels (in place) and splits them at the widest gap leaving at least 2
 * on each side and divides that gap by the pooled sd about the two
 * clusters' means (k - 2 df), floored at sqrt(@level_noise_var), the sd a
 * level has from its within-session noise alone (0 or NAN: no floor).
 * *@gap_pct (may be NULL): the clusters' means apart in per cent of the
 * lower; *@low (may be NULL): the levels below the gap.  NAN with fewer
 * than 4 levels.
 */
double stats_modes_statistic(double *levels, size_t k, double level_noise_var, double *gap_pct,
			     size_t *low);

/*
 * The value of stats_modes_statistic() that normal levels from @k sessions
 * exceed 1% of the time: above it the column has 2 modes.  NAN for k < 4.
 */
double stats_modes_threshold(size_t k);

/*
 * Modes are a property of the machine (THP and hugepage placement), not of
 * one column: a column of 4 sessions that all landed in the fast mode shows
 * a tight spread, a mean 4% off, and a confident false verdict against a
 * column of 10 that shows both.  When any of the @n cells (one row of a
 * table) has 2 modes, each cell's spread of session levels is raised to at
 * least the row's pooled one (sum of (sessions - 1) * var_sessions over the
 * cells, over the sum of (sessions - 1), which is also its df), robust
 * re-derived with that df, its interval at level 1 - @alpha, and
 * modes_shared set.  Returns whether it did; NULL cells are skipped.
 */
bool stats_share_modes(struct stats_cell *const *cells, size_t n, double alpha);

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
	/*
	 * p_value adjusted over the cells of a table (stats_bh_adjust(), by the
	 * caller); p_value itself until then, NAN where p_value is.
	 */
	double p_adjusted;
	enum stats_verdict verdict;
	const char *why_insufficient;	/* static text when verdict is STATS_INSUFFICIENT, else NULL */
	/*
	 * Static text when the cell has an interval but can have no verdict
	 * (a column with fewer than STATS_MIN_SESSIONS sessions), else NULL:
	 * the verdict is then STATS_NONE and never decided.
	 */
	const char *why_undecided;
	/* What the comparison rests on, for stats_plan(). */
	bool paired;		/* within each session (stats_compare_paired) */
	size_t sessions;	/* pairs, or the fewer sessions of the two columns */
	double se_pct;		/* standard error of the change, in percent; NAN when unknown */
	/*
	 * Relative sd of one session's level (paired: of one session's log
	 * ratio) in each column; NAN when unknown.  For planning only.
	 */
	double rsd_base, rsd_other;
	double rsd_df_base, rsd_df_other;	/* their degrees of freedom (NAN when unknown) */
	/* Filled by stats_plan(); NAN until then or when unknown. */
	double mde_pct;		/* smallest change this data detects with STATS_POWER */
	double sessions_needed;	/* sessions per column to detect target_pct with STATS_POWER */
	/*
	 * The spread is from too few sessions to bound (fewer than
	 * STATS_PLAN_MIN_DF degrees of freedom): mde_pct and sessions_needed
	 * then come from the spread as measured and are lower bounds, "at least".
	 */
	bool plan_at_least;
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
 * Under the nested rule a column with 2 sessions (fewer than
 * STATS_MIN_SESSIONS) gets the interval and p-value at Hsu's conservative
 * df (the smaller column's sessions - 1), why_undecided, and never a
 * verdict: Welch-Satterthwaite on a spread of 1 df calls 7-11% of A/A cells.
 * p_adjusted is p_value until the caller adjusts it over a table.
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
 * ratios; with 2 sessions an interval (1 df), why_undecided and no verdict.
 * Returns 0, or -EINVAL for NULL pointers, alpha outside (0, 1) or a
 * bad min_effect_pct.
 */
int stats_compare_paired(const double *base, const double *other, size_t k, bool higher_is_better, double alpha,
			 double min_effect_pct, struct stats_change *out);

/*
 * What more data would decide @ch: decided when the verdict is (I)/(R) or
 * the change's interval lies within +-@target_pct (no change that large),
 * never when why_undecided is set; otherwise mde_pct, the smallest change
 * the present design detects at STATS_POWER (two-sided, level 1 - @alpha;
 * NAN when why_undecided: this data gives no verdict), and sessions_needed
 * (at least STATS_MIN_SESSIONS), the sessions per column (pairs when
 * paired) that would detect a change of @target_pct at that power, from the
 * session-level spread (a column with one session borrows the other's).
 * Both plan for the upper STATS_PLAN_CONFIDENCE confidence bound of the
 * spread, so that following them delivers the power on average; with
 * fewer than STATS_PLAN_MIN_DF df behind it they use the spread as
 * measured and set plan_at_least, which a small plan from a small pilot
 * (STATS_PLAN_SURE_DF, the pilot being ch->sessions) also sets.  Either is
 * NAN when the data cannot say.
 * No-op for a NULL @ch or a target_pct that is not positive.
 */
void stats_plan(struct stats_change *ch, double alpha, double target_pct);

/*
 * Planning before any comparison (clearpath calibrate): two columns measured
 * in different sessions, each session's level with relative sd @rsd,
 * estimated with @df degrees of freedom (sessions - 1 of the calibration),
 * planned for its upper bound as stats_plan() does.
 * stats_mde_independent: the smallest change, in per cent, that @sessions
 * sessions per column detect with STATS_POWER at level 1 - @alpha.
 * stats_sessions_independent: the sessions per column that detect
 * @target_pct, planned from a calibration of @pilot sessions.  *@at_least
 * (may be NULL) is set when @df is below STATS_PLAN_MIN_DF, and by the
 * second for a small plan from a small pilot (STATS_PLAN_SURE_DF): the
 * answer is then a lower bound.  NAN when the inputs cannot say (rsd not
 * finite and > 0, df not > 0, fewer than 2 sessions).
 */
double stats_mde_independent(double rsd, double df, size_t sessions, double alpha, bool *at_least);
double stats_sessions_independent(double rsd, double df, size_t pilot, double target_pct, double alpha,
				  bool *at_least);

/*
 * The level for each look of a sequential run (plan run --until-decided):
 * sessions are added one at a time and the comparison looked at after each,
 * from @first to @last sessions, stopping once decided.  Each look tests at
 * @alpha / stats_sequential_looks() (Bonferroni), so the chance of a false
 * (I)/(R) over all looks stays at or below @alpha however the looks
 * correlate; tests/unit/test_stats_sim.c measures it.  Looks at fewer than
 * STATS_MIN_SESSIONS sessions cannot mark anything and do not count:
 * stats_sequential_looks() is last - max(first, STATS_MIN_SESSIONS) + 1,
 * at least 1.
 */
unsigned stats_sequential_looks(unsigned first, unsigned last);
double stats_sequential_alpha(double alpha, unsigned first, unsigned last);

/*
 * Set @ch's verdict from whether its rule @fires: (I)/(R) when it does,
 * |pct| >= @min_effect_pct and the cell can have a verdict (why_undecided
 * is NULL), else STATS_NONE; an STATS_INSUFFICIENT cell stays so.  For
 * callers that judge by another yardstick than the cell's own interval
 * (the adjusted p-value of a whole table).  No-op for a NULL @ch.
 */
void stats_judge(struct stats_change *ch, bool fires, bool higher_is_better, double min_effect_pct);

/*
 * Benjamini-Hochberg: adj[i] = min over the p-values p_(j) >= p[i] of
 * m p_(j) / j, capped at 1, where m counts the p-values in [0, 1] and j is
 * a p-value's rank among them.  Marking the cells with adj <= Q keeps the
 * expected share of false marks among the marks at or below Q (for
 * independent or positively dependent tests, as cells sharing boots are).
 * p-values outside [0, 1] (NAN) are not counted and get NAN.  Returns 0,
 * -EINVAL for NULL arrays with n > 0, or -ENOMEM.
 */
int stats_bh_adjust(const double *p, size_t n, double *adj);

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
