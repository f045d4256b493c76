/* study: the clearing-strategy study read from a comparison of `mem clear --then read` by -f: rates per extent and the answer in words. */
#ifndef CLEARPATH_REPORT_STUDY_H
#define CLEARPATH_REPORT_STUDY_H

#include "compare/compare.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * The study answers the seed's question: is clearing with memset faster
 * than with non-temporal stores, for one page and for more, and what does
 * the program that touches the page right after pay?  It reads a finished
 * comparison (cmp_finish) whose columns are the -f strategies
 * (CMP_BY_PARAM "f") of `mem clear --then read` rows: per block and extent
 * (-k), each strategy's clear, then-read and combined rate (the cells'
 * means: the numbers `show --columns param:f` prints), and says in words
 * which is fastest.  Nothing is measured or estimated here.
 */
enum { RPT_STUDY_CLEAR, RPT_STUDY_THEN, RPT_STUDY_COMBINED, RPT_STUDY_NMETRICS };

struct rpt_study_extent {
	char *extent;		/* "4KB", as the -k parameter reads */
	uint64_t bytes;		/* for ordering */
	double (*rate)[RPT_STUDY_NMETRICS];	/* per column of the set; NAN: not measured */
};

struct rpt_study_block {
	const char *name;	/* the block's name (SUT class, swprofile) */
	struct rpt_study_extent *ext;
	size_t next;
};

struct rpt_study {
	const struct cmp_set *set;
	bool *nontemporal;	/* per column: the strategy's stores bypass the cache */
	struct rpt_study_block *blocks;
	size_t nblocks;
};

/*
 * The study of @s (not owned: keep it alive while the study is used), into
 * *@out; *@out is NULL when @s holds no `--then read` row.  Returns 0 or
 * -ENOMEM.
 */
int rpt_study_build(const struct cmp_set *s, struct rpt_study **out);
void rpt_study_free(struct rpt_study *st);

/* The answer in words, a few lines per block: 0, or -EIO when writing failed. */
int rpt_study_text(const struct rpt_study *st, FILE *out);

/* The study as an HTML section (tables per extent, the answer, how each rate is measured). */
int rpt_study_html(const struct rpt_study *st, FILE *out);

#endif
