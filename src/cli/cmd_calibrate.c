/* cmd_calibrate: `clearpath calibrate PLAN`: the plan's benchmarks in N sessions, and the machine's noise per result class. */
#include "cli/cli_common.h"
#include "cli/commands.h"
#include "report/report.h"
#include "result/result.h"
#include "store/store.h"
#include "util/boot.h"
#include "util/log.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CA_SESSIONS = 300, CA_TARGET, CA_SCALE, CA_SEED, CA_HELP };

static const struct option ca_options[] = {
	{ "sessions", required_argument, NULL, CA_SESSIONS },
	{ "target", required_argument, NULL, CA_TARGET },
	{ "scale", required_argument, NULL, CA_SCALE },
	{ "seed", required_argument, NULL, CA_SEED },
	{ "help", no_argument, NULL, CA_HELP },
	CLI_HARNESS_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

struct ca_cli {
	unsigned sessions;
	double target;
	const char *scale, *seed, *store, *sut, *swprofile, *file;
	bool quiet, force;
};

static void ca_usage(FILE *out)
{
	fprintf(out,
		"usage: clearpath calibrate [options] PLAN\n\n"
		"Runs the plan's benchmarks in N sessions under the running kernel (as plan run\n"
		"does, stored under the swprofile '<kernel release>" CMP_CALIBRATION_SUFFIX "'), and reports\n"
		"per result class how much sessions and repeats differ, the smallest change 4\n"
		"sessions per column detect, and the sessions a --target change needs.\n"
		"show --stats prints the same as each result's noise floor.\n\n"
		"    --sessions N      sessions to run (default 4, at least 2)\n"
		"    --target PCT      the change to plan for, in per cent (default 1)\n"
		"    --scale auto|N    divide every size by N, as plan run\n"
		"    --seed N          the shuffle seed, as plan run\n"
		"    --swprofile NAME  calibrate under 'NAME" CMP_CALIBRATION_SUFFIX "' instead\n"
		"    --sut NAME        the SUT class name instead of the detected one\n"
		"    --store URL       the store (default: $CLEARPATH_STORE or ~/.local/share/clearpath/results.db)\n"
		"    --quiet           no progress line\n"
		"    --force           add to a calibration whose fingerprint changed\n");
}

static int ca_option(int c, const char *arg, void *ctx)
{
	struct ca_cli *o = ctx;
	char *end;

	switch (c) {
	case CA_SESSIONS: return cli_number(arg, "sessions", 2, &o->sessions);
	case CA_SCALE: o->scale = arg; return 0;
	case CA_SEED: o->seed = arg; return 0;
	case CLI_STORE: o->store = arg; return 0;
	case CLI_SUT:
		o->sut = arg;
		return cli_store_name("sut", arg);
	case CLI_SWPROFILE:
		if (cli_store_name("swprofile", arg))
			return EXIT_USAGE;
		if (!*arg) {
			/* it would calibrate under " (calibration)", a name no kernel has */
			log_err("--swprofile needs a name, not an empty one");
			return EXIT_USAGE;
		}
		o->swprofile = arg;
		return 0;
	case CLI_QUIET: o->quiet = true; return 0;
	case CLI_FORCE: o->force = true; return 0;
	case CA_TARGET:
		o->target = strtod(arg, &end);
		if (end != arg && !*end && o->target >= 0.001 && o->target <= 1000)
			return 0;
		log_err("invalid value '%s' for --target: expected a number from 0.001 to 1000", arg);
		return EXIT_USAGE;
	}
	log_err("that option is not one of 'calibrate'; see 'clearpath calibrate --help'");
	return EXIT_USAGE;
}

static int ca_parse(int argc, char **argv, struct ca_cli *o)
{
	static const struct cli_getopt g = { "calibrate", ca_options, CA_HELP, ca_usage, ca_option };
	int ret = cli_getopt(&g, argc, argv, o);

	if (!ret && optind != argc - 1) {
		log_err("calibrate needs exactly one plan file, e.g. 'clearpath calibrate plans/quick.yaml'");
		return EXIT_USAGE;
	}
	o->file = argv[optind];
	return ret;
}

/* Run the plan through plan run, under the calibration swprofile @swp. */
static int ca_run(const struct ca_cli *o, const char *swp)
{
	char sessions[16];
	char *argv[24];
	int n = 0;

	snprintf(sessions, sizeof(sessions), "%u", o->sessions);
	argv[n++] = "run";
	argv[n++] = "--swprofile";
	argv[n++] = (char *)swp;
	argv[n++] = "--sessions";
	argv[n++] = sessions;
#define CA_PASS(opt, val) do { if (val) { argv[n++] = opt; argv[n++] = (char *)(val); } } while (0)
	CA_PASS("--store", o->store);
	CA_PASS("--sut", o->sut);
	CA_PASS("--scale", o->scale);
	CA_PASS("--seed", o->seed);
#undef CA_PASS
	if (o->quiet)
		argv[n++] = "--quiet";
	if (o->force)
		argv[n++] = "--force";
	argv[n++] = (char *)o->file;
	argv[n] = NULL;
	return plan_run(n - 1, argv + 1);
}

/*
 * A spread in % of the mean; "within repeats" where the estimate of the
 * between-session part is truncated at 0 while the repeats do spread.
 */
static bool ca_truncated(const struct cmp_floor *f)
{
	return f->between_pct == 0 && f->within_pct > 0;
}

static void ca_spread(double pct, bool truncated, char *buf, size_t len)
{
	if (!isfinite(pct))
		snprintf(buf, len, "-");
	else if (truncated)
		snprintf(buf, len, "within repeats");
	else
		snprintf(buf, len, "%.2f%%", pct);
}

/* One row per result class: sessions, spreads, what 4 sessions detect, sessions for the target. */
static int ca_rows(struct rpt_table *t, const struct result_block *blk, bool *truncated)
{
	for (size_t r = 0; r < blk->nrows; r++) {
		const struct result_row *row = &blk->rows[r];
		const struct cmp_floor *f = row->floor;
		char cls[1300], k[16], b[32], w[32], m[32], need[32];
		const char *cells[7] = { row->bench, cls, k, b, w, m, need };

		if (!f)
			continue;
		snprintf(cls, sizeof(cls), "%s (%s)", row->rclass, row->unit);
		snprintf(k, sizeof(k), "%zu", f->sessions);
		ca_spread(f->between_pct, ca_truncated(f), b, sizeof(b));
		ca_spread(f->within_pct, false, w, sizeof(w));
		/* too few calibration sessions to bound the spread: both are lower bounds */
		snprintf(m, sizeof(m), isfinite(f->mde4_pct) ? "%s%.2f%%" : "-", f->at_least ? ">=" : "", f->mde4_pct);
		snprintf(need, sizeof(need), isfinite(f->sessions_needed) ? "%s%.0f" : "-", f->at_least ? ">=" : "",
			 f->sessions_needed);
		*truncated |= ca_truncated(f);
		if (rpt_table_add_row(t, cells, 7, NULL))
			return EXIT_INTERNAL;
	}
	return 0;
}

/* One block's table: its title, columns, rows and what they mean. */
static int ca_table(const struct result_block *blk, size_t b, const struct ca_cli *o, const char *swp)
{
	static const char *const heads[] = { "Benchmark", "Result Class", "sessions", "between sessions",
					     "within a session", "4 sessions detect", NULL };
	char head[64], title[2 * STORE_NAME_MAX + 128];
	bool truncated = false;
	struct rpt_table *t;
	int ret = 0;

	snprintf(head, sizeof(head), "sessions for %.10g%%", o->target);
	snprintf(title, sizeof(title), "%sNoise floor of SUT Class %s, swprofile %s:", b ? "\n" : "", blk->name, swp);
	t = rpt_table_new(title);
	for (size_t i = 0; t && !ret && i < 7; i++)
		ret = rpt_table_add_column(t, heads[i] ? heads[i] : head,
					   i == 0 ? RPT_COL_GROUP : i == 1 ? 0 : RPT_COL_RIGHT);
	ret = !t || ret ? EXIT_INTERNAL : ca_rows(t, blk, &truncated);
	if (!ret)
		rpt_table_add_footer(t, "Spreads as sd in % of the mean; detect: the smallest change found 80% of"
					" the time at 95% confidence, comparing two kernels with that many"
					" sessions each, planned for the upper 75% confidence bound of the spread (>=: a"
					" lower bound, from too few sessions to bound the spread, or a plan of fewer than"
					" twice the sessions of a calibration of fewer than 9: mostly one that read the"
					" spread too small). 'clearpath show --stats' prints these under each result.");
	if (!ret && truncated)
		rpt_table_add_footer(t, "within repeats: the sessions differ no more than the repeats explain"
					" (the estimate of the difference between sessions is 0 or less, truncated"
					" at 0).");
	if (!ret && rpt_render(t, "grid", NULL, stdout))
		ret = EXIT_RESOURCE;
	rpt_table_free(t);
	return ret;
}

/* The report: one table per SUT class from the calibration swprofile's samples, their noise floor. */
static int ca_report(const struct ca_cli *o, const char *swp)
{
	const char *only[1] = { swp };
	struct result_select sel = {
		o->store,
		{ .axis = CMP_BY_SWPROFILE, .swprofiles = only, .nswprofiles = 1, .alpha = STATS_DEFAULT_ALPHA,
		  .min_effect_pct = STATS_DEFAULT_MIN_EFFECT_PCT, .target_pct = o->target, .sut_glob = o->sut },
		RESULT_WANT_VIEWS | RESULT_WANT_FLOOR,
	};
	struct result *r = NULL;
	int ret = result_build(&sel, &r);

	for (size_t b = 0; !ret && b < r->views[0].nblocks; b++)
		ret = ca_table(&r->views[0].blocks[b], b, o, swp);
	result_free(r);
	return ret;
}

int cmd_calibrate(int argc, char **argv)
{
	struct ca_cli o = { .sessions = 4, .target = STATS_DEFAULT_TARGET_PCT };
	char swp[STORE_NAME_MAX + sizeof(CMP_CALIBRATION_SUFFIX) + 1];
	char release[256];
	int ret = ca_parse(argc + 1, argv - 1, &o), err;

	if (ret)
		return ret == CLI_HELP_SHOWN ? EXIT_OK : ret;
	if (!o.swprofile && (err = boot_release(release, sizeof(release)))) {
		log_err("cannot read the kernel release: %s", strerror(-err));
		return EXIT_INTERNAL;
	}
	snprintf(swp, sizeof(swp), "%s" CMP_CALIBRATION_SUFFIX, o.swprofile ? o.swprofile : release);
	/* the suffix counts too: a name that fits --swprofile may not fit with it */
	if (store_name_check(swp, "the calibration swprofile"))
		return EXIT_USAGE;
	ret = ca_run(&o, swp);
	return ret ? ret : ca_report(&o, swp);
}
