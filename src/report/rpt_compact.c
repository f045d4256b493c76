/* rpt_compact: the `compact` format, one line per result and never wider than 72 columns. */
#define _GNU_SOURCE
#include "report/impl.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Mailing lists wrap wide tables into noise, so compact keeps every line
 * within RPT_COMPACT_WIDTH.  Layout:
 *
 *   Results for SUT Class aws-m7g.metal:           title, word-wrapped
 *     A: next-20260821 without this patch (base)   legend: long headers once
 *     B: next-20260821 with this patch
 *   Benchmark / Result Class           A        B  header row: letters
 *   perf/mem                                       group, where it changes
 *     memset -k 1GB ... (bytes/sec)  6393...  (I) 1.92%
 *   footers, word-wrapped
 *
 * The first non-group column is the label; every other column is a value
 * column named by a letter.  Values are never cut (a cut number lies); the
 * label gives way instead, cut in the middle so that both the benchmark and
 * its unit survive.  When the values leave less than COMPACT_MIN_LABEL
 * columns, each result becomes a label line followed by "A value" tokens.
 * Only ASCII is added ("..."), so the format stays as mail-safe as its cells.
 */
#define COMPACT_MIN_LABEL 24
#define COMPACT_GAP 2
#define COMPACT_ELLIPSIS "..."

struct compact {
	const struct rpt_table *t;
	FILE *out;
	bool color;
	size_t group;		/* the group column, SIZE_MAX when none */
	size_t label;		/* the label column, SIZE_MAX when every column is a group */
	size_t indent;		/* results sit under their group heading */
	size_t *w;		/* display width of each value column */
	size_t lw;		/* label width; 0 selects the stacked layout */
};

static bool compact_is_value(const struct compact *c, size_t col)
{
	return col != c->group && col != c->label;
}

