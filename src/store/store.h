/* store: the result store, the only module that talks SQL (suts, swprofiles, sessions, samples), behind one backend interface. */
#ifndef CLEARPATH_STORE_STORE_H
#define CLEARPATH_STORE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "util/identity.h"

/*
 * Error codes used throughout (every failure is also reported with log_err()):
 *   -EINVAL  bad input: unknown URL scheme, malformed CSV or JSON, not a
 *            clearpath store, a constraint the caller broke (usage error)
 *   -EEXIST  swprofile name reused with a different fingerprint (usage error)
 *   -EPROTO  store written by a newer clearpath (upgrade clearpath)
 *   -ENOSPC  disk full; -EIO I/O error or corruption; -EBUSY lock wait timed
 *            out; -EACCES/-EROFS store or its directory not writable (or a
 *            server's role lacks the privilege); -ENOMEM; -ECONNREFUSED a
 *            server that cannot be reached; -ENOTCONN its connection lost;
 *            -EMEDIUMTYPE a database that holds something else; -ENOTSUP a
 *            backend left out of this build
 *            (resource errors: earlier committed samples stay intact)
 */

/*
 * Whether the NUL-terminated @s is valid UTF-8 (no overlong forms, surrogates
 * or code points past U+10FFFF: what JSON and terminals accept).  The rule for
 * every name the store takes: anything else is refused (-EINVAL, exit 2).
 */
bool store_utf8_valid(const char *s);

/*
 * The longest name the store takes, in bytes of UTF-8: a SUT class, a
 * swprofile, a benchmark's suite, parameters and key, a result class's name
 * and unit, a plan's run name.  One limit for every backend, so what one
 * store holds every other can: PostgreSQL indexes at most about 2700 bytes
 * a row, and a benchmark is indexed by two of them.
 */
#define STORE_NAME_MAX 1024

/*
 * Whether @s can name something in the store: not empty, valid UTF-8
 * (store_utf8_valid()) and at most STORE_NAME_MAX bytes.  Returns 0, or
 * -EINVAL after logging what is wrong with the @what ("swprofile name").
 * Commands check names given to them with it before anything is measured.
 */
int store_name_check(const char *s, const char *what);

/* An open store; one per process or thread (SQLite connections are not shared). */
struct store;

#define STORE_UUID_LEN 36	/* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" */
#define STORE_TIME_LEN 27	/* "2026-04-08T08:47:00.123456Z" */

/*
 * The default store URL: $CLEARPATH_STORE when set and not empty, else
 * ${XDG_DATA_HOME:-$HOME/.local/share}/clearpath/results.db.  Returns 0,
 * -ENOENT when neither XDG_DATA_HOME nor HOME is set, -ENAMETOOLONG when it
 * does not fit @len.
 */
int store_default_url(char *buf, size_t len);

/*
 * Open (creating and initialising when new or empty) the store at @url: a
 * path, "sqlite:///abs/path", or a PostgreSQL database ("postgresql://",
 * "postgres://", libpq's "host=... dbname=..."; an existing database, whose
 * schema is created when it is empty; one that cannot be reached or holds
 * other tables: a resource error, -ENOTSUP when this build has no libpq).
 * Creates the file's own directory when missing (not its parents: -ENOENT).  Migrates an
 * older schema.  Refuses an unknown URL scheme (-EINVAL), a file that is not
 * SQLite or an SQLite database of another application (-EINVAL), a store
 * from a newer clearpath (-EPROTO) and a corrupt one (-EIO, with SQLite's
 * quick_check verdict in the message).  @parse turns stored benchmark text
 * into identities wherever the store has only text (migrating, importing,
 * merging, reading an older schema): wl_identity_parse(); NULL makes every
 * benchmark its text (ident_raw()).  On success *@out is the store and 0 is
 * returned; on failure *@out is NULL.
 */
int store_open(const char *url, ident_parse_fn parse, struct store **out);

