/* postgresql: the PostgreSQL backend through libpq: connecting, SQL translation, statements, SQLSTATEs. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>

#include "store/db.h"
#include "store/postgresql/roles.h"
#include "store/url.h"
#include "util/log.h"
#include "util/shquote.h"

/* Key of the advisory lock that serialises creating and migrating the schema: "ClPa". */
#define PG_SCHEMA_LOCK 0x436c5061
/* Connect timeout in seconds unless the URL or $PGCONNECT_TIMEOUT says otherwise. */
#define PG_CONNECT_TIMEOUT "10"
/* Reconnecting after a lost connection: this many tries, waiting 0.5 s, 1 s, 2 s... before each. */
#define PG_RECONNECT_TRIES 5

/* Type OIDs from PostgreSQL's catalog (pg_type.dat): stable across releases. */
enum { OID_BOOL = 16, OID_INT8 = 20, OID_INT2 = 21, OID_INT4 = 23, OID_TEXT = 25, OID_FLOAT4 = 700,
       OID_FLOAT8 = 701, OID_NUMERIC = 1700 };

/*
 * Where a statement's execution is.  Rows stream in single-row mode, so
 * reading a large result (show, export, a merge's source) holds one row at a
 * time, not the whole result; while they do, the statement is the
 * connection's active one.  Anything else sent on the connection first
 * drains the active statement's remaining rows into one result it reads on
 * from (a nested query: rare, and never the large one).
 */
enum pg_state { PG_IDLE, PG_ACTIVE, PG_DRAINED, PG_DONE };

struct pg_stmt {
	struct store_stmt base;
	char *sql;		/* with $N parameters */
	int nparams;
	char **value;		/* nparams texts, NULL for NULL */
	Oid *type;		/* their types: text, bigint or double precision */
	enum pg_state state;
	PGresult *res;		/* the result the columns read (NULL before the first step) */
	int row;		/* the row of res they read */
	PGresult *rest;		/* PG_DRAINED: the rows that were still to come, then... */
	int rest_row;		/* ...the one read last of them (-1: none yet) */
	PGresult *end;		/* ...and how the statement ended (NULL: out of memory draining) */
	unsigned runs;		/* executions so far */
	char name[24];		/* a server-side prepared statement's, "" while there is none */
	unsigned generation;	/* of the connection it was prepared on */
};

struct pg_conn {
	PGconn *conn;
	bool readonly;
	struct pg_stmt *active;	/* whose rows are still arriving, or NULL */
	unsigned statements;	/* prepared so far, for names */
	unsigned generation;	/* bumped by each reconnect, which forgets prepared statements */
};

static PGconn *conn_of(struct store *st)
{
	return ((struct pg_conn *)st->conn)->conn;
}

static struct pg_stmt *pg_of(struct store_stmt *s)
{
	return (struct pg_stmt *)s;
}

/* libpq's message without its trailing newline, for one-line logs. */
static void set_message(struct store *st, const char *hint, const char *msg)
{
	char one[sizeof(st->errmsg)];
	size_t n = 0;

	/* libpq's lines ("...failed: Connection refused\n\tIs the server running...") joined */
	for (const char *p = msg; *p && n + 1 < sizeof(one); p++) {
		if (*p == '\n' || *p == '\t')
			p += strspn(p, "\n\t") - 1, one[n++] = ' ';
		else
			one[n++] = *p;
	}
	while (n && one[n - 1] == ' ')
		n--;
	one[n] = '\0';
	store_set_error(st, hint, "%s", one);
}

