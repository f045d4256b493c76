/* executor_local: the campaign executor for this machine: boots run here, sessions re-execute this binary. */
#include "campaign/campaign.h"
#include "campaign/executor.h"
#include "harness/fingerprint.h"
#include "campaign/method.h"
#include "campaign/unit.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/session.h"
#include "util/boot.h"
#include "util/log.h"
#include "util/shquote.h"
#include "util/sysfs.h"

struct local {
	char self[PATH_MAX];	/* this binary: the clearpath of boots and sessions */
	unsigned boot_timeout;	/* seconds the machine may take to go down after its boot method */
};

static int local_facts(struct campaign_executor *ex, struct campaign_facts *f)
{
	int err = boot_id(f->boot_id, sizeof(f->boot_id));

	(void)ex;
	if (!err)
		err = boot_release(f->release, sizeof(f->release));
	if (!err)
		err = boot_cmdline(f->cmdline, sizeof(f->cmdline));
	if (err) {
		const char *fake = getenv(BOOT_FAKE_ENV);

		log_err("cannot read this machine's boot id, kernel release or cmdline: %s", strerror(-err));
		if (fake && *fake)
			log_hint("$%s (%s) names the simulated boot's directory: a directory, or nothing yet"
				 " (the first fake boot creates it), whose boot_id and release are regular files of"
				 " one line", BOOT_FAKE_ENV, fake);
		return EXIT_RESOURCE;
	}
	return 0;
}

static int local_sysctl_get(struct campaign_executor *ex, const char *key, char *buf, size_t len)
{
	char path[PATH_MAX];

	(void)ex;
	plan_sysctl_path(key, path, sizeof(path));
	return sysfs_read_line(path, buf, len);
}

static int local_sysctl_set(struct campaign_executor *ex, const char *key, const char *value)
{
	char path[PATH_MAX], now[256];

	plan_sysctl_path(key, path, sizeof(path));
	/* an equal value is not written again: no root needed for what is already so */
	if (!ex->dry_run && !sysfs_read_line(path, now, sizeof(now)) && !strcmp(now, value))
		return 0;
	printf("+ sysctl -w %s=%s\n", key, value);
	return ex->dry_run ? 0 : sysfs_write_line(path, value);
}

/*
 * Run @cmd with /bin/sh -c as the boot method says, in a child the stop
 * signals reach.  0, or EXIT_RESOURCE after saying how it failed (a stop
 * signal the controller got is harness_stop_signal()'s to tell).
 */
static int local_run(const char *cmd)
{
	int status, ret = harness_spawn_shell(cmd, &status);

	if (ret)
		return ret;
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	if (WIFEXITED(status))
		log_err("'%s' failed (exit %d)", cmd, WEXITSTATUS(status));
	else
		log_err("'%s' was stopped by signal %d (%s)", cmd, WTERMSIG(status), strsignal(WTERMSIG(status)));
	return EXIT_RESOURCE;
}

static int local_boot(struct campaign_executor *ex, const struct plan *p, const struct plan_swprofile *sw,
		      const struct campaign_facts *before)
{
	struct local *l = ex->priv;
	const char *emu = getenv("CLEARPATH_EMULATOR");
	/* this clearpath runs emulated (make check-arm64): /bin/sh cannot run its binary as it is */
	struct campaign_boot_ctx ctx = { p, sw, before, l->self, emu && *emu ? emu : NULL };
	struct campaign_boot_cmds cmds;
	int ret = campaign_boot_commands(&ctx, &cmds);

	for (size_t i = 0; !ret && i < cmds.ncmd; i++) {
		printf("+ %s\n", cmds.cmd[i]);
		ret = ex->dry_run ? 0 : local_run(cmds.cmd[i]);
	}
	campaign_boot_cmds_free(&cmds);
	return ret;
}

/* Seconds on the monotonic clock. */
static double local_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * A real boot takes this process down with the machine; until it does, the
 * boot id is watched: a simulated reboot (a command boot that fakes one)
 * shows a new one at once, and a machine that never went down within the
 * boot timeout has its boot pending again.
 */
static int local_wait(struct campaign_executor *ex, const struct plan_swprofile *sw,
		      const struct campaign_facts *before, enum campaign_wait *how)
{
	struct local *l = ex->priv;
	struct campaign_facts now;
	double deadline = local_now() + l->boot_timeout;
	char *self = sh_quote(l->self);

	*how = CAMPAIGN_BACK;
	if (!campaign_method_of(sw)->reboots) {
		free(self);
		return 0;
	}
	printf("%s: rebooting; the %s unit runs '%s campaign continue' once it is up\n", ex->target,
	       CAMPAIGN_UNIT_NAME, self ? self : l->self);
	fflush(stdout);
	free(self);
	if (ex->dry_run)
		return 0;
	while (!harness_stop_signal() && local_now() < deadline) {
		if (!boot_id(now.boot_id, sizeof(now.boot_id)) && strcmp(now.boot_id, before->boot_id)) {
			*how = CAMPAIGN_DETACHED;
			return 0;
		}
		usleep(200 * 1000);
	}
	/* stopped while waiting: the machine going down, most often; the boot stays booting (advance_boot) */
	if (!harness_stop_signal())
		*how = CAMPAIGN_NOT_BOOTED;
	return 0;
}

