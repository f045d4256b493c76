/* sqlite: the SQLite backend: a store file, its PRAGMAs, statements and SQLite's error codes. */
#include "store/sqlite/sqlite.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/log.h"

/* How long a writer waits for another one before giving up with -EBUSY. */
#define BUSY_TIMEOUT_MS 10000

/* PRAGMA application_id of every clearpath store: "ClPa". */
#define STORE_APP_ID 0x436c5061

struct sq_stmt {
	struct store_stmt base;
	sqlite3_stmt *stmt;
};

static sqlite3 *db_of(struct store *st)
{
	return st->conn;
}

static sqlite3_stmt *stmt_of(struct store_stmt *s)
{
	return ((struct sq_stmt *)s)->stmt;
}

/* The negative errno for SQLite result code @rc (0 for SQLITE_OK/ROW/DONE). */
static int sq_errno(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_OK:
	case SQLITE_ROW:
	case SQLITE_DONE:
		return 0;
	case SQLITE_FULL:
		return -ENOSPC;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return -EBUSY;
	case SQLITE_NOMEM:
		return -ENOMEM;
	case SQLITE_READONLY:
		return -EROFS;
	case SQLITE_CANTOPEN:
	case SQLITE_PERM:
	case SQLITE_AUTH:
		return -EACCES;
	case SQLITE_CONSTRAINT:
	case SQLITE_MISMATCH:
	case SQLITE_TOOBIG:
	case SQLITE_NOTADB:
		return -EINVAL;
	default:		/* IOERR, CORRUPT, PROTOCOL, ERROR... */
		return -EIO;
	}
}

int store_sqlite_fail(struct store *st, int rc)
{
	const char *hint = NULL;

	switch (rc & 0xff) {
	case SQLITE_FULL:
		hint = st->creating ? "the disk is full: the new store is not made and nothing of it is left;"
				      " free some space, or choose another store with --store or $CLEARPATH_STORE"
				    : "the disk holding the store is full; samples committed before this one are intact";
		break;
	case SQLITE_IOERR:
		hint = st->creating ? "an I/O error hit the new store: it is not made and nothing of it is left"
				    : "an I/O error hit the store; samples committed before this one are intact";
		break;
	case SQLITE_CORRUPT:
		hint = "the store is damaged; 'PRAGMA integrity_check' (store_check) lists what";
		break;
	case SQLITE_BUSY:
		hint = "another clearpath held the store locked for longer than the busy timeout";
		break;
	case SQLITE_READONLY:
		hint = "the store's file is read-only to you: get write access to it, or copy it and"
		       " point --store at the copy; nothing was written";
		break;
	}
	store_set_error(st, hint, "%s", st->conn ? sqlite3_errmsg(db_of(st)) : sqlite3_errstr(rc));
	return sq_errno(rc) ? sq_errno(rc) : -EIO;
}

static int sq_prepare(struct store *st, const char *sql, struct store_stmt **out)
{
	struct sq_stmt *s = calloc(1, sizeof(*s));
	int rc;

	if (!s) {
		store_set_error(st, NULL, "out of memory");
		return -ENOMEM;
	}
	rc = sqlite3_prepare_v2(db_of(st), sql, -1, &s->stmt, NULL);
	if (rc != SQLITE_OK) {
		free(s);
		return store_sqlite_fail(st, rc);
	}
	s->base.st = st;
	*out = &s->base;
	return 0;
}

static int sq_bind(struct store_stmt *s, const struct store_arg *arg, int n)
{
	sqlite3_stmt *stmt = stmt_of(s);
	int params = sqlite3_bind_parameter_count(stmt), rc = SQLITE_OK;

	for (int i = 1; i <= n && i <= params && rc == SQLITE_OK; i++) {
		const struct store_arg *a = &arg[i - 1];

		switch (a->type) {
		case 't':
			rc = sqlite3_bind_text(stmt, i, a->text, -1, SQLITE_TRANSIENT);
			break;
		case 'i':
			rc = sqlite3_bind_int64(stmt, i, a->i);
			break;
		case 'd':
			rc = sqlite3_bind_double(stmt, i, a->d);
			break;
		default:
			rc = sqlite3_bind_null(stmt, i);
		}
	}
	return rc == SQLITE_OK ? 0 : store_sqlite_fail(s->st, rc);
}