/* The negative errno for a failed result @res (NULL: the connection failed) on @st. */
static int pg_errno(struct store *st, const PGresult *res)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;

	if (PQstatus(conn_of(st)) == CONNECTION_BAD || !state)
		return -ENOTCONN;
	if (!strncmp(state, "08", 2) || !strncmp(state, "57P", 3))
		return -ENOTCONN;	/* connection exception, admin shutdown */
	if (!strncmp(state, "23", 2) || !strncmp(state, "22", 2))
		return -EINVAL;		/* integrity constraint, data exception */
	if (!strcmp(state, "53100"))
		return -ENOSPC;
	if (!strcmp(state, "53200"))
		return -ENOMEM;
	if (!strcmp(state, "42501") || !strncmp(state, "28", 2))
		return -EACCES;		/* insufficient privilege, authorization */
	if (!strcmp(state, "25006"))
		return -EROFS;		/* read-only transaction */
	if (!strncmp(state, "40", 2) || !strcmp(state, "55P03") || !strcmp(state, "57014"))
		return -EBUSY;		/* serialization, deadlock, lock timeout, cancelled */
	return -EIO;
}

/* Remember why @res (NULL: the connection) failed; the negative errno. */
static int pg_fail(struct store *st, const PGresult *res)
{
	int err = pg_errno(st, res);
	const char *hint = NULL;

	if (err == -ENOTCONN)
		hint = "the connection to the PostgreSQL server was lost; samples committed before this are intact";
	else if (err == -EACCES)
		hint = "the role lacks a privilege this needs; README.md (a shared store) lists them";
	else if (err == -ENOSPC)
		hint = "the disk holding the database is full; samples committed before this one are intact";
	set_message(st, hint, res ? PQresultErrorMessage(res) : PQerrorMessage(conn_of(st)));
	return err;
}

/*
 * The portable spelling's ?N parameters as PostgreSQL's $N, outside string
 * literals; *@n is the highest N.  NULL when out of memory.
 */
static char *translate_params(const char *sql, int *n)
{
	char *out = strdup(sql);
	bool quoted = false;

	*n = 0;
	if (!out)
		return NULL;
	for (char *p = out; *p; p++) {
		if (*p == '\'')
			quoted = !quoted;
		else if (!quoted && *p == '?' && p[1] >= '0' && p[1] <= '9') {
			int k = atoi(p + 1);

			*p = '$';
			*n = k > *n ? k : *n;
		}
	}
	return out;
}

/* Whether @c can be part of an identifier. */
static bool ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Whether @p (inside @start) starts the upper-case word @w, not inside a longer identifier. */
static bool word_at(const char *start, const char *p, const char *w)
{
	size_t n = strlen(w);

	return !strncmp(p, w, n) && !ident_char(p[n]) && !(p > start && ident_char(p[-1]));
}

/*
 * The schema's portable spelling (SQLite's types) in PostgreSQL's: 64-bit
 * integers, identity keys, doubles, and text that compares byte by byte as
 * SQLite's does, whatever the database's locale, so every ORDER BY (and so
 * every table and export) comes out the same from either backend.
 */
static char *translate_ddl(const char *sql)
{
	static const char *const from[] = { "INTEGER PRIMARY KEY", "INTEGER", "TEXT", "REAL" };
	static const char *const to[] = { "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", "BIGINT",
					  "TEXT COLLATE \"C\"", "DOUBLE PRECISION" };
	char *out = malloc(4 * strlen(sql) + 1), *q = out;
	bool quoted = false;

	if (!out)
		return NULL;
	for (const char *p = sql; *p;) {
		size_t i = 0;

		if (*p == '\'')
			quoted = !quoted;
		while (!quoted && i < sizeof(from) / sizeof(from[0]) && !word_at(sql, p, from[i]))
			i++;
		if (quoted || i == sizeof(from) / sizeof(from[0])) {
			*q++ = *p++;
			continue;
		}
		q += sprintf(q, "%s", to[i]);
		p += strlen(from[i]);
	}
	*q = '\0';
	return out;
}

/* Append the row of single-row result @r to @acc (made from @r's columns on first use).  false: out of memory. */
static bool rows_append(PGresult **acc, const PGresult *r)
{
	int n;

	if (!*acc && !(*acc = PQcopyResult(r, PG_COPYRES_ATTRS)))
		return false;
	n = PQntuples(*acc);
	for (int f = 0; f < PQnfields(r); f++) {
		bool null = PQgetisnull(r, 0, f);

		if (!PQsetvalue(*acc, n, f, null ? NULL : PQgetvalue(r, 0, f), null ? -1 : PQgetlength(r, 0, f)))
			return false;
	}
	return true;
}

