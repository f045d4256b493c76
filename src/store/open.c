/* open: find, open, identify and migrate a store file; integrity checks. */
#include "store/db.h"

#include <errno.h>
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

/*
 * Schema migrations: entry i takes user_version i to i + 1, with its SQL and
 * then, when the data must be rewritten in ways SQL cannot say, a C step.
 * Each is an independent step in order; never edit an entry that has shipped.
 */
struct migration {
	const char *sql;
	int (*data)(struct store *st);	/* NULL: the SQL is all */
};

static const struct migration migrations[] = {
	/* v1: the data model (sut, swprofile, benchmark, resultclass, session, sample, error) */
	{ "CREATE TABLE sut ("
	"  id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL UNIQUE,"
	"  fingerprint TEXT NOT NULL DEFAULT '{}');"
	"CREATE TABLE swprofile ("
	"  id INTEGER PRIMARY KEY,"
	"  name TEXT NOT NULL UNIQUE,"
	"  fingerprint TEXT NOT NULL DEFAULT '{}');"
	"CREATE TABLE benchmark ("
	"  id INTEGER PRIMARY KEY,"
	"  suite TEXT NOT NULL,"
	"  params TEXT NOT NULL DEFAULT '',"
	"  UNIQUE (suite, params));"
	"CREATE TABLE resultclass ("
	"  id INTEGER PRIMARY KEY,"
	"  benchmark_id INTEGER NOT NULL REFERENCES benchmark(id),"
	"  name TEXT NOT NULL,"
	"  unit TEXT NOT NULL,"
	"  higher_is_better INTEGER NOT NULL CHECK (higher_is_better IN (0, 1)),"
	"  UNIQUE (benchmark_id, name, unit, higher_is_better));"
	"CREATE TABLE session ("
	"  id INTEGER PRIMARY KEY,"
	"  uuid TEXT NOT NULL UNIQUE,"
	"  boot_id TEXT,"
	"  sut_id INTEGER NOT NULL REFERENCES sut(id),"
	"  swprofile_id INTEGER NOT NULL REFERENCES swprofile(id),"
	"  started TEXT NOT NULL,"
	"  ended TEXT,"
	"  complete INTEGER NOT NULL DEFAULT 0 CHECK (complete IN (0, 1)),"
	"  environment TEXT NOT NULL DEFAULT '{}');"
	"CREATE TABLE sample ("
	"  id INTEGER PRIMARY KEY,"
	"  session_id INTEGER NOT NULL REFERENCES session(id),"
	"  resultclass_id INTEGER NOT NULL REFERENCES resultclass(id),"
	"  iteration INTEGER NOT NULL,"
	"  warmup INTEGER NOT NULL CHECK (warmup IN (0, 1)),"
	"  value REAL NOT NULL,"
	"  time TEXT NOT NULL,"
	"  UNIQUE (session_id, resultclass_id, warmup, iteration));"
	"CREATE INDEX sample_by_resultclass ON sample(resultclass_id);"
	/* iteration NULL: the whole benchmark failed in that session */
	"CREATE TABLE error ("
	"  id INTEGER PRIMARY KEY,"
	"  session_id INTEGER NOT NULL REFERENCES session(id),"
	"  benchmark_id INTEGER NOT NULL REFERENCES benchmark(id),"
	"  iteration INTEGER,"
	"  warmup INTEGER NOT NULL DEFAULT 0 CHECK (warmup IN (0, 1)),"
	"  message TEXT NOT NULL,"
	"  time TEXT NOT NULL);"
	/* An invocation yields samples or an error, never both: the schema says so. */
	"CREATE TRIGGER sample_excludes_error BEFORE INSERT ON sample"
	" WHEN EXISTS (SELECT 1 FROM error e JOIN resultclass r ON r.benchmark_id = e.benchmark_id"
	"  WHERE r.id = NEW.resultclass_id AND e.session_id = NEW.session_id"
	"  AND (e.iteration IS NULL OR (e.iteration = NEW.iteration AND e.warmup = NEW.warmup)))"
	" BEGIN SELECT RAISE(ABORT, 'this invocation already has an error'); END;"
	"CREATE TRIGGER error_excludes_samples BEFORE INSERT ON error"
	" WHEN EXISTS (SELECT 1 FROM sample s JOIN resultclass r ON r.id = s.resultclass_id"
	"  WHERE r.benchmark_id = NEW.benchmark_id AND s.session_id = NEW.session_id"
	"  AND (NEW.iteration IS NULL OR (s.iteration = NEW.iteration AND s.warmup = NEW.warmup)))"
	" BEGIN SELECT RAISE(ABORT, 'this invocation already has samples'); END;", NULL },
	/*
	 * v2: the progress of a resumable run (plan run), in the store rather
	 * than in a file beside it, so any store backend carries it.  One row per
	 * run name: the session to run next and the units it already completed.
	 */
	{ "CREATE TABLE resume ("
	"  name TEXT PRIMARY KEY,"
	"  seed INTEGER NOT NULL,"
	"  session INTEGER NOT NULL CHECK (session >= 0),"
	"  scale INTEGER NOT NULL CHECK (scale >= 1),"
	"  updated TEXT NOT NULL);"
	"CREATE TABLE resume_done ("
	"  name TEXT NOT NULL REFERENCES resume(name) ON DELETE CASCADE,"
	"  unit TEXT NOT NULL,"
	"  PRIMARY KEY (name, unit));", NULL },
	/*
	 * v3: a benchmark is its parsed identity, not its spelling: a canonical
	 * key (every option, defaults filled in) decides equality, the
	 * parameters are kept as rows; spellings stored apart so far merge.
	 */
	{ "ALTER TABLE benchmark ADD COLUMN key TEXT NOT NULL DEFAULT '';"
	  "CREATE TABLE benchmark_param ("
	  "  benchmark_id INTEGER NOT NULL REFERENCES benchmark(id) ON DELETE CASCADE,"
	  "  pos INTEGER NOT NULL,"
	  "  name TEXT NOT NULL,"
	  "  alias TEXT NOT NULL DEFAULT '',"
	  "  value TEXT NOT NULL,"
	  "  shown TEXT NOT NULL DEFAULT '',"
	  "  PRIMARY KEY (benchmark_id, pos));", store_migrate_identity },
	/*
	 * v4: campaigns (store/campaign.c): a campaign's plan and what it was
	 * started with, and each boot of each target with its progress, so a
	 * restarted controller (or the next boot's `campaign continue`) goes on.
	 */
	{ "CREATE TABLE campaign ("
	  "  id INTEGER PRIMARY KEY,"
	  "  status TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed', 'aborted')),"
	  "  plan TEXT NOT NULL,"
	  "  spec TEXT NOT NULL DEFAULT '{}',"
	  "  message TEXT,"
	  "  created TEXT NOT NULL,"
	  "  updated TEXT NOT NULL);"
	  "CREATE TABLE campaign_boot ("
	  "  campaign_id INTEGER NOT NULL REFERENCES campaign(id) ON DELETE CASCADE,"
	  "  target TEXT NOT NULL,"
	  "  pos INTEGER NOT NULL CHECK (pos >= 0),"
	  "  swprofile TEXT NOT NULL,"
	  "  status TEXT NOT NULL CHECK (status IN ('pending', 'booting', 'measuring', 'done', 'error')),"
	  "  boot_before TEXT,"
	  "  boot_id TEXT,"
	  "  release TEXT,"
	  "  session TEXT,"
	  "  message TEXT,"
	  "  updated TEXT NOT NULL,"
	  "  PRIMARY KEY (campaign_id, target, pos));", NULL },
};

