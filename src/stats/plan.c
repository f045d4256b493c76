/* stats plan: what more data would decide a change: the smallest detectable change and the sessions needed. */
#include "stats/internal.h"

#include <math.h>

#include <gsl/gsl_cdf.h>

#define STATS_MAX_SESSIONS 100000	/* beyond this the answer is "not with this noise" */

/*
 * The spread a plan is for: the upper STATS_PLAN_CONFIDENCE bound of a
 * variance @v estimated with @df degrees of freedom, v df / chi2(1 - conf, df).
 * The point estimate from 4 sessions is as often too small as too large,
 * and a plan for a spread that is too small delivers far less than its
 * power (tests/unit/test_stats_sim.c: 66-78% instead of 80%).  With fewer
 * than STATS_PLAN_MIN_DF df the bound is too wide to be useful: @v as it is,
 * and *@at_least set (the plan is then a lower bound).
 */
static double stats_var_upper(double v, double df, bool *at_least)
{
	if (!(df >= STATS_PLAN_MIN_DF)) {
		*at_least = true;
		return v;
	}
	return v * df / gsl_cdf_chisq_Pinv(1 - STATS_PLAN_CONFIDENCE, df);
}

/*
 * A plan of @n sessions from a pilot of @pilot sessions whose spread has
 * @df df is a lower bound when the df are few and the plan small
 * (STATS_PLAN_SURE_DF): it then comes mostly from pilots that read the
 * spread too small.  Sets *@at_least, never clears it.
 */
static void stats_small_pilot(double n, double pilot, double df, bool *at_least)
{
	if (df < STATS_PLAN_SURE_DF && n < 2 * pilot)
		*at_least = true;
}

/* t(1 - alpha/2) + t(power): how many standard errors a change must be to be found that often. */
static double stats_power_factor(double alpha, double df)
{
	return gsl_cdf_tdist_Pinv(1 - alpha / 2, df) + gsl_cdf_tdist_Pinv(STATS_POWER, df);
}

/*
 * The smallest n >= STATS_MIN_SESSIONS with factor(df(n)) * sd / sqrt(n) <= target, where a
 * comparison of n sessions per column (or n pairs) has df(n) = dfper * (n - 1).
 * The normal approximation is a lower bound (t > z), so the search starts there.
 */
static double stats_sessions_for(double sd, double target, double alpha, double dfper)
{
	double z = gsl_cdf_ugaussian_Pinv(1 - alpha / 2) + gsl_cdf_ugaussian_Pinv(STATS_POWER);
	double n = floor(z * z * sd * sd / (target * target));

	if (!(sd > 0) || !isfinite(sd))
		return NAN;
	for (n = n < STATS_MIN_SESSIONS ? STATS_MIN_SESSIONS : n; n <= STATS_MAX_SESSIONS; n++)
		if (stats_power_factor(alpha, dfper * (n - 1)) * sd / sqrt(n) <= target)
			return n;
	return NAN;
}

/*
 * The variance of one session's contribution to the change (relative, both
 * columns: rb^2 + ro^2) and its Satterthwaite df; a column with one session
 * has no spread of its own and borrows the other's (one estimate, its df).
 */
static double stats_change_var(const struct stats_change *ch, double *df)
{
	double rb = ch->rsd_base, ro = ch->rsd_other, db = ch->rsd_df_base, dof = ch->rsd_df_other;
	double vb, vo;

	if (ch->paired) {
		*df = db;
		return rb * rb;
	}
	if (isnan(rb)) {
		*df = dof;
		return 2 * ro * ro;
	}
	if (isnan(ro)) {
		*df = db;
		return 2 * rb * rb;
	}
	vb = rb * rb;
	vo = ro * ro;
	*df = (vb + vo) * (vb + vo) / (vb * vb / db + vo * vo / dof);
	return vb + vo;
}

/* Sessions per column for a change of @target_pct, from the spread of one session's level. */
static double stats_sessions_needed(struct stats_change *ch, double alpha, double target_pct)
{
	double df, v = stats_change_var(ch, &df);

	v = stats_var_upper(v, df, &ch->plan_at_least);
	if (ch->paired)	/* sd of one session's log ratio, against the target as a log ratio */
		return stats_sessions_for(100 * sqrt(v), 100 * log1p(target_pct / 100), alpha, 1);
	return stats_sessions_for(100 * sqrt(v), target_pct, alpha, 2);
}

void stats_plan(struct stats_change *ch, double alpha, double target_pct)
{
	if (!ch || !(target_pct > 0) || !(alpha > 0 && alpha < 1))
		return;
	ch->mde_pct = ch->sessions_needed = NAN;
	ch->plan_at_least = false;
	ch->decided = !ch->why_undecided &&
		      (ch->verdict == STATS_IMPROVEMENT || ch->verdict == STATS_REGRESSION ||
		       (ch->verdict == STATS_NONE && ch->ci_low >= -target_pct && ch->ci_high <= target_pct));
	if (ch->decided)
		return;
	/* with too few sessions for a verdict, no change is detectable by this data */
	if (isfinite(ch->se_pct) && ch->df > 0 && !ch->why_undecided) {
		double se2 = stats_var_upper(ch->se_pct * ch->se_pct, ch->df, &ch->plan_at_least);

		ch->mde_pct = stats_power_factor(alpha, ch->df) * sqrt(se2);
	}
	ch->sessions_needed = stats_sessions_needed(ch, alpha, target_pct);
	/* the pilot's spread: the column with fewer df (pairs: the ratios') */
	stats_small_pilot(ch->sessions_needed, (double)ch->sessions,
			  isnan(ch->rsd_df_other) || ch->rsd_df_base < ch->rsd_df_other ? ch->rsd_df_base
										 : ch->rsd_df_other,
			  &ch->plan_at_least);
}

double stats_mde_independent(double rsd, double df, size_t sessions, double alpha, bool *at_least)
{
	double dfn = 2 * ((double)sessions - 1), v;
	bool lower = false;

	if (!(rsd > 0) || !isfinite(rsd) || !(df > 0) || sessions < 2 || !(alpha > 0 && alpha < 1))
		return NAN;
	v = stats_var_upper(rsd * rsd, df, &lower);
	if (at_least)
		*at_least = lower;
	return stats_power_factor(alpha, dfn) * 100 * sqrt(v) * sqrt(2 / (double)sessions);
}

double stats_sessions_independent(double rsd, double df, size_t pilot, double target_pct, double alpha,
				  bool *at_least)
{
	double v, n;
	bool lower = false;

	if (!(target_pct > 0) || !(alpha > 0 && alpha < 1) || !(rsd > 0) || !isfinite(rsd) || !(df > 0))
		return NAN;
	v = stats_var_upper(rsd * rsd, df, &lower);
	n = stats_sessions_for(100 * sqrt(2 * v), target_pct, alpha, 2);
	stats_small_pilot(n, (double)pilot, df, &lower);
	if (at_least)
		*at_least = lower;
	return n;
}

unsigned stats_sequential_looks(unsigned first, unsigned last)
{
	/* a look at fewer sessions than a verdict needs cannot make a false mark */
	if (first < STATS_MIN_SESSIONS)
		first = STATS_MIN_SESSIONS;
	return last > first ? last - first + 1 : 1;
}

double stats_sequential_alpha(double alpha, unsigned first, unsigned last)
{
	return alpha / (double)stats_sequential_looks(first, last);
}
