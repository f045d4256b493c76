/* cmd_plan_run: `clearpath plan run FILE`: parses, loads and scales the plan, and hands it to the harness. */
#include "campaign/campaign.h"
#include "cli/cli_common.h"
#include "cli/commands.h"
#include "harness/fingerprint.h"
#include "harness/harness.h"
#include "plan/plan.h"
#include "result/result.h"
#include "store/store.h"
#include "store/url.h"
#include "util/boot.h"
#include "util/log.h"
#include "util/shquote.h"
#include "util/sysfs.h"
#include "workloads/workload.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PR_RESUME = 256, PR_SCALE, PR_SEED, PR_SESSIONS, PR_UNTIL, PR_MAX_SESSIONS, PR_DIGEST, PR_HELP };

static const struct option pr_options[] = {
	{ "resume", no_argument, NULL, PR_RESUME },
	{ "scale", required_argument, NULL, PR_SCALE },
	{ "seed", required_argument, NULL, PR_SEED },
	{ "sessions", required_argument, NULL, PR_SESSIONS },
	{ "until-decided", no_argument, NULL, PR_UNTIL },
	{ "max-sessions", required_argument, NULL, PR_MAX_SESSIONS },
	{ "plan-digest", required_argument, NULL, PR_DIGEST },	/* internal: the session process's check */
	{ "help", no_argument, NULL, PR_HELP },
	CLI_HARNESS_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

struct pr_cli {
	struct harness_opts h;
	const char *file;
	const char *scale;	/* "auto", a power of two, or NULL */
	bool resume, child;
	bool have_seed;
	unsigned long long seed;
	unsigned sessions;	/* --sessions: overrides every benchmark's, 0: the plan's */
	bool until;		/* --until-decided: add sessions while cells are undecided */
	unsigned max_sessions;	/* --max-sessions: at most this many in all */
	const char *digest;	/* --plan-digest: the session process's plan must be the run's */
	unsigned label_first, label_of;	/* --until-decided: how its added sessions are numbered (harness_run) */
};

static void pr_usage(FILE *out)
{
	fprintf(out,
		"usage: clearpath plan run [options] FILE\n\n"
		"Runs every benchmark of the plan with its warmups and repeats, each session a\n"
		"fresh process with the benchmarks in a shuffled order (seeded; the seed and the\n"
		"order are stored with the session).\n\n"
		"    --resume          continue an interrupted run from the first unit not completed\n"
		"    --scale auto|N    divide every size by N (auto: the smallest power of two that fits)\n"
		"    --seed N          the shuffle seed (default: from the clock)\n"
		"    --sessions N      sessions for every benchmark instead of the plan's; with a\n"
		"                      reboot between runs, --sessions 1 makes each boot a session\n"
		"    --until-decided   then add one session at a time while a cell comparing this\n"
		"                      swprofile with the others in the store is undecided\n"
		"    --max-sessions N  with --until-decided, stop at N sessions in all (default 10)\n"
		"%s", cli_harness_help);
}

static int pr_parse(int argc, char **argv, struct pr_cli *o)
{
	int c, ret = 0;
	char *end;

	optind = 0;
	opterr = 0;
	while (!ret && (c = getopt_long(argc, argv, "", pr_options, NULL)) != -1) {
		switch (c) {
		case PR_RESUME: o->resume = true; break;
		case PR_SCALE: o->scale = optarg; break;
		case PR_SEED:
			errno = 0;	/* past 2^64-1 strtoull() says ERANGE and gives the largest seed instead */
			o->seed = strtoull(optarg, &end, 10);
			o->have_seed = true;
			if (*optarg < '0' || *optarg > '9' || *end || errno) {
				log_err("--seed takes a whole number, not '%s'", optarg);
				ret = EXIT_USAGE;
			}
			break;
		case PR_SESSIONS: ret = cli_number(optarg, "sessions", 1, &o->sessions); break;
		case PR_UNTIL: o->until = true; break;
		case PR_MAX_SESSIONS: ret = cli_number(optarg, "max-sessions", 1, &o->max_sessions); break;
		case CLI_SESSION_CHILD: o->child = true; break;
		case PR_DIGEST: o->digest = optarg; break;
		case PR_HELP: pr_usage(stdout); return CLI_HELP_SHOWN;
		case '?':
		case ':':
		{
			char opt[3];

			log_err("%s is not an option of 'plan run' (or it needs a value)", cli_refused_option(argv, opt));
			log_hint("see 'clearpath plan run --help'");
			return EXIT_USAGE;
		}
		default:
			ret = cli_harness_option(c, optarg, &o->h);
		}
	}
	if (!ret && optind != argc - 1) {
		log_err("plan run needs exactly one plan file, e.g. 'clearpath plan run plans/quick.yaml'");
		return EXIT_USAGE;
	}
	o->file = argv[optind];
	return ret;
}

/* Load, then scale: "auto" only in the parent, which passes the number it chose to the children. */
static int pr_load(const struct pr_cli *o, struct plan **p)
{
	unsigned divisor = 1, factor;
	uint64_t llc;
	int ret = plan_load(o->file, p);

	/* the same in the parent and in each session process: one machine, one cache */
	if (!ret && (*p)->past_cache)
		ret = plan_past_cache(*p, &factor, &llc);
	if (ret)
		return ret;
	for (size_t i = 0; o->sessions && i < (*p)->nbench; i++)
		(*p)->bench[i].proto.sessions = o->sessions;
	if (o->scale && !strcmp(o->scale, "auto"))
		return plan_scale_auto(*p, &divisor);
	if (o->scale) {
		char *end;
		unsigned long v = strtoul(o->scale, &end, 10);

		if (*o->scale < '1' || *o->scale > '9' || *end || v > (1UL << 20) || (v & (v - 1))) {
			log_err("--scale takes 'auto' or a power of two up to 1048576, not '%s'", o->scale);
			return EXIT_USAGE;
		}
		divisor = (unsigned)v;
	}
	return divisor > 1 ? plan_scale(*p, divisor) : 0;
}

static uint64_t pr_fnv(uint64_t h, const char *s)
{
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return (h ^ 0xff) * 0x100000001b3ULL;	/* a separator, so "ab","c" differs from "a","bc" */
}

/*
 * What the plan runs, as a hex digest into @buf: each benchmark's identity,
 * its exec command, regex and unit, and its protocol except the sessions
 * (--until-decided changes those).  Each session process reads the plan file
 * again: one edited meanwhile would measure something else under the same run.
 */
static void pr_digest(const struct plan *p, char buf[17])
{
	uint64_t h = 0xcbf29ce484222325ULL;
	char n[64];

	for (size_t i = 0; i < p->nbench; i++) {
		const struct plan_bench *b = &p->bench[i];

		snprintf(n, sizeof(n), "%d %u %u %u %u", (int)b->kind, b->proto.warmups, b->proto.repeats,
			 b->proto.timeout_s, b->proto.profile);
		h = pr_fnv(pr_fnv(h, b->id), n);
		if (b->kind == PLAN_EXEC)
			h = pr_fnv(pr_fnv(pr_fnv(h, b->exec.command), b->exec.regex), b->exec.unit);
	}
	snprintf(buf, 17, "%016" PRIx64, h);
}

/*
 * The session process's command line: "clearpath plan run --session-child
 * --scale N <the user's options> FILE", the scale the parent chose in place
 * of "auto" and no --resume (the harness hands the session its place).
 */
static char **pr_child_argv(const struct pr_cli *o, const struct plan *p, int argc, char **argv, char *scale,
			    size_t len, char digest[17])
{
	char **child = calloc((size_t)argc + 10, sizeof(*child));
	int n = 0;

	if (!child)
		return NULL;
	snprintf(scale, len, "%u", p->scale);
	pr_digest(p, digest);
	child[n++] = "clearpath";
	child[n++] = "plan";
	child[n++] = "run";
	child[n++] = "--session-child";
	child[n++] = "--plan-digest";
	child[n++] = digest;
	child[n++] = "--scale";
	child[n++] = scale;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--resume") || !strncmp(argv[i], "--scale=", 8) ||
		    !strncmp(argv[i], "--plan-digest=", 14))
			continue;
		if (!strcmp(argv[i], "--scale") || !strcmp(argv[i], "--plan-digest")) {
			i++;
			continue;
		}
		if (cli_is_store_arg(argv, i, o->h.store_url))
			continue;	/* in the environment (cli_child_store()) */
		child[n++] = argv[i];
	}
	return child;
}

