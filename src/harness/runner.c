/* runner: `clearpath run`'s protocol: sessions as fresh processes, warmups and repeats, samples committed at once. */
#include "harness/harness.h"
#include "harness/fingerprint.h"
#include "harness/progress.h"
#include "store/url.h"
#include "store/store.h"
#include "util/log.h"
#include "util/size.h"
#include "workloads/workload.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define RUN_MAX_CLASSES 64

/* Running mean of one result class over this session's repeats, for the summary lines. */
struct run_class {
	char name[1200];
	char unit[32];
	double sum;
	unsigned n;
};

/* The sink that turns workload results into stored samples. */
struct run_sink {
	struct store *st;
	int64_t session_id;
	const struct harness_opts *o;
	int iteration;
	bool warmup;
	int error;		/* first store error, stops the session */
	struct run_class classes[RUN_MAX_CLASSES];
	size_t nclasses;
};

static struct run_class *run_class_find(struct run_sink *rs, const char *name, const char *unit)
{
	for (size_t i = 0; i < rs->nclasses; i++)
		if (!strcmp(rs->classes[i].name, name))
			return &rs->classes[i];
	if (rs->nclasses == RUN_MAX_CLASSES)
		return NULL;
	snprintf(rs->classes[rs->nclasses].name, sizeof(rs->classes[0].name), "%s", name);
	snprintf(rs->classes[rs->nclasses].unit, sizeof(rs->classes[0].unit), "%s", unit);
	return &rs->classes[rs->nclasses++];
}

/* "memset -k 1GB -f default -s 16GB", plus " :metric" for the workload's further metrics. */
static void run_class_name(const struct wl_invocation *inv, const char *params,
			   const struct wl_metric *m, bool headline, char *buf, size_t len)
{
	if (headline || !m->name[0])
		snprintf(buf, len, "%s %s", inv->wl->name, params);
	else
		snprintf(buf, len, "%s %s :%s", inv->wl->name, params, m->name);
}

static int run_store_metric(struct run_sink *rs, int64_t bench_id, const char *class_name,
			    const struct wl_metric *m)
{
	struct run_class *c;
	int64_t rc_id;
	int ret;

	ret = store_resultclass_get(rs->st, bench_id, class_name, m->unit, m->higher_is_better, &rc_id);
	if (!ret)
		ret = store_sample_add(rs->st, rs->session_id, rc_id, rs->iteration, rs->warmup, m->value);
	if (ret)
		return ret;
	c = run_class_find(rs, class_name, m->unit);
	if (c && !rs->warmup) {
		c->sum += m->value;
		c->n++;
	}
	return 0;
}

static void run_result(struct wl_sink *s, const struct wl_invocation *inv, const struct wl_result *r)
{
	struct run_sink *rs = s->priv;
	const struct harness_opts *o = rs->o;
	char suite[64], params[1024], name[1200];
	int64_t bench_id;
	int ret;

	if (rs->error)
		return;
	snprintf(suite, sizeof(suite), "%s/%s", inv->wl->collection, inv->wl->name);
	ret = wl_canonical(inv->wl, o->bench_argc - 2, o->bench_argv + 2, r->function, params,
			   sizeof(params));
	if (!ret)
		ret = store_benchmark_get(rs->st, suite, params, &bench_id);
	for (size_t i = 0; !ret && i < r->nmetrics; i++) {
		/* The first metric is the headline and names the class without a suffix. */
		run_class_name(inv, params, &r->metrics[i], i == 0, name, sizeof(name));
		ret = run_store_metric(rs, bench_id, name, &r->metrics[i]);
	}
	rs->error = ret;
}

static void run_nop(struct wl_sink *s, const struct wl_invocation *inv)
{
	(void)s;
	(void)inv;
}

static void run_nop_func(struct wl_sink *s, const struct wl_invocation *inv, const struct wl_func *f)
{
	(void)s;
	(void)inv;
	(void)f;
}

