/* rpt_study: the clearing-strategy study from the store: per extent each strategy's clear, then-read and combined rate, and the answer in words. */
#include "report/html.h"
#include "report/impl.h"
#include "report/study.h"
#include "kernels/kernels.h"
#include "util/size.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const study_metric[RPT_STUDY_NMETRICS] = { "clear", "then-read", "combined" };

/*
 * A row of `mem clear ... --then read`: its extent (the -k value; the page,
 * 4KB, when the command line has none) and which rate it is (the part after
 * " :", none for clear).  False for other rows.
 */
static bool study_parse(const char *rclass, char *extent, size_t len, int *metric)
{
	const char *k = strstr(rclass, " -k "), *colon = strstr(rclass, " :");

	if (strncmp(rclass, "clear ", 6) || !strstr(rclass, "--then read"))
		return false;
	*metric = RPT_STUDY_CLEAR;
	if (colon) {
		for (int m = RPT_STUDY_THEN; m < RPT_STUDY_NMETRICS; m++)
			if (!strcmp(colon + 2, study_metric[m]))
				*metric = m;
		if (*metric == RPT_STUDY_CLEAR)
			return false;
	}
	if (k)
		snprintf(extent, len, "%.*s", (int)strcspn(k + 4, " "), k + 4);
	else
		snprintf(extent, len, "4KB");
	return true;
}

/* The entry of @extent in @blk, added (sorted by size) when new; NULL when out of memory. */
static struct rpt_study_extent *study_extent(struct rpt_study_block *blk, const char *extent, size_t ncols)
{
	struct rpt_study_extent *grown, e = { 0 };
	size_t at;

	for (size_t i = 0; i < blk->next; i++)
		if (!strcmp(blk->ext[i].extent, extent))
			return &blk->ext[i];
	if (size_parse(extent, &e.bytes))
		e.bytes = UINT64_MAX;
	e.extent = strdup(extent);
	e.rate = malloc(ncols * sizeof(*e.rate));
	grown = realloc(blk->ext, (blk->next + 1) * sizeof(*grown));
	if (!e.extent || !e.rate || !grown) {
		free(e.extent);
		free(e.rate);
		if (grown)
			blk->ext = grown;
		return NULL;
	}
	blk->ext = grown;
	for (size_t c = 0; c < ncols; c++)
		for (int m = 0; m < RPT_STUDY_NMETRICS; m++)
			e.rate[c][m] = NAN;
	for (at = blk->next; at && blk->ext[at - 1].bytes > e.bytes; at--)
		blk->ext[at] = blk->ext[at - 1];
	blk->ext[at] = e;
	blk->next++;
	return &blk->ext[at];
}

static int study_block(const struct cmp_set *s, const struct cmp_block *cb, struct rpt_study_block *blk)
{
	blk->name = cb->name;
	for (size_t r = 0; r < cb->nrows; r++) {
		const struct cmp_row *row = &cb->rows[r];
		struct rpt_study_extent *e;
		char extent[64];
		int m;

		if (!study_parse(row->rclass, extent, sizeof(extent), &m))
			continue;
		if (!(e = study_extent(blk, extent, s->ncols)))
			return -ENOMEM;
		for (size_t c = 0; c < s->ncols; c++)
			if (row->cells[c].n)
				e->rate[c][m] = row->cells[c].st.mean;
	}
	return 0;
}

/* Whether strategy @name stores past the cache: the kernels' own flag, else the names they use. */
static bool study_nontemporal(const char *name)
{
	const struct kern_strategy *k = kern_find(name);

	if (k)
		return k->nontemporal;
	return strstr(name, "movnti") || strstr(name, "-nt") || strstr(name, "stnp") || strstr(name, "clzero");
}

void rpt_study_free(struct rpt_study *st)
{
	for (size_t b = 0; st && b < st->nblocks; b++) {
		for (size_t e = 0; e < st->blocks[b].next; e++) {
			free(st->blocks[b].ext[e].extent);
			free(st->blocks[b].ext[e].rate);
		}
		free(st->blocks[b].ext);
	}
	if (st) {
		free(st->blocks);
		free(st->nontemporal);
	}
	free(st);
}

