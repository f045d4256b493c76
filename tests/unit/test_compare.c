/* test_compare: grouping samples into blocks/rows/columns, filters, column order, base and errors of src/compare. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "compare/compare.h"
#include "ident_fixture.h"
#include "util/log.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

#define UUID_A "aaaaaaaa-0000-4000-8000-000000000001"
#define UUID_B "bbbbbbbb-0000-4000-8000-000000000002"
#define UUID_C "cccccccc-0000-4000-8000-000000000003"
#define UUID_D "dddddddd-0000-4000-8000-000000000004"

#define MEMSET "memset -k 1GB -f default -s 16GB"
#define MMAP4K "mmap -p 4KB -f demand -s 32GB -l 5"

/* Default options as `clearpath show` sets them. */
static struct cmp_opts opts(enum cmp_axis axis)
{
	return (struct cmp_opts){ .axis = axis, .alpha = STATS_DEFAULT_ALPHA,
				  .min_effect_pct = STATS_DEFAULT_MIN_EFFECT_PCT,
				  .target_pct = STATS_DEFAULT_TARGET_PCT };
}

/*
 * One sample; the unit is bytes/sec, higher is better.  Its result class is
 * what the store would hold for @rclass (fixture_class()).
 */
static void add(struct cmp_set *s, const struct cmp_opts *o, const char *sut, const char *swp,
		const char *session, const char *started, const char *suite, const char *rclass, double v)
{
	static struct fixture_class fc;
	struct cmp_sample x = { sut, swp, session, started, *fixture_class(&fc, suite, rclass), "bytes/sec", true, v };

	assert_int_equal(cmp_add(s, o, &x), 0);
}

/* Three samples per session in each of @k sessions (at most 3), around @mean (spread 1%). */
static void add_cell_k(struct cmp_set *s, const struct cmp_opts *o, const char *sut, const char *swp,
		       const char *started, const char *suite, const char *rclass, double mean, int sessions)
{
	static const double dz[3][3] = { { -0.010, 0.002, 0.008 }, { -0.004, 0.001, 0.003 }, { 0.003, -0.001, -0.002 } };
	char uuid[40];

	for (int k = 0; k < sessions; k++) {
		/* a session runs one kernel on one machine: its own UUID per (sut, swprofile) */
		snprintf(uuid, sizeof(uuid), "%02x%02x0000-0000-4000-8000-00000000000%d", (unsigned char)sut[0],
			 (unsigned char)swp[strlen(swp) - 1], k + 1);
		for (int i = 0; i < 3; i++)
			add(s, o, sut, swp, uuid, started, suite, rclass, mean * (1 + dz[k][i]));
	}
}

/* Two sessions of three samples. */
static void add_cell(struct cmp_set *s, const struct cmp_opts *o, const char *sut, const char *swp,
		     const char *started, const char *suite, const char *rclass, double mean)
{
	add_cell_k(s, o, sut, swp, started, suite, rclass, mean, 2);
}

/* @got within 0.01 of @want_pct. */
static void assert_near_pct(double got, double want_pct)
{
	if (!(fabs(got - want_pct) < 0.01))
		fail_msg("change %.6g%%, want %.6g%%", got, want_pct);
}

/* The seed's shape: two SUT classes x two swprofiles x two result classes. */
static struct cmp_set *seed_set(const struct cmp_opts *o)
{
	static const char *const suts[] = { "aws-m7g.metal", "cesw-ampereone" };
	struct cmp_set *s = cmp_new(o);

	assert_non_null(s);
	for (size_t i = 0; i < N_OF(suts); i++) {
		add_cell(s, o, suts[i], "base", "2026-08-22T08:00:00Z", "mem/memset", MEMSET, 100.0);
		add_cell(s, o, suts[i], "base", "2026-08-22T08:00:00Z", "mem/mmap", MMAP4K, 50.0);
		add_cell(s, o, suts[i], "patched", "2026-08-23T08:00:00Z", "mem/memset", MEMSET, 102.0);
		add_cell(s, o, suts[i], "patched", "2026-08-23T08:00:00Z", "mem/mmap", MMAP4K, 49.0);
	}
	return s;
}

