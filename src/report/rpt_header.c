/* rpt_header: the header model (machine, kernels, THP, hugepages, sessions, dates) from the store's listings, and its JSON and text forms. */
#define _GNU_SOURCE
#include "report/header.h"
#include "util/size.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The listings indexed by what a session names: uuid, SUT class, swprofile. */
struct hdr_index {
	json_t *sessions, *suts, *swprofiles;	/* name -> object */
};

/* @arr's objects keyed by their @key string, into a new object; NULL when out of memory. */
static json_t *hdr_by(const json_t *arr, const char *key)
{
	json_t *o = json_object(), *e;
	size_t i;

	json_array_foreach(arr, i, e) {
		const char *k = json_string_value(json_object_get(e, key));

		if (o && k && !json_object_get(o, k))
			json_object_set(o, k, e);
	}
	return o;
}

/* Distinct strings in the order first seen, joined with ", " at the end. */
struct hdr_set {
	json_t *vals;
};

static void hdr_set_add(struct hdr_set *s, const char *v)
{
	size_t i;
	json_t *e;

	if (!v || !*v)
		return;
	json_array_foreach(s->vals, i, e)
		if (!strcmp(json_string_value(e), v))
			return;
	json_array_append_new(s->vals, json_string(v));
}

/* The joined values (NULL when none) and the set freed. */
static char *hdr_set_take(struct hdr_set *s)
{
	char *out = NULL;
	size_t len = 0, i;
	FILE *f;
	json_t *e;

	if (json_array_size(s->vals) && (f = open_memstream(&out, &len))) {
		json_array_foreach(s->vals, i, e)
			fprintf(f, "%s%s", i ? ", " : "", json_string_value(e));
		fclose(f);
	}
	json_decref(s->vals);
	s->vals = NULL;
	return out;
}

/* A hugetlb pool: page size and pages reserved. */
struct hdr_pool {
	uint64_t size;
	long long pages;
};

static int hdr_pool_cmp(const void *a, const void *b)
{
	const struct hdr_pool *x = a, *y = b;

	return x->size < y->size ? -1 : x->size > y->size;
}

/*
 * "2MB: 36, 1GB: 0" from either form the store holds: a session's settings
 * ({"2048kB": {"total": 36, ...}}) or a swprofile fingerprint ({"2MB": 36}).
 */
static char *hdr_hugepages(const json_t *pools)
{
	struct hdr_pool p[16];
	size_t n = 0, len = 0;
	const char *k;
	json_t *v;
	char *out = NULL;
	FILE *f;

	json_object_foreach((json_t *)pools, k, v) {
		uint64_t size;
		char unit[4] = "";
		unsigned long long kb;

		if (n == sizeof(p) / sizeof(p[0]))
			break;
		if (sscanf(k, "%llukB%3s", &kb, unit) == 1 && strstr(k, "kB"))
			size = kb * 1024;
		else if (size_parse(k, &size))
			continue;
		v = json_is_object(v) ? json_object_get(v, "total") : v;
		if (!json_is_integer(v))
			continue;
		p[n++] = (struct hdr_pool){ size, json_integer_value(v) };
	}
	if (!n || !(f = open_memstream(&out, &len)))
		return NULL;
	qsort(p, n, sizeof(p[0]), hdr_pool_cmp);
	for (size_t i = 0; i < n; i++) {
		char sz[32];

		fprintf(f, "%s%s: %lld", i ? ", " : "", size_format(p[i].size, sz, sizeof(sz)), p[i].pages);
	}
	fclose(f);
	return out;
}

static long long hdr_int(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? json_integer_value(v) : -1;
}

static char *hdr_strdup(const char *s)
{
	return s && *s ? strdup(s) : NULL;
}

/* What one column's sessions say, gathered before it becomes a struct rpt_header_column. */
struct hdr_acc {
	struct hdr_set sut, swp, kernel, cmdline, thp_en, thp_def, huge;
	const json_t *machine;	/* the first session's SUT fingerprint */
	const char *first, *last;
	size_t sessions;
	size_t doctor_checked;	/* sessions that recorded the doctor's checks */
	json_t *warnings;	/* as rpt_header_column.doctor_warnings */
};

