/* rpt_csv: the `csv` format, RFC 4180 records of the header and every row. */
#include "report/impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* RFC 4180 2.6/2.7: quote a field holding a comma or a quote, and double the quotes. */
static void csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (const char *p = s; *p; p++) {
		if (*p == '"')
			fputc('"', out);
		fputc(*p, out);
	}
	fputc('"', out);
}

/* RFC 4180 2.1: every record ends with CRLF. */
static void csv_record(FILE *out, const char *const *fields, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', out);
		csv_field(out, fields[i]);
	}
	fputs("\r\n", out);
}

/*
 * Only the header and the rows: a title or footer would break the one-record-
 * per-line shape that spreadsheets and scripts expect.  Group names repeat on
 * every row for the same reason.  The model has no line breaks in cells.
 */
static int csv_render(const struct rpt_table *t, const struct rpt_opts *o, FILE *out)
{
	const char **hdr;

	(void)o;	/* never colour */
	if (!t->ncols)
		return 0;
	if (!(hdr = calloc(t->ncols, sizeof(*hdr))))
		return -ENOMEM;
	for (size_t c = 0; c < t->ncols; c++)
		hdr[c] = t->cols[c].header;
	csv_record(out, hdr, t->ncols);
	free(hdr);
	for (size_t r = 0; r < t->nrows; r++)
		csv_record(out, (const char *const *)t->rows[r].cells, t->ncols);
	return rpt_stream_status(out);
}

const struct rpt_format rpt_fmt_csv = {
	.name = "csv",
	.desc = "RFC 4180 comma-separated values, header included",
	.render = csv_render,
	.caps = RPT_CAP_ONE_TABLE,
};
