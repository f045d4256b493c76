/* study: the clearing-strategy study as a view of `mem clear` by -f: per extent which cell the answer quotes for the fastest clear, the fastest clear-then-read and what the consumer pays. */
#ifndef CLEARPATH_RESULT_STUDY_H
#define CLEARPATH_RESULT_STUDY_H

#include "result/result.h"

#include <stdbool.h>
#include <stdint.h>

/*
 * The study answers the seed's question: is clearing with memset faster
 * than with non-temporal stores, for one page and for more, and what does
 * the program that touches the page right after pay?  It is a view of the
 * `mem clear` samples by -f strategy (base: "default", libc's memset, as
 * `show --columns param:f --base default` prints them), and the answer
 * quotes that view's own cells: their levels and their changes from the
 * base, naming the row each comes from.  Nothing is estimated here but
 * whether the pick is distinguishable from the runner-up.
 */
#define RESULT_STUDY_SUITE "mem/clear"

/* Whether the selection @o (its --benchmark) lets the study's samples through. */
bool result_study_wanted(const struct cmp_opts *o);

/* The rows of one extent the answer reads. */
enum result_study_rate {
	RESULT_STUDY_CLEAR_ONLY,	/* `clear -k X`: the clear alone */
	RESULT_STUDY_CLEAR_THEN,	/* `clear -k X --then read`: the clear rate of the clear-then-read pass */
	RESULT_STUDY_THEN_READ,		/* `... --then read :then-read`: the consumer right after */
	RESULT_STUDY_COMBINED,		/* `... --then read :combined`: clear plus consumer */
	RESULT_STUDY_NRATES,
};

/* One answer: the column picked in @row, and the runner-up. */
struct result_study_pick {
	const struct result_row *row;	/* NULL: nothing to pick from */
	size_t col;
	size_t runner_up;		/* SIZE_MAX: none */
	/*
	 * Whether the pick is decided better than the runner-up (compared as the
	 * table compares columns: paired within the sessions both have, else
	 * independent); false: "not distinguishable from" it.
	 */
	bool distinguishable;
};

struct result_study_extent {
	char *extent;			/* "4KB", as the -k parameter reads (the page when it is 0) */
	char page[32];			/* the page size when not the base 4KB page ("2MB"), else "" */
	uint64_t bytes;			/* for ordering */
	const struct result_row *rows[RESULT_STUDY_NRATES];	/* NULL: not measured */
	struct result_study_pick clear;		/* fastest clear: clear-only row, else the clear-then-read pass's */
	struct result_study_pick combined;	/* fastest clear-then-read */
	struct result_study_pick consumer;	/* the slowest consumer after non-temporal clearing */
};

struct result_study_block {
	const struct result_block *block;	/* in the study's view */
	struct result_study_extent *ext;
	size_t next;
};

struct result_study {
	struct result_view view;	/* mem clear by -f: the cells every number is read from */
	size_t memset;			/* the column "default" (libc memset), SIZE_MAX: none */
	bool *nontemporal;		/* per column: the strategy's stores bypass the cache */
	struct result_study_block *blocks;
	size_t nblocks;
};

/*
 * The study of the finished comparison @set (mem clear by -f, computed with
 * @o; not owned: keep it alive while the study is used) into *@out, which
 * rows the cache holds from the machines' fingerprints @suts
 * (result_view_cache()); *@out is NULL when @set holds no `--then read`
 * row.  0 or -ENOMEM.
 */
int result_study_build(struct cmp_set *set, const struct cmp_opts *o, const json_t *suts, struct result_study **out);
void result_study_free(struct result_study *st);

#endif
