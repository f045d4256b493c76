/* cmd_bench: `clearpath bench [--format F] <collection> <workload> [options]`, perf bench's command line. */
#include "cli/commands.h"
#include "cli/bench_out.h"
#include "workloads/workload.h"
#include "util/log.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void bench_list(void)
{
	printf("Available workloads (clearpath bench <collection> <workload> [options]):\n");
	for (size_t i = 0; i < wl_count(); i++) {
		const struct workload *wl = wl_at(i);

		printf("  %s %-10s %s\n", wl->collection, wl->name, wl->summary);
	}
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

int cmd_bench(int argc, char **argv)
{
	const char *format = "default";
	struct wl_sink sink;
	int ret = bench_take_format(&argc, argv, &format);

	if (ret)
		return ret;
	if (argc == 0 || bench_is_help(argv[0]) || (argc > 1 && bench_is_help(argv[1]))) {
		/* `bench mem --help` (and `help bench mem`) too: a collection's help is the workload list */
		bench_list();
		return argc == 0 ? EXIT_USAGE : EXIT_OK;
	}
	if (!strcmp(format, "default") || !strcmp(format, "simple")) {
		bench_out_text(&sink, stdout, !strcmp(format, "simple"));
		return wl_invoke(argc, argv, &sink);
	}
	if (strcmp(format, "json")) {
		log_err("unknown output format '%s': expected default, simple or json", format);
		return EXIT_USAGE;
	}
	ret = bench_out_json(&sink, stdout);
	if (ret)
		return ret;
	ret = wl_invoke(argc, argv, &sink);
	bench_out_json_free(&sink);
	return ret;
}
