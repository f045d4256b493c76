/* rpt_frame: the framed table layout of the seed's results, shared by box and grid. */
#include "report/impl.h"

#include <errno.h>
#include <stdlib.h>

/* A horizontal rule: @ends[0], the joint @ends[1] between columns, @ends[2]. */
static void frame_rule(FILE *out, const struct rpt_frame_glyphs *g, const char *const ends[3],
		       const size_t *w, size_t ncols)
{
	fputs(ends[0], out);
	for (size_t c = 0; c < ncols; c++) {
		/* one space of padding on either side of the widest cell */
		for (size_t i = 0; i < w[c] + 2; i++)
			fputs(g->h, out);
		fputs(c + 1 < ncols ? ends[1] : ends[2], out);
	}
	fputc('\n', out);
}

static void frame_header(FILE *out, const struct rpt_table *t, const struct rpt_frame_glyphs *g,
			 const size_t *w)
{
	fputs(g->v, out);
	for (size_t c = 0; c < t->ncols; c++) {
		fputc(' ', out);
		/* Headers stay left-aligned over number columns too, as in the seed. */
		rpt_put_cell(out, t->cols[c].header, w[c], false, RPT_TONE_NEUTRAL, false);
		fputc(' ', out);
		fputs(g->v, out);
	}
	fputc('\n', out);
}

static void frame_row(FILE *out, const struct rpt_table *t, size_t r, const struct rpt_frame_glyphs *g,
		      const size_t *w, bool color)
{
	const struct rpt_row *row = &t->rows[r];

	fputs(g->v, out);
	for (size_t c = 0; c < t->ncols; c++) {
		const char *s = rpt_cell_hidden(t, r, c) ? "" : row->cells[c];

		fputc(' ', out);
		rpt_put_cell(out, s, w[c], t->cols[c].flags & RPT_COL_RIGHT, row->tones[c], color);
		fputc(' ', out);
		fputs(g->v, out);
	}
	fputc('\n', out);
}

int rpt_frame_render(const struct rpt_table *t, const struct rpt_frame_glyphs *g,
		     const struct rpt_opts *o, FILE *out)
{
	size_t *w = rpt_col_widths(t, rpt_width, 0);

	if (!w)
		return -ENOMEM;
	if (t->title)
		rpt_note(out, t->title, o->width);
	for (size_t i = 0; i < t->npreamble; i++)
		rpt_note(out, t->preamble[i], o->width);
	if (t->ncols) {
		frame_rule(out, g, g->top, w, t->ncols);
		frame_header(out, t, g, w);
		frame_rule(out, g, g->mid, w, t->ncols);
		for (size_t r = 0; r < t->nrows; r++)
			frame_row(out, t, r, g, w, o->color);
		frame_rule(out, g, g->bot, w, t->ncols);
	}
	for (size_t i = 0; i < t->nfooters; i++)
		rpt_note(out, t->footers[i], o->width);
	free(w);
	return rpt_stream_status(out);
}
