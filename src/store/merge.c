/* merge: copying the sessions one store lacks from another, row by row, between any two backends. */
#include "store/xchg.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

/* A source row id and the destination's id for the same object. */
struct id_pair {
	int64_t src, dst;
};

/* Source ids to destination ids, appended in increasing source order (every query orders by id). */
struct id_map {
	struct id_pair *p;
	size_t n, cap;
};

static int map_put(struct id_map *m, int64_t src, int64_t dst)
{
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 64;
		struct id_pair *p = realloc(m->p, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		m->p = p;
		m->cap = cap;
	}
	m->p[m->n++] = (struct id_pair){ src, dst };
	return 0;
}

/* The destination id of source id @src, or -1. */
static int64_t map_get(const struct id_map *m, int64_t src)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->p[mid].src == src)
			return m->p[mid].dst;
		if (m->p[mid].src < src)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

struct merge {
	struct store *dst, *src;
	struct store_batch *batch;	/* samples, a multi-row insert at a time */
	struct id_map sut, swprofile, bench, rclass;
	struct id_map session;	/* only the sessions added */
	struct bench_identity *ident;
};

int store_merge_check_names(struct store *st, const char *schema)
{
	static const char *const kind[] = { "SUT class name", "swprofile name", "benchmark suite",
					    "benchmark parameters", "result class name", "result class unit" };
	struct store_stmt *stmt;
	char sql[512];
	int ret, rc;

	snprintf(sql, sizeof(sql), "SELECT 0, name FROM %1$ssut UNION ALL SELECT 1, name FROM %1$sswprofile"
		 " UNION ALL SELECT 2, suite FROM %1$sbenchmark UNION ALL SELECT 3, params FROM %1$sbenchmark"
		 " UNION ALL SELECT 4, name FROM %1$sresultclass UNION ALL SELECT 5, unit FROM %1$sresultclass",
		 schema);
	ret = store_prepare(st, &stmt, sql, NULL);
	if (ret)
		return ret;
	while ((rc = store_step(stmt)) == STORE_ROW) {
		int64_t k = store_col_int64(stmt, 0);
		const char *name = store_col_text(stmt, 1);
		char what[80];

		/* every backend takes the same names: what SQLite took, a server may not index */
		snprintf(what, sizeof(what), "the store to merge holds a %s that", k >= 0 && k < 6 ? kind[k] : "name");
		if (*name && (ret = store_name_check(name, what)))
			break;
	}
	if (!ret && rc < 0)
		ret = store_sql_fail(st, rc, "checking the names to merge");
	store_finalize(stmt);
	return ret;
}

/* Suts or swprofiles (@table) by name; existing ones keep their fingerprints, unless empty ("{}"). */
static int merge_named(struct merge *m, const char *table, struct id_map *map)
{
	char read[128], insert[256], select[96];
	struct store_stmt *stmt;
	int ret, rc;

	snprintf(read, sizeof(read), "SELECT id, name, fingerprint FROM %s ORDER BY id", table);
	snprintf(insert, sizeof(insert), "INSERT INTO %s (name, fingerprint) VALUES (?1, ?2) ON CONFLICT (name)"
		 " DO UPDATE SET fingerprint = excluded.fingerprint WHERE %s.fingerprint = '{}'", table, table);
	snprintf(select, sizeof(select), "SELECT id FROM %s WHERE name = ?1", table);
	ret = store_prepare(m->src, &stmt, read, NULL);
	while (!ret && (rc = store_step(stmt)) == STORE_ROW) {
		int64_t id;

		ret = store_get_or_create(m->dst, &id, insert, select, "tt", store_col_text(stmt, 1),
					  store_col_text(stmt, 2));
		if (!ret)
			ret = map_put(map, store_col_int64(stmt, 0), id);
	}
	if (!ret && rc < 0)
		ret = store_sql_fail(m->src, rc, "reading the store to merge");
	store_finalize(stmt);
	return ret;
}

/* One source benchmark's display, kept to rename its result classes after the destination's. */
struct bench_names {
	int64_t id;
	char *suite, *from, *to;
};

