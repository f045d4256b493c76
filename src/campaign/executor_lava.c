/* executor_lava: campaigns on a LAVA lab: each boot is one LAVA job (deploy, boot, one session) whose session comes back whole. */
#define _GNU_SOURCE	/* asprintf */
#include "campaign/campaign.h"
#include "campaign/executor.h"
#include "campaign/method.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness/session.h"
#include "lava/frame.h"
#include "lava/job.h"
#include "lava/lava.h"
#include "store/store.h"
#include "store/url.h"
#include "util/log.h"
#include "workloads/workload.h"

/*
 * The shape of it
 * ---------------
 * A LAVA target is a lane of one device type, written "lava:TYPE/N": each
 * lane has its own interleaved order and one job in flight at a time, so N
 * lanes keep N devices of the type busy at once (LAVA picks the device;
 * tags narrow the choice).  This file is both the boot method (`boot:
 * {method: lava, kernel: URL, ...}`: what the job deploys) and the executor
 * (how a boot becomes a job), since neither means anything without the other.
 *
 * One boot of the core's state machine maps onto one job:
 *   boot():    submit the job of this boot (or adopt the one a controller
 *              killed before submitted: jobs are named by campaign key,
 *              target, boot and try, and looked for by name first);
 *   wait():    follow it to its end, reading its log as it grows; a job that
 *              ends Incomplete or Canceled (a bad URL, a device gone offline,
 *              the queue timeout), or that printed no whole session, is tried
 *              again up to --lava-retries, each reason kept in the boot's
 *              message; past the limit, or when the server cannot be reached,
 *              the boot stays `booting` and 'campaign continue' goes on;
 *   facts():   the boot id, release and command line the job's test printed
 *              on the device before the session (lava/frame.h);
 *   session(): the session the job printed whole, checked against its size
 *              and SHA-256, read into a scratch store, and only the session
 *              of this boot id and swprofile exported from there into the
 *              campaign's store: nothing else a device sends is imported.
 *              A session brought back before (a controller killed after the
 *              import) is recognised by its UUID and added nothing twice.
 */

#define LX_PREFIX "lava:"
#define LX_RETRIES_DEFAULT 2		/* tries after the first, per boot, per controller run */
#define LX_QUEUE_MINUTES_DEFAULT 60	/* in the queue before LAVA cancels the job */
#define LX_JOB_MINUTES 60
#define LX_SESSION_MINUTES 30
#define LX_POLL_SECONDS 3
#define LX_SERVER_PATIENCE 600		/* seconds without an answer from the server before giving up (resumable) */
#define LX_MAX_TAGS 16

/* ---- the boot method ---------------------------------------------------------------- */

struct lx_params {
	const char *kernel, *kernel_type, *initrd, *modules, *dtb, *rootfs, *nfsrootfs;
	const char *deploy, *boot, *commands, *clearpath;
	struct campaign_key_list prompts, context;
};

static const struct campaign_method_key lx_keys[] = {
	{ "kernel", CAMPAIGN_KEY_LINE, true, offsetof(struct lx_params, kernel),
	  "the kernel image's URL (http(s)://, or file:/// on the worker)" },
	{ "kernel_type", CAMPAIGN_KEY_LINE, false, offsetof(struct lx_params, kernel_type), NULL },
	{ "initrd", CAMPAIGN_KEY_LINE, false, offsetof(struct lx_params, initrd), NULL },
	{ "modules", CAMPAIGN_KEY_LINE, false, offsetof(struct lx_params, modules), NULL },
	{ "dtb", CAMPAIGN_KEY_LINE, false, offsetof(struct lx_params, dtb), NULL },
	{ "rootfs", CAMPAIGN_KEY_LINE, false, offsetof(struct lx_params, rootfs), NULL },
	{ "nfsrootfs", CAMPAIGN_KEY_LINE, false, offsetof(struct lx_params, nfsrootfs), NULL },
	{ "deploy", CAMPAIGN_KEY_LINE, false, offsetof(struct lx_params, deploy), NULL },
	{ "boot", CAMPAIGN_KEY_LINE, false, offsetof(struct lx_params, boot), NULL },
	{ "commands", CAMPAIGN_KEY_LINE, false, offsetof(struct lx_params, commands), NULL },
	{ "prompts", CAMPAIGN_KEY_LIST, false, offsetof(struct lx_params, prompts), NULL },
	{ "context", CAMPAIGN_KEY_LIST, false, offsetof(struct lx_params, context), NULL },
	{ "clearpath", CAMPAIGN_KEY_LINE, false, offsetof(struct lx_params, clearpath), NULL },
	{ NULL, 0, false, 0, NULL },
};

