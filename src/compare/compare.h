/* compare: group samples into blocks, rows and columns, then compute each cell's statistics and verdict. */
#ifndef CLEARPATH_COMPARE_COMPARE_H
#define CLEARPATH_COMPARE_COMPARE_H

#include "compare/index.h"
#include "stats/stats.h"
#include "util/identity.h"

#include <stdbool.h>
#include <stddef.h>

/* What the columns of a comparison are. */
enum cmp_axis {
	CMP_BY_SWPROFILE,	/* kernels side by side, one block per SUT class (the default) */
	CMP_BY_SUT,		/* machines side by side, for one swprofile */
	CMP_BY_PARAM,		/* values of one benchmark parameter (e.g. -f), within one swprofile */
};

struct cmp_opts {
	enum cmp_axis axis;
	const char *param;		/* CMP_BY_PARAM: "f", or a long name such as "function" */
	const char *sut_glob;		/* NULL: every SUT class */
	const char *benchmark_glob;	/* matched against the suite and the result class; NULL: all */
	const char *const *swprofiles;	/* keep only these, in this order; NULL: all */
	size_t nswprofiles;
	const char *base;		/* base column; NULL: the first */
	enum stats_rule rule;
	double alpha;
	double min_effect_pct;
	double target_pct;	/* the change sessions_needed plans for (STATS_DEFAULT_TARGET_PCT) */
	/*
	 * > 0: the marks of each table (block) keep its false discovery rate at
	 * or below this (Benjamini-Hochberg over the cells' p-values, nested
	 * rule only); 0: each cell is judged at alpha on its own.
	 */
	double fdr;
	/*
	 * Calibration swprofiles (CMP_CALIBRATION_SUFFIX, written by clearpath
	 * calibrate) are the machine's noise floor, not a kernel to compare:
	 * left out unless named in swprofiles, or the only ones kept with
	 * calibration_only.
	 */
	bool calibration_only;
};

#define CMP_CALIBRATION_SUFFIX " (calibration)"

/* The column of CMP_BY_PARAM samples whose benchmark has no such parameter. */
#define CMP_NO_VALUE "(none)"

/* Whether @swprofile names a calibration run. */
bool cmp_is_calibration(const char *swprofile);

struct cmp_cell {
	size_t n, cap;
	double *values;
	int *sessions;		/* index into uuids */
	char **uuids;		/* distinct session UUIDs of this cell */
	size_t nuuids;
	struct cmp_index uuid_ix;	/* UUID -> index into uuids */
	struct stats_cell st;	/* valid when n > 0 */
	bool *outlier;		/* per value: flagged by stats_outliers (valid when n > 0) */
	/*
	 * A --profile symbol's cell: of its n values the last @absent are 0s
	 * that cmp_finish() added, one per profiled run (a run of the
	 * benchmark's clearing share, in the same session) that did not store
	 * the symbol among its top five: its share there counts 0, so that
	 * the cell's estimate is over every profiled run (n - absent stored).
	 */
	size_t absent;
	bool shares;		/* a --profile share's: no value is an outlier (stats_sample_set.keep_all) */
	/*
	 * valid when has_change; change.paired when the cell shares sessions
	 * with the base (columns measured in the same sessions, compared
	 * within each); stats_plan() has been applied under the nested rule.
	 */
	struct stats_change change;
	bool has_change;
	/*
	 * The level the change was judged at (valid when has_change): alpha, or
	 * alpha / looks when its columns were grown by a sequential run that
	 * looked @looks times (cmp_add_looks); looks is 1 otherwise.
	 */
	double alpha;
	unsigned looks;
};

/* A result class's noise on this machine, from a calibration cell (percent of the mean). */
struct cmp_floor {
	size_t sessions;
	double between_pct, within_pct;	/* sd between sessions and between repeats of a session */
	double mde4_pct;		/* smallest change 4 sessions per column detect (80% power) */
	double sessions_needed;		/* sessions per column for a target_pct change */
	bool at_least;			/* too few sessions to bound the spread: both are lower bounds */
};

/* The floor of calibration cell @c, at level 1 - @alpha, planning for @target_pct.  NAN where unknown. */
void cmp_floor_of(const struct stats_cell *c, double alpha, double target_pct, struct cmp_floor *f);

