/* sqlite: what the SQLite backend's files share (internal to src/store/sqlite). */
#ifndef CLEARPATH_STORE_SQLITE_H
#define CLEARPATH_STORE_SQLITE_H

#include <sqlite3.h>

#include "store/db.h"

/* Remember SQLite's message and a hint for @rc on @st; the matching negative errno. */
int store_sqlite_fail(struct store *st, int rc);

/* "file:" URI for @path with @query appended (may be ""), '%', '?' and '#' escaped.  NULL: no memory. */
char *store_sqlite_uri(const char *path, const char *query);

/* Register cp_rebase(suite, from, to, name) on @db.  SQLite's result code. */
int store_sqlite_functions(sqlite3 *db);

/* The backend's merge: ATTACH an SQLite source; -ENOTSUP for another backend's. */
int store_sqlite_merge(struct store *dst, const char *src_url, struct store_merged *out);

#endif
