/* unit: the systemd unit of a local campaign: written, enabled by hand, removed when the campaign ends. */
#define _GNU_SOURCE	/* asprintf */
#include "campaign/campaign.h"
#include "campaign/unit.h"

#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/log.h"
#include "util/shquote.h"

static void unit_dir(char *buf, size_t len)
{
	const char *dir = getenv(CAMPAIGN_UNIT_DIR_ENV);

	snprintf(buf, len, "%s", dir && *dir ? dir : CAMPAIGN_UNIT_DIR);
}

/* The unit file's text for campaign @c, malloc'd into *@text.  0 or an exit code. */
static int unit_text(const struct campaign *c, char **text)
{
	char self[PATH_MAX], *qself = NULL, *qstore = NULL;
	struct passwd *pw = getpwuid(getuid());
	int ret = campaign_self_path(self, sizeof(self)), n = -1;

	*text = NULL;
	if (ret)
		return ret;
	qself = sh_quote(self);
	qstore = sh_quote(c->store_url);
	/* systemd's ExecStart splits words as the shell does for quotes; the binary must keep its path */
	if (qself && qstore)
		n = asprintf(text,
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
			     pw ? pw->pw_name : "root", qself, qstore);
	free(qself);
	free(qstore);
	if (n >= 0)
		return 0;
	*text = NULL;
	log_err("out of memory");
	return EXIT_INTERNAL;
}

/*
 * Enabling is what `systemctl enable` does, done by hand: the unit file and
 * its link in multi-user.target.wants.  No daemon-reload is needed: the next
 * boot's systemd reads the directory afresh, and this one must not start it.
 */
int campaign_unit_install(const struct campaign *c)
{
	char dir[PATH_MAX], path[PATH_MAX + 64], wants[PATH_MAX + 64], link[PATH_MAX + 128], *text;
	FILE *f;
	int ret = unit_text(c, &text);

	if (ret)
		return ret;
	unit_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/%s", dir, CAMPAIGN_UNIT_NAME);
	snprintf(wants, sizeof(wants), "%s/multi-user.target.wants", dir);
	snprintf(link, sizeof(link), "%s/%s", wants, CAMPAIGN_UNIT_NAME);
	if (c->dry_run) {
		printf("write %s:\n%s\n", path, text);
		printf("mkdir -p %s\nln -s %s %s\n", wants, path, link);
		goto out;
	}
	if (!access(path, F_OK)) {
		log_err("%s exists: another campaign's unit is installed", path);
		log_hint("'clearpath campaign abort' ends that campaign and removes it");
		ret = EXIT_USAGE;
		goto out;
	}
	if (!(f = fopen(path, "w"))) {
		log_err("cannot write %s: %s", path, strerror(errno));
		ret = EXIT_RESOURCE;
		goto out;
	}
	fputs(text, f);
	if (fclose(f)) {
		log_err("cannot write %s: %s", path, strerror(errno));
		unlink(path);
		ret = EXIT_RESOURCE;
		goto out;
	}
	if ((mkdir(wants, 0755) && errno != EEXIST) || symlink(path, link)) {
		log_err("cannot enable %s (%s): %s", CAMPAIGN_UNIT_NAME, link, strerror(errno));
		unlink(path);
		ret = EXIT_RESOURCE;
		goto out;
	}
	printf("installed %s: it runs 'clearpath campaign continue' after each boot\n", path);
out:
	free(text);
	return ret;
}

int campaign_unit_remove(const struct campaign *c)
{
	char dir[PATH_MAX], path[PATH_MAX + 64], link[PATH_MAX + 128];
	int ret = 0;

	unit_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/%s", dir, CAMPAIGN_UNIT_NAME);
	snprintf(link, sizeof(link), "%s/multi-user.target.wants/%s", dir, CAMPAIGN_UNIT_NAME);
	if (c && c->dry_run) {
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

	unit_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/%s", dir, CAMPAIGN_UNIT_NAME);
	return !access(path, F_OK);
}