/* The benchmark row an error belongs to: the command line as given (-f may name several). */
static int run_error_benchmark(const struct harness_opts *o, struct store *st, int64_t *id)
{
	char suite[64], params[1024] = "";

	snprintf(suite, sizeof(suite), "%s/%s", o->bench_argv[0], o->bench_argv[1]);
	for (int i = 2; i < o->bench_argc; i++)
		snprintf(params + strlen(params), sizeof(params) - strlen(params), "%s%s",
			 i > 2 ? " " : "", o->bench_argv[i]);
	return store_benchmark_get(st, suite, params, id);
}

/* One invocation: parse afresh (options are per invocation), run, record an error row on failure. */
static int run_invocation(const struct harness_opts *o, struct run_sink *rs, struct wl_sink *sink)
{
	struct wl_parsed p;
	int64_t bench_id;
	int ret;

	log_clear_error();
	ret = wl_parse(o->bench_argc, o->bench_argv, &p);
	if (!ret) {
		ret = wl_run(&p, sink);
		wl_parsed_free(&p);
	}
	if (rs->error)
		return rs->error;
	if (!ret)
		return 0;
	if (!run_error_benchmark(o, rs->st, &bench_id))
		store_error_add(rs->st, rs->session_id, bench_id, rs->iteration, rs->warmup,
				log_last_error()[0] ? log_last_error() : "invocation failed");
	return ret;
}

static void run_summary(const struct run_sink *rs, const char *uuid, unsigned index, unsigned total)
{
	for (size_t i = 0; i < rs->nclasses; i++) {
		const struct run_class *c = &rs->classes[i];

		if (!c->n)
			continue;
		printf("session %.8s (%u/%u)  %-60s %20.2f %s  (mean of %u)\n", uuid, index, total, c->name,
		       c->sum / c->n, c->unit, c->n);
	}
	fflush(stdout);
}

static int run_open_ids(const struct harness_opts *o, struct store **st, int64_t *sut_id,
			int64_t *sw_id)
{
	char sut_name[256], sw_name[256];
	json_t *sut = fp_sut(sut_name, sizeof(sut_name));
	json_t *sw = fp_swprofile(sw_name, sizeof(sw_name));
	char *sut_text = NULL, *sw_text = NULL;
	int ret = EXIT_INTERNAL, err;

	*st = NULL;
	if (!sut || !sw)
		goto out;
	sut_text = json_dumps(sut, JSON_SORT_KEYS | JSON_COMPACT);
	sw_text = json_dumps(sw, JSON_SORT_KEYS | JSON_COMPACT);
	if (!sut_text || !sw_text)
		goto out;
	ret = store_url_open(o->store_url, st);
	if (ret)
		goto out;
	err = store_sut_get(*st, o->sut ?: sut_name, sut_text, sut_id);
	if (!err)
		err = store_swprofile_get(*st, o->swprofile ?: sw_name, sw_text, o->force, sw_id);
	if (err == -EEXIST)
		log_hint("name this kernel differently with --swprofile, or pass --force to add to '%s' anyway",
			 o->swprofile ?: sw_name);
	ret = store_exit_code(err);
out:
	free(sut_text);
	free(sw_text);
	json_decref(sut);
	json_decref(sw);
	if (ret) {
		store_close(*st);
		*st = NULL;
	}
	return ret;
}

static int run_begin_session(struct store *st, int64_t sut_id, int64_t sw_id, int64_t *session_id,
			     char *uuid)
{
	struct store_session s = { .sut_id = sut_id, .swprofile_id = sw_id };
	char boot[64];
	json_t *env = fp_environment();
	char *env_text = env ? json_dumps(env, JSON_SORT_KEYS | JSON_COMPACT) : NULL;
	int ret;

	fp_boot_id(boot, sizeof(boot));
	s.uuid[0] = '\0';
	s.boot_id = boot[0] ? boot : NULL;
	s.environment = env_text;
	ret = store_session_begin(st, &s, session_id);
	memcpy(uuid, s.uuid, sizeof(s.uuid));
	free(env_text);
	json_decref(env);
	return ret;
}

