/* rpt_html: HTML building blocks of the report: escaping, base64 data URIs, a table of the table model. */
#include "report/html.h"
#include "report/impl.h"

#include <errno.h>
#include <string.h>

void rpt_html_escape(const char *s, FILE *out)
{
	for (; s && *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(*s, out);
		}
}

void rpt_base64(const unsigned char *data, size_t len, FILE *out)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < len; i += 3) {
		unsigned v = (unsigned)data[i] << 16 | (i + 1 < len ? (unsigned)data[i + 1] << 8 : 0) |
			     (i + 2 < len ? data[i + 2] : 0);

		fputc(abc[v >> 18 & 63], out);
		fputc(abc[v >> 12 & 63], out);
		fputc(i + 1 < len ? abc[v >> 6 & 63] : '=', out);
		fputc(i + 2 < len ? abc[v & 63] : '=', out);
	}
}

static const char *rpt_html_tone_class(enum rpt_tone tone)
{
	return tone == RPT_TONE_IMPROVED ? " class=\"improved\"" : tone == RPT_TONE_REGRESSED ? " class=\"regressed\"" : "";
}

static void rpt_html_head(const struct rpt_table *t, FILE *out)
{
	fputs("<thead><tr>", out);
	for (size_t c = 0; c < t->ncols; c++) {
		fputs("<th>", out);
		rpt_html_escape(t->cols[c].header, out);
		fputs("</th>", out);
	}
	fputs("</tr></thead>\n", out);
}

static void rpt_html_body(const struct rpt_table *t, FILE *out)
{
	fputs("<tbody>\n", out);
	for (size_t r = 0; r < t->nrows; r++) {
		fputs("<tr>", out);
		for (size_t c = 0; c < t->ncols; c++) {
			bool right = t->cols[c].flags & RPT_COL_RIGHT;
			/* the tone (improved, regressed) wins over alignment: a changed cell is a number anyway */
			const char *cls = rpt_html_tone_class(t->rows[r].tones[c]);

			fprintf(out, "<td%s>", *cls ? cls : right ? " class=\"num\"" : "");
			if (!rpt_cell_hidden(t, r, c))
				rpt_html_escape(t->rows[r].cells[c], out);
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n", out);
}

int rpt_html_table(const struct rpt_table *t, FILE *out)
{
	return rpt_html_table_class(t, "results", out);
}

int rpt_html_table_class(const struct rpt_table *t, const char *cls, FILE *out)
{
	if (t->title) {
		fputs("<h2 class=\"table-title\">", out);
		rpt_html_escape(t->title, out);
		fputs("</h2>\n", out);
	}
	/* the header (machine, kernels, sessions): a line each, continuation lines indented */
	if (t->npreamble) {
		fputs("<div class=\"header\">\n", out);
		for (size_t i = 0; i < t->npreamble; i++) {
			const char *l = t->preamble[i];

			fputs(l[0] == ' ' ? "<p class=\"more\">" : "<p>", out);
			rpt_html_escape(l + strspn(l, " "), out);
			fputs("</p>\n", out);
		}
		fputs("</div>\n", out);
	}
	fprintf(out, "<table class=\"%s\">\n", cls);
	rpt_html_head(t, out);
	rpt_html_body(t, out);
	fputs("</table>\n", out);
	if (t->nfooters) {
		fputs("<ul class=\"legend\">\n", out);
		for (size_t i = 0; i < t->nfooters; i++) {
			fputs(t->warns[i] ? "<li class=\"warning\">" : "<li>", out);
			rpt_html_escape(t->footers[i], out);
			fputs("</li>\n", out);
		}
		fputs("</ul>\n", out);
	}
	return rpt_stream_status(out);
}
