/* interchange: long-form CSV/JSON export, all-or-nothing CSV import, and merging stores. */
#include "store/db.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/csv.h"
#include "store/xchg.h"
#include "util/log.h"

enum col {
	COL_SUT, COL_SWPROFILE, COL_SESSION, COL_BENCHMARK, COL_RESULTCLASS, COL_UNIT,
	COL_HIGHER, COL_ITERATION, COL_WARMUP, COL_VALUE, COL_STARTED, COL_TIME, NCOLS
};

/* Must spell STORE_EXPORT_COLUMNS (a unit test holds them together). */
static const char *const col_name[NCOLS] = {
	"sut", "swprofile", "session", "benchmark", "resultclass", "unit", "higher_is_better",
	"iteration", "warmup", "value", "session_started", "sample_time",
};

/* Text of one exported row; numbers are formatted into the buffers, the benchmark allocated whole. */
struct row_text {
	const char *field[NCOLS];
	char *benchmark;
	char iteration[16];
	char value[32];
};

/* Fill @t from @row: 0, or -ENOMEM (row_text_free() is safe either way). */
static int row_format(const struct store_row *row, struct row_text *t)
{
	size_t suite = strlen(row->ident.suite), params = strlen(row->ident.display);

	/* "suite params", split again at the first space on import; never cut, whatever its length */
	t->benchmark = malloc(suite + params + 2);
	if (!t->benchmark)
		return -ENOMEM;
	sprintf(t->benchmark, "%s%s%s", row->ident.suite, params ? " " : "", row->ident.display);
	snprintf(t->iteration, sizeof(t->iteration), "%d", row->iteration);
	snprintf(t->value, sizeof(t->value), "%.17g", row->value);
	t->field[COL_SUT] = row->sut;
	t->field[COL_SWPROFILE] = row->swprofile;
	t->field[COL_SESSION] = row->session;
	t->field[COL_BENCHMARK] = t->benchmark;
	t->field[COL_RESULTCLASS] = row->ident.name;
	t->field[COL_UNIT] = row->unit;
	t->field[COL_HIGHER] = row->higher_is_better ? "1" : "0";
	t->field[COL_ITERATION] = t->iteration;
	t->field[COL_WARMUP] = row->warmup ? "1" : "0";
	t->field[COL_VALUE] = t->value;
	t->field[COL_STARTED] = row->session_started;
	t->field[COL_TIME] = row->sample_time;
	return 0;
}

static void row_text_free(struct row_text *t)
{
	free(t->benchmark);
}

struct export_state {
	FILE *out;
	enum store_format fmt;
	long rows;
};

static int export_csv_row(const struct store_row *row, void *arg)
{
	struct export_state *x = arg;
	struct row_text t;
	int ret = row_format(row, &t);

	if (!ret)
		ret = csv_write_record(x->out, t.field, NCOLS);
	row_text_free(&t);
	return ret;
}

/* One JSON object per line; keys in column order; flags as booleans, numbers as numbers. */
static int export_json_row(const struct store_row *row, void *arg)
{
	struct export_state *x = arg;
	struct row_text t;
	json_t *obj = json_object();
	char *text = NULL;
	int ret = -ENOMEM;

	if (!obj || row_format(row, &t)) {
		json_decref(obj);
		return -ENOMEM;
	}
	for (int i = 0; i < NCOLS; i++) {
		json_t *v;

		if (i == COL_HIGHER || i == COL_WARMUP)
			v = json_boolean(t.field[i][0] == '1');
		else if (i == COL_ITERATION)
			v = json_integer(row->iteration);
		else if (i == COL_VALUE)
			v = json_real(row->value);
		else
			v = store_json_text(t.field[i]);
		if (json_object_set_new(obj, col_name[i], v))
			goto out;
	}
	text = json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	if (!text)
		goto out;
	fprintf(x->out, "%s%s", x->rows++ ? ",\n" : "", text);
	ret = ferror(x->out) ? -EIO : 0;
out:
	free(text);
	row_text_free(&t);
	json_decref(obj);
	return ret;
}