/* Whether LAVA fetches @url: http(s), or a file on the worker. */
static bool lx_url_ok(const char *url)
{
	return !strncmp(url, "http://", 7) || !strncmp(url, "https://", 8) || !strncmp(url, "file:///", 8);
}

static int lx_parse(void *params, const struct plan_swprofile *sw)
{
	struct lx_params *l = params;
	const char *urls[] = { l->kernel, l->initrd, l->modules, l->dtb, l->rootfs, l->nfsrootfs, l->clearpath };
	static const char *const names[] = { "kernel", "initrd", "modules", "dtb", "rootfs", "nfsrootfs", "clearpath" };

	for (size_t i = 0; i < sizeof(urls) / sizeof(urls[0]); i++)
		if (urls[i] && !lx_url_ok(urls[i])) {
			plan_err(&sw->boot_loc, "swprofile '%s': %s '%s' is not a URL LAVA fetches (http://, https:// or file:///)",
				 sw->name, names[i], urls[i]);
			return EXIT_USAGE;
		}
	if (!l->deploy)
		l->deploy = "tmpfs";
	if (strcmp(l->deploy, "tmpfs") && strcmp(l->deploy, "tftp")) {
		plan_err(&sw->boot_loc, "swprofile '%s': deploy '%s': clearpath's LAVA jobs deploy to tmpfs (qemu) or tftp (boards)",
			 sw->name, l->deploy);
		return EXIT_USAGE;
	}
	if (!l->boot)
		l->boot = !strcmp(l->deploy, "tmpfs") ? "qemu" : "u-boot";
	for (size_t i = 0; i < l->context.n; i++)
		if (!strchr(l->context.v[i], '=') || l->context.v[i][0] == '=') {
			plan_err(&sw->boot_loc, "swprofile '%s': context '%s' is not KEY=VALUE", sw->name, l->context.v[i]);
			return EXIT_USAGE;
		}
	return 0;
}

/* "https://x/vmlinuz-6.1.0-57-amd64" -> "6.1.0-57-amd64"; NULL when the file name does not say. */
static const char *lx_release(const void *params, char *buf, size_t len)
{
	static const char *const prefixes[] = { "vmlinuz-", "vmlinux-", "bzImage-", "Image-", "zImage-", "uImage-" };
	const struct lx_params *l = params;
	const char *base = strrchr(l->kernel, '/') ? strrchr(l->kernel, '/') + 1 : l->kernel;

	(void)buf;
	(void)len;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(base, prefixes[i], strlen(prefixes[i])) && base[strlen(prefixes[i])])
			return base + strlen(prefixes[i]);
	return NULL;
}

/* Nothing runs on a target: the lab deploys and boots; the command line goes into the job. */
static int lx_commands(const void *params, const struct campaign_boot_ctx *ctx, struct campaign_boot_cmds *out)
{
	(void)params;
	out->cmdline = campaign_boot_cmdline(ctx->plan, ctx->sw, "", false);
	return out->cmdline ? 0 : EXIT_INTERNAL;
}

/* Only a LAVA lab boots this way: another target would wait for a boot nobody starts. */
static int lx_method_check(const void *params, const struct plan_swprofile *sw, const struct campaign_target_env *env)
{
	(void)params;
	if (!strncmp(env->name, LX_PREFIX, strlen(LX_PREFIX)))
		return 0;
	env->say("swprofile '%s' boots on a LAVA lab (method lava): run the campaign with --lava URL --device-type TYPE",
		 sw->name);
	return EXIT_USAGE;
}

const struct campaign_method campaign_method_lava = {
	.name = "lava",
	.summary = "a LAVA lab deploys KERNEL (and initrd, modules, dtb, rootfs, nfsrootfs) and boots it: --lava",
	.keys = lx_keys,
	.params_size = sizeof(struct lx_params),
	.reboots = false,
	.applies_cmdline = true,
	.parse = lx_parse,
	.release = lx_release,
	.commands = lx_commands,
	.check = lx_method_check,
};

/* ---- the executor --------------------------------------------------------------------- */

struct lx {
	struct lava *l;			/* NULL in a dry run */
	const struct campaign *c;
	const char *target;
	char device_type[256];
	const char *tags[LX_MAX_TAGS + 1];
	const char *key;		/* the campaign's key: its jobs' names */
	unsigned retries, queue_minutes;
	char *plan_text;
	bool dry_run;
	/* the job of the boot in flight */
	int pos;			/* its boot, -1 none */
	int try_;			/* its try (1, 2, ...) */
	int tries_here;			/* tries this controller made for it */
	struct lava_job job;		/* job.id 0: none */
	struct lava_frame frame;
	size_t log_next;		/* the log's next line to read */
	bool complete;			/* the job finished Complete with a whole frame */
};

