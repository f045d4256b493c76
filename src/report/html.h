/* html: `clearpath report`, one self-contained HTML page (tables, plots, fingerprints, the clear study), and the plots as files. */
#ifndef CLEARPATH_REPORT_HTML_H
#define CLEARPATH_REPORT_HTML_H

#include "plot/plot.h"
#include "report/report.h"

#include <jansson.h>
#include <stdio.h>

struct rpt_study;

/*
 * What the page shows: the result `show` renders (the same views, tables,
 * numbers and verdicts: the page lays out rpt_view_table() and computes
 * nothing), with what the store says about the machines, kernels and
 * sessions behind it (RESULT_WANT_SESSIONS), the profiles kept apart
 * (RESULT_WANT_PROFILE_APART) and the clearing-strategy study.
 */
struct rpt_page {
	const struct result *result;
	const char *source;		/* what the page was made from, for its first line ("store X") */
};

/* What `report --format` writes: the page (one file), or the plots alone (a directory of files). */
struct rpt_output {
	const char *name;
	const char *desc;
	bool plots;		/* a directory of plot files, not the page */
	enum plot_kind kind;	/* the plots' kind */
};

/* The outputs in the order --help lists them, and the one called @name (NULL: none). */
size_t rpt_output_count(void);
const struct rpt_output *rpt_output_at(size_t i);
const struct rpt_output *rpt_output_find(const char *name);

/*
 * Write the page for @p to @out: no external reference (styles inline, plots
 * as data: URIs).  Returns 0, -ENOTSUP when built without cairo, -ENOMEM, or
 * -EIO when writing failed.
 */
int rpt_html_write(const struct rpt_page *p, FILE *out);

/*
 * Write every plot of @r as a file of @kind into the existing directory
 * @dir, one per result class of each block of each view (and per profiled
 * benchmark), named after both ("1-aws-m7g-metal-2-mmap-p-4kb.svg", blocks
 * numbered across the views), printing each path to @names.  Returns 0 or
 * a negative errno (-ENOTSUP without cairo), after log_err() for a file
 * that cannot be written.
 */
int rpt_plots_write(const struct result *r, enum plot_kind kind, const char *dir, FILE *names);

/* How a figure is drawn: plot_write() or plot_bars_write() behind one signature. */
typedef int rpt_draw_fn(const void *fig, enum plot_kind kind, FILE *out);

/*
 * The figure @fig, drawn as SVG by @draw, as <figure class="@cls"
 * data-@attr="@title"> holding an <img> with a data: URI, captioned @title.
 * 0, or @draw's error (then nothing is written).
 */
int rpt_html_plot(const char *cls, const char *attr, const char *title, rpt_draw_fn *draw, const void *fig,
		  FILE *out);
/* As rpt_html_plot(), with @data (NULL: none) as the figure's data-panels attribute. */
int rpt_html_plot_data(const char *cls, const char *attr, const char *title, const char *data, rpt_draw_fn *draw,
		       const void *fig, FILE *out);

/*
 * The figure @fig drawn as @kind by @draw into the file @dir/@name, the
 * path printed to @names.  0 or a negative errno, after log_err().
 */
int rpt_plot_file(const char *dir, const char *name, enum plot_kind kind, rpt_draw_fn *draw, const void *fig,
		  FILE *names);

/* "aws-m7g-metal": lower-case letters and digits, every other run one '-', at most @len - 1 bytes. */
void rpt_slug(const char *s, char *buf, size_t len);

/* The table @t as an HTML <table> with its title and footers around it: 0 or -EIO. */
int rpt_html_table(const struct rpt_table *t, FILE *out);
/* As rpt_html_table(), the <table> of class @cls ("fleet": not a machine's results table). */
int rpt_html_table_class(const struct rpt_table *t, const char *cls, FILE *out);

/*
 * The panels @panels (@n of them) as one figure, two per row under @title,
 * with what each is drawn from as its data-panels attribute (per panel its
 * title, unit, the axis range drawn and per column the level and interval:
 * tests/cli/browser_check.py reads it): <figure class="plot grid"
 * data-@attr="@title">.  0, -ENOMEM or the drawing's error.
 */
int rpt_html_grid(const char *attr, const char *title, const struct plot_figure *panels, size_t n, FILE *out);

/*
 * The fleet summary of view @v (result/fleet.h) as a section of the page:
 * per compared column its table and a figure, a panel per result class, a
 * column per SUT class with its change and interval side by side.  Nothing
 * when @v has no fleet.  0, -ENOMEM or -EIO.
 */
int rpt_fleet_html(const struct result_view *v, FILE *out);
/* The fleet's figures of @v as files of @kind in @dir, one per result class and compared column ("fleet-1-memset-..."), each path to @names. */
int rpt_fleet_plots_write(const struct result_view *v, enum plot_kind kind, const char *dir, FILE *names);

/* @s with &, <, >, " and ' escaped, to @out. */
void rpt_html_escape(const char *s, FILE *out);

/* @len bytes of @data base64-encoded (RFC 4648, padded) to @out. */
void rpt_base64(const unsigned char *data, size_t len, FILE *out);

/*
 * The figure of row @row of block @b: one column per comparison column,
 * every sample coloured by its session's position among the block's
 * sessions, each column's level (the number the table prints), the base's
 * confidence interval and, on the others, the interval of the change placed
 * on the base's level (result_cell.level_low/high).
 */
struct rpt_figure {
	struct plot_figure fig;
	struct plot_column *cols;
	struct plot_point *pts;
	char **notes;
	char *title;
};

/* A block's sessions in order of first appearance: the colour of each in every plot of the block. */
struct rpt_sessions {
	const char **uuids;	/* pointers into the block's cells */
	size_t n;
	struct cmp_index ix;
};

/* Collect block @b's sessions into @ss (zeroed first).  0 or -ENOMEM. */
int rpt_sessions_of(const struct result_view *v, size_t b, struct rpt_sessions *ss);
void rpt_sessions_free(struct rpt_sessions *ss);

/* Fill @f for row @row of block @b of @v.  0 or -ENOMEM (then @f is freed). */
int rpt_figure_build(const struct result_view *v, size_t b, size_t row, const struct rpt_sessions *ss,
		     struct rpt_figure *f);
void rpt_figure_free(struct rpt_figure *f);

#endif
