/* cmd_plan_run: `clearpath plan run FILE`: every benchmark of a plan, shuffled per session, resumable. */
#include "cli/cli_common.h"
#include "cli/commands.h"
#include "harness/harness.h"
#include "harness/progress.h"
#include "plan/plan.h"
#include "store/url.h"
#include "util/log.h"
#include "util/clock.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { PR_RESUME = 256, PR_SCALE, PR_SEED, PR_SESSION, PR_SESSIONS, PR_HELP };

static const struct option pr_options[] = {
	{ "resume", no_argument, NULL, PR_RESUME },
	{ "scale", required_argument, NULL, PR_SCALE },
	{ "seed", required_argument, NULL, PR_SEED },
	{ "session", required_argument, NULL, PR_SESSION },	/* internal: which session a child runs */
	{ "sessions", required_argument, NULL, PR_SESSIONS },
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
	unsigned session;	/* child: 0-based session index */
	unsigned sessions;	/* --sessions: overrides every benchmark's, 0: the plan's */
};

/* Where a plan's progress is kept between sessions: next to the store, one file per plan. */
struct pr_state {
	char path[PATH_MAX + 320];
	unsigned long long seed;
	unsigned session;	/* the session to run next (0-based) */
	unsigned scale;
	json_t *done;		/* ids completed in that session */
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
			o->seed = strtoull(optarg, &end, 10);
			o->have_seed = true;
			if (*optarg < '0' || *optarg > '9' || *end) {
				log_err("--seed takes a whole number, not '%s'", optarg);
				ret = EXIT_USAGE;
			}
			break;
		case PR_SESSION: ret = cli_number(optarg, "session", 0, &o->session); break;
		case PR_SESSIONS: ret = cli_number(optarg, "sessions", 1, &o->sessions); break;
		case CLI_SESSION_CHILD: o->child = true; break;
		case PR_HELP: pr_usage(stdout); return CLI_HELP_SHOWN;
		case '?':
		case ':':
			log_err("%s is not an option of 'plan run' (or it needs a value)", argv[optind - 1]);
			log_hint("see 'clearpath plan run --help'");
			return EXIT_USAGE;
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

static int pr_state_path(const struct pr_cli *o, const struct plan *p, struct pr_state *s)
{
	char store[PATH_MAX];
	int ret = store_url_file(o->h.store_url, store, sizeof(store));

	if (!ret)
		snprintf(s->path, sizeof(s->path), "%s.plan-%s.json", store, p->name);
	return ret;
}

static int pr_state_read(struct pr_state *s)
{
	json_error_t err;
	json_t *j = json_load_file(s->path, 0, &err);
	json_int_t seed = 0, session = 0, scale = 1;

	if (!j)
		return -ENOENT;
	if (json_unpack(j, "{s:I, s:I, s:I, s:o}", "seed", &seed, "session", &session, "scale", &scale,
			"done", &s->done) || !json_is_array(s->done)) {
		json_decref(j);
		log_err("%s is not a plan state file clearpath wrote; remove it to start over", s->path);
		return -EINVAL;
	}
	json_incref(s->done);
	json_decref(j);
	s->seed = (unsigned long long)seed;
	s->session = (unsigned)session;
	s->scale = (unsigned)scale;
	return 0;
}

/* Write the state atomically: a crash leaves the old file or the new one, never half of one. */
static int pr_state_write(const struct pr_state *s)
{
	char tmp[PATH_MAX + 330];
	json_t *j = json_pack("{s:I, s:I, s:I, s:O}", "seed", (json_int_t)s->seed, "session",
			      (json_int_t)s->session, "scale", (json_int_t)s->scale, "done", s->done);
	int ret;

	snprintf(tmp, sizeof(tmp), "%s.tmp", s->path);
	ret = j ? json_dump_file(j, tmp, JSON_COMPACT) : -1;
	json_decref(j);
	if (ret || rename(tmp, s->path)) {
		log_err("cannot write the plan state %s: %s", s->path, strerror(errno));
		unlink(tmp);
		return EXIT_RESOURCE;
	}
	return 0;
}

static bool pr_done(const struct pr_state *s, const char *id)
{
	size_t i;
	json_t *v;

	json_array_foreach(s->done, i, v)
		if (!strcmp(json_string_value(v) ?: "", id))
			return true;
	return false;
}

static unsigned pr_sessions(const struct plan *p)
{
	unsigned n = 1;

	for (size_t i = 0; i < p->nbench; i++)
		if (p->bench[i].proto.sessions > n)
			n = p->bench[i].proto.sessions;
	return n;
}

/* Load, then scale: "auto" only in the parent, which passes the number it chose to the children. */
static int pr_load(const struct pr_cli *o, struct plan **p)
{
	unsigned divisor = 1;
	int ret = plan_load(o->file, p);

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

/* A session's benchmarks in their shuffled order, without those already done. */
static size_t pr_units(const struct plan *p, const struct pr_state *s, unsigned session,
		       struct harness_unit *units, json_t *order)
{
	size_t *idx = calloc(p->nbench ? p->nbench : 1, sizeof(*idx)), n = 0, k = 0;

	if (!idx)
		return 0;
	for (size_t i = 0; i < p->nbench; i++)
		if (p->bench[i].proto.sessions > session)
			idx[n++] = i;
	/* One seed per session, so each order can be replayed from the recorded seed. */
	plan_shuffle(idx, n, s->seed + session);
	for (size_t i = 0; i < n; i++) {
		const struct plan_bench *b = &p->bench[idx[i]];

		json_array_append_new(order, json_string(b->id));
		if (pr_done(s, b->id))
			continue;
		units[k++] = (struct harness_unit){ b->id, b->argc, b->argv, b->kind == PLAN_EXEC ? b : NULL,
						    b->proto.warmups, b->proto.repeats, b->proto.timeout_s };
	}
	free(idx);
	return k;
}

static int pr_unit_done(void *arg, const struct harness_unit *u)
{
	struct pr_state *s = arg;

	json_array_append_new(s->done, json_string(u->id));
	return pr_state_write(s);
}

/* A session process: the units of session o->session not done yet. */
static int pr_child(const struct pr_cli *o, const struct plan *p)
{
	struct pr_state s = { .seed = o->seed, .session = o->session, .scale = p->scale };
	struct harness_unit *units = calloc(p->nbench ? p->nbench : 1, sizeof(*units));
	json_t *order = json_array(), *extra;
	size_t n;
	int ret = pr_state_path(o, p, &s);

	if (!units || !order || ret) {
		free(units);
		json_decref(order);
		return ret ?: EXIT_INTERNAL;
	}
	if (pr_state_read(&s) || s.session != o->session) {
		json_decref(s.done);
		s.done = json_array();
		s.session = o->session;
	}
	s.seed = o->seed;
	n = pr_units(p, &s, o->session, units, order);
	extra = json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:o}", "plan", p->name, "plan_file", p->file,
			  "plan_seed", (json_int_t)o->seed, "plan_session", (json_int_t)o->session + 1,
			  "plan_sessions", (json_int_t)pr_sessions(p), "plan_scale", (json_int_t)p->scale,
			  "plan_order", order);
	ret = harness_session(&o->h, units, n, extra, pr_unit_done, &s);
	json_decref(extra);
	json_decref(s.done);
	free(units);
	return ret;
}

