/* impl: the table model's layout and helpers shared by the renderers (not for callers). */
#ifndef CLEARPATH_REPORT_IMPL_H
#define CLEARPATH_REPORT_IMPL_H

#include "report/report.h"

struct rpt_column {
	char *header;
	unsigned flags;		/* enum rpt_col_flags */
};

struct rpt_row {
	char **cells;		/* ncols strings, never NULL */
	enum rpt_tone *tones;	/* ncols tones */
};

struct rpt_table {
	char *title;		/* NULL: no title line */
	struct rpt_column *cols;
	size_t ncols;
	struct rpt_row *rows;
	size_t nrows;
	char **footers;
	bool *warns;		/* per footer: it warns (rpt_table_add_warning), which a format may style */
	size_t nfooters;
	char **preamble;	/* lines between the title and the table (the header) */
	size_t npreamble;
};

/* Glyphs of a framed table; box and grid differ only in these. */
struct rpt_frame_glyphs {
	const char *h, *v;
	const char *top[3];	/* left, joint, right */
	const char *mid[3];
	const char *bot[3];
};

/* Render @t framed by @g (the shared body of box and grid).  Returns 0 or -ENOMEM / -EIO. */
int rpt_frame_render(const struct rpt_table *t, const struct rpt_frame_glyphs *g,
		     const struct rpt_opts *o, FILE *out);

/* Whether row @r's cell in column @c is a repeated group name that human formats blank. */
bool rpt_cell_hidden(const struct rpt_table *t, size_t r, size_t c);

/*
 * Per-column widths: the widest header or cell as measured by @width, at
 * least @min.  A malloc'd array of t->ncols (free it); NULL when out of memory.
 */
size_t *rpt_col_widths(const struct rpt_table *t, size_t (*width)(const char *s), size_t min);

/* The ANSI SGR sequence starting @tone's colour, or NULL for neutral. */
const char *rpt_tone_sgr(enum rpt_tone tone);
#define RPT_SGR_RESET "\033[0m"

/* Write @n spaces to @out. */
void rpt_pad(FILE *out, size_t n);

/*
 * Write @s to @out padded with spaces to @width columns on the side @right
 * says, coloured by @tone when @color.  Cells wider than @width are written
 * whole: callers size columns first.
 */
void rpt_put_cell(FILE *out, const char *s, size_t width, bool right, enum rpt_tone tone, bool color);

/*
 * Byte length of the next character of @s (at least 1 unless *@s is NUL) and
 * its display width in *@w.  A combining mark is its own character of width 0.
 */
size_t rpt_char_next(const char *s, size_t *w);

/* Byte length of the longest prefix of @s no wider than @max columns (trailing zero-width marks kept). */
size_t rpt_prefix_fit(const char *s, size_t max);

/* Display width of the first @len bytes of @s. */
size_t rpt_width_n(const char *s, size_t len);

/*
 * Word-wrap @text after @lead (ASCII) into lines of at most @width columns,
 * continuation lines indented by @indent (less than @width); a word wider
 * than a line is broken.  Ends with a newline.
 */
void rpt_wrap(FILE *out, const char *lead, size_t indent, const char *text, size_t width);

/*
 * A line of notes (title, header, footer) and a newline: whole when @width
 * is 0 or it fits, else wrapped with rpt_wrap(), keeping its leading blanks
 * and indenting continuation lines two columns deeper.
 */
void rpt_note(FILE *out, const char *line, size_t width);


/*
 * A percentage as cells print it, without the "%": two decimals ("+4.00",
 * with @sign a "+" on positive values) while |v| < 10000 (a change within
 * 101x); beyond, the exponent form ("+1.00e+06"), so a cell never grows past
 * 11 characters and nothing is cut; just above -100 as many decimals (up to
 * 12) as tell it from -100 ("-99.9999": a millionth of the base, not zero);
 * "+inf" / "-inf" / "nan" as they are.
 */
void rpt_pct(double v, bool sign, char *buf, size_t len);


/*
 * Cell @col of @row as the tables of @v print it with @ro (the base's level,
 * a change with its mark), and the row's "Result Class (unit)" label: the
 * fleet summary prints the very text of the machines' tables.
 */
void rpt_cell_text(const struct result_view *v, const struct result_row *row, size_t col, const struct rpt_opts *ro,
		   char *buf, size_t len);
void rpt_row_label(const struct result_view *v, const struct result_row *row, const struct rpt_opts *ro, char *buf,
		   size_t len);

/*
 * The fleet summary of @v (result/fleet.h) after its blocks, in format @f:
 * one table per compared column, nothing when the view has no fleet.
 * 0, -ENOMEM or -EIO.  rpt_fleet_table() builds the table of compared
 * column @i (its n-th, counting from 0) for the report page, *@out NULL past the last.
 */
int rpt_fleet_render(const struct result_view *v, const struct rpt_format *f, const struct rpt_opts *ro, FILE *out);
int rpt_fleet_table(const struct result_view *v, size_t i, const struct rpt_opts *ro, struct rpt_table **out);
/* The fleet of @v as JSON ([{column, base, results: [{benchmark, ..., suts: [...]}]}]), NULL when out of memory. */
json_t *rpt_fleet_json(const struct result_view *v);

/* Report -EIO when @out has its error flag set, else 0: renderers' common return. */
int rpt_stream_status(FILE *out);

#endif