static const struct cmp_row *find_row(const struct cmp_block *b, const char *rclass)
{
	for (size_t r = 0; r < b->nrows; r++)
		if (!strcmp(b->rows[r].rclass, rclass))
			return &b->rows[r];
	fail_msg("no row '%s' in block '%s'", rclass, b->name);
	return NULL;
}

static void test_group_by_swprofile(void **state)
{
	struct cmp_opts o = opts(CMP_BY_SWPROFILE);
	struct cmp_set *s = seed_set(&o);
	const struct cmp_row *row;

	(void)state;
	assert_int_equal(s->samples, 2 * 2 * 2 * 6);
	assert_int_equal(cmp_finish(s, &o), 0);
	assert_int_equal(s->nblocks, 2);
	assert_string_equal(s->blocks[0].name, "aws-m7g.metal");
	assert_string_equal(s->blocks[1].name, "cesw-ampereone");
	assert_int_equal(s->ncols, 2);
	assert_string_equal(s->cols[0], "base");
	assert_string_equal(s->cols[1], "patched");
	assert_int_equal(s->base, 0);
	assert_int_equal(s->blocks[1].nrows, 2);
	row = find_row(&s->blocks[1], MEMSET);
	/* the Benchmark column is the suite's collection; the unit stays apart from the name */
	assert_string_equal(row->bench, "mem");
	assert_string_equal(row->unit, "bytes/sec");
	assert_true(row->higher_is_better);
	assert_int_equal(row->cells[0].n, 6);
	assert_int_equal(row->cells[1].n, 6);
	/* the spread pattern has mean 0, so the means are the ones put in */
	assert_true(fabs(row->cells[0].st.mean - 100.0) < 1e-9);
	assert_true(fabs(row->cells[1].st.mean - 102.0) < 1e-9);
	/* the geomean row: memset 102/100 and mmap 49/50, both higher-is-better; none for the base */
	assert_true(isnan(s->blocks[1].geomean_pct[0]));
	assert_true(fabs(s->blocks[1].geomean_pct[1] - 100 * (sqrt(1.02 * 0.98) - 1)) < 1e-9);
	cmp_free(s);
}

static void test_count_verdicts(void **state)
{
	struct cmp_opts o = opts(CMP_BY_SWPROFILE);
	struct cmp_set *s = seed_set(&o);
	size_t all = 0;

	(void)state;
	assert_int_equal(cmp_finish(s, &o), 0);
	/* every non-base cell has exactly one verdict; the base cells have none */
	for (enum stats_verdict v = STATS_NONE; v <= STATS_INSUFFICIENT; v++)
		all += cmp_count_verdicts(s, v);
	assert_int_equal(all, 2 * 2);
	/* 2 sessions a column: a spread of 1 df decides nothing, however clear the change looks */
	assert_int_equal(cmp_count_verdicts(s, STATS_NONE), 4);
	for (size_t b = 0; b < s->nblocks; b++)
		for (size_t r = 0; r < s->blocks[b].nrows; r++) {
			const struct stats_change *ch = &s->blocks[b].rows[r].cells[1].change;

			assert_non_null(ch->why_undecided);
			assert_false(ch->decided);
			assert_true(ch->sessions_needed >= STATS_MIN_SESSIONS);
		}
	cmp_free(s);
}

/* The seed's shape with 3 sessions a column: +2% memset (I), -2% mmap (R); p adjusted per block. */
static struct cmp_set *seed_set3(const struct cmp_opts *o)
{
	struct cmp_set *s = cmp_new(o);

	assert_non_null(s);
	add_cell_k(s, o, "box", "base", "2026-08-22T08:00:00Z", "mem/memset", MEMSET, 100.0, 3);
	add_cell_k(s, o, "box", "base", "2026-08-22T08:00:00Z", "mem/mmap", MMAP4K, 50.0, 3);
	add_cell_k(s, o, "box", "patched", "2026-08-23T08:00:00Z", "mem/memset", MEMSET, 102.0, 3);
	add_cell_k(s, o, "box", "patched", "2026-08-23T08:00:00Z", "mem/mmap", MMAP4K, 49.0, 3);
	return s;
}

