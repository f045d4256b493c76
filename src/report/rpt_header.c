/* rpt_header: the header (machine, kernels, THP, hugepages, sessions, dates) as JSON and as the lines text formats print. */
#define _GNU_SOURCE
#include "report/header.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool hdr_same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static json_t *hdr_jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *hdr_jint(long long v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

static json_t *hdr_column_json(const struct result_header_column *c)
{
	const struct result_machine *m = &c->machine;

	return json_pack("{s:o, s:b, s:{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}, s:o, s:o, s:o, s:o, s:o, s:o,"
			 " s:{s:I, s:O}, s:I, s:I, s:o, s:o}",
			 "column", hdr_jstr(c->name), "base", c->base,
			 "machine", "sut", hdr_jstr(m->sut), "cpu", hdr_jstr(m->cpu), "arch", hdr_jstr(m->arch),
			 "cores", hdr_jint(m->cores), "sockets", hdr_jint(m->sockets),
			 "numa_nodes", hdr_jint(m->numa_nodes), "memory_bytes", hdr_jint(m->memory),
			 "llc_bytes", hdr_jint(m->llc), "llc_level", hdr_jint(m->llc_level),
			 "swprofile", hdr_jstr(c->swprofile), "kernel_release", hdr_jstr(c->kernel_release),
			 "cmdline", hdr_jstr(c->cmdline), "thp_enabled", hdr_jstr(c->thp_enabled),
			 "thp_defrag", hdr_jstr(c->thp_defrag), "hugepages", hdr_jstr(c->hugepages),
			 "doctor", "sessions_checked", (json_int_t)c->doctor_checked, "warnings", c->doctor_warnings,
			 "sessions", (json_int_t)c->sessions, "samples", (json_int_t)c->samples,
			 "first", hdr_jstr(c->first), "last", hdr_jstr(c->last));
}

json_t *rpt_header_json(const struct result_header_block *b)
{
	json_t *cols = json_array();

	for (size_t c = 0; cols && c < b->ncols; c++)
		json_array_append_new(cols, hdr_column_json(&b->cols[c]));
	return json_pack("{s:I, s:I, s:o, s:o, s:o}", "sessions", (json_int_t)b->sessions, "samples",
			 (json_int_t)b->samples, "first", hdr_jstr(b->first), "last", hdr_jstr(b->last),
			 "columns", cols);
}

/* "2026-08-22 08:00 UTC" from the stored "2026-08-22T08:00:00.000000Z"; other forms as they are. */
static void hdr_date(const char *iso, char *buf, size_t len)
{
	if (iso && strlen(iso) >= 16 && iso[10] == 'T')
		snprintf(buf, len, "%.10s %.5s UTC", iso, iso + 11);
	else
		snprintf(buf, len, "%s", iso ? iso : "unknown");
}

/* "N sessions, M samples, from A to B" (or "on A" when they agree). */
static void hdr_span(size_t sessions, size_t samples, const char *first, const char *last, char *buf, size_t len)
{
	char a[64], b[64];
	int used = snprintf(buf, len, "%zu session%s, %zu sample%s", sessions, sessions == 1 ? "" : "s", samples,
			    samples == 1 ? "" : "s");

	if (!first || used < 0 || (size_t)used >= len)
		return;
	hdr_date(first, a, sizeof(a));
	hdr_date(last, b, sizeof(b));
	if (!strcmp(a, b))
		snprintf(buf + used, len - (size_t)used, ", on %s", a);
	else
		snprintf(buf + used, len - (size_t)used, ", from %s to %s", a, b);
}

/* One printf-formatted line to @emit; -ENOMEM when it cannot be built. */
__attribute__((format(printf, 3, 4)))
static int hdr_emitf(int (*emit)(void *ctx, const char *line), void *ctx, const char *fmt, ...)
{
	char *line;
	va_list ap;
	int n, ret;

	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	ret = emit(ctx, line);
	free(line);
	return ret;
}

static const char *hdr_or(const char *s, const char *dflt)
{
	return s ? s : dflt;
}

/* A warning's values: the first HDR_VALUES distinct ones, then how many more ("5.44 on 2 CPUs, ... (+3 more)"). */
#define HDR_VALUES 3

static void hdr_values(const json_t *values, char *buf, size_t len)
{
	size_t i, used = 0;
	json_t *v;

	buf[0] = '\0';
	json_array_foreach(values, i, v) {
		int n = i < HDR_VALUES ? snprintf(buf + used, len - used, "%s%s", i ? ", " : "", json_string_value(v))
				       : snprintf(buf + used, len - used, " (+%zu more)", json_array_size(values) - i);

		if (n < 0 || (size_t)n >= len - used || i >= HDR_VALUES)
			return;
		used += (size_t)n;
	}
}

/*
 * The doctor's warnings recorded with the column's sessions, one line each
 * ("  Doctor WARN thp in 2 of 4 sessions: enabled=always ...: what it means;
 * fix: ..."); or that there were none; or that the sessions predate the recording.
 */
