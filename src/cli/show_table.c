/* show_table: one report table per block: base means, % changes with (I)/(R), a geomean row and a legend. */
#include "cli/show.h"
#include "util/log.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHOW_CELL 160

const char *show_axis_name(enum cmp_axis axis)
{
	return axis == CMP_BY_SUT ? "sut" : axis == CMP_BY_PARAM ? "value" : "swprofile";
}

/* The interval the active rule uses for a cell's mean. */
static const struct stats_estimate *show_estimate(const struct cmp_cell *c, enum stats_rule rule)
{
	return rule == STATS_RULE_FASTPATH ? &c->st.pooled : &c->st.nested;
}

static void show_base_cell(const struct cmp_cell *c, const struct show_opts *o, char *buf, size_t len)
{
	const struct stats_estimate *e = show_estimate(c, o->cmp->rule);

	if (!c->n) {
		buf[0] = '\0';
		return;
	}
	if (!o->stats) {
		snprintf(buf, len, "%.2f", c->st.mean);
		return;
	}
	if (isfinite(e->ci_low) && c->st.mean != 0)
		snprintf(buf, len, "%.2f ±%.2f%% n=%zu/%zu cv=%.2f%%", c->st.mean,
			 100.0 * (e->ci_high - e->ci_low) / 2 / fabs(c->st.mean), c->st.n, c->st.sessions,
			 100.0 * c->st.cv);
	else
		snprintf(buf, len, "%.2f n=%zu/%zu", c->st.mean, c->st.n, c->st.sessions);
}

static const char *show_marker(enum stats_verdict v)
{
	return v == STATS_IMPROVEMENT ? "(I) " : v == STATS_REGRESSION ? "(R) " : "";
}

static void show_change_cell(const struct cmp_cell *c, const struct show_opts *o, char *buf, size_t len,
			     enum rpt_tone *tone)
{
	const struct stats_change *ch = &c->change;
	int used;

	*tone = RPT_TONE_NEUTRAL;
	if (!c->n || !c->has_change) {
		/* present without a base value to compare with: show the mean itself */
		if (c->n)
			snprintf(buf, len, "%.2f", c->st.mean);
		else
			buf[0] = '\0';
		return;
	}
	if (ch->verdict == STATS_IMPROVEMENT)
		*tone = RPT_TONE_IMPROVED;
	else if (ch->verdict == STATS_REGRESSION)
		*tone = RPT_TONE_REGRESSED;
	used = snprintf(buf, len, "%s%+.2f%%", show_marker(ch->verdict), ch->pct);
	if (o->stats && used > 0 && (size_t)used < len) {
		if (isfinite(ch->ci_low) && isfinite(ch->ci_high))
			snprintf(buf + used, len - (size_t)used, " [%+.2f, %+.2f] n=%zu/%zu cv=%.2f%%",
				 ch->ci_low, ch->ci_high, c->st.n, c->st.sessions, 100.0 * c->st.cv);
		else
			snprintf(buf + used, len - (size_t)used, " n=%zu/%zu", c->st.n, c->st.sessions);
	}
}

/*
 * CSV has no title line, so a leading column names the block on every row;
 * the other formats print "Results for SUT Class <name>:" above the table.
 */
static bool show_block_column(const struct show_opts *o)
{
	return !strcmp(o->format, "csv");
}

static int show_columns(struct rpt_table *t, const struct cmp_set *s, const struct show_opts *o)
{
	char head[512];
	int ret = show_block_column(o) ? rpt_table_add_column(t, s->axis == CMP_BY_SUT ? "swprofile" : "SUT Class", 0)
				       : 0;

	if (!ret)
		ret = rpt_table_add_column(t, "Benchmark", RPT_COL_GROUP);

	if (!ret)
		ret = rpt_table_add_column(t, "Result Class", 0);
	for (size_t c = 0; !ret && c < s->ncols; c++) {
		if (c == s->base)
			snprintf(head, sizeof(head), "%s (base)", s->cols[c]);
		else
			snprintf(head, sizeof(head), "%s", s->cols[c]);
		ret = rpt_table_add_column(t, head, RPT_COL_RIGHT);
	}
	return ret;
}

/* Collects what the legend must explain while rows are added. */
struct show_notes {
	int regressions;
	int insufficient;
	char why[4][128];	/* distinct reasons, first few */
	size_t nwhy;
};

