/* record: a campaign as the store keeps it: its plan and spec, created whole, loaded back (or made in memory for a dry run). */
#include "campaign/campaign.h"
#include "campaign/executor.h"
#include "campaign/method.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "harness/harness.h"
#include "store/url.h"
#include "util/log.h"
#include "workloads/workload.h"

void campaign_order(size_t n, unsigned boots, uint64_t seed, size_t *out)
{
	/* blocks of one boot per swprofile: drift over hours lands on every swprofile alike */
	for (unsigned r = 0; r < boots; r++) {
		for (size_t i = 0; i < n; i++)
			out[r * n + i] = i;
		harness_shuffle(out + r * n, n, seed + r);
	}
}

int campaign_plan_load(const char *file, struct plan **p)
{
	int ret = plan_load(file, p);

	if (ret)
		return ret;
	if (!(*p)->nswprofiles) {
		log_err("%s names no swprofiles: a campaign needs each kernel's boot", file);
		log_hint("add swprofiles: {base: {boot: {method: kexec, kernel: /boot/vmlinuz-...}}, ...} (plans/README.md)");
		ret = EXIT_USAGE;
	}
	if (!ret)
		ret = campaign_methods_bind(*p);
	if (ret) {
		plan_free(*p);
		*p = NULL;
	}
	return ret;
}

json_t *campaign_spec(const struct campaign_start *s, const struct plan *p, const char *mode)
{
	size_t n = p->nswprofiles * s->boots, *order = calloc(n ? n : 1, sizeof(*order));
	json_t *spec = order ? json_pack("{s:s, s:i, s:I, s:s, s:[], s:[], s:[]}", "plan_name", p->name, "boots",
					 (int)s->boots, "seed", (json_int_t)s->seed, "mode", mode, "swprofiles",
					 "order", "targets") : NULL;

	if (spec)
		campaign_order(p->nswprofiles, s->boots, s->seed, order);
	for (size_t i = 0; spec && i < p->nswprofiles; i++)
		json_array_append_new(json_object_get(spec, "swprofiles"), json_string(p->swprofiles[i].name));
	for (size_t i = 0; spec && i < n; i++)
		json_array_append_new(json_object_get(spec, "order"), json_string(p->swprofiles[order[i]].name));
	for (size_t i = 0; spec && i < s->ntargets; i++)
		json_array_append_new(json_object_get(spec, "targets"), json_string(s->targets[i]));
	if (spec && json_object_set_new(spec, "plan_files", campaign_plan_digests(p))) {
		json_decref(spec);
		spec = NULL;
	}
	if (spec && s->ssh_config)
		json_object_set_new(spec, "ssh_config", json_string(s->ssh_config));
	if (spec && s->boot_timeout)
		json_object_set_new(spec, "boot_timeout", json_integer(s->boot_timeout));
	if (spec && s->sut)
		json_object_set_new(spec, "sut", json_string(s->sut));
	if (spec && s->settings && json_object_update(spec, (json_t *)s->settings)) {
		json_decref(spec);
		spec = NULL;
	}
	free(order);
	return spec;
}

/* Every target's boots, pending, in the spec's order, into a new array of *@n. */
static struct store_campaign_boot *record_boots(const json_t *spec, size_t *n)
{
	const json_t *order = json_object_get(spec, "order"), *targets = json_object_get(spec, "targets");
	size_t per = json_array_size(order), nt = json_array_size(targets);
	struct store_campaign_boot *boots = calloc(per * nt + 1, sizeof(*boots));

	*n = per * nt;
	for (size_t t = 0; boots && t < nt; t++)
		for (size_t i = 0; i < per; i++) {
			struct store_campaign_boot *b = &boots[t * per + i];

			snprintf(b->target, sizeof(b->target), "%s", json_string_value(json_array_get(targets, t)));
			b->pos = (int)i;
			snprintf(b->swprofile, sizeof(b->swprofile), "%s", json_string_value(json_array_get(order, i)));
			snprintf(b->status, sizeof(b->status), "%s", STORE_BOOT_PENDING);
		}
	return boots;
}

