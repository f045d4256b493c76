/* hold: one controller advances a campaign at a time: it holds it in the store, and one that died is taken over. */
#define _GNU_SOURCE	/* strptime, timegm */
#include "campaign/campaign.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store/campaign.h"
#include "store/url.h"
#include "util/log.h"
#include "util/sysfs.h"

/*
 * A controller is named by this machine (host name and the kernel's own boot
 * id, never a simulated one) and its process (pid and start time, so a pid
 * used again is not taken for it).  Another controller on this machine can
 * tell whether it still runs; one on another machine cannot, and is taken
 * over only when it has not said it holds the campaign for a day.
 */
#define HOLD_FOREIGN_STALE (24 * 3600)

/* One process: its pid and start time. */
struct hold_proc {
	long pid;
	unsigned long long start;
};

struct hold_who {
	char host[256];
	char boot[64];
	long pid;
	unsigned long long start;
	struct hold_proc kids[CAMPAIGN_HOLD_KIDS];	/* its processes for each target, which outlive it when it is killed */
	size_t nkids;
};

/*
 * The start time of process @pid (field 22 of its main thread's stat), or 0 when it does not
 * run (a zombie does not).  Through task/PID, not /proc/PID/stat: qemu-user answers a process's reads of its own
 * /proc/PID/stat itself, a clock tick off the kernel's, so an emulated controller read its own
 * start one way and another controller read it the other, and took it for gone.
 */
static unsigned long long hold_start_of(long pid)
{
	char path[64], buf[1024], *p;
	unsigned long long start = 0;
	char state = 'Z';
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/task/%ld/stat", pid, pid);
	if (!(f = fopen(path, "r")))
		return 0;
	if (!fgets(buf, sizeof(buf), f) || !(p = strrchr(buf, ')')) ||
	    sscanf(p + 2, "%c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
		   &state, &start) != 2)
		start = 0;
	/* killed, not yet reaped (an orphan waits for its reaper): it runs no more */
	if (state == 'Z' || state == 'X')
		start = 0;
	fclose(f);
	return start;
}

/* This controller. */
static void hold_me(struct hold_who *w)
{
	memset(w, 0, sizeof(*w));
	if (gethostname(w->host, sizeof(w->host) - 1))
		snprintf(w->host, sizeof(w->host), "?");
	/* the kernel's own: a simulated boot does not end this process */
	if (sysfs_read_line("/proc/sys/kernel/random/boot_id", w->boot, sizeof(w->boot)))
		w->boot[0] = '\0';
	w->pid = (long)getpid();
	w->start = hold_start_of(w->pid);
}

/* @w's target processes as the token names them ([] none), or NULL when out of memory. */
static json_t *hold_kids_json(const struct hold_who *w)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < w->nkids; i++)
		if (json_array_append_new(a, json_pack("{s:I, s:I}", "pid", (json_int_t)w->kids[i].pid, "start",
						       (json_int_t)w->kids[i].start))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

static int hold_token(const struct hold_who *w, char *buf, size_t len)
{
	json_t *kids = w->nkids ? hold_kids_json(w) : NULL;
	json_t *o = json_pack("{s:s, s:s, s:I, s:I}", "host", w->host, "boot", w->boot, "pid", (json_int_t)w->pid,
			      "start", (json_int_t)w->start);
	char *s = o && (!w->nkids || (kids && !json_object_set(o, "kids", kids))) ?
		  json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	int ret = s && strlen(s) < len ? 0 : -ENOMEM;

	if (!ret)
		snprintf(buf, len, "%s", s);
	free(s);
	json_decref(kids);
	json_decref(o);
	return ret;
}

/* The target processes the token's object @o names into @w (none when it names none). */
static void hold_parse_kids(const json_t *o, struct hold_who *w)
{
	const json_t *k;
	size_t i;

	json_array_foreach(json_object_get(o, "kids"), i, k)
		if (w->nkids < CAMPAIGN_HOLD_KIDS && json_is_integer(json_object_get(k, "pid"))) {
			w->kids[w->nkids].pid = (long)json_integer_value(json_object_get(k, "pid"));
			w->kids[w->nkids++].start = (unsigned long long)json_integer_value(json_object_get(k, "start"));
		}
}

/* @token read back; false when it is none of ours (then it is taken as a controller that runs). */
static bool hold_parse(const char *token, struct hold_who *w)
{
	json_t *o = json_loads(token, 0, NULL);
	const char *host = json_string_value(json_object_get(o, "host")), *boot = json_string_value(json_object_get(o, "boot"));
	bool ok = host && boot && json_is_integer(json_object_get(o, "pid"));

	memset(w, 0, sizeof(*w));
	if (ok) {
		snprintf(w->host, sizeof(w->host), "%s", host);
		snprintf(w->boot, sizeof(w->boot), "%s", boot);
		w->pid = (long)json_integer_value(json_object_get(o, "pid"));
		w->start = (unsigned long long)json_integer_value(json_object_get(o, "start"));
		hold_parse_kids(o, w);
	}
	json_decref(o);
	return ok;
}

/* Seconds since the store time @t (0 when it does not read). */
static double hold_age(const char *t)
{
	struct tm tm = { 0 };
	char *end = t && *t ? strptime(t, "%Y-%m-%dT%H:%M:%S", &tm) : NULL;

	return end ? difftime(time(NULL), timegm(&tm)) : 0;
}

/* Whether process @pid, started at @start, runs on this machine (not another that took its pid since). */
static bool hold_runs(long pid, unsigned long long start)
{
	return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM) && hold_start_of(pid) == start;
}

