/* rpt_result: a result laid out as tables for the text formats (base means, % changes, geomean row, legend), and the dispatch by format. */
#include "report/profile.h"
#include "report/header.h"
#include "report/impl.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHOW_CELL 160

const char *rpt_axis_name(enum cmp_axis a)
{
	return a == CMP_BY_SUT ? "sut" : a == CMP_BY_PARAM ? "value" : "swprofile";
}

const char *rpt_block_key(enum cmp_axis a)
{
	return a == CMP_BY_SUT ? "swprofile" : "sut";
}

const struct stats_estimate *rpt_estimate(const struct cmp_cell *c, enum stats_rule rule)
{
	return rule == STATS_RULE_FASTPATH ? &c->st.pooled : &c->st.robust;
}

void rpt_pct(double v, bool sign, char *buf, size_t len)
{
	if (!isfinite(v) || fabs(v) >= 1e4) {
		if (sign)
			snprintf(buf, len, "%+.2e", v);
		else
			snprintf(buf, len, "%.2e", v);
		return;
	}
	if (sign)
		snprintf(buf, len, "%+.2f", v);
	else
		snprintf(buf, len, "%.2f", v);
	/* -99.99999 is not -100.00: the value fell a hundred-thousandfold, it did not vanish */
	for (int d = 3; v > -100 && d <= 12 && strtod(buf, NULL) == -100; d++)
		snprintf(buf, len, "%.*f", d, v);
}

