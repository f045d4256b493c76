/* rpt_compact: the `compact` format, a line per result (wrapped, never cut) and never wider than 72 columns. */
#define _GNU_SOURCE
#include "report/impl.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Mailing lists wrap wide tables into noise, so compact keeps every line
 * within c->width.  Layout:
 *
 *   Results for SUT Class aws-m7g.metal:           title, word-wrapped
 *     A: next-20260821 without this patch (base)   legend: long headers once
 *     B: next-20260821 with this patch
 *   Benchmark / Result Class           A        B  header row: letters
 *   perf/mem                                       group, where it changes
 *     memset -k 1GB -f default  63932542232.12  (I) 1.92%
 *       -s 16GB (bytes/sec)                        label wrapped, never cut
 *   footers, word-wrapped
 *
 * The first non-group column is the label; every other column is a value
 * column named by a letter.  Nothing is cut: a cut number lies, and a cut
 * label hides what tells rows apart (`--thp always` at the end of a result
 * class), so a label wider than its column wraps at its blanks onto
 * continuation lines indented under it.  When the values leave less than
 * COMPACT_MIN_LABEL columns, each result becomes a label line followed by
 * "A value" tokens.  Only ASCII blanks are added, so the format stays as
 * mail-safe as its cells.
 */
#define COMPACT_MIN_LABEL 24
#define COMPACT_GAP 2

struct compact {
	const struct rpt_table *t;
	FILE *out;
	bool color;
	size_t group;		/* the group column, SIZE_MAX when none */
	size_t label;		/* the label column, SIZE_MAX when every column is a group */
	size_t indent;		/* results sit under their group heading */
	size_t *w;		/* display width of each value column */
	size_t lw;		/* label width; 0 selects the stacked layout */
	size_t width;		/* the widest line: RPT_COMPACT_WIDTH, or a narrower --width */
};

static bool compact_is_value(const struct compact *c, size_t col)
{
	return col != c->group && col != c->label;
}

/* @a - @b columns, at least 1: --width can be narrower than the indents (show --width 1). */
static size_t compact_less(size_t a, size_t b)
{
	return a > b ? a - b : 1;
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

/* Whether a line may break at the blank @s[i]: before an option ("-l 5" stays together) or the unit. */
static bool compact_good_break(const char *s, size_t i)
{
	return s[i] == ' ' && (s[i + 1] == '-' || s[i + 1] == '(');
}

/*
 * Byte length of the first line of @s when wrapped to @max columns: the
 * longest prefix that fits and ends before an option or the unit, if that
 * keeps at least half the line, else before any blank, else (one word wider
 * than the line) the longest prefix that fits at all, at least 1 character.
 */
static size_t compact_break(const char *s, size_t max)
{
	size_t fit = rpt_prefix_fit(s, max), cut = fit, w;

	if (!s[fit])
		return fit;
	while (cut && !compact_good_break(s, cut))
		cut--;
	if (rpt_width_n(s, cut) < max / 2)
		for (cut = fit; cut && s[cut] != ' '; cut--)
			;
	while (cut && s[cut - 1] == ' ')
		cut--;
	if (cut)
		return cut;
	return fit ? fit : rpt_char_next(s, &w);
}

/*
 * Write the first line of @s wrapped to @max columns and return its width;
 * *@rest points at what is left for compact_more().
 */
static size_t compact_first(FILE *out, const char *s, size_t max, const char **rest)
{
	size_t n = compact_break(s, max);

	fwrite(s, 1, n, out);
	*rest = s + n + strspn(s + n, " ");
	return rpt_width_n(s, n);
}

/* The continuation lines of a wrapped label: @indent blanks, then at most @max columns each. */
static void compact_more(FILE *out, const char *rest, size_t indent, size_t max)
{
	while (*rest) {
		rpt_pad(out, indent);
		compact_first(out, rest, max, &rest);
		fputc('\n', out);
	}
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
	if (used + COMPACT_MIN_LABEL > c->width)
		c->lw = 0;
	else if (used + natural > c->width)
		c->lw = c->width - used;
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
		rpt_wrap(c->out, lead, strlen(lead), c->t->cols[col].header, c->width);
	}
}