int store_export(struct store *st, FILE *out, enum store_format fmt)
{
	struct store_filter all = { .include_warmup = true, .include_retaken = true };
	struct export_state x = { .out = out, .fmt = fmt };
	int ret;

	if (fmt == STORE_CSV) {
		ret = csv_write_record(out, col_name, NCOLS);
		if (!ret)
			ret = store_query(st, &all, export_csv_row, &x);
	} else {
		fputs("[\n", out);
		ret = store_query(st, &all, export_json_row, &x);
		fputs(x.rows ? "\n]\n" : "]\n", out);
	}
	return store_xchg_export_end(st, out, ret);
}

/*
 * The ids of every sut, swprofile and result class seen (key -> id: they are
 * few, and a CI's sessions alternate kernels line by line), and of the
 * previous line's session with the fields it was found for: an export's
 * lines come grouped by session, so most lines need no lookup and import
 * stays near SQLite's bulk speed, in memory that does not grow with sessions.
 */
struct import_cache {
	json_t *ids[3];		/* by slot below CACHE_SESSION; NULL: nothing cached */
	char *key;		/* the session's; NULL: nothing cached */
	int64_t id;
};

enum { CACHE_SUT, CACHE_SWPROFILE, CACHE_RCLASS, CACHE_SESSION };

/* Where the importer is, for messages that name line and column. */
struct import_ctx {
	struct store *st;
	const char *name;
	const struct csv_record *rec;
	struct store_xchg_bench bench;	/* of the benchmark column last */
	struct import_cache cache;
	struct store_batch *batch;	/* samples gathered, written a batch at a time */
	struct store_stmt *insert;	/* the sample insert, prepared once, for a refused batch row by row */
	struct store_stmt *session_find, *session_insert;	/* prepared once too: a CI file has 100k sessions */
};

static int bad_line(const struct import_ctx *c, long line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Log what is wrong at @line, column @col, and return -EINVAL. */
static int bad_line(const struct import_ctx *c, long line, int col, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_err("%s: line %ld, column %d (%s): %s", c->name, line, col + 1, col_name[col], msg);
	return -EINVAL;
}

/* The same for the line read last. */
#define bad_field(c, col, ...) bad_line((c), (c)->rec->line, (col), __VA_ARGS__)

static int parse_flag(const struct import_ctx *c, int col, bool *out)
{
	const char *s = c->rec->field[col];

	if (strcmp(s, "0") && strcmp(s, "1"))
		return bad_field(c, col, "'%s' is not 0 or 1", s);
	*out = s[0] == '1';
	return 0;
}

/* The parsed, validated content of one data line. */
struct import_row {
	const char *field[NCOLS];
	bool higher, warmup;
	int iteration;
	double value;
};

bool store_xchg_decimal(const char *s)
{
	size_t digits;

	s += *s == '-';
	digits = strspn(s, "0123456789");
	s += digits;
	if (*s == '.') {
		size_t frac = strspn(s + 1, "0123456789");

		digits += frac;
		s += 1 + frac;
	}
	if (!digits)
		return false;
	if (*s == 'e' || *s == 'E') {
		s++;
		s += *s == '-' || *s == '+';
		if (!strspn(s, "0123456789"))
			return false;
		s += strspn(s, "0123456789");
	}
	return !*s;
}

bool store_xchg_iteration(const char *s, int *out)
{
	char *end;
	long it;

	errno = 0;
	it = strtol(s, &end, 10);
	if (strspn(s, "0123456789") != strlen(s) || errno || *end || it > 1000000000)
		return false;
	*out = (int)it;
	return true;
}

bool store_xchg_value(const char *s, double *out)
{
	char *end;

	/*
	 * A decimal number, as export writes it.  Underflow (ERANGE towards 0)
	 * is fine: export writes subnormals like 1e-310, and they must come back.
	 */
	errno = 0;
	*out = strtod(s, &end);
	/* -0 is 0, as store_sample_add() stores it */
	if (*out == 0)
		*out = 0;
	return store_xchg_decimal(s) && !*end && isfinite(*out) && !(errno == ERANGE && fabs(*out) > 1);
}

static int days_in_month(int year, int mon)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	bool leap = (year % 4 == 0 && year % 100) || year % 400 == 0;

	return mon == 2 && leap ? 29 : days[mon - 1];
}

/*
 * A time clearpath could have written: a real calendar day of years 1-9999
 * (the store's times sort as text, so four digits), a second 00-59 (the
 * clock it reads has no leap second: 23:59:60 would sort before the next
 * day's 00:00:00 yet mean after it).
 */