static int sq_step(struct store_stmt *s)
{
	int rc = sqlite3_step(stmt_of(s));

	if (rc == SQLITE_ROW)
		return STORE_ROW;
	if (rc == SQLITE_DONE)
		return STORE_DONE;
	return store_sqlite_fail(s->st, rc);
}

static void sq_reset(struct store_stmt *s)
{
	sqlite3_reset(stmt_of(s));
	sqlite3_clear_bindings(stmt_of(s));
}

static void sq_finalize(struct store_stmt *s)
{
	sqlite3_finalize(stmt_of(s));
	free(s);
}

static int sq_col_count(struct store_stmt *s)
{
	return sqlite3_column_count(stmt_of(s));
}

static const char *sq_col_name(struct store_stmt *s, int i)
{
	return sqlite3_column_name(stmt_of(s), i);
}

static enum store_coltype sq_col_type(struct store_stmt *s, int i)
{
	switch (sqlite3_column_type(stmt_of(s), i)) {
	case SQLITE_NULL:
		return STORE_COL_NULL;
	case SQLITE_INTEGER:
		return STORE_COL_INT;
	case SQLITE_FLOAT:
		return STORE_COL_REAL;
	default:
		return STORE_COL_TEXT;
	}
}

static const char *sq_col_text(struct store_stmt *s, int i)
{
	return (const char *)sqlite3_column_text(stmt_of(s), i);
}

static int64_t sq_col_int64(struct store_stmt *s, int i)
{
	return sqlite3_column_int64(stmt_of(s), i);
}

static double sq_col_double(struct store_stmt *s, int i)
{
	return sqlite3_column_double(stmt_of(s), i);
}

static int64_t sq_changes(struct store_stmt *s)
{
	return sqlite3_changes(sqlite3_db_handle(stmt_of(s)));
}

static int sq_script(struct store *st, const char *sql)
{
	char *err = NULL;
	int rc = sqlite3_exec(db_of(st), sql, NULL, NULL, &err);

	if (rc != SQLITE_OK) {
		store_set_error(st, NULL, "%s", err ? err : sqlite3_errstr(rc));
		sqlite3_free(err);
		return sq_errno(rc) ? sq_errno(rc) : -EIO;
	}
	return 0;
}

static bool sq_claims(const char *url)
{
	/* libpq's keyword form ("service=lab", "host=... dbname=...") has no "://" but is no file */
	if (store_url_is_postgresql(url))
		return false;
	return !strstr(url, "://") || !strncmp(url, "sqlite://", 9);
}

/*
 * Create the directory holding @path when it is missing, but not its parents:
 * a mistyped --store must not leave a tree of directories behind; *@made
 * says whether it was made here.  0 or -errno (logged, with the command
 * that makes the parents).
 */
static int make_parent_dir(const char *path, bool *made)
{
	char *dir = strdup(path), *p;
	int ret = 0;

	if (!dir)
		return -ENOMEM;
	p = strrchr(dir, '/');
	if (!p || p == dir)
		goto out;
	*p = '\0';
	*made = !mkdir(dir, 0777);
	if (!*made && errno != EEXIST) {
		ret = -errno;
		log_err("cannot create store directory %s: %s", dir, strerror(errno));
		if (errno == ENOENT)
			log_hint("create its parent first (mkdir -p), or check the path for a typo");
		goto out;
	}
	if (access(dir, W_OK)) {
		ret = -errno;
		log_err("store directory %s is not writable: %s", dir, strerror(errno));
		log_hint("choose another store with $CLEARPATH_STORE");
	}
out:
	free(dir);
	return ret;
}

char *store_sqlite_uri(const char *path, const char *query)
{
	size_t len = strlen(path), n = 0;
	char *uri = malloc(3 * len + strlen(query) + 16), *q;

	if (!uri)
		return NULL;
	q = uri + sprintf(uri, "file:%s", path[0] == '/' ? "//" : "");
	for (; n < len; n++) {
		unsigned char c = (unsigned char)path[n];

		if (c == '%' || c == '?' || c == '#')
			q += sprintf(q, "%%%02X", c);
		else
			*q++ = (char)c;
	}
	strcpy(q, query);
	return uri;
}

