/* url: resolve --store / $CLEARPATH_STORE / the XDG default and open it with the right exit codes. */
#include "store/url.h"
#include "store/store.h"
#include "store/db.h"
#include "util/log.h"

#include <errno.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int store_exit_code(int err)
{
	switch (err) {
	case 0:
		return EXIT_OK;
	case -EINVAL:
	case -EEXIST:
	case -EPROTO:
		return EXIT_USAGE;
	case -ENOMEM:
		return EXIT_INTERNAL;
	case -ENOTSUP:		/* a backend this build was made without */
	default:
		return EXIT_RESOURCE;
	}
}

/*
 * The parents of the default store's directory (~/.local/share on a fresh
 * account), which clearpath chose itself, so it may create them; a path the
 * user gave gets only its own directory created (store_open()).
 */
static void make_default_parents(const char *path)
{
	char dir[PATH_MAX + 16], *p;

	snprintf(dir, sizeof(dir), "%s", path);
	p = strrchr(dir, '/');
	if (p)
		*p = '\0';	/* the store's own directory: store_open() creates it */
	p = strrchr(dir, '/');
	if (!p || p == dir)
		return;
	*p = '\0';
	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(dir, 0777);	/* failures surface when the store is created */
		*p = '/';
	}
	mkdir(dir, 0777);
}

static int store_url_resolve(const char *url, char *buf, size_t len)
{
	if (url) {
		if (snprintf(buf, len, "%s", url) >= (int)len) {
			log_err("store path is too long (%zu bytes; at most %zu)", strlen(url), len - 1);
			return EXIT_USAGE;
		}
		return 0;
	}
	if (store_default_url(buf, len)) {
		log_err("cannot find a place for the store: set $CLEARPATH_STORE or use --store");
		return EXIT_USAGE;
	}
	return 0;
}

int store_url_open(const char *url, struct store **out)
{
	return store_url_open_new(url, out, NULL);
}

int store_url_open_new(const char *url, struct store **out, bool *created)
{
	const char *env = getenv("CLEARPATH_STORE");
	char buf[PATH_MAX + 16];
	char *path;
	int ret = store_url_resolve(url, buf, sizeof(buf));

	*out = NULL;
	if (ret)
		return ret;
	if (!url && (!env || !*env))
		make_default_parents(buf);
	if (created && store_url_is_postgresql(buf)) {
		*created = false;	/* a database is created by its administrator, never by clearpath */
	} else if (created) {
		path = store_url_path(buf);
		if (!path)
			return EXIT_USAGE;
		*created = access(path, F_OK) != 0;
		free(path);
	}
	return store_exit_code(store_open(buf, out));
}

int store_url_file(const char *url, char *buf, size_t len)
{
	char full[PATH_MAX + 16];
	char *path;
	int ret = store_url_resolve(url, full, sizeof(full));

	if (ret)
		return ret;
	path = store_url_path(full);	/* says what is wrong with the URL */
	if (!path)
		return EXIT_USAGE;
	snprintf(buf, len, "%s", path);
	free(path);
	return 0;
}

int store_url_open_existing(const char *url, struct store **out)
{
	char path[PATH_MAX + 16];
	int ret = store_url_resolve(url, path, sizeof(path));

	*out = NULL;
	if (ret)
		return ret;
	if (store_url_is_postgresql(path))
		return store_exit_code(store_open_readonly(path, out));
	ret = store_url_file(url, path, sizeof(path));
	if (ret)
		return ret;
	if (access(path, F_OK)) {
		log_err("no store at %s", path);
		log_hint("'clearpath run -- mem memset ...' creates one; --store or $CLEARPATH_STORE pick another");
		return EXIT_USAGE;
	}
	return store_exit_code(store_open_readonly(path, out));
}
