/* sequential: the looks of a sequential run (plan run --until-decided) kept in the store, so a later show judges at their level. */
#include "store/xchg.h"

#include <errno.h>
#include <stdlib.h>

#include "util/log.h"

/* What any sequential run must be; -EINVAL (logged) when @q is not one. */
static int store_sequential_check(const struct store_sequential *q)
{
	if (!q->sut || !*q->sut || !q->swprofile || !*q->swprofile || q->looks < 1 || !(q->alpha > 0 && q->alpha < 1)) {
		log_err("a sequential run needs a SUT class, a swprofile, at least one look and a level in (0, 1)");
		return -EINVAL;
	}
	if (store_name_check(q->sut, "a sequential run's SUT class") ||
	    store_name_check(q->swprofile, "a sequential run's swprofile"))
		return -EINVAL;
	return 0;
}

int store_sequential_begin(struct store *st, const struct store_sequential *q, int64_t *id)
{
	char now[STORE_TIME_LEN + 1];
	int ret = store_sequential_check(q);

	if (ret)
		return ret;
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

int store_sequential_take(struct store *st, const struct store_sequential *q, bool *added)
{
	/* the run's identity: a look adds to looked and updated, nothing else */
	static const char key[] = " WHERE sut = ?1 AND swprofile = ?2 AND started = ?3 AND looks = ?4 AND alpha = ?5";
	char sql[384];
	int64_t n = 0;
	int ret = store_sequential_check(q);

	if (ret)
		return ret;
	if (!q->started || !store_xchg_timestamp(q->started) || !q->updated || !store_xchg_timestamp(q->updated) ||
	    store_xchg_time_cmp(q->updated, q->started) < 0) {
		log_err("a sequential run of '%s' on '%s' needs its start and last look as UTC times, the look not"
			" before the start", q->swprofile, q->sut);
		return -EINVAL;
	}
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM sequential%s", key);
	ret = store_int64(st, &n, sql, "tttid", q->sut, q->swprofile, q->started, (int64_t)q->looks, q->alpha);
	snprintf(sql, sizeof(sql), "UPDATE sequential SET looked = CASE WHEN looked < ?6 THEN ?6 ELSE looked END,"
		 " updated = CASE WHEN updated < ?7 THEN ?7 ELSE updated END%s", key);
	if (!ret && n)
		ret = store_exec(st, sql, "tttidit", q->sut, q->swprofile, q->started, (int64_t)q->looks, q->alpha,
				 (int64_t)q->looked, q->updated);
	else if (!ret)
		ret = store_exec(st,
				 "INSERT INTO sequential (sut, swprofile, looks, looked, alpha, started, updated)"
				 " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
				 "ttiidtt", q->sut, q->swprofile, (int64_t)q->looks, (int64_t)q->looked, q->alpha,
				 q->started, q->updated);
	if (!ret && added)
		*added = !n;
	return ret;
}

int store_sequential_each(struct store *st, int (*fn)(const struct store_sequential *q, void *arg), void *arg)
{
	struct store_stmt *stmt;
	int64_t version;
	int ret = st->be->identify(st, &version), rc;

	/* read without migrating, an older store has no sequential runs */
	if (ret || version < STORE_SCHEMA_SEQUENTIAL)
		return ret;
	/* by what a run is, not its id: two stores holding the same runs export the same bytes */
	ret = store_prepare(st, &stmt, "SELECT sut, swprofile, looks, looked, alpha, started, updated FROM sequential"
			    " ORDER BY sut, swprofile, started, looks, alpha", "");
	if (ret)
		return ret;
	while ((rc = store_step(stmt)) == STORE_ROW) {
		struct store_sequential q = { store_col_text(stmt, 0), store_col_text(stmt, 1),
					      (unsigned)store_col_int64(stmt, 2), (unsigned)store_col_int64(stmt, 3),
					      store_col_double(stmt, 4), store_col_text(stmt, 5), store_col_text(stmt, 6) };

		ret = fn(&q, arg);
		if (ret)
			break;
	}
	store_finalize(stmt);
	if (!ret && rc < 0)
		ret = store_sql_fail(st, rc, "reading the sequential runs");
	return ret;
}

/* store_sequential_each() callback of store_sequential_copy(): @arg is { dst, counter }. */
static int store_sequential_copy_one(const struct store_sequential *q, void *arg)
{
	void **a = arg;
	bool added = false;
	int ret = store_sequential_take(a[0], q, &added);

	*(int *)a[1] += added;
	return ret;
}

int store_sequential_copy(struct store *dst, struct store *src, int *added)
{
	int n = 0;
	void *arg[2] = { dst, &n };
	int ret = store_sequential_each(src, store_sequential_copy_one, arg);

	if (!ret && added)
		*added = n;
	return ret;
}
