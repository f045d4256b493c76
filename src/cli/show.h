/* show: what `clearpath show` and `clearpath report` add to a comparison beside a report format (settings warnings, the profile summary). */
#ifndef CLEARPATH_CLI_SHOW_H
#define CLEARPATH_CLI_SHOW_H

#include "compare/compare.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/*
 * The relevant settings (doctor's snapshot) in which each column of @blk
 * differs from the base column, as a new array of {column, setting, base,
 * value}; empty when they agree or nothing is known (@envs NULL).  NULL only
 * when out of memory.
 */
json_t *show_env_diffs(const struct cmp_set *s, const struct cmp_block *blk, const json_t *envs);

/*
 * Whether @row is an mmap result at 4KB pages that left THP to the system
 * (no --thp always/never): one the system's THP setting decides the meaning of.
 */
bool show_thp_row(const struct cmp_row *row);

/*
 * The rows of @blk (show_thp_row) that ran with THP enabled=always in some
 * column, so they measured mostly 2MB THP faults, not 4KB faults: a new
 * array of {resultclass, unit, columns: [names]}, from each session's
 * environment in @envs (uuid -> snapshot; NULL: nothing known, empty).
 * NULL only when out of memory.
 */
json_t *show_thp_always(const struct cmp_set *s, const struct cmp_block *blk, const json_t *envs);

struct store;
struct rpt_header;

/*
 * What the header (report/header.h) is built from: the store's sessions,
 * SUT classes and swprofiles as {sessions, suts, swprofiles}, read while the
 * store is open.  A new reference; NULL after log_err() when a listing failed.
 */
json_t *show_header_inputs(struct store *st);

/* The header of the finished comparison @set from @inputs (show_header_inputs); NULL when out of memory. */
struct rpt_header *show_header_build(const struct cmp_set *set, const json_t *inputs);

/* Session UUID -> environment of the sessions @sessions lists (store_list_sessions); NULL when out of memory. */
json_t *show_env_index(const json_t *sessions);

/*
 * What @fn (show_env_diffs, show_thp_always) finds in @envs for every block
 * of @set, as a new array of nblocks (entries NULL when out of memory); NULL
 * when out of memory.
 */
json_t **show_settings(const struct cmp_set *set, const json_t *envs,
		       json_t *(*fn)(const struct cmp_set *s, const struct cmp_block *blk, const json_t *envs));
/* Free what show_settings() returned for a set of @n blocks; NULL is fine. */
void show_settings_free(json_t **diffs, size_t n);

/*
 * `show --profile`: per block and benchmark of @s (profile classes only,
 * report/profile.h), how each column's sessions sampled (from @envs,
 * session UUID -> environment), each column's clearing share and top
 * symbols with their change from the base column in percentage points (and
 * how many runs a symbol's share covers where that is fewer than the
 * column's), and the bound each column's share sets.  0 or -ENOMEM.
 */
int show_profile_render(const struct cmp_set *s, const json_t *envs, FILE *out);

/*
 * The same as JSON, per block (rpt_profiles_json), for rpt_result.profiles:
 * a new array of nblocks to free with show_settings_free(); NULL when out
 * of memory.
 */
json_t **show_profile_json(const struct cmp_set *s, const json_t *envs);

#endif
