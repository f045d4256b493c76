/* stats plan: what more data would decide a change: the smallest detectable change and the sessions needed. */
#include "stats/internal.h"

#include <math.h>

#include <gsl/gsl_cdf.h>

#define STATS_MAX_SESSIONS 100000	/* beyond this the answer is "not with this noise" */

/* t(1 - alpha/2) + t(power): how many standard errors a change must be to be found that often. */
static double stats_power_factor(double alpha, double df)
{
	return gsl_cdf_tdist_Pinv(1 - alpha / 2, df) + gsl_cdf_tdist_Pinv(STATS_POWER, df);
}

/*
 * The smallest n >= 2 with factor(df(n)) * sd / sqrt(n) <= target, where a
 * comparison of n sessions per column (or n pairs) has df(n) = dfper * (n - 1).
 * The normal approximation is a lower bound (t > z), so the search starts there.
 */
static double stats_sessions_for(double sd, double target, double alpha, double dfper)
{
	double z = gsl_cdf_ugaussian_Pinv(1 - alpha / 2) + gsl_cdf_ugaussian_Pinv(STATS_POWER);
	double n = floor(z * z * sd * sd / (target * target));

	if (!(sd > 0) || !isfinite(sd))
		return NAN;
	for (n = n < 2 ? 2 : n; n <= STATS_MAX_SESSIONS; n++)
		if (stats_power_factor(alpha, dfper * (n - 1)) * sd / sqrt(n) <= target)
			return n;
	return NAN;
}

/* Sessions per column for a change of @target_pct, from the spread of one session's level. */
static double stats_sessions_needed(const struct stats_change *ch, double alpha, double target_pct)
{
	double rb = ch->rsd_base, ro = ch->rsd_other;

	if (ch->paired)	/* sd of one session's log ratio, against the target as a log ratio */
		return stats_sessions_for(100 * rb, 100 * log1p(target_pct / 100), alpha, 1);
	/* a column with one session has no spread of its own: it borrows the other's */
	if (isnan(rb))
		rb = ro;
	if (isnan(ro))
		ro = rb;
	return stats_sessions_for(100 * sqrt(rb * rb + ro * ro), target_pct, alpha, 2);
}

void stats_plan(struct stats_change *ch, double alpha, double target_pct)
{
	if (!ch || !(target_pct > 0) || !(alpha > 0 && alpha < 1))
		return;
	ch->mde_pct = ch->sessions_needed = NAN;
	ch->decided = ch->verdict == STATS_IMPROVEMENT || ch->verdict == STATS_REGRESSION ||
		      (ch->verdict == STATS_NONE && ch->ci_low >= -target_pct && ch->ci_high <= target_pct);
	if (ch->decided)
		return;
	if (isfinite(ch->se_pct) && ch->df > 0)
		ch->mde_pct = stats_power_factor(alpha, ch->df) * ch->se_pct;
	ch->sessions_needed = stats_sessions_needed(ch, alpha, target_pct);
}

double stats_mde_independent(double rsd, size_t sessions, double alpha)
{
	double df = 2 * ((double)sessions - 1);

	if (!(rsd > 0) || !isfinite(rsd) || sessions < 2 || !(alpha > 0 && alpha < 1))
		return NAN;
	return stats_power_factor(alpha, df) * 100 * rsd * sqrt(2 / (double)sessions);
}

double stats_sessions_independent(double rsd, double target_pct, double alpha)
{
	if (!(target_pct > 0) || !(alpha > 0 && alpha < 1))
		return NAN;
	return stats_sessions_for(100 * rsd * sqrt(2), target_pct, alpha, 2);
}

double stats_sequential_alpha(double alpha, unsigned first, unsigned last)
{
	return last > first ? alpha / (double)(last - first + 1) : alpha;
}
