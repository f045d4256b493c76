/* test_stats_sim: false-alarm rate and power of the verdict rules on simulated sessions, clean and with outliers. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

#include <cmocka.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include <stdio.h>
#include <string.h>

#include "compare/compare.h"
#include "stats/stats.h"

/*
 * The seed's design: 4 sessions x 3 repeats per column, sessions differing
 * more than repeats (sigma_w = 0.5% of the mean, sigma_b 1% or 2%), around
 * the seed table's memset base value; some samples can be hit by a one-off
 * dip (a compaction stall, a noisy neighbour).  Deterministic: a fixed
 * mt19937 seed for every scenario.
 */
#define SIM_DATASETS	2000
#define SIM_MAX_SESSIONS 16
#define SIM_REPEATS	3
#define SIM_MAX_N	(SIM_MAX_SESSIONS * SIM_REPEATS)
#define SIM_SIGMA_W	0.005
#define SIM_MEAN	63932542232.12
#define SIM_SEED	20260821UL

/* Nominal 5% plus three binomial standard errors over SIM_DATASETS: what a 5% rate may show. */
#define SIM_LIMIT	(0.05 + 3 * sqrt(0.05 * 0.95 / SIM_DATASETS))

struct sim_cfg {
	double effect;		/* other's true mean is (1 + effect) times base's */
	double sigma_b;		/* between-session sd, relative */
	double p_out, dip;	/* each sample is hit with probability p_out by a relative change dip */
	int sessions;		/* per column */
	bool paired;		/* both columns in the same sessions (shared offsets), compared paired */
};

/* How often each rule called a change (or, for the pooled t-test, had p < alpha). */
struct sim_rates {
	double nested_p, nested_called, pooled_p, fastpath_called;
	double nested_right_way;	/* called in the true direction */
	double mean_called;		/* the older nested rule, on session means (for comparison) */
	double median_called;		/* Welch on session medians (the alternative not chosen) */
	double insufficient;		/* datasets the nested rule would not judge */
	double outliers_flagged, outliers_true;	/* flagged samples per sample; share of hit samples flagged */
};

/* One column: values and session ids; @boot holds each session's offset (shared when paired). */
static size_t sim_column(gsl_rng *r, const struct sim_cfg *cfg, double mean, const double *boot, double *v,
			 int *sess, bool *hit)
{
	size_t n = 0;

	for (int s = 0; s < cfg->sessions; s++)
		for (int i = 0; i < SIM_REPEATS; i++, n++) {
			bool h = gsl_rng_uniform(r) < cfg->p_out;

			v[n] = mean * (1 + boot[s] + gsl_ran_gaussian(r, SIM_SIGMA_W)) * (h ? 1 + cfg->dip : 1);
			sess[n] = s;
			hit[n] = h;
		}
	return n;
}

struct sim_col {
	double v[SIM_MAX_N];
	int sess[SIM_MAX_N];
	bool hit[SIM_MAX_N], flag[SIM_MAX_N];
	size_t n;
	struct stats_cell c;
};

static void sim_fill(gsl_rng *r, const struct sim_cfg *cfg, double mean, const double *boot, struct sim_col *col,
		     struct sim_rates *rate)
{
	struct stats_sample_set s;
	size_t hits = 0, caught = 0, flagged = 0;

	col->n = sim_column(r, cfg, mean, boot, col->v, col->sess, col->hit);
	s = (struct stats_sample_set){ col->v, col->sess, col->n, false };
	assert_int_equal(stats_cell_compute(&s, STATS_DEFAULT_ALPHA, &col->c), 0);
	assert_true(stats_outliers(&s, col->flag) >= 0);
	for (size_t i = 0; i < col->n; i++) {
		hits += col->hit[i];
		caught += col->hit[i] && col->flag[i];
		flagged += col->flag[i] && !col->hit[i];
	}
	assert_int_equal(col->c.outliers, caught + flagged);
	rate->outliers_flagged += (double)flagged / (double)col->n;
	rate->outliers_true += hits ? (double)caught / (double)hits : 1;
}

/* The nested rule before it was made robust: Welch on the session-aware mean of all samples. */
static bool sim_mean_rule(const struct stats_cell *b, const struct stats_cell *o)
{
	double v = b->nested.var_mean + o->nested.var_mean;
	double df = v * v / (b->nested.var_mean * b->nested.var_mean / b->nested.df +
			     o->nested.var_mean * o->nested.var_mean / o->nested.df);
	double t = (o->mean - b->mean) / sqrt(v);

	return 2 * gsl_cdf_tdist_Q(fabs(t), df) < STATS_DEFAULT_ALPHA &&
	       fabs(100 * (o->mean / b->mean - 1)) >= STATS_DEFAULT_MIN_EFFECT_PCT;
}

/* The median of each session's samples (sessions are runs of SIM_REPEATS). */
static void sim_medians(const struct sim_col *c, double *m)
{
	for (size_t s = 0; s < c->n / SIM_REPEATS; s++) {
		double v[SIM_REPEATS];

		for (int i = 0; i < SIM_REPEATS; i++)
			v[i] = c->v[s * SIM_REPEATS + i];
		gsl_sort(v, 1, SIM_REPEATS);
		m[s] = gsl_stats_median_from_sorted_data(v, 1, SIM_REPEATS);
	}
}

/* The alternative estimator: each session's median, Welch on those. */
static bool sim_median_rule(const struct sim_col *b, const struct sim_col *o)
{
	double mb[SIM_MAX_SESSIONS], mo[SIM_MAX_SESSIONS];
	size_t k = b->n / SIM_REPEATS;
	double xb, xo, vb, vo, df, t;

	sim_medians(b, mb);
	sim_medians(o, mo);
	xb = gsl_stats_mean(mb, 1, k);
	xo = gsl_stats_mean(mo, 1, k);
	vb = gsl_stats_variance_m(mb, 1, k, xb) / (double)k;
	vo = gsl_stats_variance_m(mo, 1, k, xo) / (double)k;
	df = (vb + vo) * (vb + vo) / (vb * vb / (double)(k - 1) + vo * vo / (double)(k - 1));
	t = (xo - xb) / sqrt(vb + vo);
	return 2 * gsl_cdf_tdist_Q(fabs(t), df) < STATS_DEFAULT_ALPHA &&
	       fabs(100 * (xo / xb - 1)) >= STATS_DEFAULT_MIN_EFFECT_PCT;
}