/*
 * Open the existing store at @url for reading only: nothing is created,
 * migrated or written, so it works on another user's store or a read-only
 * mount.  An older schema is read as it is (@parse gives its benchmarks the
 * identity a migration would).  Refuses what store_open() refuses, and an
 * empty database (-EINVAL).
 */
int store_open_readonly(const char *url, ident_parse_fn parse, struct store **out);

/* A lab's roles on a shared (PostgreSQL) store. */
struct store_roles {
	const char *owner;	/* owns the database, its schema and tables: runs every migration */
	const char *writer;	/* runs, plan runs, campaigns, imports, merges in; never changes a sample */
	const char *reader;	/* show, report, list, export, a merge's source: selects only */
};

/*
 * Set up the PostgreSQL database at @url, connected to as its
 * administrator (a superuser), for a lab: the roles of @r created when
 * missing (LOGIN, without a password: libpq's ~/.pgpass or a service file
 * holds those), the database and its public schema given to the owner, the
 * clearpath schema created or migrated as the owner, and each role granted
 * exactly what it needs, per table, and nothing else.  Run again after an
 * upgrade: it migrates and grants the new tables.  Returns 0, -EINVAL
 * (logged) for a role name that is not a plain lower-case identifier or a
 * store without roles (a file), or a store error.
 */
int store_lab_setup(const char *url, ident_parse_fn parse, const struct store_roles *r);

/* Close @st (NULL is fine).  Committed data is already durable; nothing is lost. */
void store_close(struct store *st);

/*
 * Close @st and delete its file (with -wal, -shm, -journal, and the
 * directory opening it made, when empty): for a store the failing command
 * itself created, which must not be left behind empty.
 */
void store_discard(struct store *st);

/* The schema version this build writes (PRAGMA user_version). */
int store_schema_version(void);

/*
 * Run SQLite's PRAGMA integrity_check.  Returns 0 when it says "ok", -EIO
 * when it finds damage (each finding is logged), or another negative errno
 * when the check itself could not run.
 */
int store_check(struct store *st);

/*
 * Get or create the SUT class @name.  @fingerprint is a JSON object text
 * (NULL means "{}"); a different stored fingerprint is replaced (a class
 * is described by its latest fingerprint).  Sets *@id.  Returns 0, -EINVAL
 * for an empty name or invalid JSON, or a store error.  Race-safe.
 */
int store_sut_get(struct store *st, const char *name, const char *fingerprint, int64_t *id);

#define STORE_SW_FORCE 1u	/* keep a stored fingerprint that differs, with a warning */
#define STORE_SW_QUIET 2u	/* with STORE_SW_FORCE: without the warning (already given) */

/*
 * Get or create the swprofile @name as SUT class @sut_id runs it, with
 * @fingerprint (JSON object text; NULL means "{}").  A swprofile is a kernel:
 * its "kernel_release" must be the one stored, on every machine.  The rest
 * (kernel build, cmdline and its console, THP and hugepage settings,
 * sysctls, libc, clearpath) is each machine class's own, kept per
 * (swprofile, SUT): the first one a class records stays, and a different
 * one later on that class is a conflict.  On a conflict, returns -EEXIST and
 * logs which keys differ (old vs new) unless @force has STORE_SW_FORCE:
 * then the OLD fingerprint is kept, because the earlier sessions were
 * measured under it (each session's environment snapshot records what
 * really ran), and a warning is logged unless STORE_SW_QUIET.  How to go on
 * is the caller's hint to give.  A stored "{}" (created by an import, which
 * carries no fingerprints) is simply filled in.  Sets *@id.  Race-safe.
 */
int store_swprofile_get(struct store *st, const char *name, int64_t sut_id, const char *fingerprint, unsigned force,
			int64_t *id);

/*
 * Describe how JSON object texts @old and @new differ, key by key in sorted
 * order ("kernel: \"6.9\" -> \"6.10\"; thp: (absent) -> \"always\""),
 * into @buf (truncated to @len).  Returns the number of differing top-level
 * keys (0: equal), or -EINVAL when either is not a JSON object.
 */
