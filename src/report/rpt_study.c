/* rpt_study: the clearing-strategy study in words (report --answer) and as the page's first section, quoting the study view's own cells. */
#define _GNU_SOURCE	/* open_memstream */
#include "report/html.h"
#include "report/impl.h"
#include "util/units.h"
#include "report/study.h"
#include "util/size.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const study_rate_name[RESULT_STUDY_NRATES] = {
	"clear", "clear (then-read pass)", "then-read", "combined",
};

/* Cell @c of @row as the table says it: "39.41 GB/sec, (I) +43.77% vs default"; no change for the base. */
static void study_cell(const struct result_study *st, const struct result_row *row, size_t c, FILE *out)
{
	const struct result_cell *cell = &row->cells[c];
	char level[64], pct[32];

	units_human(cell->level, row->unit, level, sizeof(level));
	fputs(level, out);
	if (!cell->change)
		return;
	rpt_pct(cell->change->pct, true, pct, sizeof(pct));
	fprintf(out, ", %s%s%% vs %s", result_state_mark(cell->state), pct, st->view.cols[st->view.base]);
}

/* "fastest clear (row "clear -k 4KB -s 64MB"): x86-64-nt-avx512 at ..., not distinguishable from ... (...)" */
static void study_fastest(const struct result_study *st, const char *what, const struct result_study_pick *p,
			  FILE *out)
{
	fprintf(out, "%s (row \"%s\"): %s at ", what, p->row->rclass, st->view.cols[p->col]);
	study_cell(st, p->row, p->col, out);
	if (p->runner_up != SIZE_MAX && !p->distinguishable) {
		fprintf(out, "; not distinguishable from %s (", st->view.cols[p->runner_up]);
		study_cell(st, p->row, p->runner_up, out);
		fputs(")", out);
	}
	fputs(".", out);
}

/* What the consumer pays after non-temporal clearing: the slowest then-read among them against the base's. */
static void study_consumer(const struct result_study *st, const struct result_study_pick *p, FILE *out)
{
	const struct result_cell *cell = &p->row->cells[p->col];
	const char *verdict;

	if (p->col == st->view.base || !cell->change)
		return;
	verdict = cell->state == RESULT_REGRESSED
			  ? "it finds the lines cold and pays for the streaming clear"
		  : cell->state == RESULT_IMPROVED || cell->state == RESULT_SAME
			  ? "no cold-line penalty at this extent"
			  : "not yet distinguishable from the base (more sessions would decide)";
	fprintf(out, "after non-temporal %s the consumer reads at ", st->view.cols[p->col]);
	study_cell(st, p->row, p->col, out);
	fprintf(out, " (row \"%s\"): %s.", p->row->rclass, verdict);
}

/* The lines of one extent, each through @line. */
/*
 * " (cache-resident: 64MB buffers, within the 480MB L3 cache)" when a row of
 * @e clears a buffer its machine's last-level cache holds: at that extent
 * the answer compares stores that stay in the cache with stores that go to
 * memory.  "" otherwise.
 */
static void study_cache(const struct result_study_block *blk, const struct result_study_extent *e, char *buf,
			size_t len)
{
	uint64_t most = 0;
	char most_s[32], llc_s[32];

	buf[0] = '\0';
	for (int r = 0; r < RESULT_STUDY_NRATES; r++)
		if (e->rows[r] && e->rows[r]->cache_resident && e->rows[r]->buffer > most)
			most = e->rows[r]->buffer;
	if (most)
		snprintf(buf, len, " (cache-resident: %s buffers, within the %s L%u cache)",
			 size_format(most, most_s, sizeof(most_s)), size_format(blk->block->llc, llc_s, sizeof(llc_s)),
			 blk->block->llc_level);
}

static int study_extent_lines(const struct result_study *st, const struct result_study_block *blk,
			      const struct result_study_extent *e, int (*line)(void *ctx, const char *text, bool first),
			      void *ctx)
{
	char cache[128];
	const struct result_study_pick *picks[3] = { &e->clear, &e->combined, &e->consumer };
	int ret = 0;

	for (size_t i = 0; !ret && i < 4; i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		if (!m)
			return -ENOMEM;
		if (!i) {
			study_cache(blk, e, cache, sizeof(cache));
			fprintf(m, "%s extents%s%s%s%s%s:", e->extent, e->page[0] ? " of " : "", e->page,
				e->page[0] ? " pages" : "", e->bytes == 4096 ? " (one page, clear_page)" : "", cache);
		}
		else if (picks[i - 1]->row && i < 3)
			study_fastest(st, i == 1 ? "fastest clear" : "fastest clear-then-read", picks[i - 1], m);
		else if (picks[i - 1]->row)
			study_consumer(st, picks[i - 1], m);
		if (fclose(m)) {
			free(buf);
			return -ENOMEM;
		}
		if (*buf)
			ret = line(ctx, buf, !i);
		free(buf);
	}
	return ret;
}

