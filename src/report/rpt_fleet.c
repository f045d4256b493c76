/* rpt_fleet: the fleet summary laid out (a table per compared column: per result class a line per SUT class) and as JSON. */
#define _GNU_SOURCE	/* asprintf */
#include "report/impl.h"
#include "result/fleet.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define FLEET_CELL 512

enum { FLEET_CLASS, FLEET_SUT, FLEET_BASE, FLEET_CHANGE, FLEET_INTERVAL, FLEET_VERDICT, FLEET_NCOLS };

static int fleet_columns(struct rpt_table *t, const struct result_view *v)
{
	char base[512], level[32], ci[64];
	int ret;

	snprintf(base, sizeof(base), "%s (base)", v->cols[v->base]);
	rpt_level_label(v->opts.alpha, level, sizeof(level));
	snprintf(ci, sizeof(ci), "%s%% interval", level);
	ret = rpt_table_add_column(t, "Result Class", RPT_COL_GROUP);
	if (!ret)
		ret = rpt_table_add_column(t, "SUT Class", 0);
	if (!ret)
		ret = rpt_table_add_column(t, base, RPT_COL_RIGHT);
	if (!ret)
		ret = rpt_table_add_column(t, "change", RPT_COL_RIGHT);
	if (!ret)
		ret = rpt_table_add_column(t, ci, RPT_COL_RIGHT);
	if (!ret)
		ret = rpt_table_add_column(t, "verdict", 0);
	return ret;
}

/* "[-0.21%, +4.05%]": the change's interval, as --stats prints it in the machine's table. */
static void fleet_interval(const struct result_cell *c, char *buf, size_t len)
{
	char lo[32], hi[32];

	buf[0] = '\0';
	if (!c->change || !isfinite(c->change->ci_low) || !isfinite(c->change->ci_high))
		return;
	rpt_pct(c->change->ci_low, true, lo, sizeof(lo));
	rpt_pct(c->change->ci_high, true, hi, sizeof(hi));
	snprintf(buf, len, "[%s%%, %s%%]", lo, hi);
}

static enum rpt_tone fleet_tone(enum result_state s)
{
	return s == RESULT_IMPROVED ? RPT_TONE_IMPROVED : s == RESULT_REGRESSED ? RPT_TONE_REGRESSED : RPT_TONE_NEUTRAL;
}

/* One SUT class's line: the cells its table prints (without --stats' extras), the interval, the verdict. */
static int fleet_line(struct rpt_table *t, const struct result_view *v, const struct result_fleet_class *fc,
		      const struct result_fleet_line *l, const struct rpt_opts *ro)
{
	struct rpt_opts plain = *ro;
	char text[FLEET_NCOLS][FLEET_CELL];
	const char *cells[FLEET_NCOLS];
	enum rpt_tone tones[FLEET_NCOLS] = { 0 };

	plain.stats = false;
	rpt_row_label(v, fc->first, ro, text[FLEET_CLASS], FLEET_CELL);
	snprintf(text[FLEET_SUT], FLEET_CELL, "%s", l->block->name);
	rpt_cell_text(v, l->row, v->base, &plain, text[FLEET_BASE], FLEET_CELL);
	rpt_cell_text(v, l->row, fc->col, &plain, text[FLEET_CHANGE], FLEET_CELL);
	fleet_interval(l->cell, text[FLEET_INTERVAL], FLEET_CELL);
	snprintf(text[FLEET_VERDICT], FLEET_CELL, "%s", l->cell->change ? result_state_name(l->cell->state) : "");
	if (ro->color)
		tones[FLEET_CHANGE] = tones[FLEET_VERDICT] = fleet_tone(l->cell->state);
	for (size_t i = 0; i < FLEET_NCOLS; i++)
		cells[i] = text[i];
	return rpt_table_add_row(t, cells, FLEET_NCOLS, tones);
}

