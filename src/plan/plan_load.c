/* plan_load: read a plan's YAML (libyaml's document API), follow includes and expand every benchmark. */
#include "plan/plan_int.h"
#include "machine/machine.h"
#include "util/identity.h"
#include "util/log.h"
#include "util/size.h"

#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#define PLAN_UNSET UINT_MAX	/* a protocol field no file has set yet */
#define PLAN_NKEYS(a) (sizeof(a) / sizeof((a)[0]))

/* Built-in protocol, used where neither a benchmark nor any file's defaults say. */
static const struct plan_protocol plan_builtin = { 1, 3, 1, 600, 0, 0, 0 };

static int plan_read_file(struct plan_reader *rd, const char *path, bool top, bool absolute);

struct plan_loc plan_node_loc(const struct plan_file *f, const yaml_node_t *n)
{
	return (struct plan_loc){ f->path, (unsigned)n->start_mark.line + 1,
				  (unsigned)n->start_mark.column + 1 };
}

yaml_node_t *plan_node(struct plan_file *f, int index)
{
	return yaml_document_get_node(&f->doc, index);
}

/* The text of scalar @n, or NULL after plan_err() saying @what was expected. */
const char *plan_scalar(struct plan_file *f, yaml_node_t *n, const char *what)
{
	struct plan_loc loc = plan_node_loc(f, n);

	if (n->type != YAML_SCALAR_NODE) {
		plan_err(&loc, "%s must be a single value", what);
		return NULL;
	}
	return (const char *)n->data.scalar.value;
}

int plan_expect(struct plan_file *f, yaml_node_t *n, yaml_node_type_t type, const char *what)
{
	struct plan_loc loc = plan_node_loc(f, n);

	if (n->type == type)
		return 0;
	return plan_err(&loc, "%s must be a %s", what,
			type == YAML_MAPPING_NODE ? "mapping (key: value)" : "list");
}

/*
 * Whether @key reads as a key someone meant to write: short, letters, digits,
 * '_' and '-'.  Anything else (the first line of /etc/shadow, when a plan
 * includes it) is not quoted back, so an error never shows a foreign file.
 */
static bool plan_key_shown(const char *key)
{
	size_t n = strspn(key, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-");

	return n && n <= 64 && !key[n];
}

int plan_key_unknown(const struct plan_loc *loc, const char *key, const char *what, const char *const *valid,
		     size_t nvalid)
{
	char list[256] = "";

	if (plan_key_shown(key))
		return plan_err(loc, "unknown key '%s' in %s; nearest valid key: '%s'", key, what,
				valid[plan_nearest(key, valid, nvalid)]);
	for (size_t i = 0; i < nvalid; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "", valid[i]);
	return plan_err(loc, "an unknown key (%zu characters, not shown) in %s; valid keys: %s",
			strlen(key), what, list);
}

/*
 * Check that every key of mapping @n is one of @valid and none repeats;
 * an unknown key is named with the nearest valid one.  0 or EXIT_USAGE.
 */
int plan_check_keys(struct plan_file *f, yaml_node_t *n, const char *what,
			   const char *const *valid, size_t nvalid)
{
	int ret = plan_expect(f, n, YAML_MAPPING_NODE, what);

	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; !ret && p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = plan_node(f, p->key);
		const char *key = plan_scalar(f, k, "a key");
		struct plan_loc loc = plan_node_loc(f, k);
		size_t i;

		if (!key)
			return EXIT_USAGE;
		for (i = 0; i < nvalid && strcmp(key, valid[i]); i++)
			;
		if (i == nvalid)
			return plan_key_unknown(&loc, key, what, valid, nvalid);
		for (yaml_node_pair_t *q = n->data.mapping.pairs.start; q < p; q++)
			if (!strcmp(key, (const char *)plan_node(f, q->key)->data.scalar.value))
				return plan_err(&loc, "key '%s' is given twice in %s", key, what);
	}
	return ret;
}

/* The value of @key in mapping @n (already checked), or NULL. */
yaml_node_t *plan_get(struct plan_file *f, yaml_node_t *n, const char *key)
{
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++)
		if (!strcmp(key, (const char *)plan_node(f, p->key)->data.scalar.value))
			return plan_node(f, p->value);
	return NULL;
}

static int plan_get_uint(struct plan_file *f, yaml_node_t *n, const char *what, unsigned min,
			 unsigned max, unsigned *out)
{
	const char *s = plan_scalar(f, n, what);
	struct plan_loc loc = plan_node_loc(f, n);
	char *end;
	unsigned long v;

	if (!s)
		return EXIT_USAGE;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (*s < '0' || *s > '9' || *end || errno || v < min || v > max)
		return plan_err(&loc, "%s must be a whole number from %u to %u, not '%s'", what, min, max, s);
	*out = (unsigned)v;
	return 0;
}

static const char *const plan_proto_keys[] = {
	"warmups", "repeats", "sessions", "timeout", "profile", "profile_freq", "profile_event",
};

