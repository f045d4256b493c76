/* open: the schema (one description for every backend), which backend a URL names, opening and migrating. */
#include "store/db.h"
#include "store/sqlite/schema.h"
#include "store/postgresql/schema.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/log.h"

/*
 * Schema migrations: entry i takes version i to i + 1, with its SQL and
 * then, when the data must be rewritten in ways SQL cannot say, a C step.
 * Each is an independent step in order; never edit an entry that has shipped.
 * The SQL is SQLite's spelling, which the other backends translate (types,
 * collation); what cannot be translated (triggers) is written per backend.
 */
const struct store_migration store_migrations[] = {
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
	"  time TEXT NOT NULL);",
	STORE_SQLITE_TRIGGERS, STORE_PG_TRIGGERS, NULL },
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
	"  PRIMARY KEY (name, unit));", NULL, NULL, NULL },
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
	  "  PRIMARY KEY (benchmark_id, pos));", NULL, NULL, store_migrate_identity },
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
	  "  PRIMARY KEY (campaign_id, target, pos));", NULL, NULL, NULL },
	/*
	 * v5 (STORE_SCHEMA_SEQUENTIAL): sequential runs (plan run
	 * --until-decided, store/sequential.c): the looks each planned and
	 * their level, so a later show judges at that level, not at alpha.
	 */
	{ "CREATE TABLE sequential ("
	  "  id INTEGER PRIMARY KEY,"
	  "  sut TEXT NOT NULL,"
	  "  swprofile TEXT NOT NULL,"
	  "  looks INTEGER NOT NULL CHECK (looks >= 1),"
	  "  looked INTEGER NOT NULL DEFAULT 0 CHECK (looked >= 0),"
	  "  alpha REAL NOT NULL CHECK (alpha > 0 AND alpha < 1),"
	  "  started TEXT NOT NULL,"
	  "  updated TEXT NOT NULL);", NULL, NULL, NULL },
	/*
	 * v6: a session's errors found without reading every error (merge and
	 * import look them up by session); on a server, the references a merge
	 * fills by the thousand checked per statement (postgresql/schema.h).
	 */
	{ "CREATE INDEX error_by_session ON error(session_id);", NULL, STORE_PG_STATEMENT_CHECKS, NULL },
	/*
	 * v7: a resumable run's progress per plan, SUT, swprofile and host
	 * (store/resume.c): machines running one plan into one store at once
	 * each keep their own, where one row per plan name had each start the
	 * others over.  A state kept by name alone moves over with the key
	 * parts empty; the first run of that plan to find no state of its own
	 * takes it.
	 */
	{ "CREATE TABLE run_state ("
	  "  id INTEGER PRIMARY KEY,"
	  "  plan TEXT NOT NULL,"
	  "  sut TEXT NOT NULL,"
	  "  swprofile TEXT NOT NULL,"
	  "  host TEXT NOT NULL,"
	  "  seed INTEGER NOT NULL,"
	  "  session INTEGER NOT NULL CHECK (session >= 0),"
	  "  scale INTEGER NOT NULL CHECK (scale >= 1),"
	  "  updated TEXT NOT NULL,"
	  "  UNIQUE (plan, sut, swprofile, host));"
	  "CREATE TABLE run_state_done ("
	  "  state_id INTEGER NOT NULL REFERENCES run_state(id) ON DELETE CASCADE,"
	  "  unit TEXT NOT NULL,"
	  "  PRIMARY KEY (state_id, unit));"
	  "INSERT INTO run_state (plan, sut, swprofile, host, seed, session, scale, updated)"
	  "  SELECT name, '', '', '', seed, session, scale, updated FROM resume;"
	  "INSERT INTO run_state_done (state_id, unit) SELECT s.id, d.unit FROM resume_done d"
	  "  JOIN run_state s ON s.plan = d.name;"
	  "DROP TABLE resume_done;"
	  "DROP TABLE resume;", NULL, NULL, NULL },
	/*
	 * v8 (STORE_SCHEMA_METRIC): a result class is its benchmark plus a
	 * metric ("" the headline, "cycles", "then-read"; NULL for a class
	 * named by itself, as an exec's), and a benchmark says which workload
	 * its parameters are of ("mem/mmap" for "perf/mem" + "mmap -p 4KB
	 * ..."): readers take both from here, never from the names, which are
	 * for people.
	 */
	{ "ALTER TABLE benchmark ADD COLUMN workload TEXT NOT NULL DEFAULT '';"
	  "ALTER TABLE resultclass ADD COLUMN metric TEXT;", NULL, NULL, store_migrate_metric },
	/*
	 * v9: campaigns that two controllers cannot mix: the controller that
	 * advances a campaign holds it (owner, renewed at each step), at most one
	 * campaign runs in a store (a second start cannot slip in between the
	 * check and the insert; of two running before, the older is failed), and
	 * each boot's start and end (the ETA) and the session a target keeps until
	 * it is stored (held: its path there).
	 */
	{ "ALTER TABLE campaign ADD COLUMN owner TEXT;"
	  "ALTER TABLE campaign ADD COLUMN owner_since TEXT;"
	  "ALTER TABLE campaign_boot ADD COLUMN started TEXT;"
	  "ALTER TABLE campaign_boot ADD COLUMN finished TEXT;"
	  "ALTER TABLE campaign_boot ADD COLUMN held TEXT;"
	  "UPDATE campaign SET status = 'failed', message = 'another campaign was started while it ran'"
	  "  WHERE status = 'running' AND id < (SELECT MAX(id) FROM campaign WHERE status = 'running');"
	  "CREATE UNIQUE INDEX campaign_one_running ON campaign(status) WHERE status = 'running';",
	  NULL, NULL, NULL },
	/*
	 * v10: a swprofile is a kernel; what else its fingerprint says (the
	 * cmdline and its console, THP, hugepage limits, sysctls, libc) is each
	 * machine class's, kept per (swprofile, SUT) so machines of a lab can
	 * run one swprofile with their own, each class's column checked as the
	 * whole swprofile was.  Existing pairs start from the swprofile's.
	 */
	{ "CREATE TABLE swprofile_sut ("
	  "  swprofile_id INTEGER NOT NULL REFERENCES swprofile(id),"
	  "  sut_id INTEGER NOT NULL REFERENCES sut(id),"
	  "  fingerprint TEXT NOT NULL DEFAULT '{}',"
	  "  PRIMARY KEY (swprofile_id, sut_id));"
	  "INSERT INTO swprofile_sut (swprofile_id, sut_id, fingerprint)"
	  "  SELECT DISTINCT s.swprofile_id, s.sut_id, p.fingerprint FROM session s"
	  "  JOIN swprofile p ON p.id = s.swprofile_id WHERE p.fingerprint <> '{}';", NULL, NULL, NULL },
	/*
	 * v11: campaigns of a lab share its store: one runs per machine, not
	 * per store.  Each target of a campaign names the machine it is
	 * (store/campaign.c; "local:HOST/SUT", a host over ssh...), and a
	 * machine is in one running campaign at a time; the campaign records
	 * the host that started it.  A campaign from before names none: its
	 * targets are machines of their own.
	 */
	{ "DROP INDEX campaign_one_running;"
	  "ALTER TABLE campaign ADD COLUMN controller TEXT;"
	  "CREATE TABLE campaign_machine ("
	  "  campaign_id INTEGER NOT NULL REFERENCES campaign(id) ON DELETE CASCADE,"
	  "  target TEXT NOT NULL,"
	  "  machine TEXT NOT NULL,"
	  "  running INTEGER NOT NULL DEFAULT 1 CHECK (running IN (0, 1)),"
	  "  PRIMARY KEY (campaign_id, target));"
	  "CREATE UNIQUE INDEX campaign_machine_running ON campaign_machine(machine) WHERE running = 1;"
	  "INSERT INTO campaign_machine (campaign_id, target, machine, running)"
	  "  SELECT DISTINCT b.campaign_id, b.target, 'legacy:' || b.target || '#' || b.campaign_id,"
	  "  CASE WHEN c.status = 'running' THEN 1 ELSE 0 END FROM campaign_boot b"
	  "  JOIN campaign c ON c.id = b.campaign_id;", NULL, NULL, NULL },
	/*
	 * v12: a boot that did not come up (the target came back under another
	 * kernel than its boot method boots) is counted and taken again by a
	 * person, not failed for good: the kernel release each boot left, to
	 * tell the kernel it came back under, and its failed boots.
	 */
	{ "ALTER TABLE campaign_boot ADD COLUMN release_before TEXT;"
	  "ALTER TABLE campaign_boot ADD COLUMN failed_boots INTEGER NOT NULL DEFAULT 0 CHECK (failed_boots >= 0);",
	  NULL, NULL, NULL },
};