static int hdr_doctor_lines(const struct result_header_column *c, int (*emit)(void *ctx, const char *line), void *ctx)
{
	size_t i, unchecked = c->sessions - (c->doctor_checked < c->sessions ? c->doctor_checked : c->sessions);
	json_t *w;
	int ret = 0;

	if (!c->doctor_checked)
		return emit(ctx, "  Doctor warnings not recorded (the sessions predate the recording,"
				" or came without their environment).");
	if (!json_array_size(c->doctor_warnings))
		return hdr_emitf(emit, ctx, "  No doctor warnings recorded (%zu session%s checked%s).",
				 c->doctor_checked, c->doctor_checked == 1 ? "" : "s",
				 unchecked ? "; the others predate the recording" : "");
	json_array_foreach(c->doctor_warnings, i, w) {
		const char *fix = json_string_value(json_object_get(w, "fix"));
		char values[512];

		hdr_values(json_object_get(w, "values"), values, sizeof(values));
		ret = hdr_emitf(emit, ctx, "  Doctor %s %s in %lld of %zu session%s: %s%s%s%s%s",
				json_string_value(json_object_get(w, "status")),
				json_string_value(json_object_get(w, "check")),
				(long long)json_integer_value(json_object_get(w, "sessions")), c->doctor_checked,
				c->doctor_checked == 1 ? "" : "s", values, values[0] ? ": " : "",
				json_string_value(json_object_get(w, "detail")), fix && fix[0] ? "; fix: " : ".",
				fix && fix[0] ? fix : "");
		if (ret)
			return ret;
	}
	if (unchecked)
		ret = hdr_emitf(emit, ctx, "  Doctor warnings not recorded for %zu of %zu sessions (they predate the"
				" recording, or came without their environment).", unchecked, c->sessions);
	return ret;
}

/* "THP enabled X, defrag Y; hugepages Z." for @c, or NULL when none of them is known (or out of memory). */
static char *hdr_env_text(const struct result_header_column *c)
{
	char *line = NULL;

	if ((c->thp_enabled || c->thp_defrag || c->hugepages) &&
	    asprintf(&line, "THP enabled %s, defrag %s; hugepages %s.", hdr_or(c->thp_enabled, "not recorded"),
		     hdr_or(c->thp_defrag, "not recorded"), hdr_or(c->hugepages, "not recorded")) < 0)
		line = NULL;
	return line;
}

/*
 * What every column of a block shares, printed once above the columns: nine
 * columns on one kernel would otherwise repeat the same long cmdline nine
 * times.  A value is shared when two or more columns all know it and agree;
 * an unknown value stays with each column.  The strings are borrowed from
 * the first column, except @env, which is owned.
 */
struct hdr_shared {
	const char *kernel, *cmdline;
	char *env;
};

static const char *hdr_kernel_of(const struct result_header_column *c)
{
	return c->kernel_release;
}

static const char *hdr_cmdline_of(const struct result_header_column *c)
{
	return c->cmdline;
}

/* The value @get reads from every column of @b when they all know it and agree, else NULL. */
static const char *hdr_common(const struct result_header_block *b, const char *(*get)(const struct result_header_column *))
{
	const char *first = b->ncols >= 2 ? get(&b->cols[0]) : NULL;

	for (size_t c = 1; first && c < b->ncols; c++)
		if (!hdr_same(first, get(&b->cols[c])))
			return NULL;
	return first;
}

static void hdr_shared_find(const struct result_header_block *b, struct hdr_shared *sh)
{
	*sh = (struct hdr_shared){ hdr_common(b, hdr_kernel_of), hdr_common(b, hdr_cmdline_of), NULL };
	if (b->ncols < 2)
		return;
	sh->env = hdr_env_text(&b->cols[0]);
	for (size_t c = 1; sh->env && c < b->ncols; c++) {
		char *env = hdr_env_text(&b->cols[c]);
		bool same = hdr_same(sh->env, env);

		free(env);
		if (!same) {
			free(sh->env);
			sh->env = NULL;
		}
	}
}

/*
 * The shared rows: "All columns: kernel K." (or "All columns:"), then the
 * cmdline and THP lines; @more: lines follow that need the heading too.
 */
static int hdr_shared_lines(const struct hdr_shared *sh, bool more, int (*emit)(void *ctx, const char *line),
			    void *ctx)
{
	int ret = 0;

	if (!sh->kernel && !sh->cmdline && !sh->env && !more)
		return 0;
	if (sh->kernel)
		ret = hdr_emitf(emit, ctx, "All columns: kernel %s.", sh->kernel);
	else
		ret = emit(ctx, "All columns:");
	if (!ret && sh->cmdline)
		ret = hdr_emitf(emit, ctx, "  cmdline: %s", sh->cmdline);
	if (!ret && sh->env)
		ret = hdr_emitf(emit, ctx, "  %s", sh->env);
	return ret;
}

