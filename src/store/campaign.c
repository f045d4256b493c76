/* campaign: campaigns and their boots in the store: created whole, read back, advanced one boot at a time. */
#include "store/campaign.h"
#include "store/db.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

/* Column @col into @dst; false when it does not fit (a row a campaign never writes). */
static bool copy_text(char *dst, size_t len, struct store_stmt *stmt, int col)
{
	return (size_t)snprintf(dst, len, "%s", store_col_text(stmt, col)) < len;
}

static char *dup_text(struct store_stmt *stmt, int col)
{
	return store_col_type(stmt, col) == STORE_COL_NULL ? NULL : strdup(store_col_text(stmt, col));
}

/* "" stored as NULL, so an unknown value reads as unknown in SQL too. */
static const char *or_null(const char *s)
{
	return s && *s ? s : NULL;
}

/*
 * Which running campaign holds @machine now, into *@busy (none: -ENOENT).
 * One whose status no longer says running (ended by hand, or by a clearpath
 * killed between the two writes) lets its machines go.
 */
static int machine_holder(struct store *st, const char *machine, struct store_campaign_target *busy)
{
	int64_t id;
	int ret = store_exec(st, "UPDATE campaign_machine SET running = 0 WHERE running = 1 AND machine = ?1"
			     " AND campaign_id IN (SELECT id FROM campaign WHERE status <> 'running')", "t", machine);

	if (!ret)
		ret = store_int64(st, &id, "SELECT campaign_id FROM campaign_machine WHERE machine = ?1 AND running = 1",
				  "t", machine);

	if (!ret && busy) {
		memset(busy, 0, sizeof(*busy));
		busy->campaign = id;
		busy->running = true;
		snprintf(busy->machine, sizeof(busy->machine), "%s", machine);
	}
	return ret;
}

/* Target @t of new campaign @id, its machine taken; -EEXIST (*@busy) when a running campaign has it. */
static int machine_take(struct store *st, int64_t id, const struct store_campaign_target *t,
			struct store_campaign_target *busy)
{
	int64_t taken;
	/* the unique index decides between two starts at once: the second gets no row */
	int ret = store_int64(st, &taken, "INSERT INTO campaign_machine (campaign_id, target, machine, running)"
			      " VALUES (?1, ?2, ?3, 1) ON CONFLICT (machine) WHERE running = 1 DO NOTHING"
			      " RETURNING campaign_id", "itt", id, t->target, t->machine);

	if (ret != -ENOENT)
		return ret;
	ret = machine_holder(st, t->machine, busy);
	if (!ret && busy)
		snprintf(busy->target, sizeof(busy->target), "%s", t->target);
	/* it was let go: take it */
	if (ret == -ENOENT)
		ret = store_exec(st, "INSERT INTO campaign_machine (campaign_id, target, machine, running)"
				 " VALUES (?1, ?2, ?3, 1)", "itt", id, t->target, t->machine);
	else if (!ret)
		ret = -EEXIST;
	return ret;
}

int store_campaign_create(struct store *st, const char *plan, const char *spec,
			  const struct store_campaign_boot *boots, size_t n,
			  const struct store_campaign_target *targets, size_t ntargets, const char *controller,
			  int64_t *id, struct store_campaign_target *busy)
{
	char now[STORE_TIME_LEN + 1];
	int ret;

	store_now(now);
	ret = store_tx_begin(st);
	if (!ret)
		ret = store_int64(st, id, "INSERT INTO campaign (status, plan, spec, created, updated, controller)"
				  " VALUES (?1, ?2, ?3, ?4, ?4, ?5) RETURNING id", "ttttt", STORE_CAMPAIGN_RUNNING, plan,
				  spec, now, controller);
	for (size_t i = 0; !ret && i < ntargets; i++)
		ret = machine_take(st, *id, &targets[i], busy);
	for (size_t i = 0; !ret && i < n; i++)
		ret = store_exec(st, "INSERT INTO campaign_boot (campaign_id, target, pos, swprofile, status,"
				 " updated) VALUES (?1, ?2, ?3, ?4, ?5, ?6)", "itittt", *id, boots[i].target,
				 (int64_t)boots[i].pos, boots[i].swprofile, STORE_BOOT_PENDING, now);
	return store_tx_end(st, ret);
}

