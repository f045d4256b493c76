/* cli_args: the option loop the store commands (list, export, import, merge) share. */
#ifndef CLEARPATH_CLI_CLI_ARGS_H
#define CLEARPATH_CLI_CLI_ARGS_H

#include <stdbool.h>

/* What one store command accepts besides --store URL and --help. */
struct cli_spec {
	const char *name;		/* the command, for messages: "list" */
	const char *usage;		/* the whole --help text */
	const char *const *formats;	/* --format values, NULL-terminated, the first is the
					 * default; NULL: the command takes no --format */
	bool into;			/* accepts --into URL (merge) */
	bool select;			/* accepts --whole and --session UUID (export) */
	int min_args, max_args;		/* positional arguments; max_args < 0: no limit */
};

/* What the command line said. */
struct cli_args {
	const char *store_url;	/* --store, or NULL for the default store */
	const char *format;	/* --format, or spec->formats[0] */
	int format_ix;		/* its index in spec->formats: what commands switch on */
	const char *into;	/* --into, or NULL */
	bool whole;		/* --whole */
	const char **sessions;	/* each --session's UUID, nsessions of them (cli_args_free()) */
	int nsessions;
	int argc;		/* the positional arguments ("-" is one) */
	char **argv;
};

/*
 * Parse @argc arguments @argv (those after the command's own name, as main()
 * passes them; @argv[-1] must be the name) against @spec into @a.  Returns 0;
 * CLI_HELP_SHOWN after printing the usage for --help (the command then exits
 * 0); or EXIT_USAGE after log_err() for an unknown option, a missing value, a
 * --format not in @spec->formats, or the wrong number of arguments.
 */
int cli_parse(const struct cli_spec *spec, int argc, char **argv, struct cli_args *a);

/*
 * The index of @name in a command's NULL-terminated list of --format values
 * (its registry, an enum's order), or -1: commands switch on the index,
 * never on the name.
 */
int cli_format_index(const char *const *formats, const char *name);

/* Free what cli_parse() allocated in @a (safe after any return of it). */
void cli_args_free(struct cli_args *a);

#endif
