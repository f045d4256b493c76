/* reconcile: a session two stores (or a store and an import) both hold, judged by one rule for merge and import. */
#include "store/xchg.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

uint64_t store_sess_env_hash(const char *environment)
{
	char *text = store_xw_object(environment, "a session environment");
	uint64_t h = 1469598103934665603ull;

	if (!text)
		return 0;
	for (const char *s = text; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	free(text);
	return h ? h : 1;	/* 0 is "not an object" */
}

enum store_sess_state store_sess_state(const struct store_sess_head *h)
{
	if (!h->complete)
		return STORE_SESS_CUT;
	/* the sample form's import marks a session complete, but that form carries no end */
	return *h->ended ? STORE_SESS_FINISHED : STORE_SESS_COPY;
}

/* Whether field @a of @x and @b of @y differ, @x_none/@y_none saying a copy's is empty: unknown, not different. */
static bool known_differ(const struct store_sess_head *x, bool x_none, const struct store_sess_head *y, bool y_none,
			 bool differ)
{
	return differ && !(store_sess_state(x) == STORE_SESS_COPY && x_none) &&
	       !(store_sess_state(y) == STORE_SESS_COPY && y_none);
}

const char *store_sess_head_diff(const struct store_sess_head *stored, const struct store_sess_head *theirs)
{
	uint64_t none = store_sess_env_hash("{}");

	if (strcmp(stored->sut, theirs->sut))
		return "its sut differs";
	if (strcmp(stored->swprofile, theirs->swprofile))
		return "its swprofile differs";
	if (known_differ(stored, !*stored->boot_id, theirs, !*theirs->boot_id, strcmp(stored->boot_id, theirs->boot_id)))
		return "its boot id differs";
	if (strcmp(stored->started, theirs->started))
		return "its start time differs";
	/* an end is only final once the session is: a session cut short has none */
	if (store_sess_state(stored) == STORE_SESS_FINISHED && store_sess_state(theirs) == STORE_SESS_FINISHED &&
	    strcmp(stored->ended, theirs->ended))
		return "its end time differs";
	if (!stored->env || !theirs->env ||
	    known_differ(stored, stored->env == none, theirs, theirs->env == none, stored->env != theirs->env))
		return "its environment differs";
	return NULL;
}

/* How many of one kind (samples or errors) only the store holds, and only the other side. */
static void tally_split(const struct store_sess_tally *t, int64_t *stored_only, int64_t *theirs_only)
{
	int64_t added = t->after - t->before;

	*theirs_only = added;
	*stored_only = t->before - (t->theirs - added);
}

int store_sess_rule(enum store_sess_state stored, enum store_sess_state theirs, const struct store_sess_tally *samples,
		    const struct store_sess_tally *errors, const char *other, char *why, size_t len)
{
	int64_t s_stored, s_theirs, e_stored, e_theirs;

	tally_split(samples, &s_stored, &s_theirs);
	tally_split(errors, &e_stored, &e_theirs);
	if (s_stored < 0 || e_stored < 0) {
		/* more rows matched than the store holds: the other side names one twice */
		snprintf(why, len, "%s names a sample or error of it twice (%lld samples and %lld errors, the store"
			 " %lld and %lld)", other, (long long)samples->theirs, (long long)errors->theirs,
			 (long long)samples->after, (long long)errors->after);
		return -EINVAL;
	}
	if ((s_theirs || e_theirs) && (s_stored || e_stored)) {
		snprintf(why, len, "the store and %s each hold samples or errors of it the other lacks (only the"
			 " store: %lld and %lld, only %s: %lld and %lld)", other, (long long)s_stored, (long long)e_stored,
			 other, (long long)s_theirs, (long long)e_theirs);
		return -EINVAL;
	}
	if (s_stored || e_stored) {
		if (theirs != STORE_SESS_FINISHED)
			return 0;	/* a copy made while it ran, or of the sample form: nothing new */
		/* a finished session with less than the store holds of it is another session */
		snprintf(why, len, "the store holds %lld samples and %lld errors of it, %s %lld and %lld",
			 (long long)samples->before, (long long)errors->before, other, (long long)samples->theirs,
			 (long long)errors->theirs);
		return -EINVAL;
	}
	/*
	 * The other side holds all the store does (the rows the store lacked
	 * went in, unless it holds it finished: then the check refused them).
	 * A session cut short takes the end of its finished form; the sample
	 * form's copy takes the whole record of any other form, which knows
	 * its end, completeness, boot id and environment.
	 */
	return (stored == STORE_SESS_CUT && theirs == STORE_SESS_FINISHED) ||
	       (stored == STORE_SESS_COPY && theirs != STORE_SESS_COPY);
}

int store_session_take(struct store *st, int64_t id, const struct store_sess_head *theirs, const char *environment)
{
	/* what the stored copy lacked (the sample form's import) it takes; what it had stays, the same */
	return store_exec(st, "UPDATE session SET ended = ?2, complete = ?3, boot_id = coalesce(boot_id, ?4),"
			  " environment = CASE WHEN environment = '{}' THEN ?5 ELSE environment END WHERE id = ?1",
			  "itbtt", id, *theirs->ended ? theirs->ended : NULL, (int)theirs->complete,
			  *theirs->boot_id ? theirs->boot_id : NULL, environment);
}