/* The study's view as its header line names it. */
static void study_title(const struct result_study *st, const struct result_study_block *blk, FILE *out)
{
	fprintf(out, "Clearing strategies on %s (the levels and changes of `show --columns param:f --base %s"
		" --benchmark " RESULT_STUDY_SUITE "`):", blk->block->name, st->view.cols[st->view.base]);
}

struct study_text {
	FILE *out;
	size_t width;
};

static int study_text_line(void *ctx, const char *text, bool first)
{
	struct study_text *t = ctx;
	char *line = NULL;

	if (asprintf(&line, "%s%s", first ? "  " : "    ", text) < 0)
		return -ENOMEM;
	rpt_note(t->out, line, t->width);
	free(line);
	return 0;
}

int rpt_study_text(const struct result_study *st, const struct rpt_opts *o, FILE *out)
{
	struct study_text t = { out, o ? o->width : 0 };
	int ret = 0;

	for (size_t b = 0; !ret && b < st->nblocks; b++) {
		const struct result_study_block *blk = &st->blocks[b];
		char *title = NULL;
		size_t len = 0;
		FILE *m;

		if (!blk->next)
			continue;
		if (!(m = open_memstream(&title, &len)))
			return -ENOMEM;
		study_title(st, blk, m);
		if (fclose(m)) {
			free(title);
			return -ENOMEM;
		}
		rpt_note(out, title, t.width);
		free(title);
		for (size_t e = 0; !ret && e < blk->next; e++)
			ret = study_extent_lines(st, blk, &blk->ext[e], study_text_line, &t);
	}
	return ret ? ret : rpt_stream_status(out);
}

static void study_html_table(const struct result_study *st, const struct result_study_extent *e, FILE *out)
{
	fputs("<table class=\"study\">\n<thead><tr><th>strategy</th>", out);
	for (int m = 0; m < RESULT_STUDY_NRATES; m++)
		if (e->rows[m])
			fprintf(out, "<th>%s</th>", study_rate_name[m]);
	fputs("</tr></thead>\n<tbody>\n", out);
	for (size_t c = 0; c < st->view.ncols; c++) {
		fputs("<tr><td>", out);
		rpt_html_escape(st->view.cols[c], out);
		fputs(st->nontemporal[c] ? " (non-temporal)</td>" : "</td>", out);
		for (int m = 0; m < RESULT_STUDY_NRATES; m++) {
			const struct result_row *row = e->rows[m];
			char *cell = NULL;
			size_t len = 0;
			FILE *mem;

			if (!row)
				continue;
			if (!isfinite(row->cells[c].level) || !(mem = open_memstream(&cell, &len))) {
				fputs("<td class=\"num\">-</td>", out);
				continue;
			}
			study_cell(st, row, c, mem);
			fclose(mem);
			fputs("<td class=\"num\">", out);
			rpt_html_escape(cell, out);
			fputs("</td>", out);
			free(cell);
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
}

static int study_html_line(void *ctx, const char *text, bool first)
{
	FILE *out = ctx;

	fputs(first ? "<li><b>" : "<br>", out);
	rpt_html_escape(text, out);
	if (first)
		fputs("</b>", out);
	return 0;
}

int rpt_study_html(const struct result_study *st, FILE *out)
{
	fputs("<section class=\"study\" id=\"clear-study\">\n<h2>Clearing strategies: memset or non-temporal"
	      " stores?</h2>\n<p class=\"how\">From the store's <code>mem clear -f all+</code> samples: each extent"
	      " of <code>-k</code> bytes of a dirtied buffer is cleared with the strategy, alone (<b>clear</b>) or"
	      " with the consumer reading one word per cache line of it right after, as a program does after its"
	      " page fault (<code>--then read</code>). The clear-then-read rates come from that one timed pass:"
	      " <b>clear (then-read pass)</b> is the bytes over the time spent clearing, <b>then-read</b> the"
	      " bytes over the time the consumer spent reading, <b>combined</b> the bytes over their sum, what a"
	      " fault plus first use costs; so combined never exceeds clear. Every number is a cell of the"
	      " strategies' table below (<code>--columns param:f</code>): the column's level and its change from"
	      " the base.</p>\n", out);
	for (size_t b = 0; b < st->nblocks; b++) {
		const struct result_study_block *blk = &st->blocks[b];

		if (!blk->next)
			continue;
		fputs("<h3>", out);
		rpt_html_escape(blk->block->name, out);
		fputs("</h3>\n<ul class=\"answer\">\n", out);
		for (size_t e = 0; e < blk->next; e++) {
			if (study_extent_lines(st, blk, &blk->ext[e], study_html_line, out))
				return -ENOMEM;
			fputs("</li>\n", out);
		}
		fputs("</ul>\n", out);
		for (size_t e = 0; e < blk->next; e++) {
			fputs("<h4>", out);
			rpt_html_escape(blk->ext[e].extent, out);
			fputs(" extents", out);
			if (blk->ext[e].page[0]) {
				fputs(" of ", out);
				rpt_html_escape(blk->ext[e].page, out);
				fputs(" pages", out);
			}
			fputs("</h4>\n", out);
			study_html_table(st, &blk->ext[e], out);
		}
	}
	fputs("</section>\n", out);
	return rpt_stream_status(out);
}
