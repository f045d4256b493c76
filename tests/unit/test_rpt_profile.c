/* test_rpt_profile: a profile's sampling (event, frequency) per column from session environments, and how many runs a symbol's share covers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <math.h>
#include <string.h>

#include <cmocka.h>

#include "compare/compare.h"
#include "ident_fixture.h"
#include "report/profile.h"

#define BENCH "mmap -p 4KB -f demand -s 64MB"
#define UUID(k) ("aaaaaaaa-0000-4000-8000-00000000000" #k)

static struct cmp_opts opts(void)
{
	return (struct cmp_opts){ .axis = CMP_BY_SWPROFILE, .alpha = STATS_DEFAULT_ALPHA,
				  .min_effect_pct = STATS_DEFAULT_MIN_EFFECT_PCT,
				  .target_pct = STATS_DEFAULT_TARGET_PCT };
}

/* One profile share of @swp's session @uuid: class "<BENCH> :profile:<sym>". */
static void add(struct cmp_set *s, const struct cmp_opts *o, const char *swp, const char *uuid, const char *sym,
		double v)
{
	char rclass[128];
	struct fixture_class fc;
	struct cmp_sample x;

	snprintf(rclass, sizeof(rclass), "%s :profile:%s", BENCH, sym);
	x = (struct cmp_sample){ "box", swp, uuid, "2026-01-01T00:00:00Z", *fixture_class(&fc, "mem/mmap", rclass), "%",
				 false, v };
	assert_int_equal(cmp_add(s, o, &x), 0);
}

/*
 * Two columns: base with sessions 1 and 2 (two runs each), patched with
 * sessions 3, 4 and 5 (one run each).  Every run stores clearing; the
 * symbol "rare" only in session 1's first run and session 3's run,
 * "baseonly" in every base run and no patched one.
 */
static struct cmp_set *two_columns(void)
{
	struct cmp_opts o = opts();
	struct cmp_set *s = cmp_new(&o);
	static const char *const base[] = { UUID(1), UUID(1), UUID(2), UUID(2) };
	static const char *const patched[] = { UUID(3), UUID(4), UUID(5) };

	assert_non_null(s);
	for (size_t i = 0; i < 4; i++)
		add(s, &o, "base", base[i], "clearing", 10 + (double)i);
	for (size_t i = 0; i < 3; i++)
		add(s, &o, "patched", patched[i], "clearing", 90 + (double)i);
	add(s, &o, "base", UUID(1), "rare", 5);
	add(s, &o, "patched", UUID(3), "rare", 7);
	for (size_t i = 0; i < 3; i++)
		add(s, &o, "patched", patched[i], "common", 3);
	for (size_t i = 0; i < 4; i++) {
		add(s, &o, "base", base[i], "common", 4);
		add(s, &o, "base", base[i], "baseonly", 2);
	}
	assert_int_equal(cmp_finish(s, &o), 0);
	return s;
}

/* The set's only profile. */
static void the_profile(const struct cmp_set *s, struct result_profile **ps)
{
	size_t n;

	assert_int_equal(result_profiles_of(s, 0, ps, &n), 0);
	assert_int_equal(n, 1);
	assert_non_null((*ps)->clearing);
	assert_int_equal((*ps)->nsyms, 3);
}

static const struct cmp_row *sym(const struct result_profile *p, const char *name)
{
	for (size_t i = 0; i < p->nsyms; i++)
		if (!strcmp(result_profile_symbol(p->syms[i]), name))
			return p->syms[i];
	fail_msg("no symbol %s", name);
	return NULL;
}

static void test_cover(void **state)
{
	struct cmp_set *s = two_columns();
	struct result_profile *p;
	struct result_profile_cover c;

	(void)state;
	the_profile(s, &p);
	/* base (column 0): in 1 of 4 runs, 1 of 2 sessions */
	c = result_profile_cover_of(p, sym(p, "rare"), 0);
	assert_true(c.partial);
	assert_int_equal(c.runs, 1);
	assert_int_equal(c.of_runs, 4);
	assert_int_equal(c.sessions, 1);
	assert_int_equal(c.of_sessions, 2);
	c = result_profile_cover_of(p, sym(p, "rare"), 1);
	assert_true(c.partial);
	assert_int_equal(c.runs, 1);
	assert_int_equal(c.of_runs, 3);
	/* in every run: not partial; clearing itself never is */
	assert_false(result_profile_cover_of(p, sym(p, "common"), 0).partial);
	assert_false(result_profile_cover_of(p, sym(p, "common"), 1).partial);
	assert_false(result_profile_cover_of(p, p->clearing, 0).partial);
	/* in no run of a column: no share there, which is not a partial one */
	c = result_profile_cover_of(p, sym(p, "baseonly"), 1);
	assert_false(c.partial);
	assert_int_equal(c.runs, 0);
	assert_int_equal(c.of_runs, 3);
	result_profiles_free(p, 1);
	cmp_free(s);
}

