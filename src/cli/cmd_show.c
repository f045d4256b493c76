/* cmd_show: `clearpath show`, the comparison table users post to the mailing list. */
#include "cli/cli_common.h"
#include "cli/cli_select.h"
#include "cli/commands.h"
#include "report/profile.h"
#include "report/report.h"
#include "result/result.h"
#include "util/log.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { SO_FORMAT = 256, SO_STATS, SO_COLOR, SO_FAIL, SO_HEADER, SO_HELP, SO_PROFILE, SO_WIDTH, SO_UNITS };

static const struct option show_options[] = {
	CLI_SELECT_OPTIONS,
	{ "format", required_argument, NULL, SO_FORMAT },
	{ "stats", no_argument, NULL, SO_STATS },
	{ "color", required_argument, NULL, SO_COLOR },
	{ "fail-on-regression", no_argument, NULL, SO_FAIL },
	{ "header", no_argument, NULL, SO_HEADER },
	{ "width", required_argument, NULL, SO_WIDTH },
	{ "units", required_argument, NULL, SO_UNITS },
	{ "help", no_argument, NULL, SO_HELP },
	{ "profile", no_argument, NULL, SO_PROFILE },
	{ NULL, 0, NULL, 0 },
};

struct show_cli {
	struct cli_select sel;
	const char *format;
	const char *color;
	const char *units;	/* NULL: human on a terminal, raw otherwise */
	long width;		/* -1: the terminal's, $COLUMNS or unlimited */
	bool stats, fail_on_regression, header;
	bool profile;		/* --profile: the profile classes (hidden otherwise) and their summary */
};

static void show_usage(FILE *out)
{
	fprintf(out, "usage: clearpath show [options]\n\n"
		"The comparison table: the base column's mean, every other column's %% change\n"
		"with (I)/(R) when the change is real, per SUT class; with several SUT classes,\n"
		"then a fleet summary: for each result class a line per SUT class (the base,\n"
		"the change, its interval and verdict).\n\n"
		"    --format FMT           box (default on a terminal), grid (default otherwise),\n"
		"                           compact, markdown, csv, json\n"
		"    --stats                add n, cv and the 95%% CI to every cell\n"
		"    --width N              no line wider than N columns: tables split, notes\n"
		"                           wrapped (default: the terminal's width, else\n"
		"                           $COLUMNS, else unlimited; 0: unlimited)\n"
		"    --units UNITS          human (59.54 GB/sec, the default on a terminal) or\n"
		"                           raw (bytes/sec as stored, the default otherwise)\n"
		"    --header               above each table: the machine, each column's kernel,\n"
		"                           cmdline, THP and hugepages, sessions, samples, dates\n"
		"    --color WHEN           auto (default), always, never\n"
		"    --fail-on-regression   exit 4 when any cell is (R)\n"
		"    --profile              the --profile shares instead: clearing share and top\n"
		"                           symbols per column, and their change in points\n");
	cli_select_usage(out);
}

static int show_width_opt(const char *arg, long *width)
{
	char *end;
	long w = strtol(arg, &end, 10);

	if (end == arg || *end || w < 0 || w > 100000) {
		log_err("invalid value '%s' for --width: expected a whole number of columns from 0 to 100000", arg);
		return EXIT_USAGE;
	}
	*width = w;
	return 0;
}

static int show_option(int c, const char *arg, void *ctx)
{
	static const char *const colors[] = { "auto", "always", "never", NULL };
	static const char *const units[] = { "human", "raw", NULL };
	struct show_cli *o = ctx;

	switch (c) {
	case SO_FORMAT: o->format = arg; return 0;
	case SO_STATS: o->stats = true; return 0;
	case SO_FAIL: o->fail_on_regression = true; return 0;
	case SO_HEADER: o->header = true; return 0;
	case SO_PROFILE: o->profile = true; return 0;
	case SO_UNITS: o->units = arg; return cli_choice(arg, "units", units);
	case SO_WIDTH: return show_width_opt(arg, &o->width);
	case SO_COLOR: o->color = arg; return cli_choice(arg, "color", colors);
	}
	return cli_select_option(c, arg, &o->sel);
}

