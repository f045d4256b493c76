/* resume: the progress of a resumable run (plan run) kept in the store, so it survives any process. */
#include "store/db.h"

#include <errno.h>
#include <string.h>

#include "util/log.h"

/* The units done in @name's current session, into the new array *@done. */
static int read_done(struct store *st, const char *name, json_t **done)
{
	struct store_stmt *stmt;
	int ret = store_prepare(st, &stmt, "SELECT unit FROM resume_done WHERE name = ?1 ORDER BY unit",
				"t", name);
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

int store_resume_get(struct store *st, const char *name, struct store_resume *r, json_t **done)
{
	struct store_stmt *stmt;
	int ret = store_prepare(st, &stmt, "SELECT seed, session, scale FROM resume WHERE name = ?1", "t",
				name);
	int rc;

	*done = NULL;
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
		return -ENOENT;
	if (rc != STORE_ROW)
		return store_sql_fail(st, rc, "reading the resume state");
	return read_done(st, name, done);
}

int store_resume_set(struct store *st, const char *name, const struct store_resume *r)
{
	char now[STORE_TIME_LEN + 1];
	int ret;

	if (!name || !*name || r->scale < 1) {
		log_err("a resume state needs a name and a scale of at least 1");
		return -EINVAL;
	}
	store_now(now);
	ret = store_tx_begin(st);
	if (!ret)
		ret = store_exec(st, "DELETE FROM resume_done WHERE name = ?1", "t", name);
	if (!ret)
		ret = store_exec(st,
				 "INSERT INTO resume (name, seed, session, scale, updated) VALUES (?1, ?2, ?3, ?4, ?5)"
				 " ON CONFLICT (name) DO UPDATE SET seed = excluded.seed, session = excluded.session,"
				 " scale = excluded.scale, updated = excluded.updated",
				 "tiiit", name, (int64_t)r->seed, (int64_t)r->session, (int64_t)r->scale, now);
	return store_tx_end(st, ret);
}

int store_resume_done(struct store *st, const char *name, const char *unit)
{
	char now[STORE_TIME_LEN + 1];
	int64_t n;
	int ret;

	store_now(now);
	ret = store_tx_begin(st);
	/* A unit done for a state that is gone (a newer run started over) is an error, not a new state. */
	if (!ret)
		ret = store_int64(st, &n, "SELECT count(*) FROM resume WHERE name = ?1", "t", name);
	if (!ret && !n) {
		log_err("the resume state of '%s' is gone: another run of it started over", name);
		ret = -ENOENT;
	}
	if (!ret)
		ret = store_exec(st, "INSERT INTO resume_done (name, unit) VALUES (?1, ?2) ON CONFLICT DO NOTHING", "tt",
				 name, unit);
	if (!ret)
		ret = store_exec(st, "UPDATE resume SET updated = ?2 WHERE name = ?1", "tt", name, now);
	return store_tx_end(st, ret);
}

int store_resume_clear(struct store *st, const char *name)
{
	int ret = store_tx_begin(st);

	if (!ret)
		ret = store_exec(st, "DELETE FROM resume_done WHERE name = ?1", "t", name);
	if (!ret)
		ret = store_exec(st, "DELETE FROM resume WHERE name = ?1", "t", name);
	return store_tx_end(st, ret);
}
