/* plan_bench: one bench benchmark of a plan: its options, canonical command line and validation by the workload parser. */
#define _GNU_SOURCE
#include "plan/plan_int.h"
#include "util/log.h"
#include "util/size.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLAN_MAX_NAMES (2 * 32 + 2)

const struct wl_opt plan_opt_function = {
	'f', "function", WL_OPT_STR, 0, NULL, "name[,name]", "function to run", 0, 0, NULL,
};

int plan_err(const struct plan_loc *loc, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_err("%s:%u:%u: %s", loc->file, loc->line, loc->col, msg);
	return EXIT_USAGE;
}

char *plan_strdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		log_err("out of memory");
	return d;
}

static struct plan_loc plan_bench_loc(const struct plan_bench *b)
{
	return (struct plan_loc){ b->file, b->line, b->col };
}

const struct wl_opt *plan_opt_find(const struct workload *wl, const char *key)
{
	if (!strcmp(key, "f") || !strcmp(key, "function"))
		return &plan_opt_function;
	for (const struct wl_opt *o = wl->opts; o->long_name; o++)
		if (!strcmp(key, o->long_name) || (o->short_name && key[0] == o->short_name && !key[1]))
			return o;
	return NULL;
}

int plan_opt_unknown(const struct plan_loc *loc, const struct workload *wl, const char *key)
{
	static char shorts[PLAN_MAX_NAMES][2];
	const char *names[PLAN_MAX_NAMES];
	size_t n = 0;
	int near;

	names[n++] = "f";
	names[n++] = "function";
	for (const struct wl_opt *o = wl->opts; o->long_name && n + 2 <= PLAN_MAX_NAMES; o++) {
		if (o->short_name) {
			shorts[n][0] = o->short_name;
			names[n] = shorts[n];
			n++;
		}
		names[n++] = o->long_name;
	}
	near = plan_nearest(key, names, n);
	plan_err(loc, "'%s' is not an option of 'bench %s %s'; nearest: '%s'", key, wl->collection,
		 wl->name, names[near]);
	log_hint("see 'clearpath bench %s %s --help'", wl->collection, wl->name);
	return EXIT_USAGE;
}

