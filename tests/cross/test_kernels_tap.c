/* test_kernels_tap: zeroing-strategy correctness as a dependency-free TAP program, for cross-built arm64 runs under qemu. */
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

static int check_strategy(const struct kern_strategy *k, unsigned char *buf)
{
	static const int fills[] = { 0, 0xa5 };

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
		for (size_t o = 0; o < sizeof(offsets) / sizeof(offsets[0]); o++)
			for (size_t f = 0; f < 2; f++)
				if (check_one(k, buf, offsets[o], sizes[s], fills[f]))
					return 1;
	return 0;
}

/*
 * Where the arm64 build cannot be made or run, a native build of this program
 * reports each of its tests as skipped with @why, so the totals of `make check`
 * say what was not tested instead of silently counting less.
 */
static int report_not_run(const char *why)
{
	printf("1..%zu\n", kern_count());
	for (size_t i = 0; i < kern_count(); i++)
		printf("ok %zu - %s # SKIP %s\n", i + 1, kern_at(i)->name, why);
	return 0;
}

int main(int argc, char **argv)
{
	size_t cap = 2 * GUARD + 512 + (1 << 20) + 13;
	unsigned char *buf;
	int failed = 0;

	if (argc == 3 && !strcmp(argv[1], "--not-run"))
		return report_not_run(argv[2]);
	buf = malloc(cap);
	if (!buf)
		return 2;
	printf("1..%zu\n", kern_count());
	for (size_t i = 0; i < kern_count(); i++) {
		const struct kern_strategy *k = kern_at(i);
		const char *why = kern_why_not(k);

		if (why) {
			printf("ok %zu - %s # SKIP %s\n", i + 1, k->name, why);
			continue;
		}
		if (check_strategy(k, buf)) {
			failed++;
			printf("not ok %zu - %s fills exactly its range\n", i + 1, k->name);
		} else {
			printf("ok %zu - %s fills exactly its range\n", i + 1, k->name);
		}
	}
	free(buf);
	return failed ? 1 : 0;
}
