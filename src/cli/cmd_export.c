/* cmd_export: `clearpath export [--whole] [--session UUID] OUT`, samples or sessions whole, never a half-written file. */
#include "cli/cli_args.h"
#include "cli/commands.h"
#include "store/store.h"
#include "store/url.h"
#include "util/log.h"
#include "util/replace.h"
#include "workloads/workload.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { EXPORT_CSV, EXPORT_JSON };
static const char *const export_formats[] = { [EXPORT_CSV] = "csv", [EXPORT_JSON] = "json", NULL };

static const struct cli_spec export_spec = {
	.name = "export",
	.usage = "usage: clearpath export [--format csv|json] [--whole] [--session UUID]... [--store URL] OUT\n\n"
		 "Writes every sample of the store, warmups included, one row per sample with\n"
		 "the columns " STORE_EXPORT_COLUMNS ".\n"
		 "With --whole, the sessions whole instead: suts and swprofiles with their\n"
		 "fingerprints, each session with its environment, completeness, samples and\n"
		 "errors, so 'clearpath import' rebuilds what 'clearpath merge' would.\n"
		 "OUT is a file (written whole or not at all; through a symbolic link, the file it\n"
		 "points to), a character device or FIFO (written as it is: /dev/stdout, >(gzip >x))\n"
		 "or - for stdout; never an SQLite database (a store) nor its -wal, -shm or\n"
		 "-journal file.  'clearpath import' reads the CSV and the --whole forms\n"
		 "back; export -> import -> export gives the same bytes.\n\n"
		 "    --format FMT    csv (default) or json\n"
		 "    --whole         sessions whole (the form import restores without loss)\n"
		 "    --session UUID  only this session, whole (implies --whole; repeat for more)\n"
		 "    --store URL     the store (default: $CLEARPATH_STORE or ~/.local/share/clearpath/results.db)\n",
	.formats = export_formats,
	.select = true,
	.min_args = 1,
	.max_args = 1,
};

/* What to export: the format, the form, which sessions. */
struct export_req {
	enum store_format fmt;
	bool whole;
	const char *const *uuids;	/* n of them; none: every session */
	size_t n;
};

static int export_to(struct store *st, const struct export_req *req, FILE *f)
{
	if (req->whole)
		return store_export_whole(st, f, req->fmt, req->uuids, req->n);
	return store_export(st, f, req->fmt);
}

/* A path the user typed that leads nowhere is their mistake; anything else is the system's. */
static int export_exit_code(int err)
{
	return err == ENOENT || err == ENOTDIR || err == EISDIR ? EXIT_USAGE : EXIT_RESOURCE;
}

/*
 * Export into @fd and close it; with @sync the data is on disk when 0 is
 * returned (pipes and devices cannot be synced).  0 or a negative errno;
 * *@said tells whether it was logged already (the export's own failures,
 * the store's or writing: export_failed() must not say it again).
 */
static int export_fd(struct store *st, const struct export_req *req, int fd, bool sync, bool *said)
{
	FILE *f = fdopen(fd, "w");
	int ret;

	*said = false;
	if (!f) {
		ret = -errno;
		close(fd);
		return ret;
	}
	ret = export_to(st, req, f);
	*said = ret != 0;
	/* Synced before the rename, so a crash right after cannot leave OUT empty. */
	if (!ret && sync && fsync(fileno(f)))
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -EIO;
	return ret;
}

/*
 * The exit code for a failed export to @path, after saying so once: what
 * failed when nothing said it yet, else only the @outcome for the file.
 */
static int export_failed(const char *path, int err, bool said, const char *outcome)
{
	if (!said)
		log_err("export to %s failed (%s)%s%s", path, strerror(-err), *outcome ? "; " : "", outcome);
	else if (*outcome)
		log_hint("nothing was exported to %s: %s", path, outcome);
	return -err == ENOMEM ? EXIT_INTERNAL : export_exit_code(-err);
}

/*
 * Write the export into a temporary file beside @target and rename() it over
 * @target only once it is complete and on disk: a failure (disk full, a store
 * error, a kill) leaves whatever was there before, never half an export.
 * @path is what the user named (a symbolic link to @target, or @target).
 */
static int export_replace(struct store *st, const struct export_req *req, const char *path, const char *target)
{
	char tmp[PATH_MAX];
	mode_t mask = umask(0);
	bool said = false;
	int fd, ret;

	umask(mask);
	if (snprintf(tmp, sizeof(tmp), "%s.tmp-XXXXXX", target) >= (int)sizeof(tmp)) {
		log_err("cannot export to %s: the path is too long", path);
		return EXIT_USAGE;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		log_err("cannot create a file beside %s: %s", target, strerror(errno));
		return export_exit_code(errno);
	}
	/* mkstemp() makes it 0600; an export is an ordinary file the user's umask governs. */
	fchmod(fd, 0666 & ~mask);
	ret = export_fd(st, req, fd, true, &said);
	if (!ret && rename(tmp, target))
		ret = -errno;
	if (ret) {
		unlink(tmp);
		return export_failed(path, ret, said, path == target ? "it is unchanged" : "its target is unchanged");
	}
	return 0;
}