/* The boot of this target that is not done yet (the one the core works on). */
static struct store_campaign_boot *lx_current(struct lx *x)
{
	size_t total;

	return (struct store_campaign_boot *)campaign_next_boot(x->c, x->target, &total);
}

/* The job name of try @try_ of boot @b: how a later controller finds it again. */
static void lx_job_name(const struct lx *x, const struct store_campaign_boot *b, int try_, char *buf, size_t len)
{
	snprintf(buf, len, "clearpath %s %s boot %d try %d (%s)", x->key, x->target, b->pos + 1, try_, b->swprofile);
}

/* The frame tag: the name's words, shell- and YAML-plain. */
static void lx_frame_tag(const struct lx *x, const struct store_campaign_boot *b, int try_, char *buf, size_t len)
{
	snprintf(buf, len, "%s-%s-b%d-t%d", x->key, x->target + strlen(LX_PREFIX), b->pos + 1, try_);
	for (char *c = buf; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-'))
			*c = '-';
}

/* Append "@fmt" to boot @b's message (the reasons of its tries) and save it. */
static void lx_note(struct lx *x, struct store_campaign_boot *b, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void lx_note(struct lx *x, struct store_campaign_boot *b, const char *fmt, ...)
{
	size_t n = strlen(b->message);
	struct store *st;
	va_list ap;

	if (n && n + 2 < sizeof(b->message))
		n += (size_t)snprintf(b->message + n, sizeof(b->message) - n, "; ");
	va_start(ap, fmt);
	if (n < sizeof(b->message))
		vsnprintf(b->message + n, sizeof(b->message) - n, fmt, ap);
	va_end(ap);
	if (x->dry_run || store_url_open(x->c->store_url, wl_identity_parse, &st))
		return;
	store_campaign_boot_set(st, x->c->row.id, b);
	store_close(st);
}

/* lx_note() @why, unless a controller before this one noted the same job's end ("job ID " in the message). */
static void lx_note_once(struct lx *x, struct store_campaign_boot *b, const char *why)
{
	char tag[48];

	snprintf(tag, sizeof(tag), "job %ld ", x->job.id);
	if (!strstr(b->message, tag))
		lx_note(x, b, "%s", why);
}

/* The job of try @try_ of @b as YAML (malloc'd), or NULL after log_err(). */
static char *lx_job_yaml(struct lx *x, const struct store_campaign_boot *b, int try_)
{
	const struct plan_swprofile *sw = plan_swprofile_find(x->c->plan, b->swprofile);
	const struct lx_params *p = sw ? sw->boot_params : NULL;
	struct campaign_boot_cmds cmds = { 0 };
	struct campaign_facts none = { 0 };
	struct campaign_boot_ctx ctx = { x->c->plan, sw, &none, "clearpath", NULL };
	char name[512], tag[128], campaign[32], *yaml = NULL;
	struct lava_job_spec s = { 0 };
	const char **ctxv = NULL, **promptv = NULL;
	int err;

	if (!p || campaign_boot_commands(&ctx, &cmds))
		return NULL;
	lx_job_name(x, b, try_, name, sizeof(name));
	lx_frame_tag(x, b, try_, tag, sizeof(tag));
	snprintf(campaign, sizeof(campaign), "%lld", (long long)x->c->row.id);
	s.name = name;
	s.device_type = x->device_type;
	s.tags = x->tags;
	/* the plan's lists carry their length; the job's are NULL-terminated */
	if (!(ctxv = calloc(p->context.n + 1, sizeof(*ctxv))) || !(promptv = calloc(p->prompts.n + 1, sizeof(*promptv)))) {
		free(ctxv);
		campaign_boot_cmds_free(&cmds);
		log_err("out of memory");
		return NULL;
	}
	if (p->context.n)
		memcpy(ctxv, p->context.v, p->context.n * sizeof(*ctxv));
	if (p->prompts.n)
		memcpy(promptv, p->prompts.v, p->prompts.n * sizeof(*promptv));
	s.context = ctxv;
	s.frame_tag = tag;
	s.swprofile = b->swprofile;
	s.campaign = campaign;
	s.deploy = p->deploy;
	s.boot = p->boot;
	s.boot_commands = p->commands;
	s.kernel = p->kernel;
	s.kernel_type = p->kernel_type;
	s.initrd = p->initrd;
	s.modules = p->modules;
	s.dtb = p->dtb;
	s.rootfs = p->rootfs;
	s.nfsrootfs = p->nfsrootfs;
	s.cmdline = cmds.cmdline && cmds.cmdline[0] ? cmds.cmdline : NULL;
	s.prompts = promptv;
	s.clearpath_url = p->clearpath ? p->clearpath : json_string_value(json_object_get(x->c->spec, "lava_clearpath"));
	s.plan_text = x->plan_text;
	s.queue_minutes = x->queue_minutes;
	s.job_minutes = LX_JOB_MINUTES;
	s.session_minutes = LX_SESSION_MINUTES;
	err = lava_job_yaml(&s, &yaml);
	campaign_boot_cmds_free(&cmds);
	free(ctxv);
	free(promptv);
	if (err)
		log_err("%s: cannot write the LAVA job of boot %d (%s): %s", x->target, b->pos + 1, b->swprofile,
			err == -ENOMEM ? "out of memory" : "its swprofile names no deployment clearpath writes");
	return err ? NULL : yaml;
}

/* Forget the job in flight; the next is boot @b's try @try_. */
static void lx_reset(struct lx *x, const struct store_campaign_boot *b, int try_)
{
	char tag[128];

	lava_frame_free(&x->frame);
	lx_frame_tag(x, b, try_, tag, sizeof(tag));
	lava_frame_init(&x->frame, tag);
	memset(&x->job, 0, sizeof(x->job));
	x->pos = b->pos;
	x->try_ = try_;
	x->log_next = 0;
	x->complete = false;
}

/* Seconds on the monotonic clock. */
static time_t lx_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

/*
 * Find the newest try of boot @b the server has (a controller killed after
 * submitting it): x->job and x->try_ set, or x->job.id 0 when there is none.
 */
static int lx_find(struct lx *x, struct store_campaign_boot *b)
{
	struct lava_job j;
	char name[512];
	int try_, ret = 0;

	lx_reset(x, b, 1);
	for (try_ = 1;; try_++) {
		lx_job_name(x, b, try_, name, sizeof(name));
		ret = lava_job_find(x->l, name, &j);
		if (ret == -ENOENT)
			return 0;
		if (ret)
			return ret;
		lx_reset(x, b, try_);
		x->job = j;
		printf("%s: boot %d (%s): following LAVA job %ld (try %d), submitted before\n", x->target, b->pos + 1,
		       b->swprofile, j.id, try_);
		fflush(stdout);
	}
}

/* Submit try @try_ of boot @b. */
static int lx_submit(struct lx *x, struct store_campaign_boot *b, int try_)
{
	char *yaml = lx_job_yaml(x, b, try_);
	long id = 0;
	int ret;

	if (!yaml)
		return EXIT_USAGE;
	lx_reset(x, b, try_);
	ret = lava_submit(x->l, yaml, &id);
	free(yaml);
	if (ret)
		return ret;
	x->job.id = id;
	x->job.state = LAVA_SUBMITTED;
	x->tries_here++;
	printf("%s: boot %d (%s): LAVA job %ld submitted (try %d): %sscheduler/job/%ld\n", x->target, b->pos + 1,
	       b->swprofile, id, try_, lava_url(x->l), id);
	fflush(stdout);
	return 0;
}

static int lx_line(const struct lava_line *line, void *arg)
{
	struct lx *x = arg;

	if (strcmp(line->lvl, "target"))
		return 0;
	return lava_frame_line(&x->frame, line->msg) ? EXIT_INTERNAL : 0;
}

/*
 * Why the finished job in x->job gave no session, into @why; NULL when it gave
 * one (Complete, and the device printed its facts and the session whole).
 */
static const char *lx_failed(struct lx *x, char *why, size_t len)
{
	char detail[300];

	if (x->job.health == LAVA_COMPLETE && x->frame.have_facts && x->frame.ended && !x->frame.bad)
		return NULL;
	snprintf(detail, sizeof(detail), "%s%.200s", x->job.failure[0] ? ": " : "", x->job.failure);
	if (x->job.health == LAVA_CANCELED && !x->job.device[0])
		snprintf(why, len, "try %d: job %ld was canceled in the queue (no free device of type %s within %u minute%s, "
			 "or canceled by hand)%s", x->try_, x->job.id, x->device_type, x->queue_minutes,
			 x->queue_minutes == 1 ? "" : "s", detail);
	else if (x->job.health == LAVA_CANCELED)
		snprintf(why, len, "try %d: job %ld was canceled on %s%s", x->try_, x->job.id, x->job.device, detail);
	else if (x->job.health == LAVA_INCOMPLETE)
		snprintf(why, len, "try %d: job %ld ended Incomplete on %s%s", x->try_, x->job.id,
			 x->job.device[0] ? x->job.device : "no device", detail);
	else
		snprintf(why, len, "try %d: job %ld ended without a whole session from the device (%s)", x->try_, x->job.id,
			 !x->frame.have_facts ? "no facts printed" : x->frame.bad ? "garbled" : "cut short");
	return why;
}

/*
 * Follow the job in x->job to its end, reading its log.  0 when it finished;
 * EXIT_RESOURCE after log_err() when the server stayed unreachable for
 * LX_SERVER_PATIENCE seconds or the controller was asked to stop (the job
 * goes on there; the next controller follows it again).
 */
static int lx_follow(struct lx *x)
{
	time_t last_ok = lx_now();
	bool quiet;
	int ret;

	for (;;) {
		struct lava_job j;

		quiet = log_set_quiet(true);
		ret = lava_job_get(x->l, x->job.id, &j);
		if (!ret)
			ret = lava_log(x->l, x->job.id, x->log_next, lx_line, x, &x->log_next);
		log_set_quiet(quiet);
		if (!ret) {
			last_ok = lx_now();
			x->job = j;
			if (j.state == LAVA_FINISHED) {
				/* the last lines may have come after the state said finished */
				ret = lava_log(x->l, x->job.id, x->log_next, lx_line, x, &x->log_next);
				return ret;
			}
		} else if (ret == EXIT_INTERNAL || ret == EXIT_USAGE) {
			return lava_job_get(x->l, x->job.id, &j) ?: EXIT_RESOURCE;
		} else if (lx_now() - last_ok > LX_SERVER_PATIENCE) {
			log_err("%s: lost the LAVA server %s for %d seconds while following job %ld",
				x->target, lava_url(x->l), LX_SERVER_PATIENCE, x->job.id);
			log_hint("the job goes on there: 'clearpath campaign continue' follows it again");
			return EXIT_RESOURCE;
		}
		if (harness_stop_signal())
			return EXIT_RESOURCE;
		sleep(LX_POLL_SECONDS);
	}
}

/*
 * Make boot @b's job finish Complete with a whole session: adopt the one in
 * flight (or find it on the server), follow it, try again up to the limit.
 * 0 with x->complete; EXIT_RESOURCE after log_err() with the boot left for
 * 'campaign continue' (the reasons in its message), or another exit code.
 */
static int lx_run(struct lx *x, struct store_campaign_boot *b)
{
	char why[700];
	int ret;

	if (x->pos == b->pos && x->complete)
		return 0;
	if (x->pos != b->pos || !x->job.id) {
		if ((ret = lx_find(x, b)))
			return ret;
		if (!x->job.id && (ret = lx_submit(x, b, 1)))
			return ret;
	}
	for (;;) {
		if ((ret = lx_follow(x)))
			return ret;
		if (!lx_failed(x, why, sizeof(why))) {
			x->complete = true;
			return 0;
		}
		log_warn("%s: boot %d (%s): %s", x->target, b->pos + 1, b->swprofile, why);
		lx_note_once(x, b, why);
		if (x->tries_here > (int)x->retries) {
			log_err("%s: boot %d (%s): no session after %d tr%s here; the boot waits for 'clearpath campaign continue'",
				x->target, b->pos + 1, b->swprofile, x->tries_here, x->tries_here == 1 ? "y" : "ies");
			return EXIT_RESOURCE;
		}
		if ((ret = lx_submit(x, b, x->try_ + 1)))
			return ret;
	}
}

static int lx_facts(struct campaign_executor *ex, struct campaign_facts *f)
{
	struct lx *x = ex->priv;
	struct store_campaign_boot *b = lx_current(x);
	int ret;

	memset(f, 0, sizeof(*f));
	/* before a boot a LAVA device runs nothing of ours: each job boots afresh (all facts empty) */
	if (x->dry_run || !b || !strcmp(b->status, STORE_BOOT_PENDING))
		return 0;
	if ((ret = lx_run(x, b)))
		return ret;
	snprintf(f->boot_id, sizeof(f->boot_id), "%s", x->frame.boot_id);
	snprintf(f->release, sizeof(f->release), "%s", x->frame.release);
	snprintf(f->cmdline, sizeof(f->cmdline), "%s", x->frame.cmdline);
	return 0;
}

/* A LAVA device's sysctls are the boot's: set them through the kernel command line (sysctl.KEY=VALUE). */
static int lx_sysctl_get(struct campaign_executor *ex, const char *key, char *buf, size_t len)
{
	(void)ex, (void)key, (void)buf, (void)len;
	return -ENOTSUP;
}

static int lx_sysctl_set(struct campaign_executor *ex, const char *key, const char *value)
{
	(void)ex, (void)key, (void)value;
	return -ENOTSUP;
}

static int lx_boot(struct campaign_executor *ex, const struct plan *p, const struct plan_swprofile *sw,
		   const struct campaign_facts *before)
{
	struct lx *x = ex->priv;
	struct store_campaign_boot *b = lx_current(x);
	char *yaml;
	int ret;

	(void)p, (void)before;
	if (!b || strcmp(b->swprofile, sw->name)) {
		log_err("%s: no boot of %s in flight", x->target, sw->name);
		return EXIT_INTERNAL;
	}
	if (x->dry_run) {
		if (!(yaml = lx_job_yaml(x, b, 1)))
			return EXIT_USAGE;
		printf("%s: + submit this job to %s (type %s%s%s):\n---\n%s...\n", x->target,
		       json_string_value(json_object_get(x->c->spec, "lava_url")), x->device_type,
		       x->tags[0] ? ", tags " : "", x->tags[0] ? json_string_value(json_object_get(x->c->spec, "lava_tags_text")) : "",
		       yaml);
		free(yaml);
		return 0;
	}
	x->tries_here = 0;
	/* a controller killed after submitting this boot's job: follow that one */
	if ((ret = lx_find(x, b))) {
		ex->resumable = ret == EXIT_RESOURCE;
		return ret;
	}
	if (x->job.id)
		return 0;
	ret = lx_submit(x, b, 1);
	ex->resumable = ret == EXIT_RESOURCE;
	return ret;
}

static int lx_wait(struct campaign_executor *ex, const struct plan_swprofile *sw, const struct campaign_facts *before,
		   enum campaign_wait *how)
{
	struct lx *x = ex->priv;
	struct store_campaign_boot *b = lx_current(x);

	int ret;

	(void)sw, (void)before;
	*how = CAMPAIGN_BACK;
	if (x->dry_run)
		return 0;
	if (!b) {
		log_err("%s: no boot in flight", x->target);
		return EXIT_INTERNAL;
	}
	ret = lx_run(x, b);
	ex->resumable = ret == EXIT_RESOURCE;
	return ret;
}

/* Write @len bytes of @data into a new file @path. */
static int lx_write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "w");
	int ok = f && fwrite(data, 1, len, f) == len;

	if (f && fclose(f))
		ok = 0;
	return ok ? 0 : -errno;
}

