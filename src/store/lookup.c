/* lookup: what a reader needs without listing every session (counts, one session's environment). */
#include "store/db.h"

#include <errno.h>

int store_count(struct store *st, struct store_counts *c)
{
	struct store_stmt *stmt;
	int ret = store_prepare(st, &stmt, "SELECT (SELECT count(*) FROM session),"
				" (SELECT count(*) FROM sample),"
				" (SELECT count(*) FROM session WHERE environment <> '{}'),"
				" (SELECT count(*) FROM error)", NULL);
	int rc;

	if (ret)
		return ret;
	rc = store_step(stmt);
	if (rc == STORE_ROW) {
		c->sessions = store_col_int64(stmt, 0);
		c->samples = store_col_int64(stmt, 1);
		c->environments = store_col_int64(stmt, 2);
		c->errors = store_col_int64(stmt, 3);
	}
	store_finalize(stmt);
	if (rc == STORE_DONE)
		return -EIO;
	return rc == STORE_ROW ? 0 : store_sql_fail(st, rc, "counting sessions, samples and errors");
}

int store_session_environment(struct store *st, const char *uuid, json_t **out)
{
	struct store_stmt *stmt;
	int ret = store_prepare(st, &stmt, "SELECT environment FROM session WHERE uuid = ?1", "t", uuid);
	int rc;

	*out = NULL;
	if (ret)
		return ret;
	rc = store_step(stmt);
	if (rc == STORE_ROW) {
		json_t *env = json_loads(store_col_text(stmt, 0), 0, NULL);

		/* stored as a JSON object text; anything else (an old row) is as good as none */
		if (json_is_object(env) && json_object_size(env))
			*out = env;
		else
			json_decref(env);
	}
	store_finalize(stmt);
	if (rc == STORE_DONE)
		return -ENOENT;
	return rc == STORE_ROW ? 0 : store_sql_fail(st, rc, "reading a session's environment");
}