static void test_three_sessions_fdr_looks(void **state)
{
	struct cmp_opts o = opts(CMP_BY_SWPROFILE);
	struct cmp_set *s = seed_set3(&o);
	const struct stats_change *a, *b;
	double pa, pb;

	(void)state;
	assert_int_equal(cmp_finish(s, &o), 0);
	assert_int_equal(cmp_count_verdicts(s, STATS_IMPROVEMENT), 1);
	assert_int_equal(cmp_count_verdicts(s, STATS_REGRESSION), 1);
	assert_int_equal(s->blocks[0].tested, 2);
	a = &find_row(&s->blocks[0], MEMSET)->cells[1].change;
	b = &find_row(&s->blocks[0], MMAP4K)->cells[1].change;
	/* BH over 2 cells: the larger p stays, the smaller is doubled unless that passes the larger */
	pa = a->p_value;
	pb = b->p_value;
	assert_true(fabs(fmax(a->p_adjusted, b->p_adjusted) - fmax(pa, pb)) < 1e-15);
	assert_true(fabs(fmin(a->p_adjusted, b->p_adjusted) - fmin(2 * fmin(pa, pb), fmax(pa, pb))) < 1e-15);
	assert_true(find_row(&s->blocks[0], MEMSET)->cells[1].alpha == o.alpha);
	cmp_free(s);
	/* --fdr at a level below both adjusted p-values: no marks, and planned again */
	o.fdr = fmin(pa, pb) / 2;
	s = seed_set3(&o);
	assert_int_equal(cmp_finish(s, &o), 0);
	assert_int_equal(cmp_count_verdicts(s, STATS_NONE), 2);
	assert_false(find_row(&s->blocks[0], MEMSET)->cells[1].change.decided);
	cmp_free(s);
	/* a sequential run's looks at 'patched': judged at alpha / looks, the base's looks added */
	o.fdr = 0;
	s = seed_set3(&o);
	assert_int_equal(cmp_add_looks(s, "box", "patched", 5), 0);
	assert_int_equal(cmp_add_looks(s, "box", "base", 2), 0);
	assert_int_equal(cmp_add_looks(s, "other-box", "patched", 100), 0);
	assert_int_equal(cmp_finish(s, &o), 0);
	assert_int_equal(find_row(&s->blocks[0], MEMSET)->cells[1].looks, 7);
	assert_true(fabs(find_row(&s->blocks[0], MEMSET)->cells[1].alpha - o.alpha / 7) < 1e-15);
	cmp_free(s);
}

static void test_group_by_sut(void **state)
{
	struct cmp_opts o = opts(CMP_BY_SUT);
	struct cmp_set *s = seed_set(&o);

	(void)state;
	assert_int_equal(cmp_finish(s, &o), 0);
	/* machines are the columns, one block per swprofile */
	assert_int_equal(s->ncols, 2);
	assert_string_equal(s->cols[0], "aws-m7g.metal");
	assert_string_equal(s->cols[1], "cesw-ampereone");
	assert_int_equal(s->nblocks, 2);
	assert_string_equal(s->blocks[0].name, "base");
	assert_string_equal(s->blocks[1].name, "patched");
	assert_int_equal(find_row(&s->blocks[1], MMAP4K)->cells[1].n, 6);
	cmp_free(s);
}

static void test_group_by_param(void **state)
{
	struct cmp_opts o = opts(CMP_BY_PARAM);
	struct cmp_set *s;
	const struct cmp_row *row;

	(void)state;
	o.param = "f";
	s = cmp_new(&o);
	assert_non_null(s);
	add_cell(s, &o, "box", "6.18", "2026-08-22T08:00:00Z", "mem/clear", "clear -k 4KB -f default -s 1GB", 10);
	add_cell(s, &o, "box", "6.18", "2026-08-22T08:00:00Z", "mem/clear", "clear -k 4KB -f nt -s 1GB", 12);
	/* another kernel: its own block, never pooled into the 6.18 cells */
	add_cell(s, &o, "box", "6.19", "2026-08-23T08:00:00Z", "mem/clear", "clear -k 4KB -f nt -s 1GB", 20);
	assert_int_equal(cmp_finish(s, &o), 0);
	assert_int_equal(s->ncols, 2);
	assert_string_equal(s->cols[0], "default");
	assert_string_equal(s->cols[1], "nt");
	assert_int_equal(s->nblocks, 2);
	assert_string_equal(s->blocks[0].name, "box, swprofile 6.18");
	assert_string_equal(s->blocks[1].name, "box, swprofile 6.19");
	assert_int_equal(s->blocks[0].nrows, 1);
	row = &s->blocks[0].rows[0];
	assert_string_equal(row->rclass, "clear -k 4KB -s 1GB");
	assert_int_equal(row->cells[1].n, 6);
	assert_true(fabs(row->cells[1].st.mean - 12) < 1e-9);
	/* strategies of the same two sessions: compared within each session */
	assert_true(row->cells[1].has_change);
	assert_true(row->cells[1].change.paired);
	assert_int_equal(row->cells[1].change.sessions, 2);
	assert_near_pct(row->cells[1].change.pct, 20);
	/* 6.19 has no "default" cell: nothing to compare "nt" with */
	row = &s->blocks[1].rows[0];
	assert_int_equal(row->cells[0].n, 0);
	assert_int_equal(row->cells[1].n, 6);
	assert_false(row->cells[1].has_change);
	cmp_free(s);
}

