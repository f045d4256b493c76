/* test_report: the table model, display widths, and every renderer against golden files. */
#include "report/impl.h"
#include "util/units.h"
#include "report/report.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/*
 * The fixture is the seed's first table (aws-m7g.metal, values copied from the
 * mailing-list post in /work/shared/seed/) with the verdict prefixes a show
 * command would add, plus a second benchmark group whose cells need care:
 * a µ, an underscore (Markdown), a comma and quotes (CSV).
 */
#define BASE_HDR "next-20260821 without this patch (base)"
#define NEW_HDR "next-20260821 with this patch"

static struct rpt_table *seed_table(void)
{
	static const char *const rows[][4] = {
		{ "perf/mem", "memset -k 1GB -f default -s 16GB (bytes/sec)", "63932542232.12", "(I) 1.92%" },
		{ "perf/mem", "mmap -p 1GB -f demand -s 32GB -l 5 (bytes/sec)", "63272579168.03", "-0.57%" },
		{ "perf/mem", "mmap -p 4KB -f demand -s 32GB -l 5 (bytes/sec)", "49692830849.48", "(R) -1.11%" },
		{ "mem/clear", "clear -f rep_stosb,\"hot\" -s 2MB (µs)", "181.40", "0.25%" },
	};
	static const enum rpt_tone tones[][4] = {
		{ 0, 0, 0, RPT_TONE_IMPROVED },
		{ 0 },
		{ 0, 0, 0, RPT_TONE_REGRESSED },
		{ 0 },
	};
	struct rpt_table *t = rpt_table_new("Results for SUT Class aws-m7g.metal:");

	assert_non_null(t);
	assert_int_equal(rpt_table_add_column(t, "Benchmark", RPT_COL_GROUP), 0);
	assert_int_equal(rpt_table_add_column(t, "Result Class", 0), 0);
	assert_int_equal(rpt_table_add_column(t, BASE_HDR, RPT_COL_RIGHT), 0);
	assert_int_equal(rpt_table_add_column(t, NEW_HDR, RPT_COL_RIGHT), 0);
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++)
		assert_int_equal(rpt_table_add_row(t, rows[r], 4, tones[r]), 0);
	assert_int_equal(rpt_table_add_footer(t, "(I) improvement, (R) regression: the 95% confidence interval "
					      "of the change excludes zero and the change is at least 1%."), 0);
	assert_int_equal(rpt_table_add_footer(t, "1 warmup + 3 repeats in 4 sessions."), 0);
	return t;
}

