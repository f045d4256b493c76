/* csv: RFC 4180 reading and writing, strict enough that a malformed file names its line and column. */
#include "store/csv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* A growable byte buffer for the field being read. */
struct fieldbuf {
	char *s;
	size_t len;
	size_t cap;
};

static int fieldbuf_put(struct fieldbuf *b, char c)
{
	if (b->len + 1 >= b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 64;
		char *s = realloc(b->s, cap);

		if (!s)
			return -ENOMEM;
		b->s = s;
		b->cap = cap;
	}
	b->s[b->len++] = c;
	return 0;
}

void csv_reader_init(struct csv_reader *r, FILE *f)
{
	r->f = f;
	r->line = 1;
}

void csv_record_free(struct csv_record *rec)
{
	for (size_t i = 0; i < rec->n; i++)
		free(rec->field[i]);
	free(rec->field);
	memset(rec, 0, sizeof(*rec));
}

static void record_clear(struct csv_record *rec)
{
	for (size_t i = 0; i < rec->n; i++)
		free(rec->field[i]);
	rec->n = 0;
}

/* Move the finished field into @rec; the buffer starts over empty. */
static int record_push(struct csv_record *rec, struct fieldbuf *b)
{
	char *s;

	if (rec->n == rec->cap) {
		size_t cap = rec->cap ? 2 * rec->cap : 16;
		char **field = realloc(rec->field, cap * sizeof(*field));

		if (!field)
			return -ENOMEM;
		rec->field = field;
		rec->cap = cap;
	}
	s = malloc(b->len + 1);
	if (!s)
		return -ENOMEM;
	/* An empty field may have no buffer at all yet: memcpy from NULL is undefined even for 0 bytes. */
	if (b->len)
		memcpy(s, b->s, b->len);
	s[b->len] = '\0';
	rec->field[rec->n++] = s;
	b->len = 0;
	return 0;
}

static int malformed(struct csv_error *err, long line, long column, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int malformed(struct csv_error *err, long line, long column, const char *fmt, ...)
{
	va_list ap;

	err->line = line;
	err->column = column;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* A NUL byte would silently end the field's C string: a text file has none. */
static int nul_byte(const struct csv_reader *r, struct csv_error *err, long column)
{
	return malformed(err, r->line, column, "a NUL byte inside a field (not a text file)");
}

/*
 * getc that counts lines, so errors can say where they are.  Unlocked: a
 * reader is one thread's, and taking the stream's lock per character showed
 * in import's profile.
 */
static int next_char(struct csv_reader *r)
{
	int c = getc_unlocked(r->f);

	if (c == '\n')
		r->line++;
	return c;
}

/*
 * Read a quoted field whose opening quote was just consumed.  Returns the
 * character that follows the closing quote (',' '\n' '\r' or EOF) or a
 * negative errno.
 */
static int read_quoted(struct csv_reader *r, struct fieldbuf *b, long line, long column,
		       struct csv_error *err)
{
	for (;;) {
		int c = next_char(r), ret;

		if (c == EOF)
			return malformed(err, line, column, "unterminated quoted field");
		if (c == '\0')
			return nul_byte(r, err, column);
		if (c == '"') {
			c = next_char(r);
			if (c != '"') {
				if (c == ',' || c == '\n' || c == '\r' || c == EOF)
					return c;
				return malformed(err, r->line, column,
						 "unexpected '%c' after the closing quote", c);
			}
		}
		ret = fieldbuf_put(b, (char)c);
		if (ret)
			return ret;
	}
}

/* Read an unquoted field up to its delimiter; returns the delimiter or a negative errno. */
static int read_plain(struct csv_reader *r, struct fieldbuf *b, int c, long column,
		      struct csv_error *err)
{
	while (c != ',' && c != '\n' && c != '\r' && c != EOF) {
		int ret;

		if (c == '"')
			return malformed(err, r->line, column,
					 "quote inside an unquoted field (quote the whole field)");
		if (c == '\0')
			return nul_byte(r, err, column);
		ret = fieldbuf_put(b, (char)c);
		if (ret)
			return ret;
		c = next_char(r);
	}
	return c;
}

int csv_read_record(struct csv_reader *r, struct csv_record *rec, struct csv_error *err)
{
	struct fieldbuf b = { 0 };
	int c, ret;

	record_clear(rec);
	rec->line = r->line;
	c = next_char(r);
	if (c == EOF) {
		ret = ferror(r->f) ? -EIO : 0;
		goto out;
	}
	for (;;) {
		long column = (long)rec->n + 1;

		if (c == '"')
			c = read_quoted(r, &b, r->line, column, err);
		else
			c = read_plain(r, &b, c, column, err);
		if (c < EOF || (c == EOF && ferror(r->f))) {
			ret = c < EOF ? c : -EIO;
			goto out;
		}
		ret = record_push(rec, &b);
		if (ret)
			goto out;
		if (c == '\r') {
			c = next_char(r);
			if (c != '\n') {
				ret = malformed(err, r->line, column, "carriage return not followed by a line feed");
				goto out;
			}
		}
		if (c == '\n' || c == EOF)
			break;
		c = next_char(r);	/* the character after the comma */
	}
	ret = 1;
out:
	free(b.s);
	return ret;
}

static bool needs_quotes(const char *s)
{
	return strpbrk(s, ",\"\r\n") != NULL;
}

int csv_write_record(FILE *f, const char *const *field, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *s = field[i] ? field[i] : "";

		if (i)
			putc(',', f);
		if (!needs_quotes(s)) {
			fputs(s, f);
			continue;
		}
		putc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				putc('"', f);
			putc(*s, f);
		}
		putc('"', f);
	}
	putc('\n', f);
	return ferror(f) ? -EIO : 0;
}