int rpt_study_build(const struct cmp_set *s, struct rpt_study **out)
{
	struct rpt_study *st = calloc(1, sizeof(*st));
	size_t extents = 0;
	int ret = 0;

	*out = NULL;
	if (!st || !(st->blocks = calloc(s->nblocks ? s->nblocks : 1, sizeof(*st->blocks))) ||
	    !(st->nontemporal = calloc(s->ncols ? s->ncols : 1, sizeof(*st->nontemporal)))) {
		rpt_study_free(st);
		return -ENOMEM;
	}
	st->set = s;
	for (size_t c = 0; c < s->ncols; c++)
		st->nontemporal[c] = study_nontemporal(s->cols[c]);
	for (size_t b = 0; !ret && b < s->nblocks; b++) {
		ret = study_block(s, &s->blocks[b], &st->blocks[st->nblocks]);
		extents += st->blocks[st->nblocks].next;
		st->nblocks++;
	}
	if (ret || !extents) {
		rpt_study_free(st);
		return ret;
	}
	*out = st;
	return 0;
}

/* The column with the highest rate @m at extent @e, or SIZE_MAX when none has one. */
static size_t study_best(const struct rpt_study *st, const struct rpt_study_extent *e, int m)
{
	size_t best = SIZE_MAX;

	for (size_t c = 0; c < st->set->ncols; c++)
		if (isfinite(e->rate[c][m]) && (best == SIZE_MAX || e->rate[c][m] > e->rate[best][m]))
			best = c;
	return best;
}

/* The column named "default" (libc memset), or SIZE_MAX. */
static size_t study_memset(const struct rpt_study *st)
{
	for (size_t c = 0; c < st->set->ncols; c++)
		if (!strcmp(st->set->cols[c], "default"))
			return c;
	return SIZE_MAX;
}

/* "x86-64-movnti (12.34 GB/s, +45% vs memset)" for column @c at rate @m. */
static void study_fastest(const struct rpt_study *st, const struct rpt_study_extent *e, size_t c, int m,
			  FILE *out)
{
	size_t ms = study_memset(st);

	fprintf(out, "%s (%.2f GB/s", st->set->cols[c], e->rate[c][m] / 1e9);
	if (ms != SIZE_MAX && ms != c && isfinite(e->rate[ms][m]) && e->rate[ms][m] > 0)
		fprintf(out, ", %+.0f%% vs memset", 100 * (e->rate[c][m] / e->rate[ms][m] - 1));
	fputs(")", out);
}

/* What the consumer pays after non-temporal clearing: the slowest then-read among them against memset's. */
static void study_consumer(const struct rpt_study *st, const struct rpt_study_extent *e, FILE *out)
{
	size_t ms = study_memset(st), worst = SIZE_MAX;
	double nt, mem;

	for (size_t c = 0; c < st->set->ncols; c++)
		if (st->nontemporal[c] && isfinite(e->rate[c][RPT_STUDY_THEN]) &&
		    (worst == SIZE_MAX || e->rate[c][RPT_STUDY_THEN] < e->rate[worst][RPT_STUDY_THEN]))
			worst = c;
	if (worst == SIZE_MAX || ms == SIZE_MAX || !isfinite(e->rate[ms][RPT_STUDY_THEN]))
		return;
	nt = e->rate[worst][RPT_STUDY_THEN];
	mem = e->rate[ms][RPT_STUDY_THEN];
	fprintf(out, " After non-temporal %s the consumer reads at %.2f GB/s, after memset at %.2f GB/s: %s.",
		st->set->cols[worst], nt / 1e9, mem / 1e9,
		nt < 0.9 * mem ? "it finds the lines cold and pays for the streaming clear"
			       : "no cold-line penalty at this extent");
}

