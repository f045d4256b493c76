/* xchg: what the store's two interchange forms (samples, whole sessions) share: field checks, benchmarks by text. */
#ifndef CLEARPATH_STORE_XCHG_H
#define CLEARPATH_STORE_XCHG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "store/db.h"

/*
 * Look at the start of import file @in (after a byte-order mark) to tell
 * its form: *@json when its first byte that is not blank opens a JSON array
 * or object.  A file that is one JSON scalar (42, "x", true) is refused
 * (-EINVAL, logged): read as CSV it would be a header that "says '42'".
 * *@out is the stream to read from: @in, or when more had to be read to
 * decide, a new stream giving that back first and then the rest of @in
 * (fclose() it, which leaves @in open).  0, -EINVAL, -ENOMEM or -EIO.
 */
int store_xchg_sniff(FILE *in, const char *name, FILE **out, bool *json);

/* Whether @s is a plain decimal number: [-]digits[.digits][e[+-]digits], nothing else (no 0x, spaces, inf). */
bool store_xchg_decimal(const char *s);

/* Whether @s is an iteration number (digits, at most 10^9); sets *@out. */
bool store_xchg_iteration(const char *s, int *out);

/* Whether @s is a finite decimal number (store_xchg_decimal()) that fits a double; sets *@out. */
bool store_xchg_value(const char *s, double *out);

/*
 * Whether @s is a UTC time as the store writes it: YYYY-MM-DDTHH:MM:SS[.fraction]Z,
 * a day that exists (no 2026-02-30, no year 0000) and a second 00-59.
 */
bool store_xchg_timestamp(const char *s);

/*
 * Whether @s, a name column of an interchange file, is longer than a name in
 * the store may be (STORE_NAME_MAX bytes); for a benchmark column ("suite
 * params", @bench) its suite or its parameters.
 */
bool store_xchg_name_too_long(const char *s, bool bench);

/* Order two times store_xchg_timestamp() accepts: <0, 0, >0 as @a is before, at or after @b. */
int store_xchg_time_cmp(const char *a, const char *b);

/*
 * A benchmark named in an interchange file as "suite params" (split at the
 * first space), parsed once per run of lines naming the same one: files come
 * grouped by benchmark.  Zero-initialise; store_xchg_bench_free() after.
 */
struct store_xchg_bench {
	struct bench_identity *ident;	/* of text */
	char *text;			/* NULL: none parsed yet */
	char *suite;			/* text up to its first space */
	const char *params;		/* the rest of text */
};

/* Make @b describe benchmark text @text, parsed with @st's parser.  0, -ENOMEM or the parser's error. */
int store_xchg_bench_parse(struct store *st, struct store_xchg_bench *b, const char *text);

/*
 * The id of @b's benchmark, created when missing; *@display (may be NULL)
 * gets a new string, the spelling stored (another one may have come first).
 */
int store_xchg_bench_id(struct store *st, const struct store_xchg_bench *b, int64_t *id, char **display);

/*
 * The result class @name (@unit, @higher) of @b's benchmark, found or
 * created; named after the spelling stored when another one came first,
 * as merge does.  0 or a store error.
 */
int store_xchg_rclass(struct store *st, const struct store_xchg_bench *b, const char *name, const char *unit,
		      bool higher, int64_t *id);

/*
 * store_xchg_rclass() of benchmark text @bench (parsed into @b), remembered
 * in *@cache (a JSON object made on first use; json_decref() it) by all its
 * fields: a file names a few result classes over and over.
 */
int store_xchg_rclass_cached(struct store *st, json_t **cache, struct store_xchg_bench *b, const char *bench,
			     const char *name, const char *unit, bool higher, int64_t *id);

void store_xchg_bench_free(struct store_xchg_bench *b);

/* One sample to import. */
struct store_xchg_sample {
	int64_t session, rclass;
	int iteration;
	bool warmup;
	double value;
	const char *time;
};

/*
 * Insert @x with *@insert (prepared on first use, kept for the next), unless
 * that session, class, iteration and warmup flag are stored already:
 * *@inserted says which.  0 or a logged store error (a trigger's refusal too).
 */
int store_xchg_sample_insert(struct store *st, struct store_stmt **insert, const struct store_xchg_sample *x,
			     bool *inserted);

