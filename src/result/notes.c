/* notes: the lines under each table of a view (what the marks and the estimate mean, what is undecided, noise floors, warnings), written once for every format. */
#define _GNU_SOURCE	/* vasprintf */
#include "result/result.h"
#include "util/size.h"
#include "util/units.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Append a note to @blk; 0 or -ENOMEM. */
static int __attribute__((format(printf, 4, 5)))
note_add(struct result_block *blk, enum result_note_kind kind, unsigned only, const char *fmt, ...)
{
	struct result_note *grown = realloc(blk->notes, (blk->nnotes + 1) * sizeof(*grown));
	va_list ap;
	char *text;
	int n;

	if (!grown)
		return -ENOMEM;
	blk->notes = grown;
	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	blk->notes[blk->nnotes++] = (struct result_note){ kind, only, text };
	return 0;
}

/* The confidence level of @alpha as it names things: "95" for 0.05, "99.9" for 0.001. */
static void note_level(double alpha, char *buf, size_t len)
{
	/* %.10g, not %.0f: --alpha 0.001 is a 99.9% interval, not a "100%" one */
	snprintf(buf, len, "%.10g", 100 * (1 - alpha));
}

/* What the marks mean: (I), (R), (?), (-) and an unmarked change, in one line. */
static int note_marks(const struct result_view *v, struct result_block *blk)
{
	const struct cmp_opts *o = &v->opts;
	char level[32];

	note_level(o->alpha, level, sizeof(level));
	if (o->rule == STATS_RULE_FASTPATH)
		return note_add(blk, RESULT_NOTE_LEGEND, 0,
				"(I) improvement, (R) regression: the columns' %s%% confidence intervals do not overlap"
				" and |change| >= %.2f%% (fastpath rule: samples pooled, sessions ignored); unmarked:"
				" they overlap; (-) too little data for a verdict.", level, o->min_effect_pct);
	if (o->fdr > 0)
		return note_add(blk, RESULT_NOTE_LEGEND, 0,
				"(I) improvement, (R) regression: the change's p-value adjusted over this table's %zu"
				" cells (Benjamini-Hochberg) is at most %.10g, so the expected share of false marks"
				" among the marks is at most %.10g%%, and |change| >= %.2f%%; (?) undecided: more"
				" sessions would decide; (-) too little data for a verdict; unmarked: no change of"
				" %.10g%% or more (the interval lies within it).",
				result_tested(v, blk), o->fdr, 100 * o->fdr, o->min_effect_pct, o->target_pct);
	return note_add(blk, RESULT_NOTE_LEGEND, 0,
			"(I) improvement, (R) regression: the %s%% confidence interval of the change excludes 0 and"
			" |change| >= %.2f%%; (?) undecided: more sessions would decide; (-) too little data for a"
			" verdict; unmarked: no change of %.10g%% or more (the interval lies within it).",
			level, o->min_effect_pct, o->target_pct);
}

/* Per-cell marks: how many false marks a table of this size carries by chance (m x alpha). */
static int note_false_marks(const struct result_view *v, struct result_block *blk)
{
	size_t m = result_tested(v, blk);

	if (v->opts.rule != STATS_RULE_NESTED || v->opts.fdr > 0 || m < 2)
		return 0;
	return note_add(blk, RESULT_NOTE_LEGEND, 0,
			"Each cell is judged on its own: %zu cells at %.10g%% carry about %.1f false marks by chance"
			" (--fdr 0.05 judges the table as one question).",
			m, 100 * v->opts.alpha, v->opts.alpha * (double)m);
}

/*
 * Columns whose sessions fall into 2 modes (the row's cells are then judged
 * with the row's pooled spread), and columns judged at the level of a
 * sequential run's looks: one line each.
 */
static int note_modes_looks(const struct result_view *v, struct result_block *blk)
{
	int ret = 0;

	for (size_t r = 0; !ret && r < blk->nrows; r++)
		for (size_t c = 0; !ret && c < v->ncols; c++) {
			const struct cmp_cell *src = blk->rows[r].cells[c].src;

			if (!src || src->st.modes != 2)
				continue;
			ret = note_add(blk, RESULT_NOTE_WARNING, 0,
				       "Sessions of %s in %s fall into 2 modes %.2f%% apart (%zu and %zu sessions): it"
				       " takes more boots; every cell of the row is judged with the spread of all its"
				       " sessions.", v->cols[c], blk->rows[r].rclass, src->st.mode_gap_pct,
				       src->st.mode_low, src->st.sessions - src->st.mode_low);
		}
	for (size_t c = 0; !ret && c < v->ncols; c++)
		for (size_t r = 0; r < blk->nrows; r++) {
			const struct cmp_cell *src = blk->rows[r].cells[c].src;

			if (!blk->rows[r].cells[c].change || !src || src->looks < 2)
				continue;
			ret = note_add(blk, RESULT_NOTE_LEGEND, 0,
				       "Cells of %s are judged at alpha %.4g: plan run --until-decided looked at them %u"
				       " times (recorded in the store), and each look was made at that level.",
				       v->cols[c], src->alpha, src->looks);
			break;
		}
	return ret;
}

