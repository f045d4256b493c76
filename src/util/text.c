/* text: the one sanitiser for names printed to a terminal (tables, plan show, plan run, messages). */
#include "util/text.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Whether code point @cp steers a terminal: C1 controls (U+009B is CSI) and the bidi overrides. */
static int text_is_control_point(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/*
 * The length of the character at @s (not at its end), and in *@bad whether it
 * must not reach a terminal: a C0 control or DEL (unless in @keep), a C1 or
 * bidi control, or a byte that starts no valid UTF-8 character (an 8-bit
 * terminal takes a lone 0x9b for CSI).
 */
static size_t text_char(const unsigned char *s, const char *keep, int *bad)
{
	size_t n = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : s[0] >= 0xe0 && s[0] < 0xf0 ? 3 :
		   s[0] >= 0xf0 && s[0] < 0xf5 ? 4 : 0;
	uint32_t cp = n == 1 ? s[0] : s[0] & (0x7f >> n);

	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*bad = 1;
			return 1;
		}
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (!n) {
		*bad = 1;
		return 1;
	}
	*bad = n == 1 ? (cp < 0x20 || cp == 0x7f) && !(cp && keep && strchr(keep, (int)cp))
		      : text_is_control_point(cp);
	return n;
}

/* Each character of @s that text_char() calls bad becomes one space, in place (the string may shrink). */
static char *text_clean(char *s, const char *keep)
{
	unsigned char *in = (unsigned char *)s, *out = in;
	int bad;

	while (*in) {
		size_t n = text_char(in, keep, &bad);

		if (bad) {
			*out++ = ' ';
		} else {
			memmove(out, in, n);
			out += n;
		}
		in += n;
	}
	*out = '\0';
	return s;
}

char *text_one_line(char *s)
{
	return text_clean(s, NULL);
}

char *text_quoted_lines(char *s)
{
	return text_clean(s, "\n\t");
}

char *text_one_line_dup(const char *s)
{
	char *d = strdup(s ? s : "");

	return d ? text_one_line(d) : NULL;
}