/* Everything that would stop the plan is found before the first benchmark runs. */
static int pr_check(const struct pr_cli *o, const struct plan *p)
{
	int ret = plan_check(p, log_err);

	if (ret == EXIT_RESOURCE && p->scale == 1)
		log_hint("'clearpath plan run --scale auto %s' runs it scaled to fit this machine", o->file);
	return ret;
}

/* Append " OPT VALUE" (VALUE quoted for the shell) to the hint @buf when @value is set. */
static void pr_hint_add(char *buf, size_t len, const char *opt, const char *value)
{
	char *q = value ? sh_quote(value) : NULL;
	size_t n = strlen(buf);

	if (q && n < len)
		snprintf(buf + n, len - n, " %s %s", opt, q);
	free(q);
}

/*
 * The command that continues this run: the resume state keeps the seed, the
 * session and the scale, not where the samples go, so the swprofile, SUT,
 * store and sessions given are repeated (a resume without them would file
 * the rest under the kernel release, or look in another store).
 */
static void pr_resume_hint(const struct pr_cli *o, const struct plan *p, char *buf, size_t len)
{
	char n[16], *shown;

	snprintf(buf, len, "clearpath plan run --resume");
	/* a swprofile the plan names itself goes without saying */
	if (o->h.swprofile && strcmp(o->h.swprofile, p->swprofile))
		pr_hint_add(buf, len, "--swprofile", o->h.swprofile);
	pr_hint_add(buf, len, "--sut", o->h.sut);
	/* a password is never printed: libpq finds it again in ~/.pgpass or a service file */
	shown = o->h.store_url ? store_url_display(o->h.store_url) : NULL;
	pr_hint_add(buf, len, "--store", shown ? shown : o->h.store_url);
	free(shown);
	snprintf(n, sizeof(n), "%u", o->sessions);
	pr_hint_add(buf, len, "--sessions", o->sessions ? n : NULL);
	snprintf(n, sizeof(n), "%u", p->scale);
	pr_hint_add(buf, len, "--scale", p->scale > 1 ? n : NULL);
	if (strlen(buf) < len)
		snprintf(buf + strlen(buf), len - strlen(buf), " %s", o->file);
}

