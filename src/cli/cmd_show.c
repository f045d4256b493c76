/* cmd_show: `clearpath show`, the comparison table users post to the mailing list. */
#include "cli/cli_cmp.h"
#include "cli/cli_common.h"
#include "cli/cli_select.h"
#include "cli/commands.h"
#include "cli/show.h"
#include "report/header.h"
#include "report/profile.h"
#include "report/report.h"
#include "store/url.h"
#include "store/store.h"
#include "util/log.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
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
		"with (I)/(R) when the change is real, per SUT class.\n\n"
		"    --format FMT           box (default on a terminal), grid (default otherwise),\n"
		"                           compact, markdown, csv, json\n"
		"    --stats                add n, cv and the 95%% CI to every cell\n"
		"    --width N              no line wider than N columns: tables split, notes\n"
		"                           wrapped (default: the terminal's width, else\n"
		"                           $COLUMNS, else unlimited; 0: unlimited)\n"
		"    --units UNITS          human (97.09 GB/s, the default on a terminal) or\n"
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

/* The default width: the terminal's on a terminal, else $COLUMNS when it is a number, else unlimited (0). */
static size_t show_default_width(void)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");
	char *end;
	long n;

	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col)
		return ws.ws_col;
	n = env ? strtol(env, &end, 10) : 0;
	return env && *env && !*end && n > 0 ? (size_t)n : 0;
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

static int show_collect(const struct store_row *row, void *arg)
{
	void **ctx = arg;
	struct cmp_sample x = cli_cmp_sample(row);
	int ret;

	/* --profile shows the profile classes and only them */
	if (rpt_profile_class(row->resultclass) != *(const bool *)ctx[4])
		return 0;
	ret = cmp_add(ctx[0], ctx[1], &x);

	/* the machine's noise floor, kept apart from the comparison */
	if (!ret && ctx[2] && cmp_is_calibration(row->swprofile))
		ret = cmp_add(ctx[2], ctx[3], &x);
	return ret ? -ENOMEM : 0;
}

/*
 * Session UUID -> environment snapshot (JSON null: none), for the settings
 * warnings: only what show_env_diffs() reads, the first session with settings
 * per block and column, so memory follows the table, not the store's sessions.
 */
static int show_env_want(struct store *st, json_t *envs, const char *uuid, bool *found)
{
	json_t *env = json_object_get(envs, uuid);
	int ret = 0;

	if (!env) {
		ret = store_session_environment(st, uuid, &env);
		if (ret == -ENOENT || (!ret && !env))
			env = json_null();
		if ((ret && ret != -ENOENT) || json_object_set_new(envs, uuid, env))
			return ret && ret != -ENOENT ? ret : -ENOMEM;
		ret = 0;
	}
	*found = json_is_object(json_object_get(env, "settings"));
	return ret;
}

/* Every session of the 4KB mmap rows (show_thp_row): whether any ran with THP always decides a warning. */
static int show_thp_envs(struct store *st, const struct cmp_set *set, json_t *envs)
{
	int ret = 0;

	for (size_t b = 0; !ret && b < set->nblocks; b++) {
		const struct cmp_block *blk = &set->blocks[b];

		for (size_t r = 0; !ret && r < blk->nrows; r++) {
			for (size_t c = 0; !ret && show_thp_row(&blk->rows[r]) && c < set->ncols; c++) {
				const struct cmp_cell *cell = &blk->rows[r].cells[c];
				bool found;

				for (size_t u = 0; !ret && u < cell->nuuids; u++)
					ret = show_env_want(st, envs, cell->uuids[u], &found);
			}
		}
	}
	return ret;
}

/* Every session of @set: show --profile says per column how each was sampled. */
static int show_all_envs(struct store *st, const struct cmp_set *set, json_t *envs)
{
	int ret = 0;

	for (size_t b = 0; !ret && b < set->nblocks; b++) {
		const struct cmp_block *blk = &set->blocks[b];

		for (size_t r = 0; !ret && r < blk->nrows; r++) {
			for (size_t c = 0; !ret && c < set->ncols; c++) {
				const struct cmp_cell *cell = &blk->rows[r].cells[c];
				bool found;

				for (size_t u = 0; !ret && u < cell->nuuids; u++)
					ret = show_env_want(st, envs, cell->uuids[u], &found);
			}
		}
	}
	return ret;
}

static json_t *show_envs(struct store *st, const struct cmp_set *set, bool profile)
{
	struct store_counts n;
	json_t *envs = json_object();
	int ret = envs ? store_count(st, &n) : -ENOMEM;

	/* a store of imports has no snapshots: nothing to look up */
	for (size_t b = 0; !ret && n.environments && b < set->nblocks; b++) {
		const struct cmp_block *blk = &set->blocks[b];

		for (size_t c = 0; !ret && c < set->ncols; c++) {
			bool found = false;

			for (size_t r = 0; !ret && !found && r < blk->nrows; r++) {
				const struct cmp_cell *cell = &blk->rows[r].cells[c];

				for (size_t u = 0; !ret && !found && u < cell->nuuids; u++)
					ret = show_env_want(st, envs, cell->uuids[u], &found);
			}
		}
	}
	if (!ret && n.environments)
		ret = profile ? show_all_envs(st, set, envs) : show_thp_envs(st, set, envs);
	/* NULL on failure (logged): show must not go on and exit 0 after an error */
	if (ret) {
		if (ret == -ENOMEM)
			log_err("out of memory reading the sessions' environments");
		json_decref(envs);
		return NULL;
	}
	return envs;
}