/* Log up to a few lines of SQLite's quick_check verdict on a store that reported corruption. */
static void report_quick_check(struct store *st)
{
	sqlite3_stmt *stmt;
	int lines = 0;

	if (sqlite3_prepare_v2(db_of(st), "PRAGMA quick_check(5)", -1, &stmt, NULL) != SQLITE_OK) {
		log_err("store %s: quick_check cannot run either: %s", st->path, sqlite3_errmsg(db_of(st)));
		return;
	}
	while (sqlite3_step(stmt) == SQLITE_ROW) {
		log_err("store %s: quick_check: %s", st->path, (const char *)sqlite3_column_text(stmt, 0));
		lines++;
	}
	if (!lines)
		log_err("store %s: quick_check cannot run: %s", st->path, sqlite3_errmsg(db_of(st)));
	sqlite3_finalize(stmt);
}

/*
 * The header facts that decide whether this is a clearpath store; the first
 * read is where SQLite notices a file that is not a database at all.  Refuse
 * what is not ours.
 */
static int sq_identify(struct store *st, int64_t *version)
{
	int64_t app_id, objects;
	int ret = store_int64(st, &app_id, "PRAGMA application_id", NULL);

	if (!ret)
		ret = store_int64(st, version, "PRAGMA user_version", NULL);
	if (!ret)
		ret = store_int64(st, &objects, "SELECT count(*) FROM sqlite_schema", NULL);
	if (!ret && app_id != STORE_APP_ID && (app_id != 0 || objects != 0)) {
		log_err("%s is an SQLite database of another application, not a clearpath store", st->path);
		log_hint("point $CLEARPATH_STORE or --store at a new file or a clearpath store");
		return -EINVAL;
	}
	/* ours, with tables but no version: no clearpath leaves that (it stamps in the transaction that creates) */
	if (!ret && *version == 0 && objects != 0) {
		ret = store_int64(st, &objects, "SELECT count(*) FROM sqlite_schema WHERE type = 'table'", NULL);
		return ret ? ret : store_refuse_unversioned(st, objects);
	}
	return ret;
}

static int sq_stamp(struct store *st, int version)
{
	char sql[96];
	int ret;

	/* PRAGMA arguments cannot be bound parameters. */
	snprintf(sql, sizeof(sql), "PRAGMA application_id = %d; PRAGMA user_version = %d", STORE_APP_ID,
		 version);
	ret = sq_script(st, sql);
	return ret ? store_sql_fail(st, ret, "stamping the schema version") : 0;
}

/*
 * Connection settings.  WAL lets readers run beside the writer; the busy
 * timeout makes concurrent writers queue instead of failing; synchronous
 * FULL fsyncs every commit, because the machine under test runs patched
 * kernels and a kernel crash must not take committed samples with it (a
 * sample costs seconds, an fsync milliseconds).
 */
static int sq_configure(struct store *st)
{
	sqlite3_stmt *stmt;
	int rc, ret = 0;

	rc = sqlite3_prepare_v2(db_of(st), "PRAGMA journal_mode = WAL", -1, &stmt, NULL);
	if (rc != SQLITE_OK)
		return store_sql_fail(st, store_sqlite_fail(st, rc), "switching to WAL");
	/*
	 * Leaving rollback mode needs an exclusive lock, and SQLite reports BUSY
	 * at once instead of using the busy handler when several processes race
	 * to create the same new store; so wait here, as long as the timeout.
	 */
	for (int waited = 0; ; waited += 10) {
		rc = sqlite3_step(stmt);
		if ((rc & 0xff) != SQLITE_BUSY || waited >= BUSY_TIMEOUT_MS)
			break;
		sqlite3_reset(stmt);
		sqlite3_sleep(10);
	}
	if (rc != SQLITE_ROW)
		ret = store_sql_fail(st, store_sqlite_fail(st, rc), "switching to WAL");
	else if (strcmp((const char *)sqlite3_column_text(stmt, 0), "wal"))
		log_warn("store %s: WAL journal unavailable here (%s); concurrent readers will wait",
			 st->path, (const char *)sqlite3_column_text(stmt, 0));
	sqlite3_finalize(stmt);
	if (!ret)
		ret = store_exec(st, "PRAGMA synchronous = FULL", NULL);
	if (!ret)
		ret = store_exec(st, "PRAGMA foreign_keys = ON", NULL);
	return ret;
}

