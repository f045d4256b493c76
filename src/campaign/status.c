/* status: a campaign's state for people (the table) and for programs (JSON), from the same facts. */
#include "campaign/campaign.h"
#include "store/store.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* What a target does next with its boot @b, by the boot's status: a word for programs, words for people. */
struct status_step {
	const char *boot_status;
	const char *step;
	const char *says;
};

static const struct status_step status_steps[] = {
	{ STORE_BOOT_PENDING, "boot", "run its boot method" },
	{ STORE_BOOT_BOOTING, "check", "check the boot it comes back with, then measure" },
	{ STORE_BOOT_MEASURING, "measure", "run its session" },
};

/* A pending boot that did not come up: the campaign waits for a person, nothing takes it on unattended. */
static const struct status_step status_retry = {
	STORE_BOOT_PENDING, "retry",
	"its last boot did not come up (see below); once the cause is fixed, 'clearpath campaign continue' boots it again"
};

/* The next step of boot @b, or NULL when it has none (an error stops the campaign). */
static const struct status_step *status_step_of(const struct store_campaign_boot *b)
{
	if (!strcmp(b->status, STORE_BOOT_PENDING) && b->failed_boots > 0)
		return &status_retry;
	for (size_t i = 0; i < sizeof(status_steps) / sizeof(status_steps[0]); i++)
		if (!strcmp(b->status, status_steps[i].boot_status))
			return &status_steps[i];
	return NULL;
}

static bool status_running(const struct campaign *c)
{
	return !strcmp(c->row.status, STORE_CAMPAIGN_RUNNING);
}

/* Boots done, and boots with a session stored, over all targets. */
static void status_counts(const struct campaign *c, size_t *done, size_t *sessions)
{
	*done = *sessions = 0;
	for (size_t i = 0; i < c->nboots; i++) {
		*done += !strcmp(c->boots[i].status, STORE_BOOT_DONE);
		*sessions += c->boots[i].session[0] != '\0';
	}
}

/* "next: TARGET: boot N of M (SW): what" for each target of a running campaign. */
static void status_print_next(const struct campaign *c)
{
	json_t *targets = campaign_targets(c), *v;
	size_t i, total;

	if (!status_running(c))
		return;
	json_array_foreach(targets, i, v) {
		const struct store_campaign_boot *b = campaign_next_boot(c, json_string_value(v), &total);
		const struct status_step *s = b ? status_step_of(b) : NULL;

		if (s)
			printf("next: %s: boot %d of %zu (%s): %s\n", b->target, b->pos + 1, total, b->swprofile,
			       s->says);
	}
}

/* While it runs: who advances it, how long a boot takes so far, when it will be done. */
static void status_print_progress(const struct campaign *c, bool held)
{
	char who[512], per[32], left[32];
	double mean, eta = campaign_eta(c, &mean);

	if (!status_running(c))
		return;
	if (held && campaign_controller(c, who, sizeof(who)))
		printf("advanced by %s\n", who);
	else
		printf("no controller advances it now: 'clearpath campaign continue' goes on where it stopped\n");
	if (isfinite(mean) && isfinite(eta))
		printf("%s per boot so far, about %s to go\n", campaign_duration(mean, per, sizeof(per)),
		       campaign_duration(eta, left, sizeof(left)));
}

/* A boot's status as the table shows it: one in the middle of its session with nothing running it is stopped. */
static const char *status_shown(const struct store_campaign_boot *b, bool held)
{
	return !held && !strcmp(b->status, STORE_BOOT_MEASURING) ? "stopped" : b->status;
}

/* The sessions the campaign left interrupted: in the store, marked incomplete, never counted as replicates. */
static void status_print_incomplete(const struct campaign *c)
{
	struct store *st;
	int64_t n = 0;

	if (campaign_store_open(c->store_url, &st))
		return;
	if (!store_campaign_incomplete(st, c->row.id, &n) && n > 0)
		printf("\n%lld interrupted session%s kept, marked incomplete: not counted (their boots were taken again)\n",
		       (long long)n, n == 1 ? "" : "s");
	store_close(st);
}

void campaign_print_status(const struct campaign *c)
{
	bool held = status_running(c) && campaign_controller(c, NULL, 0);
	size_t done, sessions;

	status_counts(c, &done, &sessions);
	printf("campaign %lld: %s, %zu of %zu boots done\n", (long long)c->row.id, c->row.status, done, c->nboots);
	printf("plan %s, %lld boots per swprofile, seed %" PRIu64 ", started %s\n", c->row.plan,
	       (long long)json_integer_value(json_object_get(c->spec, "boots")), campaign_seed(c), c->row.created);
	if (c->row.message)
		printf("%s\n", c->row.message);
	status_print_progress(c, held);
	status_print_next(c);
	printf("\n%-12s %4s  %-16s %-10s %-8s %-24s %s\n", "target", "boot", "swprofile", "status", "boot id",
	       "release", "session");
	for (size_t i = 0; i < c->nboots; i++) {
		const struct store_campaign_boot *b = &c->boots[i];

		printf("%-12s %4d  %-16s %-10s %-8.8s %-24s %.8s\n", b->target, b->pos + 1, b->swprofile,
		       status_shown(b, held),
		       b->boot_id[0] ? b->boot_id : "-", b->release[0] ? b->release : "-",
		       b->session[0] ? b->session : "-");
		if (b->message[0])
			printf("%17s%s\n", "", b->message);
	}
	status_print_incomplete(c);
}