/* profile_freq and profile_event: how a profiled bench benchmark samples (as --profile-freq, --profile-event). */
static int plan_read_profile_cfg(struct plan_file *f, yaml_node_t *n, struct plan_protocol *p)
{
	yaml_node_t *v;
	int ret = 0;

	if ((v = plan_get(f, n, "profile_freq")))
		ret = plan_get_uint(f, v, "profile_freq", 1, PROFILE_MAX_HZ, &p->profile_hz);
	if (!ret && (v = plan_get(f, n, "profile_event"))) {
		struct plan_loc loc = plan_node_loc(f, v);
		const char *s = plan_scalar(f, v, "profile_event");
		enum profile_event e;

		if (!s)
			return EXIT_USAGE;
		if (profile_event_parse(s, &e))
			return plan_err(&loc, "profile_event must be cpu-clock or cycles, not '%s'", s);
		p->profile_event = 1 + (unsigned)e;
	}
	return ret;
}

/* Set the protocol fields mapping @n names (defaults, or a benchmark's own keys). */
static int plan_read_proto(struct plan_file *f, yaml_node_t *n, struct plan_protocol *p)
{
	yaml_node_t *v;
	const char *s;
	int ret = 0;

	if ((v = plan_get(f, n, "warmups")))
		ret = plan_get_uint(f, v, "warmups", 0, 1000, &p->warmups);
	if (!ret && (v = plan_get(f, n, "repeats")))
		ret = plan_get_uint(f, v, "repeats", 1, 1000, &p->repeats);
	if (!ret && (v = plan_get(f, n, "sessions")))
		ret = plan_get_uint(f, v, "sessions", 1, 1000, &p->sessions);
	if (!ret && (v = plan_get(f, n, "timeout"))) {
		struct plan_loc loc = plan_node_loc(f, v);

		if (!(s = plan_scalar(f, v, "timeout")))
			return EXIT_USAGE;
		if (plan_parse_duration(s, &p->timeout_s))
			return plan_err(&loc, "timeout '%s' is not a duration such as 90, 30s, 10m or 2h", s);
	}
	if (!ret && (v = plan_get(f, n, "profile"))) {
		struct plan_loc loc = plan_node_loc(f, v);

		if (!(s = plan_scalar(f, v, "profile")))
			return EXIT_USAGE;
		if (strcmp(s, "true") && strcmp(s, "false"))
			return plan_err(&loc, "profile must be true or false, not '%s'", s);
		p->profile = !strcmp(s, "true");
	}
	return ret ? ret : plan_read_profile_cfg(f, n, p);
}

/* Append a zeroed benchmark written at @n; NULL after log_err() when out of memory. */
static struct plan_bench *plan_new_bench(struct plan_file *f, yaml_node_t *n)
{
	struct plan *p = f->rd->plan;
	struct plan_bench *b = realloc(p->bench, (p->nbench + 1) * sizeof(*b));

	if (!b) {
		log_err("out of memory");
		return NULL;
	}
	p->bench = b;
	b = &p->bench[p->nbench];
	memset(b, 0, sizeof(*b));
	b->proto = (struct plan_protocol){ PLAN_UNSET, PLAN_UNSET, PLAN_UNSET, PLAN_UNSET, PLAN_UNSET, PLAN_UNSET,
					   PLAN_UNSET };
	b->line = (unsigned)n->start_mark.line + 1;
	b->col = (unsigned)n->start_mark.column + 1;
	if (!(b->file = plan_strdup(f->path)))
		return NULL;
	p->nbench++;
	return b;
}

static int plan_too_many(struct plan_file *f, yaml_node_t *n, unsigned long long more)
{
	struct plan_loc loc = plan_node_loc(f, n);

	if (f->rd->plan->nbench + more <= PLAN_MAX_BENCHMARKS)
		return 0;
	plan_err(&loc, "the plan would have %llu benchmarks; the limit is %d",
		 more > ULLONG_MAX - f->rd->plan->nbench ? ULLONG_MAX : f->rd->plan->nbench + more,
		 PLAN_MAX_BENCHMARKS);
	log_hint("split the matrix, or move part of it into a second plan");
	return EXIT_USAGE;
}

/* "mem mmap" -> the workload, or log the nearest one. */
static const struct workload *plan_workload(struct plan_file *f, yaml_node_t *n)
{
	const char *s = plan_scalar(f, n, "bench"), *names[64];
	struct plan_loc loc = plan_node_loc(f, n);
	char full[64][48], coll[32], name[32];
	size_t cnt = wl_count() < 64 ? wl_count() : 64;

	if (!s)
		return NULL;
	if (sscanf(s, "%31s %31s", coll, name) == 2 && wl_find(coll, name))
		return wl_find(coll, name);
	for (size_t i = 0; i < cnt; i++) {
		snprintf(full[i], sizeof(full[i]), "%s %s", wl_at(i)->collection, wl_at(i)->name);
		names[i] = full[i];
	}
	plan_err(&loc, "unknown workload '%s'; nearest: '%s'", s, names[plan_nearest(s, names, cnt)]);
	log_hint("'clearpath bench --list' shows every workload");
	return NULL;
}

