/* whole_import: sessions whole (export --whole, CSV or JSON) into the store: one transaction, idempotent by UUID. */
#include "store/xchg.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "store/csv.h"
#include "util/log.h"

/* A session of the file: its row in the store and, when it was there before, what the file said of it. */
struct xw_sess {
	char uuid[STORE_UUID_LEN + 1];	/* "": free slot */
	int64_t id;
	bool existing;		/* stored before this import: the file must match it */
	bool extend;		/* stored open (not STORE_SESS_FINISHED): what of the file it lacks goes in */
	enum store_sess_state stored_state, file_state;
	bool file_complete;
	char *ended, *boot_id, *environment;	/* the file's, of an existing session ("" when none) */
	int64_t stored_samples, stored_errors;	/* an existing session's before this import */
	long line;		/* where the file declared it */
	long samples, errors;	/* seen in the file */
};

/* The import of one file. */
struct xw_in {
	struct store *st;
	const char *name;
	bool json;
	long where;		/* line (CSV) or record number (JSON) of the current record */
	enum xw_kind kind;
	const char *f[XW_NCOLS];	/* the current record's columns ("" when empty) */
	char *owned[XW_NCOLS];	/* what f[] points to when made here */
	bool ended;		/* the end record was read */
	struct store_xchg_bench bench;
	struct xw_sess *sess;	/* open-addressing table of cap slots */
	size_t nsess, cap;
	json_t *rclasses;	/* result class ids by their fields */
	json_t *named[2];	/* sut and swprofile ids by name */
	struct store_batch *batch;	/* samples of new sessions, written a batch at a time */
	struct store_batch *check;	/* samples of sessions stored complete, checked a batch at a time */
	struct store_batch *extend;	/* samples of sessions stored incomplete: the ones they lack go in */
	struct store_stmt *insert;	/* the sample insert, prepared once, for a refused batch row by row */
};

