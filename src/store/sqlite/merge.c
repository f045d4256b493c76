/* sqlite/merge: merging one SQLite store into another in SQL, over the source ATTACHed beside it. */
#include "store/sqlite/sqlite.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/log.h"

/* SQL cp_rebase(suite, from, to, name): ident_class_rebase() for merge statements. */
static void sql_rebase(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *a[4];
	char out[2048];

	(void)argc;
	for (int i = 0; i < 4; i++)
		a[i] = (const char *)sqlite3_value_text(argv[i]);
	if (!a[0] || !a[1] || !a[2] || !a[3]) {
		sqlite3_result_null(ctx);
		return;
	}
	ident_class_rebase(a[0], a[1], a[2], a[3], out, sizeof(out));
	sqlite3_result_text(ctx, out, -1, SQLITE_TRANSIENT);
}

/* SQL cp_metric(suite, display, name): ident_class_metric(), for a source older than metrics. */
static void sql_metric(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *a[3], *m;

	(void)argc;
	for (int i = 0; i < 3; i++)
		a[i] = (const char *)sqlite3_value_text(argv[i]);
	m = a[0] && a[1] && a[2] ? ident_class_metric(a[0], a[1], a[2]) : NULL;
	if (m)
		sqlite3_result_text(ctx, m, -1, SQLITE_TRANSIENT);
	else
		sqlite3_result_null(ctx);
}

int store_sqlite_functions(sqlite3 *db)
{
	int rc = sqlite3_create_function(db, "cp_rebase", 4, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
					 sql_rebase, NULL, NULL);

	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "cp_metric", 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
					     sql_metric, NULL, NULL);
	return rc;
}

/*
 * Merge statements, in dependency order, over "src" attached beside "main".
 * temp.merge_new holds the UUIDs of the sessions main lacks; only those and
 * their samples and errors are copied, so nothing is duplicated.
 */
static const char *const merge_sql[] = {
	"CREATE TEMP TABLE merge_new (uuid TEXT PRIMARY KEY)",
	"INSERT INTO temp.merge_new SELECT uuid FROM src.session"
	" WHERE uuid NOT IN (SELECT uuid FROM main.session)",
	/* an existing fingerprint stays, but an empty one (an import of samples made it) is filled in */
	"INSERT INTO main.sut (name, fingerprint) SELECT name, fingerprint FROM src.sut WHERE true"
	" ON CONFLICT (name) DO UPDATE SET fingerprint = excluded.fingerprint WHERE sut.fingerprint = '{}'",
	"INSERT INTO main.swprofile (name, fingerprint) SELECT name, fingerprint FROM src.swprofile"
	" WHERE true ON CONFLICT (name) DO UPDATE SET fingerprint = excluded.fingerprint"
	" WHERE swprofile.fingerprint = '{}'",
	/* Benchmarks by key (temp.src_bench): another spelling main holds already is the same one. */
	"INSERT INTO main.benchmark (suite, params, key, workload) SELECT suite, params, key, workload"
	" FROM temp.src_bench WHERE true ON CONFLICT DO NOTHING",
	/*
	 * ... and its result classes are named after main's spelling, with
	 * their metric (temp.src_rc: the source's, or what its names say)
	 */
	"INSERT INTO main.resultclass (benchmark_id, name, unit, higher_is_better, metric)"
	" SELECT mb.id, cp_rebase(b.suite, b.params, mb.params, r.name), r.unit, r.higher_is_better, r.metric"
	" FROM temp.src_rc r JOIN temp.src_bench b ON b.id = r.benchmark_id"
	" JOIN main.benchmark mb ON mb.suite = b.suite AND mb.key = b.key"
	" WHERE true ON CONFLICT DO NOTHING",
	"INSERT INTO main.session (uuid, boot_id, sut_id, swprofile_id, started, ended, complete,"
	" environment) SELECT s.uuid, s.boot_id, mu.id, mp.id, s.started, s.ended, s.complete,"
	" s.environment FROM src.session s JOIN temp.merge_new n ON n.uuid = s.uuid"
	" JOIN src.sut u ON u.id = s.sut_id JOIN main.sut mu ON mu.name = u.name"
	" JOIN src.swprofile p ON p.id = s.swprofile_id JOIN main.swprofile mp ON mp.name = p.name",
	"INSERT INTO main.sample (session_id, resultclass_id, iteration, warmup, value, time)"
	" SELECT ms.id, mr.id, x.iteration, x.warmup, x.value, x.time FROM src.sample x"
	" JOIN src.session s ON s.id = x.session_id JOIN temp.merge_new n ON n.uuid = s.uuid"
	" JOIN main.session ms ON ms.uuid = s.uuid"
	" JOIN src.resultclass r ON r.id = x.resultclass_id JOIN temp.src_bench b ON b.id = r.benchmark_id"
	" JOIN main.benchmark mb ON mb.suite = b.suite AND mb.key = b.key"
	" JOIN main.resultclass mr ON mr.benchmark_id = mb.id"
	"  AND mr.name = cp_rebase(b.suite, b.params, mb.params, r.name) AND mr.unit = r.unit"
	"  AND mr.higher_is_better = r.higher_is_better",
	"INSERT INTO main.error (session_id, benchmark_id, iteration, warmup, message, time)"
	" SELECT ms.id, mb.id, e.iteration, e.warmup, e.message, e.time FROM src.error e"
	" JOIN src.session s ON s.id = e.session_id JOIN temp.merge_new n ON n.uuid = s.uuid"
	" JOIN main.session ms ON ms.uuid = s.uuid JOIN temp.src_bench b ON b.id = e.benchmark_id"
	" JOIN main.benchmark mb ON mb.suite = b.suite AND mb.key = b.key",
};

