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

static int show_columns(struct rpt_table *t, const struct cmp_set *s)
{
	char head[512];
	int ret = rpt_table_add_column(t, "Benchmark", RPT_COL_GROUP);

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

static int show_row(struct rpt_table *t, const struct cmp_set *s, const struct cmp_row *row,
		    const struct show_opts *o, struct show_notes *notes)
{
	size_t ncells = 2 + s->ncols;
	char (*text)[SHOW_CELL] = calloc(ncells, SHOW_CELL);
	const char **cells = calloc(ncells, sizeof(*cells));
	enum rpt_tone *tones = calloc(ncells, sizeof(*tones));
	int ret = -1;

	if (!text || !cells || !tones)
		goto out;
	snprintf(text[0], SHOW_CELL, "%s", row->bench);
	snprintf(text[1], SHOW_CELL, "%s (%s)", row->rclass, row->unit);
	for (size_t c = 0; c < s->ncols; c++) {
		const struct cmp_cell *cell = &row->cells[c];

		if (c == s->base)
			show_base_cell(cell, o, text[2 + c], SHOW_CELL);
		else
			show_change_cell(cell, o, text[2 + c], SHOW_CELL, &tones[2 + c]);
		if (!o->color)
			tones[2 + c] = RPT_TONE_NEUTRAL;
		if (cell->has_change && cell->change.verdict == STATS_REGRESSION)
			notes->regressions++;
		if (cell->has_change && cell->change.verdict == STATS_INSUFFICIENT)
			show_note_insufficient(notes, cell->change.why_insufficient ?: "too few samples");
	}
	for (size_t i = 0; i < ncells; i++)
		cells[i] = text[i];
	ret = rpt_table_add_row(t, cells, ncells, tones);
out:
	free(text);
	free(cells);
	free(tones);
	return ret;
}

/* Geometric mean per column of the base-to-column ratios, oriented so that + is better. */
static int show_geomean_row(struct rpt_table *t, const struct cmp_set *s, const struct cmp_block *blk)
{
	size_t ncells = 2 + s->ncols;
	char (*text)[SHOW_CELL] = calloc(ncells, SHOW_CELL);
	const char **cells = calloc(ncells, sizeof(*cells));
	double *ratios = calloc(blk->nrows ? blk->nrows : 1, sizeof(double));
	int ret = -1;

	if (!text || !cells || !ratios)
		goto out;
	snprintf(text[1], SHOW_CELL, "geometric mean of ratios (+ is better)");
	for (size_t c = 0; c < s->ncols; c++) {
		size_t n = 0;

		for (size_t r = 0; c != s->base && r < blk->nrows; r++) {
			const struct cmp_row *row = &blk->rows[r];
			double q;

			if (!row->cells[c].n || !row->cells[s->base].n)
				continue;
			q = stats_ratio_better(row->cells[s->base].st.mean, row->cells[c].st.mean,
					       row->higher_is_better);
			if (isfinite(q))
				ratios[n++] = q;
		}
		if (n)
			snprintf(text[2 + c], SHOW_CELL, "%+.2f%%", 100.0 * (stats_geomean(ratios, n) - 1));
	}
	for (size_t i = 0; i < ncells; i++)
		cells[i] = text[i];
	ret = rpt_table_add_row(t, cells, ncells, NULL);
out:
	free(text);
	free(cells);
	free(ratios);
	return ret;
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

static int show_block(const struct cmp_set *s, const struct cmp_block *blk, const struct show_opts *o,
		      FILE *out, int *regressions)
{
	struct show_notes notes = { 0 };
	char title[600];
	struct rpt_table *t;
	struct rpt_opts ro = { .color = o->color };
	int ret;

	if (s->axis == CMP_BY_SUT)
		snprintf(title, sizeof(title), "Results for swprofile %s:", blk->name);
	else
		snprintf(title, sizeof(title), "Results for SUT Class %s:", blk->name);
	t = rpt_table_new(title);
	if (!t)
		return EXIT_INTERNAL;
	ret = show_columns(t, s);
	for (size_t r = 0; !ret && r < blk->nrows; r++)
		ret = show_row(t, s, &blk->rows[r], o, &notes);
	if (!ret && s->ncols > 1)
		ret = show_geomean_row(t, s, blk);
	if (!ret) {
		json_t *diffs = show_env_diffs(s, blk, o->envs);

		show_legend(t, o, &notes);
		show_env_footers(diffs, t);
		json_decref(diffs);
		ret = rpt_render(t, o->format, &ro, out);
	}
	rpt_table_free(t);
	*regressions += notes.regressions;
	if (ret) {
		log_err("cannot render the table: %s", ret == -EIO ? "write error" : "internal error");
		return ret == -EIO ? EXIT_RESOURCE : EXIT_INTERNAL;
	}
	return 0;
}

int show_tables(const struct cmp_set *s, const struct show_opts *o, FILE *out, int *regressions)
{
	*regressions = 0;
	for (size_t b = 0; b < s->nblocks; b++) {
		int ret;

		if (b)
			fputc('\n', out);
		ret = show_block(s, &s->blocks[b], o, out, regressions);
		if (ret)
			return ret;
	}
	return 0;
}