/* Add option @key (a matrix or args key) = scalar @v to @b; flags take true/false. */
static int plan_add_keyval(struct plan_file *f, struct plan_bench *b, yaml_node_t *k, yaml_node_t *v)
{
	const char *key = plan_scalar(f, k, "an option name"), *val;
	const struct wl_opt *o;
	struct plan_loc kloc = plan_node_loc(f, k), vloc = plan_node_loc(f, v);

	if (!key)
		return EXIT_USAGE;
	if (!(o = plan_opt_find(b->wl, key)))
		return plan_opt_unknown(&kloc, b->wl, key);
	if (!(val = plan_scalar(f, v, key)))
		return EXIT_USAGE;
	if (o->type != WL_OPT_FLAG)
		return plan_bench_add_arg(b, o, val, &kloc);
	if (!strcmp(val, "false"))
		return 0;
	if (strcmp(val, "true"))
		return plan_err(&vloc, "--%s is a flag: write true or false, not '%s'", o->long_name, val);
	return plan_bench_add_arg(b, o, NULL, &kloc);
}

/* Check the matrix: option keys with non-empty lists of values.  Sets *rows to the product. */
static int plan_matrix_rows(struct plan_file *f, yaml_node_t *m, const struct workload *wl,
			    unsigned long long *rows)
{
	*rows = 1;
	if (!m)
		return 0;
	if (plan_expect(f, m, YAML_MAPPING_NODE, "matrix"))
		return EXIT_USAGE;
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
		yaml_node_t *k = plan_node(f, p->key), *v = plan_node(f, p->value);
		const char *key = plan_scalar(f, k, "a matrix key");
		struct plan_loc kloc = plan_node_loc(f, k), loc = plan_node_loc(f, v);
		size_t n;

		if (!key)
			return EXIT_USAGE;
		if (!plan_opt_find(wl, key))
			return plan_opt_unknown(&kloc, wl, key);
		if (plan_expect(f, v, YAML_SEQUENCE_NODE, "a matrix value"))
			return EXIT_USAGE;
		n = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
		if (!n)
			return plan_err(&loc, "matrix key '%s' has no values", key);
		/* saturating, so the refusal can say how many rows were asked for */
		*rows = *rows > ULLONG_MAX / n ? ULLONG_MAX : *rows * n;
	}
	return 0;
}

/* Fill @b with matrix row @row (mixed radix over the keys, first key slowest) then @args. */
static int plan_fill_row(struct plan_file *f, struct plan_bench *b, yaml_node_t *m, yaml_node_t *args,
			 unsigned long long row)
{
	unsigned long long radix = 1;
	int ret = 0;

	for (yaml_node_pair_t *p = m ? m->data.mapping.pairs.top : NULL; m && p-- > m->data.mapping.pairs.start;)
		radix *= (unsigned long long)(plan_node(f, p->value)->data.sequence.items.top -
					      plan_node(f, p->value)->data.sequence.items.start);
	for (yaml_node_pair_t *p = m ? m->data.mapping.pairs.start : NULL; !ret && m && p < m->data.mapping.pairs.top; p++) {
		yaml_node_t *v = plan_node(f, p->value);
		unsigned long long n = (unsigned long long)(v->data.sequence.items.top - v->data.sequence.items.start);

		radix /= n;
		ret = plan_add_keyval(f, b, plan_node(f, p->key),
				      plan_node(f, v->data.sequence.items.start[(row / radix) % n]));
	}
	for (yaml_node_pair_t *p = args ? args->data.mapping.pairs.start : NULL; !ret && args && p < args->data.mapping.pairs.top; p++)
		ret = plan_add_keyval(f, b, plan_node(f, p->key), plan_node(f, p->value));
	return ret;
}

static const char *const plan_item_keys[] = {
	"bench", "args", "matrix", "exec", "warmups", "repeats", "sessions", "timeout", "profile", "profile_freq",
	"profile_event",
};
static const char *const plan_exec_keys[] = {
	"name", "command", "regex", "unit", "higher_is_better",
};

/* A structured bench benchmark: bench + args + matrix, one benchmark per matrix row. */
static int plan_read_structured(struct plan_file *f, yaml_node_t *item, yaml_node_t *bench)
{
	yaml_node_t *args = plan_get(f, item, "args"), *m = plan_get(f, item, "matrix");
	const struct workload *wl = plan_workload(f, bench);
	unsigned long long rows;
	int ret;

	if (!wl)
		return EXIT_USAGE;
	if (args && plan_expect(f, args, YAML_MAPPING_NODE, "args"))
		return EXIT_USAGE;
	ret = plan_matrix_rows(f, m, wl, &rows);
	if (!ret)
		ret = plan_too_many(f, m ? m : item, rows);
	for (unsigned long long r = 0; !ret && r < rows; r++) {
		struct plan_bench *b = plan_new_bench(f, item);

		if (!b)
			return EXIT_INTERNAL;
		b->kind = PLAN_BENCH;
		b->wl = wl;
		ret = plan_fill_row(f, b, m, args, r);
		if (!ret)
			ret = plan_read_proto(f, item, &b->proto);
		if (!ret)
			ret = plan_bench_build(b);
	}
	return ret;
}

