/* bench: benchmark identities in the store: get-or-create by key, their parameters, and merging spellings. */
#include "store/db.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

int store_identity(struct store *st, const char *suite, const char *params, struct bench_identity *out)
{
	if (st->parse)
		return st->parse(suite, params ? params : "", out);
	ident_raw(out, suite, params);
	return 0;
}

/* Write the parameter rows of benchmark @id. */
static int bench_params_put(struct store *st, int64_t id, const struct bench_identity *ident)
{
	int ret = store_exec(st, "DELETE FROM benchmark_param WHERE benchmark_id = ?1", "i", id);

	for (size_t i = 0; !ret && i < ident->nparams; i++) {
		const struct ident_param *p = &ident->params[i];

		ret = store_exec(st, "INSERT INTO benchmark_param (benchmark_id, pos, name, alias, value, shown)"
				 " VALUES (?1, ?2, ?3, ?4, ?5, ?6)", "iitttt", id, (int64_t)i, p->name,
				 p->alias, p->value, p->shown);
	}
	return ret;
}

/*
 * The key @ident gives text @text of @suite: its parsed key, or the whole
 * text when it is raw (never a copy cut to the identity's buffers).
 */
const char *store_bench_key(const struct bench_identity *ident, const char *text)
{
	return ident->nparams ? ident->key : text;
}

/*
 * The id and display (a new string in *@display when not NULL) of the
 * benchmark stored under @suite and @key; -ENOENT when there is none.
 */
static int bench_lookup(struct store *st, const char *suite, const char *key, int64_t *id,
			char **display)
{
	struct store_stmt *stmt;
	int ret = store_prepare(st, &stmt, "SELECT id, params FROM benchmark WHERE suite = ?1 AND key = ?2",
				"tt", suite, key);
	int rc;

	if (ret)
		return ret;
	rc = store_step(stmt);
	if (rc == STORE_ROW) {
		*id = store_col_int64(stmt, 0);
		if (display && !(*display = strdup(store_col_text(stmt, 1))))
			ret = -ENOMEM;
	} else {
		ret = rc == STORE_DONE ? -ENOENT : store_sql_fail(st, rc, "looking up a benchmark");
	}
	store_finalize(stmt);
	return ret;
}

int store_benchmark_text(struct store *st, const char *suite, const char *text,
			 const struct bench_identity *ident, int64_t *id, char **display)
{
	const char *key = store_bench_key(ident, text);
	int ret;

	if (store_name_check(suite, "benchmark suite"))
		return -EINVAL;
	/* parameters may be none ("mem/memset" with every default), and the key is made of them */
	if (*text && store_name_check(text, "benchmark parameters"))
		return -EINVAL;
	if (strlen(key) > STORE_NAME_MAX)
		return store_name_check(key, "benchmark key (every parameter, defaults filled in)");
	/* The export writes "suite params" in one column and splits at the first space. */
	if (strpbrk(suite, " \t\r\n")) {
		log_err("benchmark suite '%s' must not contain whitespace", suite);
		return -EINVAL;
	}
	ret = store_tx_begin(st);
	if (ret)
		return ret;
	ret = bench_lookup(st, suite, key, id, display);
	if (ret == -ENOENT) {
		/*
		 * Where writers do not queue for one lock (a server), another one may
		 * insert it meanwhile: then this inserts nothing and finds theirs.
		 */
		ret = store_has_metric(st)
			      ? store_int64(st, id, "INSERT INTO benchmark (suite, params, key, workload)"
					    " VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING RETURNING id", "tttt",
					    suite, text, key, ident->workload)
			      : store_int64(st, id, "INSERT INTO benchmark (suite, params, key) VALUES (?1, ?2, ?3)"
					    " ON CONFLICT DO NOTHING RETURNING id", "ttt", suite, text, key);
		if (ret == -ENOENT) {
			ret = bench_lookup(st, suite, key, id, display);
		} else if (!ret) {
			ret = bench_params_put(st, *id, ident);
			if (!ret && display && !(*display = strdup(text)))
				ret = -ENOMEM;
		}
	}
	return store_tx_end(st, ret);
}

