/* rpt_json: the `json` format, a result's every number and verdict for scripts, or a table as records (jansson). */
#include "report/header.h"
#include "report/impl.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#define JSON_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17))

/* jansson cannot encode NaN or infinity: an undefined statistic is null. */
static json_t *json_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* Set "[prefix]ci<level>_low" and "..._high": the keys name the level --alpha asked for. */
static void json_interval(json_t *j, double alpha, const char *prefix, double low, double high)
{
	char key[64];

	rpt_level_key(alpha, prefix, "low", key, sizeof(key));
	json_object_set_new(j, key, json_num(low));
	rpt_level_key(alpha, prefix, "high", key, sizeof(key));
	json_object_set_new(j, key, json_num(high));
}

/* The samples flagged as outliers: [{session, value}], set aside from their session's level. */
static json_t *json_outliers(const struct cmp_cell *cell)
{
	json_t *a = json_array();

	for (size_t i = 0; i < cell->n; i++)
		if (cell->outlier && cell->outlier[i])
			json_array_append_new(a, json_pack("{s:s, s:f}", "session", cell->uuids[cell->sessions[i]],
							   "value", cell->values[i]));
	return a;
}

/* The verdict and, for an undecided cell, what more data would decide it. */
static void json_change(json_t *j, const struct cmp_cell *src, const struct stats_change *ch, double alpha)
{
	json_object_set_new(j, "change_pct", json_num(ch->pct));
	json_interval(j, alpha, "change_", ch->ci_low, ch->ci_high);
	json_object_set_new(j, "p_value", json_num(ch->p_value));
	/* Benjamini-Hochberg over the table's cells: what --fdr judges by */
	json_object_set_new(j, "p_adjusted", json_num(ch->p_adjusted));
	/* the level the verdict was judged at: alpha, or alpha / looks of a sequential run */
	json_object_set_new(j, "judged_alpha", json_num(src->alpha));
	json_object_set_new(j, "looks", json_integer((json_int_t)src->looks));
	json_object_set_new(j, "verdict", json_string(stats_verdict_name(ch->verdict)));
	if (ch->verdict == STATS_INSUFFICIENT && ch->why_insufficient)
		json_object_set_new(j, "why", json_string(ch->why_insufficient));
	else if (ch->why_undecided)
		json_object_set_new(j, "why", json_string(ch->why_undecided));
	json_object_set_new(j, "comparison", json_string(ch->paired ? "paired" : "independent"));
	json_object_set_new(j, "decided", json_boolean(ch->decided));
	if (ch->decided)
		return;
	json_object_set_new(j, "mde_pct", json_num(ch->mde_pct));
	json_object_set_new(j, "sessions_needed",
			    isfinite(ch->sessions_needed) ? json_integer((json_int_t)ch->sessions_needed) : json_null());
	/* too few sessions behind the spread to bound it: both are lower bounds */
	json_object_set_new(j, "plan_at_least", json_boolean(ch->plan_at_least));
}

/* Whether the cell's sessions fall into modes, and whether its spread is the row's because some cell's do. */
static void json_modes(json_t *j, const struct stats_cell *st)
{
	json_object_set_new(j, "modes", st->modes ? json_integer((json_int_t)st->modes) : json_null());
	json_object_set_new(j, "mode_gap_pct", json_num(st->mode_gap_pct));
	json_object_set_new(j, "modes_shared", json_boolean(st->modes_shared));
}

/* Which error the marks of a table control, over how many cells (result_marks_control). */
static json_t *json_marks(const struct result_view *v, const struct result_block *blk)
{
	size_t m = result_tested(v, blk);
	bool fdr = v->opts.fdr > 0 && v->opts.rule == STATS_RULE_NESTED;

	return json_pack("{s:s, s:f, s:I, s:o}", "control", fdr ? "false_discovery_rate" : "per_cell", "level",
			 fdr ? v->opts.fdr : v->opts.alpha, "cells", (json_int_t)m, "false_marks_expected",
			 fdr ? json_null() : json_real(v->opts.alpha * (double)m));
}

/*
 * One cell: its state, the level every output prints (with its interval),
 * the descriptive statistics of its samples, its outliers and its change.
 */
