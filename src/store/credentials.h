/* credentials: a store URL's password kept where libpq finds it (a pgpass file), never in the URL that is recorded and passed on. */
#ifndef CLEARPATH_STORE_CREDENTIALS_H
#define CLEARPATH_STORE_CREDENTIALS_H

#include <stdbool.h>

/* Whether @url names a database server (PostgreSQL, either form) rather than a file. */
bool store_url_is_server(const char *url);

/*
 * @url with its password (postgresql://user:secret@..., ?password=, or the
 * keyword form's password=) moved into @passfile, libpq's own pgpass file
 * (created 0600 in a private directory, the line for the same host, port,
 * database and user replaced, never through a link): *@out (free() it) is
 * the same connection in libpq's keyword form without the password,
 * naming passfile=@passfile, so it can be recorded (the systemd unit),
 * shown and handed to other processes (their argv) without the secret.  A
 * URL without a password, or not a PostgreSQL one, comes back as it is.
 * Without @keep nothing is written (a dry run: the URL it would be).
 * 0, or -EINVAL (a URL libpq cannot parse), -EPERM (@passfile's directory
 * is a link, someone else's or writable by others), -errno.  Logs nothing.
 */
int store_url_stash_password(const char *url, const char *passfile, bool keep, char **out);

#endif
