/* rpt_width: display width of UTF-8 text, independent of the process locale. */
#define _GNU_SOURCE
#include "report/impl.h"

#include <limits.h>
#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

/*
 * Tables are laid out in terminal columns, and wcwidth() knows them only under
 * a UTF-8 LC_CTYPE.  Tests and cron jobs run under LANG=C, and a library must
 * not call setlocale() behind its caller's back, so we switch this thread
 * alone to C.UTF-8 with uselocale() while measuring.  It is created once and
 * kept for the life of the process.
 */
static locale_t utf8_loc;
static pthread_once_t utf8_once = PTHREAD_ONCE_INIT;

static void utf8_init(void)
{
	utf8_loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
	if (!utf8_loc)
		utf8_loc = newlocale(LC_CTYPE_MASK, "en_US.UTF-8", (locale_t)0);
}

/* Without a UTF-8 locale: continuation bytes take no column, everything else one. */
static size_t char_next_bytes(const char *s, size_t *w)
{
	size_t n = 1;

	while (((unsigned char)s[n] & 0xc0) == 0x80)
		n++;
	*w = 1;
	return n;
}

static size_t char_next_wide(const char *s, size_t *w)
{
	mbstate_t st;
	wchar_t wc;
	size_t n;
	int cw;

	memset(&st, 0, sizeof(st));
	n = mbrtowc(&wc, s, strnlen(s, MB_LEN_MAX), &st);
	if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
		*w = 1;		/* a stray byte: terminals show one replacement glyph */
		return 1;
	}
	cw = wcwidth(wc);
	*w = cw < 0 ? 0 : (size_t)cw;
	return n;
}

size_t rpt_char_next(const char *s, size_t *w)
{
	locale_t old;
	size_t n;

	if (!*s) {
		*w = 0;
		return 0;
	}
	if ((unsigned char)*s < 0x80) {
		*w = (unsigned char)*s < 0x20 || *s == 0x7f ? 0 : 1;
		return 1;
	}
	pthread_once(&utf8_once, utf8_init);
	if (!utf8_loc)
		return char_next_bytes(s, w);
	old = uselocale(utf8_loc);
	n = char_next_wide(s, w);
	uselocale(old);
	return n;
}

size_t rpt_width_n(const char *s, size_t len)
{
	size_t total = 0, w, i = 0, n;

	while (i < len && (n = rpt_char_next(s + i, &w))) {
		total += w;
		i += n;
	}
	return total;
}

size_t rpt_width(const char *s)
{
	return rpt_width_n(s, strlen(s));
}

size_t rpt_prefix_fit(const char *s, size_t max)
{
	size_t used = 0, w, i = 0, n;

	while ((n = rpt_char_next(s + i, &w))) {
		if (used + w > max)
			break;
		used += w;
		i += n;
	}
	return i;
}

static void wrap_newline(FILE *out, size_t indent)
{
	fputc('\n', out);
	rpt_pad(out, indent);
}

void rpt_wrap(FILE *out, const char *lead, size_t indent, const char *text, size_t width)
{
	size_t col = strlen(lead), start = col;

	fputs(lead, out);
	for (const char *p = text + strspn(text, " "); *p; p += strspn(p, " ")) {
		size_t len = strcspn(p, " "), ww = rpt_width_n(p, len);

		if (col > start && col + 1 + ww > width) {
			wrap_newline(out, indent);
			col = start = indent;
		} else if (col > start) {
			fputc(' ', out);
			col++;
		}
		while (col < width ? ww > width - col : ww > 0) {
			size_t n = rpt_prefix_fit(p, col < width ? width - col : 0), cw;

			/* at least one character a line, or a width narrower than the indent (or than one
			 * double-width character) would write blank lines forever */
			if (!n)
				n = rpt_char_next(p, &cw);
			fwrite(p, 1, n, out);
			p += n;
			len -= n;
			ww = rpt_width_n(p, len);
			wrap_newline(out, indent);
			col = start = indent;
		}
		fwrite(p, 1, len, out);
		col += ww;
		p += len;
	}
	fputc('\n', out);
}

void rpt_note(FILE *out, const char *line, size_t width)
{
	size_t lead = strspn(line, " ");
	char pad[16];

	if (!width || rpt_width(line) <= width) {
		fprintf(out, "%s\n", line);
		return;
	}
	lead = lead < sizeof(pad) - 1 && lead + 2 < width ? lead : 0;
	snprintf(pad, sizeof(pad), "%*s", (int)lead, "");
	rpt_wrap(out, pad, lead + 2, line + strspn(line, " "), width);
}