#define SCHEMA_VERSION ((int)(sizeof(migrations) / sizeof(migrations[0])))

int store_schema_version(void)
{
	return SCHEMA_VERSION;
}

int store_default_url(char *buf, size_t len)
{
	const char *env = getenv("CLEARPATH_STORE");
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	int n;

	if (env && *env)
		n = snprintf(buf, len, "%s", env);
	else if (xdg && *xdg)
		n = snprintf(buf, len, "%s/clearpath/results.db", xdg);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.local/share/clearpath/results.db", home);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

char *store_url_path(const char *url)
{
	const char *sep = strstr(url, "://");

	if (!*url) {
		log_err("empty store location");
		return NULL;
	}
	if (!sep)
		return strdup(url);
	if (strncmp(url, "sqlite", (size_t)(sep - url)) || sep - url != 6) {
		log_err("unknown store scheme '%.*s' in '%s'", (int)(sep - url), url, url);
		log_hint("use a path or sqlite:///absolute/path.db");
		return NULL;
	}
	if (sep[3] != '/') {
		log_err("store URL '%s' needs an absolute path: sqlite:///absolute/path.db", url);
		return NULL;
	}
	return strdup(sep + 3);
}

/*
 * Create the directory holding @path when it is missing, but not its parents:
 * a mistyped --store must not leave a tree of directories behind.  0 or
 * -errno (logged, with the command that makes the parents).
 */
static int make_parent_dir(const char *path)
{
	char *dir = strdup(path), *p;
	int ret = 0;

	if (!dir)
		return -ENOMEM;
	p = strrchr(dir, '/');
	if (!p || p == dir)
		goto out;
	*p = '\0';
	if (mkdir(dir, 0777) && errno != EEXIST) {
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

/*
 * "file:" URI for @path with @query appended (may be ""): SQLite reads %HH
 * escapes in URIs, so '%', '?' and '#' in a path are escaped; an absolute
 * path gets the empty authority ("file:///..."), so "//x" stays a path.
 */
static char *store_uri(const char *path, const char *query)
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

	if (sqlite3_prepare_v2(st->db, "PRAGMA quick_check(5)", -1, &stmt, NULL) != SQLITE_OK) {
		log_err("store %s: quick_check cannot run either: %s", st->path, sqlite3_errmsg(st->db));
		return;
	}
	while (sqlite3_step(stmt) == SQLITE_ROW) {
		log_err("store %s: quick_check: %s", st->path, (const char *)sqlite3_column_text(stmt, 0));
		lines++;
	}
	if (!lines)
		log_err("store %s: quick_check cannot run: %s", st->path, sqlite3_errmsg(st->db));
	sqlite3_finalize(stmt);
}

/*
 * Read the header facts that decide whether this is a clearpath store.  The
 * first read is where SQLite notices a file that is not a database at all.
 */
static int read_identity(struct store *st, int64_t *app_id, int64_t *version, int64_t *objects)
{
	int ret = store_int64(st, app_id, "PRAGMA application_id", NULL);

	if (!ret)
		ret = store_int64(st, version, "PRAGMA user_version", NULL);
	if (!ret)
		ret = store_int64(st, objects, "SELECT count(*) FROM sqlite_schema", NULL);
	return ret;
}

/* Refuse what is not ours or is too new.  0 or a logged negative errno. */
static int check_identity(struct store *st, int64_t app_id, int64_t version, int64_t objects)
{
	if (app_id != STORE_APP_ID && (app_id != 0 || objects != 0)) {
		log_err("%s is an SQLite database of another application, not a clearpath store", st->path);
		log_hint("point $CLEARPATH_STORE or --store at a new file or a clearpath store");
		return -EINVAL;
	}
	if (version < 0) {
		/* No clearpath writes a negative version; migrating from it would index before the list. */
		log_err("%s is not a clearpath store: its schema version is %lld", st->path, (long long)version);
		log_hint("point $CLEARPATH_STORE or --store at a new file or a clearpath store");
		return -EINVAL;
	}
	if (version > SCHEMA_VERSION) {
		log_err("store %s has schema v%lld but this clearpath knows up to v%d", st->path,
			(long long)version, SCHEMA_VERSION);
		log_hint("upgrade clearpath to read it");
		return -EPROTO;
	}
	return 0;
}

/*
 * Reading only, nothing can be migrated: an older schema is read as it is
 * (every version has the tables the readers use; later ones only add), an
 * empty database holds nothing to read.
 */
static int identify_readonly(struct store *st)
{
	int64_t app_id, version, objects;
	int ret = read_identity(st, &app_id, &version, &objects);

	if (!ret)
		ret = check_identity(st, app_id, version, objects);
	if (!ret && version == 0) {
		log_err("%s holds no clearpath store yet (an empty database)", st->path);
		log_hint("'clearpath run -- mem memset ...' fills it; --store or $CLEARPATH_STORE pick another");
		ret = -EINVAL;
	}
	return ret;
}

/* Refuse what is not ours or is too new; bring an older or empty store up to date. */
static int identify_and_migrate(struct store *st)
{
	int64_t app_id, version, objects;
	int ret = store_tx_begin(st);

	if (ret)
		return ret;
	ret = read_identity(st, &app_id, &version, &objects);
	if (!ret)
		ret = check_identity(st, app_id, version, objects);
	if (ret)
		goto out;
	for (; version < SCHEMA_VERSION && !ret; version++) {
		char *err = NULL;
		int rc = sqlite3_exec(st->db, migrations[version].sql, NULL, NULL, &err);

		if (rc != SQLITE_OK) {
			log_err("store %s: migrating to schema v%lld failed: %s", st->path,
				(long long)version + 1, err ? err : sqlite3_errstr(rc));
			ret = store_sql_errno(rc);
		}
		sqlite3_free(err);
		if (!ret && migrations[version].data)
			ret = migrations[version].data(st);
	}

	if (!ret) {
		char sql[96];

		/* PRAGMA arguments cannot be bound parameters. */
		snprintf(sql, sizeof(sql), "PRAGMA application_id = %d; PRAGMA user_version = %d",
			 STORE_APP_ID, SCHEMA_VERSION);
		ret = sqlite3_exec(st->db, sql, NULL, NULL, NULL);
		if (ret)
			ret = store_sql_fail(st, ret, "stamping the schema version");
	}
out:
	return store_tx_end(st, ret);
}

/*
 * Connection settings.  WAL lets readers run beside the writer; the busy
 * timeout makes concurrent writers queue instead of failing; synchronous
 * FULL fsyncs every commit, because the machine under test runs patched
 * kernels and a kernel crash must not take committed samples with it (a
 * sample costs seconds, an fsync milliseconds).
 */
static int configure(struct store *st)
{
	sqlite3_stmt *stmt;
	int ret, rc;

	ret = store_prepare(st, &stmt, "PRAGMA journal_mode = WAL", NULL);
	if (ret)
		return ret;
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
		ret = store_sql_fail(st, rc, "switching to WAL");
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
	int sys = sqlite3_system_errno(st->db);

	switch (rc & 0xff) {
	case SQLITE_NOTADB:
		log_err("%s is not a clearpath store: not an SQLite database", st->path);
		log_hint("point $CLEARPATH_STORE or --store at a new file or a clearpath store");
		return -EINVAL;
	case SQLITE_CORRUPT:
		log_err("store %s is corrupt: %s", st->path, sqlite3_errmsg(st->db));
		report_quick_check(st);
		return -EIO;
	case SQLITE_CANTOPEN:
		log_err("cannot open store %s: %s", st->path, sys ? strerror(sys) : sqlite3_errmsg(st->db));
		return sys ? -sys : -EACCES;
	}
	return store_sql_fail(st, rc, "opening");
}

/* Open st->uri with @flags and probe it with a read: 0 or SQLite's result code. */
static int open_probe(struct store *st, int flags)
{
	int rc = sqlite3_open_v2(st->uri, &st->db, flags | SQLITE_OPEN_URI, NULL);

	if (rc == SQLITE_OK)
		sqlite3_extended_result_codes(st->db, 1);
	if (rc == SQLITE_OK && store_bench_sql_functions(st))
		rc = SQLITE_ERROR;
	if (rc == SQLITE_OK)
		rc = sqlite3_busy_timeout(st->db, BUSY_TIMEOUT_MS);
	/* Probe with a read first: it is where NOTADB and CORRUPT surface. */
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(st->db, "SELECT count(*) FROM sqlite_schema", NULL, NULL, NULL);
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

	st->uri = store_uri(st->path, "?mode=ro");
	if (!st->uri)
		return SQLITE_NOMEM;
	rc = open_probe(st, SQLITE_OPEN_READONLY);
	if (((rc & 0xff) == SQLITE_READONLY || (rc & 0xff) == SQLITE_CANTOPEN) && !has_wal(st->path)) {
		sqlite3_close(st->db);
		st->db = NULL;
		free(st->uri);
		st->uri = store_uri(st->path, "?immutable=1");
		if (!st->uri)
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

static int store_open_mode(const char *url, bool readonly, struct store **out)
{
	struct store *st = calloc(1, sizeof(*st));
	bool existing = false;
	int ret, rc;

	*out = NULL;
	if (!st)
		return -ENOMEM;
	st->path = store_url_path(url);
	if (!st->path) {
		ret = -EINVAL;
		goto out;
	}
	if (strlen(st->path) >= PATH_MAX) {
		log_err("store path is too long (%zu bytes; at most %d)", strlen(st->path), PATH_MAX - 1);
		ret = -EINVAL;
		goto out;
	}
	/*
	 * A reader that may write opens read-write all the same (without
	 * creating): only a writing connection removes the -wal and -shm files
	 * when it closes.
	 */
	if (readonly && may_write(st->path))
		readonly = false, existing = true;
	if (readonly) {
		rc = open_readonly(st);
	} else {
		ret = existing ? 0 : make_parent_dir(st->path);
		if (ret)
			goto out;
		st->uri = store_uri(st->path, "");
		rc = st->uri ? open_probe(st, SQLITE_OPEN_READWRITE | (existing ? 0 : SQLITE_OPEN_CREATE))
			     : SQLITE_NOMEM;
	}
	if (rc != SQLITE_OK) {
		ret = st->db ? open_failed(st, rc) : -ENOMEM;
		goto out;
	}
	/* A reader never initialises an empty file (/dev/null would get a journal beside it). */
	if (readonly || existing)
		ret = identify_readonly(st);
	if (!ret && !readonly)
		ret = identify_and_migrate(st);
	if (!ret && !readonly)
		ret = configure(st);
out:
	if (ret) {
		store_close(st);
		return ret;
	}
	*out = st;
	return 0;
}

int store_open(const char *url, struct store **out)
{
	return store_open_mode(url, false, out);
}

int store_open_readonly(const char *url, struct store **out)
{
	return store_open_mode(url, true, out);
}

void store_close(struct store *st)
{
	if (!st)
		return;
	sqlite3_close(st->db);
	free(st->path);
	free(st->uri);
	free(st);
}

void store_discard(struct store *st)
{
	static const char *const suffix[] = { "", "-wal", "-shm", "-journal" };
	char *path;

	if (!st)
		return;
	path = st->path;
	st->path = NULL;
	store_close(st);
	for (size_t i = 0; path && i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		char file[PATH_MAX + 16];

		snprintf(file, sizeof(file), "%s%s", path, suffix[i]);
		unlink(file);
	}
	free(path);
}

int store_check(struct store *st)
{
	sqlite3_stmt *stmt;
	int ret, rc, bad = 0;

	ret = store_prepare(st, &stmt, "PRAGMA integrity_check", NULL);
	if (ret)
		return ret;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		const char *line = (const char *)sqlite3_column_text(stmt, 0);

		if (line && !strcmp(line, "ok"))
			continue;
		log_err("store %s: integrity_check: %s", st->path, line ? line : "(null)");
		bad++;
	}
	if (rc != SQLITE_DONE)
		ret = store_sql_fail(st, rc, "integrity_check");	/* CORRUPT maps to -EIO */
	else if (bad)
		ret = -EIO;
	sqlite3_finalize(stmt);
	return ret;
}
