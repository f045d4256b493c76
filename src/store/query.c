/* query: samples for statistics and export, and the JSON listings the CLI prints. */
#include "store/db.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

/*
 * Every sample with what it is grouped by.  The ORDER BY uses natural keys
 * only (never row ids), so two stores holding the same samples walk them in
 * the same order: that is what makes export -> import -> export identical.
 * The metric is column 14 where the schema has one (STORE_SCHEMA_METRIC): "NULL" otherwise.
 */
static const char query_sql[] =
	"SELECT u.name, p.name, se.uuid, se.started, b.suite, b.params, r.name, r.unit,"
	"       r.higher_is_better, s.iteration, s.warmup, s.value, s.time, b.id, %s"
	" FROM sample s"
	" JOIN session se ON se.id = s.session_id"
	" JOIN sut u ON u.id = se.sut_id"
	" JOIN swprofile p ON p.id = se.swprofile_id"
	" JOIN resultclass r ON r.id = s.resultclass_id"
	" JOIN benchmark b ON b.id = r.benchmark_id"
	" WHERE (?1 IS NULL OR u.name = ?1) AND (?2 IS NULL OR p.name = ?2)"
	"   AND (?3 IS NULL OR b.suite = ?3) AND (?4 IS NULL OR b.params = ?4)"
	"   AND (?5 IS NULL OR r.name = ?5) AND (?6 = 1 OR s.warmup = 0)"
	/* a campaign's interrupted session: its boot was taken again and measured whole (run's "campaign" key) */
	"   AND (?7 = 1 OR se.complete = 1 OR se.environment NOT LIKE '%%\"campaign\":%%')"
	" ORDER BY u.name, p.name, se.started, se.uuid, b.suite, b.params, r.name, r.unit,"
	"          r.higher_is_better, s.warmup DESC, s.iteration";

static const char *col_text(struct store_stmt *stmt, int i)
{
	const char *s = store_col_text(stmt, i);

	return s ? s : "";
}

static void row_from_stmt(struct store_stmt *stmt, struct store_row *row)
{
	row->sut = col_text(stmt, 0);
	row->swprofile = col_text(stmt, 1);
	row->session = col_text(stmt, 2);
	row->session_started = col_text(stmt, 3);
	row->ident.suite = col_text(stmt, 4);
	row->ident.display = col_text(stmt, 5);
	row->ident.name = col_text(stmt, 6);
	row->unit = col_text(stmt, 7);
	row->higher_is_better = store_col_int(stmt, 8);
	row->iteration = store_col_int(stmt, 9);
	row->warmup = store_col_int(stmt, 10);
	row->value = store_col_double(stmt, 11);
	row->sample_time = col_text(stmt, 12);
}

/*
 * Every benchmark's identity (parameters, key, workload), read in one go
 * before the walk: a fleet's samples change benchmark every few rows, and a
 * query per change (prepared each time) was half of an export.  Benchmarks
 * are few; samples are many.
 */
struct query_params {
	struct ident_param *p;	/* grouped by benchmark, in benchmark id order */
	size_t np, cap;
	struct query_bench {
		int64_t id;
		size_t first, n;	/* its parameters: p[first .. first + n) */
		char *key, *workload;
	} *b;
	size_t nb, bcap;
};

/* Room for one more element in *@arr of @size-byte elements; 0 or -ENOMEM. */
static int query_grow(void **arr, size_t *cap, size_t n, size_t size)
{
	void *q;

	if (n < *cap)
		return 0;
	q = realloc(*arr, (*cap ? 2 * *cap : 16) * size);
	if (!q)
		return -ENOMEM;
	*arr = q;
	*cap = *cap ? 2 * *cap : 16;
	return 0;
}

/* Benchmark @id with @key and @workload appended to @qp (parameters follow).  0 or -ENOMEM. */
static int query_bench_add(struct query_params *qp, int64_t id, const char *key, const char *workload)
{
	struct query_bench *b;

	if (query_grow((void **)&qp->b, &qp->bcap, qp->nb, sizeof(*qp->b)))
		return -ENOMEM;
	b = &qp->b[qp->nb++];
	*b = (struct query_bench){ id, qp->np, 0, strdup(key), strdup(workload) };
	return b->key && b->workload ? 0 : -ENOMEM;
}