/* The plan as the harness's run: its units, its name for resuming, what each session records. */
static int pr_harness(const struct pr_cli *o, const struct plan *p, int argc, char **argv)
{
	struct harness_run r = { .opts = o->h, .nunits = p->nbench, .name = p->name, .scale = p->scale,
				 .seed = o->seed, .have_seed = o->have_seed, .resume = o->resume,
				 .label_first = o->label_first, .label_of = o->label_of };
	struct harness_unit *units = NULL;
	char scale[16], digest[17], hint[4 * PATH_MAX];
	bool campaign = getenv(CAMPAIGN_SESSION_ENV) != NULL;
	int ret = plan_units(p, &units);

	r.units = units;
	/* a campaign's session: the campaign is what goes on, not this run (no resume state of its own) */
	if (campaign)
		r.name = NULL;
	r.env = json_pack("{s:s, s:s, s:I}", "plan", p->name, "plan_file", p->file, "plan_scale",
			  (json_int_t)p->scale);
	/* the campaign it is a boot's session of: one it left interrupted is no replicate (store_filter) */
	if (campaign && r.env)
		json_object_set_new(r.env, "campaign", json_string(getenv(CAMPAIGN_SESSION_ENV)));
	if (!ret && !r.env)
		ret = EXIT_INTERNAL;
	if (!ret && o->child) {
		ret = harness_run_session(&r);
	} else if (!ret) {
		pr_resume_hint(o, p, hint, sizeof(hint));
		r.resume_command = campaign ? "clearpath campaign continue" : hint;
		r.child_argv = pr_child_argv(o, p, argc, argv, scale, sizeof(scale), digest);
		ret = !r.child_argv ? EXIT_INTERNAL : cli_child_store(o->h.store_url) ?: harness_run(&r);
		free(r.child_argv);
	}
	json_decref(r.env);
	free(units);
	return ret;
}

