/* merge: copying the sessions one store lacks from another, row by row, between any two backends. */
#include "store/merge.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

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

/* Whether the destination's swprofile of source id @src_id (source fingerprint @theirs) is the same kernel. */
static int merge_swprofile_agrees(struct merge *m, int64_t src_id, const char *name, const char *theirs)
{
	struct store_stmt *stmt;
	int ret = store_prepare(m->dst, &stmt, "SELECT fingerprint FROM swprofile WHERE id = ?1", "i",
				map_get(&m->swprofile, src_id));
	int rc = ret ? 0 : store_step(stmt);

	if (!ret && rc == STORE_ROW)
		ret = store_swprofile_agree(name, store_col_text(stmt, 0), theirs);
	else if (!ret)
		ret = rc < 0 ? store_sql_fail(m->dst, rc, "reading a swprofile") : -EIO;
	store_finalize(stmt);
	return ret;
}

/*
 * The rule of run for what the source says of its swprofiles: each the same
 * kernel, and each (swprofile, SUT) fingerprint the one the destination
 * holds for that pair, or recorded when it holds none.  A source older than
 * those pairs has none to say.
 */
static int merge_profiles(struct merge *m)
{
	struct store_stmt *stmt;
	char where[STORE_NAME_MAX + 64];
	int ret = store_prepare(m->src, &stmt, "SELECT id, name, fingerprint FROM swprofile ORDER BY id", NULL), rc;

	while (!ret && (rc = store_step(stmt)) == STORE_ROW)
		ret = merge_swprofile_agrees(m, store_col_int64(stmt, 0), store_col_text(stmt, 1), store_col_text(stmt, 2));
	if (!ret && rc < 0)
		ret = store_sql_fail(m->src, rc, "reading the store to merge");
	store_finalize(stmt);
	stmt = NULL;
	if (!ret && (rc = m->src->be->has_table(m->src, "swprofile_sut")) <= 0)
		return rc;
	if (ret)
		return ret;
	ret = store_prepare(m->src, &stmt, "SELECT x.swprofile_id, x.sut_id, x.fingerprint, p.name, u.name"
			    " FROM swprofile_sut x JOIN swprofile p ON p.id = x.swprofile_id JOIN sut u ON u.id = x.sut_id"
			    " ORDER BY x.swprofile_id, x.sut_id", NULL);
	while (!ret && (rc = store_step(stmt)) == STORE_ROW) {
		snprintf(where, sizeof(where), " on SUT class '%s' (as the source has it)", store_col_text(stmt, 4));
		ret = store_swprofile_sut(m->dst, map_get(&m->swprofile, store_col_int64(stmt, 0)),
					  map_get(&m->sut, store_col_int64(stmt, 1)), store_col_text(stmt, 2), 0,
					  store_col_text(stmt, 3), where);
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
		ret = b[n - 1].suite && b[n - 1].from ? store_identity(m->dst, b[n - 1].suite, b[n - 1].from, m->ident)
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
	/* a source of an older schema has no metric: its names say it (as they would migrating) */
	if (!ret)
		ret = store_prepare(m->src, &stmt, store_has_metric(m->src)
				    ? "SELECT id, benchmark_id, name, unit, higher_is_better, metric FROM resultclass"
				      " ORDER BY id"
				    : "SELECT id, benchmark_id, name, unit, higher_is_better FROM resultclass ORDER BY id",
				    NULL);
	while (!ret && (rc = store_step(stmt)) == STORE_ROW) {
		int64_t bench = store_col_int64(stmt, 1), id;
		const struct bench_names *nb = NULL;
		const char *metric;
		char name[2048];

		for (size_t i = 0; i < n && !nb; i++)
			nb = b[i].id == bench ? &b[i] : NULL;
		if (!nb) {
			log_err("store %s: result class %lld names no benchmark", m->src->path,
				(long long)store_col_int64(stmt, 0));
			ret = -EIO;
			break;
		}
		ident_class_rebase(nb->suite, nb->from, nb->to, store_col_text(stmt, 2), name, sizeof(name));
		if (store_col_count(stmt) > 5)
			metric = store_col_type(stmt, 5) == STORE_COL_NULL ? NULL : store_col_text(stmt, 5);
		else
			metric = ident_class_metric(nb->suite, nb->from, store_col_text(stmt, 2));
		ret = store_resultclass_get(m->dst, map_get(&m->bench, bench), name, metric, store_col_text(stmt, 3),
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

int store_merge_rows(struct store *dst, struct store *src, struct store_merged *out)
{
	struct merge m = { .dst = dst, .src = src, .ident = malloc(sizeof(*m.ident)) };
	int ret = m.ident ? store_tx_begin(dst) : -ENOMEM;

	if (ret)
		goto out;
	ret = store_merge_check_names(src, "");
	if (!ret)
		ret = merge_named(&m, "sut", &m.sut);
	if (!ret)
		ret = merge_named(&m, "swprofile", &m.swprofile);
	if (!ret)
		ret = merge_profiles(&m);
	if (!ret)
		ret = merge_benchmarks(&m);
	if (!ret)
		ret = store_merge_sessions(&m);
	if (!ret)
		ret = store_sequential_copy(dst, src, &m.done.sequential);
	ret = store_tx_end(dst, ret);
	if (!ret && out)
		*out = m.done;
out:
	free(m.sut.p);
	free(m.swprofile.p);
	free(m.bench.p);
	free(m.rclass.p);
	free(m.ident);
	return ret;
}
