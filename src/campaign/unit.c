/* unit: the systemd unit of a local campaign: quoted for systemd, written 0644 atomically, removed by its own campaign only. */
#define _GNU_SOURCE	/* asprintf */
#include "campaign/campaign.h"
#include "campaign/unit.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/credentials.h"
#include "util/log.h"
#include "util/replace.h"

/* The unit says whose it is: a campaign removes its own unit, never another's. */
#define UNIT_KEY_ID "X-ClearpathCampaign="
#define UNIT_KEY_STORE "X-ClearpathStore="
#define UNIT_MAX 65536

static void unit_dir(char *buf, size_t len)
{
	const char *dir = getenv(CAMPAIGN_UNIT_DIR_ENV);

	snprintf(buf, len, "%s", dir && *dir ? dir : CAMPAIGN_UNIT_DIR);
}

/* The unit's path, and its link in multi-user.target.wants (@wants: that directory). */
static void unit_paths(char path[PATH_MAX + 64], char wants[PATH_MAX + 64], char link[PATH_MAX + 128])
{
	char dir[PATH_MAX];

	unit_dir(dir, sizeof(dir));
	snprintf(path, PATH_MAX + 64, "%s/%s", dir, CAMPAIGN_UNIT_NAME);
	snprintf(wants, PATH_MAX + 64, "%s/multi-user.target.wants", dir);
	snprintf(link, PATH_MAX + 128, "%s/multi-user.target.wants/%s", dir, CAMPAIGN_UNIT_NAME);
}

static bool unit_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

char *campaign_unit_quote(const char *s)
{
	size_t n = 3;
	char *q, *p;

	/* a line break would end the line and start a directive of its own: no spelling makes it safe */
	if (unit_control(s)) {
		errno = EINVAL;
		return NULL;
	}
	for (const char *c = s; *c; c++)
		n += strchr("\\\"%$", *c) ? 2 : 1;
	if (!(q = p = malloc(n)))
		return NULL;
	*p++ = '"';
	for (const char *c = s; *c; c++) {
		/* C escapes inside quotes, % for specifiers, $ for environment substitution */
		if (*c == '\\' || *c == '"')
			*p++ = '\\';
		else if (*c == '%' || *c == '$')
			*p++ = *c;
		*p++ = *c;
	}
	*p++ = '"';
	*p = '\0';
	return q;
}

/* ExecStart's words, each campaign_unit_quote()d and joined; NULL with errno set. */
static char *unit_exec(const char *self, const struct campaign *c, const char *id)
{
	char *q[6] = { NULL }, *line = NULL;
	const char *words[6] = { self, "campaign", "continue", id, "--store", c->store_url };
	bool ok = true;

	for (size_t i = 0; ok && i < 6; i++)
		ok = (q[i] = campaign_unit_quote(words[i])) != NULL;
	if (ok && asprintf(&line, "%s %s %s %s %s %s", q[0], q[1], q[2], q[3], q[4], q[5]) < 0) {
		line = NULL;
		errno = ENOMEM;
	}
	for (size_t i = 0; i < 6; i++)
		free(q[i]);
	return line;
}

/* The unit file's text for campaign @c, malloc'd into *@text.  0 or an exit code after log_err(). */
static int unit_text(const struct campaign *c, char **text)
{
	char self[PATH_MAX], id[32], *exec;
	struct passwd *pw = getpwuid(getuid());
	bool remote = store_url_is_server(c->store_url);
	int ret = campaign_self_path(self, sizeof(self)), n;

	*text = NULL;
	if (ret)
		return ret;
	/* a dry run's campaign has no id yet: the store gives it */
	snprintf(id, sizeof(id), c->dry_run ? "ID" : "%lld", (long long)c->row.id);
	if (!(exec = unit_exec(self, c, id))) {
		if (errno != EINVAL) {
			log_err("out of memory");
			return EXIT_INTERNAL;
		}
		log_err("the store %s or this binary's path %s has a control character (a line break?): "
			"a unit's command line cannot carry it", c->store_url, self);
		log_hint("put the store, and run clearpath, from a path without one");
		return EXIT_USAGE;
	}
	n = asprintf(text,
		     "# written by 'clearpath campaign start' for campaign %s; removed when it ends or is aborted\n"
		     "[Unit]\n"
		     "Description=clearpath campaign %s: the next session after each boot\n"
		     "After=multi-user.target%s\n"
		     "%s"
		     UNIT_KEY_ID "%s\n"
		     UNIT_KEY_STORE "%s\n"
		     "\n"
		     "[Service]\n"
		     "Type=oneshot\n"
		     "User=%s\n"
		     "ExecStart=%s\n"
		     "TimeoutStartSec=infinity\n"
		     "StandardOutput=journal+console\n"
		     "\n"
		     "[Install]\n"
		     "WantedBy=multi-user.target\n",
		     id, id, remote ? " network-online.target" : "", remote ? "Wants=network-online.target\n" : "", id,
		     c->store_url,
		     pw ? pw->pw_name : "root", exec);
	free(exec);
	if (n >= 0)
		return 0;
	*text = NULL;
	log_err("out of memory");
	return EXIT_INTERNAL;
}