/*
 * The session of boot @b out of the export @csv a device printed: imported
 * into a scratch store, then only the complete session under @b's boot id and
 * swprofile exported from there into @dst_url.  0, or an exit code after
 * log_err() (EXIT_RESOURCE: the device sent no such session).
 */
static int lx_import(struct lx *x, const struct store_campaign_boot *b, const char *csv, size_t len, const char *dst_url)
{
	char dir[] = "/tmp/clearpath-lava.XXXXXX", in[64], db[64], out[64], uuid[STORE_UUID_LEN + 1];
	const char *uuids[1] = { uuid };
	struct store *scratch = NULL, *dst = NULL;
	bool interrupted = false;
	FILE *f = NULL;
	int ret = EXIT_INTERNAL, err;

	if (!mkdtemp(dir)) {
		log_err("cannot make a temporary directory: %s", strerror(errno));
		return EXIT_INTERNAL;
	}
	snprintf(in, sizeof(in), "%s/job.csv", dir);
	snprintf(db, sizeof(db), "%s/scratch.db", dir);
	snprintf(out, sizeof(out), "%s/session.csv", dir);
	if ((err = lx_write_file(in, csv, len))) {
		log_err("cannot write %s: %s", in, strerror(-err));
		goto out;
	}
	if ((ret = store_url_open(db, wl_identity_parse, &scratch)))
		goto out;
	if (!(f = fopen(in, "r"))) {
		ret = EXIT_INTERNAL;
		goto out;
	}
	if ((err = store_import(scratch, f, "the session the LAVA job printed", NULL))) {
		ret = EXIT_RESOURCE;
		log_err("%s: boot %d (%s): job %ld's session cannot be read", x->target, b->pos + 1, b->swprofile, x->job.id);
		goto out;
	}
	fclose(f);
	f = NULL;
	err = store_campaign_session_of_boot(scratch, b->boot_id, b->swprofile, uuid, &interrupted);
	if (err) {
		ret = err == -ENOENT ? EXIT_RESOURCE : store_exit_code(err);
		if (err == -ENOENT)
			log_err("%s: boot %d (%s): job %ld printed no complete session of %s under boot id %s", x->target,
				b->pos + 1, b->swprofile, x->job.id, b->swprofile, b->boot_id);
		goto out;
	}
	ret = EXIT_INTERNAL;
	if (!(f = fopen(out, "w+")) || (err = store_export_whole(scratch, f, STORE_CSV, uuids, 1)) ||
	    fflush(f) || fseek(f, 0, SEEK_SET)) {
		log_err("cannot write %s", out);
		goto out;
	}
	if ((ret = store_url_open(dst_url, wl_identity_parse, &dst)))
		goto out;
	ret = store_exit_code(store_import(dst, f, "the session of the LAVA job", NULL));
	if (!ret)
		printf("%s: boot %d (%s): session %.8s of job %ld brought back\n", x->target, b->pos + 1, b->swprofile, uuid,
		       x->job.id);
out:
	if (f)
		fclose(f);
	store_close(dst);
	store_close(scratch);
	unlink(in);
	unlink(out);
	unlink(db);
	{
		char side[80];

		snprintf(side, sizeof(side), "%s-wal", db);
		unlink(side);
		snprintf(side, sizeof(side), "%s-shm", db);
		unlink(side);
	}
	rmdir(dir);
	return ret;
}