/* Session UUID(k) -> {"profile": [{benchmark, event, hz}]} from a JSON text. */
static json_t *envs_of(const char *text)
{
	json_error_t err;
	json_t *j = json_loads(text, 0, &err);

	if (!j)
		fail_msg("bad fixture JSON: %s", err.text);
	return j;
}

static void sampled(const struct cmp_set *s, const struct result_profile *p, size_t col, const json_t *envs,
		    const char *want, bool one)
{
	struct result_sampling smp;
	char text[512];

	assert_int_equal(result_profile_sampling(s, p, col, envs, &smp), 0);
	assert_int_equal(result_sampling_text(&smp, text, sizeof(text)), one);
	assert_string_equal(text, want);
}

static void test_sampling(void **state)
{
	struct cmp_set *s = two_columns();
	struct result_profile *p;
	/*
	 * base: both sessions at 100 Hz (1 by its own entry, 2 by a session
	 * whose entries all agree); patched: 3 at 4000 Hz (its own entry,
	 * after others that differ), 4 recorded nothing
	 * (an older session), 5 with entries that differ and none of its own.
	 */
	json_t *envs = envs_of(
		"{\"aaaaaaaa-0000-4000-8000-000000000001\": {\"profile\": ["
		"  {\"benchmark\": \"mem memset -s 1MB\", \"event\": \"cycles\", \"hz\": 50},"
		"  {\"benchmark\": \"mem " BENCH "\", \"event\": \"cpu-clock\", \"hz\": 100}]},"
		" \"aaaaaaaa-0000-4000-8000-000000000002\": {\"profile\": ["
		"  {\"benchmark\": \"mem mmap -f all\", \"event\": \"cpu-clock\", \"hz\": 100}]},"
		" \"aaaaaaaa-0000-4000-8000-000000000003\": {\"profile\": ["
		"  {\"benchmark\": \"mem a\", \"event\": \"cpu-clock\", \"hz\": 100},"
		"  {\"benchmark\": \"mem b\", \"event\": \"cycles\", \"hz\": 100},"
		"  {\"benchmark\": \"mem " BENCH "\", \"event\": \"cpu-clock\", \"hz\": 4000}]},"
		" \"aaaaaaaa-0000-4000-8000-000000000004\": {\"settings\": {}},"
		" \"aaaaaaaa-0000-4000-8000-000000000005\": {\"profile\": ["
		"  {\"benchmark\": \"mem a\", \"event\": \"cpu-clock\", \"hz\": 100},"
		"  {\"benchmark\": \"mem b\", \"event\": \"cpu-clock\", \"hz\": 200}]}}");
	struct result_sampling smp;
	json_t *j;

	(void)state;
	the_profile(s, &p);
	sampled(s, p, 0, envs, "cpu-clock at 100 Hz", true);
	sampled(s, p, 1, envs, "differs: cpu-clock at 4000 Hz in 1 session, not recorded in 2", false);
	/* no environments at all (an imported CSV): not recorded, never a default */
	sampled(s, p, 0, NULL, "not recorded", true);
	assert_int_equal(result_profile_sampling(s, p, 1, envs, &smp), 0);
	assert_int_equal(smp.sessions, 3);
	assert_int_equal(smp.not_recorded, 2);
	assert_int_equal(smp.nways, 1);
	assert_int_equal(smp.ways[0].hz, 4000);
	j = result_sampling_json(&smp);
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(j, "not_recorded")), 2);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(json_object_get(j, "ways"), 0), "hz")), 4000);
	json_decref(j);
	/* two frequencies in one column: both said, with their sessions */
	json_object_set_new(envs, UUID(2), envs_of("{\"profile\": [{\"benchmark\": \"mem " BENCH "\","
						   " \"event\": \"cycles\", \"hz\": 250}]}"));
	sampled(s, p, 0, envs, "differs: cpu-clock at 100 Hz in 1 session, cycles at 250 Hz in 1", false);
	/* a malformed entry is no record */
	json_object_set_new(envs, UUID(2), envs_of("{\"profile\": [{\"benchmark\": \"mem " BENCH "\","
						   " \"event\": \"cycles\", \"hz\": \"fast\"}]}"));
	sampled(s, p, 0, envs, "differs: cpu-clock at 100 Hz in 1 session, not recorded in 1", false);
	/* the benchmark spelled otherwise than stored is its parameters all the same; another benchmark is not */
	json_object_set_new(envs, UUID(2), envs_of("{\"profile\": ["
						   "{\"benchmark\": \"mem mmap -p 4KB -f demand -s 1GB\", \"event\": \"cycles\", \"hz\": 9},"
						   "{\"benchmark\": \"mem mmap -s 64MB -f demand\", \"event\": \"cycles\", \"hz\": 250}]}"));
	sampled(s, p, 0, envs, "differs: cpu-clock at 100 Hz in 1 session, cycles at 250 Hz in 1", false);
	json_decref(envs);
	result_profiles_free(p, 1);
	cmp_free(s);
}

