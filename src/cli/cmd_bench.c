/* cmd_bench: `clearpath bench [-f F] [-r N] <collection> <workload|all> [options]`, perf bench's command line. */
#include "cli/cli_args.h"
#include "cli/commands.h"
#include "cli/bench_out.h"
#include "workloads/workload.h"
#include "util/log.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most workloads one `bench <collection> all` runs. */
#define BENCH_MAX_ALL 16

/* perf's common options (builtin-bench.c's bench_options), as given before the collection. */
struct bench_common {
	const char *format;	/* -f/--format: default, simple (and clearpath's json) */
	const char *repeat;	/* -r/--repeat as typed, or NULL */
};

/*
 * perf's benchmarks clearpath does not have, said skipped by `bench
 * <collection> all` ("mem": perf's find_bit searches bitmaps, nothing a
 * page-clearing tool measures).
 */
static const struct {
	const char *collection, *name;
} bench_not_here[] = {
	{ "mem", "find_bit" },
};

static void bench_list(void)
{
	printf("Available workloads (clearpath bench <collection> <workload> [options]):\n");
	for (size_t i = 0; i < wl_count(); i++) {
		const struct workload *wl = wl_at(i);

		printf("  %s %-10s %s\n", wl->collection, wl->name, wl->summary);
	}
	printf("  <collection> all  perf's workloads of the collection, one after the other (bench mem all)\n");
}

/*
 * The value of option @arg (short @s, long @l) at argv[*i]: "-fX", "-f X",
 * "--format=X" or "--format X"; NULL when argv[*i] is not that option.
 * *@i moves past a separate value; *@missing is set when there is none.
 */
static const char *bench_opt_value(int argc, char **argv, int *i, char s, const char *l, bool *missing)
{
	const char *a = argv[*i];
	size_t n = strlen(l);

	if (a[0] == '-' && a[1] == s && a[2])
		return a + 2;
	if (!strncmp(a, "--", 2) && !strncmp(a + 2, l, n) && a[2 + n] == '=')
		return a + 3 + n;
	if ((a[0] == '-' && a[1] == s && !a[2]) || (!strncmp(a, "--", 2) && !strcmp(a + 2, l))) {
		if (*i + 1 >= argc) {
			*missing = true;
			return NULL;
		}
		return argv[++*i];
	}
	return NULL;
}

/* -r/--repeat as perf takes it: a positive whole number.  0 or EXIT_USAGE after log_err(). */
static int bench_check_repeat(const char *v)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(v, &end, 10);
	if (v[0] >= '0' && v[0] <= '9' && !*end && !errno && n >= 1 && n <= 0xffffffffUL)
		return 0;
	log_err("invalid value '%s' for -r/--repeat: expected a positive whole number", v);
	return EXIT_USAGE;
}

/*
 * perf's common options, which stand before the collection (`perf bench -f
 * simple -r 3 mem memset`); *@first becomes the index of the collection.
 * Returns 0, or EXIT_USAGE after log_err().
 */
static int bench_common_options(int argc, char **argv, struct bench_common *c, int *first)
{
	int i;

	for (i = 0; i < argc && argv[i][0] == '-'; i++) {
		bool missing = false;
		const char *v;

		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help") || !strcmp(argv[i], "--list"))
			break;
		if (!strcmp(argv[i], "--")) {	/* the end of the options, as for perf's parse_options() */
			i++;
			break;
		}
		if ((v = bench_opt_value(argc, argv, &i, 'f', "format", &missing))) {
			c->format = v;
		} else if ((v = bench_opt_value(argc, argv, &i, 'r', "repeat", &missing))) {
			if (bench_check_repeat(v))
				return EXIT_USAGE;
			c->repeat = v;
		} else if (missing) {
			log_err("%s needs a value", argv[i]);
			log_hint("perf's common options: -f/--format default|simple (or json), -r/--repeat N");
			return EXIT_USAGE;
		} else {
			log_err("'%s' is not an option of 'bench' before the collection", argv[i]);
			log_hint("perf's common options: -f/--format default|simple (or json), -r/--repeat N; "
				 "a workload's options follow it ('bench mem memset --help')");
			return EXIT_USAGE;
		}
	}
	*first = i;
	return 0;
}

/*
 * Take --format F / --format=F out of @argv wherever it appears: perf puts it
 * before the collection, users often put it at the end; *@argc becomes the
 * number of arguments left.  Returns 0, or EXIT_USAGE after log_err() for a
 * missing value.
 */
static int bench_take_format(int *argc, char **argv, const char **format)
{
	int out = 0;

	for (int i = 0; i < *argc; i++) {
		if (!strncmp(argv[i], "--format=", 9)) {
			*format = argv[i] + 9;
		} else if (!strcmp(argv[i], "--format")) {
			if (i + 1 >= *argc) {
				log_err("--format needs a value: default, simple or json");
				return EXIT_USAGE;
			}
			*format = argv[++i];
		} else {
			argv[out++] = argv[i];
		}
	}
	*argc = out;
	return 0;
}