static json_t *json_cell(const struct result_view *v, const struct result_row *row, size_t c)
{
	const struct result_cell *cell = &row->cells[c];
	json_t *j = json_object();
	char key[64];

	json_object_set_new(j, result_axis_name(v->opts.axis), json_string(v->cols[c]));
	json_object_set_new(j, "base", json_boolean(c == v->base));
	json_object_set_new(j, "state", json_string(result_state_name(cell->state)));
	json_object_set_new(j, "n", json_integer((json_int_t)cell->n));
	if (!cell->src)
		return j;
	json_object_set_new(j, "sessions", json_integer((json_int_t)cell->sessions));
	json_object_set_new(j, "level", json_num(cell->level));
	json_object_set_new(j, "level_implied", json_boolean(cell->implied));
	json_interval(j, v->opts.alpha, "", cell->level_low, cell->level_high);
	rpt_level_key(v->opts.alpha, "", "halfwidth_pct", key, sizeof(key));
	json_object_set_new(j, key, json_num(cell->halfwidth_pct));
	json_object_set_new(j, "mean", json_num(cell->src->st.mean));
	json_object_set_new(j, "stddev", json_num(cell->src->st.stddev));
	json_object_set_new(j, "cv", json_num(cell->cv));
	json_object_set_new(j, "outliers", json_outliers(cell->src));
	json_modes(j, &cell->src->st);
	if (cell->change)
		json_change(j, cell->src, cell->change, v->opts.alpha);
	/* a share's change in points too, as the tables print it */
	if (cell->change && result_row_points(row))
		json_object_set_new(j, "change_pp", json_num(cell->level - row->cells[v->base].level));
	return j;
}

/* A result class's noise on this machine (clearpath calibrate). */
static json_t *json_floor(const struct cmp_floor *f)
{
	return json_pack("{s:I, s:o, s:o, s:o, s:o, s:b}", "sessions", (json_int_t)f->sessions, "between_session_pct",
			 json_num(f->between_pct), "within_session_pct", json_num(f->within_pct), "mde_4_sessions_pct",
			 json_num(f->mde4_pct), "sessions_needed",
			 isfinite(f->sessions_needed) ? json_integer((json_int_t)f->sessions_needed) : json_null(),
			 "at_least", f->at_least);
}

/* The geomean row: one entry per column, change_pct null for the base and where no row has a ratio. */
static json_t *json_geomean(const struct result_view *v, const struct result_block *blk)
{
	json_t *cols = json_array();

	for (size_t c = 0; c < v->ncols; c++)
		json_array_append_new(cols, json_pack("{s:s, s:b, s:o}", result_axis_name(v->opts.axis), v->cols[c],
						      "base", c == v->base, "change_pct",
						      c == v->base ? json_null() : json_num(blk->geomean_pct[c])));
	return json_pack("{s:s, s:b, s:o}", "label", blk->geomean_lower_better ? "geometric mean of ratios (- is better)"
						: "geometric mean of ratios (+ is better)",
			 "oriented", blk->geomean_oriented, "columns", cols);
}

static const char *json_note_kind(enum result_note_kind k)
{
	static const char *const names[] = { [RESULT_NOTE_LEGEND] = "legend", [RESULT_NOTE_UNDECIDED] = "undecided",
					     [RESULT_NOTE_FLOOR] = "noise_floor", [RESULT_NOTE_UNITS] = "units",
					     [RESULT_NOTE_CACHE] = "cache",
					     [RESULT_NOTE_WARNING] = "warning" };

	return (unsigned)k < sizeof(names) / sizeof(names[0]) && names[k] ? names[k] : "note";
}

/* The notes under the table, every one of them (JSON carries every number: --stats or not). */
static json_t *json_notes(const struct result_block *blk)
{
	json_t *a = json_array();

	for (size_t i = 0; i < blk->nnotes; i++)
		if (!(blk->notes[i].only & RESULT_ONLY_HUMAN))
			json_array_append_new(a, json_pack("{s:s, s:s}", "kind", json_note_kind(blk->notes[i].kind),
							   "text", blk->notes[i].text));
	return a;
}

