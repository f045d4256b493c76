/* merge_sessions: a merge's sessions, a group per round trip, and those both stores hold judged as import judges them. */
#include "store/merge.h"

#include <stdio.h>
#include <string.h>

#include "util/log.h"

/*
 * Sessions per multi-row statement: a server pays a round trip per group,
 * not per session (8 parameters each, well under every engine's limit).
 */
#define MERGE_GROUP 250

/* A source session the destination lacks, waiting for its group's insert; the texts are copies. */
struct pending {
	int64_t src;
	char *text[5];		/* uuid, boot_id (NULL), started, ended (NULL), environment */
	int64_t sut, swprofile, complete;
};

/* A source session the destination holds already, judged once its rows were matched. */
struct overlap {
	int64_t src, dst;
	char uuid[STORE_UUID_LEN + 1];
	char *sut, *swprofile, *boot_id, *started, *ended;	/* the source's */
	bool complete;		/* the source's */
	enum store_sess_state state, stored_state;	/* the source's, the destination's */
	uint64_t env;
	struct store_sess_tally samples, errors;
};

/* What the session part of one merge keeps. */
struct sessions {
	struct merge *m;
	json_t *have;			/* the destination's UUIDs -> ids */
	struct id_map added;		/* source ids of the sessions added -> theirs */
	struct pending pend[MERGE_GROUP];
	int npend;
	struct store_stmt *insert;	/* the insert of a whole group, prepared once */
	struct overlap *over;		/* in increasing source id */
	size_t nover, capover;
	struct store_batch *plain;	/* samples of sessions added */
	struct store_batch *check;	/* samples of sessions the destination holds complete */
	struct store_batch *extend;	/* samples of sessions it holds cut short */
	struct store_stmt *one;		/* a sample alone, after a refused batch */
};

/* The overlap of source session @src, or NULL. */
static struct overlap *overlap_of(const struct sessions *ss, int64_t src)
{
	size_t lo = 0, hi = ss->nover;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ss->over[mid].src == src)
			return &ss->over[mid];
		if (ss->over[mid].src < src)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static void pending_clear(struct sessions *ss)
{
	for (int i = 0; i < ss->npend; i++)
		for (int t = 0; t < 5; t++)
			free(ss->pend[i].text[t]);
	ss->npend = 0;
}

/* The multi-row insert of @rows sessions, returning each one's id and UUID. */
static char *group_insert_sql(int rows)
{
	char *sql = malloc(256 + (size_t)rows * 64), *q;

	if (!sql)
		return NULL;
	q = sql + sprintf(sql, "INSERT INTO session (uuid, boot_id, sut_id, swprofile_id, started, ended, complete,"
			  " environment) VALUES");
	for (int r = 0; r < rows; r++) {
		q += sprintf(q, "%s(", r ? ", " : " ");
		for (int c = 0; c < 8; c++)
			q += sprintf(q, "%s?%d", c ? ", " : "", r * 8 + c + 1);
		*q++ = ')';
	}
	strcpy(q, " RETURNING id, uuid");
	return sql;
}

/*
 * The pending session of @uuid, returned as row @row: the engines return a
 * group's rows in the order given, but need not, so another order is
 * searched for.
 */
static struct pending *pending_of(struct sessions *ss, int row, const char *uuid)
{
	if (row < ss->npend && !strcmp(ss->pend[row].text[0], uuid))
		return &ss->pend[row];
	for (int i = 0; i < ss->npend; i++)
		if (!strcmp(ss->pend[i].text[0], uuid))
			return &ss->pend[i];
	return NULL;
}

