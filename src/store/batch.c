/* batch: samples written many rows per INSERT, so a server store costs a round trip per batch, not per sample. */
#include "store/xchg.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

/* Parameters per row: session, result class, iteration, warmup, value, time. */
#define BATCH_COLS 6

enum { STMT_INSERT, STMT_CHECK, NSTMTS };

struct store_batch {
	struct store *st;
	enum store_batch_mode mode;
	struct store_batch_ops ops;
	void *arg;
	int n;
	struct store_batch_row row[STORE_BATCH_ROWS];
	struct store_arg bind[STORE_BATCH_ROWS * BATCH_COLS];
	struct store_stmt *full[NSTMTS];	/* the statements of a whole batch, prepared once */
};

struct store_batch *store_batch_new(struct store *st, enum store_batch_mode mode, const struct store_batch_ops *ops,
				    void *arg)
{
	struct store_batch *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->st = st;
	b->mode = mode;
	if (ops)
		b->ops = *ops;
	b->arg = arg;
	return b;
}

/* Forget the rows gathered (written or not). */
static void batch_clear(struct store_batch *b)
{
	for (int i = 0; i < b->n; i++)
		free(b->row[i].time);
	b->n = 0;
}

void store_batch_free(struct store_batch *b)
{
	if (!b)
		return;
	batch_clear(b);
	for (int i = 0; i < NSTMTS; i++)
		store_finalize(b->full[i]);
	free(b);
}

/*
 * The insert of @rows rows, or the query that finds the first of them not
 * stored as it says: its position, the stored sample's id (NULL: none) and
 * value.  The check takes the insert's parameters; a CHECK batch compares
 * the times too.
 */
static char *batch_sql(const struct store_batch *b, int which, int rows)
{
	char *sql = malloc(512 + (size_t)rows * (BATCH_COLS * 8 + 16)), *q;

	if (!sql)
		return NULL;
	if (which == STMT_INSERT)
		q = sql + sprintf(sql, "INSERT INTO sample (session_id, resultclass_id, iteration, warmup, value, time)"
				  " VALUES");
	else
		q = sql + sprintf(sql, "WITH b(k, s, r, i, w, v, t) AS (VALUES");
	for (int r = 0; r < rows; r++) {
		q += sprintf(q, r ? ", (" : " (");
		if (which == STMT_CHECK)
			q += sprintf(q, "%d, ", r);
		for (int c = 0; c < BATCH_COLS; c++)
			q += sprintf(q, "%s?%d", c ? ", " : "", r * BATCH_COLS + c + 1);
		*q++ = ')';
	}
	if (which == STMT_INSERT && b->mode != STORE_BATCH_PLAIN)
		q += sprintf(q, " ON CONFLICT (session_id, resultclass_id, warmup, iteration) DO NOTHING");
	else if (which == STMT_CHECK)
		q += sprintf(q, ") SELECT b.k, x.id, x.value FROM b LEFT JOIN sample x ON x.session_id = b.s"
			     " AND x.resultclass_id = b.r AND x.iteration = b.i AND x.warmup = b.w"
			     " WHERE x.id IS NULL OR x.value <> b.v%s ORDER BY b.k LIMIT 1",
			     b->mode == STORE_BATCH_CHECK || b->mode == STORE_BATCH_EXTEND ? " OR x.time <> b.t" : "");
	*q = '\0';
	return sql;
}

/* Statement @which for the rows gathered, bound: the one kept for a whole batch, or *@own (finalize it after). */
static int batch_stmt(struct store_batch *b, int which, struct store_stmt **out, struct store_stmt **own)
{
	struct store_stmt **slot = b->n == STORE_BATCH_ROWS ? &b->full[which] : own;
	int ret = 0;

	*own = NULL;
	if (!*slot) {
		char *sql = batch_sql(b, which, b->n);

		ret = sql ? store_prepare(b->st, slot, sql, NULL) : -ENOMEM;
		free(sql);
	}
	if (!ret)
		ret = store_bind_array(*slot, b->bind, b->n * BATCH_COLS);
	*out = *slot;
	return ret;
}