static void hdr_dates(const char *started, const char **first, const char **last)
{
	if (!started)
		return;
	if (!*first || strcmp(started, *first) < 0)
		*first = started;
	if (!*last || strcmp(started, *last) > 0)
		*last = started;
}

/* A setting as the session recorded it when it ran, else as its swprofile's fingerprint says. */
static const json_t *hdr_setting(const json_t *settings, const json_t *swfp, const char *key)
{
	const json_t *v = json_object_get(settings, key);

	return v && !json_is_null(v) ? v : json_object_get(swfp, key);
}

/* The entry of @warnings for the finding @w (one check can find different things: THP always, defrag always). */
static json_t *hdr_warning_entry(json_t *warnings, const json_t *w)
{
	const char *check = json_string_value(json_object_get(w, "check"));
	const char *detail = json_string_value(json_object_get(w, "detail"));
	const char *fix = json_string_value(json_object_get(w, "fix"));
	const char *status = json_string_value(json_object_get(w, "status"));
	json_t *e;
	size_t i;

	json_array_foreach(warnings, i, e)
		if (!strcmp(json_string_value(json_object_get(e, "check")), check) &&
		    !strcmp(json_string_value(json_object_get(e, "detail")), detail))
			return e;
	e = json_pack("{s:s, s:s, s:[], s:s, s:s, s:I}", "check", check, "status", status ? status : "WARN",
		      "values", "detail", detail, "fix", fix ? fix : "", "sessions", (json_int_t)0);
	return json_array_append_new(warnings, e) ? NULL : e;
}

/*
 * Count the doctor's record of one session (its environment's "doctor") into
 * @a: a session without one predates the recording and says nothing either way.
 */
static void hdr_acc_doctor(struct hdr_acc *a, const json_t *env)
{
	const json_t *warnings = json_object_get(json_object_get(env, "doctor"), "warnings"), *w;
	size_t i;

	if (!json_is_array(warnings))
		return;
	a->doctor_checked++;
	json_array_foreach(warnings, i, w) {
		json_t *e, *values;
		const char *value = json_string_value(json_object_get(w, "value"));
		struct hdr_set vs;

		/* a record another version wrote: take what is readable, skip the rest */
		if (!json_is_string(json_object_get(w, "check")) || !json_is_string(json_object_get(w, "detail")) ||
		    !(e = hdr_warning_entry(a->warnings, w)))
			continue;
		values = json_object_get(e, "values");
		vs.vals = values;
		hdr_set_add(&vs, value);
		json_object_set_new(e, "sessions", json_integer(json_integer_value(json_object_get(e, "sessions")) + 1));
	}
}

static void hdr_acc_session(struct hdr_acc *a, const json_t *se, const struct hdr_index *ix)
{
	const char *sut = json_string_value(json_object_get(se, "sut"));
	const char *swp = json_string_value(json_object_get(se, "swprofile"));
	const json_t *fp = sut ? json_object_get(json_object_get(ix->suts, sut), "fingerprint") : NULL;
	const json_t *swfp = swp ? json_object_get(json_object_get(ix->swprofiles, swp), "fingerprint") : NULL;
	const json_t *settings = json_object_get(json_object_get(se, "environment"), "settings");
	char *pools = hdr_hugepages(hdr_setting(settings, swfp, "hugepages"));

	hdr_set_add(&a->sut, sut);
	hdr_set_add(&a->swp, swp);
	if (!a->machine && json_is_object(fp) && json_object_size(fp))
		a->machine = fp;
	hdr_set_add(&a->kernel, json_string_value(json_object_get(swfp, "kernel_release")));
	hdr_set_add(&a->cmdline, json_string_value(hdr_setting(settings, swfp, "cmdline")));
	hdr_set_add(&a->thp_en, json_string_value(hdr_setting(settings, swfp, "thp_enabled")));
	hdr_set_add(&a->thp_def, json_string_value(hdr_setting(settings, swfp, "thp_defrag")));
	hdr_set_add(&a->huge, pools);
	free(pools);
	hdr_acc_doctor(a, json_object_get(se, "environment"));
	hdr_dates(json_string_value(json_object_get(se, "started")), &a->first, &a->last);
}