/*
 * Before anything else goes to the server: the active statement's rows
 * still to come, read into one result it goes on reading from.
 */
static void pg_drain(struct pg_conn *pc)
{
	struct pg_stmt *s = pc->active;
	bool ok = true;
	PGresult *r;

	if (!s)
		return;
	pc->active = NULL;
	s->state = PG_DRAINED;
	s->rest_row = -1;
	while ((r = PQgetResult(pc->conn))) {
		if (PQresultStatus(r) == PGRES_SINGLE_TUPLE && ok) {
			ok = rows_append(&s->rest, r);
			PQclear(r);
		} else if (PQresultStatus(r) != PGRES_SINGLE_TUPLE && !s->end) {
			s->end = r;
		} else {
			PQclear(r);
		}
	}
	if (!ok) {
		/* the step after says so: no end, as out of memory */
		PQclear(s->end);
		s->end = NULL;
		PQclear(s->rest);
		s->rest = NULL;
	}
}

/* Read and drop what the server still sends for the active statement @s (a reset before its end). */
static void pg_discard_rest(struct pg_conn *pc, struct pg_stmt *s)
{
	PGresult *r;

	if (pc->active != s)
		return;
	pc->active = NULL;
	while ((r = PQgetResult(pc->conn)))
		PQclear(r);
}

static int pg_script(struct store *st, const char *sql)
{
	char *ddl = translate_ddl(sql);
	PGresult *res;
	int ret = 0;

	if (!ddl) {
		store_set_error(st, NULL, "out of memory");
		return -ENOMEM;
	}
	pg_drain(st->conn);
	res = PQexec(conn_of(st), ddl);
	if (PQresultStatus(res) != PGRES_COMMAND_OK && PQresultStatus(res) != PGRES_TUPLES_OK)
		ret = pg_fail(st, res);
	PQclear(res);
	free(ddl);
	return ret;
}

static int pg_prepare(struct store *st, const char *sql, struct store_stmt **out)
{
	struct pg_stmt *s = calloc(1, sizeof(*s));

	if (s)
		s->sql = translate_params(sql, &s->nparams);
	if (s && s->sql) {
		s->value = calloc((size_t)s->nparams + 1, sizeof(*s->value));
		s->type = calloc((size_t)s->nparams + 1, sizeof(*s->type));
	}
	if (!s || !s->sql || !s->value || !s->type) {
		if (s) {
			free(s->sql);
			free(s->value);
			free(s->type);
		}
		free(s);
		store_set_error(st, NULL, "out of memory");
		return -ENOMEM;
	}
	s->base.st = st;
	s->row = -1;
	*out = &s->base;
	return 0;
}

static void pg_reset(struct store_stmt *ss)
{
	struct pg_stmt *s = pg_of(ss);

	pg_discard_rest(ss->st->conn, s);
	if (s->res != s->rest)
		PQclear(s->res);
	PQclear(s->rest);
	PQclear(s->end);
	s->res = s->rest = s->end = NULL;
	s->row = -1;
	s->state = PG_IDLE;
}

static int pg_bind(struct store_stmt *ss, const struct store_arg *arg, int n)
{
	struct pg_stmt *s = pg_of(ss);

	for (int i = 0; i < s->nparams; i++) {
		char buf[40];
		const char *text = NULL;

		free(s->value[i]);
		s->value[i] = NULL;
		s->type[i] = 0;
		if (i >= n)
			continue;
		/* typed, so "?1 IS NULL OR name = ?1" needs no cast */
		s->type[i] = arg[i].kind == 't' ? OID_TEXT : arg[i].kind == 'd' ? OID_FLOAT8 : OID_INT8;
		switch (arg[i].type) {
		case 't':
			text = arg[i].text;
			break;
		case 'i':
			snprintf(buf, sizeof(buf), "%lld", (long long)arg[i].i);
			text = buf;
			break;
		case 'd':
			/* 17 significant digits: the double comes back bit for bit */
			snprintf(buf, sizeof(buf), "%.17g", arg[i].d);
			text = buf;
			break;
		}
		if (text && !(s->value[i] = strdup(text))) {
			store_set_error(ss->st, NULL, "out of memory");
			return -ENOMEM;
		}
	}
	return 0;
}

