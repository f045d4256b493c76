/* local: the campaign executor for this machine, and the systemd unit that runs `campaign continue` after each boot. */
#include "campaign/campaign.h"
#include "campaign/local.h"

#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/session.h"
#include "util/boot.h"
#include "util/log.h"
#include "util/sysfs.h"

/* What the last boot() ran: wait() knows from it whether this process lives to see the boot. */
struct local_state {
	enum plan_boot_method method;
};

static struct local_state local_state;

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
				 " (the first fake boot creates it)", BOOT_FAKE_ENV, fake);
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
	char path[PATH_MAX];

	(void)ex;
	plan_sysctl_path(key, path, sizeof(path));
	printf("+ sysctl -w %s=%s\n", key, value);
	return sysfs_write_line(path, value);
}

int campaign_session_argv(const struct campaign *c, const char *swprofile, const char *argv[CAMPAIGN_SESSION_ARGC])
{
	int n = 0;

	argv[n++] = "clearpath";
	argv[n++] = "plan";
	argv[n++] = "run";
	argv[n++] = "--sessions";
	argv[n++] = "1";
	argv[n++] = "--swprofile";
	argv[n++] = swprofile;
	if (c->store_url) {
		argv[n++] = "--store";
		argv[n++] = c->store_url;
	}
	argv[n++] = c->plan_path;
	argv[n] = NULL;
	return n;
}

static int local_session(struct campaign_executor *ex, const struct campaign *c, const char *swprofile)
{
	const char *argv[CAMPAIGN_SESSION_ARGC];

	(void)ex;
	campaign_session_argv(c, swprofile, argv);
	printf("%s: session of %s\n", ex->target, swprofile);
	fflush(stdout);
	return harness_spawn((char **)argv, 1);
}

static int local_boot(struct campaign_executor *ex, const struct campaign_boot_cmds *cmds)
{
	struct local_state *s = ex->priv;
	int err;

	s->method = cmds->method;
	if (cmds->method == PLAN_BOOT_FAKE) {
		err = boot_fake(getenv(BOOT_FAKE_ENV), cmds->fake_release, cmds->fake_cmdline, NULL, 0);
		if (err)
			log_err("cannot write the fake boot into %s: %s", getenv(BOOT_FAKE_ENV), strerror(-err));
		return err ? EXIT_RESOURCE : 0;
	}
	for (size_t i = 0; i < cmds->ncmd; i++) {
		int status;

		printf("+ %s\n", cmds->cmd[i]);
		fflush(NULL);
		status = system(cmds->cmd[i]);
		if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status)) {
			log_err("'%s' failed (%s %d)", cmds->cmd[i], status != -1 && WIFEXITED(status) ? "exit" : "status",
				status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : status);
			return EXIT_RESOURCE;
		}
	}
	return 0;
}

static int local_wait(struct campaign_executor *ex, const struct campaign_facts *before)
{
	const struct local_state *s = ex->priv;

	(void)before;
	/* a simulated boot is over already; a real one takes this process down with the machine */
	if (s->method == PLAN_BOOT_FAKE)
		return 0;
	printf("%s: rebooting; the %s unit runs 'clearpath campaign continue' once it is up\n", ex->target,
	       CAMPAIGN_UNIT_NAME);
	fflush(stdout);
	return CAMPAIGN_DETACHED;
}

static const struct campaign_executor_ops local_ops = {
	.facts = local_facts,
	.sysctl_get = local_sysctl_get,
	.sysctl_set = local_sysctl_set,
	.session = local_session,
	.boot = local_boot,
	.wait = local_wait,
};

void campaign_local_executor(struct campaign_executor *ex)
{
	ex->ops = &local_ops;
	ex->target = CAMPAIGN_LOCAL_TARGET;
	ex->priv = &local_state;
}

/* --- the systemd unit --- */