/*
 * Export to @path.  A regular file (or a symbolic link to one, or nothing yet)
 * is replaced whole, unless it is our own stdout; a character device or a FIFO (/dev/stdout, a pipe from
 * the shell's >(...)) is written to as it is; anything else is refused, so an
 * export never turns a special file into a regular one.
 */
static bool export_is_stdout(const struct stat *sb)
{
	struct stat out;

	return !fstat(STDOUT_FILENO, &out) && out.st_dev == sb->st_dev && out.st_ino == sb->st_ino;
}

static int export_file(struct store *st, const struct export_req *req, const char *path)
{
	struct stat sb;
	const char *part;
	char *target;
	bool said;
	int fd, ret;

	/*
	 * "export /dev/stdout >> f": the path is this process's own stdout, a
	 * regular file the shell opened (perhaps to append).  Replacing it would
	 * lose what it held, and reopening it would write from offset 0: write
	 * through the descriptor the shell gave us instead.
	 */
	if (!stat(path, &sb) && S_ISREG(sb.st_mode) && export_is_stdout(&sb)) {
		fd = dup(STDOUT_FILENO);
		said = false;
		ret = fd < 0 ? -errno : export_fd(st, req, fd, false, &said);
		return ret ? export_failed(path, ret, said, "") : 0;
	}
	if (!stat(path, &sb) && (S_ISCHR(sb.st_mode) || S_ISFIFO(sb.st_mode))) {
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0) {
			log_err("cannot write to %s: %s", path, strerror(errno));
			return export_exit_code(errno);
		}
		ret = export_fd(st, req, fd, false, &said);
		return ret ? export_failed(path, ret, said, "") : 0;
	}
	if (!stat(path, &sb) && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode)) {
		log_err("cannot export to %s: it is a special file (neither a regular file, a character"
			" device nor a FIFO)", path);
		return EXIT_USAGE;
	}
	target = replace_target(path);
	if (!target) {
		log_err("cannot export to %s: %s", path, strerror(errno));
		return errno == ENOMEM ? EXIT_INTERNAL : EXIT_USAGE;
	}
	/*
	 * `export results.db`, the store named where the output goes, would lose every sample;
	 * `export results.db-wal` those a writer committed and SQLite has not copied back yet.
	 */
	if (replace_is_database(target, &part)) {
		if (part)
			log_err("%s is the %s of an SQLite database (a clearpath store?): export does not"
				" replace it", path, part);
		else
			log_err("%s is an SQLite database (a clearpath store?): export does not replace it",
				path);
		log_hint("name a new file for the export, e.g. export results.csv; to copy a store into"
			 " another, use 'clearpath merge'");
		free(target);
		return EXIT_USAGE;
	}
	ret = export_replace(st, req, path, strcmp(path, target) ? target : path);
	free(target);
	return ret;
}

/*
 * Each --session is in the store: a session named wrong is the user's mistake
 * (exit 2), said before any file is touched.
 */
static int export_check_sessions(struct store *st, const struct export_req *req)
{
	for (size_t i = 0; i < req->n; i++) {
		json_t *env = NULL;
		int ret = store_session_environment(st, req->uuids[i], &env);

		json_decref(env);
		if (ret == -ENOENT) {
			log_err("the store holds no session %s", req->uuids[i]);
			log_hint("'clearpath list sessions' lists the sessions it holds");
			return EXIT_USAGE;
		}
		if (ret)
			return store_exit_code(ret);
	}
	return 0;
}

int cmd_export(int argc, char **argv)
{
	struct export_req req = { .fmt = STORE_CSV };
	struct cli_args a;
	struct store *st;
	int ret = cli_parse(&export_spec, argc, argv, &a);

	if (ret) {
		cli_args_free(&a);
		return ret == CLI_HELP_SHOWN ? EXIT_OK : ret;
	}
	req.fmt = a.format_ix == EXPORT_JSON ? STORE_JSON : STORE_CSV;
	req.whole = a.whole || a.nsessions;
	req.uuids = a.sessions;
	req.n = (size_t)a.nsessions;
	/* stored lower-case: one typed in upper case names the same session (argv's strings are writable) */
	for (int i = 0; i < a.nsessions; i++)
		store_uuid_lower((char *)a.sessions[i]);
	ret = store_url_open_existing(a.store_url, wl_identity_parse, &st);
	if (!ret && (ret = export_check_sessions(st, &req)))
		store_close(st);
	else if (!ret) {
		if (!strcmp(a.argv[0], "-"))
			ret = store_exit_code(export_to(st, &req, stdout));
		else
			ret = export_file(st, &req, a.argv[0]);
		store_close(st);
	}
	cli_args_free(&a);
	return ret;
}
