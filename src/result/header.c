/* header: the header model (machine, kernels, THP, hugepages, sessions, dates) of a comparison, from the store's listings. */
#define _GNU_SOURCE
#include "result/header.h"
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

/* What one column's sessions say, gathered before it becomes a struct result_header_column. */
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

static int hdr_column(struct result_header_column *col, const struct cmp_set *s, const struct cmp_block *blk,
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
	col->machine = (struct result_machine){
		.sut = hdr_set_take(&a.sut),
		.cpu = hdr_strdup(json_string_value(json_object_get(a.machine, "cpu"))),
		.arch = hdr_strdup(json_string_value(json_object_get(a.machine, "arch"))),
		.cores = hdr_int(a.machine, "cores"),
		.sockets = hdr_int(a.machine, "sockets"),
		.numa_nodes = hdr_int(a.machine, "numa_nodes"),
		.memory = hdr_int(a.machine, "memory"),
		.llc = hdr_int(a.machine, "llc_bytes"),
		.llc_level = hdr_int(a.machine, "llc_level"),
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
char *result_machine_text(const struct result_machine *m)
{
	char *out = NULL, llc[32], mem[32];
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
	/* in the GB sizes and doctor's MemAvailable are in (1024-based, perf's), never a second name for it */
	if (m->memory >= 0)
		fprintf(f, ", %s memory", size_human((uint64_t)m->memory, mem, sizeof(mem)));
	if (m->numa_nodes >= 0)
		fprintf(f, ", %lld NUMA node%s", m->numa_nodes, m->numa_nodes == 1 ? "" : "s");
	if (m->llc > 0)
		fprintf(f, ", %s L%lld cache", size_format((uint64_t)m->llc, llc, sizeof(llc)), m->llc_level);
	fclose(f);
	return out;
}

static bool hdr_same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Whether every column of @b names the same machine (unknown counts as a machine of its own). */
static bool hdr_same_machine(const struct result_header_block *b)
{
	bool same = true;
	char *first = b->ncols ? result_machine_text(&b->cols[0].machine) : NULL;

	for (size_t c = 1; same && c < b->ncols; c++) {
		char *m = result_machine_text(&b->cols[c].machine);

		same = hdr_same(first, m) && hdr_same(b->cols[0].machine.sut, b->cols[c].machine.sut);
		free(m);
	}
	free(first);
	return same;
}

static int hdr_block(struct result_header_block *hb, const struct cmp_set *s, const struct cmp_block *blk,
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
		const struct result_header_column *col = &hb->cols[c];

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

struct result_header *result_header_build(const struct cmp_set *s, const json_t *sessions, const json_t *suts,
				    const json_t *swprofiles)
{
	struct result_header *h = calloc(1, sizeof(*h));
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
		result_header_free(h);
		return NULL;
	}
	return h;
}

static void hdr_column_free(struct result_header_column *c)
{
	char *strs[] = { c->name, c->machine.sut, c->machine.cpu, c->machine.arch, c->swprofile,
			 c->kernel_release, c->cmdline, c->thp_enabled, c->thp_defrag, c->hugepages,
			 c->first, c->last };

	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		free(strs[i]);
	json_decref(c->doctor_warnings);
}

void result_header_free(struct result_header *h)
{
	if (!h)
		return;
	for (size_t b = 0; b < h->nblocks; b++) {
		struct result_header_block *hb = &h->blocks[b];

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
