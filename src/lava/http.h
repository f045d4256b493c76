/* http: the lava module's requests to its server (private to src/lava). */
#ifndef CLEARPATH_LAVA_HTTP_H
#define CLEARPATH_LAVA_HTTP_H

#include <jansson.h>

#include "lava/lava.h"

/* @url as the server's base URL (malloc'd into *@base): 0, or EXIT_USAGE after log_err(). */
int lava_http_base(const char *url, char **base);

/*
 * @method @path (relative to the base URL) with @body as JSON (NULL: none):
 * *@status the HTTP status, *@text the body (malloc'd, NUL-terminated; *@len
 * its length when @len is not NULL).  0 when an answer came, whatever its
 * status; EXIT_RESOURCE after log_err() when none did (refused, timed out,
 * larger than 64 MB), EXIT_INTERNAL when out of memory.
 */
int lava_http(struct lava *l, const char *method, const char *path, const json_t *body, long *status,
	      char **text, size_t *len);

/*
 * The same for an answer that must have status @expect and be a JSON object,
 * into *@out (json_decref() it).  Another status is said with the server's
 * own message: EXIT_USAGE for a refusal of what was asked (4xx), else
 * EXIT_RESOURCE.
 */
int lava_http_json(struct lava *l, const char *method, const char *path, const json_t *body, long expect,
		   json_t **out);

#endif