int harness_session(const struct harness_opts *o)
{
	struct run_sink rs = { .o = o };
	struct wl_sink sink = { run_nop, run_nop_func, run_nop_func, run_result, run_nop, &rs };
	struct progress prog;
	char uuid[STORE_UUID_LEN + 1] = "";
	int64_t sut_id, sw_id;
	unsigned failures = 0, steps = o->warmups + o->repeats;
	int ret;

	ret = run_open_ids(o, &rs.st, &sut_id, &sw_id);
	if (ret)
		return ret;
	ret = run_begin_session(rs.st, sut_id, sw_id, &rs.session_id, uuid);
	if (ret)
		goto out;
	progress_from_env(&prog, o->quiet);
	for (unsigned i = 0; i < steps; i++) {
		int r;

		rs.warmup = i < o->warmups;
		rs.iteration = (int)(rs.warmup ? i : i - o->warmups);
		r = run_invocation(o, &rs, &sink);
		progress_step(&prog);
		if (rs.error) {
			ret = rs.error;
			goto out;
		}
		failures = r ? failures + 1 : 0;
		if (o->max_failures && failures >= o->max_failures) {
			progress_done(&prog);
			log_err("%u invocations in a row failed; stopping this session (kept, marked incomplete)",
				failures);
			log_hint("the last error is above; 'clearpath list sessions' shows what was stored");
			store_close(rs.st);
			return r;
		}
	}
	progress_done(&prog);
	ret = store_session_end(rs.st, rs.session_id);
	if (!ret)
		run_summary(&rs, uuid, prog.session, prog.sessions);
out:
	store_close(rs.st);
	return store_exit_code(ret);
}

/* Everything that can be checked before the first session: the command line and the machine. */
static int run_preflight(const struct harness_opts *o)
{
	struct wl_parsed p;
	int ret;

	if (o->bench_argc < 2) {
		log_err("run needs a bench command line after '--', e.g. 'clearpath run -- mem memset -s 64MB'");
		return EXIT_USAGE;
	}
	ret = wl_parse(o->bench_argc, o->bench_argv, &p);
	if (ret)
		return ret;
	if (p.help) {
		wl_parsed_free(&p);
		return EXIT_USAGE;
	}
	/* The workload's own checks, so a run that cannot work fails before storing anything. */
	ret = wl_check_functions(&p);
	if (!ret)
		ret = p.wl->prepare(p.params);
	wl_parsed_free(&p);
	return ret;
}

static int run_child(const struct harness_opts *o, int self_argc, char **self_argv, unsigned s)
{
	char **argv = calloc((size_t)self_argc + 2, sizeof(*argv));
	pid_t pid;
	int status;

	if (!argv)
		return EXIT_INTERNAL;
	/* "clearpath run --session-child <the original options> -- bench..." */
	argv[0] = self_argv[0];
	argv[1] = "run";
	argv[2] = "--session-child";
	memcpy(argv + 3, self_argv + 2, (size_t)(self_argc - 2) * sizeof(*argv));
	progress_to_env(o, s);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		execv("/proc/self/exe", argv);
		log_err("cannot re-execute clearpath for a session: %s", strerror(errno));
		_exit(EXIT_INTERNAL);
	}
	free(argv);
	if (pid < 0) {
		log_err("cannot start a session process: %s", strerror(errno));
		return EXIT_RESOURCE;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return EXIT_INTERNAL;
	if (WIFSIGNALED(status)) {
		log_err("session %u died with signal %d; what it stored is kept, marked incomplete", s + 1,
			WTERMSIG(status));
		return EXIT_INTERNAL;
	}
	return WEXITSTATUS(status);
}

int harness_run(const struct harness_opts *o, int self_argc, char **self_argv)
{
	struct store *st;
	int64_t sut_id, sw_id;
	int ret = run_preflight(o);

	if (ret)
		return ret;
	/* Register SUT and swprofile once, so a fingerprint conflict stops the run before session 1. */
	ret = run_open_ids(o, &st, &sut_id, &sw_id);
	store_close(st);
	if (ret)
		return ret;
	progress_start();
	for (unsigned s = 0; s < o->sessions; s++) {
		ret = run_child(o, self_argc, self_argv, s);
		if (ret)
			return ret;
	}
	return 0;
}
