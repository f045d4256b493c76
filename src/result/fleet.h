/* fleet: a lab's machines side by side, per result class one line per SUT class, read from the cells the per-machine tables print. */
#ifndef CLEARPATH_RESULT_FLEET_H
#define CLEARPATH_RESULT_FLEET_H

#include "result/result.h"

#include <stdbool.h>
#include <stddef.h>

/*
 * The fleet summary answers "on more than one platform?" in one screen: for
 * each result class and each compared column, the base's level, the change,
 * its interval and verdict on every SUT class.  It holds pointers to the very
 * cells of the view's blocks and computes nothing, so every number it prints
 * is the number the machine's table prints (one estimator, one meaning).
 */
struct result_fleet_line {
	const struct result_block *block;	/* the SUT class */
	const struct result_row *row;
	const struct result_cell *base;	/* the base column's cell of that row */
	const struct result_cell *cell;	/* the compared column's cell */
};

struct result_fleet_class {
	const struct result_row *first;	/* the row of the first SUT class that has it: bench, rclass, unit */
	size_t col;			/* the compared column, never the base */
	struct result_fleet_line *lines;	/* one per block holding the row, in the blocks' order */
	size_t nlines;
};

struct result_fleet {
	struct result_fleet_class *classes;	/* per compared column, the result classes in first-seen order */
	size_t nclasses;
};

/*
 * Whether @v has a fleet: blocks are SUT classes (columns by swprofile or
 * parameter), more than one of them, more than one column, and not the
 * --profile shares (whose changes are points of a share, per symbol).
 */
bool result_fleet_applies(const struct result_view *v);

/* The fleet of @v into @out (empty when it does not apply): 0 or -ENOMEM. */
int result_fleet_of(const struct result_view *v, struct result_fleet *out);
void result_fleet_free(struct result_fleet *f);

#endif