static int local_session(struct campaign_executor *ex, const struct campaign *c, const struct store_campaign_boot *b,
			 bool *resumable)
{
	struct local *l = ex->priv;
	const char *argv[CAMPAIGN_SESSION_ARGC];
	char *line, id[32];
	int ret;

	(void)resumable;
	campaign_session_argv(l->self, b->swprofile, json_string_value(json_object_get(c->spec, "sut")), c->store_url,
			      c->plan_path, argv);
	printf("%s: session of %s\n", ex->target, b->swprofile);
	if (ex->dry_run) {
		if (!(line = sh_join(argv))) {
			log_err("out of memory");
			return EXIT_INTERNAL;
		}
		printf("+ %s\n", line);
		free(line);
		return 0;
	}
	fflush(stdout);
	snprintf(id, sizeof(id), "%lld", (long long)c->row.id);
	setenv(CAMPAIGN_SESSION_ENV, id, 1);
	ret = harness_spawn((char **)argv, 1);
	unsetenv(CAMPAIGN_SESSION_ENV);
	return ret;
}

static const struct campaign_executor_ops local_ops = {
	.facts = local_facts,
	.sysctl_get = local_sysctl_get,
	.sysctl_set = local_sysctl_set,
	.boot = local_boot,
	.wait = local_wait,
	.session = local_session,
};

static bool local_claims(const char *target)
{
	return !strcmp(target, CAMPAIGN_LOCAL_TARGET);
}

/* The plan fits this machine, its boot methods can run here, and its boot id can be read. */
static int local_check(const struct plan *p, const json_t *spec, const char *target, bool dry_run)
{
	struct campaign_target_env env = { "this machine", true, dry_run, dry_run ? log_warn : log_err };
	struct campaign_executor ex = { .ops = &local_ops, .target = target };
	struct campaign_facts now;
	char self[PATH_MAX], *q;
	int ret = campaign_target_check(p, &env);

	(void)spec;
	/* the unit's command line names this binary: it must have a spelling there */
	if (!ret && campaign_reboots(p) && !(ret = campaign_self_path(self, sizeof(self)))) {
		if (!(q = campaign_unit_quote(self)) && errno == EINVAL) {
			env.say("this binary's path %s has a control character: the unit's command line cannot carry it",
				self);
			ret = EXIT_USAGE;
		}
		free(q);
	}
	/* a campaign that cannot read it (a $CLEARPATH_FAKE_BOOT that is a file) would stay running without a boot */
	return ret || dry_run ? ret : local_facts(&ex, &now);
}

static int local_open(struct campaign_executor *ex, const struct campaign *c, const char *target)
{
	struct local *l = calloc(1, sizeof(*l));
	json_int_t timeout = json_integer_value(json_object_get(c->spec, "boot_timeout"));
	int ret = l ? campaign_self_path(l->self, sizeof(l->self)) : EXIT_INTERNAL;

	(void)target;
	if (l)
		l->boot_timeout = timeout > 0 ? (unsigned)timeout : CAMPAIGN_BOOT_TIMEOUT_DEFAULT;
	if (!l)
		log_err("out of memory");
	if (ret) {
		free(l);
		return ret;
	}
	ex->ops = &local_ops;
	ex->priv = l;
	return 0;
}

static void local_close(struct campaign_executor *ex)
{
	free(ex->priv);
	ex->priv = NULL;
}

/* The unit continues a campaign that reboots this machine; a simulated one runs to its end at once. */
static int local_begin(const struct campaign *c)
{
	return campaign_reboots(c->plan) ? campaign_unit_install(c) : 0;
}

/*
 * A person's 'continue' after a halt (a boot that did not come up, whose
 * end() took the unit away): the unit is back for the boots ahead.  One
 * installed (this campaign's, the unit's own 'continue', or another's) stays.
 */
static int local_resume(const struct campaign *c)
{
	int64_t id;
	char *store = NULL;
	int err;

	if (!campaign_reboots(c->plan))
		return 0;
	err = campaign_unit_owner(&id, &store);
	free(store);
	return err == -ENOENT ? campaign_unit_install(c) : 0;
}

/* The campaign's own unit goes with it (or with its halt); another campaign's (another store's) stays. */
static int local_end(const struct campaign *c)
{
	return !c->dry_run || campaign_reboots(c->plan) ? campaign_unit_remove(c, false) : 0;
}

/*
 * This machine: its host name and the machine class its sessions are
 * stored under (the spec's --sut, else the class it detects), so machines a
 * test stands in for by their classes are apart too.  "local:HOST/" names
 * every class of it.
 */
static int local_machine(const json_t *spec, const char *target, char *buf, size_t len)
{
	const char *sut = spec ? json_string_value(json_object_get(spec, "sut")) : NULL;
	char host[256] = "", name[256] = "";
	json_t *fp = spec && !sut ? fp_sut(name, sizeof(name)) : NULL;

	(void)target;
	json_decref(fp);
	if (gethostname(host, sizeof(host) - 1) || !host[0])
		snprintf(host, sizeof(host), "localhost");
	if (snprintf(buf, len, "local:%s/%s", host, spec ? sut ? sut : name : "") >= (int)len) {
		log_err("this machine's name (%s, class %s) is too long to name it in a campaign", host, sut ? sut : name);
		return EXIT_USAGE;
	}
	return 0;
}

const struct campaign_executor_kind campaign_executor_local = {
	.name = "local",
	.summary = "this machine: the systemd unit continues after each reboot",
	.process_per_target = false,
	.claims = local_claims,
	.check = local_check,
	.open = local_open,
	.close = local_close,
	.begin = local_begin,
	.end = local_end,
	.resume = local_resume,
	.machine = local_machine,
};
