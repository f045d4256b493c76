/* profile: a comparison's --profile result classes grouped per benchmark (clearing share, top symbols), for `show --profile` and the report. */
#ifndef CLEARPATH_REPORT_PROFILE_H
#define CLEARPATH_REPORT_PROFILE_H

#include "compare/compare.h"
#include "plot/plot.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* "<benchmark> :profile:<symbol>": how --profile's metrics are stored (wl_profile_metrics). */
#define RPT_PROFILE_MARK " :profile:"
/* Symbols shown per benchmark: the largest by their largest share in any column. */
#define RPT_PROFILE_SHOWN 10

/* Whether result class @rclass holds --profile shares. */
bool rpt_profile_class(const char *rclass);

/*
 * One benchmark's profile in one block: its clearing-share row and its
 * symbol rows (each column's stored top five, the union), pointers into the
 * set.  A column without a value has no samples of it: never a zero.
 */
struct rpt_profile {
	const char *bench;		/* the Benchmark column ("mem") */
	const char *name;		/* the benchmark part of the result classes: @namelen bytes */
	size_t namelen;
	const struct cmp_row *clearing;	/* NULL: none stored */
	const struct cmp_row **syms;	/* by their largest share in any column, largest first */
	size_t nsyms;
};

/* Block @b's profiles, in the order their benchmarks first appear, into *@out (*@n).  0 or -ENOMEM. */
int rpt_profiles_of(const struct cmp_set *s, size_t b, struct rpt_profile **out, size_t *n);
void rpt_profiles_free(struct rpt_profile *p, size_t n);

/* The symbol of profile row @r ("clearing" for the category). */
const char *rpt_profile_symbol(const struct cmp_row *r);

/* Column @col's share in @r (its mean, percent of samples), NAN when it has none. */
double rpt_profile_share(const struct cmp_row *r, size_t col);

/*
 * Whether symbol @name is a page-clearing function of either architecture's
 * clearing category (the store keeps the name, not the machine's verdict).
 */
bool rpt_profile_clearing_symbol(const char *name);

/* ---- the report (rpt_profile.c) ---- */

/*
 * The profile section of block @name of the page: for each benchmark of
 * @prof (the comparison of the profile classes; NULL: none) in that block,
 * each column's clearing share with its range across sessions, the bound it
 * sets, the top symbols and the change from the base column, as a table
 * and a bar plot.  Nothing when the block has no profile.  0, -ENOMEM or -EIO.
 */
int rpt_profile_html(const struct cmp_set *prof, const char *name, FILE *out);

/*
 * The profile plots of @prof as files of @kind in @dir, one per block and
 * benchmark, named after the page's block (@page's index of it) and the
 * benchmark ("1-aws-m7g-metal-profile-1-mmap-p-4kb.svg"), each path printed
 * to @names.  0 or a negative errno (after log_err() for a file).
 */
int rpt_profile_plots_write(const struct cmp_set *page, const struct cmp_set *prof, enum plot_kind kind,
			    const char *dir, FILE *names);

#endif
