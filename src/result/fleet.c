/* fleet: gathers, per compared column and result class, each SUT class's base and changed cells of a view (no statistic of its own). */
#include "result/fleet.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Only kernels side by side make a block a SUT class: by parameter a block is a SUT and swprofile. */
bool result_fleet_applies(const struct result_view *v)
{
	return v->opts.axis == CMP_BY_SWPROFILE && v->nblocks > 1 && v->ncols > 1 && !v->profile_only;
}

/* Rows of two blocks are one result class when what decides a row (its class's key) and the unit agree, as compare matches them. */
static bool fleet_same_class(const struct result_row *a, const struct result_row *b)
{
	if (a->src && b->src)
		return !strcmp(a->src->key, b->src->key) && !strcmp(a->unit, b->unit);
	return !strcmp(a->bench, b->bench) && !strcmp(a->rclass, b->rclass) && !strcmp(a->unit, b->unit);
}

/* The row of @blk that is @like's result class, or NULL. */
static const struct result_row *fleet_row_in(const struct result_block *blk, const struct result_row *like)
{
	for (size_t r = 0; r < blk->nrows; r++)
		if (fleet_same_class(&blk->rows[r], like))
			return &blk->rows[r];
	return NULL;
}

/* Whether a block before @b already has @row's class: then its class is gathered already. */
static bool fleet_seen(const struct result_view *v, size_t b, const struct result_row *row)
{
	for (size_t i = 0; i < b; i++)
		if (fleet_row_in(&v->blocks[i], row))
			return true;
	return false;
}

/* The class of @row (first seen in block @from) for column @col: a line per block holding it. */
static int fleet_class(const struct result_view *v, size_t from, const struct result_row *row, size_t col,
		       struct result_fleet_class *out)
{
	*out = (struct result_fleet_class){ .first = row, .col = col };
	out->lines = calloc(v->nblocks, sizeof(*out->lines));
	if (!out->lines)
		return -ENOMEM;
	for (size_t b = from; b < v->nblocks; b++) {
		const struct result_row *r = fleet_row_in(&v->blocks[b], row);

		/* without a change (no base, or no such column there) the cell is a level, no fleet line */
		if (r && r->cells[col].change)
			out->lines[out->nlines++] = (struct result_fleet_line){ &v->blocks[b], r, &r->cells[v->base],
										&r->cells[col] };
	}
	return 0;
}

/* How many classes the fleet of one column has: rows not seen in an earlier block. */
static size_t fleet_count(const struct result_view *v)
{
	size_t n = 0;

	for (size_t b = 0; b < v->nblocks; b++)
		for (size_t r = 0; r < v->blocks[b].nrows; r++)
			n += !fleet_seen(v, b, &v->blocks[b].rows[r]);
	return n;
}

int result_fleet_of(const struct result_view *v, struct result_fleet *out)
{
	size_t per_col;
	int ret = 0;

	*out = (struct result_fleet){ 0 };
	if (!result_fleet_applies(v))
		return 0;
	per_col = fleet_count(v);
	out->classes = calloc(per_col * (v->ncols - 1) + 1, sizeof(*out->classes));
	if (!out->classes)
		return -ENOMEM;
	for (size_t c = 0; !ret && c < v->ncols; c++)
		for (size_t b = 0; c != v->base && !ret && b < v->nblocks; b++)
			for (size_t r = 0; !ret && r < v->blocks[b].nrows; r++) {
				const struct result_row *row = &v->blocks[b].rows[r];

				if (fleet_seen(v, b, row))
					continue;
				ret = fleet_class(v, b, row, c, &out->classes[out->nclasses]);
				if (!ret && out->classes[out->nclasses].nlines)
					out->nclasses++;
				else if (!ret)
					free(out->classes[out->nclasses].lines);
			}
	if (ret)
		result_fleet_free(out);
	return ret;
}

void result_fleet_free(struct result_fleet *f)
{
	for (size_t i = 0; i < f->nclasses; i++)
		free(f->classes[i].lines);
	free(f->classes);
	*f = (struct result_fleet){ 0 };
}