int store_benchmark_get(struct store *st, const struct bench_identity *ident, int64_t *id,
			char *display, size_t len)
{
	char *stored = NULL;
	int ret = store_benchmark_text(st, ident->suite, ident->display, ident, id, display ? &stored : NULL);

	if (!ret && display)
		snprintf(display, len, "%s", stored);
	free(stored);
	return ret;
}

/*
 * Move the samples of result class @from into @to: in a session that has
 * samples of both, @from's come after @to's (iterations shifted past them),
 * so none is lost and none collides.
 */
static int bench_move_samples(struct store *st, int64_t from, int64_t to)
{
	int ret = store_exec(st, "CREATE TEMP TABLE shift AS SELECT session_id, warmup,"
			     " max(iteration) + 1 AS off FROM sample WHERE resultclass_id = ?1"
			     " GROUP BY session_id, warmup", "i", to);

	if (!ret)
		ret = store_exec(st, "UPDATE sample SET resultclass_id = ?2, iteration = iteration +"
				 " coalesce((SELECT off FROM temp.shift t WHERE t.session_id = sample.session_id"
				 " AND t.warmup = sample.warmup), 0) WHERE resultclass_id = ?1", "ii", from, to);
	if (!ret)
		ret = store_exec(st, "DROP TABLE temp.shift", NULL);
	if (!ret)
		ret = store_exec(st, "DELETE FROM resultclass WHERE id = ?1", "i", from);
	return ret;
}

/* One result class, as read before it is moved. */
struct bench_rc {
	int64_t id;
	char name[1200];
	char unit[64];
	int higher;
};

/*
 * Read every row of @sql (bound to @arg when @fmt is "i") into a new array
 * *@out of *@n elements of @size bytes, each filled by @fill.  0 or a store
 * error (then *@out may hold what was read: free it).
 */
static int bench_read(struct store *st, const char *sql, const char *fmt, int64_t arg, size_t size,
		      void (*fill)(struct store_stmt *stmt, void *row), void **out, size_t *n)
{
	struct store_stmt *stmt;
	int ret = store_prepare(st, &stmt, sql, fmt, arg);
	int rc;

	*out = NULL;
	*n = 0;
	if (ret)
		return ret;
	while ((rc = store_step(stmt)) == STORE_ROW) {
		char *p = realloc(*out, (*n + 1) * size);

		if (!p) {
			ret = -ENOMEM;
			break;
		}
		*out = p;
		fill(stmt, p + (*n)++ * size);
	}
	if (!ret && rc < 0)
		ret = store_sql_fail(st, rc, "reading benchmarks");
	store_finalize(stmt);
	return ret;
}

static void bench_rc_fill(struct store_stmt *stmt, void *row)
{
	struct bench_rc *p = row;

	p->id = store_col_int64(stmt, 0);
	snprintf(p->name, sizeof(p->name), "%s", store_col_text(stmt, 1));
	snprintf(p->unit, sizeof(p->unit), "%s", store_col_text(stmt, 2));
	p->higher = store_col_int(stmt, 3);
}

/* The result classes of benchmark @bench into a new array *@out of *@n. */
static int bench_rcs(struct store *st, int64_t bench, struct bench_rc **out, size_t *n)
{
	return bench_read(st, "SELECT id, name, unit, higher_is_better FROM resultclass"
			  " WHERE benchmark_id = ?1 ORDER BY id", "i", bench, sizeof(**out), bench_rc_fill,
			  (void **)out, n);
}

/*
 * Give benchmark @from's result classes to @to (renamed from display @dfrom
 * to @dto), merging classes both have; @from must have been dropped from
 * the key index first.  Errors follow.
 */