static char *render(const struct rpt_table *t, const char *fmt, bool color)
{
	struct rpt_opts o = { .color = color };
	char *s = rpt_render_string(t, fmt, &o);

	assert_non_null(s);
	return s;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, len = 0, n;

	if (!f)
		return NULL;
	do {
		cap += 4096;
		buf = realloc(buf, cap + 1);
		assert_non_null(buf);
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	buf[len] = '\0';
	return buf;
}

/* Compare with tests/golden/report/<fmt>.txt byte for byte; UPDATE_GOLDEN=1 rewrites it instead. */
static void test_golden(void **state)
{
	const char *fmt = *state;
	const char *dir = getenv("CLEARPATH_GOLDEN_DIR");
	struct rpt_table *t = seed_table();
	char *got = render(t, fmt, false), *want, path[512];

	snprintf(path, sizeof(path), "%s/%s.txt", dir ? dir : "tests/golden/report", fmt);
	if (getenv("UPDATE_GOLDEN")) {
		FILE *f = fopen(path, "wb");

		assert_non_null(f);
		fputs(got, f);
		assert_int_equal(fclose(f), 0);
	}
	want = slurp(path);
	if (!want)
		fail_msg("missing golden file %s (run with UPDATE_GOLDEN=1 from the top directory)", path);
	if (strcmp(got, want))
		fail_msg("%s differs from the golden file; got:\n%s", path, got);
	free(want);
	free(got);
	rpt_table_free(t);
}

/* Call @fn on every line of @s (without its newline). */
static void each_line(const char *s, void (*fn)(const char *line, void *arg), void *arg)
{
	while (*s) {
		size_t n = strcspn(s, "\n");
		char *line = strndup(s, n);

		assert_non_null(line);
		fn(line, arg);
		free(line);
		s += n + (s[n] == '\n');
	}
}

static void test_width_unicode(void **state)
{
	(void)state;
	/* The tests may run under LANG=C; widths must not depend on it. */
	setlocale(LC_ALL, "C");
	assert_int_equal(rpt_width(""), 0);
	assert_int_equal(rpt_width("Result Class"), 12);
	assert_int_equal(rpt_width("µs"), 2);			/* 2 bytes, 1 column */
	assert_int_equal(rpt_width("日本語"), 6);		/* East Asian Wide: 2 each */
	assert_int_equal(rpt_width("e\xcc\x81t\xc3\xa9"), 3);	/* e + U+0301 combining acute, t, é */
	assert_int_equal(rpt_width("╭─┬─╮"), 5);		/* box drawing: 3 bytes, 1 column */
	assert_int_equal(rpt_width("a\xff" "b"), 3);		/* a stray byte counts as one */
	assert_string_equal(setlocale(LC_CTYPE, NULL), "C");	/* and the caller's locale is left alone */
}

struct frame_check {
	size_t width;	/* of the first line of the frame */
	size_t lines;
};

static void frame_line(const char *line, void *arg)
{
	struct frame_check *fc = arg;
	size_t w = rpt_width(line);

	/* only the frame's lines: the title and footers are free text */
	if (strncmp(line, "│", strlen("│")) && strncmp(line, "╭", strlen("╭")) &&
	    strncmp(line, "├", strlen("├")) && strncmp(line, "╰", strlen("╰")))
		return;
	if (!fc->lines++)
		fc->width = w;
	if (w != fc->width)
		fail_msg("line is %zu columns, the frame %zu: \"%s\"", w, fc->width, line);
}

/* Wide, zero-width and box-drawing content and a very long cell still give a rectangular frame. */
static void test_box_widths(void **state)
{
	char long_cell[401];
	const char *rows[][3] = {
		{ "g", "日本語のベンチマーク", "1.00%" },
		{ "g", "cafe\xcc\x81 re\xcc\x81sume\xcc\x81", "-2.50%" },
		{ "h", "╭─╮ boxed (µs)", "3" },
		{ "h", long_cell, "" },
	};
	struct rpt_table *t = rpt_table_new(NULL);
	struct frame_check fc = { 0 };
	char *out;

	(void)state;
	setlocale(LC_ALL, "C");
	memset(long_cell, 'x', sizeof(long_cell) - 1);
	long_cell[sizeof(long_cell) - 1] = '\0';
	assert_int_equal(rpt_table_add_column(t, "Benchmark", RPT_COL_GROUP), 0);
	assert_int_equal(rpt_table_add_column(t, "Result Class", 0), 0);
	assert_int_equal(rpt_table_add_column(t, "Δ", RPT_COL_RIGHT), 0);
	for (size_t r = 0; r < 4; r++)
		assert_int_equal(rpt_table_add_row(t, rows[r], 3, NULL), 0);
	out = render(t, "box", false);
	each_line(out, frame_line, &fc);
	assert_int_equal(fc.lines, 8);		/* 3 rules, header, 4 rows */
	/* │ Benchmark │ <400 x> │ -2.50% │: 1 + 11 + 1 + 402 + 1 + 8 + 1 */
	assert_int_equal(fc.width, 425);
	assert_non_null(strstr(out, long_cell));	/* frames never cut a cell */
	assert_non_null(strstr(out, "│ 日本語のベンチマーク"));
	free(out);
	rpt_table_free(t);
}

struct width_check {
	size_t max;
	size_t lines;
};

static void narrow_line(const char *line, void *arg)
{
	struct width_check *wc = arg;
	size_t w = rpt_width(line);

	wc->lines++;
	if (w > wc->max)
		fail_msg("compact line is %zu columns (> %zu): \"%s\"", w, wc->max, line);
	if (w && line[strlen(line) - 1] == ' ')
		fail_msg("compact line ends in a blank: \"%s\"", line);
}

static void assert_compact_fits(const struct rpt_table *t, size_t min_lines)
{
	char *out = render(t, "compact", false);
	struct width_check wc = { RPT_COMPACT_WIDTH, 0 };

	each_line(out, narrow_line, &wc);
	assert_true(wc.lines >= min_lines);
	free(out);
}

static void test_compact_seed_fits(void **state)
{
	struct rpt_table *t = seed_table();
	char *out = render(t, "compact", false);

	(void)state;
	assert_compact_fits(t, 10);
	/* the seed's labels wrap at a blank: the values on the first line, the rest indented under it */
	assert_non_null(strstr(out, "  mmap -p 1GB -f demand -s 32GB -l 5          63272579168.03      -0.57%\n"
				    "    (bytes/sec)\n"));
	assert_null(strstr(out, "..."));
	free(out);
	rpt_table_free(t);
}

/*
 * @out without the @n strings of @values, every line break and the blanks
 * around it as one blank: the labels as a reader puts them together.
 */
static char *joined(const char *out, const char *const *values, size_t n)
{
	char *j = malloc(strlen(out) + 1), *d = j, *v;

	assert_non_null(j);
	strcpy(j, out);
	for (size_t i = 0; i < n; i++)
		while ((v = strstr(j, values[i])))
			memset(v, ' ', strlen(values[i]));
	out = strdup(j);
	assert_non_null(out);
	for (const char *p = out; *p; p++) {
		if (*p == '\n' || *p == ' ') {
			if (d > j && d[-1] != ' ')
				*d++ = ' ';
			continue;
		}
		*d++ = *p;
	}
	*d = '\0';
	free((char *)out);
	return j;
}

/*
 * Issue 16: compact cut result classes in the middle, so that rows became
 * indistinguishable ("mmap -p 4KB --...5" hid --thp always; 256MB showed as
 * "...56MB").  Every label survives whole, wrapped within 72 columns.
 */
static void test_compact_wraps_never_cuts(void **state)
{
	static const char *const labels[] = {
		"mmap -p 4KB -f demand -s 256MB -l 5 --thp always (bytes/sec)",
		"mmap -p 4KB -f demand -s 256MB -l 5 --thp never (bytes/sec)",
		"mmap -p 4KB -f populate -s 256MB -l 5 (bytes/sec)",
	};
	struct rpt_table *t = rpt_table_new("Results for SUT Class box:");
	const char *cells[5] = { "perf/mem", NULL, "1234567890.12", "(I) +12.34%", "-0.50%" };
	char *out, *all;

	(void)state;
	assert_int_equal(rpt_table_add_column(t, "Benchmark", RPT_COL_GROUP), 0);
	assert_int_equal(rpt_table_add_column(t, "Result Class", 0), 0);
	for (int c = 0; c < 3; c++)
		assert_int_equal(rpt_table_add_column(t, c ? NEW_HDR : BASE_HDR, RPT_COL_RIGHT), 0);
	for (size_t r = 0; r < 3; r++) {
		cells[1] = labels[r];
		assert_int_equal(rpt_table_add_row(t, cells, 5, NULL), 0);
	}
	out = render(t, "compact", false);
	all = joined(out, cells + 2, 3);
	assert_compact_fits(t, 8);
	for (size_t r = 0; r < 3; r++)
		if (!strstr(all, labels[r]))
			fail_msg("\"%s\" is not whole in:\n%s", labels[r], out);
	assert_null(strstr(out, "..."));
	/* each result's values stay on its first line */
	assert_non_null(strstr(out, "\n  mmap -p 4KB -f demand -s 256MB      1234567890.12  (I) +12.34%  -0.50%\n"
				    "    -l 5 --thp always (bytes/sec)\n"));
	free(all);
	free(out);
	rpt_table_free(t);
}

/* Long names everywhere, an unbreakable word, CJK, and far too many value columns. */
static void test_compact_long_names(void **state)
{
	char huge[301], title[400];
	struct rpt_table *t;
	const char *cells[12];

	(void)state;
	setlocale(LC_ALL, "C");
	memset(huge, 'y', sizeof(huge) - 1);
	huge[sizeof(huge) - 1] = '\0';
	snprintf(title, sizeof(title), "Results for SUT Class %s:", huge);

	t = rpt_table_new(title);
	assert_int_equal(rpt_table_add_column(t, huge, RPT_COL_GROUP), 0);
	assert_int_equal(rpt_table_add_column(t, huge, 0), 0);
	assert_int_equal(rpt_table_add_column(t, huge, RPT_COL_RIGHT), 0);
	assert_int_equal(rpt_table_add_column(t, "日本語 " BASE_HDR " 日本語 " BASE_HDR, RPT_COL_RIGHT), 0);
	cells[0] = huge;
	cells[1] = "mmap -p 1GB -f demand -s 32GB -l 5 with a much longer tail of parameters (bytes/sec)";
	cells[2] = "63932542232.12";
	cells[3] = "(R) -10.25%";
	assert_int_equal(rpt_table_add_row(t, cells, 4, NULL), 0);
	cells[1] = "日本語日本語日本語日本語日本語日本語日本語日本語日本語日本語日本語日本語 (µs)";
	assert_int_equal(rpt_table_add_row(t, cells, 4, NULL), 0);
	cells[2] = huge;	/* a value wider than any line: the stacked layout */
	assert_int_equal(rpt_table_add_row(t, cells, 4, NULL), 0);
	assert_int_equal(rpt_table_add_footer(t, huge), 0);
	assert_compact_fits(t, 12);
	rpt_table_free(t);

	/* eleven value columns of numbers leave no room for a label beside them */
	t = rpt_table_new(NULL);
	for (size_t c = 0; c < 12; c++) {
		const char *hdr = c == 0 ? "Result Class" : c == 1 ? "" : "kernel";	/* "": no trailing blank */

		assert_int_equal(rpt_table_add_column(t, hdr, c ? RPT_COL_RIGHT : 0), 0);
		cells[c] = c ? "-12345.67%" : "memset -k 1GB -f default -s 16GB (bytes/sec)";
	}
	assert_int_equal(rpt_table_add_row(t, cells, 12, NULL), 0);
	assert_compact_fits(t, 14);
	rpt_table_free(t);
}

/* Drop every "ESC [ ... m" sequence from @s in place. */
static void strip_sgr(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\033' && s[1] == '[') {
			s += strcspn(s, "m");
			s += *s == 'm';
			continue;
		}
		*d++ = *s++;
	}
	*d = '\0';
}