/*
 * Samples gathered into multi-row INSERTs of up to STORE_BATCH_ROWS rows,
 * so a server store pays a round trip per batch, not per sample, and the
 * same guarantees as writing them one by one: the schema's constraints and
 * triggers still judge every sample, and a refused batch is written again
 * row by row (in a savepoint) so the message names the sample at fault.
 * Only inside a transaction (store_tx_begin()).  Whatever a later write
 * depends on (an error's trigger reads the session's samples) needs a
 * store_batch_flush() first.
 */
#define STORE_BATCH_ROWS 500

enum store_batch_mode {
	STORE_BATCH_PLAIN,	/* plain INSERT, one message for a refused batch (merge: sessions new to the store) */
	STORE_BATCH_NEW,	/* every sample must go in: one stored already is refused by ops.one() */
	STORE_BATCH_SAME,	/* a sample stored already must have the same value, else ops.differs() */
	STORE_BATCH_CHECK,	/* nothing written: each must be stored, value and time the same, else ops.differs() */
	STORE_BATCH_EXTEND,	/* one stored already must have the same value and time, else ops.differs() */
};

/* A sample gathered, with what the caller's messages about it need. */
struct store_batch_row {
	struct store_xchg_sample x;
	char *time;			/* x.time's copy */
	long line;			/* where the caller read it */
	char uuid[STORE_UUID_LEN + 1];	/* its session's, or "" */
};

struct store_batch_ops {
	/* Write @row alone (NEW, SAME after a refused batch): 0, or the error it logged naming @row. */
	int (*one)(void *arg, const struct store_batch_row *row);
	/* @row is not stored as it says (@found: its key is, with @value): log it, return the error. */
	int (*differs)(void *arg, const struct store_batch_row *row, bool found, double value);
};

struct store_batch;

/* A new batch writing to @st, calling @ops with @arg; NULL when out of memory. */
struct store_batch *store_batch_new(struct store *st, enum store_batch_mode mode, const struct store_batch_ops *ops,
				    void *arg);

/* Gather @x (read at @line, of session @uuid, may be NULL); a full batch is flushed.  0 or a logged error. */
int store_batch_add(struct store_batch *b, const struct store_xchg_sample *x, long line, const char *uuid);

/* Write (or check) what @b gathered.  0 or a logged error; either way @b is empty after. */
int store_batch_flush(struct store_batch *b);

/* NULL is fine; rows not flushed are dropped. */
void store_batch_free(struct store_batch *b);

/*
 * The end of an export to @out that ended with @ret: flushed, and a failure
 * said once: writing @out (ferror()) or memory here; the store's own errors
 * were said where they happened.  Returns @ret or -EIO.
 */
int store_xchg_export_end(struct store *st, FILE *out, int ret);

/*
 * The whole-sessions form (export --whole): one record per sut, swprofile,
 * session, sample, error and sequential run, each with the columns of its kind; the CSV
 * form ends with an "end" record, so a cut file is refused.  The same
 * columns are the JSON form's keys.
 */
enum xw_col {
	XW_RECORD, XW_SUT, XW_SWPROFILE, XW_SESSION, XW_FINGERPRINT, XW_BOOT_ID, XW_STARTED, XW_ENDED,
	XW_COMPLETE, XW_ENVIRONMENT, XW_BENCHMARK, XW_RESULTCLASS, XW_UNIT, XW_HIGHER, XW_ITERATION,
	XW_WARMUP, XW_VALUE, XW_TIME, XW_MESSAGE, XW_LOOKS, XW_LOOKED, XW_ALPHA, XW_NCOLS
};

/* The columns of a CSV export made before sequential runs were carried (up to message): import reads it too. */
#define XW_NCOLS_BEFORE_SEQUENTIAL XW_LOOKS

/*
 * XW_KIND_SUT_SWPROFILE: the fingerprint a swprofile has on one SUT class
 * (schema v8's swprofile_sut); XW_KIND_SEQUENTIAL: a sequential run's looks
 * (store_sequential: started, time its last look, looks, looked, alpha).
 */
