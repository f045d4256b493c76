/* test_plan: plan loading, expansion, refusal of bad plans, scaling, estimates, the harness units. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "harness/exec.h"
#include "harness/harness.h"
#include "plan/plan.h"
#include "util/log.h"
#include "util/sysfs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* make check runs from the top of the tree */
#define FIX "tests/fixtures/plans/"
#define SYSROOT "tests/fixtures/sysroot"
#define PLANS "plans/"

static struct plan *load_ok(const char *path)
{
	struct plan *p = NULL;

	assert_int_equal(plan_load(path, &p), 0);
	assert_non_null(p);
	return p;
}

static void load_fails(const char *path)
{
	struct plan *p = (struct plan *)1;

	assert_int_equal(plan_load(path, &p), EXIT_USAGE);
	assert_null(p);
}

static void test_good_expands(void **state)
{
	struct plan *p = load_ok(FIX "good.yaml");
	static const char *const ids[] = {
		"mmap -p 4KB -f populate -s 64MB",		/* frag.yaml, included first */
		"memset -k 1GB -f default -s 16GB",		/* --size=16384MB, normalised */
		"mmap -p 4KB -f demand -s 32GB -l 5",		/* matrix keys before args */
		"mmap -p 2MB -f demand -s 32GB -l 5",
		"clear -k 4KB -f all -s 1GB --then read",	/* first matrix key varies slowest */
		"clear -k 4KB -f all -s 1GB -c --then read",	/* in table order, -f at its place */
		"clear -k 2MB -f all -s 1GB --then read",
		"clear -k 2MB -f all -s 1GB -c --then read",
		"perf-memset",
	};

	(void)state;
	assert_int_equal(p->nbench, 9);
	for (size_t i = 0; i < 9; i++)
		assert_string_equal(p->bench[i].id, ids[i]);
	assert_string_equal(p->name, "good");
	assert_string_equal(p->swprofile, "next-20260821");
	assert_string_equal(p->bench[1].argv[0], "mem");
	assert_string_equal(p->bench[1].argv[p->bench[1].argc - 1], "16GB");
	assert_ptr_equal(p->bench[2].wl, wl_find("mem", "mmap"));
	plan_free(p);
}

static void test_good_protocol(void **state)
{
	struct plan *p = load_ok(FIX "good.yaml");

	(void)state;
	/* the fragment's own default (sessions 1) wins over the includer's (3) */
	assert_int_equal(p->bench[0].proto.sessions, 1);
	assert_int_equal(p->bench[0].proto.warmups, 2);
	assert_int_equal(p->bench[1].proto.sessions, 3);
	assert_int_equal(p->bench[1].proto.repeats, 5);
	assert_int_equal(p->bench[1].proto.timeout_s, 120);
	assert_int_equal(p->bench[2].proto.repeats, 7);		/* per-benchmark override */
	assert_int_equal(p->bench[8].proto.timeout_s, 30);
	assert_int_equal(plan_invocations(&p->bench[2]), 3 * (2 + 7));
	/* requires: the larger of the includer's 8 and the fragment's 16 */
	assert_int_equal(p->req.memory, 512ULL << 20);
	assert_int_equal(p->req.nhuge, 1);
	assert_int_equal(p->req.huge[0].page, 2ULL << 20);
	assert_int_equal(p->req.huge[0].count, 16);
	plan_free(p);
}