/* The nested comparison: paired by session when the columns share sessions, else independent. */
static struct stats_change sim_nested(const struct sim_cfg *cfg, const struct sim_col *b, const struct sim_col *o)
{
	struct stats_sample_set sb = { b->v, b->sess, b->n, false }, so = { o->v, o->sess, o->n, false };
	double lb[SIM_MAX_SESSIONS], lo[SIM_MAX_SESSIONS];
	int ib[SIM_MAX_SESSIONS], io[SIM_MAX_SESSIONS];
	struct stats_change ch;
	int k;

	if (!cfg->paired) {
		assert_int_equal(stats_compare(&b->c, &o->c, true, STATS_RULE_NESTED, STATS_DEFAULT_ALPHA,
					       STATS_DEFAULT_MIN_EFFECT_PCT, &ch), 0);
		return ch;
	}
	k = stats_session_levels(&sb, ib, lb);
	assert_int_equal(stats_session_levels(&so, io, lo), k);
	assert_int_equal(stats_compare_paired(lb, lo, (size_t)k, true, STATS_DEFAULT_ALPHA,
					      STATS_DEFAULT_MIN_EFFECT_PCT, &ch), 0);
	return ch;
}

/* Run SIM_DATASETS base/other pairs under @cfg. */
static struct sim_rates simulate(const struct sim_cfg *cfg)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct sim_rates rate = { 0 };
	enum stats_verdict right = cfg->effect >= 0 ? STATS_IMPROVEMENT : STATS_REGRESSION;
	static struct sim_col b, o;

	assert_non_null(r);
	gsl_rng_set(r, SIM_SEED);
	for (int d = 0; d < SIM_DATASETS; d++) {
		double boot_b[SIM_MAX_SESSIONS], boot_o[SIM_MAX_SESSIONS];
		struct stats_change nested, fast;

		for (int s = 0; s < cfg->sessions; s++) {
			boot_b[s] = gsl_ran_gaussian(r, cfg->sigma_b);
			boot_o[s] = cfg->paired ? boot_b[s] : gsl_ran_gaussian(r, cfg->sigma_b);
		}
		sim_fill(r, cfg, SIM_MEAN, boot_b, &b, &rate);
		sim_fill(r, cfg, SIM_MEAN * (1 + cfg->effect), boot_o, &o, &rate);
		nested = sim_nested(cfg, &b, &o);
		assert_int_equal(stats_compare(&b.c, &o.c, true, STATS_RULE_FASTPATH, STATS_DEFAULT_ALPHA,
					       STATS_DEFAULT_MIN_EFFECT_PCT, &fast), 0);
		rate.insufficient += nested.verdict == STATS_INSUFFICIENT;
		rate.nested_p += nested.p_value < STATS_DEFAULT_ALPHA;
		rate.nested_called += nested.verdict == STATS_IMPROVEMENT || nested.verdict == STATS_REGRESSION;
		rate.nested_right_way += nested.verdict == right;
		/* the fastpath change's p-value is the pooled Welch t-test on all samples */
		rate.pooled_p += fast.p_value < STATS_DEFAULT_ALPHA;
		rate.fastpath_called += fast.verdict != STATS_NONE && fast.verdict != STATS_INSUFFICIENT;
		if (cfg->sessions > 1 && !cfg->paired) {
			rate.mean_called += sim_mean_rule(&b.c, &o.c);
			rate.median_called += sim_median_rule(&b, &o);
		}
	}
	gsl_rng_free(r);
	rate.nested_p /= SIM_DATASETS;
	rate.nested_called /= SIM_DATASETS;
	rate.nested_right_way /= SIM_DATASETS;
	rate.pooled_p /= SIM_DATASETS;
	rate.fastpath_called /= SIM_DATASETS;
	rate.mean_called /= SIM_DATASETS;
	rate.median_called /= SIM_DATASETS;
	rate.insufficient /= SIM_DATASETS;
	rate.outliers_flagged /= 2 * SIM_DATASETS;
	rate.outliers_true /= 2 * SIM_DATASETS;
	print_message("# effect %+.0f%%, sigma_b %.1f%%, %d sessions%s, %.0f%% of samples %+.0f%%: "
		      "nested called %.4f (right way %.4f, insufficient %.4f); session means %.4f, medians %.4f; "
		      "pooled t p<.05 %.4f; fastpath %.4f; clean samples flagged %.4f, hit samples flagged %.4f\n",
		      cfg->effect * 100, cfg->sigma_b * 100, cfg->sessions, cfg->paired ? " paired" : "",
		      cfg->p_out * 100, cfg->dip * 100, rate.nested_called, rate.nested_right_way, rate.insufficient,
		      rate.mean_called, rate.median_called, rate.pooled_p, rate.fastpath_called, rate.outliers_flagged, rate.outliers_true);
	return rate;
}

/*
 * No true effect, clean data.  Pooling ignores that the 3 repeats in a
 * session share its offset: expected pooled-variance of the mean is
 * (sigma_w^2 + sigma_b^2 * 9/11) / 12 against a true sigma_b^2 / 4 +
 * sigma_w^2 / 12, so the pooled t-statistic is ~1.86x too large and its
 * false-alarm rate is ~26% (normal approximation, P(|Z| > 2.074 / 1.86));
 * the non-overlap rule, ~11%.
 */
static void test_no_effect_false_alarms(void **state)
{
	struct sim_cfg cfg = { .sigma_b = 0.02, .sessions = 4 };
	struct sim_rates rate = simulate(&cfg);

	(void)state;
	assert_true(rate.nested_p <= SIM_LIMIT);
	assert_true(rate.nested_called <= rate.nested_p);
	assert_true(rate.insufficient == 0);
	assert_true(rate.pooled_p > 2 * 0.05);
	assert_true(rate.fastpath_called > SIM_LIMIT);
	/* clean data: hardly a sample flagged */
	assert_true(rate.outliers_flagged < 0.005);
}

/*
 * A true 5% improvement: the difference of the session levels has sd
 * about sqrt(2 * (2%^2 + 0.5%^2 * 0.45) / 4) = 1.43%, so the effect is ~3.5
 * sd against a critical t of ~2.45 (Welch df ~6); the nested rule should
 * call it in the right direction most of the time (roughly 3 in 4) and
 * never the wrong way round more than rarely.
 */