static int hdr_column(struct rpt_header_column *col, const struct cmp_set *s, const struct cmp_block *blk,
		      size_t c, const struct hdr_index *ix, json_t *block_seen)
{
	struct hdr_acc a = { 0 };
	json_t *seen = json_object();
	struct hdr_set *sets[] = { &a.sut, &a.swp, &a.kernel, &a.cmdline, &a.thp_en, &a.thp_def, &a.huge };

	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		sets[i]->vals = json_array();
	a.warnings = json_array();
	col->name = strdup(s->cols[c]);
	col->base = c == s->base;
	for (size_t r = 0; seen && r < blk->nrows; r++) {
		const struct cmp_cell *cell = &blk->rows[r].cells[c];

		col->samples += cell->n;
		for (size_t u = 0; u < cell->nuuids; u++) {
			if (json_object_get(seen, cell->uuids[u]))
				continue;
			json_object_set_new(seen, cell->uuids[u], json_true());
			json_object_set_new(block_seen, cell->uuids[u], json_true());
			a.sessions++;
			hdr_acc_session(&a, json_object_get(ix->sessions, cell->uuids[u]), ix);
		}
	}
	col->sessions = a.sessions;
	col->machine = (struct rpt_machine){
		.sut = hdr_set_take(&a.sut),
		.cpu = hdr_strdup(json_string_value(json_object_get(a.machine, "cpu"))),
		.arch = hdr_strdup(json_string_value(json_object_get(a.machine, "arch"))),
		.cores = hdr_int(a.machine, "cores"),
		.sockets = hdr_int(a.machine, "sockets"),
		.numa_nodes = hdr_int(a.machine, "numa_nodes"),
		.memory = hdr_int(a.machine, "memory"),
	};
	col->swprofile = hdr_set_take(&a.swp);
	col->kernel_release = hdr_set_take(&a.kernel);
	col->cmdline = hdr_set_take(&a.cmdline);
	col->thp_enabled = hdr_set_take(&a.thp_en);
	col->thp_defrag = hdr_set_take(&a.thp_def);
	col->hugepages = hdr_set_take(&a.huge);
	col->first = hdr_strdup(a.first);
	col->last = hdr_strdup(a.last);
	col->doctor_checked = a.doctor_checked;
	col->doctor_warnings = a.warnings;
	json_decref(seen);
	return col->name && seen && a.warnings ? 0 : -ENOMEM;
}

/* The machine as one phrase ("Neoverse-V1 (aarch64), 64 cores, ..."), or NULL when nothing is known. */
static char *hdr_machine_text(const struct rpt_machine *m)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	if (!m->cpu && m->cores < 0 && m->memory < 0)
		return NULL;
	if (!(f = open_memstream(&out, &len)))
		return NULL;
	fputs(m->cpu ? m->cpu : "unknown CPU", f);
	if (m->arch)
		fprintf(f, " (%s)", m->arch);
	if (m->cores >= 0)
		fprintf(f, ", %lld cores", m->cores);
	if (m->sockets >= 0)
		fprintf(f, ", %lld socket%s", m->sockets, m->sockets == 1 ? "" : "s");
	if (m->memory >= 0)
		fprintf(f, ", %.1f GiB memory", (double)m->memory / (1024.0 * 1024 * 1024));
	if (m->numa_nodes >= 0)
		fprintf(f, ", %lld NUMA node%s", m->numa_nodes, m->numa_nodes == 1 ? "" : "s");
	fclose(f);
	return out;
}

