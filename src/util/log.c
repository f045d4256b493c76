/* log: user-facing diagnostics on stderr with a fixed "clearpath:" prefix. */
#include "util/log.h"

#include <stdarg.h>
#include <stdio.h>

static void log_v(const char *prefix, const char *fmt, va_list ap)
{
	fflush(stdout);	/* keep stdout and stderr in order when both go to one terminal */
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

static char log_last[512];

void log_err(const char *fmt, ...)
{
	va_list ap;

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
