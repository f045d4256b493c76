/* lookup: what a reader needs without listing every session (counts, one session's environment). */
#include "store/db.h"

#include <errno.h>

int store_count(struct store *st, struct store_counts *c)
{
	sqlite3_stmt *stmt;
	int ret = store_prepare(st, &stmt, "SELECT (SELECT count(*) FROM session),"
				" (SELECT count(*) FROM sample),"
				" (SELECT count(*) FROM session WHERE environment <> '{}')", NULL);
	int rc;

	if (ret)
		return ret;
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		c->sessions = sqlite3_column_int64(stmt, 0);
		c->samples = sqlite3_column_int64(stmt, 1);
		c->environments = sqlite3_column_int64(stmt, 2);
	}
	sqlite3_finalize(stmt);
	return rc == SQLITE_ROW ? 0 : store_sql_fail(st, rc, "counting sessions and samples");
}

int store_session_environment(struct store *st, const char *uuid, json_t **out)
{
	sqlite3_stmt *stmt;
	int ret = store_prepare(st, &stmt, "SELECT environment FROM session WHERE uuid = ?1", "t", uuid);
	int rc;

	*out = NULL;
	if (ret)
		return ret;
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW) {
		const char *text = (const char *)sqlite3_column_text(stmt, 0);
		json_t *env = text ? json_loads(text, 0, NULL) : NULL;

		/* stored as a JSON object text; anything else (an old row) is as good as none */
		if (json_is_object(env) && json_object_size(env))
			*out = env;
		else
			json_decref(env);
	}
	sqlite3_finalize(stmt);
	if (rc == SQLITE_DONE)
		return -ENOENT;
	return rc == SQLITE_ROW ? 0 : store_sql_fail(st, rc, "reading a session's environment");
}
