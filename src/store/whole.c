/* whole: export of sessions whole (fingerprints, environment, samples, errors, completeness) in CSV or JSON. */
#include "store/xchg.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "store/csv.h"
#include "util/log.h"

const char *const store_xw_col_name[XW_NCOLS] = {
	"record", "sut", "swprofile", "session", "fingerprint", "boot_id", "started", "ended", "complete",
	"environment", "benchmark", "resultclass", "unit", "higher_is_better", "iteration", "warmup", "value",
	"time", "message", "looks", "looked", "alpha",
};

const char *const store_xw_kind_name[XW_NKINDS] = { "sut", "swprofile", "sut_swprofile", "session", "sample",
						     "error", "sequential", "end" };

/* Columns in enum xw_col order. */
const char store_xw_spec[XW_NKINDS][XW_NCOLS + 1] = {
	[XW_KIND_SUT] =        "rr--r-----------------",
	[XW_KIND_SWPROFILE] =  "r-r-r-----------------",
	[XW_KIND_SUT_SWPROFILE] = "rrr-r-----------------",
	[XW_KIND_SESSION] =    "rrrr-ororr------------",
	[XW_KIND_SAMPLE] =     "r--r------rrrrrrrr----",
	[XW_KIND_ERROR] =      "r--r------r---or-rr---",
	[XW_KIND_SEQUENTIAL] = "rrr---r----------r-rrr",
	[XW_KIND_END] =        "r---------------------",
};

enum xw_type store_xw_type(enum xw_col col)
{
	switch (col) {
	case XW_FINGERPRINT:
	case XW_ENVIRONMENT:
		return XW_OBJECT;
	case XW_COMPLETE:
	case XW_HIGHER:
	case XW_WARMUP:
		return XW_BOOL;
	case XW_ITERATION:
	case XW_LOOKS:
	case XW_LOOKED:
		return XW_INT;
	case XW_VALUE:
	case XW_ALPHA:
		return XW_REAL;
	default:
		return XW_TEXT;
	}
}

char *store_xw_object(const char *text, const char *what)
{
	json_error_t jerr;
	json_t *j = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	char *out = NULL;

	if (!j)
		log_err("%s is not valid JSON: %s", what, jerr.text);
	else if (!json_is_object(j))
		log_err("%s is not a JSON object", what);
	else if (!(out = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17))))
		log_err("out of memory encoding %s", what);
	json_decref(j);
	return out;
}

/* Where the records go, and which sessions (sorted UUIDs; none: all). */
struct xw_out {
	struct store *st;
	FILE *out;
	enum store_format fmt;
	long records;
	char **uuids;
	size_t nuuids;
	bool *found;		/* per uuids[i]: the store holds it */
	char **names[3];	/* the suts, swprofiles and "sut\nswprofile" pairs of the sessions chosen */
	size_t nnames[3];
};

static int xw_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The index of @s in the sorted @v of @n, or -1. */
static long xw_find(char *const *v, size_t n, const char *s)
{
	char *const *hit = bsearch(&s, v, n, sizeof(*v), xw_cmp);

	return hit ? hit - v : -1;
}

/* One column of a JSON record from its text (already checked: the store's, or normalised). */
static json_t *xw_json_value(enum xw_kind kind, int col, const char *text)
{
	json_t *j;

	if ((!text || !*text) && store_xw_spec[kind][col] == 'o')
		return json_null();
	switch (store_xw_type(col)) {
	case XW_OBJECT:
		j = json_loads(text, 0, NULL);
		return j ? j : json_object();
	case XW_BOOL:
		return json_boolean(text[0] == '1');
	case XW_INT:
		return json_integer(strtoll(text, NULL, 10));
	case XW_REAL:
		return json_real(strtod(text, NULL));
	default:
		return store_json_text(text);
	}
}

static int xw_emit_json(struct xw_out *o, enum xw_kind kind, const char *const *f)
{
	json_t *obj = json_object();
	char *text = NULL;
	int ret = -ENOMEM;

	for (int i = 0; obj && i < XW_NCOLS; i++)
		if (store_xw_spec[kind][i] != '-' && json_object_set_new(obj, store_xw_col_name[i],
									  xw_json_value(kind, i, f[i])))
			goto out;
	text = obj ? json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17)) : NULL;
	if (!text)
		goto out;
	fprintf(o->out, "%s%s", o->records++ ? ",\n" : "[\n", text);
	ret = ferror(o->out) ? -EIO : 0;
