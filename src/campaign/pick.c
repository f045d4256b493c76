/* pick: which campaign a command means in a store a lab shares (by id, by target, or this machine's, never another's), and the list of them. */
#include "campaign/campaign.h"
#include "campaign/executor.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/campaign.h"
#include "store/url.h"
#include "util/log.h"
#include "util/text.h"
#include "workloads/workload.h"

/* What a campaign is looked for by. */
struct pick_want {
	const char *which;	/* a target as written, or NULL: this machine's */
	char prefix[512];	/* what the machines of @which (or of this machine) start with; "" none */
	char host[256];		/* this machine's name: a campaign started here is its own */
};

static bool starts(const char *s, const char *prefix)
{
	return *prefix && !strncmp(s, prefix, strlen(prefix));
}

/* Whether target row @t is one @w means. */
static bool pick_matches(const struct pick_want *w, const struct store_campaign_target *t)
{
	/* a campaign from before machines were named ran in a store of its own machine */
	bool legacy_local = starts(t->machine, "legacy:" CAMPAIGN_LOCAL_TARGET "#");

	if (w->which)
		return *w->prefix ? starts(t->machine, w->prefix) || (legacy_local && !strcmp(w->which, t->target))
				  : !strcmp(t->target, w->which);
	return starts(t->machine, w->prefix) || legacy_local || !strcmp(t->controller, w->host);
}

#define PICK_MAX 64	/* campaigns named in a message */

/* The ids (newest first, each once, at most PICK_MAX) of the campaigns with a target @w means, running ones only with @running. */
static size_t pick_ids(const struct pick_want *w, const struct store_campaign_target *t, size_t n, bool running,
		       int64_t *ids)
{
	size_t k = 0;

	for (size_t i = 0; i < n && k < PICK_MAX; i++)
		if ((!running || t[i].running) && pick_matches(w, &t[i]) && (!k || ids[k - 1] != t[i].campaign))
			ids[k++] = t[i].campaign;
	return k;
}

/* "3 (local, root@box1), 5 (...)": campaigns @ids with their targets, for a message. */
static void pick_list(const int64_t *ids, size_t k, const struct store_campaign_target *t, size_t n, char *buf,
		      size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t j = 0; j < k && used < len; j++) {
		used += (size_t)snprintf(buf + used, len - used, "%s%lld (", j ? ", " : "", (long long)ids[j]);
		for (size_t i = 0, first = 1; i < n && used < len; i++)
			if (t[i].campaign == ids[j]) {
				used += (size_t)snprintf(buf + used, len - used, "%s%s", first ? "" : ", ", t[i].target);
				first = 0;
			}
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, ")");
	}
}

/* What @which (NULL: this machine) is looked for by. */
static int pick_want(struct pick_want *w, const char *which)
{
	const struct campaign_executor_kind *k = campaign_executor_for_target(which ? which : CAMPAIGN_LOCAL_TARGET);

	memset(w, 0, sizeof(*w));
	w->which = which;
	if (gethostname(w->host, sizeof(w->host) - 1) || !w->host[0])
		snprintf(w->host, sizeof(w->host), "localhost");
	return k && k->machine ? k->machine(NULL, which ? which : CAMPAIGN_LOCAL_TARGET, w->prefix, sizeof(w->prefix))
			       : 0;
}

/* A campaign id as written: digits, no sign, not 0. */
static bool pick_number(const char *s, int64_t *id)
{
	char *end;

	if (!s || *s < '1' || *s > '9')
		return false;
	errno = 0;
	*id = strtoll(s, &end, 10);
	return !*end && !errno;
}