/* Copy the scalar @key of exec mapping @e into *out. */
static int plan_exec_field(struct plan_file *f, yaml_node_t *e, const char *key, char **out)
{
	yaml_node_t *v = plan_get(f, e, key);
	struct plan_loc loc = plan_node_loc(f, e);
	const char *s;

	if (!v)
		return plan_err(&loc, "exec needs '%s'", key);
	if (!(s = plan_scalar(f, v, key)))
		return EXIT_USAGE;
	*out = plan_strdup(s);
	return *out ? 0 : EXIT_INTERNAL;
}

static int plan_read_exec(struct plan_file *f, yaml_node_t *item, yaml_node_t *e)
{
	struct plan_bench *b;
	struct plan_loc loc = plan_node_loc(f, e);
	char *hib = NULL;
	const char *why;
	regex_t re;
	int rc, ret = plan_check_keys(f, e, "exec", plan_exec_keys, PLAN_NKEYS(plan_exec_keys));

	if (ret || (ret = plan_too_many(f, e, 1)))
		return ret;
	if (!(b = plan_new_bench(f, item)))
		return EXIT_INTERNAL;
	b->kind = PLAN_EXEC;
	if ((ret = plan_exec_field(f, e, "name", &b->id)) || (ret = plan_exec_field(f, e, "command", &b->exec.command)) ||
	    (ret = plan_exec_field(f, e, "regex", &b->exec.regex)) || (ret = plan_exec_field(f, e, "unit", &b->exec.unit)) ||
	    (ret = plan_exec_field(f, e, "higher_is_better", &hib)))
		goto out;
	if (!b->id[0]) {
		ret = plan_err(&loc, "an exec's name must not be empty: it names the benchmark in the store");
		goto out;
	}
	if (strlen(b->id) > IDENT_EXEC_NAME_MAX || strlen(b->exec.command) > IDENT_EXEC_COMMAND_MAX) {
		ret = plan_err(&loc, "an exec's name may have at most %zu bytes and its command at most %zu "
			       "(this one: %zu and %zu): the store keeps both whole; put a long command in a script",
			       IDENT_EXEC_NAME_MAX, IDENT_EXEC_COMMAND_MAX, strlen(b->id), strlen(b->exec.command));
		goto out;
	}
	if (strcmp(hib, "true") && strcmp(hib, "false")) {
		ret = plan_err(&loc, "higher_is_better must be true or false, not '%s'", hib);
		goto out;
	}
	b->exec.higher_is_better = !strcmp(hib, "true");
	if ((why = plan_regex_cost(b->exec.regex))) {
		ret = plan_err(&loc, "regex refused: %s", why);
		goto out;
	}
	if ((rc = regcomp(&re, b->exec.regex, REG_EXTENDED))) {
		ret = plan_err(&loc, rc == REG_ESPACE ? "regex '%s' needs more memory than there is to compile" :
			       "regex '%s' is not a POSIX extended regular expression", b->exec.regex);
		goto out;
	}
	if (re.re_nsub < 1)
		ret = plan_err(&loc, "regex '%s' needs a group ( ) around the value", b->exec.regex);
	regfree(&re);
	if (!ret)
		ret = plan_read_proto(f, item, &b->proto);
out:
	free(hib);
	return ret;
}

static int plan_read_item(struct plan_file *f, yaml_node_t *item)
{
	yaml_node_t *bench, *e;
	struct plan_loc loc = plan_node_loc(f, item);
	struct plan_bench *b;
	int ret;

	if (item->type == YAML_SCALAR_NODE) {
		if ((ret = plan_too_many(f, item, 1)) || !(b = plan_new_bench(f, item)))
			return ret ? ret : EXIT_INTERNAL;
		return plan_bench_from_line(b, (const char *)item->data.scalar.value);
	}
	ret = plan_check_keys(f, item, "a benchmark", plan_item_keys, PLAN_NKEYS(plan_item_keys));
	if (ret)
		return ret;
	bench = plan_get(f, item, "bench");
	e = plan_get(f, item, "exec");
	if (!bench == !e)
		return plan_err(&loc, "a benchmark has either 'bench' or 'exec'");
	if (e && (plan_get(f, item, "args") || plan_get(f, item, "matrix")))
		return plan_err(&loc, "args and matrix belong to 'bench', not 'exec'");
	return e ? plan_read_exec(f, item, e) : plan_read_structured(f, item, bench);
}

