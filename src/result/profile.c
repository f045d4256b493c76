/* profile: the --profile result classes of a block grouped per benchmark, symbols by their largest share, how each column sampled. */
#define _GNU_SOURCE	/* qsort_r, asprintf */
#include "result/profile.h"
#include "result/result.h"
#include "profile/profile.h"
#include "workloads/workload.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

bool result_profile_class(const struct ident_class *c)
{
	return ident_profile_symbol(c->metric) != NULL;
}

bool result_profile_only(const struct cmp_block *blk)
{
	for (size_t r = 0; r < blk->nrows; r++)
		if (!result_profile_class(blk->rows[r].ident))
			return false;
	return blk->nrows > 0;
}

const char *result_profile_symbol(const struct cmp_row *r)
{
	const char *sym = ident_profile_symbol(r->ident->metric);

	return sym ? sym : "";
}

double result_profile_share(const struct cmp_set *s, const struct cmp_row *r, size_t col)
{
	return result_level_of(s, r, col);
}

double result_profile_share_in_runs(const struct cmp_row *r, size_t col)
{
	const struct cmp_cell *c = &r->cells[col];
	double sum = 0;

	for (size_t i = 0; i < c->n - c->absent; i++)
		sum += c->values[i];
	return c->n > c->absent ? sum / (double)(c->n - c->absent) : NAN;
}

bool result_profile_clearing_symbol(const char *name)
{
	return profile_is_clearing(name, "x86_64") || profile_is_clearing(name, "aarch64");
}

/* The largest share any of @s's columns has for @r: symbols are listed by it. */
static double prof_profile_peak(const struct cmp_set *s, const struct cmp_row *r)
{
	double peak = -1;

	for (size_t c = 0; c < s->ncols; c++)
		if (!isnan(result_profile_share(s, r, c)) && result_profile_share(s, r, c) > peak)
			peak = result_profile_share(s, r, c);
	return peak;
}

static int prof_profile_by_peak(const void *a, const void *b, void *set)
{
	double x = prof_profile_peak(set, *(const struct cmp_row *const *)a);
	double y = prof_profile_peak(set, *(const struct cmp_row *const *)b);

	return x > y ? -1 : x < y;
}

/* Whether row @r belongs to profile @p: a class of the same benchmark. */
static bool prof_profile_owns(const struct result_profile *p, const struct cmp_row *r)
{
	return !strcmp(r->ident->suite, p->ident->suite) && !strcmp(r->ident->key, p->ident->key);
}

/* The profile of @blk that row @r belongs to, a new one when none of the first @n does; NULL when out of memory. */
static struct result_profile *prof_profile_for(struct result_profile **list, size_t *n, const struct cmp_row *r)
{
	struct result_profile *grown;

