/* test_show_thp: which result classes the THP-always warning of `show` is about (src/result/thp.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "result/env.h"

static bool thp_row(const char *rclass)
{
	struct cmp_row row = { .rclass = (char *)rclass };

	return result_thp_row(&row);
}

static void test_thp_row(void **state)
{
	(void)state;
	assert_true(thp_row("mmap -p 4KB -f demand -s 32GB -l 5"));
	assert_true(thp_row("mmap -p 4KB -f populate -s 1GB -l 1 --thp system"));
	assert_true(thp_row("mmap --page 4KB -s 1GB"));
	/* the label already says what ran, or no THP can back the mapping */
	assert_false(thp_row("mmap -p 4KB -f demand -s 32GB -l 5 --thp never"));
	assert_false(thp_row("mmap -p 4KB --thp always -s 1GB"));
	assert_false(thp_row("mmap -p 2MB -f demand -s 32GB -l 5"));
	assert_false(thp_row("mmap -p 1GB -f demand -s 32GB -l 5"));
	assert_false(thp_row("memset -k 4KB -f default -s 16GB"));
	assert_false(thp_row("clear -p 4KB"));
	assert_false(thp_row(""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thp_row),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