/* Benchmarks by key, then their result classes named after the destination's spelling. */
static int merge_benchmarks(struct merge *m)
{
	struct store_stmt *stmt;
	struct bench_names *b = NULL;
	size_t n = 0;
	int ret, rc;

	ret = store_prepare(m->src, &stmt, "SELECT id, suite, params FROM benchmark ORDER BY id", NULL);
	while (!ret && (rc = store_step(stmt)) == STORE_ROW) {
		struct bench_names *nb = realloc(b, (n + 1) * sizeof(*b));
		int64_t id;

		if (!nb) {
			ret = -ENOMEM;
			break;
		}
		b = nb;
		memset(&b[n], 0, sizeof(b[n]));
		b[n].id = store_col_int64(stmt, 0);
		b[n].suite = strdup(store_col_text(stmt, 1));
		b[n].from = strdup(store_col_text(stmt, 2));
		n++;
		ret = b[n - 1].suite && b[n - 1].from ? store_identity(b[n - 1].suite, b[n - 1].from, m->ident)
						       : -ENOMEM;
		if (!ret)
			ret = store_benchmark_text(m->dst, b[n - 1].suite, b[n - 1].from, m->ident, &id,
						   &b[n - 1].to);
		if (!ret)
			ret = map_put(&m->bench, b[n - 1].id, id);
	}
	if (!ret && rc < 0)
		ret = store_sql_fail(m->src, rc, "reading the store to merge");
	store_finalize(stmt);
	stmt = NULL;
	if (!ret)
		ret = store_prepare(m->src, &stmt, "SELECT id, benchmark_id, name, unit, higher_is_better"
				    " FROM resultclass ORDER BY id", NULL);
	while (!ret && (rc = store_step(stmt)) == STORE_ROW) {
		int64_t bench = store_col_int64(stmt, 1), id;
		const struct bench_names *nb = NULL;
		char name[2048];

		for (size_t i = 0; i < n && !nb; i++)
			nb = b[i].id == bench ? &b[i] : NULL;
		if (!nb) {
			log_err("store %s: result class %lld names no benchmark", m->src->path,
				(long long)store_col_int64(stmt, 0));
			ret = -EIO;
			break;
		}
		store_rebase_name(nb->suite, nb->from, nb->to, store_col_text(stmt, 2), name, sizeof(name));
		ret = store_resultclass_get(m->dst, map_get(&m->bench, bench), name, store_col_text(stmt, 3),
					    store_col_int(stmt, 4), &id);
		if (!ret)
			ret = map_put(&m->rclass, store_col_int64(stmt, 0), id);
	}
	if (!ret && rc < 0)
		ret = store_sql_fail(m->src, rc, "reading the store to merge");
	store_finalize(stmt);
	for (size_t i = 0; i < n; i++) {
		free(b[i].suite);
		free(b[i].from);
		free(b[i].to);
	}
	free(b);
	return ret;
}

/*
 * The samples of the sessions added, through the batch: one query over the
 * source, in the order the sessions were added, so a server is asked once,
 * not once per session, and its rows stream.
 */
static int merge_samples(struct merge *m)
{
	struct store_stmt *stmt;
	int ret, rc;

	ret = store_prepare(m->src, &stmt, "SELECT session_id, resultclass_id, iteration, warmup, value, time"
			    " FROM sample ORDER BY session_id, id", NULL);
	while (!ret && (rc = store_step(stmt)) == STORE_ROW) {
		int64_t to = map_get(&m->session, store_col_int64(stmt, 0));
		const struct store_xchg_sample x = { to, map_get(&m->rclass, store_col_int64(stmt, 1)),
						     store_col_int(stmt, 2), store_col_int(stmt, 3),
						     store_col_double(stmt, 4), store_col_text(stmt, 5) };

		if (to >= 0)
			ret = store_batch_add(m->batch, &x, 0, NULL);
	}
	if (!ret && rc < 0)
		ret = store_sql_fail(m->src, rc, "reading the samples to merge");
	store_finalize(stmt);
	/* before the errors, which the schema checks against their sessions' samples */
	return ret ? ret : store_batch_flush(m->batch);
}