/* One extent's answer: fastest clear, fastest clear-then-read, what the consumer pays. */
static void study_sentence(const struct rpt_study *st, const struct rpt_study_extent *e, FILE *out)
{
	size_t bc = study_best(st, e, RPT_STUDY_CLEAR), bb = study_best(st, e, RPT_STUDY_COMBINED);

	fprintf(out, "%s extents%s: ", e->extent, e->bytes == 4096 ? " (one page, clear_page)" : "");
	if (bc != SIZE_MAX) {
		fputs("fastest clear ", out);
		study_fastest(st, e, bc, RPT_STUDY_CLEAR, out);
	}
	if (bb != SIZE_MAX) {
		fputs("; fastest clear-then-read ", out);
		study_fastest(st, e, bb, RPT_STUDY_COMBINED, out);
	}
	fputs(".", out);
	study_consumer(st, e, out);
}

int rpt_study_text(const struct rpt_study *st, FILE *out)
{
	for (size_t b = 0; b < st->nblocks; b++) {
		const struct rpt_study_block *blk = &st->blocks[b];

		if (!blk->next)
			continue;
		fprintf(out, "Clearing strategies on %s (mem clear --then read, means of every session):\n",
			blk->name);
		for (size_t e = 0; e < blk->next; e++) {
			fputs("  ", out);
			study_sentence(st, &blk->ext[e], out);
			fputc('\n', out);
		}
	}
	return rpt_stream_status(out);
}

static void study_html_table(const struct rpt_study *st, const struct rpt_study_extent *e, FILE *out)
{
	fputs("<table class=\"study\">\n<thead><tr><th>strategy</th><th>clear (GB/s)</th>"
	      "<th>then-read (GB/s)</th><th>combined (GB/s)</th></tr></thead>\n<tbody>\n", out);
	for (size_t c = 0; c < st->set->ncols; c++) {
		fputs("<tr><td>", out);
		rpt_html_escape(st->set->cols[c], out);
		fputs(st->nontemporal[c] ? " (non-temporal)</td>" : "</td>", out);
		for (int m = 0; m < RPT_STUDY_NMETRICS; m++)
			if (isfinite(e->rate[c][m]))
				fprintf(out, "<td class=\"num\">%.2f</td>", e->rate[c][m] / 1e9);
			else
				fputs("<td class=\"num\">-</td>", out);
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
}

int rpt_study_html(const struct rpt_study *st, FILE *out)
{
	fputs("<section class=\"study\" id=\"clear-study\">\n<h2>Clearing strategies: memset or non-temporal"
	      " stores?</h2>\n<p class=\"how\">From the store's <code>mem clear -f all --then read</code> samples:"
	      " each extent of <code>-k</code> bytes of a dirtied buffer is cleared with the strategy, then the"
	      " consumer reads one word per cache line of it, as a program does after its page fault. All three"
	      " rates come from that one timed pass: <b>clear</b> is the bytes over the time spent clearing,"
	      " <b>then-read</b> the bytes over the time the consumer spent reading right after (cycle-counter"
	      " reads around each extent split the pass), <b>combined</b> the bytes over their sum, what a fault"
	      " plus first use costs; so combined never exceeds clear. GB/s (10<sup>9</sup> bytes per second),"
	      " the mean of every sample; the verdicts are in the tables below (<code>--columns param:f</code>).</p>\n",
	      out);
	for (size_t b = 0; b < st->nblocks; b++) {
		const struct rpt_study_block *blk = &st->blocks[b];

		if (!blk->next)
			continue;
		fputs("<h3>", out);
		rpt_html_escape(blk->name, out);
		fputs("</h3>\n<ul class=\"answer\">\n", out);
		for (size_t e = 0; e < blk->next; e++) {
			fputs("<li>", out);
			/* the sentence holds strategy names only: escape it as a whole */
			char *buf = NULL;
			size_t len = 0;
			FILE *m = open_memstream(&buf, &len);

			if (m) {
				study_sentence(st, &blk->ext[e], m);
				fclose(m);
				rpt_html_escape(buf, out);
			}
			free(buf);
			fputs("</li>\n", out);
		}
		fputs("</ul>\n", out);
		for (size_t e = 0; e < blk->next; e++) {
			fputs("<h4>", out);
			rpt_html_escape(blk->ext[e].extent, out);
			fputs(" extents</h4>\n", out);
			study_html_table(st, &blk->ext[e], out);
		}
	}
	fputs("</section>\n", out);
	return rpt_stream_status(out);
}