static unsigned pr_steps(const struct plan *p, unsigned session)
{
	unsigned steps = 0;

	for (size_t i = 0; i < p->nbench; i++)
		if (p->bench[i].proto.sessions > session)
			steps += p->bench[i].proto.warmups + p->bench[i].proto.repeats;
	return steps;
}

/* "clearpath plan run --session-child --session K --seed S --scale N <shared options> FILE". */
static int pr_spawn(const struct pr_cli *o, const struct plan *p, int argc, char **argv, unsigned k)
{
	char **child = calloc((size_t)argc + 12, sizeof(*child));
	char sess[16], seed[32], scale[16];
	int n = 0, ret;

	if (!child)
		return EXIT_INTERNAL;
	snprintf(sess, sizeof(sess), "%u", k);
	snprintf(seed, sizeof(seed), "%llu", o->seed);
	snprintf(scale, sizeof(scale), "%u", p->scale);
	child[n++] = "clearpath";
	child[n++] = "plan";
	child[n++] = "run";
	child[n++] = "--session-child";
	child[n++] = "--session";
	child[n++] = sess;
	child[n++] = "--seed";
	child[n++] = seed;
	child[n++] = "--scale";
	child[n++] = scale;
	/* the user's options minus the ones set above; the plan file last */
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--resume"))
			continue;
		if (!strcmp(argv[i], "--scale") || !strcmp(argv[i], "--seed")) {
			i++;
			continue;
		}
		if (!strncmp(argv[i], "--scale=", 8) || !strncmp(argv[i], "--seed=", 7))
			continue;
		child[n++] = argv[i];
	}
	ret = harness_spawn(child, k + 1);
	free(child);
	return ret;
}

static int pr_parent(struct pr_cli *o, struct plan *p, int argc, char **argv)
{
	struct pr_state s = { 0 };
	unsigned sessions = pr_sessions(p), done = 0, total = 0;
	int ret = pr_state_path(o, p, &s);

	if (ret)
		return ret;
	if (o->resume) {
		if (pr_state_read(&s)) {
			log_err("nothing to resume: no interrupted run of plan '%s' (%s)", p->name, s.path);
			return EXIT_USAGE;
		}
		o->seed = s.seed;
	} else if (!access(s.path, F_OK)) {
		log_warn("an interrupted run of plan '%s' exists; starting over (--resume continues it)",
			 p->name);
	}
	if (!o->have_seed && !o->resume)
		o->seed = clock_now_ns() ^ (unsigned long long)getpid();
	for (unsigned k = 0; k < sessions; k++)
		total += pr_steps(p, k);
	for (unsigned k = 0; k < s.session; k++)
		done += pr_steps(p, k);
	progress_start();
	for (unsigned k = o->resume ? s.session : 0; !ret && k < sessions; k++) {
		/* The state names the session about to run; its children append what they finish. */
		json_t *keep = o->resume && k == s.session && s.done ? json_incref(s.done) : json_array();

		json_decref(s.done);
		s = (struct pr_state){ .seed = o->seed, .session = k, .scale = p->scale, .done = keep };
		pr_state_path(o, p, &s);
		ret = pr_state_write(&s);
		progress_to_env(k + 1, sessions, done, total);
		if (!ret)
			ret = pr_spawn(o, p, argc, argv, k);
		done += pr_steps(p, k);
	}
	json_decref(s.done);
	if (ret) {
		log_hint("'clearpath plan run --resume %s' continues from the first unfinished benchmark", o->file);
		return ret;
	}
	unlink(s.path);
	return 0;
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
	if (!ret && o.child) {
		ret = pr_child(&o, p);
	} else if (!ret) {
		/* Everything that would stop the plan is found before the first benchmark runs. */
		ret = plan_check(p, log_err);
		if (ret == EXIT_RESOURCE && p->scale == 1)
			log_hint("'clearpath plan run --scale auto %s' runs it scaled to fit this machine", o.file);
		if (!ret)
			ret = harness_register(&o.h);
		if (!ret)
			ret = pr_parent(&o, p, argc + 1, argv - 1);
	}
	plan_free(p);
	return ret;
}
