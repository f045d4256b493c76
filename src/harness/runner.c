/* runner: one session: units' warmups and repeats, samples committed as they exist, failures as error rows. */
#include "harness/session.h"
#include "harness/exec.h"
#include "harness/fingerprint.h"
#include "harness/progress.h"
#include "doctor/doctor.h"
#include "machine/machine.h"
#include "store/store.h"
#include "store/url.h"
#include "util/boot.h"
#include "util/log.h"
#include "util/size.h"
#include "util/text.h"
#include "util/units.h"
#include "workloads/workload.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* -f all times up to 12 metrics (mem clear --then with -c and --counters on real hardware) */
#define RUN_MAX_CLASSES 256
/* The longest result class name run_class_name() makes. */
#define RUN_NAME_LEN 1400

/* Running mean of one result class over this session's repeats, for the summary lines. */
struct run_class {
	char name[RUN_NAME_LEN];
	char unit[32];
	double sum;
	unsigned n;
	uint64_t buffer;	/* its benchmark's buffer (the size parameter), 0: none */
};

/* One value an invocation produced, kept until the invocation is over. */
struct run_value {
	size_t ident;		/* its benchmark: index into run_session.idents */
	char metric[64];	/* which value of the benchmark: "" the headline, "cycles", "then-read" */
	char unit[32];
	bool higher_is_better;
	double value;
};

/* A benchmark an invocation produced values for, and how its result classes are named. */
struct run_ident {
	struct bench_identity id;
	char label[160];	/* an exec's result class: the plan's name for it */
	bool bench;		/* its classes are its metrics (ident_class_name()), not named by the plan */
};

/* The state of one session: the sink's view of where results go. */
struct run_session {
	struct store *st;
	int64_t session_id;
	const struct harness_unit *unit;	/* the unit being run */
	int iteration;
	bool warmup;
	int error;		/* first store error (negative errno): stops the session */
	unsigned failed, invocations;	/* for the closing line */
	struct run_value *pending;	/* the invocation's values, written when it succeeded */
	size_t npending, cap;
	struct run_ident *idents;	/* the benchmarks of the pending values */
	size_t nidents, icap;
	struct bench_identity unit_ident;	/* the invocation's benchmark, for an error row */
	struct run_class classes[RUN_MAX_CLASSES];
	size_t nclasses;
};

static void run_account(struct run_session *rs, const char *name, const char *unit, double value,
			const struct bench_identity *id)
{
	const struct ident_param *size = id ? ident_find(id->params, id->nparams, "size") : NULL;
	struct run_class *c = NULL;

	if (rs->warmup)
		return;
	for (size_t i = 0; i < rs->nclasses && !c; i++)
		if (!strcmp(rs->classes[i].name, name))
			c = &rs->classes[i];
	if (!c && rs->nclasses < RUN_MAX_CLASSES) {
		c = &rs->classes[rs->nclasses++];
		snprintf(c->name, sizeof(c->name), "%s", name);
		snprintf(c->unit, sizeof(c->unit), "%s", unit);
		if (!size || size_parse(size->value, &c->buffer))
			c->buffer = 0;
	}
	if (c) {
		c->sum += value;
		c->n++;
	}
}