#define SCHEMA_VERSION ((int)(sizeof(store_migrations) / sizeof(store_migrations[0])))

/*
 * What a lab's writer may change (store_lab_setup()): a sample, an error, a
 * benchmark or a result class once written, never; what a session's life,
 * a resumable run and a campaign update as they go, yes.
 */
const struct store_lab_table store_lab_tables[] = {
	{ "clearpath_schema", "" },			/* the owner's alone: it migrates */
	{ "sut", "INSERT, UPDATE" },			/* a class's latest fingerprint */
	{ "swprofile", "INSERT, UPDATE" },		/* one an import made, filled in */
	{ "swprofile_sut", "INSERT, UPDATE" },		/* the same, per machine class */
	{ "benchmark", "INSERT" },
	{ "benchmark_param", "INSERT, DELETE" },	/* a benchmark's parameters, written anew when first stored */
	{ "resultclass", "INSERT" },
	{ "session", "INSERT, UPDATE" },		/* its end; a merge completing it */
	{ "sample", "INSERT" },
	{ "error", "INSERT" },
	{ "run_state", "INSERT, UPDATE, DELETE" },	/* plan run's progress, gone once done */
	{ "run_state_done", "INSERT, DELETE" },
	{ "campaign", "INSERT, UPDATE" },
	{ "campaign_boot", "INSERT, UPDATE" },
	{ "campaign_machine", "INSERT, UPDATE" },	/* a machine free again once its campaign ended */
	{ "sequential", "INSERT, UPDATE" },		/* plan run --until-decided's looks */
	{ NULL, NULL },
};