int store_campaign_targets(struct store *st, bool running_only, struct store_campaign_target **out, size_t *n)
{
	struct store_stmt *stmt;
	struct store_campaign_target *t = NULL, *grown;
	size_t cnt = 0;
	int rc, ret = st->be->has_table(st, "campaign_machine");

	*out = NULL;
	*n = 0;
	if (ret <= 0)
		return ret;
	/* running as the campaign says: one ended by hand (its status set) has no machine any more */
	ret = store_prepare(st, &stmt, "SELECT m.campaign_id, m.target, m.machine,"
			    " CASE WHEN m.running = 1 AND c.status = 'running' THEN 1 ELSE 0 END,"
			    " c.controller FROM campaign_machine m JOIN campaign c ON c.id = m.campaign_id"
			    " WHERE (m.running = 1 AND c.status = 'running') OR ?1 = 0 ORDER BY m.campaign_id DESC, m.target",
			    "i", (int64_t)running_only);
	if (ret)
		return ret;
	while ((rc = store_step(stmt)) == STORE_ROW) {
		if (!(grown = realloc(t, (cnt + 1) * sizeof(*t)))) {
			rc = -ENOMEM;
			break;
		}
		t = grown;
		memset(&t[cnt], 0, sizeof(t[cnt]));
		t[cnt].campaign = store_col_int64(stmt, 0);
		t[cnt].running = store_col_int(stmt, 3) != 0;
		/* a row too long for these fields is none clearpath wrote: cut, it only names */
		copy_text(t[cnt].target, sizeof(t[cnt].target), stmt, 1);
		copy_text(t[cnt].machine, sizeof(t[cnt].machine), stmt, 2);
		copy_text(t[cnt].controller, sizeof(t[cnt].controller), stmt, 4);
		cnt++;
	}
	store_finalize(stmt);
	if (rc < 0) {
		free(t);
		return rc == -ENOMEM ? rc : store_sql_fail(st, rc, "reading the campaigns' targets");
	}
	*out = t;
	*n = cnt;
	return 0;
}

/* One boot of the result row of read_boots() into @b; false when a field does not fit. */
static bool read_boot(struct store_stmt *stmt, struct store_campaign_boot *b)
{
	int64_t pos = store_col_int64(stmt, 1);

	memset(b, 0, sizeof(*b));
	b->pos = (int)pos;
	return pos >= 0 && pos < INT_MAX && copy_text(b->target, sizeof(b->target), stmt, 0) &&
	       copy_text(b->swprofile, sizeof(b->swprofile), stmt, 2) &&
	       copy_text(b->status, sizeof(b->status), stmt, 3) &&
	       copy_text(b->boot_before, sizeof(b->boot_before), stmt, 4) &&
	       copy_text(b->boot_id, sizeof(b->boot_id), stmt, 5) &&
	       copy_text(b->release, sizeof(b->release), stmt, 6) &&
	       copy_text(b->session, sizeof(b->session), stmt, 7) &&
	       copy_text(b->message, sizeof(b->message), stmt, 8) &&
	       copy_text(b->started, sizeof(b->started), stmt, 9) &&
	       copy_text(b->finished, sizeof(b->finished), stmt, 10) &&
	       copy_text(b->held, sizeof(b->held), stmt, 11) &&
	       copy_text(b->release_before, sizeof(b->release_before), stmt, 12) &&
	       (b->failed_boots = store_col_int(stmt, 13)) >= 0;
}

static int read_boots(struct store *st, int64_t id, struct store_campaign_boot **out, size_t *n)
{
	struct store_stmt *stmt;
	struct store_campaign_boot *b = NULL, *grown;
	size_t cnt = 0;
	int rc, ret = store_prepare(st, &stmt,
				    "SELECT target, pos, swprofile, status, boot_before, boot_id, release, session,"
				    " message, started, finished, held, release_before, failed_boots FROM campaign_boot WHERE campaign_id = ?1"
				    " ORDER BY target, pos", "i", id);

	if (ret)
		return ret;
	while ((rc = store_step(stmt)) == STORE_ROW) {
		if (!(grown = realloc(b, (cnt + 1) * sizeof(*b)))) {
			rc = -ENOMEM;
			break;
		}
		b = grown;
		if (!read_boot(stmt, &b[cnt++])) {
			rc = -EBADMSG;
			break;
		}
	}
	store_finalize(stmt);
	if (rc == -EBADMSG)
		log_err("campaign %lld: boot %zu of its rows does not fit what a campaign can be (a field too long,"
			" a position out of range)", (long long)id, cnt);
	if (rc < 0) {
		free(b);
		return rc == -EBADMSG ? rc : store_sql_fail(st, rc, "reading a campaign's boots");
	}
	*out = b;
	*n = cnt;
	return 0;
}