/*
 * By -f columns the rows leave -f out ("mmap -p 4KB -s 64MB"): each column
 * is sampled as its own function's entry says, in a session that sampled
 * another benchmark otherwise, which no display string of the row names.
 */
static void test_sampling_by_function(void **state)
{
	struct cmp_opts o = opts();
	struct cmp_set *s;
	struct result_profile *p;
	size_t n;
	json_t *envs = envs_of(
		"{\"aaaaaaaa-0000-4000-8000-000000000001\": {\"profile\": ["
		"  {\"benchmark\": \"mem memset -f default -s 1MB\", \"event\": \"cpu-clock\", \"hz\": 4000},"
		"  {\"benchmark\": \"mem mmap -p 4KB -f populate -s 64MB\", \"event\": \"cycles\", \"hz\": 250},"
		"  {\"benchmark\": \"mem mmap -p 4KB -f demand -s 64MB\", \"event\": \"cpu-clock\", \"hz\": 500}]}}");

	(void)state;
	o.axis = CMP_BY_PARAM;
	o.param = "f";
	s = cmp_new(&o);
	assert_non_null(s);
	for (int i = 0; i < 2; i++) {
		struct fixture_class fc;
		const char *name = i ? "mmap -p 4KB -f populate -s 64MB :profile:clearing"
				     : "mmap -p 4KB -f demand -s 64MB :profile:clearing";
		struct cmp_sample x = { "box", "base", UUID(1), "2026-01-01T00:00:00Z",
					*fixture_class(&fc, "mem/mmap", name), "%", false, 10 + i };

		assert_int_equal(cmp_add(s, &o, &x), 0);
	}
	assert_int_equal(cmp_finish(s, &o), 0);
	assert_int_equal(result_profiles_of(s, 0, &p, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(s->cols[0], "demand");
	sampled(s, p, 0, envs, "cpu-clock at 500 Hz", true);
	sampled(s, p, 1, envs, "cycles at 250 Hz", true);
	json_decref(envs);
	result_profiles_free(p, 1);
	cmp_free(s);
}

/* The JSON show --profile adds: per column the sampling, per symbol cell the runs it covers. */
static void test_json(void **state)
{
	struct cmp_set *s = two_columns();
	json_t *envs = envs_of("{\"aaaaaaaa-0000-4000-8000-000000000001\": {\"profile\": ["
			       "  {\"benchmark\": \"mem " BENCH "\", \"event\": \"cpu-clock\", \"hz\": 100}]}}");
	json_t *a = result_profiles_json(s, 0, envs), *p, *col, *rare = NULL, *x;
	size_t i;

	(void)state;
	assert_non_null(a);
	assert_int_equal(json_array_size(a), 1);
	p = json_array_get(a, 0);
	assert_string_equal(json_string_value(json_object_get(p, "benchmark")), "mem " BENCH);
	col = json_array_get(json_object_get(p, "columns"), 0);
	assert_string_equal(json_string_value(json_object_get(col, "swprofile")), "base");
	assert_int_equal(json_integer_value(json_object_get(col, "runs")), 4);
	assert_string_equal(json_string_value(json_object_get(json_object_get(col, "sampling"), "text")),
			    "differs: cpu-clock at 100 Hz in 1 session, not recorded in 1");
	json_array_foreach(json_object_get(p, "symbols"), i, x)
		if (!strcmp(json_string_value(json_object_get(x, "symbol")), "rare"))
			rare = x;
	assert_non_null(rare);
	x = json_array_get(json_object_get(rare, "columns"), 0);
	assert_true(json_is_true(json_object_get(x, "partial")));
	assert_int_equal(json_integer_value(json_object_get(x, "runs")), 1);
	assert_int_equal(json_integer_value(json_object_get(x, "of_runs")), 4);
	assert_true(json_is_null(json_object_get(x, "change_pp")));
	/* 5% in one of base's 4 runs: 1.25% over them all, the others counted 0; 5% where it was */
	assert_true(json_real_value(json_object_get(x, "share_pct")) == 1.25);
	assert_true(json_real_value(json_object_get(x, "share_in_runs_pct")) == 5.0);
	x = json_array_get(json_object_get(rare, "columns"), 1);
	/* 7% in one of patched's 3 runs against base's 1.25% */
	assert_true(fabs(json_real_value(json_object_get(x, "change_pp")) - (7.0 / 3 - 1.25)) < 1e-12);
	json_decref(a);
	json_decref(envs);
	cmp_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cover),
		cmocka_unit_test(test_sampling),
		cmocka_unit_test(test_sampling_by_function),
		cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
