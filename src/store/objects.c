/* objects: get-or-create of suts, swprofiles, benchmarks and result classes; sessions, samples, errors. */
#include "store/db.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "util/log.h"

/* A name the store takes: not empty, and UTF-8 (so listings, JSON and terminals can carry it). */
static int require(const char *value, const char *what)
{
	if (value && *value && store_utf8_valid(value))
		return 0;
	if (value && *value)
		log_err("%s is not valid UTF-8", what);
	else
		log_err("%s must not be empty", what);
	return -EINVAL;
}

int store_sut_get(struct store *st, const char *name, const char *fingerprint, int64_t *id)
{
	char *fp;
	int ret = store_name_check(name, "SUT class name");

	if (ret)
		return ret;
	fp = store_json_canonical(fingerprint, "SUT fingerprint");
	if (!fp)
		return -EINVAL;
	/* A class is described by its latest fingerprint, so upsert. */
	ret = store_get_or_create(st, id,
			    "INSERT INTO sut (name, fingerprint) VALUES (?1, ?2)"
			    " ON CONFLICT (name) DO UPDATE SET fingerprint = excluded.fingerprint"
			    " WHERE sut.fingerprint <> excluded.fingerprint",
			    "SELECT id FROM sut WHERE name = ?1", "tt", name, fp);
	free(fp);
	return ret;
}

/* Append printf output to @buf at *@used, never past @len. */
static void append(char *buf, size_t len, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void append(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*used >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	if (n > 0)
		*used += (size_t)n;
}

/* Compact JSON for one value, or "(absent)". */
static char *value_text(json_t *v)
{
	return v ? json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY) : strdup("(absent)");
}