static void test_exec(void **state)
{
	struct plan *p = load_ok(FIX "good.yaml");
	const struct plan_bench *b = &p->bench[8];
	struct harness_unit *units;
	const struct harness_unit *u;
	double v = 0;

	(void)state;
	assert_int_equal(b->kind, PLAN_EXEC);
	assert_string_equal(b->exec.unit, "GB/sec");
	assert_true(b->exec.higher_is_better);
	/* the harness's unit of work carries what the harness needs to run and read it */
	assert_int_equal(plan_units(p, &units), 0);
	u = &units[8];
	assert_int_equal(u->kind, HARNESS_EXEC);
	assert_string_equal(u->id, b->id);
	assert_string_equal(u->exec.command, b->exec.command);
	assert_string_equal(u->exec.unit, "GB/sec");
	assert_true(u->exec.higher_is_better);
	assert_int_equal(u->sessions, b->proto.sessions);
	assert_int_equal(harness_exec_extract(u->exec.regex, "# 12.345678 GB/sec\n", &v), 0);
	assert_true(v > 12.345677 && v < 12.345679);
	assert_int_equal(harness_exec_extract(u->exec.regex, "no number here\n", &v), -ENOENT);
	assert_int_equal(units[0].kind, HARNESS_BENCH);
	assert_int_equal(units[0].argc, p->bench[0].argc);
	assert_ptr_equal(units[0].argv, p->bench[0].argv);
	free(units);
	/* not finite: an error row, not a sample the store refuses */
	plan_free(p);
	p = load_ok(FIX "exec-any.yaml");
	b = &p->bench[0];
	assert_int_equal(harness_exec_extract(b->exec.regex, "v=nan\n", &v), -ERANGE);
	assert_int_equal(harness_exec_extract(b->exec.regex, "v=-inf\n", &v), -ERANGE);
	assert_int_equal(harness_exec_extract(b->exec.regex, "v=1e999\n", &v), -ERANGE);
	assert_int_equal(harness_exec_extract(b->exec.regex, "v=1e-310\n", &v), 0);	/* subnormal, but a number */
	assert_true(v > 0 && v < 1e-300);
	assert_int_equal(harness_exec_extract(b->exec.regex, "v=2.5\n", &v), 0);
	assert_true(v == 2.5);
	plan_free(p);
}

static void test_builtin_defaults(void **state)
{
	struct plan *p = load_ok(FIX "scale.yaml");

	(void)state;
	assert_string_equal(p->name, "scale");	/* from the file name */
	assert_string_equal(p->swprofile, "auto");
	assert_int_equal(p->bench[0].proto.warmups, 1);
	assert_int_equal(p->bench[0].proto.repeats, 3);
	assert_int_equal(p->bench[0].proto.sessions, 1);
	assert_int_equal(p->bench[0].proto.timeout_s, 600);
	plan_free(p);
}

static void test_bad_plans(void **state)
{
	(void)state;
	load_fails(FIX "syntax.yaml");
	load_fails(FIX "typo-key.yaml");
	load_fails(FIX "typo-arg.yaml");
	load_fails(FIX "big-matrix.yaml");
	load_fails(FIX "loop-a.yaml");
	load_fails(FIX "bad-line.yaml");
	load_fails(FIX "duplicate.yaml");
	load_fails(FIX "bad-function.yaml");
	load_fails(FIX "no-such-file.yaml");
}

static void test_nearest(void **state)
{
	static const char *const keys[] = { "warmups", "repeats", "sessions", "timeout" };

	(void)state;
	assert_int_equal(plan_nearest("repeat", keys, 4), 1);
	assert_int_equal(plan_nearest("sesions", keys, 4), 2);
	assert_int_equal(plan_nearest("warmup", keys, 4), 0);
	assert_int_equal(plan_nearest("timeuot", keys, 4), 3);
	assert_int_equal(plan_nearest("x", keys, 0), -1);
	/* past 64 characters the distance is bounded, not skipped: there is still a nearest */
	assert_int_equal(plan_nearest("repeatsssssssssssssssssssssssssssssssssssssssssssssssssssssssssssss",
				      keys, 4), 0);
}

static void test_regex_cost(void **state)
{
	static const char *const ok[] = {
		"([0-9]+)", "([0-9.]+) GB/sec", "time: ([0-9]+\\.?[0-9]*) ms", "([[:digit:]]+)",
		"([]0-9]+)", "(a|b)*([0-9]{1,3})", "x{2}(y)", "^ *([0-9]+)$",
	};
	static const char *const refused[] = {
		"([0-9]++++++++++++++++++++)", "([0-9]*+)", "((a{100}){100})", "(a)\\1",
		"(((((((((((((((((((((((((((((((((a)))))))))))))))))))))))))))))))))",
		"(((((((((((((x+)+)+)+)+)+)+)+)+)+)+)+)+)",
	};
	char big[PLAN_REGEX_MAX + 2];

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		assert_null(plan_regex_cost(ok[i]));
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		assert_non_null(plan_regex_cost(refused[i]));
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	big[0] = '(';
	big[2] = ')';
	assert_non_null(plan_regex_cost(big));
	big[PLAN_REGEX_MAX] = '\0';
	assert_null(plan_regex_cost(big));
}