/* store_bench_each(): the source's benchmark @b with its key and workload, into temp.src_bench. */
static int src_key(struct store *st, const struct store_bench_row *b, const struct bench_identity *id)
{
	const char *key = store_bench_key(id, b->params);

	if (strlen(key) > STORE_NAME_MAX)
		return store_name_check(key, "benchmark key (every parameter, defaults filled in) to merge");
	return store_exec(st, "INSERT INTO temp.src_bench (id, suite, params, key, workload)"
			  " VALUES (?1, ?2, ?3, ?4, ?5)", "itttt", b->id, b->suite, b->params, key, id->workload);
}

/*
 * temp.src_bench: every benchmark of the attached "src" with its key and
 * workload, computed here because a source opened read-only may predate
 * them; temp.src_rc: its result classes with their metric, the stored one
 * or, for a source older than metrics (@metric false), what its names say.
 */
static int src_keys(struct store *st, bool metric)
{
	struct bench_identity *id = malloc(sizeof(*id));
	int ret = id ? store_exec(st, "CREATE TEMP TABLE src_bench (id INTEGER PRIMARY KEY, suite TEXT NOT NULL,"
				  " params TEXT NOT NULL, key TEXT NOT NULL, workload TEXT NOT NULL)", NULL) : -ENOMEM;

	if (!ret)
		ret = store_bench_each(st, "SELECT id, suite, params FROM src.benchmark ORDER BY id", id, src_key);
	if (!ret)
		ret = store_exec(st, metric ? "CREATE TEMP TABLE src_rc AS SELECT id, benchmark_id, name, unit,"
				 " higher_is_better, metric FROM src.resultclass"
				 : "CREATE TEMP TABLE src_rc AS SELECT r.id, r.benchmark_id, r.name, r.unit,"
				 " r.higher_is_better, cp_metric(b.suite, b.params, r.name) AS metric"
				 " FROM src.resultclass r JOIN src.benchmark b ON b.id = r.benchmark_id", NULL);
	free(id);
	return ret;
}

/*
 * The rule of run for what "src" says of its swprofiles (as merge.c's
 * merge_profiles()): the same kernel under each name, and each (swprofile,
 * SUT) fingerprint the one main holds, or recorded.  After the names went in.
 */
