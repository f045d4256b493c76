/* plot_cairo: draw a figure with cairo, the same drawing to an SVG or a PNG surface (built only with CLEARPATH_HAVE_CAIRO). */
#include "plot/plot.h"

#include <errno.h>

#ifdef CLEARPATH_HAVE_CAIRO
#include "plot/cairo_impl.h"

#include <cairo-svg.h>
#include <math.h>
#include <string.h>

/* The plot area inside the figure: room for tick labels left, title above, names and notes below. */
#define PLOT_LEFT 84.0
#define PLOT_RIGHT 16.0
#define PLOT_TOP 40.0
#define PLOT_BOTTOM 64.0

struct plot_area {
	double x0, x1, y0, y1;	/* y0 the top in pixels */
	struct plot_ticks ticks;
	double band;		/* width of one column */
};

void plot_rgb(cairo_t *cr, const char *hex)
{
	unsigned v = 0;

	sscanf(hex + 1, "%6x", &v);
	cairo_set_source_rgb(cr, ((v >> 16) & 255) / 255.0, ((v >> 8) & 255) / 255.0, (v & 255) / 255.0);
}

static double plot_y(const struct plot_area *a, double v)
{
	return plot_map(v, a->ticks.lo, a->ticks.hi, a->y1, a->y0);
}

void plot_text(cairo_t *cr, const char *s, double x, double y, double anchor)
{
	cairo_text_extents_t e;

	cairo_text_extents(cr, s, &e);
	cairo_move_to(cr, x - anchor * e.x_advance, y);
	cairo_show_text(cr, s);
}

static void plot_axes(cairo_t *cr, const struct plot_figure *f, const struct plot_area *a)
{
	char label[32];

	cairo_set_font_size(cr, 11);
	cairo_set_line_width(cr, 1);
	for (size_t i = 0; i < a->ticks.n; i++) {
		double y = round(plot_y(a, a->ticks.v[i])) + 0.5;

		plot_rgb(cr, "#e0e0e0");
		cairo_move_to(cr, a->x0, y);
		cairo_line_to(cr, a->x1, y);
		cairo_stroke(cr);
		plot_tick_label(a->ticks.v[i], a->ticks.step, fmax(fabs(a->ticks.lo), fabs(a->ticks.hi)), label,
				sizeof(label));
		plot_rgb(cr, "#333333");
		plot_text(cr, label, a->x0 - 6, y + 4, 1);
	}
	plot_rgb(cr, "#333333");
	cairo_rectangle(cr, a->x0 + 0.5, a->y0 + 0.5, a->x1 - a->x0 - 1, a->y1 - a->y0 - 1);
	cairo_stroke(cr);
	/* the unit, rotated along the y axis */
	cairo_save(cr);
	cairo_translate(cr, 18, (a->y0 + a->y1) / 2);
	cairo_rotate(cr, -M_PI / 2);
	plot_text(cr, f->unit ? f->unit : "", 0, 0, 0.5);
	cairo_restore(cr);
	cairo_set_font_size(cr, 13);
	plot_text(cr, f->title ? f->title : "", PLOT_LEFT, 22, 0);
}

/* Column names and notes under the axis; a name wider than its band is shrunk to fit. */
static void plot_names(cairo_t *cr, const struct plot_figure *f, const struct plot_area *a)
{
	for (size_t c = 0; c < f->ncols; c++) {
		double x = a->x0 + (c + 0.5) * a->band, size = 11;
		cairo_text_extents_t e;

		cairo_set_font_size(cr, size);
		cairo_text_extents(cr, f->cols[c].name, &e);
		if (e.x_advance > a->band - 4 && e.x_advance > 0)
			cairo_set_font_size(cr, fmax(6, size * (a->band - 4) / e.x_advance));
		plot_rgb(cr, "#000000");
		plot_text(cr, f->cols[c].name, x, a->y1 + 18, 0.5);
		if (f->cols[c].note) {
			cairo_set_font_size(cr, 11);
			plot_rgb(cr, "#555555");
			plot_text(cr, f->cols[c].note, x, a->y1 + 36, 0.5);
		}
	}
}

