/* log: one place for user-facing diagnostics and the documented exit codes. */
#ifndef CLEARPATH_UTIL_LOG_H
#define CLEARPATH_UTIL_LOG_H

#include <stdbool.h>

/* Exit codes, as documented in README.md and clearpath(1). */
enum exit_code {
	EXIT_OK = 0,
	EXIT_INTERNAL = 1,	/* a bug or an unexpected system failure */
	EXIT_USAGE = 2,		/* bad option, bad size, unknown name */
	EXIT_RESOURCE = 3,	/* no hugepages, not enough memory, CPU lacks a feature */
	EXIT_REGRESSION = 4,	/* a regression was found and the user asked to fail on one */
};

/* Print "clearpath: <msg>\n" to stderr. */
void log_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * The message of the last log_err() in this process ("" when none), so the
 * harness can store why an invocation failed.  log_clear_error() forgets it.
 */
const char *log_last_error(void);
void log_clear_error(void);
/* Print "clearpath: warning: <msg>\n" to stderr. */
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print an indented "  hint: <msg>\n" line: how to fix what the last error named. */
void log_hint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * While @quiet, log_err/warn/hint print nothing and log_last_error() keeps
 * its value: for callers that try a parse whose failure is an answer, not
 * an error.  Returns the previous setting, to restore.
 */
bool log_set_quiet(bool quiet);

#endif
