/* store_fixture: temp directories or databases per backend, stderr capture and a small data set shared by the store's unit tests. */
#ifndef CLEARPATH_TESTS_STORE_FIXTURE_H
#define CLEARPATH_TESTS_STORE_FIXTURE_H

#define _GNU_SOURCE
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "store/store.h"
#include "workloads/workload.h"

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* A fresh directory under /tmp, removed by fixture_rmdir(). */
static char *fixture_mkdtemp(void)
{
	char tmpl[] = "/tmp/clearpath-store-XXXXXX";
	char *dir = mkdtemp(tmpl);

	return dir ? strdup(dir) : NULL;
}

static void fixture_rmdir(char *dir)
{
	if (dir)
		nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(dir);
}

/* "@dir/@name" in a static buffer of the caller's choosing. */
static const char *fixture_path(char *buf, size_t len, const char *dir, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
	return buf;
}

/* Stderr goes to a temp file between capture_begin() and capture_end(), which returns its text. */
struct capture {
	int saved;
	FILE *f;
	char text[4096];
};

static void capture_begin(struct capture *c)
{
	fflush(stderr);
	c->f = tmpfile();
	c->saved = dup(STDERR_FILENO);
	dup2(fileno(c->f), STDERR_FILENO);
}

static const char *capture_end(struct capture *c)
{
	size_t n;

	fflush(stderr);
	dup2(c->saved, STDERR_FILENO);
	close(c->saved);
	rewind(c->f);
	n = fread(c->text, 1, sizeof(c->text) - 1, c->f);
	c->text[n] = '\0';
	fclose(c->f);
	fputs(c->text, stderr);	/* still visible in the test log */
	return c->text;
}

/* Get or create the benchmark that is the text @params of @suite, parsed as clearpath parses it. */
static inline int fixture_benchmark(struct store *st, const char *suite, const char *params, int64_t *id)
{
	static struct bench_identity ident;

	/* the real parser, as clearpath's: what does not parse is raw */
	if (wl_identity_parse(suite, params, &ident))
		ident_raw(&ident, suite, params);
	return store_benchmark_get(st, &ident, id, NULL, 0);
}

/* Ids of one benchmark with one result class, the usual shape of a test data set. */
struct fixture_ids {
	int64_t sut, swprofile, benchmark, resultclass;
};

static int fixture_objects(struct store *st, const char *sut, const char *swp, struct fixture_ids *ids)
{
	int ret = store_sut_get(st, sut, "{\"arch\":\"x86_64\",\"cores\":2}", &ids->sut);

	if (!ret)
		ret = store_swprofile_get(st, swp, ids->sut, "{\"kernel\":\"6.9.0\"}", false, &ids->swprofile);
	if (!ret)
		ret = fixture_benchmark(st, "mem/mmap", "-p 1GB -f demand -s 32GB -l 5", &ids->benchmark);
	if (!ret)
		ret = store_resultclass_get(st, ids->benchmark, "mmap -p 1GB -f demand -s 32GB -l 5", "",
					    "bytes/sec", true, &ids->resultclass);
	return ret;
}

/* One complete session: 1 warmup and @repeats samples of value base + i. */
static int fixture_session(struct store *st, const struct fixture_ids *ids, int repeats, double base,
			   char uuid[STORE_UUID_LEN + 1])
{
	struct store_session s = { .boot_id = "b00t", .sut_id = ids->sut, .swprofile_id = ids->swprofile };
	int64_t id;
	int ret = store_session_begin(st, &s, &id);

	if (!ret)
		ret = store_sample_add(st, id, ids->resultclass, 0, true, base / 2);
	for (int i = 0; !ret && i < repeats; i++)
		ret = store_sample_add(st, id, ids->resultclass, i, false, base + i);
	if (!ret)
		ret = store_session_end(st, id);
	if (uuid)
		memcpy(uuid, s.uuid, sizeof(s.uuid));
	return ret;
}

static int count_row(const struct store_row *row, void *arg)
{
	(void)row;
	(*(int *)arg)++;
	return 0;
}

/* How many samples the store holds (warmups too when @warmup). */
static int fixture_count(struct store *st, bool warmup)
{
	struct store_filter f = { .include_warmup = warmup };
	int n = 0;

	return store_query(st, &f, count_row, &n) ? -1 : n;
}