/* The benchmark of @qp with id @id, or NULL. */
static struct query_bench *query_bench_of(const struct query_params *qp, int64_t id)
{
	size_t lo = 0, hi = qp->nb;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (qp->b[mid].id < id)
			lo = mid + 1;
		else if (qp->b[mid].id > id)
			hi = mid;
		else
			return &qp->b[mid];
	}
	return NULL;
}

/* Append parameter @src to the last benchmark of @qp (@b).  0 or -ENOMEM. */
static int query_param_add(struct query_params *qp, struct query_bench *b, const struct ident_param *src)
{
	if (b->n == IDENT_MAX_PARAMS)
		return 0;
	if (query_grow((void **)&qp->p, &qp->cap, qp->np, sizeof(*qp->p)))
		return -ENOMEM;
	qp->p[qp->np++] = *src;
	b->n++;
	return 0;
}

/* Append the parameter row of @stmt (benchmark_id, name, alias, value, shown) to its benchmark in @qp. */
static int query_params_add(struct query_params *qp, struct store_stmt *stmt)
{
	struct query_bench *b = query_bench_of(qp, store_col_int64(stmt, 0));
	struct ident_param q;

	if (!b)
		return 0;	/* an orphan row */
	if (!b->n)
		b->first = qp->np;
	else if (b->first + b->n != qp->np)
		return 0;	/* rows come by benchmark id: a benchmark's are one run */
	snprintf(q.name, sizeof(q.name), "%s", col_text(stmt, 1));
	snprintf(q.alias, sizeof(q.alias), "%s", col_text(stmt, 2));
	snprintf(q.value, sizeof(q.value), "%s", col_text(stmt, 3));
	snprintf(q.shown, sizeof(q.shown), "%s", col_text(stmt, 4));
	return query_param_add(qp, b, &q);
}

/*
 * Read every row of @sql into @qp with @fn (0 or -ENOMEM), @what naming
 * it in messages.  0 or a logged error.
 */
static int query_each(struct store *st, const char *sql, struct query_params *qp, const char *what,
		      int (*fn)(struct store *st, struct query_params *qp, struct store_stmt *stmt))
{
	struct store_stmt *stmt;
	int ret = store_prepare(st, &stmt, sql, NULL);
	int rc = STORE_DONE;

	while (!ret && (rc = store_step(stmt)) == STORE_ROW)
		ret = fn(st, qp, stmt);
	if (!ret && rc < 0)
		ret = store_sql_fail(st, rc, what);
	store_finalize(stmt);
	if (ret == -ENOMEM)
		log_err("out of memory reading %s of store %s", what, st->path);
	return ret;
}

/* query_each(): a benchmark of a store whose schema keeps its identity (STORE_SCHEMA_METRIC): key and workload as stored. */
static int query_bench_stored(struct store *st, struct query_params *qp, struct store_stmt *stmt)
{
	(void)st;
	return query_bench_add(qp, store_col_int64(stmt, 0), col_text(stmt, 1), col_text(stmt, 2));
}

/*
 * query_each(): a benchmark of an older schema read as it is (id, suite,
 * params[, key]): its identity as a migration would give it, the key as
 * stored when there is one (v3, v4), and its parameters from the parser
 * when the schema has none (v1, v2).
 */
static int query_bench_parsed(struct store *st, struct query_params *qp, struct store_stmt *stmt)
{
	struct bench_identity *id = malloc(sizeof(*id));
	const char *text = col_text(stmt, 2);
	bool stored = store_col_count(stmt) > 3;
	int ret = id ? store_identity(st, col_text(stmt, 1), text, id) : -ENOMEM;

	if (!ret)
		ret = query_bench_add(qp, store_col_int64(stmt, 0), stored ? col_text(stmt, 3) : store_bench_key(id, text),
				      id->workload);
	for (size_t i = 0; !ret && !stored && i < id->nparams; i++)
		ret = query_param_add(qp, &qp->b[qp->nb - 1], &id->params[i]);
	free(id);
	return ret == -E2BIG ? 0 : ret;
}

