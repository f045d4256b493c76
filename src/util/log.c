/* log: user-facing diagnostics on stderr with a fixed "clearpath:" prefix. */
#define _GNU_SOURCE	/* vasprintf */
#include "util/log.h"
#include "util/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static bool log_quiet;

bool log_set_quiet(bool quiet)
{
	bool was = log_quiet;

	log_quiet = quiet;
	return was;
}

/*
 * Messages quote names from plans, stores and commands' stderr: their
 * control characters are printed as spaces, except the newlines and tabs of
 * a quoted stderr tail, so no escape sequence reaches the terminal.
 */
static void log_v(const char *prefix, const char *fmt, va_list ap)
{
	char *msg = NULL;

	if (log_quiet)
		return;
	fflush(stdout);	/* keep stdout and stderr in order when both go to one terminal */
	fputs(prefix, stderr);
	if (vasprintf(&msg, fmt, ap) < 0) {
		fputs("(out of memory formatting a message)\n", stderr);
		return;
	}
	fputs(text_quoted_lines(msg), stderr);
	fputc('\n', stderr);
	free(msg);
}

static char log_last[512];

void log_err(const char *fmt, ...)
{
	va_list ap;

	if (log_quiet)
		return;
	va_start(ap, fmt);
	vsnprintf(log_last, sizeof(log_last), fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	log_v("clearpath: ", fmt, ap);
	va_end(ap);
}

const char *log_last_error(void)
{
	return log_last;
}

void log_clear_error(void)
{
	log_last[0] = '\0';
}

void log_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_v("clearpath: warning: ", fmt, ap);
	va_end(ap);
}

void log_hint(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_v("  hint: ", fmt, ap);
	va_end(ap);
}