static void test_color_only_when_asked(void **state)
{
	struct rpt_table *t = seed_table();

	(void)state;
	for (size_t i = 0; i < rpt_format_count(); i++) {
		const char *name = rpt_format_at(i)->name;
		char *plain = render(t, name, false), *colored = render(t, name, true);
		bool colors = strcmp(name, "markdown") && strcmp(name, "csv") && strcmp(name, "json");

		assert_null(strchr(plain, '\033'));
		if (colors) {
			assert_non_null(strstr(colored, "\033[32m(I) 1.92%\033[0m"));
			assert_non_null(strstr(colored, "\033[31m(R) -1.11%\033[0m"));
			assert_null(strstr(colored, "\033[32m-0.57%"));	/* neutral stays plain */
		}
		/* colour adds escape codes and nothing else, so the layout is unchanged */
		strip_sgr(colored);
		assert_string_equal(plain, colored);
		free(plain);
		free(colored);
	}
	rpt_table_free(t);
}

static void test_model_errors(void **state)
{
	const char *cells[] = { "a", "b", "c" };
	struct rpt_table *t = rpt_table_new(NULL);

	(void)state;
	assert_int_equal(rpt_table_add_row(t, cells, 1, NULL), -EINVAL);	/* no columns yet */
	assert_int_equal(rpt_table_add_column(t, "g", RPT_COL_GROUP), 0);
	assert_int_equal(rpt_table_add_column(t, "g2", RPT_COL_GROUP), -EINVAL);
	assert_int_equal(rpt_table_add_column(t, "x", 0), 0);
	assert_int_equal(rpt_table_add_row(t, cells, 3, NULL), -EINVAL);
	assert_int_equal(rpt_table_add_row(t, cells, 2, NULL), 0);
	assert_int_equal(rpt_table_add_column(t, "late", 0), -EINVAL);
	assert_int_equal(rpt_render(t, "html", NULL, stdout), -EINVAL);
	assert_null(rpt_render_string(t, "html", NULL));
	assert_null(rpt_format_find("html"));
	for (size_t i = 0; i < rpt_format_count(); i++)
		assert_ptr_equal(rpt_format_find(rpt_format_at(i)->name), rpt_format_at(i));
	assert_null(rpt_format_at(rpt_format_count()));
	rpt_table_free(t);
	rpt_table_free(NULL);

	/* a table with a title and nothing else still renders in every format */
	t = rpt_table_new("only a title");
	for (size_t i = 0; i < rpt_format_count(); i++) {
		char *out = render(t, rpt_format_at(i)->name, true);

		assert_true(!strcmp(out, "") || strstr(out, "only a title"));
		free(out);
	}
	rpt_table_free(t);
}

