/* db: the backend-neutral plumbing shared by the store's files (not part of the store's public API). */
#ifndef CLEARPATH_STORE_DB_H
#define CLEARPATH_STORE_DB_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "store/backend.h"
#include "store/store.h"

struct store {
	const struct store_backend *be;
	void *conn;		/* the backend's connection (sqlite3 *, PGconn *) */
	void *priv;		/* the backend's other state */
	char *path;		/* what messages call the store: a file path, a URL without password */
	ident_parse_fn parse;	/* stored text -> identity (store_open()'s); NULL: raw */
	int64_t version;	/* the schema version it holds (read-only: maybe older than this build's) */
	int tx_depth;		/* store_tx_begin() nesting: only the outermost BEGIN/COMMIT runs */
	int tx_failed;		/* an inner level rolled back: the outermost must too */
	bool replaying;		/* reconnected: writing again what may have been committed */
	/*
	 * Set by the backend's open() when it made the store's file itself,
	 * cleared once it holds a schema: an opening that fails before then
	 * removes it (store_open()).  made_dir: it made the store's directory
	 * too, which goes with the file, then or at a store_discard().
	 */
	bool creating, made_dir;
	char errmsg[512];	/* what the engine said about the last failure */
	const char *errhint;	/* a hint for it, or NULL */
};

/* The backend for @url: NULL (logged, with what to do) when none claims it or it was left out of this build. */
const struct store_backend *store_backend_for(const char *url);

/* Whether @url names a PostgreSQL store (a postgres[ql]:// URL or libpq's keyword form). */
bool store_url_is_postgresql(const char *url);

/* A new string with the file path inside @url, or NULL (logged) for a scheme other than sqlite. */
char *store_url_path(const char *url);

/*
 * Refuse a store that has clearpath's mark but @tables tables and schema
 * version 0, which no clearpath writes (the version is stamped in the
 * transaction that creates them): migrating would fail halfway, reading
 * would call it empty.  Logs what to do; -EINVAL.
 */
int store_refuse_unversioned(struct store *st, int64_t tables);