	for (size_t i = 0; i < *n; i++)
		if (prof_profile_owns(&(*list)[i], r))
			return &(*list)[i];
	grown = realloc(*list, (*n + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	*list = grown;
	grown[*n] = (struct result_profile){ r->bench, r->rclass, ident_class_head_len(r->ident), r->ident, NULL,
					  NULL, 0 };
	return &grown[(*n)++];
}

static int prof_profile_add(struct result_profile *p, const struct cmp_row *r)
{
	const struct cmp_row **grown;

	if (!strcmp(result_profile_symbol(r), "clearing")) {
		p->clearing = r;
		return 0;
	}
	grown = realloc(p->syms, (p->nsyms + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	p->syms = grown;
	p->syms[p->nsyms++] = r;
	return 0;
}

int result_profiles_of(const struct cmp_set *s, size_t b, struct result_profile **out, size_t *n)
{
	const struct cmp_block *blk = &s->blocks[b];
	struct result_profile *list = NULL, *p;
	size_t np = 0;

	for (size_t i = 0; i < blk->nrows; i++) {
		if (!result_profile_class(blk->rows[i].ident))
			continue;
		if (!(p = prof_profile_for(&list, &np, &blk->rows[i])) || prof_profile_add(p, &blk->rows[i])) {
			result_profiles_free(list, np);
			return -ENOMEM;
		}
	}
	/* a profile of its clearing share alone has no symbols: qsort_r must not get a NULL base */
	for (size_t i = 0; i < np; i++)
		if (list[i].nsyms > 1)
			qsort_r(list[i].syms, list[i].nsyms, sizeof(*list[i].syms), prof_profile_by_peak, (void *)s);
	*out = list;
	*n = np;
	return 0;
}

void result_profiles_free(struct result_profile *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(p[i].syms);
	free(p);
}

/* How many distinct sessions the values of @c the store holds (not the 0s of absent runs) come from. */
static size_t prof_stored_sessions(const struct cmp_cell *c)
{
	size_t n = 0;

	for (size_t u = 0; u < c->nuuids; u++)
		for (size_t i = 0; i < c->n - c->absent; i++)
			if (c->sessions[i] == (int)u) {
				n++;
				break;
			}
	return n;
}

struct result_profile_cover result_profile_cover_of(const struct result_profile *p, const struct cmp_row *r, size_t col)
{
	const struct cmp_cell *c = &r->cells[col], *all = p->clearing ? &p->clearing->cells[col] : NULL;
	struct result_profile_cover v = { c->n - c->absent, all ? all->n : c->n, prof_stored_sessions(c),
					  all ? all->nuuids : c->nuuids, false };

	/* a symbol in no run of the column has no share there ("-"), not a partial one */
	v.partial = v.runs && v.runs < v.of_runs;
	return v;
}

/* The profile's row @i: clearing first when stored, then the symbols. */
static const struct cmp_row *prof_profile_nth(const struct result_profile *p, size_t i)
{
	return p->clearing ? (i ? p->syms[i - 1] : p->clearing) : p->syms[i];
}

/* Whether entry @e of a session's profile record is a sampling: a named event and a positive frequency. */
static bool prof_sampling_valid(const json_t *e)
{
	const json_t *hz = json_object_get(e, "hz");

	return json_is_string(json_object_get(e, "event")) && json_is_integer(hz) && json_integer_value(hz) > 0;
}

/*
 * Whether @text, a benchmark as a session's profile record names it ("mem
 * mmap -p 4KB -f demand -s 64MB"), is column @col's of profile @p in @s:
 * its parameters, not its spelling (the store keeps the first spelling of
 * a benchmark; by -f columns the rows leave -f out, which the column holds).
 * @id is scratch space.
 */
static bool prof_sampling_names(const struct cmp_set *s, const struct result_profile *p, size_t col,
				const char *text, struct bench_identity *id)
{
	const struct cmp_row *row = prof_profile_nth(p, 0);
	struct ident_class e;
	const char *value;
	char *key;
	bool same;

	if (ident_parse_named(wl_identity_parse, text, id) || !ident_is(row->ident, id->workload))
		return false;
	e = (struct ident_class){ row->ident->suite, id->workload, id->display, id->key, id->params, id->nparams,
				  row->ident->metric, row->ident->name };
	value = s->param ? ident_value(&e, s->param) : NULL;
	if (s->param && strcmp(value ? value : CMP_NO_VALUE, s->cols[col]))
		return false;
	key = ident_class_key(&e, s->param);
	same = key && !strcmp(key, row->key);
	free(key);
	return same;
}

/* The entry of session environment @env that says how column @col of @p was sampled, or NULL. */
static const json_t *prof_sampling_entry(const struct cmp_set *s, const struct result_profile *p, size_t col,
					 const json_t *env, struct bench_identity *id)
{
	const json_t *rec = json_object_get(env, "profile"), *e, *first = NULL;
	size_t i;

	json_array_foreach(rec, i, e)
		if (json_is_string(json_object_get(e, "benchmark")) &&
		    prof_sampling_names(s, p, col, json_string_value(json_object_get(e, "benchmark")), id))
			return prof_sampling_valid(e) ? e : NULL;
	/* no entry of its own (stored under another spelling): the session's, when all of them agree */
	json_array_foreach(rec, i, e) {
		if (!prof_sampling_valid(e))
			return NULL;
		if (first && (!json_equal(json_object_get(e, "event"), json_object_get(first, "event")) ||
			      !json_equal(json_object_get(e, "hz"), json_object_get(first, "hz"))))
			return NULL;
		first = first ? first : e;
	}
	return first;
}

/* Count session environment @env's sampling of column @col of @p into @out. */
static void prof_sampling_add(struct result_sampling *out, const struct cmp_set *s, const struct result_profile *p,
			      size_t col, const json_t *env, struct bench_identity *id)
{
	const json_t *e = prof_sampling_entry(s, p, col, env, id);
	const char *event = e ? json_string_value(json_object_get(e, "event")) : NULL;
	long long hz = e ? json_integer_value(json_object_get(e, "hz")) : 0;
	size_t w = 0;

	out->sessions++;
	if (!e) {
		out->not_recorded++;
		return;
	}
	while (w < out->nways && (out->ways[w].hz != hz || strcmp(out->ways[w].event, event)))
		w++;
	if (w == out->nways && w == RESULT_SAMPLING_WAYS) {
		out->other++;
		return;
	}
	if (w == out->nways)
		out->ways[out->nways++] = (struct result_sampling_way){ event, hz, 0 };
	out->ways[w].sessions++;
}

int result_profile_sampling(const struct cmp_set *s, const struct result_profile *p, size_t col, const json_t *envs,
			    struct result_sampling *out)
{
	json_t *seen = json_object();
	/* a parsed identity is large: one, reused for every entry */
	struct bench_identity *id = malloc(sizeof(*id));
	int ret = seen && id ? 0 : -ENOMEM;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; !ret && i < (p->clearing ? 1 : 0) + p->nsyms; i++) {
		const struct cmp_cell *c = &prof_profile_nth(p, i)->cells[col];

		for (size_t u = 0; !ret && u < c->nuuids; u++) {
			if (json_object_get(seen, c->uuids[u]))
				continue;
			ret = json_object_set_new(seen, c->uuids[u], json_true()) ? -ENOMEM : 0;
			prof_sampling_add(out, s, p, col, json_object_get(envs, c->uuids[u]), id);
		}
	}
	free(id);
	json_decref(seen);
	return ret;
}

/* "N sessions" or "1 session" after @lead into @buf at @at. */
static size_t prof_sampling_part(char *buf, size_t len, size_t at, const char *lead, size_t n, bool first)
{
	int k = snprintf(buf + at, at < len ? len - at : 0, "%s%s in %zu%s", first ? "differs: " : ", ", lead, n,
			 first ? (n == 1 ? " session" : " sessions") : "");

	return at + (k > 0 ? (size_t)k : 0);
}

bool result_sampling_text(const struct result_sampling *s, char *buf, size_t len)
{
	char way[64];
	size_t at = 0;

	if (!s->sessions || s->not_recorded == s->sessions) {
		snprintf(buf, len, "%s", s->sessions ? "not recorded" : "-");
		return true;
	}
	if (s->nways == 1 && !s->not_recorded && !s->other) {
		snprintf(buf, len, "%s at %lld Hz", s->ways[0].event, s->ways[0].hz);
		return true;
	}
	buf[0] = '\0';
	for (size_t w = 0; w < s->nways; w++) {
		snprintf(way, sizeof(way), "%s at %lld Hz", s->ways[w].event, s->ways[w].hz);
		at = prof_sampling_part(buf, len, at, way, s->ways[w].sessions, !w);
	}
	if (s->other)
		at = prof_sampling_part(buf, len, at, "other ways", s->other, false);
	if (s->not_recorded)
		prof_sampling_part(buf, len, at, "not recorded", s->not_recorded, false);
	return false;
}

json_t *result_sampling_json(const struct result_sampling *s)
{
	json_t *ways = json_array();
	char text[512];

	result_sampling_text(s, text, sizeof(text));
	for (size_t w = 0; ways && w < s->nways; w++)
		json_array_append_new(ways, json_pack("{s:s, s:I, s:I}", "event", s->ways[w].event, "hz",
						      (json_int_t)s->ways[w].hz, "sessions",
						      (json_int_t)s->ways[w].sessions));
	return json_pack("{s:s, s:I, s:I, s:I, s:o}", "text", text, "sessions", (json_int_t)s->sessions,
			 "not_recorded", (json_int_t)s->not_recorded, "other", (json_int_t)s->other, "ways", ways);
}

/* Symbol row @r of @p in column @c: its share, change from the base, and how many runs it covers. */
static json_t *prof_profile_cell_json(const struct cmp_set *s, const struct result_profile *p, const struct cmp_row *r,
				     size_t c)
{
	double v = result_profile_share(s, r, c), b = result_profile_share(s, r, s->base);
	double in = result_profile_share_in_runs(r, c);
	struct result_profile_cover cv = result_profile_cover_of(p, r, c);

	return json_pack("{s:s, s:o, s:o, s:o, s:I, s:I, s:I, s:I, s:b}", result_axis_name(s->axis), s->cols[c],
			 "share_pct", isnan(v) ? json_null() : json_real(v), "share_in_runs_pct",
			 isnan(in) ? json_null() : json_real(in), "change_pp",
			 isnan(v) || isnan(b) || c == s->base ? json_null() : json_real(v - b), "runs",
			 (json_int_t)cv.runs, "of_runs", (json_int_t)cv.of_runs, "sessions", (json_int_t)cv.sessions,
			 "of_sessions", (json_int_t)cv.of_sessions, "partial", cv.partial);
}

/* Column @c of @p: its runs and sessions, how they were sampled, the bound its clearing share sets. */
static json_t *prof_profile_col_json(const struct cmp_set *s, const struct result_profile *p, size_t c, const json_t *envs)
{
	struct result_sampling smp;
	double v = p->clearing ? result_profile_share(s, p->clearing, c) : NAN;

	if (result_profile_sampling(s, p, c, envs, &smp))
		return NULL;
	return json_pack("{s:s, s:b, s:I, s:I, s:o, s:o}", result_axis_name(s->axis), s->cols[c], "base", c == s->base,
			 "runs", (json_int_t)(p->clearing ? p->clearing->cells[c].n : 0), "sessions",
			 (json_int_t)smp.sessions, "sampling", result_sampling_json(&smp), "bound_factor",
			 isnan(v) ? json_null() : json_real(v / 100));
}

/* Its symbols' rows: clearing first, each with every column's cell. */
static json_t *prof_profile_syms_json(const struct cmp_set *s, const struct result_profile *p)
{
	json_t *syms = json_array();

	for (size_t i = 0; syms && i < (p->clearing ? 1 : 0) + p->nsyms; i++) {
		const struct cmp_row *r = prof_profile_nth(p, i);
		const char *sym = result_profile_symbol(r);
		json_t *cells = json_array();

		for (size_t c = 0; cells && c < s->ncols; c++)
			json_array_append_new(cells, prof_profile_cell_json(s, p, r, c));
		json_array_append_new(syms, json_pack("{s:s, s:b, s:o}", "symbol", sym, "clearing",
						      r == p->clearing || result_profile_clearing_symbol(sym), "columns",
						      cells ? cells : json_null()));
	}
	return syms;
}

static json_t *prof_profile_json(const struct cmp_set *s, const struct result_profile *p, const json_t *envs)
{
	json_t *cols = json_array(), *j = NULL;
	char *bench = NULL;
	bool ok = cols && asprintf(&bench, "%s %.*s", p->bench, (int)p->namelen, p->name) >= 0;

	if (!ok)
		bench = NULL;
	for (size_t c = 0; ok && c < s->ncols; c++)
		ok = !json_array_append_new(cols, prof_profile_col_json(s, p, c, envs));
	if (ok)
		j = json_pack("{s:s, s:O, s:o}", "benchmark", bench, "columns", cols, "symbols",
			      prof_profile_syms_json(s, p));
	json_decref(cols);
	free(bench);
	return j;
}

json_t *result_profiles_json(const struct cmp_set *s, size_t b, const json_t *envs)
{
	struct result_profile *ps;
	size_t n;
	json_t *a;

	if (result_profiles_of(s, b, &ps, &n))
		return NULL;
	a = json_array();
	for (size_t i = 0; a && i < n; i++) {
		json_t *j = prof_profile_json(s, &ps[i], envs);

		if (!j || json_array_append_new(a, j)) {
			json_decref(a);
			a = NULL;
		}
	}
	result_profiles_free(ps, n);
	return a;
}

struct result_spread result_spread_of(const struct cmp_cell *c)
{
	struct stats_sample_set set = cmp_cell_samples(c);
	struct result_spread s = { 0, NAN, NAN };
	int *ids = c->n ? malloc(c->n * sizeof(*ids)) : NULL;
	double *lv = c->n ? malloc(c->n * sizeof(*lv)) : NULL;
	int k = ids && lv ? stats_session_levels(&set, ids, lv) : -ENOMEM;

	for (int i = 0; i < k; i++) {
		s.lo = i ? fmin(s.lo, lv[i]) : lv[i];
		s.hi = i ? fmax(s.hi, lv[i]) : lv[i];
	}
	s.sessions = k > 0 ? k : 0;
	free(ids);
	free(lv);
	return s;
}