/* Cells with an interval but too few sessions for a verdict: why, once per reason. */
static int note_too_few(const struct result_view *v, struct result_block *blk)
{
	const char *why[4];
	size_t n = 0;
	int ret = 0;

	for (size_t r = 0; r < blk->nrows; r++)
		for (size_t c = 0; c < v->ncols; c++) {
			const struct stats_change *ch = blk->rows[r].cells[c].change;
			size_t i = 0;

			/* a cell marked (-) for another reason prints no (?), so no (?) line explains it */
			if (!ch || !ch->why_undecided || blk->rows[r].cells[c].state != RESULT_UNDECIDED)
				continue;
			while (i < n && strcmp(why[i], ch->why_undecided))
				i++;
			if (i == n && n < 4)
				why[n++] = ch->why_undecided;
		}
	for (size_t i = 0; !ret && i < n; i++)
		ret = note_add(blk, RESULT_NOTE_LEGEND, 0, "(?) no verdict yet: %s.", why[i]);
	return ret;
}

/* Which estimate every number is, and how the changes were compared, in one line. */
static int note_estimate(const struct result_view *v, struct result_block *blk)
{
	const struct result_tally *t = &blk->tally;
	const char *how;

	if (v->opts.rule == STATS_RULE_FASTPATH)
		return note_add(blk, RESULT_NOTE_LEGEND, 0,
				"Estimate: a column's level is the mean of its samples; change = level / base level - 1.");
	if (!t->compared || !t->paired)
		how = "; change = level / base level - 1, compared between independent sessions (a column needs"
		      " 3 sessions or more for a verdict).";
	else if (t->paired == t->compared)
		how = "; columns measured in the same sessions are compared within each session (paired): the"
		      " change is the geometric mean of the per-session ratios, and a column's level is base x"
		      " (1 + change).";
	else
		how = "; change = level / base level - 1 between independent sessions; columns measured in the"
		      " same sessions as the base are compared within each session (paired): their change is the"
		      " geometric mean of the per-session ratios, their level base x (1 + change).";
	return note_add(blk, RESULT_NOTE_LEGEND, 0,
			"Estimate: a column's level is the mean of its sessions' means (outliers set aside)%s", how);
}

/* The distinct reasons cells have too little data for a verdict, one line each (at most four). */
static int note_insufficient(struct result_block *blk, size_t ncols)
{
	const char *why[4];
	size_t n = 0;
	int ret = 0;

	for (size_t r = 0; r < blk->nrows; r++)
		for (size_t c = 0; c < ncols; c++) {
			const struct result_cell *rc = &blk->rows[r].cells[c];
			const char *w = rc->state == RESULT_INSUFFICIENT ? rc->change->why_insufficient : NULL;
			size_t i = 0;

			if (rc->state != RESULT_INSUFFICIENT)
				continue;
			w = w ? w : "too few samples";
			while (i < n && strcmp(why[i], w))
				i++;
			if (i == n && n < 4)
				why[n++] = w;
		}
	for (size_t i = 0; !ret && i < n; i++)
		ret = note_add(blk, RESULT_NOTE_LEGEND, 0, "(-) too little data for a verdict: %s.", why[i]);
	return ret;
}

/* Whether some undecided cell's plan is a lower bound (too few sessions behind its spread). */
static bool note_at_least(const struct result_view *v, const struct result_block *blk)
{
	for (size_t r = 0; r < blk->nrows; r++)
		for (size_t c = 0; c < v->ncols; c++) {
			const struct stats_change *ch = blk->rows[r].cells[c].change;

			if (ch && !ch->decided && ch->plan_at_least && isfinite(ch->sessions_needed))
				return true;
		}
	return false;
}

/* One line: how many cells are undecided and what it would take. */
static int note_undecided(const struct result_view *v, struct result_block *blk)
{
	const struct result_tally *t = &blk->tally;
	size_t undecided = t->undecided;
	char plan[240] = "", unknown[200] = "";

	if (v->opts.rule != STATS_RULE_NESTED || !undecided)
		return 0;
	if (t->unplannable < undecided)
		snprintf(plan, sizeof(plan), "; detecting a %.10g%% change takes up to %.0f sessions per column%s",
			 v->opts.target_pct, t->most_needed, note_at_least(v, blk) ? " (or more: some cells have too"
			 " few sessions to bound their spread)" : "");
	if (t->unplannable)
		snprintf(unknown, sizeof(unknown),
			 "; %zu the data cannot plan for (no spread, or too few sessions: clearpath calibrate"
			 " measures the noise)", t->unplannable);
	return note_add(blk, RESULT_NOTE_UNDECIDED, 0, "Undecided: %zu of %zu cells%s%s.", undecided, t->compared,
			plan, unknown);
}