int store_schema_version(void)
{
	return SCHEMA_VERSION;
}

bool store_has_metric(const struct store *st)
{
	return st->version >= STORE_SCHEMA_METRIC;
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

/* Whether @p starts "KEYWORD =" for one of libpq's common connection keywords. */
static bool pg_keyword_at(const char *p)
{
	static const char *const kw[] = {
		"host", "hostaddr", "port", "dbname", "user", "password", "service", "connect_timeout",
		"sslmode", "passfile", "options", "application_name", "target_session_attrs",
	};

	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++) {
		size_t n = strlen(kw[i]);

		if (!strncmp(p, kw[i], n) && p[n + strspn(p + n, " \t")] == '=')
			return true;
	}
	return false;
}

/*
 * libpq's keyword form ("host=db dbname=results"): it starts with one of
 * its connection keywords and '=', or with another word and '=' when one
 * of them follows ("sslcert=x host=db"), so a keyword libpq does not know
 * is named as such rather than made an SQLite file.  A file of such a name
 * needs a ./ in front.
 */
static bool is_pg_keywords(const char *url)
{
	const char *p = url + strspn(url, " \t");
	size_t word = strspn(p, "abcdefghijklmnopqrstuvwxyz_");

	if (pg_keyword_at(p))
		return true;
	if (!word || p[word + strspn(p + word, " \t")] != '=')
		return false;
	for (p += word; *p; p++)
		if (strchr(" \t", *p) && pg_keyword_at(p + 1))
			return true;
	return false;
}

bool store_url_is_postgresql(const char *url)
{
	return !strncmp(url, "postgresql://", 13) || !strncmp(url, "postgres://", 11) || is_pg_keywords(url);
}