/* The row name and column of @rclass split on @param. */
static void split(const char *param, const char *rclass, const char *col, const char *rest)
{
	struct cmp_opts o = opts(CMP_BY_PARAM);
	struct cmp_set *s;

	o.param = param;
	s = cmp_new(&o);
	assert_non_null(s);
	add(s, &o, "box", "k", UUID_A, "t0", "mem/clear", rclass, 1.0);
	assert_int_equal(cmp_finish(s, &o), 0);
	assert_int_equal(s->ncols, 1);
	assert_string_equal(s->cols[0], col);
	assert_string_equal(s->blocks[0].rows[0].rclass, rest);
	cmp_free(s);
}

static void test_param_split(void **state)
{
	(void)state;
	split("f", "clear -k 4KB -f default -s 1GB", "default", "clear -k 4KB -s 1GB");
	split("k", "clear -k 4KB -f default -s 1GB", "4KB", "clear -f default -s 1GB");
	split("f", "clear -s 1GB -f x86-64-stosb", "x86-64-stosb", "clear -s 1GB");
	/* a class that does not show the parameter has its value all the same: the default */
	split("f", "mmap -p 4KB -s 1GB", "all", "mmap -p 4KB -s 1GB");
	split("l", "mmap -p 4KB -s 1GB", "1", "mmap -p 4KB -s 1GB");
	/* a flag's value is whether it was given */
	split("c", "clear -c -f default", "true", "clear -f default");
	/* a class whose command line does not parse has no parameters */
	split("f", "clear -c -f", "(none)", "clear -c -f");
	/* "-f" must be the whole word: "-fx" is another option */
	split("f", "clear -fx 1 -s 1GB", "(none)", "clear -fx 1 -s 1GB");
}

/*
 * compare.h promises that @param may be the short or the long name: "-f" and
 * "--function" both match either, and so do a workload option's two names.
 */
static void test_param_long_and_short_name(void **state)
{
	(void)state;
	split("function", "clear -k 4KB -f default -s 1GB", "default", "clear -k 4KB -s 1GB");
	split("extent", "clear -k 4KB -f default -s 1GB", "4KB", "clear -f default -s 1GB");
	/* no workload registry behind it: the stored parameters know both names */
	split("size", "clear -k 4KB -f default -s 1GB", "1GB", "clear -k 4KB -f default");
	/* an option without a short name is matched by its long name only */
	split("then", "clear -s 1GB --then read", "read", "clear -s 1GB");
}

static void test_filters(void **state)
{
	static const char *const only_patched[] = { "patched" };
	struct cmp_opts o = opts(CMP_BY_SWPROFILE);
	struct cmp_set *s;

	(void)state;
	o.sut_glob = "aws-*";
	s = seed_set(&o);
	assert_int_equal(s->nblocks, 1);
	assert_string_equal(s->blocks[0].name, "aws-m7g.metal");
	cmp_free(s);

	/* the benchmark glob matches the suite ... */
	o = opts(CMP_BY_SWPROFILE);
	o.benchmark_glob = "mem/mm*";
	s = seed_set(&o);
	assert_int_equal(s->blocks[0].nrows, 1);
	assert_string_equal(s->blocks[0].rows[0].rclass, MMAP4K);
	cmp_free(s);

	/* ... or the result class */
	o.benchmark_glob = "memset -k 1GB*";
	s = seed_set(&o);
	assert_int_equal(s->blocks[0].nrows, 1);
	assert_string_equal(s->blocks[0].rows[0].rclass, MEMSET);
	assert_int_equal(s->samples, 2 * 2 * 6);
	cmp_free(s);

	o = opts(CMP_BY_SWPROFILE);
	o.swprofiles = only_patched;
	o.nswprofiles = 1;
	s = seed_set(&o);
	assert_int_equal(cmp_finish(s, &o), 0);
	assert_int_equal(s->ncols, 1);
	assert_string_equal(s->cols[0], "patched");
	assert_int_equal(s->samples, 2 * 2 * 6);
	cmp_free(s);
}