/*
 * Whether the controller @w still holds the campaign for real: it or one of
 * its target processes runs (this machine), or might (another).
 */
static bool hold_alive(const struct hold_who *w, const struct hold_who *me, const char *since)
{
	if (strcmp(w->host, me->host))
		return hold_age(since) < HOLD_FOREIGN_STALE;
	/* this machine booted since: that controller went down with the boot it ran in */
	if (strcmp(w->boot, me->boot))
		return false;
	if (hold_runs(w->pid, w->start))
		return true;
	/* killed alone, it left its processes advancing their targets: they hold it until they end */
	for (size_t i = 0; i < w->nkids; i++)
		if (hold_runs(w->kids[i].pid, w->kids[i].start))
			return true;
	return false;
}

int campaign_hold(struct campaign *c)
{
	struct hold_who me, them;
	struct store *st;
	const char *old = c->row.owner;
	int ret, err;

	if (c->dry_run)
		return 0;
	hold_me(&me);
	if (hold_token(&me, c->holder, sizeof(c->holder))) {
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	if (old && hold_parse(old, &them) && hold_alive(&them, &me, c->row.owner_since)) {
		log_err("campaign %lld is being advanced by another controller: pid %ld on %s, since %s",
			(long long)c->row.id, them.pid, them.host, c->row.owner_since);
		log_hint("wait for it to finish its step, or stop it; 'clearpath campaign status' shows where it is");
		return EXIT_RESOURCE;
	}
	if (old && !hold_parse(old, &them)) {
		log_err("campaign %lld is held by a controller this clearpath cannot name", (long long)c->row.id);
		return EXIT_RESOURCE;
	}
	if ((ret = campaign_store_open(c->store_url, &st)))
		return ret;
	err = store_campaign_hold(st, c->row.id, old, c->holder);
	store_close(st);
	if (err == -EBUSY) {
		log_err("campaign %lld was taken by another controller just now", (long long)c->row.id);
		return EXIT_RESOURCE;
	}
	if (err == -ESTALE) {
		log_err("campaign %lld no longer runs", (long long)c->row.id);
		return EXIT_USAGE;
	}
	if (!err && old)
		log_warn("campaign %lld: its last controller (pid %ld on %s) is gone; going on where it stopped",
			 (long long)c->row.id, them.pid, them.host);
	return store_exit_code(err);
}

int campaign_hold_kids(struct campaign *c, const pid_t *kids, size_t n)
{
	struct hold_who me;
	char token[CAMPAIGN_HOLDER_LEN];
	struct store *st;
	int ret, err;

	if (c->dry_run)
		return 0;
	hold_me(&me);
	for (size_t i = 0; i < n && me.nkids < CAMPAIGN_HOLD_KIDS; i++)
		if (kids[i] > 0) {
			me.kids[me.nkids].pid = (long)kids[i];
			me.kids[me.nkids++].start = hold_start_of((long)kids[i]);
		}
	if (n > CAMPAIGN_HOLD_KIDS || hold_token(&me, token, sizeof(token))) {
		log_err(n > CAMPAIGN_HOLD_KIDS ? "at most %d targets run at once" : "out of memory", CAMPAIGN_HOLD_KIDS);
		return EXIT_INTERNAL;
	}
	if ((ret = campaign_store_open(c->store_url, &st)))
		return ret;
	err = store_campaign_hold(st, c->row.id, c->holder, token);
	store_close(st);
	if (err == -EBUSY || err == -ESTALE)
		log_err(err == -EBUSY ? "campaign %lld was taken by another controller just now" :
			"campaign %lld no longer runs", (long long)c->row.id);
	if (!err)
		snprintf(c->holder, sizeof(c->holder), "%s", token);
	return err == -EBUSY ? EXIT_RESOURCE : err == -ESTALE ? EXIT_USAGE : store_exit_code(err);
}

int campaign_holding(struct campaign *c, char *status, size_t len)
{
	struct store *st;
	int ret, err;

	if (c->dry_run) {
		snprintf(status, len, "%s", c->row.status);
		return 0;
	}
	if ((ret = campaign_store_open(c->store_url, &st)))
		return ret;
	err = store_campaign_holding(st, c->row.id, c->holder, status, len);
	store_close(st);
	if (err == -EBUSY) {
		log_err("campaign %lld was taken over by another controller: this one stops", (long long)c->row.id);
		return EXIT_RESOURCE;
	}
	return store_exit_code(err);
}

void campaign_unhold(struct campaign *c)
{
	struct store *st;

	if (c->dry_run || !c->holder[0] || campaign_store_open(c->store_url, &st))
		return;
	store_campaign_hold(st, c->row.id, c->holder, NULL);
	store_close(st);
	c->holder[0] = '\0';
}

bool campaign_controller(const struct campaign *c, char *who, size_t len)
{
	struct hold_who me, them;

	if (!c->row.owner || !hold_parse(c->row.owner, &them))
		return false;
	hold_me(&me);
	if (!hold_alive(&them, &me, c->row.owner_since))
		return false;
	if (who)
		snprintf(who, len, "pid %ld on %s since %s", them.pid, them.host, c->row.owner_since);
	return true;
}
