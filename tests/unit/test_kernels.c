/* test_kernels: every fill (copy) strategy this CPU can run writes exactly [p, p+n) with the right bytes, at odd sizes and alignments. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "kernels/kernels.h"
#include "kernels/cpu.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define GUARD 256		/* bytes checked on each side of the range */
#define GUARD_BYTE 0x3c	/* differs from every fill byte tried */
#define ALIGN_SPAN 64	/* offsets 0..63: every position within a cache line */

static const size_t small_sizes[] = { 0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65,
				      127, 128, 129, 255, 256, 257, 1000, 4095, 4096, 4097 };
static const size_t large_sizes[] = { 65536 + 7, (1u << 20) + 13 };
/* Fill bytes as ints: -1 must behave as 0xff and 0x1a5 as 0xa5, as for memset(3). */
static const int fills[] = { 0, 0xa5, -1, 0x1a5 };

/* Report the first byte of [from, from+n) that is not @want, naming the strategy and case. */
static void expect_bytes(const unsigned char *from, size_t n, unsigned char want,
			 const char *name, const char *where, size_t size, size_t off, int c)
{
	for (size_t i = 0; i < n; i++)
		if (from[i] != want)
			fail_msg("%s: size %zu offset %zu fill %d: %s byte %zu is 0x%02x, expected 0x%02x",
				 name, size, off, c, where, i, from[i], want);
}

/* One call of @k on @buf + GUARD + @off with @n bytes; buf holds GUARD + 63 + n + GUARD bytes. */
static void check_one(const struct kern_strategy *k, unsigned char *buf, size_t n, size_t off, int c)
{
	size_t total = GUARD + ALIGN_SPAN + n + GUARD;
	unsigned char *p = buf + GUARD + off;
	unsigned char want = k->zero_only ? 0 : (unsigned char)c;

	memset(buf, GUARD_BYTE, total);
	if (k->fn(p, c, n) != p)
		fail_msg("%s: size %zu offset %zu: does not return its first argument", k->name, n, off);
	expect_bytes(buf, GUARD + off, GUARD_BYTE, k->name, "guard before, ", n, off, c);
	expect_bytes(p, n, want, k->name, "range", n, off, c);
	expect_bytes(p + n, total - (GUARD + off + n), GUARD_BYTE, k->name, "guard after,", n, off, c);
}

static void check_sizes(const struct kern_strategy *k, const size_t *sizes, size_t nsizes,
			size_t off_step)
{
	size_t max = 0;
	unsigned char *buf;

	for (size_t i = 0; i < nsizes; i++)
		max = sizes[i] > max ? sizes[i] : max;
	/* 64-byte aligned base, so offset 0 is cache-line aligned and 1..63 are not. */
	buf = aligned_alloc(64, (GUARD + ALIGN_SPAN + max + GUARD + 63) / 64 * 64);
	assert_non_null(buf);
	for (size_t i = 0; i < nsizes; i++)
		for (size_t off = 0; off < ALIGN_SPAN; off += off_step)
			for (size_t f = 0; f < sizeof(fills) / sizeof(fills[0]); f++)
				check_one(k, buf, sizes[i], off, fills[f]);
	free(buf);
}

/* One copy of @n bytes from @src + @soff to @buf + GUARD + @off; buf as for check_one(). */
static void check_copy_one(const struct kern_strategy *k, unsigned char *buf, const unsigned char *src,
			   size_t n, size_t off, size_t soff)
{
	size_t total = GUARD + ALIGN_SPAN + n + GUARD;
	unsigned char *p = buf + GUARD + off;

	memset(buf, GUARD_BYTE, total);
	if (k->copy(p, src + soff, n) != p)
		fail_msg("%s: size %zu offset %zu: does not return its first argument", k->name, n, off);
	expect_bytes(buf, GUARD + off, GUARD_BYTE, k->name, "guard before, ", n, off, (int)soff);
	for (size_t i = 0; i < n; i++)
		if (p[i] != src[soff + i])
			fail_msg("%s: size %zu offset %zu source offset %zu: byte %zu is 0x%02x, expected 0x%02x",
				 k->name, n, off, soff, i, p[i], src[soff + i]);
	expect_bytes(p + n, total - (GUARD + off + n), GUARD_BYTE, k->name, "guard after,", n, off, (int)soff);
}

/* Destination offsets 0..63 by @off_step, and sources aligned, one byte off, and odd. */
static void check_copy_sizes(const struct kern_strategy *k, const size_t *sizes, size_t nsizes,
			     size_t off_step)
{
	static const size_t soffs[] = { 0, 1, 5, 40 };
	size_t max = 0;
	unsigned char *buf, *src;

	for (size_t i = 0; i < nsizes; i++)
		max = sizes[i] > max ? sizes[i] : max;
	buf = aligned_alloc(64, (GUARD + ALIGN_SPAN + max + GUARD + 63) / 64 * 64);
	src = aligned_alloc(64, (max + ALIGN_SPAN + 63) / 64 * 64);
	assert_non_null(buf);
	assert_non_null(src);
	/* a pattern with no run: a byte left behind or shifted by one shows */
	for (size_t i = 0; i < max + ALIGN_SPAN; i++)
		src[i] = (unsigned char)(i * 131 + 7);
	for (size_t i = 0; i < nsizes; i++)
		for (size_t off = 0; off < ALIGN_SPAN; off += off_step)
			for (size_t s = 0; s < sizeof(soffs) / sizeof(soffs[0]); s++)
				check_copy_one(k, buf, src, sizes[i], off, soffs[s]);
	free(buf);
	free(src);
}

