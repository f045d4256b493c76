/* exec: run an external benchmark command with a time limit and keep what it printed. */
#ifndef CLEARPATH_HARNESS_EXEC_H
#define CLEARPATH_HARNESS_EXEC_H

#include <stdbool.h>

struct harness_exec_result {
	char *out;		/* all of stdout, NUL-terminated (NULL when empty) */
	char err_tail[512];	/* the last bytes of stderr, one line, for error rows */
	int status;		/* exit status, or 128 + signal */
	bool timed_out;
};

/*
 * Run @command with /bin/sh -c in its own process group, capturing stdout
 * and stderr; after @timeout_s seconds (0: none) the group is killed and
 * timed_out set.  Returns 0 with *r filled (free with harness_exec_free()),
 * or EXIT_RESOURCE after log_err() when the command could not be started.
 */
int harness_exec(const char *command, unsigned timeout_s, struct harness_exec_result *r);
void harness_exec_free(struct harness_exec_result *r);

/*
 * Kill the process group of the command harness_exec() is running, if any.
 * Async-signal-safe: for a session process's stop-signal handler.
 */
void harness_exec_kill_running(void);

/*
 * Read the value @regex (POSIX extended, group 1) finds in @output into
 * *value (blanks after the number are allowed).  Returns 0, or -ENOENT when
 * the regex does not match, -EDOM when group 1 is not a number, -ERANGE when
 * that number is not finite (nan, inf, 1e999), -EINVAL when the regex does
 * not compile.
 */
int harness_exec_extract(const char *regex, const char *output, double *value);

#endif