/*
 * The comparison into @set and, when @cal is not NULL, the calibration runs
 * into @cal; under --header, what the header is built from into *@hdr_in.
 */
static int show_load(const struct show_cli *o, struct cmp_set *set, struct cmp_set *cal,
		     const struct cmp_opts *calo, json_t **envs, json_t **hdr_in)
{
	struct store *st = NULL;
	void *ctx[5] = { set, (void *)&o->sel.cmp, cal, (void *)calo, (void *)&o->profile };
	int ret = store_url_open_existing(o->sel.store_url, &st);

	if (ret)
		return ret;
	ret = store_query(st, NULL, show_collect, ctx);
	*envs = ret ? NULL : show_envs(st, set, o->profile);
	if (!ret && o->header)
		*hdr_in = show_header_inputs(st);
	store_close(st);
	if (ret) {
		log_err("cannot read the samples: %s", strerror(-ret));
		return store_exit_code(ret);
	}
	return *envs && (!o->header || *hdr_in) ? 0 : EXIT_RESOURCE;
}

/* The calibration cells: as the comparison's, only for calibration swprofiles. */
static struct cmp_opts show_cal_opts(const struct cmp_opts *o)
{
	struct cmp_opts c = *o;

	c.swprofiles = NULL;
	c.nswprofiles = 0;
	c.base = NULL;
	c.calibration_only = true;
	return c;
}

static int show_render(const struct show_cli *o, const struct cmp_set *set, const json_t *envs,
		       const json_t *hdr_in)
{
	json_t **diffs = show_settings(set, envs, show_env_diffs);
	json_t **thp = show_settings(set, envs, show_thp_always);
	struct rpt_header *header = hdr_in ? show_header_build(set, hdr_in) : NULL;
	json_t **prof = o->profile ? show_profile_json(set, envs) : NULL;
	struct rpt_result r = { set, &o->sel.cmp, diffs, header, thp, prof };
	struct rpt_opts ro = {
		.color = !strcmp(o->color, "always") || (!strcmp(o->color, "auto") && isatty(STDOUT_FILENO)),
		.stats = o->stats,
		.width = o->width >= 0 ? (size_t)o->width : show_default_width(),
		.human = o->units ? !strcmp(o->units, "human") : isatty(STDOUT_FILENO),
	};
	int ret = diffs && thp && (header || !hdr_in) && (prof || !o->profile) ?
			  rpt_render_result(&r, o->format, &ro, stdout) : -ENOMEM;

	show_settings_free(prof, set->nblocks);
	show_settings_free(diffs, set->nblocks);
	show_settings_free(thp, set->nblocks);
	rpt_header_free(header);
	if (!ret)
		return 0;
	log_err("cannot render the comparison: %s", ret == -EIO ? "write error" : strerror(-ret));
	return ret == -EIO ? EXIT_RESOURCE : EXIT_INTERNAL;
}

int cmd_show(int argc, char **argv)
{
	struct show_cli o = { .color = "auto", .width = -1 };
	struct cmp_set *set, *cal = NULL;
	struct cmp_opts calo;
	json_t *envs = NULL, *hdr_in = NULL;
	int ret;

	cli_select_init(&o.sel);
	ret = show_parse(argc + 1, argv - 1, &o);

	if (ret)
		return ret == CLI_HELP_SHOWN ? EXIT_OK : ret;
	calo = show_cal_opts(&o.sel.cmp);
	set = cmp_new(&o.sel.cmp);
	/* the noise floor is for --stats and JSON readers, and only where columns are kernels */
	if (set && (o.stats || !strcmp(o.format, "json")) && o.sel.cmp.axis == CMP_BY_SWPROFILE &&
	    !(cal = cmp_new(&calo)))
		ret = EXIT_INTERNAL;
	if (!set)
		return EXIT_INTERNAL;
	if (!ret)
		ret = show_load(&o, set, cal, &calo, &envs, &hdr_in);
	if (!ret && o.profile && !set->samples) {
		/* "the store is empty" would be wrong: it holds samples, none of them a profile */
		log_err("no --profile samples match: the store holds no profile shares, or the filters exclude them");
		log_hint("'clearpath run -- mem mmap ... --profile' (or a plan's 'profile: true') stores them");
		ret = EXIT_USAGE;
	}
	if (!ret)
		ret = cmp_finish(set, &o.sel.cmp);
	/* no calibration samples is the usual case, not an error */
	if (!ret && cal && cal->samples && !cmp_finish(cal, &calo))
		cmp_attach_floor(set, cal, &o.sel.cmp);
	if (!ret)
		ret = show_render(&o, set, envs, hdr_in);
	if (!ret && o.profile && strcmp(o.format, "json") && strcmp(o.format, "csv") &&
	    show_profile_render(set, envs, stdout)) {
		log_err("out of memory rendering the profile");
		ret = EXIT_INTERNAL;
	}
	if (!ret && o.fail_on_regression && cmp_count_verdicts(set, STATS_REGRESSION))
		ret = EXIT_REGRESSION;
	cmp_free(set);
	cmp_free(cal);
	json_decref(envs);
	json_decref(hdr_in);
	return ret;
}