/*
 * Every sample: a dot in its session's colour, the column's sessions side
 * by side.  A dot is a round-capped segment of no length, and each
 * session's dots one path: one element per colour in the SVG, not one
 * circle of four curves per sample (the report page carries hundreds).
 */
static void plot_points(cairo_t *cr, const struct plot_figure *f, const struct plot_area *a)
{
	cairo_save(cr);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
	cairo_set_line_width(cr, 6.4);
	for (size_t s = 0; s < f->nsessions || (!f->nsessions && s == 0); s++) {
		bool any = false;

		for (size_t i = 0; i < f->npts; i++) {
			const struct plot_point *p = &f->pts[i];
			double x, y, slots;

			if (p->session != s || p->col >= f->ncols || !isfinite(p->value))
				continue;
			slots = f->cols[p->col].nslots > p->slot ? (double)f->cols[p->col].nslots : (double)p->slot + 1;
			x = a->x0 + (p->col + 0.5) * a->band + a->band * 0.5 * (((double)p->slot + 0.5) / slots - 0.5);
			y = plot_y(a, p->value);
			cairo_move_to(cr, x, y);
			cairo_line_to(cr, x, y);
			any = true;
		}
		if (any) {
			plot_rgb(cr, plot_session_color(s));
			cairo_stroke(cr);
		}
	}
	cairo_restore(cr);
}

/* Each column's mean (a bar across the samples) and its interval (a whisker beside them). */
static void plot_means(cairo_t *cr, const struct plot_figure *f, const struct plot_area *a)
{
	/* an interval far wider than the samples runs off the area (plot_data_range) */
	cairo_save(cr);
	cairo_rectangle(cr, a->x0, a->y0, a->x1 - a->x0, a->y1 - a->y0);
	cairo_clip(cr);
	if (f->changes) {
		/* no change: what each machine's interval is read against */
		plot_rgb(cr, "#777777");
		cairo_set_line_width(cr, 1);
		cairo_move_to(cr, a->x0, round(plot_y(a, 0)) + 0.5);
		cairo_line_to(cr, a->x1, round(plot_y(a, 0)) + 0.5);
		cairo_stroke(cr);
	}
	for (size_t c = 0; c < f->ncols; c++) {
		const struct plot_column *col = &f->cols[c];
		double x = a->x0 + (c + 0.5) * a->band, wx = x + a->band * 0.36;

		plot_rgb(cr, "#000000");
		if (isfinite(col->mean)) {
			cairo_set_line_width(cr, 2);
			cairo_move_to(cr, x - a->band * 0.3, plot_y(a, col->mean));
			cairo_line_to(cr, x + a->band * 0.3, plot_y(a, col->mean));
			cairo_stroke(cr);
		}
		if (!isfinite(col->lo) || !isfinite(col->hi))
			continue;
		cairo_set_line_width(cr, 1.5);
		cairo_move_to(cr, wx, plot_y(a, col->lo));
		cairo_line_to(cr, wx, plot_y(a, col->hi));
		for (int end = 0; end < 2; end++) {
			double y = plot_y(a, end ? col->hi : col->lo);

			cairo_move_to(cr, wx - 4, y);
			cairo_line_to(cr, wx + 4, y);
		}
		cairo_stroke(cr);
		if (isfinite(col->mean)) {
			cairo_arc(cr, wx, plot_y(a, col->mean), 2.5, 0, 2 * M_PI);
			cairo_fill(cr);
		}
	}
	cairo_restore(cr);
}

/* Figure @f as a panel of @w x @h at (@x, @y) of the surface. */
static int plot_panel(cairo_t *cr, const struct plot_figure *f, double x, double y, double w, double h)
{
	struct plot_area a = { .x0 = PLOT_LEFT, .x1 = w - PLOT_RIGHT, .y0 = PLOT_TOP, .y1 = h - PLOT_BOTTOM };

	if (!f->ncols || plot_axis(f, &a.ticks))
		return -EINVAL;
	a.band = (a.x1 - a.x0) / (double)f->ncols;
	cairo_save(cr);
	cairo_translate(cr, x, y);
	plot_axes(cr, f, &a);
	plot_names(cr, f, &a);
	plot_points(cr, f, &a);
	plot_means(cr, f, &a);
	cairo_restore(cr);
	return 0;
}