static int lx_session(struct campaign_executor *ex, const struct campaign *c, const struct store_campaign_boot *b,
		      bool *resumable)
{
	struct lx *x = ex->priv;
	char why[256], *csv = NULL;
	size_t len = 0;
	int ret, err;

	*resumable = false;
	if (x->dry_run) {
		printf("%s: the session runs in the job's test; it comes back in the job's log (size and SHA-256 checked), "
		       "its boot id and swprofile checked in a scratch store, then imported into %s\n", x->target,
		       c->store_url);
		return 0;
	}
	if ((ret = lx_run(x, (struct store_campaign_boot *)b))) {
		*resumable = ret == EXIT_RESOURCE;
		return ret;
	}
	if (x->frame.exit_status != 0) {
		log_err("%s: boot %d (%s): the session failed on the device (exit %d, job %ld)", x->target, b->pos + 1,
			b->swprofile, x->frame.exit_status, x->job.id);
		return x->frame.exit_status > 0 && x->frame.exit_status <= EXIT_REGRESSION ? x->frame.exit_status
											   : EXIT_RESOURCE;
	}
	if ((err = lava_frame_decode(&x->frame, &csv, &len, why, sizeof(why)))) {
		log_err("%s: boot %d (%s): job %ld: %s", x->target, b->pos + 1, b->swprofile, x->job.id,
			err == -ENOMEM ? "out of memory" : why);
		return err == -ENOMEM ? EXIT_INTERNAL : EXIT_RESOURCE;
	}
	ret = lx_import(x, b, csv, len, c->store_url);
	free(csv);
	/* the store busy or gone: the job's log keeps the session, the next controller reads it again */
	*resumable = ret == EXIT_RESOURCE;
	return ret;
}