static int bench_reparent(struct store *st, const char *suite, int64_t from, const char *dfrom,
			  int64_t to, const char *dto)
{
	struct bench_rc *rcs;
	size_t n;
	char name[2048];
	int ret = bench_rcs(st, from, &rcs, &n);

	for (size_t i = 0; !ret && i < n; i++) {
		int64_t other;

		ident_class_rebase(suite, dfrom, dto, rcs[i].name, name, sizeof(name));
		ret = store_int64(st, &other, "SELECT id FROM resultclass WHERE benchmark_id = ?1 AND name = ?2"
				  " AND unit = ?3 AND higher_is_better = ?4", "ittb", to, name, rcs[i].unit,
				  rcs[i].higher);
		if (!ret)
			ret = other == rcs[i].id ? 0 : bench_move_samples(st, rcs[i].id, other);
		else if (ret == -ENOENT)
			ret = store_exec(st, "UPDATE resultclass SET benchmark_id = ?2, name = ?3 WHERE id = ?1",
					 "iit", rcs[i].id, to, name);
	}
	free(rcs);
	if (!ret && from != to)
		ret = store_exec(st, "UPDATE error SET benchmark_id = ?2 WHERE benchmark_id = ?1", "ii", from, to);
	if (!ret && from != to)
		ret = store_exec(st, "DELETE FROM benchmark WHERE id = ?1", "i", from);
	return ret;
}

/* Whether benchmark @id has no result class (only error rows name it); a store error counts as no. */
static bool bench_named_by_errors_only(struct store *st, int64_t id)
{
	int64_t classes = 1;

	store_int64(st, &classes, "SELECT count(*) FROM resultclass WHERE benchmark_id = ?1", "i", id);
	return classes == 0;
}

static void bench_row_fill(struct store_stmt *stmt, void *row)
{
	struct store_bench_row *p = row;

	p->id = store_col_int64(stmt, 0);
	p->suite = strdup(store_col_text(stmt, 1));
	p->params = strdup(store_col_text(stmt, 2));
}

/* Free @n rows of @b; 0, or -ENOMEM when one of them could not be read whole. */
static int bench_rows_free(struct store_bench_row *b, size_t n)
{
	int ret = 0;

	for (size_t i = 0; i < n; i++) {
		ret = b[i].suite && b[i].params ? ret : -ENOMEM;
		free(b[i].suite);
		free(b[i].params);
	}
	free(b);
	return ret;
}

/* Whether all @n rows of @b were read whole.  0 or -ENOMEM. */
static int bench_rows_ok(const struct store_bench_row *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!b[i].suite || !b[i].params)
			return -ENOMEM;
	return 0;
}

int store_bench_each(struct store *st, const char *sql, struct bench_identity *id,
		     int (*fn)(struct store *st, const struct store_bench_row *b,
			       const struct bench_identity *id))
{
	struct store_bench_row *b = NULL;
	size_t n = 0;
	int ret = id ? bench_read(st, sql, NULL, 0, sizeof(*b), bench_row_fill, (void **)&b, &n) : -ENOMEM;

	if (!ret)
		ret = bench_rows_ok(b, n);
	for (size_t i = 0; !ret && i < n; i++) {
		ret = store_identity(st, b[i].suite, b[i].params, id);
		if (!ret)
			ret = fn(st, &b[i], id);
	}
	bench_rows_free(b, n);
	return ret;
}

/* store_bench_each(): store @id's parameters for row @b. */
static int bench_each_params(struct store *st, const struct store_bench_row *b, const struct bench_identity *id)
{
	return bench_params_put(st, b->id, id);
}

/*
 * store_bench_each(): a benchmark only error rows named (their raw words) is shown
 * by no table: give it the canonical display, then store its parameters.
 */
static int bench_each_final(struct store *st, const struct store_bench_row *b, const struct bench_identity *id)
{
	int ret = 0;

	if (id->nparams && bench_named_by_errors_only(st, b->id))
		ret = store_exec(st, "UPDATE benchmark SET params = ?2 WHERE id = ?1", "it", b->id, id->display);
	return ret ?: bench_params_put(st, b->id, id);
}

/*
 * store_bench_each(): key benchmark @b, or merge it into the first benchmark of
 * its key (or that one into @b, when only error rows named the first).
 */