static void test_known_effect_detected(void **state)
{
	struct sim_cfg cfg = { .effect = 0.05, .sigma_b = 0.02, .sessions = 4 };
	struct sim_rates rate = simulate(&cfg);

	(void)state;
	assert_true(rate.nested_right_way >= 0.6);
	assert_true(rate.nested_called - rate.nested_right_way <= 0.01);
}

/*
 * Sessions alike (sigma_b = 0): the session levels then vary by the within
 * noise only, which must not turn the nested rule liberal.  Here the
 * samples really are independent, so the pooled t-test is the exact one and
 * should sit near 5% too: a check on the simulation itself.
 */
static void test_no_session_effect(void **state)
{
	struct sim_cfg cfg = { .sigma_b = 0, .sessions = 4 };
	struct sim_rates rate = simulate(&cfg);

	(void)state;
	assert_true(rate.nested_p <= SIM_LIMIT);
	assert_true(fabs(rate.pooled_p - 0.05) <= SIM_LIMIT - 0.05);
}

/*
 * 5% of samples dip by 15% (1% between, 0.5% within).  The session median
 * of 3 ignores one dip; a session is only moved when 2 of its 3 samples dip
 * (3 * 0.05^2 = 0.7%).  The mean of each session takes a -5% hit from one
 * dip, which widens the interval: with session means the rule found a true
 * +3% only about 41% of the time.  Targets: A/A <= 5%, power at +3% >= 80%.
 */
static void test_dips_false_alarms(void **state)
{
	struct sim_cfg cfg = { .sigma_b = 0.01, .p_out = 0.05, .dip = -0.15, .sessions = 4 };
	struct sim_rates rate = simulate(&cfg);

	(void)state;
	assert_true(rate.nested_called <= SIM_LIMIT);
	/* most dips are flagged, few clean samples are */
	assert_true(rate.outliers_true > 0.9);
	assert_true(rate.outliers_flagged < 0.005);
}

static void test_dips_power(void **state)
{
	struct sim_cfg cfg = { .effect = 0.03, .sigma_b = 0.01, .p_out = 0.05, .dip = -0.15, .sessions = 4 };
	struct sim_rates rate = simulate(&cfg);

	(void)state;
	assert_true(rate.nested_right_way >= 0.8);
	/* why the estimator changed: the session means lose much of that power */
	assert_true(rate.mean_called < 0.6);
	/* on clean data with the same noise, nothing is lost against the session means (medians lose some) */
	cfg.p_out = 0;
	rate = simulate(&cfg);
	assert_true(rate.nested_right_way >= 0.8);
	assert_true(rate.nested_right_way >= rate.mean_called - 0.01);
}

/* 10% of samples dip by 30%, sessions 2% apart: still no more than 5% false alarms. */
static void test_deep_dips_false_alarms(void **state)
{
	struct sim_cfg cfg = { .sigma_b = 0.02, .p_out = 0.10, .dip = -0.30, .sessions = 4 };
	struct sim_rates rate = simulate(&cfg);

	(void)state;
	assert_true(rate.nested_called <= SIM_LIMIT);
}

/*
 * One session per column, sessions 2% apart: pooling the 3 samples of each
 * (what the nested rule used to do) calls the boot-to-boot offset a change
 * most of the time (~70%); now the rule says it cannot tell.
 */
static void test_one_session_no_verdict(void **state)
{
	struct sim_cfg cfg = { .sigma_b = 0.02, .sessions = 1 };
	struct sim_rates rate = simulate(&cfg);

	(void)state;
	assert_true(rate.insufficient == 1);
	assert_true(rate.nested_called == 0);
	assert_true(rate.pooled_p > 0.5);
}

/*
 * Two columns measured in the same 4 sessions (the strategies of one -f all
 * run) share each session's offset: paired by session the offset cancels,
 * so a 3% change is found nearly always even with sessions 2% apart, and
 * A/A stays at or below 5%.
 */
static void test_paired(void **state)
{
	struct sim_cfg cfg = { .sigma_b = 0.02, .p_out = 0.05, .dip = -0.15, .sessions = 4, .paired = true };
	struct sim_rates rate = simulate(&cfg);

	(void)state;
	assert_true(rate.nested_called <= SIM_LIMIT);
	cfg.effect = 0.03;
	rate = simulate(&cfg);
	assert_true(rate.nested_right_way >= 0.8);
}

/*
 * plan run --until-decided: start with 4 sessions per column, add one to each
 * after every undecided look, up to 10.  Looking 7 times at the 5% level
 * inflates A/A false alarms; each look at alpha / 7 keeps them at or below 5%.
 */
static double sim_sequential(double alpha_look, double effect, double *mean_sessions)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	enum { FIRST = 4, LAST = 10 };
	double called = 0, used = 0;
	static struct sim_col b, o;
	struct sim_cfg cfg = { .effect = effect, .sigma_b = 0.01, .p_out = 0.05, .dip = -0.15, .sessions = LAST };

	gsl_rng_set(r, SIM_SEED);
	for (int d = 0; d < SIM_DATASETS / 2; d++) {
		double boot_b[SIM_MAX_SESSIONS], boot_o[SIM_MAX_SESSIONS];
		struct sim_rates unused = { 0 };

		for (int s = 0; s < LAST; s++) {
			boot_b[s] = gsl_ran_gaussian(r, cfg.sigma_b);
			boot_o[s] = gsl_ran_gaussian(r, cfg.sigma_b);
		}
		sim_fill(r, &cfg, SIM_MEAN, boot_b, &b, &unused);
		sim_fill(r, &cfg, SIM_MEAN * (1 + effect), boot_o, &o, &unused);
		for (int k = FIRST; k <= LAST; k++) {
			struct stats_sample_set sb = { b.v, b.sess, (size_t)k * SIM_REPEATS, false },
						so = { o.v, o.sess, (size_t)k * SIM_REPEATS, false };
			struct stats_cell cb, co;
			struct stats_change ch;

			assert_int_equal(stats_cell_compute(&sb, alpha_look, &cb), 0);
			assert_int_equal(stats_cell_compute(&so, alpha_look, &co), 0);
			assert_int_equal(stats_compare(&cb, &co, true, STATS_RULE_NESTED, alpha_look,
						       STATS_DEFAULT_MIN_EFFECT_PCT, &ch), 0);
			stats_plan(&ch, alpha_look, STATS_DEFAULT_TARGET_PCT);
			if (ch.decided || k == LAST) {
				called += ch.verdict == STATS_IMPROVEMENT || ch.verdict == STATS_REGRESSION;
				used += k;
				break;
			}
		}
	}
	gsl_rng_free(r);
	*mean_sessions = used / (SIM_DATASETS / 2);
	return called / (SIM_DATASETS / 2);
}

