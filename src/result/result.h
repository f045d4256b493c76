/* result: the one typed result every output reads (views, blocks per SUT class, rows, cells with estimate, interval and state, notes), built from the store. */
#ifndef CLEARPATH_RESULT_RESULT_H
#define CLEARPATH_RESULT_RESULT_H

#include "compare/compare.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * result_build() reads the store once and returns everything `show`,
 * `report`, `calibrate`, `campaign` and `plan run` print: the formats in
 * src/report only lay it out.  Nothing below is recomputed by a format.
 *
 * One estimator.  A column's level is the mean of its session levels (each
 * session's mean with its outliers set aside; stats_cell.level), or under
 * --rule fastpath the mean of its samples.  The base cell prints it, and
 * every other cell's change is the change of the levels, so for every cell
 * base x (1 + change) = the cell's level.  A paired comparison (columns
 * measured in the same sessions) estimates the change within each session
 * (the geometric mean of the per-session ratios): the cell's level is then
 * the level that change implies, base x (1 + change) (result_cell.implied),
 * and the legend says so.  The geometric-mean row is the geometric mean of
 * the rows' own ratios (1 + change), so a one-row table's equals its row.
 */

/* A cell's state: what its mark says.  Every format shows it; JSON names it (result_state_name()). */
enum result_state {
	RESULT_EMPTY,		/* no samples */
	RESULT_BASE,		/* the base column: the level the others are compared with */
	RESULT_ALONE,		/* samples, but the base has none: its level, no change */
	RESULT_IMPROVED,	/* (I): decided, better */
	RESULT_REGRESSED,	/* (R): decided, worse */
	RESULT_SAME,		/* decided: no change as large as --target (the interval lies within it) */
	RESULT_UNDECIDED,	/* (?): neither yet; more sessions would decide (mde_pct, sessions_needed) */
	RESULT_INSUFFICIENT,	/* (-): too little data for a verdict (change->why_insufficient) */
	RESULT_UNMARKED,	/* --rule fastpath without (I)/(R): that rule has no undecided state */
};

/* "base", "improvement", "regression", "same", "undecided", "insufficient", ...; "?" for an unknown state. */
const char *result_state_name(enum result_state s);

/* The mark a table prints before a change: "(I) ", "(R) ", "(?) ", "(-) " or "". */
const char *result_state_mark(enum result_state s);

struct result_cell {
	enum result_state state;
	const struct cmp_cell *src;	/* its samples, sessions and outliers; NULL when empty */
	size_t n, sessions, outliers;
	double cv;			/* descriptive: sd / |mean| of every sample */
	/*
	 * The estimate every output prints for this column (see above), and its
	 * interval at the view's level: the base's own; elsewhere the interval
	 * of the change placed on the base's level.  NAN when unknown.
	 */
	double level, level_low, level_high;
	double halfwidth_pct;		/* the base's "±x%": half its interval, in % of its level */
	bool implied;			/* level = base x (1 + change), from a paired change */
	/* The change from the base (pct, interval, verdict, what would decide it); NULL without one. */
	const struct stats_change *change;
};

struct result_row {
	const struct cmp_row *src;
	const char *bench;		/* the Benchmark column ("mem") */
	const char *rclass;		/* the result class, without its unit */
	const char *unit;
	bool higher_is_better;
	struct result_cell *cells;	/* one per column of the view */
	const struct cmp_floor *floor;	/* the machine's noise floor (clearpath calibrate); NULL: unknown */
	/*
	 * The bytes its benchmark's buffer holds (its size parameter, 0:
	 * none), and whether the block's machine's last-level cache holds it
	 * (result_view_cache()): a rate from such a buffer measures the cache.
	 */
	uint64_t buffer;
	bool cache_resident;
};

