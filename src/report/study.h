/* study: the clearing-strategy study (result/study.h) in words and as the report page's section. */
#ifndef CLEARPATH_REPORT_STUDY_H
#define CLEARPATH_REPORT_STUDY_H

#include "report/report.h"
#include "result/study.h"

#include <stdio.h>

/*
 * The answer in words, a few lines per extent, each quoting the row it
 * reads and that row's cells as `show --columns param:f --base default`
 * prints them (level in @o's units, change with its mark), and saying when
 * the pick is not distinguishable from the runner-up.  Lines are wrapped at
 * @o->width (0: not).  0, or -EIO when writing failed.
 */
int rpt_study_text(const struct result_study *st, const struct rpt_opts *o, FILE *out);

/* The study as an HTML section (the answer, tables of levels per extent, how each rate is measured). */
int rpt_study_html(const struct result_study *st, FILE *out);

#endif
