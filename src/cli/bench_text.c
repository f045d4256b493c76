/* bench_text: perf bench's text layouts, so people and scripts that read perf's output read ours. */
#include "cli/bench_out.h"
#include "util/size.h"
#include "util/units.h"

#include <inttypes.h>
#include <string.h>

struct text_out {
	FILE *out;
	bool simple;
	bool in_all;		/* under `bench <collection> all`: the caller prints the header */
};

static const struct wl_opt *text_find_opt(const struct workload *wl, const char *name)
{
	for (const struct wl_opt *o = wl->opts; o->long_name; o++)
		if (!strcmp(o->long_name, name))
			return o;
	return NULL;
}

/* perf's first line, in its default format only (builtin-bench.c prints it before the benchmark runs). */
static void text_running(const struct text_out *t, const struct wl_invocation *inv)
{
	if (!t->simple && !t->in_all)
		fprintf(t->out, "# Running '%s/%s' benchmark:\n", inv->wl->collection, inv->wl->name);
}

static void text_begin(struct wl_sink *s, const struct wl_invocation *inv)
{
	text_running(s->priv, inv);
}

static void text_function(struct wl_sink *s, const struct wl_invocation *inv, const struct wl_func *f)
{
	struct text_out *t = s->priv;
	const struct wl_opt *size = text_find_opt(inv->wl, "size");

	fprintf(t->out, "# function '%s' (%s)\n", f->name, f->desc);
	/*
	 * perf says "Copying" for every mem benchmark and echoes the size as
	 * typed ("4kb", "1073741824"), or its default's text; kept so existing
	 * parsers match.
	 */
	if (!t->simple && size)
		fprintf(t->out, "# Copying %s bytes ...\n\n", inv->typed[size - inv->wl->opts] ?: size->def);
	fflush(t->out);
}

/*
 * perf prints only the functions it runs, so stdout keeps that shape for the
 * scripts that read it; what -f all could not run here is said on stderr.
 */
static void text_skipped(struct wl_sink *s, const struct wl_invocation *inv, const struct wl_func *f)
{
	struct text_out *t = s->priv;

	(void)inv;
	fflush(t->out);
	fprintf(stderr, "# function '%s' (%s) skipped: %s\n", f->name, f->desc, f->why_not);
}

static const struct wl_metric *text_metric(const struct wl_result *r, const char *name)
{
	for (size_t i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i].name, name))
			return &r->metrics[i];
	return NULL;
}

/* --profile: the bound the clearing share sets, or that there is no profile. */
static void text_profile(FILE *out, const struct profile_summary *p)
{
	char bound[256];

	if (!p->on)
		return;
	if (!p->valid) {
		fprintf(out, "# profile: none (%s)\n", p->why);
		return;
	}
	profile_bound_text(p, bound, sizeof(bound));
	fprintf(out, "# profile: %s\n", bound);
	if (p->lost)
		fprintf(out, "# profile: %llu samples lost (ring full): shares are of those kept\n",
			(unsigned long long)p->lost);
}

static void text_result(struct wl_sink *s, const struct wl_invocation *inv, const struct wl_result *r)
{
	struct text_out *t = s->priv;
	/* -c makes cycles/byte the headline, as perf; --counters' cycles is just a further line. */
	const struct wl_metric *cyc = r->cycles >= 0 ? text_metric(r, "cycles") : NULL;
	double v;
	const char *unit;

	(void)inv;
	if (t->simple) {
		fprintf(t->out, "%lf\n", cyc ? cyc->value : r->metrics[0].value);
		return;
	}
	if (cyc) {
		fprintf(t->out, " %14lf cycles/byte", cyc->value);
	} else {
		units_rate(r->metrics[0].value, &v, &unit);
		fprintf(t->out, " %14lf %s", v, unit);
	}
	if (r->threads > 1)
		fprintf(t->out, "/thread\t( +- %6.2f%% )", r->thread_rel_stddev);
	fprintf(t->out, "\n");
	/* Further metrics (bench mem clear's consumer rates) follow, one per line. */
	for (size_t i = 1; i < r->nmetrics; i++) {
		const struct wl_metric *m = &r->metrics[i];

		if (m == cyc)
			continue;
		if (!strcmp(m->unit, "bytes/sec")) {
			units_rate(m->value, &v, &unit);
			fprintf(t->out, " %14lf %s (%s)\n", v, unit, m->name);
		} else {
			fprintf(t->out, " %14lf %s (%s)\n", m->value, m->unit, m->name);
		}
	}
	/* a note is no line perf prints: stderr, so a parser taking the last line takes the rate */
	if (r->note[0]) {
		fflush(t->out);
		fprintf(stderr, "# %s\n", r->note);
	}
	text_profile(t->out, &r->profile);
}

/* One -f help line of @f, "\t<name> ... <desc>" as perf's, with why it cannot run here. */
static void text_function_line(FILE *out, const struct wl_func *f)
{
	fprintf(out, "\t%s ... %s", f->name, f->desc);
	if (f->why_not)
		fprintf(out, " [cannot run here: %s]", f->why_not);
	fputc('\n', out);
}

/*
 * -f help: perf's lines for perf's functions ("# Running", "Available
 * functions:", one "\t<name> ... <desc>" each), then clearpath's own under
 * the -f all+ heading.  What this CPU offers a function (ERMS, FSRM) is a
 * note: stderr.
 */
static void text_functions(struct wl_sink *s, const struct wl_invocation *inv, const struct wl_func *f, size_t n)
{
	struct text_out *t = s->priv;
	bool extended = false;

	text_running(t, inv);
	fprintf(t->out, "Available functions:\n");
	for (size_t i = 0; i < n; i++)
		if (!f[i].extended)
			text_function_line(t->out, &f[i]);
	for (size_t i = 0; i < n; i++) {
		if (!f[i].extended)
			continue;
		if (!extended)
			fprintf(t->out, "Also with -f %s (clearpath's; -f %s runs perf's above):\n", WL_FUNCS_EVERY,
				WL_FUNCS_PERF);
		extended = true;
		text_function_line(t->out, &f[i]);
	}
	fflush(t->out);
	for (size_t i = 0; i < n; i++)
		if (f[i].note && !f[i].why_not)
			fprintf(stderr, "# %s: %s\n", f[i].name, f[i].note);
}

static void text_end(struct wl_sink *s, const struct wl_invocation *inv)
{
	struct text_out *t = s->priv;

	(void)inv;
	fflush(t->out);
}

void bench_out_text(struct wl_sink *sink, FILE *out, bool simple, bool in_all)
{
	static struct text_out t;

	t.out = out;
	t.simple = simple;
	t.in_all = in_all;
	*sink = (struct wl_sink){ text_begin, text_function, text_skipped, text_result, text_end, &t, text_functions };
}