/* The errors of the sessions added, in one query as their samples. */
static int merge_errors(struct merge *m)
{
	struct store_stmt *stmt;
	int ret, rc;

	ret = store_prepare(m->src, &stmt, "SELECT session_id, benchmark_id, iteration, warmup, message, time"
			    " FROM error ORDER BY session_id, id", NULL);
	while (!ret && (rc = store_step(stmt)) == STORE_ROW) {
		int64_t to = map_get(&m->session, store_col_int64(stmt, 0));
		bool whole = store_col_type(stmt, 2) == STORE_COL_NULL;

		if (to < 0)
			continue;
		ret = store_exec(m->dst, "INSERT INTO error (session_id, benchmark_id, iteration, warmup, message,"
				 " time) VALUES (?1, ?2, ?3, ?4, ?5, ?6)", "iinitt", to,
				 map_get(&m->bench, store_col_int64(stmt, 1)),
				 whole ? (int64_t)-1 : store_col_int64(stmt, 2), store_col_int64(stmt, 3),
				 store_col_text(stmt, 4), store_col_text(stmt, 5));
	}
	if (!ret && rc < 0)
		ret = store_sql_fail(m->src, rc, "reading the errors to merge");
	store_finalize(stmt);
	return ret;
}

/* One source session the destination lacks (its samples and errors come after all sessions). */
static int merge_session(struct merge *m, struct store_stmt *s)
{
	int64_t to;
	int ret = store_int64(m->dst, &to, "INSERT INTO session (uuid, boot_id, sut_id, swprofile_id, started,"
			      " ended, complete, environment) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) RETURNING id",
			      "ttiittit", store_col_text(s, 1),
			      store_col_type(s, 2) == STORE_COL_NULL ? NULL : store_col_text(s, 2),
			      map_get(&m->sut, store_col_int64(s, 3)), map_get(&m->swprofile, store_col_int64(s, 4)),
			      store_col_text(s, 5), store_col_type(s, 6) == STORE_COL_NULL ? NULL : store_col_text(s, 6),
			      store_col_int64(s, 7), store_col_text(s, 8));

	return ret ? ret : map_put(&m->session, store_col_int64(s, 0), to);
}

/* The UUIDs of the destination's sessions as the keys of a new JSON object in *@out: one query, not one per session. */
static int dst_uuids(struct merge *m, json_t **out)
{
	struct store_stmt *stmt;
	int ret = store_prepare(m->dst, &stmt, "SELECT uuid FROM session", NULL), rc;

	*out = json_object();
	if (!*out)
		ret = -ENOMEM;
	while (!ret && (rc = store_step(stmt)) == STORE_ROW)
		ret = json_object_set_new(*out, store_col_text(stmt, 0), json_true()) ? -ENOMEM : 0;
	if (!ret && rc < 0)
		ret = store_sql_fail(m->dst, rc, "reading the sessions merged into");
	store_finalize(stmt);
	return ret;
}

/* Every source session whose UUID the destination does not hold, then their samples and errors. */
static int merge_sessions(struct merge *m, int *added)
{
	struct store_stmt *stmt = NULL;
	json_t *have;
	int ret = dst_uuids(m, &have), rc;

	if (!ret)
		ret = store_prepare(m->src, &stmt, "SELECT id, uuid, boot_id, sut_id, swprofile_id, started, ended,"
				    " complete, environment FROM session ORDER BY id", NULL);
	while (!ret && (rc = store_step(stmt)) == STORE_ROW) {
		if (json_object_get(have, store_col_text(stmt, 1)))
			continue;
		ret = merge_session(m, stmt);
		*added += !ret;
	}
	if (!ret && rc < 0)
		ret = store_sql_fail(m->src, rc, "reading the sessions to merge");
	store_finalize(stmt);
	json_decref(have);
	if (!ret && m->session.n)
		ret = merge_samples(m);
	if (!ret && m->session.n)
		ret = merge_errors(m);
	return ret;
}

int store_merge_rows(struct store *dst, struct store *src, int *added)
{
	struct merge m = { .dst = dst, .src = src, .ident = malloc(sizeof(*m.ident)),
			   .batch = store_batch_new(dst, STORE_BATCH_PLAIN, NULL, NULL) };
	int n = 0, ret = m.ident && m.batch ? store_tx_begin(dst) : -ENOMEM;

	if (ret)
		goto out;
	ret = store_merge_check_names(src, "");
	if (!ret)
		ret = merge_named(&m, "sut", &m.sut);
	if (!ret)
		ret = merge_named(&m, "swprofile", &m.swprofile);
	if (!ret)
		ret = merge_benchmarks(&m);
	if (!ret)
		ret = merge_sessions(&m, &n);
	ret = store_tx_end(dst, ret);
	if (!ret && added)
		*added = n;
out:
	free(m.sut.p);
	free(m.swprofile.p);
	free(m.bench.p);
	free(m.rclass.p);
	free(m.session.p);
	free(m.ident);
	store_batch_free(m.batch);
	return ret;
}
