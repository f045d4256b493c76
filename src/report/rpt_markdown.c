/* rpt_markdown: the `markdown` format, a GitHub-flavoured Markdown table of the same rows. */
#include "report/impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/*
 * Characters that would end a cell (|) or start emphasis, code, links or HTML.
 * Escaping them keeps "mem_clear" or "a|b" literal when GitHub renders the table.
 */
static const char md_special[] = "\\|*_`[]<>";

/* Display width of @s once escaped: each escape adds one ASCII backslash. */
static size_t md_width(const char *s)
{
	size_t w = rpt_width(s);

	for (const char *p = s; *p; p++)
		if (strchr(md_special, *p))
			w++;
	return w;
}

static void md_put(FILE *out, const char *s)
{
	for (const char *p = s; *p; p++) {
		if (strchr(md_special, *p))
			fputc('\\', out);
		fputc(*p, out);
	}
}

/* One table line; padding keeps the source readable in a plain-text mail too. */
static void md_cell(FILE *out, const char *s, size_t width, bool right)
{
	size_t gap = width - md_width(s);

	fputc(' ', out);
	if (right)
		rpt_pad(out, gap);
	md_put(out, s);
	if (!right)
		rpt_pad(out, gap);
	fputs(" |", out);
}

static void md_delimiter(FILE *out, const struct rpt_table *t, const size_t *w)
{
	fputc('|', out);
	for (size_t c = 0; c < t->ncols; c++) {
		bool right = t->cols[c].flags & RPT_COL_RIGHT;

		fputs(right ? " " : " :", out);
		for (size_t i = 1; i < w[c]; i++)
			fputc('-', out);
		fputs(right ? ": |" : " |", out);
	}
	fputc('\n', out);
}

/* @lead then @s escaped, as a line of notes fitted to @width (rpt_note); @s whole when out of memory. */
static void md_note(FILE *out, const char *lead, const char *s, size_t width)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	if (mem) {
		fputs(lead, mem);
		md_put(mem, s);
	}
	if (mem && !fclose(mem)) {
		rpt_note(out, buf, width);
	} else {
		fputs(lead, out);
		md_put(out, s);
		fputc('\n', out);
	}
	free(buf);
}

/* A paragraph of its own: consecutive Markdown lines would merge into one. */
static void md_paragraph(FILE *out, const char *s, size_t width)
{
	md_note(out, "", s, width);
	fputc('\n', out);
}

/*
 * The header as a list: a line indented under the previous one (a column's
 * cmdline under its kernel) becomes a nested item.
 */
static void md_preamble(FILE *out, const struct rpt_table *t, size_t width)
{
	for (size_t i = 0; i < t->npreamble; i++) {
		const char *s = t->preamble[i];
		size_t indent = strspn(s, " ");
		char lead[16];

		snprintf(lead, sizeof(lead), "%*s- ", (int)(indent < 8 ? indent : 8), "");
		md_note(out, lead, s + indent, width);
	}
	if (t->npreamble)
		fputc('\n', out);
}

static int md_render(const struct rpt_table *t, const struct rpt_opts *o, FILE *out)
{
	/* at least 3 so the delimiter row reads ":--" or "--:" */
	size_t *w = rpt_col_widths(t, md_width, 3);

	/* never colour: escape codes would show up as text */
	if (!w)
		return -ENOMEM;
	if (t->title)
		md_paragraph(out, t->title, o->width);
	md_preamble(out, t, o->width);
	if (t->ncols) {
		fputc('|', out);
		for (size_t c = 0; c < t->ncols; c++)
			md_cell(out, t->cols[c].header, w[c], false);
		fputc('\n', out);
		md_delimiter(out, t, w);
		for (size_t r = 0; r < t->nrows; r++) {
			fputc('|', out);
			for (size_t c = 0; c < t->ncols; c++)
				md_cell(out, rpt_cell_hidden(t, r, c) ? "" : t->rows[r].cells[c], w[c],
					t->cols[c].flags & RPT_COL_RIGHT);
			fputc('\n', out);
		}
	}
	for (size_t i = 0; i < t->nfooters; i++) {
		fputc('\n', out);
		md_note(out, "", t->footers[i], o->width);
	}
	free(w);
	return rpt_stream_status(out);
}

const struct rpt_format rpt_fmt_markdown = {
	.name = "markdown",
	.desc = "a GitHub-flavoured Markdown table",
	.render = md_render,
	.caps = RPT_CAP_PROSE,
};