/* store_export() of @st in @fmt as a new string; the test fails unless it works. */
static inline char *fixture_export(struct store *st, enum store_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(store_export(st, f, fmt), 0);
	fclose(f);
	return buf;
}

/*
 * Running the store's tests against every backend.  A test of the
 * parameterized groups gets a struct fixture_store as its state: a fresh
 * directory, and stores named like files ("a.db") that fixture_url() maps to
 * a file in that directory (SQLite) or to a fresh database on the server
 * $CLEARPATH_TEST_PG_URL names (PostgreSQL), dropped after the test.
 * fixture_run() runs one array of tests on one backend; on PostgreSQL,
 * without libpq or without a server, each test is reported as skipped with
 * the reason, and under CI=true the missing server is a failure instead.
 */
enum fixture_backend { FIXTURE_SQLITE, FIXTURE_POSTGRESQL };

#define FIXTURE_STORES 16

struct fixture_store {
	enum fixture_backend backend;
	char *dir;
	int n;
	char *name[FIXTURE_STORES];	/* as the test calls them */
	char *url[FIXTURE_STORES];	/* what store_open(, wl_identity_parse) takes */
	char *db[FIXTURE_STORES];	/* the database created for it (PostgreSQL), dropped after the test */
};

/* The backend of the group running now (fixture_run() sets it, fixture_setup() reads it). */
static enum fixture_backend fixture_now;
static char fixture_pg_why[512];	/* why PostgreSQL tests do not run, "" when they do */

#ifdef CLEARPATH_HAVE_LIBPQ
#include <libpq-fe.h>

static PGconn *fixture_pg_admin;	/* to $CLEARPATH_TEST_PG_URL: creates and drops the databases */
static const char *fixture_pg_base;

/*
 * $CLEARPATH_TEST_PG_URL (a postgresql:// URL) with database @db instead of
 * its own and, unless NULL, @userinfo ("role:password") instead of its
 * role, as a new string.
 */
static inline char *fixture_pg_url_as(const char *db, const char *userinfo)
{
	const char *base = fixture_pg_base, *auth = strstr(base, "://");
	const char *host = auth ? auth + 3 : base, *path = strchr(host, '/'), *at, *query;
	char *url;
	int n;

	if (!path)
		path = strchr(host, '?') ? strchr(host, '?') : host + strlen(host);
	query = strchr(path, '?') ? strchr(path, '?') : "";
	at = memrchr(host, '@', (size_t)(path - host));
	if (!userinfo)
		n = asprintf(&url, "%.*s/%s%s", (int)(path - base), base, db, query);
	else
		n = asprintf(&url, "%.*s%s@%.*s/%s%s", (int)(host - base), base, userinfo,
			     (int)(path - (at ? at + 1 : host)), at ? at + 1 : host, db, query);
	return n < 0 ? NULL : url;
}

/* Run @sql as the administrator; whether it succeeded (the server's message on stderr if not). */
static inline bool fixture_pg_admin_sql(const char *sql)
{
	PGresult *res = PQexec(fixture_pg_admin, sql);
	bool ok = PQresultStatus(res) == PGRES_COMMAND_OK || PQresultStatus(res) == PGRES_TUPLES_OK;

	if (!ok)
		fprintf(stderr, "# %s: %s", sql, PQerrorMessage(fixture_pg_admin));
	PQclear(res);
	return ok;
}
#else
/* The server tests' helpers in a build without libpq, where those tests are skipped. */
static inline char *fixture_pg_url_as(const char *db, const char *userinfo)
{
	(void)db;
	(void)userinfo;
	fail_msg("no PostgreSQL in this build");
	return NULL;
}

static inline bool fixture_pg_admin_sql(const char *sql)
{
	fail_msg("no PostgreSQL in this build: %s", sql);
	return false;
}
#endif

static inline char *fixture_pg_url(const char *db)
{
	return fixture_pg_url_as(db, NULL);
}

static inline int fixture_setup(void **state)
{
	struct fixture_store *fs = calloc(1, sizeof(*fs));

	if (!fs || !(fs->dir = fixture_mkdtemp())) {
		free(fs);
		return -1;
	}
	fs->backend = fixture_now;
	*state = fs;
	return 0;
}