static void show_note_insufficient(struct show_notes *n, const char *why)
{
	n->insufficient++;
	for (size_t i = 0; i < n->nwhy; i++)
		if (!strcmp(n->why[i], why))
			return;
	if (n->nwhy < 4)
		snprintf(n->why[n->nwhy++], sizeof(n->why[0]), "%s", why);
}

/* A row being built: [block name,] Benchmark, Result Class, then one cell per column. */
struct show_line {
	size_t n, first;	/* first: 1 when the block name leads (csv), else 0 */
	char (*text)[SHOW_CELL];
	enum rpt_tone *tones;
};

static int show_line_new(struct show_line *l, const struct cmp_set *s, const struct show_opts *o,
			 const struct cmp_block *blk)
{
	l->first = show_block_column(o);
	l->n = l->first + 2 + s->ncols;
	l->text = calloc(l->n, SHOW_CELL);
	l->tones = calloc(l->n, sizeof(*l->tones));
	if (!l->text || !l->tones) {
		free(l->text);
		free(l->tones);
		return -1;
	}
	if (l->first)
		snprintf(l->text[0], SHOW_CELL, "%s", blk->name);
	return 0;
}

/* Cell @i after the block name: 0 Benchmark, 1 Result Class, 2 + c column c. */
static char *show_cell(struct show_line *l, size_t i)
{
	return l->text[l->first + i];
}

/* Add the row to @t and free it.  0 or -1. */
static int show_line_add(struct show_line *l, struct rpt_table *t)
{
	const char **cells = calloc(l->n, sizeof(*cells));
	int ret = -1;

	for (size_t i = 0; cells && i < l->n; i++)
		cells[i] = l->text[i];
	if (cells)
		ret = rpt_table_add_row(t, cells, l->n, l->tones);
	free(cells);
	free(l->text);
	free(l->tones);
	return ret;
}

static int show_row(struct rpt_table *t, const struct cmp_set *s, const struct cmp_block *blk,
		    const struct cmp_row *row, const struct show_opts *o, struct show_notes *notes)
{
	struct show_line l;

	if (show_line_new(&l, s, o, blk))
		return -1;
	snprintf(show_cell(&l, 0), SHOW_CELL, "%s", row->bench);
	snprintf(show_cell(&l, 1), SHOW_CELL, "%s (%s)", row->rclass, row->unit);
	for (size_t c = 0; c < s->ncols; c++) {
		const struct cmp_cell *cell = &row->cells[c];
		enum rpt_tone *tone = &l.tones[l.first + 2 + c];

		if (c == s->base)
			show_base_cell(cell, o, show_cell(&l, 2 + c), SHOW_CELL);
		else
			show_change_cell(cell, o, show_cell(&l, 2 + c), SHOW_CELL, tone);
		if (!o->color)
			*tone = RPT_TONE_NEUTRAL;
		if (cell->has_change && cell->change.verdict == STATS_REGRESSION)
			notes->regressions++;
		if (cell->has_change && cell->change.verdict == STATS_INSUFFICIENT)
			show_note_insufficient(notes, cell->change.why_insufficient ?: "too few samples");
	}
	return show_line_add(&l, t);
}

/* The geometric mean of the base-to-column ratios of one column, oriented so that + is better. */
static bool show_geomean(const struct cmp_set *s, const struct cmp_block *blk, size_t c, double *ratios,
			 double *out)
{
	size_t n = 0;

	for (size_t r = 0; r < blk->nrows; r++) {
		const struct cmp_row *row = &blk->rows[r];
		double q;

		if (!row->cells[c].n || !row->cells[s->base].n)
			continue;
		q = stats_ratio_better(row->cells[s->base].st.mean, row->cells[c].st.mean,
				       row->higher_is_better);
		if (isfinite(q))
			ratios[n++] = q;
	}
	*out = n ? stats_geomean(ratios, n) : NAN;
	return n > 0;
}

static int show_geomean_row(struct rpt_table *t, const struct cmp_set *s, const struct cmp_block *blk,
			    const struct show_opts *o)
{
	double *ratios = calloc(blk->nrows ? blk->nrows : 1, sizeof(double)), g;
	struct show_line l;

	if (!ratios || show_line_new(&l, s, o, blk)) {
		free(ratios);
		return -1;
	}
	snprintf(show_cell(&l, 1), SHOW_CELL, "geometric mean of ratios (+ is better)");
	for (size_t c = 0; c < s->ncols; c++)
		if (c != s->base && show_geomean(s, blk, c, ratios, &g))
			snprintf(show_cell(&l, 2 + c), SHOW_CELL, "%+.2f%%", 100.0 * (g - 1));
	free(ratios);
	return show_line_add(&l, t);
}