static void test_bad_plans_more(void **state)
{
	(void)state;
	load_fails(FIX "long-key.yaml");
	load_fails(FIX "long-arg.yaml");
	load_fails(FIX "null-key.yaml");
	load_fails(FIX "anchor-key.yaml");
	load_fails(FIX "seq-key.yaml");
	load_fails(FIX "exec-no-name.yaml");
	load_fails(FIX "two-docs.yaml");
	load_fails(FIX "regex-blowup.yaml");
	load_fails(FIX "include-foreign.yaml");
	load_fails(FIX "help-line.yaml");
	load_fails(FIX "help-bundle.yaml");
}

/* profile_freq and profile_event: defaults and a benchmark's own, implying profile unless it says false. */
static void test_profile_keys(void **state)
{
	struct plan *p = load_ok(FIX "profile.yaml");
	struct harness_unit *u;

	(void)state;
	assert_int_equal(p->nbench, 4);
	assert_int_equal(plan_units(p, &u), 0);
	/* the defaults' frequency, and so profiled */
	assert_true(u[0].profile);
	assert_int_equal(u[0].profile_hz, 250);
	assert_null(u[0].profile_event);
	/* its own frequency and event over the defaults' */
	assert_true(u[1].profile);
	assert_int_equal(u[1].profile_hz, 1000);
	assert_string_equal(u[1].profile_event, "cycles");
	/* profile: false decides, whatever the defaults say of sampling */
	assert_false(u[2].profile);
	assert_true(u[3].profile);
	assert_int_equal(u[3].profile_hz, 250);
	assert_string_equal(u[3].profile_event, "cpu-clock");
	free(u);
	plan_free(p);
	/* a plan without them: no profile, nothing over the command line */
	p = load_ok(FIX "good.yaml");
	assert_int_equal(plan_units(p, &u), 0);
	assert_false(u[1].profile);
	assert_int_equal(u[1].profile_hz, 0);
	assert_null(u[1].profile_event);
	free(u);
	plan_free(p);
}

/* @path is refused with @msg as the last error: file, line and column, then the reason. */
static void load_fails_with(const char *path, const char *msg)
{
	char want[512];

	snprintf(want, sizeof(want), "%s%s", path, msg);
	load_fails(path);
	assert_string_equal(log_last_error(), want);
}

static void test_profile_keys_refused(void **state)
{
	(void)state;
	load_fails_with(FIX "profile-freq-zero.yaml", ":4:19: profile_freq must be a whole number from 1 to 100000, not '0'");
	load_fails_with(FIX "profile-freq-word.yaml", ":6:19: profile_freq must be a whole number from 1 to 100000, not 'fast'");
	load_fails_with(FIX "profile-event.yaml", ":4:18: profile_event must be cpu-clock or cycles, not 'instructions'");
}

static void test_duration(void **state)
{
	unsigned s = 0;

	(void)state;
	assert_int_equal(plan_parse_duration("90", &s), 0);
	assert_int_equal(s, 90);
	assert_int_equal(plan_parse_duration("30s", &s), 0);
	assert_int_equal(s, 30);
	assert_int_equal(plan_parse_duration("10m", &s), 0);
	assert_int_equal(s, 600);
	assert_int_equal(plan_parse_duration("2h", &s), 0);
	assert_int_equal(s, 7200);
	assert_int_equal(plan_parse_duration("0", &s), -EINVAL);
	assert_int_equal(plan_parse_duration("10x", &s), -EINVAL);
	assert_int_equal(plan_parse_duration("-1m", &s), -EINVAL);
	assert_int_equal(plan_parse_duration("", &s), -EINVAL);
}

