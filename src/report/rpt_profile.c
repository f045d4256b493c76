/* rpt_profile: the report's profile sections (clearing share, its bound, top symbols per column, a bar plot) and their plots as files. */
#define _GNU_SOURCE	/* asprintf */
#include "report/html.h"
#include "report/profile.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RPT_CLEARING_LABEL "clearing (page-clearing functions)"

/* The rows drawn for one benchmark's profile: clearing, then the symbols shown. */
struct rpt_profile_fig {
	struct plot_bars bars;
	struct plot_bar_row *rows;
	double *v;		/* value, lo, hi: 3 x nrows x ncols */
	char **labels;
	char *title;		/* the benchmark: "mem mmap -p 4KB -f demand -s 16MB" */
};

/* The rows of @p that are drawn and listed: clearing (when stored) and the largest symbols. */
static size_t rpt_profile_nrows(const struct result_profile *p)
{
	return (p->clearing ? 1 : 0) + (p->nsyms < RESULT_PROFILE_SHOWN ? p->nsyms : RESULT_PROFILE_SHOWN);
}

static const struct cmp_row *rpt_profile_row(const struct result_profile *p, size_t i)
{
	return p->clearing ? (i ? p->syms[i - 1] : p->clearing) : p->syms[i];
}

static void rpt_profile_fig_free(struct rpt_profile_fig *f)
{
	for (size_t i = 0; f->labels && i < f->bars.nrows; i++)
		free(f->labels[i]);
	free(f->labels);
	free(f->rows);
	free(f->v);
	free(f->title);
	memset(f, 0, sizeof(*f));
}

/* Row @i of @f from profile row @r: its label, each column's share and range across sessions. */
static int rpt_profile_fig_row(const struct cmp_set *s, const struct cmp_row *r, size_t i, struct rpt_profile_fig *f)
{
	size_t n = f->bars.nrows * s->ncols;
	double *v = f->v + i * s->ncols, *lo = v + n, *hi = lo + n;
	const char *sym = result_profile_symbol(r);
	bool clearing = !strcmp(sym, "clearing");

	if (asprintf(&f->labels[i], "%s%s", clearing ? RPT_CLEARING_LABEL : sym,
		     !clearing && result_profile_clearing_symbol(sym) ? " (in clearing)" : "") < 0) {
		f->labels[i] = NULL;
		return -ENOMEM;
	}
	for (size_t c = 0; c < s->ncols; c++) {
		/* the sessions' levels count a run without the symbol 0, as the share does */
		struct result_spread sp = result_spread_of(&r->cells[c]);

		v[c] = result_profile_share(s, r, c);
		lo[c] = sp.sessions > 1 ? sp.lo : NAN;
		hi[c] = sp.sessions > 1 ? sp.hi : NAN;
	}
	f->rows[i] = (struct plot_bar_row){ f->labels[i], clearing, v, lo, hi };
	return 0;
}

/* The bar figure of @p.  0 or -ENOMEM (then @f is freed). */
static int rpt_profile_fig_build(const struct cmp_set *s, const struct result_profile *p, struct rpt_profile_fig *f)
{
	size_t nrows = rpt_profile_nrows(p);
	int ret = 0;

	memset(f, 0, sizeof(*f));
	f->rows = calloc(nrows, sizeof(*f->rows));
	f->labels = calloc(nrows, sizeof(*f->labels));
	f->v = calloc(3 * nrows * s->ncols, sizeof(*f->v));
	if (!f->rows || !f->labels || !f->v ||
	    asprintf(&f->title, "%s %.*s", p->bench, (int)p->namelen, p->name) < 0) {
		f->title = NULL;
		ret = -ENOMEM;
	}
	f->bars.nrows = nrows;
	for (size_t i = 0; !ret && i < nrows; i++)
		ret = rpt_profile_fig_row(s, rpt_profile_row(p, i), i, f);
	if (ret) {
		rpt_profile_fig_free(f);
		return ret;
	}
	f->bars = (struct plot_bars){ f->title, "% of samples", (const char *const *)s->cols, s->ncols, f->rows,
				      nrows };
	return 0;
}

static int rpt_profile_draw(const void *fig, enum plot_kind kind, FILE *out)
{
	return plot_bars_write(fig, kind, out);
}

