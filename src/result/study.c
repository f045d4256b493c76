/* study: the clearing-strategy study from the `mem clear` view: per extent the rows it reads, the fastest strategy in each, whether it beats the runner-up. */
#include "result/study.h"
#include "kernels/kernels.h"
#include "util/size.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

bool result_study_wanted(const struct cmp_opts *o)
{
	return !o->benchmark_glob || !fnmatch(o->benchmark_glob, RESULT_STUDY_SUITE, 0);
}

/*
 * A row of `mem clear`, by its parameters: its extent (-k; 0, the default,
 * is one page: the -p value) and page, and which rate it is (--then and the
 * metric).  False for other rows.
 */
static bool study_row(const struct ident_class *c, const char **extent, const char **page,
		      enum result_study_rate *rate)
{
	const char *then = ident_value(c, "then"), *k = ident_value(c, "extent");

	*page = ident_value(c, "page");
	if (!ident_is(c, "mem/clear") || !*page || !k || !c->metric)
		return false;
	then = then ? then : "none";	/* stored before --then existed: none, its default */
	*extent = strcmp(k, "0") ? k : *page;
	if (!strcmp(then, "none") && ident_headline(c))
		*rate = RESULT_STUDY_CLEAR_ONLY;
	else if (!strcmp(then, "read") && ident_headline(c))
		*rate = RESULT_STUDY_CLEAR_THEN;
	else if (!strcmp(then, "read") && !strcmp(c->metric, "then-read"))
		*rate = RESULT_STUDY_THEN_READ;
	else if (!strcmp(then, "read") && !strcmp(c->metric, "combined"))
		*rate = RESULT_STUDY_COMBINED;
	else
		return false;
	return true;
}

/*
 * The entry of @extent of @page pages in @blk, added (sorted by size) when
 * new; NULL when out of memory.  Two pages are two entries: "-p 2MB" and
 * "-p 4KB -k 2MB" both clear 2MB extents, one page or 512.
 */
static struct result_study_extent *study_extent(struct result_study_block *blk, const char *extent,
						const char *page)
{
	struct result_study_extent *grown, e = { 0 };
	size_t at;

	page = strcmp(page, "4KB") ? page : "";
	for (size_t i = 0; i < blk->next; i++)
		if (!strcmp(blk->ext[i].extent, extent) && !strcmp(blk->ext[i].page, page))
			return &blk->ext[i];
	if (size_parse(extent, &e.bytes))
		e.bytes = UINT64_MAX;
	snprintf(e.page, sizeof(e.page), "%s", page);
	e.extent = strdup(extent);
	grown = realloc(blk->ext, (blk->next + 1) * sizeof(*grown));
	if (!e.extent || !grown) {
		free(e.extent);
		if (grown)
			blk->ext = grown;
		return NULL;
	}
	blk->ext = grown;
	for (at = blk->next; at && blk->ext[at - 1].bytes > e.bytes; at--)
		blk->ext[at] = blk->ext[at - 1];
	blk->ext[at] = e;
	blk->next++;
	return &blk->ext[at];
}

/* Whether strategy @name stores past the cache: the kernels' own flag, else the names they use. */
static bool study_nontemporal(const char *name)
{
	const struct kern_strategy *k = kern_find(name);

	if (k)
		return k->nontemporal;
	return strstr(name, "movnti") || strstr(name, "-nt") || strstr(name, "stnp") || strstr(name, "clzero");
}

/* Each session's level of @c: its uuids' indices into @ids, levels into @lv (both c->n long); the count. */
static int study_levels(const struct cmp_cell *c, int *ids, double *lv)
{
	struct stats_sample_set set = cmp_cell_samples(c);

	return stats_session_levels(&set, ids, lv);
}

/*
 * Whether cell @a is decided better than cell @b of the same row: paired
 * within the sessions both have (as the table compares -f columns), else
 * between independent sessions.  False when it cannot say.
 */
static bool study_beats(const struct result_row *row, const struct cmp_cell *a, const struct cmp_cell *b)
{
	int *ia = malloc((a->n + 1) * sizeof(*ia)), *ib = malloc((b->n + 1) * sizeof(*ib));
	double *la = malloc((a->n + 1) * sizeof(*la)), *lb = malloc((b->n + 1) * sizeof(*lb));
	double *pa = malloc((a->n + 1) * sizeof(*pa)), *pb = malloc((a->n + 1) * sizeof(*pb));
	int ka = ia && ib && la && lb && pa && pb ? study_levels(a, ia, la) : -1;
	int kb = ka >= 0 ? study_levels(b, ib, lb) : -1;
	struct stats_change ch;
	size_t k = 0;
	int ret = -1;

	for (int i = 0; i < ka && kb >= 0; i++)
		for (int j = 0; j < kb; j++)
			if (!strcmp(a->uuids[ia[i]], b->uuids[ib[j]])) {
				pb[k] = lb[j];
				pa[k++] = la[i];
			}
	if (kb >= 0 && k)
		ret = stats_compare_paired(pb, pa, k, row->higher_is_better, STATS_DEFAULT_ALPHA, 0, &ch);
	else if (kb >= 0)
		ret = stats_compare(&b->st, &a->st, row->higher_is_better, STATS_RULE_NESTED, STATS_DEFAULT_ALPHA, 0,
				    &ch);
	free(ia);
	free(ib);
	free(la);
	free(lb);
	free(pa);
	free(pb);
	return !ret && ch.verdict == STATS_IMPROVEMENT;
}