static int xw_bad(const struct xw_in *in, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Log what is wrong with the current record (at column @col, or -1: the record) and return -EINVAL. */
static int xw_bad(const struct xw_in *in, int col, const char *fmt, ...)
{
	char msg[512], at[64] = "";
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (col >= 0 && !in->json)
		snprintf(at, sizeof(at), ", column %d (%s)", col + 1, store_xw_col_name[col]);
	else if (col >= 0)
		snprintf(at, sizeof(at), " (%s)", store_xw_col_name[col]);
	log_err("%s: %s %ld%s: %s", in->name, in->json ? "record" : "line", in->where, at, msg);
	return -EINVAL;
}

/* The same for a session stored already whose content the file contradicts. */
static int xw_conflict(const struct xw_in *in, const char *uuid, const char *what)
{
	xw_bad(in, -1, "session %s is already in the store with other content: %s", uuid, what);
	log_hint("a stored session is never changed by an import: import into another store, or leave it out"
		 " (export --whole --session UUID picks sessions)");
	return -EINVAL;
}

static uint64_t xw_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* The slot of @uuid: its entry, or the free one it would take. */
static struct xw_sess *xw_slot(const struct xw_in *in, const char *uuid)
{
	size_t i = xw_hash(uuid) & (in->cap - 1);

	while (in->sess[i].uuid[0] && strcmp(in->sess[i].uuid, uuid))
		i = (i + 1) & (in->cap - 1);
	return &in->sess[i];
}

static struct xw_sess *xw_lookup(const struct xw_in *in, const char *uuid)
{
	struct xw_sess *s = in->cap ? xw_slot(in, uuid) : NULL;

	return s && s->uuid[0] ? s : NULL;
}

/* Room for one more session (the table stays at most half full).  0 or -ENOMEM. */
static int xw_grow(struct xw_in *in)
{
	struct xw_sess *old = in->sess;
	size_t cap = in->cap;

	if (2 * (in->nsess + 1) <= in->cap)
		return 0;
	in->cap = cap ? 2 * cap : 64;
	in->sess = calloc(in->cap, sizeof(*in->sess));
	if (!in->sess) {
		in->sess = old;
		in->cap = cap;
		return -ENOMEM;
	}
	for (size_t i = 0; i < cap; i++)
		if (old[i].uuid[0])
			*xw_slot(in, old[i].uuid) = old[i];
	free(old);
	return 0;
}

static int xw_kind_of(struct xw_in *in, const char *s)
{
	for (int k = 0; k < XW_NKINDS; k++) {
		if (!strcmp(s, store_xw_kind_name[k])) {
			in->kind = k;
			return 0;
		}
	}
	return xw_bad(in, XW_RECORD, "'%s' is not a record kind (sut, swprofile, sut_swprofile, session, sample, error,"
		      " sequential or end)", s);
}

static void xw_record_free(struct xw_in *in)
{
	for (int i = 0; i < XW_NCOLS; i++) {
		free(in->owned[i]);
		in->owned[i] = NULL;
		in->f[i] = "";
	}
}

static bool xw_is_uuid(const char *s)
{
	return store_uuid_valid(s);
}

static bool xw_is_flag(const char *s)
{
	return !strcmp(s, "0") || !strcmp(s, "1");
}

static bool xw_is_iteration(const char *s)
{
	int it;

	return store_xchg_iteration(s, &it);
}

static bool xw_is_value(const char *s)
{
	double v;

	return store_xchg_value(s, &v);
}

/* A count of looks: digits, at most 10^9 (as an iteration); at least 1 when @s is looks, not looked. */
static bool xw_is_looks(const char *s)
{
	int n;

	return store_xchg_iteration(s, &n) && n >= 1;
}

static bool xw_is_level(const char *s)
{
	double v;

	return store_xchg_value(s, &v) && v > 0 && v < 1;
}

/* The form of each column that has one, and what the message says a field lacking it is not. */
static const struct {
	bool (*ok)(const char *s);
	const char *not;
} xw_form[XW_NCOLS] = {
	[XW_SESSION] = { xw_is_uuid, "a UUID" },
	[XW_STARTED] = { store_xchg_timestamp, "a UTC time like 2026-08-22T08:00:00.000000Z" },
	[XW_ENDED] = { store_xchg_timestamp, "a UTC time like 2026-08-22T08:00:00.000000Z" },
	[XW_TIME] = { store_xchg_timestamp, "a UTC time like 2026-08-22T08:00:00.000000Z" },
	[XW_COMPLETE] = { xw_is_flag, "0 or 1" },
	[XW_HIGHER] = { xw_is_flag, "0 or 1" },
	[XW_WARMUP] = { xw_is_flag, "0 or 1" },
	[XW_ITERATION] = { xw_is_iteration, "an iteration number" },
	[XW_VALUE] = { xw_is_value, "a finite number" },
	[XW_LOOKS] = { xw_is_looks, "a number of looks, 1 or more" },
	[XW_LOOKED] = { xw_is_iteration, "a number of looks made" },
	[XW_ALPHA] = { xw_is_level, "a level between 0 and 1" },
};

/* The record's session UUID lower-cased (store_uuid_lower()): 0, or -ENOMEM. */
static int xw_uuid_lower(struct xw_in *in)
{
	char *lower;

	if (!strpbrk(in->f[XW_SESSION], "ABCDEF"))
		return 0;
	lower = strdup(in->f[XW_SESSION]);
	if (!lower)
		return -ENOMEM;
	store_uuid_lower(lower);
	free(in->owned[XW_SESSION]);
	in->f[XW_SESSION] = in->owned[XW_SESSION] = lower;
	return 0;
}

/* A fingerprint or environment, stored as exports write it, so a merge and an import store the same text. */
static int xw_object(struct xw_in *in, int col)
{
	char *obj = store_xw_object(in->f[col], store_xw_col_name[col]);

	if (!obj)
		return xw_bad(in, col, "not a JSON object");
	free(in->owned[col]);
	in->f[col] = in->owned[col] = obj;
	return 0;
}

/* Every column of the record as its kind wants it; then each field's own form. */
static int xw_check(struct xw_in *in)
{
	const char *spec = store_xw_spec[in->kind];

	for (int i = 0; i < XW_NCOLS; i++) {
		const char *s = in->f[i];

		if (spec[i] == 'r' && !*s)
			return xw_bad(in, i, "empty, but a %s record needs it", store_xw_kind_name[in->kind]);
		if (spec[i] == '-' && *s)
			return xw_bad(in, i, "not a column of a %s record: must be empty",
				      store_xw_kind_name[in->kind]);
		if (!*s)
			continue;
		if (!store_utf8_valid(s))
			return xw_bad(in, i, "not valid UTF-8");
		if (xw_form[i].ok && !xw_form[i].ok(s))
			return xw_bad(in, i, "'%s' is not %s", s, xw_form[i].not);
		if ((i == XW_SUT || i == XW_SWPROFILE || i == XW_BENCHMARK || i == XW_RESULTCLASS || i == XW_UNIT) &&
		    store_xchg_name_too_long(s, i == XW_BENCHMARK))
			return xw_bad(in, i, "%zu bytes long%s: a name in the store is at most %d bytes", strlen(s),
				      i == XW_BENCHMARK ? " (its suite or parameters too long)" : "", STORE_NAME_MAX);
		if (i == XW_SESSION && xw_uuid_lower(in))
			return -ENOMEM;
		if (store_xw_type(i) == XW_OBJECT && xw_object(in, i))
			return -EINVAL;
	}
	return 0;
}

/* Get or create sut (@k 0) or swprofile (1) @name: a fingerprint fills in an empty ("{}") one only, as merge does. */
static int xw_named(struct xw_in *in, int k, const char *name, const char *fingerprint, int64_t *id)
{
	static const char *const sql[][2] = {
		{ "INSERT INTO sut (name, fingerprint) VALUES (?1, coalesce(?2, '{}')) ON CONFLICT (name)"
		  " DO UPDATE SET fingerprint = excluded.fingerprint WHERE sut.fingerprint = '{}'",
		  "SELECT id FROM sut WHERE name = ?1" },
		{ "INSERT INTO swprofile (name, fingerprint) VALUES (?1, coalesce(?2, '{}')) ON CONFLICT (name)"
		  " DO UPDATE SET fingerprint = excluded.fingerprint WHERE swprofile.fingerprint = '{}'",
		  "SELECT id FROM swprofile WHERE name = ?1" },
	};

	int ret = store_get_or_create(in->st, id, sql[k][0], sql[k][1], "tt", name, fingerprint);

	if (!ret && !in->named[k] && !(in->named[k] = json_object()))
		ret = -ENOMEM;
	if (!ret && json_object_set_new(in->named[k], name, json_integer(*id)))
		ret = -ENOMEM;
	return ret;
}

/* A swprofile record of a swprofile stored already (@id): the same kernel, as run and merge require. */
static int xw_swprofile_agrees(struct xw_in *in, int64_t id, const char *name, const char *fingerprint)
{
	struct store_stmt *stmt;
	int ret = store_prepare(in->st, &stmt, "SELECT fingerprint FROM swprofile WHERE id = ?1", "i", id);
	int rc = ret ? 0 : store_step(stmt);

	if (!ret && rc == STORE_ROW && store_swprofile_agree(name, store_col_text(stmt, 0), fingerprint))
		ret = xw_bad(in, XW_FINGERPRINT, "the store holds swprofile '%s' as another kernel", name);
	else if (!ret && rc != STORE_ROW)
		ret = rc < 0 ? store_sql_fail(in->st, rc, "reading a swprofile") : -EIO;
	store_finalize(stmt);
	return ret;
}

/* The id of sut (@k 0) or swprofile (1) @name for a session: created (without a fingerprint) once, then remembered. */
static int xw_named_id(struct xw_in *in, int k, const char *name, int64_t *id)
{
	*id = json_integer_value(json_object_get(in->named[k], name));
	return *id ? 0 : xw_named(in, k, name, NULL, id);
}

/*
 * A session stored already (@stmt's row: id, sut, swprofile, boot id, start,
 * end, completeness, environment, samples, errors): the file's record must
 * be the same session, perhaps at another stage (store_sess_head_diff()).
 */
static int xw_session_existing(struct xw_in *in, struct store_stmt *stmt, struct xw_sess *s)
{
	const char *const *f = in->f;
	const struct store_sess_head stored = {
		store_col_text(stmt, 1), store_col_text(stmt, 2), store_col_text(stmt, 3), store_col_text(stmt, 4),
		store_col_text(stmt, 5), store_col_int(stmt, 6) != 0, store_sess_env_hash(store_col_text(stmt, 7)),
	};
	const struct store_sess_head file = {
		f[XW_SUT], f[XW_SWPROFILE], f[XW_BOOT_ID], f[XW_STARTED], f[XW_ENDED], f[XW_COMPLETE][0] == '1',
		store_sess_env_hash(f[XW_ENVIRONMENT]),
	};
	const char *diff = store_sess_head_diff(&stored, &file);

	s->id = store_col_int64(stmt, 0);
	s->existing = true;
	s->stored_state = store_sess_state(&stored);
	s->file_state = store_sess_state(&file);
	s->file_complete = file.complete;
	s->extend = s->stored_state != STORE_SESS_FINISHED;
	s->stored_samples = store_col_int64(stmt, 8);
	s->stored_errors = store_col_int64(stmt, 9);
	s->ended = strdup(f[XW_ENDED]);
	s->boot_id = strdup(f[XW_BOOT_ID]);
	s->environment = strdup(f[XW_ENVIRONMENT]);
	if (!s->ended || !s->boot_id || !s->environment)
		return -ENOMEM;
	return diff ? xw_conflict(in, in->f[XW_SESSION], diff) : 0;
}

/* Insert the session of the record, unless its UUID is stored already: then -ENOENT, nothing written. */
static int xw_session_insert(struct xw_in *in, struct xw_sess *s)
{
	const char *const *f = in->f;
	int64_t sut, swp;
	int ret = xw_named_id(in, 0, f[XW_SUT], &sut);

	if (!ret)
		ret = xw_named_id(in, 1, f[XW_SWPROFILE], &swp);
	/* empty is NULL: CSV cannot tell them apart, and the store writes NULL, never "" */
	if (!ret)
		ret = store_int64(in->st, &s->id, "INSERT INTO session (uuid, boot_id, sut_id, swprofile_id, started,"
				  " ended, complete, environment) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
				  " ON CONFLICT (uuid) DO NOTHING RETURNING id",
				  "ttiittbt", f[XW_SESSION], *f[XW_BOOT_ID] ? f[XW_BOOT_ID] : NULL, sut, swp,
				  f[XW_STARTED], *f[XW_ENDED] ? f[XW_ENDED] : NULL, f[XW_COMPLETE][0] == '1',
				  f[XW_ENVIRONMENT]);
	return ret;
}

static int xw_session(struct xw_in *in)
{
	struct xw_sess *s;
	struct store_stmt *stmt;
	int ret, rc;

	s = xw_lookup(in, in->f[XW_SESSION]);
	if (s)
		return xw_bad(in, XW_SESSION, "session %s appears twice (first on %s %ld)", s->uuid,
			      in->json ? "record" : "line", s->line);
	if (*in->f[XW_ENDED] && store_xchg_time_cmp(in->f[XW_ENDED], in->f[XW_STARTED]) < 0)
		return xw_bad(in, XW_ENDED, "'%s' is before the session's start, %s", in->f[XW_ENDED],
			      in->f[XW_STARTED]);
	ret = xw_grow(in);
	if (ret)
		return ret;
	s = xw_slot(in, in->f[XW_SESSION]);
	snprintf(s->uuid, sizeof(s->uuid), "%s", in->f[XW_SESSION]);
	s->line = in->where;
	in->nsess++;
	/* new, the usual case, in one round trip; one stored before is then read to compare */
	ret = xw_session_insert(in, s);
	if (ret != -ENOENT)
		return ret;
	ret = store_prepare(in->st, &stmt, "SELECT se.id, u.name, p.name, se.boot_id, se.started, se.ended,"
			    " se.complete, se.environment, (SELECT count(*) FROM sample x WHERE x.session_id = se.id),"
			    " (SELECT count(*) FROM error e WHERE e.session_id = se.id) FROM session se"
			    " JOIN sut u ON u.id = se.sut_id JOIN swprofile p ON p.id = se.swprofile_id"
			    " WHERE se.uuid = ?1", "t", s->uuid);
	if (ret)
		return ret;
	rc = store_step(stmt);
	if (rc == STORE_ROW)
		ret = xw_session_existing(in, stmt, s);
	else
		ret = rc == STORE_DONE ? -EIO : store_sql_fail(in->st, rc, "looking up a session");
	store_finalize(stmt);
	return ret;
}

/* The session a sample or error record belongs to: declared before it in the file. */
static int xw_owner(struct xw_in *in, struct xw_sess **s)
{
	*s = xw_lookup(in, in->f[XW_SESSION]);
	if (!*s)
		return xw_bad(in, XW_SESSION, "session %s has no session record before this one",
			      in->f[XW_SESSION]);
	return 0;
}

/* A sample of a session stored already that the store does not hold as the file says (batch ops.differs()). */
static int xw_sample_differs(void *arg, const struct store_batch_row *row, bool found, double value)
{
	struct xw_in *in = arg;
	long where = in->where;
	int ret;

	(void)value;
	in->where = row->line;
	ret = xw_conflict(in, row->uuid, found ? "this sample's value or time differs" : "the store lacks this sample");
	in->where = where;
	return ret;
}

/* A sample alone, after its batch was refused (batch ops.one()): it must go in, unless its session is extended. */
static int xw_sample_one(void *arg, const struct store_batch_row *row)
{
	struct xw_in *in = arg;
	long where = in->where;
	bool inserted = false;
	int ret = store_xchg_sample_insert(in->st, &in->insert, &row->x, &inserted);

	const struct xw_sess *s = xw_lookup(in, row->uuid);

	in->where = row->line;
	if (ret)
		ret = xw_bad(in, -1, "this sample cannot be stored");
	else if (!inserted && !(s && s->extend))	/* a session cut short may hold it: the check said the same */
		ret = xw_bad(in, -1, "this sample appears twice in session %s", row->uuid);
	in->where = where;
	return ret;
}

static int xw_sample(struct xw_in *in)
{
	const char *const *f = in->f;
	struct xw_sess *s;
	int64_t rclass = 0;
	int iteration = 0;
	double value = 0;
	bool warmup = f[XW_WARMUP][0] == '1';
	int ret = xw_owner(in, &s);

	if (!ret)
		ret = store_xchg_rclass_cached(in->st, &in->rclasses, &in->bench, f[XW_BENCHMARK], f[XW_RESULTCLASS],
					       f[XW_UNIT], f[XW_HIGHER][0] == '1', &rclass);
	if (ret)
		return ret;
	store_xchg_iteration(f[XW_ITERATION], &iteration);
	store_xchg_value(f[XW_VALUE], &value);
	s->samples++;
	/*
	 * a session stored complete must hold it, value and time; one stored cut
	 * short gets it unless it holds it already (the same), a new one gets it
	 */
	return store_batch_add(!s->existing ? in->batch : s->extend ? in->extend : in->check,
			       &(struct store_xchg_sample){ s->id, rclass, iteration, warmup, value, f[XW_TIME] },
			       in->where, s->uuid);
}

static int xw_error(struct xw_in *in)
{
	const char *const *f = in->f;
	int64_t bench = 0, found = 0, iteration = -1;
	struct xw_sess *s;
	int it, ret = xw_owner(in, &s);

	if (!ret)
		ret = store_xchg_bench_parse(in->st, &in->bench, f[XW_BENCHMARK]);
	if (!ret)
		ret = store_xchg_bench_id(in->st, &in->bench, &bench, NULL);
	if (ret)
		return ret;
	if (*f[XW_ITERATION] && store_xchg_iteration(f[XW_ITERATION], &it))
		iteration = it;
	s->errors++;
	if (s->existing) {
		ret = store_int64(in->st, &found, "SELECT count(*) FROM error WHERE session_id = ?1"
				  " AND benchmark_id = ?2 AND (iteration = ?3 OR (iteration IS NULL AND ?3 IS NULL))"
				  " AND warmup = ?4 AND message = ?5 AND time = ?6", "iinbtt", s->id, bench, iteration,
				  f[XW_WARMUP][0] == '1', f[XW_MESSAGE], f[XW_TIME]);
		if (ret || found)
			return ret;
		if (!s->extend)
			return xw_conflict(in, s->uuid, "the store lacks this error");
	}
	/* the schema checks an error against its session's samples: they go in first */
	ret = store_batch_flush(s->existing ? in->extend : in->batch);
	if (!ret && store_exec(in->st, "INSERT INTO error (session_id, benchmark_id, iteration, warmup, message,"
			       " time) VALUES (?1, ?2, ?3, ?4, ?5, ?6)", "iinbtt", s->id, bench, iteration,
			       f[XW_WARMUP][0] == '1', f[XW_MESSAGE], f[XW_TIME]))
		ret = xw_bad(in, -1, "this error cannot be stored");
	return ret;
}

/* A sut_swprofile record: the fingerprint the file says the swprofile has on that class, as run records it. */
static int xw_pair(struct xw_in *in)
{
	char where[STORE_NAME_MAX + 64];
	int64_t sut, swp;
	int ret = xw_named_id(in, 0, in->f[XW_SUT], &sut);

	if (!ret)
		ret = xw_named_id(in, 1, in->f[XW_SWPROFILE], &swp);
	snprintf(where, sizeof(where), " on SUT class '%s' (as the file has it)", in->f[XW_SUT]);
	if (!ret)
		ret = store_swprofile_sut(in->st, swp, sut, in->f[XW_FINGERPRINT], 0, in->f[XW_SWPROFILE], where);
	return ret == -EEXIST ? xw_bad(in, XW_FINGERPRINT, "the store holds another fingerprint of that swprofile"
				       " on that class") : ret;
}

/* A sequential record: the looks of a run of the file's store, so this one judges its cells at their level too. */
static int xw_sequential(struct xw_in *in)
{
	struct store_sequential q = {
		in->f[XW_SUT], in->f[XW_SWPROFILE], (unsigned)strtoul(in->f[XW_LOOKS], NULL, 10),
		(unsigned)strtoul(in->f[XW_LOOKED], NULL, 10), strtod(in->f[XW_ALPHA], NULL), in->f[XW_STARTED],
		in->f[XW_TIME],
	};

	if (store_xchg_time_cmp(q.updated, q.started) < 0)
		return xw_bad(in, XW_TIME, "the run's last look is before its start");
	return store_sequential_take(in->st, &q, NULL);
}

/* Act on the record just checked. */
static int xw_record(struct xw_in *in)
{
	int64_t id;
	int ret;

	if (in->ended)
		return xw_bad(in, -1, "a record after the end record");
	switch (in->kind) {
	case XW_KIND_SUT:
		return xw_named(in, 0, in->f[XW_SUT], in->f[XW_FINGERPRINT], &id);
	case XW_KIND_SWPROFILE:
		ret = xw_named(in, 1, in->f[XW_SWPROFILE], in->f[XW_FINGERPRINT], &id);
		return ret ? ret : xw_swprofile_agrees(in, id, in->f[XW_SWPROFILE], in->f[XW_FINGERPRINT]);
	case XW_KIND_SUT_SWPROFILE:
		return xw_pair(in);
	case XW_KIND_SESSION:
		return xw_session(in);
	case XW_KIND_SAMPLE:
		return xw_sample(in);
	case XW_KIND_ERROR:
		return xw_error(in);
	case XW_KIND_SEQUENTIAL:
		return xw_sequential(in);
	default:
		in->ended = true;
		return 0;
	}
}

/*
 * A session the store held before, once the file's samples and errors of it
 * were matched: one rule with merge (store_sess_rule()).  0, or -EINVAL.
 */
static int xw_finish_one(struct xw_in *in, struct xw_sess *s)
{
	struct store_sess_tally samples = { s->stored_samples, 0, s->samples };
	struct store_sess_tally errors = { s->stored_errors, 0, s->errors };
	char why[256];
	int ret = store_int64(in->st, &samples.after, "SELECT count(*) FROM sample WHERE session_id = ?1", "i", s->id);

	if (!ret)
		ret = store_int64(in->st, &errors.after, "SELECT count(*) FROM error WHERE session_id = ?1", "i",
				  s->id);
	if (!ret)
		ret = store_sess_rule(s->stored_state, s->file_state, &samples, &errors, "the file", why, sizeof(why));
	if (ret == 1) {
		/* the file holds what the store held of it, and knows more: its end, say */
		const struct store_sess_head file = { .boot_id = s->boot_id, .ended = s->ended,
						      .complete = s->file_complete };

		return store_session_take(in->st, s->id, &file, s->environment);
	}
	if (ret == -EINVAL) {
		in->where = s->line;
		return xw_conflict(in, s->uuid, why);
	}
	return ret;
}

/* Each session the store held before: the file must have been it, at this or another stage. */
static int xw_finish(struct xw_in *in)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < in->cap; i++)
		if (in->sess[i].uuid[0] && in->sess[i].existing)
			ret = xw_finish_one(in, &in->sess[i]);
	return ret;
}

