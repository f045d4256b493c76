/* cmd_import: `clearpath import FILE`, an export (samples, or sessions whole) into the store, all or nothing. */
#include "cli/cli_args.h"
#include "cli/commands.h"
#include "store/store.h"
#include "store/url.h"
#include "util/log.h"
#include "workloads/workload.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static const struct cli_spec import_spec = {
	.name = "import",
	.usage = "usage: clearpath import [--store URL] FILE\n\n"
		 "Adds what a file written by 'clearpath export' holds (- reads stdin) to the\n"
		 "store, creating it when missing: the samples of the CSV form, or the sessions of\n"
		 "the --whole form (CSV or JSON) with their fingerprints, environment, errors\n"
		 "and completeness.  All or nothing: a malformed line (named by line and column)\n"
		 "imports nothing.  Samples already stored with the same value, and sessions\n"
		 "already stored with the same content, are skipped, so importing a file twice\n"
		 "adds nothing; a stored session with other content refuses the file.\n\n"
		 "    --store URL    the store (default: $CLEARPATH_STORE or ~/.local/share/clearpath/results.db)\n",
	.min_args = 1,
	.max_args = 1,
};

/* How many sessions, samples and errors @st holds: counted by the store, never listed (a CI store has 100k sessions). */
static int import_count(struct store *st, long long *sessions, long long *samples, long long *errors)
{
	struct store_counts n;
	int ret = store_count(st, &n);

	if (ret)
		return ret;
	*sessions = n.sessions;
	*samples = n.samples;
	*errors = n.errors;
	return 0;
}

/* Import @in into @st and say what it added. */
static int import_stream(struct store *st, FILE *in, const char *name)
{
	long long sessions0, samples0, errors0, sessions1, samples1, errors1;
	int ret = import_count(st, &sessions0, &samples0, &errors0);

	if (!ret)
		ret = store_import(st, in, name, NULL);
	if (!ret)
		ret = import_count(st, &sessions1, &samples1, &errors1);
	if (ret)
		return store_exit_code(ret);
	printf("imported %lld sample%s", samples1 - samples0, samples1 - samples0 == 1 ? "" : "s");
	if (errors1 != errors0)
		printf(" and %lld error%s", errors1 - errors0, errors1 - errors0 == 1 ? "" : "s");
	printf(" in %lld new session%s from %s", sessions1 - sessions0, sessions1 - sessions0 == 1 ? "" : "s", name);
	printf(samples1 == samples0 && sessions1 == sessions0 && errors1 == errors0 ? " (all were stored already)\n"
										  : "\n");
	return 0;
}

int cmd_import(int argc, char **argv)
{
	struct cli_args a;
	struct store *st;
	struct stat sb;
	bool created = false;
	const char *name;
	FILE *in;
	int ret = cli_parse(&import_spec, argc, argv, &a);

	if (ret)
		return ret == CLI_HELP_SHOWN ? EXIT_OK : ret;
	name = strcmp(a.argv[0], "-") ? a.argv[0] : "<stdin>";
	in = strcmp(a.argv[0], "-") ? fopen(a.argv[0], "re") : stdin;
	if (!in) {
		log_err("cannot read %s: %s", name, strerror(errno));
		return errno == ENOENT || errno == EISDIR ? EXIT_USAGE : EXIT_RESOURCE;
	}
	/* fopen() opens a directory; reading it would fail as an "Input/output error". */
	if (!fstat(fileno(in), &sb) && S_ISDIR(sb.st_mode)) {
		log_err("cannot read %s: it is a directory", name);
		log_hint("import reads one CSV file in 'clearpath export' form");
		fclose(in);
		return EXIT_USAGE;
	}
	/* Opened after the file, so a mistyped file name does not leave a new empty store behind. */
	ret = store_url_open_new(a.store_url, wl_identity_parse, &st, &created);
	if (!ret) {
		ret = import_stream(st, in, name);
		/* nor does a refused file: a store this import created goes again */
		if (ret && created)
			store_discard(st);
		else
			store_close(st);
	}
	if (in != stdin)
		fclose(in);
	return ret;
}