static size_t runnable_count(void)
{
	size_t n = 0;

	for (size_t i = 0; i < kern_count(); i++)
		n += kern_why_not(kern_at(i)) == NULL;
	return n;
}

static void check_every_runnable(const size_t *sizes, size_t nsizes, size_t off_step)
{
	for (size_t i = 0; i < kern_count(); i++) {
		const struct kern_strategy *k = kern_at(i);

		if (!kern_why_not(k))
			check_sizes(k, sizes, nsizes, off_step);
	}
}

static void check_every_runnable_copy(const size_t *sizes, size_t nsizes, size_t off_step)
{
	size_t n = 0;

	for (size_t i = 0; i < kern_copy_count(); i++) {
		const struct kern_strategy *k = kern_copy_at(i);

		if (!kern_why_not(k)) {
			check_copy_sizes(k, sizes, nsizes, off_step);
			n++;
		}
	}
	assert_true(n >= 2);	/* libc's memcpy and the C loop at least */
}

/* Every copy strategy this machine can run, at every destination offset and four source offsets. */
static void test_copy_small(void **state)
{
	(void)state;
	check_every_runnable_copy(small_sizes, sizeof(small_sizes) / sizeof(small_sizes[0]), 1);
}

static void test_copy_large(void **state)
{
	(void)state;
	check_every_runnable_copy(large_sizes, sizeof(large_sizes) / sizeof(large_sizes[0]), 7);
}

/*
 * -f all is perf's set on this architecture, in perf's order, first in
 * each table: x86-64 has perf 6.1's four, arm64 (and any other) only
 * "default".
 */
static void check_perf_set(const struct kern_strategy *(*at)(size_t), size_t n, const char *const *want)
{
	size_t i = 0, w = 0;

	for (; i < n && at(i)->perf; i++)
		if (kern_perf_here(at(i))) {
			assert_non_null(want[w]);
			assert_string_equal(at(i)->name, want[w++]);
		}
	assert_null(want[w]);
	/* perf's rows are a prefix: nothing after them is perf's */
	for (; i < n; i++)
		if (at(i)->perf)
			fail_msg("%s: perf's row after clearpath's own", at(i)->name);
}

static void test_perf_sets(void **state)
{
#if defined(__x86_64__)
	static const char *const fill[] = { "default", "x86-64-unrolled", "x86-64-stosq", "x86-64-stosb", NULL };
	static const char *const copy[] = { "default", "x86-64-unrolled", "x86-64-movsq", "x86-64-movsb", NULL };
#else
	static const char *const fill[] = { "default", NULL }, *const copy[] = { "default", NULL };
#endif

	(void)state;
	check_perf_set(kern_at, kern_count(), fill);
	check_perf_set(kern_copy_at, kern_copy_count(), copy);
	/* perf's descriptions, word for word: the "# function" lines of -f all are perf's */
	assert_string_equal(kern_find("default")->desc, "Default memset() provided by glibc");
	assert_string_equal(kern_copy_find("default")->desc, "Default memcpy() provided by glibc");
	assert_string_equal(kern_find("x86-64-stosb")->desc, "movsb-based memset() in arch/x86/lib/memset_64.S");
	assert_string_equal(kern_copy_find("x86-64-movsq")->desc, "movsq-based memcpy() in arch/x86/lib/memcpy_64.S");
}

/* Small sizes at every offset 0..63 for every strategy this machine can run. */
static void test_fill_small(void **state)
{
	(void)state;
	check_every_runnable(small_sizes, sizeof(small_sizes) / sizeof(small_sizes[0]), 1);
}

/* Large sizes at offsets 0, 7, 14, ... 63: enough to cross every unrolled loop with odd heads and tails. */
static void test_fill_large(void **state)
{
	(void)state;
	check_every_runnable(large_sizes, sizeof(large_sizes) / sizeof(large_sizes[0]), 7);
}

/* libc memset and the portable C loop run everywhere, so the fill tests never test nothing. */
static void test_portable_always_runnable(void **state)
{
	(void)state;
	assert_non_null(kern_find("default"));
	assert_null(kern_why_not(kern_find("default")));
	assert_non_null(kern_find("c-loop"));
	assert_null(kern_why_not(kern_find("c-loop")));
	assert_true(runnable_count() >= 2);
	/* "default" is perf's function name for libc memset, first as in perf's -f help. */
	assert_string_equal(kern_at(0)->name, "default");
}

