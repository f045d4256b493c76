/* db: SQLite plumbing shared by the store's files (not part of the store's public API). */
#ifndef CLEARPATH_STORE_DB_H
#define CLEARPATH_STORE_DB_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include <sqlite3.h>

#include "store/store.h"

struct store {
	sqlite3 *db;
	char *path;
	char *uri;		/* how SQLite was asked to open it: "file:PATH" plus read-only options */
	int tx_depth;		/* store_tx_begin() nesting: only the outermost BEGIN/COMMIT runs */
	int tx_failed;		/* an inner level rolled back: the outermost must too */
};

/* A new string with the file path inside @url, or NULL (logged) for a scheme other than sqlite. */
char *store_url_path(const char *url);

/*
 * Log "store PATH: WHAT: sqlite message" (plus a hint for disk full and
 * corruption) and return the negative errno matching SQLite's @rc.
 */
int store_sql_fail(struct store *st, int rc, const char *what);

/* The negative errno for SQLite result code @rc (0 for SQLITE_OK/ROW/DONE). */
int store_sql_errno(int rc);

/*
 * Prepare @sql and bind one argument per character of @fmt: 't' text (NULL
 * binds NULL), 'i' int64_t, 'n' int64_t (negative binds NULL), 'b' int (as 0/1), 'd' double.  Returns 0 or a
 * logged store error; *@out is NULL on failure.
 */
int store_prepare(struct store *st, sqlite3_stmt **out, const char *sql, const char *fmt, ...);
int store_vprepare(struct store *st, sqlite3_stmt **out, const char *sql, const char *fmt,
		   va_list ap);

/* Prepare, bind and run @sql to completion, ignoring rows.  Returns 0 or a logged store error. */
int store_exec(struct store *st, const char *sql, const char *fmt, ...);

/*
 * Prepare, bind and run @sql, storing column 0 of its first row in *@out.
 * Returns 0, -ENOENT (not logged) when there is no row, or a logged store error.
 */
int store_int64(struct store *st, int64_t *out, const char *sql, const char *fmt, ...);

/*
 * Begin a write transaction (BEGIN IMMEDIATE, so the write lock is taken up
 * front and a concurrent writer waits on the busy timeout instead of failing
 * halfway), or join the one already open.  store_tx_end(st, ret) commits when
 * @ret is 0 and rolls back otherwise; it returns @ret or the commit error.
 */
int store_tx_begin(struct store *st);
int store_tx_end(struct store *st, int ret);

/*
 * Insert-if-missing then look up, inside one BEGIN IMMEDIATE transaction, so
 * two processes creating the same object both end up with the one row.
 * @insert and @select bind the same arguments described by @fmt; *@id is
 * column 0 of @select's row.  Returns 0 or a logged store error.
 */
int store_get_or_create(struct store *st, int64_t *id, const char *insert, const char *select,
			const char *fmt, ...);

/* Write the current UTC time as "YYYY-MM-DDTHH:MM:SS.ffffffZ" into @buf. */
void store_now(char buf[STORE_TIME_LEN + 1]);

/*
 * json_string(@s), or for a string that is not valid UTF-8 (a row written
 * before names were checked) the same with each bad byte as U+FFFD, so a
 * listing or export still works.  NULL only when memory runs out.
 */
json_t *store_json_text(const char *s);

/* Whether @s is a canonical lower- or upper-case 8-4-4-4-12 hex UUID. */
int store_uuid_valid(const char *s);

/*
 * Canonicalise the JSON object text @in (NULL means "{}") into a new string
 * with sorted keys, compact.  Returns NULL (logged, for @what) when @in is not
 * a JSON object or memory runs out.
 */
char *store_json_canonical(const char *in, const char *what);

/* The identity of stored benchmark text (the parser handed in, else ident_raw()).  0 or -E2BIG. */
int store_identity(const char *suite, const char *params, struct bench_identity *out);

/*
 * Result class @name of a benchmark of @suite displayed as @from, renamed for
 * display @to ("memset -s 1MB -f x :cycles" -> "memset -f x -s 1MB :cycles"),
 * into @out; a name that does not start with the suite's workload and @from
 * (an exec's) is copied as is.
 */
void store_rebase_name(const char *suite, const char *from, const char *to, const char *name,
		       char *out, size_t len);

/*
 * store_benchmark_get() for a benchmark known as text: @suite and @text
 * (its display) whole, whatever their length, @ident what they parse to
 * (raw: the key is @text).  *@display (may be NULL) gets a new string: the
 * display stored.  0 or a store error.
 */
int store_benchmark_text(struct store *st, const char *suite, const char *text,
			 const struct bench_identity *ident, int64_t *id, char **display);

/* Register cp_rebase(suite, from, to, name) on @st's connection.  0 or a store error. */
int store_bench_sql_functions(struct store *st);

/*
 * Merging: temp.src_bench holds every benchmark of the attached "src" with
 * its key, computed here because a source opened read-only may predate keys;
 * store_bench_fill_params() writes the parameters of the benchmarks that
 * have none yet.  0 or a store error.
 */
int store_bench_src_keys(struct store *st);
int store_bench_fill_params(struct store *st);

/* Whether @st's schema has benchmark keys and parameters (a store read without migrating may not). */
bool store_has_identity(struct store *st);

/* Schema v3's data step (see bench.c).  0 or a store error. */
int store_migrate_identity(struct store *st);

#endif
