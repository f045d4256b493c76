/* cmd_run: `clearpath run [options] -- <bench command line>`: the warmup/repeat/session protocol into the store. */
#include "cli/commands.h"
#include "cli/cli_common.h"
#include "harness/harness.h"
#include "util/log.h"
#include "workloads/workload.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RUN_WARMUPS = 256, RUN_REPEATS, RUN_SESSIONS, RUN_HELP };

static const struct option run_options[] = {
	{ "warmups", required_argument, NULL, RUN_WARMUPS },
	{ "repeats", required_argument, NULL, RUN_REPEATS },
	{ "sessions", required_argument, NULL, RUN_SESSIONS },
	{ "help", no_argument, NULL, RUN_HELP },
	CLI_HARNESS_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

struct run_cli {
	struct harness_opts h;
	unsigned warmups, repeats, sessions;
	bool child;
	int bench_argc;
	char **bench_argv;
};

static void run_usage(FILE *out)
{
	fprintf(out,
		"usage: clearpath run [options] -- <collection> <workload> [bench options]\n\n"
		"Runs one bench command line with warmups, repeats and sessions and keeps every\n"
		"sample in the store.  Each session is a fresh process; run again after a reboot\n"
		"to add a session per boot.\n\n"
		"    --warmups N       invocations stored as warmups, never in statistics (default 1)\n"
		"    --repeats N       measured invocations per session (default 3)\n"
		"    --sessions N      sessions, each a fresh process (default 1)\n"
		"%s\n"
		"example: clearpath run --repeats 5 -- mem mmap -p 2MB -f demand -s 4GB -l 5\n",
		cli_harness_help);
}

/* @argv[0] is "run" itself, as getopt expects a program name there. */
static int run_parse(int argc, char **argv, struct run_cli *o)
{
	int c, ret = 0;

	optind = 0;
	opterr = 0;
	while (!ret && (c = getopt_long(argc, argv, "+", run_options, NULL)) != -1) {
		switch (c) {
		case RUN_WARMUPS: ret = cli_number(optarg, "warmups", 0, &o->warmups); break;
		case RUN_REPEATS: ret = cli_number(optarg, "repeats", 1, &o->repeats); break;
		case RUN_SESSIONS: ret = cli_number(optarg, "sessions", 1, &o->sessions); break;
		case CLI_SESSION_CHILD: o->child = true; break;
		case RUN_HELP: run_usage(stdout); return CLI_HELP_SHOWN;
		case '?':
		case ':':
		{
			char opt[3];

			log_err("%s is not an option of 'run' (or it needs a value)", cli_refused_option(argv, opt));
			log_hint("the bench command line goes after '--'; see 'clearpath run --help'");
			return EXIT_USAGE;
		}
		default:
			ret = cli_harness_option(c, optarg, &o->h);
		}
	}
	if (ret)
		return ret;
	/*
	 * getopt stops at the first word that is not a run option; without '--'
	 * a run option placed after the bench words (clearpath run mem memset
	 * --repeats 5) would silently become a bench option, so '--' is required.
	 */
	if (optind < argc && strcmp(argv[optind - 1], "--")) {
		log_err("'%s': the bench command line goes after '--'", argv[optind]);
		log_hint("e.g. 'clearpath run --repeats 5 -- %s ...'", argv[optind]);
		return EXIT_USAGE;
	}
	o->bench_argc = argc - optind;
	o->bench_argv = argv + optind;
	return ret;
}

/* Everything that can be checked before the first session: the command line and the machine. */
static int run_preflight(const struct run_cli *o)
{
	struct wl_parsed p;
	int ret;

	if (o->bench_argc < 2) {
		log_err("run needs a bench command line after '--', e.g. 'clearpath run -- mem memset -s 64MB'");
		return EXIT_USAGE;
	}
	ret = wl_parse(o->bench_argc, o->bench_argv, &p);
	if (ret)
		return ret;
	/* The workload's options, printed by wl_parse(): what was asked, so nothing runs and all is well */
	if (p.help) {
		wl_parsed_free(&p);
		return CLI_HELP_SHOWN;
	}
	/* The workload's own checks, so a run that cannot work fails before storing anything. */
	if (!strcmp(p.functions, "help")) {
		log_err("run measures; to list the functions use 'clearpath bench %s %s -f help'",
			o->bench_argv[0], o->bench_argv[1]);
		wl_parsed_free(&p);
		return EXIT_USAGE;
	}
	ret = wl_check_functions(&p);
	if (!ret)
		ret = p.wl->prepare(p.params);
	wl_parsed_free(&p);
	return ret;
}

/* The harness's run: one unit, each session re-executing "clearpath run --session-child <the same options> -- bench...". */
static int run_harness(struct run_cli *o, int argc, char **argv)
{
	struct harness_unit u = { .kind = HARNESS_BENCH, .id = "run", .argc = o->bench_argc,
				  .argv = o->bench_argv, .warmups = o->warmups, .repeats = o->repeats,
				  .sessions = o->sessions };
	struct harness_run r = { .opts = o->h, .units = &u, .nunits = 1 };
	char **child = NULL;
	int ret;

	if (o->child)
		return harness_run_session(&r);
	child = calloc((size_t)argc + 3, sizeof(*child));
	if (!child)
		return EXIT_INTERNAL;
	child[0] = "clearpath";
	child[1] = "run";
	child[2] = "--session-child";
	for (int i = 1, n = 3, options = 1; i < argc; i++) {
		options = options && strcmp(argv[i], "--");
		if (!options || !cli_is_store_arg(argv, i, o->h.store_url))
			child[n++] = argv[i];
	}
	r.child_argv = child;
	ret = cli_child_store(o->h.store_url) ?: harness_run(&r);
	free(child);
	return ret;
}

int cmd_run(int argc, char **argv)
{
	struct run_cli o = { .h = { .max_failures = 3 }, .warmups = 1, .repeats = 3, .sessions = 1 };
	int ret = run_parse(argc + 1, argv - 1, &o);

	if (ret)
		return ret == CLI_HELP_SHOWN ? EXIT_OK : ret;
	if (!o.child)
		ret = run_preflight(&o);
	if (ret == CLI_HELP_SHOWN)
		return EXIT_OK;
	return ret ? ret : run_harness(&o, argc + 1, argv - 1);
}
