/* invoke: turn one bench command line into parsed parameters, selected functions and runs. */
#include "workloads/workload.h"
#include "util/log.h"
#include "util/size.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INV_MAX_OPTS WL_MAX_OPTS
#define INV_OPT_FUNCTION 1000	/* getopt values of the driver's own options */
#define INV_OPT_HELP 1001
#define INV_OPT_COUNTERS 1002
#define INV_OPT_PROFILE 1003
#define INV_OPT_PROFILE_FREQ 1004
#define INV_OPT_PROFILE_EVENT 1005

static size_t inv_nopts(const struct wl_opt *opts)
{
	size_t n = 0;

	while (opts[n].long_name)
		n++;
	return n;
}

static void inv_opt_name(const struct wl_opt *o, char *buf, size_t len)
{
	if (o->short_name)
		snprintf(buf, len, "-%c/--%s", o->short_name, o->long_name);
	else
		snprintf(buf, len, "--%s", o->long_name);
}

static int inv_set_uint(const struct wl_opt *o, const char *arg, unsigned *out, const char *name)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (arg[0] < '0' || arg[0] > '9' || *end || errno || v > UINT32_MAX) {
		log_err("invalid value '%s' for %s: expected a whole number", arg, name);
		return EXIT_USAGE;
	}
	if (v < o->min || (o->max && v > o->max)) {
		if (o->max)
			log_err("%s must be between %u and %u, not %lu", name, o->min, o->max, v);
		else
			log_err("%s must be at least %u, not %lu", name, o->min, v);
		return EXIT_USAGE;
	}
	*out = (unsigned)v;
	return 0;
}

static int inv_set_str(const struct wl_opt *o, const char *arg, const char **out, const char *name)
{
	char list[256] = "";

	if (!o->choices) {
		*out = arg;
		return 0;
	}
	for (const char *const *c = o->choices; *c; c++) {
		if (!strcmp(*c, arg)) {
			*out = *c;
			return 0;
		}
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
			 c == o->choices ? "" : ", ", *c);
	}
	log_err("invalid value '%s' for %s: expected one of %s", arg, name, list);
	return EXIT_USAGE;
}

/* Store @arg (NULL for a flag) into @params according to @o.  0 or EXIT_USAGE. */
static int inv_set(const struct wl_opt *o, const char *arg, void *params)
{
	char *field = (char *)params + o->offset;
	char name[64];
	int ret;

	inv_opt_name(o, name, sizeof(name));
	switch (o->type) {
	case WL_OPT_SIZE:
		ret = size_parse(arg, (uint64_t *)(void *)field);
		if (ret == -ERANGE) {
			log_err("size '%s' for %s is too large (the limit is 2^63-1 bytes)", arg, name);
			return EXIT_USAGE;
		}
		if (ret) {
			log_err("invalid size '%s' for %s: expected %s", arg, name, SIZE_FORMS);
			return EXIT_USAGE;
		}
		return 0;
	case WL_OPT_UINT:
		return inv_set_uint(o, arg, (unsigned *)(void *)field, name);
	case WL_OPT_STR:
		return inv_set_str(o, arg, (const char **)(void *)field, name);
	case WL_OPT_FLAG:
		*(bool *)(void *)field = true;
		return 0;
	}
	return EXIT_INTERNAL;
}

void wl_opt_format(const struct wl_opt *o, const void *params, char *buf, size_t len)
{
	const char *field = (const char *)params + o->offset;

	switch (o->type) {
	case WL_OPT_SIZE:
		size_format(*(const uint64_t *)(const void *)field, buf, len);
		break;
	case WL_OPT_UINT:
		snprintf(buf, len, "%u", *(const unsigned *)(const void *)field);
		break;
	case WL_OPT_STR:
		snprintf(buf, len, "%s", *(const char *const *)(const void *)field ?: "");
		break;
	case WL_OPT_FLAG:
		snprintf(buf, len, "%s", *(const bool *)(const void *)field ? "true" : "false");
		break;
	}
}

