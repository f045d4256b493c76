/* backend: the interface each store backend (sqlite/, postgresql/) implements; internal to src/store. */
#ifndef CLEARPATH_STORE_BACKEND_H
#define CLEARPATH_STORE_BACKEND_H

#include <stdbool.h>
#include <stdint.h>

struct store;
struct store_merged;
struct store_roles;

/* What store_step() returns besides a negative errno. */
enum { STORE_DONE = 0, STORE_ROW = 1 };

enum store_coltype { STORE_COL_NULL, STORE_COL_INT, STORE_COL_REAL, STORE_COL_TEXT };

/*
 * One bound argument: @type 't' text, 'i' int64, 'd' double, '0' NULL; @kind
 * what the query binds there even when it is NULL ('t', 'i' or 'd'), for
 * engines that type their parameters.
 */
struct store_arg {
	char type;
	char kind;
	const char *text;
	int64_t i;
	double d;
};

/* A prepared statement; each backend's own struct starts with this one. */
struct store_stmt {
	struct store *st;
};

/*
 * A backend.  SQL handed to prepare() is the store's portable subset:
 * parameters as ?1..?N, ON CONFLICT, RETURNING, no PRAGMA, no rowid; a
 * backend translates what its engine spells differently.  Every failing
 * operation returns a negative errno (store.h's meanings) and leaves what
 * the engine said in the store (store_set_error()) without logging it: the
 * caller logs it with store_sql_fail() and says what it was doing.
 */
struct store_backend {
	const char *name;
	/* Whether @url names a store of this backend. */
	bool (*claims)(const char *url);
	/*
	 * Connect to the store at @url; *@readonly may be turned off when
	 * reading through a writable connection is better, then *@existing is
	 * set (nothing may be created).  Sets st->path (for messages).
	 */
	int (*open)(struct store *st, const char *url, bool *readonly, bool *existing);
	void (*close)(struct store *st);
	/* Close and remove a store the failing command created (may just close). */
	void (*discard)(struct store *st);
	/* The schema version stored (0: an empty store), or a logged -EINVAL when it is not clearpath's. */
	int (*identify)(struct store *st, int64_t *version);
	/* Record that the schema is now at @version (inside the migration's transaction). */
	int (*stamp)(struct store *st, int version);
	/* Connection settings after migrating (may be NULL). */
	int (*configure)(struct store *st);
	/* The engine's own consistency check: 0, or -EIO with the findings logged. */
	int (*check)(struct store *st);
	/* Whether table @name exists: 1, 0, or a logged negative errno (a lost connection). */
	int (*has_table)(struct store *st, const char *name);
	/* Run several ';'-separated statements without parameters (schema DDL, in the portable spelling). */
	int (*script)(struct store *st, const char *sql);
	const char *begin_sql;	/* how a write transaction starts */
	int (*prepare)(struct store *st, const char *sql, struct store_stmt **out);
	/* Bind @n arguments; ones past the statement's parameters are ignored. */
	int (*bind)(struct store_stmt *s, const struct store_arg *arg, int n);
	/* STORE_ROW, STORE_DONE or a negative errno. */
	int (*step)(struct store_stmt *s);
	void (*reset)(struct store_stmt *s);
	void (*finalize)(struct store_stmt *s);
	int (*col_count)(struct store_stmt *s);
	const char *(*col_name)(struct store_stmt *s, int i);
	enum store_coltype (*col_type)(struct store_stmt *s, int i);
	const char *(*col_text)(struct store_stmt *s, int i);	/* NULL for NULL */
	int64_t (*col_int64)(struct store_stmt *s, int i);
	double (*col_double)(struct store_stmt *s, int i);
	/* Rows the last step of an INSERT, UPDATE or DELETE changed (before a reset). */
	int64_t (*changes)(struct store_stmt *s);
	/*
	 * Merge the store at @src_url into @dst the engine's own way, or
	 * -ENOTSUP (nothing done) when it cannot (another backend's source, or
	 * sessions both hold, which the row-by-row merge judges).  May be NULL.
	 */
	int (*merge)(struct store *dst, const char *src_url, struct store_merged *out);
	/*
	 * After a lost connection (-ENOTCONN): connect again, waiting with a
	 * bounded backoff.  0, or -ENOTCONN (logged) when the server stays away.
	 * NULL when connections are never lost (a file).
	 */
	int (*reconnect)(struct store *st);
	/*
	 * A lab's roles (store_lab_setup()): STORE_LAB_PREPARE before the
	 * schema is created or migrated (create the roles, give the owner the
	 * database and schema and what clearpath made there before, act as the
	 * owner from now on), STORE_LAB_GRANT after (each role exactly what
	 * store_lab_tables[] says).  NULL for a store without roles (a file).
	 */
	int (*lab_roles)(struct store *st, const struct store_roles *r, int phase);
};

extern const struct store_backend store_backend_sqlite;
#ifdef CLEARPATH_HAVE_LIBPQ
extern const struct store_backend store_backend_postgresql;
#endif

#endif