static int query_params_row(struct store *st, struct query_params *qp, struct store_stmt *stmt)
{
	(void)st;
	return query_params_add(qp, stmt);
}

static int query_params_load(struct store *st, struct query_params *qp)
{
	int keys = store_has_identity(st);
	int ret = keys < 0 ? keys : 0;

	if (!ret && store_has_metric(st))
		ret = query_each(st, "SELECT id, key, workload FROM benchmark ORDER BY id", qp, "benchmarks",
				 query_bench_stored);
	else if (!ret)
		ret = query_each(st, keys ? "SELECT id, suite, params, key FROM benchmark ORDER BY id"
				      : "SELECT id, suite, params FROM benchmark ORDER BY id", qp, "benchmarks",
				 query_bench_parsed);
	if (!ret && keys)
		ret = query_each(st, "SELECT benchmark_id, name, alias, value, shown FROM benchmark_param"
				 " ORDER BY benchmark_id, pos", qp, "benchmark parameters", query_params_row);
	return ret;
}

static void query_params_free(struct query_params *qp)
{
	for (size_t i = 0; i < qp->nb; i++) {
		free(qp->b[i].key);
		free(qp->b[i].workload);
	}
	free(qp->b);
	free(qp->p);
}

/*
 * Point @row's identity at benchmark @id's in @qp (a raw one when the walk
 * met a benchmark the load did not: its text), and give it its metric: the
 * stored one, or for an older schema the one its name says.
 */
static void query_ident_of(const struct query_params *qp, int64_t id, struct store_stmt *stmt, bool stored,
			   struct store_row *row)
{
	const struct query_bench *b = query_bench_of(qp, id);
	struct ident_class *c = &row->ident;

	c->key = b ? b->key : c->display;
	c->workload = b ? b->workload : "";
	c->param = b && b->n ? &qp->p[b->first] : NULL;
	c->nparam = b ? b->n : 0;
	if (stored)
		c->metric = store_col_type(stmt, 14) == STORE_COL_NULL ? NULL : col_text(stmt, 14);
	else
		c->metric = ident_class_metric(c->suite, c->display, c->name);
}

int store_query(struct store *st, const struct store_filter *f,
		int (*fn)(const struct store_row *row, void *arg), void *arg)
{
	static const struct store_filter stats_default;
	struct query_params qp = { 0 };
	struct store_stmt *stmt = NULL;
	bool stored = store_has_metric(st);
	char sql[sizeof(query_sql) + 16];
	int ret, rc;

	if (!f)
		f = &stats_default;
	snprintf(sql, sizeof(sql), query_sql, stored ? "r.metric" : "NULL");
	ret = query_params_load(st, &qp);
	if (!ret)
		ret = store_prepare(st, &stmt, sql, "tttttbb", f->sut, f->swprofile, f->suite, f->params,
				    f->resultclass, (int)f->include_warmup, (int)f->include_retaken);
	while (!ret && (rc = store_step(stmt)) == STORE_ROW) {
		struct store_row row;

		row_from_stmt(stmt, &row);
		query_ident_of(&qp, store_col_int64(stmt, 13), stmt, stored, &row);
		ret = fn(&row, arg);
	}
	if (!ret && stmt && rc < 0)
		ret = store_sql_fail(st, rc, "reading samples");
	store_finalize(stmt);
	query_params_free(&qp);
	return ret;
}

/* Columns that hold 0/1 flags or JSON object text, by their SQL names. */
static bool is_flag_column(const char *name)
{
	return !strcmp(name, "complete") || !strcmp(name, "higher_is_better");
}

static bool is_json_column(const char *name)
{
	return !strcmp(name, "fingerprint") || !strcmp(name, "environment");
}