/* What a note under a table is; formats may style them, JSON names them. */
enum result_note_kind {
	RESULT_NOTE_LEGEND,	/* what the marks and numbers mean */
	RESULT_NOTE_UNDECIDED,	/* how many cells are undecided and what would decide them */
	RESULT_NOTE_FLOOR,	/* a result class's noise floor (with --stats only) */
	RESULT_NOTE_UNITS,	/* what a unit printed means (GB/sec) */
	RESULT_NOTE_WARNING,	/* the comparison mixes settings, a label that does not say what ran */
	RESULT_NOTE_CACHE,	/* rows whose buffers the last-level cache holds: they measure it */
};

/* When a note applies: only under --stats (and in formats that print every number), only in human units. */
enum result_note_only {
	RESULT_ONLY_STATS = 1 << 0,
	RESULT_ONLY_HUMAN = 1 << 1,
};

/* A line under a block's table, in order. */
struct result_note {
	enum result_note_kind kind;
	unsigned only;			/* enum result_note_only; 0: always */
	char *text;
};

/* How many cells of a block are in each state, for the legend and for plan run. */
struct result_tally {
	size_t state[RESULT_UNMARKED + 1];
	size_t compared, paired;	/* cells with a change; of those, paired by session */
	size_t undecided;		/* undecided or insufficient: not decided */
	double most_needed;		/* the most sessions_needed among those (NAN: none known) */
	size_t unplannable;		/* of those, the cells without a sessions_needed */
};

struct result_header;
struct result_header_block;

struct result_block {
	const char *name;		/* the SUT class (or "SUT, swprofile X" by param, the swprofile by sut) */
	struct result_row *rows;
	size_t nrows;
	/*
	 * The geometric-mean row, per column: 100 x (geometric mean of the rows'
	 * ratios (1 + change) - 1) over the rows with a change; NAN for the base
	 * and where no row has one.  Oriented (+ is better) only when the rows'
	 * directions differ (@geomean_oriented); otherwise the plain ratios, so
	 * one row's geometric mean is that row.
	 */
	double *geomean_pct;
	bool has_geomean;		/* the row is shown (more than one column, no profile shares) */
	bool geomean_oriented;
	bool geomean_lower_better;	/* not oriented and every row is lower-is-better */
	struct result_note *notes;
	size_t nnotes;
	struct result_tally tally;
	const struct result_header_block *header;	/* NULL unless RESULT_WANT_HEADER */
	uint64_t llc;			/* the machine's last-level cache in bytes (its fingerprint), 0: unknown */
	unsigned llc_level;
	/* The same facts as data, for JSON: [{column, setting, base, value}], [{resultclass, unit, columns}]. */
	json_t *settings_differ, *thp_always;
	json_t *profiles;		/* show --profile's summary as data (RESULT_WANT_PROFILE_ONLY); NULL otherwise */
};

/* One table of the result: what `show` prints, with its columns, blocks and cells. */
struct result_view {
	struct cmp_opts opts;		/* what it was computed with: axis, rule, alpha, min effect, target */
	char *const *cols;		/* column names in display order */
	size_t ncols, base;
	struct result_block *blocks;
	size_t nblocks;
	size_t samples;
	bool profile_only;		/* show --profile: the profile shares, and only them */
	struct cmp_set *set;		/* the comparison the cells read */
	/* RESULT_WANT_PROFILE_APART: the --profile classes, kept out of the table (NULL: none) */
	struct cmp_set *profile;
	struct result_header *header;	/* RESULT_WANT_HEADER: per block (result_block.header); NULL otherwise */
};

struct result_study;

struct result {
	struct result_view *views;
	size_t nviews;
	struct result_study *study;	/* the clearing-strategy study; NULL unless asked for and present */
	struct cmp_set *study_set;	/* what the study's view reads */
	/* RESULT_WANT_SESSIONS: the store's sessions, SUT classes and swprofiles (store_list_*). */
	json_t *sessions, *suts, *swprofiles;
	json_t *envs;			/* session UUID -> environment, for the sessions the views hold */
};

