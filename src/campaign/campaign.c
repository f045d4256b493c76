/* campaign: the state machine of a campaign's boots (boot, check, measure), kept in the store, run through an executor. */
#include "campaign/campaign.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/harness.h"
#include "harness/session.h"
#include "store/url.h"
#include "util/boot.h"
#include "util/log.h"

void campaign_order(size_t n, unsigned boots, uint64_t seed, size_t *out)
{
	/* blocks of one boot per swprofile: drift over hours lands on every swprofile alike */
	for (unsigned r = 0; r < boots; r++) {
		for (size_t i = 0; i < n; i++)
			out[r * n + i] = i;
		harness_shuffle(out + r * n, n, seed + r);
	}
}

bool campaign_reboots(const struct plan *p)
{
	for (size_t i = 0; i < p->nswprofiles; i++)
		if (p->swprofiles[i].method != PLAN_BOOT_FAKE)
			return true;
	return false;
}

int campaign_plan_load(const char *file, struct plan **p)
{
	int ret = plan_load(file, p);
	const char *fake = getenv(BOOT_FAKE_ENV);

	if (ret)
		return ret;
	if (!(*p)->nswprofiles) {
		log_err("%s names no swprofiles: a campaign needs each kernel's boot", file);
		log_hint("add swprofiles: {base: {boot: {method: kexec, kernel: /boot/vmlinuz-...}}, ...} (plans/README.md)");
		ret = EXIT_USAGE;
	}
	for (size_t i = 0; !ret && i < (*p)->nswprofiles; i++)
		if ((*p)->swprofiles[i].method == PLAN_BOOT_FAKE && (!fake || !*fake)) {
			log_err("swprofile '%s' boots with the fake method, which needs %s: the directory of the simulated boot",
				(*p)->swprofiles[i].name, BOOT_FAKE_ENV);
			ret = EXIT_USAGE;
		}
	if (ret) {
		plan_free(*p);
		*p = NULL;
	}
	return ret;
}

/* The spec: what the campaign was started with, as the store keeps it. */
static json_t *campaign_spec(const struct campaign_start *s, const struct plan *p, const char *store_url,
			     const size_t *order, size_t norder)
{
	json_t *spec = json_pack("{s:s, s:i, s:I, s:s, s:s, s:[], s:[], s:[]}", "plan_name", p->name, "boots",
				 (int)s->boots, "seed", (json_int_t)s->seed, "mode", s->mode, "store", store_url,
				 "swprofiles", "order", "targets");

	for (size_t i = 0; spec && i < p->nswprofiles; i++)
		json_array_append_new(json_object_get(spec, "swprofiles"), json_string(p->swprofiles[i].name));
	for (size_t i = 0; spec && i < norder; i++)
		json_array_append_new(json_object_get(spec, "order"), json_string(p->swprofiles[order[i]].name));
	for (size_t i = 0; spec && i < s->ntargets; i++)
		json_array_append_new(json_object_get(spec, "targets"), json_string(s->targets[i]));
	if (spec && s->ssh_config)
		json_object_set_new(spec, "ssh_config", json_string(s->ssh_config));
	if (spec && s->boot_timeout)
		json_object_set_new(spec, "boot_timeout", json_integer(s->boot_timeout));
	return spec;
}