static void xw_in_free(struct xw_in *in)
{
	xw_record_free(in);
	store_xchg_bench_free(&in->bench);
	json_decref(in->rclasses);
	json_decref(in->named[0]);
	json_decref(in->named[1]);
	store_batch_free(in->batch);
	store_batch_free(in->check);
	store_batch_free(in->extend);
	store_finalize(in->insert);
	for (size_t i = 0; i < in->cap; i++) {
		free(in->sess[i].ended);
		free(in->sess[i].boot_id);
		free(in->sess[i].environment);
	}
	free(in->sess);
}

/* Run @read (which calls xw_record() per record) in one transaction, then the checks of the end. */
static int xw_import(struct xw_in *in, int (*read)(struct xw_in *in, void *arg), void *arg)
{
	static const struct store_batch_ops ops = { xw_sample_one, xw_sample_differs };
	int ret;

	in->batch = store_batch_new(in->st, STORE_BATCH_NEW, &ops, in);
	in->check = store_batch_new(in->st, STORE_BATCH_CHECK, &ops, in);
	in->extend = store_batch_new(in->st, STORE_BATCH_EXTEND, &ops, in);
	ret = in->batch && in->check && in->extend ? store_tx_begin(in->st) : -ENOMEM;
	if (ret)
		return ret;
	ret = read(in, arg);
	if (!ret && !in->json && !in->ended) {
		log_err("%s ends without its end record: the file was cut short", in->name);
		ret = -EINVAL;
	}
	if (!ret)
		ret = store_batch_flush(in->batch);
	if (!ret)
		ret = store_batch_flush(in->check);
	if (!ret)
		ret = store_batch_flush(in->extend);
	if (!ret)
		ret = xw_finish(in);
	return store_tx_end(in->st, ret);
}