static void test_column_order(void **state)
{
	static const char *const order[] = { "c", "a" };
	struct cmp_opts o = opts(CMP_BY_SWPROFILE);
	struct cmp_set *s = cmp_new(&o);

	(void)state;
	assert_non_null(s);
	/* seen first, measured last; "b"'s second session is its earliest */
	add(s, &o, "box", "c", UUID_A, "2026-08-24T00:00:00Z", "mem/memset", MEMSET, 1);
	add(s, &o, "box", "a", UUID_B, "2026-08-23T00:00:00Z", "mem/memset", MEMSET, 1);
	add(s, &o, "box", "b", UUID_C, "2026-08-25T00:00:00Z", "mem/memset", MEMSET, 1);
	add(s, &o, "box", "b", UUID_D, "2026-08-22T00:00:00Z", "mem/memset", MEMSET, 1);
	assert_int_equal(cmp_finish(s, &o), 0);
	assert_string_equal(s->cols[0], "b");
	assert_string_equal(s->cols[1], "a");
	assert_string_equal(s->cols[2], "c");
	assert_int_equal(s->base, 0);
	cmp_free(s);

	/* the user's order wins, and the first listed is the base */
	o.swprofiles = order;
	o.nswprofiles = N_OF(order);
	s = cmp_new(&o);
	assert_non_null(s);
	add(s, &o, "box", "a", UUID_B, "2026-08-23T00:00:00Z", "mem/memset", MEMSET, 1);
	add(s, &o, "box", "b", UUID_C, "2026-08-22T00:00:00Z", "mem/memset", MEMSET, 1);
	add(s, &o, "box", "c", UUID_A, "2026-08-24T00:00:00Z", "mem/memset", MEMSET, 1);
	assert_int_equal(cmp_finish(s, &o), 0);
	assert_int_equal(s->ncols, 2);
	assert_string_equal(s->cols[0], "c");
	assert_string_equal(s->cols[1], "a");
	assert_int_equal(s->base, 0);
	cmp_free(s);
}

static void test_base_selection(void **state)
{
	struct cmp_opts o = opts(CMP_BY_SWPROFILE);
	struct cmp_set *s;
	const struct cmp_row *row;

	(void)state;
	o.base = "patched";
	s = seed_set(&o);
	assert_int_equal(cmp_finish(s, &o), 0);
	/* --base does not move a swprofile column, it only marks it */
	assert_string_equal(s->cols[1], "patched");
	assert_int_equal(s->base, 1);
	row = find_row(&s->blocks[0], MEMSET);
	assert_false(row->cells[1].has_change);
	assert_true(row->cells[0].has_change);
	/* 100 against 102: 100 * (100 / 102 - 1) */
	assert_true(fabs(row->cells[0].change.pct - 100.0 * (100.0 / 102.0 - 1)) < 1e-9);
	cmp_free(s);

	/* on the param axis the base moves to the front */
	o = opts(CMP_BY_PARAM);
	o.param = "f";
	o.base = "nt";
	s = cmp_new(&o);
	assert_non_null(s);
	add(s, &o, "box", "k", UUID_A, "t0", "mem/clear", "clear -f default -s 1GB", 1);
	add(s, &o, "box", "k", UUID_A, "t0", "mem/clear", "clear -f stosb -s 1GB", 1);
	add(s, &o, "box", "k", UUID_A, "t0", "mem/clear", "clear -f nt -s 1GB", 1);
	assert_int_equal(cmp_finish(s, &o), 0);
	assert_int_equal(s->base, 0);
	assert_string_equal(s->cols[0], "nt");
	assert_string_equal(s->cols[1], "default");
	assert_string_equal(s->cols[2], "stosb");
	/* the cells moved with their columns */
	assert_true(s->blocks[0].rows[0].cells[0].n == 1 && s->blocks[0].rows[0].cells[2].n == 1);
	cmp_free(s);
}