/* The kind of the campaign's targets, the spec's mode: one kind for all. */
static const char *record_mode(const struct campaign_start *s)
{
	const struct campaign_executor_kind *k = campaign_executor_for_target(s->targets[0]);

	for (size_t i = 1; k && i < s->ntargets; i++)
		if (campaign_executor_for_target(s->targets[i]) != k) {
			log_err("the targets %s and %s are of different kinds: one campaign runs on one kind of target",
				s->targets[0], s->targets[i]);
			return NULL;
		}
	if (!k)
		log_err("'%s' is no target clearpath can run a campaign on", s->targets[0]);
	return k ? k->name : NULL;
}

/*
 * Which machine each target of the campaign is, into @t[0..s->ntargets):
 * the kind's machine(), or for a kind whose targets never keep another
 * campaign waiting, the target and a nonce of its own.
 */
static int record_machines(const struct campaign_start *s, const json_t *spec, struct store_campaign_target *t)
{
	const struct campaign_executor_kind *k = campaign_executor_for_target(s->targets[0]);
	unsigned char rnd[8];
	int ret = 0;

	if (k && !k->machine && getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd)) {
		log_err("cannot draw the campaign's machines' names: %s", strerror(errno));
		return EXIT_INTERNAL;
	}
	for (size_t i = 0; !ret && k && i < s->ntargets; i++) {
		snprintf(t[i].target, sizeof(t[i].target), "%s", s->targets[i]);
		if (k->machine)
			ret = k->machine(spec, s->targets[i], t[i].machine, sizeof(t[i].machine));
		else
			snprintf(t[i].machine, sizeof(t[i].machine), "%s:%s#%02x%02x%02x%02x%02x%02x%02x%02x", k->name,
				 s->targets[i], rnd[0], rnd[1], rnd[2], rnd[3], rnd[4], rnd[5], rnd[6], rnd[7]);
	}
	return ret;
}

/* This machine's host name, as a campaign records where it was started. */
static void record_host(char *buf, size_t len)
{
	if (gethostname(buf, len - 1) || !buf[0])
		snprintf(buf, len, "localhost");
	buf[len - 1] = '\0';
}

static int record_insert(struct store *st, const struct campaign_start *s, const struct plan *p, int64_t *id)
{
	char *plan_abs = realpath(s->plan_file, NULL), *spec_text = NULL, host[256];
	const char *mode = record_mode(s);
	json_t *spec = mode ? campaign_spec(s, p, mode) : NULL;
	struct store_campaign_target *targets = calloc(s->ntargets + 1, sizeof(*targets)), busy;
	struct store_campaign_boot *boots = NULL;
	size_t n = 0;
	int ret = EXIT_INTERNAL;

	if (!mode) {
		ret = EXIT_USAGE;
		goto out;
	}
	if (!plan_abs) {
		log_err("cannot read plan %s: %s", s->plan_file, strerror(errno));
		ret = EXIT_USAGE;
		goto out;
	}
	spec_text = spec ? json_dumps(spec, JSON_SORT_KEYS | JSON_COMPACT) : NULL;
	boots = spec_text && targets ? record_boots(spec, &n) : NULL;
	if (boots && (ret = record_machines(s, spec, targets)))
		goto out;
	record_host(host, sizeof(host));
	if (boots && (ret = store_campaign_create(st, plan_abs, spec_text, boots, n, targets, s->ntargets, host, id,
						  &busy)) == -EEXIST) {
		log_err("%s is in campaign %lld, which is running in this store (as %s)", busy.target,
			(long long)busy.campaign, busy.machine);
		log_hint("'clearpath campaign continue %lld' goes on with it, 'clearpath campaign abort %lld' ends it;"
			 " other machines' campaigns run beside each other", (long long)busy.campaign,
			 (long long)busy.campaign);
		ret = EXIT_USAGE;
	} else if (boots) {
		ret = store_exit_code(ret);
	} else
		log_err("cannot record the campaign: out of memory");
out:
	free(boots);
	free(targets);
	free(plan_abs);
	free(spec_text);
	json_decref(spec);
	return ret;
}

int campaign_create(const char *store_url, const struct campaign_start *s, const struct plan *p, int64_t *id)
{
	struct store *st;
	int ret = store_url_open(store_url, wl_identity_parse, &st);

	if (ret)
		return ret;
	ret = record_insert(st, s, p, id);
	store_close(st);
	return ret;
}

