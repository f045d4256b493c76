/* rpt_result: a view of the result laid out as tables for the text formats (base levels, % changes, geomean row, notes), and the dispatch by format. */
#define _GNU_SOURCE	/* asprintf */
#include "report/header.h"
#include "report/impl.h"
#include "util/units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHOW_CELL 512

void rpt_pct(double v, bool sign, char *buf, size_t len)
{
	int d = 2;
	char *dot, *end;

	if (!isfinite(v) || fabs(v) >= 1e4) {
		if (sign)
			snprintf(buf, len, "%+.2e", v);
		else
			snprintf(buf, len, "%.2e", v);
		return;
	}
	/*
	 * Enough decimals that 1 + v / 100, what a reader multiplies the base
	 * by, is off by at most 0.025%: two, and more only near -100% (-96.97%
	 * is a ratio of 0.0303, so it prints -96.971)
	 */
	while (d < 12 && 0.5 * pow(10, -d) > 2.5e-4 * fabs(100 + v))
		d++;
	if (sign)
		snprintf(buf, len, "%+.*f", d, v);
	else
		snprintf(buf, len, "%.*f", d, v);
	/* the decimals past two that say nothing ("-100.000000000000" of -100 is -100.00) */
	if ((dot = strchr(buf, '.'))) {
		for (end = buf + strlen(buf); end > dot + 3 && end[-1] == '0'; end--)
			end[-1] = '\0';
	}
	/* -99.99999 is not -100.00: the value fell a hundred-thousandfold, it did not vanish */
	for (d = 3; v > -100 && d <= 12 && strtod(buf, NULL) == -100; d++)
		snprintf(buf, len, "%.*f", d, v);
}

void rpt_level_label(double alpha, char *buf, size_t len)
{
	/* %.10g, not %.0f: --alpha 0.001 is a 99.9% interval, not a "100%" one */
	snprintf(buf, len, "%.10g", 100 * (1 - alpha));
}

void rpt_level_key(double alpha, const char *prefix, const char *what, char *buf, size_t len)
{
	char level[32];

	rpt_level_label(alpha, level, sizeof(level));
	for (char *p = level; *p; p++)
		if (*p == '.')
			*p = '_';
	snprintf(buf, len, "%sci%s_%s", prefix, level, what);
}

/* What the table layout needs besides the view: the format and the rendering options. */
struct show_opts {
	const struct rpt_format *format;
	const struct rpt_opts *ro;
};

/* A level as the options ask: raw ("63932542232.12") or human ("59.54 GB/sec"). */
static void show_level(double v, const char *unit, const struct show_opts *o, char *buf, size_t len)
{
	char whole[400];	/* "%.2f" of -DBL_MAX is 313 characters */

	if (o->ro->human)
		units_human(v, unit, whole, sizeof(whole));
	else
		snprintf(whole, sizeof(whole), "%.2f", v);
	/*
	 * too long for the cell (an imported 1e300), or rounded to nothing (1e-300 is
	 * not 0.00): the exponent form, never a number cut short or lost
	 */
	if (strlen(whole) < len && (v == 0 || strtod(whole, NULL) != 0))
		memcpy(buf, whole, strlen(whole) + 1);
	else
		snprintf(buf, len, "%.6e", v);
}

/* " o=N" when samples of the cell are flagged as outliers, else "". */
static void show_outliers(const struct result_cell *c, char *buf, size_t len)
{
	buf[0] = '\0';
	if (c->outliers)
		snprintf(buf, len, " o=%zu", c->outliers);
}

/* The base's cell (or one with nothing to compare with): its level, under --stats its interval and counts. */
static void show_level_cell(const struct result_cell *c, const char *unit, const struct show_opts *o, char *buf,
			    size_t len)
{
	char out[32], level[64], hw[32], cv[32];

	show_level(c->level, unit, o, level, sizeof(level));
	if (!o->ro->stats) {
		snprintf(buf, len, "%s", level);
		return;
	}
	show_outliers(c, out, sizeof(out));
	rpt_pct(100.0 * c->cv, false, cv, sizeof(cv));
	if (isfinite(c->halfwidth_pct)) {
		rpt_pct(c->halfwidth_pct, false, hw, sizeof(hw));
		snprintf(buf, len, "%s ±%s%% n=%zu/%zu cv=%s%%%s", level, hw, c->n, c->sessions, cv, out);
	} else
		snprintf(buf, len, "%s n=%zu/%zu%s", level, c->n, c->sessions, out);
}