int store_fingerprint_diff(const char *old, const char *new, char *buf, size_t len);

/*
 * Get or create the benchmark of @ident (suite e.g. "mem/mmap", no
 * whitespace): one row per suite and key, whatever the spelling, with its
 * parameters.  Sets *@id and copies into @display (may be NULL) the display
 * the benchmark is stored with: the first spelling's, which names its result
 * classes.  Returns 0, -EINVAL for an empty suite or one with whitespace, or
 * a store error.  Race-safe.
 */
int store_benchmark_get(struct store *st, const struct bench_identity *ident, int64_t *id,
			char *display, size_t len);

/*
 * Get or create the result class of @benchmark_id holding its value
 * @metric ("" the headline, "cycles"; NULL: a class named by itself, as an
 * exec's), named @name for people (ident_class_name(), and
 * ident_class_metric(@name) gives @metric back: names are what
 * imports read), measured in @unit (e.g. "bytes/sec") where
 * @higher_is_better gives the direction.  Sets *@id.  Returns 0, -EINVAL
 * for an empty name or unit, or a store error.
 */
int store_resultclass_get(struct store *st, int64_t benchmark_id, const char *name, const char *metric,
			  const char *unit, bool higher_is_better, int64_t *id);

/*
 * Session UUIDs are stored lower-case, as clearpath makes them and RFC 9562
 * writes them, and compared exactly; one given in upper or mixed case (an
 * import, --session) names the same session: lower-case it in place with
 * this before it is stored or looked up.
 */
void store_uuid_lower(char *uuid);

/* What store_session_begin() records about a session. */
struct store_session {
	char uuid[STORE_UUID_LEN + 1];	/* in: a UUID, or "" to generate one; out: the UUID */
	const char *boot_id;		/* /proc/sys/kernel/random/boot_id, or NULL */
	const char *environment;	/* JSON object text (environment snapshot), or NULL */
	int64_t sut_id;
	int64_t swprofile_id;
};

/*
 * Record the start of a session (complete = false, started = now) and set
 * *@id; a UUID given is lower-cased (store_uuid_lower()).  Returns 0, -EINVAL for a malformed UUID or environment, -EEXIST
 * when the UUID is already stored, or a store error.
 */
int store_session_begin(struct store *st, struct store_session *s, int64_t *id);

/*
 * Mark session @session_id complete and record its end time.  A session
 * that never reaches this (Ctrl-C, kill -9, crash) stays, marked incomplete.
 * Returns 0, -ENOENT for an unknown session, or a store error.
 */
int store_session_end(struct store *st, int64_t session_id);

/*
 * Record one sample.  Outside a batch it commits before returning; inside
 * store_batch_begin()/end(), as the harness writes, it commits with the
 * batch, so a crash loses at most the invocation in flight.  The time is now.  Returns 0, -EINVAL for a
 * non-finite value, a duplicate (session, resultclass, warmup, iteration) or
 * an invocation that already has an error, or a store error.
 */
int store_sample_add(struct store *st, int64_t session_id, int64_t resultclass_id, int iteration,
		     bool warmup, double value);

/*
 * Group the writes between store_batch_begin() and store_batch_end() into one
 * transaction: the harness writes all samples of one invocation (every
 * function of "-f all") with one commit, and a crash loses that invocation
 * only.  Open a batch only around writes, never around a measurement: it
 * holds the store's write lock.  store_batch_end() commits when @ret is 0
 * and rolls back otherwise; both return 0 or a store error (end: @ret, or
 * the commit's error).
 */
int store_batch_begin(struct store *st);
int store_batch_end(struct store *st, int ret);