/* Remember the engine's message (printf-style) and a hint (may be NULL) for the last failure. */
void store_set_error(struct store *st, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Log "store PATH: WHAT: engine message" (plus the backend's hint, e.g. for
 * a full disk or corruption) and return @err, the negative errno the
 * backend gave.
 */
int store_sql_fail(struct store *st, int err, const char *what);

/*
 * Prepare @sql (the portable subset, see backend.h) and bind one argument per
 * character of @fmt: 't' text (NULL binds NULL), 'i' int64_t, 'n' int64_t
 * (negative binds NULL), 'b' int (as 0/1), 'd' double.  Returns 0 or a
 * logged store error; *@out is NULL on failure.
 */
int store_prepare(struct store *st, struct store_stmt **out, const char *sql, const char *fmt, ...);
int store_vprepare(struct store *st, struct store_stmt **out, const char *sql, const char *fmt,
		   va_list ap);

/* Reset @s and bind new arguments as store_prepare() does.  0 or a logged store error. */
int store_rebind(struct store_stmt *s, const char *fmt, ...);

/* Reset @s and bind the @n arguments @arg (as many as a multi-row insert needs).  0 or a logged store error. */
int store_bind_array(struct store_stmt *s, const struct store_arg *arg, int n);

/* STORE_ROW, STORE_DONE, or a negative errno (not logged: store_sql_fail() says what failed). */
int store_step(struct store_stmt *s);
void store_reset(struct store_stmt *s);
/* NULL is fine. */
void store_finalize(struct store_stmt *s);
int store_col_count(struct store_stmt *s);
const char *store_col_name(struct store_stmt *s, int i);
enum store_coltype store_col_type(struct store_stmt *s, int i);
/* Column @i as text: "" for NULL. */
const char *store_col_text(struct store_stmt *s, int i);
int64_t store_col_int64(struct store_stmt *s, int i);
int store_col_int(struct store_stmt *s, int i);
double store_col_double(struct store_stmt *s, int i);
/* Rows @s's last step changed (an INSERT, UPDATE or DELETE; read it before a reset). */
int64_t store_changes(struct store_stmt *s);

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

/* The identity of stored benchmark text (@st's parser, else ident_raw()).  0 or the parser's error. */
int store_identity(struct store *st, const char *suite, const char *params, struct bench_identity *out);

/* Whether @st's schema has result classes' metric and benchmarks' workload (STORE_SCHEMA_METRIC). */
bool store_has_metric(const struct store *st);

/*
 * store_benchmark_get() for a benchmark known as text: @suite and @text
 * (its display) whole, whatever their length, @ident what they parse to
 * (raw: the key is @text).  *@display (may be NULL) gets a new string: the
 * display stored.  0 or a store error.
 */
int store_benchmark_text(struct store *st, const char *suite, const char *text,
			 const struct bench_identity *ident, int64_t *id, char **display);

/* The key @ident gives text @text: its parsed key, or the whole text when it is raw. */
const char *store_bench_key(const struct bench_identity *ident, const char *text);

/*
 * Call @fn with each benchmark row that @sql selects (id, suite, params) and
 * its parsed identity in @id, until one returns non-zero; that value is
 * returned.  All rows are read before the first call, so @fn may write.
 */
struct store_bench_row {
	int64_t id;
	char *suite;		/* whole, whatever the length; NULL when out of memory */
	char *params;
};
int store_bench_each(struct store *st, const char *sql, struct bench_identity *id,
		     int (*fn)(struct store *st, const struct store_bench_row *b,
			       const struct bench_identity *id));

/* Merging: write the parameters of the benchmarks that have none yet.  0 or a store error. */
int store_bench_fill_params(struct store *st);

/*
 * Whether @st's schema has benchmark keys and parameters (a store read
 * without migrating may not): 1, 0, or a logged negative errno.
 */
int store_has_identity(struct store *st);

/* Schema v3's data step (see bench.c).  0 or a store error. */
int store_migrate_identity(struct store *st);

/* Schema v8's data step (see bench.c): every benchmark's workload, every result class's metric. */
int store_migrate_metric(struct store *st);

/*
 * The schema, one migration per version: entry i takes version i to i + 1.
 * @sql is in the portable spelling (SQLite's types; a backend translates
 * them), @sqlite and @postgresql what only one engine can say (triggers),
 * @data a C step for what SQL cannot say.  Never edit an entry that has shipped.
 */
struct store_migration {
	const char *sql;
	const char *sqlite;
	const char *postgresql;
	int (*data)(struct store *st);
};
extern const struct store_migration store_migrations[];

/* The schema version that added the sequential table (renumber with the migration it names). */
#define STORE_SCHEMA_SEQUENTIAL 5
/* The schema version that added result classes' metric and benchmarks' workload (store_has_metric()). */
#define STORE_SCHEMA_METRIC 8

/*
 * Refuse a store to merge that holds a name that is not UTF-8 (written
 * before names were checked): its tables are read on @st with @schema
 * before their names ("src." for one attached, "" for @st's own).  0,
 * -EINVAL (logged) or a store error.
 */
int store_merge_check_names(struct store *st, const char *schema);

/* Copy every session of @src that @dst lacks, through the backend-neutral API.  As store_merge(). */
int store_merge_rows(struct store *dst, struct store *src, struct store_merged *out);

/*
 * Swprofile @swprofile_id's @fingerprint (canonical JSON) on SUT class
 * @sut_id: recorded when the pair has none, compared when it has (as
 * store_swprofile_get() does, @force its flags): -EEXIST logged with
 * swprofile @name and @where (" on SUT class 'box' there") when it differs.
 * 0 or a store error.
 */
int store_swprofile_sut(struct store *st, int64_t swprofile_id, int64_t sut_id, const char *fingerprint,
			unsigned force, const char *name, const char *where);

/*
 * Whether swprofile @name, stored with fingerprint @stored, is the kernel
 * another store or a file (@theirs) says it is: 0, or -EEXIST logged.
 * Either may be "{}" (nothing known).
 */
int store_swprofile_agree(const char *name, const char *stored, const char *theirs);

/*
 * What a lab's writer may do to each table of the schema besides reading
 * it (every role reads every table): "INSERT", "INSERT, UPDATE"... or ""
 * (clearpath_schema: only the owner writes the version).  Every table the
 * migrations make has a row (a unit test holds them together), so a new
 * table is a decision about who may change it.
 */
struct store_lab_table {
	const char *table;
	const char *writer;
};
extern const struct store_lab_table store_lab_tables[];

/* The phases of a backend's lab_roles(). */
enum store_lab_phase { STORE_LAB_PREPARE, STORE_LAB_GRANT };

#endif