/* The record read into in->f[] (@ret: how reading it went) checked and acted on, then let go. */
static int xw_take(struct xw_in *in, int ret)
{
	if (!ret)
		ret = xw_check(in);
	if (!ret)
		ret = xw_record(in);
	xw_record_free(in);
	return ret;
}

/* The CSV form: a header naming every column, then one record a line. */
struct xw_csv {
	struct csv_reader *r;
	struct csv_record *rec;
};

/*
 * The header: every column, or those of an export made before sequential
 * runs were carried (XW_NCOLS_BEFORE_SEQUENTIAL), whose records are read as
 * if the later columns were empty.  Their number into *@ncols.
 */
static int xw_csv_header(struct xw_in *in, const struct csv_record *rec, size_t *ncols)
{
	*ncols = rec->n == XW_NCOLS_BEFORE_SEQUENTIAL ? XW_NCOLS_BEFORE_SEQUENTIAL : XW_NCOLS;
	for (size_t i = 0; i < *ncols; i++)
		if (i >= rec->n || strcmp(rec->field[i], store_xw_col_name[i]))
			return xw_bad(in, i < rec->n ? (int)i : -1, "the header of export --whole has the column '%s' here",
				      store_xw_col_name[i]);
	return rec->n == *ncols ? 0 : xw_bad(in, -1, "the header has %zu columns, expected %d", rec->n, XW_NCOLS);
}

