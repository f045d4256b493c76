/* store_url: the store a campaign records and hands on: a file as an absolute path, a server's password never in it. */
#include "campaign/campaign.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/credentials.h"
#include "store/url.h"
#include "util/log.h"
#include "util/text.h"
#include "workloads/workload.h"

/* The store @url as given, a file store made an absolute path. */
static int su_resolve(const char *url, char *buf, size_t len)
{
	char file[PATH_MAX], cwd[PATH_MAX];
	int ret;

	if (url && store_url_is_server(url)) {
		if ((size_t)snprintf(buf, len, "%s", url) < len)
			return 0;
		log_err("the store URL is too long");
		return EXIT_USAGE;
	}
	if ((ret = store_url_file(url, file, sizeof(file))))
		return ret;
	if (file[0] == '/') {
		snprintf(buf, len, "%s", file);
		return 0;
	}
	if (!getcwd(cwd, sizeof(cwd))) {
		log_err("cannot tell the current directory: %s", strerror(errno));
		return EXIT_INTERNAL;
	}
	if ((size_t)snprintf(buf, len, "%s/%s", cwd, file) >= len) {
		log_err("the store path %s/%s is too long", cwd, file);
		return EXIT_USAGE;
	}
	return 0;
}

/* Where a campaign keeps a server's password for libpq: ${XDG_CONFIG_HOME:-~/.config}/clearpath/pgpass. */
static int su_passfile(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	int n;

	if (xdg && *xdg == '/')
		n = snprintf(buf, len, "%s/clearpath/pgpass", xdg);
	else if (home && *home == '/')
		n = snprintf(buf, len, "%s/.config/clearpath/pgpass", home);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* The password of @buf moved into the passfile: @buf then names the passfile instead. */
static int su_stash(char *buf, size_t len, bool keep)
{
	char passfile[PATH_MAX], *clean = NULL;
	int err = su_passfile(passfile, sizeof(passfile));

	if (!err)
		err = store_url_stash_password(buf, passfile, keep, &clean);
	if (!err && strlen(clean) >= len)
		err = -ENAMETOOLONG;
	if (!err)
		snprintf(buf, len, "%s", clean);
	free(clean);
	if (!err)
		return 0;
	if (err == -EINVAL)
		log_err("the store URL does not read as a PostgreSQL connection");
	else
		log_err("cannot keep the store's password in %s: %s", passfile, strerror(-err));
	log_hint("or keep it in ~/.pgpass, or a service file (PGSERVICEFILE), and leave it out of the URL");
	return err == -EINVAL ? EXIT_USAGE : EXIT_RESOURCE;
}

int campaign_store_url(const char *url, bool dry_run, char *buf, size_t len)
{
	int ret = su_resolve(url, buf, len);
	char *shown;

	/* every process after this one gets the URL: its argv, the unit, the messages */
	if (!ret && store_url_is_server(buf))
		ret = su_stash(buf, len, !dry_run);
	for (const char *s = buf; !ret && *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f) {
			shown = text_one_line_dup(buf);
			log_err("the store %s has a control character (a line break?) in its path", shown ? shown : "");
			log_hint("put the store in a directory whose path is one line of printable characters");
			free(shown);
			ret = EXIT_USAGE;
		}
	return ret;
}

int campaign_store_open(const char *url, struct store **st)
{
	char file[PATH_MAX];

	*st = NULL;
	if (!store_url_is_server(url) && !store_url_file(url, file, sizeof(file)) && access(file, F_OK)) {
		log_err("the campaign's store %s is gone (%s): it is not made again, empty", file, strerror(errno));
		log_hint("put it back where it was, then 'clearpath campaign continue'");
		return EXIT_RESOURCE;
	}
	return store_url_open(url, wl_identity_parse, st);
}
