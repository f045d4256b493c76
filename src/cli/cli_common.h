/* cli_common: option handling shared by the commands that run the harness (run, plan run). */
#ifndef CLEARPATH_CLI_CLI_COMMON_H
#define CLEARPATH_CLI_CLI_COMMON_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

struct harness_opts;

/* getopt_long values of the shared options; commands number their own below 512. */
enum cli_harness_opt {
	CLI_SWPROFILE = 512, CLI_SUT, CLI_STORE, CLI_QUIET, CLI_FORCE, CLI_MAX_FAILURES,
	CLI_SESSION_CHILD,
};

/* struct option rows for the shared options, to put in a command's table. */
#define CLI_HARNESS_OPTIONS                                                     \
	{ "swprofile", required_argument, NULL, CLI_SWPROFILE },               \
	{ "sut", required_argument, NULL, CLI_SUT },                           \
	{ "store", required_argument, NULL, CLI_STORE },                       \
	{ "quiet", no_argument, NULL, CLI_QUIET },                             \
	{ "force", no_argument, NULL, CLI_FORCE },                             \
	{ "max-failures", required_argument, NULL, CLI_MAX_FAILURES },         \
	{ "session-child", no_argument, NULL, CLI_SESSION_CHILD }

/* --help lines for the shared options. */
extern const char cli_harness_help[];

/* A command's long options, as cli_getopt() reads them. */
struct cli_getopt {
	const char *name;		/* the command, for messages: "show" */
	const struct option *options;
	int help;			/* the getopt value of --help */
	void (*usage)(FILE *out);
	/* Apply option @c to @ctx: 0, or an exit code after log_err(). */
	int (*option)(int c, const char *arg, void *ctx);
};

/*
 * Read the options of @argv (@argv[0] the command's name, as getopt wants a
 * program name there) with @g.  Returns 0 with optind at the first argument
 * that is no option; CLI_HELP_SHOWN after printing the usage for --help;
 * EXIT_USAGE after log_err() for an unknown option or a missing value; or
 * what @g->option returned.
 */
int cli_getopt(const struct cli_getopt *g, int argc, char **argv, void *ctx);

/*
 * The option getopt_long() just refused in @argv, as written: "-o" for a
 * short one (in a cluster such as -oProxyCommand=x optind has not moved
 * past it yet, so argv[optind - 1] would name the word before), else the
 * long option's word.  Points into @argv or @buf.
 */
const char *cli_refused_option(char **argv, char buf[3]);

/*
 * Check @arg, given to --@opt, as a name for the store (a SUT class, a
 * swprofile): valid UTF-8, at most STORE_NAME_MAX bytes, so it is refused
 * before anything is measured rather than by the store after.  0 or
 * EXIT_USAGE after log_err().
 */
int cli_store_name(const char *opt, const char *arg);

/*
 * Whether @argv[@i] is the --store option (or its value) that gave @url,
 * the value cli_getopt() stored: a session process gets the store through
 * the environment instead ($CLEARPATH_STORE, set by cli_child_store()), so
 * a password in the URL is in no process's command line, which any user of
 * the machine can read.  Any spelling getopt took (--store URL, --store=URL,
 * an abbreviation) is recognised by the value's address.
 */
bool cli_is_store_arg(char **argv, int i, const char *url);

/* Hand the store @url (NULL: none given) to the session processes through $CLEARPATH_STORE.  0 or EXIT_INTERNAL. */
int cli_child_store(const char *url);

/* Parse a whole number in [min, 100000] for --@name.  0 or EXIT_USAGE after log_err(). */
int cli_number(const char *arg, const char *name, unsigned min, unsigned *out);

/* The same in [min, max]: an option with a smaller limit says that one, whatever was wrong. */
int cli_number_max(const char *arg, const char *name, unsigned min, unsigned max, unsigned *out);

/*
 * Apply shared option @c (except CLI_SESSION_CHILD) to @h.  Returns 0, or
 * EXIT_USAGE after log_err() for a bad value or a @c that is not a shared
 * option (callers pass only their table's options, so that is a slip).
 */
int cli_harness_option(int c, const char *arg, struct harness_opts *h);

/* The width output should fit: the terminal's on a terminal, else $COLUMNS when it is a number, else 0 (unlimited). */
size_t cli_terminal_width(void);

#endif