static void test_scale(void **state)
{
	struct plan *p = load_ok(FIX "scale.yaml");

	(void)state;
	assert_int_equal(plan_scale(p, 4), 0);
	/* -k 4KB would drop below one 4KB page: it stays */
	assert_string_equal(p->bench[0].id, "memset -k 4KB -f default -s 4GB");
	/* -p is never scaled */
	assert_string_equal(p->bench[1].id, "mmap -p 2MB -f demand -s 256MB -l 5");
	assert_string_equal(p->bench[1].argv[7], "256MB");
	assert_int_equal(p->scale, 4);
	assert_int_equal(plan_scale(p, 3), EXIT_USAGE);
	assert_int_equal(plan_scale(p, 1), 0);	/* back to what was written */
	assert_string_equal(p->bench[0].id, "memset -k 4KB -f default -s 16GB");
	assert_int_equal(p->scale, 1);
	plan_free(p);
}

/* The fixture machine: MemAvailable 1GB, 16 free 2MB pages, no 1GB pool. */
static void test_scale_auto(void **state)
{
	struct plan *p = load_ok(FIX "scale.yaml");
	unsigned d = 0;

	(void)state;
	sysfs_set_root(SYSROOT);
	assert_int_equal(plan_check(p, log_warn), EXIT_RESOURCE);
	/* 16GB/16 = 1GB does not fit in 1GB less 64MB; 1GB/32 = 32MB is exactly the 2MB pool */
	assert_int_equal(plan_scale_auto(p, &d), 0);
	assert_int_equal(d, 32);
	assert_string_equal(p->bench[0].id, "memset -k 4KB -f default -s 512MB");
	assert_string_equal(p->bench[1].id, "mmap -p 2MB -f demand -s 32MB -l 5");
	assert_int_equal(plan_check(p, log_warn), 0);
	plan_free(p);

	/* 1GB pages are not offered at all: no scale helps, and the plan is left as written */
	p = load_ok(PLANS "seed.yaml");
	assert_int_equal(plan_scale_auto(p, &d), EXIT_RESOURCE);
	assert_int_equal(p->scale, 1);
	assert_string_equal(p->bench[2].id, "mmap -p 4KB -f demand -s 32GB -l 5");
	plan_free(p);
	sysfs_set_root(NULL);
}

/* requires is checked too, divided by the plan's scale like its sizes */
static void test_check_requires(void **state)
{
	struct plan *p = load_ok(FIX "frag.yaml");

	(void)state;
	sysfs_set_root(SYSROOT);
	assert_int_equal(plan_check(p, log_warn), 0);	/* 16 2MB pages: all 16 are free */
	p->req.huge[0].count = 17;
	assert_int_equal(plan_check(p, log_warn), EXIT_RESOURCE);
	p->req.memory = 2ULL << 30;
	assert_int_equal(plan_scale(p, 2), 0);	/* 1GB and 9 pages now */
	assert_int_equal(plan_check(p, log_warn), EXIT_RESOURCE);	/* 1GB + 64MB reserve > 1GB */
	assert_int_equal(plan_scale(p, 4), 0);
	assert_int_equal(plan_check(p, log_warn), 0);
	plan_free(p);
	sysfs_set_root(NULL);
}

/* Rates are the stated assumptions: memset 5 GB/s plus a prefault pass, mmap 1 GB/s. */
static void test_estimate(void **state)
{
	struct plan *p = load_ok(FIX "scale.yaml");

	(void)state;
	/* memset 16GB, one function, 1 loop + prefault: 32GB at 5 GB/s */
	assert_true(plan_estimate_s(&p->bench[0]) > 6.39 && plan_estimate_s(&p->bench[0]) < 6.41);
	/* mmap 1GB x 5 loops at 1 GB/s */
	assert_true(plan_estimate_s(&p->bench[1]) > 4.99 && plan_estimate_s(&p->bench[1]) < 5.01);
	plan_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_expands),
		cmocka_unit_test(test_good_protocol),
		cmocka_unit_test(test_exec),
		cmocka_unit_test(test_builtin_defaults),
		cmocka_unit_test(test_bad_plans),
		cmocka_unit_test(test_nearest),
		cmocka_unit_test(test_regex_cost),
		cmocka_unit_test(test_bad_plans_more),
		cmocka_unit_test(test_profile_keys),
		cmocka_unit_test(test_profile_keys_refused),
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_scale_auto),
		cmocka_unit_test(test_check_requires),
		cmocka_unit_test(test_estimate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
