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
	"   AND (?5 IS NULL OR r.name = ?5) AND (?6 OR s.warmup = 0)"
	" ORDER BY u.name, p.name, se.started, se.uuid, b.suite, b.params, r.name, r.unit,"
	"          r.higher_is_better, s.warmup DESC, s.iteration";

static const char *col_text(sqlite3_stmt *stmt, int i)
{
	const char *s = (const char *)sqlite3_column_text(stmt, i);

	return s ? s : "";
}

static void row_from_stmt(sqlite3_stmt *stmt, struct store_row *row)
{
	row->sut = col_text(stmt, 0);
	row->swprofile = col_text(stmt, 1);
	row->session = col_text(stmt, 2);
	row->session_started = col_text(stmt, 3);
	row->suite = col_text(stmt, 4);
	row->params = col_text(stmt, 5);
	row->resultclass = col_text(stmt, 6);
	row->unit = col_text(stmt, 7);
	row->higher_is_better = sqlite3_column_int(stmt, 8);
	row->iteration = sqlite3_column_int(stmt, 9);
	row->warmup = sqlite3_column_int(stmt, 10);
	row->value = sqlite3_column_double(stmt, 11);
	row->sample_time = col_text(stmt, 12);
}

/* The parameters of benchmark @id into @p (IDENT_MAX_PARAMS of them at most), their count in *@n. */
static int query_params(struct store *st, int64_t id, struct ident_param *p, size_t *n)
{
	sqlite3_stmt *stmt;
	int ret = store_prepare(st, &stmt, "SELECT name, alias, value, shown FROM benchmark_param"
				" WHERE benchmark_id = ?1 ORDER BY pos", "i", id);
	int rc;

	*n = 0;
	if (ret)
		return ret;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW && *n < IDENT_MAX_PARAMS) {
		struct ident_param *q = &p[(*n)++];

		snprintf(q->name, sizeof(q->name), "%s", col_text(stmt, 0));
		snprintf(q->alias, sizeof(q->alias), "%s", col_text(stmt, 1));
		snprintf(q->value, sizeof(q->value), "%s", col_text(stmt, 2));
		snprintf(q->shown, sizeof(q->shown), "%s", col_text(stmt, 3));
	}
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		ret = store_sql_fail(st, rc, "reading benchmark parameters");
	sqlite3_finalize(stmt);
	return ret;
}

int store_query(struct store *st, const struct store_filter *f,
		int (*fn)(const struct store_row *row, void *arg), void *arg)
{
	static const struct store_filter stats_default;
	struct ident_param *params = malloc(IDENT_MAX_PARAMS * sizeof(*params));
	int64_t params_of = -1;
	size_t nparams = 0;
	bool with_params;
	sqlite3_stmt *stmt;
	int ret, rc;

	if (!params)
		return -ENOMEM;
	if (!f)
		f = &stats_default;
	/* A store read without migrating may predate parameters: its benchmarks have none. */
	with_params = store_has_identity(st);
	ret = store_prepare(st, &stmt, query_sql, "tttttb", f->sut, f->swprofile, f->suite, f->params,
			    f->resultclass, (int)f->include_warmup);
	if (ret)
		goto out_free;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		struct store_row row;
		int64_t bench = sqlite3_column_int64(stmt, 13);

		/* Samples come grouped by benchmark within a session: read its parameters once per run of them. */
		if (with_params && bench != params_of) {
			ret = query_params(st, bench, params, &nparams);
			if (ret)
				goto out;
			params_of = bench;
		}
		row_from_stmt(stmt, &row);
		row.param = params;
		row.nparam = nparams;
		ret = fn(&row, arg);
		if (ret)
			goto out;
	}
	if (rc != SQLITE_DONE)
		ret = store_sql_fail(st, rc, "reading samples");
out:
	sqlite3_finalize(stmt);
out_free:
	free(params);
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

static json_t *column_json(sqlite3_stmt *stmt, int i)
{
	const char *name = sqlite3_column_name(stmt, i);

	switch (sqlite3_column_type(stmt, i)) {
	case SQLITE_NULL:
		return json_null();
	case SQLITE_INTEGER:
		if (is_flag_column(name))
			return json_boolean(sqlite3_column_int(stmt, i));
		return json_integer(sqlite3_column_int64(stmt, i));
	case SQLITE_FLOAT:
		return json_real(sqlite3_column_double(stmt, i));
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
	sqlite3_stmt *stmt;
	json_t *arr = json_array();
	int ret, rc;

	*out = NULL;
	if (!arr)
		return -ENOMEM;
	ret = store_prepare(st, &stmt, sql, NULL);
	if (ret)
		goto out;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		json_t *obj = json_object();

		if (!obj || json_array_append_new(arr, obj)) {
			ret = -ENOMEM;
			goto out;
		}
		for (int i = 0; i < sqlite3_column_count(stmt); i++) {
			if (json_object_set_new(obj, sqlite3_column_name(stmt, i), column_json(stmt, i))) {
				ret = -ENOMEM;
				goto out;
			}
		}
	}
	if (rc != SQLITE_DONE)
		ret = store_sql_fail(st, rc, "listing");
out:
	sqlite3_finalize(stmt);
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
	char sql[512];

	/* without keys (a store read without migrating) each spelling is its own key */
	snprintf(sql, sizeof(sql), "SELECT b.suite AS suite, b.params AS params, %s AS key,"
		 " r.name AS resultclass, r.unit AS unit, r.higher_is_better AS higher_is_better,"
		 " (SELECT count(*) FROM sample WHERE resultclass_id = r.id) AS samples"
		 " FROM benchmark b JOIN resultclass r ON r.benchmark_id = b.id"
		 " ORDER BY b.suite, b.params, r.name, r.unit, r.higher_is_better",
		 store_has_identity(st) ? "b.key" : "b.params");
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
