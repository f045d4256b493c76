/* run: a run's sessions, each a fresh process, in seeded shuffled orders, resumable from the store. */
#include "harness/session.h"
#include "harness/fingerprint.h"
#include "harness/progress.h"
#include "store/store.h"
#include "store/url.h"
#include "util/boot.h"
#include "util/clock.h"
#include "util/log.h"
#include "workloads/workload.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Tells a session process which session it is and the run's seed: "<index> <seed>". */
#define RUN_SESSION_ENV "CLEARPATH_SESSION"

/* splitmix64 (Steele, Lea, Flood 2014): tiny, seedable with any value, good enough to order benchmarks. */
static uint64_t run_splitmix(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, bound): rejection instead of a bare modulo, so no order is favoured. */
static uint64_t run_below(uint64_t *state, uint64_t bound)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % bound, r;

	do
		r = run_splitmix(state);
	while (r >= limit);
	return r % bound;
}

void harness_shuffle(size_t *order, size_t n, uint64_t seed)
{
	uint64_t state = seed;

	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)run_below(&state, i), t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
}

/* How many sessions the run has: the most any unit asks for. */
static unsigned run_sessions(const struct harness_run *r)
{
	unsigned n = 1;

	for (size_t i = 0; i < r->nunits; i++)
		if (r->units[i].sessions > n)
			n = r->units[i].sessions;
	return n;
}

/* Invocations of session @session (0-based): the progress line's steps. */
static unsigned run_steps(const struct harness_run *r, unsigned session)
{
	unsigned steps = 0;

	for (size_t i = 0; i < r->nunits; i++)
		if (r->units[i].sessions > session)
			steps += r->units[i].warmups + r->units[i].repeats;
	return steps;
}

int harness_run_key(const struct harness_run *r, struct harness_run_key *buf, struct store_run_key *k)
{
	/* the names the sessions are stored under: what run_open_ids() registers */
	json_t *sut = r->opts.sut ? NULL : fp_sut(buf->sut, sizeof(buf->sut));

	json_decref(sut);
	if (!r->opts.swprofile && boot_release(buf->swprofile, sizeof(buf->swprofile)))
		snprintf(buf->swprofile, sizeof(buf->swprofile), "unknown");
	if (gethostname(buf->host, sizeof(buf->host) - 1) || !buf->host[0])
		snprintf(buf->host, sizeof(buf->host), "localhost");
	buf->host[sizeof(buf->host) - 1] = '\0';
	*k = (struct store_run_key){ r->name, r->opts.sut ?: buf->sut, r->opts.swprofile ?: buf->swprofile, buf->host };
	return store_run_key_check(k) ? EXIT_USAGE : 0;
}

/* The state of a named run; -ENOENT when there is none, a clear message when it does not fit the run. */
static int run_state_get(const struct harness_run *r, const struct store_run_key *k, struct store *st,
			 struct store_resume *s, json_t **done)
{
	int ret = store_resume_get(st, k, s, done);

	if (ret)
		return ret;
	if (s->session >= run_sessions(r)) {
		log_err("the resume state of '%s' is for session %u, but it has %u session(s): it is not from this run",
			r->name, s->session + 1, run_sessions(r));
		json_decref(*done);
		*done = NULL;
		return -EINVAL;
	}
	return 0;
}

/*
 * Where a named run starts: a fresh one at session 0 (noting an interrupted
 * run it replaces), a resumed one where its state says, with its seed.
 */
static int run_start(struct harness_run *r, const struct store_run_key *k, unsigned *first)
{
	struct store_resume s;
	struct store *st;
	json_t *done = NULL;
	int ret, err;

	/* Resuming needs a store with a run in it: opening it read-only creates none. */
	*first = 0;
	ret = r->resume ? store_url_open_existing(r->opts.store_url, wl_identity_parse, &st)
			: store_url_open(r->opts.store_url, wl_identity_parse, &st);
	if (ret)
		return ret;
	err = run_state_get(r, k, st, &s, &done);
	json_decref(done);
	store_close(st);
	if (r->resume && err == -ENOENT) {
		log_err("nothing to resume: no interrupted run of '%s' on %s (SUT %s, swprofile %s) in the store",
			r->name, k->host, k->sut, k->swprofile);
		log_hint("--sut and --swprofile name the run as when it started; without them, this machine's");
		return EXIT_USAGE;
	}
	if (r->resume && err) {
		log_hint("run it without --resume to start over");
		return err == -EINVAL ? EXIT_USAGE : store_exit_code(err);
	}
	if (r->resume && s.scale != (r->scale ? r->scale : 1)) {
		/* other sizes are other benchmarks: the session would mix two experiments */
		log_err("the interrupted run of '%s' ran its sizes divided by %u, not by %u", r->name, s.scale,
			r->scale ? r->scale : 1);
		log_hint("resume it with --scale %u", s.scale);
		return EXIT_USAGE;
	}
	if (r->resume) {
		r->seed = s.seed;
		*first = s.session;
	} else if (err != -ENOENT) {
		log_warn("an interrupted run of '%s' exists; starting over (--resume continues it)", r->name);
	}
	return 0;
}

/* Record that session @k of named run @key is about to run; resuming keeps what it already did. */
static int run_state_session(const struct harness_run *r, const struct store_run_key *key, unsigned k, bool keep)
{
	struct store_resume s = { .seed = r->seed, .session = k, .scale = r->scale ? r->scale : 1 };
	struct store *st;
	int ret;

	if (keep)
		return 0;
	ret = store_url_open(r->opts.store_url, wl_identity_parse, &st);
	if (!ret)
		ret = store_exit_code(store_resume_set(st, key, &s));
	store_close(st);
	return ret;
}