bool store_xchg_timestamp(const char *s)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:dd";
	int year, mon, day, hour, min, sec;

	for (size_t i = 0; i < sizeof(shape) - 1; i++)
		if (shape[i] == 'd' ? s[i] < '0' || s[i] > '9' : s[i] != shape[i])
			return false;
	if (sscanf(s, "%4d-%2d-%2d", &year, &mon, &day) != 3 ||
	    sscanf(s + 11, "%2d:%2d:%2d", &hour, &min, &sec) != 3 || year < 1 || mon < 1 || mon > 12 ||
	    day < 1 || day > days_in_month(year, mon) || hour > 23 || min > 59 || sec > 59)
		return false;
	s += sizeof(shape) - 1;
	if (*s == '.' && strspn(s + 1, "0123456789"))
		s += 1 + strspn(s + 1, "0123456789");
	return !strcmp(s, "Z");
}

int store_xchg_time_cmp(const char *a, const char *b)
{
	static const size_t whole = sizeof("dddd-dd-ddTdd:dd:dd") - 1;
	int c = strncmp(a, b, whole);

	/* then the fractions digit by digit, a missing digit a 0: ".5Z" is after "Z", ".50Z" equal to ".5Z" */
	a += whole + (a[whole] == '.');
	b += whole + (b[whole] == '.');
	for (; !c && (*a != 'Z' || *b != 'Z'); a += *a != 'Z', b += *b != 'Z')
		c = (*a == 'Z' ? '0' : *a) - (*b == 'Z' ? '0' : *b);
	return c;
}

bool store_xchg_name_too_long(const char *s, bool bench)
{
	size_t suite = bench ? strcspn(s, " ") : strlen(s);

	return suite > STORE_NAME_MAX || (s[suite] && strlen(s + suite + 1) > STORE_NAME_MAX);
}

static int parse_row(const struct import_ctx *c, struct import_row *r)
{
	int ret;

	if (c->rec->n == 1 && !*c->rec->field[0]) {
		log_err("%s: line %ld is blank", c->name, c->rec->line);
		return -EINVAL;
	}
	if (c->rec->n != NCOLS)
		return bad_field(c, c->rec->n < NCOLS ? (int)c->rec->n : NCOLS - 1,
				 "expected %d columns, found %zu", NCOLS, c->rec->n);
	for (int i = 0; i < NCOLS; i++) {
		r->field[i] = c->rec->field[i];
		if (!*r->field[i])
			return bad_field(c, i, "empty");
		if (!store_utf8_valid(r->field[i]))
			return bad_field(c, i, "not valid UTF-8");
		if (i <= COL_UNIT && i != COL_SESSION && store_xchg_name_too_long(r->field[i], i == COL_BENCHMARK))
			return bad_field(c, i, "%zu bytes long%s: a name in the store is at most %d bytes",
					 strlen(r->field[i]), i == COL_BENCHMARK ? " (its suite or parameters too long)" : "",
					 STORE_NAME_MAX);
	}
	if (!store_uuid_valid(r->field[COL_SESSION]))
		return bad_field(c, COL_SESSION, "'%s' is not a UUID", r->field[COL_SESSION]);
	store_uuid_lower(c->rec->field[COL_SESSION]);	/* r->field[] points to it */
	ret = parse_flag(c, COL_HIGHER, &r->higher);
	if (!ret)
		ret = parse_flag(c, COL_WARMUP, &r->warmup);
	if (ret)
		return ret;
	if (!store_xchg_iteration(r->field[COL_ITERATION], &r->iteration))
		return bad_field(c, COL_ITERATION, "'%s' is not an iteration number",
				 r->field[COL_ITERATION]);
	if (!store_xchg_value(r->field[COL_VALUE], &r->value))
		return bad_field(c, COL_VALUE, "'%s' is not a finite number", r->field[COL_VALUE]);
	for (int i = COL_STARTED; i <= COL_TIME; i++)
		if (!store_xchg_timestamp(r->field[i]))
			return bad_field(c, i, "'%s' is not a UTC time like 2026-08-22T08:00:00.000000Z",
					 r->field[i]);
	return 0;
}

/*
 * The session statement *@slot (@sql, prepared on first use) with ?1..?4
 * bound to the line's session UUID, @sut, @swp and the line's start.
 */