/* None or several: say which, and what runs in the store besides. */
static int pick_refuse(const struct pick_want *w, const int64_t *ids, size_t k, bool running,
		       const struct store_campaign_target *t, size_t n)
{
	char list[1024], others[1024];
	int64_t all[PICK_MAX] = { 0 };
	size_t m = 0;

	for (size_t i = 0; i < n && m < PICK_MAX; i++)
		if (t[i].running && (!m || all[m - 1] != t[i].campaign))
			all[m++] = t[i].campaign;
	pick_list(ids, k, t, n, list, sizeof(list));
	pick_list(all, m, t, n, others, sizeof(others));
	if (k) {
		log_err("%zu campaigns %s %s %s in this store: %s", k, running ? "are running" : "are", w->which ? "on target" :
			"on or from this machine,", w->which ? w->which : w->host, list);
		log_hint("name one by its id: 'clearpath campaign %s ID'", running ? "continue" : "status");
	} else {
		if (running)
			log_err("no campaign is running %s %s in this store", w->which ? "on target" : "on or from this machine,",
				w->which ? w->which : w->host);
		else
			log_err("no campaign of %s %s is in this store", w->which ? "target" : "this machine,",
				w->which ? w->which : w->host);
		if (m)
			log_hint("running there, of other machines or targets: %s ('clearpath campaign status --all' lists every"
				 " campaign)", others);
		else if (running && n)
			log_hint("'clearpath campaign status --all' lists the campaigns of this store, the ended ones too;"
				 " 'clearpath campaign status ID' says why one ended");
	}
	return EXIT_USAGE;
}

int campaign_pick(const char *store_url, const char *which, bool running, int64_t *id)
{
	struct store_campaign_target *t = NULL;
	struct pick_want w;
	struct store *st;
	int64_t ids[PICK_MAX];
	size_t n = 0, k;
	int ret, err;

	if (pick_number(which, id))
		return 0;
	if ((ret = pick_want(&w, which)))
		return ret;
	if ((ret = store_url_open_existing(store_url, wl_identity_parse, &st)))
		return ret;
	err = store_campaign_targets(st, false, &t, &n);
	store_close(st);
	if (err) {
		free(t);
		return store_exit_code(err);
	}
	/* the running ones first; a status without one shows the newest that ran */
	k = pick_ids(&w, t, n, true, ids);
	if (!k && !running)
		k = pick_ids(&w, t, n, false, ids) ? 1 : 0;
	ret = k == 1 ? 0 : pick_refuse(&w, ids, k, running || k, t, n);
	if (!ret)
		*id = ids[0];
	free(t);
	return ret;
}

int campaign_next(const char *store_url, int64_t after, int64_t *id)
{
	struct store *st;
	int ret = store_url_open_existing(store_url, wl_identity_parse, &st), err;

	*id = 0;
	if (ret)
		return ret;
	err = store_campaign_before(st, after, id);
	store_close(st);
	if (err == -ENOENT)
		*id = 0;
	return err == -ENOENT ? 0 : store_exit_code(err);
}

void campaign_print_summary(const struct campaign *c)
{
	size_t done = 0;
	json_t *targets = campaign_targets(c), *t;
	size_t i;

	for (size_t b = 0; b < c->nboots; b++)
		done += !strcmp(c->boots[b].status, STORE_BOOT_DONE);
	printf("campaign %lld: %s, %zu of %zu boots done, targets", (long long)c->row.id, c->row.status, done, c->nboots);
	/* names another machine wrote into the store reach this terminal: one line of plain text each */
	json_array_foreach(targets, i, t) {
		char *shown = text_one_line_dup(json_string_value(t));

		printf("%s %s", i ? "," : "", shown ? shown : "?");
		free(shown);
	}
	{
		char *host = text_one_line_dup(c->row.controller);

		printf("; started %s%s%s\n", c->row.created, c->row.controller ? " on " : "", c->row.controller && host ? host : "");
		free(host);
	}
	/* why it failed (or stopped), as its own status says it: a list of failures without their reasons sends
	 * a person to each campaign in turn */
	if (c->row.message && *c->row.message) {
		char *why = text_one_line_dup(c->row.message);

		printf("  %s\n", why ? why : "?");
		free(why);
	}
}
