/* db: statement helpers, transactions and error mapping behind every store query. */
#include "store/db.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <time.h>

#include "util/log.h"

int store_sql_errno(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_OK:
	case SQLITE_ROW:
	case SQLITE_DONE:
		return 0;
	case SQLITE_FULL:
		return -ENOSPC;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return -EBUSY;
	case SQLITE_NOMEM:
		return -ENOMEM;
	case SQLITE_READONLY:
		return -EROFS;
	case SQLITE_CANTOPEN:
	case SQLITE_PERM:
	case SQLITE_AUTH:
		return -EACCES;
	case SQLITE_CONSTRAINT:
	case SQLITE_MISMATCH:
	case SQLITE_TOOBIG:
	case SQLITE_NOTADB:
		return -EINVAL;
	default:		/* IOERR, CORRUPT, PROTOCOL, ERROR... */
		return -EIO;
	}
}

int store_sql_fail(struct store *st, int rc, const char *what)
{
	log_err("store %s: %s: %s", st->path, what, sqlite3_errmsg(st->db));
	switch (rc & 0xff) {
	case SQLITE_FULL:
		log_hint("the disk holding the store is full; samples committed before this one are intact");
		break;
	case SQLITE_IOERR:
		log_hint("an I/O error hit the store; samples committed before this one are intact");
		break;
	case SQLITE_CORRUPT:
		log_hint("the store is damaged; 'PRAGMA integrity_check' (store_check) lists what");
		break;
	case SQLITE_BUSY:
		log_hint("another clearpath held the store locked for longer than the busy timeout");
		break;
	}
	return store_sql_errno(rc);
}

/*
 * Bind by @fmt.  Arguments past the statement's last parameter are consumed
 * and ignored, so an INSERT and its look-up SELECT can share one list.
 */
static int bind_args(sqlite3_stmt *stmt, const char *fmt, va_list ap)
{
	int rc = SQLITE_OK, params = sqlite3_bind_parameter_count(stmt);

	for (int i = 1; fmt && fmt[i - 1] && rc == SQLITE_OK; i++) {
		switch (fmt[i - 1]) {
		case 't': {
			const char *s = va_arg(ap, const char *);

			if (i <= params)
				rc = s ? sqlite3_bind_text(stmt, i, s, -1, SQLITE_TRANSIENT)
				       : sqlite3_bind_null(stmt, i);
			break;
		}
		case 'i':
			rc = sqlite3_bind_int64(stmt, i, va_arg(ap, int64_t));
			break;
		case 'n': {
			int64_t v = va_arg(ap, int64_t);

			if (i <= params)
				rc = v < 0 ? sqlite3_bind_null(stmt, i) : sqlite3_bind_int64(stmt, i, v);
			break;
		}
		case 'b':
			rc = sqlite3_bind_int(stmt, i, !!va_arg(ap, int));
			break;
		case 'd':
			rc = sqlite3_bind_double(stmt, i, va_arg(ap, double));
			break;
		default:
			rc = SQLITE_MISUSE;
		}
	}
	return rc;
}

int store_vprepare(struct store *st, sqlite3_stmt **out, const char *sql, const char *fmt,
		   va_list ap)
{
	int rc = sqlite3_prepare_v2(st->db, sql, -1, out, NULL);

	if (rc != SQLITE_OK) {
		*out = NULL;
		return store_sql_fail(st, rc, "preparing a query");
	}
	rc = bind_args(*out, fmt, ap);
	if (rc != SQLITE_OK) {
		int ret = store_sql_fail(st, rc, "binding a query");

		sqlite3_finalize(*out);
		*out = NULL;
		return ret;
	}
	return 0;
}

int store_prepare(struct store *st, sqlite3_stmt **out, const char *sql, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = store_vprepare(st, out, sql, fmt, ap);
	va_end(ap);
	return ret;
}

/*
 * Run @sql to completion; when @out is not NULL store column 0 of the first
 * row there, and return -ENOENT (not logged) when there is none.
 */
static int vrun(struct store *st, int64_t *out, const char *sql, const char *fmt, va_list ap)
{
	sqlite3_stmt *stmt;
	int ret, rc, rows = 0;

	ret = store_vprepare(st, &stmt, sql, fmt, ap);
	if (ret)
		return ret;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (out && !rows++)
			*out = sqlite3_column_int64(stmt, 0);
	}
	if (rc != SQLITE_DONE)
		ret = store_sql_fail(st, rc, sqlite3_stmt_readonly(stmt) ? "reading" : "writing");
	else if (out && !rows)
		ret = -ENOENT;
	sqlite3_finalize(stmt);
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
	sqlite3_stmt *stmt = NULL;
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
	rc = sqlite3_step(stmt);
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE) {
		ret = store_sql_fail(st, rc, "creating");
		goto out;
	}
	va_start(ap, fmt);
	ret = store_vprepare(st, &stmt, select, fmt, ap);
	va_end(ap);
	if (ret)
		goto out;
	rc = sqlite3_step(stmt);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(stmt, 0);
	else
		ret = rc == SQLITE_DONE ? -EIO : store_sql_fail(st, rc, "looking up");
	sqlite3_finalize(stmt);
out:
	return store_tx_end(st, ret);
}

int store_tx_begin(struct store *st)
{
	int ret = 0;

	if (st->tx_depth == 0) {
		ret = store_exec(st, "BEGIN IMMEDIATE", NULL);
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
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
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
