/* plot_bars: a profile's shares as grouped horizontal bars (a group per symbol, a bar per column), drawn with cairo. */
#include "plot/plot.h"

#include <errno.h>
#include <math.h>

/* Rows of the figure: a bar per column, groups apart, room for the title and legend above and the axis below. */
#define BARS_BAR 13.0
#define BARS_BAR_GAP 2.0
#define BARS_GROUP_GAP 12.0
#define BARS_TOP 62.0
#define BARS_BOTTOM 44.0
#define BARS_LEFT 250.0		/* the labels: symbol names */
#define BARS_RIGHT 64.0		/* the last bar's value */

static double plot_bars_group(const struct plot_bars *f)
{
	return (double)f->ncols * (BARS_BAR + BARS_BAR_GAP) - BARS_BAR_GAP + BARS_GROUP_GAP;
}

int plot_bars_height(const struct plot_bars *f)
{
	return (int)ceil(BARS_TOP + (double)f->nrows * plot_bars_group(f) + BARS_BOTTOM);
}

#ifdef CLEARPATH_HAVE_CAIRO
#include "plot/cairo_impl.h"

#include <stdio.h>

struct bars_area {
	double x0, x1, y0;
	struct plot_ticks ticks;
};

static double bars_x(const struct bars_area *a, double v)
{
	return plot_map(v, a->ticks.lo, a->ticks.hi, a->x0, a->x1);
}

/* The largest value or whisker end: the axis runs from 0 to it. */
static double bars_top(const struct plot_bars *f)
{
	double top = 0;

	for (size_t r = 0; r < f->nrows; r++)
		for (size_t c = 0; c < f->ncols; c++) {
			const struct plot_bar_row *row = &f->rows[r];

			if (isfinite(row->value[c]))
				top = fmax(top, row->value[c]);
			if (row->hi && isfinite(row->hi[c]))
				top = fmax(top, row->hi[c]);
		}
	return top > 0 ? top : 1;
}

/* Text no wider than @max: the font shrunk to fit, down to 7 points, then cut by the clip. */
static void bars_fit_text(cairo_t *cr, const char *s, double size, double max, double x, double y, double anchor)
{
	cairo_text_extents_t e;

	cairo_set_font_size(cr, size);
	cairo_text_extents(cr, s, &e);
	if (e.x_advance > max && e.x_advance > 0)
		cairo_set_font_size(cr, fmax(7, size * max / e.x_advance));
	plot_text(cr, s, x, y, anchor);
}

/* The title, and a swatch and name per column, side by side; names shrink when they would not fit. */
static void bars_legend(cairo_t *cr, const struct plot_bars *f)
{
	double x = 12, room = (PLOT_WIDTH - 24) / (double)f->ncols;

	plot_rgb(cr, "#000000");
	bars_fit_text(cr, f->title ? f->title : "", 13, PLOT_WIDTH - 24, 12, 22, 0);
	for (size_t c = 0; c < f->ncols; c++) {
		cairo_text_extents_t e;

		plot_rgb(cr, plot_session_color(c));
		cairo_rectangle(cr, x, 34, 12, 12);
		cairo_fill(cr);
		plot_rgb(cr, "#222222");
		bars_fit_text(cr, f->cols[c], 11, room - 22, x + 16, 44, 0);
		cairo_text_extents(cr, f->cols[c], &e);
		x += 16 + fmin(e.x_advance, room - 22) + 20;
	}
}

/* Vertical grid lines at the ticks and their labels under the rows, the unit below them. */
static void bars_axis(cairo_t *cr, const struct plot_bars *f, const struct bars_area *a, double y1)
{
	char label[32];

	cairo_set_line_width(cr, 1);
	cairo_set_font_size(cr, 11);
	for (size_t i = 0; i < a->ticks.n; i++) {
		double x = round(bars_x(a, a->ticks.v[i])) + 0.5;

		plot_rgb(cr, "#e0e0e0");
		cairo_move_to(cr, x, a->y0 - 4);
		cairo_line_to(cr, x, y1);
		cairo_stroke(cr);
		plot_tick_label(a->ticks.v[i], a->ticks.step, a->ticks.hi, label, sizeof(label));
		plot_rgb(cr, "#333333");
		plot_text(cr, label, x, y1 + 14, 0.5);
	}
	plot_text(cr, f->unit ? f->unit : "", (a->x0 + a->x1) / 2, y1 + 32, 0.5);
}