/*
 * Send @s, its rows to come one at a time: as it is the first time, prepared
 * on the server from the second on (a statement run again, as import's and
 * merge's inserts are, is parsed and planned once).  0, or the failure.
 */
static int pg_send(struct store *st, struct pg_stmt *s)
{
	struct pg_conn *pc = st->conn;
	int sent;

	pg_drain(pc);
	if (s->name[0] && s->generation != pc->generation)
		s->name[0] = '\0';
	if (!s->name[0] && s->runs++ > 0) {
		PGresult *res;

		snprintf(s->name, sizeof(s->name), "cp%u", ++pc->statements);
		res = PQprepare(pc->conn, s->name, s->sql, s->nparams, s->type);
		if (PQresultStatus(res) != PGRES_COMMAND_OK) {
			int ret = pg_fail(st, res);

			PQclear(res);
			s->name[0] = '\0';
			return ret;
		}
		PQclear(res);
		s->generation = pc->generation;
	}
	if (s->name[0])
		sent = PQsendQueryPrepared(pc->conn, s->name, s->nparams, (const char *const *)s->value, NULL, NULL, 0);
	else
		sent = PQsendQueryParams(pc->conn, s->sql, s->nparams, s->type, (const char *const *)s->value, NULL,
					 NULL, 0);
	if (!sent)
		return pg_fail(st, NULL);
	/* when it cannot (it always can right after a send), the rows come whole: still right */
	PQsetSingleRowMode(pc->conn);
	pc->active = s;
	s->state = PG_ACTIVE;
	return 0;
}

/* Make @r what the columns read, at @row. */
static void pg_show(struct pg_stmt *s, PGresult *r, int row)
{
	if (s->res != r && s->res != s->rest)
		PQclear(s->res);
	s->res = r;
	s->row = row;
}

/*
 * The statement's end, result @r (NULL: out of memory draining):
 * STORE_DONE, or a negative errno; a result with rows (single-row mode
 * refused) is read as drained rows.
 */
static int pg_end(struct store *st, struct pg_stmt *s, PGresult *r)
{
	ExecStatusType status = PQresultStatus(r);
	int ret;

	if (!r) {
		s->state = PG_DONE;
		store_set_error(st, NULL, "out of memory");
		return -ENOMEM;
	}
	if (status == PGRES_TUPLES_OK && PQntuples(r) > 0) {
		s->state = PG_DRAINED;
		s->rest = r;
		s->rest_row = -1;
		s->end = PQcopyResult(r, PG_COPYRES_ATTRS);
		return STORE_ROW + 1;	/* read on from rest */
	}
	s->state = PG_DONE;
	if (status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK) {
		/* kept: changes() reads its command tag */
		pg_show(s, r, -1);
		return STORE_DONE;
	}
	ret = pg_fail(st, r);
	PQclear(r);
	return ret;
}

/* The next row of a statement whose rest was drained, or its end. */
static int pg_step_drained(struct store *st, struct pg_stmt *s)
{
	PGresult *end;

	if (s->rest && s->rest_row + 1 < PQntuples(s->rest)) {
		pg_show(s, s->rest, ++s->rest_row);
		return STORE_ROW;
	}
	end = s->end;
	s->end = NULL;
	return pg_end(st, s, end);
}

/* The next row arriving for the active statement @s, or its end. */
static int pg_step_active(struct store *st, struct pg_stmt *s)
{
	struct pg_conn *pc = st->conn;
	PGresult *r = PQgetResult(pc->conn), *more;

	if (r && PQresultStatus(r) == PGRES_SINGLE_TUPLE) {
		pg_show(s, r, 0);
		return STORE_ROW;
	}
	/* the end: libpq answers NULL after it, and the connection is free again */
	pc->active = NULL;
	while ((more = PQgetResult(pc->conn)))
		PQclear(more);
	if (!r) {
		/* nothing at all: the connection went away */
		s->state = PG_DONE;
		return pg_fail(st, NULL);
	}
	return pg_end(st, s, r);
}