/*
 * After a store error -ENOTCONN (the connection to a server was lost, and
 * with it the transaction in flight): connect again, waiting with a bounded
 * backoff (a few seconds), so the caller can write that transaction again.
 * Until the next commit, store_sample_add() takes a sample stored already
 * with the same value as written: the commit whose answer was lost may have
 * gone through.  Returns 0, or -ENOTCONN (logged) when the server stays away
 * or the store has no connection to lose (a file).
 */
int store_reconnect(struct store *st);

/*
 * Record that invocation @iteration (negative: the whole benchmark) of
 * @benchmark_id failed in session @session_id with @message.  An invocation
 * yields samples or an error, never both: -EINVAL when it has samples.
 */
int store_error_add(struct store *st, int64_t session_id, int64_t benchmark_id, int iteration,
		    bool warmup, const char *message);

/*
 * The progress of a resumable run (plan run): the seed of its shuffled
 * orders, the session to run next (0-based) and the scale it runs at; and
 * the units that session already completed.  Kept in the store so it
 * survives the processes and works for any store backend.
 */
struct store_resume {
	uint64_t seed;
	unsigned session;
	unsigned scale;
};

/*
 * What makes a resumable run one in a lab, where many machines run the same
 * plan into one store at once: the plan's name, the SUT class and swprofile
 * it runs under, and the machine (its hostname: two boxes of one class are
 * two runs).  Each part a name (store_name_check()), together at most
 * 2 * STORE_NAME_MAX bytes.
 */
struct store_run_key {
	const char *plan, *sut, *swprofile, *host;
};

/*
 * Whether @k can key a run: each part a name, together not too long.
 * 0, or -EINVAL after logging which part is wrong.
 */
int store_run_key_check(const struct store_run_key *k);

/*
 * Read the state of run @k into *@r and the units done in its session into
 * *@done (a new JSON array of strings in sorted order, caller json_decref()s
 * it).  A state an older clearpath kept for the plan's name alone is @k's
 * when @k has none.  Returns 0, -ENOENT (not logged, *@done NULL) when there
 * is none, or a store error.
 */
int store_resume_get(struct store *st, const struct store_run_key *k, struct store_resume *r, json_t **done);

/*
 * Set the state of run @k to *@r with no unit done yet, replacing any.
 * Returns 0, -EINVAL for a bad key or a scale below 1, or a store error.
 */
int store_resume_set(struct store *st, const struct store_run_key *k, const struct store_resume *r);

/*
 * Record @unit as done in run @k's current session.  Returns 0, -ENOENT
 * (logged) when @k has no state (another run of it started over and
 * finished), or a store error.
 */
int store_resume_done(struct store *st, const struct store_run_key *k, const char *unit);

/* Forget the state of run @k (it completed).  0, also when there was none, or a store error. */
int store_resume_clear(struct store *st, const struct store_run_key *k);

/*
 * A sequential run (plan run --until-decided) over swprofile @swprofile on
 * SUT class @sut: it planned @looks looks (the Bonferroni divisor), each at
 * level @alpha, and made @looked of them.  Kept in the store so a later
 * show judges the cells it looked at at the level the looks were made at.
 */
struct store_sequential {
	const char *sut, *swprofile;
	unsigned looks, looked;
	double alpha;
	/* when it began and last looked (UTC, as the store writes times); store_sequential_begin() sets them */
	const char *started, *updated;
};

/* Record a sequential run about to look (looked 0); its id into *@id.  0, -EINVAL (logged), or a store error. */
int store_sequential_begin(struct store *st, const struct store_sequential *q, int64_t *id);

/*
 * Record sequential run @q of another store (import, merge), with its times.
 * A run the store holds already (the same SUT class, swprofile, start, looks
 * and level) stays one record and takes the larger looked and updated of the
 * two: a merge or an import done twice adds nothing, and a run copied while
 * it was looking is brought up to date.  In the caller's transaction.
 * *@added (may be NULL) says whether it was new.  0, -EINVAL (logged) for
 * what no run can be, or a store error.
 */
int store_sequential_take(struct store *st, const struct store_sequential *q, bool *added);