static int plan_read_requires(struct plan_file *f, yaml_node_t *n)
{
	static const char *const keys[] = { "hugepages", "memory" };
	struct plan_requires *req = &f->rd->plan->req;
	yaml_node_t *v;
	uint64_t bytes;
	const char *s;
	int ret = plan_check_keys(f, n, "requires", keys, PLAN_NKEYS(keys));

	if (!ret && (v = plan_get(f, n, "memory"))) {
		struct plan_loc loc = plan_node_loc(f, v);

		if (!(s = plan_scalar(f, v, "memory")))
			return EXIT_USAGE;
		if (size_parse(s, &bytes))
			return plan_err(&loc, "memory '%s' is not a size: expected %s", s, SIZE_FORMS);
		if (bytes > req->memory)
			req->memory = bytes;	/* includes ask for the most any of them needs */
	}
	if (ret || !(v = plan_get(f, n, "hugepages")))
		return ret;
	if (plan_expect(f, v, YAML_MAPPING_NODE, "hugepages"))
		return EXIT_USAGE;
	for (yaml_node_pair_t *p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
		yaml_node_t *k = plan_node(f, p->key);
		struct plan_loc loc = plan_node_loc(f, k);
		unsigned count;
		size_t i;

		if (!(s = plan_scalar(f, k, "a hugepage size")))
			return EXIT_USAGE;
		if (size_parse(s, &bytes) || !machine_page_hugetlb(bytes))
			return plan_err(&loc, "hugepage size '%s' is not a huge page size such as 2MB or 1GB", s);
		if ((ret = plan_get_uint(f, plan_node(f, p->value), "a hugepage count", 0, UINT_MAX, &count)))
			return ret;
		for (i = 0; i < req->nhuge && req->huge[i].page != bytes; i++)
			;
		if (i == PLAN_MAX_HUGE)
			return plan_err(&loc, "at most %d hugepage sizes", PLAN_MAX_HUGE);
		if (i == req->nhuge)
			req->huge[req->nhuge++].page = bytes;
		if (count > req->huge[i].count)
			req->huge[i].count = count;
	}
	return 0;
}

/* Include @n's files, each relative to the directory of the including file. */
static int plan_read_includes(struct plan_file *f, yaml_node_t *n)
{
	const char *slash = strrchr(f->path, '/');
	int dirlen = slash ? (int)(slash - f->path) + 1 : 0, ret = 0;

	if (plan_expect(f, n, YAML_SEQUENCE_NODE, "include"))
		return EXIT_USAGE;
	for (yaml_node_item_t *i = n->data.sequence.items.start; !ret && i < n->data.sequence.items.top; i++) {
		const char *s = plan_scalar(f, plan_node(f, *i), "an include");
		char path[PATH_MAX];

		if (!s)
			return EXIT_USAGE;
		if (s[0] == '/')
			snprintf(path, sizeof(path), "%s", s);
		else
			snprintf(path, sizeof(path), "%.*s%s", dirlen, f->path, s);
		ret = plan_read_file(f->rd, path, false, s[0] == '/');
		if (ret) {
			struct plan_loc loc = plan_node_loc(f, plan_node(f, *i));

			plan_err(&loc, "included from here");
		}
	}
	return ret;
}

/* Give the benchmarks from @first on what this file's defaults say, where nothing nearer did. */
static void plan_apply_defaults(struct plan *p, size_t first, const struct plan_protocol *d)
{
	for (size_t i = first; i < p->nbench; i++) {
		struct plan_protocol *b = &p->bench[i].proto;

		b->warmups = b->warmups == PLAN_UNSET ? d->warmups : b->warmups;
		b->repeats = b->repeats == PLAN_UNSET ? d->repeats : b->repeats;
		b->sessions = b->sessions == PLAN_UNSET ? d->sessions : b->sessions;
		b->timeout_s = b->timeout_s == PLAN_UNSET ? d->timeout_s : b->timeout_s;
		b->profile = b->profile == PLAN_UNSET ? d->profile : b->profile;
		b->profile_hz = b->profile_hz == PLAN_UNSET ? d->profile_hz : b->profile_hz;
		b->profile_event = b->profile_event == PLAN_UNSET ? d->profile_event : b->profile_event;
	}
}

/*
 * A benchmark that says how to sample but not whether to profile profiles,
 * as --profile-freq and --profile-event imply --profile; an explicit
 * profile (the benchmark's or a default's) decides.
 */
static void plan_profile_implied(struct plan *p)
{
	for (size_t i = 0; i < p->nbench; i++) {
		struct plan_protocol *b = &p->bench[i].proto;

		if (b->profile == PLAN_UNSET && (b->profile_hz != PLAN_UNSET || b->profile_event != PLAN_UNSET))
			b->profile = 1;
	}
}

static int plan_set_string(struct plan_file *f, yaml_node_t *root, const char *key, char **out)
{
	yaml_node_t *v = plan_get(f, root, key);
	const char *s;

	if (!v)
		return 0;
	if (!(s = plan_scalar(f, v, key)))
		return EXIT_USAGE;
	free(*out);
	*out = plan_strdup(s);
	return *out ? 0 : EXIT_INTERNAL;
}

static const char *const plan_top_keys[] = {
	"name", "defaults", "swprofile", "swprofiles", "benchmarks", "include", "requires", "buffers",
};

/* `buffers: past-cache` (raise the buffers a last-level cache holds, plan_past_cache()) or `as-written`. */
static int plan_read_buffers(struct plan_file *f, yaml_node_t *v)
{
	struct plan_loc loc = plan_node_loc(f, v);
	const char *s = v->type == YAML_SCALAR_NODE ? (const char *)v->data.scalar.value : NULL;

	if (!s || (strcmp(s, "past-cache") && strcmp(s, "as-written")))
		return plan_err(&loc, "'buffers' takes past-cache or as-written");
	f->rd->plan->past_cache = !strcmp(s, "past-cache");
	return 0;
}