/* The enabling link: in a real directory (not one a link points elsewhere), never over anything. */
static int unit_enable(const char *path, const char *wants, const char *link)
{
	struct stat st;

	if (mkdir(wants, 0755) && errno != EEXIST)
		return -errno;
	if (lstat(wants, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	return symlink(path, link) ? -errno : 0;
}

/*
 * Enabling is what `systemctl enable` does, done by hand: the unit file and
 * its link in multi-user.target.wants.  No daemon-reload is needed: the next
 * boot's systemd reads the directory afresh, and this one must not start it.
 */
int campaign_unit_install(const struct campaign *c)
{
	char path[PATH_MAX + 64], wants[PATH_MAX + 64], link[PATH_MAX + 128], *text;
	int ret = unit_text(c, &text), err;

	if (ret)
		return ret;
	unit_paths(path, wants, link);
	if (c->dry_run) {
		printf("write %s (mode 0644):\n%s\n", path, text);
		printf("mkdir -p %s\nln -s %s %s\n", wants, path, link);
		free(text);
		return 0;
	}
	/* 0644 whatever the umask, never through a link planted there */
	err = replace_write_mode(path, text, 0644, true);
	free(text);
	if (err == -EEXIST) {
		log_err("%s exists: another campaign's unit is installed", path);
		log_hint("'clearpath campaign abort' ends that campaign and removes it");
		return EXIT_USAGE;
	}
	if (!err && (err = unit_enable(path, wants, link)))
		unlink(path);
	if (err) {
		log_err("cannot install %s in %s: %s", CAMPAIGN_UNIT_NAME, wants, strerror(-err));
		return EXIT_RESOURCE;
	}
	printf("installed %s: it runs 'clearpath campaign continue %lld' after each boot\n", path,
	       (long long)c->row.id);
	return 0;
}

/* The value of the line "@key..." of @text into a new string, or NULL. */
static char *unit_value(const char *text, const char *key)
{
	size_t n = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, key, n))
			return strndup(l + n, strcspn(l + n, "\n"));
	return NULL;
}

int campaign_unit_owner(int64_t *id, char **store)
{
	char path[PATH_MAX + 64], wants[PATH_MAX + 64], link[PATH_MAX + 128], *text, *v, *end;
	ssize_t n;
	int fd, ret = -EINVAL;

	*id = 0;
	*store = NULL;
	unit_paths(path, wants, link);
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return -errno;
	text = calloc(1, UNIT_MAX + 1);
	n = text ? read(fd, text, UNIT_MAX) : -1;
	close(fd);
	if (n < 0) {
		free(text);
		return text ? -EIO : -ENOMEM;
	}
	v = unit_value(text, UNIT_KEY_ID);
	if (v) {
		errno = 0;
		*id = strtoll(v, &end, 10);
		*store = unit_value(text, UNIT_KEY_STORE);
		ret = !errno && *end == '\0' && *id > 0 && *store ? 0 : -EINVAL;
	}
	free(v);
	free(text);
	if (ret) {
		free(*store);
		*store = NULL;
	}
	return ret;
}

/* Remove the unit and its link, whoever's they are. */
static int unit_unlink(void)
{
	char path[PATH_MAX + 64], wants[PATH_MAX + 64], link[PATH_MAX + 128];
	int ret = 0;

	unit_paths(path, wants, link);
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

int campaign_unit_remove(const struct campaign *c, bool legacy_too)
{
	char path[PATH_MAX + 64], wants[PATH_MAX + 64], link[PATH_MAX + 128], *store;
	int64_t id;
	int err;

	if (c->dry_run) {
		unit_paths(path, wants, link);
		printf("rm -f %s %s\n", link, path);
		return 0;
	}
	err = campaign_unit_owner(&id, &store);
	if (err == -ENOENT)
		return 0;
	if (err && err != -EINVAL) {
		unit_paths(path, wants, link);
		log_err("cannot read %s: %s", path, strerror(-err));
		return EXIT_RESOURCE;
	}
	/* a unit an older clearpath wrote names no campaign: only an abort removes it */
	if (err == -EINVAL)
		return legacy_too ? unit_unlink() : 0;
	if (!err && id == c->row.id && !strcmp(store, c->store_url))
		err = unit_unlink();
	free(store);
	return err < 0 ? EXIT_RESOURCE : err;
}

int campaign_unit_tidy(const char *store_url)
{
	struct campaign c;
	char *store;
	int64_t id;
	int ret;

	if (campaign_unit_owner(&id, &store))
		return 0;
	ret = strcmp(store, store_url) ? 1 : campaign_load(store_url, id, false, &c);
	free(store);
	if (ret)
		return 0;
	if (strcmp(c.row.status, STORE_CAMPAIGN_RUNNING))
		ret = campaign_unit_remove(&c, false);
	campaign_free(&c);
	return ret;
}