static int import_session_stmt(struct import_ctx *c, struct store_stmt **slot, const char *sql,
			       const struct import_row *r, int64_t sut, int64_t swp)
{
	int ret = *slot ? 0 : store_prepare(c->st, slot, sql, NULL);

	return ret ? ret : store_rebind(*slot, "tiit", r->field[COL_SESSION], sut, swp, r->field[COL_STARTED]);
}

/*
 * The session of a data line: created when new (complete, since an export
 * is a finished record), in one round trip; one stored already is checked
 * against the line.
 */
static int import_session_find(struct import_ctx *c, const struct import_row *r, int64_t sut,
			       int64_t swp, int64_t *id)
{
	struct store *st = c->st;
	struct store_stmt *find, *insert;
	int ret = import_session_stmt(c, &c->session_insert, "INSERT INTO session (uuid, sut_id, swprofile_id,"
				      " started, complete) VALUES (?1, ?2, ?3, ?4, 1) ON CONFLICT (uuid) DO NOTHING"
				      " RETURNING id", r, sut, swp);
	int rc;

	if (ret)
		return ret;
	insert = c->session_insert;
	rc = store_step(insert);
	if (rc == STORE_ROW)
		*id = store_col_int64(insert, 0);
	store_reset(insert);
	if (rc != STORE_DONE)
		return rc == STORE_ROW ? 0 : store_sql_fail(st, rc, "adding a session");
	ret = import_session_stmt(c, &c->session_find, "SELECT id, sut_id = ?2 AND swprofile_id = ?3"
				  " AND started = ?4 FROM session WHERE uuid = ?1", r, sut, swp);
	if (ret)
		return ret;
	find = c->session_find;
	rc = store_step(find);
	if (rc == STORE_ROW) {
		*id = store_col_int64(find, 0);
		ret = store_col_int(find, 1) ? 0 :
			bad_field(c, COL_SESSION, "session %s has another sut, swprofile or start time in this store",
				  r->field[COL_SESSION]);
	} else {
		ret = rc == STORE_DONE ? -EIO : store_sql_fail(st, rc, "looking up a session");
	}
	store_reset(find);
	return ret;
}

/* The id cached under @slot for @key, else 0. */
static int64_t import_cached(const struct import_ctx *c, int slot, const char *key)
{
	if (slot == CACHE_SESSION)
		return c->cache.key && !strcmp(c->cache.key, key) ? c->cache.id : 0;
	return json_integer_value(json_object_get(c->cache.ids[slot], key));
}

/* Remember @id for @key under @slot; 0 or -ENOMEM. */
static int import_remember(struct import_ctx *c, int slot, const char *key, int64_t id)
{
	if (slot == CACHE_SESSION) {
		free(c->cache.key);
		c->cache.key = strdup(key);
		c->cache.id = id;
		return c->cache.key ? 0 : -ENOMEM;
	}
	if (!c->cache.ids[slot] && !(c->cache.ids[slot] = json_object()))
		return -ENOMEM;
	return json_object_set_new(c->cache.ids[slot], key, json_integer(id)) ? -ENOMEM : 0;
}

static void import_cache_free(struct import_ctx *c)
{
	for (int i = 0; i < CACHE_SESSION; i++)
		json_decref(c->cache.ids[i]);
	free(c->cache.key);
	store_batch_free(c->batch);
	store_finalize(c->insert);
	store_finalize(c->session_find);
	store_finalize(c->session_insert);
}

/*
 * The session of a line: its sut, swprofile and start go into the cache key,
 * so a line that disagrees with the session's first line is still checked.
 */
static int import_session(struct import_ctx *c, const struct import_row *r, int64_t sut, int64_t swp,
			  int64_t *id)
{
	char key[512];
	int ret;

	snprintf(key, sizeof(key), "%s %" PRId64 " %" PRId64 " %s", r->field[COL_SESSION], sut, swp,
		 r->field[COL_STARTED]);
	if ((*id = import_cached(c, CACHE_SESSION, key)))
		return 0;
	ret = import_session_find(c, r, sut, swp, id);
	return ret ? ret : import_remember(c, CACHE_SESSION, key, *id);
}