static bool bench_is_help(const char *arg)
{
	return !strcmp(arg, "--list") || !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

/*
 * -r/--repeat is accepted as perf accepts it; perf's mem benchmarks do not
 * read it (only sched, futex and epoll repeat), so neither does clearpath.
 */
static void bench_repeat_note(const char *repeat)
{
	if (repeat)
		fprintf(stderr, "# -r/--repeat %s: the mem benchmarks run once, as perf's do; "
			"'clearpath run --repeats %s -- <collection> <workload> ...' repeats and keeps every sample\n",
			repeat, repeat);
}

/* Say on stderr which workloads `bench @collection all` leaves out, and why. */
static void bench_all_skipped(const char *collection)
{
	for (size_t i = 0; i < sizeof(bench_not_here) / sizeof(bench_not_here[0]); i++)
		if (!strcmp(bench_not_here[i].collection, collection))
			fprintf(stderr, "# skipping %s/%s: perf's, but clearpath has no %s benchmark\n", collection,
				bench_not_here[i].name, bench_not_here[i].name);
	for (size_t i = 0; i < wl_count(); i++)
		if (!strcmp(wl_at(i)->collection, collection) && !wl_at(i)->perf)
			fprintf(stderr, "# skipping %s/%s: clearpath's own, not perf's; run it as 'bench %s %s'\n",
				collection, wl_at(i)->name, collection, wl_at(i)->name);
}

/*
 * `bench <collection> all [options]`: perf's run_collection(), each of
 * perf's workloads of the collection after a "# Running c/w benchmark..."
 * line (text formats) and followed by a blank line.  perf runs them with
 * their defaults; clearpath hands each the options given, and parses every
 * command line before it runs any, so a bad option stops it before it starts.
 */
static int bench_all(int argc, char **argv, struct wl_sink *sink, bool text)
{
	struct wl_parsed parsed[BENCH_MAX_ALL];
	char **av[BENCH_MAX_ALL];
	size_t n = 0;
	int ret = 0;

	for (size_t i = 0; i < wl_count() && !ret && n < BENCH_MAX_ALL; i++) {
		const struct workload *wl = wl_at(i);

		if (strcmp(wl->collection, argv[0]) || !wl->perf)
			continue;
		/* wl_parse() reorders its argv (getopt): each workload gets its own copy */
		if (!(av[n] = calloc((size_t)argc + 2, sizeof(*av[n])))) {
			log_err("out of memory");
			ret = EXIT_INTERNAL;
			break;
		}
		av[n][0] = (char *)wl->collection;
		av[n][1] = (char *)wl->name;
		memcpy(av[n] + 2, argv + 2, (size_t)(argc - 2) * sizeof(*argv));
		ret = wl_parse(argc, av[n], &parsed[n]);
		if (ret)
			free(av[n]);
		else
			n++;
	}
	if (!ret && !n) {
		log_err("'bench %s all': no collection '%s'", argv[0], argv[0]);
		log_hint("'clearpath bench --list' shows every workload");
		ret = EXIT_USAGE;
	}
	if (!ret)
		bench_all_skipped(argv[0]);
	for (size_t i = 0; i < n && !ret; i++) {
		if (text) {
			printf("# Running %s/%s benchmark...\n", parsed[i].wl->collection, parsed[i].wl->name);
			fflush(stdout);
		}
		ret = wl_run(&parsed[i], sink);
		if (!ret && text)
			printf("\n");
	}
	for (size_t i = 0; i < n; i++) {
		wl_parsed_free(&parsed[i]);
		free(av[i]);
	}
	return ret;
}

/* One workload, or every one of a collection (`all`), through @sink. */
static int bench_invoke(int argc, char **argv, struct wl_sink *sink, bool text)
{
	if (argc >= 2 && !strcmp(argv[1], "all"))
		return bench_all(argc, argv, sink, text);
	return wl_invoke(argc, argv, sink);
}

/* bench's output formats (perf's layout, perf's --format=simple, JSON), in the enum's order. */
enum { BENCH_DEFAULT, BENCH_SIMPLE, BENCH_JSON };
static const char *const bench_formats[] = { [BENCH_DEFAULT] = "default", [BENCH_SIMPLE] = "simple",
					     [BENCH_JSON] = "json", NULL };

int cmd_bench(int argc, char **argv)
{
	struct bench_common c = { bench_formats[BENCH_DEFAULT], NULL };
	struct wl_sink sink;
	int first, fmt, ret = bench_common_options(argc, argv, &c, &first);
	bool all;

	if (ret)
		return ret;
	argc -= first;
	argv += first;
	ret = bench_take_format(&argc, argv, &c.format);
	if (ret)
		return ret;
	if (argc == 0 || bench_is_help(argv[0]) || (argc > 1 && bench_is_help(argv[1]))) {
		/* `bench mem --help` (and `help bench mem`) too: a collection's help is the workload list */
		bench_list();
		return argc == 0 ? EXIT_USAGE : EXIT_OK;
	}
	if ((fmt = cli_format_index(bench_formats, c.format)) < 0) {
		log_err("unknown output format '%s': expected default, simple or json", c.format);
		return EXIT_USAGE;
	}
	all = argc >= 2 && !strcmp(argv[1], "all");
	bench_repeat_note(c.repeat);
	if (fmt != BENCH_JSON) {
		bench_out_text(&sink, stdout, fmt == BENCH_SIMPLE, all);
		return bench_invoke(argc, argv, &sink, true);
	}
	ret = bench_out_json(&sink, stdout);
	if (ret)
		return ret;
	ret = bench_invoke(argc, argv, &sink, false);
	if (!ret)
		bench_out_json_write(&sink);
	bench_out_json_free(&sink);
	return ret;
}