static int pg_step(struct store_stmt *ss)
{
	struct pg_stmt *s = pg_of(ss);
	int ret = 0;

	if (s->state == PG_IDLE)
		ret = pg_send(ss->st, s);
	if (ret) {
		s->state = PG_DONE;
		return ret;
	}
	for (;;) {
		switch (s->state) {
		case PG_ACTIVE:
			ret = pg_step_active(ss->st, s);
			break;
		case PG_DRAINED:
			ret = pg_step_drained(ss->st, s);
			break;
		default:
			return STORE_DONE;
		}
		if (ret != STORE_ROW + 1)
			return ret;
	}
}

static void pg_finalize(struct store_stmt *ss)
{
	struct pg_stmt *s = pg_of(ss);
	struct pg_conn *pc = ss->st->conn;

	pg_reset(ss);
	if (s->name[0] && s->generation == pc->generation && PQstatus(pc->conn) == CONNECTION_OK) {
		char sql[48];

		snprintf(sql, sizeof(sql), "DEALLOCATE %s", s->name);
		pg_drain(pc);
		PQclear(PQexec(pc->conn, sql));
	}
	for (int i = 0; i < s->nparams; i++)
		free(s->value[i]);
	free(s->value);
	free(s->type);
	free(s->sql);
	free(s);
}

static int pg_col_count(struct store_stmt *ss)
{
	return pg_of(ss)->res ? PQnfields(pg_of(ss)->res) : 0;
}

static const char *pg_col_name(struct store_stmt *ss, int i)
{
	return PQfname(pg_of(ss)->res, i);
}


static enum store_coltype pg_col_type(struct store_stmt *ss, int i)
{
	struct pg_stmt *s = pg_of(ss);

	if (PQgetisnull(s->res, s->row, i))
		return STORE_COL_NULL;
	switch (PQftype(s->res, i)) {
	case OID_BOOL:
	case OID_INT8:
	case OID_INT2:
	case OID_INT4:
		return STORE_COL_INT;
	case OID_FLOAT4:
	case OID_FLOAT8:
	case OID_NUMERIC:
		return STORE_COL_REAL;
	default:
		return STORE_COL_TEXT;
	}
}

static const char *pg_col_text(struct store_stmt *ss, int i)
{
	struct pg_stmt *s = pg_of(ss);

	return PQgetisnull(s->res, s->row, i) ? NULL : PQgetvalue(s->res, s->row, i);
}

static int64_t pg_col_int64(struct store_stmt *ss, int i)
{
	const char *t = pg_col_text(ss, i);

	if (!t)
		return 0;
	if (PQftype(pg_of(ss)->res, i) == OID_BOOL)
		return t[0] == 't';
	return strtoll(t, NULL, 10);
}

static double pg_col_double(struct store_stmt *ss, int i)
{
	const char *t = pg_col_text(ss, i);

	return t ? strtod(t, NULL) : 0;
}

static int64_t pg_changes(struct store_stmt *ss)
{
	struct pg_stmt *s = pg_of(ss);

	/* the command tag is the end's, read once the step said STORE_DONE */
	return s->res && s->state == PG_DONE ? strtoll(PQcmdTuples(s->res), NULL, 10) : 0;
}

static bool pg_claims(const char *url)
{
	return store_url_is_postgresql(url);
}

/*
 * The command that creates the database @conn names, at its host and port,
 * with its name as typed: what a missing database's hint says to run.
 */
static void hint_createdb(PGconn *conn)
{
	const char *host = PQhost(conn), *port = PQport(conn);
	char *qhost = sh_quote(host ? host : ""), *qport = sh_quote(port ? port : ""), *qdb = sh_quote(PQdb(conn) ?: "");

	if (qhost && qport && qdb)
		log_hint("create the database first, as the server's administrator: createdb -E UTF8%s%s%s%s %s "
			 "(README.md: A shared store for a lab)", host && *host ? " -h " : "", host && *host ? qhost : "",
			 port && *port ? " -p " : "", port && *port ? qport : "", qdb);
	free(qhost);
	free(qport);
	free(qdb);
}

