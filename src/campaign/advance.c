/* advance: the state machine of a target's boots (boot, check, measure), kept in the store, run through an executor. */
#include "campaign/campaign.h"
#include "campaign/executor.h"
#include "campaign/method.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness/session.h"
#include "store/url.h"
#include "util/log.h"
#include "workloads/workload.h"

bool campaign_all_done(const struct campaign *c)
{
	for (size_t i = 0; i < c->nboots; i++)
		if (strcmp(c->boots[i].status, STORE_BOOT_DONE))
			return false;
	return true;
}

bool campaign_cmdline_has(const char *line, const char *word)
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
		if (!campaign_cmdline_has(f->cmdline, sw->expect.cmdline_has[i])) {
			snprintf(why, len, "the kernel command line lacks '%s'", sw->expect.cmdline_has[i]);
			return why;
		}
	return NULL;
}

/*
 * A boot whose kernel is not the one its swprofile expects is one of two
 * faults, told apart here:
 *   - the kernel the boot method boots came up, and `expect` names another
 *     (a wrong expect): the plan is wrong, the campaign fails for good;
 *   - that kernel did not come up, and the target came back under another
 *     one (it panicked and a watchdog, a power cycle or GRUB's default or
 *     fallback entry brought the machine back): the boot is taken again.
 * The boot method knows the release it boots (a kexec's kernel file, a GRUB
 * entry's name, a fake boot's release): a boot that came back under another
 * one did not come up.  Where the method cannot tell (a command boot), a
 * boot that came back under the very kernel it left (@release_before, ""
 * unknown) did not come up; any other kernel is the plan's to explain.
 */
bool campaign_boot_not_up(const struct plan_swprofile *sw, const char *release_before,
			  const struct campaign_facts *f, char *why, size_t len)
{
	const struct campaign_method *m = campaign_method_of(sw);
	char buf[256];
	const char *gives = m && m->release ? m->release(sw->boot_params, buf, sizeof(buf)) : NULL;
	bool left = release_before && *release_before && !strcmp(f->release, release_before);

	if (!sw->expect.release || !strcmp(f->release, sw->expect.release))
		return false;
	if (gives && !strcmp(f->release, gives))
		return false;
	if (!gives && !left)
		return false;
	if (gives)
		snprintf(why, len, "came back under kernel %s%s, not %s, which its boot method boots", f->release,
			 left ? " (the one it left)" : "", gives);
	else
		snprintf(why, len, "came back under kernel %s, the one it left, not %s", f->release,
			 sw->expect.release);
	return true;
}

/* Save @b (one of @c's boots) in the store; a dry run keeps it in memory only. */
static int advance_save(struct campaign *c, struct store_campaign_boot *b)
{
	struct store *st;
	int ret;

	if (c->dry_run)
		return 0;
	if (!(ret = campaign_store_open(c->store_url, &st)))
		ret = store_exit_code(store_campaign_boot_set(st, c->row.id, b));
	store_close(st);
	return ret;
}

/* Mark the campaign @status with @message; a campaign no longer running (aborted meanwhile) stays as it is. */
static int advance_finish(struct campaign *c, const char *status, const char *message)
{
	struct store *st;
	int ret = 0, err = 0;

	if (!c->dry_run && !(ret = campaign_store_open(c->store_url, &st)))
		err = store_campaign_finish(st, c->row.id, status, message);
	if (!c->dry_run)
		store_close(st);
	if (err == -ESTALE)
		return 0;
	if (!ret && !err)
		snprintf(c->row.status, sizeof(c->row.status), "%s", status);
	return ret ? ret : store_exit_code(err);
}

