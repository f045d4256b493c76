/* test_show_thp: which result classes the THP-always warning of `show` is about (src/result/thp.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "result/env.h"
#include "ident_fixture.h"

/* Whether the row of class @rclass of @suite is one the THP note is about. */
static bool thp_row_of(const char *suite, const char *rclass)
{
	struct fixture_class fc;
	struct cmp_row row = { .rclass = (char *)rclass, .ident = (struct ident_class *)fixture_class(&fc, suite, rclass) };

	return result_thp_row(&row);
}

static bool thp_row(const char *rclass)
{
	return thp_row_of("mem/mmap", rclass);
}

static void test_thp_row(void **state)
{
	(void)state;
	assert_true(thp_row("mmap -p 4KB -f demand -s 32GB -l 5"));
	assert_true(thp_row("mmap -p 4KB -f populate -s 1GB -l 1 --thp system"));
	assert_true(thp_row("mmap --page 4KB -s 1GB"));
	/* the benchmark, not its spelling: 4KB is mmap's default page, and other suites name it too */
	assert_true(thp_row("mmap -f demand -s 1GB"));
	assert_true(thp_row_of("perf/mem", "mmap -p 4KB -f demand -s 32GB -l 5"));
	assert_true(thp_row("mmap -p 4KB -f demand -s 1GB :cycles"));
	/* the label already says what ran, or no THP can back the mapping */
	assert_false(thp_row("mmap -p 4KB -f demand -s 32GB -l 5 --thp never"));
	assert_false(thp_row("mmap -p 4KB --thp always -s 1GB"));
	assert_false(thp_row("mmap -p 2MB -f demand -s 32GB -l 5"));
	assert_false(thp_row("mmap -p 1GB -f demand -s 32GB -l 5"));
	assert_false(thp_row("memset -k 4KB -f default -s 16GB"));
	assert_false(thp_row_of("mem/clear", "clear -p 4KB"));
	assert_false(thp_row_of("mem/memset", "memset -k 4KB -f default -s 16GB"));
	/* a plan's command that happens to be named so is no mmap benchmark */
	assert_false(thp_row_of("exec/mmap", "mmap -p 4KB"));
	/* a 2MB page spelled the long way is still no 4KB one */
	assert_false(thp_row("mmap --page 2MB -f demand -s 1GB"));
}

/* The same benchmark spelled two ways is judged once: both spellings, one answer (issue 24). */
static void test_thp_spellings(void **state)
{
	(void)state;
	assert_int_equal(thp_row("mmap -f demand -s 1GB"), thp_row("mmap -p 4KB -f demand -s 1GB"));
	assert_int_equal(thp_row("mmap -f demand -s 1GB --thp never"), thp_row("mmap -p 4KB -f demand -s 1GB --thp never"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thp_row),
		cmocka_unit_test(test_thp_spellings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
