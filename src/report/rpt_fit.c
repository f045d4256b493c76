/* rpt_fit: a table fitted to a width (show --width): split into tables that repeat the key columns, else compact. */
#include "report/impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The widest line of @s, in display columns. */
static size_t fit_widest(const char *s)
{
	size_t most = 0;

	while (*s) {
		size_t len = strcspn(s, "\n"), w = rpt_width_n(s, len);

		if (w > most)
			most = w;
		s += len + (s[len] == '\n');
	}
	return most;
}

/*
 * A new table of @t's columns @cols (@n, in order) and every row; the title
 * and the header lines when @head, the footers when @foot.  NULL when out of memory.
 */
static struct rpt_table *fit_select(const struct rpt_table *t, const size_t *cols, size_t n, bool head,
				    bool foot)
{
	struct rpt_table *p = rpt_table_new(head ? t->title : NULL);
	const char **cells = calloc(n ? n : 1, sizeof(*cells));
	enum rpt_tone *tones = calloc(n ? n : 1, sizeof(*tones));
	int ret = p && cells && tones ? 0 : -ENOMEM;

	for (size_t i = 0; !ret && i < n; i++)
		ret = rpt_table_add_column(p, t->cols[cols[i]].header, t->cols[cols[i]].flags);
	for (size_t r = 0; !ret && r < t->nrows; r++) {
		for (size_t i = 0; i < n; i++) {
			cells[i] = t->rows[r].cells[cols[i]];
			tones[i] = t->rows[r].tones[cols[i]];
		}
		ret = rpt_table_add_row(p, cells, n, tones);
	}
	for (size_t i = 0; !ret && head && i < t->npreamble; i++)
		ret = rpt_table_add_preamble(p, t->preamble[i]);
	for (size_t i = 0; !ret && foot && i < t->nfooters; i++)
		ret = rpt_table_add_footer(p, t->footers[i]);
	free(cells);
	free(tones);
	if (ret) {
		rpt_table_free(p);
		return NULL;
	}
	return p;
}

/* The widest line of the columns @cols of @t as format @f draws them (no title, no notes); 0 on failure. */
static size_t fit_width(const struct rpt_table *t, const size_t *cols, size_t n, const struct rpt_format *f,
			const struct rpt_opts *o)
{
	struct rpt_opts plain = *o;	/* colour codes take no columns */
	struct rpt_table *p = fit_select(t, cols, n, false, false);
	char *s;

	plain.color = false;
	s = p ? rpt_render_string(p, f->name, &plain) : NULL;
	size_t w = s ? fit_widest(s) : 0;

	free(s);
	rpt_table_free(p);
	return w;
}

/* Columns @cols = the keys plus the others from @from to @to (exclusive), in the table's order; their count. */
static size_t fit_part(const bool *key, size_t ncols, size_t from, size_t to, size_t *cols)
{
	size_t n = 0;

	for (size_t c = 0; c < ncols; c++)
		if (key[c] || (c >= from && c < to))
			cols[n++] = c;
	return n;
}

/* Write the parts: key columns plus the others from part_start[i] to part_start[i + 1]. */
static int fit_render_parts(const struct rpt_table *t, const bool *key, const size_t *starts, size_t nparts,
			    const struct rpt_format *f, const struct rpt_opts *o, size_t *cols, FILE *out)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < nparts; i++) {
		size_t n = fit_part(key, t->ncols, starts[i], starts[i + 1], cols);
		struct rpt_table *p = fit_select(t, cols, n, i == 0, i + 1 == nparts);

		if (!p)
			return -ENOMEM;
		if (i)
			fputc('\n', out);
		ret = f->render(p, o, out);
		rpt_table_free(p);
	}
	return ret;
}

int rpt_render_fit(const struct rpt_table *t, const bool *key, const struct rpt_format *f,
		   const struct rpt_opts *o, FILE *out)
{
	const struct rpt_format *compact = rpt_format_find("compact");
	size_t *cols = calloc(t->ncols + 1, sizeof(*cols)), *starts = calloc(t->ncols + 2, sizeof(*starts));
	size_t nparts = 0, c = 0, n;
	int ret = cols && starts ? 0 : -ENOMEM;

	if (ret || !o->width || f == compact || fit_width(t, cols, fit_part(key, t->ncols, 0, t->ncols, cols), f, o)
								   <= o->width)
		goto render_whole;
	/* greedy: each part takes the next columns while the key columns and they fit */
	while (c < t->ncols) {
		size_t end = c, good = c;

		for (; end < t->ncols; end++) {
			if (key[end])
				continue;
			n = fit_part(key, t->ncols, c, end + 1, cols);
			if (fit_width(t, cols, n, f, o) > o->width)
				break;
			good = end + 1;
		}
		if (good == c && end < t->ncols) {
			/* not even one more column beside the keys: one compact listing of everything */
			f = compact;
			if (o->compacted)
				*o->compacted = true;
			goto render_whole;
		}
		end = end < t->ncols ? good : t->ncols;
		/* trailing key columns are in every part already */
		if (fit_part(key, t->ncols, c, end, cols) > fit_part(key, t->ncols, 0, 0, cols))
			starts[nparts++] = c;
		c = end;
	}
	if (!nparts) {
		/* only key columns, and even they are too wide: compact, never an empty table */
		f = compact;
		if (o->compacted)
			*o->compacted = true;
		goto render_whole;
	}
	starts[nparts] = t->ncols;
	ret = fit_render_parts(t, key, starts, nparts, f, o, cols, out);
	goto out;
render_whole:
	if (!ret)
		ret = f->render(t, o, out);
out:
	free(cols);
	free(starts);
	return ret;
}