/* Collect emitted lines into a JSON array of strings (@ctx). */
static int hdr_collect(void *ctx, const char *line)
{
	return json_array_append_new(ctx, json_string(line)) ? -ENOMEM : 0;
}

/* Whether @lines (a JSON array of strings) holds @line. */
static bool hdr_has(const json_t *lines, const char *line)
{
	size_t i;
	json_t *l;

	json_array_foreach(lines, i, l)
		if (!strcmp(json_string_value(l), line))
			return true;
	return false;
}

/*
 * Each column's doctor lines (an array per column), and those every column
 * of two or more prints alike (@shared): one VM's warnings, recorded by the
 * same sessions under eight -f columns, would otherwise be printed eight times.
 */
static int hdr_doctor_shared(const struct result_header_block *b, json_t **per, json_t *shared)
{
	size_t i;
	json_t *l;
	int ret = 0;

	for (size_t c = 0; !ret && c < b->ncols; c++)
		ret = (per[c] = json_array()) ? hdr_doctor_lines(&b->cols[c], hdr_collect, per[c]) : -ENOMEM;
	if (ret || b->ncols < 2)
		return ret;
	json_array_foreach(per[0], i, l) {
		bool all = true;

		for (size_t c = 1; all && c < b->ncols; c++)
			all = hdr_has(per[c], json_string_value(l));
		if (all && json_array_append(shared, l))
			return -ENOMEM;
	}
	return 0;
}

/* Emit the strings of @lines not in @skip (NULL: none). */
static int hdr_emit_lines(const json_t *lines, const json_t *skip, int (*emit)(void *ctx, const char *line),
			  void *ctx)
{
	size_t i;
	json_t *l;
	int ret = 0;

	json_array_foreach(lines, i, l)
		if (!ret && !(skip && hdr_has(skip, json_string_value(l))))
			ret = emit(ctx, json_string_value(l));
	return ret;
}

static int hdr_column_lines(const struct result_header_block *b, const struct result_header_column *c,
			    const struct hdr_shared *sh, const json_t *doctor, const json_t *shared,
			    int (*emit)(void *ctx, const char *line), void *ctx)
{
	char span[256], *machine = NULL, *env;
	int ret;

	hdr_span(c->sessions, c->samples, c->first, c->last, span, sizeof(span));
	if (sh->kernel)
		ret = hdr_emitf(emit, ctx, "%s%s: %s.", c->name, c->base ? " (base)" : "", span);
	else
		ret = hdr_emitf(emit, ctx, "%s%s: kernel %s; %s.", c->name, c->base ? " (base)" : "",
				hdr_or(c->kernel_release, "not recorded"), span);
	if (!ret && !b->same_machine) {
		machine = result_machine_text(&c->machine);
		ret = hdr_emitf(emit, ctx, "  Machine: %s%s%s.", hdr_or(c->machine.sut, ""),
				c->machine.sut && machine ? ": " : "", hdr_or(machine, c->machine.sut ? "" : "not recorded"));
		free(machine);
	}
	if (!ret && c->cmdline && !sh->cmdline)
		ret = hdr_emitf(emit, ctx, "  cmdline: %s", c->cmdline);
	if (!ret && !sh->env && (c->thp_enabled || c->thp_defrag || c->hugepages)) {
		env = hdr_env_text(c);
		ret = env ? hdr_emitf(emit, ctx, "  %s", env) : -ENOMEM;
		free(env);
	}
	return ret ? ret : hdr_emit_lines(doctor, shared, emit, ctx);
}

int rpt_header_lines(const struct result_header_block *b, int (*emit)(void *ctx, const char *line), void *ctx)
{
	json_t **per = calloc(b->ncols ? b->ncols : 1, sizeof(*per)), *shared = json_array();
	struct hdr_shared sh;
	char span[256];
	int ret = per && shared ? 0 : -ENOMEM;

	if (!ret && b->same_machine) {
		char *machine = b->ncols ? result_machine_text(&b->cols[0].machine) : NULL;

		ret = hdr_emitf(emit, ctx, "Machine: %s.", hdr_or(machine, "not recorded"));
		free(machine);
	}
	hdr_span(b->sessions, b->samples, b->first, b->last, span, sizeof(span));
	if (!ret)
		ret = hdr_emitf(emit, ctx, "Measured: %s.", span);
	hdr_shared_find(b, &sh);
	if (!ret && (ret = hdr_doctor_shared(b, per, shared)) == 0)
		ret = hdr_shared_lines(&sh, json_array_size(shared) > 0, emit, ctx);
	if (!ret)
		ret = hdr_emit_lines(shared, NULL, emit, ctx);
	for (size_t c = 0; !ret && c < b->ncols; c++)
		ret = hdr_column_lines(b, &b->cols[c], &sh, per[c], shared, emit, ctx);
	for (size_t c = 0; per && c < b->ncols; c++)
		json_decref(per[c]);
	free(per);
	json_decref(shared);
	free(sh.env);
	return ret;
}
