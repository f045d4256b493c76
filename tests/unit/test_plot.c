/* test_plot: the plot module's ticks, scale, tick labels and data range, and that cairo draws a figure and a profile's bars as SVG and PNG. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "plot/plot.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The ticks cover [lo, hi], start and end on the axis range, step evenly by a 1-2-5 step. */
static void expect_ticks(double lo, double hi, unsigned want, double step, double first, double last)
{
	struct plot_ticks t;

	assert_int_equal(plot_ticks(lo, hi, want, &t), 0);
	if (fabs(t.step - step) > step * 1e-12 || fabs(t.lo - first) > step * 1e-9 || fabs(t.hi - last) > step * 1e-9)
		fail_msg("ticks(%g, %g, %u) = step %g [%g, %g]; expected step %g [%g, %g]", lo, hi, want, t.step,
			 t.lo, t.hi, step, first, last);
	/* covering up to rounding: 6 * 0.05 is 0.30000000000000004 */
	assert_true(t.lo <= lo + step * 1e-9 && t.hi >= hi - step * 1e-9);
	assert_true(t.n >= 2 && t.n <= PLOT_MAX_TICKS);
	assert_true(fabs(t.v[0] - t.lo) <= step * 1e-9 && fabs(t.v[t.n - 1] - t.hi) <= step * 1e-9);
	for (size_t i = 1; i < t.n; i++)
		assert_true(fabs(t.v[i] - t.v[i - 1] - t.step) <= step * 1e-9);
}

static void test_ticks_round_steps(void **state)
{
	(void)state;
	expect_ticks(0, 10, 5, 2, 0, 10);
	expect_ticks(0.3, 9.7, 5, 2, 0, 10);
	expect_ticks(0, 1, 4, 0.5, 0, 1);
	expect_ticks(-3, 7, 5, 2, -4, 8);
	/* the seed's bytes/sec: 59.4e9 .. 64.2e9 ticks every 1e9 */
	expect_ticks(59.4e9, 64.2e9, 6, 1e9, 59e9, 65e9);
	expect_ticks(0.3, 0.6, 6, 0.05, 0.3, 0.6);
}

static void test_ticks_one_value(void **state)
{
	struct plot_ticks t;

	(void)state;
	/* a range of one value is widened around it, never to zero width */
	assert_int_equal(plot_ticks(5e9, 5e9, 6, &t), 0);
	assert_true(t.lo < 5e9 && t.hi > 5e9 && t.step > 0);
	assert_int_equal(plot_ticks(0, 0, 6, &t), 0);
	assert_true(t.lo < 0 && t.hi > 0);
}

static void test_ticks_reject(void **state)
{
	struct plot_ticks t;

	(void)state;
	assert_int_equal(plot_ticks(NAN, 1, 5, &t), -EINVAL);
	assert_int_equal(plot_ticks(0, INFINITY, 5, &t), -EINVAL);
	assert_int_equal(plot_ticks(2, 1, 5, &t), -EINVAL);
	assert_int_equal(plot_ticks(0, 1, 1, &t), -EINVAL);
	assert_int_equal(plot_ticks(0, 1, PLOT_MAX_TICKS, &t), -EINVAL);
}

/* However small the wish, the ticks fit their array. */
static void test_ticks_bounded(void **state)
{
	struct plot_ticks t;

	(void)state;
	for (unsigned want = 2; want < PLOT_MAX_TICKS; want++)
		for (double hi = 1.01; hi < 1000; hi *= 1.37) {
			assert_int_equal(plot_ticks(1, hi, want, &t), 0);
			assert_true(t.n <= PLOT_MAX_TICKS);
			assert_true(t.lo <= 1 && t.hi >= hi);
		}
}

/*
 * Values a hostile import can store: -1e308 .. 1e308 (a span beyond DBL_MAX),
 * up to DBL_MAX itself, and subnormals.  Finite ticks, in their array, where
 * the difference overflowed to a NaN scale, an infinite tick or a zero step.
 */