static const struct campaign_executor_ops lx_ops = {
	.facts = lx_facts,
	.sysctl_get = lx_sysctl_get,
	.sysctl_set = lx_sysctl_set,
	.boot = lx_boot,
	.wait = lx_wait,
	.session = lx_session,
};

static bool lx_claims(const char *target)
{
	return !strncmp(target, LX_PREFIX, strlen(LX_PREFIX));
}

/* The plan file as the job writes it on the device. */
static int lx_read_plan(const char *path, char **text)
{
	FILE *f = fopen(path, "r");
	size_t cap = 0;
	ssize_t n;

	*text = NULL;
	if (!f) {
		log_err("cannot read the plan %s: %s", path, strerror(errno));
		return EXIT_USAGE;
	}
	n = getdelim(text, &cap, '\0', f);
	fclose(f);
	if (n < 0) {
		free(*text);
		*text = strdup("");
	}
	return *text ? 0 : EXIT_INTERNAL;
}

/* The connection the spec names (the token from the file or identity recorded, never the token). */
static int lx_connect(const json_t *spec, struct lava **l)
{
	struct lava_auth a = {
		.token_file = json_string_value(json_object_get(spec, "lava_token_file")),
		.identity = json_string_value(json_object_get(spec, "lava_identity")),
	};

	return lava_open(json_string_value(json_object_get(spec, "lava_url")), &a, l);
}