/* A hint for a failed connection, from what libpq said. */
static const char *connect_hint(const char *msg)
{
	if (strstr(msg, "password") || strstr(msg, "authentication"))
		return "check the user and password (in the URL, ~/.pgpass or $PGPASSWORD) and pg_hba.conf";
	if (strstr(msg, "timeout"))
		return "no answer within the connect timeout (10 s unless connect_timeout=N in the URL says otherwise)";
	return "is the PostgreSQL server running and reachable at that host and port?";
}

/* Whether @s is a decimal integer libpq reads (blanks around it allowed), within @min..@max. */
static bool int_in_range(const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	return end != s && !errno && !end[strspn(end, " \t\n")] && v >= min && v <= max;
}

/* How many comma-separated items @s lists ("" lists one, empty). */
static int list_items(const char *s)
{
	int n = 1;

	for (; *s; s++)
		n += *s == ',';
	return n;
}

/*
 * What is wrong with a parsed connection string's values that libpq would
 * only notice while connecting, when the first host may already have been
 * tried: ports, the port list against the host list, the connect timeout,
 * the enumerated settings.  Written into @why; false when nothing is.
 */
static bool conninfo_bad(const PQconninfoOption *opts, char *why, size_t len)
{
	static const struct { const char *key, *values; } enums[] = {
		{ "sslmode", ",disable,allow,prefer,require,verify-ca,verify-full," },
		{ "gssencmode", ",disable,prefer,require," },
		{ "target_session_attrs", ",any,read-write,read-only,primary,standby,prefer-standby," },
	};
	const char *host = NULL, *hostaddr = NULL, *port = NULL;

	for (const PQconninfoOption *o = opts; o->keyword; o++) {
		char item[64];

		if (!o->val)
			continue;
		if (!strcmp(o->keyword, "host"))
			host = o->val;
		if (!strcmp(o->keyword, "hostaddr"))
			hostaddr = o->val;
		if (!strcmp(o->keyword, "connect_timeout") && *o->val && !int_in_range(o->val, INT_MIN, INT_MAX))
			return snprintf(why, len, "connect_timeout \"%s\" is not a number of seconds", o->val), true;
		for (size_t i = 0; i < sizeof(enums) / sizeof(enums[0]); i++) {
			snprintf(item, sizeof(item), ",%s,", o->val);
			if (!strcmp(o->keyword, enums[i].key) && *o->val && !strstr(enums[i].values, item))
				return snprintf(why, len, "%s \"%s\" is none of %.*s", o->keyword, o->val,
						(int)strlen(enums[i].values) - 2, enums[i].values + 1), true;
		}
		if (strcmp(o->keyword, "port"))
			continue;
		port = o->val;
		for (const char *p = port; ; p += strcspn(p, ",") + 1) {
			snprintf(item, sizeof(item), "%.*s", (int)strcspn(p, ","), p);
			if (*item && !int_in_range(item, 1, 65535))
				return snprintf(why, len, "port \"%s\" is not a TCP port (1 to 65535)", item), true;
			if (!p[strcspn(p, ",")])
				break;
		}
	}
	/* libpq counts the hosts of hostaddr when it is given */
	host = hostaddr ? hostaddr : host;
	if (host && port && list_items(port) > 1 && list_items(port) != list_items(host))
		return snprintf(why, len, "%d ports for %d hosts (one port, or one per host)", list_items(port),
				list_items(host)), true;
	return false;
}

/*
 * Check @url's syntax and values before any traffic: a malformed URL is the
 * user's slip (-EINVAL, exit 2) saying what is wrong and how to write it,
 * not a server that "is not running".  libpq quotes a URI it cannot parse:
 * that quote shows the URL as st->path does, without its password.
 */