static void test_sequential(void **state)
{
	double limit = 0.05 + 3 * sqrt(0.05 * 0.95 / (SIM_DATASETS / 2)), k;
	double alpha = stats_sequential_alpha(STATS_DEFAULT_ALPHA, 4, 10);
	double naive = sim_sequential(STATS_DEFAULT_ALPHA, 0, &k), ksafe, rate, power;

	(void)state;
	assert_true(fabs(alpha - 0.05 / 7) < 1e-15);
	rate = sim_sequential(alpha, 0, &ksafe);
	power = sim_sequential(alpha, 0.03, &k);
	print_message("# until decided, 4..10 sessions, 1%% between, 5%% of samples -15%%: A/A at 5%% per look %.4f; "
		      "at %.4f per look %.4f (mean %.2f sessions); +3%% found %.4f (mean %.2f sessions)\n",
		      naive, alpha, rate, ksafe, power, k);
	assert_true(rate <= limit);
	assert_true(naive > rate);
	assert_true(power >= 0.8);
}

/*
 * The designs users produce, through the code path `clearpath show` takes:
 * samples into a cmp_set (one block, @rows rows, columns "base" and
 * "other"), cmp_finish(), and the verdict of each row's "other" cell.
 * Session levels: 1 + boot offset (sd sigma_b, plus a gap of mode_gap with
 * probability mode_p: a boot landing in the slow mode), samples around
 * them with sd SIM_SIGMA_W, SIM_REPEATS per session.
 */
struct sim_design {
	int k_base, k_other;		/* sessions per column */
	double sb_base, sb_other;	/* between-session sd of each column */
	double mode_p, mode_gap;	/* bimodal boots */
	double p_out, dip;		/* outlier samples */
	double effect;			/* other = (1 + effect) x base, in the first @real rows */
	int rows, real;			/* table rows, of which the first @real have the effect */
	bool paired;			/* other measured in base's sessions */
	bool shared_boots;		/* the rows of a table share each session's offset (one plan run) */
	double fdr;			/* show --fdr */
	unsigned looks;			/* a sequential run's looks recorded for "other" */
};

#define SIM_MAX_ROWS 30
#define SIM_MAX_FOLLOW 200	/* the most sessions per column a followed plan may ask for */

/* What one table's "other" cells said. */
struct sim_table {
	int false_marks, right_marks;	/* marks on A/A rows or the wrong way; marks the right way on real rows */
	struct stats_change ch[SIM_MAX_ROWS];
	double alpha[SIM_MAX_ROWS];
	bool modes_shared[SIM_MAX_ROWS];
	struct cmp_floor floor;		/* of the base column, as calibrate computes it */
};

/* Datasets per scenario: CLEARPATH_SIM_SCALE multiplies them (bench/stats-rates). */
static int sim_n(int n)
{
	const char *e = getenv("CLEARPATH_SIM_SCALE");
	int k = e ? atoi(e) : 1;

	return n * (k > 0 ? k : 1);
}

/* One session's offset. */
static double sim_boot(gsl_rng *r, double sb, const struct sim_design *d)
{
	double off = gsl_ran_gaussian(r, sb);

	if (d->mode_p > 0 && gsl_rng_uniform(r) < d->mode_p)
		off -= d->mode_gap;
	return off;
}

static void sim_add(struct cmp_set *set, const struct cmp_opts *o, const char *swp, const char *uuid,
		    const char *started, const char *rclass, double v)
{
	/* a raw class, its name its key: the parser's work would only slow the simulation down */
	struct cmp_sample x = { "sim", swp, uuid, started,
				{ "mem/memset", "", rclass, rclass, NULL, 0, "", rclass }, "bytes/sec", true, v };

	assert_int_equal(cmp_add(set, o, &x), 0);
}

/* One column's sessions of every row; @boots[row][session] are the offsets, drawn here unless @reuse. */
static void sim_table_column(gsl_rng *r, const struct sim_design *d, struct cmp_set *set, const struct cmp_opts *o,
		       bool other, double (*boots)[SIM_MAX_FOLLOW], bool reuse, int dataset)
{
	int k = other ? d->k_other : d->k_base;
	double sb = other ? d->sb_other : d->sb_base;
	const char *swp = other ? "other" : "base";
	char uuid[64], rclass[64];

	for (int s = 0; s < k; s++) {
		/* paired: the same sessions (UUIDs) measure both columns */
		snprintf(uuid, sizeof(uuid), "%08x-0000-4000-8000-%012d", (unsigned)dataset,
			 s + (other && !d->paired ? 1000 : 0));
		for (int row = 0; row < d->rows; row++) {
			double mean = SIM_MEAN * (other && row < d->real ? 1 + d->effect : 1);

			if (!reuse)
				boots[row][s] = d->shared_boots && row ? boots[0][s] : sim_boot(r, sb, d);
			snprintf(rclass, sizeof(rclass), "memset -s %dMB", row + 1);
			for (int i = 0; i < SIM_REPEATS; i++) {
				double v = mean * (1 + boots[row][s] + gsl_ran_gaussian(r, SIM_SIGMA_W));

				if (gsl_rng_uniform(r) < d->p_out)
					v *= 1 + d->dip;
				sim_add(set, o, swp, uuid, other ? "2026-01-02" : "2026-01-01", rclass, v);
			}
		}
	}
}

static struct cmp_opts sim_opts(const struct sim_design *d, double alpha)
{
	return (struct cmp_opts){ .axis = CMP_BY_SWPROFILE, .alpha = alpha, .base = "base",
				  .min_effect_pct = STATS_DEFAULT_MIN_EFFECT_PCT,
				  .target_pct = STATS_DEFAULT_TARGET_PCT, .fdr = d->fdr };
}