/* Under --stats, one line per result class whose noise floor is known (clearpath calibrate). */
static int note_floors(const struct result_view *v, struct result_block *blk)
{
	int ret = 0;

	for (size_t r = 0; !ret && r < blk->nrows; r++) {
		const struct result_row *row = &blk->rows[r];
		const struct cmp_floor *f = row->floor;
		char detect[96], need[96] = "", between[80];

		if (!f)
			continue;
		if (isfinite(f->mde4_pct))
			snprintf(detect, sizeof(detect), "; 4 sessions per column detect %s%.2f%%",
				 f->at_least ? "at least " : "", f->mde4_pct);
		else
			snprintf(detect, sizeof(detect), "; no spread to plan with");
		if (isfinite(f->sessions_needed))
			snprintf(need, sizeof(need), ", %.10g%% takes %s%.0f", v->opts.target_pct,
				 f->at_least ? "at least " : "", f->sessions_needed);
		/* the between-session estimate is truncated at 0: "0.00%" would claim more than it knows */
		if (f->between_pct == 0 && f->within_pct > 0)
			snprintf(between, sizeof(between), "sessions differ no more than the repeats explain");
		else
			snprintf(between, sizeof(between), "sessions differ by %.2f%%", f->between_pct);
		ret = note_add(blk, RESULT_NOTE_FLOOR, RESULT_ONLY_STATS,
			       "Noise floor of %s (clearpath calibrate, %zu sessions): %s, repeats by %.2f%%%s%s.",
			       row->rclass, f->sessions, between, f->within_pct, detect, need);
	}
	return ret;
}

/* One warning per setting in which a column's sessions differ from the base's. */
static int note_settings(struct result_block *blk)
{
	size_t i;
	json_t *d;
	int ret = 0;

	json_array_foreach(blk->settings_differ, i, d) {
		char *base = json_dumps(json_object_get(d, "base"), JSON_ENCODE_ANY | JSON_COMPACT);
		char *value = json_dumps(json_object_get(d, "value"), JSON_ENCODE_ANY | JSON_COMPACT);

		if (!ret)
			ret = note_add(blk, RESULT_NOTE_WARNING, 0,
				       "Warning: %s ran with %s = %s, the base with %s: the comparison mixes settings.",
				       json_string_value(json_object_get(d, "column")),
				       json_string_value(json_object_get(d, "setting")), value ?: "null", base ?: "null");
		free(base);
		free(value);
	}
	return ret;
}

/* "in both columns", "in every column" or "in A and B": which columns ran with THP always. */
static void note_thp_columns(const json_t *cols, size_t ncols, char *buf, size_t len)
{
	size_t n = json_array_size(cols), i;
	json_t *c;
	int used;

	if (n == ncols && n > 1) {
		snprintf(buf, len, "in %s", n == 2 ? "both columns" : "every column");
		return;
	}
	used = snprintf(buf, len, "in");
	json_array_foreach(cols, i, c) {
		if (used < 0 || (size_t)used >= len)
			return;
		used += snprintf(buf + used, len - (size_t)used, "%s%s", !i ? " " : i + 1 < n ? ", " : " and ",
				 json_string_value(c));
	}
}

/*
 * Say what a 4KB number really measured: with THP enabled=always the kernel
 * backs a 4KB mapping with 2MB pages where it can, so the result counts
 * mostly THP faults (several times faster), whatever the label says.
 */
static int note_thp(struct result_block *blk, size_t ncols)
{
	size_t i;
	json_t *row;
	int ret = 0;

	json_array_foreach(blk->thp_always, i, row) {
		char where[512];

		note_thp_columns(json_object_get(row, "columns"), ncols, where, sizeof(where));
		if (!ret)
			ret = note_add(blk, RESULT_NOTE_WARNING, 0,
				       "Warning: %s ran with THP enabled=always %s: it measured mostly 2MB THP faults, not"
				       " 4KB faults; run it with --thp never to measure 4KB faults.",
				       json_string_value(json_object_get(row, "resultclass")), where);
	}
	return ret;
}

/*
 * The rows whose buffers the machine's last-level cache holds: between
 * being dirtied and cleared they can stay in it, so their rates measure the
 * cache more than memory, and stores that bypass it (non-temporal) lose to
 * it there and win beyond it.
 */
