/* rpt_page: the report page (per block its table, a plot per result class, its sessions; the fingerprints) and the plots as files. */
#define _GNU_SOURCE	/* open_memstream is POSIX, asprintf is not */
#include "report/html.h"
#include "report/impl.h"
#include "report/profile.h"
#include "report/study.h"
#include "result/study.h"
#include "util/log.h"
#include "util/replace.h"

#include <ctype.h>
#include <math.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char rpt_css[] =
	"body{font-family:system-ui,sans-serif;margin:1.5em;color:#111;max-width:1400px}"
	"h1{font-size:1.5em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}"
	"table{border-collapse:collapse;margin:.5em 0;font-size:.9em}"
	"th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}"
	"th{background:#f3f3f3}td.num,td.improved,td.regressed{text-align:right;font-variant-numeric:tabular-nums}"
	"td.improved{color:#0a6b2d;font-weight:600}td.regressed{color:#b00020;font-weight:600}"
	"ul.legend{font-size:.85em;color:#333}li.warning{color:#8a4b00;font-weight:600}"
	".plots{display:flex;flex-wrap:wrap;gap:1em}figure.plot{margin:0;width:600px;max-width:100%}"
	"figure.grid{width:1200px}"
	"figure.plot img{width:100%;height:auto;border:1px solid #ddd}figcaption{font-size:.8em;color:#444}"
	".swatch{display:inline-block;width:.9em;height:.9em;border-radius:50%;vertical-align:middle}"
	"p.how,p.meta{font-size:.9em;color:#333}code{font-size:.95em}"
	".header p{margin:.1em 0;font-size:.9em}.header p.more{margin-left:2em;color:#444;overflow-wrap:anywhere}"
	"section.profile{margin-top:1.5em}table.profile td{white-space:nowrap}tr.clearing td{background:#fff1dc;"
	"font-weight:600}span.spread,span.runs{display:block;font-size:.8em;font-weight:400;color:#555}span.runs{color:#8a4b00}td.none{color:#999;"
	"text-align:center}ul.bound{font-size:.9em}span.bound{font-weight:600}figure.profile{width:720px}";

int rpt_html_plot_data(const char *cls, const char *attr, const char *title, const char *data, rpt_draw_fn *draw,
		       const void *fig, FILE *out)
{
	char *svg = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&svg, &len);
	int ret = m ? draw(fig, PLOT_SVG, m) : -ENOMEM;

	if (m && fclose(m) && !ret)
		ret = -ENOMEM;
	if (!ret) {
		fprintf(out, "<figure class=\"%s\" data-%s=\"", cls, attr);
		rpt_html_escape(title, out);
		if (data) {
			fputs("\" data-panels=\"", out);
			rpt_html_escape(data, out);
		}
		fputs("\"><img alt=\"", out);
		rpt_html_escape(title, out);
		fputs("\" src=\"data:image/svg+xml;base64,", out);
		rpt_base64((const unsigned char *)svg, len, out);
		fputs("\"><figcaption>", out);
		rpt_html_escape(title, out);
		fputs("</figcaption></figure>\n", out);
	}
	free(svg);
	return ret;
}

int rpt_html_plot(const char *cls, const char *attr, const char *title, rpt_draw_fn *draw, const void *fig,
		  FILE *out)
{
	return rpt_html_plot_data(cls, attr, title, NULL, draw, fig, out);
}

static int rpt_page_draw(const void *fig, enum plot_kind kind, FILE *out)
{
	return plot_write(fig, kind, out);
}

static int rpt_page_draw_grid(const void *fig, enum plot_kind kind, FILE *out)
{
	return plot_grid_write(fig, kind, out);
}

static json_t *rpt_page_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/*
 * What each panel of a block's figure is drawn from, as the figure's
 * data-panels attribute: per panel its result class, unit, the axis range
 * drawn (plot_axis()) and per column the level (the bar) and the interval
 * (the whisker), in the unit drawn; tests/cli/browser_check.py reads it.
 */
static char *rpt_page_panels_json(const struct plot_figure *panels, size_t n)
{
	json_t *a = json_array();
	char *s;

	for (size_t i = 0; a && i < n; i++) {
		const struct plot_figure *f = &panels[i];
		struct plot_ticks t;
		json_t *cols = json_array();

		if (plot_axis(f, &t))
			t.lo = t.hi = NAN;
		for (size_t c = 0; cols && c < f->ncols; c++)
			json_array_append_new(cols, json_pack("{s:s, s:o, s:o, s:o}", "name", f->cols[c].name, "level",
							      rpt_page_num(f->cols[c].mean), "lo",
							      rpt_page_num(f->cols[c].lo), "hi",
							      rpt_page_num(f->cols[c].hi)));
		json_array_append_new(a, json_pack("{s:s, s:s, s:[o, o], s:o}", "title", f->title, "unit", f->unit,
						   "axis", rpt_page_num(t.lo), rpt_page_num(t.hi), "cols", cols));
	}
	/* 12 digits: what the checks need, and the same on every architecture */
	s = a ? json_dumps(a, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12)) : NULL;
	json_decref(a);
	return s;
}

