/* url: resolve --store / $CLEARPATH_STORE / the XDG default and open it with the right exit codes. */
#define _GNU_SOURCE	/* memrchr */
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

int store_url_open(const char *url, ident_parse_fn parse, struct store **out)
{
	return store_url_open_new(url, parse, out, NULL);
}

int store_url_open_new(const char *url, ident_parse_fn parse, struct store **out, bool *created)
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
	return store_exit_code(store_open(buf, parse, out));
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

int store_url_open_existing(const char *url, ident_parse_fn parse, struct store **out)
{
	char path[PATH_MAX + 16];
	int ret = store_url_resolve(url, path, sizeof(path));

	*out = NULL;
	if (ret)
		return ret;
	if (store_url_is_postgresql(path))
		return store_exit_code(store_open_readonly(path, parse, out));
	ret = store_url_file(url, path, sizeof(path));
	if (ret)
		return ret;
	if (access(path, F_OK)) {
		log_err("no store at %s", path);
		log_hint("'clearpath run -- mem memset ...' creates one; --store or $CLEARPATH_STORE pick another");
		return EXIT_USAGE;
	}
	return store_exit_code(store_open_readonly(path, parse, out));
}

/* The end of a libpq keyword value at @p: a quoted one ends after its closing quote (or at the end). */
static const char *kw_value_end(const char *p)
{
	if (*p == '\'') {
		const char *close = p + 1;

		while (*close && *close != '\'') {
			if (*close == '\\' && close[1])
				close++;
			close++;
		}
		return *close ? close + 1 : close;
	}
	return p + strcspn(p, " \t\n");
}

/* The value of hex digit @c, or -1. */
static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/*
 * Whether the query parameter name @k (@n bytes, percent-encoded as a URI
 * may write it: libpq decodes "pass%77ord" to "password") is "password".
 */
static bool query_key_is_password(const char *k, size_t n)
{
	static const char want[] = "password";
	size_t w = 0;

	for (size_t i = 0; i < n; w++) {
		int c = (unsigned char)k[i];

		if (c == '%' && i + 2 < n && hex_digit(k[i + 1]) >= 0 && hex_digit(k[i + 2]) >= 0) {
			c = hex_digit(k[i + 1]) * 16 + hex_digit(k[i + 2]);
			i += 3;
		} else {
			i++;
		}
		if (w >= sizeof(want) - 1 || c != want[w])
			return false;
	}
	return w == sizeof(want) - 1;
}

/* Copy URI query @p (after its '?') to @q with each password parameter's value as "***"; the end of @q. */
static char *query_display(const char *p, char *q)
{
	while (*p && *p != '#') {
		size_t len = strcspn(p, "&#"), key = strcspn(p, "=&#");

		if (key < len && query_key_is_password(p, key)) {
			q += sprintf(q, "%.*s=***", (int)key, p);
		} else {
			memcpy(q, p, len);
			q += len;
		}
		p += len;
		if (*p == '&')
			*q++ = *p++;
	}
	return q + sprintf(q, "%s", p);
}

char *store_url_display(const char *url)
{
	/* "password=" + value becomes "password=***": at most 3 bytes more per 9 taken. */
	char *out = malloc(2 * strlen(url) + 16), *q = out;
	const char *p = url, *scheme = strstr(url, "://");

	if (!out)
		return NULL;
	if (scheme) {
		const char *auth = scheme + 3, *end = auth + strcspn(auth, "/?#");
		const char *at = memrchr(auth, '@', (size_t)(end - auth));
		const char *colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
		const char *query;

		if (colon) {
			q += sprintf(q, "%.*s:***", (int)(colon - url), url);
			p = at;
		}
		/* libpq takes a password in the query too: postgresql://db/lab?user=ci&password=... */
		query = strchr(p, '?');
		if (query && (!strchr(p, '#') || query < strchr(p, '#'))) {
			memcpy(q, p, (size_t)(query - p) + 1);
			q += query - p + 1;
			query_display(query + 1, q);
		} else {
			strcpy(q, p);
		}
		return out;
	}
	while (*p) {
		if (!strncmp(p, "password", 8) && (p == url || strchr(" \t\n", p[-1]))) {
			const char *eq = p + 8 + strspn(p + 8, " \t\n");

			if (*eq == '=') {
				q += sprintf(q, "password=***");
				p = kw_value_end(eq + 1 + strspn(eq + 1, " \t\n"));
				continue;
			}
		}
		*q++ = *p++;
	}
	*q = '\0';
	return out;
}