static inline int fixture_teardown(void **state)
{
	struct fixture_store *fs = *state;

	for (int i = 0; i < fs->n; i++) {
#ifdef CLEARPATH_HAVE_LIBPQ
		if (fs->db[i]) {
			char sql[128];

			/* FORCE: a connection a failed test left open must not keep it */
			snprintf(sql, sizeof(sql), "DROP DATABASE IF EXISTS %s WITH (FORCE)", fs->db[i]);
			fixture_pg_admin_sql(sql);
		}
#endif
		free(fs->db[i]);
		free(fs->name[i]);
		free(fs->url[i]);
	}
	fixture_rmdir(fs->dir);
	free(fs);
	return 0;
}

/* The database of the test's store @name (PostgreSQL; it must have been named by fixture_url()). */
static inline const char *fixture_db(void **state, const char *name)
{
	struct fixture_store *fs = *state;

	for (int i = 0; i < fs->n; i++)
		if (!strcmp(fs->name[i], name) && fs->db[i])
			return fs->db[i];
	fail_msg("no database for store %s", name);
	return NULL;
}

static inline const char *fixture_dir(void **state)
{
	return ((struct fixture_store *)*state)->dir;
}

/* Whether the test runs against PostgreSQL. */
static inline bool fixture_pg(void **state)
{
	return ((struct fixture_store *)*state)->backend == FIXTURE_POSTGRESQL;
}

/*
 * The URL of the test's store @name: the file @name in the test's directory
 * (SQLite), or a database created empty for it on first use (PostgreSQL),
 * with @options after CREATE DATABASE (e.g. a collation; "" for none).
 * The same name gives the same store until the test ends.
 */
static inline const char *fixture_url_created(void **state, const char *name, const char *options)
{
	struct fixture_store *fs = *state;
	int i;

	for (i = 0; i < fs->n; i++)
		if (!strcmp(fs->name[i], name))
			return fs->url[i];
	assert_true(fs->n < FIXTURE_STORES);
	fs->name[i] = strdup(name);
	assert_non_null(fs->name[i]);
	if (fs->backend == FIXTURE_SQLITE) {
		assert_true(asprintf(&fs->url[i], "%s/%s", fs->dir, name) > 0);
	} else {
#ifdef CLEARPATH_HAVE_LIBPQ
		static unsigned serial;
		char db[64], sql[512];

		/* by process and number: the test programs may share one server */
		snprintf(db, sizeof(db), "cptest_%ld_%u", (long)getpid(), serial++);
		snprintf(sql, sizeof(sql), "CREATE DATABASE %s %s", db, options);
		assert_true(fixture_pg_admin_sql(sql));
		fs->db[i] = strdup(db);
		fs->url[i] = fixture_pg_url(db);
		assert_non_null(fs->db[i]);
		assert_non_null(fs->url[i]);
#else
		(void)options;
		fail_msg("no PostgreSQL in this build");
#endif
	}
	fs->n++;
	return fs->url[i];
}

static inline const char *fixture_url(void **state, const char *name)
{
	return fixture_url_created(state, name, "");
}

/* Open (creating) the test's store @name; the test fails unless that works. */
static inline struct store *fixture_open(void **state, const char *name)
{
	struct store *st;

	assert_int_equal(store_open(fixture_url(state, name), wl_identity_parse, &st), 0);
	return st;
}

/* Run @sql on the SQLite file @path directly, behind the store's back: column 0 of row 1, or -1. */
static inline int64_t fixture_sqlite_raw(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *stmt;
	int64_t v = -1;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL), SQLITE_OK);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		v = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	sqlite3_close(db);
	return v;
}

/*
 * Run @sql on the test's store @name behind the store's back (sqlite3 or
 * libpq, not clearpath's code): column 0 of its first row as an integer,
 * or -1 when it gives no row.  The test fails when the SQL does.
 */
static inline int64_t fixture_raw(void **state, const char *name, const char *sql)
{
	const char *url = fixture_url(state, name);
	int64_t v = -1;

	if (!fixture_pg(state))
		return fixture_sqlite_raw(url, sql);
#ifdef CLEARPATH_HAVE_LIBPQ
	PGconn *conn = PQconnectdb(url);
	PGresult *res;

	assert_int_equal(PQstatus(conn), CONNECTION_OK);
	res = PQexec(conn, sql);
	if (PQresultStatus(res) != PGRES_TUPLES_OK && PQresultStatus(res) != PGRES_COMMAND_OK)
		fail_msg("%s: %s", sql, PQerrorMessage(conn));
	if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) > 0)
		v = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	PQclear(res);
	PQfinish(conn);