static void check_table_invariants(const struct kern_strategy *(*at)(size_t), size_t n,
				   const struct kern_strategy *(*find)(const char *), bool copies)
{
	assert_true(n > 0);
	assert_null(at(n));
	for (size_t i = 0; i < n; i++) {
		const struct kern_strategy *k = at(i);

		assert_non_null(k);
		assert_non_null(k->name);
		assert_true(k->name[0] != '\0');
		/* names are -f values separated by commas: no comma, space, or reserved word */
		assert_null(strpbrk(k->name, ", \t"));
		assert_true(strcmp(k->name, "all") && strcmp(k->name, "help") && strcmp(k->name, "h"));
		if (!k->desc || !k->desc[0])
			fail_msg("strategy %s has no description", k->name);
		if (k->arch && strcmp(k->arch, "x86-64") && strcmp(k->arch, "arm64"))
			fail_msg("strategy %s: unknown arch '%s'", k->name, k->arch);
		/* names are -f values beside the set selectors */
		assert_true(strcmp(k->name, "all+"));
		/* a row of one table has that table's function only; a portable row is built everywhere */
		assert_null(copies ? (const void *)k->fn : (const void *)k->copy);
		if (!k->arch)
			assert_non_null(copies ? (const void *)k->copy : (const void *)k->fn);
		assert_false(copies && k->zero_only);
		assert_ptr_equal(find(k->name), k);
		for (size_t j = i + 1; j < n; j++)
			if (!strcmp(k->name, at(j)->name))
				fail_msg("strategy name %s appears twice (rows %zu and %zu)", k->name, i, j);
	}
	assert_null(find("no-such-strategy"));
	assert_null(find(""));
	assert_null(find("DEFAULT"));
	assert_null(find("defaul"));
}

static void test_table_invariants(void **state)
{
	(void)state;
	check_table_invariants(kern_at, kern_count(), kern_find, false);
	check_table_invariants(kern_copy_at, kern_copy_count(), kern_copy_find, true);
	/* the two tables are two namespaces: memcpy's "default" is not memset's */
	assert_ptr_not_equal(kern_find("default"), kern_copy_find("default"));
	assert_null(kern_copy_find("x86-64-stosb"));
	assert_null(kern_find("x86-64-movsb"));
}

/* Row @i of the fill table, then of the copy table. */
static const struct kern_strategy *any_at(size_t i)
{
	return i < kern_count() ? kern_at(i) : kern_copy_at(i - kern_count());
}

/* Rows of the other architecture, in both tables, are listed but say which architecture they need. */
static void test_other_arch_says_why(void **state)
{
#if defined(__x86_64__)
	const char *here = "x86-64", *other_msg = "arm64 only";
#elif defined(__aarch64__)
	const char *here = "arm64", *other_msg = "x86-64 only";
#else
	const char *here = "", *other_msg = NULL;
#endif
	size_t others = 0;

	(void)state;
	for (size_t i = 0; i < kern_count() + kern_copy_count(); i++) {
		const struct kern_strategy *k = any_at(i);
		const char *why = kern_why_not(k);
		bool built = k->fn || k->copy;

		if (!k->arch)
			continue;
		if (strcmp(k->arch, here)) {
			others++;
			assert_false(built);
			assert_non_null(why);
			if (other_msg)
				assert_string_equal(why, other_msg);
			else
				assert_true(!strcmp(why, "arm64 only") || !strcmp(why, "x86-64 only"));
		} else {
			assert_true(built);
			/* built here: unavailable only for a named CPU feature */
			if (why && strncmp(why, "needs ", 6))
				fail_msg("%s: reason '%s' does not name what it needs", k->name, why);
		}
	}
	/* both architectures have rows, so every build has some of the other one */
	assert_true(others > 0);
}

#if defined(__aarch64__)
#include <sys/auxv.h>

/*
 * The kernel's word, AT_HWCAP2, decides MOPS: it runs on hardware with
 * FEAT_MOPS and is refused with the reason elsewhere (qemu 7.2 does not
 * emulate it).  dc zva (unless DCZID_EL0 prohibits it), stnp and stp need
 * nothing beyond the base architecture.
 */
static void test_arm64_offered(void **state)
{
	bool mops = getauxval(AT_HWCAP2) & (1UL << 43);	/* HWCAP2_MOPS */

	(void)state;
	assert_null(kern_why_not(kern_find("arm64-stnp")));
	assert_null(kern_why_not(kern_find("arm64-stp")));
	assert_int_equal(kern_why_not(kern_find("arm64-dc-zva")) == NULL, !cpu_features()->dczva_prohibited);
	for (const char *const *n = (const char *const[]){ "arm64-mops", "arm64-mops-nt", NULL }; *n; n++) {
		const char *why = kern_why_not(kern_find(*n));

		assert_int_equal(why == NULL, mops);
		if (!mops)
			assert_string_equal(why, "needs FEAT_MOPS (HWCAP2_MOPS not set)");
	}
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_invariants),
		cmocka_unit_test(test_other_arch_says_why),
#if defined(__aarch64__)
		cmocka_unit_test(test_arm64_offered),
#endif
		cmocka_unit_test(test_portable_always_runnable),
		cmocka_unit_test(test_fill_small),
		cmocka_unit_test(test_fill_large),
		cmocka_unit_test(test_copy_small),
		cmocka_unit_test(test_copy_large),
		cmocka_unit_test(test_perf_sets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
