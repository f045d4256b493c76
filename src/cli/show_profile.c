/* show_profile: `show --profile`'s summary: per column the clearing share, the top symbols and the change from the base in points. */
#include "cli/show.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PROFILE_MARK " :profile:"
/* Symbols listed per benchmark: the union of each column's stored top five, the largest this many. */
#define SP_MAX_SYMS 64
#define SP_SHOWN_SYMS 10

bool show_profile_class(const char *rclass)
{
	return strstr(rclass, PROFILE_MARK) != NULL;
}

/* The benchmark part of a profile class ("mmap -s 1GB" of "mmap -s 1GB :profile:x"), its length. */
static size_t sp_bench_len(const char *rclass)
{
	const char *m = strstr(rclass, PROFILE_MARK);

	return m ? (size_t)(m - rclass) : strlen(rclass);
}

static const char *sp_symbol(const struct cmp_row *r)
{
	return r->rclass + sp_bench_len(r->rclass) + strlen(PROFILE_MARK);
}

static double sp_mean(const struct cmp_row *r, size_t col)
{
	return r->cells[col].n ? r->cells[col].st.mean : NAN;
}

/* One value and its change from the base in percentage points ("" when either is missing). */
static void sp_cell(const struct cmp_set *s, const struct cmp_row *r, size_t col, char *buf, size_t len)
{
	double v = sp_mean(r, col), b = sp_mean(r, s->base);

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
		double v = sp_mean(clearing, c);

		if (isnan(v))
			snprintf(cell, sizeof(cell), "-");
		else
			snprintf(cell, sizeof(cell), "%.2f x X%%", v / 100);
		fprintf(out, "  %24s", cell);
	}
	fputs("\n  (X: the change in the clearing routine's time)\n", out);
}

/* The largest share any column has for @r: symbols are listed by it. */
static double sp_peak(const struct cmp_set *s, const struct cmp_row *r)
{
	double peak = -1;

	for (size_t c = 0; c < s->ncols; c++)
		if (!isnan(sp_mean(r, c)) && sp_mean(r, c) > peak)
			peak = sp_mean(r, c);
	return peak;
}

static const struct cmp_set *sp_sort_set;

static int sp_by_peak(const void *a, const void *b)
{
	double x = sp_peak(sp_sort_set, *(const struct cmp_row *const *)a);
	double y = sp_peak(sp_sort_set, *(const struct cmp_row *const *)b);

	return x > y ? -1 : x < y;
}

/* The rows of block @blk's benchmark starting at row @first: clearing, then the symbols by peak share. */
static void sp_bench(const struct cmp_set *s, const struct cmp_block *blk, size_t first, FILE *out)
{
	const char *name = blk->rows[first].rclass;
	size_t blen = sp_bench_len(name), nsyms = 0;
	const struct cmp_row *clearing = NULL, *syms[SP_MAX_SYMS];

	for (size_t i = first; i < blk->nrows; i++) {
		const struct cmp_row *r = &blk->rows[i];

		if (!show_profile_class(r->rclass) || sp_bench_len(r->rclass) != blen ||
		    strncmp(r->rclass, name, blen))
			continue;
		if (!strcmp(sp_symbol(r), "clearing"))
			clearing = r;
		else if (nsyms < SP_MAX_SYMS)
			syms[nsyms++] = r;
	}
	sp_sort_set = s;
	qsort(syms, nsyms, sizeof(*syms), sp_by_peak);
	fprintf(out, "%s %.*s\n  %-36s", blk->rows[first].bench, (int)blen, name, "");
	for (size_t c = 0; c < s->ncols; c++)
		fprintf(out, "  %24.24s", s->cols[c]);
	fputc('\n', out);
	if (clearing) {
		sp_line(s, clearing, "clearing (page-clearing functions)", out);
		sp_bound(s, clearing, out);
	}
	for (size_t i = 0; i < nsyms && i < SP_SHOWN_SYMS; i++)
		sp_line(s, syms[i], sp_symbol(syms[i]), out);
}

/* Whether an earlier row of @blk already started the benchmark of row @i. */
static bool sp_seen(const struct cmp_block *blk, size_t i)
{
	size_t len = sp_bench_len(blk->rows[i].rclass);

	for (size_t j = 0; j < i; j++)
		if (show_profile_class(blk->rows[j].rclass) && sp_bench_len(blk->rows[j].rclass) == len &&
		    !strncmp(blk->rows[j].rclass, blk->rows[i].rclass, len) &&
		    !strcmp(blk->rows[j].bench, blk->rows[i].bench))
			return true;
	return false;
}

void show_profile_render(const struct cmp_set *s, FILE *out)
{
	for (size_t b = 0; b < s->nblocks; b++) {
		const struct cmp_block *blk = &s->blocks[b];

		fprintf(out, "\nProfile of the timed region (percent of samples; pp: change from %s), %s:\n",
			s->cols[s->base], blk->name);
		for (size_t i = 0; i < blk->nrows; i++)
			if (show_profile_class(blk->rows[i].rclass) && !sp_seen(blk, i))
				sp_bench(s, blk, i, out);
	}
}