static void test_finish_errors(void **state)
{
	static const char *const unknown[] = { "base", "nosuch" };
	static const char *const only_unknown[] = { "nosuch" };
	struct cmp_opts o = opts(CMP_BY_SWPROFILE);
	struct cmp_set *s = cmp_new(&o);

	(void)state;
	/* nothing at all */
	assert_non_null(s);
	assert_int_equal(cmp_finish(s, &o), EXIT_USAGE);
	cmp_free(s);

	/* filters that keep nothing */
	o.sut_glob = "nosuch*";
	s = seed_set(&o);
	assert_int_equal(s->samples, 0);
	assert_int_equal(cmp_finish(s, &o), EXIT_USAGE);
	cmp_free(s);

	o = opts(CMP_BY_SWPROFILE);
	o.swprofiles = unknown;
	o.nswprofiles = N_OF(unknown);
	s = seed_set(&o);
	assert_int_equal(cmp_finish(s, &o), EXIT_USAGE);
	assert_string_equal(log_last_error(),
			    "swprofile 'nosuch' has no samples here; the store has 'base', 'patched'");
	cmp_free(s);

	/* an unknown swprofile alone filters out every sample: still named as such */
	o.swprofiles = only_unknown;
	o.nswprofiles = 1;
	s = seed_set(&o);
	assert_int_equal(s->samples, 0);
	assert_int_equal(cmp_finish(s, &o), EXIT_USAGE);
	assert_string_equal(log_last_error(),
			    "swprofile 'nosuch' has no samples here; the store has 'base', 'patched'");
	cmp_free(s);

	o = opts(CMP_BY_SUT);
	o.base = "nosuch";
	s = seed_set(&o);
	assert_int_equal(cmp_finish(s, &o), EXIT_USAGE);
	assert_string_equal(log_last_error(),
			    "base 'nosuch' is not among the columns 'aws-m7g.metal', 'cesw-ampereone'");
	cmp_free(s);
}

static void test_sessions_per_cell(void **state)
{
	struct cmp_opts o = opts(CMP_BY_SWPROFILE);
	struct cmp_set *s = seed_set(&o);
	const struct cmp_cell *c;

	(void)state;
	/* a third session in one cell only */
	add(s, &o, "aws-m7g.metal", "base", UUID_C, "2026-08-22T09:00:00Z", "mem/memset", MEMSET, 100);
	assert_int_equal(cmp_finish(s, &o), 0);
	c = &find_row(&s->blocks[0], MEMSET)->cells[0];
	assert_int_equal(c->n, 7);
	assert_int_equal(c->nuuids, 3);
	/* add_cell's first session of (aws..., base): 'a' and 'e' in hex */
	assert_string_equal(c->uuids[0], "61650000-0000-4000-8000-000000000001");
	assert_string_equal(c->uuids[2], UUID_C);
	assert_int_equal(c->sessions[0], 0);
	assert_int_equal(c->sessions[3], 1);
	assert_int_equal(c->sessions[6], 2);
	assert_int_equal(c->st.sessions, 3);
	/* the same UUIDs in another cell are that cell's own two sessions */
	c = &find_row(&s->blocks[0], MMAP4K)->cells[0];
	assert_int_equal(c->nuuids, 2);
	assert_int_equal(c->st.sessions, 2);
	assert_int_equal(c->st.n, 6);
	cmp_free(s);
}

/*
 * @nsess sessions each measuring both columns, the other column's sessions
 * added in @order (0: as the base's, 1: reversed, 2: interleaved, a session
 * coming back after others): grouping and pairing are found by hash (issue 12)
 * and must not depend on the order samples arrive in.
 */
static struct cmp_set *shared_sessions(const struct cmp_opts *o, int nsess, int order)
{
	struct cmp_set *s = cmp_new(o);
	char uuid[40];

