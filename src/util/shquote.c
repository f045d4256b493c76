/* shquote: POSIX shell quoting into buffers allocated to fit, so a long word is never cut short. */
#include "util/shquote.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define SH_PLAIN "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=.,/:@%"

static char *sh_single(const char *s)
{
	size_t n = 3;
	char *q, *p;

	for (const char *c = s; *c; c++)
		n += *c == '\'' ? 4 : 1;
	if (!(q = p = malloc(n)))
		return NULL;
	*p++ = '\'';
	for (const char *c = s; *c; c++) {
		if (*c == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else {
			*p++ = *c;
		}
	}
	*p++ = '\'';
	*p = '\0';
	return q;
}

char *sh_quote(const char *s)
{
	if (*s && strspn(s, SH_PLAIN) == strlen(s))
		return strdup(s);
	return sh_single(s);
}

char *sh_quote_always(const char *s)
{
	return sh_single(s);
}

char *sh_join(const char *const *argv)
{
	size_t len = 1, n = 0;
	char **q, *out = NULL, *p;
	bool ok = true;

	while (argv[n])
		n++;
	if (!(q = calloc(n ? n : 1, sizeof(*q))))
		return NULL;
	for (size_t i = 0; ok && i < n; i++) {
		ok = (q[i] = sh_quote(argv[i])) != NULL;
		len += ok ? strlen(q[i]) + 1 : 0;
	}
	if (ok && (out = p = malloc(len))) {
		*p = '\0';
		for (size_t i = 0; i < n; i++) {
			if (i)
				*p++ = ' ';
			p = stpcpy(p, q[i]);
		}
	}
	for (size_t i = 0; i < n; i++)
		free(q[i]);
	free(q);
	return out;
}