static json_t *json_block(const struct result_view *v, size_t b)
{
	const struct result_block *blk = &v->blocks[b];
	json_t *results = json_array();

	for (size_t i = 0; i < blk->nrows; i++) {
		const struct result_row *row = &blk->rows[i];
		json_t *cols = json_array();

		for (size_t c = 0; c < v->ncols; c++)
			json_array_append_new(cols, json_cell(v, row, c));
		json_t *res = json_pack("{s:s, s:s, s:s, s:b, s:o}", "benchmark", row->bench, "resultclass",
					row->rclass, "unit", row->unit, "higher_is_better", row->higher_is_better,
					"columns", cols);

		if (row->floor)
			json_object_set_new(res, "noise_floor", json_floor(row->floor));
		if (row->buffer)
			json_object_set_new(res, "buffer_bytes", json_integer((json_int_t)row->buffer));
		json_object_set_new(res, "cache_resident", json_boolean(row->cache_resident));
		json_array_append_new(results, res);
	}
	json_t *j = json_pack("{s:s, s:o, s:o, s:O, s:O, s:o}", result_block_key(v->opts.axis), blk->name, "results",
			      results, "geomean", blk->has_geomean ? json_geomean(v, blk) : json_null(),
			      "settings_differ", blk->settings_differ ? blk->settings_differ : json_array(),
			      "thp_always", blk->thp_always ? blk->thp_always : json_array(), "notes", json_notes(blk));

	if (j)
		json_object_set_new(j, "marks", json_marks(v, blk));
	if (j && blk->header)
		json_object_set_new(j, "header", rpt_header_json(blk->header));
	if (j && blk->llc) {
		json_object_set_new(j, "llc_bytes", json_integer((json_int_t)blk->llc));
		json_object_set_new(j, "llc_level", json_integer(blk->llc_level));
	}
	if (j && blk->profiles)
		json_object_set(j, "profiles", blk->profiles);
	return j;
}

/* Write @doc (stolen) and a newline: 0, -ENOMEM when it could not be built, -EIO. */
static int json_write(json_t *doc, FILE *out)
{
	int ret;

	if (!doc)
		return -ENOMEM;
	ret = json_dumpf(doc, out, JSON_FLAGS);
	fputc('\n', out);
	json_decref(doc);
	return ret ? -EIO : rpt_stream_status(out);
}

static int json_render_view(const struct result_view *v, const struct rpt_opts *o, FILE *out)
{
	json_t *blocks = json_array();
	char level[32];

	(void)o;	/* every statistic is there: --stats and colour change nothing */
	rpt_level_label(v->opts.alpha, level, sizeof(level));
	for (size_t b = 0; b < v->nblocks; b++)
		json_array_append_new(blocks, json_block(v, b));
	/* the fleet: per result class a line per SUT class, from these blocks' cells ([] with one block) */
	return json_write(json_pack("{s:s, s:s, s:s, s:s, s:f, s:f, s:f, s:f, s:o, s:o, s:o}", "columns",
				    result_axis_name(v->opts.axis), "base", v->cols[v->base], "rule",
				    v->opts.rule == STATS_RULE_FASTPATH ? "fastpath" : "nested", "estimate",
				    v->opts.rule == STATS_RULE_FASTPATH ? "sample mean" : "mean of session levels",
				    "alpha", v->opts.alpha, "confidence_level_pct", strtod(level, NULL),
				    "min_effect_pct", v->opts.min_effect_pct, "target_pct", v->opts.target_pct,
				    "fdr", v->opts.fdr > 0 ? json_real(v->opts.fdr) : json_null(), "blocks", blocks,
				    "fleet", rpt_fleet_json(v)),
			  out);
}

/* A table: its title, one object per row keyed by the column headers, and its footers. */
static int json_render(const struct rpt_table *t, const struct rpt_opts *o, FILE *out)
{
	json_t *rows = json_array(), *footers = json_array(), *preamble = json_array();

	(void)o;
	for (size_t r = 0; r < t->nrows; r++) {
		json_t *row = json_object();

		for (size_t c = 0; c < t->ncols; c++)
			json_object_set_new(row, t->cols[c].header, json_string(t->rows[r].cells[c]));
		json_array_append_new(rows, row);
	}
	for (size_t i = 0; i < t->nfooters; i++)
		json_array_append_new(footers, json_string(t->footers[i]));
	for (size_t i = 0; i < t->npreamble; i++)
		json_array_append_new(preamble, json_string(t->preamble[i]));
	if (!t->npreamble) {
		json_decref(preamble);
		preamble = NULL;
	}
	return json_write(json_pack("{s:s?, s:o*, s:o, s:o}", "title", t->title, "preamble", preamble, "rows", rows,
				    "footers", footers),
			  out);
}

const struct rpt_format rpt_fmt_json = {
	.name = "json",
	.desc = "one JSON document with every number, for scripts",
	.render = json_render,
	.render_view = json_render_view,
	.caps = RPT_CAP_DATA,
};