/* Name every format of the registry, so a new one is listed without an edit here. */
static void show_unknown_format(const char *name)
{
	char list[256] = "";
	size_t n = rpt_format_count();

	for (size_t i = 0; i < n; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
			 !i ? "" : i + 1 < n ? ", " : " or ", rpt_format_at(i)->name);
	log_err("unknown format '%s': expected %s", name, list);
}

/* @argv[0] is "show" itself, as getopt expects a program name there. */
static int show_parse(int argc, char **argv, struct show_cli *o)
{
	static const struct cli_getopt g = { "show", show_options, SO_HELP, show_usage, show_option };
	int ret = cli_getopt(&g, argc, argv, o);

	if (!ret && optind < argc) {
		log_err("unexpected argument '%s' to 'show'", argv[optind]);
		return EXIT_USAGE;
	}
	if (!ret && !o->format)
		o->format = isatty(STDOUT_FILENO) ? "box" : "grid";
	if (!ret && !rpt_format_find(o->format)) {
		show_unknown_format(o->format);
		return EXIT_USAGE;
	}
	return ret;
}

/* What the format and the options ask the result for. */
static unsigned show_want(const struct show_cli *o, const struct rpt_format *f)
{
	unsigned want = RESULT_WANT_VIEWS;

	if (o->header)
		want |= RESULT_WANT_HEADER;
	/* the noise floor is for --stats and formats that print every number */
	if (o->stats || (f->caps & RPT_CAP_DATA))
		want |= RESULT_WANT_FLOOR;
	if (o->profile)
		want |= RESULT_WANT_PROFILE_ONLY;
	return want;
}

static int show_render(const struct show_cli *o, const struct rpt_format *f, const struct result *r)
{
	const struct result_view *v = &r->views[0];
	struct rpt_opts ro = {
		.color = !strcmp(o->color, "always") || (!strcmp(o->color, "auto") && isatty(STDOUT_FILENO)),
		.stats = o->stats,
		.width = o->width >= 0 ? (size_t)o->width : cli_terminal_width(),
		.human = o->units ? !strcmp(o->units, "human") : isatty(STDOUT_FILENO),
	};
	bool compacted = false;
	int ret;

	ro.compacted = &compacted;
	ret = rpt_render_view(v, f, &ro, stdout);
	if (!ret && compacted)
		log_warn("no split of the table fits %zu columns (each part repeats Benchmark, Result Class and the"
			 " base): printed as --format compact instead of %s", ro.width, f->name);

	/* show --profile's summary is prose: for the formats that print prose */
	if (!ret && o->profile && (f->caps & RPT_CAP_PROSE))
		ret = rpt_profile_text(v->set, r->envs, stdout);
	/*
	 * stdout that cannot be written (a full disk, /dev/full) is said once
	 * for every command, with its errno, by main's check of stdout
	 */
	if (!ret || (ret == -EIO && ferror(stdout)))
		return 0;
	log_err("cannot render the comparison: %s", ret == -EIO ? "write error" : strerror(-ret));
	return ret == -EIO ? EXIT_RESOURCE : EXIT_INTERNAL;
}

int cmd_show(int argc, char **argv)
{
	struct show_cli o = { .color = "auto", .width = -1 };
	struct result_select sel;
	const struct rpt_format *f;
	struct result *r = NULL;
	int ret;

	cli_select_init(&o.sel);
	ret = show_parse(argc + 1, argv - 1, &o);
	if (ret)
		return ret == CLI_HELP_SHOWN ? EXIT_OK : ret;
	f = rpt_format_find(o.format);
	sel = (struct result_select){ o.sel.store_url, o.sel.cmp, show_want(&o, f) };
	ret = result_build(&sel, &r);
	if (!ret)
		ret = show_render(&o, f, r);
	if (!ret && o.fail_on_regression && result_count(&r->views[0], RESULT_REGRESSED))
		ret = EXIT_REGRESSION;
	result_free(r);
	return ret;
}
