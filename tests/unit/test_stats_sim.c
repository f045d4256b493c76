/* test_stats_sim: false-alarm rate and power of the nested rule vs pooled samples, by simulation. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats/stats.h"

/*
 * The seed's design: 4 sessions x 3 repeats per column, sessions differing
 * more than repeats (sigma_b = 2%, sigma_w = 0.5% of the mean), around the
 * seed table's memset base value.  Deterministic: a fixed mt19937 seed.
 */
#define SIM_DATASETS	2000
#define SIM_SESSIONS	4
#define SIM_REPEATS	3
#define SIM_N		(SIM_SESSIONS * SIM_REPEATS)
#define SIM_SIGMA_W	0.005
#define SIM_MEAN	63932542232.12
#define SIM_SEED	20260821UL

/* How often each rule called a change (or, for the pooled t-test, had p < alpha). */
struct sim_rates {
	double nested_p, nested_called, pooled_p, fastpath_called;
	double nested_right_way;	/* called in the true direction */
};

static void sim_column(gsl_rng *r, double mean, double sigma_b, double *v, int *sess)
{
	for (int s = 0; s < SIM_SESSIONS; s++) {
		double boot = gsl_ran_gaussian(r, sigma_b);

		for (int i = 0; i < SIM_REPEATS; i++) {
			v[s * SIM_REPEATS + i] = mean * (1 + boot + gsl_ran_gaussian(r, SIM_SIGMA_W));
			sess[s * SIM_REPEATS + i] = s;
		}
	}
}

static struct stats_cell sim_cell(gsl_rng *r, double mean, double sigma_b)
{
	double v[SIM_N];
	int sess[SIM_N];
	struct stats_sample_set s = { v, sess, SIM_N };
	struct stats_cell c;

	sim_column(r, mean, sigma_b, v, sess);
	assert_int_equal(stats_cell_compute(&s, STATS_DEFAULT_ALPHA, &c), 0);
	return c;
}

static struct stats_change sim_compare(const struct stats_cell *b, const struct stats_cell *o, enum stats_rule rule)
{
	struct stats_change ch;

	assert_int_equal(stats_compare(b, o, true, rule, STATS_DEFAULT_ALPHA, STATS_DEFAULT_MIN_EFFECT_PCT, &ch), 0);
	assert_int_not_equal(ch.verdict, STATS_INSUFFICIENT);
	return ch;
}

/* Run SIM_DATASETS base/other pairs, other's true mean (1 + effect) times base's. */
static struct sim_rates simulate(double effect, double sigma_b)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct sim_rates rate = { 0, 0, 0, 0, 0 };
	enum stats_verdict right = effect >= 0 ? STATS_IMPROVEMENT : STATS_REGRESSION;

	assert_non_null(r);
	gsl_rng_set(r, SIM_SEED);
	for (int d = 0; d < SIM_DATASETS; d++) {
		struct stats_cell b = sim_cell(r, SIM_MEAN, sigma_b),
				  o = sim_cell(r, SIM_MEAN * (1 + effect), sigma_b);
		struct stats_change nested = sim_compare(&b, &o, STATS_RULE_NESTED);
		struct stats_change fast = sim_compare(&b, &o, STATS_RULE_FASTPATH);

		rate.nested_p += nested.p_value < STATS_DEFAULT_ALPHA;
		rate.nested_called += nested.verdict != STATS_NONE;
		rate.nested_right_way += nested.verdict == right;
		/* the fastpath change's p-value is the pooled Welch t-test on 12 + 12 samples */
		rate.pooled_p += fast.p_value < STATS_DEFAULT_ALPHA;
		rate.fastpath_called += fast.verdict != STATS_NONE;
	}
	gsl_rng_free(r);
	rate.nested_p /= SIM_DATASETS;
	rate.nested_called /= SIM_DATASETS;
	rate.nested_right_way /= SIM_DATASETS;
	rate.pooled_p /= SIM_DATASETS;
	rate.fastpath_called /= SIM_DATASETS;
	print_message("# effect %.0f%%, sigma_b %.1f%%: nested p<.05 %.4f called %.4f right way %.4f; pooled t p<.05 %.4f; fastpath called %.4f\n",
		      effect * 100, sigma_b * 100, rate.nested_p, rate.nested_called, rate.nested_right_way, rate.pooled_p,
		      rate.fastpath_called);
	return rate;
}

/*
 * No true effect.  Nominal 5%, binomial standard error over 2000 datasets
 * sqrt(.05 * .95 / 2000) = 0.0049, so the nested rule may show at most
 * 0.05 + 3 * 0.0049.  Pooling ignores that the 3 repeats in a session share
 * its offset: expected pooled-variance of the mean is (sigma_w^2 + sigma_b^2 *
 * 9/11) / 12 against a true sigma_b^2 / 4 + sigma_w^2 / 12, so the pooled
 * t-statistic is ~1.86x too large and its false-alarm rate is ~26% (normal
 * approximation, P(|Z| > 2.074 / 1.86)); the non-overlap rule, ~11%.
 */
static void test_no_effect_false_alarms(void **state)
{
	const double limit = 0.05 + 3 * sqrt(0.05 * 0.95 / SIM_DATASETS);
	struct sim_rates rate = simulate(0, 0.02);

	(void)state;
	assert_true(rate.nested_p <= limit);
	assert_true(rate.nested_called <= rate.nested_p);
	assert_true(rate.pooled_p > 2 * 0.05);
	assert_true(rate.fastpath_called > limit);
}

/*
 * A true 5% improvement: the difference of means has sd
 * sqrt(2 * (2%^2 / 4 + 0.5%^2 / 12)) = 1.43%, so the effect is ~3.5 sd
 * against a critical t of ~2.45 (Welch df ~6); the nested rule should call
 * it in the right direction most of the time (roughly 3 in 4) and never
 * the wrong way round more than rarely.
 */
static void test_known_effect_detected(void **state)
{
	struct sim_rates rate = simulate(0.05, 0.02);

	(void)state;
	assert_true(rate.nested_right_way >= 0.6);
	assert_true(rate.nested_called - rate.nested_right_way <= 0.01);
}

/*
 * Sessions alike (sigma_b = 0): var_between is clamped at 0 in about half
 * the columns, which must not turn the nested rule liberal.  Here the
 * samples really are independent, so the pooled t-test is the exact one and
 * should sit near 5% too: a check on the simulation itself.
 */
static void test_no_session_effect(void **state)
{
	const double limit = 0.05 + 3 * sqrt(0.05 * 0.95 / SIM_DATASETS);
	struct sim_rates rate = simulate(0, 0);

	(void)state;
	assert_true(rate.nested_p <= limit);
	assert_true(fabs(rate.pooled_p - 0.05) <= limit - 0.05);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_effect_false_alarms),
		cmocka_unit_test(test_known_effect_detected),
		cmocka_unit_test(test_no_session_effect),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
