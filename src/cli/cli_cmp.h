/* cli_cmp: a comparison loaded from a store, for the commands that judge stored samples. */
#ifndef CLEARPATH_CLI_CLI_CMP_H
#define CLEARPATH_CLI_CLI_CMP_H

#include "compare/compare.h"

#include <errno.h>

struct store_row;

/* The comparison's view of one stored sample row (pointers into @row). */
struct cmp_sample cli_cmp_sample(const struct store_row *row);

/*
 * Every sample of the store at @store_url (NULL: the default) that @o keeps,
 * grouped and computed (cmp_finish) into a new *@out.  Returns 0, or an exit
 * code after log_err() (no store, no samples, a read error).
 */
int cli_cmp_load(const char *store_url, const struct cmp_opts *o, struct cmp_set **out);

/* As cli_cmp_load(), but a store without samples @o keeps is 0 with *@out NULL, not an error. */
int cli_cmp_load_any(const char *store_url, const struct cmp_opts *o, struct cmp_set **out);

#endif
