/* rpt_figure: a result class of the comparison as a plot figure: samples by session, column means, intervals. */
#define _GNU_SOURCE	/* asprintf */
#include "report/html.h"
#include "report/impl.h"

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

int rpt_sessions_of(const struct cmp_set *s, size_t b, struct rpt_sessions *ss)
{
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
static char *rpt_change_note(const struct cmp_cell *c)
{
	const struct stats_change *ch = &c->change;
	char *s = NULL, pct[32];

	if (!c->n || !c->has_change || isnan(ch->pct))
		return NULL;
	rpt_pct(ch->pct, true, pct, sizeof(pct));
	if (asprintf(&s, "%s%s%%", ch->verdict == STATS_IMPROVEMENT ? "(I) " :
				   ch->verdict == STATS_REGRESSION ? "(R) " : "", pct) < 0)
		return NULL;
	return s;
}

/* Column @c: its mean and interval (the base's own; the change's, placed on the base mean, elsewhere). */
static int rpt_figure_column(const struct rpt_result *r, const struct cmp_row *row, size_t c,
			     struct rpt_figure *f)
{
	const struct cmp_set *s = r->set;
	const struct cmp_cell *cell = &row->cells[c], *base = &row->cells[s->base];
	struct plot_column *col = &f->cols[c];

	*col = (struct plot_column){ s->cols[c], cell->n ? cell->st.mean : NAN, NAN, NAN, NULL, cell->nuuids };
	if (c == s->base && cell->n) {
		const struct stats_estimate *e = rpt_estimate(cell, r->cmp->rule);

		col->lo = e->ci_low;
		col->hi = e->ci_high;
		col->note = "base";
	} else if (cell->n && cell->has_change && base->n && isfinite(cell->change.ci_low) &&
		   isfinite(cell->change.ci_high)) {
		col->lo = base->st.mean * (1 + cell->change.ci_low / 100);
		col->hi = base->st.mean * (1 + cell->change.ci_high / 100);
	}
	if (c != s->base) {
		f->notes[c] = rpt_change_note(cell);
		col->note = f->notes[c];
	}
	return 0;
}

int rpt_figure_build(const struct rpt_result *r, size_t b, size_t row_ix, const struct rpt_sessions *ss,
		     struct rpt_figure *f)
{
	const struct cmp_set *s = r->set;
	const struct cmp_row *row = &s->blocks[b].rows[row_ix];
	size_t npts = 0;

	memset(f, 0, sizeof(*f));
	for (size_t c = 0; c < s->ncols; c++)
		npts += row->cells[c].n;
	f->cols = calloc(s->ncols, sizeof(*f->cols));
	f->notes = calloc(s->ncols, sizeof(*f->notes));
	f->pts = calloc(npts ? npts : 1, sizeof(*f->pts));
	if (!f->cols || !f->notes || !f->pts || asprintf(&f->title, "%s (%s)", row->rclass, row->unit) < 0) {
		f->title = NULL;
		rpt_figure_free(f);
		return -ENOMEM;
	}
	f->fig.ncols = s->ncols;
	for (size_t c = 0; c < s->ncols; c++) {
		const struct cmp_cell *cell = &row->cells[c];

		rpt_figure_column(r, row, c, f);
		for (size_t i = 0; i < cell->n; i++) {
			size_t sess = rpt_session_find(ss, cell->uuids[cell->sessions[i]]);

			f->pts[f->fig.npts++] = (struct plot_point){ c, sess == CMP_INDEX_NONE ? 0 : sess,
								     (size_t)cell->sessions[i], cell->values[i] };
		}
	}
	f->fig.title = f->title;
	f->fig.unit = row->unit;
	f->fig.cols = f->cols;
	f->fig.pts = f->pts;
	f->fig.nsessions = ss->n;
	return 0;
}