static int campaign_insert(struct store *st, const struct campaign_start *s, const struct plan *p,
			   const char *store_url, int64_t *id)
{
	size_t n = p->nswprofiles * s->boots, *order = calloc(n, sizeof(*order));
	struct store_campaign_boot *boots = calloc(n * s->ntargets, sizeof(*boots));
	char *plan_abs = realpath(s->plan_file, NULL), *spec_text = NULL;
	json_t *spec = NULL;
	int ret = EXIT_INTERNAL;

	if (!order || !boots || !plan_abs)
		goto out;
	campaign_order(p->nswprofiles, s->boots, s->seed, order);
	for (size_t t = 0; t < s->ntargets; t++)
		for (size_t i = 0; i < n; i++) {
			struct store_campaign_boot *b = &boots[t * n + i];

			snprintf(b->target, sizeof(b->target), "%s", s->targets[t]);
			b->pos = (int)i;
			snprintf(b->swprofile, sizeof(b->swprofile), "%s", p->swprofiles[order[i]].name);
		}
	spec = campaign_spec(s, p, store_url, order, n);
	spec_text = spec ? json_dumps(spec, JSON_SORT_KEYS | JSON_COMPACT) : NULL;
	if (spec_text)
		ret = store_exit_code(store_campaign_create(st, plan_abs, spec_text, boots, n * s->ntargets, id));
out:
	if (ret == EXIT_INTERNAL && !spec_text)
		log_err("cannot record the campaign: %s", plan_abs ? "out of memory" : strerror(errno));
	free(order);
	free(boots);
	free(plan_abs);
	free(spec_text);
	json_decref(spec);
	return ret;
}

int campaign_create(const char *store_url, const struct campaign_start *s, const struct plan *p, int64_t *id)
{
	struct store *st;
	int64_t running;
	int ret = store_url_open(store_url, &st), err;

	if (ret)
		return ret;
	err = store_campaign_running(st, &running);
	if (!err) {
		log_err("campaign %lld is still running in this store", (long long)running);
		log_hint("'clearpath campaign continue' goes on with it, 'clearpath campaign abort' ends it");
		ret = EXIT_USAGE;
	} else if (err != -ENOENT) {
		ret = store_exit_code(err);
	} else {
		ret = campaign_insert(st, s, p, store_url, id);
	}
	store_close(st);
	return ret;
}

/* The plan of @c: loaded again from its file, which must still name the campaign's swprofiles. */
static int campaign_load_plan(struct campaign *c)
{
	json_t *names = json_object_get(c->spec, "swprofiles"), *v;
	size_t i;
	int ret = plan_load(c->plan_path, &c->plan);

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
	return 0;
}

int campaign_load(const char *store_url, int64_t id, bool running, struct campaign *c)
{
	struct store *st;
	int ret, err = 0;

	memset(c, 0, sizeof(*c));
	/* no store there is an error that says so, not a new empty store */
	ret = store_url_open_existing(store_url, &st);
	store_close(st);
	if (!ret)
		ret = store_url_open(store_url, &st);
	if (ret)
		return ret;
	if (running)
		err = store_campaign_running(st, &id);
	if (!err)
		err = store_campaign_get(st, id, &c->row, &c->boots, &c->nboots);
	store_close(st);
	if (err == -ENOENT) {
		if (running)
			log_err("no campaign is running in this store");
		else
			log_err(id ? "there is no campaign %lld in this store" : "there is no campaign in this store",
				(long long)id);
		return EXIT_USAGE;
	}
	if (err)
		return store_exit_code(err);
	c->plan_path = c->row.plan;
	c->spec = json_loads(c->row.spec, 0, NULL);
	c->store_url = store_url ? strdup(store_url) : NULL;
	if (!c->spec || (store_url && !c->store_url)) {
		log_err("campaign %lld: its recorded spec does not read", (long long)c->row.id);
		return EXIT_INTERNAL;
	}
	return campaign_load_plan(c);
}

void campaign_free(struct campaign *c)
{
	store_campaign_free(&c->row);
	free(c->boots);
	json_decref(c->spec);
	plan_free(c->plan);
	free(c->store_url);
	memset(c, 0, sizeof(*c));
}

bool campaign_all_done(const struct campaign *c)
{
	for (size_t i = 0; i < c->nboots; i++)
		if (strcmp(c->boots[i].status, STORE_BOOT_DONE))
			return false;
	return true;
}

/* Whether @word is one of the space-separated words of @line. */
static bool campaign_has_word(const char *line, const char *word)
{
	size_t n = strlen(word);

	for (const char *s = line; (s = strstr(s, word)); s += n)
		if ((s == line || s[-1] == ' ') && (s[n] == ' ' || s[n] == '\0'))
			return true;
	return false;
}

