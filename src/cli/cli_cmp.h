/* cli_cmp: a comparison loaded from a store, for the commands that judge stored samples. */
#ifndef CLEARPATH_CLI_CLI_CMP_H
#define CLEARPATH_CLI_CLI_CMP_H

#include "compare/compare.h"

#include <errno.h>
#include <stdbool.h>

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

/*
 * As cli_cmp_load(), with the result classes @apart says true for (the
 * --profile shares) kept apart, as `show` keeps them: the others into *@out,
 * those into *@aside, finished as `show --profile` would with the columns
 * and base @o names where they have samples (NULL when none).  Returns 0 or
 * an exit code after log_err().
 */
int cli_cmp_load_apart(const char *store_url, const struct cmp_opts *o, bool (*apart)(const char *rclass),
		       struct cmp_set **out, struct cmp_set **aside);

#endif
