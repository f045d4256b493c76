/* fuzz_common: a private scratch directory for the harnesses that need files (stores). */
#ifndef CLEARPATH_FUZZ_COMMON_H
#define CLEARPATH_FUZZ_COMMON_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char fuzz_dir[PATH_MAX];

static inline void fuzz_dir_remove(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fuzz_dir);
	if (system(cmd))
		return;
}

/* Create the scratch directory once (removed at exit) and put @name's path in it into @buf. */
static inline void fuzz_path(const char *name, char *buf, size_t len)
{
	if (!fuzz_dir[0]) {
		const char *tmp = getenv("TMPDIR");

		snprintf(fuzz_dir, sizeof(fuzz_dir), "%s/clearpath-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(fuzz_dir))
			abort();
		atexit(fuzz_dir_remove);
	}
	snprintf(buf, len, "%s/%s", fuzz_dir, name);
}

/* Remove the store file at @path with its WAL, shared-memory and journal files. */
static inline void fuzz_store_remove(const char *path)
{
	static const char *const suffix[] = { "", "-wal", "-shm", "-journal" };
	char buf[PATH_MAX + 16];

	for (size_t i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		snprintf(buf, sizeof(buf), "%s%s", path, suffix[i]);
		unlink(buf);
	}
}

#endif
