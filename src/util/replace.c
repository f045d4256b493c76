/* replace: write a file whole or not at all, through a temporary file beside it renamed over it once complete. */
#include "util/replace.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *replace_target(const char *path)
{
	char *p = strdup(path);

	for (int hops = 0; p && hops < 40; hops++) {
		char link[PATH_MAX], *next;
		const char *slash;
		struct stat sb;
		ssize_t n;

		if (lstat(p, &sb) || !S_ISLNK(sb.st_mode))
			return p;
		n = readlink(p, link, sizeof(link) - 1);
		if (n < 0) {
			free(p);
			return NULL;
		}
		link[n] = '\0';
		/* A relative link is relative to the directory holding it. */
		slash = strrchr(p, '/');
		next = malloc(strlen(p) + strlen(link) + 3);
		if (next && link[0] == '/')
			strcpy(next, link);
		else if (next)
			sprintf(next, "%.*s/%s", slash ? (int)(slash - p) : 1, slash ? p : ".", link);
		free(p);
		p = next;
	}
	if (p) {
		free(p);
		errno = ELOOP;
	}
	return NULL;
}

int replace_open(struct replace *r, const char *path)
{
	mode_t mask = umask(0);
	struct stat sb;
	int fd, err;

	umask(mask);
	memset(r, 0, sizeof(*r));
	if (!stat(path, &sb) && (S_ISCHR(sb.st_mode) || S_ISFIFO(sb.st_mode))) {
		r->f = fopen(path, "w");
		return r->f ? 0 : -errno;
	}
	if (!stat(path, &sb) && !S_ISREG(sb.st_mode))
		return S_ISDIR(sb.st_mode) ? -EISDIR : -EINVAL;
	if (!(r->target = replace_target(path)))
		return -errno;
	if (snprintf(r->tmp, sizeof(r->tmp), "%s.tmp-XXXXXX", r->target) >= (int)sizeof(r->tmp)) {
		err = -ENAMETOOLONG;
		goto fail;
	}
	if ((fd = mkstemp(r->tmp)) < 0) {
		err = -errno;
		goto fail;
	}
	/* mkstemp() makes it 0600; the file is an ordinary one the user's umask governs */
	fchmod(fd, 0666 & ~mask);
	if (!(r->f = fdopen(fd, "w"))) {
		err = -errno;
		close(fd);
		unlink(r->tmp);
		goto fail;
	}
	return 0;
fail:
	free(r->target);
	r->target = NULL;
	return err;
}

int replace_commit(struct replace *r, int err)
{
	/* synced before the rename, so a crash right after cannot leave the file empty */
	if (!err && fflush(r->f))
		err = -errno;
	if (!err && r->target && fsync(fileno(r->f)))
		err = -errno;
	if (fclose(r->f) && !err)
		err = errno ? -errno : -EIO;
	r->f = NULL;
	if (r->target) {
		if (!err && rename(r->tmp, r->target))
			err = -errno;
		if (err)
			unlink(r->tmp);
		free(r->target);
		r->target = NULL;
	}
	return err;
}

static bool is_sqlite_file(const char *path)
{
	static const char magic[16] = "SQLite format 3";	/* and its NUL: the first 16 bytes of every database */
	char head[sizeof(magic)];
	struct stat sb;
	FILE *f;
	bool db;

	if (stat(path, &sb) || !S_ISREG(sb.st_mode) || !(f = fopen(path, "rb")))
		return false;
	db = fread(head, 1, sizeof(head), f) == sizeof(head) && !memcmp(head, magic, sizeof(magic));
	fclose(f);
	return db;
}

/* The files SQLite keeps beside a database DB, named DB<suffix>. */
static const struct {
	const char *suffix;
	const char *what;
} companions[] = {
	{ "-wal", "write-ahead log (-wal)" },
	{ "-shm", "shared-memory index (-shm)" },
	{ "-journal", "rollback journal (-journal)" },
};

bool replace_is_database(const char *path, const char **part)
{
	char *target = replace_target(path);
	bool db = false;

	if (part)
		*part = NULL;
	if (!target)
		return false;
	db = is_sqlite_file(target);
	for (size_t i = 0; !db && i < sizeof(companions) / sizeof(companions[0]); i++) {
		size_t n = strlen(target), k = strlen(companions[i].suffix);

		if (n <= k || strcmp(target + n - k, companions[i].suffix))
			continue;
		target[n - k] = '\0';
		if ((db = is_sqlite_file(target)) && part)
			*part = companions[i].what;
		target[n - k] = companions[i].suffix[0];
	}
	free(target);
	return db;
}

int replace_write_mode(const char *path, const char *text, unsigned mode, bool exclusive)
{
	char tmp[PATH_MAX];
	size_t len = strlen(text);
	int fd, err = 0;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= sizeof(tmp))
		return -ENAMETOOLONG;
	if ((fd = mkstemp(tmp)) < 0)
		return -errno;
	errno = 0;
	if (fchmod(fd, (mode_t)mode) || write(fd, text, len) != (ssize_t)len || fsync(fd))
		err = errno ? -errno : -EIO;
	if (close(fd) && !err)
		err = -errno;
	if (!err && (exclusive ? link(tmp, path) : rename(tmp, path)))
		err = -errno;
	if (err || exclusive)
		unlink(tmp);
	return err;
}