/* Insert the rows gathered; *@changed: how many went in.  0, a logged error, or the engine's (not logged, in @rc). */
static int batch_insert(struct store_batch *b, int64_t *changed, int *rc)
{
	struct store_stmt *stmt, *own;
	int ret = batch_stmt(b, STMT_INSERT, &stmt, &own);

	*rc = 0;
	if (!ret) {
		*rc = store_step(stmt);
		*changed = *rc == STORE_DONE ? store_changes(stmt) : 0;
		*rc = *rc < 0 ? *rc : 0;
		store_reset(stmt);
	}
	store_finalize(own);
	return ret;
}

/* Whether every row gathered is stored as it says; else the caller's differs() says which is not. */
static int batch_check(struct store_batch *b)
{
	struct store_stmt *stmt, *own;
	int ret = batch_stmt(b, STMT_CHECK, &stmt, &own), rc;

	if (!ret) {
		rc = store_step(stmt);
		if (rc == STORE_ROW)
			ret = b->ops.differs(b->arg, &b->row[store_col_int(stmt, 0)],
					     store_col_type(stmt, 1) != STORE_COL_NULL, store_col_double(stmt, 2));
		else if (rc < 0)
			ret = store_sql_fail(b->st, rc, "checking the samples stored");
		store_reset(stmt);
	}
	store_finalize(own);
	return ret;
}

/*
 * The batch again row by row, after the savepoint before it: the caller's
 * one() says which sample is refused, and why, as a write of it alone does.
 */
static int batch_replay(struct store_batch *b)
{
	int ret = store_exec(b->st, "ROLLBACK TO SAVEPOINT clearpath_batch", NULL);

	for (int i = 0; !ret && i < b->n; i++)
		ret = b->ops.one(b->arg, &b->row[i]);
	return ret;
}

/*
 * Write the rows gathered inside a savepoint: a refused batch (a trigger, a
 * constraint, or in a NEW batch a sample that did not go in) is undone and
 * written again row by row, so the message names the sample at fault.
 */
static int batch_write(struct store_batch *b)
{
	int64_t changed = 0;
	int rc, ret = store_exec(b->st, "SAVEPOINT clearpath_batch", NULL);

	if (!ret)
		ret = batch_insert(b, &changed, &rc);
	if (ret)
		return ret;
	if (rc && rc != -EINVAL)
		return store_sql_fail(b->st, rc, "importing samples");
	if (rc || (changed < b->n && b->mode == STORE_BATCH_NEW))
		ret = batch_replay(b);
	else if (changed < b->n)
		ret = batch_check(b);
	return ret ? ret : store_exec(b->st, "RELEASE SAVEPOINT clearpath_batch", NULL);
}

/* A merge's batch: sessions new to the store, so any refusal refuses the merge. */
static int batch_plain(struct store_batch *b)
{
	int64_t changed = 0;
	int rc, ret = batch_insert(b, &changed, &rc);

	return ret ? ret : rc ? store_sql_fail(b->st, rc, "merging samples") : 0;
}

int store_batch_flush(struct store_batch *b)
{
	int ret;

	if (!b->n)
		return 0;
	if (b->mode == STORE_BATCH_PLAIN)
		ret = batch_plain(b);
	else if (b->mode == STORE_BATCH_CHECK)
		ret = batch_check(b);
	else
		ret = batch_write(b);
	batch_clear(b);
	return ret;
}

int store_batch_add(struct store_batch *b, const struct store_xchg_sample *x, long line, const char *uuid)
{
	struct store_batch_row *row = &b->row[b->n];
	struct store_arg *a = &b->bind[b->n * BATCH_COLS];

	row->x = *x;
	row->x.time = row->time = strdup(x->time);
	if (!row->time)
		return -ENOMEM;
	row->line = line;
	snprintf(row->uuid, sizeof(row->uuid), "%s", uuid ? uuid : "");
	b->n++;
	a[0] = (struct store_arg){ .type = 'i', .kind = 'i', .i = x->session };
	a[1] = (struct store_arg){ .type = 'i', .kind = 'i', .i = x->rclass };
	a[2] = (struct store_arg){ .type = 'i', .kind = 'i', .i = x->iteration };
	a[3] = (struct store_arg){ .type = 'i', .kind = 'i', .i = x->warmup };
	a[4] = (struct store_arg){ .type = 'd', .kind = 'd', .d = x->value };
	a[5] = (struct store_arg){ .type = 't', .kind = 't', .text = row->time };
	return b->n == STORE_BATCH_ROWS ? store_batch_flush(b) : 0;
}