/* " mde=X% need=N" for an undecided cell, what more data would decide it; "" otherwise. */
static void show_plan(const struct stats_change *ch, char *buf, size_t len)
{
	int used = 0;

	char mde[32];

	buf[0] = '\0';
	if (ch->decided)
		return;
	rpt_pct(ch->mde_pct, false, mde, sizeof(mde));
	if (isfinite(ch->mde_pct))
		used = snprintf(buf, len, " mde=%s%%", mde);
	if (isfinite(ch->sessions_needed) && used >= 0 && (size_t)used < len)
		snprintf(buf + used, len - (size_t)used, " need=%s%.0f", ch->plan_at_least ? ">=" : "",
			 ch->sessions_needed);
}

static enum rpt_tone show_tone(enum result_state s)
{
	return s == RESULT_IMPROVED ? RPT_TONE_IMPROVED : s == RESULT_REGRESSED ? RPT_TONE_REGRESSED : RPT_TONE_NEUTRAL;
}

/* A change: its mark and per cent; under --stats its interval, the level it puts the column at, counts, plan. */
static void show_change_cell(const struct result_cell *c, const char *unit, const struct show_opts *o, char *buf,
			     size_t len)
{
	const struct stats_change *ch = c->change;
	char pct[32];
	int used;

	rpt_pct(ch->pct, true, pct, sizeof(pct));
	used = snprintf(buf, len, "%s%s%%", result_state_mark(c->state), pct);
	if (o->ro->stats && used > 0 && (size_t)used < len) {
		char out[32], plan[64], lo[32], hi[32], cv[32], level[64];

		show_outliers(c, out, sizeof(out));
		show_plan(ch, plan, sizeof(plan));
		rpt_pct(ch->ci_low, true, lo, sizeof(lo));
		rpt_pct(ch->ci_high, true, hi, sizeof(hi));
		rpt_pct(100.0 * c->cv, false, cv, sizeof(cv));
		show_level(c->level, unit, o, level, sizeof(level));
		if (isfinite(ch->ci_low) && isfinite(ch->ci_high))
			snprintf(buf + used, len - (size_t)used, " [%s, %s] at %s n=%zu/%zu cv=%s%%%s%s", lo, hi, level,
				 c->n, c->sessions, cv, out, plan);
		else
			snprintf(buf + used, len - (size_t)used, " at %s n=%zu/%zu%s%s", level, c->n, c->sessions, out,
				 plan);
	}
}

/*
 * A change of a share in per cent (--profile's): in percentage points, the
 * column's share minus the base's ("+1.02 pp"), never a per cent of per
 * cents; under --stats with the interval in points and the share it is at.
 */
static void show_points_cell(const struct result_cell *c, double base, const struct show_opts *o, char *buf,
			     size_t len)
{
	int used = snprintf(buf, len, "%s%+.2f pp", result_state_mark(c->state), c->level - base);

	if (o->ro->stats && used > 0 && (size_t)used < len) {
		char out[32];

		show_outliers(c, out, sizeof(out));
		if (isfinite(c->level_low) && isfinite(c->level_high))
			snprintf(buf + used, len - (size_t)used, " [%+.2f, %+.2f] at %.2f%% n=%zu/%zu%s",
				 c->level_low - base, c->level_high - base, c->level, c->n, c->sessions, out);
		else
			snprintf(buf + used, len - (size_t)used, " at %.2f%% n=%zu/%zu%s", c->level, c->n, c->sessions,
				 out);
	}
}

static void show_cell_text(const struct result_row *row, size_t col, size_t base, const struct show_opts *o,
			   char *buf, size_t len)
{
	const struct result_cell *c = &row->cells[col];

	if (c->state == RESULT_EMPTY)
		buf[0] = '\0';
	else if (!c->change)
		show_level_cell(c, row->unit, o, buf, len);
	else if (result_row_points(row))
		show_points_cell(c, row->cells[base].level, o, buf, len);
	else
		show_change_cell(c, row->unit, o, buf, len);
}

/*
 * CSV has no title line, so a leading column names the block on every row;
 * the other formats print "Results for SUT Class <name>:" above the table.
 */
static bool show_block_column(const struct show_opts *o)
{
	return o->format->caps & RPT_CAP_ONE_TABLE;
}

void rpt_cell_text(const struct result_view *v, const struct result_row *row, size_t col, const struct rpt_opts *ro,
		   char *buf, size_t len)
{
	struct show_opts o = { NULL, ro };

	show_cell_text(row, col, v->base, &o, buf, len);
}

