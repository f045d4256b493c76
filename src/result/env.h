/* env: what the sessions' environments say about a comparison (settings that differ from the base, 4KB rows that ran with THP always). */
#ifndef CLEARPATH_RESULT_ENV_H
#define CLEARPATH_RESULT_ENV_H

#include "compare/compare.h"

#include <jansson.h>
#include <stdbool.h>

/*
 * The relevant settings (doctor's snapshot) in which each column of @blk
 * differs from the base column, as a new array of {column, setting, base,
 * value}; empty when they agree or nothing is known (@envs NULL).  NULL only
 * when out of memory.
 */
json_t *result_env_diffs(const struct cmp_set *s, const struct cmp_block *blk, const json_t *envs);

/*
 * Whether @row is an mmap result at 4KB pages that left THP to the system
 * (no --thp always/never): one the system's THP setting decides the meaning of.
 */
bool result_thp_row(const struct cmp_row *row);

/*
 * The rows of @blk (result_thp_row) that ran with THP enabled=always in some
 * column, so they measured mostly 2MB THP faults, not 4KB faults: a new
 * array of {resultclass, unit, columns: [names]}, from each session's
 * environment in @envs (uuid -> snapshot; NULL: nothing known, empty).
 * NULL only when out of memory.
 */
json_t *result_thp_always(const struct cmp_set *s, const struct cmp_block *blk, const json_t *envs);

/* Session UUID -> environment of the sessions @sessions lists (store_list_sessions); NULL when out of memory. */
json_t *result_env_index(const json_t *sessions);

#endif
