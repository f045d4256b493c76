/* rpt_registry: the list of show's formats and report's outputs, lookups by name, and rendering to a stream or string. */
#include "report/html.h"
#include "report/impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* X(symbol): a new format is one new file defining `const struct rpt_format symbol` plus one line here. */
#define RPT_REGISTRY(X) \
	X(rpt_fmt_box) \
	X(rpt_fmt_grid) \
	X(rpt_fmt_compact) \
	X(rpt_fmt_markdown) \
	X(rpt_fmt_csv) \
	X(rpt_fmt_json)

#define RPT_DECLARE(sym) extern const struct rpt_format sym;
RPT_REGISTRY(RPT_DECLARE)
#undef RPT_DECLARE

#define RPT_ROW(sym) &sym,
static const struct rpt_format *const rpt_table_of_formats[] = { RPT_REGISTRY(RPT_ROW) };
#undef RPT_ROW

size_t rpt_format_count(void)
{
	return sizeof(rpt_table_of_formats) / sizeof(rpt_table_of_formats[0]);
}

const struct rpt_format *rpt_format_at(size_t i)
{
	return i < rpt_format_count() ? rpt_table_of_formats[i] : NULL;
}

const struct rpt_format *rpt_format_find(const char *name)
{
	for (size_t i = 0; i < rpt_format_count(); i++)
		if (!strcmp(rpt_table_of_formats[i]->name, name))
			return rpt_table_of_formats[i];
	return NULL;
}

int rpt_render(const struct rpt_table *t, const char *name, const struct rpt_opts *o, FILE *out)
{
	static const struct rpt_opts defaults;
	const struct rpt_format *f = rpt_format_find(name);

	if (!f)
		return -EINVAL;
	return f->render(t, o ? o : &defaults, out);
}

char *rpt_render_string(const struct rpt_table *t, const char *name, const struct rpt_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int rc;

	if (!mem)
		return NULL;
	rc = rpt_render(t, name, o, mem);
	/* fclose() finalises buf; it can fail only when growing the buffer did */
	if (fclose(mem) || rc) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The outputs of `clearpath report`: the page, or its plots as files of one kind. */
static const struct rpt_output rpt_outputs[] = {
	{ "html", "one self-contained page: tables, plots, sessions, fingerprints", false, PLOT_SVG },
	{ "svg", "the plots alone, one SVG file per result class", true, PLOT_SVG },
	{ "png", "the plots alone, one PNG file per result class", true, PLOT_PNG },
};

size_t rpt_output_count(void)
{
	return sizeof(rpt_outputs) / sizeof(rpt_outputs[0]);
}

const struct rpt_output *rpt_output_at(size_t i)
{
	return i < rpt_output_count() ? &rpt_outputs[i] : NULL;
}

const struct rpt_output *rpt_output_find(const char *name)
{
	for (size_t i = 0; i < rpt_output_count(); i++)
		if (!strcmp(rpt_outputs[i].name, name))
			return &rpt_outputs[i];
	return NULL;
}
