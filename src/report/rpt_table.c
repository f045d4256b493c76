/* rpt_table: building and freeing the table model, plus cell helpers every renderer uses. */
#include "report/impl.h"
#include "util/text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct rpt_table *rpt_table_new(const char *title)
{
	struct rpt_table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	if (title && !(t->title = text_one_line_dup(title))) {
		free(t);
		return NULL;
	}
	return t;
}

static void row_free(struct rpt_row *r, size_t ncols)
{
	if (r->cells)
		for (size_t c = 0; c < ncols; c++)
			free(r->cells[c]);
	free(r->cells);
	free(r->tones);
}

void rpt_table_free(struct rpt_table *t)
{
	if (!t)
		return;
	for (size_t r = 0; r < t->nrows; r++)
		row_free(&t->rows[r], t->ncols);
	for (size_t c = 0; c < t->ncols; c++)
		free(t->cols[c].header);
	for (size_t i = 0; i < t->nfooters; i++)
		free(t->footers[i]);
	free(t->rows);
	free(t->cols);
	for (size_t i = 0; i < t->npreamble; i++)
		free(t->preamble[i]);
	free(t->footers);
	free(t->warns);
	free(t->preamble);
	free(t->title);
	free(t);
}

/* Grow *@arr (of @size-byte items, @n used) by one slot; the new slot is zeroed. */
static int grow(void **arr, size_t n, size_t size)
{
	char *p = realloc(*arr, (n + 1) * size);

	if (!p)
		return -ENOMEM;
	memset(p + n * size, 0, size);
	*arr = p;
	return 0;
}

int rpt_table_add_column(struct rpt_table *t, const char *header, unsigned flags)
{
	char *h;

	if (t->nrows)
		return -EINVAL;
	if (flags & RPT_COL_GROUP)
		for (size_t c = 0; c < t->ncols; c++)
			if (t->cols[c].flags & RPT_COL_GROUP)
				return -EINVAL;
	if (!(h = text_one_line_dup(header)))
		return -ENOMEM;
	if (grow((void **)&t->cols, t->ncols, sizeof(*t->cols))) {
		free(h);
		return -ENOMEM;
	}
	t->cols[t->ncols++] = (struct rpt_column){ h, flags };
	return 0;
}

int rpt_table_add_row(struct rpt_table *t, const char *const *cells, size_t n,
		      const enum rpt_tone *tones)
{
	struct rpt_row row = { 0 };
	int rc = -ENOMEM;

	if (!t->ncols || n != t->ncols)
		return -EINVAL;
	row.cells = calloc(n, sizeof(*row.cells));
	row.tones = calloc(n, sizeof(*row.tones));
	if (!row.cells || !row.tones)
		goto out;
	for (size_t c = 0; c < n; c++) {
		if (!(row.cells[c] = text_one_line_dup(cells[c])))
			goto out;
		row.tones[c] = tones ? tones[c] : RPT_TONE_NEUTRAL;
	}
	if ((rc = grow((void **)&t->rows, t->nrows, sizeof(*t->rows))))
		goto out;
	t->rows[t->nrows++] = row;
	return 0;
out:
	row_free(&row, n);
	return rc;
}

/* Append a copy of @line to the list *@lines of *@n. */
static int add_line(char ***lines, size_t *n, const char *line)
{
	char *l = text_one_line_dup(line);

	if (!l || grow((void **)lines, *n, sizeof(**lines))) {
		free(l);
		return -ENOMEM;
	}
	(*lines)[(*n)++] = l;
	return 0;
}

/* Append footer @line, a warning when @warns. */
static int add_footer(struct rpt_table *t, const char *line, bool warns)
{
	if (grow((void **)&t->warns, t->nfooters, sizeof(*t->warns)))
		return -ENOMEM;
	t->warns[t->nfooters] = warns;
	return add_line(&t->footers, &t->nfooters, line);
}

int rpt_table_add_footer(struct rpt_table *t, const char *line)
{
	return add_footer(t, line, false);
}

int rpt_table_add_warning(struct rpt_table *t, const char *line)
{
	return add_footer(t, line, true);
}

int rpt_table_add_preamble(struct rpt_table *t, const char *line)
{
	return add_line(&t->preamble, &t->npreamble, line);
}

bool rpt_cell_hidden(const struct rpt_table *t, size_t r, size_t c)
{
	return (t->cols[c].flags & RPT_COL_GROUP) && r > 0 &&
	       !strcmp(t->rows[r].cells[c], t->rows[r - 1].cells[c]);
}

size_t *rpt_col_widths(const struct rpt_table *t, size_t (*width)(const char *s), size_t min)
{
	size_t *w = calloc(t->ncols ? t->ncols : 1, sizeof(*w));

	if (!w)
		return NULL;
	for (size_t c = 0; c < t->ncols; c++) {
		w[c] = width(t->cols[c].header);
		if (w[c] < min)
			w[c] = min;
		for (size_t r = 0; r < t->nrows; r++) {
			size_t cw = width(t->rows[r].cells[c]);

			if (cw > w[c])
				w[c] = cw;
		}
	}
	return w;
}

const char *rpt_tone_sgr(enum rpt_tone tone)
{
	switch (tone) {
	case RPT_TONE_IMPROVED:
		return "\033[32m";
	case RPT_TONE_REGRESSED:
		return "\033[31m";
	default:
		return NULL;
	}
}

void rpt_pad(FILE *out, size_t n)
{
	while (n--)
		fputc(' ', out);
}

void rpt_put_cell(FILE *out, const char *s, size_t width, bool right, enum rpt_tone tone, bool color)
{
	size_t w = rpt_width(s);
	size_t gap = w < width ? width - w : 0;
	const char *sgr = color && *s ? rpt_tone_sgr(tone) : NULL;

	if (right)
		rpt_pad(out, gap);
	/* Colour the text only, not its padding: the escape codes take no columns. */
	if (sgr)
		fputs(sgr, out);
	fputs(s, out);
	if (sgr)
		fputs(RPT_SGR_RESET, out);
	if (!right)
		rpt_pad(out, gap);
}

int rpt_stream_status(FILE *out)
{
	return ferror(out) ? -EIO : 0;
}