static void show_legend(struct rpt_table *t, const struct show_opts *o, const struct show_notes *n)
{
	/* %.10g, not %.0f: --alpha 0.001 is a 99.9% interval, not a "100%" one */
	double level = 100 * (1 - o->cmp->alpha);
	char line[512];

	if (o->cmp->rule == STATS_RULE_FASTPATH)
		snprintf(line, sizeof(line),
			 "(I) improvement, (R) regression: the columns' %.10g%% confidence intervals do not overlap"
			 " and |change| >= %.2f%% (fastpath rule: samples pooled, sessions ignored).",
			 level, o->cmp->min_effect_pct);
	else
		snprintf(line, sizeof(line),
			 "(I) improvement, (R) regression: the %.10g%% confidence interval of the change excludes 0"
			 " and |change| >= %.2f%%; sessions are the unit of replication.",
			 level, o->cmp->min_effect_pct);
	rpt_table_add_footer(t, line);
	if (o->stats)
		rpt_table_add_footer(t, "Cells: base mean ±CI half-width, or change [CI of the change, %]; "
					"n=samples/sessions; cv=coefficient of variation.");
	for (size_t i = 0; i < n->nwhy; i++) {
		snprintf(line, sizeof(line), "No marker where there is too little data for a verdict: %s.",
			 n->why[i]);
		rpt_table_add_footer(t, line);
	}
}

/* The rows of block @blk, its geomean row and its footers, into @t. */
static int show_block_rows(struct rpt_table *t, const struct cmp_set *s, const struct cmp_block *blk,
			   const struct show_opts *o, int *regressions)
{
	struct show_notes notes = { 0 };
	int ret = 0;

	for (size_t r = 0; !ret && r < blk->nrows; r++)
		ret = show_row(t, s, blk, &blk->rows[r], o, &notes);
	if (!ret && s->ncols > 1)
		ret = show_geomean_row(t, s, blk, o);
	if (!ret) {
		json_t *diffs = show_env_diffs(s, blk, o->envs);

		show_legend(t, o, &notes);
		show_env_footers(diffs, t);
		json_decref(diffs);
	}
	*regressions += notes.regressions;
	return ret;
}

static int show_render(struct rpt_table *t, const struct show_opts *o, FILE *out)
{
	struct rpt_opts ro = { .color = o->color };
	int ret = rpt_render(t, o->format, &ro, out);

	if (ret)
		log_err("cannot render the table: %s", ret == -EIO ? "write error" : "internal error");
	return !ret ? 0 : ret == -EIO ? EXIT_RESOURCE : EXIT_INTERNAL;
}

/* One table per block, titled with the SUT class (or swprofile), blank lines between. */
static int show_blocks(const struct cmp_set *s, const struct show_opts *o, FILE *out, int *regressions)
{
	for (size_t b = 0; b < s->nblocks; b++) {
		const struct cmp_block *blk = &s->blocks[b];
		char title[600];
		struct rpt_table *t;
		int ret;

		snprintf(title, sizeof(title), "Results for %s %s:",
			 s->axis == CMP_BY_SUT ? "swprofile" : "SUT Class", blk->name);
		t = rpt_table_new(title);
		if (!t)
			return EXIT_INTERNAL;
		if (b)
			fputc('\n', out);
		ret = show_columns(t, s, o) || show_block_rows(t, s, blk, o, regressions) ? EXIT_INTERNAL
											: show_render(t, o, out);
		rpt_table_free(t);
		if (ret)
			return ret;
	}
	return 0;
}

/* CSV: one table, every row naming its block, so the file loads as one sheet. */
static int show_one_table(const struct cmp_set *s, const struct show_opts *o, FILE *out, int *regressions)
{
	struct rpt_table *t = rpt_table_new(NULL);
	int ret = t ? show_columns(t, s, o) : -1;

	for (size_t b = 0; !ret && b < s->nblocks; b++)
		ret = show_block_rows(t, s, &s->blocks[b], o, regressions);
	ret = ret ? EXIT_INTERNAL : show_render(t, o, out);
	rpt_table_free(t);
	return ret;
}

int show_tables(const struct cmp_set *s, const struct show_opts *o, FILE *out, int *regressions)
{
	*regressions = 0;
	return show_block_column(o) ? show_one_table(s, o, out, regressions)
				    : show_blocks(s, o, out, regressions);
}
