/* plan_util: the small pure helpers of plans: seeded shuffle, durations, nearest-name, exec value extraction. */
#include "plan/plan.h"

#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

/* splitmix64 (Steele, Lea, Flood 2014): tiny, seedable with any value, good enough to order benchmarks. */
static uint64_t plan_splitmix(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, bound): rejection instead of a bare modulo, so no order is favoured. */
static uint64_t plan_below(uint64_t *state, uint64_t bound)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % bound, r;

	do
		r = plan_splitmix(state);
	while (r >= limit);
	return r % bound;
}

void plan_shuffle(size_t *order, size_t n, uint64_t seed)
{
	uint64_t state = seed;

	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)plan_below(&state, i), t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
}

int plan_parse_duration(const char *s, unsigned *seconds)
{
	unsigned long v, mult = 1;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno)
		return -EINVAL;
	if (!strcmp(end, "h"))
		mult = 3600;
	else if (!strcmp(end, "m"))
		mult = 60;
	else if (*end && strcmp(end, "s"))
		return -EINVAL;
	if (v == 0 || v > UINT_MAX / mult)
		return -EINVAL;
	*seconds = (unsigned)(v * mult);
	return 0;
}

/* Levenshtein distance, one row at a time; names here are short. */
static size_t plan_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[65];

	if (la > 64 || lb > 64)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

int plan_nearest(const char *word, const char *const *cands, size_t n)
{
	size_t best = SIZE_MAX;
	int at = -1;

	for (size_t i = 0; i < n; i++) {
		size_t d = plan_distance(word, cands[i]);

		if (d < best) {
			best = d;
			at = (int)i;
		}
	}
	return at;
}

int plan_exec_extract(const struct plan_bench *b, const char *output, double *value)
{
	regmatch_t m[2];
	regex_t re;
	char num[64], *end;
	size_t len;
	int ret = -ENOENT;

	if (regcomp(&re, b->exec.regex, REG_EXTENDED))
		return -EINVAL;
	if (regexec(&re, output, 2, m, 0) || m[1].rm_so < 0)
		goto out;
	len = (size_t)(m[1].rm_eo - m[1].rm_so);
	if (len == 0 || len >= sizeof(num))
		goto out;
	memcpy(num, output + m[1].rm_so, len);
	num[len] = '\0';
	*value = strtod(num, &end);
	if (*end == '\0')
		ret = 0;
out:
	regfree(&re);
	return ret;
}