/* @s, or JSON null when it is empty (a field not known yet). */
static json_t *status_str(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

/* Each swprofile of the plan (in its order): boots done of its boots, over every target. */
static json_t *status_swprofiles(const struct campaign *c)
{
	json_t *names = json_object_get(c->spec, "swprofiles"), *out = json_array(), *v;
	size_t i;

	json_array_foreach(names, i, v) {
		size_t total = 0, done = 0;

		for (size_t k = 0; k < c->nboots; k++)
			if (!strcmp(c->boots[k].swprofile, json_string_value(v))) {
				total++;
				done += !strcmp(c->boots[k].status, STORE_BOOT_DONE);
			}
		json_array_append_new(out, json_pack("{s:O, s:I, s:I}", "name", v, "done", (json_int_t)done,
						     "total", (json_int_t)total));
	}
	return out;
}

/* One boot, as in the table; "boot" counts from 1 as the table does. */
static json_t *status_boot(const struct store_campaign_boot *b)
{
	return json_pack("{s:s, s:i, s:s, s:s, s:o, s:o, s:o, s:o, s:i}", "target", b->target, "boot", b->pos + 1,
			 "swprofile", b->swprofile, "status", b->status, "boot_id", status_str(b->boot_id),
			 "release", status_str(b->release), "session", status_str(b->session), "error",
			 status_str(b->message), "failed_boots", b->failed_boots);
}

/* Each target: its progress and, while the campaign runs, its next boot and step. */
static json_t *status_target(const struct campaign *c, const char *target)
{
	size_t total, done = 0;
	const struct store_campaign_boot *b = campaign_next_boot(c, target, &total);
	const struct status_step *s = b && status_running(c) ? status_step_of(b) : NULL;
	json_t *next = s ? json_pack("{s:i, s:s, s:s, s:s, s:i, s:o}", "boot", b->pos + 1, "swprofile", b->swprofile,
				     "status", b->status, "step", s->step, "failed_boots", b->failed_boots,
				     "reason", status_str(b->failed_boots ? b->message : NULL)) : json_null();

	for (size_t i = 0; i < c->nboots; i++)
		done += !strcmp(c->boots[i].target, target) && !strcmp(c->boots[i].status, STORE_BOOT_DONE);
	return json_pack("{s:s, s:I, s:I, s:o}", "target", target, "done", (json_int_t)done, "total",
			 (json_int_t)total, "next", next);
}

/* Every boot, every target's progress, and the boots that failed (with why). */
static int status_lists(const struct campaign *c, json_t *o)
{
	json_t *boots = json_array(), *targets = json_array(), *errors = json_array(), *v;
	size_t i;

	json_array_foreach(campaign_targets(c), i, v)
		json_array_append_new(targets, status_target(c, json_string_value(v)));
	for (i = 0; i < c->nboots; i++) {
		json_array_append_new(boots, status_boot(&c->boots[i]));
		if (!strcmp(c->boots[i].status, STORE_BOOT_ERROR))
			json_array_append_new(errors, status_boot(&c->boots[i]));
	}
	return json_object_set_new(o, "targets", targets) | json_object_set_new(o, "boots", boots) |
	       json_object_set_new(o, "errors", errors);
}

/* A number of seconds, or null when not known (no boot done yet). */
static json_t *status_seconds(double s)
{
	return isfinite(s) ? json_real(round(s * 10) / 10) : json_null();
}

/* The controller that advances it now ("pid N on HOST since T"), or null. */
static json_t *status_controller(const struct campaign *c)
{
	char who[512];

	return status_running(c) && campaign_controller(c, who, sizeof(who)) ? json_string(who) : json_null();
}

json_t *campaign_status_json(const struct campaign *c)
{
	char seed[32];
	size_t done, sessions;
	double mean, eta = campaign_eta(c, &mean);
	json_t *o;

	status_counts(c, &done, &sessions);
	snprintf(seed, sizeof(seed), "%" PRIu64, campaign_seed(c));
	o = json_pack("{s:I, s:s, s:O?, s:s, s:o, s:O?, s:O?, s:s, s:s, s:s, s:I, s:I, s:I, s:o, s:o, s:o, s:o}",
		      "id", (json_int_t)c->row.id, "plan", c->row.plan, "plan_name",
		      json_object_get(c->spec, "plan_name"), "state", c->row.status, "message",
		      status_str(c->row.message), "mode", json_object_get(c->spec, "mode"),
		      "boots_per_swprofile", json_object_get(c->spec, "boots"), "seed", seed, "created", c->row.created,
		      "updated", c->row.updated, "boots_done", (json_int_t)done, "boots_total", (json_int_t)c->nboots,
		      "sessions", (json_int_t)sessions, "swprofiles", status_swprofiles(c), "seconds_per_boot",
		      status_seconds(mean), "eta_seconds", status_seconds(status_running(c) ? eta : 0),
		      "controller", status_controller(c));
	if (o && status_lists(c, o)) {
		json_decref(o);
		return NULL;
	}
	return o;
}