int rpt_html_grid(const char *attr, const char *title, const struct plot_figure *panels, size_t n, FILE *out)
{
	struct plot_grid g = { title, panels, n, 2 };
	char *data = rpt_page_panels_json(panels, n);
	int ret = data ? rpt_html_plot_data("plot grid", attr, title, data, rpt_page_draw_grid, &g, out) : -ENOMEM;

	free(data);
	return ret;
}

/*
 * Block @b's plots as one figure, a panel per result class: one image
 * shares its fonts and styles (106 images of their own made a make run
 * page of 8 MB).
 */
static int rpt_page_grid(const struct result_view *v, size_t b, const struct rpt_sessions *ss, FILE *out)
{
	size_t n = v->blocks[b].nrows, built = 0;
	struct rpt_figure *figs = calloc(n ? n : 1, sizeof(*figs));
	struct plot_figure *panels = calloc(n ? n : 1, sizeof(*panels));
	char *title = NULL;
	int ret = figs && panels ? 0 : -ENOMEM;

	for (; !ret && built < n; built++)
		if (!(ret = rpt_figure_build(v, b, built, ss, &figs[built])))
			panels[built] = figs[built].fig;
	if (!ret && asprintf(&title, "%s", v->blocks[b].name) < 0)
		ret = -ENOMEM;
	if (!ret)
		ret = rpt_html_grid("block", title, panels, n, out);
	for (size_t i = 0; figs && i < built; i++)
		rpt_figure_free(&figs[i]);
	free(figs);
	free(panels);
	free(title);
	return ret;
}

static int rpt_page_plots(const struct result_view *v, size_t b, const struct rpt_sessions *ss, FILE *out)
{
	char level[32];
	int ret = 0;

	rpt_level_label(v->opts.alpha, level, sizeof(level));
	fprintf(out, "<p class=\"how\">A panel per result class. Each dot is one sample, coloured by its session"
		" (the table below); the black bar is each column's level, the number the table prints; the whisker"
		" beside it is the base's %s%% confidence interval and, on the other columns, the %s%% confidence"
		" interval of the change placed on the base's level: a column whose whisker misses the base bar"
		" changed. Rates in perf's GB/sec (2<sup>30</sup> bytes per second).</p>\n<div class=\"plots\">\n",
		level, level);
	if (v->blocks[b].nrows)
		ret = rpt_page_grid(v, b, ss, out);
	fputs("</div>\n", out);
	return ret;
}

/* A JSON value as a cell: strings as they are, anything else compact JSON. */
static void rpt_page_value(const json_t *v, FILE *out)
{
	char *s;

	if (json_is_string(v)) {
		rpt_html_escape(json_string_value(v), out);
		return;
	}
	s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_SORT_KEYS);
	rpt_html_escape(s ? s : "", out);
	free(s);
}

static const char *rpt_page_str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

