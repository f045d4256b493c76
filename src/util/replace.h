/* replace: write a file whole or not at all, through a temporary file beside it renamed over it once complete. */
#ifndef CLEARPATH_UTIL_REPLACE_H
#define CLEARPATH_UTIL_REPLACE_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

/*
 * The file @path finally names, following symbolic links even when the last
 * one dangles (the writer then creates it).  A new string, or NULL with errno
 * (ELOOP after 40 links).
 */
char *replace_target(const char *path);

/*
 * Whether @path (followed through links) is part of an SQLite database: an
 * output (a page, an export) must never replace one, it may be the user's
 * store.  Either the database itself (*@part NULL), or a file named DB-wal,
 * DB-shm or DB-journal beside a database DB, whether it exists yet or not (a
 * writer may be using or about to create it, and replacing its write-ahead
 * log loses committed samples): then *@part says which ("write-ahead log
 * (-wal)").  @part may be NULL.
 */
bool replace_is_database(const char *path, const char **part);

/* A file being replaced: write to @f, then replace_commit(). */
struct replace {
	FILE *f;
	char *target;		/* the file renamed over; NULL when written in place (a device, a FIFO) */
	char tmp[PATH_MAX];
};

/*
 * Open @path for writing whole: a regular file (or a link to one, or nothing
 * yet) through a temporary file beside it, with the mode the umask gives a new
 * file; a character device or FIFO (/dev/stdout) as it is.  0 or -errno
 * (-EISDIR for a directory, -EINVAL for any other special file).
 */
int replace_open(struct replace *r, const char *path);

/*
 * Finish what replace_open() began.  With @err 0 the data is flushed, synced
 * and renamed over the target, so a failure (disk full, a crash) leaves what
 * was there before; with @err non-zero the temporary file is removed.  Returns
 * @err, or the first error of finishing (-errno).
 */
int replace_commit(struct replace *r, int err);

/*
 * Write @text as the file @path with exactly @mode (whatever the umask),
 * never through a link: into a private temporary file beside it (O_EXCL),
 * synced, then put in place, with @exclusive only where nothing is (a file
 * or link there is -EEXIST, nothing written), else renamed over what is
 * there (a link there is replaced, not followed).  0 or -errno.
 */
int replace_write_mode(const char *path, const char *text, unsigned mode, bool exclusive);

#endif