/* One table of @d (dataset number @dataset), as show computes it. */
static void sim_one_table(gsl_rng *r, const struct sim_design *d, int dataset, struct sim_table *t)
{
	static double boots[SIM_MAX_ROWS][SIM_MAX_FOLLOW];
	struct cmp_opts o = sim_opts(d, STATS_DEFAULT_ALPHA);
	struct cmp_set *set = cmp_new(&o);
	enum stats_verdict right = d->effect >= 0 ? STATS_IMPROVEMENT : STATS_REGRESSION;

	assert_non_null(set);
	assert_true(d->rows <= SIM_MAX_ROWS && d->k_base <= SIM_MAX_FOLLOW && d->k_other <= SIM_MAX_FOLLOW);
	sim_table_column(r, d, set, &o, false, boots, false, dataset);
	sim_table_column(r, d, set, &o, true, boots, d->paired, dataset);
	if (d->looks > 1)
		assert_int_equal(cmp_add_looks(set, "sim", "other", d->looks), 0);
	assert_int_equal(cmp_finish(set, &o), 0);
	assert_int_equal(set->nblocks, 1);
	assert_int_equal(set->blocks[0].nrows, d->rows);
	t->false_marks = t->right_marks = 0;
	for (int row = 0; row < d->rows; row++) {
		const struct cmp_row *rw = &set->blocks[0].rows[row];
		const struct cmp_cell *c = &rw->cells[1];
		int at = atoi(strstr(rw->rclass, "-s ") + 3) - 1;	/* rows are kept in first-seen order, but be sure */
		enum stats_verdict v = c->change.verdict;
		bool marked = v == STATS_IMPROVEMENT || v == STATS_REGRESSION;

		assert_true(c->has_change);
		if (!at)
			cmp_floor_of(&rw->cells[0].st, STATS_DEFAULT_ALPHA, STATS_DEFAULT_TARGET_PCT, &t->floor);
		t->ch[at] = c->change;
		t->alpha[at] = c->alpha;
		t->modes_shared[at] = rw->modes_shared;
		if (marked && (at >= d->real || d->effect == 0 || v != right))
			t->false_marks++;
		t->right_marks += at < d->real && d->effect != 0 && v == right;
	}
	cmp_free(set);
}

/* A rate over n trials with its 95% (Wilson) interval. */
struct sim_rate {
	double rate, lo, hi;
	int n;
};

static struct sim_rate sim_rate_of(double hits, int n)
{
	double z = 1.959963985, p = hits / n, den = 1 + z * z / n;
	double mid = (p + z * z / (2 * n)) / den, half = z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / den;

	return (struct sim_rate){ p, mid - half, mid + half, n };
}

/* How often tables of @d carry a false mark, and how often a real row is found. */
static void sim_tables(const struct sim_design *d, int n, struct sim_rate *any_false, struct sim_rate *found,
		       double *false_per_table)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	static struct sim_table t;
	double with_false = 0, right = 0, marks = 0;

	assert_non_null(r);
	gsl_rng_set(r, SIM_SEED);
	for (int i = 0; i < n; i++) {
		sim_one_table(r, d, i, &t);
		with_false += t.false_marks > 0;
		marks += t.false_marks;
		right += t.right_marks;
	}
	gsl_rng_free(r);
	*any_false = sim_rate_of(with_false, n);
	if (found)
		*found = sim_rate_of(right, n * (d->real ? d->real : 1));
	if (false_per_table)
		*false_per_table = marks / n;
}

/* Print a measured rate against its promise; returns whether it holds (the interval reaches the promise). */
static bool sim_report(const char *what, struct sim_rate m, const char *promise, double bound, bool at_most)
{
	bool ok = at_most ? m.lo <= bound : m.hi >= bound;

	print_message("# %-62s %6.2f%% (95%% %5.2f-%5.2f%%, %d datasets)  promised %s%s\n", what, 100 * m.rate,
		      100 * m.lo, 100 * m.hi, m.n, promise, strchr("-(", promise[0]) ? "" : ok ? "  ok" : "  FAILS");
	return ok;
}

/*
 * A/A designs: no false mark in more than 5% of them.  Those marked
 * "limit" are not held, and printed so the README's numbers stay honest:
 * a column of 3-5 sessions whose spread differs from the other's.  Welch-
 * Satterthwaite is liberal there (a small column noisier than a large one:
 * its spread underestimated by chance raises the df just when the
 * statistic is large; 6.4-6.6% for 3 noisy sessions against 10 quiet ones
 * at 10000 datasets, bench/stats-rates).  Where the session counts are
 * equal and 4 or more, the spread is shared when an F test finds the two
 * agreeing (STATS_SHARED_SPREAD_P), for the seed protocol's power (+2%:
 * 56.5% found with Welch's df, 58.6% shared); that costs 4 sessions
 * against 4 with spreads 4 times apart 0.3-0.5 points (5.3-6.1% instead of
 * 5.0-5.6%).  No rule on two columns alone does better: the most powerful
 * test held at 5% for every ratio of the spreads finds +2% in 57.4% of
 * seed-protocol datasets (a search over critical values as a function of
 * the estimated ratio), so 58% costs some ratio of spreads its 5%.
 */