static void test_ticks_extremes(void **state)
{
	static const double r[][2] = {
		{ -1e308, 1e308 }, { 1.7e308, DBL_MAX }, { DBL_MAX, DBL_MAX }, { -DBL_MAX, DBL_MAX },
		{ -DBL_MAX, -DBL_MAX }, { 0, 5e-324 }, { 0, 4e-320 }, { 5e-324, 5e-324 },
	};
	struct plot_ticks t;
	char label[32];

	(void)state;
	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		assert_int_equal(plot_ticks(r[i][0], r[i][1], 6, &t), 0);
		assert_true(t.n >= 2 && t.n <= PLOT_MAX_TICKS);
		assert_true(isfinite(t.lo) && isfinite(t.hi) && t.step > 0 && t.lo < t.hi);
		for (size_t k = 0; k < t.n; k++) {
			assert_true(isfinite(t.v[k]));
			/* a label never cut short: exponent form beyond exa */
			plot_tick_label(t.v[k], t.step, fmax(fabs(t.lo), fabs(t.hi)), label, sizeof(label));
			assert_true(strlen(label) < 16);
		}
	}
	assert_true(fabs(plot_map(0, -1e308, 1e308, 0, 100) - 50) < 1e-9);
	assert_true(fabs(plot_map(1e308, -1e308, 1e308, 0, 100) - 100) < 1e-9);
	assert_true(plot_span(-1e308, 1e308) == DBL_MAX);
	assert_true(plot_span(1, 3) == 2);
}

static void test_map(void **state)
{
	(void)state;
	assert_true(fabs(plot_map(5, 0, 10, 100, 200) - 150) < 1e-12);
	/* an upward y axis: the low value at the bottom pixel */
	assert_true(fabs(plot_map(0, 0, 10, 300, 40) - 300) < 1e-12);
	assert_true(fabs(plot_map(10, 0, 10, 300, 40) - 40) < 1e-12);
	/* an empty range maps to the middle rather than dividing by zero */
	assert_true(fabs(plot_map(3, 3, 3, 0, 10) - 5) < 1e-12);
}

static void expect_label(double v, double step, double top, const char *want)
{
	char buf[32];

	plot_tick_label(v, step, top, buf, sizeof(buf));
	if (strcmp(buf, want))
		fail_msg("tick_label(%g, %g, %g) = \"%s\"; expected \"%s\"", v, step, top, buf, want);
}

static void test_tick_labels(void **state)
{
	(void)state;
	expect_label(63e9, 1e9, 65e9, "63G");
	expect_label(63.5e9, 0.5e9, 65e9, "63.5G");
	expect_label(950e6, 50e6, 1.2e9, "0.95G");
	expect_label(12, 2, 20, "12");
	expect_label(0.25, 0.05, 0.6, "0.25");
	expect_label(1500, 500, 3000, "1.5k");
	/* rounding noise at zero prints as 0, never -0 */
	expect_label(-1e-17, 0.1, 1, "0.0");
}

static void test_palette(void **state)
{
	(void)state;
	/* distinct colours for the first sessions, each a #rrggbb */
	for (size_t i = 0; i < 12; i++) {
		const char *c = plot_session_color(i);

		assert_int_equal(strlen(c), 7);
		assert_int_equal(c[0], '#');
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(c, plot_session_color(j));
	}
	assert_string_equal(plot_session_color(12), plot_session_color(0));
}

static const struct plot_column cols[] = {
	{ "base", 10, 9, 11, NULL, 2 },
	{ "patched", 12, 11.5, 14, "+20.00% (I)", 2 },
};
static const struct plot_point pts[] = {
	{ 0, 0, 0, 9.5 }, { 0, 1, 1, 10.5 }, { 1, 0, 0, 11.8 }, { 1, 1, 1, 12.2 }, { 1, 1, 1, 8 },
};
static const struct plot_figure fig = { "memset (bytes/sec)", "bytes/sec", cols, 2, pts, 5, 2, false };

static void test_data_range(void **state)
{
	double lo, hi;
	struct plot_column none = { "x", NAN, NAN, NAN, NULL, 0 };
	struct plot_figure empty = { "t", "u", &none, 1, NULL, 0, 0, false };

	(void)state;
	assert_true(plot_data_range(&fig, &lo, &hi));
	assert_true(lo == 8 && hi == 14);
	assert_false(plot_data_range(&empty, &lo, &hi));
	/* an interval a hundred times the samples' span is left to clipping, not scaled to */
	struct plot_column wide[2] = { cols[0], cols[1] };
	struct plot_figure f = fig;

	wide[1].lo = -400;
	wide[1].hi = 500;
	f.cols = wide;
	assert_true(plot_data_range(&f, &lo, &hi));
	assert_true(lo == 8 && hi == 12.2);
	/* only intervals: nothing to scale to */
	empty.cols = &(struct plot_column){ "x", NAN, 1, 2, NULL, 0 };
	assert_false(plot_data_range(&empty, &lo, &hi));
}

