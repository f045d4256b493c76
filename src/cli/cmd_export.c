/* cmd_export: `clearpath export --format csv|json OUT`, every sample of the store, never a half-written file. */
#include "cli/cli_args.h"
#include "cli/commands.h"
#include "store/store.h"
#include "store/url.h"
#include "util/log.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const export_formats[] = { "csv", "json", NULL };

static const struct cli_spec export_spec = {
	.name = "export",
	.usage = "usage: clearpath export [--format csv|json] [--store URL] OUT\n\n"
		 "Writes every sample of the store, warmups included, one row per sample with\n"
		 "the columns " STORE_EXPORT_COLUMNS ".\n"
		 "OUT is a file (written whole or not at all) or - for stdout.  'clearpath import'\n"
		 "reads the CSV back; export -> import -> export gives the same bytes.\n\n"
		 "    --format FMT   csv (default) or json\n"
		 "    --store URL    the store (default: $CLEARPATH_STORE or ~/.local/share/clearpath/results.db)\n",
	.formats = export_formats,
	.min_args = 1,
	.max_args = 1,
};

/* A path the user typed that leads nowhere is their mistake; anything else is the system's. */
static int export_exit_code(int err)
{
	return err == ENOENT || err == ENOTDIR || err == EISDIR ? EXIT_USAGE : EXIT_RESOURCE;
}

/* Export into @fd and close it; the data is on disk when 0 is returned, else a negative errno. */
static int export_fd(struct store *st, enum store_format fmt, int fd)
{
	FILE *f = fdopen(fd, "w");
	int ret;

	if (!f) {
		ret = -errno;
		close(fd);
		return ret;
	}
	ret = store_export(st, f, fmt);
	/* Synced before the rename, so a crash right after cannot leave OUT empty. */
	if (!ret && fsync(fileno(f)))
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -EIO;
	return ret;
}

/*
 * Write the export into a temporary file beside @path and rename() it over
 * @path only once it is complete and on disk: a failure (disk full, a store
 * error, a kill) leaves whatever @path was before, never half an export.
 */
static int export_file(struct store *st, enum store_format fmt, const char *path)
{
	char tmp[PATH_MAX];
	mode_t mask = umask(0);
	int fd, ret;

	umask(mask);
	if (snprintf(tmp, sizeof(tmp), "%s.tmp-XXXXXX", path) >= (int)sizeof(tmp)) {
		log_err("cannot export to %s: the path is too long", path);
		return EXIT_USAGE;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		log_err("cannot create a file beside %s: %s", path, strerror(errno));
		return export_exit_code(errno);
	}
	/* mkstemp() makes it 0600; an export is an ordinary file the user's umask governs. */
	fchmod(fd, 0666 & ~mask);
	ret = export_fd(st, fmt, fd);
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret) {
		unlink(tmp);
		log_err("export to %s failed (%s); %s is unchanged", path, strerror(-ret), path);
		return -ret == ENOMEM ? EXIT_INTERNAL : export_exit_code(-ret);
	}
	return 0;
}

int cmd_export(int argc, char **argv)
{
	struct cli_args a;
	struct store *st;
	enum store_format fmt;
	int ret = cli_parse(&export_spec, argc, argv, &a);

	if (ret)
		return ret == CLI_HELP_SHOWN ? EXIT_OK : ret;
	fmt = !strcmp(a.format, "json") ? STORE_JSON : STORE_CSV;
	ret = store_url_open_existing(a.store_url, &st);
	if (ret)
		return ret;
	if (!strcmp(a.argv[0], "-"))
		ret = store_exit_code(store_export(st, stdout, fmt));
	else
		ret = export_file(st, fmt, a.argv[0]);
	store_close(st);
	return ret;
}
