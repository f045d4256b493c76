/* shquote: words quoted for a POSIX shell, allocated to their length: boot commands, commands run over ssh, hints. */
#ifndef CLEARPATH_UTIL_SHQUOTE_H
#define CLEARPATH_UTIL_SHQUOTE_H

/*
 * @s as one word for /bin/sh: as it is when it has only characters the
 * shell takes literally (letters, digits, _-+=.,/:@%), else single-quoted
 * with each ' written as '\''.  malloc'd; NULL when out of memory.
 */
char *sh_quote(const char *s);

/* @s always single-quoted ('it'\''s'), malloc'd; NULL when out of memory. */
char *sh_quote_always(const char *s);

/* The NULL-terminated @argv, each word sh_quote()d, joined by spaces; malloc'd, NULL when out of memory. */
char *sh_join(const char *const *argv);

#endif
