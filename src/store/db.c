/* db: statement helpers, transactions and error mapping behind every store query. */
#include "store/db.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/log.h"

void store_set_error(struct store *st, const char *hint, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(st->errmsg, sizeof(st->errmsg), fmt, ap);
	va_end(ap);
	st->errhint = hint;
}

int store_sql_fail(struct store *st, int err, const char *what)
{
	log_err("store %s: %s: %s", st->path, what, st->errmsg);
	if (st->errhint)
		log_hint("%s", st->errhint);
	return err;
}

/* The arguments of @fmt as backend-neutral values; at most @max of them. */
static int collect_args(struct store_arg *arg, int max, const char *fmt, va_list ap)
{
	int n = 0;

	for (; fmt && fmt[n]; n++) {
		struct store_arg *a = &arg[n];

		if (n == max)
			return -E2BIG;
		memset(a, 0, sizeof(*a));
		switch (fmt[n]) {
		case 't':
			a->text = va_arg(ap, const char *);
			a->type = a->text ? 't' : '0';
			break;
		case 'i':
			a->i = va_arg(ap, int64_t);
			a->type = 'i';
			break;
		case 'n':
			a->i = va_arg(ap, int64_t);
			a->type = a->i < 0 ? '0' : 'i';
			break;
		case 'b':
			a->i = !!va_arg(ap, int);
			a->type = 'i';
			break;
		case 'd':
			a->d = va_arg(ap, double);
			a->type = 'd';
			break;
		default:
			return -EINVAL;
		}
		a->kind = fmt[n] == 't' || fmt[n] == 'd' ? fmt[n] : 'i';
	}
	return n;
}

#define MAX_ARGS 16

static int vbind(struct store_stmt *s, const char *fmt, va_list ap)
{
	struct store_arg arg[MAX_ARGS];
	int n = collect_args(arg, MAX_ARGS, fmt, ap), ret;

	if (n < 0) {
		log_err("store %s: a query binds a malformed argument list '%s' (a bug)", s->st->path, fmt);
		return n;
	}
	ret = s->st->be->bind(s, arg, n);
	return ret ? store_sql_fail(s->st, ret, "binding a query") : 0;
}

int store_vprepare(struct store *st, struct store_stmt **out, const char *sql, const char *fmt,
		   va_list ap)
{
	int ret = st->be->prepare(st, sql, out);

	if (ret) {
		*out = NULL;
		return store_sql_fail(st, ret, "preparing a query");
	}
	ret = vbind(*out, fmt, ap);
	if (ret) {
		store_finalize(*out);
		*out = NULL;
	}
	return ret;
}

int store_prepare(struct store *st, struct store_stmt **out, const char *sql, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = store_vprepare(st, out, sql, fmt, ap);
	va_end(ap);
	return ret;
}

int store_rebind(struct store_stmt *s, const char *fmt, ...)
{
	va_list ap;
	int ret;

	store_reset(s);
	va_start(ap, fmt);
	ret = vbind(s, fmt, ap);
	va_end(ap);
	return ret;
}

int store_bind_array(struct store_stmt *s, const struct store_arg *arg, int n)
{
	int ret;

	store_reset(s);
	ret = s->st->be->bind(s, arg, n);
	return ret ? store_sql_fail(s->st, ret, "binding a query") : 0;
}

int store_step(struct store_stmt *s)
{
	return s->st->be->step(s);
}

void store_reset(struct store_stmt *s)
{
	s->st->be->reset(s);
}

void store_finalize(struct store_stmt *s)
{
	if (s)
		s->st->be->finalize(s);
}

int store_col_count(struct store_stmt *s)
{
	return s->st->be->col_count(s);
}

const char *store_col_name(struct store_stmt *s, int i)
{
	return s->st->be->col_name(s, i);
}

enum store_coltype store_col_type(struct store_stmt *s, int i)
{
	return s->st->be->col_type(s, i);
}

const char *store_col_text(struct store_stmt *s, int i)
{
	const char *t = s->st->be->col_text(s, i);

	return t ? t : "";
}

int64_t store_col_int64(struct store_stmt *s, int i)
{
	return s->st->be->col_int64(s, i);
}

int store_col_int(struct store_stmt *s, int i)
{
	return (int)s->st->be->col_int64(s, i);
}

double store_col_double(struct store_stmt *s, int i)
{
	return s->st->be->col_double(s, i);
}

int64_t store_changes(struct store_stmt *s)
{
	return s->st->be->changes(s);
}

/*
 * Run @sql to completion; when @out is not NULL store column 0 of the first
 * row there, and return -ENOENT (not logged) when there is none.
 */
static int vrun(struct store *st, int64_t *out, const char *sql, const char *fmt, va_list ap)
{
	struct store_stmt *stmt;
	int ret, rc, rows = 0;

	ret = store_vprepare(st, &stmt, sql, fmt, ap);
	if (ret)
		return ret;
	while ((rc = store_step(stmt)) == STORE_ROW) {
		if (out && !rows++)
			*out = store_col_int64(stmt, 0);
	}
	if (rc < 0)
		ret = store_sql_fail(st, rc, strncmp(sql, "SELECT", 6) ? "writing" : "reading");
	else if (out && !rows)
		ret = -ENOENT;
	store_finalize(stmt);
	return ret;
}