/* A sample of the file stored already with another value than its line (batch ops.differs()). */
static int import_differs(void *arg, const struct store_batch_row *row, bool found, double value)
{
	(void)found;	/* a SAME batch inserted the missing ones */
	return bad_line(arg, row->line, COL_VALUE, "this sample is already stored with value %.17g", value);
}

/* Insert the sample unless the very same one is stored already: a batch's row alone (ops.one()). */
static int import_sample_one(void *arg, const struct store_batch_row *row)
{
	struct import_ctx *c = arg;
	const struct store_xchg_sample *x = &row->x;
	struct store_stmt *stmt;
	bool inserted = false;
	int ret, rc;

	ret = store_xchg_sample_insert(c->st, &c->insert, x, &inserted);
	if (ret || inserted)
		return ret;
	/* Not inserted: it exists.  The same value is a re-import; another is a contradiction. */
	ret = store_prepare(c->st, &stmt, "SELECT value, value = ?5 FROM sample WHERE session_id = ?1 AND"
			    " resultclass_id = ?2 AND iteration = ?3 AND warmup = ?4", "iiibd", x->session,
			    x->rclass, (int64_t)x->iteration, (int)x->warmup, x->value);
	if (ret)
		return ret;
	rc = store_step(stmt);
	if (rc != STORE_ROW)
		ret = rc == STORE_DONE ? -EIO : store_sql_fail(c->st, rc, "importing a sample");
	else if (!store_col_int(stmt, 1))
		ret = import_differs(c, row, true, store_col_double(stmt, 0));
	store_finalize(stmt);
	return ret;
}

/* The sample of a line, into the batch. */
static int import_sample(struct import_ctx *c, const struct import_row *r, int64_t session,
			 int64_t rclass)
{
	const struct store_xchg_sample x = { session, rclass, r->iteration, r->warmup, r->value, r->field[COL_TIME] };

	return store_batch_add(c->batch, &x, c->rec->line, NULL);
}

/* The id of the line's sut (@slot CACHE_SUT) or swprofile, created without a fingerprint when new. */
static int import_named(struct import_ctx *c, int slot, const char *name, int64_t *id)
{
	static const char *const sql[][2] = {
		{ "INSERT INTO sut (name) VALUES (?1) ON CONFLICT DO NOTHING", "SELECT id FROM sut WHERE name = ?1" },
		{ "INSERT INTO swprofile (name) VALUES (?1) ON CONFLICT DO NOTHING",
		  "SELECT id FROM swprofile WHERE name = ?1" },
	};
	int ret;

	if ((*id = import_cached(c, slot, name)))
		return 0;
	/* Suts and swprofiles get no fingerprint from a CSV; existing ones keep theirs. */
	ret = store_get_or_create(c->st, id, sql[slot][0], sql[slot][1], "t", name);
	return ret ? ret : import_remember(c, slot, name, *id);
}

int store_xchg_bench_parse(struct store *st, struct store_xchg_bench *b, const char *text)
{
	int ret;

	if (b->text && !strcmp(b->text, text))
		return 0;
	free(b->text);
	free(b->suite);
	b->text = NULL;
	if (!b->ident && !(b->ident = malloc(sizeof(*b->ident))))
		return -ENOMEM;
	/* "suite params": the suite never contains a space */
	b->suite = strndup(text, strcspn(text, " "));
	if (!b->suite)
		return -ENOMEM;
	b->text = strdup(text);
	if (!b->text)
		return -ENOMEM;
	/* into the copy: the caller's text is gone by the next line */
	b->params = b->text + strlen(b->suite);
	b->params += *b->params == ' ';
	ret = store_identity(st, b->suite, b->params, b->ident);
	if (ret) {
		free(b->text);
		b->text = NULL;
	}
	return ret;
}

int store_xchg_bench_id(struct store *st, const struct store_xchg_bench *b, int64_t *id, char **display)
{
	/* the file's spelling, whole, is what its result classes are named after: keep it */
	return store_benchmark_text(st, b->suite, b->params, b->ident, id, display);
}