static const struct {
	const char *name;
	struct sim_design d;
	bool limit;
} sim_aa[] = {
	{ "seed protocol, 4 vs 4 sessions", { 4, 4, 0.01, 0.01, .rows = 1 }, false },
	{ "2 sessions vs 6, equal noise", { 2, 6, 0.01, 0.01, .rows = 1 }, false },
	{ "2 sessions (2% between) vs 6 (0.5%)", { 2, 6, 0.02, 0.005, .rows = 1 }, false },
	{ "3 sessions vs 6, equal noise", { 3, 6, 0.01, 0.01, .rows = 1 }, false },
	{ "3 sessions (2% between) vs 10 (0.5%)", { 3, 10, 0.02, 0.005, .rows = 1 }, true },
	{ "4 sessions (2% between) vs 10 (0.5%)", { 4, 10, 0.02, 0.005, .rows = 1 }, true },
	{ "bimodal boots 8% apart, 4 vs 10 sessions", { 4, 10, 0.01, 0.01, 0.5, 0.08, .rows = 1 }, false },
	{ "bimodal boots 8% apart, 4 vs 4 sessions", { 4, 4, 0.01, 0.01, 0.5, 0.08, .rows = 1 }, false },
	{ "bimodal boots 8% apart (1 in 4 slow), 4 vs 10", { 4, 10, 0.01, 0.01, 0.25, 0.08, .rows = 1 }, false },
	{ "bimodal boots 8% apart, 6 vs 6 sessions", { 6, 6, 0.01, 0.01, 0.5, 0.08, .rows = 1 }, false },
	{ "3 sessions (2% between) vs 20 (0.5%)", { 3, 20, 0.02, 0.005, .rows = 1 }, true },
	{ "5 sessions (2% between) vs 20 (0.5%)", { 5, 20, 0.02, 0.005, .rows = 1 }, true },
	{ "4 sessions vs 10, equal noise", { 4, 10, 0.01, 0.01, .rows = 1 }, false },
	{ "3 sessions (2% between) vs 3 (0.5%)", { 3, 3, 0.02, 0.005, .rows = 1 }, true },
	{ "4 sessions (2% between) vs 4 (0.5%)", { 4, 4, 0.02, 0.005, .rows = 1 }, true },
	{ "4 sessions (1% between) vs 4 (0.5%)", { 4, 4, 0.01, 0.005, .rows = 1 }, false },
	{ "4 sessions (0.5% between) vs 4 (2%)", { 4, 4, 0.005, 0.02, .rows = 1 }, true },
	{ "6 sessions (2% between) vs 6 (0.5%)", { 6, 6, 0.02, 0.005, .rows = 1 }, true },
	{ "8 sessions (2% between) vs 8 (0.5%)", { 8, 8, 0.02, 0.005, .rows = 1 }, false },
	{ "3 sessions (1% between) vs 10 (0.5%)", { 3, 10, 0.01, 0.005, .rows = 1 }, true },
	{ "8 sessions x 3 repeats, 5% samples -15%", { 8, 8, 0.01, 0.01, .p_out = 0.05, .dip = -0.15, .rows = 1 }, false },
	{ "paired boots, 4 sessions", { 4, 4, 0.02, 0.02, .rows = 1, .paired = true }, false },
	{ "paired bimodal boots, 4 sessions", { 4, 4, 0.01, 0.01, 0.5, 0.08, .rows = 1, .paired = true }, false },
};

/* Power: the two promises (found at least that often, the interval reaching it), and the rest as measured. */
static const struct {
	const char *name;
	struct sim_design d;
	double promise;
} sim_power[] = {
	{ "seed protocol +2%", { 4, 4, 0.01, 0.01, .effect = 0.02, .rows = 1, .real = 1 }, 0.58 },
	{ "seed protocol +3%, 5% samples -15%", { 4, 4, 0.01, 0.01, .p_out = 0.05, .dip = -0.15, .effect = 0.03, .rows = 1, .real = 1 }, 0.8 },
	{ "3 vs 6 sessions +3%", { 3, 6, 0.01, 0.01, .effect = 0.03, .rows = 1, .real = 1 }, 0 },
	{ "4 vs 10 sessions +2%", { 4, 10, 0.01, 0.01, .effect = 0.02, .rows = 1, .real = 1 }, 0 },
	{ "3 vs 10 sessions +3%", { 3, 10, 0.01, 0.01, .effect = 0.03, .rows = 1, .real = 1 }, 0 },
	{ "bimodal boots 4 vs 10 +5%", { 4, 10, 0.01, 0.01, 0.5, 0.08, .effect = 0.05, .rows = 1, .real = 1 }, 0 },
};

static void test_power_designs(void **state)
{
	bool ok = true;

	(void)state;
	for (size_t i = 0; i < sizeof(sim_power) / sizeof(sim_power[0]); i++) {
		struct sim_rate f, found;
		char promise[16];

		sim_tables(&sim_power[i].d, sim_n(SIM_DATASETS), &f, &found, NULL);
		snprintf(promise, sizeof(promise), ">= %.0f%%", 100 * sim_power[i].promise);
		if (sim_power[i].promise > 0)
			ok &= sim_report(sim_power[i].name, found, promise, sim_power[i].promise, false);
		else
			sim_report(sim_power[i].name, found, "-", 0, false);
	}
	assert_true(ok);
}

/*
 * Advice followed: a pilot of @d (with its true change) -> the advice a
 * cell gives (sessions_needed for a +1% change, or mde_pct, or calibrate's
 * sessions for 1% from the base column alone) -> fresh data of that many
 * sessions with that true change -> how often it is found.  Pilots whose
 * cell is already decided give no advice and are not counted.
 */
enum sim_advice { SIM_SESSIONS_NEEDED, SIM_MDE, SIM_CALIBRATE };

/*
 * What following plans found: the firm ones (the promise: >= 80%) and those
 * said as "at least N" (a lower bound, no promise), the firm ones also by
 * the sessions they asked for (the issue found those of at most 7 sessions
 * from 4 calibration sessions delivered 26-34%).
 */
#define SIM_BINS 4
static const int sim_bin_top[SIM_BINS] = { 7, 15, 31, SIM_MAX_FOLLOW };

struct sim_followed {
	struct sim_rate firm, lower, bin[SIM_BINS];
	double mean_n;
};

/* The advice for pilot table @t of @pilot (@k sessions, or for SIM_MDE the change), false when it gives none. */
static bool sim_advice(const struct sim_design *pilot, enum sim_advice what, const struct sim_table *t, double *k,
		       double *effect, bool *at_least)
{
	*effect = STATS_DEFAULT_TARGET_PCT / 100;
	if (what == SIM_CALIBRATE) {
		*k = t->floor.sessions_needed;
		*at_least = t->floor.at_least;
	} else if (t->ch[0].decided) {
		return false;
	} else if (what == SIM_SESSIONS_NEEDED) {
		*k = t->ch[0].sessions_needed;
		*at_least = t->ch[0].plan_at_least;
	} else {
		*k = pilot->k_other;
		*effect = t->ch[0].mde_pct / 100;
		*at_least = t->ch[0].plan_at_least;
	}
	return isfinite(*k) && isfinite(*effect);
}