/* The plan's sessions: the most any benchmark runs in. */
static unsigned pr_sessions(const struct plan *p)
{
	unsigned k = 0;

	for (size_t i = 0; i < p->nbench; i++)
		if (p->bench[i].proto.sessions > k)
			k = p->bench[i].proto.sessions;
	return k;
}

/* Undecided cells of @swp's column, or of every column when @swp is the base: it is in all comparisons. */
static int pr_undecided_in(const struct result_view *v, const char *swp, int *compared)
{
	int n = 0;

	for (size_t b = 0; b < v->nblocks; b++)
		for (size_t r = 0; r < v->blocks[b].nrows; r++)
			for (size_t c = 0; c < v->ncols; c++) {
				const struct stats_change *ch = v->blocks[b].rows[r].cells[c].change;

				if (!ch || (strcmp(v->cols[c], swp) && strcmp(v->cols[v->base], swp)))
					continue;
				(*compared)++;
				/* with 2 sessions and still nothing to plan with (no spread), more will not help */
				n += !ch->decided && !(ch->sessions >= 2 && !isfinite(ch->sessions_needed));
			}
	return n;
}

/* How many cells comparing @swp with the store's other swprofiles are undecided at @alpha; < 0: an exit code. */
static int pr_undecided(const struct pr_cli *o, const char *swp, double alpha, int *compared)
{
	struct result_select sel = {
		o->h.store_url,
		{ .axis = CMP_BY_SWPROFILE, .sut_glob = o->h.sut, .alpha = alpha,
		  .min_effect_pct = STATS_DEFAULT_MIN_EFFECT_PCT, .target_pct = STATS_DEFAULT_TARGET_PCT },
		RESULT_WANT_VIEWS | RESULT_OWN_ALPHA,
	};
	struct result *r = NULL;
	int ret = result_build(&sel, &r), n;

	if (ret)
		return -ret;
	*compared = 0;
	n = pr_undecided_in(&r->views[0], swp, compared);
	result_free(r);
	return n;
}

/*
 * Record in the store that @swp is grown sequentially, @looks looks at
 * @alpha each (so a later show judges at that level), or that sequential
 * run @id has made @looked looks (@swp NULL).  0 or an exit code.
 */
static int pr_record_looks(const struct pr_cli *o, const char *swp, unsigned looks, double alpha, unsigned looked,
			   int64_t *id)
{
	char sut_name[256];
	json_t *fp = o->h.sut ? NULL : fp_sut(sut_name, sizeof(sut_name));
	struct store_sequential q = { o->h.sut ? o->h.sut : sut_name, swp, looks, 0, alpha, NULL, NULL };
	struct store *st = NULL;
	/* it writes: a read-only connection (a server's) would refuse the insert */
	int ret = o->h.sut || fp ? store_url_open(o->h.store_url, wl_identity_parse, &st) : EXIT_INTERNAL;

	json_decref(fp);
	if (ret)
		return ret;
	ret = swp ? store_sequential_begin(st, &q, id) : store_sequential_looked(st, *id, looked);
	store_close(st);
	if (ret)
		log_err("cannot record the sequential run's looks in the store");
	return ret ? store_exit_code(ret) : 0;
}

/*
 * --until-decided: after the plan's sessions, one more session at a time
 * while a cell is undecided, up to --max-sessions.  Each look judges at
 * stats_sequential_alpha(), so the repeated looks keep false alarms at 5%;
 * the store records the looks, and show judges those cells at that level.
 */