int store_exec(struct store *st, const char *sql, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vrun(st, NULL, sql, fmt, ap);
	va_end(ap);
	return ret;
}

int store_int64(struct store *st, int64_t *out, const char *sql, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vrun(st, out, sql, fmt, ap);
	va_end(ap);
	return ret;
}

int store_get_or_create(struct store *st, int64_t *id, const char *insert, const char *select,
			 const char *fmt, ...)
{
	struct store_stmt *stmt = NULL;
	va_list ap;
	int ret, rc;

	ret = store_tx_begin(st);
	if (ret)
		return ret;
	va_start(ap, fmt);
	ret = store_vprepare(st, &stmt, insert, fmt, ap);
	va_end(ap);
	if (ret)
		goto out;
	rc = store_step(stmt);
	store_finalize(stmt);
	if (rc < 0) {
		ret = store_sql_fail(st, rc, "creating");
		goto out;
	}
	va_start(ap, fmt);
	ret = store_vprepare(st, &stmt, select, fmt, ap);
	va_end(ap);
	if (ret)
		goto out;
	rc = store_step(stmt);
	if (rc == STORE_ROW)
		*id = store_col_int64(stmt, 0);
	else
		ret = rc == STORE_DONE ? -EIO : store_sql_fail(st, rc, "looking up");
	store_finalize(stmt);
out:
	return store_tx_end(st, ret);
}

int store_tx_begin(struct store *st)
{
	int ret = 0;

	if (st->tx_depth == 0) {
		ret = store_exec(st, st->be->begin_sql, NULL);
		if (ret)
			return ret;
		st->tx_failed = 0;
	}
	st->tx_depth++;
	return 0;
}

int store_tx_end(struct store *st, int ret)
{
	if (ret)
		st->tx_failed = 1;
	if (--st->tx_depth > 0)
		return ret;
	if (st->tx_failed) {
		/* The error was logged where it happened; ROLLBACK itself rarely fails. */
		st->be->script(st, "ROLLBACK");
		return ret ? ret : -EIO;
	}
	return store_exec(st, "COMMIT", NULL);
}

void store_now(char buf[STORE_TIME_LEN + 1])
{
	struct timespec ts;
	struct tm tm;
	char frac[24];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(buf, 20, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(frac, sizeof(frac), "%06ld", ts.tv_nsec / 1000);
	snprintf(buf + 19, STORE_TIME_LEN + 1 - 19, ".%.6sZ", frac);
}

int store_uuid_valid(const char *s)
{
	static const char shape[] = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";

	if (strlen(s) != STORE_UUID_LEN)
		return 0;
	for (size_t i = 0; i < STORE_UUID_LEN; i++) {
		if (shape[i] == '-' ? s[i] != '-' : !isxdigit((unsigned char)s[i]))
			return 0;
	}
	return 1;
}

void store_uuid_lower(char *uuid)
{
	for (; *uuid; uuid++)
		*uuid = (char)tolower((unsigned char)*uuid);
}

char *store_json_canonical(const char *in, const char *what)
{
	json_error_t jerr;
	json_t *j = json_loads(in ? in : "{}", 0, &jerr);
	char *out = NULL;

	if (!j) {
		log_err("%s is not valid JSON: %s (line %d, column %d)", what, jerr.text, jerr.line,
			jerr.column);
		return NULL;
	}
	if (!json_is_object(j)) {
		log_err("%s must be a JSON object", what);
		goto out;
	}
	out = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
	if (!out)
		log_err("out of memory encoding %s", what);
out:
	json_decref(j);
	return out;
}

/* Length of the valid UTF-8 sequence at @s, or 0 when it is not one. */
static size_t utf8_seq(const unsigned char *s)
{
	unsigned cp, n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (unsigned i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

bool store_utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = utf8_seq(p);

		if (!n)
			return false;
		p += n;
	}
	return true;
}

int store_name_check(const char *s, const char *what)
{
	size_t n = s ? strlen(s) : 0, shown = 40;

	while (shown < n && ((unsigned char)s[shown] & 0xc0) == 0x80)
		shown--;	/* the start shown ends between characters */
	if (!n)
		log_err("%s must not be empty", what);
	else if (!store_utf8_valid(s))
		log_err("%s is not valid UTF-8", what);
	else if (n > STORE_NAME_MAX)
		log_err("%s is %zu bytes long ('%.*s...'): a name in the store is at most %d bytes", what, n,
			(int)shown, s, STORE_NAME_MAX);
	else
		return 0;
	return -EINVAL;
}

json_t *store_json_text(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char *copy, *q;
	json_t *j;

	if (store_utf8_valid(s))
		return json_string(s);
	copy = malloc(3 * strlen(s) + 1);
	if (!copy)
		return NULL;
	for (q = copy; *p;) {
		size_t n = utf8_seq(p);

		if (n) {
			memcpy(q, p, n);
			q += n;
			p += n;
		} else {
			memcpy(q, "\xef\xbf\xbd", 3);	/* U+FFFD REPLACEMENT CHARACTER */
			q += 3;
			p++;
		}
	}
	*q = '\0';
	j = json_string(copy);
	free(copy);
	return j;
}