static struct sim_followed sim_follow(const struct sim_design *pilot, enum sim_advice what, int n)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	static struct sim_table t;
	double found[2] = { 0 }, sum_n = 0, found_bin[SIM_BINS] = { 0 };
	int followed[2] = { 0 }, in_bin[SIM_BINS] = { 0 };
	struct sim_followed out;

	assert_non_null(r);
	gsl_rng_set(r, SIM_SEED + 1);
	for (int i = 0; i < n; i++) {
		struct sim_design fresh = *pilot;
		double k;
		bool lower;

		sim_one_table(r, pilot, i, &t);
		if (!sim_advice(pilot, what, &t, &k, &fresh.effect, &lower))
			continue;
		k = k > SIM_MAX_FOLLOW ? SIM_MAX_FOLLOW : k;
		if (what != SIM_MDE)
			fresh.k_base = fresh.k_other = (int)k;
		fresh.real = 1;
		sim_one_table(r, &fresh, n + i, &t);
		found[lower] += t.right_marks;
		followed[lower]++;
		sum_n += k;
		for (int b = 0; what != SIM_MDE && !lower && b < SIM_BINS; b++)
			if (k <= sim_bin_top[b]) {
				in_bin[b]++;
				found_bin[b] += t.right_marks;
				break;
			}
	}
	gsl_rng_free(r);
	out.firm = sim_rate_of(found[0], followed[0]);
	out.lower = sim_rate_of(found[1], followed[1]);
	for (int b = 0; b < SIM_BINS; b++)
		out.bin[b] = sim_rate_of(found_bin[b], in_bin[b]);
	out.mean_n = followed[0] + followed[1] ? sum_n / (followed[0] + followed[1]) : NAN;
	return out;
}

static const struct {
	const char *name;
	struct sim_design d;
	enum sim_advice what;
} sim_advice_rows[] = {
	{ "seed protocol: sessions_needed for +1%", { 4, 4, 0.01, 0.01, .effect = 0.01, .rows = 1, .real = 1 }, SIM_SESSIONS_NEEDED },
	{ "seed protocol: mde_pct", { 4, 4, 0.01, 0.01, .effect = 0.01, .rows = 1, .real = 1 }, SIM_MDE },
	{ "paired, 4 sessions: sessions_needed for +1%", { 4, 4, 0.02, 0.02, .effect = 0.01, .rows = 1, .real = 1, .paired = true }, SIM_SESSIONS_NEEDED },
	{ "paired, 4 sessions: mde_pct", { 4, 4, 0.02, 0.02, .effect = 0.01, .rows = 1, .real = 1, .paired = true }, SIM_MDE },
	{ "calibrate, 4 sessions: sessions for 1%", { 4, 4, 0.01, 0.01, .rows = 1 }, SIM_CALIBRATE },
	{ "calibrate, 8 sessions: sessions for 1%", { 8, 8, 0.01, 0.01, .rows = 1 }, SIM_CALIBRATE },
	{ "8 vs 8 sessions: sessions_needed for +1%", { 8, 8, 0.01, 0.01, .effect = 0.01, .rows = 1, .real = 1 }, SIM_SESSIONS_NEEDED },
	{ "low noise (0.3% between), 4 vs 4: sessions_needed", { 4, 4, 0.003, 0.003, .effect = 0.01, .rows = 1, .real = 1 }, SIM_SESSIONS_NEEDED },
	{ "2 vs 2 sessions: sessions_needed", { 2, 2, 0.01, 0.01, .effect = 0.01, .rows = 1, .real = 1 }, SIM_SESSIONS_NEEDED },
};

static void test_advice_delivers(void **state)
{
	bool ok = true;

	(void)state;
	for (size_t i = 0; i < sizeof(sim_advice_rows) / sizeof(sim_advice_rows[0]); i++) {
		struct sim_followed f = sim_follow(&sim_advice_rows[i].d, sim_advice_rows[i].what, sim_n(1000));
		int all = f.firm.n + f.lower.n;
		char what[128];

		snprintf(what, sizeof(what), "%s (mean %.1f): firm plans, %.0f%%", sim_advice_rows[i].name, f.mean_n,
			 100.0 * f.firm.n / all);
		/* too few firm plans to promise anything: the 2-session pilots */
		if (f.firm.n >= 50)
			ok &= sim_report(what, f.firm, ">= 80%", 0.8, false);
		else if (f.firm.n)
			sim_report(what, f.firm, "(too few firm plans)", 0, false);
		else
			print_message("# %s: none\n", what);
		snprintf(what, sizeof(what), "  plans said as \"at least N\", %.0f%%", 100.0 * f.lower.n / all);
		if (f.lower.n >= 20)
			sim_report(what, f.lower, "(a lower bound: no promise)", 0, false);
		for (int b = 0; b < SIM_BINS; b++) {
			snprintf(what, sizeof(what), "  firm plans of %d-%d sessions", b ? sim_bin_top[b - 1] + 1 : 3,
				 sim_bin_top[b]);
			if (f.bin[b].n >= 20)
				sim_report(what, f.bin[b], "-", 0, false);
		}
	}
	assert_true(ok);
}

/*
 * Whole tables: 30 rows (a plan of 10 benchmarks x 3 metrics), 1000 tables.
 * Per cell at 5%, about 1.5 false marks per A/A table and most tables
 * carry one; under --fdr 0.05 at most 5% of A/A tables do (Benjamini-
 * Hochberg with every row null is Simes' test of the whole table).  Mixed
 * tables (3 or 10 rows with a true +3%) say what --fdr costs in power.
 */
static void sim_table_row(const char *name, struct sim_design d, double fdr, bool check)
{
	struct sim_rate any, found;
	double per;
	char what[160];

	d.fdr = fdr;
	sim_tables(&d, sim_n(1000), &any, &found, &per);
	snprintf(what, sizeof(what), "%s, %s: tables with a false mark (%.2f per table)", name,
		 fdr > 0 ? "--fdr 0.05" : "per cell", per);
	if (check)
		assert_true(sim_report(what, any, "<= 5-8%", 0.08, true));
	else
		sim_report(what, any, "-", 0, true);
	if (d.real) {
		snprintf(what, sizeof(what), "%s, %s: real rows found", name, fdr > 0 ? "--fdr 0.05" : "per cell");
		sim_report(what, found, "-", 0, false);
	}
}

