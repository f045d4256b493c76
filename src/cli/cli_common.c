/* cli_common: the options `run` and `plan run` share, parsed in one place, and the width output fits. */
#include "cli/cli_common.h"
#include "cli/commands.h"
#include "harness/harness.h"
#include "store/store.h"
#include "util/log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

const char cli_harness_help[] =
	"    --swprofile NAME  software profile name (default: the kernel release)\n"
	"    --sut NAME        machine class name (default: DMI product name, else CPU model)\n"
	"    --store URL       a path, sqlite:///path or postgresql://user@host:port/db\n"
	"                      (default: $CLEARPATH_STORE, else\n"
	"                      ${XDG_DATA_HOME:-~/.local/share}/clearpath/results.db)\n"
	"    --force           add to a swprofile whose fingerprint changed\n"
	"    --max-failures N  consecutive failed invocations that stop a session (default 3, 0: never)\n"
	"    --quiet           no progress line\n";

int cli_store_name(const char *opt, const char *arg)
{
	if (!store_utf8_valid(arg)) {
		log_err("invalid value for --%s: not valid UTF-8", opt);
		return EXIT_USAGE;
	}
	if (strlen(arg) > STORE_NAME_MAX) {
		log_err("invalid value for --%s: %zu bytes long, and a name in the store is at most %d bytes", opt,
			strlen(arg), STORE_NAME_MAX);
		log_hint("give the machine class or kernel a shorter name");
		return EXIT_USAGE;
	}
	return 0;
}

bool cli_is_store_arg(char **argv, int i, const char *url)
{
	size_t n;

	if (!url)
		return false;
	/* "--store URL": the value, or the option word before it */
	if (argv[i] == url || (argv[i + 1] == url && argv[i][0] == '-'))
		return true;
	/* "--store=URL" */
	n = strlen(argv[i]);
	return url > argv[i] && url <= argv[i] + n && url[-1] == '=';
}

int cli_child_store(const char *url)
{
	if (url && setenv("CLEARPATH_STORE", url, 1)) {
		log_err("cannot hand the store to the session processes: %s", strerror(errno));
		return EXIT_INTERNAL;
	}
	return 0;
}

int cli_number_max(const char *arg, const char *name, unsigned min, unsigned max, unsigned *out)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 10);

	if (arg[0] < '0' || arg[0] > '9' || *end || v > max || v < min) {
		log_err("invalid value '%s' for --%s: expected a whole number from %u to %u", arg, name, min, max);
		return EXIT_USAGE;
	}
	*out = (unsigned)v;
	return 0;
}

int cli_number(const char *arg, const char *name, unsigned min, unsigned *out)
{
	return cli_number_max(arg, name, min, 100000, out);
}

const char *cli_refused_option(char **argv, char buf[3])
{
	/* an unknown long option leaves optopt 0; a long one lacking its value sets its code (>= 256) */
	if (optopt <= 0 || optopt > 255)
		return argv[optind - 1];
	buf[0] = '-';
	buf[1] = (char)optopt;
	buf[2] = '\0';
	return buf;
}

int cli_getopt(const struct cli_getopt *g, int argc, char **argv, void *ctx)
{
	int c, ret = 0;

	optind = 0;
	opterr = 0;
	while (!ret && (c = getopt_long(argc, argv, "", g->options, NULL)) != -1) {
		if (c == g->help) {
			g->usage(stdout);
			return CLI_HELP_SHOWN;
		}
		if (c == '?' || c == ':') {
			char opt[3];

			log_err("%s is not an option of '%s' (or it needs a value)", cli_refused_option(argv, opt),
				g->name);
			log_hint("see 'clearpath %s --help'", g->name);
			return EXIT_USAGE;
		}
		ret = g->option(c, optarg, ctx);
	}
	return ret;
}

int cli_harness_option(int c, const char *arg, struct harness_opts *h)
{
	/* Refused before anything is created: the store takes UTF-8 names only. */
	if ((c == CLI_SWPROFILE || c == CLI_SUT) && cli_store_name(c == CLI_SUT ? "sut" : "swprofile", arg))
		return EXIT_USAGE;
	switch (c) {
	case CLI_SWPROFILE: h->swprofile = arg; return 0;
	case CLI_SUT: h->sut = arg; return 0;
	case CLI_STORE: h->store_url = arg; return 0;
	case CLI_QUIET: h->quiet = true; return 0;
	case CLI_FORCE: h->force = true; return 0;
	case CLI_MAX_FAILURES: return cli_number(arg, "max-failures", 0, &h->max_failures);
	}
	log_err("option %d is not one of the shared options", c);
	return EXIT_USAGE;
}

/* The default width: the terminal's on a terminal, else $COLUMNS when it is a number, else unlimited (0). */
size_t cli_terminal_width(void)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");
	char *end;
	long n;

	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col)
		return ws.ws_col;
	n = env ? strtol(env, &end, 10) : 0;
	return env && *env && !*end && n > 0 ? (size_t)n : 0;
}