out:
	free(text);
	json_decref(obj);
	return ret;
}

/* Write one record of @kind; @f holds its columns' text (NULL: empty), f[XW_RECORD] is set here. */
static int xw_emit(struct xw_out *o, enum xw_kind kind, const char **f)
{
	f[XW_RECORD] = store_xw_kind_name[kind];
	if (o->fmt == STORE_JSON)
		return kind == XW_KIND_END ? 0 : xw_emit_json(o, kind, f);
	for (int i = 0; i < XW_NCOLS; i++)
		if (!f[i] || store_xw_spec[kind][i] == '-')
			f[i] = "";
	o->records++;
	return csv_write_record(o->out, f, XW_NCOLS);
}

/* Add @name to the names of kind @k (0 suts, 1 swprofiles) unless there. */
static int xw_name_add(struct xw_out *o, int k, const char *name)
{
	char **v;

	for (size_t i = 0; i < o->nnames[k]; i++)
		if (!strcmp(o->names[k][i], name))
			return 0;
	v = realloc(o->names[k], (o->nnames[k] + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	o->names[k] = v;
	return (v[o->nnames[k]++] = strdup(name)) ? 0 : -ENOMEM;
}

/* Add the pair of SUT class @sut and swprofile @swp to the chosen names unless there. */
static int xw_pair_add(struct xw_out *o, const char *sut, const char *swp)
{
	char *pair = malloc(strlen(sut) + strlen(swp) + 2);
	int ret;

	if (!pair)
		return -ENOMEM;
	sprintf(pair, "%s\n%s", sut, swp);
	ret = xw_name_add(o, 2, pair);
	free(pair);
	return ret;
}

static const char xw_sessions_sql[] =
	"SELECT se.uuid, u.name, p.name, se.boot_id, se.started, se.ended, se.complete, se.environment, se.id"
	" FROM session se JOIN sut u ON u.id = se.sut_id JOIN swprofile p ON p.id = se.swprofile_id"
	" ORDER BY u.name, p.name, se.started, se.uuid";

/* Whether the session of @stmt's row is one to export. */
static bool xw_chosen(const struct xw_out *o, struct store_stmt *stmt)
{
	return !o->uuids || xw_find(o->uuids, o->nuuids, store_col_text(stmt, 0)) >= 0;
}

/* Which UUIDs the store holds, and the suts and swprofiles of those: refuse one it lacks. */
static int xw_resolve(struct xw_out *o)
{
	struct store_stmt *stmt;
	int ret = store_prepare(o->st, &stmt, xw_sessions_sql, NULL), rc;

	while (!ret && (rc = store_step(stmt)) == STORE_ROW) {
		long i = xw_find(o->uuids, o->nuuids, store_col_text(stmt, 0));

		if (i < 0)
			continue;
		o->found[i] = true;
		ret = xw_name_add(o, 0, store_col_text(stmt, 1));
		if (!ret)
			ret = xw_name_add(o, 1, store_col_text(stmt, 2));
		if (!ret)
			ret = xw_pair_add(o, store_col_text(stmt, 1), store_col_text(stmt, 2));
	}
	if (!ret && rc < 0)
		ret = store_sql_fail(o->st, rc, "reading sessions");
	store_finalize(stmt);
	for (size_t i = 0; !ret && i < o->nuuids; i++) {
		if (!o->found[i]) {
			log_err("store %s holds no session %s", o->st->path, o->uuids[i]);
			log_hint("'clearpath list sessions' lists the sessions it holds");
			ret = -EINVAL;
		}
	}
	return ret;
}

/* The sut (@k 0) or swprofile (1) records: every one, or those of the sessions chosen. */
static int xw_named(struct xw_out *o, int k)
{
	static const char *const sql[] = { "SELECT name, fingerprint FROM sut ORDER BY name",
					   "SELECT name, fingerprint FROM swprofile ORDER BY name" };
	struct store_stmt *stmt;
	int ret = store_prepare(o->st, &stmt, sql[k], NULL), rc;

	while (!ret && (rc = store_step(stmt)) == STORE_ROW) {
		const char *f[XW_NCOLS] = { NULL };
		bool chosen = !o->uuids;
		char *fp;

		for (size_t i = 0; !chosen && i < o->nnames[k]; i++)
			chosen = !strcmp(o->names[k][i], store_col_text(stmt, 0));
		if (!chosen)
			continue;
		fp = store_xw_object(store_col_text(stmt, 1), k ? "a swprofile's fingerprint" : "a sut's fingerprint");
		if (!fp) {
			ret = -EINVAL;
			break;
		}
		f[k ? XW_SWPROFILE : XW_SUT] = store_col_text(stmt, 0);
		f[XW_FINGERPRINT] = fp;
		ret = xw_emit(o, k ? XW_KIND_SWPROFILE : XW_KIND_SUT, f);
		free(fp);
	}
	if (!ret && rc < 0)
		ret = store_sql_fail(o->st, rc, "reading suts and swprofiles");
	store_finalize(stmt);
	return ret;
}

/* Whether SUT class @sut and swprofile @swp are a pair of the sessions chosen (or every session is). */
static bool xw_pair_chosen(const struct xw_out *o, const char *sut, const char *swp)
{
	for (size_t i = 0; o->uuids && i < o->nnames[2]; i++) {
		const char *pair = o->names[2][i], *nl = strchr(pair, '\n');

		if (!strncmp(pair, sut, (size_t)(nl - pair)) && !sut[nl - pair] && !strcmp(nl + 1, swp))
			return true;
	}
	return !o->uuids;
}

/*
 * The sut_swprofile records: the fingerprint each swprofile has on each SUT
 * class (every pair, or those of the sessions chosen); none from a store
 * older than them.
 */
static int xw_pairs(struct xw_out *o)
{
	struct store_stmt *stmt;
	int ret = o->st->be->has_table(o->st, "swprofile_sut"), rc;

	if (ret <= 0)
		return ret;
	ret = store_prepare(o->st, &stmt, "SELECT u.name, p.name, x.fingerprint FROM swprofile_sut x"
			    " JOIN sut u ON u.id = x.sut_id JOIN swprofile p ON p.id = x.swprofile_id"
			    " ORDER BY u.name, p.name", NULL);
	while (!ret && (rc = store_step(stmt)) == STORE_ROW) {
		const char *f[XW_NCOLS] = { NULL };
		char *fp;

		if (!xw_pair_chosen(o, store_col_text(stmt, 0), store_col_text(stmt, 1)))
			continue;
		fp = store_xw_object(store_col_text(stmt, 2), "a swprofile's fingerprint on a SUT class");
		if (!fp) {
			ret = -EINVAL;
			break;
		}
		f[XW_SUT] = store_col_text(stmt, 0);
		f[XW_SWPROFILE] = store_col_text(stmt, 1);
		f[XW_FINGERPRINT] = fp;
		ret = xw_emit(o, XW_KIND_SUT_SWPROFILE, f);
		free(fp);
	}
	if (!ret && rc < 0)
		ret = store_sql_fail(o->st, rc, "reading the swprofiles' fingerprints per SUT class");
	store_finalize(stmt);
	return ret;
}

/* "suite params", as the sample form writes the benchmark; a new string or NULL. */
static char *xw_benchmark(const char *suite, const char *params)
{
	char *s = malloc(strlen(suite) + strlen(params) + 2);

	if (s)
		sprintf(s, "%s%s%s", suite, *params ? " " : "", params);
	return s;
}

/* Columns of the per-session statements, in their SELECT order. */
static const int xw_sample_cols[] = { XW_RESULTCLASS, XW_UNIT, XW_HIGHER, XW_ITERATION, XW_WARMUP, XW_VALUE,
				      XW_TIME };
static const int xw_error_cols[] = { XW_ITERATION, XW_WARMUP, XW_MESSAGE, XW_TIME };

/*
 * The records of one session's samples (@kind XW_KIND_SAMPLE) or errors,
 * from @stmt whose first two columns are the benchmark's suite and params
 * and the rest @cols.  Natural keys only in the order, as in the sample form.
 */
static int xw_rows(struct xw_out *o, struct store_stmt *stmt, const char *uuid, enum xw_kind kind,
		   const int *cols, size_t ncols)
{
	char value[32];
	int ret = 0, rc;

	while (!ret && (rc = store_step(stmt)) == STORE_ROW) {
		const char *f[XW_NCOLS] = { NULL };
		char *bench = xw_benchmark(store_col_text(stmt, 0), store_col_text(stmt, 1));

		if (!bench)
			return -ENOMEM;
		f[XW_SESSION] = uuid;
		f[XW_BENCHMARK] = bench;
		for (size_t i = 0; i < ncols; i++)
			f[cols[i]] = store_col_text(stmt, 2 + (int)i);
		if (kind == XW_KIND_SAMPLE) {
			snprintf(value, sizeof(value), "%.17g", store_col_double(stmt, 7));
			f[XW_VALUE] = value;
		}
		ret = xw_emit(o, kind, f);
		free(bench);
	}
	if (!ret && rc < 0)
		ret = store_sql_fail(o->st, rc, "reading a session's samples and errors");
	return ret;
}

/* The statements reading one session's samples and errors. */
struct xw_stmts {
	struct store_stmt *samples, *errors;
};

static int xw_session_rows(struct xw_out *o, struct xw_stmts *s, const char *uuid, int64_t id)
{
	int ret;

	ret = store_rebind(s->samples, "i", id);
	if (!ret)
		ret = xw_rows(o, s->samples, uuid, XW_KIND_SAMPLE, xw_sample_cols,
		      sizeof(xw_sample_cols) / sizeof(xw_sample_cols[0]));
	if (!ret)
		ret = store_rebind(s->errors, "i", id);
	return ret ? ret : xw_rows(o, s->errors, uuid, XW_KIND_ERROR, xw_error_cols,
		       sizeof(xw_error_cols) / sizeof(xw_error_cols[0]));
}

/* One session record from a row of xw_sessions_sql, then its samples and errors. */
static int xw_session(struct xw_out *o, struct xw_stmts *s, struct store_stmt *stmt)
{
	const char *f[XW_NCOLS] = { NULL };
	char *env = store_xw_object(store_col_text(stmt, 7), "a session's environment");
	int ret;

	if (!env)
		return -EINVAL;
	f[XW_SESSION] = store_col_text(stmt, 0);
	f[XW_SUT] = store_col_text(stmt, 1);
	f[XW_SWPROFILE] = store_col_text(stmt, 2);
	f[XW_BOOT_ID] = store_col_text(stmt, 3);
	f[XW_STARTED] = store_col_text(stmt, 4);
	f[XW_ENDED] = store_col_text(stmt, 5);
	f[XW_COMPLETE] = store_col_int(stmt, 6) ? "1" : "0";
	f[XW_ENVIRONMENT] = env;
	ret = xw_emit(o, XW_KIND_SESSION, f);
	free(env);
	return ret ? ret : xw_session_rows(o, s, f[XW_SESSION], store_col_int64(stmt, 8));
}

static int xw_sessions(struct xw_out *o)
{
	struct xw_stmts s = { NULL, NULL };
	struct store_stmt *stmt = NULL;
	int ret, rc = STORE_DONE;

	ret = store_prepare(o->st, &s.samples, "SELECT b.suite, b.params, r.name, r.unit, r.higher_is_better,"
			    " s.iteration, s.warmup, s.value, s.time FROM sample s"
			    " JOIN resultclass r ON r.id = s.resultclass_id JOIN benchmark b ON b.id = r.benchmark_id"
			    " WHERE s.session_id = ?1 ORDER BY b.suite, b.params, r.name, r.unit,"
			    " r.higher_is_better, s.warmup DESC, s.iteration", NULL);
	if (!ret)
		ret = store_prepare(o->st, &s.errors, "SELECT b.suite, b.params, e.iteration, e.warmup, e.message,"
				    " e.time FROM error e JOIN benchmark b ON b.id = e.benchmark_id"
				    " WHERE e.session_id = ?1 ORDER BY b.suite, b.params, e.warmup DESC,"
				    /* the whole benchmark's error (NULL) first, in every engine */
				    " e.iteration IS NOT NULL, e.iteration, e.time, e.message", NULL);
	if (!ret)
		ret = store_prepare(o->st, &stmt, xw_sessions_sql, NULL);
	while (!ret && (rc = store_step(stmt)) == STORE_ROW)
		if (xw_chosen(o, stmt))
			ret = xw_session(o, &s, stmt);
	if (!ret && rc < 0)
		ret = store_sql_fail(o->st, rc, "reading sessions");
	store_finalize(stmt);
	store_finalize(s.samples);
	store_finalize(s.errors);
	return ret;
}

/* store_sequential_each() callback: one sequential record, when its pair is chosen. */
static int xw_sequential_one(const struct store_sequential *q, void *arg)
{
	struct xw_out *o = arg;
	const char *f[XW_NCOLS] = { NULL };
	char looks[24], looked[24], alpha[32];

	if (!xw_pair_chosen(o, q->sut, q->swprofile))
		return 0;
	snprintf(looks, sizeof(looks), "%u", q->looks);
	snprintf(looked, sizeof(looked), "%u", q->looked);
	snprintf(alpha, sizeof(alpha), "%.17g", q->alpha);
	f[XW_SUT] = q->sut;
	f[XW_SWPROFILE] = q->swprofile;
	f[XW_STARTED] = q->started;
	f[XW_TIME] = q->updated;
	f[XW_LOOKS] = looks;
	f[XW_LOOKED] = looked;
	f[XW_ALPHA] = alpha;
	return xw_emit(o, XW_KIND_SEQUENTIAL, f);
}

/*
 * The sequential records: the looks of each sequential run on the pairs
 * chosen, so the store they go to judges those cells at their level too.
 */
static int xw_sequential(struct xw_out *o)
{
	return store_sequential_each(o->st, xw_sequential_one, o);
}

/* A sorted copy of @uuids into @o (none: every session). */
static int xw_choose(struct xw_out *o, const char *const *uuids, size_t n)
{
	if (!uuids || !n)
		return 0;
	o->uuids = calloc(n, sizeof(*o->uuids));
	o->found = calloc(n, sizeof(*o->found));
	if (!o->uuids || !o->found)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (!(o->uuids[o->nuuids++] = strdup(uuids[i])))
			return -ENOMEM;
	qsort(o->uuids, n, sizeof(*o->uuids), xw_cmp);
	return 0;
}

static void xw_out_free(struct xw_out *o)
{
	for (size_t i = 0; i < o->nuuids; i++)
		free(o->uuids[i]);
	for (int k = 0; k < 3; k++) {
		for (size_t i = 0; i < o->nnames[k]; i++)
			free(o->names[k][i]);
		free(o->names[k]);
	}
	free(o->uuids);
	free(o->found);
}

int store_export_whole(struct store *st, FILE *out, enum store_format fmt, const char *const *uuids, size_t n)
{
	struct xw_out o = { .st = st, .out = out, .fmt = fmt };
	const char *end[XW_NCOLS] = { NULL };
	int ret = xw_choose(&o, uuids, n);

	if (!ret && o.uuids)
		ret = xw_resolve(&o);
	if (!ret && fmt == STORE_CSV)
		ret = csv_write_record(out, store_xw_col_name, XW_NCOLS);
	if (!ret)
		ret = xw_named(&o, 0);
	if (!ret)
		ret = xw_named(&o, 1);
	if (!ret)
		ret = xw_pairs(&o);
	if (!ret)
		ret = xw_sessions(&o);
	if (!ret)
		ret = xw_sequential(&o);
	if (!ret)
		ret = xw_emit(&o, XW_KIND_END, end);
	if (!ret && fmt == STORE_JSON)
		fputs(o.records ? "\n]\n" : "[]\n", out);
	xw_out_free(&o);
	return store_xchg_export_end(st, out, ret);
}