/*
 * A key of the top mapping that is none of its own but nearer one of a
 * benchmark's protocol keys ("repeat:" for defaults' "repeats:"): named
 * with that key and where it goes, rather than the nearest top key
 * ("name"), which is no fix.  0 when there is none; else EXIT_USAGE.
 */
static int plan_top_misplaced(struct plan_file *f, yaml_node_t *root)
{
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		yaml_node_t *k = plan_node(f, p->key);
		const char *key = k->type == YAML_SCALAR_NODE ? (const char *)k->data.scalar.value : NULL;
		struct plan_loc loc = plan_node_loc(f, k);
		int top, proto;

		if (!key || strspn(key, "abcdefghijklmnopqrstuvwxyz_") != strlen(key) || strlen(key) > 64)
			continue;
		top = plan_nearest(key, plan_top_keys, PLAN_NKEYS(plan_top_keys));
		proto = plan_nearest(key, plan_proto_keys, PLAN_NKEYS(plan_proto_keys));
		if (!strcmp(key, plan_top_keys[top]) ||
		    plan_distance(key, plan_proto_keys[proto]) >= plan_distance(key, plan_top_keys[top]))
			continue;
		if (!strcmp(key, plan_proto_keys[proto]))
			return plan_err(&loc, "'%s' belongs under 'defaults:' (for every benchmark) or in a benchmark,"
					" not at the top of a plan", key);
		return plan_err(&loc, "unknown key '%s' in a plan; nearest valid key: '%s', which goes under"
				" 'defaults:' (for every benchmark) or in a benchmark", key, plan_proto_keys[proto]);
	}
	return 0;
}

/* Walk the top mapping of one file in the order written, so includes land where they are named. */
static int plan_read_root(struct plan_file *f, yaml_node_t *root, bool top)
{
	struct plan_protocol d = { PLAN_UNSET, PLAN_UNSET, PLAN_UNSET, PLAN_UNSET, PLAN_UNSET, PLAN_UNSET, PLAN_UNSET };
	size_t first = f->rd->plan->nbench;
	yaml_node_t *v;
	int ret = plan_expect(f, root, YAML_MAPPING_NODE, "a plan") ?: plan_top_misplaced(f, root) ?:
		  plan_check_keys(f, root, "a plan", plan_top_keys, PLAN_NKEYS(plan_top_keys));

	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; !ret && p < root->data.mapping.pairs.top; p++) {
		const char *key = (const char *)plan_node(f, p->key)->data.scalar.value;
		struct plan_loc loc = plan_node_loc(f, plan_node(f, p->key));

		v = plan_node(f, p->value);
		if (!top && (!strcmp(key, "name") || !strcmp(key, "swprofile") || !strcmp(key, "swprofiles")))
			ret = plan_err(&loc, "'%s' belongs in the top plan, not in an included file", key);
		else if (!strcmp(key, "include"))
			ret = plan_read_includes(f, v);
		else if (!strcmp(key, "swprofiles"))
			ret = plan_read_swprofiles(f, v);
		else if (!strcmp(key, "requires"))
			ret = plan_read_requires(f, v);
		else if (!strcmp(key, "buffers") && !top)
			ret = plan_err(&loc, "'buffers' belongs in the top plan, not in an included file");
		else if (!strcmp(key, "buffers"))
			ret = plan_read_buffers(f, v);
		else if (!strcmp(key, "defaults"))
			ret = plan_check_keys(f, v, "defaults", plan_proto_keys, PLAN_NKEYS(plan_proto_keys)) ?:
			      plan_read_proto(f, v, &d);
		else if (!strcmp(key, "benchmarks") && !(ret = plan_expect(f, v, YAML_SEQUENCE_NODE, "benchmarks")))
			for (yaml_node_item_t *i = v->data.sequence.items.start; !ret && i < v->data.sequence.items.top; i++)
				ret = plan_read_item(f, plan_node(f, *i));
	}
	if (!ret && top) {
		ret = plan_set_string(f, root, "name", &f->rd->plan->name);
		if (!ret)
			ret = plan_set_string(f, root, "swprofile", &f->rd->plan->swprofile);
	}
	plan_apply_defaults(f->rd->plan, first, &d);
	return ret;
}

/* Log the include chain ending in @path, which is already being read. */
static int plan_include_loop(struct plan_reader *rd, const char *path, size_t at)
{
	char chain[1024] = "";

	for (size_t i = at; i < rd->depth; i++)
		snprintf(chain + strlen(chain), sizeof(chain) - strlen(chain), "%s -> ", rd->shown[i]);
	log_err("include loop: %s%s", chain, path);
	return EXIT_USAGE;
}