/* Two records with what escaping must handle (quotes, commas, tabs, newlines, an empty cell), a title and a footer. */
static struct rpt_table *records_table(void)
{
	const char *r1[] = { "perf/mem", "a \"b\", c", NULL };
	const char *r2[] = { "perf/mem", "tab\there\nnewline", "2" };
	struct rpt_table *t = rpt_table_new("a title csv leaves out");

	assert_int_equal(rpt_table_add_column(t, "Benchmark", RPT_COL_GROUP), 0);
	assert_int_equal(rpt_table_add_column(t, "Result, Class", 0), 0);
	assert_int_equal(rpt_table_add_column(t, "base", RPT_COL_RIGHT), 0);
	assert_int_equal(rpt_table_add_row(t, r1, 3, NULL), 0);
	assert_int_equal(rpt_table_add_row(t, r2, 3, NULL), 0);
	assert_int_equal(rpt_table_add_footer(t, "a footer csv leaves out"), 0);
	return t;
}

static void test_csv_records(void **state)
{
	struct rpt_table *t = records_table();
	char *out = render(t, "csv", false);

	(void)state;
	/* RFC 4180: CRLF, quotes doubled inside quoted fields; groups repeat on every record */
	assert_string_equal(out, "Benchmark,\"Result, Class\",base\r\n"
				 "perf/mem,\"a \"\"b\"\", c\",\r\n"
				 "perf/mem,tab here newline,2\r\n");
	free(out);
	rpt_table_free(t);
}