/*
 * One cell: the share and its change from the base in points, as show
 * --profile prints them, and the sessions' range.  A symbol is stored only
 * for the runs that had it among their top five: where they are fewer than
 * the column's profiled runs (result_profile_cover_of), its share is over
 * all of them with the others counted 0 (result_profile_share), as are the
 * sessions' range, and the cell says in how many it was measured.
 */
static void rpt_profile_cell(const struct cmp_set *s, const struct result_profile *p, const struct cmp_row *r, size_t c,
			     FILE *out)
{
	double v = result_profile_share(s, r, c), b = result_profile_share(s, r, s->base);
	struct result_profile_cover cv = result_profile_cover_of(p, r, c);
	struct result_spread sp;

	if (isnan(v)) {
		fputs("<td class=\"none\">-</td>", out);
		return;
	}
	fprintf(out, "<td class=\"num\" data-share=\"%.17g\">%.1f%%", v, v);
	if (c != s->base && !isnan(b))
		fprintf(out, " (%+.1f pp)", v - b);
	sp = result_spread_of(&r->cells[c]);
	if (sp.sessions > 1)
		fprintf(out, "<span class=\"spread\">sessions %.1f&ndash;%.1f%% (%d)</span>", sp.lo, sp.hi, sp.sessions);
	else if (sp.sessions == 1)
		fputs("<span class=\"spread\">1 session</span>", out);
	if (cv.partial)
		fprintf(out, "<span class=\"runs\">in %zu of %zu runs</span>", cv.runs, cv.of_runs);
	fputs("</td>", out);
}

/* How each column's sessions sampled (event and frequency), or that they did not record it. */
static int rpt_profile_sampled(const struct cmp_set *s, const struct result_profile *p, const json_t *envs, FILE *out)
{
	fputs("<p class=\"sampled\">Sampled with", out);
	for (size_t c = 0; c < s->ncols; c++) {
		struct result_sampling smp;
		char text[512];

		if (result_profile_sampling(s, p, c, envs, &smp))
			return -ENOMEM;
		result_sampling_text(&smp, text, sizeof(text));
		fputs(c ? "; <b>" : " <b>", out);
		rpt_html_escape(s->cols[c], out);
		fputs("</b>: ", out);
		rpt_html_escape(text, out);
	}
	fputs(".</p>\n", out);
	return 0;
}

/* The bound each column's clearing share sets, in words. */
static void rpt_profile_bounds(const struct cmp_set *s, const struct cmp_row *clearing, FILE *out)
{
	fputs("<ul class=\"bound\">\n", out);
	for (size_t c = 0; c < s->ncols; c++) {
		double v = result_profile_share(s, clearing, c);

		fputs("<li><b>", out);
		rpt_html_escape(s->cols[c], out);
		if (isnan(v)) {
			fputs("</b>: no profile</li>\n", out);
			continue;
		}
		fprintf(out, "</b>: clearing is %.1f%% of the samples, so a change of X%% in the clearing routine moves"
			" this result by at most <span class=\"bound\">%.2f &times; X%%</span> (a clearing routine 10%%"
			" faster: at most %.2f%%).</li>\n", v, v / 100, v / 10);
	}
	fputs("</ul>\n", out);
}