/* Insert the pending sessions in one statement and remember their ids, in source order. */
static int group_flush(struct sessions *ss)
{
	struct store_arg a[MERGE_GROUP * 8];
	struct store_stmt *own = NULL, *stmt;
	int64_t *dst = calloc((size_t)ss->npend, sizeof(*dst));
	int ret = dst ? 0 : -ENOMEM, rc;

	if (!ss->npend || ret) {
		free(dst);
		return ret;
	}
	for (int i = 0; i < ss->npend; i++) {
		const struct pending *p = &ss->pend[i];
		struct store_arg *r = &a[i * 8];

		for (int c = 0; c < 8; c++)
			r[c] = (struct store_arg){ .type = 't', .kind = 't' };
		r[0].text = p->text[0];
		r[1].text = p->text[1];
		r[2] = (struct store_arg){ .type = 'i', .kind = 'i', .i = p->sut };
		r[3] = (struct store_arg){ .type = 'i', .kind = 'i', .i = p->swprofile };
		r[4].text = p->text[2];
		r[5].text = p->text[3];
		r[6] = (struct store_arg){ .type = 'i', .kind = 'i', .i = p->complete };
		r[7].text = p->text[4];
	}
	if (ss->npend == MERGE_GROUP && ss->insert) {
		stmt = ss->insert;
	} else {
		char *sql = group_insert_sql(ss->npend);

		ret = sql ? store_prepare(ss->m->dst, &own, sql, NULL) : -ENOMEM;
		free(sql);
		stmt = own;
		if (!ret && ss->npend == MERGE_GROUP) {
			ss->insert = own;
			own = NULL;
		}
	}
	if (!ret)
		ret = store_bind_array(stmt, a, ss->npend * 8);
	for (int row = 0; !ret && (rc = store_step(stmt)) == STORE_ROW; row++) {
		struct pending *p = pending_of(ss, row, store_col_text(stmt, 1));

		if (p)
			dst[p - ss->pend] = store_col_int64(stmt, 0);
	}
	if (!ret && rc < 0)
		ret = store_sql_fail(ss->m->dst, rc, "merging sessions");
	if (!ret)
		store_reset(stmt);
	for (int i = 0; !ret && i < ss->npend; i++)
		ret = dst[i] ? map_put(&ss->added, ss->pend[i].src, dst[i]) : -EIO;
	store_finalize(own);
	free(dst);
	ss->m->done.added += ret ? 0 : ss->npend;
	pending_clear(ss);
	return ret;
}

static char *dup_or_null(struct store_stmt *s, int col, bool *oom)
{
	char *t;

	if (store_col_type(s, col) == STORE_COL_NULL)
		return NULL;
	t = strdup(store_col_text(s, col));
	*oom |= !t;
	return t;
}

/* Source session row @s (see sessions_walk()), new to the destination, into the next group. */
static int pending_add(struct sessions *ss, struct store_stmt *s)
{
	struct pending *p = &ss->pend[ss->npend++];
	bool oom = false;

	p->src = store_col_int64(s, 0);
	p->text[0] = dup_or_null(s, 1, &oom);
	p->text[1] = dup_or_null(s, 2, &oom);
	p->text[2] = dup_or_null(s, 5, &oom);
	p->text[3] = dup_or_null(s, 6, &oom);
	p->text[4] = dup_or_null(s, 8, &oom);
	p->sut = map_get(&ss->m->sut, store_col_int64(s, 3));
	p->swprofile = map_get(&ss->m->swprofile, store_col_int64(s, 4));
	p->complete = store_col_int64(s, 7);
	if (oom)
		return -ENOMEM;
	return ss->npend == MERGE_GROUP ? group_flush(ss) : 0;
}