/* The whisker of a bar: the range across sessions, at the bar's middle. */
static void bars_whisker(cairo_t *cr, const struct bars_area *a, double lo, double hi, double y)
{
	plot_rgb(cr, "#222222");
	cairo_set_line_width(cr, 1.2);
	cairo_move_to(cr, bars_x(a, lo), y);
	cairo_line_to(cr, bars_x(a, hi), y);
	for (int end = 0; end < 2; end++) {
		cairo_move_to(cr, bars_x(a, end ? hi : lo), y - 3.5);
		cairo_line_to(cr, bars_x(a, end ? hi : lo), y + 3.5);
	}
	cairo_stroke(cr);
}

/* The tinted band behind an emphasised row @r, under the grid. */
static void bars_band(cairo_t *cr, const struct plot_bars *f, const struct bars_area *a, size_t r)
{
	double y = a->y0 + (double)r * plot_bars_group(f);

	plot_rgb(cr, "#fff1dc");
	cairo_rectangle(cr, 4, y - BARS_GROUP_GAP / 2 + 1, PLOT_WIDTH - 8, plot_bars_group(f) - 2);
	cairo_fill(cr);
}

/* Row @r: its label and a bar per column with its value and the whisker of its sessions. */
static void bars_row(cairo_t *cr, const struct plot_bars *f, const struct bars_area *a, size_t r)
{
	const struct plot_bar_row *row = &f->rows[r];
	double y = a->y0 + (double)r * plot_bars_group(f), h = plot_bars_group(f) - BARS_GROUP_GAP;
	char value[32];

	cairo_select_font_face(cr, PLOT_FONT, CAIRO_FONT_SLANT_NORMAL,
			       row->emphasis ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	plot_rgb(cr, "#111111");
	bars_fit_text(cr, row->label, 11, a->x0 - 16, a->x0 - 8, y + h / 2 + 4, 1);
	cairo_select_font_face(cr, PLOT_FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	for (size_t c = 0; c < f->ncols; c++) {
		double by = y + (double)c * (BARS_BAR + BARS_BAR_GAP), v = row->value[c];

		if (!isfinite(v))
			continue;
		plot_rgb(cr, plot_session_color(c));
		cairo_rectangle(cr, a->x0, by, fmax(1, bars_x(a, v) - a->x0), BARS_BAR);
		cairo_fill(cr);
		if (row->lo && row->hi && isfinite(row->lo[c]) && isfinite(row->hi[c]) && row->hi[c] > row->lo[c])
			bars_whisker(cr, a, row->lo[c], row->hi[c], by + BARS_BAR / 2);
		snprintf(value, sizeof(value), "%.1f%%", v);
		plot_rgb(cr, "#222222");
		cairo_set_font_size(cr, 10);
		plot_text(cr, value, fmax(bars_x(a, v), row->hi && isfinite(row->hi[c]) ? bars_x(a, row->hi[c]) : 0) + 4,
			  by + BARS_BAR - 3, 0);
	}
}

static int bars_draw(cairo_t *cr, const void *fig)
{
	const struct plot_bars *f = fig;
	struct bars_area a = { .x0 = BARS_LEFT, .x1 = PLOT_WIDTH - BARS_RIGHT, .y0 = BARS_TOP };
	double y1 = BARS_TOP + (double)f->nrows * plot_bars_group(f) - BARS_GROUP_GAP / 2;

	if (plot_ticks(0, bars_top(f), 5, &a.ticks))
		return -EINVAL;
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_select_font_face(cr, PLOT_FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	bars_legend(cr, f);
	for (size_t r = 0; r < f->nrows; r++)
		if (f->rows[r].emphasis)
			bars_band(cr, f, &a, r);
	bars_axis(cr, f, &a, y1);
	for (size_t r = 0; r < f->nrows; r++)
		bars_row(cr, f, &a, r);
	/* the zero line the bars grow from */
	plot_rgb(cr, "#333333");
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, a.x0 + 0.5, a.y0 - 4);
	cairo_line_to(cr, a.x0 + 0.5, y1);
	cairo_stroke(cr);
	return cairo_status(cr) == CAIRO_STATUS_SUCCESS ? 0 : -ENOMEM;
}

int plot_bars_write(const struct plot_bars *f, enum plot_kind kind, FILE *out)
{
	if (!f->ncols || !f->nrows)
		return -EINVAL;
	return plot_surface_write(kind, PLOT_WIDTH, plot_bars_height(f), bars_draw, f, out);
}

#else

int plot_bars_write(const struct plot_bars *f, enum plot_kind kind, FILE *out)
{
	(void)f, (void)kind, (void)out;
	return -ENOTSUP;
}

#endif