static void test_json_records(void **state)
{
	struct rpt_table *t = records_table();
	char *out = render(t, "json", true);

	(void)state;
	/* one object per row keyed by the headers, groups whole on every row, no colour */
	assert_string_equal(out, "{\n  \"title\": \"a title csv leaves out\",\n  \"rows\": [\n"
				 "    {\n      \"Benchmark\": \"perf/mem\",\n      \"Result, Class\": \"a \\\"b\\\", c\",\n"
				 "      \"base\": \"\"\n    },\n"
				 "    {\n      \"Benchmark\": \"perf/mem\",\n      \"Result, Class\": \"tab here newline\",\n"
				 "      \"base\": \"2\"\n    }\n  ],\n"
				 "  \"footers\": [\n    \"a footer csv leaves out\"\n  ]\n}\n");
	free(out);
	rpt_table_free(t);
}

static void test_markdown_escapes(void **state)
{
	const char *r1[] = { "a|b", "mem_clear *x*" };
	struct rpt_table *t = rpt_table_new(NULL);
	char *out;

	(void)state;
	assert_int_equal(rpt_table_add_column(t, "k", 0), 0);
	assert_int_equal(rpt_table_add_column(t, "v", RPT_COL_RIGHT), 0);
	assert_int_equal(rpt_table_add_row(t, r1, 2, NULL), 0);
	out = render(t, "markdown", false);
	/* headers stay left-aligned, as in box; the delimiter row carries the alignment */
	assert_string_equal(out, "| k    | v                |\n"
				 "| :--- | ---------------: |\n"
				 "| a\\|b | mem\\_clear \\*x\\* |\n");
	free(out);
	rpt_table_free(t);
}

static void assert_human(double v, const char *unit, const char *want)
{
	char buf[64];

	units_human(v, unit, buf, sizeof(buf));
	if (strcmp(buf, want))
		fail_msg("%.17g %s reads \"%s\", want \"%s\"", v, unit, buf, want);
}

/* --units human: what each unit the store holds reads as. */
static void test_human_units(void **state)
{
	(void)state;
	/* perf's 1024-based units, under perf's names: the same number bench prints */
	assert_human(97094829312.78, "bytes/sec", "90.43 GB/sec");
	assert_human(14561152080, "bytes/sec", "13.56 GB/sec");
	assert_human(1740000000, "bytes/sec", "1.62 GB/sec");
	assert_human(5e6, "bytes/sec", "4.77 MB/sec");
	assert_human(999.5, "bytes/sec", "999.50 bytes/sec");
	assert_human(2.5e12, "bytes/sec", "2328.31 GB/sec");
	assert_human(0, "bytes/sec", "0.00 bytes/sec");
	assert_human(250, "ns", "250.00 ns");
	assert_human(181400, "ns", "181.40 us");
	assert_human(1250, "msec", "1.25 s");
	assert_human(0.5, "msec", "500.00 us");
	assert_human(3, "sec", "3.00 s");
	assert_human(12345, "count", "12.35k");
	assert_human(3, "count", "3.00");
	assert_human(1.0, "faults/page", "1.00 faults/page");
	assert_human(0.0123, "cycles/byte", "0.0123 cycles/byte");
	assert_human(2048, "misses/KB", "2.05k misses/KB");
	assert_human(-1500, "widgets", "-1.50k widgets");
}

