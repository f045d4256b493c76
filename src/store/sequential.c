/* sequential: the looks of a sequential run (plan run --until-decided) kept in the store, so a later show judges at their level. */
#include "store/db.h"

#include <errno.h>
#include <stdlib.h>

#include "util/log.h"

int store_sequential_begin(struct store *st, const struct store_sequential *q, int64_t *id)
{
	char now[STORE_TIME_LEN + 1];
	int ret;

	if (!q->sut || !*q->sut || !q->swprofile || !*q->swprofile || q->looks < 1 || !(q->alpha > 0 && q->alpha < 1)) {
		log_err("a sequential run needs a SUT class, a swprofile, at least one look and a level in (0, 1)");
		return -EINVAL;
	}
	store_now(now);
	ret = store_tx_begin(st);
	if (!ret)
		ret = store_exec(st,
				 "INSERT INTO sequential (sut, swprofile, looks, looked, alpha, started, updated)"
				 " VALUES (?1, ?2, ?3, 0, ?4, ?5, ?5)",
				 "ttidt", q->sut, q->swprofile, (int64_t)q->looks, q->alpha, now);
	if (!ret)
		ret = store_int64(st, id, "SELECT max(id) FROM sequential", "");
	return store_tx_end(st, ret);
}

int store_sequential_looked(struct store *st, int64_t id, unsigned looked)
{
	char now[STORE_TIME_LEN + 1];

	store_now(now);
	return store_exec(st, "UPDATE sequential SET looked = ?2, updated = ?3 WHERE id = ?1", "iit", id,
			  (int64_t)looked, now);
}

int store_sequential_each(struct store *st, int (*fn)(const struct store_sequential *q, void *arg), void *arg)
{
	struct store_stmt *stmt;
	int64_t version;
	int ret = st->be->identify(st, &version), rc;

	/* read without migrating, an older store has no sequential runs */
	if (ret || version < STORE_SCHEMA_SEQUENTIAL)
		return ret;
	ret = store_prepare(st, &stmt, "SELECT sut, swprofile, looks, looked, alpha FROM sequential ORDER BY id", "");
	if (ret)
		return ret;
	while ((rc = store_step(stmt)) == STORE_ROW) {
		struct store_sequential q = { store_col_text(stmt, 0), store_col_text(stmt, 1),
					      (unsigned)store_col_int64(stmt, 2), (unsigned)store_col_int64(stmt, 3),
					      store_col_double(stmt, 4) };

		ret = fn(&q, arg);
		if (ret)
			break;
	}
	store_finalize(stmt);
	if (!ret && rc < 0)
		ret = store_sql_fail(st, rc, "reading the sequential runs");
	return ret;
}