#endif
	return v;
}

/* A PostgreSQL test where there is none: skipped (fixture_run() said why once). */
static inline void fixture_pg_skip(void **state)
{
	(void)state;
	skip();
}

/* A PostgreSQL test without its server (given but unreachable, or none under CI=true): fails, saying why. */
static inline void fixture_pg_missing(void **state)
{
	(void)state;
	fail_msg("%s%s", getenv("CLEARPATH_TEST_PG_URL") ? "" : "CI=true: these must run there, not skip: ",
		 fixture_pg_why);
}

/* Connect to $CLEARPATH_TEST_PG_URL once; "" in fixture_pg_why when the tests can run. */
static inline void fixture_pg_init(void)
{
	static bool done;
	const char *url = getenv("CLEARPATH_TEST_PG_URL");

	if (done)
		return;
	done = true;
#ifdef CLEARPATH_HAVE_LIBPQ
	if (!url || !*url) {
		snprintf(fixture_pg_why, sizeof(fixture_pg_why), "no PostgreSQL server: CLEARPATH_TEST_PG_URL is unset"
			 " (make check sets it when PostgreSQL is installed: tests/pg-server)");
		return;
	}
	fixture_pg_base = url;
	fixture_pg_admin = PQconnectdb(url);
	if (PQstatus(fixture_pg_admin) != CONNECTION_OK)
		snprintf(fixture_pg_why, sizeof(fixture_pg_why), "CLEARPATH_TEST_PG_URL: cannot connect: %s",
			 PQerrorMessage(fixture_pg_admin));
	else
		PQclear(PQexec(fixture_pg_admin, "SET client_min_messages = warning"));
#else
	(void)url;
	snprintf(fixture_pg_why, sizeof(fixture_pg_why), "built without libpq (WITH_LIBPQ=0): no PostgreSQL store");
#endif
}

/*
 * Run @tests (n of them) against @backend, each with fixture_setup() and
 * fixture_teardown() and its name suffixed with the backend's.  The number
 * of tests that failed.
 */
static inline int fixture_run(const char *group, const struct CMUnitTest *tests, size_t n, enum fixture_backend backend)
{
	const char *be = backend == FIXTURE_SQLITE ? "sqlite" : "postgresql";
	struct CMUnitTest *t = calloc(n, sizeof(*t));
	char name[128];
	bool missing = false;
	int failed;

	if (!t)
		return (int)n;
	if (backend == FIXTURE_POSTGRESQL) {
		fixture_pg_init();
		/* a server that was given but cannot be reached fails everywhere; none at all only under CI */
#ifdef CLEARPATH_HAVE_LIBPQ
		const char *ci = getenv("CI");

		missing = fixture_pg_why[0] && (fixture_pg_base || (ci && !strcmp(ci, "true")));
#endif
		if (fixture_pg_why[0] && !missing)
			print_message("# %s tests on postgresql skipped: %s\n", group, fixture_pg_why);
	}
	for (size_t i = 0; i < n; i++) {
		char *suffixed;

		t[i] = tests[i];
		t[i].name = asprintf(&suffixed, "%s [%s]", tests[i].name, be) > 0 ? suffixed : tests[i].name;
		t[i].setup_func = fixture_setup;
		t[i].teardown_func = fixture_teardown;
		if (backend == FIXTURE_POSTGRESQL && fixture_pg_why[0]) {
			t[i].test_func = missing ? fixture_pg_missing : fixture_pg_skip;
			t[i].setup_func = t[i].teardown_func = NULL;
		}
	}
	fixture_now = backend;
	snprintf(name, sizeof(name), "%s [%s]", group, be);
	failed = _cmocka_run_group_tests(name, t, n, NULL, NULL);
	for (size_t i = 0; i < n; i++)
		if (t[i].name != tests[i].name)
			free((char *)t[i].name);
	free(t);
	return failed;
}
#define FIXTURE_RUN(group, tests, backend) fixture_run(group, tests, sizeof(tests) / sizeof(tests[0]), backend)

#endif
