/* bench_json: `clearpath bench --format json`, one object per function with every parameter (jansson). */
#include "cli/bench_out.h"
#include "util/log.h"

#include <jansson.h>
#include <stdlib.h>

struct json_out {
	FILE *out;
	json_t *array;
};

static json_t *json_base(const struct wl_invocation *inv, const char *function)
{
	json_t *o = json_object(), *params = json_object();
	char name[64], val[64];

	snprintf(name, sizeof(name), "%s/%s", inv->wl->collection, inv->wl->name);
	json_object_set_new(o, "workload", json_string(name));
	json_object_set_new(o, "function", json_string(function));
	for (const struct wl_opt *opt = inv->wl->opts; opt->long_name; opt++) {
		const char *field = (const char *)inv->params + opt->offset;

		switch (opt->type) {
		case WL_OPT_SIZE:
			json_object_set_new(params, opt->long_name,
					    json_integer((json_int_t)*(const uint64_t *)(const void *)field));
			break;
		case WL_OPT_UINT:
			json_object_set_new(params, opt->long_name,
					    json_integer(*(const unsigned *)(const void *)field));
			break;
		case WL_OPT_FLAG:
			json_object_set_new(params, opt->long_name,
					    json_boolean(*(const bool *)(const void *)field));
			break;
		case WL_OPT_STR:
			wl_opt_format(opt, inv->params, val, sizeof(val));
			json_object_set_new(params, opt->long_name, json_string(val));
			break;
		}
	}
	json_object_set_new(o, "params", params);
	return o;
}

/* --counters: each event's raw total over the timed region (all threads), or why it has none. */
static json_t *json_counters(const struct counters_totals *c)
{
	json_t *o = json_object();

	for (size_t i = 0; i < COUNTERS_N; i++) {
		json_t *e = c->err[i] ? json_pack("{s:s}", "unavailable", counters_strerror(c->err[i]))
				      : json_pack("{s:f, s:b}", "total", c->value[i], "scaled", c->scaled[i]);

		json_object_set_new(o, counters_events[i].name, e);
	}
	return o;
}

/* --profile: the shares and the bound, or why there is no profile (never zeros). */
static json_t *json_profile(const struct profile_summary *p)
{
	json_t *o, *top;
	char bound[256];

	if (!p->valid)
		return json_pack("{s:s}", "unavailable", p->why);
	top = json_array();
	for (size_t i = 0; i < p->ntop; i++)
		json_array_append_new(top, json_pack("{s:s, s:f, s:b, s:b}", "symbol", p->top[i].name, "share_pct",
						     p->top[i].share, "kernel", p->top[i].kernel, "clearing",
						     p->top[i].clearing));
	profile_bound_text(p, bound, sizeof(bound));
	o = json_pack("{s:s, s:I, s:I, s:I, s:f, s:f, s:f, s:s, s:o}", "event", profile_event_name(p->cfg.event),
		      "freq_hz", (json_int_t)p->cfg.hz, "samples", (json_int_t)p->samples, "lost",
		      (json_int_t)p->lost, "clearing_pct", p->clearing, "clearing_stderr_pct",
		      profile_share_stderr(p->clearing, p->samples), "bound_factor", p->clearing / 100.0,
		      "bound", bound, "top", top);
	return o;
}

static void json_begin(struct wl_sink *s, const struct wl_invocation *inv)
{
	(void)s;
	(void)inv;
}

static void json_function(struct wl_sink *s, const struct wl_invocation *inv, const struct wl_func *f)
{
	(void)s;
	(void)inv;
	(void)f;
}

static void json_skipped(struct wl_sink *s, const struct wl_invocation *inv, const struct wl_func *f)
{
	struct json_out *j = s->priv;
	json_t *o = json_base(inv, f->name);

	json_object_set_new(o, "skipped", json_string(f->why_not));
	json_array_append_new(j->array, o);
}