const char *campaign_expect_mismatch(const struct plan_swprofile *sw, const struct campaign_facts *f,
				     char *why, size_t len)
{
	if (sw->expect.release && strcmp(sw->expect.release, f->release)) {
		snprintf(why, len, "booted kernel %s, expected %s", f->release, sw->expect.release);
		return why;
	}
	for (size_t i = 0; i < sw->expect.ncmdline_has; i++)
		if (!campaign_has_word(f->cmdline, sw->expect.cmdline_has[i])) {
			snprintf(why, len, "the kernel command line lacks '%s'", sw->expect.cmdline_has[i]);
			return why;
		}
	return NULL;
}

/* Save @b (a copy of one of @c's boots) in the store and in @c. */
static int campaign_save_boot(struct campaign *c, struct store_campaign_boot *b)
{
	struct store *st;
	int ret = store_url_open(c->store_url, &st);

	if (!ret)
		ret = store_exit_code(store_campaign_boot_set(st, c->row.id, b));
	store_close(st);
	return ret;
}

/* Mark the campaign @status with @message; a campaign no longer running (aborted meanwhile) stays as it is. */
static int campaign_finish(struct campaign *c, const char *status, const char *message)
{
	struct store *st;
	int ret = store_url_open(c->store_url, &st), err = 0;

	if (!ret)
		err = store_campaign_finish(st, c->row.id, status, message);
	store_close(st);
	if (err == -ESTALE)
		return 0;
	if (!ret && !err)
		snprintf(c->row.status, sizeof(c->row.status), "%s", status);
	return ret ? ret : store_exit_code(err);
}

/* Record @b's error, fail the campaign, and return @code. */
static int campaign_boot_failed(struct campaign *c, struct store_campaign_boot *b, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int campaign_boot_failed(struct campaign *c, struct store_campaign_boot *b, int code, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b->message, sizeof(b->message), fmt, ap);
	va_end(ap);
	snprintf(b->status, sizeof(b->status), "%s", STORE_BOOT_ERROR);
	log_err("%s: boot %d (%s): %s", b->target, b->pos + 1, b->swprofile, b->message);
	snprintf(msg, sizeof(msg), "%s: boot %d (%s): %s", b->target, b->pos + 1, b->swprofile, b->message);
	campaign_save_boot(c, b);
	campaign_finish(c, STORE_CAMPAIGN_FAILED, msg);
	return code;
}

const struct store_campaign_boot *campaign_next_boot(const struct campaign *c, const char *target, size_t *total)
{
	const struct store_campaign_boot *next = NULL;

	*total = 0;
	for (size_t i = 0; i < c->nboots; i++) {
		if (strcmp(c->boots[i].target, target))
			continue;
		(*total)++;
		if (!next && strcmp(c->boots[i].status, STORE_BOOT_DONE))
			next = &c->boots[i];
	}
	return next;
}

/* campaign_next_boot(), to be advanced. */
static struct store_campaign_boot *campaign_next(struct campaign *c, const char *target, size_t *total)
{
	return (struct store_campaign_boot *)campaign_next_boot(c, target, total);
}

/* pending -> booting: remember the boot id it leaves, run the boot method, wait for the target. */
static int campaign_do_boot(struct campaign *c, struct campaign_executor *ex, struct store_campaign_boot *b,
			    const struct plan_swprofile *sw, size_t total)
{
	struct campaign_facts before;
	struct campaign_boot_cmds cmds;
	int ret = ex->ops->facts(ex, &before);

	if (ret)
		return ret;
	snprintf(b->boot_before, sizeof(b->boot_before), "%s", before.boot_id);
	b->boot_id[0] = b->release[0] = b->session[0] = b->message[0] = '\0';
	snprintf(b->status, sizeof(b->status), "%s", STORE_BOOT_BOOTING);
	if ((ret = campaign_save_boot(c, b)))
		return ret;
	if ((ret = campaign_boot_commands(c->plan, sw, &before, &cmds)))
		return ret;
	printf("%s: boot %d of %zu: %s (%s)\n", ex->target, b->pos + 1, total, sw->name,
	       plan_boot_method_name(sw->method));
	fflush(stdout);
	ret = ex->ops->boot(ex, &cmds);
	campaign_boot_cmds_free(&cmds);
	if (ret)
		return campaign_boot_failed(c, b, ret, "the boot method failed");
	ret = ex->ops->wait(ex, &before);
	if (ret && ret != CAMPAIGN_DETACHED)
		return campaign_boot_failed(c, b, ret, "the target did not come back from the boot");
	return ret;
}

