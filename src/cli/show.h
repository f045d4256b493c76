/* show: what `clearpath show` adds to a comparison before a report format renders it (settings warnings). */
#ifndef CLEARPATH_CLI_SHOW_H
#define CLEARPATH_CLI_SHOW_H

#include "compare/compare.h"

#include <jansson.h>

/*
 * The relevant settings (doctor's snapshot) in which each column of @blk
 * differs from the base column, as a new array of {column, setting, base,
 * value}; empty when they agree or nothing is known (@envs NULL).  NULL only
 * when out of memory.
 */
json_t *show_env_diffs(const struct cmp_set *s, const struct cmp_block *blk, const json_t *envs);

#endif