static int xw_csv_records(struct xw_in *in, void *arg)
{
	struct xw_csv *c = arg;
	struct csv_error err;
	size_t ncols;
	int ret, got;

	in->where = c->rec->line;
	ret = xw_csv_header(in, c->rec, &ncols);
	while (!ret && (got = csv_read_record(c->r, c->rec, &err)) == 1) {
		in->where = c->rec->line;
		if (c->rec->n != ncols)
			return xw_bad(in, -1, "expected %zu columns, found %zu", ncols, c->rec->n);
		for (size_t i = 0; i < ncols; i++)
			in->f[i] = c->rec->field[i];
		ret = xw_take(in, xw_kind_of(in, in->f[XW_RECORD]));
	}
	return ret ? ret : store_xchg_csv_end(in->name, got, &err);
}

int store_xchg_whole_csv(struct store *st, struct csv_reader *r, struct csv_record *rec, const char *name)
{
	struct xw_in in = { .st = st, .name = name };
	struct xw_csv c = { r, rec };
	int ret;

	xw_record_free(&in);
	ret = xw_import(&in, xw_csv_records, &c);
	xw_in_free(&in);
	return ret;
}

/* Column @col of a JSON record into in->f[col] as CSV would hold it, checking its JSON type. */
static int xw_json_field(struct xw_in *in, int col, json_t *v)
{
	char buf[64];

	if (json_is_null(v) && store_xw_spec[in->kind][col] == 'o')
		return 0;
	switch (store_xw_type(col)) {
	case XW_TEXT:
		if (!json_is_string(v))
			return xw_bad(in, col, "not a string");
		in->f[col] = json_string_value(v);
		return 0;
	case XW_OBJECT:
		if (!json_is_object(v))
			return xw_bad(in, col, "not an object");
		in->owned[col] = json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
		break;
	case XW_BOOL:
		if (!json_is_boolean(v))
			return xw_bad(in, col, "not true or false");
		in->f[col] = json_is_true(v) ? "1" : "0";
		return 0;
	case XW_INT:
		if (!json_is_integer(v))
			return xw_bad(in, col, "not an integer");
		snprintf(buf, sizeof(buf), "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		in->owned[col] = strdup(buf);
		break;
	case XW_REAL:
		if (!json_is_number(v))
			return xw_bad(in, col, "not a number");
		snprintf(buf, sizeof(buf), "%.17g", json_number_value(v));
		in->owned[col] = strdup(buf);
		break;
	}
	in->f[col] = in->owned[col];
	return in->owned[col] ? 0 : -ENOMEM;
}

/* One element of the JSON array into in->f[], every key checked against its kind. */
static int xw_json_record(struct xw_in *in, json_t *obj)
{
	json_t *kind = json_object_get(obj, "record"), *v;
	const char *key;
	int ret;

	if (!json_is_object(obj))
		return xw_bad(in, -1, "not an object");
	if (!json_is_string(kind))
		return xw_bad(in, -1, "no \"record\" key%s", json_object_get(obj, "sample_time")
			      ? ": this is the JSON sample form (export --format json), which import does not"
				" read; export with --whole, or with --format csv" : "");
	ret = xw_kind_of(in, json_string_value(kind));
	json_object_foreach(obj, key, v) {
		int col = 0;

		if (ret)
			break;
		while (col < XW_NCOLS && strcmp(store_xw_col_name[col], key))
			col++;
		if (col == XW_NCOLS || store_xw_spec[in->kind][col] == '-')
			return xw_bad(in, -1, "\"%s\" is not a key of a %s record", key, store_xw_kind_name[in->kind]);
		ret = xw_json_field(in, col, v);
	}
	return ret;
}

static int xw_json_records(struct xw_in *in, void *arg)
{
	json_t *doc = arg, *obj;
	size_t i;
	int ret = 0;

	json_array_foreach(doc, i, obj) {
		in->where = (long)i + 1;
		ret = xw_take(in, xw_json_record(in, obj));
		if (ret)
			break;
	}
	return ret;
}

static int xw_import_json(struct store *st, FILE *in_file, const char *name)
{
	struct xw_in in = { .st = st, .name = name, .json = true };
	json_error_t jerr;
	json_t *doc = json_loadf(in_file, JSON_REJECT_DUPLICATES, &jerr);
	int ret;

	if (!doc) {
		log_err("%s: line %d, column %d: %s", name, jerr.line, jerr.column, jerr.text);
		return -EINVAL;
	}
	if (!json_is_array(doc)) {
		json_decref(doc);
		log_err("%s: not an array of records (clearpath export --whole --format json)", name);
		return -EINVAL;
	}
	xw_record_free(&in);
	ret = xw_import(&in, xw_json_records, doc);
	xw_in_free(&in);
	json_decref(doc);
	return ret;
}

/*
 * Skip a UTF-8 byte-order mark, which spreadsheets write at the start of a
 * "CSV UTF-8" file: it is not part of the first field.  -EINVAL, said, when
 * the file starts with its first byte but not the rest of it.
 */
static int import_skip_bom(FILE *in, const char *name)
{
	int c = getc(in);

	if (c != 0xef) {
		if (c != EOF)
			ungetc(c, in);
		return 0;
	}
	if (getc(in) == 0xbb && getc(in) == 0xbf)
		return 0;
	log_err("%s: starts with the byte 0xef but is not UTF-8 text with a byte-order mark: not a clearpath export"
		" (expected the header %s or a JSON array)", name, STORE_EXPORT_COLUMNS);
	log_hint("nothing from %s was imported", name);
	return -EINVAL;
}

int store_import(struct store *st, FILE *in, const char *name, enum store_format *fmt)
{
	FILE *f = in;
	bool json = false;
	int ret = import_skip_bom(in, name);

	if (ret)
		return ret;
	ret = store_xchg_sniff(in, name, &f, &json);
	if (!ret && fmt)
		*fmt = json ? STORE_JSON : STORE_CSV;
	if (!ret && !json)
		ret = store_import_csv(st, f, name);	/* which says when nothing was imported */
	else if (!ret && (ret = xw_import_json(st, f, name)))
		log_hint("nothing from %s was imported", name);
	if (f != in)
		fclose(f);
	return ret;
}