int store_campaign_get(struct store *st, int64_t id, struct store_campaign *c,
		       struct store_campaign_boot **boots, size_t *n)
{
	struct store_stmt *stmt;
	int rc, ret = store_prepare(st, &stmt,
				    "SELECT id, status, plan, spec, message, created, updated, owner, owner_since, controller"
				    " FROM campaign WHERE ?1 = 0 OR id = ?1 ORDER BY id DESC LIMIT 1", "i", id);
	bool fits = true;

	memset(c, 0, sizeof(*c));
	*boots = NULL;
	*n = 0;
	if (ret)
		return ret;
	rc = store_step(stmt);
	if (rc == STORE_ROW) {
		c->id = store_col_int64(stmt, 0);
		fits = copy_text(c->status, sizeof(c->status), stmt, 1) &&
		       copy_text(c->created, sizeof(c->created), stmt, 5) &&
		       copy_text(c->updated, sizeof(c->updated), stmt, 6) &&
		       copy_text(c->owner_since, sizeof(c->owner_since), stmt, 8);
		c->plan = dup_text(stmt, 2);
		c->spec = dup_text(stmt, 3);
		c->message = dup_text(stmt, 4);
		c->owner = dup_text(stmt, 7);
		c->controller = dup_text(stmt, 9);
	}
	store_finalize(stmt);
	if (rc == STORE_DONE)
		return -ENOENT;
	if (rc != STORE_ROW)
		return store_sql_fail(st, rc, "reading a campaign");
	if (!fits) {
		log_err("campaign %lld: its row does not fit what a campaign can be (a field too long)",
			(long long)c->id);
		store_campaign_free(c);
		return -EBADMSG;
	}
	if (!c->plan || !c->spec) {
		store_campaign_free(c);
		return -ENOMEM;
	}
	ret = read_boots(st, c->id, boots, n);
	if (ret)
		store_campaign_free(c);
	return ret;
}

int store_campaign_finish(struct store *st, int64_t id, const char *status, const char *message)
{
	char now[STORE_TIME_LEN + 1];
	int64_t changed;
	int ret;

	store_now(now);
	ret = store_tx_begin(st);
	if (!ret)
		ret = store_int64(st, &changed, "UPDATE campaign SET status = ?2, message = ?3, updated = ?4 WHERE id = ?1"
				  " AND status = ?5 RETURNING id", "ittt" "t", id, status, message, now,
				  STORE_CAMPAIGN_RUNNING);
	/* its machines are free for the next campaign */
	if (!ret)
		ret = store_exec(st, "UPDATE campaign_machine SET running = 0 WHERE campaign_id = ?1", "i", id);
	ret = store_tx_end(st, ret);
	return ret == -ENOENT ? -ESTALE : ret;
}

int store_campaign_boot_set(struct store *st, int64_t id, const struct store_campaign_boot *b)
{
	char now[STORE_TIME_LEN + 1];
	int64_t changed;
	int ret;

	store_now(now);
	ret = store_tx_begin(st);
	/* -ENOENT (no such boot) from the RETURNING that finds no row */
	if (!ret)
		ret = store_int64(st, &changed, "UPDATE campaign_boot SET status = ?4, boot_before = ?5, boot_id = ?6,"
				  " release = ?7, session = ?8, message = ?9, updated = ?10, started = ?11,"
				  " finished = ?12, held = ?13, release_before = ?14, failed_boots = ?15"
				  " WHERE campaign_id = ?1 AND target = ?2 AND pos = ?3 RETURNING pos", "itittttttt" "tttti",
				  id, b->target, (int64_t)b->pos, b->status, or_null(b->boot_before), or_null(b->boot_id),
				  or_null(b->release), or_null(b->session), or_null(b->message), now, or_null(b->started),
				  or_null(b->finished), or_null(b->held), or_null(b->release_before),
				  (int64_t)b->failed_boots);
	if (!ret)
		ret = store_exec(st, "UPDATE campaign SET updated = ?2 WHERE id = ?1", "it", id, now);
	return store_tx_end(st, ret);
}

