/* test_identity: result classes as data (src/util/identity.c): names made and read back, labels, row keys, copies. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ident_fixture.h"
#include "util/identity.h"

/* The name clearpath gives, read back: the metric, or NULL. */
static void assert_metric(const char *suite, const char *display, const char *name, const char *want)
{
	const char *m = ident_class_metric(suite, display, name);

	if (!want && m)
		fail_msg("'%s' of %s '%s': metric '%s', want none", name, suite, display, m);
	if (want && (!m || strcmp(m, want)))
		fail_msg("'%s' of %s '%s': metric %s, want '%s'", name, suite, display, m ? m : "none", want);
}

static void test_name_and_metric(void **state)
{
	static const char *const metrics[] = { "", "cycles", "then-read", "profile:clear_page_erms", "cpu-migrations" };
	char name[256];

	(void)state;
	/* every name clearpath makes reads back as its metric */
	for (size_t i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++) {
		assert_int_equal(ident_class_name("mem/memset", "-k 1GB -f x -s 16GB", metrics[i], name, sizeof(name)), 0);
		assert_metric("mem/memset", "-k 1GB -f x -s 16GB", name, metrics[i]);
	}
	assert_string_equal(name, "memset -k 1GB -f x -s 16GB :cpu-migrations");
	assert_int_equal(ident_class_name("mem/memset", "-f x", "", name, 8), -E2BIG);
	/* imported names whose display holds the workload (the seed's "perf/mem" shape) */
	assert_metric("perf/mem", "memset -k 1GB -f default -s 16GB", "memset -k 1GB -f default -s 16GB", "");
	assert_metric("mem/clear", "clear -s 1GB -k 2MB -f default", "clear -s 1GB -k 2MB -f default :combined",
		      "combined");
	/* named by itself: an exec's plan name, an imported "bw", a name that only starts alike */
	assert_metric("exec/rate", "echo rate 1", "rate", NULL);
	assert_metric("mem/mmap", "-p 1GB", "bw", NULL);
	assert_metric("mem/memset", "-s 1MB", "memset -s 1MB -l 2", NULL);
	assert_metric("mem/memset", "-s 1MB", "memset -s 1MB :", NULL);
	assert_metric("mem/memset", "-s 1MB", "memset -s 1MBx", NULL);
	assert_metric("mem/memset", "", "memset", "");
}

static void test_rebase(void **state)
{
	char out[256];

	(void)state;
	ident_class_rebase("mem/memset", "-s 1MB -f x", "-f x -s 1MB", "memset -s 1MB -f x :cycles", out, sizeof(out));
	assert_string_equal(out, "memset -f x -s 1MB :cycles");
	ident_class_rebase("mem/memset", "-s 1MB -f x", "-f x -s 1MB", "memset -s 1MB -f x", out, sizeof(out));
	assert_string_equal(out, "memset -f x -s 1MB");
	/* the display holds the workload: so does the new name */
	ident_class_rebase("perf/mem", "memset -s 1MB", "memset --size 1MB", "memset -s 1MB :cycles", out, sizeof(out));
	assert_string_equal(out, "memset --size 1MB :cycles");
	/* named by itself: as it is */
	ident_class_rebase("exec/rate", "echo 1", "echo 2", "rate", out, sizeof(out));
	assert_string_equal(out, "rate");
}

static void test_label_and_column(void **state)
{
	struct fixture_class fc;
	const struct ident_class *c = fixture_class(&fc, "mem/clear", "clear -k 2MB -f default -s 1GB --then read :then-read");
	char col[64], *label;

	(void)state;
	assert_true(ident_is(c, "mem/clear"));
	assert_string_equal(c->metric, "then-read");
	assert_string_equal(ident_value(c, "extent"), "2MB");
	assert_string_equal(ident_value(c, "k"), "2MB");
	assert_string_equal(ident_value(c, "page"), "4KB");
	assert_null(ident_value(c, "nonsense"));
	label = ident_class_label(c, "f");
	assert_string_equal(label, "clear -k 2MB -s 1GB --then read :then-read");
	free(label);
	label = ident_class_label(c, NULL);
	assert_string_equal(label, c->name);
	free(label);
	ident_bench_column(c, col, sizeof(col));
	assert_string_equal(col, "mem");
	assert_int_equal(ident_class_head_len(c), strlen("clear -k 2MB -f default -s 1GB --then read"));
	c = fixture_class(&fc, "perf/mem", "mmap -p 4KB -f demand -s 32GB -l 5");
	ident_bench_column(c, col, sizeof(col));
	assert_string_equal(col, "perf/mem");
	assert_true(ident_is(c, "mem/mmap"));
	assert_true(ident_headline(c));
	assert_string_equal(ident_profile_symbol("profile:clearing"), "clearing");
	assert_null(ident_profile_symbol("cycles"));
	assert_null(ident_profile_symbol(NULL));
	/* a name that starts with the option (an imported one): it goes with the blank after it */
	c = fixture_class(&fc, "mem/memset", "-f default -s 16GB");
	label = ident_class_label(c, "f");
	assert_string_equal(label, "-s 16GB");
	free(label);
	c = fixture_class(&fc, "mem/memset", "-f default");
	label = ident_class_label(c, "f");
	assert_string_equal(label, "");
	free(label);
}