static bool hdr_same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Whether every column of @b names the same machine (unknown counts as a machine of its own). */
static bool hdr_same_machine(const struct rpt_header_block *b)
{
	bool same = true;
	char *first = b->ncols ? hdr_machine_text(&b->cols[0].machine) : NULL;

	for (size_t c = 1; same && c < b->ncols; c++) {
		char *m = hdr_machine_text(&b->cols[c].machine);

		same = hdr_same(first, m) && hdr_same(b->cols[0].machine.sut, b->cols[c].machine.sut);
		free(m);
	}
	free(first);
	return same;
}

static int hdr_block(struct rpt_header_block *hb, const struct cmp_set *s, const struct cmp_block *blk,
		     const struct hdr_index *ix)
{
	json_t *seen = json_object();
	const char *k;
	json_t *v;
	int ret = seen && (hb->name = strdup(blk->name)) ? 0 : -ENOMEM;

	hb->cols = calloc(s->ncols ? s->ncols : 1, sizeof(*hb->cols));
	if (!hb->cols)
		ret = -ENOMEM;
	for (size_t c = 0; !ret && c < s->ncols; c++) {
		const struct rpt_header_column *col = &hb->cols[c];

		hb->ncols++;
		ret = hdr_column(&hb->cols[c], s, blk, c, ix, seen);
		hb->samples += col->samples;
	}
	/* a session shared by columns (paired) counts once, and so do its dates */
	json_object_foreach(seen, k, v) {
		const char *started = json_string_value(json_object_get(json_object_get(ix->sessions, k), "started"));
		const char *first = hb->first, *last = hb->last;

		hdr_dates(started, &first, &last);
		if (first != hb->first) {
			free(hb->first);
			hb->first = strdup(first);
		}
		if (last != hb->last) {
			free(hb->last);
			hb->last = strdup(last);
		}
	}
	hb->sessions = json_object_size(seen);
	hb->same_machine = hdr_same_machine(hb);
	json_decref(seen);
	return ret;
}

struct rpt_header *rpt_header_build(const struct cmp_set *s, const json_t *sessions, const json_t *suts,
				    const json_t *swprofiles)
{
	struct rpt_header *h = calloc(1, sizeof(*h));
	struct hdr_index ix = { hdr_by(sessions, "uuid"), hdr_by(suts, "name"), hdr_by(swprofiles, "name") };
	int ret = h && ix.sessions && ix.suts && ix.swprofiles ? 0 : -ENOMEM;

	if (!ret && !(h->blocks = calloc(s->nblocks ? s->nblocks : 1, sizeof(*h->blocks))))
		ret = -ENOMEM;
	for (size_t b = 0; !ret && b < s->nblocks; b++) {
		h->nblocks++;
		ret = hdr_block(&h->blocks[b], s, &s->blocks[b], &ix);
	}
	json_decref(ix.sessions);
	json_decref(ix.suts);
	json_decref(ix.swprofiles);
	if (ret) {
		rpt_header_free(h);
		return NULL;
	}
	return h;
}

static void hdr_column_free(struct rpt_header_column *c)
{
	char *strs[] = { c->name, c->machine.sut, c->machine.cpu, c->machine.arch, c->swprofile,
			 c->kernel_release, c->cmdline, c->thp_enabled, c->thp_defrag, c->hugepages,
			 c->first, c->last };

	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		free(strs[i]);
	json_decref(c->doctor_warnings);
}

void rpt_header_free(struct rpt_header *h)
{
	if (!h)
		return;
	for (size_t b = 0; b < h->nblocks; b++) {
		struct rpt_header_block *hb = &h->blocks[b];

		for (size_t c = 0; c < hb->ncols; c++)
			hdr_column_free(&hb->cols[c]);
		free(hb->cols);
		free(hb->name);
		free(hb->first);
		free(hb->last);
	}
	free(h->blocks);
	free(h);
}