	assert_non_null(s);
	for (int k = 0; k < nsess; k++) {
		snprintf(uuid, sizeof(uuid), "5e550000-0000-4000-8000-%012d", k);
		for (int i = 0; i < 2; i++)
			add(s, o, "box", "base", uuid, "2026-09-01T00:00:00Z", "mem/memset", MEMSET,
			    100 + k % 7 + i * 0.1);
	}
	for (int pass = 0; pass < 2; pass++)
		for (int t = 0; t < nsess; t++) {
			int k = order == 1 ? nsess - 1 - t : order == 2 ? (t * 7) % nsess : t;

			snprintf(uuid, sizeof(uuid), "5e550000-0000-4000-8000-%012d", k);
			/* order 0 and 1 add each session's two samples together, 2 in two passes */
			if (order == 2 || pass == 0)
				add(s, o, "box", "next", uuid, "2026-09-02T00:00:00Z", "mem/memset", MEMSET,
				    102 + k % 7 + (order == 2 ? pass : 0) * 0.1);
			if (order != 2 && pass == 0)
				add(s, o, "box", "next", uuid, "2026-09-02T00:00:00Z", "mem/memset", MEMSET,
				    102 + k % 7 + 0.1);
		}
	assert_int_equal(cmp_finish(s, o), 0);
	return s;
}

static void test_shared_sessions_any_order(void **state)
{
	struct cmp_opts o = opts(CMP_BY_SWPROFILE);
	struct cmp_set *s[3];
	const struct cmp_cell *c[3];

	(void)state;
	for (int order = 0; order < 3; order++) {
		s[order] = shared_sessions(&o, 300, order);
		c[order] = &find_row(&s[order]->blocks[0], MEMSET)->cells[1];
		assert_int_equal(c[order]->n, 600);
		assert_int_equal(c[order]->nuuids, 300);
		assert_true(c[order]->has_change);
		assert_true(c[order]->change.paired);
		assert_int_equal(c[order]->change.sessions, 300);
	}
	/* session 7's two samples, apart in order 2, share one uuid index */
	assert_int_equal(c[2]->sessions[1], c[2]->sessions[300 + 1]);
	for (int order = 1; order < 3; order++) {
		assert_true(c[order]->change.pct == c[0]->change.pct);
		assert_true(c[order]->change.p_value == c[0]->change.p_value);
	}
	for (int order = 0; order < 3; order++)
		cmp_free(s[order]);
}

static void test_every_change_computed(void **state)
{
	struct cmp_opts o = opts(CMP_BY_SWPROFILE);
	struct cmp_set *s = seed_set(&o);

	(void)state;
	/* a third column that appears after the rows exist, in one row of one block only */
	add_cell(s, &o, "aws-m7g.metal", "third", "2026-08-24T08:00:00Z", "mem/memset", MEMSET, 90);
	assert_int_equal(cmp_finish(s, &o), 0);
	assert_int_equal(s->ncols, 3);
	for (size_t b = 0; b < s->nblocks; b++)
		for (size_t r = 0; r < s->blocks[b].nrows; r++) {
			const struct cmp_row *row = &s->blocks[b].rows[r];

			assert_false(row->cells[0].has_change);
			assert_true(row->cells[1].has_change);
			/* the late column's cells are empty, not garbage, where it has no samples */
			assert_int_equal(row->cells[2].has_change, row->cells[2].n > 0);
		}
	/* 102 against 100 with a 1% spread in 2 sessions: +2.00%, and 90: -10.00% */
	assert_true(fabs(find_row(&s->blocks[0], MEMSET)->cells[1].change.pct - 2.0) < 1e-9);
	assert_true(fabs(find_row(&s->blocks[0], MEMSET)->cells[2].change.pct + 10.0) < 1e-9);
	assert_int_equal(find_row(&s->blocks[1], MEMSET)->cells[2].n, 0);
	/* a lower mmap throughput is a drop: 49 against 50 */
	assert_true(fabs(find_row(&s->blocks[0], MMAP4K)->cells[1].change.pct + 2.0) < 1e-9);
	cmp_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_group_by_swprofile),
		cmocka_unit_test(test_count_verdicts),
		cmocka_unit_test(test_three_sessions_fdr_looks),
		cmocka_unit_test(test_group_by_sut),
		cmocka_unit_test(test_group_by_param),
		cmocka_unit_test(test_param_split),
		cmocka_unit_test(test_param_long_and_short_name),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_column_order),
		cmocka_unit_test(test_base_selection),
		cmocka_unit_test(test_finish_errors),
		cmocka_unit_test(test_sessions_per_cell),
		cmocka_unit_test(test_every_change_computed),
		cmocka_unit_test(test_shared_sessions_any_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