/* Apply @sw's sysctls on the target, then read back every expected one. */
static int campaign_sysctls(struct campaign_executor *ex, const struct plan_swprofile *sw, char *why, size_t len)
{
	char now[256];
	int err;

	for (size_t i = 0; i < sw->nsysctl; i++) {
		/* an equal value is not written again: no root needed for what is already so */
		if (!ex->ops->sysctl_get(ex, sw->sysctl[i].key, now, sizeof(now)) && !strcmp(now, sw->sysctl[i].value))
			continue;
		if ((err = ex->ops->sysctl_set(ex, sw->sysctl[i].key, sw->sysctl[i].value))) {
			snprintf(why, len, "cannot set sysctl %s = %s: %s", sw->sysctl[i].key, sw->sysctl[i].value,
				 strerror(-err));
			return -1;
		}
	}
	for (size_t i = 0; i < sw->expect.nsysctl; i++) {
		if ((err = ex->ops->sysctl_get(ex, sw->expect.sysctl[i].key, now, sizeof(now)))) {
			snprintf(why, len, "cannot read sysctl %s: %s", sw->expect.sysctl[i].key, strerror(-err));
			return -1;
		}
		if (strcmp(now, sw->expect.sysctl[i].value)) {
			snprintf(why, len, "sysctl %s is %s, expected %s", sw->expect.sysctl[i].key, now,
				 sw->expect.sysctl[i].value);
			return -1;
		}
	}
	return 0;
}

/* booting -> measuring: the boot id changed, the kernel is the one asked for, the sysctls hold. */
static int campaign_check(struct campaign *c, struct campaign_executor *ex, struct store_campaign_boot *b,
			  const struct plan_swprofile *sw)
{
	struct campaign_facts f;
	char why[512];
	int ret = ex->ops->facts(ex, &f);

	if (ret)
		return ret;
	if (b->boot_before[0] && !strcmp(f.boot_id, b->boot_before)) {
		/* not an error of the boot: the reboot may still be on its way */
		log_err("%s: boot %d (%s) was started, but %s still runs the boot it left (boot id %.8s)",
			ex->target, b->pos + 1, b->swprofile, ex->target, f.boot_id);
		log_hint("'clearpath campaign continue' runs by itself after the reboot; 'clearpath campaign abort' ends the campaign");
		return EXIT_RESOURCE;
	}
	snprintf(b->boot_id, sizeof(b->boot_id), "%s", f.boot_id);
	snprintf(b->release, sizeof(b->release), "%s", f.release);
	if (campaign_expect_mismatch(sw, &f, why, sizeof(why)) || campaign_sysctls(ex, sw, why, sizeof(why)))
		return campaign_boot_failed(c, b, EXIT_RESOURCE, "%s; nothing was measured under this boot", why);
	snprintf(b->status, sizeof(b->status), "%s", STORE_BOOT_MEASURING);
	return campaign_save_boot(c, b);
}

/*
 * A complete session of @b's swprofile under @b's boot: 0 with @b->session
 * set; 1 when an incomplete one is there (interrupted: the boot must be
 * taken again), -ENOENT when none; or an exit code.
 */
