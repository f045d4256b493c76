/* show: the pieces of `clearpath show` that turn a computed comparison into tables or JSON. */
#ifndef CLEARPATH_CLI_SHOW_H
#define CLEARPATH_CLI_SHOW_H

#include "compare/compare.h"
#include "report/report.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

struct show_opts {
	const struct cmp_opts *cmp;
	const char *format;	/* a report format name, or "json" */
	bool stats;		/* n, cv and the 95% CI in every cell */
	bool color;
	const json_t *envs;	/* session UUID -> environment snapshot, or NULL */
};

/*
 * The relevant settings (doctor's snapshot) in which each column of @blk
 * differs from the base column, as a new array of {column, setting, base,
 * value}; empty when they agree or nothing is known.
 */
json_t *show_env_diffs(const struct cmp_set *s, const struct cmp_block *blk, const json_t *envs);
/* One warning line per difference, under the table. */
void show_env_footers(const json_t *diffs, struct rpt_table *t);

/*
 * Render every block of @s as a table in @o->format to @out, with the legend
 * under each.  *@regressions counts (R) cells.  Returns 0 or an exit code.
 */
int show_tables(const struct cmp_set *s, const struct show_opts *o, FILE *out, int *regressions);

/* Render @s as one JSON document.  *@regressions counts regression verdicts.  Returns 0 or an exit code. */
int show_json(const struct cmp_set *s, const struct show_opts *o, FILE *out, int *regressions);

/* The name of the column axis for headers and JSON keys ("swprofile", "sut", "value"). */
const char *show_axis_name(enum cmp_axis axis);

#endif
