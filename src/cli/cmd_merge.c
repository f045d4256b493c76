/* cmd_merge: `clearpath merge --into DST SRC...`, sessions from other stores (other machines) into one. */
#include "cli/cli_args.h"
#include "cli/commands.h"
#include "store/store.h"
#include "store/url.h"
#include "util/log.h"
#include "workloads/workload.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const struct cli_spec merge_spec = {
	.name = "merge",
	.usage = "usage: clearpath merge --into DST SRC...\n\n"
		 "Copies into the store DST (created when missing) every session of each store SRC\n"
		 "that DST does not hold yet, by session UUID, with its samples and errors.  Merging\n"
		 "the same store again adds nothing.  A session both hold must be the same one: DST's\n"
		 "copy of a session cut short (merged while it ran) takes the further samples and the\n"
		 "end SRC holds, a copy SRC made while it ran adds nothing, anything else is refused.\n"
		 "SRC's sequential runs (plan run --until-decided's looks) come along, each once.\n"
		 "Each SRC is merged whole or not at all.\n\n"
		 "    --into URL     the store to merge into (a path, sqlite:///path or postgresql://...)\n",
	.into = true,
	.min_args = 1,
	.max_args = -1,
};

/*
 * Whether URLs @a and @b name the same file.  Merging a store into itself
 * would wait out SQLite's busy timeout on its own lock and then blame
 * "another clearpath"; the store API does not expose its resolved path
 * (store_path() would do), so this strips the one URL scheme it knows.
 */
static bool merge_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	a += strncmp(a, "sqlite://", 9) ? 0 : 9;
	b += strncmp(b, "sqlite://", 9) ? 0 : 9;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Whether @src can be merged into @into: it exists, is a clearpath store and is not @into. */
static int merge_check(const char *into, const char *src)
{
	struct store *probe;
	int ret;

	if (merge_same_file(into, src)) {
		log_err("cannot merge %s into itself", src);
		return EXIT_USAGE;
	}
	/* store_merge() would create a missing source; a typo must not merge "nothing" quietly. */
	ret = store_url_open_existing(src, wl_identity_parse, &probe);
	store_close(probe);
	return ret;
}

/* Merge one source; returns 0 or an exit code after log_err(). */
static int merge_one(struct store *dst, const char *src)
{
	struct store_merged done;
	int ret = store_merge(dst, src, &done);
	char *shown;

	if (ret)
		return store_exit_code(ret);
	shown = store_url_display(src);	/* a password in a source URL is not echoed */
	printf("%s: %d session%s added", shown ? shown : "(source)", done.added, done.added == 1 ? "" : "s");
	if (done.completed)
		printf(", %d completed", done.completed);
	if (done.extended)
		printf(", %d given more of what the source holds", done.extended);
	if (done.sequential)
		printf(", %d sequential run%s", done.sequential, done.sequential == 1 ? "" : "s");
	printf("\n");
	free(shown);
	return 0;
}

int cmd_merge(int argc, char **argv)
{
	struct cli_args a;
	struct store *dst;
	bool created = false;
	int merged = 0, ret = cli_parse(&merge_spec, argc, argv, &a);

	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (a.store_url) {
		log_err("'merge' writes to the store named by --into, not --store");
		return EXIT_USAGE;
	}
	if (!a.into) {
		log_err("'merge' needs --into DST, the store to merge into");
		log_hint("e.g. 'clearpath merge --into all.db box1.db box2.db'");
		return EXIT_USAGE;
	}
	/* Every source is checked before DST is opened, so a typo creates no empty DST. */
	for (int i = 0; !ret && i < a.argc; i++)
		ret = merge_check(a.into, a.argv[i]);
	if (!ret)
		ret = store_url_open_new(a.into, wl_identity_parse, &dst, &created);
	if (ret)
		return ret;
	for (int i = 0; !ret && i < a.argc; i++, merged += !ret)
		ret = merge_one(dst, a.argv[i]);
	/* A DST this command created and nothing went into is not left behind. */
	if (ret && created && !merged)
		store_discard(dst);
	else
		store_close(dst);
	return ret;
}