static int note_cache(struct result_block *blk)
{
	char most_s[32], llc_s[32], rows[64];
	uint64_t most = 0;
	size_t n = 0;

	for (size_t r = 0; r < blk->nrows; r++)
		if (blk->rows[r].cache_resident) {
			n++;
			most = blk->rows[r].buffer > most ? blk->rows[r].buffer : most;
		}
	if (!n)
		return 0;
	if (n == blk->nrows)
		snprintf(rows, sizeof(rows), "%s", n == 1 ? "the row" : "every row");
	else
		snprintf(rows, sizeof(rows), "%zu of %zu rows", n, blk->nrows);
	size_format(blk->llc, llc_s, sizeof(llc_s));
	return note_add(blk, RESULT_NOTE_CACHE, 0,
			"Cache-resident: %s clear%s buffers of at most %s, within this machine's %s L%u cache: the"
			" rates measure the cache more than memory (non-temporal stores, which bypass it, lose to it"
			" there); buffers above %s measure memory.", rows, n == blk->nrows ? "s" : "",
			size_format(most, most_s, sizeof(most_s)), llc_s, blk->llc_level, llc_s);
}

/* Where a row is a share in per cent: its changes are in points. */
static int note_points(struct result_block *blk)
{
	for (size_t r = 0; r < blk->nrows; r++)
		if (result_row_points(&blk->rows[r]))
			return note_add(blk, RESULT_NOTE_LEGEND, 0,
					"pp: a share's change in percentage points, the column's share minus the base's"
					" (its mark is the same test as a per cent change's); a share is over every"
					" profiled run of its column, none set aside as an outlier.");
	return 0;
}

/*
 * Where a --profile symbol's share covers fewer runs than its column
 * profiled (cmp_cell.absent): which, in how many, so that the share, which
 * counts the others 0, does not pass for a mean over the runs that had it.
 */
static int note_absent(const struct result_view *v, struct result_block *blk)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	size_t n = 0;
	int ret = 0;

	if (!f)
		return -ENOMEM;
	for (size_t r = 0; r < blk->nrows; r++)
		for (size_t c = 0; c < v->ncols; c++) {
			const struct cmp_cell *src = blk->rows[r].cells[c].src;

			if (src && src->absent)
				fprintf(f, "%s%s in %zu of %zu runs of %s", n++ ? "; " : "", blk->rows[r].rclass,
					src->n - src->absent, src->n, v->cols[c]);
		}
	if (fclose(f))
		ret = -ENOMEM;
	else if (n)
		ret = note_add(blk, RESULT_NOTE_LEGEND, 0,
			       "Partial shares: a run keeps the top five symbols of its profile, and a profiled run that"
			       " did not keep one counts 0 in its share: %s.", text);
	free(text);
	return ret;
}

/* In human units: what perf's GB/sec is, where a row is a rate in bytes. */
static int note_units(struct result_block *blk)
{
	for (size_t r = 0; r < blk->nrows; r++)
		if (units_is_byte_rate(blk->rows[r].unit))
			return note_add(blk, RESULT_NOTE_UNITS, RESULT_ONLY_HUMAN,
					"Units: " UNITS_GB_NOTE "; --units raw prints the bytes/sec stored.");
	return 0;
}

static int note_block(const struct result_view *v, struct result_block *blk)
{
	int ret = note_marks(v, blk);

	if (!ret)
		ret = note_false_marks(v, blk);
	if (!ret)
		ret = note_estimate(v, blk);
	if (!ret)
		ret = note_add(blk, RESULT_NOTE_LEGEND, RESULT_ONLY_STATS,
			       "Cells: base level ±CI half-width, or change [CI of the change, %%] at level; n=samples/sessions;"
			       " cv=coefficient of variation; o=outlier samples (set aside); mde=smallest change this"
			       " data detects; need=sessions per column to detect the --target change.");
	if (!ret)
		ret = note_units(blk);
	if (!ret)
		ret = note_points(blk);
	if (!ret)
		ret = note_absent(v, blk);
	if (!ret)
		ret = note_insufficient(blk, v->ncols);
	if (!ret)
		ret = note_too_few(v, blk);
	if (!ret && v->opts.rule == STATS_RULE_NESTED)
		ret = note_modes_looks(v, blk);
	if (!ret)
		ret = note_undecided(v, blk);
	if (!ret)
		ret = note_floors(v, blk);
	if (!ret)
		ret = note_cache(blk);
	if (!ret)
		ret = note_settings(blk);
	if (!ret)
		ret = note_thp(blk, v->ncols);
	return ret;
}

int result_view_notes(struct result_view *v)
{
	int ret = 0;

	for (size_t b = 0; !ret && b < v->nblocks; b++)
		ret = note_block(v, &v->blocks[b]);
	return ret;
}