/*
 * The column of @row with the highest level (@lowest: the lowest, among the
 * non-temporal columns), and the runner-up; SIZE_MAX when none.
 */
static struct result_study_pick study_pick(const struct result_study *st, const struct result_row *row, bool lowest)
{
	struct result_study_pick p = { row, SIZE_MAX, SIZE_MAX, false };

	for (size_t c = 0; row && c < st->view.ncols; c++) {
		double v = row->cells[c].level;

		if (!isfinite(v) || (lowest && !st->nontemporal[c]))
			continue;
		if (p.col == SIZE_MAX || (lowest ? v < row->cells[p.col].level : v > row->cells[p.col].level)) {
			p.runner_up = p.col;
			p.col = c;
		} else if (p.runner_up == SIZE_MAX ||
			   (lowest ? v < row->cells[p.runner_up].level : v > row->cells[p.runner_up].level)) {
			p.runner_up = c;
		}
	}
	if (p.col == SIZE_MAX)
		p.row = NULL;
	else if (!lowest && p.runner_up != SIZE_MAX)
		p.distinguishable = study_beats(row, row->cells[p.col].src, row->cells[p.runner_up].src);
	return p;
}

static void study_answer(const struct result_study *st, struct result_study_extent *e)
{
	const struct result_row *clear = e->rows[RESULT_STUDY_CLEAR_ONLY] ? e->rows[RESULT_STUDY_CLEAR_ONLY]
									   : e->rows[RESULT_STUDY_CLEAR_THEN];

	e->clear = study_pick(st, clear, false);
	e->combined = study_pick(st, e->rows[RESULT_STUDY_COMBINED], false);
	e->consumer = study_pick(st, e->rows[RESULT_STUDY_THEN_READ], true);
}

static int study_block(struct result_study *st, const struct result_block *vb, struct result_study_block *blk)
{
	bool then = false;

	blk->block = vb;
	for (size_t r = 0; r < vb->nrows; r++) {
		const struct result_row *row = &vb->rows[r];
		struct result_study_extent *e;
		enum result_study_rate rate;
		const char *extent, *page;

		if (!study_row(row->src->ident, &extent, &page, &rate))
			continue;
		if (!(e = study_extent(blk, extent, page)))
			return -ENOMEM;
		e->rows[rate] = row;
		then |= rate != RESULT_STUDY_CLEAR_ONLY;
	}
	for (size_t i = 0; i < blk->next; i++)
		study_answer(st, &blk->ext[i]);
	/* the study is about clearing then using: clear-only rows alone are no study */
	if (!then) {
		for (size_t i = 0; i < blk->next; i++)
			free(blk->ext[i].extent);
		free(blk->ext);
		blk->ext = NULL;
		blk->next = 0;
	}
	return 0;
}

void result_study_free(struct result_study *st)
{
	for (size_t b = 0; st && b < st->nblocks; b++) {
		for (size_t e = 0; e < st->blocks[b].next; e++)
			free(st->blocks[b].ext[e].extent);
		free(st->blocks[b].ext);
	}
	if (st) {
		free(st->blocks);
		free(st->nontemporal);
		result_view_free(&st->view);
	}
	free(st);
}

int result_study_build(struct cmp_set *set, const struct cmp_opts *o, const json_t *suts, struct result_study **out)
{
	struct result_study *st = calloc(1, sizeof(*st));
	size_t extents = 0;
	int ret = st ? result_view_of(set, o, &st->view) : -ENOMEM;

	if (!ret)
		result_view_cache(&st->view, suts);

	*out = NULL;
	if (!ret && (!(st->blocks = calloc(set->nblocks ? set->nblocks : 1, sizeof(*st->blocks))) ||
		     !(st->nontemporal = calloc(set->ncols ? set->ncols : 1, sizeof(*st->nontemporal)))))
		ret = -ENOMEM;
	if (ret) {
		result_study_free(st);
		return ret;
	}
	st->memset = SIZE_MAX;
	for (size_t c = 0; c < set->ncols; c++) {
		st->nontemporal[c] = study_nontemporal(set->cols[c]);
		if (!strcmp(set->cols[c], "default"))
			st->memset = c;
	}
	for (size_t b = 0; !ret && b < st->view.nblocks; b++) {
		ret = study_block(st, &st->view.blocks[b], &st->blocks[st->nblocks]);
		extents += st->blocks[st->nblocks].next;
		st->nblocks++;
	}
	if (ret || !extents) {
		result_study_free(st);
		return ret;
	}
	*out = st;
	return 0;
}