static void rpt_profile_table(const struct cmp_set *s, const struct rpt_profile_fig *f,
			      const struct result_profile *p, FILE *out)
{
	fputs("<table class=\"profile\">\n<thead><tr><th>symbol</th>", out);
	for (size_t c = 0; c < s->ncols; c++) {
		fprintf(out, "<th><span class=\"swatch\" style=\"background:%s\"></span> ", plot_session_color(c));
		rpt_html_escape(s->cols[c], out);
		fputs(c == s->base ? " (base)</th>" : "</th>", out);
	}
	fputs("</tr></thead>\n<tbody>\n", out);
	for (size_t i = 0; i < f->bars.nrows; i++) {
		const struct cmp_row *r = rpt_profile_row(p, i);

		fprintf(out, "<tr%s data-symbol=\"", f->rows[i].emphasis ? " class=\"clearing\"" : "");
		rpt_html_escape(result_profile_symbol(r), out);
		fputs("\"><td>", out);
		rpt_html_escape(f->labels[i], out);
		fputs("</td>", out);
		for (size_t c = 0; c < s->ncols; c++)
			rpt_profile_cell(s, p, r, c, out);
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
}

/* Benchmark @p, the @i-th profile of block @block, as a section with an anchor ("profile-aws-m7g-metal-1"). */
static int rpt_profile_section(const struct cmp_set *s, const char *block, size_t i, const struct result_profile *p,
			       const json_t *envs, FILE *out)
{
	struct rpt_profile_fig f;
	char slug[64];
	int ret = rpt_profile_fig_build(s, p, &f);

	if (ret)
		return ret;
	rpt_slug(block, slug, sizeof(slug));
	fprintf(out, "<section class=\"profile\" id=\"profile-%s-%zu\" data-benchmark=\"", slug, i + 1);
	rpt_html_escape(f.title, out);
	fputs("\">\n<h3>Where the time goes: ", out);
	rpt_html_escape(f.title, out);
	fputs("</h3>\n<p class=\"how\">--profile sampled the timed region: the percent of its samples in each"
	      " symbol, each column's mean over its profiled runs, the range of the sessions' means under it"
	      " (the whisker in the plot); pp: the change from the base column in percentage points. The"
	      " clearing category groups the kernel's page-clearing functions (clear_page_erms, clear_page,"
	      " folio_zero_user, ...). A run stores its top five symbols: a symbol's share is its mean over the runs"
	      " that had it there; where those were not all of the column's runs its share is over all of them, the others counted 0, and the cell says so.</p>\n", out);
	ret = rpt_profile_sampled(s, p, envs, out);
	if (!ret && p->clearing)
		rpt_profile_bounds(s, p->clearing, out);
	if (!ret)
		rpt_profile_table(s, &f, p, out);
	if (!ret)
		ret = rpt_html_plot("plot profile", "profile", f.title, rpt_profile_draw, &f.bars, out);
	fputs("</section>\n", out);
	rpt_profile_fig_free(&f);
	return ret;
}

/* The index of block @name in @s, or s->nblocks. */
static size_t rpt_profile_block(const struct cmp_set *s, const char *name)
{
	size_t b = 0;

	while (b < s->nblocks && strcmp(s->blocks[b].name, name))
		b++;
	return b;
}

int rpt_profile_html(const struct cmp_set *prof, const char *name, const json_t *envs, FILE *out)
{
	struct result_profile *ps = NULL;
	size_t b, n = 0;
	int ret;

	if (!prof || (b = rpt_profile_block(prof, name)) == prof->nblocks)
		return 0;
	if ((ret = result_profiles_of(prof, b, &ps, &n)))
		return ret;
	for (size_t i = 0; !ret && i < n; i++)
		ret = rpt_profile_section(prof, name, i, &ps[i], envs, out);
	result_profiles_free(ps, n);
	return ret;
}

/* Block @b's profile plots as files, named after the page's block @pb. */
static int rpt_profile_block_files(const struct cmp_set *prof, size_t b, size_t pb, enum plot_kind kind,
				   const char *dir, FILE *names)
{
	struct result_profile *ps = NULL;
	size_t n = 0;
	int ret = result_profiles_of(prof, b, &ps, &n);

	for (size_t i = 0; !ret && i < n; i++) {
		char block[64], bench[96], name[200];
		struct rpt_profile_fig f;

		if ((ret = rpt_profile_fig_build(prof, &ps[i], &f)))
			break;
		rpt_slug(prof->blocks[b].name, block, sizeof(block));
		/* the result class's part, as the other plots are named: "mmap-p-4kb-..." */
		rpt_slug(f.title + strlen(ps[i].bench), bench, sizeof(bench));
		snprintf(name, sizeof(name), "%zu-%s-profile-%zu-%s", pb + 1, block, i + 1, bench);
		ret = rpt_plot_file(dir, name, kind, rpt_profile_draw, &f.bars, names);
		rpt_profile_fig_free(&f);
	}
	result_profiles_free(ps, n);
	return ret;
}

int rpt_profile_plots_write(const struct cmp_set *page, const struct cmp_set *prof, enum plot_kind kind,
			    const char *dir, FILE *names)
{
	int ret = plot_available() ? 0 : -ENOTSUP;

	for (size_t b = 0; !ret && prof && b < prof->nblocks; b++) {
		size_t pb = rpt_profile_block(page, prof->blocks[b].name);

		/* a block the page does not have (no ordinary result there) is numbered after the page's */
		ret = rpt_profile_block_files(prof, b, pb, kind, dir, names);
	}
	return ret;
}
