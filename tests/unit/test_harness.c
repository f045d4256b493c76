/* test_harness: the harness's pure parts: the seeded shuffle of a session's order, reading an exec's value. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "harness/exec.h"
#include "harness/harness.h"

#include <errno.h>

static void fill(size_t *o, size_t n)
{
	for (size_t i = 0; i < n; i++)
		o[i] = i;
}

static void test_shuffle_deterministic(void **state)
{
	size_t a[20], b[20], seen[20] = { 0 };

	(void)state;
	fill(a, 20);
	fill(b, 20);
	harness_shuffle(a, 20, 42);
	harness_shuffle(b, 20, 42);
	assert_memory_equal(a, b, sizeof(a));
	for (size_t i = 0; i < 20; i++)
		seen[a[i]]++;
	for (size_t i = 0; i < 20; i++)
		assert_int_equal(seen[i], 1);		/* a permutation */
	fill(b, 20);
	harness_shuffle(b, 20, 43);
	assert_memory_not_equal(a, b, sizeof(a));	/* 1 in 20! to collide by chance */
	harness_shuffle(b, 0, 1);				/* nothing to do, nothing touched */
	harness_shuffle(b, 1, 1);
}

/*
 * Each of the 3! orders should come up about equally often.  60000 shuffles,
 * chi-square with 5 degrees of freedom: 20.52 is the 0.999 quantile (any
 * chi-square table), so a fair shuffle fails this 1 time in 1000 seeds; the
 * seeds are fixed, so the test is deterministic.
 */
static void test_shuffle_uniform(void **state)
{
	unsigned count[9] = { 0 };
	double chi = 0, expect = 60000.0 / 6;

	(void)state;
	for (uint64_t seed = 0; seed < 60000; seed++) {
		size_t o[3] = { 0, 1, 2 };

		harness_shuffle(o, 3, seed);
		count[o[0] * 3 + o[1]]++;	/* (first, second) identifies the order */
	}
	for (size_t i = 0; i < 9; i++) {
		if (i / 3 == i % 3) {
			assert_int_equal(count[i], 0);
			continue;
		}
		chi += (count[i] - expect) * (count[i] - expect) / expect;
	}
	assert_true(chi < 20.52);
}

static void test_exec_extract(void **state)
{
	double v = 0;

	(void)state;
	assert_int_equal(harness_exec_extract("rate ([0-9.]+)", "rate 42.5 GB/s\n", &v), 0);
	assert_true(v == 42.5);
	assert_int_equal(harness_exec_extract("rate ([0-9.]+)", "rate . GB/s\n", &v), -EDOM);
	/* "(.*)" takes the newline too: the number before it is still read */
	assert_int_equal(harness_exec_extract("v=(.*)", "v=1e3\n", &v), 0);
	assert_true(v == 1000);
	assert_int_equal(harness_exec_extract("v=(.*)", "v=5.5.5\n", &v), -EDOM);
	assert_int_equal(harness_exec_extract("v=(.*)", "v= \n", &v), -EDOM);
	assert_int_equal(harness_exec_extract("rate ([0-9.]+)", "nothing\n", &v), -ENOENT);
	assert_int_equal(harness_exec_extract("rate ([0-9.]+", "rate 1\n", &v), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shuffle_deterministic),
		cmocka_unit_test(test_shuffle_uniform),
		cmocka_unit_test(test_exec_extract),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