/* Make room for element @n of *@arr (@size bytes each, *@cap of them).  0 or -ENOMEM. */
static int run_grow(void **arr, size_t *cap, size_t n, size_t size)
{
	size_t ncap = *cap ? *cap * 2 : 8;
	void *p;

	if (n < *cap)
		return 0;
	p = realloc(*arr, ncap * size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

/* Make @id (named by @label) the benchmark of the values kept next.  0 or -ENOMEM. */
static int run_keep_ident(struct run_session *rs, const struct bench_identity *id, const char *label,
			  bool bench)
{
	struct run_ident *ri;

	if (run_grow((void **)&rs->idents, &rs->icap, rs->nidents, sizeof(*ri)))
		return -ENOMEM;
	ri = &rs->idents[rs->nidents++];
	ri->id = *id;
	snprintf(ri->label, sizeof(ri->label), "%s", label);
	ri->bench = bench;
	return 0;
}

/* Keep one value of the latest benchmark until the invocation is over.  0 or -ENOMEM. */
static int run_keep(struct run_session *rs, const char *metric, const char *unit,
		    bool higher_is_better, double value)
{
	struct run_value *v;

	if (run_grow((void **)&rs->pending, &rs->cap, rs->npending, sizeof(*v)))
		return -ENOMEM;
	v = &rs->pending[rs->npending++];
	v->ident = rs->nidents - 1;
	snprintf(v->metric, sizeof(v->metric), "%s", metric);
	snprintf(v->unit, sizeof(v->unit), "%s", unit);
	v->higher_is_better = higher_is_better;
	v->value = value;
	return 0;
}

/*
 * The result class of @v: a bench's is its benchmark and metric, named
 * "memset -k 1GB -f default -s 16GB" for the headline and with " :metric"
 * for further metrics (ident_class_name(); @display is the benchmark's as
 * stored: when another spelling of it came first, its classes keep that
 * one's name); an exec's is the plan's name for its value, a class named by
 * itself (metric NULL, unless the name happens to read as its benchmark's:
 * what an import of it would read, ident_class_metric()).  *@metric points
 * into @v or @name.
 */
static void run_class(const struct run_ident *ri, const struct run_value *v, const char *display, char *name,
		      size_t len, const char **metric)
{
	if (ri->bench) {
		ident_class_name(ri->id.suite, display, v->metric, name, len);
		*metric = v->metric;
	} else {
		snprintf(name, len, "%s", ri->label);
		*metric = ident_class_metric(ri->id.suite, display, name);
	}
}

/*
 * Write the invocation's values in one transaction, their class names into
 * @names (RUN_NAME_LEN bytes each).  0 or a store error.
 */
static int run_flush_once(struct run_session *rs, char *names)
{
	int64_t bench_id = -1, rc_id;
	char display[sizeof(rs->unit_ident.display)];
	int ret = store_batch_begin(rs->st);

	for (size_t i = 0; !ret && i < rs->npending; i++) {
		const struct run_value *v = &rs->pending[i];
		const struct run_ident *ri = &rs->idents[v->ident];
		char *name = names + i * RUN_NAME_LEN;
		const char *metric;

		if (i == 0 || v->ident != v[-1].ident)
			ret = store_benchmark_get(rs->st, &ri->id, &bench_id, display, sizeof(display));
		run_class(ri, v, display, name, RUN_NAME_LEN, &metric);
		if (!ret)
			ret = store_resultclass_get(rs->st, bench_id, name, metric, v->unit, v->higher_is_better,
						    &rc_id);
		if (!ret)
			ret = store_sample_add(rs->st, rs->session_id, rc_id, rs->iteration, rs->warmup,
					       v->value);
	}
	return store_batch_end(rs->st, ret);
}

/*
 * Write the invocation's values in one transaction: one commit per
 * invocation however many functions and metrics it has, and a crash loses
 * that invocation only.  The lock is taken after the measurement, never
 * during it.  A store whose connection was lost (a server) is connected to
 * again and the whole invocation written again, a bounded number of times:
 * the transaction that failed left nothing behind, and one whose commit went
 * through unseen is recognised (store_sample_add()), so nothing is stored
 * twice.  0 or a store error.
 */
static int run_flush(struct run_session *rs)
{
	char *names = malloc((rs->npending + 1) * RUN_NAME_LEN);
	int ret = names ? -ENOTCONN : -ENOMEM;

	for (int tries = 0; ret == -ENOTCONN && tries < 3; tries++) {
		ret = run_flush_once(rs, names);
		if (ret == -ENOTCONN && store_reconnect(rs->st))
			break;
	}
	if (ret == -ENOTCONN)
		log_err("the store stayed unreachable: invocation %d of this session was measured but not stored",
			rs->iteration);
	for (size_t i = 0; !ret && i < rs->npending; i++)
		run_account(rs, names + i * RUN_NAME_LEN, rs->pending[i].unit, rs->pending[i].value,
			    rs->pending[i].ident < rs->nidents ? &rs->idents[rs->pending[i].ident].id : NULL);
	free(names);
	rs->npending = 0;
	rs->nidents = 0;
	return ret;
}

/*
 * A bench result: its benchmark is the parsed command line with -f naming
 * the one function (wl_identity()); each metric is a result class of it
 * ("" the headline).
 */
static void run_result(struct wl_sink *s, const struct wl_invocation *inv, const struct wl_result *r)
{
	struct run_session *rs = s->priv;
	struct bench_identity id;
	int ret;

	if (rs->error)
		return;
	ret = wl_identity(inv->wl, inv->params, inv->given, r->function, &id);
	if (!ret)
		ret = run_keep_ident(rs, &id, inv->wl->name, true);
	for (size_t i = 0; !ret && i < r->nmetrics; i++) {
		const struct wl_metric *m = &r->metrics[i];

		ret = run_keep(rs, i == 0 ? "" : m->name, m->unit, m->higher_is_better, m->value);
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

/* An exec unit's suite: "exec/<name>", whitespace replaced, since suites never hold any. */
static void run_unit_suite(const struct harness_unit *u, char *suite, size_t len)
{
	snprintf(suite, len, "exec/%s", u->id);
	for (char *c = suite; *c; c++)
		if (*c == ' ' || *c == '\t')
			*c = '-';
}

/*
 * What word @i of a bench command line asks of the measurement beyond the
 * benchmark: DOCTOR_SESSION_COUNTERS (--counters), DOCTOR_SESSION_PROFILE
 * (--profile and its settings), 0 for a word of the benchmark.  *@skip is
 * how many words after it belong to it (a setting's separate value).
 */
static unsigned run_word_extra(int argc, char **argv, int i, int *skip)
{
	const char *w = argv[i];

	*skip = 0;
	if (!strcmp(w, "--counters"))
		return DOCTOR_SESSION_COUNTERS;
	if (!strcmp(w, "--profile") || !strncmp(w, "--profile-freq=", 15) || !strncmp(w, "--profile-event=", 16))
		return DOCTOR_SESSION_PROFILE;
	if (!strcmp(w, "--profile-freq") || !strcmp(w, "--profile-event")) {
		*skip = i + 1 < argc;
		return DOCTOR_SESSION_PROFILE;
	}
	return 0;
}

/* Which doctor checks beyond the usual a session of @units records: counting, profiling (DOCTOR_SESSION_*). */
static unsigned run_doctor_bits(const struct harness_unit *units, size_t n)
{
	unsigned bits = 0;

	for (size_t k = 0; k < n; k++) {
		const struct harness_unit *u = &units[k];

		bits |= u->profile ? DOCTOR_SESSION_PROFILE : 0;
		for (int i = 2, skip = 0; u->kind == HARNESS_BENCH && i < u->argc; i += 1 + skip)
			bits |= run_word_extra(u->argc, u->argv, i, &skip);
	}
	return bits;
}

/*
 * The benchmark of @u for an error row when its command line does not even
 * parse: the words as given less --counters and --profile (with its
 * settings), which identify no benchmark a result could have.
 */
static void run_unparsed_ident(const struct harness_unit *u, struct bench_identity *id)
{
	char suite[160], params[1024] = "";

	snprintf(suite, sizeof(suite), "%s/%s", u->argv[0], u->argc > 1 ? u->argv[1] : "");
	for (int i = 2, skip = 0; i < u->argc; i += 1 + skip) {
		if (run_word_extra(u->argc, u->argv, i, &skip))
			continue;
		snprintf(params + strlen(params), sizeof(params) - strlen(params), "%s%s",
			 params[0] ? " " : "", u->argv[i]);
	}
	ident_raw(id, suite, params);
}

/* What a plan says of @u's profile (profile: true, profile_freq, profile_event) over its command line's. */
static void run_unit_profile(const struct harness_unit *u, struct wl_parsed *p)
{
	p->profile = p->profile || u->profile;
	if (u->profile_hz)
		p->profile_cfg.hz = u->profile_hz;
	if (u->profile_event)
		profile_event_parse(u->profile_event, &p->profile_cfg.event);
}

/* Append to @rec how function @fn of @p samples: {benchmark, event, hz}, once. */
static void run_profile_add(json_t *rec, const struct wl_parsed *p, const char *fn)
{
	struct bench_identity id;
	char bench[sizeof(id.display) + 160];
	json_t *e;
	size_t i;

	if (wl_identity(p->wl, p->params, p->given, fn, &id))
		return;
	snprintf(bench, sizeof(bench), "%s %s %s", p->wl->collection, p->wl->name, id.display);
	e = json_pack("{s:s, s:s, s:I}", "benchmark", bench, "event", profile_event_name(p->profile_cfg.event), "hz",
		      (json_int_t)p->profile_cfg.hz);
	/* a unit repeated (several sessions' worth in one) is one entry */
	for (i = 0; e && i < json_array_size(rec) && !json_equal(json_array_get(rec, i), e); i++)
		;
	if (e && i == json_array_size(rec))
		json_array_append(rec, e);
	json_decref(e);
}

/*
 * How @u's results will be profiled, appended to @rec: an entry per function
 * it runs ("-f all" or "all+": each of the set this machine can run, a list:
 * each named), its
 * benchmark as show names its results ("mem mmap -p 4KB -f demand -s
 * 64MB"); nothing when @u does not profile or does not parse.
 */
static void run_profile_entry(const struct harness_unit *u, json_t *rec)
{
	struct wl_func funcs[WL_MAX_FUNCS];
	const struct wl_func *sel[WL_MAX_FUNCS];
	size_t n, nsel = 0;
	struct wl_parsed p;
	bool quiet = log_set_quiet(true);
	int ret = wl_parse(u->argc, u->argv, &p);

	log_set_quiet(quiet);
	if (ret)
		return;
	run_unit_profile(u, &p);
	n = p.wl->functions(funcs, WL_MAX_FUNCS);
	if (p.profile && !p.help && wl_select_set(p.functions, funcs, n, sel, &nsel)) {
		/* those that cannot run here yield no result to say it of */
		for (size_t i = 0; i < nsel; i++)
			if (!sel[i]->why_not)
				run_profile_add(rec, &p, sel[i]->name);
	}
	for (const char *f = p.functions; p.profile && !p.help && !nsel && *f;) {
		char name[128];
		size_t len = strcspn(f, ",");

		snprintf(name, sizeof(name), "%.*s", (int)len, f);
		run_profile_add(rec, &p, name);
		f += len + (f[len] == ',');
	}
	wl_parsed_free(&p);
}

static int run_bench_invocation(struct run_session *rs, struct wl_sink *sink)
{
	const struct harness_unit *u = rs->unit;
	struct wl_parsed p;
	int ret = wl_parse(u->argc, u->argv, &p);

	/* An error row's benchmark: the one the results would have had, -f as given. */
	if (ret || wl_identity(p.wl, p.params, p.given, p.functions, &rs->unit_ident))
		run_unparsed_ident(u, &rs->unit_ident);
	if (!ret)
		run_unit_profile(u, &p);
	if (!ret) {
		/* An invocation past its timeout ends the session process: SIGALRM's default action. */
		alarm(u->timeout_s);
		ret = wl_run(&p, sink);
		alarm(0);
		wl_parsed_free(&p);
	}
	return ret;
}

/* An exec unit: run the command, read the value with the unit's regex. */
static int run_exec_invocation(struct run_session *rs)
{
	const struct harness_unit *u = rs->unit;
	struct harness_exec_result x;
	double value;
	bool ok = false;
	int ret = harness_exec(u->exec.command, u->timeout_s, &x);

	if (ret)
		return ret;
	if (x.timed_out)
		log_err("'%s' timed out after %us; stderr: %s", u->id, u->timeout_s, x.err_tail);
	else if (x.status)
		log_err("'%s' exited with status %d; stderr: %s", u->id, x.status, x.err_tail);
	else if ((ret = harness_exec_extract(u->exec.regex, x.out ?: "", &value)) == -ERANGE)
		log_err("'%s': the value /%s/ reads is not a finite number; stderr: %s", u->id, u->exec.regex,
			x.err_tail);
	else if (ret == -EDOM)
		log_err("'%s': /%s/ matches the output, but its group 1 is no number; stderr: %s", u->id,
			u->exec.regex, x.err_tail);
	else if (ret)
		log_err("'%s': the output does not match /%s/; stderr: %s", u->id, u->exec.regex, x.err_tail);
	else
		ok = true;
	harness_exec_free(&x);
	if (!ok)
		return EXIT_RESOURCE;
	rs->error = run_keep_ident(rs, &rs->unit_ident, u->id, false);
	if (!rs->error)
		rs->error = run_keep(rs, "", u->exec.unit, u->exec.higher_is_better, value);
	return 0;
}

/* One invocation; on failure an error row says why (the last log_err message). */
static int run_invocation(struct run_session *rs, struct wl_sink *sink)
{
	int64_t bench_id;
	int ret;

	log_clear_error();
	rs->npending = 0;
	rs->nidents = 0;
	if (rs->unit->kind == HARNESS_EXEC) {
		char suite[160];

		run_unit_suite(rs->unit, suite, sizeof(suite));
		ident_raw(&rs->unit_ident, suite, rs->unit->exec.command);
	}
	ret = rs->unit->kind == HARNESS_EXEC ? run_exec_invocation(rs) : run_bench_invocation(rs, sink);
	if (rs->error)
		return rs->error;
	if (!ret)
		return rs->error = run_flush(rs);
	/* An invocation yields samples or an error, never both: what it measured before failing goes. */
	rs->npending = 0;
	rs->nidents = 0;
	if (!store_benchmark_get(rs->st, &rs->unit_ident, &bench_id, NULL, 0))
		store_error_add(rs->st, rs->session_id, bench_id, rs->iteration, rs->warmup,
				log_last_error()[0] ? log_last_error() : "invocation failed");
	return ret;
}

/*
 * After the means: how many of them came from buffers this machine's
 * last-level cache holds, which measure the cache more than memory.
 */
static void run_summary_cache(const struct run_session *rs, const char *uuid, unsigned index, unsigned total)
{
	char llc_s[32], most_s[32];
	uint64_t llc, most = 0;
	unsigned level, n = 0, of = 0;

	if (machine_llc(&llc, &level))
		return;
	for (size_t i = 0; i < rs->nclasses; i++) {
		of += rs->classes[i].n > 0;
		if (rs->classes[i].n && rs->classes[i].buffer && rs->classes[i].buffer <= llc) {
			n++;
			most = rs->classes[i].buffer > most ? rs->classes[i].buffer : most;
		}
	}
	if (n)
		printf("session %.8s (%u/%u)  cache-resident: %u of %u results from buffers of at most %s, within this"
		       " machine's %s L%u cache: they measure the cache more than memory\n", uuid, index, total, n, of,
		       size_format(most, most_s, sizeof(most_s)), size_format(llc, llc_s, sizeof(llc_s)), level);
}

/*
 * One line per result class, its mean: the names padded to the longest
 * (so plan.log's columns line up), the value in perf's units on a terminal
 * ("12.34 GB/sec", as show prints it there), as stored in a file.
 */
static void run_summary(const struct run_session *rs, const char *uuid, unsigned index, unsigned total)
{
	bool human = isatty(STDOUT_FILENO);
	int width = 60;

	for (size_t i = 0; i < rs->nclasses; i++)
		if (rs->classes[i].n && (int)strlen(rs->classes[i].name) > width)
			width = (int)strlen(rs->classes[i].name);
	for (size_t i = 0; i < rs->nclasses; i++) {
		const struct run_class *c = &rs->classes[i];
		char name[sizeof(c->name)], unit[sizeof(c->unit)];	/* sanitised copies: c's stay keys */
		char value[128];

		if (!c->n)
			continue;
		memcpy(name, c->name, sizeof(name));
		memcpy(unit, c->unit, sizeof(unit));
		text_one_line(unit);
		if (human)
			units_human(c->sum / c->n, unit, value, sizeof(value));
		else
			snprintf(value, sizeof(value), "%.2f %s", c->sum / c->n, unit);
		printf("session %.8s (%u/%u)  %-*s %24s  (mean of %u)\n", uuid, index, total, width,
		       text_one_line(name), value, c->n);
	}
	run_summary_cache(rs, uuid, index, total);
	fflush(stdout);
}

/*
 * Open the store and get the ids of this machine's SUT class and this
 * kernel's swprofile.  A session process passes @session: its parent has
 * checked the fingerprint and warned about --force once already.
 */
static int run_open_ids(const struct harness_opts *o, bool session, struct store **st, int64_t *sut_id,
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
	if (o->swprofile_extra)
		json_object_update(sw, o->swprofile_extra);
	sut_text = json_dumps(sut, JSON_SORT_KEYS | JSON_COMPACT);
	sw_text = json_dumps(sw, JSON_SORT_KEYS | JSON_COMPACT);
	if (!sut_text || !sw_text)
		goto out;
	ret = store_url_open(o->store_url, wl_identity_parse, st);
	if (ret)
		goto out;
	err = store_sut_get(*st, o->sut ?: sut_name, sut_text, sut_id);
	if (!err)
		err = store_swprofile_get(*st, o->swprofile ?: sw_name, *sut_id, sw_text,
					  o->force ? STORE_SW_FORCE | (session ? STORE_SW_QUIET : 0) : 0, sw_id);
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

int harness_register(const struct harness_opts *o)
{
	struct store *st;
	int64_t sut_id, sw_id;
	int ret = run_open_ids(o, false, &st, &sut_id, &sw_id);

	store_close(st);
	return ret;
}

/*
 * The session environment's "profile": how each profiled benchmark of
 * @units samples, [{benchmark, event, hz}], so that stored shares say what
 * they are shares of; NULL when none profiles (or out of memory).
 */
static json_t *run_profile_record(const struct harness_unit *units, size_t n)
{
	json_t *rec = json_array();

	for (size_t k = 0; rec && k < n; k++)
		if (units[k].kind == HARNESS_BENCH)
			run_profile_entry(&units[k], rec);
	if (rec && !json_array_size(rec)) {
		json_decref(rec);
		rec = NULL;
	}
	return rec;
}

static int run_begin_session(struct run_session *rs, int64_t sut_id, int64_t sw_id, json_t *extra,
			     const struct harness_unit *units, size_t n, char *uuid)
{
	struct store_session s = { .sut_id = sut_id, .swprofile_id = sw_id };
	json_t *env = fp_environment(run_doctor_bits(units, n)), *prof = run_profile_record(units, n);
	char boot[64], *env_text = NULL;
	int ret;

	if (env && prof)
		json_object_set(env, "profile", prof);
	json_decref(prof);

	if (env && extra)
		json_object_update(env, extra);
	env_text = env ? json_dumps(env, JSON_SORT_KEYS | JSON_COMPACT) : NULL;
	/* a test hook left set must not pass a simulated kernel off as this one: said here, recorded by doctor */
	if (boot_simulated())
		log_warn("the kernel release, cmdline and boot id are a simulated boot's (%s=%s), not this kernel's;"
			 " the session is marked so (doctor's boot.simulated)", BOOT_FAKE_ENV, boot_simulated());
	fp_boot_id(boot, sizeof(boot));
	s.boot_id = boot[0] ? boot : NULL;
	s.environment = env_text;
	ret = store_session_begin(rs->st, &s, &rs->session_id);
	memcpy(uuid, s.uuid, sizeof(s.uuid));
	free(env_text);
	json_decref(env);
	return ret;
}

/* All invocations of one unit; stops after max_failures in a row.  0 or an exit code. */
static int run_unit(const struct harness_opts *o, struct run_session *rs, struct wl_sink *sink,
		    struct progress *prog, unsigned *failures)
{
	const struct harness_unit *u = rs->unit;

	for (unsigned i = 0; i < u->warmups + u->repeats; i++) {
		int r;

		rs->warmup = i < u->warmups;
		rs->iteration = (int)(rs->warmup ? i : i - u->warmups);
		r = run_invocation(rs, sink);
		progress_step(prog);
		if (rs->error)
			return store_exit_code(rs->error);
		*failures = r ? *failures + 1 : 0;
		rs->invocations++;
		rs->failed += r != 0;
		if (o->max_failures && *failures >= o->max_failures) {
			progress_done(prog);
			log_err("%u invocations in a row failed; stopping this session (kept, marked incomplete)",
				*failures);
			log_hint("the errors are above; 'clearpath list sessions' shows what was stored");
			return r;
		}
	}
	return 0;
}

int harness_session(const struct harness_opts *o, const struct harness_unit *units, size_t n,
		    json_t *env_extra, const struct store_run_key *resume)
{
	struct run_session *rs = calloc(1, sizeof(*rs));
	struct wl_sink sink = { run_nop, run_nop_func, run_nop_func, run_result, run_nop, rs, NULL };
	struct progress prog;
	char uuid[STORE_UUID_LEN + 1] = "";
	int64_t sut_id, sw_id;
	unsigned failures = 0;
	int ret;

	if (!rs)
		return EXIT_INTERNAL;
	ret = run_open_ids(o, true, &rs->st, &sut_id, &sw_id);
	if (!ret)
		ret = store_exit_code(run_begin_session(rs, sut_id, sw_id, env_extra, units, n, uuid));
	progress_from_env(&prog, o->quiet);
	for (size_t i = 0; !prog.steps && i < n; i++)
		prog.steps += units[i].warmups + units[i].repeats;	/* a session started by hand */
	for (size_t i = 0; !ret && i < n; i++) {
		rs->unit = &units[i];
		ret = run_unit(o, rs, &sink, &prog, &failures);
		if (!ret && resume)
			ret = store_exit_code(store_resume_done(rs->st, resume, units[i].id));
	}
	progress_done(&prog);
	if (!ret)
		ret = store_exit_code(store_session_end(rs->st, rs->session_id));
	if (!ret)
		run_summary(rs, uuid, prog.session, prog.sessions);
	if (!ret && rs->failed)
		log_warn("%u of %u invocations failed in session %.8s; their errors are stored ('clearpath list sessions')",
			 rs->failed, rs->invocations, uuid);
	store_close(rs->st);
	free(rs->pending);
	free(rs->idents);
	free(rs);
	return ret;
}
