/* test_store: opening, identifying, writing and querying the result store on every backend, also under concurrency and kill -9. */
#include "store_fixture.h"

#include <errno.h>
#include <math.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "store/campaign.h"
#include "store/db.h"
#include "store/db.h"
#include "store/url.h"

static void test_open_creates_its_directory_only(void **state)
{
	char path[512];
	struct store *st;

	/* the store's own directory is created, but not a missing parent (a typo makes no tree) */
	fixture_path(path, sizeof(path), fixture_dir(state), "a/b/results.db");
	assert_int_equal(store_open(path, wl_identity_parse, &st), -ENOENT);
	assert_null(st);
	fixture_path(path, sizeof(path), fixture_dir(state), "a/results.db");
	assert_int_equal(store_open(path, wl_identity_parse, &st), 0);
	store_close(st);
	assert_int_equal(fixture_sqlite_raw(path, "PRAGMA user_version"), store_schema_version());
	assert_int_equal(fixture_sqlite_raw(path, "PRAGMA application_id"), 0x436c5061);

	/* discarded (a failing command's new store): the directory made for it goes too, one that was there stays */
	fixture_path(path, sizeof(path), fixture_dir(state), "c/results.db");
	assert_int_equal(store_open(path, wl_identity_parse, &st), 0);
	store_discard(st);
	fixture_path(path, sizeof(path), fixture_dir(state), "c");
	assert_int_equal(access(path, F_OK), -1);
	fixture_path(path, sizeof(path), fixture_dir(state), "a/other.db");
	assert_int_equal(store_open(path, wl_identity_parse, &st), 0);
	store_discard(st);
	assert_int_equal(access(path, F_OK), -1);
	fixture_path(path, sizeof(path), fixture_dir(state), "a/results.db");
	assert_int_equal(access(path, F_OK), 0);
}

static void test_url_forms(void **state)
{
	char url[600], path[512];
	struct store *st;

	fixture_path(path, sizeof(path), fixture_dir(state), "url.db");
	snprintf(url, sizeof(url), "sqlite://%s", path);
	assert_int_equal(store_open(url, wl_identity_parse, &st), 0);
	store_close(st);
	assert_int_equal(access(path, F_OK), 0);

	assert_int_equal(store_open("mysql://db.example/results", wl_identity_parse, &st), -EINVAL);
	assert_null(st);
	assert_int_equal(store_open("sqlite://relative.db", wl_identity_parse, &st), -EINVAL);
	assert_int_equal(store_open("", wl_identity_parse, &st), -EINVAL);
}