/* @s whole, coloured by @tone when asked; returns the columns written. */
static size_t compact_put(const struct compact *c, const char *s, enum rpt_tone tone)
{
	const char *sgr = c->color ? rpt_tone_sgr(tone) : NULL;

	if (sgr)
		fputs(sgr, c->out);
	fputs(s, c->out);
	if (sgr)
		fputs(RPT_SGR_RESET, c->out);
	return rpt_width(s);
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
			compact_put(c, s, r == SIZE_MAX ? RPT_TONE_NEUTRAL : c->t->rows[r].tones[col]);
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
		if (pos && pos + COMPACT_GAP + need > c->width) {
			fputc('\n', c->out);
			pos = 0;
		}
		if (!pos && indent + need > c->width) {
			/* wider than a line: wrapped at its blanks, so no number is cut */
			char lead[32];

			snprintf(lead, sizeof(lead), "%*s%s ", (int)indent, "", letter);
			rpt_wrap(c->out, lead, strlen(lead), row->cells[col], c->width);
			continue;
		}
		rpt_pad(c->out, pos ? COMPACT_GAP : indent);
		pos += (pos ? COMPACT_GAP : indent) + fprintf(c->out, "%s ", letter);
		pos += compact_put(c, row->cells[col], row->tones[col]);
	}
	if (pos)
		fputc('\n', c->out);
}

/* "Benchmark / Result Class" and the letters over their columns.  Returns 0 or -ENOMEM. */
static int compact_header(const struct compact *c)
{
	const struct rpt_table *t = c->t;
	size_t width = c->lw ? c->indent + c->lw : c->width, done;
	const char *rest;
	char *text = NULL;
	int n;

	if (c->group != SIZE_MAX && c->label != SIZE_MAX)
		n = asprintf(&text, "%s / %s", t->cols[c->group].header, t->cols[c->label].header);
	else
		n = asprintf(&text, "%s", t->cols[c->label != SIZE_MAX ? c->label : 0].header);
	if (n < 0)
		return -ENOMEM;
	done = compact_first(c->out, text, width, &rest);
	if (c->lw)
		compact_values(c, SIZE_MAX, done);
	else
		fputc('\n', c->out);
	compact_more(c->out, rest, COMPACT_GAP, compact_less(width, COMPACT_GAP));
	free(text);
	return 0;
}

/*
 * A result: its label wrapped within the label column (the values on its
 * first line, the rest indented under it), or above "A value" tokens.
 */
static void compact_row(const struct compact *c, size_t r)
{
	const struct rpt_row *row = &c->t->rows[r];
	size_t done = c->indent, max = c->lw ? c->lw : compact_less(c->width, c->indent);
	const char *rest = "";

	if (c->group != SIZE_MAX && !rpt_cell_hidden(c->t, r, c->group) && *row->cells[c->group])
		rpt_wrap(c->out, "", COMPACT_GAP, row->cells[c->group], c->width);
	rpt_pad(c->out, c->indent);
	if (c->label != SIZE_MAX)
		done += compact_first(c->out, row->cells[c->label], max, &rest);
	if (c->lw)
		compact_values(c, r, done);
	else
		fputc('\n', c->out);
	compact_more(c->out, rest, c->indent + COMPACT_GAP, compact_less(max, COMPACT_GAP));
	if (!c->lw)
		compact_stacked(c, r);
}

static int compact_render(const struct rpt_table *t, const struct rpt_opts *o, FILE *out)
{
	struct compact c = { .t = t, .out = out, .color = o->color, .group = SIZE_MAX, .label = SIZE_MAX,
			     .width = o->width && o->width < RPT_COMPACT_WIDTH ? o->width : RPT_COMPACT_WIDTH };
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
		rpt_wrap(out, "", COMPACT_GAP, t->title, c.width);
	for (size_t i = 0; i < t->npreamble; i++) {
		/* an indented line (a column's cmdline) keeps its indent, continuations go deeper */
		size_t lead = strspn(t->preamble[i], " ");
		char pad[16];

		snprintf(pad, sizeof(pad), "%*s", (int)(lead < 8 ? lead : 8), "");
		rpt_wrap(out, pad, strlen(pad) + COMPACT_GAP, t->preamble[i] + lead, c.width);
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
		rpt_wrap(out, "", COMPACT_GAP, t->footers[i], c.width);
	rc = rpt_stream_status(out);
out:
	free(c.w);
	return rc;
}

const struct rpt_format rpt_fmt_compact = {
	.name = "compact",
	.desc = "a line per result within 72 columns, long names wrapped, for mailing lists",
	.render = compact_render,
	.caps = RPT_CAP_PROSE,
};