/* store_sequential_take() of every sequential run @src records into @dst; *@added (may be NULL) counts the new. */
int store_sequential_copy(struct store *dst, struct store *src, int *added);

/* Sequential run @id has now made @looked looks.  0 or a store error. */
int store_sequential_looked(struct store *st, int64_t id, unsigned looked);

/*
 * Call @fn for every sequential run recorded, by SUT class, swprofile and start (strings live
 * until it returns); a store whose schema predates them has none.  Stops
 * at and returns @fn's nonzero return; else 0 or a store error.
 */
int store_sequential_each(struct store *st, int (*fn)(const struct store_sequential *q, void *arg), void *arg);

/* One sample with everything it is grouped by; strings live until the callback returns. */
struct store_row {
	const char *sut;
	const char *swprofile;
	const char *session;		/* UUID: the unit of replication for stats */
	const char *session_started;
	/*
	 * The result class: suite, display ("-k 1GB -f default -s 16GB"),
	 * parameters, metric and name ("memset -k 1GB -f default -s 16GB")
	 */
	struct ident_class ident;
	const char *unit;
	bool higher_is_better;
	int iteration;
	bool warmup;
	double value;
	const char *sample_time;
};

/* Which samples store_query() yields; NULL fields match anything. */
struct store_filter {
	const char *sut;
	const char *swprofile;
	const char *suite;
	const char *params;
	const char *resultclass;
	bool include_warmup;		/* statistics want false */
	/*
	 * A campaign's interrupted sessions (recorded by a campaign, not
	 * complete): their boot was taken again and gave a whole one, so
	 * statistics want false (they are no replicates); an export wants all.
	 */
	bool include_retaken;
};

/*
 * Call @fn for every sample matching @f (NULL: all non-warmup samples) in a
 * deterministic order: sut, swprofile, session start, session UUID,
 * benchmark, resultclass, unit, direction, warmups first, iteration.  A
 * nonzero return from @fn stops the walk and is returned.  Returns 0 or a
 * store error.
 */
int store_query(struct store *st, const struct store_filter *f,
		int (*fn)(const struct store_row *row, void *arg), void *arg);

/*
 * Listings for the CLI, as a new JSON array of objects (caller json_decref()s
 * it) in *@out.  Keys:
 *   suts, swprofiles: name, fingerprint (object), sessions
 *   benchmarks:       suite, params, key, workload, resultclass, metric (null: a class
 *                     named by itself), unit, higher_is_better, samples (an older
 *                     schema read as it is: no workload, no metric)
 *   sessions:         uuid, sut, swprofile, boot_id, started, ended, complete,
 *                     environment (object), samples, errors
 * Returns 0 or a store error (*@out NULL).
 */
int store_list_suts(struct store *st, json_t **out);
int store_list_swprofiles(struct store *st, json_t **out);
int store_list_benchmarks(struct store *st, json_t **out);
int store_list_sessions(struct store *st, json_t **out);

/* How much a store holds, without listing it. */
struct store_counts {
	int64_t sessions;
	int64_t samples;
	int64_t errors;
	int64_t environments;	/* sessions with an environment snapshot (not "{}") */
};

/* Fill *@c.  Returns 0 or a store error. */
int store_count(struct store *st, struct store_counts *c);

/*
 * The environment snapshot of session @uuid as a new JSON object in *@out
 * (caller json_decref()s it), or *@out NULL when it has none ("{}").  One
 * session at a time, so a reader holds only the snapshots it shows.
 * Returns 0, -ENOENT (not logged) for an unknown UUID, or a store error.
 */
int store_session_environment(struct store *st, const char *uuid, json_t **out);

enum store_format {
	STORE_CSV,
	STORE_JSON,
};

/*
 * Write every sample (warmups included) to @out in long form, one row per
 * sample in store_query() order, with the columns STORE_EXPORT_COLUMNS.
 * Doubles are printed with "%.17g" so export -> import -> export is
 * byte-identical.  CSV: a header line, then RFC 4180 records.  JSON: an
 * array of objects with the same keys, one per line.  Returns 0, -EIO when
 * writing failed, or a store error.
 */