/* Every swprofile says what the job deploys (method lava): a LAVA device boots nothing else. */
static int lx_plan_check(const struct plan *p, const char *target)
{
	for (size_t i = 0; i < p->nswprofiles; i++)
		if (campaign_method_of(&p->swprofiles[i]) != &campaign_method_lava) {
			log_err("%s: swprofile '%s' boots with method %s; on a LAVA lab each swprofile boots with method lava "
				"(kernel: URL, and initrd, modules, dtb, rootfs as the device needs)",
				target, p->swprofiles[i].name, campaign_method_of(&p->swprofiles[i])->name);
			return EXIT_USAGE;
		}
	return 0;
}

/* At start: the plan boots on LAVA, the token works, and the device type has devices that may take the jobs. */
static int lx_check(const struct plan *p, const json_t *spec, const char *target, bool dry_run)
{
	char type[256];
	const char *slash = strrchr(target, '/');
	const char *tags[LX_MAX_TAGS + 1] = { NULL };
	json_t *jt = json_object_get(spec, "lava_tags"), *v;
	size_t usable = 0, total = 0, i;
	struct lava *l = NULL;
	char *user = NULL;
	int ret;

	if ((ret = lx_plan_check(p, target)) || dry_run)
		return ret;
	snprintf(type, sizeof(type), "%.*s", slash ? (int)(slash - target - strlen(LX_PREFIX)) : 0,
		 target + strlen(LX_PREFIX));
	json_array_foreach(jt, i, v)
		if (i < LX_MAX_TAGS)
			tags[i] = json_string_value(v);
	ret = lx_connect(spec, &l);
	if (!ret)
		ret = lava_whoami(l, &user);
	if (!ret)
		ret = lava_devices(l, type, tags, &usable, &total);
	if (!ret && !usable) {
		log_err("%s: the lab has no device of type %s%s usable (%zu in all)", target,
			type, tags[0] ? " with those tags" : "", total);
		log_hint("lavacli devices list shows the lab's devices and their health");
		ret = EXIT_RESOURCE;
	}
	free(user);
	lava_close(l);
	return ret;
}