int campaign_make_dry(const struct campaign_start *s, struct plan *p, const char *store_url, struct campaign *c)
{
	const char *mode = record_mode(s);

	memset(c, 0, sizeof(*c));
	if (!mode)
		return EXIT_USAGE;
	c->dry_run = true;
	c->plan = p;
	c->spec = campaign_spec(s, p, mode);
	c->row.plan = realpath(s->plan_file, NULL);
	c->plan_path = c->row.plan;
	c->store_url = strdup(store_url);
	snprintf(c->row.status, sizeof(c->row.status), "%s", STORE_CAMPAIGN_RUNNING);
	c->boots = c->spec ? record_boots(c->spec, &c->nboots) : NULL;
	if (!c->boots || !c->row.plan || !c->store_url) {
		log_err("cannot make the dry run's campaign: %s", c->row.plan ? "out of memory" : strerror(errno));
		campaign_free(c);
		return EXIT_INTERNAL;
	}
	return 0;
}

/* Whether @a is a JSON array of @min or more strings of 1 to @max bytes. */
static bool record_strings(const json_t *a, size_t min, size_t max)
{
	const json_t *v;
	size_t i;

	if (!json_is_array(a) || json_array_size(a) < min)
		return false;
	json_array_foreach(a, i, v)
		if (!json_is_string(v) || !json_string_length(v) || json_string_length(v) > max)
			return false;
	return true;
}

/* Whether @s is one of the strings of array @a. */
static bool record_has(const json_t *a, const char *s)
{
	const json_t *v;
	size_t i;

	json_array_foreach(a, i, v)
		if (!strcmp(json_string_value(v), s))
			return true;
	return false;
}

/*
 * Whether @c's spec and boots are what campaign_create() writes: a writer
 * role can insert any row, and what status and continue read must not take
 * a number for a name.  NULL, or what is wrong.
 */
static const char *record_invalid(const struct campaign *c)
{
	static const char *const states[] = { STORE_BOOT_PENDING, STORE_BOOT_BOOTING, STORE_BOOT_MEASURING,
					      STORE_BOOT_DONE, STORE_BOOT_ERROR };
	const json_t *targets = json_object_get(c->spec, "targets"), *order = json_object_get(c->spec, "order");
	const json_t *names = json_object_get(c->spec, "swprofiles"), *seed = json_object_get(c->spec, "seed");
	const json_t *v;
	size_t i;

	if (!json_is_object(c->spec))
		return "its spec is not a JSON object";
	if (!record_strings(targets, 1, CAMPAIGN_TARGET_MAX) || !record_strings(names, 1, STORE_NAME_MAX) ||
	    !record_strings(order, 1, STORE_NAME_MAX))
		return "its spec's targets, swprofiles or order are not lists of names";
	if (!json_is_integer(json_object_get(c->spec, "boots")) || json_integer_value(json_object_get(c->spec, "boots")) < 1 ||
	    !json_is_string(json_object_get(c->spec, "mode")) || !(json_is_integer(seed) || json_is_string(seed)))
		return "its spec's boots, mode or seed are not what a campaign records";
	json_array_foreach(order, i, v)
		if (!record_has(names, json_string_value(v)))
			return "its order names a swprofile it does not have";
	for (i = 0; i < c->nboots; i++) {
		const struct store_campaign_boot *b = &c->boots[i];
		bool known = false;

		for (size_t k = 0; k < sizeof(states) / sizeof(states[0]); k++)
			known = known || !strcmp(b->status, states[k]);
		if (!known || !record_has(targets, b->target) || !record_has(names, b->swprofile) ||
		    (size_t)b->pos >= json_array_size(order))
			return "a boot names a target, swprofile, status or position the campaign does not have";
	}
	return NULL;
}

