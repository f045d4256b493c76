/* test_size: size_parse/size_format/size_human and units_rate against perf's accepted forms and the int64 limits. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "util/size.h"
#include "util/units.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Written into *out before a parse that must fail: a failed parse must leave it alone. */
#define SENTINEL 0x5a5a5a5a5a5a5a5aULL

struct accept_case {
	const char *text;
	uint64_t bytes;
};

struct reject_case {
	const char *text;
	int err;
};

static void expect_parse(const char *text, uint64_t bytes)
{
	uint64_t v = SENTINEL;
	int ret = size_parse(text, &v);

	if (ret || v != bytes)
		fail_msg("size_parse(\"%s\") = %d, %llu; expected 0, %llu", text, ret,
			 (unsigned long long)v, (unsigned long long)bytes);
}

static void expect_reject(const char *text, int err)
{
	uint64_t v = SENTINEL;
	int ret = size_parse(text, &v);

	if (ret != err || v != SENTINEL)
		fail_msg("size_parse(\"%s\") = %d (out %llu); expected %d and out untouched", text, ret,
			 (unsigned long long)v, err);
}

/* Every form perf_atoll() accepts (tools/perf/util/util.c), plus IEC. */
static void test_parse_accepts(void **state)
{
	static const struct accept_case cases[] = {
		{ "0", 0 },
		{ "1", 1 },
		{ "7", 7 },
		{ "007", 7 },
		{ "4096", 4096 },
		{ "4096B", 4096 },
		{ "4096b", 4096 },
		{ "4KB", 4096 },
		{ "4kb", 4096 },
		{ "4KiB", 4096 },
		{ "0KB", 0 },
		{ "2MB", 2ULL << 20 },
		{ "2mb", 2ULL << 20 },
		{ "2MiB", 2ULL << 20 },
		{ "1GB", 1ULL << 30 },
		{ "1gb", 1ULL << 30 },
		{ "1GiB", 1ULL << 30 },
		{ "1TB", 1ULL << 40 },
		{ "1tb", 1ULL << 40 },
		{ "1TiB", 1ULL << 40 },
		{ "16GB", 16ULL << 30 },
		{ "32GB", 32ULL << 30 },
		{ "1536KB", 1536ULL << 10 },
		{ "1048576", 1ULL << 20 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		expect_parse(cases[i].text, cases[i].bytes);
}

/* The largest value of each unit is INT64_MAX >> shift; one more is -ERANGE. */
static void test_parse_limits(void **state)
{
	static const struct {
		const char *units[3];
		unsigned shift;
	} units[] = {
		{ { "", "B", "b" }, 0 },
		{ { "KB", "kb", "KiB" }, 10 },
		{ { "MB", "mb", "MiB" }, 20 },
		{ { "GB", "gb", "GiB" }, 30 },
		{ { "TB", "tb", "TiB" }, 40 },
	};
	char text[64];

	(void)state;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		uint64_t max = (uint64_t)INT64_MAX >> units[i].shift;

		for (size_t j = 0; j < 3; j++) {
			snprintf(text, sizeof(text), "%llu%s", (unsigned long long)max, units[i].units[j]);
			expect_parse(text, max << units[i].shift);
			snprintf(text, sizeof(text), "%llu%s", (unsigned long long)max + 1,
				 units[i].units[j]);
			expect_reject(text, -ERANGE);
		}
	}
	/* The boundaries, spelled out. */
	expect_parse("9223372036854775807", (uint64_t)INT64_MAX);
	expect_reject("9223372036854775808", -ERANGE);
	expect_reject("18446744073709551615", -ERANGE);
	expect_reject("18446744073709551616", -ERANGE);
	expect_reject("99999999999999999999999999999999", -ERANGE);
	expect_parse("8589934591GB", 8589934591ULL << 30);
	expect_reject("8589934592GB", -ERANGE);
	expect_parse("8388607TB", 8388607ULL << 40);
	expect_reject("8388608TB", -ERANGE);
	expect_reject("8388608TiB", -ERANGE);
	expect_reject("9007199254740992KB", -ERANGE);
}

static void test_parse_rejects(void **state)
{
	static const char *const bad[] = {
		"", "B", "KB", "kb", "KiB", "1G", "1K", "1M", "1T", "1k", "1m", "1g", "1t", "1P",
		"1PB", "1pb", "1PiB", "1EB", "1.5GB", "1.0", "1,000", "1_000", "-1", "+1", "-0",
		" 1", "\t1", "1 ", "1\n", "1 KB", "1KB ", "1KBB", "1BB", "1Bb", "4Kb", "4kB",
		"4Mb", "4mB", "4Gb", "4gB", "4Tb", "4tB", "4KIB", "4kib", "4Kib", "4kiB", "4KIb",
		"4MIB", "4mib", "4GIB", "4gib", "4TIB", "4tib", "4iB", "4i", "0x10", "0X10", "1e3",
		"1e", "GB1", "1GB1", "1GBx", "1024KB!", "one", "\xc2\xbd",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_reject(bad[i], -EINVAL);
	expect_reject(NULL, -EINVAL);
}

/* Every byte after "1": only B and b are a unit on their own; every byte before "1" is junk. */
static void test_parse_every_single_suffix_and_prefix(void **state)
{
	char text[4];

	(void)state;
	for (int c = 1; c < 256; c++) {
		bool digit = c >= '0' && c <= '9';

		snprintf(text, sizeof(text), "1%c", c);
		if (c == 'B' || c == 'b')
			expect_parse(text, 1);
		else if (digit)
			expect_parse(text, 10 + (uint64_t)(c - '0'));
		else
			expect_reject(text, -EINVAL);
		snprintf(text, sizeof(text), "%c1", c);
		if (digit)
			expect_parse(text, (uint64_t)(c - '0') * 10 + 1);
		else
			expect_reject(text, -EINVAL);
	}
}

/* Of the 4 case spellings of "KB" exactly "KB" and "kb" parse (perf rejects "Kb"); of "KiB" only "KiB". */
static void test_parse_every_case_spelling(void **state)
{
	static const char letters[] = "KMGT";
	char text[8];

	(void)state;
	for (unsigned u = 0; u < 4; u++) {
		uint64_t want = 3ULL << (10 * (u + 1));
		char up = letters[u], lo = (char)(letters[u] - 'A' + 'a');

		for (unsigned mask = 0; mask < 4; mask++) {
			char a = mask & 1 ? lo : up, b = mask & 2 ? 'b' : 'B';

			snprintf(text, sizeof(text), "3%c%c", a, b);
			if (mask == 0 || mask == 3)
				expect_parse(text, want);
			else
				expect_reject(text, -EINVAL);
		}
		for (unsigned mask = 0; mask < 8; mask++) {
			char a = mask & 1 ? lo : up, i = mask & 2 ? 'I' : 'i', b = mask & 4 ? 'b' : 'B';

			snprintf(text, sizeof(text), "3%c%c%c", a, i, b);
			if (mask == 0)
				expect_parse(text, want);
			else
				expect_reject(text, -EINVAL);
		}
	}
}

static void expect_format(uint64_t bytes, const char *want)
{
	char buf[32];

	memset(buf, 'x', sizeof(buf));
	assert_ptr_equal(size_format(bytes, buf, sizeof(buf)), buf);
	if (strcmp(buf, want))
		fail_msg("size_format(%llu) = \"%s\"; expected \"%s\"", (unsigned long long)bytes, buf,
			 want);
}

static void test_format(void **state)
{
	(void)state;
	expect_format(0, "0");
	expect_format(1, "1");
	expect_format(1023, "1023");
	expect_format(1024, "1KB");
	expect_format(1025, "1025");
	expect_format(1536, "1536");
	expect_format(4096, "4KB");
	expect_format(1023ULL << 10, "1023KB");
	expect_format(1ULL << 20, "1MB");
	expect_format((1ULL << 20) + 1024, "1025KB");
	expect_format(2ULL << 20, "2MB");
	expect_format(1536ULL << 20, "1536MB");
	expect_format(1ULL << 30, "1GB");
	expect_format(32ULL << 30, "32GB");
	expect_format(1ULL << 40, "1TB");
	expect_format(3ULL << 40, "3TB");
	expect_format(8388607ULL << 40, "8388607TB");
	expect_format((uint64_t)INT64_MAX, "9223372036854775807");
	expect_format(1ULL << 63, "8388608TB");
	expect_format(UINT64_MAX, "18446744073709551615");
}

/* A short buffer truncates like snprintf and stays terminated. */
static void test_format_truncates(void **state)
{
	char buf[8];

	(void)state;
	memset(buf, 'x', sizeof(buf));
	assert_ptr_equal(size_format(1536ULL << 20, buf, 4), buf);
	assert_string_equal(buf, "153");
	assert_int_equal(buf[4], 'x');
}

/* Whatever size_format prints, size_parse reads back to the same number. */
static void test_format_parse_round_trip(void **state)
{
	static const uint64_t mult[] = { 1, 2, 3, 7, 1000, 1023, 1024, 1025, 4095, 4097, 1048575 };
	char buf[32];

	(void)state;
	for (unsigned shift = 0; shift <= 62; shift++) {
		for (size_t i = 0; i < sizeof(mult) / sizeof(mult[0]); i++) {
			uint64_t v = mult[i] << shift;

			if (v > (uint64_t)INT64_MAX || v >> shift != mult[i])
				continue;
			expect_parse(size_format(v, buf, sizeof(buf)), v);
		}
	}
	expect_parse(size_format((uint64_t)INT64_MAX, buf, sizeof(buf)), (uint64_t)INT64_MAX);
}

static void expect_rate(double bps, double value, const char *unit)
{
	double v = -1;
	const char *u = NULL;

	units_rate(bps, &v, &u);
	assert_non_null(u);
	if (strcmp(u, unit) || v != value)
		fail_msg("units_rate(%f) = %f %s; expected %f %s", bps, v, u, value, unit);
}

/* perf scales by 1024 and stops at GB/sec (bench/mem-functions.c print_bps). */
static void test_rate_scale(void **state)
{
	const double k = 1024.0;

	(void)state;
	expect_rate(0, 0, "bytes/sec");
	expect_rate(1023, 1023, "bytes/sec");
	expect_rate(k, 1, "KB/sec");
	expect_rate(k * k - k, k - 1, "KB/sec");
	expect_rate(k * k, 1, "MB/sec");
	expect_rate(1.5 * k * k, 1.5, "MB/sec");
	expect_rate(k * k * k, 1, "GB/sec");
	expect_rate(5 * k * k * k * k, 5 * k, "GB/sec");
}

static void expect_human(uint64_t bytes, const char *want)
{
	char buf[32];

	assert_string_equal(size_human(bytes, buf, sizeof(buf)), want);
}

/* Amounts in the units sizes are given in, 1024-based with their names (doctor and --header print them). */
static void test_human(void **state)
{
	(void)state;
	expect_human(0, "0B");
	expect_human(1023, "1023B");
	expect_human(1536, "1.5KB");
	expect_human(252ULL << 30, "252.0GB");
	expect_human(1024ULL << 30, "1.0TB");
	/* 1e9 bytes is 0.93 of perf's GB, never "1.0GB" */
	expect_human(1000000000ULL, "953.7MB");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_accepts),
		cmocka_unit_test(test_parse_limits),
		cmocka_unit_test(test_parse_rejects),
		cmocka_unit_test(test_parse_every_single_suffix_and_prefix),
		cmocka_unit_test(test_parse_every_case_spelling),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_format_truncates),
		cmocka_unit_test(test_format_parse_round_trip),
		cmocka_unit_test(test_rate_scale),
		cmocka_unit_test(test_human),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
