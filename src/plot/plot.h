/* plot: the figure model of the report's plots (samples per column, means, intervals), its scales and ticks, and drawing it with cairo. */
#ifndef CLEARPATH_PLOT_PLOT_H
#define CLEARPATH_PLOT_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * A figure is one result class: a column per swprofile (or parameter value),
 * every sample as a dot coloured by its session, each column's mean as a bar
 * and an interval around it.  The caller fills it from the comparison; the
 * plot module computes nothing statistical, it only lays out and draws.
 */
struct plot_column {
	const char *name;	/* x axis label */
	double mean;		/* NAN: no samples */
	double lo, hi;		/* the interval drawn, in value units; NAN: none */
	const char *note;	/* a line under the name ("+1.92% (I)"); NULL: none */
	size_t nslots;		/* sessions in this column: the samples stand in this many rows side by side */
};

struct plot_point {
	size_t col;		/* index into cols */
	size_t session;		/* colour: index into the figure's sessions */
	size_t slot;		/* position within the column: 0 .. cols[col].nslots - 1 */
	double value;
};

struct plot_figure {
	const char *title;
	const char *unit;		/* the y axis: "bytes/sec" */
	const struct plot_column *cols;
	size_t ncols;
	const struct plot_point *pts;
	size_t npts;
	size_t nsessions;		/* colours in use: 0 .. nsessions - 1 */
	/*
	 * The means are changes in per cent (the fleet's: a machine per
	 * column): the axis holds 0, drawn as a line, and every interval
	 * whole, since the intervals are what such a figure shows.
	 */
	bool changes;
};

/* What plot_write() draws to: the same figure as vector or raster. */
enum plot_kind {
	PLOT_SVG,
	PLOT_PNG,
};

/* The figure's size in points (SVG) and pixels (PNG). */
#define PLOT_WIDTH 720
#define PLOT_HEIGHT 400

/* Ticks of an axis: round values at a round step covering [lo, hi]. */
#define PLOT_MAX_TICKS 16
struct plot_ticks {
	double lo, hi;			/* the axis range: the data's, widened to whole steps */
	double step;
	double v[PLOT_MAX_TICKS];
	size_t n;
};

/*
 * Ticks for data in [@lo, @hi] with about @want (2 .. PLOT_MAX_TICKS - 1)
 * intervals: a step of 1, 2 or 5 times a power of ten, the range widened to
 * multiples of it.  A range of one value (or zero width) is widened around
 * it.  Returns 0, or -EINVAL for non-finite bounds, @lo > @hi or a bad @want.
 */
int plot_ticks(double lo, double hi, unsigned want, struct plot_ticks *t);

/* @hi - @lo (@hi >= @lo, both finite), at most DBL_MAX where the difference overflows. */
double plot_span(double lo, double hi);

/* Map @v in [@lo, @hi] linearly onto [@a, @b] (pixels; @b < @a for an upward y axis). */
double plot_map(double v, double lo, double hi, double a, double b);

/*
 * A tick label of @v on an axis stepping by @step: SI-scaled by the
 * largest magnitude @top on the axis ("63.5G", "950M", "12"), with the
 * decimals the step needs and no more, into @buf.
 */
void plot_tick_label(double v, double step, double top, char *buf, size_t len);

/* The colour of session @i as "#rrggbb" (the palette repeats after its length). */
const char *plot_session_color(size_t i);

/*
 * The figure's y range: every sample and mean, and the interval bounds that
 * lie within the samples' span beyond them (wider ones are clipped when
 * drawn).  False when no sample or mean is finite.
 */
bool plot_data_range(const struct plot_figure *f, double *lo, double *hi);

/*
 * The y axis @f is drawn on: its data range (plot_data_range) with a
 * little air, and ticks over it; never below 0 when no sample or mean is
 * (rates, times, counts: an interval reaching below is clipped).  Returns
 * 0, or -EINVAL when no step fits.
 */
int plot_axis(const struct plot_figure *f, struct plot_ticks *t);

/*
 * Several figures, a panel each, in a grid @per_row wide, under one title:
 * what the report page draws per block (one image for all its result
 * classes: it shares the drawing's fonts, so the page stays small).
 */
struct plot_grid {
	const char *title;
	const struct plot_figure *panels;
	size_t n;
	unsigned per_row;
};

/* Draw @g as @kind to @out: as plot_write(); -EINVAL without panels. */
int plot_grid_write(const struct plot_grid *g, enum plot_kind kind, FILE *out);

/* Whether this build draws (cairo found at build time). */
bool plot_available(void);

/*
 * Draw @f as @kind to @out.  Returns 0, -EINVAL for a figure without columns,
 * -ENOTSUP when built without cairo, -ENOMEM, or -EIO when drawing or
 * writing failed.
 */
int plot_write(const struct plot_figure *f, enum plot_kind kind, FILE *out);

/*
 * A bar figure: one benchmark's --profile shares, a group of bars per row
 * (the clearing category, then the top symbols), a bar per column in the
 * column's colour (plot_session_color(column)), the range across sessions
 * as a whisker on it, the value written at its end.  Like the figure above,
 * filled by the caller; drawn PLOT_WIDTH wide, plot_bars_height() high.
 */
struct plot_bar_row {
	const char *label;
	bool emphasis;		/* drawn bold, on a tinted band: the clearing category */
	const double *value;	/* ncols values; NAN: no bar (the column has none) */
	const double *lo, *hi;	/* ncols; NAN: no whisker */
};

struct plot_bars {
	const char *title;
	const char *unit;		/* the x axis: "% of samples" */
	const char *const *cols;	/* column names, the legend */
	size_t ncols;
	const struct plot_bar_row *rows;
	size_t nrows;
};

/* The height in points (pixels) plot_bars_write() draws @f at. */
int plot_bars_height(const struct plot_bars *f);

/* Draw @f as @kind to @out: as plot_write(); -EINVAL without columns or rows. */
int plot_bars_write(const struct plot_bars *f, enum plot_kind kind, FILE *out);

#endif
