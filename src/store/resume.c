/* resume: the progress of each resumable run (plan run) kept in the store, per plan, SUT, swprofile and host. */
#include "store/db.h"

#include <errno.h>
#include <string.h>

#include "util/log.h"

/*
 * A state an older clearpath kept (schema v6 and before: by plan name
 * alone) was migrated with an empty SUT, swprofile and host: it belonged to
 * the one machine that ran the plan then, so the first run of that plan to
 * look for its own state and find none takes it.
 */
#define LEGACY "sut = '' AND swprofile = '' AND host = ''"

int store_run_key_check(const struct store_run_key *k)
{
	static const char *const what[] = { "plan name", "SUT class name", "swprofile name", "host name" };
	const char *part[] = { k->plan, k->sut, k->swprofile, k->host };
	size_t total = 0;

	for (size_t i = 0; i < 4; i++) {
		if (store_name_check(part[i], what[i]))
			return -EINVAL;
		total += strlen(part[i]);
	}
	/* one index holds them all (a server indexes at most about 2700 bytes a row) */
	if (total > 2 * STORE_NAME_MAX) {
		log_err("a resumable run is keyed by its plan's name, SUT class, swprofile and host, %zu bytes"
			" together here; at most %d", total, 2 * STORE_NAME_MAX);
		return -EINVAL;
	}
	return 0;
}

/* The id of @k's state (its own, else the plan's legacy one when @legacy), or -ENOENT (not logged). */
static int state_id(struct store *st, const struct store_run_key *k, bool legacy, int64_t *id)
{
	int ret = store_int64(st, id, "SELECT id FROM run_state WHERE plan = ?1 AND sut = ?2 AND swprofile = ?3"
			      " AND host = ?4", "tttt", k->plan, k->sut, k->swprofile, k->host);

	if (ret == -ENOENT && legacy)
		ret = store_int64(st, id, "SELECT id FROM run_state WHERE plan = ?1 AND " LEGACY, "t", k->plan);
	return ret;
}

/* The legacy state of @k's plan made @k's own (inside a write); 0 also when there is none. */
static int claim_legacy(struct store *st, const struct store_run_key *k)
{
	return store_exec(st, "UPDATE run_state SET sut = ?2, swprofile = ?3, host = ?4 WHERE plan = ?1 AND " LEGACY
			  " AND NOT EXISTS (SELECT 1 FROM run_state o WHERE o.plan = ?1 AND o.sut = ?2"
			  " AND o.swprofile = ?3 AND o.host = ?4)", "tttt", k->plan, k->sut, k->swprofile, k->host);
}

/* The units done in state @id's current session, into the new array *@done. */
static int read_done(struct store *st, int64_t id, json_t **done)
{
	struct store_stmt *stmt;
	int ret = store_prepare(st, &stmt, "SELECT unit FROM run_state_done WHERE state_id = ?1 ORDER BY unit",
				"i", id);
	int rc;

	if (ret)
		return ret;
	*done = json_array();
	while ((rc = store_step(stmt)) == STORE_ROW && *done)
		json_array_append_new(*done, json_string(store_col_text(stmt, 0)));
	store_finalize(stmt);
	if (!*done)
		return -ENOMEM;
	if (rc < 0) {
		json_decref(*done);
		*done = NULL;
		return store_sql_fail(st, rc, "reading the resume state");
	}
	return 0;
}

int store_resume_get(struct store *st, const struct store_run_key *k, struct store_resume *r, json_t **done)
{
	struct store_stmt *stmt;
	int64_t id;
	int ret, rc;

	*done = NULL;
	ret = state_id(st, k, true, &id);
	if (ret)
		return ret;
	ret = store_prepare(st, &stmt, "SELECT seed, session, scale FROM run_state WHERE id = ?1", "i", id);
	if (ret)
		return ret;
	rc = store_step(stmt);
	if (rc == STORE_ROW) {
		/* The seed is a uint64_t stored in SQLite's int64: the same 64 bits. */
		r->seed = (uint64_t)store_col_int64(stmt, 0);
		r->session = (unsigned)store_col_int64(stmt, 1);
		r->scale = (unsigned)store_col_int64(stmt, 2);
	}
	store_finalize(stmt);
	if (rc == STORE_DONE)
		return -ENOENT;	/* cleared meanwhile */
	if (rc != STORE_ROW)
		return store_sql_fail(st, rc, "reading the resume state");
	return read_done(st, id, done);
}

int store_resume_set(struct store *st, const struct store_run_key *k, const struct store_resume *r)
{
	char now[STORE_TIME_LEN + 1];
	int64_t id;
	int ret;

	if (r->scale < 1) {
		log_err("a resume state needs a scale of at least 1");
		return -EINVAL;
	}
	if (store_run_key_check(k))
		return -EINVAL;
	store_now(now);
	ret = store_tx_begin(st);
	if (!ret)
		ret = claim_legacy(st, k);
	if (!ret)
		ret = store_exec(st, "INSERT INTO run_state (plan, sut, swprofile, host, seed, session, scale, updated)"
				 " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT (plan, sut, swprofile, host) DO UPDATE"
				 " SET seed = excluded.seed, session = excluded.session, scale = excluded.scale,"
				 " updated = excluded.updated", "ttttiiit", k->plan, k->sut, k->swprofile, k->host,
				 (int64_t)r->seed, (int64_t)r->session, (int64_t)r->scale, now);
	if (!ret)
		ret = state_id(st, k, false, &id);
	if (!ret)
		ret = store_exec(st, "DELETE FROM run_state_done WHERE state_id = ?1", "i", id);
	return store_tx_end(st, ret);
}

int store_resume_done(struct store *st, const struct store_run_key *k, const char *unit)
{
	char now[STORE_TIME_LEN + 1];
	int64_t id = 0;
	int ret;

	store_now(now);
	ret = store_tx_begin(st);
	if (!ret)
		ret = claim_legacy(st, k);
	/* A unit done for a state that is gone (a newer run started over) is an error, not a new state. */
	if (!ret && (ret = state_id(st, k, false, &id)) == -ENOENT)
		log_err("the resume state of plan '%s' on %s (SUT %s, swprofile %s) is gone: another run of it"
			" started over", k->plan, k->host, k->sut, k->swprofile);
	if (!ret)
		ret = store_exec(st, "INSERT INTO run_state_done (state_id, unit) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
				 "it", id, unit);
	if (!ret)
		ret = store_exec(st, "UPDATE run_state SET updated = ?2 WHERE id = ?1", "it", id, now);
	return store_tx_end(st, ret);
}

int store_resume_clear(struct store *st, const struct store_run_key *k)
{
	int64_t id;
	int ret = store_tx_begin(st);

	if (!ret)
		ret = claim_legacy(st, k);
	if (!ret && !(ret = state_id(st, k, false, &id))) {
		ret = store_exec(st, "DELETE FROM run_state_done WHERE state_id = ?1", "i", id);
		if (!ret)
			ret = store_exec(st, "DELETE FROM run_state WHERE id = ?1", "i", id);
	}
	return store_tx_end(st, ret == -ENOENT ? 0 : ret);
}