static int src_profiles(struct store *dst)
{
	struct store_stmt *stmt;
	char where[STORE_NAME_MAX + 64];
	int64_t pairs = 0;
	int ret = store_prepare(dst, &stmt, "SELECT p.name, m.fingerprint, p.fingerprint FROM src.swprofile p"
				" JOIN main.swprofile m ON m.name = p.name ORDER BY p.name", NULL), rc;

	while (!ret && (rc = store_step(stmt)) == STORE_ROW)
		ret = store_swprofile_agree(store_col_text(stmt, 0), store_col_text(stmt, 1), store_col_text(stmt, 2));
	if (!ret && rc < 0)
		ret = store_sql_fail(dst, rc, "reading the swprofiles to merge");
	store_finalize(stmt);
	if (!ret)
		ret = store_int64(dst, &pairs, "SELECT count(*) FROM src.sqlite_schema WHERE name = 'swprofile_sut'", NULL);
	if (ret || !pairs)
		return ret;
	ret = store_prepare(dst, &stmt, "SELECT mp.id, mu.id, x.fingerprint, p.name, u.name FROM src.swprofile_sut x"
			    " JOIN src.swprofile p ON p.id = x.swprofile_id JOIN src.sut u ON u.id = x.sut_id"
			    " JOIN main.swprofile mp ON mp.name = p.name JOIN main.sut mu ON mu.name = u.name"
			    " ORDER BY p.name, u.name", NULL);
	while (!ret && (rc = store_step(stmt)) == STORE_ROW) {
		snprintf(where, sizeof(where), " on SUT class '%s' (as the source has it)", store_col_text(stmt, 4));
		ret = store_swprofile_sut(dst, store_col_int64(stmt, 0), store_col_int64(stmt, 1), store_col_text(stmt, 2),
					  0, store_col_text(stmt, 3), where);
	}
	if (!ret && rc < 0)
		ret = store_sql_fail(dst, rc, "reading the swprofiles to merge");
	store_finalize(stmt);
	return ret;
}

/* @src, also attached as "src", merged into @dst in one transaction. */
static int merge_attached(struct store *dst, struct store *src, struct store_merged *out)
{
	bool metric = store_has_metric(src);
	int64_t n = 0;
	int seq = 0;
	int ret = store_tx_begin(dst);

	if (ret)
		return ret;
	ret = store_merge_check_names(dst, "src.");
	if (!ret)
		ret = src_keys(dst, metric);
	for (size_t i = 0; !ret && i < sizeof(merge_sql) / sizeof(merge_sql[0]); i++)
		ret = store_exec(dst, merge_sql[i], NULL);
	if (!ret)
		ret = src_profiles(dst);
	if (!ret)
		ret = store_bench_fill_params(dst);
	if (!ret)
		ret = store_int64(dst, &n, "SELECT count(*) FROM temp.merge_new", NULL);
	if (!ret)
		ret = store_exec(dst, "DROP TABLE temp.merge_new", NULL);
	if (!ret)
		ret = store_exec(dst, "DROP TABLE temp.src_bench", NULL);
	if (!ret)
		ret = store_exec(dst, "DROP TABLE temp.src_rc", NULL);
	/* the looks of its sequential runs, as every backend's merge takes them */
	if (!ret)
		ret = store_sequential_copy(dst, src, &seq);
	ret = store_tx_end(dst, ret);
	if (!ret && out)
		*out = (struct store_merged){ .added = (int)n, .sequential = seq };
	return ret;
}

int store_sqlite_merge(struct store *dst, const char *src_url, struct store_merged *out)
{
	struct store *src;
	int64_t both = 0;
	int ret;

	if (!store_backend_sqlite.claims(src_url))
		return -ENOTSUP;
	/*
	 * Opening it first refuses what is not a clearpath store; read-only, so a
	 * source that is another user's or on a read-only mount can be merged,
	 * and it is attached the same way.
	 */
	ret = store_open_readonly(src_url, dst->parse, &src);
	if (ret)
		return ret;
	ret = store_exec(dst, "ATTACH DATABASE ?1 AS src", "t", (const char *)src->priv);
	if (ret) {
		store_close(src);
		return ret;
	}
	/* sessions both hold are judged row by row, as every other backend's are (merge_sessions.c) */
	ret = store_int64(dst, &both, "SELECT count(*) FROM src.session WHERE uuid IN (SELECT uuid FROM main.session)",
			  NULL);
	if (!ret)
		ret = both ? -ENOTSUP : merge_attached(dst, src, out);
	store_exec(dst, "DETACH DATABASE src", NULL);
	store_close(src);
	return ret;
}
