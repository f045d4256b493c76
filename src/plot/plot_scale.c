/* plot_scale: axis ticks, the linear scale, tick labels and the session palette: the plot's arithmetic, without cairo. */
#include "plot/plot.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>

/* Spans below this have no 1-2-5 step among the normal doubles. */
#define PLOT_TINY (DBL_MIN * 1e6)

/* The smallest of 1, 2, 5 times a power of ten at least @raw (> 0). */
static double plot_nice_step(double raw)
{
	double p = pow(10, floor(log10(raw)));
	double f = raw / p;

	/* a hair of tolerance: 0.3 / 0.1 is 2.9999999999999996 */
	return (f <= 1 + 1e-9 ? 1 : f <= 2 + 1e-9 ? 2 : f <= 5 + 1e-9 ? 5 : 10) * p;
}

double plot_span(double lo, double hi)
{
	double d = hi - lo;

	/* -1e308 to 1e308 spans more than a double holds: its half, doubled, saturates at DBL_MAX */
	return isfinite(d) ? d : fmin(2 * (hi / 2 - lo / 2), DBL_MAX);
}

int plot_ticks(double lo, double hi, unsigned want, struct plot_ticks *t)
{
	double step, first, last;

	if (!isfinite(lo) || !isfinite(hi) || lo > hi || want < 2 || want >= PLOT_MAX_TICKS)
		return -EINVAL;
	if (hi - lo <= fabs(hi) * 1e-12 || hi - lo < PLOT_TINY) {
		/* one value, or a range too narrow for a step a double holds (subnormals): a range of a
		 * few per cent around it (or around 0) */
		double pad = fabs(lo) > PLOT_TINY ? fabs(lo) * 0.05 : 1;

		lo -= pad;
		hi += pad;
	}
	/* no overflow at the top of the doubles, nor an infinite range from widening there */
	lo = fmax(lo, -DBL_MAX);
	hi = fmin(hi, DBL_MAX);
	step = plot_nice_step(isfinite(hi - lo) ? (hi - lo) / want : hi / want - lo / want);
	if (!isfinite(step) || !(step > 0))
		return -ERANGE;
	first = floor(lo / step + 1e-9);
	last = ceil(hi / step - 1e-9);
	/* a 1-2-5 step never gives more than 2.5 * want intervals; keep within the array anyway */
	while (last - first + 1 > PLOT_MAX_TICKS) {
		step = plot_nice_step(step * 1.01);
		first = floor(lo / step + 1e-9);
		last = ceil(hi / step - 1e-9);
	}
	/* near DBL_MAX the tick beyond the data would be infinite: the data reaches past the last one */
	while (!isfinite(last * step))
		last--;
	while (!isfinite(first * step))
		first++;
	t->step = step;
	t->lo = first * step;
	t->hi = last * step;
	t->n = 0;
	for (double k = first; k <= last + 0.5; k++)
		/* k * step, not a running sum: no drift, and 0 prints as 0 */
		t->v[t->n++] = k * step;
	return 0;
}

double plot_map(double v, double lo, double hi, double a, double b)
{
	if (!(hi > lo))
		return (a + b) / 2;
	/* in halves when the difference overflows (an exact scaling: the same result otherwise) */
	return isfinite(hi - lo) && isfinite(v - lo) ? a + (v - lo) / (hi - lo) * (b - a)
						      : a + (v / 2 - lo / 2) / (hi / 2 - lo / 2) * (b - a);
}

void plot_tick_label(double v, double step, double top, char *buf, size_t len)
{
	static const char prefix[] = " kMGTPE";
	double mag = fabs(top) > fabs(v) ? fabs(top) : fabs(v);
	int e = 0, decimals;

	while (mag >= 1000 && e < 6) {
		mag /= 1000;
		e++;
	}
	v /= pow(1000, e);
	step /= pow(1000, e);
	/* as many decimals as the step has below the unit: 0.5 -> 1, 0.25 -> 2, 20 -> 0 */
	decimals = step > 0 ? (int)ceil(-log10(step) - 1e-9) : 0;
	decimals = decimals < 0 ? 0 : decimals > 6 ? 6 : decimals;
	if (fabs(v) < step * 1e-6)
		v = 0;	/* -0 and rounding noise print as 0 */
	if (mag >= 1e15)
		/* beyond exa, digits that would not fit the label (a cut number lies): exponent form */
		snprintf(buf, len, "%.3g%c", v, prefix[e]);
	else if (e)
		snprintf(buf, len, "%.*f%c", decimals, v, prefix[e]);
	else
		snprintf(buf, len, "%.*f", decimals, v);
}