/* The 4-column seed table fitted to @width: every line within it. */
static char *fit(size_t width, const char *fmt)
{
	static const bool key[4] = { true, true, true, false };
	struct rpt_table *t = seed_table();
	struct rpt_opts o = { .width = width };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(rpt_render_fit(t, key, rpt_format_find(fmt), &o, f), 0);
	fclose(f);
	rpt_table_free(t);
	return buf;
}

static void test_render_fit(void **state)
{
	struct rpt_table *t = seed_table();
	char *wide = fit(0, "grid"), *plain = render(t, "grid", false);
	struct width_check wc = { 90, 0 };
	char *narrow;

	(void)state;
	rpt_table_free(t);
	/* 0 is unlimited: exactly rpt_render's */
	assert_string_equal(wide, plain);
	free(wide);
	free(plain);
	/* the keys and the one other column do not fit in 90: compact within 72 */
	narrow = fit(90, "grid");
	assert_non_null(strstr(narrow, "  B: " NEW_HDR "\n"));
	wc.max = RPT_COMPACT_WIDTH;
	each_line(narrow, narrow_line, &wc);
	free(narrow);
	/* narrower than compact's 72: compact narrows too */
	narrow = fit(50, "markdown");
	wc.max = 50;
	each_line(narrow, narrow_line, &wc);
	assert_non_null(strstr(narrow, "(I) 1.92%"));
	free(narrow);
}

/* One test per format, named after it so a TAP line says which golden file broke. */
#define GOLDEN(fmt) { "golden_" fmt, test_golden, NULL, NULL, (void *)(fmt) }

/* rpt_pct at the extremes: never longer than a cell should be, never a lie about -100%. */
static void test_pct_extremes(void **state)
{
	static const struct { double v; bool sign; const char *text; } cases[] = {
		{ 4, true, "+4.00" }, { -0.57, true, "-0.57" }, { 0, true, "+0.00" }, { 1.03, false, "1.03" },
		{ 9999.99, true, "+9999.99" }, { 10000, true, "+1.00e+04" }, { 999900, true, "+1.00e+06" },
		{ -600, true, "-600.00" }, { -12345, true, "-1.23e+04" }, { 1e302, true, "+1.00e+302" },
		{ 3e5, false, "3.00e+05" }, { -99.99, true, "-99.99" }, { -99.9999, true, "-99.9999" },
		{ -99.99999, true, "-99.99999" }, { -99.999999999, true, "-99.999999999" }, { -100, true, "-100.00" },
		{ -100 + 1e-13, true, "-100.000000000000" }, { INFINITY, true, "+inf" }, { -INFINITY, true, "-inf" },
	};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rpt_pct(cases[i].v, cases[i].sign, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].text);
	}
	rpt_pct(NAN, false, buf, sizeof(buf));
	assert_non_null(strstr(buf, "nan"));
	/* the longest form fits the smallest buffer a caller gives it */
	rpt_pct(-1.7e308, true, buf, sizeof(buf));
	assert_string_equal(buf, "-1.70e+308");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pct_extremes),
		GOLDEN("box"),
		GOLDEN("grid"),
		GOLDEN("compact"),
		GOLDEN("markdown"),
		GOLDEN("csv"),
		cmocka_unit_test(test_width_unicode),
		cmocka_unit_test(test_box_widths),
		cmocka_unit_test(test_compact_seed_fits),
		cmocka_unit_test(test_compact_long_names),
		cmocka_unit_test(test_compact_wraps_never_cuts),
		cmocka_unit_test(test_human_units),
		cmocka_unit_test(test_render_fit),
		cmocka_unit_test(test_color_only_when_asked),
		cmocka_unit_test(test_model_errors),
		cmocka_unit_test(test_csv_records),
		cmocka_unit_test(test_markdown_escapes),
		cmocka_unit_test(test_json_records),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