struct cmp_row {
	char *bench;		/* the Benchmark column: the suite's collection ("mem") */
	char *rclass;		/* the result class name without the unit (ident->name) */
	/*
	 * The row's result class as data: its benchmark's parameters and the
	 * metric, what every reader of a row goes by (ident_find(), ident_is(),
	 * ident->metric).  A row of CMP_BY_PARAM columns spans that
	 * parameter's values: it is left out (ident_class_dup()).
	 */
	struct ident_class *ident;
	char *key;		/* what decides the row: ident_class_key() */
	char *unit;
	bool higher_is_better;
	struct cmp_cell *cells;	/* one per column */
	/* The machine's noise floor for this result class (cmp_attach_floor), valid when has_floor. */
	struct cmp_floor floor;
	bool has_floor;
	/* A cell's sessions fall into 2 modes, so every cell's spread is at least the row's (stats_share_modes). */
	bool modes_shared;
};

struct cmp_block {
	char *name;		/* the SUT class (or the swprofile for CMP_BY_SUT) */
	char *sut;		/* the SUT class its samples ran on; NULL for CMP_BY_SUT (the columns are machines) */
	struct cmp_row *rows;
	size_t nrows;
	/*
	 * The geomean row, per column (after cmp_finish()): the % change of the
	 * geometric mean of the oriented ratios to the base over the rows where
	 * both have samples, + is better (stats_geomean_change_pct()).  NAN for
	 * the base column and where no row has a ratio.
	 */
	double *geomean_pct;
	/* Cells with a p-value that can be marked: the m of the false marks a table carries by chance, m x alpha. */
	size_t tested;
};

struct cmp_set {
	enum cmp_axis axis;
	/*
	 * CMP_BY_PARAM: the parameter the columns are values of ("f"), which
	 * the rows' identities leave out (cmp_row.key); NULL otherwise.
	 */
	char *param;
	char **cols;		/* column names in display order */
	char **col_first;	/* earliest session start seen per column (for ordering) */
	size_t ncols;
	size_t base;		/* index of the base column */
	struct cmp_block *blocks;
	size_t nblocks;
	size_t samples;		/* kept after filtering */
	enum stats_rule rule;	/* the one cmp_finish() computed under: which estimate is a cell's level */
};

/* One stored sample, as the store yields it. */
struct cmp_sample {
	const char *sut, *swprofile, *session, *session_started;
	struct ident_class ident;	/* its result class: benchmark, parameters, metric, name */
	const char *unit;
	bool higher_is_better;
	double value;
};

/* Cell @c's values as the statistics read them (by session; a share's with no outlier set aside). */
struct stats_sample_set cmp_cell_samples(const struct cmp_cell *c);

/* A new empty set for @o->axis; NULL when out of memory. */
struct cmp_set *cmp_new(const struct cmp_opts *o);
void cmp_free(struct cmp_set *s);

/* Whether @o's filters (SUT, benchmark, swprofiles, calibration) keep @x: what cmp_add() would add. */
bool cmp_keeps(const struct cmp_opts *o, const struct cmp_sample *x);

/*
 * Add one sample; samples that @o's filters exclude are ignored.
 * Returns 0 or -ENOMEM.
 */
int cmp_add(struct cmp_set *s, const struct cmp_opts *o, const struct cmp_sample *x);

/*
 * Order the columns, pick the base and compute every cell and change.
 * Returns 0, or EXIT_USAGE after log_err() when the data cannot answer the
 * question (no samples, a --swprofile the store has no samples of under the
 * other filters, a --base that is not a column), or EXIT_INTERNAL.
 */
int cmp_finish(struct cmp_set *s, const struct cmp_opts *o);

/*
 * The store says the cells of swprofile @swprofile on SUT class @sut were
 * looked at @looks times by a sequential run (plan run --until-decided):
 * cmp_finish() then judges every cell comparing that column (by
 * swprofile columns) at alpha / (all looks recorded for its two columns),
 * the level the looks were made at.  Call before cmp_finish(); 0 or -ENOMEM.
 */
int cmp_add_looks(struct cmp_set *s, const char *sut, const char *swprofile, unsigned looks);

/* How many cells of @s (after cmp_finish()) have the verdict @v. */
size_t cmp_count_verdicts(const struct cmp_set *s, enum stats_verdict v);

/*
 * For every row of @s whose block (SUT class, by swprofile columns) and
 * result class @cal (a finished calibration_only set) also has, copy the
 * calibration cell's floor (the one with the most sessions) into row->floor,
 * at @o's alpha and target.  Never fails.
 */
void cmp_attach_floor(struct cmp_set *s, const struct cmp_set *cal, const struct cmp_opts *o);

#endif