static int plan_yaml_error(struct plan_file *f, const yaml_parser_t *parser)
{
	struct plan_loc loc = { f->path, (unsigned)parser->problem_mark.line + 1,
				(unsigned)parser->problem_mark.column + 1 };

	plan_err(&loc, "YAML syntax error: %s", parser->problem ?: "unknown problem");
	if (parser->context)
		log_hint("%s, which started at %zu:%zu", parser->context, parser->context_mark.line + 1,
			 parser->context_mark.column + 1);
	return EXIT_USAGE;
}

/*
 * A plan is one YAML document: a second one ('---' then more) would be
 * ignored without a word, so it is refused.  @f->doc is deleted on error.
 */
static int plan_one_document(struct plan_file *f, yaml_parser_t *parser)
{
	yaml_document_t next;
	int ret = 0;

	if (!yaml_parser_load(parser, &next)) {
		ret = plan_yaml_error(f, parser);
	} else if (yaml_document_get_root_node(&next)) {
		struct plan_loc loc = { f->path, (unsigned)next.start_mark.line + 1,
					(unsigned)next.start_mark.column + 1 };

		ret = plan_err(&loc, "a second YAML document: a plan is one document");
		log_hint("remove the '---' that starts it, or move it into a plan of its own");
	}
	yaml_document_delete(&next);
	if (ret)
		yaml_document_delete(&f->doc);
	return ret;
}

/*
 * A plan is a page or two of YAML.  A file far larger (a wrong path, a
 * generated blob) would make libyaml build a node per scalar, gigabytes
 * for tens of megabytes; nesting thousands deep costs libyaml's scanner
 * time quadratic in the depth.  Both are refused before the document is
 * built.
 */
#define PLAN_MAX_BYTES (1 << 20)
#define PLAN_MAX_NEST 64