struct wl_metric *wl_result_add(struct wl_result *res, const char *name, double value,
				const char *unit, bool higher_is_better)
{
	struct wl_metric *m;

	if (res->nmetrics >= WL_MAX_METRICS)
		return NULL;
	m = &res->metrics[res->nmetrics++];
	m->name = name;
	m->value = value;
	m->unit = unit;
	m->higher_is_better = higher_is_better;
	return m;
}

/* The --help column of option names: the longest, "    --format <default|simple|json>", and two spaces. */
#define INV_USAGE_LEFT 36

/* One --help line: @left (the option and its value) padded to its column, then @help. */
static void inv_usage_line(const char *left, const char *help)
{
	printf("    %-*s%s\n", INV_USAGE_LEFT, left, help);
}

static void inv_usage(const struct workload *wl)
{
	char left[64], help[512];

	printf("usage: clearpath bench %s %s [options]\n\n%s\n\n", wl->collection, wl->name,
	       wl->summary);
	snprintf(help, sizeof(help), "functions to run: '%s' (perf's), '%s' (perf's and clearpath's), "
		 "a list, or 'help' (default: %s)", WL_FUNCS_PERF, WL_FUNCS_EVERY, wl->default_function);
	inv_usage_line("-f, --function <name[,name]>", help);
	for (const struct wl_opt *o = wl->opts; o->long_name; o++) {
		/* long-only options line up under the long names */
		snprintf(left, sizeof(left), "%c%c%c --%s%s%s%s", o->short_name ? '-' : ' ',
			 o->short_name ? o->short_name : ' ', o->short_name ? ',' : ' ', o->long_name,
			 o->metavar ? " <" : "", o->metavar ?: "", o->metavar ? ">" : "");
		snprintf(help, sizeof(help), "%s%s%s%s", o->help, o->def ? " (default: " : "", o->def ?: "",
			 o->def ? ")" : "");
		inv_usage_line(left, help);
	}
	inv_usage_line("    --counters",
		       "also count perf events in the timed region: software always, hardware where they open");
	inv_usage_line("    --profile",
		       "also sample the timed region (kernel and user): top symbols and the page-clearing share");
	snprintf(help, sizeof(help), "samples per second per thread (default: %d)", PROFILE_DEFAULT_HZ);
	inv_usage_line("    --profile-freq <hz>", help);
	inv_usage_line("    --profile-event <event>",
		       "cpu-clock (default: works everywhere) or cycles (needs a hardware counter)");
	inv_usage_line("    --format <default|simple|json>", "output format (default: perf's layout)");
}

/* Defaults first, so a missing option means exactly what the table says. */
static int inv_defaults(const struct workload *wl, void *params)
{
	for (const struct wl_opt *o = wl->opts; o->long_name; o++)
		if (o->def && inv_set(o, o->def, params))
			return EXIT_INTERNAL;
	return 0;
}

static void inv_build_getopt(const struct workload *wl, struct option *lo, char *so, size_t solen)
{
	size_t n = inv_nopts(wl->opts), k = 0;

	snprintf(so, solen, ":f:h");
	for (size_t i = 0; i < n; i++) {
		const struct wl_opt *o = &wl->opts[i];
		bool arg = o->type != WL_OPT_FLAG;

		lo[i] = (struct option){ o->long_name, arg ? required_argument : no_argument, NULL, (int)i };
		if (o->short_name)
			snprintf(so + strlen(so), solen - strlen(so), "%c%s", o->short_name, arg ? ":" : "");
	}
	k = n;
	lo[k++] = (struct option){ "function", required_argument, NULL, INV_OPT_FUNCTION };
	lo[k++] = (struct option){ "help", no_argument, NULL, INV_OPT_HELP };
	lo[k++] = (struct option){ "counters", no_argument, NULL, INV_OPT_COUNTERS };
	lo[k++] = (struct option){ "profile", no_argument, NULL, INV_OPT_PROFILE };
	lo[k++] = (struct option){ "profile-freq", required_argument, NULL, INV_OPT_PROFILE_FREQ };
	lo[k++] = (struct option){ "profile-event", required_argument, NULL, INV_OPT_PROFILE_EVENT };
	lo[k] = (struct option){ NULL, 0, NULL, 0 };
}

static const struct wl_opt *inv_by_short(const struct workload *wl, int c)
{
	for (const struct wl_opt *o = wl->opts; o->long_name; o++)
		if (o->short_name == c)
			return o;
	return NULL;
}