static int show_columns(struct rpt_table *t, const struct result_view *v, const struct show_opts *o)
{
	char head[512];
	int ret = show_block_column(o) ? rpt_table_add_column(t, v->opts.axis == CMP_BY_SUT ? "swprofile" : "SUT Class", 0)
				       : 0;

	if (!ret)
		ret = rpt_table_add_column(t, "Benchmark", RPT_COL_GROUP);

	if (!ret)
		ret = rpt_table_add_column(t, "Result Class", 0);
	for (size_t c = 0; !ret && c < v->ncols; c++) {
		if (c == v->base)
			snprintf(head, sizeof(head), "%s (base)", v->cols[c]);
		else
			snprintf(head, sizeof(head), "%s", v->cols[c]);
		ret = rpt_table_add_column(t, head, RPT_COL_RIGHT);
	}
	return ret;
}

/* A row being built: [block name,] Benchmark, Result Class, then one cell per column. */
struct show_line {
	size_t n, first;	/* first: 1 when the block name leads (csv), else 0 */
	char (*text)[SHOW_CELL];
	enum rpt_tone *tones;
};

static int show_line_new(struct show_line *l, const struct result_view *v, const struct show_opts *o,
			 const struct result_block *blk)
{
	l->first = show_block_column(o);
	l->n = l->first + 2 + v->ncols;
	l->text = calloc(l->n, SHOW_CELL);
	l->tones = calloc(l->n, sizeof(*l->tones));
	if (!l->text || !l->tones) {
		free(l->text);
		free(l->tones);
		return -ENOMEM;
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

/* Add the row to @t and free it.  0 or -ENOMEM. */
static int show_line_add(struct show_line *l, struct rpt_table *t)
{
	const char **cells = calloc(l->n, sizeof(*cells));
	int ret = -ENOMEM;

	for (size_t i = 0; cells && i < l->n; i++)
		cells[i] = l->text[i];
	if (cells)
		ret = rpt_table_add_row(t, cells, l->n, l->tones);
	free(cells);
	free(l->text);
	free(l->tones);
	return ret;
}

/*
 * "memset -s 64MB (bytes/sec)": the result class and its unit, the unit its
 * cells print in ("(GB/sec)" in human units), so that a row never says
 * bytes/sec beside GB/sec values.
 */
static void show_row_label(const struct result_row *row, size_t ncols, const struct show_opts *o, char *buf,
			   size_t len)
{
	char unit[96];
	size_t c = 0;

	while (c < ncols && !isfinite(row->cells[c].level))
		c++;
	if (o->ro->human && c < ncols)
		units_human_unit(row->cells[c].level, row->unit, unit, sizeof(unit));
	else
		snprintf(unit, sizeof(unit), "%s", row->unit);
	snprintf(buf, len, "%s (%s)", row->rclass, unit);
}

void rpt_row_label(const struct result_view *v, const struct result_row *row, const struct rpt_opts *ro, char *buf,
		   size_t len)
{
	struct show_opts o = { NULL, ro };

	show_row_label(row, v->ncols, &o, buf, len);
}

static int show_row(struct rpt_table *t, const struct result_view *v, const struct result_block *blk,
		    const struct result_row *row, const struct show_opts *o)
{
	struct show_line l;
	int ret = show_line_new(&l, v, o, blk);

	if (ret)
		return ret;
	snprintf(show_cell(&l, 0), SHOW_CELL, "%s", row->bench);
	show_row_label(row, v->ncols, o, show_cell(&l, 1), SHOW_CELL);
	for (size_t c = 0; c < v->ncols; c++) {
		show_cell_text(row, c, v->base, o, show_cell(&l, 2 + c), SHOW_CELL);
		l.tones[l.first + 2 + c] = o->ro->color ? show_tone(row->cells[c].state) : RPT_TONE_NEUTRAL;
	}
	return show_line_add(&l, t);
}

/* The block's geometric-mean row, as the result computed it. */
static int show_geomean_row(struct rpt_table *t, const struct result_view *v, const struct result_block *blk,
			    const struct show_opts *o)
{
	struct show_line l;
	int ret = show_line_new(&l, v, o, blk);

	if (ret)
		return ret;
	snprintf(show_cell(&l, 1), SHOW_CELL, "geometric mean of ratios (%s is better)",
		 blk->geomean_lower_better ? "-" : "+");
	for (size_t c = 0; c < v->ncols; c++)
		if (c != v->base && isfinite(blk->geomean_pct[c])) {
			char pct[32];

			rpt_pct(blk->geomean_pct[c], true, pct, sizeof(pct));
			snprintf(show_cell(&l, 2 + c), SHOW_CELL, "%s%%", pct);
		}
	return show_line_add(&l, t);
}

/* Whether note @n is printed with options @ro. */
static bool show_note_wanted(const struct result_note *n, const struct rpt_opts *ro)
{
	return (!(n->only & RESULT_ONLY_STATS) || ro->stats) && (!(n->only & RESULT_ONLY_HUMAN) || ro->human);
}

/* The rows of block @b, its geomean row and its notes, into @t. */
static int show_block_rows(struct rpt_table *t, const struct result_view *v, size_t b, const struct show_opts *o)
{
	const struct result_block *blk = &v->blocks[b];
	int ret = 0;

	for (size_t r = 0; !ret && r < blk->nrows; r++)
		ret = show_row(t, v, blk, &blk->rows[r], o);
	if (!ret && blk->has_geomean)
		ret = show_geomean_row(t, v, blk, o);
	for (size_t i = 0; !ret && i < blk->nnotes; i++)
		if (show_note_wanted(&blk->notes[i], o->ro))
			ret = blk->notes[i].kind == RESULT_NOTE_WARNING ? rpt_table_add_warning(t, blk->notes[i].text)
									: rpt_table_add_footer(t, blk->notes[i].text);
	return ret;
}

static int show_preamble_line(void *ctx, const char *line)
{
	return rpt_table_add_preamble(ctx, line);
}

/* Block @b as a table titled with the SUT class (or swprofile), its header above it, into *@out. */
static int show_block_table(const struct result_view *v, size_t b, const struct show_opts *o, struct rpt_table **out)
{
	struct rpt_table *t;
	char *title;
	int ret;

	/* a block's name may be two store names long ("SUT, swprofile X"): never cut it */
	if (asprintf(&title, "Results for %s %s:", v->opts.axis == CMP_BY_SUT ? "swprofile" : "SUT Class",
		     v->blocks[b].name) < 0)
		return -ENOMEM;
	t = rpt_table_new(title);
	free(title);
	if (!t)
		return -ENOMEM;
	ret = v->blocks[b].header ? rpt_header_lines(v->blocks[b].header, show_preamble_line, t) : 0;
	if (!ret)
		ret = show_columns(t, v, o);
	if (!ret)
		ret = show_block_rows(t, v, b, o);
	if (ret) {
		rpt_table_free(t);
		return ret;
	}
	*out = t;
	return 0;
}

/* @t within --width: split into tables that each repeat Benchmark, Result Class and the base column. */
static int show_render_fit(const struct rpt_table *t, const struct result_view *v, const struct show_opts *o,
			   FILE *out)
{
	bool *key = calloc(2 + v->ncols, sizeof(*key));
	int ret;

	if (!key)
		return -ENOMEM;
	key[0] = key[1] = key[2 + v->base] = true;
	ret = rpt_render_fit(t, key, o->format, o->ro, out);
	free(key);
	return ret;
}

/* One table per block, blank lines between. */
static int show_blocks(const struct result_view *v, const struct show_opts *o, FILE *out)
{
	for (size_t b = 0; b < v->nblocks; b++) {
		struct rpt_table *t;
		int ret = show_block_table(v, b, o, &t);

		if (ret)
			return ret;
		if (b)
			fputc('\n', out);
		ret = show_render_fit(t, v, o, out);
		rpt_table_free(t);
		if (ret)
			return ret;
	}
	return 0;
}

int rpt_view_table(const struct result_view *v, size_t b, const struct rpt_opts *ro, struct rpt_table **out)
{
	/* any format laid out one table per block: only RPT_CAP_ONE_TABLE changes the layout */
	static const struct rpt_format per_block = { .name = "table" };
	static const struct rpt_opts defaults;
	struct show_opts o = { &per_block, ro ? ro : &defaults };

	if (b >= v->nblocks)
		return -EINVAL;
	return show_block_table(v, b, &o, out);
}

/* CSV: one table, every row naming its block, so the file loads as one sheet. */
static int show_one_table(const struct result_view *v, const struct show_opts *o, FILE *out)
{
	struct rpt_table *t = rpt_table_new(NULL);
	int ret = t ? show_columns(t, v, o) : -ENOMEM;

	for (size_t b = 0; !ret && b < v->nblocks; b++)
		ret = show_block_rows(t, v, b, o);
	if (!ret)
		ret = o->format->render(t, o->ro, out);
	rpt_table_free(t);
	return ret;
}

int rpt_render_view(const struct result_view *v, const struct rpt_format *f, const struct rpt_opts *ro, FILE *out)
{
	static const struct rpt_opts defaults;
	struct show_opts o = { f, ro ? ro : &defaults };

	int ret;

	if (f->render_view)
		return f->render_view(v, o.ro, out);
	if (f->caps & RPT_CAP_ONE_TABLE)
		return show_one_table(v, &o, out);
	ret = show_blocks(v, &o, out);
	return ret ? ret : rpt_fleet_render(v, f, o.ro, out);
}
