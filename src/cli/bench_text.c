/* bench_text: perf bench's text layouts, so people and scripts that read perf's output read ours. */
#include "cli/bench_out.h"
#include "util/size.h"

#include <inttypes.h>
#include <string.h>

struct text_out {
	FILE *out;
	bool simple;
};

static const struct wl_opt *text_find_opt(const struct workload *wl, const char *name)
{
	for (const struct wl_opt *o = wl->opts; o->long_name; o++)
		if (!strcmp(o->long_name, name))
			return o;
	return NULL;
}

static void text_begin(struct wl_sink *s, const struct wl_invocation *inv)
{
	struct text_out *t = s->priv;

	if (!t->simple)
		fprintf(t->out, "# Running '%s/%s' benchmark:\n", inv->wl->collection, inv->wl->name);
}

static void text_function(struct wl_sink *s, const struct wl_invocation *inv, const struct wl_func *f)
{
	struct text_out *t = s->priv;
	const struct wl_opt *size = text_find_opt(inv->wl, "size");
	char sz[32] = "";

	fprintf(t->out, "# function '%s' (%s)\n", f->name, f->desc);
	if (size)
		wl_opt_format(size, inv->params, sz, sizeof(sz));
	/* perf says "Copying" for every mem benchmark; kept so existing parsers match. */
	if (!t->simple && size)
		fprintf(t->out, "# Copying %s bytes ...\n\n", sz);
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
		size_rate_scale(r->metrics[0].value, &v, &unit);
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
			size_rate_scale(m->value, &v, &unit);
			fprintf(t->out, " %14lf %s (%s)\n", v, unit, m->name);
		} else {
			fprintf(t->out, " %14lf %s (%s)\n", m->value, m->unit, m->name);
		}
	}
	if (r->note[0])
		fprintf(t->out, "# %s\n", r->note);
	text_profile(t->out, &r->profile);
}

/* -f help, as perf lists its functions, with what this machine can run. */
static void text_functions(struct wl_sink *s, const struct wl_invocation *inv, const struct wl_func *f, size_t n)
{
	struct text_out *t = s->priv;

	fprintf(t->out, "Available functions for 'bench %s %s':\n", inv->wl->collection, inv->wl->name);
	for (size_t i = 0; i < n; i++) {
		fprintf(t->out, "\t%s ... %s", f[i].name, f[i].desc);
		if (f[i].why_not)
			fprintf(t->out, " [cannot run here: %s]", f[i].why_not);
		else if (f[i].note)
			fprintf(t->out, " [%s]", f[i].note);
		fputc('\n', t->out);
	}
	fflush(t->out);
}

static void text_end(struct wl_sink *s, const struct wl_invocation *inv)
{
	struct text_out *t = s->priv;

	(void)inv;
	fflush(t->out);
}

void bench_out_text(struct wl_sink *sink, FILE *out, bool simple)
{
	static struct text_out t;

	t.out = out;
	t.simple = simple;
	*sink = (struct wl_sink){ text_begin, text_function, text_skipped, text_result, text_end, &t, text_functions };
}
