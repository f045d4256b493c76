/* rpt_figure: a result class of the comparison as a plot figure: samples by session, column means, intervals. */
#define _GNU_SOURCE	/* asprintf */
#include "report/html.h"
#include "report/impl.h"
#include "util/units.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rpt_session_key {
	const struct rpt_sessions *ss;
	const char *uuid;
};

static bool rpt_session_eq(size_t pos, const void *key)
{
	const struct rpt_session_key *k = key;

	return !strcmp(k->ss->uuids[pos], k->uuid);
}

/* The colour index of session @uuid in @ss, or CMP_INDEX_NONE. */
static size_t rpt_session_find(const struct rpt_sessions *ss, const char *uuid)
{
	struct rpt_session_key k = { ss, uuid };

	return cmp_index_find(&ss->ix, cmp_hash(CMP_HASH_SEED, uuid), rpt_session_eq, &k);
}

int rpt_sessions_of(const struct result_view *v, size_t b, struct rpt_sessions *ss)
{
	const struct cmp_set *s = v->set;
	const struct cmp_block *blk = &s->blocks[b];

	memset(ss, 0, sizeof(*ss));
	for (size_t r = 0; r < blk->nrows; r++)
		for (size_t c = 0; c < s->ncols; c++) {
			const struct cmp_cell *cell = &blk->rows[r].cells[c];

			for (size_t u = 0; u < cell->nuuids; u++) {
				const char **grown;

				if (rpt_session_find(ss, cell->uuids[u]) != CMP_INDEX_NONE)
					continue;
				grown = realloc(ss->uuids, (ss->n + 1) * sizeof(*grown));
				if (!grown || cmp_index_add(&ss->ix, cmp_hash(CMP_HASH_SEED, cell->uuids[u]), ss->n)) {
					free(grown ? grown : ss->uuids);
					ss->uuids = NULL;
					rpt_sessions_free(ss);
					return -ENOMEM;
				}
				ss->uuids = grown;
				ss->uuids[ss->n++] = cell->uuids[u];
			}
		}
	return 0;
}

void rpt_sessions_free(struct rpt_sessions *ss)
{
	free(ss->uuids);
	cmp_index_free(&ss->ix);
	memset(ss, 0, sizeof(*ss));
}

void rpt_figure_free(struct rpt_figure *f)
{
	for (size_t c = 0; f->notes && c < f->fig.ncols; c++)
		free(f->notes[c]);
	free(f->notes);
	free(f->cols);
	free(f->pts);
	free(f->title);
	memset(f, 0, sizeof(*f));
}

/* "(I) +1.92%" as the table says it, or NULL where the table shows no change. */
static char *rpt_change_note(const struct result_cell *c)
{
	char *s = NULL, pct[32];

	if (!c->change)
		return NULL;
	rpt_pct(c->change->pct, true, pct, sizeof(pct));
	if (asprintf(&s, "%s%s%%", result_state_mark(c->state), pct) < 0)
		return NULL;
	return s;
}

/* Column @c: its level and interval, as the result has them. */
static void rpt_figure_column(const struct result_view *v, const struct result_row *row, size_t c,
			      struct rpt_figure *f)
{
	const struct result_cell *cell = &row->cells[c];
	struct plot_column *col = &f->cols[c];

	*col = (struct plot_column){ v->cols[c], cell->level, cell->level_low, cell->level_high, NULL,
				     cell->src ? cell->src->nuuids : 0 };
	if (c == v->base && cell->src)
		col->note = "base";
	if (c != v->base) {
		f->notes[c] = rpt_change_note(cell);
		col->note = f->notes[c];
	}
}

/*
 * A rate in bytes is drawn in perf's GB/sec, as the tables' human units
 * print it: an axis of "63.5G" bytes/sec would be a 1000-based G beside
 * the 1024-based GB/sec everywhere else.
 */
static void rpt_figure_units(struct rpt_figure *f, const char *unit)
{
	const double gb = 1024.0 * 1024 * 1024;

	f->fig.unit = unit;
	if (!units_is_byte_rate(unit))
		return;
	f->fig.unit = "GB/sec";
	for (size_t c = 0; c < f->fig.ncols; c++) {
		f->cols[c].mean /= gb;
		f->cols[c].lo /= gb;
		f->cols[c].hi /= gb;
	}
	for (size_t i = 0; i < f->fig.npts; i++)
		f->pts[i].value /= gb;
}

int rpt_figure_build(const struct result_view *v, size_t b, size_t row_ix, const struct rpt_sessions *ss,
		     struct rpt_figure *f)
{
	const struct result_row *row = &v->blocks[b].rows[row_ix];
	size_t npts = 0;

	memset(f, 0, sizeof(*f));
	for (size_t c = 0; c < v->ncols; c++)
		npts += row->cells[c].n;
	f->cols = calloc(v->ncols, sizeof(*f->cols));
	f->notes = calloc(v->ncols, sizeof(*f->notes));
	f->pts = calloc(npts ? npts : 1, sizeof(*f->pts));
	if (!f->cols || !f->notes || !f->pts || asprintf(&f->title, "%s (%s)", row->rclass, units_is_byte_rate(row->unit) ? "GB/sec" : row->unit) < 0) {
		f->title = NULL;
		rpt_figure_free(f);
		return -ENOMEM;
	}
	f->fig.ncols = v->ncols;
	for (size_t c = 0; c < v->ncols; c++) {
		const struct cmp_cell *cell = row->cells[c].src;

		rpt_figure_column(v, row, c, f);
		for (size_t i = 0; cell && i < cell->n; i++) {
			size_t sess = rpt_session_find(ss, cell->uuids[cell->sessions[i]]);

			f->pts[f->fig.npts++] = (struct plot_point){ c, sess == CMP_INDEX_NONE ? 0 : sess,
								     (size_t)cell->sessions[i], cell->values[i] };
		}
	}
	rpt_figure_units(f, row->unit);
	f->fig.title = f->title;
	f->fig.cols = f->cols;
	f->fig.pts = f->pts;
	f->fig.nsessions = ss->n;
	return 0;
}