/* The classes of @fl for column @col as one table titled with both columns. */
static int fleet_table(const struct result_view *v, const struct result_fleet *fl, size_t col,
		       const struct rpt_opts *ro, struct rpt_table **out)
{
	struct rpt_table *t;
	size_t lines = 0;
	char *title;
	int ret;

	if (asprintf(&title, "Fleet summary, %s against %s (base), per SUT Class:", v->cols[col], v->cols[v->base]) < 0)
		return -ENOMEM;
	t = rpt_table_new(title);
	free(title);
	ret = t ? fleet_columns(t, v) : -ENOMEM;
	for (size_t i = 0; !ret && i < fl->nclasses; i++)
		for (size_t j = 0; fl->classes[i].col == col && !ret && j < fl->classes[i].nlines; j++, lines++)
			ret = fleet_line(t, v, &fl->classes[i], &fl->classes[i].lines[j], ro);
	if (!ret && !lines) {
		/* no machine has a change in this column: no table rather than its heading alone */
		rpt_table_free(t);
		*out = NULL;
		return 0;
	}
	if (!ret)
		ret = rpt_table_add_footer(t, "Each line is its SUT Class's table above: the base's level and the change"
					      " as its cells print them, the change's confidence interval and the cell's"
					      " verdict.");
	if (ret) {
		rpt_table_free(t);
		return ret;
	}
	*out = t;
	return 0;
}

/* The @i-th compared column of @v (the base skipped), or v->ncols past the last. */
static size_t fleet_nth_column(const struct result_view *v, size_t i)
{
	for (size_t c = 0; c < v->ncols; c++)
		if (c != v->base && !i--)
			return c;
	return v->ncols;
}

int rpt_fleet_table(const struct result_view *v, size_t i, const struct rpt_opts *ro, struct rpt_table **out)
{
	static const struct rpt_opts defaults;
	size_t col = fleet_nth_column(v, i);
	struct result_fleet fl;
	int ret;

	*out = NULL;
	if (!result_fleet_applies(v) || col >= v->ncols)
		return 0;
	ret = result_fleet_of(v, &fl);
	if (!ret)
		ret = fleet_table(v, &fl, col, ro ? ro : &defaults, out);
	result_fleet_free(&fl);
	return ret;
}

int rpt_fleet_render(const struct result_view *v, const struct rpt_format *f, const struct rpt_opts *ro, FILE *out)
{
	/* split when too wide, always keeping the result class and the SUT class */
	static const bool key[FLEET_NCOLS] = { [FLEET_CLASS] = true, [FLEET_SUT] = true };
	int ret = 0;

	for (size_t i = 0; !ret && i + 1 < v->ncols; i++) {
		struct rpt_table *t;

		ret = rpt_fleet_table(v, i, ro, &t);
		if (ret || !t)
			continue;
		fputc('\n', out);
		ret = rpt_render_fit(t, key, f, ro, out);
		rpt_table_free(t);
	}
	return ret;
}

/* jansson cannot encode NaN or infinity: an undefined statistic is null. */
static json_t *fleet_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* One SUT class's line as data: the same doubles the block's cells carry. */
static json_t *fleet_line_json(const struct result_view *v, const struct result_fleet_line *l)
{
	const struct stats_change *ch = l->cell->change;
	json_t *j = json_pack("{s:s, s:o, s:s}", "sut", l->block->name, "base_level", fleet_num(l->base->level),
			      "state", result_state_name(l->cell->state));
	char key[64];

	json_object_set_new(j, "change_pct", ch ? fleet_num(ch->pct) : json_null());
	rpt_level_key(v->opts.alpha, "change_", "low", key, sizeof(key));
	json_object_set_new(j, key, ch ? fleet_num(ch->ci_low) : json_null());
	rpt_level_key(v->opts.alpha, "change_", "high", key, sizeof(key));
	json_object_set_new(j, key, ch ? fleet_num(ch->ci_high) : json_null());
	json_object_set_new(j, "verdict", ch ? json_string(stats_verdict_name(ch->verdict)) : json_null());
	return j;
}

json_t *rpt_fleet_json(const struct result_view *v)
{
	json_t *a = json_array();
	struct result_fleet fl;

	if (!a || result_fleet_of(v, &fl)) {
		json_decref(a);
		return NULL;
	}
	for (size_t i = 0; i < fl.nclasses; i++) {
		const struct result_fleet_class *fc = &fl.classes[i];
		json_t *suts = json_array();

		for (size_t j = 0; j < fc->nlines; j++)
			json_array_append_new(suts, fleet_line_json(v, &fc->lines[j]));
		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s, s:s, s:b, s:o}", "column", v->cols[fc->col],
						   "base", v->cols[v->base], "benchmark", fc->first->bench,
						   "resultclass", fc->first->rclass, "unit", fc->first->unit,
						   "higher_is_better", fc->first->higher_is_better, "suts", suts));
	}
	result_fleet_free(&fl);
	return a;
}
