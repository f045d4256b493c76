/* url: find and open the store a command names (--store, $CLEARPATH_STORE, the XDG default). */
#ifndef CLEARPATH_STORE_URL_H
#define CLEARPATH_STORE_URL_H

#include <stdbool.h>
#include <stddef.h>

#include "util/identity.h"

struct store;

/*
 * Open the store at @url (NULL: the default location), creating it when
 * missing, with @parse for its stored benchmark text (store_open();
 * wl_identity_parse()).  Returns 0, or an exit code after log_err().
 */
int store_url_open(const char *url, ident_parse_fn parse, struct store **out);

/*
 * store_url_open(), and *@created (may be NULL) says whether the store file
 * did not exist before, so a failing command can store_discard() it.
 */
int store_url_open_new(const char *url, ident_parse_fn parse, struct store **out, bool *created);

/*
 * Open the store at @url (NULL: the default) for reading only: a store that
 * does not exist yet is an error (exit 2) saying how to make one, not a new
 * empty file, and nothing is written (store_open_readonly()), so another
 * user's store or a read-only mount can be read.  Returns 0, or an exit code
 * after log_err().
 */
int store_url_open_existing(const char *url, ident_parse_fn parse, struct store **out);

/*
 * The file behind @url (NULL: the default store), e.g. for files kept next
 * to it.  Returns 0, or EXIT_USAGE after log_err() for a URL that is not a
 * file.
 */
int store_url_file(const char *url, char *buf, size_t len);

/*
 * @url as messages may show it: a password in it (postgresql://user:secret@...
 * or libpq's password=secret, quoted or not) becomes "***".  A new string
 * (free() it), or NULL when out of memory.
 */
char *store_url_display(const char *url);

/* The exit code for a negative errno from the store (see store.h). */
int store_exit_code(int err);

#endif