static int bench_each_key(struct store *st, const struct store_bench_row *b, const struct bench_identity *id)
{
	const char *key = store_bench_key(id, b->params);
	char *display = NULL;
	int64_t first;
	int ret = bench_lookup(st, b->suite, key, &first, &display);

	if (!ret && bench_named_by_errors_only(st, first) && !bench_named_by_errors_only(st, b->id)) {
		/* the spelling tables show wins over the raw words of an error row */
		ret = bench_reparent(st, b->suite, first, display, b->id, b->params);
		ret = ret ? ret : -ENOENT;
	} else if (!ret) {
		ret = bench_reparent(st, b->suite, b->id, b->params, first, display);
	}
	if (ret == -ENOENT)
		ret = store_exec(st, "UPDATE benchmark SET key = ?2 WHERE id = ?1", "it", b->id, key);
	free(display);
	return ret;
}

/*
 * Schema v3's data step: key every benchmark by its parsed identity, merge
 * the ones two spellings made into the first (every sample kept, result
 * classes renamed after the first's display), and store the parameters.
 * Displays users have seen in tables stay; a benchmark only error rows name
 * (stored with their raw words) gets the canonical display.
 */
int store_migrate_identity(struct store *st)
{
	static const char all[] = "SELECT id, suite, params FROM benchmark ORDER BY id";
	struct bench_identity *id = malloc(sizeof(*id));
	int ret = store_bench_each(st, all, id, bench_each_key);

	if (!ret)
		ret = store_bench_each(st, all, id, bench_each_final);
	/* One benchmark per key from now on. */
	if (!ret)
		ret = store_exec(st, "CREATE UNIQUE INDEX benchmark_by_key ON benchmark(suite, key)", NULL);
	free(id);
	return ret;
}

int store_bench_fill_params(struct store *st)
{
	struct bench_identity *id = malloc(sizeof(*id));
	int ret = store_bench_each(st, "SELECT id, suite, params FROM benchmark b WHERE NOT EXISTS"
			     " (SELECT 1 FROM benchmark_param p WHERE p.benchmark_id = b.id) ORDER BY id",
			     id, bench_each_params);

	free(id);
	return ret;
}

int store_has_identity(struct store *st)
{
	return st->be->has_table(st, "benchmark_param");
}

/* store_bench_each(): benchmark @b's workload, as its parameters say. */
static int bench_each_workload(struct store *st, const struct store_bench_row *b, const struct bench_identity *id)
{
	return store_exec(st, "UPDATE benchmark SET workload = ?2 WHERE id = ?1", "it", b->id, id->workload);
}

/* One result class with the text its metric is read from. */
struct bench_rc_text {
	int64_t id;
	char *suite, *display, *name;	/* NULL when out of memory */
};

static void bench_rc_text_fill(struct store_stmt *stmt, void *row)
{
	struct bench_rc_text *p = row;

	p->id = store_col_int64(stmt, 0);
	p->suite = strdup(store_col_text(stmt, 1));
	p->display = strdup(store_col_text(stmt, 2));
	p->name = strdup(store_col_text(stmt, 3));
}

/*
 * Schema v8's data step: every benchmark's workload from its parsed
 * identity, every result class's metric from its name, as the name was
 * given (ident_class_metric()); nothing else changes, no sample moves.
 */
int store_migrate_metric(struct store *st)
{
	struct bench_identity *id = malloc(sizeof(*id));
	struct bench_rc_text *rc = NULL;
	size_t n = 0;
	int ret = store_bench_each(st, "SELECT id, suite, params FROM benchmark ORDER BY id", id, bench_each_workload);

	free(id);
	if (!ret)
		ret = bench_read(st, "SELECT r.id, b.suite, b.params, r.name FROM resultclass r"
				 " JOIN benchmark b ON b.id = r.benchmark_id ORDER BY r.id", NULL, 0, sizeof(*rc),
				 bench_rc_text_fill, (void **)&rc, &n);
	for (size_t i = 0; !ret && i < n; i++)
		ret = rc[i].suite && rc[i].display && rc[i].name
			      ? store_exec(st, "UPDATE resultclass SET metric = ?2 WHERE id = ?1", "it", rc[i].id,
					   ident_class_metric(rc[i].suite, rc[i].display, rc[i].name))
			      : -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		free(rc[i].suite);
		free(rc[i].display);
		free(rc[i].name);
	}
	free(rc);
	return ret;
}