static json_t *column_json(struct store_stmt *stmt, int i)
{
	const char *name = store_col_name(stmt, i);

	switch (store_col_type(stmt, i)) {
	case STORE_COL_NULL:
		return json_null();
	case STORE_COL_INT:
		if (is_flag_column(name))
			return json_boolean(store_col_int(stmt, i));
		return json_integer(store_col_int64(stmt, i));
	case STORE_COL_REAL:
		return json_real(store_col_double(stmt, i));
	case STORE_COL_TEXT:
		break;
	}
	if (is_json_column(name)) {
		json_t *j = json_loads(col_text(stmt, i), 0, NULL);

		if (j)
			return j;
	}
	return store_json_text(col_text(stmt, i));
}

/* Run @sql and return its rows as a JSON array of objects keyed by column name. */
static int list_json(struct store *st, const char *sql, json_t **out)
{
	struct store_stmt *stmt;
	json_t *arr = json_array();
	int ret, rc;

	*out = NULL;
	if (!arr)
		return -ENOMEM;
	ret = store_prepare(st, &stmt, sql, NULL);
	if (ret)
		goto out;
	while ((rc = store_step(stmt)) == STORE_ROW) {
		json_t *obj = json_object();

		if (!obj || json_array_append_new(arr, obj)) {
			ret = -ENOMEM;
			goto out;
		}
		for (int i = 0; i < store_col_count(stmt); i++) {
			if (json_object_set_new(obj, store_col_name(stmt, i), column_json(stmt, i))) {
				ret = -ENOMEM;
				goto out;
			}
		}
	}
	if (rc < 0)
		ret = store_sql_fail(st, rc, "listing");
out:
	store_finalize(stmt);
	if (ret) {
		if (ret == -ENOMEM)
			log_err("out of memory listing store %s", st->path);
		json_decref(arr);
		return ret;
	}
	*out = arr;
	return 0;
}

/* Suts and swprofiles share a shape: name, fingerprint, how many sessions use them. */
static int list_fingerprinted(struct store *st, const char *table, json_t **out)
{
	char sql[256];

	snprintf(sql, sizeof(sql), "SELECT t.name AS name, t.fingerprint AS fingerprint,"
		 " (SELECT count(*) FROM session WHERE %s_id = t.id) AS sessions"
		 " FROM %s t ORDER BY t.name", table, table);
	return list_json(st, sql, out);
}

int store_list_suts(struct store *st, json_t **out)
{
	return list_fingerprinted(st, "sut", out);
}

int store_list_swprofiles(struct store *st, json_t **out)
{
	return list_fingerprinted(st, "swprofile", out);
}

int store_list_benchmarks(struct store *st, json_t **out)
{
	int keys = store_has_identity(st);
	bool metric = store_has_metric(st);
	char sql[640];

	*out = NULL;
	if (keys < 0)
		return keys;	/* said once: the query would only fail again */
	/* without keys (a store read without migrating) each spelling is its own key */
	snprintf(sql, sizeof(sql), "SELECT b.suite AS suite, b.params AS params, %s AS key,%s"
		 " r.name AS resultclass,%s r.unit AS unit, r.higher_is_better AS higher_is_better,"
		 " (SELECT count(*) FROM sample WHERE resultclass_id = r.id) AS samples"
		 " FROM benchmark b JOIN resultclass r ON r.benchmark_id = b.id"
		 " ORDER BY b.suite, b.params, r.name, r.unit, r.higher_is_better",
		 keys ? "b.key" : "b.params", metric ? " b.workload AS workload," : "",
		 metric ? " r.metric AS metric," : "");
	return list_json(st, sql, out);
}

int store_list_sessions(struct store *st, json_t **out)
{
	return list_json(st, "SELECT se.uuid AS uuid, u.name AS sut, p.name AS swprofile,"
			 " se.boot_id AS boot_id, se.started AS started, se.ended AS ended,"
			 " se.complete AS complete, se.environment AS environment,"
			 " (SELECT count(*) FROM sample WHERE session_id = se.id) AS samples,"
			 " (SELECT count(*) FROM error WHERE session_id = se.id) AS errors"
			 " FROM session se JOIN sut u ON u.id = se.sut_id"
			 " JOIN swprofile p ON p.id = se.swprofile_id"
			 " ORDER BY se.started, se.uuid", out);
}