static int pg_check_url(struct store *st, const char *url)
{
	char *err = NULL, why[512] = "", *at;
	PQconninfoOption *opts = PQconninfoParse(url, &err);
	bool bad = !opts || conninfo_bad(opts, why, sizeof(why));

	PQconninfoFree(opts);
	if (!bad)
		return 0;
	if (!opts && !err) {
		log_err("cannot read store URL %s: out of memory", st->path);
		return -ENOMEM;
	}
	if (err) {
		at = strstr(err, url);
		snprintf(why, sizeof(why), "%.*s%s%s", at ? (int)(at - err) : (int)strlen(err), err, at ? st->path : "",
			 at ? at + strlen(url) : "");
		PQfreemem(err);
		why[strcspn(why, "\n")] = '\0';
	}
	log_err("store URL %s is malformed: %s", st->path, why);
	log_hint("write postgresql://USER@HOST:PORT/DATABASE (PORT 1 to 65535, an IPv6 HOST in [ ]), or libpq's"
		 " keywords: host=HOST port=PORT dbname=DATABASE user=USER");
	return -EINVAL;
}

static int pg_open(struct store *st, const char *url, bool *readonly, bool *existing)
{
	const char *keys[] = { "connect_timeout", "fallback_application_name", "dbname", NULL };
	const char *vals[] = { PG_CONNECT_TIMEOUT, "clearpath", url, NULL };
	struct pg_conn *pc = calloc(1, sizeof(*pc));
	const char *env = getenv("PGCONNECT_TIMEOUT");
	int ret;

	(void)existing;
	st->path = store_url_display(url);
	if (!pc || !st->path) {
		free(pc);
		return -ENOMEM;
	}
	ret = pg_check_url(st, url);
	if (ret) {
		free(pc);
		return ret;
	}
	if (env && *env)
		vals[0] = env;
	st->conn = pc;
	pc->readonly = *readonly;
	/* connect_timeout comes before dbname: a connect_timeout in the URL wins over the default */
	pc->conn = PQconnectdbParams(keys, vals, 1);
	if (!pc->conn) {
		log_err("cannot connect to store %s: out of memory", st->path);
		return -ENOMEM;
	}
	if (PQstatus(pc->conn) != CONNECTION_OK) {
		set_message(st, NULL, PQerrorMessage(pc->conn));
		log_err("cannot connect to store %s: %s", st->path, st->errmsg);
		if (strstr(st->errmsg, "database") && strstr(st->errmsg, "does not exist"))
			hint_createdb(pc->conn);
		else
			log_hint("%s", connect_hint(st->errmsg));
		return strstr(st->errmsg, "password") ? -EACCES : -ECONNREFUSED;
	}
	if (PQsetClientEncoding(pc->conn, "UTF8")) {
		log_err("store %s: the server cannot talk UTF-8: %s", st->path, PQerrorMessage(pc->conn));
		return -EIO;
	}
	/* a reader never writes, whatever the role may do */
	if (*readonly)
		return pg_script(st, "SET default_transaction_read_only = on") ?
		       store_sql_fail(st, -EIO, "setting up a reading connection") : 0;
	return 0;
}

static void pg_close(struct store *st)
{
	struct pg_conn *pc = st->conn;

	PQfinish(pc->conn);
	free(pc);
}

/* A database belongs to its administrator: a store the command "created" is only closed. */
static void pg_discard(struct store *st)
{
	pg_close(st);
}

/*
 * The version in clearpath_schema; a database without it is empty (0) or
 * holds something else, which clearpath must not write beside.  Creating
 * and migrating take an advisory lock first, so concurrent first runs
 * create the schema once.
 */
