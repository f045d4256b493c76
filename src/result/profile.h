/* profile: a comparison's --profile result classes grouped per benchmark (clearing share, top symbols, spread), for `show --profile` and the report. */
#ifndef CLEARPATH_RESULT_PROFILE_H
#define CLEARPATH_RESULT_PROFILE_H

#include "compare/compare.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Symbols shown per benchmark: the largest by their largest share in any column. */
#define RESULT_PROFILE_SHOWN 10

/* Whether result class @c holds --profile shares (its metric is one, IDENT_PROFILE_METRIC). */
bool result_profile_class(const struct ident_class *c);

/*
 * Whether block @blk holds --profile shares only (show --profile): shares of
 * one profile sum to 100%, so a geometric mean of their ratios means nothing.
 */
bool result_profile_only(const struct cmp_block *blk);

/*
 * One benchmark's profile in one block: its clearing-share row and its
 * symbol rows (each column's stored top five, the union), pointers into the
 * set.  A column without a value has no samples of it: never a zero.
 */
struct result_profile {
	const char *bench;		/* the Benchmark column ("mem") */
	const char *name;		/* the benchmark part of the result classes' names: @namelen bytes */
	size_t namelen;
	const struct ident_class *ident;	/* the first row's: the profile's benchmark */
	const struct cmp_row *clearing;	/* NULL: none stored */
	const struct cmp_row **syms;	/* by their largest share in any column, largest first */
	size_t nsyms;
};

/* Block @b's profiles, in the order their benchmarks first appear, into *@out (*@n).  0 or -ENOMEM. */
int result_profiles_of(const struct cmp_set *s, size_t b, struct result_profile **out, size_t *n);
void result_profiles_free(struct result_profile *p, size_t n);

/* The symbol of profile row @r ("clearing" for the category). */
const char *result_profile_symbol(const struct cmp_row *r);

/*
 * Column @col's share in profile row @r: the cell's level, the one estimate
 * its table row prints (result_level_of()), over every profiled run of
 * the column: a run keeps its top five symbols, so where a run did not
 * store @r its share there counts 0 (cmp_cell.absent; what it was is below
 * the fifth, unknown).  So a member is never above its category (each
 * run's member share is at most that run's clearing share).  NAN when no
 * run of the column stored @r.
 */
double result_profile_share(const struct cmp_set *s, const struct cmp_row *r, size_t col);

/* The mean of @r's share over the runs of column @col that stored it (larger when some did not); NAN when none did. */
double result_profile_share_in_runs(const struct cmp_row *r, size_t col);

/*
 * Whether symbol @name is a page-clearing function of either architecture's
 * clearing category (the store keeps the name, not the machine's verdict).
 */
bool result_profile_clearing_symbol(const char *name);

/*
 * How much of column @col's profile symbol row @r covers.  A run stores its
 * top five symbols; the column's profiled runs are its clearing share's
 * (every profiled run stores one).  @partial: some but fewer than those
 * stored it, so its share counts the others 0 (in none, the column has no
 * share of it).
 */
struct result_profile_cover {
	size_t runs, of_runs;		/* samples of @r's cell, and of the clearing share's */
	size_t sessions, of_sessions;	/* distinct sessions of each */
	bool partial;
};
struct result_profile_cover result_profile_cover_of(const struct result_profile *p, const struct cmp_row *r, size_t col);

/* Distinct samplings a column lists before it sums up the rest as "other". */
#define RESULT_SAMPLING_WAYS 4

/*
 * How the sessions of one column sampled a profile, from each session's
 * environment ("profile": [{benchmark, event, hz}], recorded as it
 * started): a session that does not say (stored before clearpath recorded
 * it, or imported without its environment) is not recorded, never a default.
 */
struct result_sampling {
	size_t sessions;	/* the column's sessions with samples of the profile */
	size_t not_recorded;	/* of them, those whose environment does not say */
	size_t nways;		/* distinct (event, frequency), in the order first seen */
	struct result_sampling_way {
		const char *event;	/* "cpu-clock", "cycles": borrowed from the environments */
		long long hz;
		size_t sessions;
	} ways[RESULT_SAMPLING_WAYS];
	size_t other;		/* sessions sampled in further ways than fit in @ways */
};

/*
 * Column @col of @s's sampling of profile @p: its sessions (those of @p's
 * rows in that column) looked up in @envs (session UUID -> environment;
 * NULL: nothing known).  A session's entry for @p's benchmark in that
 * column counts, known by its parameters (wl_identity_parse()), never its
 * spelling: by -f columns the entry of that function; a session without
 * one whose entries all agree counts as those (a plan's "-f all" recorded
 * as given).  0 or -ENOMEM.
 */
int result_profile_sampling(const struct cmp_set *s, const struct result_profile *p, size_t col, const json_t *envs,
			    struct result_sampling *out);

/*
 * @s in words into @buf: "cpu-clock at 100 Hz" when every session sampled
 * alike, "not recorded", "-" when the column has no session of it, else
 * "differs: cpu-clock at 100 Hz in 2 sessions, cycles at 4000 Hz in 1, not
 * recorded in 1".  Returns whether it was one sampling (or none recorded).
 */
bool result_sampling_text(const struct result_sampling *s, char *buf, size_t len);

/* @s as JSON: {text, sessions, not_recorded, ways: [{event, hz, sessions}]}; NULL when out of memory. */
json_t *result_sampling_json(const struct result_sampling *s);

/*
 * Block @b's profiles as `show --profile --format json` adds them: [{benchmark,
 * columns: [{<column>, base, runs, sessions, sampling, bound_factor}], symbols:
 * [{symbol, clearing, columns: [{<column>, share_pct, change_pp, runs, of_runs,
 * sessions, of_sessions, partial}]}]}], from @envs as result_profile_sampling().
 * NULL when out of memory.
 */
json_t *result_profiles_json(const struct cmp_set *s, size_t b, const json_t *envs);

/* A cell's sessions: how many, and the range of their levels (stats_session_levels). */
struct result_spread {
	int sessions;		/* 0: the cell has no samples (or out of memory) */
	double lo, hi;
};
struct result_spread result_spread_of(const struct cmp_cell *c);

#endif