enum xw_kind { XW_KIND_SUT, XW_KIND_SWPROFILE, XW_KIND_SUT_SWPROFILE, XW_KIND_SESSION, XW_KIND_SAMPLE,
	       XW_KIND_ERROR, XW_KIND_SEQUENTIAL, XW_KIND_END, XW_NKINDS };

/* How a column is typed in JSON (CSV holds text; booleans are 0 and 1). */
enum xw_type { XW_TEXT, XW_OBJECT, XW_BOOL, XW_INT, XW_REAL };

extern const char *const store_xw_col_name[XW_NCOLS];
extern const char *const store_xw_kind_name[XW_NKINDS];

/* Per kind, per column: 'r' required, 'o' optional (empty, or null in JSON), '-' not of this kind. */
extern const char store_xw_spec[XW_NKINDS][XW_NCOLS + 1];

enum xw_type store_xw_type(enum xw_col col);

/*
 * A JSON object text in the form exports write it (compact, its keys in the
 * order stored), as a new string; NULL (logged, naming @what) when @text is
 * not a JSON object or memory runs out.
 */
char *store_xw_object(const char *text, const char *what);

/*
 * Import the whole-sessions CSV form from @r, whose header record @rec was
 * just read (its first field is "record").  One transaction.  0 or a
 * negative errno (logged, with the line).
 */
struct csv_reader;
struct csv_record;
struct csv_error;
/* How reading a CSV file ended (csv_read_record()'s @got, 0 at its end): a failure logged.  Returns @got. */
int store_xchg_csv_end(const char *name, int got, const struct csv_error *err);

int store_xchg_whole_csv(struct store *st, struct csv_reader *r, struct csv_record *rec, const char *name);

/*
 * A session both the store and another side (a file being imported, a store
 * being merged) hold under one UUID.  One rule for import and merge: the
 * other side's form is the same session at the same or at another stage of
 * its life, or it is another session and refused.
 */
struct store_sess_head {
	const char *sut, *swprofile;	/* names */
	const char *boot_id;		/* "" when none */
	const char *started, *ended;	/* ended "" when none */
	bool complete;
	uint64_t env;			/* store_sess_env_hash() of its environment */
};

/* A hash of environment text @environment in its canonical form (store_xw_object()); 0 when it is no object. */
uint64_t store_sess_env_hash(const char *environment);

/*
 * Where a session's record stands: cut short (incomplete: a run killed, or
 * copied while it ran), finished (complete, with its end), or the copy an
 * import of the sample form made: marked complete, but without the end,
 * boot id, environment and errors that form leaves out, so those are
 * unknown rather than different.
 */
enum store_sess_state { STORE_SESS_CUT, STORE_SESS_FINISHED, STORE_SESS_COPY };
enum store_sess_state store_sess_state(const struct store_sess_head *h);

/*
 * What makes @theirs another session than @stored ("its boot id differs"),
 * or NULL when it is the same one; an end counts only when both finished.
 */
const char *store_sess_head_diff(const struct store_sess_head *stored, const struct store_sess_head *theirs);

/*
 * Samples (or errors) of a session both hold: stored before the other
 * side's went in, stored after (more when its rows the store lacked were
 * added to an open session; the same for a finished one, whose rows are
 * only checked), and how many the other side has.  A stored session takes
 * rows unless it is STORE_SESS_FINISHED.
 */
struct store_sess_tally {
	int64_t before, after, theirs;
};

/*
 * The rule, once every row of the other side (@other in messages: "the
 * file") was matched against the store, each stored one the same (value,
 * time; the batch refused any other).  Returns 1 when the stored session
 * takes the other side's record (store_session_take()): one cut short its
 * finished form, the sample form's copy any other form; 0 when nothing more
 * is to be done (the same, a longer form whose rows went in, a copy made
 * while it ran); -EINVAL with @why when the two are different sessions:
 * each holds rows the other lacks, or the other side finished with fewer.
 */
int store_sess_rule(enum store_sess_state stored, enum store_sess_state theirs, const struct store_sess_tally *samples,
		    const struct store_sess_tally *errors, const char *other, char *why, size_t len);

/*
 * Give stored session @id the end and completeness of @theirs, and its boot
 * id and @environment (JSON object text) when it has none.  0 or a store
 * error.
 */
int store_session_take(struct store *st, int64_t id, const struct store_sess_head *theirs, const char *environment);

#endif