static int campaign_find_session(struct campaign *c, struct store_campaign_boot *b)
{
	struct store *st;
	bool interrupted = false;
	int ret = store_url_open(c->store_url, &st), err = 0;

	if (!ret)
		err = store_campaign_session_of_boot(st, b->boot_id, b->swprofile, b->session, &interrupted);
	store_close(st);
	if (ret)
		return ret;
	if (err == -ENOENT)
		return interrupted ? 1 : -ENOENT;
	return err ? store_exit_code(err) : 0;
}

/* measuring -> done: one session of the plan under this boot (or the one a killed controller left complete). */
static int campaign_measure(struct campaign *c, struct campaign_executor *ex, struct store_campaign_boot *b,
			    const struct plan_swprofile *sw)
{
	struct campaign_facts f;
	int ret = ex->ops->facts(ex, &f), found;

	if (ret)
		return ret;
	if (strcmp(f.boot_id, b->boot_id)) {
		/* it rebooted while measuring: check this boot as if it were the one asked for */
		snprintf(b->boot_before, sizeof(b->boot_before), "%s", b->boot_id);
		snprintf(b->status, sizeof(b->status), "%s", STORE_BOOT_BOOTING);
		return campaign_save_boot(c, b);
	}
	found = campaign_find_session(c, b);
	if (found == 1) {
		log_warn("%s: the session of boot %d (%s) was interrupted (its samples stay, marked incomplete); booting it again",
			 ex->target, b->pos + 1, b->swprofile);
		snprintf(b->status, sizeof(b->status), "%s", STORE_BOOT_PENDING);
		return campaign_save_boot(c, b);
	}
	if (found == -ENOENT) {
		ret = ex->ops->session(ex, c, sw->name);
		/* a controller stopped by a signal stopped its session: neither failed, 'continue' goes on */
		if (ret && harness_stop_signal())
			return ret;
		if (ret)
			return campaign_boot_failed(c, b, ret, "the session failed (exit %d)", ret);
		found = campaign_find_session(c, b);
		if (found)
			return campaign_boot_failed(c, b, EXIT_INTERNAL,
						    "the session left no complete session under boot id %s", b->boot_id);
	}
	if (found)
		return found;
	snprintf(b->status, sizeof(b->status), "%s", STORE_BOOT_DONE);
	return campaign_save_boot(c, b);
}

int campaign_advance(struct campaign *c, struct campaign_executor *ex)
{
	struct store_campaign_boot *b;
	size_t total;
	int ret = 0;

	if (strcmp(c->row.status, STORE_CAMPAIGN_RUNNING)) {
		log_err("campaign %lld is %s, not running", (long long)c->row.id, c->row.status);
		return EXIT_USAGE;
	}
	while (!ret && !harness_stop_signal() && (b = campaign_next(c, ex->target, &total))) {
		const struct plan_swprofile *sw = plan_swprofile_find(c->plan, b->swprofile);

		if (!sw)
			return EXIT_INTERNAL;	/* campaign_load() checked every name */
		if (!strcmp(b->status, STORE_BOOT_ERROR)) {
			log_err("%s: boot %d (%s) failed: %s", b->target, b->pos + 1, b->swprofile, b->message);
			return EXIT_RESOURCE;
		}
		if (!strcmp(b->status, STORE_BOOT_PENDING))
			ret = campaign_do_boot(c, ex, b, sw, total);
		else if (!strcmp(b->status, STORE_BOOT_BOOTING))
			ret = campaign_check(c, ex, b, sw);
		else
			ret = campaign_measure(c, ex, b, sw);
	}
	if (!ret && campaign_all_done(c))
		ret = campaign_finish(c, STORE_CAMPAIGN_DONE, NULL);
	return ret;
}

int campaign_abort(struct campaign *c)
{
	if (strcmp(c->row.status, STORE_CAMPAIGN_RUNNING)) {
		log_err("campaign %lld is %s already", (long long)c->row.id, c->row.status);
		return EXIT_USAGE;
	}
	return campaign_finish(c, STORE_CAMPAIGN_ABORTED, "aborted");
}
