/* report: the result and table models behind `clearpath show` and the formats that print them. */
#ifndef CLEARPATH_REPORT_REPORT_H
#define CLEARPATH_REPORT_REPORT_H

#include "result/result.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Two models.  The result (result/result.h: a view, its blocks, rows and
 * cells with their estimates, states and notes) is what `show` renders:
 * every format reads it: json writes it out whole; the text formats have it
 * laid out as tables (rpt_result.c) and render those.
 *
 * The table model is format-agnostic: a title, columns, rows of UTF-8 string cells
 * and footer lines.  Statistics live elsewhere; the caller formats every cell
 * ("63932542232.12", "(I) 1.92%") and the renderers only lay them out.
 *
 * Groups: the caller puts the full group name (the Benchmark) on every row of
 * a column added with RPT_COL_GROUP.  Human formats (box, grid, compact,
 * markdown) print it only where it changes; csv repeats it on every row so
 * that each record stands alone in a spreadsheet.
 */

/* Column flags; the default is a left-aligned text column. */
enum rpt_col_flags {
	RPT_COL_RIGHT = 1 << 0,	/* right-align cells (numbers); headers stay left as in the seed */
	RPT_COL_GROUP = 1 << 1,	/* repeats of the previous row's cell are blanked (at most one) */
};

/* How a cell's value reads; box, grid and compact colour it when asked. */
enum rpt_tone {
	RPT_TONE_NEUTRAL = 0,
	RPT_TONE_IMPROVED,	/* green */
	RPT_TONE_REGRESSED,	/* red */
};

/* The longest line the compact format ever prints, in display columns. */
#define RPT_COMPACT_WIDTH 72

struct rpt_table;
struct rpt_header;

struct rpt_opts {
	bool color;		/* ANSI colour by tone; ignored by markdown, csv and json */
	bool stats;		/* results: n, cv and the confidence interval in every text cell */
	size_t width;		/* the widest line a text format may print; 0: unlimited (compact: 72) */
	bool human;		/* results: "59.54 GB/sec" rather than "63932542232.12" (units_human) */
	/*
	 * Set (when not NULL) where a table was printed in the compact format
	 * because no split of it fits @width: the caller says so, since the
	 * format asked for is not what was printed.
	 */
	bool *compacted;
};

/*
 * One output format: a name for --format, a function that renders a table,
 * and how it renders a result.  A new format is one file defining a
 * `const struct rpt_format` plus one line in rpt_registry.c.  Every function
 * returns 0 or a negative errno (-ENOMEM, -EIO for a failed write).
 */
/* What a format can show, so that callers ask it instead of testing its name. */
enum rpt_caps {
	/* With render_view NULL: one table for all blocks, each row naming its block (csv has no titles). */
	RPT_CAP_ONE_TABLE = 1 << 0,
	/* Every number as data, whatever --stats says (json): the noise floor is worth reading for it. */
	RPT_CAP_DATA = 1 << 1,
	/* Prose after the tables (show --profile's summary): the human formats. */
	RPT_CAP_PROSE = 1 << 2,
};

struct rpt_format {
	const char *name;
	const char *desc;
	int (*render)(const struct rpt_table *t, const struct rpt_opts *o, FILE *out);
	/* A view in this format; NULL: laid out as tables (one per block) and rendered with render(). */
	int (*render_view)(const struct result_view *v, const struct rpt_opts *o, FILE *out);
	unsigned caps;		/* enum rpt_caps */
};

/* A new empty table titled @title (NULL: no title line); NULL when out of memory. */
struct rpt_table *rpt_table_new(const char *title);
/* Free @t and every string it holds; NULL is fine. */
void rpt_table_free(struct rpt_table *t);

/*
 * Append a column headed @header with @flags (enum rpt_col_flags).  Returns 0,
 * -EINVAL once rows exist or for a second RPT_COL_GROUP column, -ENOMEM.
 */