#define STORE_EXPORT_COLUMNS \
	"sut,swprofile,session,benchmark,resultclass,unit,higher_is_better,iteration,warmup,value," \
	"session_started,sample_time"
int store_export(struct store *st, FILE *out, enum store_format fmt);

/*
 * Import a CSV file in the export's form from @in (@name is used in
 * messages).  The benchmark column is "suite params" split at the first
 * space.  Missing suts, swprofiles (fingerprint "{}"), benchmarks, result
 * classes and sessions are created; imported sessions are marked complete.
 * A sample already stored with the same value is skipped; with another value
 * the file is refused.  All or nothing: one transaction, and a malformed line
 * (wrong column count, bad number, unterminated quote...) rejects the whole
 * file with line and column named (-EINVAL).  A file whose header starts
 * with "record" is the whole-sessions form (store_import()).  Returns 0 or a
 * negative errno.
 */
int store_import_csv(struct store *st, FILE *in, const char *name);

/*
 * Write the sessions of @st whole to @out: the sut and swprofile records
 * (name, fingerprint), then per session its record (sut, swprofile, UUID,
 * boot id, start, end, completeness, environment) followed by its samples
 * and its errors, then the sequential runs of their SUT classes and
 * swprofiles (store_sequential); in @fmt (CSV: one header naming every column, records of
 * each kind filling theirs, a last "end" record; JSON: an array of objects,
 * one a line, with the keys of their kind).  With @n UUIDs in @uuids only
 * those sessions and the suts and swprofiles they use, else all.  The order
 * uses natural keys only, so two stores holding the same sessions (merged
 * or imported) write the same bytes.  Returns 0, -EINVAL for a UUID the
 * store lacks, -EIO when writing failed, or a store error.
 */
int store_export_whole(struct store *st, FILE *out, enum store_format fmt, const char *const *uuids, size_t n);

/*
 * Import @in, whatever its form: the sample CSV (store_import_csv()), or
 * the whole-sessions form of store_export_whole() in CSV or JSON; *@fmt (may
 * be NULL) says which format it looked like.  The whole form is all or
 * nothing (one transaction) and idempotent by session UUID: a session the
 * store holds already must hold exactly what the file says (checked, nothing
 * added); one with other content refuses the file (-EINVAL).  Suts and
 * swprofiles are created when missing; an existing one keeps its
 * fingerprint unless it is empty ("{}"), as merge does.  Returns 0 or a
 * negative errno (logged, naming line or record).
 */
int store_import(struct store *st, FILE *in, const char *name, enum store_format *fmt);

/* What a merge did. */
struct store_merged {
	int added;		/* sessions @dst lacked, copied */
	int completed;		/* sessions @dst held cut short, finished as the source holds them */
	int extended;		/* sessions @dst held cut short, given further samples (or a record) but not finished */
	int sequential;		/* sequential runs' looks @dst lacked (store_sequential_copy()) */
};

/*
 * Copy into @dst every session of the store at @src_url that @dst does not
 * hold yet (by UUID), with its samples and errors, creating the suts,
 * swprofiles, benchmarks and result classes it needs (existing ones keep their
 * fingerprints).  A session both hold is compared as import compares it: the
 * same is skipped, and so is a copy the source made while it ran; one @dst
 * holds cut short (a run killed, or merged while it ran) takes the source's
 * further samples and errors and, once the source holds it finished, its end;
 * any other difference refuses the merge (-EINVAL, logged with the session).
 * The source's sequential runs come along (store_sequential_copy()), so the
 * cells they looked at are judged at their level in @dst too.
 * One transaction.  *@out (may be NULL) says what was done.  Returns 0 or a
 * negative errno (open errors as store_open).
 */
int store_merge(struct store *dst, const char *src_url, struct store_merged *out);

#endif
