/* credentials: a PostgreSQL URL's password moved into a pgpass file libpq reads, so the URL can be kept, shown and passed on. */
#define _GNU_SOURCE	/* asprintf */
#include "store/credentials.h"
#include "store/db.h"
#include "util/replace.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool store_url_is_server(const char *url)
{
	return store_url_is_postgresql(url);
}

#ifdef CLEARPATH_HAVE_LIBPQ
#include <libpq-fe.h>

#define PASSFILE_MAX 65536

/* The value of option @key in @opts, or NULL. */
static const char *cred_opt(const PQconninfoOption *opts, const char *key)
{
	for (const PQconninfoOption *o = opts; o->keyword; o++)
		if (!strcmp(o->keyword, key))
			return o->val && *o->val ? o->val : NULL;
	return NULL;
}

/* @s with @special characters escaped by a backslash, appended to @out at *@n.  -ENOMEM. */
static int cred_append(char **out, size_t *n, const char *s, const char *special)
{
	size_t need = *n + 2 * strlen(s) + 1;
	char *grown = realloc(*out, need);

	if (!grown)
		return -ENOMEM;
	*out = grown;
	for (; *s; s++) {
		if (strchr(special, *s))
			grown[(*n)++] = '\\';
		grown[(*n)++] = *s;
	}
	grown[*n] = '\0';
	return 0;
}

/*
 * The pgpass line for @opts: host:port:database:user:password, each field
 * as the URL names it ('*' when it names none; libpq matches a socket
 * connection as localhost), ':' and '\' escaped.
 */
static char *cred_line(const PQconninfoOption *opts, const char *password)
{
	const char *fields[5] = { cred_opt(opts, "host"), cred_opt(opts, "port"), cred_opt(opts, "dbname"),
				  cred_opt(opts, "user"), password };
	char *line = NULL;
	size_t n = 0;
	int err = 0;

	if (!fields[0] || strchr(fields[0], ','))
		fields[0] = fields[0] ? "*" : "localhost";
	for (size_t i = 0; !err && i < 5; i++) {
		err = cred_append(&line, &n, fields[i] ? fields[i] : "*", i < 4 && !fields[i] ? "" : ":\\");
		if (!err && i < 4)
			err = cred_append(&line, &n, ":", "");
	}
	if (err) {
		free(line);
		return NULL;
	}
	return line;
}

/* The line's first four fields and their colon: what says which server, database and user it is for. */
static size_t cred_key_len(const char *line)
{
	size_t fields = 0, i = 0;

	for (; line[i] && fields < 4; i++) {
		if (line[i] == '\\' && line[i + 1])
			i++;
		else if (line[i] == ':')
			fields++;
	}
	return i;
}

/* The passfile's text now (empty when missing), read without following a link. */
static int cred_read(const char *path, char **text)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	ssize_t n;

	*text = calloc(1, PASSFILE_MAX + 1);
	if (!*text)
		return -ENOMEM;
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	n = read(fd, *text, PASSFILE_MAX);
	close(fd);
	return n < 0 ? -EIO : 0;
}

/* @old without the line for @line's server, database and user, then @line. */
static char *cred_merge(const char *old, const char *line)
{
	size_t key = cred_key_len(line), n = 0;
	char *out = malloc(strlen(old) + strlen(line) + 2);

	if (!out)
		return NULL;
	for (const char *l = old; *l;) {
		size_t len = strcspn(l, "\n");

		if (len && (len < key || strncmp(l, line, key))) {
			memcpy(out + n, l, len);
			out[n + len] = '\n';
			n += len + 1;
		}
		l += len + (l[len] == '\n');
	}
	sprintf(out + n, "%s\n", line);
	return out;
}

/* The passfile's directory, made private when missing; refused when it is a link or others may write there. */
static int cred_dir(const char *passfile)
{
	char dir[PATH_MAX];
	struct stat st;
	const char *slash = strrchr(passfile, '/');

	if (!slash || (size_t)(slash - passfile) >= sizeof(dir))
		return -EINVAL;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - passfile), passfile);
	/* mkdir -p, each directory made private (~/.config may not exist yet) */
	for (char *s = strchr(dir + 1, '/');; s = strchr(s + 1, '/')) {
		if (s)
			*s = '\0';
		if (mkdir(dir, 0700) && errno != EEXIST)
			return -errno;
		if (!s)
			break;
		*s = '/';
	}
	if (lstat(dir, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022))
		return -EPERM;
	return 0;
}

/* Keep @password for @opts in @passfile. */
static int cred_keep(const PQconninfoOption *opts, const char *password, const char *passfile)
{
	char *line = cred_line(opts, password), *old = NULL, *text = NULL;
	int err = line ? cred_dir(passfile) : -ENOMEM;

	if (!err)
		err = cred_read(passfile, &old);
	if (!err)
		err = (text = cred_merge(old, line)) ? replace_write_mode(passfile, text, 0600, false) : -ENOMEM;
	/* the password was in these buffers: gone before they are freed */
	if (line)
		explicit_bzero(line, strlen(line));
	if (old)
		explicit_bzero(old, strlen(old));
	if (text)
		explicit_bzero(text, strlen(text));
	free(line);
	free(old);
	free(text);
	return err;
}

/* @opts as libpq's keyword/value string, every option but the password, with passfile=@passfile. */
static char *cred_conninfo(const PQconninfoOption *opts, const char *passfile)
{
	char *out = strdup(""), *value;
	size_t n = 0;
	int err = out ? 0 : -ENOMEM;

	for (const PQconninfoOption *o = opts; !err && o->keyword; o++) {
		bool pass = !strcmp(o->keyword, "passfile");

		if (!strcmp(o->keyword, "password") || (!pass && (!o->val || !*o->val)))
			continue;
		value = (char *)(pass ? passfile : o->val);
		err = cred_append(&out, &n, n ? " " : "", "") ?: cred_append(&out, &n, o->keyword, "") ?:
		      cred_append(&out, &n, "='", "") ?: cred_append(&out, &n, value, "'\\") ?:
		      cred_append(&out, &n, "'", "");
	}
	if (err) {
		free(out);
		return NULL;
	}
	return out;
}

int store_url_stash_password(const char *url, const char *passfile, bool keep, char **out)
{
	PQconninfoOption *opts;
	const char *password;
	char *err = NULL;
	int ret = 0;

	*out = NULL;
	if (!store_url_is_postgresql(url))
		return (*out = strdup(url)) ? 0 : -ENOMEM;
	if (!(opts = PQconninfoParse(url, &err))) {
		PQfreemem(err);
		return -EINVAL;
	}
	password = cred_opt(opts, "password");
	if (!password)
		*out = strdup(url);
	else if (!keep || !(ret = cred_keep(opts, password, passfile)))
		*out = cred_conninfo(opts, passfile);
	for (PQconninfoOption *o = opts; o->keyword; o++)
		if (o->val && !strcmp(o->keyword, "password"))
			explicit_bzero(o->val, strlen(o->val));
	PQconninfoFree(opts);
	return ret ? ret : *out ? 0 : -ENOMEM;
}

#else

int store_url_stash_password(const char *url, const char *passfile, bool keep, char **out)
{
	/* without libpq a PostgreSQL URL is refused when opened, with what to build */
	(void)passfile;
	(void)keep;
	return (*out = strdup(url)) ? 0 : -ENOMEM;
}

#endif