/*
 * The axis a rate is drawn on never goes below zero: not for samples near
 * it, not for an interval reaching past it, not for a single value of 0;
 * a quantity that does go negative keeps its negative axis.
 */
static void test_axis_from_zero(void **state)
{
	struct plot_point near0[3] = { { 0, 0, 0, 0.2 }, { 0, 0, 1, 0.5 }, { 1, 1, 0, 9 } };
	struct plot_column c[2] = { { "a", 0.35, 0.1, 0.6, NULL, 2 }, { "b", 9, -40, 60, NULL, 1 } };
	struct plot_figure f = { "t", "GB/sec", c, 2, near0, 3, 2, false };
	struct plot_point zero = { 0, 0, 0, 0 }, neg = { 0, 0, 0, -3 };
	struct plot_column z = { "z", 0, NAN, NAN, NULL, 1 }, n = { "n", -3, NAN, NAN, NULL, 1 };
	struct plot_figure fz = { "t", "GB/sec", &z, 1, &zero, 1, 1, false }, fn = { "t", "delta", &n, 1, &neg, 1, 1, false };
	struct plot_ticks t;

	(void)state;
	assert_int_equal(plot_axis(&f, &t), 0);
	assert_true(t.lo == 0 && t.hi >= 9);
	for (size_t i = 0; i < t.n; i++)
		assert_true(t.v[i] >= 0);
	assert_int_equal(plot_axis(&fz, &t), 0);
	assert_true(t.lo == 0 && t.hi > 0 && t.n >= 2 && t.v[0] == 0);
	assert_int_equal(plot_axis(&fn, &t), 0);
	assert_true(t.lo < -3 && t.hi > -3);
}

/*
 * A figure of changes (the fleet's: a machine per column, no samples)
 * holds each interval whole and 0, below zero too, where a rate's axis
 * would clip a wide interval to its means' span and stop at zero.
 */
static void test_axis_changes(void **state)
{
	struct plot_column c[2] = { { "a", 1.9, 1.4, 2.4, "(I) +1.90%", 0 }, { "b", 0.2, -9, 11, "+0.20%", 0 } };
	struct plot_figure f = { .title = "t", .unit = "%", .cols = c, .ncols = 2, .changes = true };
	struct plot_ticks t;
	double lo = 0, hi = 0;

	(void)state;
	assert_true(plot_data_range(&f, &lo, &hi));
	assert_true(lo == -9 && hi == 11);
	assert_int_equal(plot_axis(&f, &t), 0);
	assert_true(t.lo <= -9 && t.hi >= 11);
	/* two positive changes with narrow intervals: 0 is still on the axis */
	c[1] = (struct plot_column){ "b", 0.3, 0.2, 0.4, NULL, 0 };
	assert_int_equal(plot_axis(&f, &t), 0);
	assert_true(t.lo <= 0 && t.hi >= 2.4);
	/* the same as a rate: the wide interval does not set the axis */
	c[1] = (struct plot_column){ "b", 0.2, -9, 11, NULL, 0 };
	f.changes = false;
	assert_int_equal(plot_axis(&f, &t), 0);
	assert_true(t.lo >= 0 && t.hi < 11);
}

/* Draw @kind into memory; the bytes in *@buf (free it). */
static int draw(const struct plot_figure *f, enum plot_kind kind, char **buf, size_t *len)
{
	FILE *m = open_memstream(buf, len);
	int ret;

	assert_non_null(m);
	ret = plot_write(f, kind, m);
	assert_int_equal(fclose(m), 0);
	return ret;
}