static int diff_key(const char *key, json_t *a, json_t *b, char *buf, size_t len, size_t *used)
{
	char *ta, *tb;

	if (a && b && json_equal(a, b))
		return 0;
	ta = value_text(a);
	tb = value_text(b);
	append(buf, len, used, "%s%s: %s -> %s", *used ? "; " : "", key, ta ? ta : "?",
	       tb ? tb : "?");
	free(ta);
	free(tb);
	return 1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The keys of @obj, sorted, in a new array of *@n borrowed strings (NULL: out of memory). */
static const char **sorted_keys(json_t *obj, size_t *n)
{
	const char **names = malloc((json_object_size(obj) + 1) * sizeof(*names));
	const char *key;
	json_t *v;

	*n = 0;
	if (!names)
		return NULL;
	json_object_foreach(obj, key, v)
		names[(*n)++] = key;
	qsort(names, *n, sizeof(*names), cmp_str);
	return names;
}

int store_fingerprint_diff(const char *old, const char *new, char *buf, size_t len)
{
	json_t *a = json_loads(old, 0, NULL), *b = json_loads(new, 0, NULL);
	json_t *keys = json_object();
	const char **names = NULL;
	size_t used = 0, k;
	int n = 0;

	if (len)
		buf[0] = '\0';
	if (!json_is_object(a) || !json_is_object(b) || !keys) {
		n = -EINVAL;
		goto out;
	}
	/* The union of both key sets, in sorted order for a stable message. */
	json_object_update(keys, a);
	json_object_update(keys, b);
	names = sorted_keys(keys, &k);
	if (!names) {
		n = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < k; i++)
		n += diff_key(names[i], json_object_get(a, names[i]), json_object_get(b, names[i]),
			      buf, len, &used);
out:
	free(names);
	json_decref(a);
	json_decref(b);
	json_decref(keys);
	return n;
}

/* Read the stored fingerprint of swprofile @id into a new string. */
static int swprofile_fingerprint(struct store *st, int64_t id, char **out)
{
	struct store_stmt *stmt;
	int ret = store_prepare(st, &stmt, "SELECT fingerprint FROM swprofile WHERE id = ?1", "i", id);
	int rc;

	if (ret)
		return ret;
	rc = store_step(stmt);
	if (rc == STORE_ROW) {
		*out = strdup(store_col_text(stmt, 0));
		ret = *out ? 0 : -ENOMEM;
	} else {
		ret = rc == STORE_DONE ? -ENOENT : store_sql_fail(st, rc, "reading a swprofile");
	}
	store_finalize(stmt);
	return ret;
}

/*
 * Whether @old is a fingerprint of the form written before hugetlb pool
 * counts left it ("hugepages": {"2MB": 36}, counts that other processes
 * change while a kernel runs) that agrees with today's @fp on everything
 * else and on the page sizes offered, whose overcommit limits it did not
 * record.  Such a profile takes today's form rather than a conflict.
 */
static bool swprofile_legacy_match(const char *old, const char *fp)
{
	json_t *a = json_loads(old, 0, NULL), *b = json_loads(fp, 0, NULL);
	json_t *pools = json_object_get(a, "hugepages"), *sizes = json_object_get(b, "hugepage_overcommit");
	const char *size;
	json_t *v;
	bool match = json_is_object(pools) && json_is_object(sizes) && !json_object_get(a, "hugepage_overcommit") &&
		     json_object_size(pools) == json_object_size(sizes);

	json_object_foreach(pools, size, v)
		match = match && json_is_integer(v) && json_object_get(sizes, size);
	if (match) {
		json_object_del(a, "hugepages");
		json_object_del(b, "hugepage_overcommit");
		match = json_equal(a, b);
	}
	json_decref(a);
	json_decref(b);
	return match;
}

/*
 * What a swprofile is wherever it runs: its kernel.  The rest of a
 * fingerprint (the build string, cmdline with its console, THP, hugepage
 * limits, sysctls, libc, clearpath) belongs to the machine class that runs
 * it, and is checked per (swprofile, SUT) in swprofile_sut.
 */
static const char *const swprofile_keys[] = { "kernel_release" };

/* The first key of swprofile_keys[] that both @old and @fp name with different values, or NULL. */
static const char *swprofile_key_differs(const char *old, const char *fp)
{
	json_t *a = json_loads(old, 0, NULL), *b = json_loads(fp, 0, NULL);
	const char *differs = NULL;

	for (size_t i = 0; !differs && i < sizeof(swprofile_keys) / sizeof(swprofile_keys[0]); i++) {
		json_t *x = json_object_get(a, swprofile_keys[i]), *y = json_object_get(b, swprofile_keys[i]);

		if (x && y && !json_equal(x, y))
			differs = swprofile_keys[i];
	}
	json_decref(a);
	json_decref(b);
	return differs;
}

/*
 * The conflict of swprofile @name @where (" on this SUT class", or "" for
 * the swprofile itself; its stored fingerprint @old, this one @fp): -EEXIST,
 * or 0 with a warning when forced.
 */
static int fingerprint_conflict(const char *name, const char *where, const char *old, const char *fp, unsigned force)
{
	char diff[1024];

	store_fingerprint_diff(old, fp, diff, sizeof(diff));
	if (force & STORE_SW_FORCE) {
		if (!(force & STORE_SW_QUIET))
			log_warn("swprofile '%s'%s keeps its stored fingerprint, which differs from this system: %s",
				 name, where, diff);
		return 0;
	}
	log_err("swprofile '%s' already exists with a different fingerprint%s (stored -> now): %s", name, where, diff);
	return -EEXIST;
}

/* Decide what happens when swprofile @name already exists with fingerprint @old: only its kernel must agree. */
static int swprofile_reconcile(struct store *st, int64_t id, const char *name, const char *old,
			       const char *fp, unsigned force)
{
	char where[64];
	const char *key;

	if (!strcmp(old, fp))
		return 0;
	/* created by an import (nothing to contradict), or by an older clearpath that agrees */
	if (!strcmp(old, "{}") || swprofile_legacy_match(old, fp))
		return store_exec(st, "UPDATE swprofile SET fingerprint = ?1 WHERE id = ?2", "ti", fp, id);
	if (!(key = swprofile_key_differs(old, fp)))
		return 0;
	snprintf(where, sizeof(where), " (its %s, the same on every machine)", key);
	return fingerprint_conflict(name, where, old, fp, force);
}

int store_swprofile_agree(const char *name, const char *stored, const char *theirs)
{
	const char *key = swprofile_key_differs(stored, theirs);
	char diff[1024];

	if (!key)
		return 0;
	store_fingerprint_diff(stored, theirs, diff, sizeof(diff));
	log_err("swprofile '%s' is another kernel there: its %s differs (stored -> there): %s", name, key, diff);
	return -EEXIST;
}

/* Whether JSON texts @a and @b say the same (keys in any order); text that does not parse is compared as text. */
static bool json_same(const char *a, const char *b)
{
	json_t *x = json_loads(a, 0, NULL), *y = json_loads(b, 0, NULL);
	bool same = x && y ? json_equal(x, y) : !strcmp(a, b);

	json_decref(x);
	json_decref(y);
	return same;
}

/* Read the fingerprint swprofile @swp has on SUT class @sut into a new string. */
static int swprofile_sut_fingerprint(struct store *st, int64_t swp, int64_t sut, char **out)
{
	struct store_stmt *stmt;
	int ret = store_prepare(st, &stmt, "SELECT fingerprint FROM swprofile_sut WHERE swprofile_id = ?1"
				" AND sut_id = ?2", "ii", swp, sut);
	int rc;

	*out = NULL;
	if (ret)
		return ret;
	rc = store_step(stmt);
	if (rc == STORE_ROW)
		ret = (*out = strdup(store_col_text(stmt, 0))) ? 0 : -ENOMEM;
	else
		ret = rc == STORE_DONE ? -EIO : store_sql_fail(st, rc, "reading a swprofile's fingerprint on a SUT");
	store_finalize(stmt);
	return ret;
}

int store_swprofile_sut(struct store *st, int64_t swprofile_id, int64_t sut_id, const char *fingerprint,
			unsigned force, const char *name, const char *where)
{
	char *old = NULL;
	int ret = store_exec(st, "INSERT INTO swprofile_sut (swprofile_id, sut_id, fingerprint) VALUES (?1, ?2, ?3)"
			     " ON CONFLICT (swprofile_id, sut_id) DO NOTHING", "iit", swprofile_id, sut_id, fingerprint);

	if (!ret)
		ret = swprofile_sut_fingerprint(st, swprofile_id, sut_id, &old);
	if (!ret && !json_same(old, fingerprint)) {
		if (!strcmp(old, "{}") || swprofile_legacy_match(old, fingerprint))
			ret = store_exec(st, "UPDATE swprofile_sut SET fingerprint = ?3 WHERE swprofile_id = ?1"
					 " AND sut_id = ?2", "iit", swprofile_id, sut_id, fingerprint);
		else
			ret = fingerprint_conflict(name, where, old, fingerprint, force);
	}
	free(old);
	return ret;
}

int store_swprofile_get(struct store *st, const char *name, int64_t sut_id, const char *fingerprint, unsigned force,
			int64_t *id)
{
	char *fp, *old = NULL;
	int ret = store_name_check(name, "swprofile name");

	if (ret)
		return ret;
	fp = store_json_canonical(fingerprint, "swprofile fingerprint");
	if (!fp)
		return -EINVAL;
	ret = store_tx_begin(st);
	if (ret)
		goto out;
	ret = store_get_or_create(st, id, "INSERT INTO swprofile (name, fingerprint) VALUES (?1, ?2)"
			    " ON CONFLICT (name) DO NOTHING",
			    "SELECT id FROM swprofile WHERE name = ?1", "tt", name, fp);
	if (!ret)
		ret = swprofile_fingerprint(st, *id, &old);
	if (!ret)
		ret = swprofile_reconcile(st, *id, name, old, fp, force);
	/* within one machine class's column the whole fingerprint holds, as it always did */
	if (!ret)
		ret = store_swprofile_sut(st, *id, sut_id, fp, force, name, " on this SUT class");
	ret = store_tx_end(st, ret);
out:
	free(old);
	free(fp);
	return ret;
}

int store_resultclass_get(struct store *st, int64_t benchmark_id, const char *name, const char *metric,
			  const char *unit, bool higher_is_better, int64_t *id)
{
	int ret = store_name_check(name, "result class name");

	if (!ret)
		ret = store_name_check(unit, "result class unit");
	if (!ret)
		ret = store_tx_begin(st);
	if (ret)
		return ret;
	/* the name decides which class it is; the metric is what readers read of it */
	ret = store_exec(st, "INSERT INTO resultclass (benchmark_id, name, unit, higher_is_better, metric)"
			 " VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING", "ittbt", benchmark_id, name, unit,
			 (int)higher_is_better, metric);
	if (!ret)
		ret = store_int64(st, id, "SELECT id FROM resultclass WHERE benchmark_id = ?1 AND name = ?2"
				  " AND unit = ?3 AND higher_is_better = ?4", "ittb", benchmark_id, name, unit,
				  (int)higher_is_better);
	if (ret == -ENOENT)
		ret = -EIO;	/* inserted or there: gone meanwhile means a broken store */
	return store_tx_end(st, ret);
}

/* A random (version 4) UUID from getrandom(). */
static int uuid_generate(char out[STORE_UUID_LEN + 1])
{
	unsigned char b[16];

	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b)) {
		log_err("cannot make a session UUID: %s", strerror(errno));
		return -errno;
	}
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
	snprintf(out, STORE_UUID_LEN + 1,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
		 b[14], b[15]);
	return 0;
}

