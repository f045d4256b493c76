/* cmd_report: `clearpath report`, the comparison as one self-contained HTML page with plots, or its plots as SVG/PNG files. */
#include "cli/cli_common.h"
#include "cli/cli_select.h"
#include "cli/commands.h"
#include "report/html.h"
#include "report/study.h"
#include "result/result.h"
#include "store/url.h"
#include "util/log.h"
#include "util/replace.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { RO_OUTPUT = 256, RO_FORMAT, RO_ANSWER, RO_HELP };

static const struct option report_options[] = {
	CLI_SELECT_OPTIONS,
	{ "output", required_argument, NULL, RO_OUTPUT },
	{ "format", required_argument, NULL, RO_FORMAT },
	{ "answer", no_argument, NULL, RO_ANSWER },
	{ "help", no_argument, NULL, RO_HELP },
	{ NULL, 0, NULL, 0 },
};

struct report_cli {
	struct cli_select sel;
	const char *output;
	const struct rpt_output *format;
	bool answer;
};

static void report_usage(FILE *out)
{
	fprintf(out, "usage: clearpath report [options] -o FILE.html\n"
		"       clearpath report --format svg|png [options] -o DIR\n\n"
		"The comparison `show` prints, as one self-contained HTML page to attach to a mail\n"
		"or a CI run: per SUT class the table with its legend and a plot per result class\n"
		"(every sample coloured by session, each column's mean, the interval of the change),\n"
		"the sessions, and the machine and software fingerprints.  A benchmark run with\n"
		"--profile gets where its time goes: per column the clearing share, the bound it\n"
		"sets, the top symbols (show --profile's numbers) and a bar plot.  With --format\n"
		"svg or png, the plots alone, one file per result class (and per profiled\n"
		"benchmark) in DIR.  When the store holds `mem clear -f all+ --then read` samples,\n"
		"the page opens with the clearing-strategy study (rates per extent and the answer\n"
		"in words).\n\n"
		"    -o, --output PATH      the page (html) or the directory of plots (svg, png)\n"
		"    --format FMT           html (default), svg or png\n"
		"    --answer               print the clearing-strategy study's answer in words\n"
		"                           (no -o needed; with -o, before writing)\n");
	cli_select_usage(out);
}

/* --format: one of the registry's outputs, which the error lists. */
static int report_format(const char *arg, struct report_cli *o)
{
	const char *names[8];
	size_t n = 0;

	for (; n < rpt_output_count() && n + 1 < sizeof(names) / sizeof(names[0]); n++)
		names[n] = rpt_output_at(n)->name;
	names[n] = NULL;
	o->format = rpt_output_find(arg);
	return o->format ? 0 : cli_choice(arg, "format", names);
}

static int report_option(int c, const char *arg, void *ctx)
{
	struct report_cli *o = ctx;

	switch (c) {
	case RO_OUTPUT: o->output = arg; return 0;
	case RO_ANSWER: o->answer = true; return 0;
	case RO_FORMAT: return report_format(arg, o);
	}
	return cli_select_option(c, arg, &o->sel);
}

/* -o names a page or a directory, never nothing and never a store. */
static int report_check_output(const struct report_cli *o)
{
	const char *part;
	struct stat sb;

	if (!o->output)
		return 0;
	if (!*o->output) {
		log_err("report -o needs a path, not an empty one");
		log_hint("name the page, e.g. -o report.html");
		return EXIT_USAGE;
	}
	if (o->format->plots && !stat(o->output, &sb) && !S_ISDIR(sb.st_mode)) {
		log_err("%s is a file, not a directory: --format %s writes one plot per result class into a"
			" directory", o->output, o->format->name);
		log_hint("name a new directory, e.g. -o plots/");
		return EXIT_USAGE;
	}
	if (!o->format->plots && replace_is_database(o->output, &part)) {
		if (part)
			log_err("%s is the %s of an SQLite database (a clearpath store?): report does not"
				" replace it with a page", o->output, part);
		else
			log_err("%s is an SQLite database (a clearpath store?): report does not replace it"
				" with a page", o->output);
		log_hint("name a new file for the page, e.g. -o report.html");
		return EXIT_USAGE;
	}
	return 0;
}