static int pg_identify(struct store *st, int64_t *version)
{
	int64_t have = 0, tables = 0;
	int ret = 0;

	if (st->tx_depth > 0 && !((struct pg_conn *)st->conn)->readonly)
		ret = store_exec(st, "SELECT pg_advisory_xact_lock(?1)", "i", (int64_t)PG_SCHEMA_LOCK);
	if (!ret)
		ret = store_int64(st, &have, "SELECT count(*) FROM pg_catalog.pg_tables"
				  " WHERE schemaname = current_schema() AND tablename = 'clearpath_schema'", NULL);
	if (!ret && have)
		ret = store_int64(st, version, "SELECT version FROM clearpath_schema WHERE application = 'clearpath'",
				  NULL);
	if (!ret && (!have || *version == 0))
		ret = store_int64(st, &tables, "SELECT count(*) FROM pg_catalog.pg_tables"
				  " WHERE schemaname = current_schema() AND tablename <> 'clearpath_schema'", NULL);
	if (ret == -ENOENT) {
		log_err("store %s: clearpath_schema names no clearpath schema version", st->path);
		return -EINVAL;
	}
	if (!ret && have && *version == 0 && tables)
		return store_refuse_unversioned(st, tables);
	if (!ret && !have && tables) {
		log_err("database %s holds %lld tables of something else, not a clearpath store", st->path,
			(long long)tables);
		log_hint("give clearpath a database of its own: createdb -E UTF8 NAME (README.md: a shared store)");
		return -EMEDIUMTYPE;
	}
	if (!ret && !have)
		*version = 0;
	return ret;
}

static int pg_stamp(struct store *st, int version)
{
	int ret = pg_script(st, "CREATE TABLE IF NOT EXISTS clearpath_schema (application TEXT NOT NULL PRIMARY KEY,"
			    " version INTEGER NOT NULL)");

	if (!ret)
		ret = store_exec(st, "INSERT INTO clearpath_schema (application, version) VALUES ('clearpath', ?1)"
				 " ON CONFLICT (application) DO UPDATE SET version = excluded.version", "i",
				 (int64_t)version);
	else
		ret = store_sql_fail(st, ret, "stamping the schema version");
	return ret;
}

/* PostgreSQL checks its own pages (and checksums them when the cluster was made so): nothing to run. */
static int pg_check(struct store *st)
{
	(void)st;
	return 0;
}

static int pg_has_table(struct store *st, const char *name)
{
	int64_t n = 0;
	int ret = store_int64(st, &n, "SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema()"
			      " AND tablename = ?1", "t", name);

	return ret ? ret : n > 0;
}

static int pg_reconnect(struct store *st)
{
	struct pg_conn *pc = st->conn;
	struct timespec wait = { 0, 500000000 };

	for (int i = 0; i < PG_RECONNECT_TRIES; i++) {
		nanosleep(&wait, NULL);
		wait.tv_sec = wait.tv_sec * 2 + (wait.tv_nsec >= 500000000);
		wait.tv_nsec = wait.tv_nsec >= 500000000 ? 0 : wait.tv_nsec * 2;
		if (pc->active)
			pc->active->state = PG_DONE;
		pc->active = NULL;
		PQreset(pc->conn);
		if (PQstatus(pc->conn) == CONNECTION_OK && !PQsetClientEncoding(pc->conn, "UTF8")) {
			log_warn("store %s: connected again after a lost connection", st->path);
			pc->generation++;
			st->tx_depth = 0;
			return pc->readonly ? pg_script(st, "SET default_transaction_read_only = on") : 0;
		}
	}
	set_message(st, NULL, PQerrorMessage(pc->conn));
	log_err("store %s: the connection stays lost after %d tries over about %d s: %s", st->path,
		PG_RECONNECT_TRIES, (1 << PG_RECONNECT_TRIES) / 2, st->errmsg);
	return -ENOTCONN;
}

const struct store_backend store_backend_postgresql = {
	.name = "postgresql",
	.claims = pg_claims,
	.open = pg_open,
	.close = pg_close,
	.discard = pg_discard,
	.identify = pg_identify,
	.stamp = pg_stamp,
	.check = pg_check,
	.has_table = pg_has_table,
	.script = pg_script,
	.begin_sql = "BEGIN",
	.prepare = pg_prepare,
	.bind = pg_bind,
	.step = pg_step,
	.reset = pg_reset,
	.finalize = pg_finalize,
	.col_count = pg_col_count,
	.col_name = pg_col_name,
	.col_type = pg_col_type,
	.col_text = pg_col_text,
	.col_int64 = pg_col_int64,
	.col_double = pg_col_double,
	.changes = pg_changes,
	.reconnect = pg_reconnect,
	.lab_roles = store_pg_lab_roles,
};