/* --profile-freq and --profile-event (which imply --profile) into @p.  0 or EXIT_USAGE. */
static int inv_profile_opt(struct wl_parsed *p, int c, const char *arg)
{
	static const struct wl_opt freq = { 0, "profile-freq", WL_OPT_UINT, 0, NULL, NULL, NULL, 1, PROFILE_MAX_HZ, NULL };
	static const char *const events[] = { "cpu-clock", "cycles", NULL };
	static const struct wl_opt event = { 0, "profile-event", WL_OPT_STR, 0, NULL, NULL, NULL, 0, 0, events };
	const char *name;
	int ret;

	p->profile = true;
	if (c == INV_OPT_PROFILE_FREQ)
		return inv_set_uint(&freq, arg, &p->profile_cfg.hz, "--profile-freq");
	ret = inv_set_str(&event, arg, &name, "--profile-event");
	if (!ret)
		profile_event_parse(name, &p->profile_cfg.event);
	return ret;
}

/* What every -f error points at. */
#define INV_FUNCTIONS_HINT "'-f help' lists the functions; '-f all' runs perf's, '-f all+' every one"

/* -f with no function name in it. */
static int inv_no_function(void)
{
	log_err("-f needs at least one function name");
	log_hint(INV_FUNCTIONS_HINT);
	return EXIT_USAGE;
}

/*
 * Parse @argv (argv[0] is the workload name) into @p's params, functions,
 * counters and profile.  --help prints the usage when @usage (a command
 * line typed), not for stored text, and returns -1.
 */
static int inv_parse(struct wl_parsed *p, int argc, char **argv, bool usage)
{
	const struct workload *wl = p->wl;
	struct option lo[INV_MAX_OPTS + 7];
	char so[3 * INV_MAX_OPTS + 8];
	int c, ret;

	if (inv_nopts(wl->opts) > INV_MAX_OPTS)
		return EXIT_INTERNAL;
	inv_build_getopt(wl, lo, so, sizeof(so));
	optind = 0;	/* full re-initialisation: the harness parses many command lines */
	opterr = 0;
	while ((c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		const struct wl_opt *o = NULL;

		if (c == INV_OPT_FUNCTION || c == 'f') {
			/* an empty list names nothing on any machine: refused here, so stored text saying it stays raw */
			if (!optarg[0])
				return inv_no_function();
			p->functions = optarg;
			continue;
		}
		if (c == INV_OPT_COUNTERS) {
			p->counters = true;
			continue;
		}
		if (c == INV_OPT_PROFILE) {
			p->profile = true;
			continue;
		}
		if (c == INV_OPT_PROFILE_FREQ || c == INV_OPT_PROFILE_EVENT) {
			if ((ret = inv_profile_opt(p, c, optarg)))
				return ret;
			continue;
		}
		if (c == INV_OPT_HELP || c == 'h') {
			if (usage)
				inv_usage(wl);
			return -1;
		}
		if (c == '?' || c == ':') {
			/* "-s of 'bench mem memset' needs a value", "-x is not an option of 'bench mem memset'" */
			const char *what = c == ':' ? "of" : "is not an option of", *end = c == ':' ? " needs a value" : "";
			char opt[3] = { '-', (char)optopt, '\0' };

			log_err("%s %s 'bench %s %s'%s", optopt > 0 && optopt < 128 && isalpha(optopt) ? opt : argv[optind - 1],
				what, wl->collection, wl->name, end);
			log_hint("see 'clearpath bench %s %s --help'", wl->collection, wl->name);
			return EXIT_USAGE;
		}
		o = c >= 0 && c < INV_MAX_OPTS ? &wl->opts[c] : inv_by_short(wl, c);
		if (!o)
			return EXIT_INTERNAL;
		p->given |= 1u << (o - wl->opts);
		p->typed[o - wl->opts] = optarg;
		ret = inv_set(o, optarg, p->params);
		if (ret)
			return ret;
	}
	if (optind < argc) {
		log_err("unexpected argument '%s' to 'bench %s %s'", argv[optind], wl->collection,
			wl->name);
		log_hint("see 'clearpath bench %s %s --help'", wl->collection, wl->name);
		return EXIT_USAGE;
	}
	return 0;
}

static const struct wl_func *inv_func_find(const struct wl_func *f, size_t n, const char *name,
					   size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(f[i].name) == len && !strncmp(f[i].name, name, len))
			return &f[i];
	return NULL;
}