static void json_result(struct wl_sink *s, const struct wl_invocation *inv, const struct wl_result *r)
{
	struct json_out *j = s->priv;
	json_t *o = json_base(inv, r->function), *metrics = json_array();

	json_object_set_new(o, "value", json_real(r->metrics[0].value));
	json_object_set_new(o, "unit", json_string(r->metrics[0].unit));
	json_object_set_new(o, "higher_is_better", json_boolean(r->metrics[0].higher_is_better));
	json_object_set_new(o, "bytes_total", json_integer((json_int_t)r->bytes));
	json_object_set_new(o, "loops", json_integer(r->loops));
	json_object_set_new(o, "threads", json_integer(r->threads));
	json_object_set_new(o, "elapsed_ns", json_integer((json_int_t)r->elapsed_ns));
	json_object_set_new(o, "cpu_ns", json_integer((json_int_t)r->cpu_ns));
	json_object_set_new(o, "minor_faults", json_integer(r->minflt));
	json_object_set_new(o, "major_faults", json_integer(r->majflt));
	if (r->cycles >= 0)
		json_object_set_new(o, "cycles", json_real(r->cycles));
	if (r->threads > 1)
		json_object_set_new(o, "thread_rel_stddev_pct", json_real(r->thread_rel_stddev));
	if (r->note[0])
		json_object_set_new(o, "note", json_string(r->note));
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct wl_metric *m = &r->metrics[i];

		json_array_append_new(metrics, json_pack("{s:s, s:f, s:s, s:b}", "name", m->name,
							 "value", m->value, "unit", m->unit,
							 "higher_is_better", m->higher_is_better));
	}
	json_object_set_new(o, "metrics", metrics);
	if (r->counters.on)
		json_object_set_new(o, "counters", json_counters(&r->counters));
	if (r->profile.on)
		json_object_set_new(o, "profile", json_profile(&r->profile));
	json_array_append_new(j->array, o);
}

static void json_end(struct wl_sink *s, const struct wl_invocation *inv)
{
	(void)s;
	(void)inv;
}

/* A write error is main()'s to report, as for every command's stdout. */
void bench_out_json_write(struct wl_sink *sink)
{
	struct json_out *j = sink->priv;

	json_dumpf(j->array, j->out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	fputc('\n', j->out);
	fflush(j->out);
}

/* -f help: one object per function, whether it runs here and, when not, why. */
static void json_functions(struct wl_sink *s, const struct wl_invocation *inv, const struct wl_func *f, size_t n)
{
	struct json_out *j = s->priv;
	char name[64];

	snprintf(name, sizeof(name), "%s/%s", inv->wl->collection, inv->wl->name);
	for (size_t i = 0; i < n; i++) {
		/* perf: one of perf's functions here, run by -f all (the others by -f all+) */
		json_t *o = json_pack("{s:s, s:s, s:s, s:b, s:b}", "workload", name, "function", f[i].name,
				      "description", f[i].desc, "perf", !f[i].extended, "runs_here", !f[i].why_not);

		/* as the text: the reason it cannot run, else what this machine offers it, when known */
		if (f[i].why_not)
			json_object_set_new(o, "why_not", json_string(f[i].why_not));
		else if (f[i].note)
			json_object_set_new(o, "note", json_string(f[i].note));
		json_array_append_new(j->array, o);
	}
}

int bench_out_json(struct wl_sink *sink, FILE *out)
{
	struct json_out *j = calloc(1, sizeof(*j));

	if (!j || !(j->array = json_array())) {
		free(j);
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	j->out = out;
	*sink = (struct wl_sink){ json_begin, json_function, json_skipped, json_result, json_end, j, json_functions };
	return 0;
}

void bench_out_json_free(struct wl_sink *sink)
{
	struct json_out *j = sink->priv;

	if (!j)
		return;
	json_decref(j->array);
	free(j);
	sink->priv = NULL;
}
