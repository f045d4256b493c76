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
 */
static const char query_sql[] =
	"SELECT u.name, p.name, se.uuid, se.started, b.suite, b.params, r.name, r.unit,"
	"       r.higher_is_better, s.iteration, s.warmup, s.value, s.time, b.id"
	" FROM sample s"
	" JOIN session se ON se.id = s.session_id"
	" JOIN sut u ON u.id = se.sut_id"
	" JOIN swprofile p ON p.id = se.swprofile_id"
	" JOIN resultclass r ON r.id = s.resultclass_id"
	" JOIN benchmark b ON b.id = r.benchmark_id"
	" WHERE (?1 IS NULL OR u.name = ?1) AND (?2 IS NULL OR p.name = ?2)"
	"   AND (?3 IS NULL OR b.suite = ?3) AND (?4 IS NULL OR b.params = ?4)"
	"   AND (?5 IS NULL OR r.name = ?5) AND (?6 = 1 OR s.warmup = 0)"
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
	row->suite = col_text(stmt, 4);
	row->params = col_text(stmt, 5);
	row->resultclass = col_text(stmt, 6);
	row->unit = col_text(stmt, 7);
	row->higher_is_better = store_col_int(stmt, 8);
	row->iteration = store_col_int(stmt, 9);
	row->warmup = store_col_int(stmt, 10);
	row->value = store_col_double(stmt, 11);
	row->sample_time = col_text(stmt, 12);
}

/*
 * Every benchmark's parameters, read in one query before the walk: a fleet's
 * samples change benchmark every few rows, and a query per change (prepared
 * each time) was half of an export.  Benchmarks are few; samples are many.
 */
struct query_params {
	struct ident_param *p;	/* grouped by benchmark, in benchmark id order */
	size_t np, cap;
	struct query_bench {
		int64_t id;
		size_t first, n;	/* its parameters: p[first .. first + n) */
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

/* Append the parameter row of @stmt (benchmark_id, name, alias, value, shown) to @qp. */
static int query_params_add(struct query_params *qp, struct store_stmt *stmt)
{
	int64_t id = store_col_int64(stmt, 0);
	struct query_bench *b = qp->nb ? &qp->b[qp->nb - 1] : NULL;
	struct ident_param *q;

	if (!b || b->id != id) {
		if (query_grow((void **)&qp->b, &qp->bcap, qp->nb, sizeof(*qp->b)))
			return -ENOMEM;
		b = &qp->b[qp->nb++];
		*b = (struct query_bench){ id, qp->np, 0 };
	}
	if (b->n == IDENT_MAX_PARAMS)
		return 0;
	if (query_grow((void **)&qp->p, &qp->cap, qp->np, sizeof(*qp->p)))
		return -ENOMEM;
	q = &qp->p[qp->np++];
	b->n++;
	snprintf(q->name, sizeof(q->name), "%s", col_text(stmt, 1));
	snprintf(q->alias, sizeof(q->alias), "%s", col_text(stmt, 2));
	snprintf(q->value, sizeof(q->value), "%s", col_text(stmt, 3));
	snprintf(q->shown, sizeof(q->shown), "%s", col_text(stmt, 4));
	return 0;
}

static int query_params_load(struct store *st, struct query_params *qp)
{
	struct store_stmt *stmt;
	int ret = store_prepare(st, &stmt, "SELECT benchmark_id, name, alias, value, shown FROM benchmark_param"
				" ORDER BY benchmark_id, pos", NULL);
	int rc;

	if (ret)
		return ret;
	while (!ret && (rc = store_step(stmt)) == STORE_ROW)
		ret = query_params_add(qp, stmt);
	if (!ret && rc < 0)
		ret = store_sql_fail(st, rc, "reading benchmark parameters");
	store_finalize(stmt);
	if (ret == -ENOMEM)
		log_err("out of memory reading benchmark parameters of store %s", st->path);
	return ret;
}

/* Point @row at benchmark @id's parameters in @qp (none when it has none). */
static void query_params_of(const struct query_params *qp, int64_t id, struct store_row *row)
{
	size_t lo = 0, hi = qp->nb;

	row->param = NULL;
	row->nparam = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (qp->b[mid].id < id) {
			lo = mid + 1;
		} else if (qp->b[mid].id > id) {
			hi = mid;
		} else {
			row->param = &qp->p[qp->b[mid].first];
			row->nparam = qp->b[mid].n;
			return;
		}
	}
}

int store_query(struct store *st, const struct store_filter *f,
		int (*fn)(const struct store_row *row, void *arg), void *arg)
{
	static const struct store_filter stats_default;
	struct query_params qp = { 0 };
	struct store_stmt *stmt = NULL;
	int ret = 0, rc;

	if (!f)
		f = &stats_default;
	/* A store read without migrating may predate parameters: its benchmarks have none. */
	ret = store_has_identity(st);
	if (ret > 0)
		ret = query_params_load(st, &qp);
	if (!ret)
		ret = store_prepare(st, &stmt, query_sql, "tttttb", f->sut, f->swprofile, f->suite, f->params,
				    f->resultclass, (int)f->include_warmup);
	while (!ret && (rc = store_step(stmt)) == STORE_ROW) {
		struct store_row row;

		row_from_stmt(stmt, &row);
		query_params_of(&qp, store_col_int64(stmt, 13), &row);
		ret = fn(&row, arg);
	}
	if (!ret && stmt && rc < 0)
		ret = store_sql_fail(st, rc, "reading samples");
	store_finalize(stmt);
	free(qp.p);
	free(qp.b);
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
	char sql[512];

	*out = NULL;
	if (keys < 0)
		return keys;	/* said once: the query would only fail again */
	/* without keys (a store read without migrating) each spelling is its own key */
	snprintf(sql, sizeof(sql), "SELECT b.suite AS suite, b.params AS params, %s AS key,"
		 " r.name AS resultclass, r.unit AS unit, r.higher_is_better AS higher_is_better,"
		 " (SELECT count(*) FROM sample WHERE resultclass_id = r.id) AS samples"
		 " FROM benchmark b JOIN resultclass r ON r.benchmark_id = b.id"
		 " ORDER BY b.suite, b.params, r.name, r.unit, r.higher_is_better",
		 keys ? "b.key" : "b.params");
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