static int run_state_clear(const struct harness_run *r, const struct store_run_key *key)
{
	struct store *st;
	int ret = store_url_open(r->opts.store_url, wl_identity_parse, &st);

	if (!ret)
		ret = store_exit_code(store_resume_clear(st, key));
	store_close(st);
	return ret;
}

static int run_spawn(const struct harness_run *r, unsigned k)
{
	char env[64];

	snprintf(env, sizeof(env), "%u %" PRIu64, k, r->seed);
	setenv(RUN_SESSION_ENV, env, 1);
	return harness_spawn(r->child_argv, k + 1);
}

int harness_run(struct harness_run *r)
{
	unsigned sessions = run_sessions(r), first = 0, done = 0, total = 0;
	struct harness_run_key buf;
	struct store_run_key key;
	int ret = 0;

	harness_stop_catch();
	/* Where to start first: a --resume with nothing to resume must not create a store. */
	if (r->name)
		ret = harness_run_key(r, &buf, &key);
	if (!ret && r->name)
		ret = run_start(r, &key, &first);
	if (!ret)
		ret = harness_register(&r->opts);
	if (ret)
		return ret;
	if (!r->have_seed && !r->resume)
		r->seed = clock_now_ns() ^ (uint64_t)getpid();
	for (unsigned k = 0; k < sessions; k++)
		total += run_steps(r, k);
	for (unsigned k = 0; k < first; k++)
		done += run_steps(r, k);
	progress_start();
	for (unsigned k = first; !ret && !harness_stop_signal() && k < sessions; k++) {
		if (r->name)
			ret = run_state_session(r, &key, k, r->resume && k == first);
		progress_to_env(r->label_first + k + 1, r->label_of ? r->label_of : r->label_first + sessions, done,
				total);
		if (!ret)
			ret = run_spawn(r, k);
		done += run_steps(r, k);
	}
	if (!ret && harness_stop_signal())
		ret = EXIT_INTERNAL;
	if (ret && r->resume_command)
		log_hint("to continue from the first unfinished benchmark: %s", r->resume_command);
	if (!ret && r->name)
		ret = run_state_clear(r, &key);
	harness_stop_die();
	return ret;
}

/* Which session this process is, and the run's seed; a session started by hand is the first. */
static void run_session_env(const struct harness_run *r, unsigned *k, uint64_t *seed)
{
	const char *env = getenv(RUN_SESSION_ENV);

	*k = 0;
	*seed = r->seed;
	if (!env || sscanf(env, "%u %" SCNu64, k, seed) != 2)
		*k = 0, *seed = r->seed;
	/* the external commands of this session must not take it for theirs */
	unsetenv(RUN_SESSION_ENV);
}

/* The units done already in session @k of named run @key (resuming it), else an empty array. */
static json_t *run_session_done(const struct harness_run *r, const struct store_run_key *key, unsigned k)
{
	struct store_resume s;
	struct store *st;
	json_t *done = NULL;

	if (key && !store_url_open(r->opts.store_url, wl_identity_parse, &st)) {
		if (store_resume_get(st, key, &s, &done) || s.session != k) {
			json_decref(done);
			done = NULL;
		}
		store_close(st);
	}
	return done ?: json_array();
}

static bool run_is_done(json_t *done, const char *id)
{
	size_t i;
	json_t *v;

	json_array_foreach(done, i, v)
		if (!strcmp(json_string_value(v) ?: "", id))
			return true;
	return false;
}

/* Session @k's units in their shuffled order (all ids into @order), less those @done. */
static size_t run_session_units(const struct harness_run *r, unsigned k, uint64_t seed, json_t *done,
				struct harness_unit *units, json_t *order)
{
	size_t *idx = calloc(r->nunits ? r->nunits : 1, sizeof(*idx)), n = 0, m = 0;

	if (!idx)
		return 0;
	for (size_t i = 0; i < r->nunits; i++)
		if (r->units[i].sessions > k)
			idx[n++] = i;
	/* One seed per session, so each order can be replayed from the recorded seed. */
	harness_shuffle(idx, n, seed + k);
	for (size_t i = 0; i < n; i++) {
		const struct harness_unit *u = &r->units[idx[i]];

		json_array_append_new(order, json_string(u->id));
		if (!run_is_done(done, u->id))
			units[m++] = *u;
	}
	free(idx);
	return m;
}

int harness_run_session(const struct harness_run *r)
{
	struct harness_run_key buf;
	struct store_run_key key;
	struct harness_unit *units = calloc(r->nunits ? r->nunits : 1, sizeof(*units));
	json_t *order = json_array(), *extra = r->env ? json_deep_copy(r->env) : json_object(), *done = NULL;
	uint64_t seed;
	unsigned k;
	size_t n;
	int ret = EXIT_INTERNAL;

	harness_session_signals();
	run_session_env(r, &k, &seed);
	if (r->name && harness_run_key(r, &buf, &key)) {
		ret = EXIT_USAGE;
		goto out;
	}
	done = run_session_done(r, r->name ? &key : NULL, k);
	if (!units || !order || !extra || !done)
		goto out;
	n = run_session_units(r, k, seed, done, units, order);
	if (r->name) {
		json_t *keys = json_pack("{s:I, s:I, s:I, s:O}", "plan_seed", (json_int_t)seed, "plan_session",
					 (json_int_t)k + 1, "plan_sessions", (json_int_t)run_sessions(r),
					 "plan_order", order);

		if (!keys || json_object_update(extra, keys)) {
			json_decref(keys);
			goto out;
		}
		json_decref(keys);
	}
	ret = harness_session(&r->opts, units, n, json_object_size(extra) ? extra : NULL, r->name ? &key : NULL);
out:
	json_decref(done);
	json_decref(extra);
	json_decref(order);
	free(units);
	return ret;
}
