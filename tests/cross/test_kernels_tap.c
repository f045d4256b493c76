/* test_kernels_tap: fill- and copy-strategy correctness as a dependency-free TAP program, for cross-built arm64 runs under qemu. */
#include "kernels/kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GUARD 64
#define GUARD_BYTE 0x5a

static const size_t sizes[] = { 0, 1, 7, 15, 63, 64, 65, 127, 511, 512, 513, 4095, 4096, 4097,
				(1 << 20) + 13 };
static const size_t offsets[] = { 0, 1, 3, 8, 15, 16, 31, 48, 63, 64, 65, 200, 511 };

/* Fill [off, off+n) of a guarded buffer and check the range and both guards. */
static int check_one(const struct kern_strategy *k, unsigned char *buf, size_t off, size_t n, int c)
{
	unsigned char want = k->zero_only ? 0 : (unsigned char)c;
	unsigned char *p = buf + GUARD + off;

	memset(buf, GUARD_BYTE, GUARD + off + n + GUARD);
	k->fn(p, c, n);
	for (size_t i = 0; i < GUARD + off; i++)
		if (buf[i] != GUARD_BYTE)
			return printf("# %s: byte before the range changed (n=%zu off=%zu)\n", k->name, n, off), 1;
	for (size_t i = 0; i < n; i++)
		if (p[i] != want)
			return printf("# %s: byte %zu not filled (n=%zu off=%zu)\n", k->name, i, n, off), 1;
	for (size_t i = 0; i < GUARD; i++)
		if (p[n + i] != GUARD_BYTE)
			return printf("# %s: byte after the range changed (n=%zu off=%zu)\n", k->name, n, off), 1;
	return 0;
}

/*
 * Copy @n bytes of a pattern from @src + @soff to [off, off+n) of the
 * guarded @buf, and check the range and both guards.
 */
static int check_copy(const struct kern_strategy *k, unsigned char *buf, const unsigned char *src,
		      size_t off, size_t soff, size_t n)
{
	unsigned char *p = buf + GUARD + off;

	memset(buf, GUARD_BYTE, GUARD + off + n + GUARD);
	k->copy(p, src + soff, n);
	for (size_t i = 0; i < GUARD + off; i++)
		if (buf[i] != GUARD_BYTE)
			return printf("# %s: byte before the range changed (n=%zu off=%zu)\n", k->name, n, off), 1;
	for (size_t i = 0; i < n; i++)
		if (p[i] != src[soff + i])
			return printf("# %s: byte %zu not copied (n=%zu off=%zu src+%zu)\n", k->name, i, n, off, soff), 1;
	for (size_t i = 0; i < GUARD; i++)
		if (p[n + i] != GUARD_BYTE)
			return printf("# %s: byte after the range changed (n=%zu off=%zu)\n", k->name, n, off), 1;
	return 0;
}

/* Every size at every offset: both fill bytes for a fill, two source alignments for a copy. */
static int check_strategy(const struct kern_strategy *k, unsigned char *buf, const unsigned char *src)
{
	static const int fills[] = { 0, 0xa5 };
	static const size_t src_offsets[] = { 0, 5 };

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
		for (size_t o = 0; o < sizeof(offsets) / sizeof(offsets[0]); o++)
			for (size_t f = 0; f < 2; f++)
				if (k->copy ? check_copy(k, buf, src, offsets[o], src_offsets[f], sizes[s])
					    : check_one(k, buf, offsets[o], sizes[s], fills[f]))
					return 1;
	return 0;
}

/* Strategy @i of the fill table, then of the copy table. */
static const struct kern_strategy *strategy_at(size_t i)
{
	return i < kern_count() ? kern_at(i) : kern_copy_at(i - kern_count());
}

/*
 * Where the arm64 build cannot be made or run, a native build of this program
 * reports each of its tests as skipped with @why, so the totals of `make check`
 * say what was not tested instead of silently counting less.
 */
static int report_not_run(const char *why)
{
	size_t n = kern_count() + kern_copy_count();

	printf("1..%zu\n", n);
	for (size_t i = 0; i < n; i++)
		printf("ok %zu - %s %s # SKIP %s\n", i + 1, i < kern_count() ? "fill" : "copy",
		       strategy_at(i)->name, why);
	return 0;
}

int main(int argc, char **argv)
{
	size_t cap = 2 * GUARD + 512 + (1 << 20) + 13, n = kern_count() + kern_copy_count();
	unsigned char *buf, *src;
	int failed = 0;

	if (argc == 3 && !strcmp(argv[1], "--not-run"))
		return report_not_run(argv[2]);
	buf = malloc(cap);
	src = malloc(cap);
	if (!buf || !src)
		return 2;
	for (size_t i = 0; i < cap; i++)
		src[i] = (unsigned char)(i * 131 + 7);	/* no byte equals its neighbour or the guard's run */
	printf("1..%zu\n", n);
	for (size_t i = 0; i < n; i++) {
		const struct kern_strategy *k = strategy_at(i);
		const char *why = kern_why_not(k), *what = i < kern_count() ? "fill" : "copy";

		if (why) {
			printf("ok %zu - %s %s # SKIP %s\n", i + 1, what, k->name, why);
			continue;
		}
		if (check_strategy(k, buf, src)) {
			failed++;
			printf("not ok %zu - %s %s writes exactly its range\n", i + 1, what, k->name);
		} else {
			printf("ok %zu - %s %s writes exactly its range\n", i + 1, what, k->name);
		}
	}
	free(buf);
	free(src);
	return failed ? 1 : 0;
}