const char *plot_session_color(size_t i)
{
	/* Okabe and Ito's palette, told apart by colour-blind readers too, then Tableau's */
	static const char *const palette[] = {
		"#0072b2", "#e69f00", "#009e73", "#cc79a7", "#d55e00", "#56b4e9", "#000000", "#f0e442",
		"#8c564b", "#7f7f7f", "#bcbd22", "#17becf",
	};

	return palette[i % (sizeof(palette) / sizeof(palette[0]))];
}

static void plot_widen(double v, double *lo, double *hi, bool *any)
{
	if (!isfinite(v))
		return;
	if (!*any || v < *lo)
		*lo = v;
	if (!*any || v > *hi)
		*hi = v;
	*any = true;
}

bool plot_data_range(const struct plot_figure *f, double *lo, double *hi)
{
	bool any = false;
	double span, l, h;

	for (size_t i = 0; i < f->npts; i++)
		plot_widen(f->pts[i].value, lo, hi, &any);
	for (size_t c = 0; c < f->ncols; c++)
		plot_widen(f->cols[c].mean, lo, hi, &any);
	if (!any)
		return false;
	if (f->changes) {
		plot_widen(0, lo, hi, &any);
		for (size_t c = 0; c < f->ncols; c++) {
			plot_widen(f->cols[c].lo, lo, hi, &any);
			plot_widen(f->cols[c].hi, lo, hi, &any);
		}
		return true;
	}
	/*
	 * Intervals widen the range by at most its own span each way: with two
	 * sessions an interval can be a hundred times wider than the samples,
	 * and scaling to it would flatten every dot onto one line.  The
	 * drawing clips what lies beyond.
	 */
	span = *hi - *lo > 0 ? plot_span(*lo, *hi) : fabs(*hi) * 0.05;
	l = fmax(*lo - span, -DBL_MAX);
	h = fmin(*hi + span, DBL_MAX);
	for (size_t c = 0; c < f->ncols; c++) {
		const double b[2] = { f->cols[c].lo, f->cols[c].hi };

		for (int k = 0; k < 2; k++)
			if (isfinite(b[k]) && b[k] >= l && b[k] <= h)
				plot_widen(b[k], lo, hi, &any);
	}
	return true;
}

/* Whether no sample and no mean of @f is below 0 (a rate, a time, a count): its axis stops at 0. */
static bool plot_nonnegative(const struct plot_figure *f)
{
	if (f->changes)
		return false;
	for (size_t i = 0; i < f->npts; i++)
		if (f->pts[i].value < 0)
			return false;
	for (size_t c = 0; c < f->ncols; c++)
		if (f->cols[c].mean < 0)
			return false;
	return true;
}

int plot_axis(const struct plot_figure *f, struct plot_ticks *t)
{
	bool nonneg = plot_nonnegative(f);
	double lo = 0, hi = 1;
	size_t n = 0;

	if (!plot_data_range(f, &lo, &hi)) {
		lo = 0;
		hi = 1;
	}
	/* a little air above and below the data, so no dot sits on the frame */
	if (hi > lo) {
		double pad = plot_span(lo, hi) * 0.04;

		/* none where it would overflow (data near DBL_MAX, from a hostile import) */
		if (isfinite(lo - pad) && isfinite(hi + pad)) {
			lo -= pad;
			hi += pad;
		}
	}
	/* an interval reaching below zero is clipped there: a rate is never negative */
	if (nonneg && lo < 0)
		lo = 0;
	if (plot_ticks(lo, hi, 6, t))
		return -EINVAL;
	if (!nonneg || t->lo >= 0)
		return 0;
	/* widened below zero (one value of 0, a range of one value): from 0 up */
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i] >= 0)
			t->v[n++] = t->v[i];
	t->n = n;
	t->lo = 0;
	return 0;
}