static void test_draw(void **state)
{
	static const unsigned char png[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	char *buf = NULL;
	size_t len = 0;
	struct plot_figure nocols = fig;

	(void)state;
	if (!plot_available()) {
		assert_int_equal(draw(&fig, PLOT_SVG, &buf, &len), -ENOTSUP);
		free(buf);
		skip();
	}
	assert_int_equal(draw(&fig, PLOT_SVG, &buf, &len), 0);
	assert_non_null(strstr(buf, "<svg"));
	assert_non_null(strstr(buf, "</svg>"));
	/* a vector figure: every sample is a path of its own */
	assert_true(len > 1000);
	free(buf);
	buf = NULL;
	assert_int_equal(draw(&fig, PLOT_PNG, &buf, &len), 0);
	assert_true(len > sizeof(png));
	assert_memory_equal(buf, png, sizeof(png));
	free(buf);
	buf = NULL;
	nocols.ncols = 0;
	assert_int_equal(draw(&nocols, PLOT_PNG, &buf, &len), -EINVAL);
	free(buf);
	/* a grid of panels is one drawing, twice as wide as a figure, a figure high per row */
	struct plot_figure three[3] = { fig, fig, fig };
	struct plot_grid g = { "block", three, 3, 2 }, none = { "block", three, 0, 2 };
	FILE *m;

	buf = NULL;
	m = open_memstream(&buf, &len);
	assert_int_equal(plot_grid_write(&g, PLOT_SVG, m), 0);
	fclose(m);
	assert_non_null(strstr(buf, "width=\"1440\""));
	free(buf);
	buf = NULL;
	m = open_memstream(&buf, &len);
	assert_int_equal(plot_grid_write(&none, PLOT_SVG, m), -EINVAL);
	fclose(m);
	free(buf);
}

/* A write that fails (a full disk) is -EIO, not a truncated file reported as written. */
static void test_draw_write_error(void **state)
{
	FILE *full = fopen("/dev/full", "w");

	(void)state;
	if (!plot_available() || !full) {
		if (full)
			fclose(full);
		skip();
	}
	setvbuf(full, NULL, _IONBF, 0);
	assert_int_equal(plot_write(&fig, PLOT_PNG, full), -EIO);
	fclose(full);
}

/* A profile's bars: a row per symbol, a bar per column; a column without a share has no bar, never a zero. */
static const double bar_v[] = { 21.8, 17.4, 21.3, NAN, 18.0, 19.1 };
static const double bar_lo[] = { 21.7, 17.3, NAN, NAN, 17.7, 19.0 };
static const double bar_hi[] = { 21.9, 17.4, NAN, NAN, 18.4, 19.3 };
static const char *const bar_cols[] = { "base", "nt-clear" };
static const struct plot_bar_row bar_rows[] = {
	{ "clearing (page-clearing functions)", true, bar_v, bar_lo, bar_hi },
	{ "clear_page_erms (in clearing)", false, bar_v + 2, bar_lo + 2, bar_hi + 2 },
	{ "exc_page_fault", false, bar_v + 4, bar_lo + 4, bar_hi + 4 },
};
static const struct plot_bars bars = { "mem mmap -p 4KB -f demand -s 64MB", "% of samples", bar_cols, 2, bar_rows, 3 };

static int draw_bars(const struct plot_bars *f, enum plot_kind kind, char **buf, size_t *len)
{
	FILE *m = open_memstream(buf, len);
	int ret;

	assert_non_null(m);
	ret = plot_bars_write(f, kind, m);
	assert_int_equal(fclose(m), 0);
	return ret;
}

static void test_bars(void **state)
{
	struct plot_bars more = bars, none = bars;
	char *buf = NULL, want[64];
	size_t len = 0;

	(void)state;
	/* the figure grows with its rows and columns, never below its frame */
	more.nrows = 2;
	assert_true(plot_bars_height(&bars) > plot_bars_height(&more));
	more.ncols = 1;
	assert_true(plot_bars_height(&bars) > plot_bars_height(&more) && plot_bars_height(&more) > 100);
	if (!plot_available()) {
		assert_int_equal(draw_bars(&bars, PLOT_SVG, &buf, &len), -ENOTSUP);
		free(buf);
		skip();
	}
	assert_int_equal(draw_bars(&bars, PLOT_SVG, &buf, &len), 0);
	snprintf(want, sizeof(want), "height=\"%d\"", plot_bars_height(&bars));
	assert_non_null(strstr(buf, "<svg"));
	assert_non_null(strstr(buf, want));
	free(buf);
	buf = NULL;
	assert_int_equal(draw_bars(&bars, PLOT_PNG, &buf, &len), 0);
	assert_true(len > 8 && !memcmp(buf + 1, "PNG", 3));
	free(buf);
	buf = NULL;
	none.nrows = 0;
	assert_int_equal(draw_bars(&none, PLOT_SVG, &buf, &len), -EINVAL);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ticks_round_steps),
		cmocka_unit_test(test_ticks_one_value),
		cmocka_unit_test(test_ticks_reject),
		cmocka_unit_test(test_ticks_bounded),
		cmocka_unit_test(test_ticks_extremes),
		cmocka_unit_test(test_map),
		cmocka_unit_test(test_tick_labels),
		cmocka_unit_test(test_palette),
		cmocka_unit_test(test_data_range),
		cmocka_unit_test(test_axis_from_zero),
		cmocka_unit_test(test_axis_changes),
		cmocka_unit_test(test_draw),
		cmocka_unit_test(test_draw_write_error),
		cmocka_unit_test(test_bars),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