int rpt_table_add_column(struct rpt_table *t, const char *header, unsigned flags);

/*
 * Append a row of @n cells (@n must equal the number of columns; a NULL cell is
 * empty).  @tones may be NULL (all neutral).  Strings are copied; tabs, newlines
 * and other control characters become spaces because every format is one line
 * per row.  Returns 0, -EINVAL on a count mismatch or no columns, -ENOMEM.
 */
int rpt_table_add_row(struct rpt_table *t, const char *const *cells, size_t n,
		      const enum rpt_tone *tones);

/* Append a line printed under the table (a legend, the test setup).  Returns 0 or -ENOMEM. */
int rpt_table_add_footer(struct rpt_table *t, const char *line);
/* The same for a footer that warns (the comparison mixes settings): the page styles it. */
int rpt_table_add_warning(struct rpt_table *t, const char *line);

/* Append a line printed between the title and the table (the header: machine, kernels).  0 or -ENOMEM. */
int rpt_table_add_preamble(struct rpt_table *t, const char *line);

/* Number of formats in the registry, and the i-th (NULL past the end), for --format help. */
size_t rpt_format_count(void);
const struct rpt_format *rpt_format_at(size_t i);
/* The format called @name, or NULL when there is none. */
const struct rpt_format *rpt_format_find(const char *name);

/*
 * Render @t in format @name to @out (@o may be NULL: defaults).  Returns 0,
 * -EINVAL for an unknown format, -ENOMEM, or -EIO when writing to @out failed.
 */
int rpt_render(const struct rpt_table *t, const char *name, const struct rpt_opts *o, FILE *out);

/*
 * Render the view @v in format @f to @out (@o may be NULL: defaults).
 * Returns 0, -ENOMEM, or -EIO when writing failed.
 */
int rpt_render_view(const struct result_view *v, const struct rpt_format *f, const struct rpt_opts *o, FILE *out);

/*
 * Block @b of the view @v laid out as the text formats lay it out (title,
 * columns, rows, geomean row, legend and warnings), as a new table in *@out
 * for a renderer of the caller's (the HTML report).  Returns 0, -EINVAL for
 * a block @v does not have, or -ENOMEM.
 */
int rpt_view_table(const struct result_view *v, size_t b, const struct rpt_opts *ro, struct rpt_table **out);

/*
 * The confidence level of @alpha as it names things: "95" for 0.05, "80" for
 * 0.2, "99.9" for 0.001 (%.10g of 100 * (1 - alpha)), into @buf.  JSON keys
 * use it with '.' as '_' ("ci99_9_low"), see rpt_level_key().
 */
void rpt_level_label(double alpha, char *buf, size_t len);
/* "ci<level>_<what>" for @alpha, '.' in the level written '_': "ci95_low", "change_ci80_high" with @prefix "change_". */
void rpt_level_key(double alpha, const char *prefix, const char *what, char *buf, size_t len);

/*
 * Render @t in format @f to @out within @o->width columns (0: as rpt_render).
 * When the table is wider, its columns are split into several tables that
 * each repeat the columns @key marks (an array of t's column count: the
 * Benchmark, Result Class and base columns), the first with the title and
 * header lines, the last with the footers; when the keys and even one more
 * column do not fit, the whole table is rendered as compact instead.  No
 * column is ever dropped.  Returns as rpt_render().
 */
int rpt_render_fit(const struct rpt_table *t, const bool *key, const struct rpt_format *f,
		   const struct rpt_opts *o, FILE *out);

/* Like rpt_render() but into a malloc'd NUL-terminated string; NULL on any failure. */
char *rpt_render_string(const struct rpt_table *t, const char *name, const struct rpt_opts *o);

/*
 * Display width of the UTF-8 string @s in terminal columns (CJK 2, combining
 * marks 0), whatever the process locale is.  An invalid byte counts as 1.
 */
size_t rpt_width(const char *s);

#endif
