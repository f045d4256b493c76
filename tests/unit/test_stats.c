/* test_stats: stats against reference numbers computed outside this code (see each test for the source). */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_cdf.h>

#include "stats/stats.h"

/*
 * Unless a test says otherwise, reference numbers come from
 * tests/unit/stats_ref.py: plain Python with exact fractions for the ANOVA
 * and its own Student t (Simpson integration of the density, bisection for
 * quantiles), sharing no code with src/stats or GSL.  Its quantiles match
 * printed t tables: t(.975; 3) = 3.182446, t(.975; 4) = 2.776445,
 * t(.975; 11) = 2.200985.
 */

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

#define assert_near(got, want, tol)                                                       \
	do {                                                                              \
		double got_ = (got), want_ = (want);                                      \
		if (!(fabs(got_ - want_) <= (tol)))                                       \
			fail_msg("%s = %.12g, want %.12g (+- %g)", #got, got_, want_, (double)(tol)); \
	} while (0)

static struct stats_cell cell_of(const double *v, const int *sess, size_t n)
{
	struct stats_sample_set s = { v, sess, n, false };
	struct stats_cell c;

	assert_int_equal(stats_cell_compute(&s, STATS_DEFAULT_ALPHA, &c), 0);
	return c;
}

static struct stats_change compare(const struct stats_cell *b, const struct stats_cell *o, bool hib,
				   enum stats_rule rule)
{
	struct stats_change ch;

	assert_int_equal(stats_compare(b, o, hib, rule, STATS_DEFAULT_ALPHA, STATS_DEFAULT_MIN_EFFECT_PCT, &ch), 0);
	return ch;
}

/* A cell made by hand: same mean/variance for both rules, enough n to compare. */
static struct stats_cell cell_made(double mean, double var_mean, double df)
{
	struct stats_cell c;

	memset(&c, 0, sizeof(c));
	c.n = 12;
	c.sessions = 4;
	c.mean = mean;
	c.nested = (struct stats_estimate){ var_mean, df, NAN, NAN };
	c.pooled = c.nested;
	c.level = mean;
	c.robust = c.nested;
	c.sessions_df = df;
	return c;
}

/* Move a hand-made cell's centre under both rules. */
static void cell_move(struct stats_cell *c, double mean)
{
	c->mean = c->level = mean;
}

/* One session: the ordinary t interval on the samples. */
static void test_single_session(void **state)
{
	/*
	 * By hand: mean 100, deviations 0 2 -2 1 -1, s^2 = 10/4 = 2.5,
	 * half width = t(.975; 4) 2.776445 * sqrt(2.5/5) = 1.963243.
	 */
	static const double v[] = { 100, 102, 98, 101, 99 };
	struct stats_cell c = cell_of(v, NULL, N_OF(v));

	(void)state;
	assert_int_equal(c.n, 5);
	assert_int_equal(c.sessions, 1);
	assert_near(c.mean, 100, 1e-12);
	assert_near(c.stddev, 1.58113883, 1e-8);
	assert_near(c.cv, 0.0158113883, 1e-10);
	assert_near(c.min, 98, 0);
	assert_near(c.max, 102, 0);
	assert_near(c.median, 100, 0);
	assert_near(c.pooled.var_mean, 0.5, 1e-12);
	assert_near(c.pooled.df, 4, 0);
	assert_near(c.pooled.ci_low, 98.03675684, 1e-7);
	assert_near(c.pooled.ci_high, 101.9632432, 1e-7);
	/* one session: nothing to separate, the nested estimate is the pooled one */
	assert_near(c.nested.var_mean, c.pooled.var_mean, 0);
	assert_near(c.nested.df, 4, 0);
	assert_near(c.nested.ci_low, 98.03675684, 1e-7);
	assert_near(c.var_within, 2.5, 1e-12);
	assert_true(isnan(c.var_between));
}

/* Unbalanced sessions (3, 2, 1, 4 samples), given out of order with arbitrary ids. */
static void test_unbalanced_sessions(void **state)
{
	/* sessions {10 12 14} {20 22} {17} {15 16 18 19}, interleaved */
	static const double v[] = { 15, 10, 20, 17, 16, 12, 22, 18, 14, 19 };
	static const int s[] = { -1, 7, 42, 3, -1, 7, 42, -1, 7, -1 };
	struct stats_cell c = cell_of(v, s, N_OF(v));

	(void)state;
	assert_int_equal(c.sessions, 4);
	assert_near(c.mean, 16.3, 1e-12);
	assert_near(c.median, 16.5, 0);
	assert_near(c.stddev, 3.683295626, 1e-8);
	assert_near(c.var_between, 13.15714286, 1e-7);
	assert_near(c.var_within, 3.333333333, 1e-8);
	assert_near(c.nested.var_mean, 4.28047619, 1e-8);
	assert_near(c.nested.df, 2.870150415, 1e-8);
	assert_near(c.nested.ci_low, 9.543969742, 1e-6);
	assert_near(c.nested.ci_high, 23.05603026, 1e-6);
	/* sessions differ, so pooling understates the uncertainty about threefold */
	assert_near(c.pooled.var_mean, 1.356666667, 1e-8);
}

/* Sessions no more different than samples within them: var_between clamps to 0. */
static void test_clamped_between(void **state)
{
	/* {1 5 9} {4 6 8} {2 6 7 3}: MSB < MSW, so Var(mean) = MSW / N with N - k = 7 df */
	static const double v[] = { 1, 5, 9, 4, 6, 8, 2, 6, 7, 3 };
	static const int s[] = { 1, 1, 1, 2, 2, 2, 3, 3, 3, 3 };
	struct stats_cell c = cell_of(v, s, N_OF(v));

	(void)state;
	assert_near(c.mean, 5.1, 1e-12);
	assert_near(c.var_between, 0, 0);
	assert_near(c.var_within, 8.142857143, 1e-8);
	assert_near(c.nested.var_mean, 0.8142857143, 1e-10);
	assert_near(c.nested.df, 7, 1e-9);
}

/*
 * Levels that agree more closely than their repeats allow: the floor (the
 * repeats' noise, with their 8 df) stands in for the test, but as an
 * estimate of one session's spread it has the sessions' 3 df, and plans
 * (here calibrate's) say so: 4 sessions planning fewer than 8 is "at least".
 */
static void test_floored_spread_plans_with_the_sessions_df(void **state)
{
	static const double v[] = { 99.8, 100.2, 100, 99.7, 100.3, 100, 99.9, 100.1, 100, 100.25, 99.75, 100 };
	static const int s[] = { 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4 };
	struct stats_cell c = cell_of(v, s, N_OF(v)), o = c;
	struct stats_change ch;
	bool lower = false;

	(void)state;
	assert_true(c.spread_floored);
	assert_near(c.robust.df, 8, 0);
	assert_near(c.sessions_df, 3, 0);
	cell_move(&o, c.level * 1.001);
	ch = compare(&c, &o, true, STATS_RULE_NESTED);
	assert_near(ch.rsd_df_base, 3, 0);
	assert_near(ch.df, 16, 1e-9);	/* the test still has the floor's df, Welch over both */
	assert_true(stats_sessions_independent(sqrt(c.var_sessions) / c.level, c.sessions_df, c.sessions, 1, 0.05,
					       &lower) < 8);
	assert_true(lower);
}

/* Balanced sessions: Var(mean) = MSB / N with k - 1 df, the exact nested t. */
static void test_balanced_sessions(void **state)
{
	static const double v[] = { 100, 101, 102, 95, 96, 96, 104, 103, 105, 99, 100, 98 };
	static const int s[] = { 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4 };
	struct stats_cell c = cell_of(v, s, N_OF(v));

	(void)state;
	assert_near(c.mean, 99.91666667, 1e-8);
	assert_near(c.var_between, 11.97222222, 1e-8);
	assert_near(c.var_within, 0.8333333333, 1e-10);
	assert_near(c.nested.var_mean, 3.0625, 1e-10);
	assert_near(c.nested.df, 3, 1e-9);
}

/* One sample per session: the samples are the session means, so the plain t applies. */
static void test_one_sample_per_session(void **state)
{
	/* by hand: s^2 of 1..4 = 5/3, Var(mean) = 5/12 with 3 df */
	static const double v[] = { 1, 2, 3, 4 };
	static const int s[] = { 10, 20, 30, 40 };
	struct stats_cell c = cell_of(v, s, N_OF(v));

	(void)state;
	assert_int_equal(c.sessions, 4);
	assert_near(c.nested.var_mean, 5.0 / 12, 1e-12);
	assert_near(c.nested.df, 3, 0);
	assert_true(isnan(c.var_between));
	assert_true(isnan(c.var_within));
}

static void test_one_sample(void **state)
{
	static const double v[] = { 42 }, w[] = { 40, 41, 43 };
	struct stats_cell c = cell_of(v, NULL, 1), d = cell_of(w, NULL, 3);
	struct stats_change ch;

	(void)state;
	assert_near(c.mean, 42, 0);
	assert_near(c.median, 42, 0);
	assert_true(isnan(c.stddev) && isnan(c.cv));
	assert_true(isnan(c.nested.var_mean) && isnan(c.nested.ci_low) && isnan(c.pooled.ci_high));
	assert_near(c.nested.df, 0, 0);
	ch = compare(&c, &d, true, STATS_RULE_NESTED);
	assert_int_equal(ch.verdict, STATS_INSUFFICIENT);
	assert_string_equal(ch.why_insufficient, "fewer than 2 samples in the base column");
	ch = compare(&d, &c, true, STATS_RULE_FASTPATH);
	assert_int_equal(ch.verdict, STATS_INSUFFICIENT);
	assert_string_equal(ch.why_insufficient, "fewer than 2 samples in the compared column");
	assert_near(ch.pct, 100.0 * (42.0 / (124.0 / 3) - 1), 1e-12);
}

/* No spread at all: point intervals; two such columns cannot be judged. */
static void test_zero_variance(void **state)
{
	static const double five[] = { 5, 5, 5, 5 }, six[] = { 6, 6, 6, 6 }, var[] = { 5, 6, 7, 6 };
	static const int s[] = { 1, 1, 2, 2 };
	struct stats_cell a = cell_of(five, s, 4), b = cell_of(six, s, 4), c = cell_of(var, s, 4);
	struct stats_change ch;

	(void)state;
	assert_near(a.stddev, 0, 0);
	assert_near(a.cv, 0, 0);
	assert_near(a.nested.var_mean, 0, 0);
	assert_near(a.nested.ci_low, 5, 0);
	assert_near(a.nested.ci_high, 5, 0);
	assert_near(a.var_between, 0, 0);
	ch = compare(&a, &b, true, STATS_RULE_NESTED);
	assert_int_equal(ch.verdict, STATS_INSUFFICIENT);
	assert_near(ch.pct, 20, 1e-12);
	assert_true(isnan(ch.ci_low) && isnan(ch.p_value));
	/* one column with spread is enough: its own df carries the test */
	ch = compare(&a, &c, true, STATS_RULE_NESTED);
	assert_int_not_equal(ch.verdict, STATS_INSUFFICIENT);
	assert_near(ch.df, c.nested.df, 1e-12);
}

static void test_rejects_bad_input(void **state)
{
	double v[] = { 1, 2, 3 };
	struct stats_sample_set s = { v, NULL, 3, false };
	struct stats_cell c, a = cell_made(100, 1, 5);
	struct stats_change ch;

	(void)state;
	assert_int_equal(stats_cell_compute(NULL, 0.05, &c), -EINVAL);
	assert_int_equal(stats_cell_compute(&s, 0.05, NULL), -EINVAL);
	assert_int_equal(stats_cell_compute(&s, 0, &c), -EINVAL);
	assert_int_equal(stats_cell_compute(&s, 1, &c), -EINVAL);
	assert_int_equal(stats_cell_compute(&s, NAN, &c), -EINVAL);
	s.n = 0;
	assert_int_equal(stats_cell_compute(&s, 0.05, &c), -EINVAL);
	s.n = 3;
	v[1] = NAN;
	assert_int_equal(stats_cell_compute(&s, 0.05, &c), -EINVAL);
	v[1] = INFINITY;
	assert_int_equal(stats_cell_compute(&s, 0.05, &c), -EINVAL);
	s.values = NULL;
	assert_int_equal(stats_cell_compute(&s, 0.05, &c), -EINVAL);

	/* a hand-made cell without df must not reach GSL (its default handler aborts) */
	c = cell_made(101, 1, 0);
	assert_int_equal(stats_compare(&a, &c, true, STATS_RULE_NESTED, 0.05, 0.5, &ch), 0);
	assert_int_equal(ch.verdict, STATS_INSUFFICIENT);
	c.nested.var_mean = NAN;
	c.nested.df = 3;
	assert_int_equal(stats_compare(&a, &c, true, STATS_RULE_NESTED, 0.05, 0.5, &ch), 0);
	assert_int_equal(ch.verdict, STATS_INSUFFICIENT);

	assert_int_equal(stats_compare(NULL, &a, true, STATS_RULE_NESTED, 0.05, 0.5, &ch), -EINVAL);
	assert_int_equal(stats_compare(&a, &a, true, STATS_RULE_NESTED, 0.05, 0.5, NULL), -EINVAL);
	assert_int_equal(stats_compare(&a, &a, true, STATS_RULE_NESTED, 1.5, 0.5, &ch), -EINVAL);
	assert_int_equal(stats_compare(&a, &a, true, STATS_RULE_NESTED, 0.05, -1, &ch), -EINVAL);
	assert_int_equal(stats_compare(&a, &a, true, STATS_RULE_NESTED, 0.05, NAN, &ch), -EINVAL);
	assert_int_equal(stats_compare(&a, &a, true, (enum stats_rule)99, 0.05, 0.5, &ch), -EINVAL);
}

/* The Welch part against R's published output for its sleep data. */
static void test_compare_matches_r_welch(void **state)
{
	/*
	 * datasets::sleep; R's ?t.test example t.test(extra ~ group, data = sleep)
	 * prints t = -1.8608, df = 17.776, p-value = 0.07939.  The Fieller
	 * interval is from stats_ref.py.
	 */
	static const double g1[] = { 0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0 };
	static const double g2[] = { 1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4 };
	struct stats_cell c1 = cell_of(g1, NULL, 10), c2 = cell_of(g2, NULL, 10);
	/* one session each: the nested rule declines; the fastpath change is the pooled Welch test */
	struct stats_change ch = compare(&c2, &c1, true, STATS_RULE_NESTED);

	assert_int_equal(ch.verdict, STATS_INSUFFICIENT);
	assert_string_equal(ch.why_insufficient, "fewer than 2 sessions in the base column");
	ch = compare(&c2, &c1, true, STATS_RULE_FASTPATH);

	(void)state;
	assert_near(ch.df, 17.776, 5e-4);
	assert_near(ch.p_value, 0.07939, 5e-6);
	assert_near(ch.pct, -67.8111588, 1e-6);
	assert_near(ch.ci_low, -120.1508607, 1e-5);
	assert_near(ch.ci_high, 15.74232456, 1e-5);
	assert_int_equal(ch.verdict, STATS_NONE);
	/* group 1 as base: its mean 0.75 is within noise of 0, Fieller's set is unbounded */
	ch = compare(&c1, &c2, true, STATS_RULE_FASTPATH);
	assert_int_equal(ch.verdict, STATS_INSUFFICIENT);
	assert_non_null(strstr(ch.why_insufficient, "unbounded"));
}

/*
 * Columns 300 orders of magnitude apart (means 1e-150 and 1e150): squaring the
 * larger variance of the mean overflowed, df became NaN and GSL's t quantile
 * aborted the program.  Scaled, df lies between the columns' own df and their
 * sum, and the change is the ratio's.
 */
static void test_compare_vast_ratio(void **state)
{
	struct stats_cell b = cell_made(1e-150, 1e-304, 3), o = cell_made(1e150, 1e296, 5);
	struct stats_change ch = compare(&b, &o, true, STATS_RULE_NESTED);

	(void)state;
	assert_true(ch.df >= 3 && ch.df <= 8);
	assert_near(ch.pct / 1e302, 1, 1e-9);
	assert_true(ch.ci_low > 0 && ch.ci_high > ch.ci_low);
	assert_int_equal(ch.verdict, STATS_IMPROVEMENT);
}

/* Nested vs fastpath on the same balanced columns: the rules disagree on what is noise. */
static void test_compare_balanced_both_rules(void **state)
{
	static const double b[] = { 100, 101, 102, 95, 96, 96, 104, 103, 105, 99, 100, 98 };
	static const double o[] = { 97, 98, 98, 93, 92, 94, 101, 100, 99, 96, 95, 97 };
	static const int s[] = { 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4 };
	struct stats_cell cb = cell_of(b, s, 12), co = cell_of(o, s, 12);
	struct stats_change ch = compare(&cb, &co, true, STATS_RULE_NESTED);

	(void)state;
	/*
	 * the spreads of the session means agree (F = 1.41, two-sided p 0.78 by
	 * stats_ref.py): judged with the shared spread's df, 3 + 3, not Welch's 5.83
	 */
	assert_near(ch.pct, -3.252710592, 1e-8);
	assert_near(ch.df, 6, 0);
	assert_near(ch.ci_low, -8.576784744, 1e-6);
	assert_near(ch.ci_high, 2.42740789, 1e-6);
	assert_near(ch.p_value, 0.2050749926, 1e-7);
	assert_int_equal(ch.verdict, STATS_NONE);
	assert_null(ch.why_insufficient);

	/* pooled: a "significant" p = 0.015, yet the two 95% intervals still overlap */
	ch = compare(&cb, &co, true, STATS_RULE_FASTPATH);
	assert_near(ch.df, 21.4509687, 1e-6);
	assert_near(ch.ci_low, -5.73709502, 1e-6);
	assert_near(ch.ci_high, -0.6942436321, 1e-6);
	assert_near(ch.p_value, 0.01548754186, 1e-7);
	assert_near(cb.pooled.ci_low, 97.84524573, 1e-6);
	assert_near(co.pooled.ci_high, 98.42939904, 1e-6);
	assert_int_equal(ch.verdict, STATS_NONE);
}

/*
 * The spread is shared only between columns of equal session counts, 4 or
 * more, whose spreads agree: otherwise Welch-Satterthwaite's df, below the
 * shared spread's.
 */
static void test_shared_spread_only_where_it_holds(void **state)
{
	static const double b[] = { 100, 101, 102, 95, 96, 96, 104, 103, 105, 99, 100, 98, 97, 98, 97 };
	static const double o[] = { 97, 98, 98, 93, 92, 94, 101, 100, 99, 96, 95, 97, 95, 96, 94 };
	/* levels 1% apart against b's 4% or so: F = 16, p < 0.01 */
	static const double q[] = { 97, 97.1, 96.9, 96, 96.1, 95.9, 98, 97.9, 98.1, 96.5, 96.6, 96.4 };
	static const int s[] = { 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5 };
	struct stats_cell cb = cell_of(b, s, 12), co = cell_of(o, s, 12), cq = cell_of(q, s, 12);
	struct stats_change ch = compare(&cb, &co, true, STATS_RULE_NESTED);

	(void)state;
	assert_near(ch.df, 6, 0);
	/* spreads 4 times apart */
	ch = compare(&cb, &cq, true, STATS_RULE_NESTED);
	assert_true(ch.df < 6);
	/* 3 sessions each: an F test of 2 and 2 df cannot tell spreads apart */
	cb = cell_of(b, s, 9);
	co = cell_of(o, s, 9);
	ch = compare(&cb, &co, true, STATS_RULE_NESTED);
	assert_true(ch.df < 4);
	/* 4 sessions against 5 */
	cb = cell_of(b, s, 12);
	co = cell_of(o, s, 15);
	ch = compare(&cb, &co, true, STATS_RULE_NESTED);
	assert_true(ch.df < 7);
	/* the fastpath rule compares samples, never a shared spread of sessions */
	ch = compare(&cb, &cb, true, STATS_RULE_FASTPATH);
	assert_near(ch.df, 22, 1e-9);
}

/* Verdict direction, the minimum effect, and p < alpha exactly when the CI excludes 0. */
static void test_verdicts(void **state)
{
	/* Welch df by hand: (1 + 1)^2 / (1/11 + 1/5) = 13.75; interval and p from stats_ref.py */
	struct stats_cell b = cell_made(100, 1, 11), o = cell_made(103, 1, 5);
	struct stats_change ch = compare(&b, &o, true, STATS_RULE_NESTED);

	(void)state;
	assert_near(ch.df, 13.75, 1e-12);
	assert_near(ch.ci_low, -0.0377943457, 1e-7);
	assert_near(ch.ci_high, 6.13292459, 1e-7);
	assert_near(ch.p_value, 0.05257392487, 1e-8);
	assert_int_equal(ch.verdict, STATS_NONE);

	cell_move(&o, 110);
	assert_int_equal(compare(&b, &o, true, STATS_RULE_NESTED).verdict, STATS_IMPROVEMENT);
	assert_int_equal(compare(&b, &o, false, STATS_RULE_NESTED).verdict, STATS_REGRESSION);
	cell_move(&o, 90);
	assert_int_equal(compare(&b, &o, true, STATS_RULE_NESTED).verdict, STATS_REGRESSION);
	assert_int_equal(compare(&b, &o, false, STATS_RULE_NESTED).verdict, STATS_IMPROVEMENT);
	/* a clear but small change is not called */
	b = cell_made(100, 1e-4, 11);
	o = cell_made(100.3, 1e-4, 11);
	ch = compare(&b, &o, true, STATS_RULE_NESTED);
	assert_true(ch.ci_low > 0);
	assert_int_equal(ch.verdict, STATS_NONE);
	assert_int_equal(stats_compare(&b, &o, true, STATS_RULE_NESTED, 0.05, 0.25, &ch), 0);
	assert_int_equal(ch.verdict, STATS_IMPROVEMENT);

	b = cell_made(100, 1, 11);
	for (double m = 95; m <= 105; m += 0.125) {
		o = cell_made(m, 1, 5);
		ch = compare(&b, &o, true, STATS_RULE_NESTED);
		assert_int_equal(ch.p_value < 0.05, ch.ci_low > 0 || ch.ci_high < 0);
	}
}

/* fastpath: fires only when the pooled t intervals are apart. */
static void test_fastpath_rule(void **state)
{
	/* half width = t(.975; 11) 2.200985 (table) * sqrt(1): base CI [97.799, 102.201] */
	struct stats_cell b = cell_made(100, 1, 11), o = cell_made(104.3, 1, 11);

	(void)state;
	/* 104.3 - 2.201 = 102.099 < 102.201: overlap, though the Welch test would reject */
	assert_true(compare(&b, &o, true, STATS_RULE_NESTED).p_value < 0.05);
	assert_int_equal(compare(&b, &o, true, STATS_RULE_FASTPATH).verdict, STATS_NONE);
	cell_move(&o, 104.5);	/* 102.299 > 102.201: apart */
	assert_int_equal(compare(&b, &o, true, STATS_RULE_FASTPATH).verdict, STATS_IMPROVEMENT);
	assert_int_equal(compare(&b, &o, false, STATS_RULE_FASTPATH).verdict, STATS_REGRESSION);
	/* the rule uses the pooled estimate, not the robust one */
	o.robust.var_mean = 100;
	b.robust.var_mean = 100;
	assert_int_equal(compare(&b, &o, true, STATS_RULE_FASTPATH).verdict, STATS_IMPROVEMENT);
	assert_int_equal(compare(&b, &o, true, STATS_RULE_NESTED).verdict, STATS_NONE);
}

/*
 * Every sample equal to its cell's mean, as in a seed-shaped fixture without
 * spread: the variance is rounding noise, which used to read as a very
 * precise estimate and marked a -0.85% change (R).  No spread, no verdict.
 */
static void test_rounding_noise_is_no_spread(void **state)
{
	double b[12], o[12];
	static const int s[] = { 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4 };
	struct stats_cell cb, co;
	struct stats_change ch;

	(void)state;
	for (size_t i = 0; i < 12; i++) {
		b[i] = 25687107580.90;
		o[i] = 25468766166.46;	/* -0.85%, rounded to cents like the fixture */
	}
	cb = cell_of(b, s, 12);
	co = cell_of(o, s, 12);
	ch = compare(&cb, &co, true, STATS_RULE_NESTED);
	assert_int_equal(ch.verdict, STATS_INSUFFICIENT);
	assert_non_null(strstr(ch.why_insufficient, "no spread"));
	assert_near(ch.pct, -0.85, 1e-4);
	assert_true(stats_no_spread(1e-30, 1));
	assert_true(stats_no_spread(0, 100));
	assert_false(stats_no_spread(1e-10, 100));
}

/* One session per column: the nested rule gives no verdict; fastpath still pools, as it always did. */
static void test_one_session_insufficient(void **state)
{
	static const double b[] = { 100, 100.2, 99.9 }, o[] = { 97, 97.1, 96.8 };
	struct stats_cell cb = cell_of(b, NULL, 3), co = cell_of(o, NULL, 3);
	struct stats_change ch = compare(&cb, &co, true, STATS_RULE_NESTED);

	(void)state;
	assert_int_equal(ch.verdict, STATS_INSUFFICIENT);
	assert_string_equal(ch.why_insufficient, "fewer than 2 sessions in the base column");
	/* nothing flagged: each level is its session's mean */
	assert_near(ch.pct, 100 * ((97 + 97.1 + 96.8) / (100 + 100.2 + 99.9) - 1), 1e-9);
	assert_int_equal(compare(&cb, &co, true, STATS_RULE_FASTPATH).verdict, STATS_REGRESSION);
}

/*
 * A -15% dip in one session of three is flagged and left out of that
 * session's level (the mean of the other two); the session means would
 * have moved by 5%.
 */
static void test_outlier_flagged_and_set_aside(void **state)
{
	static const double v[] = { 100, 100.4, 85.2, 101, 101.2, 100.8, 99, 99.5, 99.1, 100.5, 100.1, 100.3 };
	static const int s[] = { 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4 };
	struct stats_sample_set set = { v, s, 12, false };
	bool flags[12];
	double levels[12];
	int ids[12];
	struct stats_cell c = cell_of(v, s, 12);

	(void)state;
	assert_int_equal(stats_outliers(&set, flags), 1);
	for (size_t i = 0; i < 12; i++)
		assert_int_equal(flags[i], i == 2);
	assert_int_equal(c.outliers, 1);
	assert_int_equal(stats_session_levels(&set, ids, levels), 4);
	assert_int_equal(ids[0], 1);
	assert_near(levels[0], 100.2, 1e-12);
	assert_near(levels[1], 101, 1e-12);
	assert_near(levels[3], 100.3, 1e-12);
	assert_near(c.level, (100.2 + 101 + 99.2 + 100.3) / 4, 1e-12);
	/* sessions of two cannot say which sample is wild: nothing flagged */
	set.n = 2;
	assert_int_equal(stats_outliers(&set, flags), 0);
	assert_int_equal(stats_outliers(NULL, flags), -EINVAL);
}

/* Paired by session: reference numbers from stats_ref.py's t (t(.975; 3), t(.8; 3) = 0.978472). */
static void test_paired(void **state)
{
	static const double b[] = { 100, 102, 98, 101 }, o[] = { 103, 105, 101.5, 104 };
	struct stats_change ch;

	(void)state;
	assert_int_equal(stats_compare_paired(b, o, 4, true, 0.05, 0.5, &ch), 0);
	assert_true(ch.paired);
	assert_near(ch.pct, 3.12039574064, 1e-9);
	assert_near(ch.ci_low, 2.64255570101, 1e-6);
	assert_near(ch.ci_high, 3.60046030695, 1e-6);
	assert_near(ch.p_value, 0.000234395, 1e-7);
	assert_near(ch.df, 3, 0);
	assert_int_equal(ch.verdict, STATS_IMPROVEMENT);
	assert_int_equal(stats_compare_paired(b, o, 4, false, 0.05, 0.5, &ch), 0);
	assert_int_equal(ch.verdict, STATS_REGRESSION);
	/* decided: nothing more to plan */
	stats_plan(&ch, 0.05, 1);
	assert_true(ch.decided);
	assert_true(isnan(ch.mde_pct) && isnan(ch.sessions_needed));
	/* against a 0.1% target it would not be decided had it not been called: mde and sessions */
	ch.verdict = STATS_NONE;
	stats_plan(&ch, 0.05, 0.1);
	assert_false(ch.decided);
	/*
	 * planned for the upper 75% bound of the spread (3 df): the variance
	 * times 3 / chi2(.25; 3) = 3 / 1.212533, so mde grows by its root and
	 * the sessions about in proportion (69 for the point estimate)
	 */
	assert_near(ch.mde_pct, 0.607259433 * sqrt(3 / gsl_cdf_chisq_Pinv(0.25, 3)), 1e-5);
	/* the smallest n whose t quantiles at n - 1 df meet a 0.1% change (as a log ratio) */
	for (double k = ch.sessions_needed - 1, sd = ch.rsd_base * sqrt(3 / gsl_cdf_chisq_Pinv(0.25, 3));
	     k <= ch.sessions_needed; k++)
		assert_int_equal((gsl_cdf_tdist_Pinv(0.975, k - 1) + gsl_cdf_tdist_Pinv(0.8, k - 1)) * sd / sqrt(k) <=
					 log1p(0.001),
				 k == ch.sessions_needed);
	assert_false(ch.plan_at_least);
	/* two pairs: an interval, but a spread of 1 df decides nothing; the plan is a lower bound */
	assert_int_equal(stats_compare_paired(b, o, 2, true, 0.05, 0.5, &ch), 0);
	assert_int_equal(ch.verdict, STATS_NONE);
	assert_non_null(ch.why_undecided);
	assert_true(isfinite(ch.ci_low) && isfinite(ch.p_value));
	stats_plan(&ch, 0.05, 1);
	assert_false(ch.decided);
	assert_true(ch.plan_at_least && isnan(ch.mde_pct) && ch.sessions_needed >= STATS_MIN_SESSIONS);
	/* one session, or the same ratio in every session: no verdict */
	assert_int_equal(stats_compare_paired(b, o, 1, true, 0.05, 0.5, &ch), 0);
	assert_int_equal(ch.verdict, STATS_INSUFFICIENT);
	/* ...but one session still has a size: 103/100 (show printed "+nan%" here) */
	assert_near(ch.pct, 3.0, 1e-9);
	assert_true(isnan(ch.ci_low) && isnan(ch.p_value));
	assert_int_equal(stats_compare_paired(b, b, 4, true, 0.05, 0.5, &ch), 0);
	assert_int_equal(ch.verdict, STATS_INSUFFICIENT);
	assert_int_equal(stats_compare_paired(NULL, o, 4, true, 0.05, 0.5, &ch), -EINVAL);
}

/*
 * Planning for independent columns: sessions sd 2% in each, so one column's
 * mean over n sessions has sd 2%/sqrt(n) and the difference
 * 2.83%/sqrt(n); the normal approximation (1.96 + 0.84)^2 * 8 = 62.8 is a
 * lower bound, the t quantiles at 2n - 2 df add about one session.
 */
static void test_plan_independent(void **state)
{
	struct stats_cell b = cell_made(100, 1, 3), o = cell_made(100.5, 1, 3);
	struct stats_change ch;
	double n, up, vb, vo, dfv;
	bool lower;

	(void)state;
	b.var_sessions = o.var_sessions = 4;	/* sd 2 around 100: 2% */
	ch = compare(&b, &o, true, STATS_RULE_NESTED);
	assert_int_equal(ch.verdict, STATS_NONE);
	stats_plan(&ch, 0.05, 1);
	assert_false(ch.decided);
	n = ch.sessions_needed;
	/*
	 * planned for the upper 75% bound of the spread: the two columns'
	 * variances (3 df each) sum with 6 df, times 6 / chi2(.25; 6); the
	 * smallest such n: n meets the target, n - 1 does not
	 */
	vb = ch.rsd_base * ch.rsd_base;
	vo = ch.rsd_other * ch.rsd_other;
	dfv = (vb + vo) * (vb + vo) / (vb * vb / 3 + vo * vo / 3);
	assert_near(dfv, 6, 1e-3);
	up = dfv / gsl_cdf_chisq_Pinv(0.25, dfv);
	assert_false(ch.plan_at_least);
	for (double k = n - 1; k <= n; k++) {
		double f = gsl_cdf_tdist_Pinv(0.975, 2 * k - 2) + gsl_cdf_tdist_Pinv(0.8, 2 * k - 2);

		assert_int_equal(f * 100 * sqrt((vb + vo) * up / k) <= 1, k == n);
	}
	/* mde now: (t(.975) + t(.8)) at the Welch df times the change's standard error, bounded likewise */
	assert_near(ch.mde_pct, (gsl_cdf_tdist_Pinv(0.975, ch.df) + gsl_cdf_tdist_Pinv(0.8, ch.df)) * ch.se_pct *
					sqrt(ch.df / gsl_cdf_chisq_Pinv(0.25, ch.df)), 1e-9);
	assert_near(ch.se_pct, 100 * sqrt(1 + 1.005 * 1.005) / 100, 1e-9);
	/*
	 * a column with one session borrows the other's spread: one estimate
	 * (3 df) for both, a wider bound, more sessions; calibrate's answer
	 */
	o.sessions = 1;
	o.var_sessions = NAN;
	ch = compare(&b, &o, true, STATS_RULE_NESTED);
	assert_int_equal(ch.verdict, STATS_INSUFFICIENT);
	stats_plan(&ch, 0.05, 1);
	assert_true(ch.sessions_needed > n);
	assert_near(ch.sessions_needed, stats_sessions_independent(0.02, 3, 4, 1, 0.05, NULL), 0);
	assert_true(isnan(ch.mde_pct));
	/* planning before a comparison gives the same answer from the same spread and df */
	assert_near(stats_sessions_independent(0.02, 3, 4, 1, 0.05, &lower),
		    stats_sessions_independent(0.02 * sqrt(3 / gsl_cdf_chisq_Pinv(0.25, 3)), 1e9, 4, 1, 0.05, NULL), 0);
	assert_false(lower);
	assert_near(stats_mde_independent(0.02, 6, 4, 0.05, &lower),
		    (gsl_cdf_tdist_Pinv(0.975, 6) + gsl_cdf_tdist_Pinv(0.8, 6)) * 2 * sqrt(0.5 * 6 / gsl_cdf_chisq_Pinv(0.25, 6)),
		    1e-9);
	/* a calibration of 2 sessions (1 df) cannot bound its spread: the answer is a lower bound */
	assert_true(stats_sessions_independent(0.02, 1, 2, 1, 0.05, &lower) < n);
	assert_true(lower);
	/*
	 * a quiet calibration of 4 sessions asking for fewer than 8: more likely
	 * a spread read too small than a quiet machine, a lower bound; from 8 df
	 * on, or a plan of twice the pilot or more, it is not
	 */
	n = stats_sessions_independent(0.003, 3, 4, 1, 0.05, &lower);
	assert_true(n >= STATS_MIN_SESSIONS && n < 8);
	assert_true(lower);
	assert_true(stats_sessions_independent(0.003, 8, 9, 1, 0.05, &lower) < 8);
	assert_false(lower);
	assert_true(stats_sessions_independent(0.006, 3, 4, 1, 0.05, &lower) >= 8);
	assert_false(lower);
	assert_true(isnan(stats_mde_independent(0.02, 6, 1, 0.05, NULL)));
	assert_true(isnan(stats_sessions_independent(0, 6, 7, 1, 0.05, NULL)));
	assert_true(isnan(stats_sessions_independent(0.02, 0, 1, 1, 0.05, NULL)));
	/* an interval within +-target decides "no change that large" */
	b = cell_made(100, 1e-4, 11);
	o = cell_made(100.1, 1e-4, 11);
	ch = compare(&b, &o, true, STATS_RULE_NESTED);
	stats_plan(&ch, 0.05, 1);
	assert_int_equal(ch.verdict, STATS_NONE);
	assert_true(ch.decided);
}

static void test_geomean_and_ratios(void **state)
{
	static const double r[] = { 2, 8 }, near1[] = { 1.02, 0.98 }, bad[] = { 1, 0 }, neg[] = { 1, -2 };

	(void)state;
	assert_near(stats_geomean(r, 2), 4, 1e-12);			/* sqrt(16) */
	assert_near(stats_geomean(near1, 2), sqrt(1.02 * 0.98), 1e-15);	/* sqrt(0.9996) */
	assert_near(stats_geomean(r, 1), 2, 1e-15);
	assert_true(isnan(stats_geomean(r, 0)));
	assert_true(isnan(stats_geomean(NULL, 2)));
	assert_true(isnan(stats_geomean(bad, 2)));
	assert_true(isnan(stats_geomean(neg, 2)));
	assert_near(stats_ratio_better(100, 110, true), 1.1, 1e-15);
	assert_near(stats_ratio_better(100, 110, false), 100.0 / 110, 1e-15);
	assert_true(isnan(stats_ratio_better(0, 110, true)));
	assert_true(isnan(stats_ratio_better(100, -1, true)));
}

static void test_geomean_change_pct(void **state)
{
	/* +10% higher-is-better and a lower-is-better time cut from 110 to 100 are both 1.1 better */
	static const struct stats_pair up[] = { { 100, 110, true }, { 110, 100, false } };
	/* 2x better and 2x worse cancel; the pair without a ratio is left out, not counted as 1 */
	static const struct stats_pair mixed[] = { { 1, 2, true }, { 1, 2, false }, { 0, 5, true } };
	static const struct stats_pair none[] = { { 0, 1, true }, { 1, NAN, true } };
	/* the seed's aws-m7g block: memset +1.92%, mmap 1GB -0.57%, mmap 4KB -1.11% */
	static const struct stats_pair seed[] = { { 100, 101.92, true }, { 100, 99.43, true },
						  { 100, 98.89, true } };

	(void)state;
	assert_near(stats_geomean_change_pct(up, 2), 10, 1e-9);
	assert_near(stats_geomean_change_pct(up, 1), 10, 1e-9);
	assert_near(stats_geomean_change_pct(mixed, 3), 0, 1e-12);
	assert_true(isnan(stats_geomean_change_pct(none, 2)));
	assert_true(isnan(stats_geomean_change_pct(up, 0)));
	assert_true(isnan(stats_geomean_change_pct(NULL, 2)));
	assert_near(stats_geomean_change_pct(seed, 3), 100 * (cbrt(1.0192 * 0.9943 * 0.9889) - 1), 1e-9);
}

static void test_ci_halfwidth_pct(void **state)
{
	struct stats_estimate e = { .ci_low = 95, .ci_high = 105 };

	(void)state;
	assert_near(stats_ci_halfwidth_pct(100, &e), 5, 1e-12);
	assert_near(stats_ci_halfwidth_pct(-100, &e), 5, 1e-12);	/* of |mean| */
	assert_true(isnan(stats_ci_halfwidth_pct(0, &e)));
	e.ci_high = NAN;
	assert_true(isnan(stats_ci_halfwidth_pct(100, &e)));
	e.ci_high = INFINITY;
	assert_true(isnan(stats_ci_halfwidth_pct(100, &e)));
}

static void test_verdict_names(void **state)
{
	(void)state;
	assert_string_equal(stats_verdict_name(STATS_NONE), "none");
	assert_string_equal(stats_verdict_name(STATS_IMPROVEMENT), "improvement");
	assert_string_equal(stats_verdict_name(STATS_REGRESSION), "regression");
	assert_string_equal(stats_verdict_name(STATS_INSUFFICIENT), "insufficient");
	assert_string_equal(stats_verdict_name((enum stats_verdict)42), "?");
}

/*
 * Two sessions in a column: an interval with Hsu's df (min sessions - 1 =
 * 1), never a verdict, never decided, however far apart the columns are.
 */
static void test_two_sessions_undecided(void **state)
{
	static const double vb[] = { 100, 100.2, 99.9, 101, 101.1, 100.9 };
	static const double vo[] = { 110, 110.3, 109.8, 111, 110.9, 111.2, 110.5, 110.4, 110.6 };
	static const int s[] = { 1, 1, 1, 2, 2, 2, 3, 3, 3 };
	struct stats_cell b = cell_of(vb, s, 6), o = cell_of(vo, s, 9);
	struct stats_change ch = compare(&b, &o, true, STATS_RULE_NESTED);

	(void)state;
	assert_int_equal(ch.verdict, STATS_NONE);
	assert_non_null(ch.why_undecided);
	assert_near(ch.df, 1, 0);
	assert_true(ch.ci_low > 0);	/* 10% apart: even at 1 df the interval excludes 0, but no mark */
	stats_plan(&ch, 0.05, 1);
	assert_false(ch.decided);
	assert_true(isnan(ch.mde_pct));
	assert_true(ch.sessions_needed >= STATS_MIN_SESSIONS);
	/* three sessions in both: the verdict */
	b = cell_of(vo, s, 9);
	o = b;
	cell_move(&o, b.level * 1.1);
	ch = compare(&b, &o, true, STATS_RULE_NESTED);
	assert_null(ch.why_undecided);
	assert_int_equal(ch.verdict, STATS_IMPROVEMENT);
}

/* Benjamini-Hochberg by hand: p 0.01 0.04 0.03 0.005 -> m p / rank 0.02 0.04 0.04 0.02 after the running minimum. */
static void test_bh_adjust(void **state)
{
	static const double p[] = { 0.01, 0.04, 0.03, 0.005, NAN, 0.9 };
	double adj[6];

	(void)state;
	assert_int_equal(stats_bh_adjust(p, 4, adj), 0);
	assert_near(adj[0], 0.02, 1e-15);
	assert_near(adj[1], 0.04, 1e-15);
	assert_near(adj[2], 0.04, 1e-15);
	assert_near(adj[3], 0.02, 1e-15);
	/* NAN is not a test: m stays 5; a large p is capped at 1 by the running minimum from the top */
	assert_int_equal(stats_bh_adjust(p, 6, adj), 0);
	assert_true(isnan(adj[4]));
	assert_near(adj[5], 0.9, 1e-15);
	assert_near(adj[3], 0.025, 1e-15);
	assert_near(adj[1], 0.05, 1e-15);
	assert_int_equal(stats_bh_adjust(NULL, 0, NULL), 0);
	assert_int_equal(stats_bh_adjust(NULL, 2, adj), -EINVAL);
}

/*
 * Modes: 10 sessions, 5 near 100 and 5 near 92 (8% apart, 0.5% within a
 * mode): far above the k = 10 threshold; the same spread without the gap
 * is not.  stats_share_modes then lifts a tight 4-session column of the
 * same row to the row's pooled spread.
 */
static void test_modes(void **state)
{
	double lv[10] = { 100, 100.5, 99.6, 100.2, 99.8, 92, 92.4, 91.7, 92.1, 91.9 };
	double one[10] = { 100, 100.5, 99.6, 100.2, 99.8, 100.1, 100.4, 99.7, 100.1, 99.9 };
	double v[30], w[12];
	int s[30], t[12];
	struct stats_cell a, b;
	struct stats_cell *row[2] = { &a, &b };
	size_t low;
	double gap;

	(void)state;
	assert_true(stats_modes_statistic(lv, 10, 0, &gap, &low) > stats_modes_threshold(10));
	assert_int_equal(low, 5);
	assert_near(gap, 100 * (100.02 / 92.02 - 1), 1e-9);
	assert_true(stats_modes_statistic(one, 10, 0, NULL, NULL) < stats_modes_threshold(10));
	assert_true(isnan(stats_modes_statistic(one, 3, 0, NULL, NULL)));
	assert_true(isnan(stats_modes_threshold(3)));
	/* the threshold falls with k and stays at the k = 40 value beyond */
	assert_true(stats_modes_threshold(4) > stats_modes_threshold(10));
	assert_near(stats_modes_threshold(1000), stats_modes_threshold(40), 0);
	for (int i = 0; i < 30; i++) {
		static const double lvl[10] = { 100, 100.5, 99.6, 100.2, 99.8, 92, 92.4, 91.7, 92.1, 91.9 };

		v[i] = lvl[i / 3] * (1 + 0.001 * (i % 3 - 1));
		s[i] = i / 3;
	}
	for (int i = 0; i < 12; i++) {
		w[i] = 100 + 0.3 * (i / 3) + 0.1 * (i % 3 - 1);
		t[i] = i / 3;
	}
	a = cell_of(w, t, 12);
	b = cell_of(v, s, 30);
	assert_int_equal(a.modes, 1);
	assert_int_equal(b.modes, 2);
	assert_int_equal(b.mode_low, 5);
	gap = a.var_sessions;
	assert_true(stats_share_modes(row, 2, STATS_DEFAULT_ALPHA));
	assert_true(a.modes_shared && !b.modes_shared);
	assert_near(a.var_sessions, (gap * 3 + b.var_sessions * 9) / 12, 1e-9 * a.var_sessions);
	assert_near(a.robust.var_mean, a.var_sessions / 4, 1e-12);
	assert_near(a.robust.df, 12, 0);
	assert_true(a.var_sessions > 1);
	/* without modes nothing changes */
	a = cell_of(w, t, 12);
	row[1] = NULL;
	assert_false(stats_share_modes(row, 2, STATS_DEFAULT_ALPHA));
	assert_false(a.modes_shared);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single_session),
		cmocka_unit_test(test_unbalanced_sessions),
		cmocka_unit_test(test_clamped_between),
		cmocka_unit_test(test_floored_spread_plans_with_the_sessions_df),
		cmocka_unit_test(test_balanced_sessions),
		cmocka_unit_test(test_one_sample_per_session),
		cmocka_unit_test(test_one_sample),
		cmocka_unit_test(test_zero_variance),
		cmocka_unit_test(test_rejects_bad_input),
		cmocka_unit_test(test_compare_matches_r_welch),
		cmocka_unit_test(test_compare_vast_ratio),
		cmocka_unit_test(test_compare_balanced_both_rules),
		cmocka_unit_test(test_shared_spread_only_where_it_holds),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_fastpath_rule),
		cmocka_unit_test(test_rounding_noise_is_no_spread),
		cmocka_unit_test(test_one_session_insufficient),
		cmocka_unit_test(test_outlier_flagged_and_set_aside),
		cmocka_unit_test(test_paired),
		cmocka_unit_test(test_plan_independent),
		cmocka_unit_test(test_geomean_and_ratios),
		cmocka_unit_test(test_geomean_change_pct),
		cmocka_unit_test(test_ci_halfwidth_pct),
		cmocka_unit_test(test_verdict_names),
		cmocka_unit_test(test_two_sessions_undecided),
		cmocka_unit_test(test_bh_adjust),
		cmocka_unit_test(test_modes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