/* The block's sessions, in the colours of its plots, with what each ran under. */
static void rpt_page_sessions(const struct rpt_page *p, const struct rpt_sessions *ss, const json_t *by_uuid,
			      FILE *out)
{
	fputs("<table class=\"sessions\">\n<thead><tr><th></th><th>session</th><th>sut</th><th>swprofile</th>"
	      "<th>started</th><th>ended</th><th>samples</th><th>THP</th><th>loadavg at start</th></tr></thead>\n"
	      "<tbody>\n", out);
	for (size_t i = 0; i < ss->n; i++) {
		const json_t *s = json_object_get(by_uuid, ss->uuids[i]);
		const json_t *env = json_object_get(s, "environment");
		const json_t *set = json_object_get(env, "settings");

		fprintf(out, "<tr><td><span class=\"swatch\" style=\"background:%s\"></span></td><td>",
			plot_session_color(i));
		rpt_html_escape(ss->uuids[i], out);
		fputs("</td>", out);
		static const char *const keys[] = { "sut", "swprofile", "started", "ended" };
		for (size_t k = 0; k < 4; k++) {
			fputs("<td>", out);
			rpt_html_escape(rpt_page_str(s, keys[k]), out);
			fputs("</td>", out);
		}
		fputs("<td class=\"num\">", out);
		if (json_object_get(s, "samples"))
			rpt_page_value(json_object_get(s, "samples"), out);
		fputs("</td><td>", out);
		rpt_html_escape(rpt_page_str(set, "thp_enabled"), out);
		fputs("</td><td>", out);
		rpt_html_escape(rpt_page_str(env, "loadavg"), out);
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
	(void)p;
}

/* Block @b of view @v, the @id-th block of the page. */
static int rpt_page_block(const struct rpt_page *p, const struct result_view *v, size_t b, size_t id,
			  const json_t *by_uuid, FILE *out)
{
	/* "colour": the cells' tones, which the page shows as classes (improved, regressed) */
	static const struct rpt_opts ro = { .color = true };
	struct rpt_table *t = NULL;
	struct rpt_sessions ss;
	int ret = rpt_view_table(v, b, &ro, &t);

	if (ret)
		return ret;
	/* the table's title ("Results for SUT Class X:") heads the section */
	fprintf(out, "<section class=\"block\" id=\"block-%zu\">\n", id);
	ret = rpt_html_table(t, out);
	rpt_table_free(t);
	if (!ret)
		ret = rpt_sessions_of(v, b, &ss);
	if (ret)
		return ret;
	ret = rpt_page_plots(v, b, &ss, out);
	if (!ret)
		ret = rpt_profile_html(v->profile, v->blocks[b].name, p->result->envs, out);
	if (!ret) {
		fputs("<h3>Sessions</h3>\n", out);
		rpt_page_sessions(p, &ss, by_uuid, out);
		fputs("</section>\n", out);
	}
	rpt_sessions_free(&ss);
	return ret;
}

/* Whether some session of the report ran on SUT (or swprofile) @name: @key "sut" or "swprofile". */
static bool rpt_page_used(const json_t *by_uuid, const char *key, const char *name)
{
	const char *uuid;
	json_t *s;

	json_object_foreach((json_t *)by_uuid, uuid, s)
		if (!strcmp(rpt_page_str(s, key), name))
			return true;
	return false;
}

/* One key/value table per machine class or software profile the report's sessions ran on. */
static void rpt_page_fingerprints(const char *heading, const char *key, const json_t *list, const json_t *by_uuid,
				  FILE *out)
{
	size_t i;
	json_t *e;

	fprintf(out, "<section class=\"fingerprints\" id=\"%ss\">\n<h2>%s</h2>\n", key, heading);
	json_array_foreach(list, i, e) {
		const char *name = rpt_page_str(e, "name"), *k;
		json_t *fp = json_object_get(e, "fingerprint"), *v;

		if (!rpt_page_used(by_uuid, key, name))
			continue;
		fputs("<h3>", out);
		rpt_html_escape(name, out);
		fputs("</h3>\n", out);
		if (!json_object_size(fp)) {
			fputs("<p class=\"meta\">No fingerprint recorded (imported without one).</p>\n", out);
			continue;
		}
		fputs("<table class=\"fingerprint\">\n", out);
		json_object_foreach(fp, k, v) {
			fputs("<tr><th>", out);
			rpt_html_escape(k, out);
			fputs("</th><td>", out);
			rpt_page_value(v, out);
			fputs("</td></tr>\n", out);
		}
		fputs("</table>\n", out);
	}
	fputs("</section>\n", out);
}

/* uuid -> session for the sessions the comparison holds (a new object; NULL when out of memory). */
static json_t *rpt_page_used_sessions(const struct rpt_page *p)
{
	json_t *all = json_object(), *used = json_object(), *s;
	size_t i;

	json_array_foreach(p->result->sessions, i, s)
		json_object_set(all, rpt_page_str(s, "uuid"), s);
	for (size_t vi = 0; all && used && vi < p->result->nviews; vi++)
		for (size_t b = 0; b < p->result->views[vi].nblocks; b++) {
			struct rpt_sessions ss;

			if (rpt_sessions_of(&p->result->views[vi], b, &ss))
				break;
			for (size_t u = 0; u < ss.n; u++)
				json_object_set(used, ss.uuids[u], json_object_get(all, ss.uuids[u]) ?: json_object());
			rpt_sessions_free(&ss);
		}
	json_decref(all);
	return used;
}

static void rpt_page_head(const struct rpt_page *p, FILE *out)
{
	const struct result *r = p->result;
	const struct cmp_opts *o = &r->views[0].opts;
	size_t samples = 0;
	char level[32];

	for (size_t i = 0; i < r->nviews; i++)
		samples += r->views[i].samples;
	rpt_level_label(o->alpha, level, sizeof(level));
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<title>clearpath report</title>\n<style>%s</style>\n</head>\n<body>\n<h1>clearpath report</h1>\n"
		"<p class=\"meta\">", rpt_css);
	rpt_html_escape(p->source ? p->source : "", out);
	fprintf(out, " &middot; %zu samples &middot; columns:", samples);
	for (size_t i = 0; i < r->nviews; i++) {
		const struct result_view *v = &r->views[i];

		fprintf(out, "%s %s%s%s, base <code>", i ? ";" : "", result_axis_name(v->opts.axis),
			v->opts.axis == CMP_BY_PARAM ? " " : "", v->opts.axis == CMP_BY_PARAM ? v->opts.param : "");
		rpt_html_escape(v->cols[v->base], out);
		fputs("</code>", out);
	}
	fprintf(out, " &middot; %s rule, %s%% confidence &middot; clearpath %s</p>\n",
		o->rule == STATS_RULE_FASTPATH ? "fastpath" : "nested", level, CLEARPATH_VERSION);
}