/* What result_build() is asked for. */
enum result_want {
	RESULT_WANT_HEADER = 1 << 0,		/* per block: machines, kernels, sessions, doctor warnings */
	RESULT_WANT_FLOOR = 1 << 1,		/* the noise floor from calibration runs (by swprofile only) */
	RESULT_WANT_PROFILE_ONLY = 1 << 2,	/* show --profile: only the profile classes, with their summary */
	RESULT_WANT_PROFILE_APART = 1 << 3,	/* report: the profile classes apart from each view's table */
	RESULT_WANT_STUDY = 1 << 4,		/* the clearing-strategy study (mem clear --then read by -f) */
	RESULT_WANT_SESSIONS = 1 << 5,		/* every session, SUT class and swprofile (the report page) */
	RESULT_WANT_VIEWS = 1 << 6,		/* any view at all (report --answer alone wants only the study) */
	/*
	 * One view per benchmark suite with the columns its data has: by -f
	 * (base "default" when there is one) where one kernel ran several
	 * functions, else by swprofile, as `make run` prints them.
	 */
	RESULT_WANT_AUTO_VIEWS = 1 << 7,
	/*
	 * The caller's alpha is already each look's own (plan run
	 * --until-decided): the sequential looks the store recorded are not
	 * applied again.  Without it every view judges the cells of a column
	 * grown sequentially at alpha / looks (cmp_add_looks).
	 */
	RESULT_OWN_ALPHA = 1 << 8,
};

struct result_select {
	const char *store_url;		/* NULL: the default store */
	struct cmp_opts cmp;		/* the view's selection (the template of each auto view) */
	unsigned want;			/* enum result_want */
};

/*
 * Read the store @sel names once and build the result into *@out.  Returns
 * 0, or an exit code after log_err(): no store (EXIT_USAGE), no samples the
 * selection keeps or a column/base it does not have (EXIT_USAGE), a read
 * error (EXIT_RESOURCE), out of memory (EXIT_INTERNAL).  *@out is NULL on
 * failure.
 */
int result_build(const struct result_select *sel, struct result **out);
void result_free(struct result *r);

/*
 * The view of the finished comparison @set (not owned: result_view_free()
 * leaves it), computed with @o, into *@out: its cells, geometric-mean rows
 * and tallies.  result_view_notes() adds the lines under each table, after
 * the caller attached what they warn about (settings_differ, thp_always).
 * For callers that hold a set (calibrate, plan run, the unit tests); 0 or
 * -ENOMEM.
 */
int result_view_of(struct cmp_set *set, const struct cmp_opts *o, struct result_view *out);
int result_view_notes(struct result_view *v);
/*
 * Mark the rows of @v whose buffer the last-level cache of their block's
 * machine holds, from @suts (store_list_suts: each fingerprint's llc_bytes
 * and llc_level; NULL: nothing known).  Before result_view_notes().
 */
void result_view_cache(struct result_view *v, const json_t *suts);
void result_view_free(struct result_view *v);

/* The name of the column axis @a for headers and JSON keys ("swprofile", "sut", "value"). */
const char *result_axis_name(enum cmp_axis a);
/* What a block is, as the JSON key and the title say it: "swprofile" for CMP_BY_SUT, else "sut". */
const char *result_block_key(enum cmp_axis a);

/*
 * Cell @c's own level under @rule: its session levels' mean (nested) or its
 * samples' mean (fastpath): the estimate a table prints for a column.
 */
double result_cell_level(const struct cmp_cell *c, enum stats_rule rule);

/*
 * Column @c's level in @row of @s as every output prints it: its own
 * (result_cell_level()), or where it is paired with the base the level its
 * within-session change implies, base x (1 + change).  NAN when empty.
 */
double result_level_of(const struct cmp_set *s, const struct cmp_row *row, size_t c);

/* Whether @row is a share in per cent (--profile's), whose changes read in percentage points. */
bool result_row_points(const struct result_row *row);

/* How many cells of @v are in state @s. */
size_t result_count(const struct result_view *v, enum result_state s);

/*
 * The cells of @blk that can be marked (a change with a p-value, enough
 * sessions for a verdict): the table's size for the error its marks
 * control, the m of Benjamini-Hochberg and of "m x alpha false marks".
 */
size_t result_tested(const struct result_view *v, const struct result_block *blk);

#endif