/* " o=N" when samples of the cell are flagged as outliers, else "". */
static void show_outliers(const struct cmp_cell *c, char *buf, size_t len)
{
	buf[0] = '\0';
	if (c->st.outliers)
		snprintf(buf, len, " o=%zu", c->st.outliers);
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

/* What the table layout needs besides the result: the format and the rendering options. */
struct show_opts {
	const struct cmp_opts *cmp;
	const struct rpt_format *format;
	const struct rpt_opts *ro;
	json_t *const *settings_differ;
	const struct rpt_header *header;
	json_t *const *thp_always;
	bool stats, color;
};

/* A mean as the options ask: raw ("63932542232.12") or human ("63.93 GB/s"). */
static void show_mean(double v, const char *unit, const struct show_opts *o, char *buf, size_t len)
{
	char whole[400];	/* "%.2f" of -DBL_MAX is 313 characters */

	if (o->ro->human)
		rpt_human(v, unit, whole, sizeof(whole));
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

static void show_base_cell(const struct cmp_cell *c, const char *unit, const struct show_opts *o, char *buf,
			   size_t len)
{
	double half = c->n ? stats_ci_halfwidth_pct(c->st.mean, rpt_estimate(c, o->cmp->rule)) : NAN;
	char out[32], mean[64], hw[32], cv[32];

	if (!c->n) {
		buf[0] = '\0';
		return;
	}
	show_mean(c->st.mean, unit, o, mean, sizeof(mean));
	if (!o->stats) {
		snprintf(buf, len, "%s", mean);
		return;
	}
	show_outliers(c, out, sizeof(out));
	rpt_pct(100.0 * c->st.cv, false, cv, sizeof(cv));
	if (isfinite(half)) {
		rpt_pct(half, false, hw, sizeof(hw));
		snprintf(buf, len, "%s ±%s%% n=%zu/%zu cv=%s%%%s", mean, hw, c->st.n, c->st.sessions, cv, out);
	} else
		snprintf(buf, len, "%s n=%zu/%zu%s", mean, c->st.n, c->st.sessions, out);
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
		snprintf(buf + used, len - (size_t)used, " need=%.0f", ch->sessions_needed);
}

static const char *show_marker(enum stats_verdict v)
{
	return v == STATS_IMPROVEMENT ? "(I) " : v == STATS_REGRESSION ? "(R) " : "";
}

static void show_change_cell(const struct cmp_cell *c, const char *unit, const struct show_opts *o, char *buf,
			     size_t len, enum rpt_tone *tone)
{
	const struct stats_change *ch = &c->change;
	char pct[32];
	int used;

	*tone = RPT_TONE_NEUTRAL;
	/* an infinite change (a base of 1e-300) is a change, printed "+inf%"; NaN is none */
	if (!c->n || !c->has_change || isnan(ch->pct)) {
		/* present without a base value (or change) to compare with: show the mean itself */
		if (c->n)
			show_mean(c->st.mean, unit, o, buf, len);
		else
			buf[0] = '\0';
		return;
	}
	if (ch->verdict == STATS_IMPROVEMENT)
		*tone = RPT_TONE_IMPROVED;
	else if (ch->verdict == STATS_REGRESSION)
		*tone = RPT_TONE_REGRESSED;
	rpt_pct(ch->pct, true, pct, sizeof(pct));
	used = snprintf(buf, len, "%s%s%%", show_marker(ch->verdict), pct);
	if (o->stats && used > 0 && (size_t)used < len) {
		char out[32], plan[64], lo[32], hi[32], cv[32];

		show_outliers(c, out, sizeof(out));
		show_plan(ch, plan, sizeof(plan));
		rpt_pct(ch->ci_low, true, lo, sizeof(lo));
		rpt_pct(ch->ci_high, true, hi, sizeof(hi));
		rpt_pct(100.0 * c->st.cv, false, cv, sizeof(cv));
		if (isfinite(ch->ci_low) && isfinite(ch->ci_high))
			snprintf(buf + used, len - (size_t)used, " [%s, %s] n=%zu/%zu cv=%s%%%s%s", lo, hi, c->st.n,
				 c->st.sessions, cv, out, plan);
		else
			snprintf(buf + used, len - (size_t)used, " n=%zu/%zu%s%s", c->st.n, c->st.sessions, out,
				 plan);
	}
}

/*
 * CSV has no title line, so a leading column names the block on every row;
 * the other formats print "Results for SUT Class <name>:" above the table.
 */
static bool show_block_column(const struct show_opts *o)
{
	return o->format->one_table;
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
	int insufficient;
	int compared, paired;	/* cells with a change; of those, paired by session */
	int undecided, unknown;	/* undecided cells; of those, with no sessions_needed */
	double need;		/* the most sessions_needed among the undecided */
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

static void show_note_plan(struct show_notes *n, const struct stats_change *ch)
{
	n->compared++;
	n->paired += ch->paired;
	if (ch->decided)
		return;
	n->undecided++;
	if (!isfinite(ch->sessions_needed))
		n->unknown++;
	else if (!(ch->sessions_needed <= n->need))
		n->need = ch->sessions_needed;
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

static int show_row(struct rpt_table *t, const struct cmp_set *s, const struct cmp_block *blk,
		    const struct cmp_row *row, const struct show_opts *o, struct show_notes *notes)
{
	struct show_line l;
	int ret = show_line_new(&l, s, o, blk);

	if (ret)
		return ret;
	snprintf(show_cell(&l, 0), SHOW_CELL, "%s", row->bench);
	snprintf(show_cell(&l, 1), SHOW_CELL, "%s (%s)", row->rclass, row->unit);
	for (size_t c = 0; c < s->ncols; c++) {
		const struct cmp_cell *cell = &row->cells[c];
		enum rpt_tone *tone = &l.tones[l.first + 2 + c];

		if (c == s->base)
			show_base_cell(cell, row->unit, o, show_cell(&l, 2 + c), SHOW_CELL);
		else
			show_change_cell(cell, row->unit, o, show_cell(&l, 2 + c), SHOW_CELL, tone);
		if (!o->color)
			*tone = RPT_TONE_NEUTRAL;
		if (cell->has_change && cell->change.verdict == STATS_INSUFFICIENT)
			show_note_insufficient(notes, cell->change.why_insufficient ?: "too few samples");
		if (cell->has_change)
			show_note_plan(notes, &cell->change);
	}
	return show_line_add(&l, t);
}

/* The block's geomean row, as cmp_finish() computed it. */
static int show_geomean_row(struct rpt_table *t, const struct cmp_set *s, const struct cmp_block *blk,
			    const struct show_opts *o)
{
	struct show_line l;
	int ret = show_line_new(&l, s, o, blk);

	if (ret)
		return ret;
	snprintf(show_cell(&l, 1), SHOW_CELL, "geometric mean of ratios (+ is better)");
	for (size_t c = 0; c < s->ncols; c++)
		if (c != s->base && isfinite(blk->geomean_pct[c])) {
			char pct[32];

			rpt_pct(blk->geomean_pct[c], true, pct, sizeof(pct));
			snprintf(show_cell(&l, 2 + c), SHOW_CELL, "%s%%", pct);
		}
	return show_line_add(&l, t);
}

/* Which kind of comparison the table's cells are: paired within sessions, independent, or both. */
static const char *show_kind(const struct show_notes *n)
{
	if (n->paired == n->compared)
		return "Columns measured in the same sessions: each change is compared within each session"
		       " (paired by session).";
	if (!n->paired)
		return "Columns measured in different sessions: each change is compared between independent"
		       " sessions; a column needs 2 sessions or more for a verdict.";
	return "Columns measured in the same sessions are compared within each session (paired), the others"
	       " between independent sessions.";
}

/* Under --stats, one line per result class the machine's noise floor is known for (clearpath calibrate). */
static void show_floors(struct rpt_table *t, const struct cmp_block *blk, const struct show_opts *o)
{
	char line[1600];

	for (size_t r = 0; o->stats && r < blk->nrows; r++) {
		const struct cmp_row *row = &blk->rows[r];
		const struct cmp_floor *f = &row->floor;
		int used;

		if (!row->has_floor)
			continue;
		used = snprintf(line, sizeof(line),
				"Noise floor of %s (clearpath calibrate, %zu sessions): sessions differ by %.2f%%, "
				"repeats by %.2f%%", row->rclass, f->sessions, f->between_pct, f->within_pct);
		if (used > 0 && (size_t)used < sizeof(line))
			used += isfinite(f->mde4_pct)
					? snprintf(line + used, sizeof(line) - (size_t)used,
						   "; 4 sessions per column detect %.2f%%", f->mde4_pct)
					: snprintf(line + used, sizeof(line) - (size_t)used, "; no spread to plan with");
		if (isfinite(f->sessions_needed) && used > 0 && (size_t)used < sizeof(line))
			snprintf(line + used, sizeof(line) - (size_t)used, ", %.10g%% takes %.0f", o->cmp->target_pct,
				 f->sessions_needed);
		snprintf(line + strlen(line), sizeof(line) - strlen(line), ".");
		rpt_table_add_footer(t, line);
	}
}

/* One line: how many cells are undecided and what it would take. */
static void show_undecided(struct rpt_table *t, const struct show_opts *o, const struct show_notes *n)
{
	char line[512];
	int used;

	if (o->cmp->rule != STATS_RULE_NESTED || !n->undecided)
		return;
	used = snprintf(line, sizeof(line), "Undecided: %d of %d cells", n->undecided, n->compared);
	if (n->unknown < n->undecided)
		used += snprintf(line + used, sizeof(line) - (size_t)used,
				 "; detecting a %.10g%% change takes up to %.0f sessions per column",
				 o->cmp->target_pct, n->need);
	if (n->unknown)
		snprintf(line + used, sizeof(line) - (size_t)used,
			 "; %d the data cannot plan for (no spread, or too few sessions: clearpath calibrate"
			 " measures the noise)", n->unknown);
	snprintf(line + strlen(line), sizeof(line) - strlen(line), ".");
	rpt_table_add_footer(t, line);
}

static void show_legend(struct rpt_table *t, const struct show_opts *o, const struct show_notes *n)
{
	char line[512], level[32];

	rpt_level_label(o->cmp->alpha, level, sizeof(level));
	if (o->cmp->rule == STATS_RULE_FASTPATH)
		snprintf(line, sizeof(line),
			 "(I) improvement, (R) regression: the columns' %s%% confidence intervals do not overlap"
			 " and |change| >= %.2f%% (fastpath rule: samples pooled, sessions ignored).",
			 level, o->cmp->min_effect_pct);
	else
		snprintf(line, sizeof(line),
			 "(I) improvement, (R) regression: the %s%% confidence interval of the change excludes 0"
			 " and |change| >= %.2f%%; sessions are the unit of replication.",
			 level, o->cmp->min_effect_pct);
	rpt_table_add_footer(t, line);
	if (o->cmp->rule == STATS_RULE_NESTED && n->compared)
		rpt_table_add_footer(t, show_kind(n));
	if (o->stats)
		rpt_table_add_footer(t, "Cells: base mean ±CI half-width, or change [CI of the change, %]; "
					"n=samples/sessions; cv=coefficient of variation; o=outlier samples"
					" (set aside); mde=smallest change this data detects; need=sessions per"
					" column to detect the --target change.");
	for (size_t i = 0; i < n->nwhy; i++) {
		snprintf(line, sizeof(line), "No marker where there is too little data for a verdict: %s.",
			 n->why[i]);
		rpt_table_add_footer(t, line);
	}
	show_undecided(t, o, n);
}

/* One warning line per setting in which a column's sessions differ from the base's. */
static void show_env_footers(const json_t *diffs, struct rpt_table *t)
{
	size_t i;
	json_t *d;

	json_array_foreach(diffs, i, d) {
		char line[512];
		char *base = json_dumps(json_object_get(d, "base"), JSON_ENCODE_ANY | JSON_COMPACT);
		char *value = json_dumps(json_object_get(d, "value"), JSON_ENCODE_ANY | JSON_COMPACT);

		snprintf(line, sizeof(line), "Warning: %s ran with %s = %s, the base with %s: the comparison mixes settings.",
			 json_string_value(json_object_get(d, "column")),
			 json_string_value(json_object_get(d, "setting")), value ?: "null", base ?: "null");
		rpt_table_add_footer(t, line);
		free(base);
		free(value);
	}
}

/* "in both columns", "in every column" or "in A and B": which columns ran with THP always. */
static void show_thp_columns(const json_t *cols, size_t ncols, char *buf, size_t len)
{
	size_t n = json_array_size(cols), i;
	json_t *c;
	int used;

	if (n == ncols && n > 1) {
		snprintf(buf, len, "in %s", n == 2 ? "both columns" : "every column");
		return;
	}
	used = snprintf(buf, len, "in");
	json_array_foreach(cols, i, c) {
		if (used < 0 || (size_t)used >= len)
			return;
		used += snprintf(buf + used, len - (size_t)used, "%s%s", !i ? " " : i + 1 < n ? ", " : " and ",
				 json_string_value(c));
	}
}

/*
 * Say what a 4KB number really measured: with THP enabled=always the kernel
 * backs a 4KB mapping with 2MB pages where it can, so the result counts
 * mostly THP faults (several times faster), whatever the label says.
 */
static void show_thp_footers(const json_t *rows, size_t ncols, struct rpt_table *t)
{
	size_t i;
	json_t *row;

	json_array_foreach(rows, i, row) {
		char line[1024], where[512];

		show_thp_columns(json_object_get(row, "columns"), ncols, where, sizeof(where));
		snprintf(line, sizeof(line),
			 "Warning: %s ran with THP enabled=always %s: it measured mostly 2MB THP faults, not 4KB"
			 " faults; run it with --thp never to measure 4KB faults.",
			 json_string_value(json_object_get(row, "resultclass")), where);
		rpt_table_add_footer(t, line);
	}
}

/* The rows of block @b, its geomean row and its footers, into @t. */
static int show_block_rows(struct rpt_table *t, const struct cmp_set *s, size_t b, const struct show_opts *o)
{
	const struct cmp_block *blk = &s->blocks[b];
	struct show_notes notes = { 0 };
	int ret = 0;

	for (size_t r = 0; !ret && r < blk->nrows; r++)
		ret = show_row(t, s, blk, &blk->rows[r], o, &notes);
	if (!ret && s->ncols > 1 && !rpt_profile_only(blk))
		ret = show_geomean_row(t, s, blk, o);
	if (!ret) {
		show_legend(t, o, &notes);
		show_floors(t, blk, o);
		if (o->settings_differ)
			show_env_footers(o->settings_differ[b], t);
		if (o->thp_always)
			show_thp_footers(o->thp_always[b], s->ncols, t);
	}
	return ret;
}

static int show_preamble_line(void *ctx, const char *line)
{
	return rpt_table_add_preamble(ctx, line);
}

/* Block @b as a table titled with the SUT class (or swprofile), its header above it, into *@out. */
static int show_block_table(const struct cmp_set *s, size_t b, const struct show_opts *o, struct rpt_table **out)
{
	char title[600];
	struct rpt_table *t;
	int ret;

	snprintf(title, sizeof(title), "Results for %s %s:", s->axis == CMP_BY_SUT ? "swprofile" : "SUT Class",
		 s->blocks[b].name);
	t = rpt_table_new(title);
	if (!t)
		return -ENOMEM;
	ret = o->header && b < o->header->nblocks ? rpt_header_lines(&o->header->blocks[b], show_preamble_line, t)
						  : 0;
	if (!ret)
		ret = show_columns(t, s, o);
	if (!ret)
		ret = show_block_rows(t, s, b, o);
	if (ret) {
		rpt_table_free(t);
		return ret;
	}
	*out = t;
	return 0;
}

/* @t within --width: split into tables that each repeat Benchmark, Result Class and the base column. */
static int show_render_fit(const struct rpt_table *t, const struct cmp_set *s, const struct show_opts *o,
			   FILE *out)
{
	bool *key = calloc(2 + s->ncols, sizeof(*key));
	int ret;

	if (!key)
		return -ENOMEM;
	key[0] = key[1] = key[2 + s->base] = true;
	ret = rpt_render_fit(t, key, o->format, o->ro, out);
	free(key);
	return ret;
}

/* One table per block, blank lines between. */
static int show_blocks(const struct cmp_set *s, const struct show_opts *o, FILE *out)
{
	for (size_t b = 0; b < s->nblocks; b++) {
		struct rpt_table *t;
		int ret = show_block_table(s, b, o, &t);

		if (ret)
			return ret;
		if (b)
			fputc('\n', out);
		ret = show_render_fit(t, s, o, out);
		rpt_table_free(t);
		if (ret)
			return ret;
	}
	return 0;
}

int rpt_result_table(const struct rpt_result *r, size_t b, const struct rpt_opts *ro, struct rpt_table **out)
{
	/* any format laid out one table per block: only one_table changes the layout */
	static const struct rpt_format per_block = { .name = "table" };
	static const struct rpt_opts defaults;
	struct show_opts o;

	if (b >= r->set->nblocks)
		return -EINVAL;
	ro = ro ? ro : &defaults;
	o = (struct show_opts){ r->cmp, &per_block, ro, r->settings_differ, r->header, r->thp_always, ro->stats, ro->color };
	return show_block_table(r->set, b, &o, out);
}

/* CSV: one table, every row naming its block, so the file loads as one sheet. */
static int show_one_table(const struct cmp_set *s, const struct show_opts *o, FILE *out)
{
	struct rpt_table *t = rpt_table_new(NULL);
	int ret = t ? show_columns(t, s, o) : -ENOMEM;

	for (size_t b = 0; !ret && b < s->nblocks; b++)
		ret = show_block_rows(t, s, b, o);
	if (!ret)
		ret = o->format->render(t, o->ro, out);
	rpt_table_free(t);
	return ret;
}

int rpt_render_result(const struct rpt_result *r, const char *name, const struct rpt_opts *ro, FILE *out)
{
	static const struct rpt_opts defaults;
	const struct rpt_format *f = rpt_format_find(name);
	struct show_opts o;

	if (!f)
		return -EINVAL;
	ro = ro ? ro : &defaults;
	if (f->render_result)
		return f->render_result(r, ro, out);
	o = (struct show_opts){ r->cmp, f, ro, r->settings_differ, r->header, r->thp_always, ro->stats, ro->color };
	return f->one_table ? show_one_table(r->set, &o, out) : show_blocks(r->set, &o, out);
}