int store_xchg_rclass(struct store *st, const struct store_xchg_bench *b, const char *name, const char *unit,
		      bool higher, int64_t *id)
{
	char *display = NULL, rcname[2048];
	int64_t bench = 0;
	int ret = store_xchg_bench_id(st, b, &bench, &display);

	/* Another spelling of a benchmark stored first: its classes are named after that one. */
	if (!ret && strcmp(display, b->params)) {
		ident_class_rebase(b->suite, b->params, display, name, rcname, sizeof(rcname));
		name = rcname;
	}
	/* the file says what the class is in its name only: which metric it holds, read from it */
	if (!ret)
		ret = store_resultclass_get(st, bench, name, ident_class_metric(b->suite, display, name), unit, higher,
					    id);
	free(display);
	return ret;
}

void store_xchg_bench_free(struct store_xchg_bench *b)
{
	free(b->ident);
	free(b->text);
	free(b->suite);
}

int store_xchg_sample_insert(struct store *st, struct store_stmt **insert, const struct store_xchg_sample *x,
			     bool *inserted)
{
	int ret, rc;

	*inserted = false;
	if (!*insert) {
		ret = store_prepare(st, insert, "INSERT INTO sample (session_id, resultclass_id,"
				    " iteration, warmup, value, time) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
				    " ON CONFLICT (session_id, resultclass_id, warmup, iteration) DO NOTHING", NULL);
		if (ret)
			return ret;
	}
	ret = store_rebind(*insert, "iiiidt", x->session, x->rclass, (int64_t)x->iteration, (int64_t)x->warmup,
			   x->value, x->time);
	if (ret)
		return ret;
	/*
	 * Whether it went in is what the statement changed (triggers only check,
	 * never write, so they do not count): no RETURNING, which would build a
	 * temporary table for every sample.
	 */
	rc = store_step(*insert);
	ret = rc == STORE_DONE ? 0 : store_sql_fail(st, rc, "importing a sample");
	*inserted = !ret && store_changes(*insert);
	store_reset(*insert);
	return ret;
}

int store_xchg_export_end(struct store *st, FILE *out, int ret)
{
	if (!ret && (fflush(out) || ferror(out)))
		ret = -EIO;
	/* an -EIO of the store (a damaged page) was said by store_sql_fail() */
	if (ret == -EIO && ferror(out))
		log_err("writing the export of store %s failed", st->path);
	else if (ret == -ENOMEM)
		log_err("out of memory exporting store %s", st->path);
	return ret;
}

int store_xchg_rclass_cached(struct store *st, json_t **cache, struct store_xchg_bench *b, const char *bench,
			     const char *name, const char *unit, bool higher, int64_t *id)
{
	char key[4096];
	int ret;

	snprintf(key, sizeof(key), "%s\n%s\n%s\n%d", bench, name, unit, higher);
	if ((*id = json_integer_value(json_object_get(*cache, key))))
		return 0;
	ret = store_xchg_bench_parse(st, b, bench);
	if (!ret)
		ret = store_xchg_rclass(st, b, name, unit, higher, id);
	if (!ret && !*cache && !(*cache = json_object()))
		ret = -ENOMEM;
	if (!ret && json_object_set_new(*cache, key, json_integer(*id)))
		ret = -ENOMEM;
	return ret;
}

/* The result class of the line, remembered with the fields it was found for. */
static int import_rclass(struct import_ctx *c, const struct import_row *r, int64_t *rclass)
{
	return store_xchg_rclass_cached(c->st, &c->cache.ids[CACHE_RCLASS], &c->bench, r->field[COL_BENCHMARK],
					r->field[COL_RESULTCLASS], r->field[COL_UNIT], r->higher, rclass);
}

static int import_row(struct import_ctx *c)
{
	struct import_row r;
	int64_t sut = 0, swp = 0, rclass = 0, session = 0;
	int ret = parse_row(c, &r);

	if (!ret)
		ret = import_named(c, CACHE_SUT, r.field[COL_SUT], &sut);
	if (!ret)
		ret = import_named(c, CACHE_SWPROFILE, r.field[COL_SWPROFILE], &swp);
	if (!ret)
		ret = import_rclass(c, &r, &rclass);
	if (!ret)
		ret = import_session(c, &r, sut, swp, &session);
	if (!ret)
		ret = import_sample(c, &r, session, rclass);
	return ret;
}

