/* show_json: `clearpath show --format json`, every cell's statistics and verdict for scripts (jansson). */
#include "cli/show.h"
#include "util/log.h"

#include <jansson.h>
#include <math.h>

/* jansson cannot encode NaN or infinity: an undefined statistic is null. */
static json_t *sj_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *sj_cell(const struct cmp_set *s, size_t c, const struct cmp_cell *cell,
		       const struct show_opts *o, int *regressions)
{
	const struct stats_estimate *e = o->cmp->rule == STATS_RULE_FASTPATH ? &cell->st.pooled
									      : &cell->st.nested;
	json_t *j = json_object();

	json_object_set_new(j, show_axis_name(s->axis), json_string(s->cols[c]));
	json_object_set_new(j, "base", json_boolean(c == s->base));
	json_object_set_new(j, "n", json_integer((json_int_t)cell->n));
	if (!cell->n)
		return j;
	json_object_set_new(j, "sessions", json_integer((json_int_t)cell->st.sessions));
	json_object_set_new(j, "mean", sj_num(cell->st.mean));
	json_object_set_new(j, "stddev", sj_num(cell->st.stddev));
	json_object_set_new(j, "cv", sj_num(cell->st.cv));
	json_object_set_new(j, "ci95_low", sj_num(e->ci_low));
	json_object_set_new(j, "ci95_high", sj_num(e->ci_high));
	if (!cell->has_change)
		return j;
	json_object_set_new(j, "change_pct", sj_num(cell->change.pct));
	json_object_set_new(j, "change_ci95_low", sj_num(cell->change.ci_low));
	json_object_set_new(j, "change_ci95_high", sj_num(cell->change.ci_high));
	json_object_set_new(j, "p_value", sj_num(cell->change.p_value));
	json_object_set_new(j, "verdict", json_string(stats_verdict_name(cell->change.verdict)));
	if (cell->change.verdict == STATS_INSUFFICIENT && cell->change.why_insufficient)
		json_object_set_new(j, "why", json_string(cell->change.why_insufficient));
	if (cell->change.verdict == STATS_REGRESSION)
		(*regressions)++;
	return j;
}

static json_t *sj_block(const struct cmp_set *s, const struct cmp_block *blk, const struct show_opts *o,
			int *regressions)
{
	json_t *results = json_array();

	for (size_t r = 0; r < blk->nrows; r++) {
		const struct cmp_row *row = &blk->rows[r];
		json_t *cols = json_array();

		for (size_t c = 0; c < s->ncols; c++)
			json_array_append_new(cols, sj_cell(s, c, &row->cells[c], o, regressions));
		json_array_append_new(results, json_pack("{s:s, s:s, s:s, s:b, s:o}", "benchmark", row->bench,
							 "resultclass", row->rclass, "unit", row->unit,
							 "higher_is_better", row->higher_is_better,
							 "columns", cols));
	}
	return json_pack("{s:s, s:o, s:o}", s->axis == CMP_BY_SUT ? "swprofile" : "sut", blk->name,
			 "results", results, "settings_differ", show_env_diffs(s, blk, o->envs));
}

int show_json(const struct cmp_set *s, const struct show_opts *o, FILE *out, int *regressions)
{
	json_t *blocks = json_array(), *doc;
	int ret;

	*regressions = 0;
	for (size_t b = 0; b < s->nblocks; b++)
		json_array_append_new(blocks, sj_block(s, &s->blocks[b], o, regressions));
	doc = json_pack("{s:s, s:s, s:s, s:f, s:f, s:o}", "columns", show_axis_name(s->axis),
			"base", s->cols[s->base], "rule",
			o->cmp->rule == STATS_RULE_FASTPATH ? "fastpath" : "nested", "alpha", o->cmp->alpha,
			"min_effect_pct", o->cmp->min_effect_pct, "blocks", blocks);
	if (!doc) {
		log_err("out of memory building JSON");
		return EXIT_INTERNAL;
	}
	ret = json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	fputc('\n', out);
	json_decref(doc);
	return ret ? EXIT_RESOURCE : 0;
}
