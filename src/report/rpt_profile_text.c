/* rpt_profile_text: `show --profile`'s summary: per column how it was sampled, the clearing share, the top symbols and the change from the base in points. */
#include "report/profile.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One value and its change from the base in percentage points ("" when either is missing). */
static void sp_cell(const struct cmp_set *s, const struct cmp_row *r, size_t col, char *buf, size_t len)
{
	double v = result_profile_share(s, r, col), b = result_profile_share(s, r, s->base);

	if (isnan(v))
		snprintf(buf, len, "-");
	else if (col == s->base || isnan(b))
		snprintf(buf, len, "%.1f%%", v);
	else
		snprintf(buf, len, "%.1f%% (%+.1f pp)", v, v - b);
}

static void sp_line(const struct cmp_set *s, const struct cmp_row *r, const char *label, FILE *out)
{
	char cell[64];

	fprintf(out, "  %-36.36s", label);
	for (size_t c = 0; c < s->ncols; c++) {
		sp_cell(s, r, c, cell, sizeof(cell));
		fprintf(out, "  %24s", cell);
	}
	fputc('\n', out);
}

/* What each column's clearing share bounds: a change of X% in clearing moves the result by at most share x X%. */
static void sp_bound(const struct cmp_set *s, const struct cmp_row *clearing, FILE *out)
{
	char cell[64];

	fprintf(out, "  %-36s", "bound: result moves at most");
	for (size_t c = 0; c < s->ncols; c++) {
		double v = result_profile_share(s, clearing, c);

		if (isnan(v))
			snprintf(cell, sizeof(cell), "-");
		else
			snprintf(cell, sizeof(cell), "%.2f x X%%", v / 100);
		fprintf(out, "  %24s", cell);
	}
	fputs("\n  (X: the change in the clearing routine's time)\n", out);
}

/*
 * Under a symbol whose share some column has from fewer runs than it
 * profiled (each run keeps its top five): how many, so that a mean over
 * some runs does not pass for every run's.
 */
static void sp_cover(const struct cmp_set *s, const struct result_profile *p, const struct cmp_row *r, FILE *out)
{
	bool partial = false;
	char cell[64];

	for (size_t c = 0; c < s->ncols; c++)
		partial = partial || result_profile_cover_of(p, r, c).partial;
	if (!partial)
		return;
	fprintf(out, "  %-36s", "  in runs (the others count 0)");
	for (size_t c = 0; c < s->ncols; c++) {
		struct result_profile_cover cv = result_profile_cover_of(p, r, c);

		if (cv.runs)
			snprintf(cell, sizeof(cell), "%zu of %zu", cv.runs, cv.of_runs);
		else
			snprintf(cell, sizeof(cell), "-");
		fprintf(out, "  %24s", cell);
	}
	fputc('\n', out);
}

/*
 * How each column's sessions sampled: one line of cells, then in full each
 * column whose sessions sampled differently (or some did not record it).
 */
static int sp_sampled(const struct cmp_set *s, const struct result_profile *p, const json_t *envs, FILE *out)
{
	struct result_sampling *smp = calloc(s->ncols, sizeof(*smp));
	char text[512];

	for (size_t c = 0; smp && c < s->ncols; c++)
		if (result_profile_sampling(s, p, c, envs, &smp[c])) {
			free(smp);
			smp = NULL;
		}
	if (!smp)
		return -ENOMEM;
	fprintf(out, "  %-36s", "sampled with");
	for (size_t c = 0; c < s->ncols; c++) {
		bool one = result_sampling_text(&smp[c], text, sizeof(text));

		fprintf(out, "  %24s", one ? text : "differs (below)");
	}
	fputc('\n', out);
	for (size_t c = 0; c < s->ncols; c++)
		if (!result_sampling_text(&smp[c], text, sizeof(text)))
			fprintf(out, "  (%s sampled: %s)\n", s->cols[c], text);
	free(smp);
	return 0;
}

/* One benchmark: how it was sampled, clearing and its bound, then the symbols by peak share. */
static int sp_bench(const struct cmp_set *s, const struct result_profile *p, const json_t *envs, FILE *out)
{
	fprintf(out, "%s %.*s\n  %-36s", p->bench, (int)p->namelen, p->name, "");
	for (size_t c = 0; c < s->ncols; c++)
		fprintf(out, "  %24.24s", s->cols[c]);
	fputc('\n', out);
	if (sp_sampled(s, p, envs, out))
		return -ENOMEM;
	if (p->clearing) {
		sp_line(s, p->clearing, "clearing (page-clearing functions)", out);
		sp_bound(s, p->clearing, out);
	}
	for (size_t i = 0; i < p->nsyms && i < RESULT_PROFILE_SHOWN; i++) {
		sp_line(s, p->syms[i], result_profile_symbol(p->syms[i]), out);
		sp_cover(s, p, p->syms[i], out);
	}
	return 0;
}

int rpt_profile_text(const struct cmp_set *s, const json_t *envs, FILE *out)
{
	int ret = 0;

	for (size_t b = 0; !ret && b < s->nblocks; b++) {
		struct result_profile *ps;
		size_t n;

		if (result_profiles_of(s, b, &ps, &n))
			return -ENOMEM;
		fprintf(out, "\nProfile of the timed region (percent of samples; pp: change from %s), %s:\n",
			s->cols[s->base], s->blocks[b].name);
		for (size_t i = 0; i < n && !ret; i++)
			ret = sp_bench(s, &ps[i], envs, out);
		result_profiles_free(ps, n);
	}
	return ret;
}