/* Why sqlite3_open_v2 or the first read failed, in words for the user. */
static int open_failed(struct store *st, int rc)
{
	int sys = sqlite3_system_errno(db_of(st));

	switch (rc & 0xff) {
	case SQLITE_NOTADB:
		log_err("%s is not a clearpath store: not an SQLite database", st->path);
		log_hint("point $CLEARPATH_STORE or --store at a new file or a clearpath store");
		return -EINVAL;
	case SQLITE_CORRUPT:
		log_err("store %s is corrupt: %s", st->path, sqlite3_errmsg(db_of(st)));
		report_quick_check(st);
		return -EIO;
	case SQLITE_CANTOPEN: {
		struct stat sb;

		/* a directory named as the store is the user's slip (exit 2), whatever errno SQLite kept */
		if (!stat(st->path, &sb) && S_ISDIR(sb.st_mode)) {
			log_err("cannot open store %s: it is a directory", st->path);
			log_hint("--store and $CLEARPATH_STORE name the store's file, e.g. %s/results.db",
				 strcmp(st->path, "/") ? st->path : "");
			return -EINVAL;
		}
		log_err("cannot open store %s: %s", st->path, sys ? strerror(sys) : sqlite3_errmsg(db_of(st)));
		return sys ? -sys : -EACCES;
	}
	}
	return store_sql_fail(st, store_sqlite_fail(st, rc), "opening");
}

/* Open st->priv (the URI) with @flags and probe it with a read: 0 or SQLite's result code. */
static int open_probe(struct store *st, int flags)
{
	sqlite3 *db = NULL;
	int rc = sqlite3_open_v2(st->priv, &db, flags | SQLITE_OPEN_URI, NULL);

	st->conn = db;
	if (rc == SQLITE_OK)
		sqlite3_extended_result_codes(db, 1);
	if (rc == SQLITE_OK)
		rc = store_sqlite_functions(db);
	if (rc == SQLITE_OK)
		rc = sqlite3_busy_timeout(db, BUSY_TIMEOUT_MS);
	/* Probe with a read first: it is where NOTADB and CORRUPT surface. */
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "SELECT count(*) FROM sqlite_schema", NULL, NULL, NULL);
	return rc;
}

/* Whether @path has a write-ahead log with content, which only a real (locking) reader sees. */
static bool has_wal(const char *path)
{
	char wal[PATH_MAX + 8];
	struct stat sb;

	snprintf(wal, sizeof(wal), "%s-wal", path);
	return !stat(wal, &sb) && sb.st_size > 0;
}

/*
 * Open read-only.  A WAL store whose directory cannot be written (another
 * user's, a read-only mount) cannot be opened that way when its -shm file is
 * gone, so it is opened immutable: correct as long as no WAL holds commits
 * that are not in the file yet, which is the case after every clean close.
 */
static int open_readonly(struct store *st)
{
	int rc;

	st->priv = store_sqlite_uri(st->path, "?mode=ro");
	if (!st->priv)
		return SQLITE_NOMEM;
	rc = open_probe(st, SQLITE_OPEN_READONLY);
	if (((rc & 0xff) == SQLITE_READONLY || (rc & 0xff) == SQLITE_CANTOPEN) && !has_wal(st->path)) {
		sqlite3_close(db_of(st));
		st->conn = NULL;
		free(st->priv);
		st->priv = store_sqlite_uri(st->path, "?immutable=1");
		if (!st->priv)
			return SQLITE_NOMEM;
		rc = open_probe(st, SQLITE_OPEN_READONLY);
	}
	return rc;
}

/* Whether this process may write the file at @path and create files beside it. */
static bool may_write(const char *path)
{
	char *dir = strdup(path), *slash;
	bool ok;

	if (!dir)
		return false;
	slash = strrchr(dir, '/');
	if (slash == dir)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	ok = !access(path, W_OK) && !access(slash ? dir : ".", W_OK);
	free(dir);
	return ok;
}

/*
 * Create @path when nothing is there, exclusively, so that only a file this
 * process made is ever removed again (sq_discard()); as SQLite would make
 * it (0644 less the umask).  Whether it made it.
 */