/* Source session row @s, which the destination holds as @dst: kept to judge once its rows are matched. */
static int overlap_add(struct sessions *ss, struct store_stmt *s, int64_t dst)
{
	struct overlap *o;
	bool oom = false;

	if (ss->nover == ss->capover) {
		size_t cap = ss->capover ? 2 * ss->capover : 64;
		struct overlap *n = realloc(ss->over, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		ss->over = n;
		ss->capover = cap;
	}
	o = &ss->over[ss->nover++];
	memset(o, 0, sizeof(*o));
	o->src = store_col_int64(s, 0);
	o->dst = dst;
	snprintf(o->uuid, sizeof(o->uuid), "%s", store_col_text(s, 1));
	o->boot_id = strdup(store_col_text(s, 2));
	o->started = strdup(store_col_text(s, 5));
	o->ended = strdup(store_col_text(s, 6));
	o->complete = store_col_int64(s, 7) != 0;
	o->env = store_sess_env_hash(store_col_text(s, 8));
	o->sut = strdup(store_col_text(s, 9));
	o->swprofile = strdup(store_col_text(s, 10));
	oom = !o->boot_id || !o->started || !o->ended || !o->sut || !o->swprofile;
	return oom ? -ENOMEM : 0;
}

/* The UUIDs of the destination's sessions with their ids, as a new JSON object: one query, not one per session. */
static int dst_sessions(struct sessions *ss)
{
	struct store_stmt *stmt;
	int ret = store_prepare(ss->m->dst, &stmt, "SELECT uuid, id FROM session", NULL), rc;

	ss->have = json_object();
	if (!ss->have)
		ret = -ENOMEM;
	while (!ret && (rc = store_step(stmt)) == STORE_ROW)
		ret = json_object_set_new(ss->have, store_col_text(stmt, 0), json_integer(store_col_int64(stmt, 1)))
			      ? -ENOMEM : 0;
	if (!ret && rc < 0)
		ret = store_sql_fail(ss->m->dst, rc, "reading the sessions merged into");
	store_finalize(stmt);
	return ret;
}

/* Every source session: new ones inserted a group at a time, the others kept to judge. */
static int sessions_walk(struct sessions *ss)
{
	struct store_stmt *stmt = NULL;
	int ret = dst_sessions(ss), rc;

	if (!ret)
		ret = store_prepare(ss->m->src, &stmt, "SELECT se.id, se.uuid, se.boot_id, se.sut_id, se.swprofile_id,"
				    " se.started, se.ended, se.complete, se.environment, u.name, p.name FROM session se"
				    " JOIN sut u ON u.id = se.sut_id JOIN swprofile p ON p.id = se.swprofile_id"
				    " ORDER BY se.id", NULL);
	while (!ret && (rc = store_step(stmt)) == STORE_ROW) {
		json_t *dst = json_object_get(ss->have, store_col_text(stmt, 1));

		ret = dst ? overlap_add(ss, stmt, json_integer_value(dst)) : pending_add(ss, stmt);
	}
	if (!ret && rc < 0)
		ret = store_sql_fail(ss->m->src, rc, "reading the sessions to merge");
	store_finalize(stmt);
	return ret ? ret : group_flush(ss);
}

/*
 * The destination's side of overlaps @o[0..@n): its record and, with @counts
 * only, how many samples and errors it holds now.  One query for the group.
 */
static int overlap_read(struct sessions *ss, struct overlap *o, size_t n, bool counts)
{
	struct store_arg a[MERGE_GROUP];
	struct store_stmt *stmt;
	char *sql = malloc(512 + n * 8), *q;
	int ret, rc;

	if (!sql)
		return -ENOMEM;
	q = sql + sprintf(sql, "SELECT se.id, u.name, p.name, se.boot_id, se.started, se.ended, se.complete,"
			  " se.environment, (SELECT count(*) FROM sample x WHERE x.session_id = se.id),"
			  " (SELECT count(*) FROM error e WHERE e.session_id = se.id) FROM session se"
			  " JOIN sut u ON u.id = se.sut_id JOIN swprofile p ON p.id = se.swprofile_id WHERE se.id IN (");
	for (size_t i = 0; i < n; i++) {
		q += sprintf(q, "%s?%zu", i ? ", " : "", i + 1);
		a[i] = (struct store_arg){ .type = 'i', .kind = 'i', .i = o[i].dst };
	}
	strcpy(q, ")");
	ret = store_prepare(ss->m->dst, &stmt, sql, NULL);
	free(sql);
	if (!ret)
		ret = store_bind_array(stmt, a, (int)n);
	while (!ret && (rc = store_step(stmt)) == STORE_ROW) {
		int64_t id = store_col_int64(stmt, 0);
		struct overlap *x = NULL;

		for (size_t i = 0; i < n && !x; i++)
			x = o[i].dst == id ? &o[i] : NULL;
		if (!x)
			continue;
		if (counts) {
			x->samples.after = store_col_int64(stmt, 8);
			x->errors.after = store_col_int64(stmt, 9);
			continue;
		}
		const struct store_sess_head stored = {
			store_col_text(stmt, 1), store_col_text(stmt, 2), store_col_text(stmt, 3), store_col_text(stmt, 4),
			store_col_text(stmt, 5), store_col_int(stmt, 6) != 0,
			store_sess_env_hash(store_col_text(stmt, 7)),
		};
		const struct store_sess_head theirs = { x->sut, x->swprofile, x->boot_id, x->started, x->ended,
							x->complete, x->env };
		const char *diff = store_sess_head_diff(&stored, &theirs);

		if (diff) {
			log_err("session %s is in both stores with other content: %s", x->uuid, diff);
			ret = -EINVAL;
		}
		x->stored_state = store_sess_state(&stored);
		x->state = store_sess_state(&theirs);
		x->samples.before = store_col_int64(stmt, 8);
		x->errors.before = store_col_int64(stmt, 9);
	}
	if (!ret && rc < 0)
		ret = store_sql_fail(ss->m->dst, rc, "reading the sessions both stores hold");
	store_finalize(stmt);
	return ret;
}

/* Every overlap's destination side, a group per query. */
static int overlaps_read(struct sessions *ss, bool counts)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < ss->nover; i += MERGE_GROUP)
		ret = overlap_read(ss, &ss->over[i], ss->nover - i < MERGE_GROUP ? ss->nover - i : MERGE_GROUP,
				   counts);
	return ret;
}

