/* plan_util: the small pure helpers of plans: durations, nearest-name, the cost of an exec regex. */
#include "plan/plan.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * Levenshtein distance, one row at a time; names here are short.  A word
 * longer than 64 characters gets the longer length, an upper bound, so
 * plan_nearest() still has an answer for it.
 */
size_t plan_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[65];

	if (la > 64 || lb > 64)
		return la > lb ? la : lb;
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

/* Where the bracket expression opening at @p ends (its ']'), or the last character when it does not. */
static const char *plan_regex_bracket(const char *p)
{
	p++;
	if (*p == '^')
		p++;
	if (*p == ']')
		p++;	/* a leading ']' is a member */
	for (; *p && *p != ']'; p++)
		if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
			const char *close = strchr(p + 2, p[1]);

			while (close && close[1] != ']')
				close = strchr(close + 1, p[1]);
			if (!close)
				break;
			p = close + 1;
		}
	return *p ? p : p - 1;
}

/* The copies a repetition at @p makes of its atom; *@end is set to its last character. */
static size_t plan_regex_copies(const char *p, const char **end)
{
	unsigned long lo, hi;
	char *e;

	*end = p;
	if (*p != '{')
		return *p == '?' ? 1 : 2;	/* glibc turns x+ into xx*: a second copy */
	lo = strtoul(p + 1, &e, 10);
	hi = *e == ',' && e[1] != '}' ? strtoul(e + 1, &e, 10) : lo + (*e == ',');
	if (*e == ',')
		e++;
	*end = *e == '}' ? e : p;
	return hi > lo ? (hi > PLAN_REGEX_BUDGET ? PLAN_REGEX_BUDGET + 1 : hi) :
			 (lo > PLAN_REGEX_BUDGET ? PLAN_REGEX_BUDGET + 1 : lo ? lo : 1);
}

const char *plan_regex_cost(const char *re)
{
	size_t sum[PLAN_REGEX_DEPTH + 1] = { 0 }, depth = 0, last = 0;
	bool atom = false, repeated = false;

	if (strlen(re) > PLAN_REGEX_MAX)
		return "it is longer than " PLAN_STR(PLAN_REGEX_MAX) " characters";
	for (const char *p = re; *p; p++) {
		size_t w = 1;

		if (*p == '(') {
			if (depth == PLAN_REGEX_DEPTH)
				return "its groups nest deeper than " PLAN_STR(PLAN_REGEX_DEPTH);
			sum[++depth] = 0;
			atom = repeated = false;
			continue;
		}
		if (*p == '|' || *p == '^' || *p == '$') {
			atom = repeated = false;
			continue;
		}
		if (atom && (*p == '*' || *p == '+' || *p == '?' || (*p == '{' && p[1] >= '0' && p[1] <= '9'))) {
			size_t copies = plan_regex_copies(p, &p);

			if (repeated)
				return "it repeats a repetition (as in '++'), which costs memory for nothing";
			sum[depth] += last * copies - last;	/* last <= budget and copies <= budget + 1: no overflow */
			last *= copies;
			repeated = true;
		} else {
			if (*p == '\\' && p[1] >= '1' && p[1] <= '9')
				return "back-references (\\1 to \\9) can take exponential time";
			if (*p == '\\' && p[1])
				p++;
			else if (*p == '[')
				p = plan_regex_bracket(p);
			else if (*p == ')' && depth)
				w = sum[depth--] ?: 1;
			sum[depth] += w;
			last = w;
			atom = true;
			repeated = false;
		}
		if (sum[depth] > PLAN_REGEX_BUDGET)
			return "its repetitions expand past " PLAN_STR(PLAN_REGEX_BUDGET) " elements";
	}
	return NULL;
}
