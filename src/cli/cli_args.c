/* cli_args: one getopt_long loop for list, export, import and merge, so they agree on options and messages. */
#include "cli/cli_args.h"
#include "cli/commands.h"
#include "util/log.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CLI_STORE = 256, CLI_FORMAT, CLI_INTO, CLI_WHOLE, CLI_SESSION, CLI_HELP };

static const struct option cli_options[] = {
	{ "store", required_argument, NULL, CLI_STORE },
	{ "format", required_argument, NULL, CLI_FORMAT },
	{ "into", required_argument, NULL, CLI_INTO },
	{ "whole", no_argument, NULL, CLI_WHOLE },
	{ "session", required_argument, NULL, CLI_SESSION },
	{ "help", no_argument, NULL, CLI_HELP },
	{ NULL, 0, NULL, 0 },
};

/* "csv or json", "table or json": the accepted values, for the error message. */
static void cli_list_formats(const char *const *formats, char *buf, size_t len)
{
	buf[0] = '\0';
	for (const char *const *f = formats; *f; f++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", f == formats ? "" : f[1] ? ", " : " or ",
			 *f);
}

int cli_format_index(const char *const *formats, const char *name)
{
	for (int i = 0; formats[i]; i++)
		if (!strcmp(name, formats[i]))
			return i;
	return -1;
}

static int cli_format(const struct cli_spec *spec, const char *arg, struct cli_args *a)
{
	char names[128];
	int i = cli_format_index(spec->formats, arg);

	if (i >= 0) {
		a->format = spec->formats[i];
		a->format_ix = i;
		return 0;
	}
	cli_list_formats(spec->formats, names, sizeof(names));
	log_err("unknown format '%s' for '%s': expected %s", arg, spec->name, names);
	return EXIT_USAGE;
}

/* @given is not an option of the command, or lacks its value: EXIT_USAGE after saying so. */
static int cli_not_an_option(const struct cli_spec *spec, const char *given)
{
	log_err("%s is not an option of '%s' (or it needs a value)", given, spec->name);
	log_hint("see 'clearpath %s --help'", spec->name);
	return EXIT_USAGE;
}

/* Apply option @c (@given as typed); one @spec does not take is reported like an unknown one. */
static int cli_option(const struct cli_spec *spec, int c, const char *arg, const char *given,
		      struct cli_args *a)
{
	if (c == CLI_STORE) {
		a->store_url = arg;
		return 0;
	}
	if (c == CLI_FORMAT && spec->formats)
		return cli_format(spec, arg, a);
	if (c == CLI_INTO && spec->into) {
		a->into = arg;
		return 0;
	}
	if (c == CLI_WHOLE && spec->select) {
		a->whole = true;
		return 0;
	}
	if (c == CLI_SESSION && spec->select) {
		a->sessions[a->nsessions++] = arg;
		return 0;
	}
	return cli_not_an_option(spec, given);
}

static int cli_count(const struct cli_spec *spec, const struct cli_args *a)
{
	if (a->argc < spec->min_args) {
		log_err("'%s' needs %s", spec->name, spec->min_args > 1 ? "more arguments" : "an argument");
		log_hint("see 'clearpath %s --help'", spec->name);
		return EXIT_USAGE;
	}
	if (spec->max_args >= 0 && a->argc > spec->max_args) {
		log_err("unexpected argument '%s' to '%s'", a->argv[spec->max_args], spec->name);
		log_hint("see 'clearpath %s --help'", spec->name);
		return EXIT_USAGE;
	}
	return 0;
}

int cli_parse(const struct cli_spec *spec, int argc, char **argv, struct cli_args *a)
{
	int c, ret = 0;

	memset(a, 0, sizeof(*a));
	a->format = spec->formats ? spec->formats[0] : NULL;
	/* room for every argument to be a --session's value */
	if (spec->select && !(a->sessions = calloc((size_t)argc + 1, sizeof(*a->sessions)))) {
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	/* getopt wants a program name in argv[0]: main() leaves the command's name there. */
	argc++;
	argv--;
	optind = 0;
	opterr = 0;
	while (!ret && (c = getopt_long(argc, argv, "", cli_options, NULL)) != -1) {
		if (c == CLI_HELP) {
			fputs(spec->usage, stdout);
			return CLI_HELP_SHOWN;
		}
		ret = c == '?' || c == ':' ? cli_not_an_option(spec, argv[optind - 1])
					   : cli_option(spec, c, optarg, argv[optind - 1], a);
	}
	if (ret)
		return ret;
	a->argc = argc - optind;
	a->argv = argv + optind;
	return cli_count(spec, a);
}

void cli_args_free(struct cli_args *a)
{
	free(a->sessions);
	a->sessions = NULL;
}