/* A sample of a session both hold that the destination does not hold as the source says (batch ops.differs()). */
static int sample_differs(void *arg, const struct store_batch_row *row, bool found, double value)
{
	(void)arg;
	(void)value;
	log_err("session %s is in both stores with other content: %s", row->uuid,
		found ? "a sample's value or time differs"
		      : "the destination holds it finished, without a sample the source has");
	return -EINVAL;
}

/* A sample alone, after its batch was refused (batch ops.one()): one the session holds already is fine. */
static int sample_one(void *arg, const struct store_batch_row *row)
{
	struct sessions *ss = arg;
	bool inserted;

	return store_xchg_sample_insert(ss->m->dst, &ss->one, &row->x, &inserted);
}

/*
 * The samples of the sessions added, and of those both hold, through the
 * batches: one query over the source, so a server is asked once, not once
 * per session, and its rows stream.
 */
static int samples_walk(struct sessions *ss)
{
	struct store_stmt *stmt;
	int ret, rc;

	ret = store_prepare(ss->m->src, &stmt, "SELECT session_id, resultclass_id, iteration, warmup, value, time"
			    " FROM sample ORDER BY session_id, id", NULL);
	while (!ret && (rc = store_step(stmt)) == STORE_ROW) {
		int64_t from = store_col_int64(stmt, 0), to = map_get(&ss->added, from);
		struct overlap *o = to < 0 ? overlap_of(ss, from) : NULL;
		struct store_xchg_sample x = { to, map_get(&ss->m->rclass, store_col_int64(stmt, 1)),
					       store_col_int(stmt, 2), store_col_int(stmt, 3),
					       store_col_double(stmt, 4), store_col_text(stmt, 5) };

		if (to >= 0) {
			ret = store_batch_add(ss->plain, &x, 0, NULL);
		} else if (o) {
			x.session = o->dst;
			o->samples.theirs++;
			ret = store_batch_add(o->stored_state == STORE_SESS_FINISHED ? ss->check : ss->extend, &x, 0,
					      o->uuid);
		}
	}
	if (!ret && rc < 0)
		ret = store_sql_fail(ss->m->src, rc, "reading the samples to merge");
	store_finalize(stmt);
	/* before the errors, which the schema checks against their sessions' samples */
	if (!ret)
		ret = store_batch_flush(ss->plain);
	if (!ret)
		ret = store_batch_flush(ss->check);
	return ret ? ret : store_batch_flush(ss->extend);
}

/* Whether the destination holds error @e of session @dst (bench @bench) as the source does. */
static int error_held(struct sessions *ss, struct store_stmt *e, int64_t dst, int64_t bench, bool *held)
{
	int64_t n = 0;
	int ret = store_int64(ss->m->dst, &n, "SELECT count(*) FROM error WHERE session_id = ?1 AND benchmark_id = ?2"
			      " AND (iteration = ?3 OR (iteration IS NULL AND ?3 IS NULL)) AND warmup = ?4"
			      " AND message = ?5 AND time = ?6", "iinitt", dst, bench,
			      store_col_type(e, 2) == STORE_COL_NULL ? (int64_t)-1 : store_col_int64(e, 2),
			      store_col_int64(e, 3), store_col_text(e, 4), store_col_text(e, 5));

	*held = n > 0;
	return ret;
}

/* The errors of the sessions added, and those of sessions both hold that the destination lacks. */
static int errors_walk(struct sessions *ss)
{
	struct store_stmt *stmt;
	int ret, rc;

	ret = store_prepare(ss->m->src, &stmt, "SELECT session_id, benchmark_id, iteration, warmup, message, time"
			    " FROM error ORDER BY session_id, id", NULL);
	while (!ret && (rc = store_step(stmt)) == STORE_ROW) {
		int64_t from = store_col_int64(stmt, 0), to = map_get(&ss->added, from);
		int64_t bench = map_get(&ss->m->bench, store_col_int64(stmt, 1));
		struct overlap *o = to < 0 ? overlap_of(ss, from) : NULL;
		bool held = false;

		if (o) {
			o->errors.theirs++;
			to = o->dst;
			ret = error_held(ss, stmt, to, bench, &held);
			if (!ret && !held && o->stored_state == STORE_SESS_FINISHED) {
				log_err("session %s is in both stores with other content: the destination holds it"
					" finished, without an error the source has", o->uuid);
				ret = -EINVAL;
			}
		}
		if (ret || to < 0 || held)
			continue;
		ret = store_exec(ss->m->dst, "INSERT INTO error (session_id, benchmark_id, iteration, warmup, message,"
				 " time) VALUES (?1, ?2, ?3, ?4, ?5, ?6)", "iinitt", to, bench,
				 store_col_type(stmt, 2) == STORE_COL_NULL ? (int64_t)-1 : store_col_int64(stmt, 2),
				 store_col_int64(stmt, 3), store_col_text(stmt, 4), store_col_text(stmt, 5));
	}
	if (!ret && rc < 0)
		ret = store_sql_fail(ss->m->src, rc, "reading the errors to merge");
	store_finalize(stmt);
	return ret;
}