static int report_parse(int argc, char **argv, struct report_cli *o)
{
	static const struct cli_getopt g = { "report", report_options, RO_HELP, report_usage, report_option };
	int ret;

	/* -o is the one short option: map it onto --output before cli_getopt sees it */
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-o"))
			argv[i] = "--output";
	ret = cli_getopt(&g, argc, argv, o);
	if (!ret && optind < argc) {
		log_err("unexpected argument '%s' to 'report'", argv[optind]);
		return EXIT_USAGE;
	}
	if (!ret && !o->output && !o->answer) {
		log_err("report needs -o FILE.html (or -o DIR with --format svg|png)");
		return EXIT_USAGE;
	}
	return ret ?: report_check_output(o);
}

/* A failed render as an exit code, after saying what failed. */
static int report_failed(int err, const char *what)
{
	if (err == -ENOTSUP) {
		log_err("built without cairo support: report draws its plots with cairo (rebuild with libcairo2-dev"
			" installed)");
		return EXIT_RESOURCE;
	}
	log_err("cannot write %s: %s", what, strerror(-err));
	if (err == -EIO || err == -ENOSPC)
		log_hint("is its disk full? a file that was there is left as it was");
	return err == -EIO || err == -ENOSPC || err == -EACCES ? EXIT_RESOURCE : EXIT_INTERNAL;
}

static int report_html(const struct report_cli *o, const struct result *r)
{
	char source[4200], *shown;
	struct rpt_page p = { r, source };
	struct replace out;
	int ret;

	if (!plot_available())
		return report_failed(-ENOTSUP, o->output);
	/* the page is mailed and attached: a password in the URL never goes into it */
	shown = o->sel.store_url ? store_url_display(o->sel.store_url) : NULL;
	snprintf(source, sizeof(source), "store %s", shown ? shown : o->sel.store_url ? "(unnamed)" : "(default)");
	free(shown);
	/* written beside and renamed over: a failed write (disk full) leaves the page that was there */
	ret = replace_open(&out, o->output);
	if (ret) {
		log_err("cannot create %s: %s", o->output, strerror(-ret));
		if (ret == -EISDIR)
			log_hint("-o names the page's file; a directory is for the plots alone (--format svg|png)");
		return EXIT_RESOURCE;
	}
	ret = replace_commit(&out, rpt_html_write(&p, out.f));
	if (ret)
		return report_failed(ret, o->output);
	printf("wrote %s\n", o->output);
	return 0;
}

static int report_plots(const struct report_cli *o, const struct result *r)
{
	int ret;

	if (mkdir(o->output, 0777) && errno != EEXIST) {
		log_err("cannot create the directory %s: %s", o->output, strerror(errno));
		return EXIT_RESOURCE;
	}
	ret = rpt_plots_write(r, o->format->kind, o->output, stdout);
	/* a file that could not be written was named by rpt_plots_write */
	return ret == -ENOTSUP ? report_failed(ret, o->output) : ret ? EXIT_RESOURCE : 0;
}

/* --answer: the study in words, or a line saying there is none. */
static int report_answer(const struct result *r)
{
	struct rpt_opts ro = { .human = true, .width = cli_terminal_width() };
	int ret = r->study ? rpt_study_text(r->study, &ro, stdout)
			   : (puts("No clearing-strategy study here: the store has no 'mem clear --then read' samples"
				   " (plans/quick.yaml takes them)."), 0);

	return ret ? report_failed(ret, "the answer") : 0;
}

/*
 * What the command asks the result for: the study for --answer and the
 * page; for -o, the views `make run` prints (unless --columns names one),
 * the header, the sessions and the profiles kept apart.
 */
static unsigned report_want(const struct report_cli *o)
{
	unsigned want = RESULT_WANT_STUDY;

	if (o->output)
		want |= RESULT_WANT_VIEWS | RESULT_WANT_HEADER | RESULT_WANT_SESSIONS | RESULT_WANT_PROFILE_APART |
			(o->sel.columns_given ? 0 : RESULT_WANT_AUTO_VIEWS);
	return want;
}

int cmd_report(int argc, char **argv)
{
	struct report_cli o = { .format = rpt_output_find("html") };
	struct result_select sel;
	struct result *r = NULL;
	int ret;

	cli_select_init(&o.sel);
	ret = report_parse(argc + 1, argv - 1, &o);
	if (ret)
		return ret == CLI_HELP_SHOWN ? EXIT_OK : ret;
	sel = (struct result_select){ o.sel.store_url, o.sel.cmp, report_want(&o) };
	ret = result_build(&sel, &r);
	if (!ret && o.answer)
		ret = report_answer(r);
	if (!ret && o.output)
		ret = o.format->plots ? report_plots(&o, r) : report_html(&o, r);
	result_free(r);
	return ret;
}