static void test_tables(void **state)
{
	struct sim_design aa = { 4, 4, 0.01, 0.01, .rows = 30 };
	struct sim_design shared = { 4, 4, 0.01, 0.01, .rows = 30, .shared_boots = true };
	struct sim_design mixed3 = { 4, 4, 0.01, 0.01, .rows = 30, .real = 3, .effect = 0.03 };
	struct sim_design mixed10 = { 4, 4, 0.01, 0.01, .rows = 30, .real = 10, .effect = 0.03 };

	(void)state;
	sim_table_row("30 A/A rows", aa, 0, false);
	sim_table_row("30 A/A rows", aa, 0.05, true);
	sim_table_row("30 A/A rows sharing boots", shared, 0, false);
	sim_table_row("30 A/A rows sharing boots", shared, 0.05, true);
	sim_table_row("27 A/A + 3 rows +3%", mixed3, 0, false);
	sim_table_row("27 A/A + 3 rows +3%", mixed3, 0.05, false);
	sim_table_row("20 A/A + 10 rows +3%", mixed10, 0, false);
	sim_table_row("20 A/A + 10 rows +3%", mixed10, 0.05, false);
}

/*
 * plan run --until-decided on the other kernel, then a plain `show`, through
 * show's own path: the base column's sessions are in the store already (a
 * boot of the base kernel), the run adds other's sessions one at a time
 * from @first to @last while the cell is undecided, and the store records
 * stats_sequential_looks() looks, so every look and the later show judge at
 * alpha / looks.  Each look sees the same data plus one session (the
 * dataset's generator is seeded afresh, and a column's values are drawn
 * session by session).  The rate of datasets the show marks, the rate a
 * show of the same data would mark had the store not recorded the looks
 * (@unrecorded: judged at alpha, as before schema v5), and the mean
 * sessions of other used.
 */
/* Dataset @dataset of @d as a show sees it with @looks recorded: whether it carries a false mark. */
static bool sim_show_marks(gsl_rng *r, struct sim_design *d, int dataset, unsigned looks, struct sim_table *t)
{
	d->looks = looks;
	gsl_rng_set(r, SIM_SEED + (unsigned long)dataset);
	sim_one_table(r, d, dataset, t);
	return t->false_marks > 0;
}

static struct sim_rate sim_until_then_show(const struct sim_design *d0, int first, int last, int n, double *mean_k,
					   struct sim_rate *unrecorded)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	static struct sim_table t;
	struct sim_design d = *d0;
	unsigned looks = stats_sequential_looks((unsigned)first, (unsigned)last);
	double marked = 0, naive = 0, used = 0;

	assert_non_null(r);
	for (int i = 0; i < n; i++)
		for (int k = first; k <= last; k++) {
			bool marks;

			d.k_other = k;
			marks = sim_show_marks(r, &d, i, looks, &t);
			if (!t.ch[0].decided && k < last)
				continue;
			marked += marks;
			used += k;
			naive += sim_show_marks(r, &d, i, 0, &t);
			break;
		}
	gsl_rng_free(r);
	*mean_k = used / n;
	*unrecorded = sim_rate_of(naive, n);
	return sim_rate_of(marked, n);
}

/*
 * The sequential designs (10% before the looks were stored): no
 * false mark in more than 5%, and fewer than a show that ignored the looks
 * would make wherever that one makes any.
 */
static void test_until_decided_then_show(void **state)
{
	static const struct {
		const char *name;
		struct sim_design d;
	} designs[] = {
		{ "until decided 4..10 vs 4 base, then show", { 4, 0, 0.01, 0.01, .rows = 1 } },
		{ "until decided 4..10 vs 4 bimodal base, then show", { 4, 0, 0.01, 0.01, 0.5, 0.08, .rows = 1 } },
		{ "until decided 4..10 vs 2-session base, then show", { 2, 0, 0.01, 0.01, .rows = 1 } },
		{ "until decided 4..10 vs 3-session base (2% between), then show", { 3, 0, 0.02, 0.01, .rows = 1 } },
	};
	bool ok = true;

	(void)state;
	for (size_t i = 0; i < sizeof(designs) / sizeof(designs[0]); i++) {
		double k;
		struct sim_rate naive, f = sim_until_then_show(&designs[i].d, 4, 10, sim_n(SIM_DATASETS / 2), &k, &naive);
		char what[112];

		snprintf(what, sizeof(what), "%s (mean %.1f sessions)", designs[i].name, k);
		ok &= sim_report(what, f, "<= 5%", 0.05, true);
		sim_report("  the same shows, had the looks not been recorded", naive, "-", 0, true);
		ok &= !naive.rate || naive.rate > f.rate;
	}
	assert_true(ok);
}

static void test_aa_designs(void **state)
{
	bool ok = true;

	(void)state;
	for (size_t i = 0; i < sizeof(sim_aa) / sizeof(sim_aa[0]); i++) {
		struct sim_rate f;

		sim_tables(&sim_aa[i].d, sim_n(SIM_DATASETS), &f, NULL, NULL);
		if (sim_aa[i].limit)
			sim_report(sim_aa[i].name, f, "(a known limit, not held)", 0.05, true);
		else
			ok &= sim_report(sim_aa[i].name, f, "<= 5%", 0.05, true);
	}
	assert_true(ok);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_effect_false_alarms),
		cmocka_unit_test(test_known_effect_detected),
		cmocka_unit_test(test_no_session_effect),
		cmocka_unit_test(test_dips_false_alarms),
		cmocka_unit_test(test_dips_power),
		cmocka_unit_test(test_deep_dips_false_alarms),
		cmocka_unit_test(test_one_session_no_verdict),
		cmocka_unit_test(test_paired),
		cmocka_unit_test(test_sequential),
		cmocka_unit_test(test_until_decided_then_show),
		cmocka_unit_test(test_aa_designs),
		cmocka_unit_test(test_power_designs),
		cmocka_unit_test(test_advice_delivers),
		cmocka_unit_test(test_tables),
	};

	/* CLEARPATH_SIM_ONLY=test_aa_designs: one scenario (bench/stats-rates at scale) */
	if (getenv("CLEARPATH_SIM_ONLY"))
		cmocka_set_test_filter(getenv("CLEARPATH_SIM_ONLY"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