static void local_unit_dir(char *buf, size_t len)
{
	const char *dir = getenv(CAMPAIGN_UNIT_DIR_ENV);

	snprintf(buf, len, "%s", dir && *dir ? dir : CAMPAIGN_UNIT_DIR);
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

int campaign_unit_text(const char *store_url, char *buf, size_t len)
{
	char self[PATH_MAX], qself[2 * PATH_MAX], qstore[2 * PATH_MAX];
	struct passwd *pw = getpwuid(getuid());
	int ret = campaign_self_path(self, sizeof(self));

	if (ret)
		return ret;
	/* systemd's ExecStart splits words as the shell does for quotes; the binary must keep its path */
	snprintf(buf, len,
		 "# written by 'clearpath campaign start'; removed when the campaign ends or is aborted\n"
		 "[Unit]\n"
		 "Description=clearpath campaign: the next session after each boot\n"
		 "After=multi-user.target\n"
		 "\n"
		 "[Service]\n"
		 "Type=oneshot\n"
		 "User=%s\n"
		 "ExecStart=%s campaign continue --store %s\n"
		 "TimeoutStartSec=infinity\n"
		 "StandardOutput=journal+console\n"
		 "\n"
		 "[Install]\n"
		 "WantedBy=multi-user.target\n",
		 pw ? pw->pw_name : "root", campaign_shell_quote(self, qself, sizeof(qself)),
		 campaign_shell_quote(store_url, qstore, sizeof(qstore)));
	return 0;
}

/*
 * Enabling is what `systemctl enable` does, done by hand: the unit file and
 * its link in multi-user.target.wants.  No daemon-reload is needed: the next
 * boot's systemd reads the directory afresh, and this one must not start it.
 */
int campaign_unit_install(const char *store_url, bool dry_run)
{
	char dir[PATH_MAX], path[PATH_MAX + 64], wants[PATH_MAX + 64], link[PATH_MAX + 128], text[8192];
	FILE *f;
	int ret = campaign_unit_text(store_url, text, sizeof(text));

	if (ret)
		return ret;
	local_unit_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/%s", dir, CAMPAIGN_UNIT_NAME);
	snprintf(wants, sizeof(wants), "%s/multi-user.target.wants", dir);
	snprintf(link, sizeof(link), "%s/%s", wants, CAMPAIGN_UNIT_NAME);
	if (dry_run) {
		printf("write %s:\n%s\n", path, text);
		printf("mkdir -p %s\nln -s %s %s\n", wants, path, link);
		return 0;
	}
	if (!access(path, F_OK)) {
		log_err("%s exists: another campaign's unit is installed", path);
		log_hint("'clearpath campaign abort' ends that campaign and removes it");
		return EXIT_USAGE;
	}
	if (!(f = fopen(path, "w"))) {
		log_err("cannot write %s: %s", path, strerror(errno));
		return EXIT_RESOURCE;
	}
	fputs(text, f);
	if (fclose(f)) {
		log_err("cannot write %s: %s", path, strerror(errno));
		unlink(path);
		return EXIT_RESOURCE;
	}
	if ((mkdir(wants, 0755) && errno != EEXIST) || symlink(path, link)) {
		log_err("cannot enable %s (%s): %s", CAMPAIGN_UNIT_NAME, link, strerror(errno));
		unlink(path);
		return EXIT_RESOURCE;
	}
	printf("installed %s: it runs 'clearpath campaign continue' after each boot\n", path);
	return 0;
}

int campaign_unit_remove(bool dry_run)
{
	char dir[PATH_MAX], path[PATH_MAX + 64], link[PATH_MAX + 128];
	int ret = 0;

	local_unit_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/%s", dir, CAMPAIGN_UNIT_NAME);
	snprintf(link, sizeof(link), "%s/multi-user.target.wants/%s", dir, CAMPAIGN_UNIT_NAME);
	if (dry_run) {
		printf("rm -f %s %s\n", link, path);
		return 0;
	}
	if (unlink(link) && errno != ENOENT) {
		log_err("cannot remove %s: %s", link, strerror(errno));
		ret = EXIT_RESOURCE;
	}
	if (unlink(path) && errno != ENOENT) {
		log_err("cannot remove %s: %s", path, strerror(errno));
		ret = EXIT_RESOURCE;
	}
	return ret;
}

bool campaign_unit_installed(void)
{
	char dir[PATH_MAX], path[PATH_MAX + 64];

	local_unit_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/%s", dir, CAMPAIGN_UNIT_NAME);
	return !access(path, F_OK);
}
