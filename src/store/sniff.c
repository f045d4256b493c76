/* sniff: which form an import file has, told from its first bytes, which the stream then gives back. */
#define _GNU_SOURCE	/* fopencookie */
#include "store/xchg.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

/* A first line longer than this is no JSON scalar worth naming: read on as CSV. */
#define SNIFF_MAX 65536

/* What was read to decide, read again first, then the rest of the stream. */
struct sniffed {
	char *buf;
	size_t len, pos;
	FILE *rest;
};

static ssize_t sniffed_read(void *cookie, char *out, size_t n)
{
	struct sniffed *s = cookie;
	size_t k;

	if (s->pos < s->len) {
		k = s->len - s->pos < n ? s->len - s->pos : n;
		memcpy(out, s->buf + s->pos, k);
		s->pos += k;
		return (ssize_t)k;
	}
	k = fread(out, 1, n, s->rest);
	return k == 0 && ferror(s->rest) ? -1 : (ssize_t)k;
}

/* The stream under it is its owner's to close. */
static int sniffed_close(void *cookie)
{
	struct sniffed *s = cookie;

	free(s->buf);
	free(s);
	return 0;
}

static int sniff_put(struct sniffed *s, int c)
{
	if (s->len % 256 == 0) {
		char *buf = realloc(s->buf, s->len + 256);

		if (!buf)
			return -ENOMEM;
		s->buf = buf;
	}
	s->buf[s->len++] = (char)c;
	return 0;
}

/*
 * Read @in's blanks, its first other line and the blanks after it into @s
 * (at most SNIFF_MAX bytes).  *@first is the first byte that is not blank
 * (EOF: none), *@line where its line starts in s->buf, *@more whether
 * anything but blanks follows that line.
 */
static int sniff_read(struct sniffed *s, FILE *in, int *first, size_t *line, bool *more)
{
	int c, ret = 0;

	*first = EOF;
	*more = false;
	while (!ret && s->len < SNIFF_MAX && (c = getc(in)) != EOF) {
		if (*first == EOF && !isspace(c)) {
			*first = c;
			*line = s->len;
		}
		ret = sniff_put(s, c);
		if (*first != EOF && c == '\n')
			break;
	}
	while (!ret && *first != EOF && s->len < SNIFF_MAX && (c = getc(in)) != EOF) {
		ret = sniff_put(s, c);
		if (!isspace(c)) {
			*more = true;
			break;
		}
	}
	if (!ret && s->len == SNIFF_MAX)
		*more = true;
	return ret ? ret : ferror(in) ? -EIO : 0;
}

/*
 * Refuse @text when it is one JSON value that is neither an array nor an
 * object (42, "x", true, null): import would read it as a CSV header.
 */
static int sniff_scalar(const char *name, const char *text)
{
	json_t *v = json_loads(text, JSON_DECODE_ANY, NULL);
	const char *kind = json_is_number(v) ? "number" : json_is_string(v) ? "string" : json_is_null(v) ? "null"
			   : "boolean";
	int n = (int)strcspn(text + strspn(text, " \t\r\n"), "\r\n");

	while (n > 0 && isspace((unsigned char)text[strspn(text, " \t\r\n") + (size_t)n - 1]))
		n--;

	if (!v || json_is_array(v) || json_is_object(v)) {
		json_decref(v);
		return 0;
	}
	json_decref(v);
	log_err("%s holds a single JSON %s (%.*s%s), not a clearpath export", name, kind, n > 40 ? 40 : n,
		text + strspn(text, " \t\r\n"), n > 40 ? "..." : "");
	log_hint("import reads what 'clearpath export' writes: CSV with the header %s, or a JSON array of"
		 " records (export --whole --format json)", STORE_EXPORT_COLUMNS);
	return -EINVAL;
}

int store_xchg_sniff(FILE *in, const char *name, FILE **out, bool *json)
{
	struct sniffed *s;
	size_t line = 0;
	bool more;
	int c = getc(in), ret;

	*out = in;
	*json = c == '[' || c == '{';
	if (c != EOF)
		ungetc(c, in);
	/* the export's own first bytes, a header or a JSON array: nothing more to read here */
	if (c == EOF || c == 's' || c == 'r' || *json)
		return 0;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->rest = in;
	ret = sniff_read(s, in, &c, &line, &more);
	if (!ret)
		ret = sniff_put(s, '\0');
	if (!ret && !more && c != EOF)
		ret = sniff_scalar(name, s->buf + line);
	if (!ret) {
		s->len--;	/* the terminator was for sniff_scalar() only */
		*json = c == '[' || c == '{';
		*out = fopencookie(s, "r", (cookie_io_functions_t){ .read = sniffed_read, .close = sniffed_close });
		if (*out)
			return 0;
		*out = in;
		ret = -ENOMEM;
	}
	if (ret == -EIO)
		log_err("%s: reading failed: %s", name, strerror(EIO));
	sniffed_close(s);
	return ret;
}
