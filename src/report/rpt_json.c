/* rpt_json: the `json` format, a result's every number and verdict for scripts, or a table as records (jansson). */
#include "report/profile.h"
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
static void json_change(json_t *j, const struct stats_change *ch, double alpha)
{
	json_object_set_new(j, "change_pct", json_num(ch->pct));
	json_interval(j, alpha, "change_", ch->ci_low, ch->ci_high);
	json_object_set_new(j, "p_value", json_num(ch->p_value));
	json_object_set_new(j, "verdict", json_string(stats_verdict_name(ch->verdict)));
	if (ch->verdict == STATS_INSUFFICIENT && ch->why_insufficient)
		json_object_set_new(j, "why", json_string(ch->why_insufficient));
	json_object_set_new(j, "comparison", json_string(ch->paired ? "paired" : "independent"));
	json_object_set_new(j, "decided", json_boolean(ch->decided));
	if (ch->decided)
		return;
	json_object_set_new(j, "mde_pct", json_num(ch->mde_pct));
	json_object_set_new(j, "sessions_needed",
			    isfinite(ch->sessions_needed) ? json_integer((json_int_t)ch->sessions_needed) : json_null());
}

static json_t *json_cell(const struct cmp_set *s, size_t c, const struct cmp_cell *cell,
			 const struct cmp_opts *o)
{
	const struct stats_estimate *e = rpt_estimate(cell, o->rule);
	json_t *j = json_object();
	char key[64];

	json_object_set_new(j, rpt_axis_name(s->axis), json_string(s->cols[c]));
	json_object_set_new(j, "base", json_boolean(c == s->base));
	json_object_set_new(j, "n", json_integer((json_int_t)cell->n));
	if (!cell->n)
		return j;
	json_object_set_new(j, "sessions", json_integer((json_int_t)cell->st.sessions));
	json_object_set_new(j, "mean", json_num(cell->st.mean));
	json_object_set_new(j, "stddev", json_num(cell->st.stddev));
	json_object_set_new(j, "cv", json_num(cell->st.cv));
	json_interval(j, o->alpha, "", e->ci_low, e->ci_high);
	rpt_level_key(o->alpha, "", "halfwidth_pct", key, sizeof(key));
	json_object_set_new(j, key, json_num(stats_ci_halfwidth_pct(cell->st.mean, e)));
	json_object_set_new(j, "level", json_num(cell->st.level));
	json_object_set_new(j, "outliers", json_outliers(cell));
	if (cell->has_change)
		json_change(j, &cell->change, o->alpha);
	return j;
}

/* A result class's noise on this machine (clearpath calibrate). */
static json_t *json_floor(const struct cmp_floor *f)
{
	return json_pack("{s:I, s:o, s:o, s:o, s:o}", "sessions", (json_int_t)f->sessions, "between_session_pct",
			 json_num(f->between_pct), "within_session_pct", json_num(f->within_pct), "mde_4_sessions_pct",
			 json_num(f->mde4_pct), "sessions_needed",
			 isfinite(f->sessions_needed) ? json_integer((json_int_t)f->sessions_needed) : json_null());
}

/* The geomean row: one entry per column, change_pct null for the base and where no row has a ratio. */
static json_t *json_geomean(const struct cmp_set *s, const struct cmp_block *blk)
{
	json_t *cols = json_array();

	for (size_t c = 0; c < s->ncols; c++)
		json_array_append_new(cols, json_pack("{s:s, s:b, s:o}", rpt_axis_name(s->axis), s->cols[c],
						      "base", c == s->base, "change_pct",
						      c == s->base ? json_null() : json_num(blk->geomean_pct[c])));
	return json_pack("{s:s, s:o}", "label", "geometric mean of ratios (+ is better)", "columns", cols);
}

static json_t *json_block(const struct rpt_result *r, size_t b)
{
	const struct cmp_set *s = r->set;
	const struct cmp_block *blk = &s->blocks[b];
	json_t *results = json_array(), *differ = r->settings_differ ? r->settings_differ[b] : NULL;
	json_t *thp = r->thp_always ? r->thp_always[b] : NULL;

	for (size_t i = 0; i < blk->nrows; i++) {
		const struct cmp_row *row = &blk->rows[i];
		json_t *cols = json_array();

		for (size_t c = 0; c < s->ncols; c++)
			json_array_append_new(cols, json_cell(s, c, &row->cells[c], r->cmp));
		json_t *res = json_pack("{s:s, s:s, s:s, s:b, s:o}", "benchmark", row->bench, "resultclass",
					row->rclass, "unit", row->unit, "higher_is_better", row->higher_is_better,
					"columns", cols);

		if (row->has_floor)
			json_object_set_new(res, "noise_floor", json_floor(&row->floor));
		json_array_append_new(results, res);
	}
	json_t *j = json_pack("{s:s, s:o, s:o, s:O, s:O}", rpt_block_key(s->axis), blk->name, "results", results,
			      "geomean", rpt_profile_only(blk) ? json_null() : json_geomean(s, blk), "settings_differ", differ ? differ : json_array(),
			      "thp_always", thp ? thp : json_array());

	if (j && r->header && b < r->header->nblocks)
		json_object_set_new(j, "header", rpt_header_json(&r->header->blocks[b]));
	if (j && r->profiles)
		json_object_set(j, "profiles", r->profiles[b]);
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

static int json_render_result(const struct rpt_result *r, const struct rpt_opts *o, FILE *out)
{
	const struct cmp_set *s = r->set;
	json_t *blocks = json_array();
	char level[32];

	(void)o;	/* every statistic is there: --stats and colour change nothing */
	rpt_level_label(r->cmp->alpha, level, sizeof(level));
	for (size_t b = 0; b < s->nblocks; b++)
		json_array_append_new(blocks, json_block(r, b));
	return json_write(json_pack("{s:s, s:s, s:s, s:f, s:f, s:f, s:f, s:o}", "columns", rpt_axis_name(s->axis),
				    "base", s->cols[s->base], "rule",
				    r->cmp->rule == STATS_RULE_FASTPATH ? "fastpath" : "nested",
				    "alpha", r->cmp->alpha, "confidence_level_pct", strtod(level, NULL),
				    "min_effect_pct", r->cmp->min_effect_pct, "target_pct", r->cmp->target_pct,
				    "blocks", blocks),
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
	.render_result = json_render_result,
};