static json_t *hdr_jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *hdr_jint(long long v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

static json_t *hdr_column_json(const struct rpt_header_column *c)
{
	const struct rpt_machine *m = &c->machine;

	return json_pack("{s:o, s:b, s:{s:o, s:o, s:o, s:o, s:o, s:o, s:o}, s:o, s:o, s:o, s:o, s:o, s:o,"
			 " s:{s:I, s:O}, s:I, s:I, s:o, s:o}",
			 "column", hdr_jstr(c->name), "base", c->base,
			 "machine", "sut", hdr_jstr(m->sut), "cpu", hdr_jstr(m->cpu), "arch", hdr_jstr(m->arch),
			 "cores", hdr_jint(m->cores), "sockets", hdr_jint(m->sockets),
			 "numa_nodes", hdr_jint(m->numa_nodes), "memory_bytes", hdr_jint(m->memory),
			 "swprofile", hdr_jstr(c->swprofile), "kernel_release", hdr_jstr(c->kernel_release),
			 "cmdline", hdr_jstr(c->cmdline), "thp_enabled", hdr_jstr(c->thp_enabled),
			 "thp_defrag", hdr_jstr(c->thp_defrag), "hugepages", hdr_jstr(c->hugepages),
			 "doctor", "sessions_checked", (json_int_t)c->doctor_checked, "warnings", c->doctor_warnings,
			 "sessions", (json_int_t)c->sessions, "samples", (json_int_t)c->samples,
			 "first", hdr_jstr(c->first), "last", hdr_jstr(c->last));
}

json_t *rpt_header_json(const struct rpt_header_block *b)
{
	json_t *cols = json_array();

	for (size_t c = 0; cols && c < b->ncols; c++)
		json_array_append_new(cols, hdr_column_json(&b->cols[c]));
	return json_pack("{s:I, s:I, s:o, s:o, s:o}", "sessions", (json_int_t)b->sessions, "samples",
			 (json_int_t)b->samples, "first", hdr_jstr(b->first), "last", hdr_jstr(b->last),
			 "columns", cols);
}

/* "2026-08-22 08:00 UTC" from the stored "2026-08-22T08:00:00.000000Z"; other forms as they are. */
static void hdr_date(const char *iso, char *buf, size_t len)
{
	if (iso && strlen(iso) >= 16 && iso[10] == 'T')
		snprintf(buf, len, "%.10s %.5s UTC", iso, iso + 11);
	else
		snprintf(buf, len, "%s", iso ? iso : "unknown");
}

/* "N sessions, M samples, from A to B" (or "on A" when they agree). */
static void hdr_span(size_t sessions, size_t samples, const char *first, const char *last, char *buf, size_t len)
{
	char a[64], b[64];
	int used = snprintf(buf, len, "%zu session%s, %zu sample%s", sessions, sessions == 1 ? "" : "s", samples,
			    samples == 1 ? "" : "s");

	if (!first || used < 0 || (size_t)used >= len)
		return;
	hdr_date(first, a, sizeof(a));
	hdr_date(last, b, sizeof(b));
	if (!strcmp(a, b))
		snprintf(buf + used, len - (size_t)used, ", on %s", a);
	else
		snprintf(buf + used, len - (size_t)used, ", from %s to %s", a, b);
}

/* One printf-formatted line to @emit; -ENOMEM when it cannot be built. */
__attribute__((format(printf, 3, 4)))
static int hdr_emitf(int (*emit)(void *ctx, const char *line), void *ctx, const char *fmt, ...)
{
	char *line;
	va_list ap;
	int n, ret;

	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	ret = emit(ctx, line);
	free(line);
	return ret;
}

static const char *hdr_or(const char *s, const char *dflt)
{
	return s ? s : dflt;
}

/* A warning's values: the first HDR_VALUES distinct ones, then how many more ("5.44 on 2 CPUs, ... (+3 more)"). */
#define HDR_VALUES 3

static void hdr_values(const json_t *values, char *buf, size_t len)
{
	size_t i, used = 0;
	json_t *v;

	buf[0] = '\0';
	json_array_foreach(values, i, v) {
		int n = i < HDR_VALUES ? snprintf(buf + used, len - used, "%s%s", i ? ", " : "", json_string_value(v))
				       : snprintf(buf + used, len - used, " (+%zu more)", json_array_size(values) - i);

		if (n < 0 || (size_t)n >= len - used || i >= HDR_VALUES)
			return;
		used += (size_t)n;
	}
}

/*
 * The doctor's warnings recorded with the column's sessions, one line each
 * ("  Doctor WARN thp in 2 of 4 sessions: enabled=always ...: what it means;
 * fix: ..."); or that there were none; or that the sessions predate the recording.
 */
static int hdr_doctor_lines(const struct rpt_header_column *c, int (*emit)(void *ctx, const char *line), void *ctx)
{
	size_t i, unchecked = c->sessions - (c->doctor_checked < c->sessions ? c->doctor_checked : c->sessions);
	json_t *w;
	int ret = 0;

	if (!c->doctor_checked)
		return emit(ctx, "  Doctor warnings not recorded (the sessions predate the recording,"
				" or came without their environment).");
	if (!json_array_size(c->doctor_warnings))
		return hdr_emitf(emit, ctx, "  No doctor warnings recorded (%zu session%s checked%s).",
				 c->doctor_checked, c->doctor_checked == 1 ? "" : "s",
				 unchecked ? "; the others predate the recording" : "");
	json_array_foreach(c->doctor_warnings, i, w) {
		const char *fix = json_string_value(json_object_get(w, "fix"));
		char values[512];

		hdr_values(json_object_get(w, "values"), values, sizeof(values));
		ret = hdr_emitf(emit, ctx, "  Doctor %s %s in %lld of %zu session%s: %s%s%s%s%s",
				json_string_value(json_object_get(w, "status")),
				json_string_value(json_object_get(w, "check")),
				(long long)json_integer_value(json_object_get(w, "sessions")), c->doctor_checked,
				c->doctor_checked == 1 ? "" : "s", values, values[0] ? ": " : "",
				json_string_value(json_object_get(w, "detail")), fix && fix[0] ? "; fix: " : ".",
				fix && fix[0] ? fix : "");
		if (ret)
			return ret;
	}
	if (unchecked)
		ret = hdr_emitf(emit, ctx, "  Doctor warnings not recorded for %zu of %zu sessions (they predate the"
				" recording, or came without their environment).", unchecked, c->sessions);
	return ret;
}

/* "THP enabled X, defrag Y; hugepages Z." for @c, or NULL when none of them is known (or out of memory). */
static char *hdr_env_text(const struct rpt_header_column *c)
{
	char *line = NULL;

	if ((c->thp_enabled || c->thp_defrag || c->hugepages) &&
	    asprintf(&line, "THP enabled %s, defrag %s; hugepages %s.", hdr_or(c->thp_enabled, "not recorded"),
		     hdr_or(c->thp_defrag, "not recorded"), hdr_or(c->hugepages, "not recorded")) < 0)
		line = NULL;
	return line;
}

/*
 * What every column of a block shares, printed once above the columns: nine
 * columns on one kernel would otherwise repeat the same long cmdline nine
 * times.  A value is shared when two or more columns all know it and agree;
 * an unknown value stays with each column.  The strings are borrowed from
 * the first column, except @env, which is owned.
 */
struct hdr_shared {
	const char *kernel, *cmdline;
	char *env;
};

static const char *hdr_kernel_of(const struct rpt_header_column *c)
{
	return c->kernel_release;
}

static const char *hdr_cmdline_of(const struct rpt_header_column *c)
{
	return c->cmdline;
}

/* The value @get reads from every column of @b when they all know it and agree, else NULL. */
static const char *hdr_common(const struct rpt_header_block *b, const char *(*get)(const struct rpt_header_column *))
{
	const char *first = b->ncols >= 2 ? get(&b->cols[0]) : NULL;

	for (size_t c = 1; first && c < b->ncols; c++)
		if (!hdr_same(first, get(&b->cols[c])))
			return NULL;
	return first;
}

static void hdr_shared_find(const struct rpt_header_block *b, struct hdr_shared *sh)
{
	*sh = (struct hdr_shared){ hdr_common(b, hdr_kernel_of), hdr_common(b, hdr_cmdline_of), NULL };
	if (b->ncols < 2)
		return;
	sh->env = hdr_env_text(&b->cols[0]);
	for (size_t c = 1; sh->env && c < b->ncols; c++) {
		char *env = hdr_env_text(&b->cols[c]);
		bool same = hdr_same(sh->env, env);

		free(env);
		if (!same) {
			free(sh->env);
			sh->env = NULL;
		}
	}
}

/* The shared rows: "All columns: kernel K." (or "All columns:"), then the cmdline and THP lines. */
static int hdr_shared_lines(const struct hdr_shared *sh, int (*emit)(void *ctx, const char *line), void *ctx)
{
	int ret = 0;

	if (!sh->kernel && !sh->cmdline && !sh->env)
		return 0;
	if (sh->kernel)
		ret = hdr_emitf(emit, ctx, "All columns: kernel %s.", sh->kernel);
	else
		ret = emit(ctx, "All columns:");
	if (!ret && sh->cmdline)
		ret = hdr_emitf(emit, ctx, "  cmdline: %s", sh->cmdline);
	if (!ret && sh->env)
		ret = hdr_emitf(emit, ctx, "  %s", sh->env);
	return ret;
}

static int hdr_column_lines(const struct rpt_header_block *b, const struct rpt_header_column *c,
			    const struct hdr_shared *sh, int (*emit)(void *ctx, const char *line), void *ctx)
{
	char span[256], *machine = NULL, *env;
	int ret;

	hdr_span(c->sessions, c->samples, c->first, c->last, span, sizeof(span));
	if (sh->kernel)
		ret = hdr_emitf(emit, ctx, "%s%s: %s.", c->name, c->base ? " (base)" : "", span);
	else
		ret = hdr_emitf(emit, ctx, "%s%s: kernel %s; %s.", c->name, c->base ? " (base)" : "",
				hdr_or(c->kernel_release, "not recorded"), span);
	if (!ret && !b->same_machine) {
		machine = hdr_machine_text(&c->machine);
		ret = hdr_emitf(emit, ctx, "  Machine: %s%s%s.", hdr_or(c->machine.sut, ""),
				c->machine.sut && machine ? ": " : "", hdr_or(machine, c->machine.sut ? "" : "not recorded"));
		free(machine);
	}
	if (!ret && c->cmdline && !sh->cmdline)
		ret = hdr_emitf(emit, ctx, "  cmdline: %s", c->cmdline);
	if (!ret && !sh->env && (c->thp_enabled || c->thp_defrag || c->hugepages)) {
		env = hdr_env_text(c);
		ret = env ? hdr_emitf(emit, ctx, "  %s", env) : -ENOMEM;
		free(env);
	}
	return ret ? ret : hdr_doctor_lines(c, emit, ctx);
}

int rpt_header_lines(const struct rpt_header_block *b, int (*emit)(void *ctx, const char *line), void *ctx)
{
	struct hdr_shared sh;
	char span[256];
	int ret = 0;

	if (b->same_machine) {
		char *machine = b->ncols ? hdr_machine_text(&b->cols[0].machine) : NULL;

		ret = hdr_emitf(emit, ctx, "Machine: %s.", hdr_or(machine, "not recorded"));
		free(machine);
	}
	hdr_span(b->sessions, b->samples, b->first, b->last, span, sizeof(span));
	if (!ret)
		ret = hdr_emitf(emit, ctx, "Measured: %s.", span);
	hdr_shared_find(b, &sh);
	if (!ret)
		ret = hdr_shared_lines(&sh, emit, ctx);
	for (size_t c = 0; !ret && c < b->ncols; c++)
		ret = hdr_column_lines(b, &b->cols[c], &sh, emit, ctx);
	free(sh.env);
	return ret;
}
