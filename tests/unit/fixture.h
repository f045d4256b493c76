/* fixture: locate tests/fixtures/<name> from this header's own path, so tests need no configuration. */
#ifndef CLEARPATH_TESTS_FIXTURE_H
#define CLEARPATH_TESTS_FIXTURE_H

#include "util/sysfs.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/*
 * The directory of fixture tree @name.  __FILE__ is "tests/unit/fixture.h"
 * as the Makefile compiles from the repo root (make check also runs there),
 * or an absolute path; either way its parent's parent holds fixtures/.
 * Returns a static buffer; aborts the test program when the tree is missing,
 * since every later assertion would fail for that one reason.
 */
static inline const char *fixture_path(const char *name)
{
	static char path[1024];
	const char *file = __FILE__;
	const char *tail = strstr(file, "unit/fixture.h");
	int dir = tail ? (int)(tail - file) : 0;

	snprintf(path, sizeof(path), "%.*sfixtures/%s", dir, file, name);
	if (access(path, R_OK)) {
		fprintf(stderr, "fixture %s not found (run the tests from the repository root)\n", path);
		_exit(2);
	}
	return path;
}

/* Point util/sysfs (and so machine/) at fixture tree @name. */
static inline void fixture_use_root(const char *name)
{
	sysfs_set_root(fixture_path(name));
}

/* A cmocka teardown: back to the real machine after a test that used a fixture root. */
static inline int fixture_reset_root(void **state)
{
	(void)state;
	sysfs_set_root(NULL);
	return 0;
}

#endif