static int check_header(const struct import_ctx *c)
{
	for (int i = 0; i < NCOLS; i++) {
		if ((size_t)i >= c->rec->n)
			return bad_field(c, i, "header lacks this column (expected %s)", STORE_EXPORT_COLUMNS);
		if (strcmp(c->rec->field[i], col_name[i]))
			return bad_field(c, i, "header says '%s', not '%s': this is no file 'clearpath export' wrote"
					 " (its header: %s)", c->rec->field[i], col_name[i], STORE_EXPORT_COLUMNS);
	}
	if (c->rec->n != NCOLS)
		return bad_field(c, NCOLS - 1, "header has %zu columns, expected %d", c->rec->n, NCOLS);
	return 0;
}

/* Whether @in starts (after blanks) with '[' or '{'; what it read is pushed back. */
static bool looks_like_json(FILE *in)
{
	int c = getc(in);

	if (c == EOF)
		return false;
	ungetc(c, in);
	return c == '[' || c == '{';
}

/* The rest of a sample-form file whose header @c->rec holds, in the transaction open. */
static int import_samples(struct import_ctx *c, struct csv_reader *r, struct csv_record *rec)
{
	struct csv_error err;
	int ret = check_header(c), got;

	while (!ret && (got = csv_read_record(r, rec, &err)) == 1)
		ret = import_row(c);
	if (!ret)
		ret = store_xchg_csv_end(c->name, got, &err);
	return ret ? ret : store_batch_flush(c->batch);
}

int store_xchg_csv_end(const char *name, int got, const struct csv_error *err)
{
	if (got == -EINVAL)
		log_err("%s: line %ld, column %ld: %s", name, err->line, err->column, err->msg);
	else if (got < 0)
		log_err("%s: reading failed: %s", name, strerror(-got));
	return got;
}

int store_import_csv(struct store *st, FILE *in, const char *name)
{
	struct csv_record rec = { 0 };
	struct import_ctx c = { .st = st, .name = name, .rec = &rec };
	struct csv_reader r;
	struct csv_error err;
	int ret, got;

	csv_reader_init(&r, in);
	if (looks_like_json(in)) {
		log_err("%s looks like JSON: import reads CSV (clearpath export form)", name);
		log_hint("export it with --format csv (the default)");
		return -EINVAL;
	}
	got = csv_read_record(&r, &rec, &err);
	if (got == 0) {
		log_err("%s: empty file (expected the header %s)", name, STORE_EXPORT_COLUMNS);
		ret = -EINVAL;
	} else if (got < 0) {
		ret = store_xchg_csv_end(name, got, &err);
	} else if (rec.n >= 1 && !strcmp(rec.field[0], "record")) {
		/* the whole-sessions form (export --whole) */
		ret = store_xchg_whole_csv(st, &r, &rec, name);
	} else {
		static const struct store_batch_ops ops = { import_sample_one, import_differs };

		c.batch = store_batch_new(st, STORE_BATCH_SAME, &ops, &c);
		ret = c.batch ? store_tx_begin(st) : -ENOMEM;
		if (!ret)
			ret = store_tx_end(st, import_samples(&c, &r, &rec));
	}
	import_cache_free(&c);
	if (ret)
		log_hint("nothing from %s was imported", name);
	csv_record_free(&rec);
	store_xchg_bench_free(&c.bench);
	return ret;
}

int store_merge(struct store *dst, const char *src_url, struct store_merged *out)
{
	struct store *src;
	int ret = -ENOTSUP;

	if (out)
		*out = (struct store_merged){ 0 };
	/* store_open() would create a missing store; merging from nothing is a mistake. */
	if (store_backend_sqlite.claims(src_url)) {
		char *path = store_url_path(src_url);

		if (!path)
			return -EINVAL;
		ret = access(path, F_OK) ? -errno : -ENOTSUP;
		if (ret != -ENOTSUP)
			log_err("cannot merge from %s: %s", path, strerror(-ret));
		free(path);
		if (ret != -ENOTSUP)
			return ret;
	}
	/* The backend's own way when it has one for this source (SQLite: ATTACH), else row by row. */
	if (dst->be->merge)
		ret = dst->be->merge(dst, src_url, out);
	if (ret == -ENOTSUP) {
		ret = store_open_readonly(src_url, dst->parse, &src);
		if (!ret)
			ret = store_merge_rows(dst, src, out);
		store_close(src);
	}
	if (ret)
		log_hint("nothing from %s was merged", src_url);
	return ret;
}