static int pr_until_decided(struct pr_cli *o, struct plan *p, int argc, char **argv)
{
	unsigned first = pr_sessions(p), k = first, max = o->max_sessions ? o->max_sessions : 10, looked = 0;
	double alpha = stats_sequential_alpha(STATS_DEFAULT_ALPHA, first, max);
	char release[256];
	const char *swp = o->h.swprofile;
	int ret = 0, left, compared = 0;
	int64_t id = 0;

	if (!swp && boot_release(release, sizeof(release)) == 0)
		swp = release;
	for (;;) {
		left = pr_undecided(o, swp ? swp : "", alpha, &compared);
		if (left < 0)
			return -left;
		/* the first look that compares anything opens the record, every look counts */
		if (compared && !looked && swp &&
		    (ret = pr_record_looks(o, swp, stats_sequential_looks(first, max), alpha, 0, &id)))
			return ret;
		if (compared && swp && (ret = pr_record_looks(o, NULL, 0, alpha, ++looked, &id)))
			return ret;
		if (!compared) {
			printf("until-decided: '%s' has nothing to be compared with in this store yet; stopping at %u sessions\n",
			       swp, k);
			return 0;
		}
		printf("until-decided: %u sessions, %d of %d cells undecided at alpha %.4g\n", k, left, compared, alpha);
		if (!left || k >= max)
			break;
		/* one more session of every benchmark, a fresh run with its own seed */
		for (size_t i = 0; i < p->nbench; i++)
			p->bench[i].proto.sessions = 1;
		o->resume = o->have_seed = false;
		/* session k + 1 of at most max, not "(1/1)" */
		o->label_first = k;
		o->label_of = max;
		ret = pr_harness(o, p, argc, argv);
		if (ret)
			return ret;
		k++;
	}
	printf("until-decided: %s; the store records these looks, and 'clearpath show' judges these cells at alpha %.4g\n",
	       left ? "stopped at --max-sessions with cells undecided" : "every cell decided", alpha);
	return 0;
}

/*
 * The sysctls of the campaign swprofile this run measures (--swprofile
 * naming one of the plan's `swprofiles`), as they read now: part of its
 * fingerprint, so a boot where one did not hold cannot join the others.
 * NULL when there are none.
 */
static json_t *pr_swprofile_sysctls(const struct plan *p, const char *name)
{
	const struct plan_swprofile *sw = name ? plan_swprofile_find(p, name) : NULL;
	json_t *o, *all;
	char path[512], value[256];

	if (!sw || !sw->nsysctl || !(all = json_object()))
		return NULL;
	for (size_t i = 0; i < sw->nsysctl; i++) {
		plan_sysctl_path(sw->sysctl[i].key, path, sizeof(path));
		json_object_set_new(all, sw->sysctl[i].key,
				    sysfs_read_line(path, value, sizeof(value)) ? json_null() : json_string(value));
	}
	o = json_pack("{s:o}", "sysctl", all);
	return o;
}

/* In a session process: 0 when the plan is the one the run started with, else EXIT_USAGE saying so. */
static int pr_same_plan(const struct pr_cli *o, const struct plan *p)
{
	char now[17];

	pr_digest(p, now);
	if (!strcmp(now, o->digest))
		return 0;
	log_err("%s changed since this run started: its benchmarks are no longer those the first session ran",
		o->file);
	log_hint("put the plan back as it was to go on with --resume, or run the new one from the start");
	return EXIT_USAGE;
}

int plan_run(int argc, char **argv)
{
	struct pr_cli o = { .h = { .max_failures = 3 } };
	struct plan *p = NULL;
	int ret = pr_parse(argc + 1, argv - 1, &o);

	if (ret)
		return ret == CLI_HELP_SHOWN ? EXIT_OK : ret;
	ret = pr_load(&o, &p);
	if (!ret && !o.h.swprofile && strcmp(p->swprofile, "auto"))
		o.h.swprofile = p->swprofile;
	if (!ret)
		o.h.swprofile_extra = pr_swprofile_sysctls(p, o.h.swprofile);
	if (!ret && !o.child)
		ret = pr_check(&o, p);
	if (!ret && o.child && o.digest)
		ret = pr_same_plan(&o, p);
	if (!ret && o.max_sessions && !o.until) {
		log_err("--max-sessions goes with --until-decided");
		ret = EXIT_USAGE;
	}
	if (!ret)
		ret = pr_harness(&o, p, argc + 1, argv - 1);
	if (!ret && o.until && !o.child)
		ret = pr_until_decided(&o, p, argc + 1, argv - 1);
	json_decref(o.h.swprofile_extra);
	plan_free(p);
	return ret;
}