/* The plan of @c: loaded again from its file, which must still name the campaign's swprofiles. */
static int record_load_plan(struct campaign *c)
{
	json_t *names = json_object_get(c->spec, "swprofiles"), *v;
	size_t i;
	int ret = campaign_plan_load(c->plan_path, &c->plan);

	if (ret) {
		log_hint("campaign %lld runs plan %s", (long long)c->row.id, c->plan_path);
		return ret;
	}
	json_array_foreach(names, i, v)
		if (!plan_swprofile_find(c->plan, json_string_value(v))) {
			log_err("plan %s no longer names swprofile '%s' of campaign %lld", c->plan_path,
				json_string_value(v), (long long)c->row.id);
			return EXIT_USAGE;
		}
	return campaign_plan_unchanged(c);
}

static int record_load(const char *store_url, int64_t id, bool running, struct campaign *c)
{
	struct store *st;
	const char *why = NULL;
	int ret, err = 0;

	memset(c, 0, sizeof(*c));
	/* no store there is an error that says so, not a new empty store */
	ret = store_url_open_existing(store_url, wl_identity_parse, &st);
	store_close(st);
	if (!ret && running && !id)
		ret = campaign_pick(store_url, NULL, true, &id);
	if (!ret)
		ret = store_url_open(store_url, wl_identity_parse, &st);
	if (ret)
		return ret;
	err = store_campaign_get(st, id, &c->row, &c->boots, &c->nboots);
	store_close(st);
	if (err == -ENOENT) {
		log_err(id ? "there is no campaign %lld in this store" : "there is no campaign in this store",
			(long long)id);
		return EXIT_USAGE;
	}
	if (err == -EBADMSG)
		return EXIT_USAGE;
	if (err)
		return store_exit_code(err);
	c->plan_path = c->row.plan;
	c->spec = json_loads(c->row.spec, 0, NULL);
	c->store_url = store_url ? strdup(store_url) : NULL;
	if (store_url && !c->store_url) {
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	if (!c->spec || (why = record_invalid(c))) {
		log_err("campaign %lld in this store is not one clearpath wrote: %s", (long long)c->row.id,
			c->spec ? why : "its spec does not read as JSON");
		log_hint("its rows (tables campaign, campaign_boot) were written by hand or by another program");
		return EXIT_USAGE;
	}
	return 0;
}

int campaign_load_state(const char *store_url, int64_t id, bool running, struct campaign *c)
{
	int ret = record_load(store_url, id, running, c);

	if (ret)
		campaign_free(c);
	return ret;
}

int campaign_load(const char *store_url, int64_t id, bool running, struct campaign *c)
{
	int ret = record_load(store_url, id, running, c) ?: record_load_plan(c);

	/* a load that failed part way (a plan changed since the campaign started) keeps nothing */
	if (ret)
		campaign_free(c);
	return ret;
}

void campaign_free(struct campaign *c)
{
	store_campaign_free(&c->row);
	free(c->boots);
	json_decref(c->spec);
	if (!c->dry_run)
		plan_free(c->plan);
	free(c->store_url);
	memset(c, 0, sizeof(*c));
}

uint64_t campaign_seed(const struct campaign *c)
{
	const json_t *v = json_object_get(c->spec, "seed");

	if (json_is_string(v))
		return strtoull(json_string_value(v), NULL, 10);
	return (uint64_t)json_integer_value(v);
}

json_t *campaign_targets(const struct campaign *c)
{
	json_t *t = json_object_get(c->spec, "targets");

	return json_is_array(t) ? t : NULL;
}

int campaign_session_argv(const char *clearpath, const char *swprofile, const char *sut, const char *store_url,
			  const char *plan, const char *argv[CAMPAIGN_SESSION_ARGC])
{
	int n = 0;

	argv[n++] = clearpath;
	argv[n++] = "plan";
	argv[n++] = "run";
	argv[n++] = "--sessions";
	argv[n++] = "1";
	argv[n++] = "--swprofile";
	argv[n++] = swprofile;
	if (sut) {
		argv[n++] = "--sut";
		argv[n++] = sut;
	}
	if (store_url) {
		argv[n++] = "--store";
		argv[n++] = store_url;
	}
	argv[n++] = plan;
	argv[n] = NULL;
	return n;
}

int campaign_self_path(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);

	if (n < 0) {
		log_err("cannot tell where this clearpath binary is: %s", strerror(errno));
		return EXIT_INTERNAL;
	}
	buf[n] = '\0';
	return 0;
}