/* Bijective base 26: A..Z, AA, AB, ... for the @j-th value column. */
static void compact_letter(size_t j, char buf[16])
{
	char tmp[16];
	size_t n = 0;

	for (j++; j && n < sizeof(tmp) - 1; j = (j - 1) / 26)
		tmp[n++] = (char)('A' + (j - 1) % 26);
	for (size_t i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = '\0';
}

/* Byte offset of the shortest suffix of @s that is at most @max columns wide, not starting on a mark. */
static size_t compact_suffix(const char *s, size_t max)
{
	size_t left = rpt_width(s), i = 0, w, n;

	while ((n = rpt_char_next(s + i, &w)) && (left > max || !w)) {
		left -= w;
		i += n;
	}
	return i;
}

/* Write @s cut to at most @max columns (head...tail when too wide); returns the columns written. */
static size_t compact_fit(FILE *out, const char *s, size_t max)
{
	size_t w = rpt_width(s), room, head, tail;

	if (w <= max) {
		fputs(s, out);
		return w;
	}
	if (max <= strlen(COMPACT_ELLIPSIS)) {
		head = rpt_prefix_fit(s, max);
		fwrite(s, 1, head, out);
		return rpt_width_n(s, head);
	}
	room = max - strlen(COMPACT_ELLIPSIS);
	head = rpt_prefix_fit(s, room - room / 2);
	tail = compact_suffix(s, room / 2);
	fwrite(s, 1, head, out);
	fputs(COMPACT_ELLIPSIS, out);
	fputs(s + tail, out);
	return rpt_width_n(s, head) + strlen(COMPACT_ELLIPSIS) + rpt_width(s + tail);
}

static void compact_newline(FILE *out, size_t indent)
{
	fputc('\n', out);
	rpt_pad(out, indent);
}

/*
 * Word-wrap @text after @lead (ASCII) into lines of at most RPT_COMPACT_WIDTH,
 * continuation lines indented by @indent; a word wider than a line is broken.
 */
static void compact_wrap(FILE *out, const char *lead, size_t indent, const char *text)
{
	size_t col = strlen(lead), start = col;

	fputs(lead, out);
	for (const char *p = text + strspn(text, " "); *p; p += strspn(p, " ")) {
		size_t len = strcspn(p, " "), ww = rpt_width_n(p, len);

		if (col > start && col + 1 + ww > RPT_COMPACT_WIDTH) {
			compact_newline(out, indent);
			col = start = indent;
		} else if (col > start) {
			fputc(' ', out);
			col++;
		}
		while (ww > RPT_COMPACT_WIDTH - col) {
			size_t n = rpt_prefix_fit(p, RPT_COMPACT_WIDTH - col);

			fwrite(p, 1, n, out);
			p += n;
			len -= n;
			ww = rpt_width_n(p, len);
			compact_newline(out, indent);
			col = start = indent;
		}
		fwrite(p, 1, len, out);
		col += ww;
		p += len;
	}
	fputc('\n', out);
}

/* Choose the label and value widths; the stacked layout (lw 0) when the values leave too little room. */
static void compact_layout(struct compact *c)
{
	const struct rpt_table *t = c->t;
	size_t used = c->indent, natural = 0, j = 0;

	for (size_t col = 0; col < t->ncols; col++) {
		char letter[16];

		if (!compact_is_value(c, col))
			continue;
		compact_letter(j++, letter);
		c->w[col] = strlen(letter);
		for (size_t r = 0; r < t->nrows; r++) {
			size_t w = rpt_width(t->rows[r].cells[col]);

			if (w > c->w[col])
				c->w[col] = w;
		}
		used += COMPACT_GAP + c->w[col];
	}
	for (size_t r = 0; c->label != SIZE_MAX && r < t->nrows; r++) {
		size_t w = rpt_width(t->rows[r].cells[c->label]);

		if (w > natural)
			natural = w;
	}
	if (used + COMPACT_MIN_LABEL > RPT_COMPACT_WIDTH)
		c->lw = 0;
	else if (used + natural > RPT_COMPACT_WIDTH)
		c->lw = RPT_COMPACT_WIDTH - used;
	else
		c->lw = natural > COMPACT_MIN_LABEL ? natural : COMPACT_MIN_LABEL;
}

/* "A: header" for every value column, so long headers are printed once. */
static void compact_legend(const struct compact *c)
{
	size_t j = 0;

	for (size_t col = 0; col < c->t->ncols; col++) {
		char letter[16], lead[24];

		if (!compact_is_value(c, col))
			continue;
		compact_letter(j++, letter);
		/* no blank after the colon when there is no header to follow it */
		snprintf(lead, sizeof(lead), "  %s:%s", letter, *c->t->cols[col].header ? " " : "");
		compact_wrap(c->out, lead, strlen(lead), c->t->cols[col].header);
	}
}

/* @s cut to @max columns, coloured by @tone when asked; returns the columns written. */
static size_t compact_put(const struct compact *c, const char *s, size_t max, enum rpt_tone tone)
{
	const char *sgr = c->color ? rpt_tone_sgr(tone) : NULL;
	size_t w;

	if (sgr)
		fputs(sgr, c->out);
	w = compact_fit(c->out, s, max);
	if (sgr)
		fputs(RPT_SGR_RESET, c->out);
	return w;
}

/* Row @r's cell in value column @col (the @j-th), or its letter on the header row (@r SIZE_MAX). */
static const char *compact_value(const struct compact *c, size_t r, size_t col, size_t j, char letter[16])
{
	if (r != SIZE_MAX)
		return c->t->rows[r].cells[col];
	compact_letter(j, letter);
	return letter;
}

/*
 * The value cells of row @r (letters for SIZE_MAX) after a label that took
 * @done columns.  Blanks are held back until text follows them, so no line
 * ends in spaces.
 */
static void compact_values(const struct compact *c, size_t r, size_t done)
{
	size_t pending = c->indent + c->lw - done, j = 0;

	for (size_t col = 0; col < c->t->ncols; col++) {
		bool right = c->t->cols[col].flags & RPT_COL_RIGHT;
		char letter[16];
		const char *s;
		size_t gap;

		if (!compact_is_value(c, col))
			continue;
		s = compact_value(c, r, col, j++, letter);
		gap = c->w[col] - rpt_width(s);
		pending += COMPACT_GAP + (right ? gap : 0);
		if (*s) {
			rpt_pad(c->out, pending);
			pending = 0;
			compact_put(c, s, SIZE_MAX, r == SIZE_MAX ? RPT_TONE_NEUTRAL : c->t->rows[r].tones[col]);
		}
		pending += right ? 0 : gap;
	}
	fputc('\n', c->out);
}

/* The stacked layout's values: "A value" tokens packed into lines under the label. */
static void compact_stacked(const struct compact *c, size_t r)
{
	const struct rpt_row *row = &c->t->rows[r];
	size_t indent = c->indent + COMPACT_GAP, pos = 0, j = 0;

	for (size_t col = 0; col < c->t->ncols; col++) {
		char letter[16];
		size_t need;

		if (!compact_is_value(c, col))
			continue;
		compact_letter(j++, letter);
		if (!*row->cells[col])
			continue;
		need = strlen(letter) + 1 + rpt_width(row->cells[col]);
		if (pos && pos + COMPACT_GAP + need > RPT_COMPACT_WIDTH) {
			fputc('\n', c->out);
			pos = 0;
		}
		rpt_pad(c->out, pos ? COMPACT_GAP : indent);
		pos += (pos ? COMPACT_GAP : indent) + fprintf(c->out, "%s ", letter);
		pos += compact_put(c, row->cells[col], RPT_COMPACT_WIDTH - pos, row->tones[col]);
	}
	if (pos)
		fputc('\n', c->out);
}

/* "Benchmark / Result Class" and the letters over their columns.  Returns 0 or -ENOMEM. */
static int compact_header(const struct compact *c)
{
	const struct rpt_table *t = c->t;
	size_t width = c->lw ? c->indent + c->lw : RPT_COMPACT_WIDTH, done;
	char *text = NULL;
	int n;

	if (c->group != SIZE_MAX && c->label != SIZE_MAX)
		n = asprintf(&text, "%s / %s", t->cols[c->group].header, t->cols[c->label].header);
	else
		n = asprintf(&text, "%s", t->cols[c->label != SIZE_MAX ? c->label : 0].header);
	if (n < 0)
		return -ENOMEM;
	done = compact_fit(c->out, text, width);
	free(text);
	if (c->lw)
		compact_values(c, SIZE_MAX, done);
	else
		fputc('\n', c->out);
	return 0;
}

static void compact_row(const struct compact *c, size_t r)
{
	const struct rpt_row *row = &c->t->rows[r];
	size_t done = c->indent;

	if (c->group != SIZE_MAX && !rpt_cell_hidden(c->t, r, c->group) && *row->cells[c->group]) {
		compact_fit(c->out, row->cells[c->group], RPT_COMPACT_WIDTH);
		fputc('\n', c->out);
	}
	rpt_pad(c->out, c->indent);
	if (c->label != SIZE_MAX)
		done += compact_fit(c->out, row->cells[c->label],
				    c->lw ? c->lw : RPT_COMPACT_WIDTH - c->indent);
	if (c->lw) {
		compact_values(c, r, done);
	} else {
		fputc('\n', c->out);
		compact_stacked(c, r);
	}
}

static int compact_render(const struct rpt_table *t, const struct rpt_opts *o, FILE *out)
{
	struct compact c = { .t = t, .out = out, .color = o->color, .group = SIZE_MAX, .label = SIZE_MAX };
	int rc = 0;

	for (size_t col = 0; col < t->ncols; col++) {
		if (t->cols[col].flags & RPT_COL_GROUP)
			c.group = col;
		else if (c.label == SIZE_MAX)
			c.label = col;
	}
	c.indent = c.group != SIZE_MAX ? COMPACT_GAP : 0;
	if (!(c.w = calloc(t->ncols ? t->ncols : 1, sizeof(*c.w))))
		return -ENOMEM;
	if (t->title)
		compact_wrap(out, "", COMPACT_GAP, t->title);
	for (size_t i = 0; i < t->npreamble; i++) {
		/* an indented line (a column's cmdline) keeps its indent, continuations go deeper */
		size_t lead = strspn(t->preamble[i], " ");
		char pad[16];

		snprintf(pad, sizeof(pad), "%*s", (int)(lead < 8 ? lead : 8), "");
		compact_wrap(out, pad, strlen(pad) + COMPACT_GAP, t->preamble[i] + lead);
	}
	if (t->ncols) {
		compact_layout(&c);
		compact_legend(&c);
		if ((rc = compact_header(&c)))
			goto out;
		for (size_t r = 0; r < t->nrows; r++)
			compact_row(&c, r);
	}
	for (size_t i = 0; i < t->nfooters; i++)
		compact_wrap(out, "", COMPACT_GAP, t->footers[i]);
	rc = rpt_stream_status(out);
out:
	free(c.w);
	return rc;
}

const struct rpt_format rpt_fmt_compact = {
	.name = "compact",
	.desc = "one line per result within 72 columns, for mailing lists",
	.render = compact_render,
};