int store_session_begin(struct store *st, struct store_session *s, int64_t *id)
{
	char now[STORE_TIME_LEN + 1], *env;
	int64_t old;
	int ret = 0;

	if (!s->uuid[0])
		ret = uuid_generate(s->uuid);
	else if (!store_uuid_valid(s->uuid)) {
		log_err("session UUID '%s' is not of the form xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", s->uuid);
		ret = -EINVAL;
	}
	store_uuid_lower(s->uuid);
	if (ret)
		return ret;
	env = store_json_canonical(s->environment, "session environment");
	if (!env)
		return -EINVAL;
	store_now(now);
	ret = store_tx_begin(st);
	if (ret)
		goto out;
	ret = store_int64(st, &old, "SELECT id FROM session WHERE uuid = ?1", "t", s->uuid);
	if (!ret) {
		log_err("session %s is already in store %s", s->uuid, st->path);
		ret = -EEXIST;
	} else if (ret == -ENOENT) {
		ret = store_int64(st, id, "INSERT INTO session (uuid, boot_id, sut_id, swprofile_id, started,"
				  " environment) VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id", "ttiitt", s->uuid,
				  s->boot_id, s->sut_id, s->swprofile_id, now, env);
	}
	ret = store_tx_end(st, ret);
out:
	free(env);
	return ret;
}

