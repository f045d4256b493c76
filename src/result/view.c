/* view: a finished comparison as the result's view: each cell's estimate, interval and state, the geometric-mean row, the tally. */
#include "result/profile.h"
#include "result/result.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *result_state_name(enum result_state s)
{
	static const char *const names[] = {
		[RESULT_EMPTY] = "empty", [RESULT_BASE] = "base", [RESULT_ALONE] = "alone",
		[RESULT_IMPROVED] = "improvement", [RESULT_REGRESSED] = "regression", [RESULT_SAME] = "same",
		[RESULT_UNDECIDED] = "undecided", [RESULT_INSUFFICIENT] = "insufficient",
		[RESULT_UNMARKED] = "unmarked",
	};

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

const char *result_state_mark(enum result_state s)
{
	switch (s) {
	case RESULT_IMPROVED: return "(I) ";
	case RESULT_REGRESSED: return "(R) ";
	case RESULT_UNDECIDED: return "(?) ";
	case RESULT_INSUFFICIENT: return "(-) ";
	default: return "";
	}
}

const char *result_axis_name(enum cmp_axis a)
{
	return a == CMP_BY_SUT ? "sut" : a == CMP_BY_PARAM ? "value" : "swprofile";
}

const char *result_block_key(enum cmp_axis a)
{
	return a == CMP_BY_SUT ? "swprofile" : "sut";
}

/* What a change's verdict and plan make of a cell. */
static enum result_state view_state(const struct stats_change *ch, enum stats_rule rule)
{
	if (ch->verdict == STATS_IMPROVEMENT)
		return RESULT_IMPROVED;
	if (ch->verdict == STATS_REGRESSION)
		return RESULT_REGRESSED;
	if (ch->verdict == STATS_INSUFFICIENT)
		return RESULT_INSUFFICIENT;
	if (rule == STATS_RULE_FASTPATH)
		return RESULT_UNMARKED;
	return ch->decided ? RESULT_SAME : RESULT_UNDECIDED;
}

/* @pct of @base as a level: base x (1 + pct / 100); NAN unless both are finite. */
static double view_on_base(double base, double pct)
{
	return isfinite(base) && isfinite(pct) ? base * (1 + pct / 100) : NAN;
}

double result_cell_level(const struct cmp_cell *c, enum stats_rule rule)
{
	return rule == STATS_RULE_FASTPATH ? c->st.mean : c->st.level;
}

double result_level_of(const struct cmp_set *s, const struct cmp_row *row, size_t c)
{
	const struct cmp_cell *cell = &row->cells[c], *base = &row->cells[s->base];

	if (!cell->n)
		return NAN;
	/*
	 * independent: the change is the levels' (level / base - 1), so this is
	 * the column's own level up to rounding; paired: the level the
	 * within-session change implies
	 */
	if (c != s->base && cell->has_change && !isnan(cell->change.pct) && cell->change.paired)
		return view_on_base(result_cell_level(base, s->rule), cell->change.pct);
	return result_cell_level(cell, s->rule);
}

static const struct stats_estimate *view_estimate(const struct cmp_cell *c, enum stats_rule rule)
{
	return rule == STATS_RULE_FASTPATH ? &c->st.pooled : &c->st.robust;
}

static void view_cell(const struct cmp_set *s, const struct cmp_row *row, size_t c, const struct cmp_opts *o,
		      struct result_cell *rc)
{
	const struct cmp_cell *cell = &row->cells[c], *base = &row->cells[s->base];
	const struct stats_estimate *e = view_estimate(cell, o->rule);

	*rc = (struct result_cell){ .state = RESULT_EMPTY, .cv = NAN, .level = NAN, .level_low = NAN,
				    .level_high = NAN, .halfwidth_pct = NAN };
	if (!cell->n)
		return;
	rc->src = cell;
	rc->n = cell->n;
	rc->sessions = cell->st.sessions;
	rc->outliers = cell->st.outliers;
	rc->cv = cell->st.cv;
	rc->level = result_level_of(s, row, c);
	if (c == s->base || !cell->has_change || isnan(cell->change.pct)) {
		/* the base, or a column with nothing to compare with: its own level and interval */
		rc->state = c == s->base ? RESULT_BASE : RESULT_ALONE;
		rc->level_low = e->ci_low;
		rc->level_high = e->ci_high;
		rc->halfwidth_pct = stats_ci_halfwidth_pct(rc->level, e);
		return;
	}
	rc->change = &cell->change;
	rc->state = view_state(&cell->change, o->rule);
	rc->implied = cell->change.paired;
	rc->level_low = view_on_base(result_cell_level(base, o->rule), cell->change.ci_low);
	rc->level_high = view_on_base(result_cell_level(base, o->rule), cell->change.ci_high);
}

static void view_tally(struct result_tally *t, const struct result_cell *rc)
{
	t->state[rc->state]++;
	if (!rc->change)
		return;
	t->compared++;
	t->paired += rc->change->paired;
	/* too little data for a verdict is undecided too: what would decide it is worth saying */
	if (rc->state != RESULT_UNDECIDED && rc->state != RESULT_INSUFFICIENT)
		return;
	t->undecided++;
	if (!isfinite(rc->change->sessions_needed))
		t->unplannable++;
	else if (!(rc->change->sessions_needed <= t->most_needed))
		t->most_needed = rc->change->sessions_needed;
}

/* A cell's ratio to the base, 1 + change, when it has a finite positive one; else NAN. */
static double view_ratio(const struct result_cell *rc)
{
	double r = rc->change ? 1 + rc->change->pct / 100 : NAN;

	return isfinite(r) && r > 0 ? r : NAN;
}

/*
 * The geometric-mean row: the geometric mean of the rows' own ratios, so
 * that it summarises the numbers printed above it (a one-row table's equals
 * its row).  Rows whose metrics point different ways are oriented (+ is
 * better) so that they do not cancel.
 */
static int view_geomean(const struct result_view *v, struct result_block *blk)
{
	size_t higher = 0, lower = 0;
	double *r = calloc(blk->nrows ? blk->nrows : 1, sizeof(*r));

	blk->geomean_pct = calloc(v->ncols ? v->ncols : 1, sizeof(double));
	if (!r || !blk->geomean_pct) {
		free(r);
		return -ENOMEM;
	}
	for (size_t i = 0; i < blk->nrows; i++) {
		bool compared = false;

		for (size_t c = 0; c < v->ncols; c++)
			compared |= isfinite(view_ratio(&blk->rows[i].cells[c]));
		if (compared && blk->rows[i].higher_is_better)
			higher++;
		else if (compared)
			lower++;
	}
	blk->geomean_oriented = higher && lower;
	blk->geomean_lower_better = !higher && lower;
	for (size_t c = 0; c < v->ncols; c++) {
		size_t n = 0;

		for (size_t i = 0; c != v->base && i < blk->nrows; i++) {
			double x = view_ratio(&blk->rows[i].cells[c]);

			if (isfinite(x))
				r[n++] = blk->geomean_oriented && !blk->rows[i].higher_is_better ? 1 / x : x;
		}
		blk->geomean_pct[c] = n ? 100 * (stats_geomean(r, n) - 1) : NAN;
	}
	free(r);
	return 0;
}

static int view_block(const struct result_view *v, const struct cmp_block *cb, struct result_block *blk)
{
	blk->name = cb->name;
	blk->tally.most_needed = NAN;
	blk->rows = calloc(cb->nrows ? cb->nrows : 1, sizeof(*blk->rows));
	if (!blk->rows)
		return -ENOMEM;
	for (size_t i = 0; i < cb->nrows; i++) {
		const struct cmp_row *row = &cb->rows[i];
		struct result_row *rr = &blk->rows[blk->nrows++];

		*rr = (struct result_row){ row, row->bench, row->rclass, row->unit, row->higher_is_better,
					   calloc(v->ncols ? v->ncols : 1, sizeof(*rr->cells)),
					   row->has_floor ? &row->floor : NULL, 0, false };
		if (!rr->cells)
			return -ENOMEM;
		for (size_t c = 0; c < v->ncols; c++) {
			view_cell(v->set, row, c, &v->opts, &rr->cells[c]);
			view_tally(&blk->tally, &rr->cells[c]);
		}
	}
	blk->has_geomean = v->ncols > 1 && !result_profile_only(cb);
	return view_geomean(v, blk);
}

int result_view_of(struct cmp_set *set, const struct cmp_opts *o, struct result_view *out)
{
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->opts = *o;
	out->set = set;
	out->cols = set->cols;
	out->ncols = set->ncols;
	out->base = set->base;
	out->samples = set->samples;
	out->blocks = calloc(set->nblocks ? set->nblocks : 1, sizeof(*out->blocks));
	if (!out->blocks)
		return -ENOMEM;
	for (size_t b = 0; !ret && b < set->nblocks; b++) {
		out->nblocks++;
		ret = view_block(out, &set->blocks[b], &out->blocks[b]);
	}
	if (ret)
		result_view_free(out);
	return ret;
}

void result_view_free(struct result_view *v)
{
	if (!v)
		return;
	for (size_t b = 0; b < v->nblocks; b++) {
		struct result_block *blk = &v->blocks[b];

		for (size_t i = 0; i < blk->nrows; i++)
			free(blk->rows[i].cells);
		free(blk->rows);
		free(blk->geomean_pct);
		for (size_t i = 0; i < blk->nnotes; i++)
			free(blk->notes[i].text);
		free(blk->notes);
		json_decref(blk->settings_differ);
		json_decref(blk->thp_always);
		json_decref(blk->profiles);
	}
	free(v->blocks);
	memset(v, 0, sizeof(*v));
}

size_t result_count(const struct result_view *v, enum result_state s)
{
	size_t n = 0;

	for (size_t b = 0; b < v->nblocks; b++)
		n += v->blocks[b].tally.state[s];
	return n;
}

size_t result_tested(const struct result_view *v, const struct result_block *blk)
{
	size_t m = 0;

	for (size_t r = 0; r < blk->nrows; r++)
		for (size_t c = 0; c < v->ncols; c++) {
			const struct stats_change *ch = blk->rows[r].cells[c].change;

			m += ch && ch->verdict != STATS_INSUFFICIENT && !ch->why_undecided && isfinite(ch->p_value);
		}
	return m;
}

bool result_row_points(const struct result_row *row)
{
	return !strcmp(row->unit, "%");
}
