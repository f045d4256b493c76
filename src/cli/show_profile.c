/* show_profile: `show --profile`'s summary: per column the clearing share, the top symbols and the change from the base in points. */
#include "cli/show.h"
#include "report/profile.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One value and its change from the base in percentage points ("" when either is missing). */
static void sp_cell(const struct cmp_set *s, const struct cmp_row *r, size_t col, char *buf, size_t len)
{
	double v = rpt_profile_share(r, col), b = rpt_profile_share(r, s->base);

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
		double v = rpt_profile_share(clearing, c);

		if (isnan(v))
			snprintf(cell, sizeof(cell), "-");
		else
			snprintf(cell, sizeof(cell), "%.2f x X%%", v / 100);
		fprintf(out, "  %24s", cell);
	}
	fputs("\n  (X: the change in the clearing routine's time)\n", out);
}

/* One benchmark: clearing and its bound, then the symbols by peak share. */
static void sp_bench(const struct cmp_set *s, const struct rpt_profile *p, FILE *out)
{
	fprintf(out, "%s %.*s\n  %-36s", p->bench, (int)p->namelen, p->name, "");
	for (size_t c = 0; c < s->ncols; c++)
		fprintf(out, "  %24.24s", s->cols[c]);
	fputc('\n', out);
	if (p->clearing) {
		sp_line(s, p->clearing, "clearing (page-clearing functions)", out);
		sp_bound(s, p->clearing, out);
	}
	for (size_t i = 0; i < p->nsyms && i < RPT_PROFILE_SHOWN; i++)
		sp_line(s, p->syms[i], rpt_profile_symbol(p->syms[i]), out);
}

int show_profile_render(const struct cmp_set *s, FILE *out)
{
	for (size_t b = 0; b < s->nblocks; b++) {
		struct rpt_profile *ps;
		size_t n;

		if (rpt_profiles_of(s, b, &ps, &n))
			return -ENOMEM;
		fprintf(out, "\nProfile of the timed region (percent of samples; pp: change from %s), %s:\n",
			s->cols[s->base], s->blocks[b].name);
		for (size_t i = 0; i < n; i++)
			sp_bench(s, &ps[i], out);
		rpt_profiles_free(ps, n);
	}
	return 0;
}