int rpt_html_write(const struct rpt_page *p, FILE *out)
{
	json_t *by_uuid;
	int ret = 0;

	if (!plot_available())
		return -ENOTSUP;
	if (!p->result->nviews)
		return -EINVAL;
	by_uuid = rpt_page_used_sessions(p);
	if (!by_uuid)
		return -ENOMEM;
	rpt_page_head(p, out);
	if (p->result->study)
		ret = rpt_study_html(p->result->study, out);
	for (size_t i = 0, id = 1; !ret && i < p->result->nviews; i++)
		for (size_t b = 0; !ret && b < p->result->views[i].nblocks; b++) {
			ret = rpt_page_block(p, &p->result->views[i], b, id++, by_uuid, out);
			/* a view's fleet after its machines' sections */
			if (!ret && b + 1 == p->result->views[i].nblocks)
				ret = rpt_fleet_html(&p->result->views[i], out);
		}
	if (!ret) {
		rpt_page_fingerprints("Machines", "sut", p->result->suts, by_uuid, out);
		rpt_page_fingerprints("Software", "swprofile", p->result->swprofiles, by_uuid, out);
		fputs("</body>\n</html>\n", out);
	}
	json_decref(by_uuid);
	return ret ? ret : rpt_stream_status(out);
}

void rpt_slug(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	for (; *s && n + 1 < len; s++) {
		if (isalnum((unsigned char)*s))
			buf[n++] = (char)tolower((unsigned char)*s);
		else if (n && buf[n - 1] != '-')
			buf[n++] = '-';
	}
	while (n && buf[n - 1] == '-')
		n--;
	buf[n] = '\0';
}

int rpt_plot_file(const char *dir, const char *name, enum plot_kind kind, rpt_draw_fn *draw, const void *fig,
		  FILE *names)
{
	size_t dlen = strlen(dir);
	char path[4096];
	struct replace out;
	int ret;

	/* "plots/" names the directory as well as "plots": one slash between it and the file */
	while (dlen > 1 && dir[dlen - 1] == '/')
		dlen--;
	snprintf(path, sizeof(path), "%.*s/%s.%s", (int)dlen, dir, name, kind == PLOT_SVG ? "svg" : "png");
	/* whole or not at all: a failed write (disk full) leaves the plot a report wrote there before */
	ret = replace_open(&out, path);
	if (!ret)
		ret = replace_commit(&out, draw(fig, kind, out.f));
	if (ret)
		log_err("cannot write %s: %s", path, strerror(-ret));
	else
		fprintf(names, "%s\n", path);
	return ret;
}

static int rpt_plot_row_file(const struct result_view *v, size_t b, size_t id, size_t row,
			     const struct rpt_sessions *ss, enum plot_kind kind, const char *dir, FILE *names)
{
	char block[64], rc[96], name[200];
	struct rpt_figure f;
	int ret;

	rpt_slug(v->blocks[b].name, block, sizeof(block));
	rpt_slug(v->blocks[b].rows[row].rclass, rc, sizeof(rc));
	snprintf(name, sizeof(name), "%zu-%s-%zu-%s", id, block, row + 1, rc);
	if ((ret = rpt_figure_build(v, b, row, ss, &f)))
		return ret;
	ret = rpt_plot_file(dir, name, kind, rpt_page_draw, &f.fig, names);
	rpt_figure_free(&f);
	return ret;
}

int rpt_plots_write(const struct result *r, enum plot_kind kind, const char *dir, FILE *names)
{
	int ret = plot_available() ? 0 : -ENOTSUP;
	size_t id = 0;

	for (size_t i = 0; !ret && i < r->nviews; i++) {
		const struct result_view *v = &r->views[i];

		for (size_t b = 0; !ret && b < v->nblocks; b++) {
			struct rpt_sessions ss;

			id++;
			if ((ret = rpt_sessions_of(v, b, &ss)))
				break;
			for (size_t row = 0; !ret && row < v->blocks[b].nrows; row++)
				ret = rpt_plot_row_file(v, b, id, row, &ss, kind, dir, names);
			rpt_sessions_free(&ss);
		}
		if (!ret)
			ret = rpt_profile_plots_write(v->set, v->profile, kind, dir, names);
		if (!ret)
			ret = rpt_fleet_plots_write(v, kind, dir, names);
	}
	return ret;
}
