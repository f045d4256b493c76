/* main: clearpath's entry point; dispatches to one subcommand and nothing else. */
#include "cli/commands.h"
#include "util/log.h"

#include <stdio.h>
#include <string.h>

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "bench", cmd_bench, "run one workload, perf bench style: clearpath bench mem mmap -p 2MB -s 1GB" },
	{ "show", cmd_show, "the comparison table: base means and % changes with (I)/(R) verdicts" },
	{ "run", cmd_run, "warmups, repeats and sessions of one bench command line, into the store" },
	{ "doctor", cmd_doctor, "is this machine fit to measure? clearpath doctor [--fix] [--format json]" },
	{ "plan", cmd_plan, "check and show a measurement plan: clearpath plan show plans/quick.yaml" },
	{ "list", cmd_list, "what the store holds: suts, swprofiles, benchmarks or sessions" },
	{ "export", cmd_export, "every sample of the store as CSV or JSON, to a file or stdout" },
	{ "import", cmd_import, "add the samples of an exported CSV file to the store, all or nothing" },
	{ "merge", cmd_merge, "copy the sessions of other stores into one, without duplicates" },
};

static void usage(FILE *out)
{
	fprintf(out, "usage: clearpath <command> [options]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\nexit codes: 0 ok, 1 internal error, 2 usage error, 3 resource unavailable, 4 regression found\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("clearpath %s\n", CLEARPATH_VERSION);
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 2, argv + 2);
	log_err("unknown command '%s'", argv[1]);
	log_hint("'clearpath --help' lists the commands");
	return EXIT_USAGE;
}
