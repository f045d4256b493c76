/* main: clearpath's entry point; dispatches to one subcommand and nothing else. */
#include "cli/commands.h"
#include "util/arch.h"
#include "util/log.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static int help(int argc, char **argv);

static const struct command commands[] = {
	{ "doctor", cmd_doctor, "is this machine fit to measure? clearpath doctor [--fix] [--format json]" },
	{ "bench", cmd_bench, "run one workload, perf bench style: clearpath bench mem mmap -p 2MB -s 1GB" },
	{ "run", cmd_run, "warmups, repeats and sessions of one bench command line, into the store" },
	{ "calibrate", cmd_calibrate, "how noisy is this machine? sessions a 1% change needs: clearpath calibrate PLAN" },
	{ "plan", cmd_plan, "check, show and run a measurement plan: clearpath plan run plans/quick.yaml" },
	{ "campaign", cmd_campaign, "base vs patched kernel across boots: clearpath campaign start PLAN --boots 4" },
	{ "show", cmd_show, "the comparison table: base means and % changes with (I)/(R) verdicts" },
	{ "report", cmd_report, "the comparison as one HTML page with plots: clearpath report -o ab.html" },
	{ "list", cmd_list, "what the store holds: suts, swprofiles, benchmarks or sessions" },
	{ "export", cmd_export, "every sample of the store as CSV or JSON, to a file or stdout" },
	{ "import", cmd_import, "add the samples of an exported CSV file to the store, all or nothing" },
	{ "merge", cmd_merge, "copy the sessions of other stores into one, without duplicates" },
	{ "store", cmd_store, "a lab's shared PostgreSQL store and its roles: clearpath store roles --store URL" },
	{ "remote", cmd_remote, "can clearpath run sessions on these hosts over SSH? clearpath remote check user@box" },
	{ "help", help, "this list, or one command's options: clearpath help run (also: man clearpath)" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
	fprintf(out, "usage: clearpath <command> [options]\n\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\nexit codes: 0 ok, 1 internal error, 2 usage error, 3 resource unavailable, 4 regression found\n");
}

/*
 * `help [COMMAND [SUB...]]`: the usage, or "COMMAND SUB... --help", so that
 * `help plan run` and `help bench mem mmap` reach the nested helps too.
 */
static int help(int argc, char **argv)
{
	char *args[16];
	int ret;

	if (argc == 0 || argv[0][0] == '-') {	/* also `help help`, which runs `help --help` */
		usage(stdout);
		return EXIT_OK;
	}
	if (argc + 2 > (int)(sizeof(args) / sizeof(args[0]))) {
		log_err("too many words after 'help'");
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (strcmp(argv[0], commands[i].name))
			continue;
		/* commands read argv[-1] as getopt's program name: keep the command's name there */
		memcpy(args, argv, (size_t)argc * sizeof(*args));
		args[argc] = "--help";
		args[argc + 1] = NULL;
		ret = commands[i].fn(argc, args + 1);
		/* bench --help is the workload list; each workload's options are one level down */
		if (!ret && commands[i].fn == cmd_bench && argc == 1)
			printf("\n'clearpath bench <collection> <workload> --help' lists a workload's options\n");
		return ret;
	}
	log_err("unknown command '%s'", argv[0]);
	log_hint("'clearpath help' lists the commands");
	return EXIT_USAGE;
}

/*
 * A command that succeeded but whose output did not reach stdout (a full
 * disk, /dev/full, a closed pipe reader) has not succeeded: check once,
 * here, for every command.  A command that failed has said why already.
 */
static int output_checked(int ret)
{
	bool failed = ferror(stdout);
	int err = fflush(stdout) == EOF ? errno : 0;

	if ((!failed && !err) || ret != EXIT_OK)
		return ret;
	log_err("cannot write the output to stdout: %s", err ? strerror(err) : "a write failed");
	return EXIT_INTERNAL;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return output_checked(EXIT_OK);
	}
	if (!strcmp(argv[1], "--version")) {
		printf("clearpath %s (%s)\n", CLEARPATH_VERSION, CLEARPATH_MACHINE);
		return output_checked(EXIT_OK);
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(argv[1], commands[i].name))
			return output_checked(commands[i].fn(argc - 2, argv + 2));
	log_err("unknown command '%s'", argv[1]);
	log_hint("'clearpath --help' lists the commands");
	return EXIT_USAGE;
}