/* One row key: the structure, not the spelling, and the dropped parameter's values share it. */
static void test_row_key(void **state)
{
	struct fixture_class a, b;
	char *ka, *kb;

	(void)state;
	/* the default page spelled out or not */
	ka = ident_class_key(fixture_class(&a, "mem/mmap", "mmap -f demand -s 1GB"), NULL);
	kb = ident_class_key(fixture_class(&b, "mem/mmap", "mmap -p 4KB -f demand -s 1GB"), NULL);
	assert_string_equal(ka, kb);
	free(ka);
	free(kb);
	/* two functions: two rows, one row by function */
	fixture_class(&a, "mem/clear", "clear -k 4KB -f default -s 1GB");
	fixture_class(&b, "mem/clear", "clear -k 4KB -f x86-64-movnti -s 1GB");
	ka = ident_class_key(&a.c, NULL);
	kb = ident_class_key(&b.c, NULL);
	assert_string_not_equal(ka, kb);
	free(ka);
	free(kb);
	ka = ident_class_key(&a.c, "f");
	kb = ident_class_key(&b.c, "function");
	assert_string_equal(ka, kb);
	free(ka);
	free(kb);
	/* a metric is another row */
	ka = ident_class_key(fixture_class(&a, "mem/clear", "clear -k 4KB -f default -s 1GB :cycles"), NULL);
	kb = ident_class_key(fixture_class(&b, "mem/clear", "clear -k 4KB -f default -s 1GB"), NULL);
	assert_string_not_equal(ka, kb);
	free(ka);
	free(kb);
	/* an exec is its plan name, whatever its command */
	a.c = (struct ident_class){ "exec/rate", "", "echo 1", "echo 1", NULL, 0, NULL, "rate" };
	b.c = (struct ident_class){ "exec/rate", "", "echo 2", "echo 2", NULL, 0, NULL, "rate" };
	ka = ident_class_key(&a.c, NULL);
	kb = ident_class_key(&b.c, NULL);
	assert_string_equal(ka, kb);
	free(ka);
	free(kb);
	/* ... and no metric of that name is it */
	b.c.metric = "rate";
	kb = ident_class_key(&b.c, NULL);
	ka = ident_class_key(&a.c, NULL);
	assert_string_not_equal(ka, kb);
	free(ka);
	free(kb);
}

static void test_dup(void **state)
{
	struct fixture_class fc;
	struct ident_class *d;

	(void)state;
	fixture_class(&fc, "mem/clear", "clear -k 2MB -f default -s 1GB --then read :combined");
	d = ident_class_dup(&fc.c, NULL);
	assert_non_null(d);
	memset(&fc, 0, sizeof(fc));	/* the copy holds its own */
	assert_string_equal(d->suite, "mem/clear");
	assert_string_equal(d->workload, "mem/clear");
	assert_string_equal(d->metric, "combined");
	assert_string_equal(ident_value(d, "then"), "read");
	assert_string_equal(ident_value(d, "f"), "default");
	free(d);
	/* as a row of columns by -f: without it, its key and name neither */
	fixture_class(&fc, "mem/clear", "clear -k 2MB -f default -s 1GB --then read :combined");
	d = ident_class_dup(&fc.c, "f");
	assert_non_null(d);
	assert_null(ident_value(d, "f"));
	assert_string_equal(ident_value(d, "k"), "2MB");
	assert_string_equal(d->name, "clear -k 2MB -s 1GB --then read :combined");
	assert_null(strstr(d->key, "function="));
	assert_non_null(strstr(d->key, "extent=2MB"));
	free(d);
	/* named by itself stays so */
	fc.c = (struct ident_class){ "exec/rate", "", "echo 1", "echo 1", NULL, 0, NULL, "rate" };
	d = ident_class_dup(&fc.c, NULL);
	assert_non_null(d);
	assert_null(d->metric);
	assert_string_equal(d->name, "rate");
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_name_and_metric),
		cmocka_unit_test(test_rebase),
		cmocka_unit_test(test_label_and_column),
		cmocka_unit_test(test_row_key),
		cmocka_unit_test(test_dup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
