/* profile: the report's --profile sections and plots (the model is result/profile.h). */
#ifndef CLEARPATH_REPORT_PROFILE_H
#define CLEARPATH_REPORT_PROFILE_H

#include "plot/plot.h"
#include "result/profile.h"

#include <stdio.h>

/*
 * `show --profile`: per block and benchmark of @s (profile classes only),
 * how each column's sessions sampled (from @envs, session UUID ->
 * environment), each column's clearing share and top symbols with their
 * change from the base column in percentage points (and how many runs a
 * symbol's share covers where that is fewer than the column's), and the
 * bound each column's share sets.  0 or -ENOMEM.
 */
int rpt_profile_text(const struct cmp_set *s, const json_t *envs, FILE *out);

/*
 * The profile section of block @name of the page: for each benchmark of
 * @prof (the comparison of the profile classes; NULL: none) in that block,
 * each column's clearing share with its range across sessions, the bound it
 * sets, the top symbols and the change from the base column, as a table
 * and a bar plot, and how each column was sampled (result_profile_sampling()
 * from @envs).  Nothing when the block has no profile.  0, -ENOMEM or -EIO.
 */
int rpt_profile_html(const struct cmp_set *prof, const char *name, const json_t *envs, FILE *out);

/*
 * The profile plots of @prof as files of @kind in @dir, one per block and
 * benchmark, named after the page's block (@page's index of it) and the
 * benchmark ("1-aws-m7g-metal-profile-1-mmap-p-4kb.svg"), each path printed
 * to @names.  0 or a negative errno (after log_err() for a file).
 */
int rpt_profile_plots_write(const struct cmp_set *page, const struct cmp_set *prof, enum plot_kind kind,
			    const char *dir, FILE *names);

#endif