/* The whole of @in into *@buf (*@len bytes), at most PLAN_MAX_BYTES of it. */
static int plan_slurp(const char *path, FILE *in, unsigned char **buf, size_t *len)
{
	*buf = malloc(PLAN_MAX_BYTES + 1);
	if (!*buf) {
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	*len = fread(*buf, 1, PLAN_MAX_BYTES + 1, in);
	if (ferror(in)) {
		log_err("cannot read plan %s: %s", path, strerror(errno));
		return EXIT_USAGE;
	}
	if (*len > PLAN_MAX_BYTES) {
		log_err("%s: the plan is larger than %d bytes, which no plan needs", path, PLAN_MAX_BYTES);
		log_hint("check the path (is it a plan?), or split it into files joined with include:");
		return EXIT_USAGE;
	}
	return 0;
}

static int plan_parser_init(yaml_parser_t *parser, const unsigned char *buf, size_t len)
{
	if (!yaml_parser_initialize(parser)) {
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	yaml_parser_set_input_string(parser, buf, len);
	return 0;
}

/*
 * 0, or EXIT_USAGE after plan_err() when event @ev opens a level deeper than
 * PLAN_MAX_NEST, or is a scalar holding a NUL ("\0" in double quotes): C
 * strings end there, so "mem memset -s 8KB\0 -l 5" would run without -l 5.
 */
static int plan_check_event(struct plan_file *f, const yaml_event_t *ev, unsigned *depth)
{
	struct plan_loc loc = { f->path, (unsigned)ev->start_mark.line + 1, (unsigned)ev->start_mark.column + 1 };

	if (ev->type == YAML_SCALAR_EVENT && memchr(ev->data.scalar.value, '\0', ev->data.scalar.length))
		return plan_err(&loc, "a value holds a NUL character (\\0), which would cut it short there");
	if (ev->type == YAML_SEQUENCE_END_EVENT || ev->type == YAML_MAPPING_END_EVENT)
		--*depth;
	if (ev->type != YAML_SEQUENCE_START_EVENT && ev->type != YAML_MAPPING_START_EVENT)
		return 0;
	if (++*depth <= PLAN_MAX_NEST)
		return 0;
	return plan_err(&loc, "lists and mappings nest deeper than %d levels", PLAN_MAX_NEST);
}

/* A first pass over the events: refuse nesting deeper than PLAN_MAX_NEST before it costs anything, and NULs. */
static int plan_check_nesting(struct plan_file *f, const unsigned char *buf, size_t len)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	unsigned depth = 0;
	bool end = false;
	int ret = plan_parser_init(&parser, buf, len);

	if (ret)
		return ret;
	while (!ret && !end) {
		if (!yaml_parser_parse(&parser, &ev)) {
			ret = plan_yaml_error(f, &parser);
			break;
		}
		ret = plan_check_event(f, &ev, &depth);
		end = ev.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	return ret;
}

/* Parse @path with libyaml; a syntax error is reported at libyaml's problem mark. */
static int plan_parse_yaml(struct plan_file *f, FILE *in)
{
	yaml_parser_t parser;
	unsigned char *buf = NULL;
	size_t len = 0;
	int ret = plan_slurp(f->path, in, &buf, &len) ?: plan_check_nesting(f, buf, len) ?:
		  plan_parser_init(&parser, buf, len);

	if (!ret) {
		if (!yaml_parser_load(&parser, &f->doc))
			ret = plan_yaml_error(f, &parser);
		else
			ret = plan_one_document(f, &parser);
		yaml_parser_delete(&parser);
	}
	free(buf);
	return ret;
}

/* Remember file @path (@real its realpath) among the plan's sources, once. */
static int plan_add_source(struct plan *p, const char *path, const char *real, bool absolute)
{
	struct plan_source *grown;

	for (size_t i = 0; i < p->nsources; i++)
		if (!strcmp(p->sources[i].real, real))
			return 0;
	if (!(grown = realloc(p->sources, (p->nsources + 1) * sizeof(*grown)))) {
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	p->sources = grown;
	grown[p->nsources].path = plan_strdup(path);
	grown[p->nsources].real = plan_strdup(real);
	grown[p->nsources].absolute = absolute;
	p->nsources++;
	return grown[p->nsources - 1].path && grown[p->nsources - 1].real ? 0 : EXIT_INTERNAL;
}

static int plan_read_file(struct plan_reader *rd, const char *path, bool top, bool absolute)
{
	struct plan_file f = { .rd = rd, .path = path };
	char *real = realpath(path, NULL);
	yaml_node_t *root;
	FILE *in;
	int ret;

	if (!real || !(in = fopen(path, "r"))) {
		log_err("cannot read plan %s: %s", path, strerror(errno));
		free(real);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < rd->depth; i++)
		if (!strcmp(rd->real[i], real)) {
			fclose(in);
			free(real);
			return plan_include_loop(rd, path, i);
		}
	if (rd->depth == PLAN_MAX_DEPTH) {
		fclose(in);
		free(real);
		log_err("%s: includes nest deeper than %d files", path, PLAN_MAX_DEPTH);
		return EXIT_USAGE;
	}
	if (++rd->files > PLAN_MAX_FILES) {
		fclose(in);
		free(real);
		log_err("%s: the plan reads more than %d files through its includes", path, PLAN_MAX_FILES);
		log_hint("include each file once: a file included again, by several files, is read each time");
		return EXIT_USAGE;
	}
	rd->real[rd->depth] = real;
	rd->shown[rd->depth++] = path;
	ret = plan_add_source(rd->plan, path, real, absolute);
	if (!ret)
		ret = plan_parse_yaml(&f, in);
	fclose(in);
	if (ret)
		goto out;
	root = yaml_document_get_root_node(&f.doc);
	if (!root) {
		log_err("%s: the plan is empty", path);
		ret = EXIT_USAGE;
	} else {
		ret = plan_read_root(&f, root, top);
	}
	yaml_document_delete(&f.doc);
out:
	free(rd->real[--rd->depth]);
	return ret;
}

/* Two benchmarks with one id would mix their samples in the store. */
static int plan_check_unique(const struct plan *p)
{
	for (size_t i = 1; i < p->nbench; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(p->bench[i].id, p->bench[j].id)) {
				struct plan_loc loc = { p->bench[i].file, p->bench[i].line, p->bench[i].col };

				return plan_err(&loc, "benchmark '%s' is already in the plan (%s:%u)",
						p->bench[i].id, p->bench[j].file, p->bench[j].line);
			}
	return 0;
}

/* The file name without directory and extension: the plan's name when it sets none. */
static char *plan_default_name(const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char *name = plan_strdup(base), *dot;

	if (name && (dot = strrchr(name, '.')) && dot != name)
		*dot = '\0';
	return name;
}

int plan_load(const char *path, struct plan **out)
{
	struct plan_reader rd = { .depth = 0 };
	int ret;

	*out = NULL;
	rd.plan = calloc(1, sizeof(*rd.plan));
	if (!rd.plan) {
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	rd.plan->scale = 1;
	ret = plan_read_file(&rd, path, true, false);
	if (!ret && !rd.plan->nbench) {
		log_err("%s: the plan has no benchmarks", path);
		ret = EXIT_USAGE;
	}
	if (!ret)
		ret = plan_check_unique(rd.plan);
	if (!ret && rd.plan->nswprofiles && rd.plan->swprofile) {
		log_err("%s: a plan names either one swprofile or a campaign's swprofiles, not both", path);
		ret = EXIT_USAGE;
	}
	if (!ret && (!(rd.plan->file = plan_strdup(path)) ||
		     (!rd.plan->name && !(rd.plan->name = plan_default_name(path))) ||
		     (!rd.plan->swprofile && !(rd.plan->swprofile = plan_strdup("auto")))))
		ret = EXIT_INTERNAL;
	if (ret) {
		plan_free(rd.plan);
		return ret;
	}
	plan_profile_implied(rd.plan);
	plan_apply_defaults(rd.plan, 0, &plan_builtin);
	*out = rd.plan;
	return 0;
}

void plan_free(struct plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nbench; i++)
		plan_bench_clear(&p->bench[i]);
	free(p->bench);
	free(p->name);
	free(p->file);
	free(p->swprofile);
	plan_swprofiles_free(p);
	for (size_t i = 0; i < p->nsources; i++) {
		free(p->sources[i].path);
		free(p->sources[i].real);
	}
	free(p->sources);
	free(p);
}