bool wl_select_set(const char *spec, const struct wl_func *f, size_t n, const struct wl_func **sel,
		   size_t *nsel)
{
	bool every = !strcmp(spec, WL_FUNCS_EVERY);

	*nsel = 0;
	if (!every && strcmp(spec, WL_FUNCS_PERF))
		return false;
	for (size_t i = 0; i < n; i++)
		if (every || !f[i].extended)
			sel[(*nsel)++] = &f[i];
	return true;
}

/*
 * Resolve the -f list into @sel.  "all" selects perf's functions, "all+"
 * every one (those that cannot run are reported as skipped later); a named
 * function that cannot run here is a resource error.
 */
static int inv_select(const struct workload *wl, const char *spec, const struct wl_func *f,
		      size_t n, const struct wl_func **sel, size_t *nsel)
{
	if (wl_select_set(spec, f, n, sel, nsel))
		return 0;
	for (const char *p = spec; *p;) {
		size_t len = strcspn(p, ",");
		const struct wl_func *hit = inv_func_find(f, n, p, len);

		if (!hit) {
			log_err("unknown function '%.*s' for 'bench %s %s'", (int)len, p,
				wl->collection, wl->name);
			log_hint(INV_FUNCTIONS_HINT);
			return EXIT_USAGE;
		}
		if (hit->why_not) {
			log_err("function '%s' cannot run on this machine: %s", hit->name, hit->why_not);
			log_hint("'-f all+' runs what this machine can and skips the rest with a reason");
			return EXIT_RESOURCE;
		}
		if (*nsel == WL_MAX_FUNCS) {
			log_err("-f names more than %d functions", WL_MAX_FUNCS);
			log_hint("'-f all+' runs every function once");
			return EXIT_USAGE;
		}
		sel[(*nsel)++] = hit;
		p += len;
		if (*p == ',')
			p++;
	}
	return *nsel ? 0 : inv_no_function();
}

/* The driver's metrics on top of what the workload added: -c's cycles/byte, the counters, the profile. */
static void inv_metrics(const struct workload *wl, const void *params, struct wl_result *res)
{
	struct wl_resources r;

	if (res->cycles >= 0 && res->bytes)
		wl_result_add(res, "cycles", res->cycles / ((double)res->bytes * res->threads),
			      "cycles/byte", false);
	if (res->counters.on) {
		wl->resources(params, &r);
		wl_counter_metrics(res, r.page);
		counters_warn_once(&res->counters);
	}
	wl_profile_metrics(res);
}

/*
 * Run one function, sampled when --profile: the collection spans exactly
 * this run, so every thread's timed regions land in its profile, and
 * symbols are resolved after the run, outside every timed region.
 */
static int inv_run_one(const struct wl_parsed *p, const struct wl_func *f, struct wl_result *res)
{
	int ret;

	if (p->profile)
		profile_begin(&p->profile_cfg);
	ret = p->wl->run(p->params, f, res);
	if (p->profile)
		profile_end(&res->profile);
	return ret;
}

static int inv_run(const struct wl_parsed *p, struct wl_sink *sink)
{
	const struct workload *wl = p->wl;
	const void *params = p->params;
	const char *functions = p->functions;
	struct wl_func funcs[WL_MAX_FUNCS];
	const struct wl_func *sel[WL_MAX_FUNCS];
	struct wl_invocation inv = { wl, params, functions, p->counters, p->given, p->profile, p->typed };
	size_t n = wl->functions(funcs, WL_MAX_FUNCS), nsel;
	int ret;

	if (!strcmp(functions, "help") || !strcmp(functions, "h")) {
		if (sink->functions)
			sink->functions(sink, &inv, funcs, n);
		return 0;
	}
	ret = inv_select(wl, functions, funcs, n, sel, &nsel);
	if (ret)
		return ret;
	ret = wl->prepare((void *)params);
	if (ret)
		return ret;
	sink->begin(sink, &inv);
	for (size_t i = 0; i < nsel; i++) {
		struct wl_result res = { .function = sel[i]->name, .cycles = -1,
					 .counters.on = p->counters };

		if (sel[i]->why_not) {
			sink->skipped(sink, &inv, sel[i]);
			continue;
		}
		sink->function(sink, &inv, sel[i]);
		ret = inv_run_one(p, sel[i], &res);
		if (ret)
			return ret;
		inv_metrics(wl, params, &res);
		sink->result(sink, &inv, &res);
	}
	sink->end(sink, &inv);
	return 0;
}