const struct store_backend *store_backend_for(const char *url)
{
	if (store_url_is_postgresql(url)) {
#ifdef CLEARPATH_HAVE_LIBPQ
		return &store_backend_postgresql;
#else
		log_err("built without PostgreSQL support: cannot open store %s", url);
		log_hint("build clearpath where libpq-dev is installed (not `make static`), or use an SQLite store");
		return NULL;
#endif
	}
	if (store_backend_sqlite.claims(url))
		return &store_backend_sqlite;
	free(store_url_path(url));	/* says what is wrong with it */
	return NULL;
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
	if (store_url_is_postgresql(url)) {
		log_err("store %s is a PostgreSQL database, not a file", url);
		return NULL;
	}
	if (strncmp(url, "sqlite", (size_t)(sep - url)) || sep - url != 6) {
		log_err("unknown store scheme '%.*s' in '%s'", (int)(sep - url), url, url);
		log_hint("use a path, sqlite:///absolute/path.db or postgresql://user@host:port/database");
		return NULL;
	}
	if (sep[3] != '/') {
		log_err("store URL '%s' needs an absolute path: sqlite:///absolute/path.db", url);
		return NULL;
	}
	return strdup(sep + 3);
}

/* Refuse a version this build cannot handle.  0 or a logged negative errno. */
static int check_version(struct store *st, int64_t version)
{
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

int store_refuse_unversioned(struct store *st, int64_t tables)
{
	log_err("%s is not a clearpath store: it holds %lld table%s but schema version 0 (a damaged clearpath store,"
		" or one another program wrote)", st->path, (long long)tables, tables == 1 ? "" : "s");
	log_hint("clearpath leaves it as it is: restore it from a backup, or import an export into a new store"
		 " (--store or $CLEARPATH_STORE pick another)");
	return -EINVAL;
}

/*
 * Reading only, nothing can be migrated: an older schema is read as it is
 * (every version has the tables the readers use; later ones only add), an
 * empty database holds nothing to read.
 */
static int identify_readonly(struct store *st)
{
	int64_t version;
	int ret = st->be->identify(st, &version);

	if (!ret)
		ret = check_version(st, version);
	st->version = version;
	if (!ret && version == 0) {
		log_err("%s holds no clearpath store yet (an empty database)", st->path);
		log_hint("'clearpath run -- mem memset ...' fills it; --store or $CLEARPATH_STORE pick another");
		ret = -EINVAL;
	}
	return ret;
}

/* Migration @m's SQL for @st's backend, run in order: the common part, then the backend's own. */
static int migrate_step(struct store *st, const struct store_migration *m, int64_t to)
{
	const char *own = st->be == &store_backend_sqlite ? m->sqlite : m->postgresql;
	int ret = st->be->script(st, m->sql);

	if (!ret && own)
		ret = st->be->script(st, own);
	if (ret) {
		log_err("store %s: migrating to schema v%lld failed: %s", st->path, (long long)to, st->errmsg);
		return ret;
	}
	return m->data ? m->data(st) : 0;
}

/* Refuse what is not ours or is too new; bring an older or empty store up to date. */
static int identify_and_migrate(struct store *st)
{
	int64_t version;
	int ret = store_tx_begin(st);

	if (ret)
		return ret;
	ret = st->be->identify(st, &version);
	if (!ret)
		ret = check_version(st, version);
	st->version = version;
	if (ret || version == SCHEMA_VERSION)
		goto out;
	for (; version < SCHEMA_VERSION && !ret; version++)
		ret = migrate_step(st, &store_migrations[version], version + 1);
	if (!ret)
		ret = st->be->stamp(st, SCHEMA_VERSION);
	if (!ret)
		st->version = SCHEMA_VERSION;
out:
	return store_tx_end(st, ret);
}

/* A role name the setup takes: a plain lower-case identifier, which SQL needs no quoting for. */
static bool lab_role_name(const char *what, const char *name)
{
	size_t n = name ? strlen(name) : 0;

	if (n && n <= 63 && strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") == n && !(*name >= '0' && *name <= '9'))
		return true;
	log_err("the %s role's name '%s' is not a plain identifier: lower-case letters, digits and _, at most 63,"
		" not starting with a digit", what, name ? name : "");
	return false;
}

int store_lab_setup(const char *url, ident_parse_fn parse, const struct store_roles *r)
{
	struct store *st;
	bool readonly = false, existing = true;
	int ret;

	if (!lab_role_name("owner", r->owner) || !lab_role_name("writer", r->writer) ||
	    !lab_role_name("reader", r->reader))
		return -EINVAL;
	if (!strcmp(r->owner, r->writer) || !strcmp(r->owner, r->reader) || !strcmp(r->writer, r->reader)) {
		log_err("the owner, writer and reader must be three roles, not %s, %s and %s", r->owner, r->writer,
			r->reader);
		return -EINVAL;
	}
	if (!(st = calloc(1, sizeof(*st))))
		return -ENOMEM;
	st->parse = parse;
	st->be = store_backend_for(url);
	if (st->be && !st->be->lab_roles) {
		log_err("%s is a file: a lab's roles are a database server's; a file's readers and writers are its"
			" permissions", url);
		log_hint("a shared store is a PostgreSQL database: --store postgresql://ADMIN@HOST/DATABASE");
		free(st);
		return -EINVAL;
	}
	if (!st->be) {
		free(st);
		return store_url_is_postgresql(url) ? -ENOTSUP : -EINVAL;
	}
	ret = st->be->open(st, url, &readonly, &existing);
	if (!ret)
		ret = st->be->lab_roles(st, r, STORE_LAB_PREPARE);
	if (!ret)
		ret = identify_and_migrate(st);
	if (!ret)
		ret = st->be->lab_roles(st, r, STORE_LAB_GRANT);
	store_close(st);
	return ret;
}

/*
 * Close a store whose opening failed.  A file the opening made itself goes
 * again (a full disk must not leave an empty or half-written store), unless
 * another clearpath made it a store meanwhile: only what still holds no
 * schema is removed.
 */
static void store_close_failed(struct store *st)
{
	int64_t version = -1;

	if (st->creating && st->conn && st->be->identify(st, &version) == 0 && version == 0) {
		store_discard(st);
		return;
	}
	store_close(st);
}

static int store_open_mode(const char *url, ident_parse_fn parse, bool readonly, struct store **out)
{
	struct store *st = calloc(1, sizeof(*st));
	bool existing = false;
	int ret;

	*out = NULL;
	if (!st)
		return -ENOMEM;
	st->parse = parse;
	st->be = store_backend_for(url);
	if (!st->be) {
		free(st);
		return store_url_is_postgresql(url) ? -ENOTSUP : -EINVAL;
	}
	ret = st->be->open(st, url, &readonly, &existing);
	if (ret)
		goto out;
	/* A reader never initialises an empty file (/dev/null would get a journal beside it). */
	if (readonly || existing)
		ret = identify_readonly(st);
	if (!ret && !readonly)
		ret = identify_and_migrate(st);
	/* it holds a schema now: a store, kept whatever fails after (unless store_discard()ed) */
	if (!ret)
		st->creating = false;
	if (!ret && !readonly && st->be->configure)
		ret = st->be->configure(st);
out:
	if (ret) {
		store_close_failed(st);
		return ret;
	}
	*out = st;
	return 0;
}

int store_open(const char *url, ident_parse_fn parse, struct store **out)
{
	return store_open_mode(url, parse, false, out);
}

int store_open_readonly(const char *url, ident_parse_fn parse, struct store **out)
{
	return store_open_mode(url, parse, true, out);
}

void store_close(struct store *st)
{
	if (!st)
		return;
	if (st->conn)
		st->be->close(st);
	free(st->path);
	free(st);
}

void store_discard(struct store *st)
{
	if (!st)
		return;
	st->be->discard(st);
	st->conn = NULL;
	store_close(st);
}

int store_check(struct store *st)
{
	return st->be->check(st);
}