int plan_bench_add_arg(struct plan_bench *b, const struct wl_opt *opt, const char *value,
		       const struct plan_loc *loc)
{
	struct plan_arg *a;
	char norm[32];
	uint64_t bytes;

	for (size_t i = 0; i < b->nargs; i++)
		if (b->args[i].opt == opt)
			return plan_err(loc, "option --%s is given twice in '%s'", opt->long_name,
					b->wl->name);
	a = realloc(b->args, (b->nargs + 1) * sizeof(*a));
	if (!a) {
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	b->args = a;
	a = &b->args[b->nargs];
	*a = (struct plan_arg){ opt, NULL, NULL };
	/* A size that does not parse stays as written, for the workload parser to report. */
	if (value && opt->type == WL_OPT_SIZE && !size_parse(value, &bytes) && bytes)
		value = size_format(bytes, norm, sizeof(norm));
	if (value && (!(a->value = plan_strdup(value)) || !(a->written = plan_strdup(value)))) {
		free(a->value);
		return EXIT_INTERNAL;
	}
	b->nargs++;
	return 0;
}

/*
 * Add the option token @tok[*i] (and its value) to @b.  The line already
 * passed the workload parser, so only shapes getopt accepts but a canonical
 * line cannot keep (abbreviations, bundled flags) are left to refuse.
 */
static int plan_take_token(struct plan_bench *b, char **tok, int ntok, int *i,
			   const struct plan_loc *loc)
{
	const char *t = tok[*i], *val = NULL;
	char name[64];
	const struct wl_opt *o;

	if (!strncmp(t, "--", 2)) {
		size_t len = strcspn(t + 2, "=");

		snprintf(name, sizeof(name), "%.*s", (int)len, t + 2);
		if (t[2 + len] == '=')
			val = t + 3 + len;
	} else {
		snprintf(name, sizeof(name), "%c", t[1]);
		if (t[2])
			val = t + 2;
	}
	o = plan_opt_find(b->wl, name);
	if (!o || t[0] != '-' || !t[1])
		return plan_err(loc, "'%s': write each option in full and separately in a plan", t);
	if (o->type == WL_OPT_FLAG) {
		if (val)
			return plan_err(loc, "'%s': write each option in full and separately in a plan", t);
	} else if (!val) {
		if (*i + 1 >= ntok)
			return plan_err(loc, "'%s' needs a value", t);
		val = tok[++*i];
	}
	return plan_bench_add_arg(b, o, val, loc);
}

/*
 * Whether getopt would read token @t of a @wl line as --help (or a prefix
 * of it, or an 'h' in a bundle of short flags): the workload parser prints
 * the help to stdout then, which validating a plan must not do.
 */
static bool plan_token_is_help(const struct workload *wl, const char *t)
{
	if (t[0] != '-' || !t[1])
		return false;
	if (t[1] == '-')
		return t[2] && t[2] != '=' && !strncmp("help", t + 2, strcspn(t + 2, "="));
	for (const char *c = t + 1; *c; c++) {
		const struct wl_opt *o;

		if (*c == 'h')
			return true;
		o = *c == 'f' ? &plan_opt_function : plan_opt_find(wl, (char[]){ *c, '\0' });
		if (o && o->type != WL_OPT_FLAG)
			return false;	/* the rest of the token is this option's value */
	}
	return false;
}

int plan_bench_from_line(struct plan_bench *b, const char *line)
{
	struct plan_loc loc = plan_bench_loc(b);
	char *buf = plan_strdup(line), *tok[WL_MAX_WORDS], *copy[WL_MAX_WORDS];
	struct wl_parsed parsed;
	int n, ret = EXIT_INTERNAL;

	if (!buf)
		return EXIT_INTERNAL;
	n = wl_split(buf, tok, WL_MAX_WORDS);
	if (n < 0) {
		ret = plan_err(&loc, "bench line has more than %d words", WL_MAX_WORDS);
		goto out;
	}
	for (int i = 2; n >= 2 && wl_find(tok[0], tok[1]) && i < n; i++)
		if (plan_token_is_help(wl_find(tok[0], tok[1]), tok[i])) {
			ret = plan_err(&loc, "'%s': --help has no place in a plan", tok[i]);
			goto out;
		}
	/* getopt may permute its argv: the parser gets a copy, the tokens stay in written order. */
	memcpy(copy, tok, (size_t)n * sizeof(*tok));
	ret = wl_parse(n, copy, &parsed);
	if (ret) {
		plan_err(&loc, "in bench line '%s'", line);
		goto out;
	}
	wl_parsed_free(&parsed);
	b->kind = PLAN_BENCH;
	b->wl = parsed.wl;
	for (int i = 2; i < n && !ret; i++)
		ret = plan_take_token(b, tok, n, &i, &loc);
	if (!ret)
		ret = plan_bench_build(b);
out:
	free(buf);
	return ret;
}

/* Check every name of the -f list against the workload's functions (portable: not whether they run here). */
static int plan_check_functions(const struct plan_bench *b, const char *spec)
{
	struct plan_loc loc = plan_bench_loc(b);
	struct wl_func f[WL_MAX_FUNCS];
	const struct wl_func *sel[WL_MAX_FUNCS];
	const char *names[WL_MAX_FUNCS];
	size_t n = b->wl->functions(f, WL_MAX_FUNCS), nsel;
	char one[64];

	if (wl_select_set(spec, f, n, sel, &nsel))
		return 0;
	for (size_t i = 0; i < n; i++)
		names[i] = f[i].name;
	for (const char *p = spec; *p; p += *p == ',') {
		size_t len = strcspn(p, ","), i;

		snprintf(one, sizeof(one), "%.*s", (int)len, p);
		for (i = 0; i < n && strcmp(one, names[i]); i++)
			;
		if (i == n) {
			plan_err(&loc, "'%s' is not a function of 'bench %s %s'; nearest: '%s'", one,
				 b->wl->collection, b->wl->name, names[plan_nearest(one, names, n)]);
			log_hint("'clearpath bench %s %s -f help' lists them; '-f all+' runs what the CPU has",
				 b->wl->collection, b->wl->name);
			return EXIT_USAGE;
		}
		p += len;
	}
	return 0;
}

static void plan_free_argv(struct plan_bench *b)
{
	for (int i = 0; i < b->argc; i++)
		free(b->argv[i]);
	free(b->argv);
	free(b->id);
	b->argv = NULL;
	b->argc = 0;
	b->id = NULL;
}

/*
 * argv from args: short names where they exist; the id is argv[1..] joined
 * until the parsed line gives the benchmark's identity (plan_bench_build()).
 */
static int plan_make_argv(struct plan_bench *b)
{
	size_t idlen = 1;
	char name[80];

	b->argv = calloc(2 * b->nargs + 3, sizeof(*b->argv));
	if (!b->argv)
		return -ENOMEM;
	b->argv[b->argc++] = strdup(b->wl->collection);
	b->argv[b->argc++] = strdup(b->wl->name);
	for (size_t i = 0; i < b->nargs; i++) {
		const struct wl_opt *o = b->args[i].opt;

		if (o->short_name)
			snprintf(name, sizeof(name), "-%c", o->short_name);
		else
			snprintf(name, sizeof(name), "--%s", o->long_name);
		b->argv[b->argc++] = strdup(name);
		if (b->args[i].value)
			b->argv[b->argc++] = strdup(b->args[i].value);
	}
	for (int i = 0; i < b->argc; i++) {
		if (!b->argv[i])
			return -ENOMEM;
		idlen += strlen(b->argv[i]) + 1;
	}
	b->id = calloc(1, idlen);
	if (!b->id)
		return -ENOMEM;
	for (int i = 1; i < b->argc; i++)
		sprintf(b->id + strlen(b->id), "%s%s", i > 1 ? " " : "", b->argv[i]);
	return 0;
}

/*
 * The id is the benchmark's identity as the store shows it, -f as written
 * ("mmap -p 1GB -f demand -s 32GB -l 5"): two spellings of one benchmark
 * are one id, so a plan that lists both is refused as a duplicate.
 */
static int plan_bench_id(struct plan_bench *b, const struct wl_parsed *parsed)
{
	struct bench_identity *id = malloc(sizeof(*id));
	char *text = NULL;

	if (!id || wl_identity(parsed->wl, parsed->params, parsed->given, parsed->functions, id) ||
	    asprintf(&text, "%s %s", b->wl->name, id->display) < 0) {
		free(id);
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	free(id);
	free(b->id);
	b->id = text;
	return 0;
}

int plan_bench_build(struct plan_bench *b)
{
	struct plan_loc loc = plan_bench_loc(b);
	char *copy[2 * WL_MAX_WORDS + 3];
	struct wl_parsed parsed;
	int ret;

	plan_free_argv(b);
	if (plan_make_argv(b)) {
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	if ((size_t)b->argc > sizeof(copy) / sizeof(copy[0]))
		return plan_err(&loc, "benchmark '%s' has too many options", b->id);
	memcpy(copy, b->argv, (size_t)b->argc * sizeof(*copy));
	ret = wl_parse(b->argc, copy, &parsed);
	if (ret)
		return plan_err(&loc, "in benchmark '%s %s'", b->wl->collection, b->id);
	if (parsed.help)
		ret = plan_err(&loc, "--help has no place in a plan ('%s')", b->id);
	else
		ret = plan_check_functions(b, parsed.functions);
	if (!ret)
		ret = plan_bench_id(b, &parsed);
	wl_parsed_free(&parsed);
	return ret;
}

void plan_bench_clear(struct plan_bench *b)
{
	plan_free_argv(b);
	for (size_t i = 0; i < b->nargs; i++) {
		free(b->args[i].value);
		free(b->args[i].written);
	}
	free(b->args);
	free(b->exec.command);
	free(b->exec.regex);
	free(b->exec.unit);
	free(b->file);
	memset(b, 0, sizeof(*b));
}