static void lx_close(struct campaign_executor *ex)
{
	struct lx *x = ex->priv;

	if (!x)
		return;
	lava_frame_free(&x->frame);
	lava_close(x->l);
	free(x->plan_text);
	free(x);
	ex->priv = NULL;
}

static int lx_open(struct campaign_executor *ex, const struct campaign *c, const char *target)
{
	struct lx *x = calloc(1, sizeof(*x));
	const char *slash = strrchr(target, '/');
	json_t *jt = json_object_get(c->spec, "lava_tags"), *v;
	json_int_t retries = json_integer_value(json_object_get(c->spec, "lava_retries"));
	json_int_t queue = json_integer_value(json_object_get(c->spec, "lava_queue_minutes"));
	size_t i;
	int ret;

	if (!x) {
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	ex->ops = &lx_ops;
	ex->priv = x;
	x->c = c;
	x->target = target;
	x->dry_run = ex->dry_run;
	x->pos = -1;
	x->key = json_string_value(json_object_get(c->spec, "lava_key"));
	x->retries = json_object_get(c->spec, "lava_retries") ? (unsigned)retries : LX_RETRIES_DEFAULT;
	x->queue_minutes = queue > 0 ? (unsigned)queue : LX_QUEUE_MINUTES_DEFAULT;
	snprintf(x->device_type, sizeof(x->device_type), "%.*s",
		 slash ? (int)(slash - target - strlen(LX_PREFIX)) : (int)strlen(target + strlen(LX_PREFIX)),
		 target + strlen(LX_PREFIX));
	json_array_foreach(jt, i, v)
		if (i < LX_MAX_TAGS)
			x->tags[i] = json_string_value(v);
	lava_frame_init(&x->frame, "");
	if (!x->key || !x->key[0]) {
		log_err("campaign %lld: its spec names no LAVA key", (long long)c->row.id);
		lx_close(ex);
		return EXIT_USAGE;
	}
	ret = lx_plan_check(c->plan, target) ?: lx_read_plan(c->plan_path, &x->plan_text);
	if (!ret && !x->dry_run)
		ret = lx_connect(c->spec, &x->l);
	if (ret)
		lx_close(ex);
	return ret;
}

const struct campaign_executor_kind campaign_executor_lava = {
	.name = "lava",
	.summary = "a LAVA lab: each boot is one job (deploy, boot, the session), its session comes back in the log",
	.process_per_target = true,
	.claims = lx_claims,
	.check = lx_check,
	.open = lx_open,
	.close = lx_close,
};
