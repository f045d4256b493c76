/* cairo_impl: what the plot module's cairo drawings share (colours, text, the surface written as SVG or PNG); only with CLEARPATH_HAVE_CAIRO. */
#ifndef CLEARPATH_PLOT_CAIRO_IMPL_H
#define CLEARPATH_PLOT_CAIRO_IMPL_H

#include "plot/plot.h"

#include <cairo.h>

#define PLOT_FONT "DejaVu Sans"

/* Set @cr's source to @hex ("#rrggbb"). */
void plot_rgb(cairo_t *cr, const char *hex);

/* @s centred on @x (anchor 0.5), right-aligned (1) or left (0), its baseline at @y. */
void plot_text(cairo_t *cr, const char *s, double x, double y, double anchor);

/*
 * A @width x @height surface of @kind, painted by @draw(@cr, @fig) and
 * written to @out.  0, the draw's error, -ENOMEM, or -EIO when writing failed.
 */
int plot_surface_write(enum plot_kind kind, int width, int height, int (*draw)(cairo_t *cr, const void *fig),
		       const void *fig, FILE *out);

#endif