/* wl_parse(), printing the usage for --help only when @usage. */
static int inv_parse_command(int argc, char **argv, struct wl_parsed *out, bool usage)
{
	int ret;

	memset(out, 0, sizeof(*out));
	if (argc < 2) {
		log_err("bench needs a collection and a workload, e.g. 'bench mem memset'");
		log_hint("'clearpath bench --list' shows every workload");
		return EXIT_USAGE;
	}
	out->wl = wl_find(argv[0], argv[1]);
	if (!out->wl && argv[1][0] == '-') {
		log_err("'bench %s' needs a workload before its options, e.g. 'bench mem memset %s'", argv[0], argv[1]);
		log_hint("'clearpath bench --list' shows every workload");
		return EXIT_USAGE;
	}
	if (!out->wl) {
		log_err("unknown workload '%s %s'", argv[0], argv[1]);
		log_hint("'clearpath bench --list' shows every workload");
		return EXIT_USAGE;
	}
	out->params = calloc(1, out->wl->params_size);
	if (!out->params) {
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	out->functions = out->wl->default_function;
	out->profile_cfg = (struct profile_config){ PROFILE_CPU_CLOCK, PROFILE_DEFAULT_HZ };
	ret = inv_defaults(out->wl, out->params);
	if (!ret)
		ret = inv_parse(out, argc - 1, argv + 1, usage);
	if (ret < 0) {
		out->help = true;	/* --help was asked (and printed when @usage) */
		ret = 0;
	} else if (!ret && strcmp(out->functions, "help") && strcmp(out->functions, "h")) {
		ret = out->wl->check(out->params);
	}
	if (ret)
		wl_parsed_free(out);
	return ret;
}

int wl_parse(int argc, char **argv, struct wl_parsed *out)
{
	return inv_parse_command(argc, argv, out, true);
}

void wl_parsed_free(struct wl_parsed *p)
{
	free(p->params);
	p->params = NULL;
}

int wl_check_functions(const struct wl_parsed *p)
{
	struct wl_func funcs[WL_MAX_FUNCS];
	const struct wl_func *sel[WL_MAX_FUNCS];
	size_t n, nsel;

	if (p->help || !strcmp(p->functions, "help") || !strcmp(p->functions, "h"))
		return 0;
	n = p->wl->functions(funcs, WL_MAX_FUNCS);
	return inv_select(p->wl, p->functions, funcs, n, sel, &nsel);
}

int wl_run(const struct wl_parsed *p, struct wl_sink *sink)
{
	return p->help ? 0 : inv_run(p, sink);
}

int wl_invoke(int argc, char **argv, struct wl_sink *sink)
{
	struct wl_parsed p;
	int ret = wl_parse(argc, argv, &p);

	if (ret)
		return ret;
	ret = wl_run(&p, sink);
	wl_parsed_free(&p);
	return ret;
}

/* Add @o's value in @params to @id: "-x value" shown when @given ("--name value" without a short name). */
static int inv_ident_opt(struct bench_identity *id, const struct wl_opt *o, const void *params,
			 bool given)
{
	char value[128], shown[160] = "", alias[2] = { o->short_name, 0 };

	wl_opt_format(o, params, value, sizeof(value));
	if (given && o->short_name)
		snprintf(shown, sizeof(shown), "-%c%s%s", o->short_name, o->type == WL_OPT_FLAG ? "" : " ",
			 o->type == WL_OPT_FLAG ? "" : value);
	else if (given)
		snprintf(shown, sizeof(shown), "--%s%s%s", o->long_name, o->type == WL_OPT_FLAG ? "" : " ",
			 o->type == WL_OPT_FLAG ? "" : value);
	return ident_add(id, o->long_name, alias, value, shown);
}

int wl_identity(const struct workload *wl, const void *params, uint32_t given, const char *function,
		struct bench_identity *out)
{
	size_t n = inv_nopts(wl->opts);
	char shown[160];
	int ret = 0;

	memset(out, 0, sizeof(*out));
	snprintf(out->suite, sizeof(out->suite), "%s/%s", wl->collection, wl->name);
	snprintf(out->workload, sizeof(out->workload), "%.63s", out->suite);
	snprintf(shown, sizeof(shown), "-f %s", function);
	for (size_t i = 0; i <= n && !ret; i++) {
		/* -f is the driver's, in no table: it is always shown, at its place in the order */
		if (i == wl->function_at)
			ret = ident_add(out, "function", "f", function, shown);
		if (!ret && i < n)
			ret = inv_ident_opt(out, &wl->opts[i], params, given & (1u << i));
	}
	ident_finish(out);
	return ret;
}

/* Split @buf at blanks into @tok (pointing into @buf).  Returns the count, -1 when more than @max. */
int wl_split(char *buf, char **tok, int max)
{
	int n = 0;
	char *save = NULL;

	for (char *t = strtok_r(buf, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save)) {
		if (n == max)
			return -1;
		tok[n++] = t;
	}
	return n;
}

/*
 * The workload a stored benchmark's text names, and where its options start
 * in @w: the suite is "collection/workload" (what clearpath writes), or the
 * first word is the workload, in the suite's collection or named by its last
 * part ("perf/mem" + "memset -k 1GB ...", as hand-made data sets have it).
 */
static const struct workload *inv_stored_workload(const char *head, const char *tail, char **w,
						  int n, int *first)
{
	const struct workload *wl;

	*first = 0;
	if (n < 1 || w[0][0] == '-')	/* options first: the suite names the workload */
		return wl_find(head, tail);
	*first = 1;
	wl = wl_find(head, w[0]);
	return wl ? wl : wl_find(tail, w[0]);
}

int wl_identity_parse(const char *suite, const char *params, struct bench_identity *out)
{
	char head[64], buf[1024], *w[WL_MAX_WORDS + 2], prefix[64];
	const char *slash = strchr(suite, '/');
	const struct workload *wl;
	struct wl_parsed p;
	bool quiet;
	int n, first, ret;

	ident_raw(out, suite, params);
	if (!slash || (size_t)(slash - suite) >= sizeof(head) || strlen(params) >= sizeof(buf))
		return 0;
	snprintf(head, sizeof(head), "%.*s", (int)(slash - suite), suite);
	snprintf(buf, sizeof(buf), "%s", params);
	n = wl_split(buf, w + 2, WL_MAX_WORDS);
	wl = n < 0 ? NULL : inv_stored_workload(head, slash + 1, w + 2, n, &first);
	if (!wl)
		return 0;
	snprintf(prefix, sizeof(prefix), "%s", first ? w[2] : "");
	/* wl_parse() wants "collection workload options..." */
	w[first] = (char *)wl->collection;
	w[first + 1] = (char *)wl->name;
	quiet = log_set_quiet(true);
	/* stored text asking for --help names no benchmark: raw, and nothing printed */
	ret = inv_parse_command(n + 2 - first, w + first, &p, false);
	log_set_quiet(quiet);
	if (ret)
		return 0;	/* what does not parse stays raw */
	if (p.help) {
		wl_parsed_free(&p);
		return 0;
	}
	ret = wl_identity(p.wl, p.params, p.given, p.functions, out);
	wl_parsed_free(&p);
	if (ret)
		return ret;
	/* the stored suite and leading word stay: they are part of what is stored */
	snprintf(out->suite, sizeof(out->suite), "%s", suite);
	if (prefix[0] && strlen(prefix) + strlen(out->display) + 2 <= sizeof(out->display)) {
		size_t plen = strlen(prefix) + 1;

		memmove(out->display + plen, out->display, strlen(out->display) + 1);
		memcpy(out->display, prefix, plen - 1);
		out->display[plen - 1] = out->display[plen] ? ' ' : '\0';
	}
	return 0;
}