int store_campaign_session_of_boot(struct store *st, const char *boot_id, const char *swprofile,
				   char uuid[STORE_UUID_LEN + 1], bool *interrupted)
{
	struct store_stmt *stmt;
	int rc, found = 0, ret = store_prepare(st, &stmt,
					       "SELECT se.uuid, se.complete FROM session se"
					       " JOIN swprofile sw ON sw.id = se.swprofile_id"
					       " WHERE se.boot_id = ?1 AND sw.name = ?2 ORDER BY se.id DESC",
					       "tt", boot_id, swprofile);

	*interrupted = false;
	if (ret)
		return ret;
	while ((rc = store_step(stmt)) == STORE_ROW) {
		if (!store_col_int(stmt, 1))
			*interrupted = true;
		else if (!found++)
			copy_text(uuid, STORE_UUID_LEN + 1, stmt, 0);
	}
	store_finalize(stmt);
	if (rc < 0)
		return store_sql_fail(st, rc, "finding a boot's session");
	return found ? 0 : -ENOENT;
}

int store_campaign_incomplete(struct store *st, int64_t id, int64_t *n)
{
	char key[48];

	/* the session's environment names its campaign as plan run recorded it: "campaign":"ID" */
	snprintf(key, sizeof(key), "%%\"campaign\":\"%lld\"%%", (long long)id);
	return store_int64(st, n, "SELECT count(*) FROM session WHERE complete = 0 AND environment LIKE ?1", "t", key);
}

int store_campaign_hold(struct store *st, int64_t id, const char *expected, const char *owner)
{
	char now[STORE_TIME_LEN + 1], status[16] = "";
	struct store_stmt *stmt;
	int64_t changed;
	int ret, rc;

	store_now(now);
	/* letting go needs no running campaign: one that ended is let go too */
	if (owner)
		ret = store_int64(st, &changed, "UPDATE campaign SET owner = ?2, owner_since = ?4 WHERE id = ?1"
				  " AND status = 'running' AND (owner IS NULL OR owner = ?2 OR owner = ?3) RETURNING id",
				  "ittt", id, owner, expected ? expected : "", now);
	else
		ret = store_int64(st, &changed, "UPDATE campaign SET owner = NULL, owner_since = NULL"
				  " WHERE id = ?1 AND owner = ?2 RETURNING id", "it", id, expected ? expected : "");
	if (ret != -ENOENT)
		return ret;
	if ((ret = store_prepare(st, &stmt, "SELECT status FROM campaign WHERE id = ?1", "i", id)))
		return ret;
	if ((rc = store_step(stmt)) == STORE_ROW)
		copy_text(status, sizeof(status), stmt, 0);
	store_finalize(stmt);
	if (rc < 0)
		return store_sql_fail(st, rc, "reading a campaign");
	return !owner || strcmp(status, STORE_CAMPAIGN_RUNNING) ? -ESTALE : -EBUSY;
}

int store_campaign_holding(struct store *st, int64_t id, const char *owner, char *status, size_t len)
{
	char now[STORE_TIME_LEN + 1];
	struct store_stmt *stmt;
	int rc, ret;

	store_now(now);
	if ((ret = store_prepare(st, &stmt, "UPDATE campaign SET owner_since = ?3 WHERE id = ?1 AND owner = ?2"
				 " RETURNING status", "itt", id, owner, now)))
		return ret;
	if ((rc = store_step(stmt)) == STORE_ROW)
		copy_text(status, len, stmt, 0);
	store_finalize(stmt);
	if (rc == STORE_ROW)
		return 0;
	if (rc < 0)
		return store_sql_fail(st, rc, "holding a campaign");
	if ((ret = store_prepare(st, &stmt, "SELECT status FROM campaign WHERE id = ?1", "i", id)))
		return ret;
	rc = store_step(stmt);
	store_finalize(stmt);
	if (rc < 0)
		return store_sql_fail(st, rc, "reading a campaign");
	return rc == STORE_ROW ? -EBUSY : -ENOENT;
}

int store_campaign_before(struct store *st, int64_t before, int64_t *id)
{
	return store_int64(st, id, "SELECT id FROM campaign WHERE ?1 = 0 OR id < ?1 ORDER BY id DESC LIMIT 1", "i",
			   before);
}

void store_campaign_free(struct store_campaign *c)
{
	free(c->plan);
	free(c->spec);
	free(c->message);
	free(c->owner);
	free(c->controller);
	c->plan = c->spec = c->message = c->owner = c->controller = NULL;
}