int store_session_end(struct store *st, int64_t session_id)
{
	char now[STORE_TIME_LEN + 1];
	int64_t id;
	int ret;

	store_now(now);
	ret = store_int64(st, &id, "UPDATE session SET complete = 1, ended = ?1 WHERE id = ?2 RETURNING id",
			  "ti", now, session_id);
	/* the same update again after a lost connection: it changes nothing when it went through */
	if (ret == -ENOTCONN && !store_reconnect(st))
		ret = store_int64(st, &id, "UPDATE session SET complete = 1, ended = ?1 WHERE id = ?2 RETURNING id",
				  "ti", now, session_id);
	if (ret == -ENOENT) {
		log_err("store %s: no session with id %lld", st->path, (long long)session_id);
		ret = -ENOENT;
	}
	return ret;
}

/*
 * store_sample_add() after a reconnect: a sample stored already with the
 * same value is the one this writes (its commit went through unanswered).
 */
static int sample_add_again(struct store *st, int64_t session_id, int64_t resultclass_id, int iteration,
			    bool warmup, double value, const char *now)
{
	int64_t id, same;
	int ret = store_int64(st, &id, "INSERT INTO sample (session_id, resultclass_id, iteration, warmup, value,"
			      " time) VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING RETURNING id",
			      "iiibdt", session_id, resultclass_id, (int64_t)iteration, (int)warmup, value, now);

	if (ret != -ENOENT)
		return ret;
	ret = store_int64(st, &same, "SELECT value = ?5 FROM sample WHERE session_id = ?1 AND resultclass_id = ?2"
			  " AND iteration = ?3 AND warmup = ?4", "iiibd", session_id, resultclass_id,
			  (int64_t)iteration, (int)warmup, value);
	if (!ret && !same) {
		log_err("store %s: this sample is stored already with another value", st->path);
		ret = -EINVAL;
	}
	return ret;
}

int store_sample_add(struct store *st, int64_t session_id, int64_t resultclass_id, int iteration,
		     bool warmup, double value)
{
	char now[STORE_TIME_LEN + 1];

	/* SQLite would store NaN as NULL; a sample that is not a number is a bug upstream. */
	if (!isfinite(value)) {
		log_err("refusing to store a non-finite sample (%g)", value);
		return -EINVAL;
	}
	/* SQLite keeps no sign on a zero: -0 is 0 in every backend, which all export the same bytes */
	if (value == 0)
		value = 0;
	store_now(now);
	if (st->replaying)
		return sample_add_again(st, session_id, resultclass_id, iteration, warmup, value, now);
	/* Autocommit: the sample is durable when this returns. */
	return store_exec(st, "INSERT INTO sample (session_id, resultclass_id, iteration, warmup, value,"
			  " time) VALUES (?1, ?2, ?3, ?4, ?5, ?6)", "iiibdt", session_id, resultclass_id,
			  (int64_t)iteration, (int)warmup, value, now);
}

int store_error_add(struct store *st, int64_t session_id, int64_t benchmark_id, int iteration,
		    bool warmup, const char *message)
{
	char now[STORE_TIME_LEN + 1];
	int ret = require(message, "error message");

	if (ret)
		return ret;
	store_now(now);
	return store_exec(st, "INSERT INTO error (session_id, benchmark_id, iteration, warmup, message,"
			  " time) VALUES (?1, ?2, ?3, ?4, ?5, ?6)", "iinbtt", session_id, benchmark_id,
			  (int64_t)iteration, (int)warmup, message, now);
}

int store_batch_begin(struct store *st)
{
	return store_tx_begin(st);
}

int store_batch_end(struct store *st, int ret)
{
	ret = store_tx_end(st, ret);
	if (!ret && st->tx_depth == 0)
		st->replaying = false;
	return ret;
}

int store_reconnect(struct store *st)
{
	int ret;

	if (!st->be->reconnect) {
		log_err("store %s: lost its connection, and cannot connect again", st->path);
		return -ENOTCONN;
	}
	ret = st->be->reconnect(st);
	st->tx_depth = 0;
	st->tx_failed = 0;
	st->replaying = !ret;
	return ret;
}