/* Record @b's error, fail the campaign, and return @code. */
static int advance_failed(struct campaign *c, struct store_campaign_boot *b, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int advance_failed(struct campaign *c, struct store_campaign_boot *b, int code, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b->message, sizeof(b->message), fmt, ap);
	va_end(ap);
	snprintf(b->status, sizeof(b->status), "%s", STORE_BOOT_ERROR);
	log_err("%s: boot %d (%s): %s", b->target, b->pos + 1, b->swprofile, b->message);
	snprintf(msg, sizeof(msg), "%s: boot %d (%s): %s", b->target, b->pos + 1, b->swprofile, b->message);
	advance_save(c, b);
	advance_finish(c, STORE_CAMPAIGN_FAILED, msg);
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

/* Now, as the store writes times. */
static void advance_now(char buf[STORE_TIME_LEN + 1])
{
	struct timespec ts;
	struct tm tm;
	char frac[24];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(buf, 20, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(frac, sizeof(frac), "%06ld", ts.tv_nsec / 1000);
	snprintf(buf + 19, STORE_TIME_LEN + 1 - 19, ".%.6sZ", frac);
}

/* @b is pending again: its boot did not happen (stopped, or the target never went down). */
static int advance_pending(struct campaign *c, struct store_campaign_boot *b)
{
	snprintf(b->status, sizeof(b->status), "%s", STORE_BOOT_PENDING);
	b->boot_before[0] = b->started[0] = '\0';
	return advance_save(c, b);
}

/*
 * booting -> pending: @b's boot did not come up (@why: the kernel the target
 * came back under).  Not the plan's fault, so the campaign is not failed;
 * not one to take again unattended either, as a kernel that never comes up
 * would reboot a lab machine forever.  The boot is pending again, its failed
 * boots counted and the reason in its message; this controller stops
 * (c->halted: the executor's end removes what would run it unattended, the
 * local unit), and a person's 'campaign continue' boots it again.
 */
static int advance_not_up(struct campaign *c, struct store_campaign_boot *b, const char *why)
{
	b->failed_boots++;
	snprintf(b->message, sizeof(b->message), "boot attempt %d did not come up: %s; nothing was measured under it",
		 b->failed_boots, why);
	snprintf(b->status, sizeof(b->status), "%s", STORE_BOOT_PENDING);
	b->boot_before[0] = b->started[0] = '\0';
	log_err("%s: boot %d (%s): %s", b->target, b->pos + 1, b->swprofile, b->message);
	log_hint("the campaign stays running, stopped here: fix what kept that kernel from booting, then "
		 "'clearpath campaign continue' boots it again");
	c->halted = true;
	return advance_save(c, b) ?: EXIT_RESOURCE;
}

/* pending -> booting: remember the boot id it leaves, run the boot method, wait for the target. */
static int advance_boot(struct campaign *c, struct campaign_executor *ex, struct store_campaign_boot *b,
			const struct plan_swprofile *sw, bool *detached)
{
	struct campaign_facts before;
	enum campaign_wait how = CAMPAIGN_BACK;
	bool waited = false;
	int ret = ex->ops->facts(ex, &before);

	if (ret)
		return ret;
	snprintf(b->boot_before, sizeof(b->boot_before), "%s", before.boot_id);
	snprintf(b->release_before, sizeof(b->release_before), "%s", before.release);
	b->boot_id[0] = b->release[0] = b->session[0] = b->message[0] = b->finished[0] = b->started[0] = '\0';
	/* a dry run's boots take no time worth telling */
	if (!c->dry_run)
		advance_now(b->started);
	snprintf(b->status, sizeof(b->status), "%s", STORE_BOOT_BOOTING);
	if ((ret = advance_save(c, b)))
		return ret;
	campaign_print_progress(c, ex->target, b, campaign_method_of(sw)->name);
	ex->resumable = false;
	ret = ex->ops->boot(ex, c->plan, sw, &before);
	if (!ret && !harness_stop_signal()) {
		ret = ex->ops->wait(ex, sw, &before, &how);
		waited = true;
	}
	/*
	 * A stop signal during the boot command or the wait stopped the controller,
	 * not the campaign.  On a real boot it is the shutdown that boot started
	 * (it stops `systemctl kexec` too, before that returns): the boot stays
	 * booting, and the next 'continue' checks it when the boot id changed and
	 * takes it again when it did not (advance_check).
	 */
	if (harness_stop_signal())
		return ret ? ret : EXIT_RESOURCE;
	/* a boot the executor will take again (a lab's job tried as often as allowed) keeps the campaign running */
	if (ret && ex->resumable)
		return ret;
	if (ret)
		return advance_failed(c, b, ret, waited ? "the target did not come back from the boot" :
						   "the boot method failed");
	if (how == CAMPAIGN_NOT_BOOTED) {
		log_err("%s: boot %d (%s): %s still runs the boot it left; the boot is pending again", ex->target,
			b->pos + 1, b->swprofile, ex->target);
		log_hint("'clearpath campaign continue' boots it again; check that its boot method reboots %s", ex->target);
		advance_pending(c, b);
		return EXIT_RESOURCE;
	}
	*detached = how == CAMPAIGN_DETACHED;
	return 0;
}

/* Apply @sw's sysctls on the target, then read back every expected one. */
static int advance_sysctls(struct campaign_executor *ex, const struct plan_swprofile *sw, char *why, size_t len)
{
	char now[256];
	int err;

	for (size_t i = 0; i < sw->nsysctl; i++)
		if ((err = ex->ops->sysctl_set(ex, sw->sysctl[i].key, sw->sysctl[i].value))) {
			snprintf(why, len, "cannot set sysctl %s = %s: %s", sw->sysctl[i].key, sw->sysctl[i].value,
				 strerror(-err));
			return -1;
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
static int advance_check(struct campaign *c, struct campaign_executor *ex, struct store_campaign_boot *b,
			 const struct plan_swprofile *sw)
{
	struct campaign_facts f;
	char why[512];
	int ret = ex->ops->facts(ex, &f);

	if (ret)
		return ret;
	if (b->boot_before[0] && !strcmp(f.boot_id, b->boot_before)) {
		/*
		 * The controller that started it is gone (this one holds the
		 * campaign) and the target never went down: a boot command killed
		 * or stopped midway.  Not an error of the boot: it is taken again.
		 */
		log_warn("%s: boot %d (%s) was started, but %s still runs the boot it left (boot id %.8s): booting it again",
			 ex->target, b->pos + 1, b->swprofile, ex->target, f.boot_id);
		return advance_pending(c, b);
	}
	snprintf(b->boot_id, sizeof(b->boot_id), "%s", f.boot_id);
	snprintf(b->release, sizeof(b->release), "%s", f.release);
	if (campaign_boot_not_up(sw, b->release_before, &f, why, sizeof(why)))
		return advance_not_up(c, b, why);
	if (campaign_expect_mismatch(sw, &f, why, sizeof(why)) || advance_sysctls(ex, sw, why, sizeof(why)))
		return advance_failed(c, b, EXIT_RESOURCE, "%s; nothing was measured under this boot", why);
	snprintf(b->status, sizeof(b->status), "%s", STORE_BOOT_MEASURING);
	return advance_save(c, b);
}

/* What the store holds for a boot's swprofile under its boot id. */
enum advance_found {
	ADVANCE_NONE,		/* no session */
	ADVANCE_COMPLETE,	/* a complete one: b->session names it */
	ADVANCE_INTERRUPTED,	/* only an incomplete one: the boot must be taken again */
};

/* The session of @b into *@found (a dry run's session is there once run).  0 or an exit code. */
static int advance_find_session(struct campaign *c, struct store_campaign_boot *b, enum advance_found *found)
{
	struct store *st;
	bool interrupted = false;
	int ret, err = 0;

	*found = ADVANCE_NONE;
	if (c->dry_run)
		return 0;
	if ((ret = campaign_store_open(c->store_url, &st)))
		return ret;
	err = store_campaign_session_of_boot(st, b->boot_id, b->swprofile, b->session, &interrupted);
	store_close(st);
	if (!err)
		*found = ADVANCE_COMPLETE;
	else if (err == -ENOENT)
		*found = interrupted ? ADVANCE_INTERRUPTED : ADVANCE_NONE;
	return err && err != -ENOENT ? store_exit_code(err) : 0;
}

/* Run @b's session on the target; a session that ran leaves a complete session in the store. */
static int advance_session(struct campaign *c, struct campaign_executor *ex, struct store_campaign_boot *b)
{
	enum advance_found found;
	bool resumable = false;
	int ret = ex->ops->session(ex, c, b, &resumable);

	/* a controller stopped by a signal stopped its session: neither failed, 'continue' goes on */
	if (ret && (harness_stop_signal() || resumable))
		return ret;
	if (ret)
		return advance_failed(c, b, ret, "the session failed (exit %d)", ret);
	if ((ret = advance_find_session(c, b, &found)))
		return ret;
	if (found != ADVANCE_COMPLETE && !c->dry_run)
		return advance_failed(c, b, EXIT_INTERNAL, "the session left no complete session under boot id %s",
				      b->boot_id);
	return 0;
}

/* measuring -> done: one session of the plan under this boot (or the one a killed controller left complete). */
static int advance_measure(struct campaign *c, struct campaign_executor *ex, struct store_campaign_boot *b)
{
	struct campaign_facts f;
	enum advance_found found;
	int ret = ex->ops->facts(ex, &f);

	if (ret)
		return ret;
	if (strcmp(f.boot_id, b->boot_id)) {
		/* it rebooted while measuring: check this boot as if it were the one asked for */
		snprintf(b->boot_before, sizeof(b->boot_before), "%s", b->boot_id);
		snprintf(b->status, sizeof(b->status), "%s", STORE_BOOT_BOOTING);
		return advance_save(c, b);
	}
	if ((ret = advance_find_session(c, b, &found)))
		return ret;
	if (found == ADVANCE_INTERRUPTED) {
		log_warn("%s: the session of boot %d (%s) was interrupted (its samples stay, marked incomplete); booting it again",
			 ex->target, b->pos + 1, b->swprofile);
		snprintf(b->status, sizeof(b->status), "%s", STORE_BOOT_PENDING);
		return advance_save(c, b);
	}
	if (found == ADVANCE_NONE && (ret = advance_session(c, ex, b)))
		return ret;
	snprintf(b->status, sizeof(b->status), "%s", STORE_BOOT_DONE);
	if (!c->dry_run)
		advance_now(b->finished);
	b->held[0] = '\0';
	return advance_save(c, b);
}

int campaign_advance(struct campaign *c, struct campaign_executor *ex, bool *detached)
{
	struct store_campaign_boot *b;
	size_t total;
	int ret = 0;

	*detached = false;
	if (strcmp(c->row.status, STORE_CAMPAIGN_RUNNING)) {
		log_err("campaign %lld is %s, not running", (long long)c->row.id, c->row.status);
		return EXIT_USAGE;
	}
	while (!ret && !*detached && !harness_stop_signal() &&
	       (b = (struct store_campaign_boot *)campaign_next_boot(c, ex->target, &total))) {
		const struct plan_swprofile *sw = plan_swprofile_find(c->plan, b->swprofile);
		char status[16];

		/* before each step: still this controller's, still running (an abort stops it here) */
		if ((ret = campaign_holding(c, status, sizeof(status))))
			return ret;
		if (!strcmp(status, STORE_CAMPAIGN_ABORTED) || !strcmp(status, STORE_CAMPAIGN_DONE)) {
			snprintf(c->row.status, sizeof(c->row.status), "%s", status);
			log_err("campaign %lld was %s while it ran: stopped before boot %d of %zu of %s", (long long)c->row.id,
				status, b->pos + 1, total, ex->target);
			return EXIT_USAGE;
		}
		if (!sw) {
			log_err("campaign %lld: boot %d names swprofile '%s', which its plan lacks", (long long)c->row.id,
				b->pos + 1, b->swprofile);
			return EXIT_USAGE;
		}
		if (!strcmp(b->status, STORE_BOOT_ERROR)) {
			log_err("%s: boot %d (%s) failed: %s", b->target, b->pos + 1, b->swprofile, b->message);
			return EXIT_RESOURCE;
		}
		if (!strcmp(b->status, STORE_BOOT_PENDING))
			ret = advance_boot(c, ex, b, sw, detached);
		else if (!strcmp(b->status, STORE_BOOT_BOOTING))
			ret = advance_check(c, ex, b, sw);
		else
			ret = advance_measure(c, ex, b);
	}
	if (!ret && !*detached && campaign_all_done(c))
		ret = advance_finish(c, STORE_CAMPAIGN_DONE, NULL);
	return ret;
}

int campaign_abort(struct campaign *c)
{
	if (strcmp(c->row.status, STORE_CAMPAIGN_RUNNING)) {
		log_err("campaign %lld is %s already", (long long)c->row.id, c->row.status);
		return EXIT_USAGE;
	}
	return advance_finish(c, STORE_CAMPAIGN_ABORTED, "aborted");
}
