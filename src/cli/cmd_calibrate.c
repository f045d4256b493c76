/* cmd_calibrate: `clearpath calibrate PLAN`: the plan's benchmarks in N sessions, and the machine's noise per result class. */
#include "cli/cli_common.h"
#include "cli/commands.h"
#include "cli/cli_cmp.h"
#include "report/report.h"
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

/* One row per result class: sessions, spreads, what 4 sessions detect, sessions for the target. */
static int ca_rows(struct rpt_table *t, const struct cmp_block *blk, const struct ca_cli *o)
{
	for (size_t r = 0; r < blk->nrows; r++) {
		const struct cmp_row *row = &blk->rows[r];
		char cls[1300], k[16], b[32], w[32], m[32], need[32];
		const char *cells[7] = { row->bench, cls, k, b, w, m, need };
		struct cmp_floor f;

		cmp_floor_of(&row->cells[0].st, STATS_DEFAULT_ALPHA, o->target, &f);
		snprintf(cls, sizeof(cls), "%s (%s)", row->rclass, row->unit);
		snprintf(k, sizeof(k), "%zu", f.sessions);
		snprintf(b, sizeof(b), isfinite(f.between_pct) ? "%.2f%%" : "-", f.between_pct);
		snprintf(w, sizeof(w), isfinite(f.within_pct) ? "%.2f%%" : "-", f.within_pct);
		snprintf(m, sizeof(m), isfinite(f.mde4_pct) ? "%.2f%%" : "-", f.mde4_pct);
		snprintf(need, sizeof(need), isfinite(f.sessions_needed) ? "%.0f" : "-", f.sessions_needed);
		if (rpt_table_add_row(t, cells, 7, NULL))
			return EXIT_INTERNAL;
	}
	return 0;
}

/* The report: one table per SUT class from the calibration swprofile's samples. */
static int ca_report(const struct ca_cli *o, const char *swp)
{
	const char *only[1] = { swp };
	struct cmp_opts co = { .axis = CMP_BY_SWPROFILE, .swprofiles = only, .nswprofiles = 1,
			       .alpha = STATS_DEFAULT_ALPHA, .min_effect_pct = STATS_DEFAULT_MIN_EFFECT_PCT,
			       .target_pct = o->target, .sut_glob = o->sut };
	static const char *const heads[] = { "Benchmark", "Result Class", "sessions", "between sessions",
					     "within a session", "4 sessions detect", NULL };
	struct cmp_set *set = NULL;
	char head[64], title[2 * STORE_NAME_MAX + 128];
	int ret = cli_cmp_load(o->store, &co, &set);

	if (ret)
		return ret;
	snprintf(head, sizeof(head), "sessions for %.10g%%", o->target);
	for (size_t b = 0; !ret && b < set->nblocks; b++) {
		struct rpt_table *t;

		snprintf(title, sizeof(title), "%sNoise floor of SUT Class %s, swprofile %s:", b ? "\n" : "",
			 set->blocks[b].name, swp);
		t = rpt_table_new(title);
		for (size_t i = 0; t && !ret && i < 7; i++)
			ret = rpt_table_add_column(t, heads[i] ? heads[i] : head,
						   i == 0 ? RPT_COL_GROUP : i == 1 ? 0 : RPT_COL_RIGHT);
		ret = !t || ret ? EXIT_INTERNAL : ca_rows(t, &set->blocks[b], o);
		if (!ret)
			rpt_table_add_footer(t, "Spreads as sd in % of the mean; detect: the smallest change found 80% of"
						" the time at 95% confidence, comparing two kernels with that many"
						" sessions each. 'clearpath show --stats' prints these under each result.");
		if (!ret && rpt_render(t, "grid", NULL, stdout))
			ret = EXIT_RESOURCE;
		rpt_table_free(t);
	}
	cmp_free(set);
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
