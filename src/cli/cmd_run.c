/* cmd_run: `clearpath run [options] -- <bench command line>`: the warmup/repeat/session protocol into the store. */
#include "cli/commands.h"
#include "harness/harness.h"
#include "util/log.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	RUN_WARMUPS = 256, RUN_REPEATS, RUN_SESSIONS, RUN_SWPROFILE, RUN_SUT, RUN_STORE,
	RUN_QUIET, RUN_FORCE, RUN_MAX_FAILURES, RUN_SESSION_CHILD, RUN_HELP,
};

static const struct option run_options[] = {
	{ "warmups", required_argument, NULL, RUN_WARMUPS },
	{ "repeats", required_argument, NULL, RUN_REPEATS },
	{ "sessions", required_argument, NULL, RUN_SESSIONS },
	{ "swprofile", required_argument, NULL, RUN_SWPROFILE },
	{ "sut", required_argument, NULL, RUN_SUT },
	{ "store", required_argument, NULL, RUN_STORE },
	{ "quiet", no_argument, NULL, RUN_QUIET },
	{ "force", no_argument, NULL, RUN_FORCE },
	{ "max-failures", required_argument, NULL, RUN_MAX_FAILURES },
	{ "session-child", no_argument, NULL, RUN_SESSION_CHILD },	/* internal: one session */
	{ "help", no_argument, NULL, RUN_HELP },
	{ NULL, 0, NULL, 0 },
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
		"    --swprofile NAME  software profile name (default: the kernel release)\n"
		"    --sut NAME        machine class name (default: DMI product name, else CPU model)\n"
		"    --store URL       a path or sqlite:///path (default: $CLEARPATH_STORE, else\n"
		"                      ${XDG_DATA_HOME:-~/.local/share}/clearpath/results.db)\n"
		"    --force           add to a swprofile whose fingerprint changed\n"
		"    --max-failures N  consecutive failed invocations that stop a session (default 3)\n"
		"    --quiet           no progress line\n\n"
		"example: clearpath run --repeats 5 -- mem mmap -p 2MB -f demand -s 4GB -l 5\n");
}

static int run_number(const char *arg, const char *name, unsigned min, unsigned *out)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 10);

	if (arg[0] < '0' || arg[0] > '9' || *end || v > 100000 || v < min) {
		log_err("invalid value '%s' for --%s: expected a whole number from %u to 100000", arg,
			name, min);
		return EXIT_USAGE;
	}
	*out = (unsigned)v;
	return 0;
}

/* @argv[0] is "run" itself, as getopt expects a program name there. */
static int run_parse(int argc, char **argv, struct harness_opts *o, bool *child)
{
	int c, ret = 0;

	optind = 0;
	opterr = 0;
	while (!ret && (c = getopt_long(argc, argv, "+", run_options, NULL)) != -1) {
		switch (c) {
		case RUN_WARMUPS: ret = run_number(optarg, "warmups", 0, &o->warmups); break;
		case RUN_REPEATS: ret = run_number(optarg, "repeats", 1, &o->repeats); break;
		case RUN_SESSIONS: ret = run_number(optarg, "sessions", 1, &o->sessions); break;
		case RUN_MAX_FAILURES: ret = run_number(optarg, "max-failures", 0, &o->max_failures); break;
		case RUN_SWPROFILE: o->swprofile = optarg; break;
		case RUN_SUT: o->sut = optarg; break;
		case RUN_STORE: o->store_url = optarg; break;
		case RUN_QUIET: o->quiet = true; break;
		case RUN_FORCE: o->force = true; break;
		case RUN_SESSION_CHILD: *child = true; break;
		case RUN_HELP: run_usage(stdout); return -1;
		default:
			log_err("%s is not an option of 'run' (or it needs a value)", argv[optind - 1]);
			log_hint("the bench command line goes after '--'; see 'clearpath run --help'");
			return EXIT_USAGE;
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
	return 0;
}

int cmd_run(int argc, char **argv)
{
	struct harness_opts o = { .warmups = 1, .repeats = 3, .sessions = 1, .max_failures = 3 };
	bool child = false;
	/* The session processes are started with exactly these arguments plus --session-child. */
	char **self = argv - 2;
	int self_argc = argc + 2;
	int ret = run_parse(argc + 1, argv - 1, &o, &child);

	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (child)
		return harness_session(&o);
	return harness_run(&o, self_argc, self);
}
