/* rpt_fleet_page: the report page's fleet section, the fleet table and a figure of each machine's change and interval. */
#define _GNU_SOURCE	/* asprintf */
#include "report/html.h"
#include "report/impl.h"
#include "result/fleet.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define FLEET_NOTE 64

/* A panel being built: its columns (one per SUT class), their notes and its title. */
struct fleet_panel {
	struct plot_column *cols;
	char (*notes)[FLEET_NOTE];
	char *title;
};

static void fleet_panel_free(struct fleet_panel *p)
{
	free(p->cols);
	free(p->notes);
	free(p->title);
}

/* Class @fc as a panel: per SUT class the change (the bar) and its interval (the whisker), both in per cent. */
static int fleet_panel_of(const struct result_view *v, const struct result_fleet_class *fc, struct fleet_panel *p,
			  struct plot_figure *f)
{
	static const struct rpt_opts plain;
	char label[512];

	p->cols = calloc(fc->nlines ? fc->nlines : 1, sizeof(*p->cols));
	p->notes = calloc(fc->nlines ? fc->nlines : 1, sizeof(*p->notes));
	rpt_row_label(v, fc->first, &plain, label, sizeof(label));
	if (!p->cols || !p->notes || asprintf(&p->title, "%s", label) < 0) {
		p->title = NULL;
		return -ENOMEM;
	}
	for (size_t i = 0; i < fc->nlines; i++) {
		const struct result_cell *c = fc->lines[i].cell;

		/* the note is the change as the machine's table prints it */
		rpt_cell_text(v, fc->lines[i].row, fc->col, &plain, p->notes[i], FLEET_NOTE);
		p->cols[i] = (struct plot_column){
			.name = fc->lines[i].block->name,
			.mean = c->change ? c->change->pct : NAN,
			.lo = c->change ? c->change->ci_low : NAN,
			.hi = c->change ? c->change->ci_high : NAN,
			.note = p->notes[i],
		};
	}
	*f = (struct plot_figure){ .title = p->title, .unit = "change from the base (%)", .cols = p->cols,
				   .ncols = fc->nlines, .changes = true };
	return 0;
}

/* The figure of compared column @col: a panel per result class of @fl. */
static int fleet_figure(const struct result_view *v, const struct result_fleet *fl, size_t col, FILE *out)
{
	struct fleet_panel *ps = calloc(fl->nclasses + 1, sizeof(*ps));
	struct plot_figure *panels = calloc(fl->nclasses + 1, sizeof(*panels));
	char *title = NULL;
	size_t n = 0;
	int ret = ps && panels ? 0 : -ENOMEM;

	for (size_t i = 0; !ret && i < fl->nclasses; i++)
		if (fl->classes[i].col == col)
			ret = fleet_panel_of(v, &fl->classes[i], &ps[n], &panels[n]), n++;
	if (!ret && asprintf(&title, "Fleet: %s against %s", v->cols[col], v->cols[v->base]) < 0) {
		title = NULL;
		ret = -ENOMEM;
	}
	if (!ret && n)
		ret = rpt_html_grid("fleet", title, panels, n, out);
	for (size_t i = 0; ps && i < n; i++)
		fleet_panel_free(&ps[i]);
	free(ps);
	free(panels);
	free(title);
	return ret;
}

/* The section of the @i-th compared column (@col): its table, how to read the figure, the figure. */
static int fleet_section(const struct result_view *v, const struct result_fleet *fl, size_t i, size_t col, FILE *out)
{
	/* "colour": the cells' tones, which the page shows as classes */
	static const struct rpt_opts ro = { .color = true };
	struct rpt_table *t;
	char level[32];
	int ret = rpt_fleet_table(v, i, &ro, &t);

	if (ret || !t)
		return ret;
	fputs("<section class=\"fleet\">\n", out);
	ret = rpt_html_table_class(t, "fleet", out);
	rpt_table_free(t);
	rpt_level_label(v->opts.alpha, level, sizeof(level));
	fprintf(out, "<p class=\"how\">A panel per result class, a column per SUT class: the black bar is the"
		" machine's change from its base (the table's cell, written under its name), the whisker beside it"
		" the %s%% confidence interval of that change; the grey line is no change.</p>\n<div class=\"plots\">\n",
		level);
	if (!ret)
		ret = fleet_figure(v, fl, col, out);
	fputs("</div>\n</section>\n", out);
	return ret;
}

int rpt_fleet_html(const struct result_view *v, FILE *out)
{
	struct result_fleet fl;
	int ret;

	if (!result_fleet_applies(v))
		return 0;
	ret = result_fleet_of(v, &fl);
	for (size_t c = 0, i = 0; !ret && c < v->ncols; c++)
		if (c != v->base)
			ret = fleet_section(v, &fl, i++, c, out);
	result_fleet_free(&fl);
	return ret ? ret : rpt_stream_status(out);
}

static int fleet_draw(const void *fig, enum plot_kind kind, FILE *out)
{
	return plot_write(fig, kind, out);
}

/* Class @fc's figure as the file "fleet-@n-<result class>" (n counts the classes of every compared column). */
static int fleet_plot_file(const struct result_view *v, const struct result_fleet_class *fc, size_t n,
			   enum plot_kind kind, const char *dir, FILE *names)
{
	struct fleet_panel p = { 0 };
	struct plot_figure f;
	char rc[96], name[160];
	int ret = fleet_panel_of(v, fc, &p, &f);

	rpt_slug(fc->first->rclass, rc, sizeof(rc));
	snprintf(name, sizeof(name), "fleet-%zu-%s", n, rc);
	if (!ret)
		ret = rpt_plot_file(dir, name, kind, fleet_draw, &f, names);
	fleet_panel_free(&p);
	return ret;
}

int rpt_fleet_plots_write(const struct result_view *v, enum plot_kind kind, const char *dir, FILE *names)
{
	struct result_fleet fl;
	int ret = result_fleet_of(v, &fl);

	for (size_t i = 0; !ret && i < fl.nclasses; i++)
		ret = fleet_plot_file(v, &fl.classes[i], i + 1, kind, dir, names);
	result_fleet_free(&fl);
	return ret;
}