/* A password never reaches a message, whatever form the URL takes; nothing else changes. */
static void test_url_display_hides_password(void **state)
{
	static const char *const cases[][2] = {
		{ "postgresql://ci:s3cret@127.0.0.1:5432/lab", "postgresql://ci:***@127.0.0.1:5432/lab" },
		{ "postgres://ci:p@ss@db/lab?sslmode=disable", "postgres://ci:***@db/lab?sslmode=disable" },
		{ "postgresql://ci@db/lab", "postgresql://ci@db/lab" },
		{ "postgresql://db:5432/lab", "postgresql://db:5432/lab" },
		{ "host=db password=s3cret dbname=lab", "host=db password=*** dbname=lab" },
		{ "password = 'a b\\' c' dbname=lab", "password=*** dbname=lab" },
		{ "host=db password='unterminated", "host=db password=***" },
		{ "password=a password=b password=c password=", "password=*** password=*** password=*** password=***" },
		{ "mypassword=x", "mypassword=x" },
		/* the query form libpq takes too, its key percent-encoded or not */
		{ "postgresql://db/lab?user=ci&password=s3cret", "postgresql://db/lab?user=ci&password=***" },
		{ "postgresql://db/lab?password=s3cret&sslmode=disable", "postgresql://db/lab?password=***&sslmode=disable" },
		{ "postgresql://ci:a@db/lab?pass%77ord=b", "postgresql://ci:***@db/lab?pass%77ord=***" },
		{ "postgresql://db/lab?password=", "postgresql://db/lab?password=***" },
		{ "postgresql://db/lab?passwordx=1&xpassword=2", "postgresql://db/lab?passwordx=1&xpassword=2" },
		{ "postgresql://db/lab?password", "postgresql://db/lab?password" },
		{ "postgres://db?password=s&password=t", "postgres://db?password=***&password=***" },
		{ "/tmp/results.db", "/tmp/results.db" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *shown = store_url_display(cases[i][0]);

		assert_non_null(shown);
		assert_string_equal(shown, cases[i][1]);
		free(shown);
	}
}

/*
 * A PostgreSQL URL libpq cannot read, or with a value it would refuse only
 * while connecting (a port out of range), is a usage error (-EINVAL, exit 2)
 * that says what is wrong and how to write it, before any traffic; and the
 * URL quoted back hides its password.  Every host here is 127.0.0.1.
 */
static void test_pg_malformed_url(void **state)
{
	static const char *const cases[][2] = {
		{ "postgresql://[::1", "matching \"]\"" },
		{ "postgresql://ci:s3cret@[::1", "postgresql://ci:***@[::1" },
		{ "postgresql://127.0.0.1:99999/x", "port \"99999\" is not a TCP port" },
		{ "postgresql://127.0.0.1:0/x", "port \"0\"" },
		{ "postgresql://127.0.0.1:5432,127.0.0.1:70000/x", "port \"70000\"" },
		{ "postgresql://127.0.0.1:http/x", "port \"http\"" },
		{ "postgresql://127.0.0.1/x?nosuchparam=1", "nosuchparam" },
		{ "postgresql://127.0.0.1/x?sslmode=sometimes", "sslmode \"sometimes\" is none of" },
		{ "postgresql://127.0.0.1/x?connect_timeout=soon", "connect_timeout \"soon\"" },
		{ "host=127.0.0.1 nosuchkeyword=1", "invalid connection option \"nosuchkeyword\"" },
		{ "nosuchkeyword=1 host=127.0.0.1", "invalid connection option \"nosuchkeyword\"" },
		{ "host=127.0.0.1 port=99999 password=s3cret", "password=***" },
		{ "host='127.0.0.1 dbname=x", "unterminated quoted string" },
		{ "host=127.0.0.1,127.0.0.1,127.0.0.1 port=5432,5433", "2 ports for 3 hosts" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct capture cap;
		struct store *st;
		const char *said;

		capture_begin(&cap);
#ifdef CLEARPATH_HAVE_LIBPQ
		assert_int_equal(store_open(cases[i][0], wl_identity_parse, &st), -EINVAL);
#else
		assert_int_equal(store_open(cases[i][0], wl_identity_parse, &st), -ENOTSUP);
#endif
		said = capture_end(&cap);
		assert_null(st);
#ifdef CLEARPATH_HAVE_LIBPQ
		if (!strstr(said, cases[i][1]) || !strstr(said, "is malformed") || !strstr(said, "postgresql://USER@HOST:PORT"))
			fail_msg("%s: %s", cases[i][0], said);
		assert_null(strstr(said, "s3cret"));
		assert_null(strstr(said, "server running"));
#else
		(void)said;
#endif
	}
}

static void test_default_url(void **state)
{
	char buf[512];

	(void)state;
	setenv("CLEARPATH_STORE", "/x/mine.db", 1);
	assert_int_equal(store_default_url(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/x/mine.db");
	unsetenv("CLEARPATH_STORE");
	setenv("XDG_DATA_HOME", "/xdg", 1);
	assert_int_equal(store_default_url(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/xdg/clearpath/results.db");
	unsetenv("XDG_DATA_HOME");
	setenv("HOME", "/home/u", 1);
	assert_int_equal(store_default_url(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/home/u/.local/share/clearpath/results.db");
	assert_int_equal(store_default_url(buf, 8), -ENAMETOOLONG);
}

static void test_unwritable_directory(void **state)
{
	char file[512], path[600];
	struct capture cap;
	struct store *st;
	FILE *f;

	/* A regular file where a directory should be: fails even for root. */
	fixture_path(file, sizeof(file), fixture_dir(state), "plainfile");
	f = fopen(file, "w");
	assert_non_null(f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/sub/results.db", file);
	capture_begin(&cap);
	assert_int_equal(store_open(path, wl_identity_parse, &st), -ENOTDIR);
	assert_non_null(strstr(capture_end(&cap), "cannot create store directory"));
}

static void test_empty_file_is_initialised(void **state)
{
	char path[512];
	struct store *st;
	FILE *f;

	fixture_path(path, sizeof(path), fixture_dir(state), "empty.db");
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(store_open(path, wl_identity_parse, &st), 0);
	store_close(st);
	assert_int_equal(fixture_sqlite_raw(path, "PRAGMA user_version"), store_schema_version());
}

static void test_refuses_other_sqlite_db(void **state)
{
	char path[512];
	struct capture cap;
	struct store *st;

	fixture_path(path, sizeof(path), fixture_dir(state), "other.db");
	fixture_sqlite_raw(path, "CREATE TABLE photos (id INTEGER PRIMARY KEY, blob BLOB)");
	capture_begin(&cap);
	assert_int_equal(store_open(path, wl_identity_parse, &st), -EINVAL);
	assert_non_null(strstr(capture_end(&cap), "another application"));
	assert_null(st);
	/* refused before touching it: still one table, still not WAL, no version stamp */
	assert_int_equal(fixture_sqlite_raw(path, "SELECT count(*) FROM sqlite_schema"), 1);
	assert_int_equal(fixture_sqlite_raw(path, "PRAGMA user_version"), 0);
	assert_int_equal(access(strcat(path, "-wal"), F_OK), -1);
}

static void test_refuses_non_sqlite_file(void **state)
{
	char path[512];
	struct capture cap;
	struct store *st;
	FILE *f;

	fixture_path(path, sizeof(path), fixture_dir(state), "notes.txt");
	f = fopen(path, "w");
	assert_non_null(f);
	for (int i = 0; i < 100; i++)
		fputs("these are my notes, not a database\n", f);
	fclose(f);
	capture_begin(&cap);
	assert_int_equal(store_open(path, wl_identity_parse, &st), -EINVAL);
	assert_non_null(strstr(capture_end(&cap), "not an SQLite database"));
}

/* The schema version a store at @name says it has, read behind the store's back. */
static int64_t raw_version(void **state, const char *name)
{
	return fixture_raw(state, name, fixture_pg(state) ?
			   "SELECT version FROM clearpath_schema WHERE application = 'clearpath'" :
			   "PRAGMA user_version");
}

static void test_reopen_keeps_ids(void **state)
{
	struct store *st = fixture_open(state, "reopen.db");
	int64_t id1, id2;

	assert_int_equal(store_sut_get(st, "aws-m7g.metal", NULL, &id1), 0);
	store_close(st);
	st = fixture_open(state, "reopen.db");
	assert_int_equal(store_sut_get(st, "aws-m7g.metal", NULL, &id2), 0);
	assert_int_equal(id1, id2);
	store_close(st);
	assert_int_equal(raw_version(state, "reopen.db"), store_schema_version());
	assert_int_equal(fixture_raw(state, "reopen.db", "SELECT count(*) FROM sut"), 1);
}

static void test_refuses_newer_schema(void **state)
{
	struct capture cap;
	struct store *st = fixture_open(state, "future.db");

	store_close(st);
	fixture_raw(state, "future.db", fixture_pg(state) ? "UPDATE clearpath_schema SET version = 99" :
		    "PRAGMA user_version = 99");
	capture_begin(&cap);
	assert_int_equal(store_open(fixture_url(state, "future.db"), wl_identity_parse, &st), -EPROTO);
	assert_non_null(strstr(capture_end(&cap), "upgrade clearpath"));
	assert_null(st);
	assert_int_equal(store_open_readonly(fixture_url(state, "future.db"), wl_identity_parse, &st), -EPROTO);
	assert_int_equal(raw_version(state, "future.db"), 99);
}

static void test_fingerprint_diff(void **state)
{
	char buf[256];

	(void)state;
	assert_int_equal(store_fingerprint_diff("{\"a\":1,\"b\":[1]}", "{\"b\":[1],\"a\":1}", buf,
						sizeof(buf)), 0);
	assert_string_equal(buf, "");
	assert_int_equal(store_fingerprint_diff("{\"thp\":\"never\",\"k\":\"6.9\",\"x\":1}",
						"{\"k\":\"6.10\",\"thp\":\"never\",\"y\":true}", buf,
						sizeof(buf)), 3);
	assert_string_equal(buf, "k: \"6.9\" -> \"6.10\"; x: 1 -> (absent); y: (absent) -> true");
	assert_int_equal(store_fingerprint_diff("[]", "{}", buf, sizeof(buf)), -EINVAL);
}

/*
 * A store with clearpath's mark and tables but schema version 0 (damaged,
 * or written by another program) is neither "empty" nor migrated: both
 * openings refuse it (-EINVAL) saying so and what to do, and leave it as it was.
 */
static void test_refuses_tables_at_version_0(void **state)
{
	struct capture cap;
	struct store *st = fixture_open(state, "zero.db");
	const char *said;
	int64_t tables;
	const char *count = fixture_pg(state) ? "SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = 'public'"
					      : "SELECT count(*) FROM sqlite_schema";

	store_close(st);
	fixture_raw(state, "zero.db", fixture_pg(state) ? "UPDATE clearpath_schema SET version = 0" :
		    "PRAGMA user_version = 0");
	tables = fixture_raw(state, "zero.db", count);
	for (int readonly = 0; readonly < 2; readonly++) {
		capture_begin(&cap);
		assert_int_equal((readonly ? store_open_readonly : store_open)(fixture_url(state, "zero.db"), wl_identity_parse, &st),
				 -EINVAL);
		said = capture_end(&cap);
		assert_null(st);
		assert_non_null(strstr(said, "is not a clearpath store"));
		assert_non_null(strstr(said, "schema version 0"));
		assert_non_null(strstr(said, "restore it from a backup"));
		assert_null(strstr(said, "empty database"));
		assert_null(strstr(said, "migrating"));
	}
	assert_int_equal(raw_version(state, "zero.db"), 0);
	assert_int_equal(fixture_raw(state, "zero.db", count), tables);
}

static void test_swprofile_conflict_and_force(void **state)
{
	struct store *st = fixture_open(state, "swp.db");
	const char *fp = "{\"kernel_release\":\"6.9.0\",\"thp\":\"always\"}";
	struct capture cap;
	int64_t id, again, box;
	json_t *list;

	assert_int_equal(store_sut_get(st, "box", NULL, &box), 0);
	assert_int_equal(store_swprofile_get(st, "6.9.0", box, fp, false, &id), 0);
	/* the same fingerprint with keys in another order is the same profile */
	assert_int_equal(store_swprofile_get(st, "6.9.0", box, "{\"thp\":\"always\",\"kernel_release\":\"6.9.0\"}",
					     false, &again), 0);
	assert_int_equal(id, again);

	capture_begin(&cap);
	assert_int_equal(store_swprofile_get(st, "6.9.0", box, "{\"kernel_release\":\"6.9.0\",\"thp\":\"never\"}",
					     false, &again), -EEXIST);
	assert_non_null(strstr(capture_end(&cap), "thp: \"always\" -> \"never\""));

	assert_int_equal(store_swprofile_get(st, "6.9.0", box, "{\"kernel_release\":\"6.9.0\",\"thp\":\"never\"}",
					     true, &again), 0);
	assert_int_equal(id, again);
	/* force keeps the stored fingerprint */
	assert_int_equal(store_list_swprofiles(st, &list), 0);
	assert_int_equal(json_array_size(list), 1);
	assert_string_equal(json_string_value(json_object_get(json_object_get(json_array_get(list, 0),
						"fingerprint"), "thp")), "always");
	json_decref(list);

	assert_int_equal(store_swprofile_get(st, "bad", box, "not json", false, &id), -EINVAL);
	assert_int_equal(store_swprofile_get(st, "bad", box, "[1]", false, &id), -EINVAL);
	store_close(st);
}

/*
 * A swprofile is its kernel wherever it runs: another machine class runs it
 * with a cmdline and THP of its own; within one class, and for the kernel
 * anywhere, a difference is refused as before.
 */
static void test_swprofile_per_sut(void **state)
{
	struct store *st = fixture_open(state, "swp-sut.db");
	const char *a = "{\"kernel_release\":\"6.9.0\",\"cmdline\":\"console=ttyAMA0\"}";
	const char *b = "{\"kernel_release\":\"6.9.0\",\"cmdline\":\"console=ttyS0\"}";
	struct capture cap;
	int64_t box_a, box_b, id, again;

	assert_int_equal(store_sut_get(st, "box-a", NULL, &box_a), 0);
	assert_int_equal(store_sut_get(st, "box-b", NULL, &box_b), 0);
	assert_int_equal(store_swprofile_get(st, "base", box_a, a, false, &id), 0);
	assert_int_equal(store_swprofile_get(st, "base", box_b, b, false, &again), 0);
	assert_int_equal(id, again);
	assert_int_equal(store_swprofile_get(st, "base", box_a, a, false, &again), 0);
	assert_int_equal(store_swprofile_get(st, "base", box_b, b, false, &again), 0);
	capture_begin(&cap);
	assert_int_equal(store_swprofile_get(st, "base", box_a, b, false, &again), -EEXIST);
	assert_non_null(strstr(capture_end(&cap), "swprofile 'base' already exists with a different fingerprint"
				" on this SUT class (stored -> now): cmdline: \"console=ttyAMA0\" -> \"console=ttyS0\""));
	/* another kernel under the name is refused on any class, a new one too */
	capture_begin(&cap);
	assert_int_equal(store_swprofile_get(st, "base", box_b, "{\"kernel_release\":\"6.10.0\",\"cmdline\":\"x\"}",
					     false, &again), -EEXIST);
	assert_non_null(strstr(capture_end(&cap), "its kernel_release, the same on every machine"));
	assert_int_equal(fixture_raw(state, "swp-sut.db", "SELECT count(*) FROM swprofile_sut"), 2);
	store_close(st);
}

static void test_sut_upserts_fingerprint(void **state)
{
	struct store *st = fixture_open(state, "sut.db");
	int64_t a, b;
	json_t *list;

	assert_int_equal(store_sut_get(st, "m7g", "{\"cores\":64}", &a), 0);
	assert_int_equal(store_sut_get(st, "m7g", "{\"cores\":32}", &b), 0);
	assert_int_equal(a, b);
	assert_int_equal(store_list_suts(st, &list), 0);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_array_get(list, 0),
						"fingerprint"), "cores")), 32);
	json_decref(list);
	assert_int_equal(store_sut_get(st, "", NULL, &a), -EINVAL);
	assert_int_equal(fixture_benchmark(st, "mem mmap", "", &a), -EINVAL);
	store_close(st);
}

struct collected {
	int n;
	char session[4][STORE_UUID_LEN + 1];
	double value[16];
	bool warmup[16];
};

static int collect(const struct store_row *row, void *arg)
{
	struct collected *c = arg;

	if (c->n < 16) {
		c->value[c->n] = row->value;
		c->warmup[c->n] = row->warmup;
	}
	if (c->n < 4)
		snprintf(c->session[c->n], sizeof(c->session[0]), "%s", row->session);
	c->n++;
	return 0;
}

static void test_samples_insert_and_query(void **state)
{
	struct store *st = fixture_open(state, "samples.db");
	struct fixture_ids base, patched;
	char u1[STORE_UUID_LEN + 1], u2[STORE_UUID_LEN + 1];
	struct store_filter f = { .swprofile = "6.9.0-patched" };
	struct collected c = { 0 };

	assert_int_equal(fixture_objects(st, "m7g", "6.9.0", &base), 0);
	assert_int_equal(fixture_objects(st, "m7g", "6.9.0-patched", &patched), 0);
	assert_int_equal(base.resultclass, patched.resultclass);
	assert_int_equal(fixture_session(st, &base, 3, 100.0, NULL), 0);
	assert_int_equal(fixture_session(st, &patched, 3, 200.0, u1), 0);
	assert_int_equal(fixture_session(st, &patched, 3, 300.0, u2), 0);

	/* statistics see the patched profile's 2 x 3 repeats, no warmups, grouped by session */
	assert_int_equal(store_query(st, &f, collect, &c), 0);
	assert_int_equal(c.n, 6);
	assert_string_equal(c.session[0], u1);
	assert_true(c.value[0] == 200.0 && c.value[2] == 202.0);
	assert_int_equal(fixture_count(st, false), 9);
	assert_int_equal(fixture_count(st, true), 12);

	/* with warmups, the warmup comes first in its session */
	memset(&c, 0, sizeof(c));
	f.include_warmup = true;
	assert_int_equal(store_query(st, &f, collect, &c), 0);
	assert_int_equal(c.n, 8);
	assert_true(c.warmup[0] && !c.warmup[1]);
	assert_true(c.value[0] == 100.0);

	f.resultclass = "no such class";
	memset(&c, 0, sizeof(c));
	assert_int_equal(store_query(st, &f, collect, &c), 0);
	assert_int_equal(c.n, 0);
	store_close(st);
}

static void test_sample_rules(void **state)
{
	struct store *st = fixture_open(state, "rules.db");
	struct store_session s = { 0 };
	struct fixture_ids ids;
	int64_t sess;

	assert_int_equal(fixture_objects(st, "m7g", "6.9.0", &ids), 0);
	s.sut_id = ids.sut;
	s.swprofile_id = ids.swprofile;
	assert_int_equal(store_session_begin(st, &s, &sess), 0);
	assert_true(store_uuid_valid(s.uuid));
	assert_int_equal(store_sample_add(st, sess, ids.resultclass, 0, false, NAN), -EINVAL);
	assert_int_equal(store_sample_add(st, sess, ids.resultclass, 0, false, 1.5), 0);
	assert_int_equal(store_sample_add(st, sess, ids.resultclass, 0, false, 1.5), -EINVAL);
	/* an invocation yields samples or an error, never both */
	assert_int_equal(store_error_add(st, sess, ids.benchmark, 0, false, "boom"), -EINVAL);
	assert_int_equal(store_error_add(st, sess, ids.benchmark, 1, false, "needs hugepages"), 0);
	assert_int_equal(store_sample_add(st, sess, ids.resultclass, 1, false, 2.5), -EINVAL);
	/* a session UUID is unique; a malformed one is refused */
	assert_int_equal(store_session_begin(st, &s, &sess), -EEXIST);
	snprintf(s.uuid, sizeof(s.uuid), "not-a-uuid");
	assert_int_equal(store_session_begin(st, &s, &sess), -EINVAL);
	assert_int_equal(store_session_end(st, 12345), -ENOENT);
	store_close(st);
}

/* Counts and one session's snapshot, without a listing: @bare has no environment, @with has one. */
static void check_counts_and_environment(struct store *st, const char *bare, const char *with)
{
	struct store_counts n;
	json_t *env;

	assert_int_equal(store_count(st, &n), 0);
	assert_int_equal(n.sessions, 2);
	assert_int_equal(n.samples, 4);	/* warmups included */
	assert_int_equal(n.environments, 1);
	assert_int_equal(store_session_environment(st, with, &env), 0);
	assert_string_equal(json_string_value(json_object_get(env, "governor")), "performance");
	json_decref(env);
	assert_int_equal(store_session_environment(st, bare, &env), 0);
	assert_null(env);
	assert_int_equal(store_session_environment(st, "00000000-0000-4000-8000-000000000000", &env), -ENOENT);
	assert_null(env);
}

static void test_incomplete_session_stays(void **state)
{
	const char *path = fixture_url(state, "incomplete.db");
	struct store *st;
	struct store_session s = { .environment = "{\"governor\":\"performance\"}" };
	struct fixture_ids ids;
	int64_t sess;
	json_t *list, *row;

	assert_int_equal(store_open(path, wl_identity_parse, &st), 0);
	assert_int_equal(fixture_objects(st, "m7g", "6.9.0", &ids), 0);
	assert_int_equal(fixture_session(st, &ids, 2, 10.0, NULL), 0);
	s.sut_id = ids.sut;
	s.swprofile_id = ids.swprofile;
	assert_int_equal(store_session_begin(st, &s, &sess), 0);
	assert_int_equal(store_sample_add(st, sess, ids.resultclass, 0, false, 42.0), 0);
	store_close(st);	/* interrupted: never ended */

	assert_int_equal(store_open(path, wl_identity_parse, &st), 0);
	assert_int_equal(store_list_sessions(st, &list), 0);
	assert_int_equal(json_array_size(list), 2);
	row = json_array_get(list, 1);
	assert_string_equal(json_string_value(json_object_get(row, "uuid")), s.uuid);
	assert_true(json_is_false(json_object_get(row, "complete")));
	assert_true(json_is_null(json_object_get(row, "ended")));
	assert_int_equal(json_integer_value(json_object_get(row, "samples")), 1);
	assert_string_equal(json_string_value(json_object_get(json_object_get(row, "environment"),
							      "governor")), "performance");
	assert_true(json_is_true(json_object_get(json_array_get(list, 0), "complete")));
	check_counts_and_environment(st, json_string_value(json_object_get(json_array_get(list, 0), "uuid")),
				     s.uuid);
	json_decref(list);
	assert_int_equal(fixture_count(st, false), 3);
	store_close(st);
}

/* The progress of a resumable run: set, mark units done, read back, start over, clear. */
static void test_resume_state(void **state)
{
	const char *path = fixture_url(state, "resume.db");
	const struct store_run_key k = { "seed", "box", "base", "box1" };
	struct store *st;
	struct store_resume r = { .seed = 0xfedcba9876543210ULL, .session = 1, .scale = 4 }, got;
	json_t *done;

	assert_int_equal(store_open(path, wl_identity_parse, &st), 0);
	assert_int_equal(store_resume_get(st, &k, &got, &done), -ENOENT);
	assert_null(done);
	assert_int_equal(store_resume_done(st, &k, "memset -s 1MB"), -ENOENT);
	assert_int_equal(store_resume_set(st, &k, &r), 0);
	assert_int_equal(store_resume_done(st, &k, "memset -s 1MB"), 0);
	assert_int_equal(store_resume_done(st, &k, "echo-rate"), 0);
	assert_int_equal(store_resume_done(st, &k, "echo-rate"), 0);	/* once is enough */
	store_close(st);

	/* another process reads it: a seed above INT64_MAX survives SQLite's signed integers */
	assert_int_equal(store_open(path, wl_identity_parse, &st), 0);
	assert_int_equal(store_resume_get(st, &k, &got, &done), 0);
	assert_true(got.seed == r.seed);
	assert_int_equal(got.session, 1);
	assert_int_equal(got.scale, 4);
	assert_int_equal(json_array_size(done), 2);
	/* in sorted order: every backend gives the same */
	assert_string_equal(json_string_value(json_array_get(done, 0)), "echo-rate");
	assert_string_equal(json_string_value(json_array_get(done, 1)), "memset -s 1MB");
	json_decref(done);

	/* the next session starts with nothing done */
	r.session = 2;
	assert_int_equal(store_resume_set(st, &k, &r), 0);
	assert_int_equal(store_resume_get(st, &k, &got, &done), 0);
	assert_int_equal(got.session, 2);
	assert_int_equal(json_array_size(done), 0);
	json_decref(done);

	r.scale = 0;
	assert_int_equal(store_resume_set(st, &k, &r), -EINVAL);
	assert_int_equal(store_resume_clear(st, &k), 0);
	assert_int_equal(store_resume_get(st, &k, &got, &done), -ENOENT);
	assert_int_equal(store_resume_clear(st, &k), 0);
	store_close(st);
	assert_int_equal(fixture_raw(state, "resume.db", "SELECT count(*) FROM run_state_done"), 0);
}

/*
 * Machines running one plan into one store each keep their own state: a
 * new run, a unit done or a completion of one never touches another's.
 */
static void test_resume_state_per_machine(void **state)
{
	static const struct store_run_key keys[] = {
		{ "lab", "box-a", "base", "host1" }, { "lab", "box-b", "base", "host1" },
		{ "lab", "box-a", "patch", "host1" }, { "lab", "box-a", "base", "host2" },
		{ "other", "box-a", "base", "host1" },
	};
	const size_t n = sizeof(keys) / sizeof(keys[0]);
	struct store *st = fixture_open(state, "machines.db");
	struct store_resume got;
	json_t *done;

	for (size_t i = 0; i < n; i++) {
		const struct store_resume r = { .seed = 100 + i, .session = (unsigned)i, .scale = 1 };

		assert_int_equal(store_resume_set(st, &keys[i], &r), 0);
		assert_int_equal(store_resume_done(st, &keys[i], i % 2 ? "odd" : "even"), 0);
	}
	/* the first machine starts over and then finishes: the others' states stay as they were */
	assert_int_equal(store_resume_set(st, &keys[0], &(struct store_resume){ 7, 0, 1 }), 0);
	assert_int_equal(store_resume_clear(st, &keys[0]), 0);
	assert_int_equal(store_resume_get(st, &keys[0], &got, &done), -ENOENT);
	for (size_t i = 1; i < n; i++) {
		assert_int_equal(store_resume_get(st, &keys[i], &got, &done), 0);
		assert_true(got.seed == 100 + i);
		assert_int_equal(got.session, i);
		assert_int_equal(json_array_size(done), 1);
		assert_string_equal(json_string_value(json_array_get(done, 0)), i % 2 ? "odd" : "even");
		json_decref(done);
	}
	/* a key part that is no name, or parts too long together, is refused */
	assert_int_equal(store_resume_set(st, &(struct store_run_key){ "lab", "", "base", "h" }, &got), -EINVAL);
	{
		char big[STORE_NAME_MAX + 1];

		memset(big, 'x', STORE_NAME_MAX);
		big[STORE_NAME_MAX] = '\0';
		assert_int_equal(store_resume_set(st, &(struct store_run_key){ "lab", big, big, "h" }, &got),
				 -EINVAL);
	}
	store_close(st);
}

/*
 * Every table the migrations make has its row in store_lab_tables[] (what a
 * lab's writer may do to it), and every row names a table: a new table is
 * a decision about who may change it, made where the schema is.
 */
static void test_lab_tables_cover_the_schema(void **state)
{
	struct store *st = fixture_open(state, "lab.db");
	size_t rows = 0;

	for (const struct store_lab_table *t = store_lab_tables; t->table; t++, rows++) {
		char sql[256];

		/* the schema version's table is the server's own (SQLite keeps it in its header) */
		if (!strcmp(t->table, "clearpath_schema") && !fixture_pg(state))
			continue;
		snprintf(sql, sizeof(sql), fixture_pg(state)
			 ? "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = '%s'"
			 : "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = '%s'", t->table);
		assert_int_equal(fixture_raw(state, "lab.db", sql), 1);
	}
	assert_int_equal(fixture_raw(state, "lab.db", fixture_pg(state)
				     ? "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()"
				     : "SELECT count(*) + 1 FROM sqlite_schema WHERE type = 'table'"
				       " AND name NOT LIKE 'sqlite_%'"), (int64_t)rows);
	store_close(st);
}

/* Copy file @from to @to.  0 or -1. */
static int copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	char buf[8192];
	size_t n;
	int ret = in && out ? 0 : -1;

	while (!ret && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		ret = fwrite(buf, 1, n, out) == n ? 0 : -1;
	if (in)
		fclose(in);
	if (out && fclose(out))
		ret = -1;
	return ret;
}

/*
 * A store as the v1 release wrote it (tests/fixtures/store-v1, see the
 * README there) gains the later tables on open, its data kept.
 */
static void test_migrates_v1_store(void **state)
{
	char path[512];
	struct store *st;
	struct store_resume r = { .seed = 7, .session = 0, .scale = 1 };

	fixture_path(path, sizeof(path), fixture_dir(state), "v1.db");
	assert_int_equal(copy_file("tests/fixtures/store-v1/results.db", path), 0);
	assert_int_equal(fixture_sqlite_raw(path, "PRAGMA user_version"), 1);
	assert_int_equal(store_open(path, wl_identity_parse, &st), 0);
	assert_int_equal(store_resume_set(st, &(struct store_run_key){ "p", "box", "base", "host" }, &r), 0);
	store_close(st);
	assert_int_equal(fixture_sqlite_raw(path, "PRAGMA user_version"), store_schema_version());
	assert_int_equal(fixture_sqlite_raw(path, "SELECT count(*) FROM sut"), 1);
	assert_int_equal(fixture_sqlite_raw(path, "SELECT count(*) FROM sample"), 25);
	assert_int_equal(fixture_sqlite_raw(path, "SELECT count(*) FROM error"), 3);
	assert_int_equal(fixture_sqlite_raw(path, "SELECT count(*) FROM run_state"), 1);
}

static void test_listings(void **state)
{
	struct store *st = fixture_open(state, "list.db");
	struct fixture_ids ids;
	json_t *list;

	assert_int_equal(fixture_objects(st, "m7g", "6.9.0", &ids), 0);
	assert_int_equal(fixture_session(st, &ids, 3, 1.0, NULL), 0);
	assert_int_equal(store_list_benchmarks(st, &list), 0);
	assert_int_equal(json_array_size(list), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(list, 0), "suite")), "mem/mmap");
	assert_true(json_is_true(json_object_get(json_array_get(list, 0), "higher_is_better")));
	assert_int_equal(json_integer_value(json_object_get(json_array_get(list, 0), "samples")), 4);
	json_decref(list);
	assert_int_equal(store_list_suts(st, &list), 0);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(list, 0), "sessions")), 1);
	json_decref(list);
	store_close(st);
}