/* Overlap @o's destination session, open, given the source's record (store_session_take()). */
static int overlap_finish(struct sessions *ss, const struct overlap *o)
{
	struct store_stmt *stmt;
	int ret = store_prepare(ss->m->src, &stmt, "SELECT environment FROM session WHERE id = ?1", "i", o->src);
	int rc = ret ? 0 : store_step(stmt);

	const struct store_sess_head theirs = { .boot_id = o->boot_id, .ended = o->ended, .complete = o->complete };

	if (!ret && rc == STORE_ROW)
		ret = store_session_take(ss->m->dst, o->dst, &theirs, store_col_text(stmt, 0));
	else if (!ret)
		ret = rc < 0 ? store_sql_fail(ss->m->src, rc, "reading a session to merge") : -EIO;
	store_finalize(stmt);
	return ret;
}

/* Each session both hold, its rows matched: the rule of import (store_sess_rule()), and a finished one's end. */
static int overlaps_judge(struct sessions *ss)
{
	int ret = ss->nover ? overlaps_read(ss, true) : 0;

	for (size_t i = 0; !ret && i < ss->nover; i++) {
		struct overlap *o = &ss->over[i];
		char why[256];
		int verdict = store_sess_rule(o->stored_state, o->state, &o->samples, &o->errors, "the source", why,
					      sizeof(why));

		if (verdict < 0) {
			log_err("session %s is in both stores with other content: %s", o->uuid, why);
			ret = verdict;
		} else if (verdict == 1 && o->complete) {
			ret = overlap_finish(ss, o);
			ss->m->done.completed++;
		} else if (verdict == 1 || o->samples.after > o->samples.before || o->errors.after > o->errors.before) {
			ret = verdict == 1 ? overlap_finish(ss, o) : 0;
			ss->m->done.extended++;
		}
	}
	return ret;
}

static void sessions_free(struct sessions *ss)
{
	pending_clear(ss);
	for (size_t i = 0; i < ss->nover; i++) {
		free(ss->over[i].sut);
		free(ss->over[i].swprofile);
		free(ss->over[i].boot_id);
		free(ss->over[i].started);
		free(ss->over[i].ended);
	}
	free(ss->over);
	free(ss->added.p);
	json_decref(ss->have);
	store_finalize(ss->insert);
	store_finalize(ss->one);
	store_batch_free(ss->plain);
	store_batch_free(ss->check);
	store_batch_free(ss->extend);
}

int store_merge_sessions(struct merge *m)
{
	static const struct store_batch_ops ops = { sample_one, sample_differs };
	struct sessions *ss = calloc(1, sizeof(*ss));
	int ret = ss ? 0 : -ENOMEM;

	if (ret)
		return ret;
	ss->m = m;
	ss->plain = store_batch_new(m->dst, STORE_BATCH_PLAIN, NULL, NULL);
	ss->check = store_batch_new(m->dst, STORE_BATCH_CHECK, &ops, ss);
	ss->extend = store_batch_new(m->dst, STORE_BATCH_EXTEND, &ops, ss);
	if (!ss->plain || !ss->check || !ss->extend)
		ret = -ENOMEM;
	if (!ret)
		ret = sessions_walk(ss);
	if (!ret && ss->nover)
		ret = overlaps_read(ss, false);
	if (!ret && (ss->added.n || ss->nover))
		ret = samples_walk(ss);
	if (!ret && (ss->added.n || ss->nover))
		ret = errors_walk(ss);
	if (!ret)
		ret = overlaps_judge(ss);
	sessions_free(ss);
	free(ss);
	return ret;
}
