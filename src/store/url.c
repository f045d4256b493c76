/* url: resolve --store / $CLEARPATH_STORE / the XDG default and open it with the right exit codes. */
#include "store/url.h"
#include "store/store.h"
#include "store/db.h"
#include "util/log.h"

#include <errno.h>
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
	default:
		return EXIT_RESOURCE;
	}
}

static int store_url_resolve(const char *url, char *buf, size_t len)
{
	if (url) {
		snprintf(buf, len, "%s", url);
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
	char buf[PATH_MAX + 16];
	int ret = store_url_resolve(url, buf, sizeof(buf));

	*out = NULL;
	if (ret)
		return ret;
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
	int ret = store_url_file(url, path, sizeof(path));

	*out = NULL;
	if (ret)
		return ret;
	if (access(path, F_OK)) {
		log_err("no store at %s", path);
		log_hint("'clearpath run -- mem memset ...' creates one; --store or $CLEARPATH_STORE pick another");
		return EXIT_USAGE;
	}
	return store_exit_code(store_open(path, out));
}