#define WRITERS 4
#define PER_WRITER 200

/* Child of the concurrency test: its own connection, its own session, PER_WRITER samples. */
static int writer(const char *path, int n)
{
	struct store *st;
	struct fixture_ids ids;
	struct store_session s = { 0 };
	int64_t sess;
	int ret = store_open(path, wl_identity_parse, &st);

	if (ret)
		return 1;
	/* every writer races to create the same sut/swprofile/benchmark/resultclass */
	ret = fixture_objects(st, "m7g", "6.9.0", &ids);
	s.sut_id = ids.sut;
	s.swprofile_id = ids.swprofile;
	if (!ret)
		ret = store_session_begin(st, &s, &sess);
	for (int i = 0; !ret && i < PER_WRITER; i++)
		ret = store_sample_add(st, sess, ids.resultclass, i, false, n * 1000.0 + i);
	if (!ret)
		ret = store_session_end(st, sess);
	store_close(st);
	return ret ? 1 : 0;
}

static void test_concurrent_writers(void **state)
{
	const char *path = fixture_url(state, "concurrent.db");
	struct store *st;
	pid_t pid[WRITERS];
	json_t *list;

	for (int i = 0; i < WRITERS; i++) {
		pid[i] = fork();
		assert_true(pid[i] >= 0);
		if (pid[i] == 0)
			_exit(writer(path, i));
	}
	for (int i = 0; i < WRITERS; i++) {
		int status;

		assert_int_equal(waitpid(pid[i], &status, 0), pid[i]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	assert_int_equal(store_open(path, wl_identity_parse, &st), 0);
	assert_int_equal(fixture_count(st, false), WRITERS * PER_WRITER);
	assert_int_equal(store_check(st), 0);
	assert_int_equal(store_list_suts(st, &list), 0);
	assert_int_equal(json_array_size(list), 1);
	json_decref(list);
	assert_int_equal(store_list_sessions(st, &list), 0);
	assert_int_equal(json_array_size(list), WRITERS);
	json_decref(list);
	store_close(st);
}

/* Child of the kill -9 test: insert forever, reporting each committed sample's number on @fd. */
static void endless_writer(const char *path, int fd)
{
	struct store *st;
	struct fixture_ids ids;
	struct store_session s = { 0 };
	int64_t sess;

	if (store_open(path, wl_identity_parse, &st) || fixture_objects(st, "m7g", "6.9.0", &ids))
		_exit(1);
	s.sut_id = ids.sut;
	s.swprofile_id = ids.swprofile;
	if (store_session_begin(st, &s, &sess))
		_exit(1);
	for (int i = 1; ; i++) {
		if (store_sample_add(st, sess, ids.resultclass, i, false, i) ||
		    write(fd, &i, sizeof(i)) != (ssize_t)sizeof(i))
			_exit(1);
	}
}

static void test_kill9_keeps_committed_samples(void **state)
{
	const char *path = fixture_url(state, "killed.db");
	struct store *st;
	int fds[2], got = 0, n;
	pid_t pid;
	json_t *list;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		endless_writer(path, fds[1]);
	}
	close(fds[1]);
	while (got < 50 && read(fds[0], &n, sizeof(n)) == (ssize_t)sizeof(n))
		got = n;
	assert_int_equal(got, 50);
	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	while (read(fds[0], &n, sizeof(n)) == (ssize_t)sizeof(n))	/* reported before the kill */
		got = n;
	close(fds[0]);

	assert_int_equal(store_open(path, wl_identity_parse, &st), 0);
	assert_int_equal(store_check(st), 0);
	n = fixture_count(st, false);
	/* every reported sample is there; at most one more was committed but not yet reported */
	assert_true(n == got || n == got + 1);
	assert_int_equal(store_list_sessions(st, &list), 0);
	assert_true(json_is_false(json_object_get(json_array_get(list, 0), "complete")));
	json_decref(list);
	store_close(st);
}

static void test_disk_full_keeps_earlier_samples(void **state)
{
	struct store *st = fixture_open(state, "full.db");
	struct store_session s = { 0 };
	struct fixture_ids ids;
	int64_t sess, pages;
	char sql[64];
	int ret = 0, i;

	assert_int_equal(fixture_objects(st, "m7g", "6.9.0", &ids), 0);
	s.sut_id = ids.sut;
	s.swprofile_id = ids.swprofile;
	assert_int_equal(store_session_begin(st, &s, &sess), 0);
	/* max_page_count makes SQLite report SQLITE_FULL exactly as a full disk would */
	assert_int_equal(store_int64(st, &pages, "PRAGMA page_count", NULL), 0);
	snprintf(sql, sizeof(sql), "PRAGMA max_page_count = %lld", (long long)pages + 1);
	assert_int_equal(store_int64(st, &pages, sql, NULL), 0);
	for (i = 0; i < 100000 && !ret; i++)
		ret = store_sample_add(st, sess, ids.resultclass, i, false, i);
	assert_int_equal(ret, -ENOSPC);
	assert_true(i > 1);
	assert_int_equal(fixture_count(st, false), i - 1);
	assert_int_equal(store_check(st), 0);
	store_close(st);
}

/*
 * In a child that may write no byte to a file (RLIMIT_FSIZE 0, as a full
 * disk refuses it): open the store @path, which must fail.  Its exit
 * status: 0 when it failed, 1 when it opened.
 */
static int open_without_room(const char *path)
{
	struct rlimit none = { 0, 0 };
	struct store *st;
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		signal(SIGXFSZ, SIG_IGN);	/* the write fails with EFBIG instead of killing */
		setrlimit(RLIMIT_FSIZE, &none);
		_exit(store_open(path, wl_identity_parse, &st) ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/*
 * A new store that cannot be written (a full disk) leaves nothing behind:
 * neither its file nor the directory made for it; a file that was there
 * before (empty, as a new store starts) is never removed.
 */
static void test_new_store_without_room_leaves_nothing(void **state)
{
	char dir[512], path[512], made[640];
	FILE *f;

	fixture_path(dir, sizeof(dir), fixture_dir(state), "newdir");
	snprintf(made, sizeof(made), "%s/results.db", dir);
	assert_int_equal(open_without_room(made), 0);
	assert_int_equal(access(made, F_OK), -1);
	assert_int_equal(access(dir, F_OK), -1);

	fixture_path(path, sizeof(path), fixture_dir(state), "new.db");
	assert_int_equal(open_without_room(path), 0);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(made, sizeof(made), "%s-journal", path);
	assert_int_equal(access(made, F_OK), -1);

	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(open_without_room(path), 0);
	assert_int_equal(access(path, F_OK), 0);
}

static void test_check_reports_corruption(void **state)
{
	char path[512];
	struct store *st;
	struct fixture_ids ids;
	char junk[4096];
	FILE *f;

	fixture_path(path, sizeof(path), fixture_dir(state), "corrupt.db");
	assert_int_equal(store_open(path, wl_identity_parse, &st), 0);
	assert_int_equal(fixture_objects(st, "m7g", "6.9.0", &ids), 0);
	for (int i = 0; i < 20; i++)
		assert_int_equal(fixture_session(st, &ids, 20, i, NULL), 0);
	store_close(st);	/* checkpoints the WAL into the main file */

	/* overwrite everything after the first two pages (header and schema) with junk */
	memset(junk, 0x5a, sizeof(junk));
	f = fopen(path, "r+");
	assert_non_null(f);
	fseek(f, 2 * 4096, SEEK_SET);
	for (int i = 0; i < 4; i++)
		fwrite(junk, 1, sizeof(junk), f);
	fclose(f);

	assert_int_equal(store_open(path, wl_identity_parse, &st), 0);
	assert_int_equal(store_check(st), -EIO);
	store_close(st);
}

/* A campaign's state (store/campaign.c): created, advanced boot by boot, read back by another controller, finished once. */
static void test_campaign_state(void **state)
{
	struct store_campaign_boot boots[3] = {
		{ .target = "local", .pos = 0, .swprofile = "base" },
		{ .target = "local", .pos = 1, .swprofile = "nohz" },
		{ .target = "host-b", .pos = 0, .swprofile = "base" },
	};
	const struct store_campaign_target targets[2] = {
		{ .target = "local", .machine = "local:box/m7g" }, { .target = "host-b", .machine = "ssh:host-b:22" },
	};
	struct store *st = fixture_open(state, "campaign.db");
	struct store_session s1 = { .boot_id = "b1" }, s2 = { .boot_id = "b1" };
	struct store_campaign_target *listed, busy;
	struct store_campaign_boot *got;
	struct store_campaign c;
	struct fixture_ids ids;
	char uuid[STORE_UUID_LEN + 1];
	int64_t id, newer, other, sess;
	bool interrupted;
	size_t n;

	assert_int_equal(store_campaign_get(st, 0, &c, &got, &n), -ENOENT);
	assert_int_equal(store_campaign_targets(st, true, &listed, &n), 0);
	assert_int_equal(n, 0);
	free(listed);
	assert_int_equal(store_campaign_create(st, "/plans/a.yaml", "{\"seed\":42}", boots, 3, targets, 2, "box", &id,
						&busy), 0);
	/* a machine in a running campaign is in no other; another machine's campaign runs beside it */
	assert_int_equal(store_campaign_create(st, "/plans/a.yaml", "{}", boots + 2, 1, targets + 1, 1, "box", &other,
						&busy), -EEXIST);
	assert_int_equal(busy.campaign, id);
	assert_string_equal(busy.machine, "ssh:host-b:22");
	assert_int_equal(store_campaign_create(st, "/plans/a.yaml", "{}", boots + 2, 1,
						&(struct store_campaign_target){ .target = "host-c", .machine = "ssh:host-c:22" },
						1, "box", &other, &busy), 0);
	assert_int_equal(store_campaign_targets(st, true, &listed, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(listed[0].campaign, other);
	assert_string_equal(listed[1].target, "host-b");
	assert_string_equal(listed[2].machine, "local:box/m7g");
	assert_string_equal(listed[2].controller, "box");
	assert_true(listed[2].running);
	free(listed);
	assert_int_equal(store_campaign_finish(st, other, STORE_CAMPAIGN_ABORTED, NULL), 0);
	snprintf(boots[1].status, sizeof(boots[1].status), STORE_BOOT_BOOTING);
	snprintf(boots[1].boot_before, sizeof(boots[1].boot_before), "b0");
	assert_int_equal(store_campaign_boot_set(st, id, &boots[1]), 0);
	boots[1].pos = 7;
	assert_int_equal(store_campaign_boot_set(st, id, &boots[1]), -ENOENT);
	store_close(st);

	/* the next controller reads it back, boots ordered by target then position */
	st = fixture_open(state, "campaign.db");
	assert_int_equal(store_campaign_get(st, id, &c, &got, &n), 0);
	assert_int_equal(c.id, id);
	assert_string_equal(c.status, STORE_CAMPAIGN_RUNNING);
	assert_string_equal(c.plan, "/plans/a.yaml");
	assert_string_equal(c.spec, "{\"seed\":42}");
	assert_null(c.message);
	assert_int_equal(n, 3);
	assert_string_equal(got[0].target, "host-b");
	assert_string_equal(got[1].status, STORE_BOOT_PENDING);
	assert_int_equal(got[2].pos, 1);
	assert_string_equal(got[2].status, STORE_BOOT_BOOTING);
	assert_string_equal(got[2].boot_before, "b0");
	assert_string_equal(got[2].boot_id, "");
	free(got);
	store_campaign_free(&c);

	/* the boot's session: the newest complete one, and an interrupted one seen */
	assert_int_equal(fixture_objects(st, "m7g", "base", &ids), 0);
	s1.sut_id = s2.sut_id = ids.sut;
	s1.swprofile_id = s2.swprofile_id = ids.swprofile;
	assert_int_equal(store_session_begin(st, &s1, &sess), 0);
	assert_int_equal(store_campaign_session_of_boot(st, "b1", "base", uuid, &interrupted), -ENOENT);
	assert_true(interrupted);
	assert_int_equal(store_session_begin(st, &s2, &sess), 0);
	assert_int_equal(store_session_end(st, sess), 0);
	assert_int_equal(store_campaign_session_of_boot(st, "b1", "base", uuid, &interrupted), 0);
	assert_string_equal(uuid, s2.uuid);
	assert_true(interrupted);
	assert_int_equal(store_campaign_session_of_boot(st, "b1", "nohz", uuid, &interrupted), -ENOENT);

	/* finished once; the newest campaign is the one read by default */
	assert_int_equal(store_campaign_finish(st, id, STORE_CAMPAIGN_FAILED, "boot 2 never came back"), 0);
	assert_int_equal(store_campaign_finish(st, id, STORE_CAMPAIGN_DONE, NULL), -ESTALE);
	/* its machines are free once it ended */
	assert_int_equal(store_campaign_targets(st, true, &listed, &n), 0);
	assert_int_equal(n, 0);
	free(listed);
	assert_int_equal(store_campaign_create(st, "/plans/b.yaml", "{}", boots, 1, targets, 1, NULL, &newer, &busy), 0);
	assert_true(newer > id);
	assert_int_equal(store_campaign_get(st, id, &c, &got, &n), 0);
	assert_string_equal(c.status, STORE_CAMPAIGN_FAILED);
	assert_string_equal(c.message, "boot 2 never came back");
	free(got);
	store_campaign_free(&c);
	assert_int_equal(store_campaign_get(st, 0, &c, &got, &n), 0);
	assert_int_equal(c.id, newer);
	assert_int_equal(n, 1);
	free(got);
	store_campaign_free(&c);
	store_close(st);
}

/*
 * PostgreSQL: a database holding something else is refused untouched
 * (-EMEDIUMTYPE); an empty one is not made a store by a reader.
 */
static void test_pg_foreign_and_empty_database(void **state)
{
	struct capture cap;
	struct store *st;

	fixture_raw(state, "photos", "CREATE TABLE photos (id BIGINT PRIMARY KEY, data BYTEA)");
	capture_begin(&cap);
	assert_int_equal(store_open(fixture_url(state, "photos"), wl_identity_parse, &st), -EMEDIUMTYPE);
	assert_non_null(strstr(capture_end(&cap), "not a clearpath store"));
	assert_null(st);
	assert_int_equal(store_open_readonly(fixture_url(state, "photos"), wl_identity_parse, &st), -EMEDIUMTYPE);
	assert_int_equal(fixture_raw(state, "photos", "SELECT count(*) FROM pg_catalog.pg_tables"
				     " WHERE schemaname = 'public'"), 1);

	capture_begin(&cap);
	assert_int_equal(store_open_readonly(fixture_url(state, "empty"), wl_identity_parse, &st), -EINVAL);
	assert_non_null(strstr(capture_end(&cap), "holds no clearpath store yet"));
	assert_int_equal(fixture_raw(state, "empty", "SELECT count(*) FROM pg_catalog.pg_tables"
				     " WHERE schemaname = 'public'"), 0);
}

/* A port nothing listens on, on 127.0.0.1. */
static int closed_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	close(fd);	/* bound, never listened: connecting is refused */
	return ntohs(a.sin_port);
}

/* Open @url, which must fail with @err saying @text; nothing is left open. */
static void expect_open_fails(const char *url, int err, const char *text)
{
	struct capture cap;
	struct store *st;

	capture_begin(&cap);
	assert_int_equal(store_open(url, wl_identity_parse, &st), err);
	assert_non_null(strstr(capture_end(&cap), text));
	assert_null(st);
}

/* No server, a wrong password, a missing database: each a resource error with libpq's message and a hint. */
static void test_pg_cannot_connect(void **state)
{
	char url[128], db[64], *u;

	snprintf(url, sizeof(url), "postgresql://u:p@127.0.0.1:%d/x?connect_timeout=5", closed_port());
	expect_open_fails(url, -ECONNREFUSED, "is the PostgreSQL server running");
	u = fixture_pg_url_as(fixture_db(state, (fixture_url(state, "db"), "db")), "postgres:wrong-password");
	expect_open_fails(u, -EACCES, "password");
	free(u);
	snprintf(db, sizeof(db), "%s_missing", fixture_db(state, "db"));
	u = fixture_pg_url(db);
	expect_open_fails(u, -ECONNREFUSED, "createdb");
	free(u);
}

/* PostgreSQL: the server's process behind @st (the test's store @name), killed from another connection. */
static void kill_backend(void **state, const char *name, struct store *st)
{
	char sql[96];
	int64_t pid;

	assert_int_equal(store_int64(st, &pid, "SELECT pg_backend_pid()", NULL), 0);
	/* waits until it is gone: the next statement finds the connection lost, deterministically */
	snprintf(sql, sizeof(sql), "SELECT pg_terminate_backend(%lld, 30000)::int", (long long)pid);
	assert_int_equal(fixture_raw(state, name, sql), 1);
}

/*
 * A connection lost in the middle of a batch: the batch fails with
 * -ENOTCONN and leaves nothing; after store_reconnect() the whole batch is
 * written again, and a sample committed before the loss is taken as the
 * same one (its commit may have gone through unanswered), once.
 */
static void test_pg_lost_connection_retried_once(void **state)
{
	struct store *st = fixture_open(state, "lost");
	struct store_session s = { 0 };
	struct fixture_ids ids;
	int64_t sess;
	int ret;
	json_t *list;

	assert_int_equal(fixture_objects(st, "m7g", "6.9.0", &ids), 0);
	s.sut_id = ids.sut;
	s.swprofile_id = ids.swprofile;
	assert_int_equal(store_session_begin(st, &s, &sess), 0);
	assert_int_equal(store_sample_add(st, sess, ids.resultclass, 0, false, 10.0), 0);

	assert_int_equal(store_batch_begin(st), 0);
	assert_int_equal(store_sample_add(st, sess, ids.resultclass, 1, false, 11.0), 0);
	kill_backend(state, "lost", st);
	ret = store_sample_add(st, sess, ids.resultclass, 2, false, 12.0);
	assert_int_equal(ret, -ENOTCONN);
	assert_int_equal(store_batch_end(st, ret), -ENOTCONN);
	/* a reader hears of it too, and nothing crashes */
	assert_int_equal(store_list_sessions(st, &list), -ENOTCONN);
	assert_null(list);

	assert_int_equal(store_reconnect(st), 0);
	assert_int_equal(fixture_count(st, false), 1);	/* the batch left nothing */
	assert_int_equal(store_batch_begin(st), 0);
	assert_int_equal(store_sample_add(st, sess, ids.resultclass, 0, false, 10.0), 0);
	assert_int_equal(store_sample_add(st, sess, ids.resultclass, 0, false, 99.0), -EINVAL);
	assert_int_equal(store_batch_end(st, -EINVAL), -EINVAL);
	assert_int_equal(store_batch_begin(st), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(store_sample_add(st, sess, ids.resultclass, i, false, 10.0 + i), 0);
	assert_int_equal(store_batch_end(st, 0), 0);
	/* replaying ends with the commit: a duplicate is refused again */
	assert_int_equal(store_sample_add(st, sess, ids.resultclass, 2, false, 12.0), -EINVAL);

	/* the session's end reconnects by itself */
	kill_backend(state, "lost", st);
	assert_int_equal(store_session_end(st, sess), 0);
	assert_int_equal(fixture_count(st, false), 3);
	assert_int_equal(store_list_sessions(st, &list), 0);
	assert_true(json_is_true(json_object_get(json_array_get(list, 0), "complete")));
	json_decref(list);
	store_close(st);
}

/* Read @text into @st with store_import(). */
static int import_from(struct store *st, const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	assert_non_null(f);
	ret = store_import(st, f, "lost.csv", NULL);
	fclose(f);
	return ret;
}

/*
 * A connection lost before an import, a merge or an export: each fails
 * with -ENOTCONN (a resource error, exit 3), writes nothing, and works
 * once connected again.
 */
static void test_pg_lost_connection_bulk_paths(void **state)
{
	char path[512], *text, *buf = NULL;
	struct store *src, *st = fixture_open(state, "lost");
	struct fixture_ids ids;
	size_t len = 0;
	FILE *out;
	struct store_merged added = { -1, 0, 0, 0 };

	fixture_path(path, sizeof(path), fixture_dir(state), "src.db");
	assert_int_equal(store_open(path, wl_identity_parse, &src), 0);
	assert_int_equal(fixture_objects(src, "m7g", "6.9.0", &ids), 0);
	assert_int_equal(fixture_session(src, &ids, 3, 1.0, NULL), 0);
	text = fixture_export(src, STORE_CSV);
	store_close(src);

	kill_backend(state, "lost", st);
	assert_int_equal(import_from(st, text), -ENOTCONN);
	assert_int_equal(store_reconnect(st), 0);
	assert_int_equal(fixture_count(st, true), 0);
	kill_backend(state, "lost", st);
	assert_int_equal(store_merge(st, path, &added), -ENOTCONN);
	assert_int_equal(store_reconnect(st), 0);
	assert_int_equal(fixture_count(st, true), 0);
	assert_int_equal(store_merge(st, path, &added), 0);
	assert_int_equal(added.added, 1);
	assert_int_equal(import_from(st, text), 0);
	assert_int_equal(fixture_count(st, true), 4);

	/* said once: not again by the query after the schema probe, nor as a failed write */
	for (int i = 0; i < 2; i++) {
		struct capture cap;
		json_t *list = NULL;
		const char *said;

		assert_int_equal(store_reconnect(st), 0);
		kill_backend(state, "lost", st);
		out = open_memstream(&buf, &len);
		assert_non_null(out);
		capture_begin(&cap);
		if (i == 0)
			assert_int_equal(store_export(st, out, STORE_CSV), -ENOTCONN);
		else
			assert_int_equal(store_list_benchmarks(st, &list), -ENOTCONN);
		said = capture_end(&cap);
		assert_null(list);
		assert_non_null(strstr(said, "the connection to the PostgreSQL server was lost"));
		assert_null(strstr(strstr(said, "was lost") + 1, "was lost"));
		assert_null(strstr(said, "writing the export"));
		fclose(out);
		free(buf);
		buf = NULL;
	}
	free(text);
	store_close(st);
}

/* Reading through a read-only connection: writes are refused (-EROFS), nothing changes. */
static void test_pg_reader_never_writes(void **state)
{
	struct store *st = fixture_open(state, "ro"), *ro;
	struct fixture_ids ids;
	int64_t id;

	assert_int_equal(fixture_objects(st, "m7g", "6.9.0", &ids), 0);
	assert_int_equal(fixture_session(st, &ids, 2, 1.0, NULL), 0);
	store_close(st);
	assert_int_equal(store_open_readonly(fixture_url(state, "ro"), wl_identity_parse, &ro), 0);
	assert_int_equal(fixture_count(ro, true), 3);
	assert_int_equal(store_sut_get(ro, "another", NULL, &id), -EROFS);
	store_close(ro);
	assert_int_equal(fixture_raw(state, "ro", "SELECT count(*) FROM sut"), 1);
}

/* A role that may only read: opening to write works on a current store, writing is -EACCES with a hint. */
static void test_pg_role_without_privilege(void **state)
{
	struct store *st = fixture_open(state, "lab"), *rd;
	struct fixture_ids ids;
	struct capture cap;
	char role[64], sql[256], userinfo[96], *u;
	int64_t id;

	assert_int_equal(fixture_objects(st, "m7g", "6.9.0", &ids), 0);
	store_close(st);
	snprintf(role, sizeof(role), "%s_reader", fixture_db(state, "lab"));
	snprintf(sql, sizeof(sql), "CREATE ROLE %s LOGIN PASSWORD 'r'", role);
	assert_true(fixture_pg_admin_sql(sql));
	snprintf(sql, sizeof(sql), "GRANT SELECT ON ALL TABLES IN SCHEMA public TO %s", role);
	fixture_raw(state, "lab", sql);
	snprintf(userinfo, sizeof(userinfo), "%s:r", role);
	u = fixture_pg_url_as(fixture_db(state, "lab"), userinfo);
	assert_int_equal(store_open(u, wl_identity_parse, &rd), 0);
	capture_begin(&cap);
	assert_int_equal(store_sut_get(rd, "another", NULL, &id), -EACCES);
	assert_non_null(strstr(capture_end(&cap), "privilege"));
	assert_int_equal(fixture_count(rd, true), 0);
	store_close(rd);
	free(u);
	/* the grants go with the database: drop both */
	snprintf(sql, sizeof(sql), "DROP DATABASE %s WITH (FORCE)", fixture_db(state, "lab"));
	assert_true(fixture_pg_admin_sql(sql));
	snprintf(sql, sizeof(sql), "DROP ROLE %s", role);
	assert_true(fixture_pg_admin_sql(sql));
}

int main(void)
{
	const struct CMUnitTest plain[] = {
		cmocka_unit_test(test_default_url),
		cmocka_unit_test(test_url_display_hides_password),
		cmocka_unit_test(test_pg_malformed_url),
		cmocka_unit_test(test_fingerprint_diff),
	};
	/* what every backend must do alike */
	const struct CMUnitTest every[] = {
		cmocka_unit_test(test_reopen_keeps_ids),
		cmocka_unit_test(test_refuses_newer_schema),
		cmocka_unit_test(test_refuses_tables_at_version_0),
		cmocka_unit_test(test_swprofile_conflict_and_force),
		cmocka_unit_test(test_swprofile_per_sut),
		cmocka_unit_test(test_sut_upserts_fingerprint),
		cmocka_unit_test(test_samples_insert_and_query),
		cmocka_unit_test(test_sample_rules),
		cmocka_unit_test(test_incomplete_session_stays),
		cmocka_unit_test(test_resume_state),
		cmocka_unit_test(test_resume_state_per_machine),
		cmocka_unit_test(test_lab_tables_cover_the_schema),
		cmocka_unit_test(test_listings),
		cmocka_unit_test(test_concurrent_writers),
		cmocka_unit_test(test_kill9_keeps_committed_samples),
		cmocka_unit_test(test_campaign_state),
	};
	/* files: paths, directories, what SQLite finds in them */
	const struct CMUnitTest files[] = {
		cmocka_unit_test(test_open_creates_its_directory_only),
		cmocka_unit_test(test_url_forms),
		cmocka_unit_test(test_unwritable_directory),
		cmocka_unit_test(test_empty_file_is_initialised),
		cmocka_unit_test(test_refuses_other_sqlite_db),
		cmocka_unit_test(test_refuses_non_sqlite_file),
		cmocka_unit_test(test_migrates_v1_store),
		cmocka_unit_test(test_disk_full_keeps_earlier_samples),
		cmocka_unit_test(test_new_store_without_room_leaves_nothing),
		cmocka_unit_test(test_check_reports_corruption),
	};
	/* a server: connections, databases, roles */
	const struct CMUnitTest server[] = {
		cmocka_unit_test(test_pg_foreign_and_empty_database),
		cmocka_unit_test(test_pg_cannot_connect),
		cmocka_unit_test(test_pg_lost_connection_retried_once),
		cmocka_unit_test(test_pg_lost_connection_bulk_paths),
		cmocka_unit_test(test_pg_reader_never_writes),
		cmocka_unit_test(test_pg_role_without_privilege),
	};
	int failed = cmocka_run_group_tests_name("store", plain, NULL, NULL);

	failed += FIXTURE_RUN("store", every, FIXTURE_SQLITE);
	failed += FIXTURE_RUN("store", every, FIXTURE_POSTGRESQL);
	failed += FIXTURE_RUN("store files", files, FIXTURE_SQLITE);
	failed += FIXTURE_RUN("store server", server, FIXTURE_POSTGRESQL);
	return failed;
}