static bool create_new(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0)
		return false;	/* there already, or SQLite says why it cannot be made */
	close(fd);
	return true;
}

static int sq_open(struct store *st, const char *url, bool *readonly, bool *existing)
{
	int rc, ret;

	st->path = store_url_path(url);
	if (!st->path)
		return -EINVAL;
	if (strlen(st->path) >= PATH_MAX) {
		log_err("store path is too long (%zu bytes; at most %d)", strlen(st->path), PATH_MAX - 1);
		return -EINVAL;
	}
	/*
	 * A reader that may write opens read-write all the same (without
	 * creating): only a writing connection removes the -wal and -shm files
	 * when it closes.
	 */
	if (*readonly && may_write(st->path))
		*readonly = false, *existing = true;
	if (*readonly) {
		rc = open_readonly(st);
	} else {
		ret = *existing ? 0 : make_parent_dir(st->path, &st->made_dir);
		if (ret)
			return ret;
		st->creating = !*existing && create_new(st->path);
		st->priv = store_sqlite_uri(st->path, "");
		rc = st->priv ? open_probe(st, SQLITE_OPEN_READWRITE | (*existing ? 0 : SQLITE_OPEN_CREATE))
			      : SQLITE_NOMEM;
	}
	if (rc != SQLITE_OK)
		return st->conn ? open_failed(st, rc) : -ENOMEM;
	return 0;
}

static void sq_close(struct store *st)
{
	sqlite3_close(db_of(st));
	free(st->priv);
}

static void sq_discard(struct store *st)
{
	static const char *const suffix[] = { "", "-wal", "-shm", "-journal" };

	sq_close(st);
	st->conn = NULL;
	st->priv = NULL;
	for (size_t i = 0; st->path && i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		char file[PATH_MAX + 16];

		snprintf(file, sizeof(file), "%s%s", st->path, suffix[i]);
		unlink(file);
	}
	if (st->made_dir && st->path && strrchr(st->path, '/')) {
		char dir[PATH_MAX];

		snprintf(dir, sizeof(dir), "%.*s", (int)(strrchr(st->path, '/') - st->path), st->path);
		rmdir(dir);	/* only when empty: it was made for this store alone */
	}
}

static int sq_check(struct store *st)
{
	struct store_stmt *stmt;
	int ret, rc, bad = 0;

	ret = store_prepare(st, &stmt, "PRAGMA integrity_check", NULL);
	if (ret)
		return ret;
	while ((rc = store_step(stmt)) == STORE_ROW) {
		const char *line = store_col_text(stmt, 0);

		if (!strcmp(line, "ok"))
			continue;
		log_err("store %s: integrity_check: %s", st->path, line);
		bad++;
	}
	if (rc < 0)
		ret = store_sql_fail(st, rc, "integrity_check");	/* CORRUPT maps to -EIO */
	else if (bad)
		ret = -EIO;
	store_finalize(stmt);
	return ret;
}

static int sq_has_table(struct store *st, const char *name)
{
	int64_t n = 0;
	int ret = store_int64(st, &n, "SELECT count(*) FROM sqlite_schema WHERE name = ?1", "t", name);

	return ret ? ret : n > 0;
}

const struct store_backend store_backend_sqlite = {
	.name = "sqlite",
	.claims = sq_claims,
	.open = sq_open,
	.close = sq_close,
	.discard = sq_discard,
	.identify = sq_identify,
	.stamp = sq_stamp,
	.configure = sq_configure,
	.check = sq_check,
	.has_table = sq_has_table,
	.script = sq_script,
	/* the write lock up front: a concurrent writer waits on the busy timeout instead of failing halfway */
	.begin_sql = "BEGIN IMMEDIATE",
	.prepare = sq_prepare,
	.bind = sq_bind,
	.step = sq_step,
	.reset = sq_reset,
	.finalize = sq_finalize,
	.col_count = sq_col_count,
	.col_name = sq_col_name,
	.col_type = sq_col_type,
	.col_text = sq_col_text,
	.col_int64 = sq_col_int64,
	.col_double = sq_col_double,
	.changes = sq_changes,
	.merge = store_sqlite_merge,
};