static void plot_background(cairo_t *cr)
{
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_select_font_face(cr, PLOT_FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
}

static int plot_draw(cairo_t *cr, const void *fig)
{
	int ret;

	plot_background(cr);
	ret = plot_panel(cr, fig, 0, 0, PLOT_WIDTH, PLOT_HEIGHT);
	return ret ? ret : cairo_status(cr) == CAIRO_STATUS_SUCCESS ? 0 : -ENOMEM;
}

/* Rows of panels a grid draws, and the height of its title band. */
#define PLOT_GRID_TITLE 28.0

static size_t plot_grid_rows(const struct plot_grid *g)
{
	unsigned per = g->per_row ? g->per_row : 1;

	return (g->n + per - 1) / per;
}

static int plot_grid_draw(cairo_t *cr, const void *fig)
{
	const struct plot_grid *g = fig;
	unsigned per = g->per_row ? g->per_row : 1;
	int ret = 0;

	plot_background(cr);
	if (g->title) {
		cairo_set_font_size(cr, 15);
		plot_rgb(cr, "#000000");
		plot_text(cr, g->title, 12, 20, 0);
	}
	for (size_t i = 0; !ret && i < g->n; i++)
		ret = plot_panel(cr, &g->panels[i], (double)(i % per) * PLOT_WIDTH,
				 PLOT_GRID_TITLE + (double)(i / per) * PLOT_HEIGHT, PLOT_WIDTH, PLOT_HEIGHT);
	return ret ? ret : cairo_status(cr) == CAIRO_STATUS_SUCCESS ? 0 : -ENOMEM;
}

int plot_grid_write(const struct plot_grid *g, enum plot_kind kind, FILE *out)
{
	unsigned per = g->per_row ? g->per_row : 1;

	if (!g->n)
		return -EINVAL;
	return plot_surface_write(kind, (int)(PLOT_WIDTH * (g->n < per ? g->n : per)),
				  (int)(PLOT_GRID_TITLE + PLOT_HEIGHT * (double)plot_grid_rows(g)), plot_grid_draw, g, out);
}

static cairo_status_t plot_sink(void *closure, const unsigned char *data, unsigned int length)
{
	return fwrite(data, 1, length, closure) == length ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

static int plot_status(cairo_status_t s)
{
	return s == CAIRO_STATUS_SUCCESS ? 0 : s == CAIRO_STATUS_NO_MEMORY ? -ENOMEM : -EIO;
}

bool plot_available(void)
{
	return true;
}

int plot_surface_write(enum plot_kind kind, int width, int height, int (*draw)(cairo_t *cr, const void *fig),
		       const void *fig, FILE *out)
{
	cairo_surface_t *s;
	cairo_t *cr;
	int ret;

	s = kind == PLOT_SVG ? cairo_svg_surface_create_for_stream(plot_sink, out, width, height)
			     : cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
	if ((ret = plot_status(cairo_surface_status(s)))) {
		cairo_surface_destroy(s);
		return ret;
	}
	cr = cairo_create(s);
	ret = draw(cr, fig);
	cairo_destroy(cr);
	if (!ret && kind == PLOT_PNG)
		ret = plot_status(cairo_surface_write_to_png_stream(s, plot_sink, out));
	/* the SVG surface writes its document when finished */
	cairo_surface_finish(s);
	if (!ret)
		ret = plot_status(cairo_surface_status(s));
	cairo_surface_destroy(s);
	return ret;
}

int plot_write(const struct plot_figure *f, enum plot_kind kind, FILE *out)
{
	if (!f->ncols)
		return -EINVAL;
	return plot_surface_write(kind, PLOT_WIDTH, PLOT_HEIGHT, plot_draw, f, out);
}

#else

bool plot_available(void)
{
	return false;
}

int plot_write(const struct plot_figure *f, enum plot_kind kind, FILE *out)
{
	(void)f, (void)kind, (void)out;
	return -ENOTSUP;
}

int plot_grid_write(const struct plot_grid *g, enum plot_kind kind, FILE *out)
{
	(void)g, (void)kind, (void)out;
	return -ENOTSUP;
}

#endif
