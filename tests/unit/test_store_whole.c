/* test_store_whole: sessions exported and imported whole, idempotent and all or nothing, and moved between backends. */
#include "store_fixture.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>

/* Two sessions: a complete one, and an interrupted one with an environment and two errors. */
struct whole_set {
	char done[STORE_UUID_LEN + 1];	/* complete, 1 warmup + 3 samples */
	char cut[STORE_UUID_LEN + 1];	/* incomplete, 1 sample, 2 errors, an environment */
};

static void populate(struct store *st, struct whole_set *w)
{
	struct store_session s = { .boot_id = "b00t-2", .environment = "{\"thp\":\"always\",\"governor\":\"performance\"}" };
	struct fixture_ids a, b;
	int64_t sess, bench;

	assert_int_equal(fixture_objects(st, "aws-m7g.metal", "next-20260821", &a), 0);
	assert_int_equal(fixture_objects(st, "ampere-one", "next-20260821 \"patched\", v2", &b), 0);
	assert_int_equal(fixture_session(st, &a, 3, 63932542232.12, w->done), 0);
	s.sut_id = b.sut;
	s.swprofile_id = b.swprofile;
	assert_int_equal(store_session_begin(st, &s, &sess), 0);
	memcpy(w->cut, s.uuid, sizeof(s.uuid));
	assert_int_equal(store_sample_add(st, sess, b.resultclass, 0, false, 0.1 + 0.2), 0);
	assert_int_equal(store_error_add(st, sess, b.benchmark, 1, false, "needs hugepages, \"1GB\"\nsee dmesg"), 0);
	assert_int_equal(fixture_benchmark(st, "mem/memset", "-s 1MB", &bench), 0);
	assert_int_equal(store_error_add(st, sess, bench, -1, false, "the whole benchmark failed"), 0);
	/* a sequential run on each pair, one that has looked 3 times */
	assert_int_equal(store_sequential_begin(st, &(struct store_sequential){ "ampere-one", "next-20260821 \"patched\", v2",
								 7, 0, 0.05 / 7, NULL, NULL }, &sess), 0);
	assert_int_equal(store_sequential_looked(st, sess, 3), 0);
	assert_int_equal(store_sequential_begin(st, &(struct store_sequential){ "aws-m7g.metal", "next-20260821", 8, 0,
								 0.05 / 8, NULL, NULL }, &sess), 0);
}

/* store_export_whole() of @st (the @n sessions @uuids, or all) as a new string. */
static char *whole_text(struct store *st, enum store_format fmt, const char *const *uuids, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(store_export_whole(st, f, fmt, uuids, n), 0);
	fclose(f);
	return buf;
}

static int import_text(struct store *st, const char *text, enum store_format *fmt)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	assert_non_null(f);
	ret = store_import(st, f, "whole.txt", fmt);
	fclose(f);
	return ret;
}

/* @a and @b hold the same: every export of one is byte for byte the other's. */
static void assert_same_exports(struct store *a, struct store *b)
{
	for (int fmt = STORE_CSV; fmt <= STORE_JSON; fmt++) {
		char *ta = whole_text(a, fmt, NULL, 0), *tb = whole_text(b, fmt, NULL, 0);

		assert_string_equal(ta, tb);
		free(ta);
		free(tb);
		ta = fixture_export(a, fmt);
		tb = fixture_export(b, fmt);
		assert_string_equal(ta, tb);
		free(ta);
		free(tb);
	}
}

static void assert_counts(struct store *st, int64_t sessions, int64_t samples, int64_t errors, int64_t envs)
{
	struct store_counts c;

	assert_int_equal(store_count(st, &c), 0);
	assert_int_equal(c.sessions, sessions);
	assert_int_equal(c.samples, samples);
	assert_int_equal(c.errors, errors);
	assert_int_equal(c.environments, envs);
}

/* Listing @list of @a and @b, as JSON text: the same, in the same order. */
static void assert_same_listing(struct store *a, struct store *b, int (*list)(struct store *, json_t **))
{
	json_t *ja, *jb;
	char *ta, *tb;

	assert_int_equal(list(a, &ja), 0);
	assert_int_equal(list(b, &jb), 0);
	ta = json_dumps(ja, JSON_COMPACT);
	tb = json_dumps(jb, JSON_COMPACT);
	assert_string_equal(ta, tb);
	free(ta);
	free(tb);
	json_decref(ja);
	json_decref(jb);
}

/* Every listing of @a and @b: the same, in the same order. */
static void assert_same_listings(struct store *a, struct store *b)
{
	int (*const list[])(struct store *, json_t **) = {
		store_list_suts, store_list_swprofiles, store_list_benchmarks, store_list_sessions,
	};

	for (size_t i = 0; i < sizeof(list) / sizeof(list[0]); i++)
		assert_same_listing(a, b, list[i]);
}

/*
 * Result classes as clearpath's runner writes them: benchmarks from the
 * real parser, each class its benchmark plus a metric (named with
 * ident_class_name()), an imported name whose display holds the workload,
 * and an exec's value named by its plan (no metric).
 */
static void populate_identities(struct store *st)
{
	static const struct {
		const char *suite, *spelling, *metrics[4];
	} b[] = {
		{ "mem/memset", "-s 1MB -f default", { "", "cycles", NULL } },
		{ "mem/clear", "-p 2MB -f default -s 4MB --then read", { "", "then-read", "combined", NULL } },
		{ "mem/mmap", "--size 4MB -f demand", { "", "profile:clear_page_erms", NULL } },
		{ "perf/mem", "mmap -p 4KB -f demand -s 32GB -l 5", { "", NULL } },
	};
	static struct bench_identity id;
	struct store_session s = { 0 };
	char display[1024], name[1200];
	int64_t sess, bench, rc;

	/* no benchmark beyond these: a class without samples would not travel by export */
	assert_int_equal(store_sut_get(st, "box", "{\"arch\":\"x86_64\"}", &s.sut_id), 0);
	assert_int_equal(store_swprofile_get(st, "6.9", s.sut_id, "{}", 0, &s.swprofile_id), 0);
	assert_int_equal(store_session_begin(st, &s, &sess), 0);
	for (size_t i = 0; i < sizeof(b) / sizeof(b[0]); i++) {
		assert_int_equal(wl_identity_parse(b[i].suite, b[i].spelling, &id), 0);
		assert_true(id.nparams > 0);
		assert_int_equal(store_benchmark_get(st, &id, &bench, display, sizeof(display)), 0);
		for (size_t m = 0; b[i].metrics[m]; m++) {
			/* the display-holding import names its class by the display alone */
			if (!strcmp(b[i].suite, "perf/mem"))
				snprintf(name, sizeof(name), "%s", display);
			else
				assert_int_equal(ident_class_name(b[i].suite, display, b[i].metrics[m], name, sizeof(name)), 0);
			assert_int_equal(store_resultclass_get(st, bench, name, b[i].metrics[m], "bytes/sec", true, &rc), 0);
			assert_int_equal(store_sample_add(st, sess, rc, 0, false, 1e9 + (double)(i * 10 + m)), 0);
		}
	}
	ident_raw(&id, "exec/rate-of-echo", "echo rate 7");
	assert_int_equal(store_benchmark_get(st, &id, &bench, NULL, 0), 0);
	assert_int_equal(store_resultclass_get(st, bench, "rate of echo", NULL, "GB/sec", true, &rc), 0);
	assert_int_equal(store_sample_add(st, sess, rc, 0, false, 7), 0);
	assert_int_equal(store_session_end(st, sess), 0);
}

/* store_query(): one line per result class with its identity as data, appended to the open stream. */
static int identity_line(const struct store_row *row, void *arg)
{
	const struct ident_class *c = &row->ident;

	fprintf(arg, "%s|%s|%s|%s|%s|%s|", c->suite, c->workload, c->display, c->key, c->name,
		c->metric ? c->metric : "(none)");
	for (size_t i = 0; i < c->nparam; i++)
		fprintf(arg, "%s/%s=%s[%s] ", c->param[i].name, c->param[i].alias, c->param[i].value, c->param[i].shown);
	fprintf(arg, "%s\n", row->unit);
	return 0;
}

/* Every class of @st with its identity, in the query's order (one line per sample: the classes repeat). */
static char *identities_of(struct store *st)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(store_query(st, NULL, identity_line, f), 0);
	fclose(f);
	return buf;
}

/*
 * The structured identity survives every way between stores: the sample
 * CSV, the whole form in CSV and JSON, and merge: parameters, workload,
 * metric (none for the exec's) and names as the source has them.
 */
static void test_identity_round_trips(void **state)
{
	struct store *src = fixture_open(state, "src.db"), *dst;
	char *want, *got, *text;
	struct store_merged added;

	populate_identities(src);
	want = identities_of(src);
	assert_non_null(strstr(want, "mem/clear|mem/clear|-p 2MB -f default -s 4MB --then read|"));
	assert_non_null(strstr(want, "clear -p 2MB -f default -s 4MB --then read :then-read|then-read|"));
	assert_non_null(strstr(want, "perf/mem|mem/mmap|mmap -p 4KB -f demand -s 32GB -l 5|"));
	assert_non_null(strstr(want, "mmap -f demand -s 4MB :profile:clear_page_erms|profile:clear_page_erms|"));
	assert_non_null(strstr(want, "exec/rate-of-echo||echo rate 7|echo rate 7|rate of echo|(none)|GB/sec"));
	for (int way = 0; way < 4; way++) {
		static const char *const names[] = { "csv.db", "whole-csv.db", "whole-json.db", "merge.db" };

		dst = fixture_open(state, names[way]);
		if (way == 3) {
			assert_int_equal(store_merge(dst, fixture_url(state, "src.db"), &added), 0);
			assert_int_equal(added.added, 1);
		} else {
			text = way ? whole_text(src, way == 1 ? STORE_CSV : STORE_JSON, NULL, 0) : fixture_export(src, STORE_CSV);
			assert_int_equal(import_text(dst, text, NULL), 0);
			free(text);
		}
		got = identities_of(dst);
		assert_string_equal(want, got);
		free(got);
		/* workloads, keys and metrics: the sample CSV carries no fingerprints, so only these */
		assert_same_listing(src, dst, store_list_benchmarks);
		store_close(dst);
	}
	free(want);
	store_close(src);
}

/* export -> import -> export gives the same bytes in either format; importing again adds nothing. */
static void test_whole_round_trip_and_again(void **state)
{
	struct store *src = fixture_open(state, "src.db");
	struct whole_set w;
	json_t *list;

	populate(src, &w);
	for (int fmt = STORE_CSV; fmt <= STORE_JSON; fmt++) {
		struct store *dst = fixture_open(state, fmt == STORE_CSV ? "csv.db" : "json.db");
		char *t1 = whole_text(src, fmt, NULL, 0), *t2;
		enum store_format seen;

		assert_int_equal(import_text(dst, t1, &seen), 0);
		assert_int_equal(seen, fmt);
		t2 = whole_text(dst, fmt, NULL, 0);
		assert_string_equal(t1, t2);
		free(t2);
		assert_int_equal(import_text(dst, t1, NULL), 0);
		assert_counts(dst, 2, 5, 2, 1);
		assert_same_exports(src, dst);
		/* the interrupted session stays interrupted, with its environment */
		assert_int_equal(store_list_sessions(dst, &list), 0);
		for (size_t i = 0; i < json_array_size(list); i++) {
			json_t *row = json_array_get(list, i);
			bool cut = !strcmp(json_string_value(json_object_get(row, "uuid")), w.cut);

			assert_true(json_is_boolean(json_object_get(row, "complete")));
			assert_true(json_is_true(json_object_get(row, "complete")) == !cut);
			if (cut)
				assert_string_equal(json_string_value(json_object_get(json_object_get(row, "environment"),
										      "thp")), "always");
		}
		json_decref(list);
		free(t1);
		store_close(dst);
	}
	store_close(src);
}

/* Whole import and merge give the same store. */
static void test_whole_import_equals_merge(void **state)
{
	struct store *src = fixture_open(state, "src.db"), *imp = fixture_open(state, "imp.db");
	struct store *mrg = fixture_open(state, "mrg.db");
	struct whole_set w;
	char *text;
	struct store_merged added;

	populate(src, &w);
	store_close(src);
	src = fixture_open(state, "src.db");
	text = whole_text(src, STORE_JSON, NULL, 0);
	assert_int_equal(import_text(imp, text, NULL), 0);
	assert_int_equal(store_merge(mrg, fixture_url(state, "src.db"), &added), 0);
	assert_int_equal(added.added, 2);
	assert_same_exports(imp, mrg);
	assert_same_exports(src, mrg);
	free(text);
	store_close(src);
	store_close(imp);
	store_close(mrg);
}

/* Only the sessions asked for, with the sut and swprofile they use; an unknown one is refused. */
static void test_whole_subset(void **state)
{
	struct store *st = fixture_open(state, "src.db");
	const char *unknown[] = { "00000000-0000-4000-8000-000000000000" };
	struct whole_set w;
	const char *one[1];
	char *text;
	FILE *f;

	populate(st, &w);
	one[0] = w.cut;
	text = whole_text(st, STORE_CSV, one, 1);
	assert_non_null(strstr(text, w.cut));
	assert_null(strstr(text, w.done));
	assert_null(strstr(text, "aws-m7g.metal"));
	free(text);
	f = fopen("/dev/null", "w");
	assert_non_null(f);
	assert_int_equal(store_export_whole(st, f, STORE_CSV, unknown, 1), -EINVAL);
	fclose(f);
	store_close(st);
}

/* store_sequential_each(): one line per run into the open stream @arg. */
static int run_line(const struct store_sequential *q, void *arg)
{
	fprintf(arg, "%s|%s|%u|%u|%.17g|%s|%s\n", q->sut, q->swprofile, q->looks, q->looked, q->alpha, q->started,
		q->updated);
	return 0;
}

/* The sequential runs @st records, a line each. */
static char *runs_of(struct store *st)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(store_sequential_each(st, run_line, f), 0);
	fclose(f);
	return buf;
}

static void assert_same_runs(struct store *a, struct store *b)
{
	char *ra = runs_of(a), *rb = runs_of(b);

	assert_string_equal(ra, rb);
	free(ra);
	free(rb);
}

/* @text (a whole CSV export) with @line inserted before its end record. */
static char *with_line(const char *text, const char *line)
{
	const char *end = strstr(text, "\nend,");
	char *out;

	assert_non_null(end);
	assert_true(asprintf(&out, "%.*s\n%s%s", (int)(end - text), text, line, end) > 0);
	return out;
}

/* @text as an export before sequential runs were carried wrote it: no sequential records, 19 columns. */
static char *before_sequential(const char *text)
{
	char *out = malloc(strlen(text) + 1), *o = out;

	assert_non_null(out);
	for (const char *line = text; *line;) {
		const char *nl = strchr(line, '\n'), *cut = nl;

		assert_non_null(nl);
		/* the last three columns are empty in every record but a sequential one (no field holds a newline here) */
		if (strncmp(line, "sequential,", 11)) {
			cut -= 3;
			if (line == text)
				cut -= strlen(",looks,looked,alpha") - 3;
			memcpy(o, line, (size_t)(cut - line));
			o += cut - line;
			*o++ = '\n';
		}
		line = nl + 1;
	}
	*o = '\0';
	return out;
}

/*
 * Sequential runs travel with their sessions: by the whole form (CSV and
 * JSON) and by merge (SQLite's attached merge and the row by row one), once
 * however often, brought up to date when the source looked again, and a
 * file written before they were carried still imports.  A merged store
 * judged their cells at 0.05 again.
 */
static void test_whole_sequential_runs_travel(void **state)
{
	struct store *src = fixture_open(state, "src.db"), *mrg = fixture_open(state, "mrg.db"), *dst, *old;
	struct store_merged done;
	struct whole_set w;
	char *want, *text, *cut;
	int64_t run;

	populate(src, &w);
	want = runs_of(src);
	assert_non_null(strstr(want, "ampere-one|next-20260821 \"patched\", v2|7|3|"));
	assert_non_null(strstr(want, "aws-m7g.metal|next-20260821|8|0|"));
	for (int fmt = STORE_CSV; fmt <= STORE_JSON; fmt++) {
		dst = fixture_open(state, fmt == STORE_CSV ? "csv.db" : "json.db");
		text = whole_text(src, fmt, NULL, 0);
		assert_int_equal(import_text(dst, text, NULL), 0);
		assert_int_equal(import_text(dst, text, NULL), 0);
		assert_same_runs(src, dst);
		free(text);
		store_close(dst);
	}
	assert_int_equal(store_merge(mrg, fixture_url(state, "src.db"), &done), 0);
	assert_int_equal(done.sequential, 2);
	assert_int_equal(store_merge(mrg, fixture_url(state, "src.db"), &done), 0);
	assert_int_equal(done.sequential, 0);
	assert_same_runs(src, mrg);
	/* a run merged while it looks, merged again after more looks: one run, up to date */
	assert_int_equal(store_sequential_begin(src, &(struct store_sequential){ "aws-m7g.metal", "next-20260821", 5, 0,
								  0.01, NULL, NULL }, &run), 0);
	assert_int_equal(store_merge(mrg, fixture_url(state, "src.db"), &done), 0);
	assert_int_equal(done.sequential, 1);
	assert_int_equal(store_sequential_looked(src, run, 4), 0);
	assert_int_equal(store_merge(mrg, fixture_url(state, "src.db"), &done), 0);
	assert_int_equal(done.sequential, 0);
	assert_same_runs(src, mrg);
	free(want);
	/* an export from before: every session, no run */
	text = whole_text(src, STORE_CSV, NULL, 0);
	cut = before_sequential(text);
	assert_null(strstr(cut, "looks"));
	old = fixture_open(state, "old.db");
	assert_int_equal(import_text(old, cut, NULL), 0);
	assert_counts(old, 2, 5, 2, 1);
	want = runs_of(old);
	assert_string_equal(want, "");
	free(want);
	free(cut);
	free(text);
	store_close(old);
	store_close(mrg);
	store_close(src);
}

/* A sequential record that no run can be is refused, and nothing of its file goes in. */
static void test_whole_sequential_refused(void **state)
{
	static const char *const bad[][2] = {
		{ "0", "0.5" },			/* no look planned */
		{ "7", "1.5" },			/* not a level */
		{ "7", "0" },
		{ "-1", "0.5" },
	};
	struct store *src = fixture_open(state, "src.db"), *dst = fixture_open(state, "dst.db");
	struct whole_set w;
	struct capture c;
	char line[256], *text, *one;

	populate(src, &w);
	text = whole_text(src, STORE_CSV, NULL, 0);
	for (size_t i = 0; i <= sizeof(bad) / sizeof(bad[0]); i++) {
		/* the last: its last look before its start */
		bool late = i == sizeof(bad) / sizeof(bad[0]);

		snprintf(line, sizeof(line), "sequential,box,k,,,,2026-08-21T09:00:00Z,,,,,,,,,,,%s,,%s,2,%s",
			 late ? "2026-08-21T08:00:00Z" : "2026-08-21T10:00:00Z", late ? "7" : bad[i][0],
			 late ? "0.5" : bad[i][1]);
		one = with_line(text, line);
		capture_begin(&c);
		assert_int_equal(import_text(dst, one, NULL), -EINVAL);
		assert_non_null(strstr(capture_end(&c), late ? "last look is before its start" : "column"));
		assert_counts(dst, 0, 0, 0, 0);
		free(one);
	}
	/* the same line with what a run is goes in */
	one = with_line(text, "sequential,box,k,,,,2026-08-21T09:00:00Z,,,,,,,,,,,2026-08-21T10:00:00Z,,7,2,0.5");
	assert_int_equal(import_text(dst, one, NULL), 0);
	free(one);
	one = runs_of(dst);
	assert_non_null(strstr(one, "box|k|7|2|0.5|2026-08-21T09:00:00Z|2026-08-21T10:00:00Z\n"));
	free(one);
	free(text);
	store_close(dst);
	store_close(src);
}

/* A copy of @text with the first @from replaced by @to. */
static char *replaced(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	char *out;

	assert_non_null(at);
	assert_true(asprintf(&out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from)) > 0);
	return out;
}

/* @text with every @from replaced by @to (the same length). */
static char *replaced_all(const char *text, const char *from, const char *to)
{
	char *out = strdup(text), *at = out;

	assert_non_null(out);
	assert_int_equal(strlen(from), strlen(to));
	while ((at = strstr(at, from)))
		at = (char *)memcpy(at, to, strlen(to)) + strlen(to);
	return out;
}

/*
 * A session UUID in upper case (or upper in one record, lower in the next)
 * names the same session: stored lower-case, so the file imports as its
 * lower-case original does, and again adds nothing; not a second session,
 * and not "has no session record before this one".
 */
static void test_whole_uppercase_uuid_is_the_same_session(void **state)
{
	struct store *src = fixture_open(state, "src.db");
	char upper[STORE_UUID_LEN + 1];
	struct whole_set w;

	populate(src, &w);
	snprintf(upper, sizeof(upper), "%s", w.done);
	for (char *p = upper; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	for (int fmt = STORE_CSV; fmt <= STORE_JSON + 1; fmt++) {
		static const char *const names[] = { "csv.db", "json.db", "samples.db" };
		struct store *dst = fixture_open(state, names[fmt]);
		char *text = fmt <= STORE_JSON ? whole_text(src, fmt, NULL, 0) : fixture_export(src, STORE_CSV);
		char *all = replaced_all(text, w.done, upper), *first = replaced(text, w.done, upper);

		assert_int_equal(import_text(dst, all, NULL), 0);
		assert_int_equal(import_text(dst, first, NULL), 0);
		assert_int_equal(import_text(dst, text, NULL), 0);
		if (fmt <= STORE_JSON) {
			assert_counts(dst, 2, 5, 2, 1);
			assert_same_exports(src, dst);
		} else {
			char *back = fixture_export(dst, STORE_CSV);

			assert_string_equal(back, text);
			free(back);
		}
		free(text);
		free(all);
		free(first);
		store_close(dst);
	}
	store_close(src);
}

/*
 * A session the store holds with other content refuses the whole file,
 * naming the session, and nothing of the file is added (not the new
 * session beside it either).
 */
static void test_whole_conflict_refused_all_or_nothing(void **state)
{
	struct store *src = fixture_open(state, "src.db"), *dst = fixture_open(state, "dst.db");
	struct capture cap;
	struct whole_set w;
	const char *one[1];
	char *part, *before, *all;

	populate(src, &w);
	one[0] = w.done;
	part = whole_text(src, STORE_CSV, one, 1);
	assert_int_equal(import_text(dst, part, NULL), 0);
	assert_counts(dst, 1, 4, 0, 0);
	before = whole_text(dst, STORE_CSV, NULL, 0);
	for (int fmt = STORE_CSV; fmt <= STORE_JSON; fmt++) {
		char *bad, *after;

		all = whole_text(src, fmt, NULL, 0);
		bad = replaced(all, "63932542233.120003", "63932542233.5");
		capture_begin(&cap);
		assert_int_equal(import_text(dst, bad, NULL), -EINVAL);
		assert_non_null(strstr(capture_end(&cap), w.done));
		after = whole_text(dst, STORE_CSV, NULL, 0);
		assert_string_equal(before, after);
		free(after);
		free(bad);
		free(all);
	}
	/* the file as it was goes in: the stored session matches, the other one is added */
	all = whole_text(src, STORE_JSON, NULL, 0);
	assert_int_equal(import_text(dst, all, NULL), 0);
	assert_counts(dst, 2, 5, 2, 1);
	free(all);
	free(part);
	free(before);
	store_close(src);
	store_close(dst);
}

#define BIG_SESSIONS 3
#define BIG_REPEATS 420
#define BIG_ROWS (BIG_SESSIONS * (BIG_REPEATS + 1) - 7 * 3)

/* A copy of @text with field @field of line @line (1-based; plain fields, no quotes) set to @value. */
static char *with_field(const char *text, int line, int field, const char *value)
{
	const char *p = text, *end;
	char *out;

	for (int l = 1; l < line; l++) {
		p = strchr(p, '\n');
		assert_non_null(p);
		p++;
	}
	for (int f = 0; f < field; f++) {
		p = strchr(p, ',');
		assert_non_null(p);
		p++;
	}
	end = p + strcspn(p, ",\n");
	assert_true(asprintf(&out, "%.*s%s%s", (int)(p - text), text, value, end) > 0);
	return out;
}

/*
 * More rows than one batch of a bulk path holds, of uneven sizes: import
 * (whole and sample form), importing again, merge and the exports keep
 * every one, in order; one value changed deep inside refuses the file.
 */
static void test_whole_many_samples(void **state)
{
	struct store *src = fixture_open(state, "src.db"), *imp = fixture_open(state, "imp.db");
	struct store *mrg = fixture_open(state, "mrg.db"), *csv = fixture_open(state, "csv.db");
	struct fixture_ids ids;
	struct capture cap;
	char *text, *bad;
	struct store_merged added;

	assert_int_equal(fixture_objects(src, "m7g", "6.9.0", &ids), 0);
	assert_int_equal(store_batch_begin(src), 0);
	for (int i = 0; i < BIG_SESSIONS; i++)
		assert_int_equal(fixture_session(src, &ids, BIG_REPEATS - i * 7, 1.0 / 3 + i, NULL), 0);
	assert_int_equal(store_batch_end(src, 0), 0);
	text = whole_text(src, STORE_CSV, NULL, 0);
	assert_int_equal(import_text(imp, text, NULL), 0);
	assert_int_equal(import_text(imp, text, NULL), 0);
	/* line 700 is a sample: record, ..., its value is column 17 */
	bad = with_field(text, 700, 16, "12345.5");
	capture_begin(&cap);
	assert_int_equal(import_text(imp, bad, NULL), -EINVAL);
	assert_non_null(strstr(capture_end(&cap), "whole.txt: line 700: session "));
	free(bad);
	assert_int_equal(store_merge(mrg, fixture_url(state, "src.db"), &added), 0);
	assert_int_equal(added.added, BIG_SESSIONS);
	assert_int_equal(fixture_count(imp, true), BIG_ROWS);
	assert_same_exports(src, imp);
	assert_same_exports(src, mrg);
	free(text);

	/* the sample form: a new store, again, and a changed value at line 900 (column 10) */
	text = fixture_export(src, STORE_CSV);
	assert_int_equal(import_text(csv, text, NULL), 0);
	assert_int_equal(import_text(csv, text, NULL), 0);
	bad = with_field(text, 900, 9, "12345.5");
	capture_begin(&cap);
	assert_int_equal(import_text(csv, bad, NULL), -EINVAL);
	assert_non_null(strstr(capture_end(&cap), "whole.txt: line 900, column 10 (value): this sample is already"));
	free(bad);
	assert_int_equal(fixture_count(csv, true), BIG_ROWS);
	free(text);
	text = fixture_export(csv, STORE_CSV);
	bad = fixture_export(src, STORE_CSV);
	assert_string_equal(text, bad);
	free(text);
	free(bad);
	store_close(src);
	store_close(imp);
	store_close(mrg);
	store_close(csv);
}

/* Doubles at the edges of the format: what comes back is the same double, bit for bit. */
static const double edge_values[] = {
	5e-324, 2.2250738585072014e-308, 1e-300, 0.1 + 0.2, -1.5, 123456789012345678.0,
	1.7976931348623157e308, 63932542232.12, 0.0,
};
#define N_EDGE (sizeof(edge_values) / sizeof(edge_values[0]))

static int collect_value(const struct store_row *row, void *arg)
{
	double *v = arg;

	assert_true(row->iteration >= 0 && row->iteration < (int)N_EDGE);
	v[row->iteration] = row->value;
	return 0;
}

static void put_edge_values(struct store *st)
{
	struct fixture_ids ids;
	struct store_session s = { 0 };
	int64_t sess;

	assert_int_equal(fixture_objects(st, "m7g", "6.9.0", &ids), 0);
	s.sut_id = ids.sut;
	s.swprofile_id = ids.swprofile;
	assert_int_equal(store_session_begin(st, &s, &sess), 0);
	for (size_t i = 0; i < N_EDGE; i++)
		assert_int_equal(store_sample_add(st, sess, ids.resultclass, (int)i, false, edge_values[i]), 0);
	assert_int_equal(store_session_end(st, sess), 0);
}

static void assert_edge_values(struct store *st)
{
	struct store_filter f = { .include_warmup = true };
	double got[N_EDGE];

	memset(got, 0xff, sizeof(got));
	assert_int_equal(store_query(st, &f, collect_value, got), 0);
	assert_memory_equal(got, edge_values, sizeof(got));
}

static void test_edge_values_round_trip(void **state)
{
	struct store *st = fixture_open(state, "edge.db"), *imp = fixture_open(state, "imp.db");
	char *text;

	put_edge_values(st);
	assert_edge_values(st);
	text = whole_text(st, STORE_CSV, NULL, 0);
	assert_int_equal(import_text(imp, text, NULL), 0);
	assert_edge_values(imp);
	assert_same_exports(st, imp);
	free(text);
	store_close(st);
	store_close(imp);
}

static int collect_zero(const struct store_row *row, void *arg)
{
	int *n = arg;

	assert_true(row->value == 0 && !signbit(row->value));
	(*n)++;
	return 0;
}

/*
 * SQLite keeps no sign on a zero, so no backend does: -0 written or
 * imported is stored as 0, and both give the same bytes for it.
 */
static void test_negative_zero_is_zero(void **state)
{
	struct store *st = fixture_open(state, "zero.db");
	struct store_filter f = { .include_warmup = true };
	struct fixture_ids ids;
	struct store_session s = { 0 };
	int64_t sess;
	int n = 0;
	char *text;

	assert_int_equal(fixture_objects(st, "m7g", "6.9.0", &ids), 0);
	s.sut_id = ids.sut;
	s.swprofile_id = ids.swprofile;
	assert_int_equal(store_session_begin(st, &s, &sess), 0);
	assert_int_equal(store_sample_add(st, sess, ids.resultclass, 0, false, -0.0), 0);
	assert_int_equal(import_text(st, STORE_EXPORT_COLUMNS "\n"
				     "m7g,6.9,0b7e4c36-7a0e-4c1e-9f5e-2b9d0c8a1f00,mem/mmap -p 1GB,bw,bytes/sec,1,0,0,-0,"
				     "2026-04-08T08:47:00.000000Z,2026-04-08T08:47:01.000000Z\n", NULL), 0);
	assert_int_equal(store_query(st, &f, collect_zero, &n), 0);
	assert_int_equal(n, 2);
	text = fixture_export(st, STORE_CSV);
	assert_null(strstr(text, ",-0,"));
	free(text);
	store_close(st);
}

/* A store of the other backend: an SQLite file beside the test's PostgreSQL databases. */
static struct store *open_file(void **state, const char *name, char *path, size_t len)
{
	struct store *st;

	fixture_path(path, len, fixture_dir(state), name);
	assert_int_equal(store_open(path, wl_identity_parse, &st), 0);
	return st;
}

/*
 * SQLite -> PostgreSQL -> SQLite by merge, and by whole export and import:
 * every sample, session and error arrives, and all three stores give the
 * same bytes for every export.
 */
static void test_across_backends(void **state)
{
	char a_path[512], c_path[512], d_path[512];
	struct store *a = open_file(state, "a.db", a_path, sizeof(a_path));
	struct store *pg = fixture_open(state, "pg"), *c, *d;
	struct whole_set w;
	char *text;
	struct store_merged added;

	populate(a, &w);
	put_edge_values(a);
	assert_int_equal(store_merge(pg, a_path, &added), 0);
	assert_int_equal(added.added, 3);
	assert_edge_values(pg);
	assert_int_equal(store_merge(pg, a_path, &added), 0);
	assert_int_equal(added.added, 0);
	assert_same_exports(a, pg);

	c = open_file(state, "c.db", c_path, sizeof(c_path));
	assert_int_equal(store_merge(c, fixture_url(state, "pg"), &added), 0);
	assert_int_equal(added.added, 3);
	assert_same_exports(a, c);

	/* PostgreSQL's whole export into a new file, and a file's into a new database */
	d = open_file(state, "d.db", d_path, sizeof(d_path));
	text = whole_text(pg, STORE_CSV, NULL, 0);
	assert_int_equal(import_text(d, text, NULL), 0);
	assert_same_exports(pg, d);
	free(text);
	store_close(pg);
	pg = fixture_open(state, "pg2");
	text = whole_text(d, STORE_JSON, NULL, 0);
	assert_int_equal(import_text(pg, text, NULL), 0);
	assert_int_equal(import_text(pg, text, NULL), 0);
	assert_same_exports(a, pg);
	assert_counts(pg, 3, 5 + (int64_t)N_EDGE, 2, 1);
	free(text);
	store_close(a);
	store_close(c);
	store_close(d);
	store_close(pg);
}

/* The structured identity from SQLite to PostgreSQL and back, by merge and by the whole form. */
static void test_identity_across_backends(void **state)
{
	char a_path[512], b_path[512];
	struct store *a = open_file(state, "a.db", a_path, sizeof(a_path)), *pg = fixture_open(state, "pg"), *b;
	char *want, *got, *text;
	struct store_merged added;

	populate_identities(a);
	want = identities_of(a);
	assert_int_equal(store_merge(pg, a_path, &added), 0);
	got = identities_of(pg);
	assert_string_equal(want, got);
	free(got);
	b = open_file(state, "b.db", b_path, sizeof(b_path));
	assert_int_equal(store_merge(b, fixture_url(state, "pg"), &added), 0);
	got = identities_of(b);
	assert_string_equal(want, got);
	free(got);
	store_close(b);
	b = fixture_open(state, "pg2");
	text = whole_text(a, STORE_JSON, NULL, 0);
	assert_int_equal(import_text(b, text, NULL), 0);
	got = identities_of(b);
	assert_string_equal(want, got);
	free(got);
	free(text);
	free(want);
	store_close(a);
	store_close(b);
	store_close(pg);
}

/*
 * A lab's database made with a natural-language collation (ICU en-US sorts
 * a A b B, SQLite's bytes A B a b): names in mixed case and accents list and
 * export in the same order, the same bytes, from both.
 */
static void test_natural_collation_database(void **state)
{
	static const char *const suts[] = { "beta", "Alpha", "alpha-2", "\xc3\x89mile", "Zeta" };
	static const char *const swps[] = { "next", "Base", "base", "\xc3\x9f-6.9" };
	static const char *const classes[] = { "bw", "BW", "Bw-2" };
	char a_path[512];
	struct store *a = open_file(state, "a.db", a_path, sizeof(a_path)), *pg;
	struct store_merged added;

	for (size_t i = 0; i < sizeof(suts) / sizeof(suts[0]); i++) {
		struct fixture_ids ids;
		int64_t bench;

		assert_int_equal(fixture_objects(a, suts[i], swps[i % 4], &ids), 0);
		assert_int_equal(fixture_benchmark(a, i % 2 ? "mem/Memset" : "mem/memset", suts[i], &bench), 0);
		assert_int_equal(store_resultclass_get(a, bench, classes[i % 3], NULL, "ns", false, &ids.resultclass), 0);
		assert_int_equal(fixture_session(a, &ids, 2, (double)i, NULL), 0);
	}
	pg = NULL;
	assert_int_equal(store_open(fixture_url_created(state, "icu", "TEMPLATE template0 LOCALE_PROVIDER icu"
							 " ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'"), wl_identity_parse, &pg), 0);
	assert_int_equal(fixture_raw(state, "icu", "SELECT ('a' < 'B')::int"), 1);	/* the collation is natural */
	assert_int_equal(store_merge(pg, a_path, &added), 0);
	assert_int_equal(added.added, 5);
	assert_same_exports(a, pg);
	assert_same_listings(a, pg);
	store_close(a);
	store_close(pg);
}

int main(void)
{
	const struct CMUnitTest every[] = {
		cmocka_unit_test(test_whole_round_trip_and_again),
		cmocka_unit_test(test_whole_import_equals_merge),
		cmocka_unit_test(test_whole_subset),
		cmocka_unit_test(test_whole_conflict_refused_all_or_nothing),
		cmocka_unit_test(test_whole_uppercase_uuid_is_the_same_session),
		cmocka_unit_test(test_whole_many_samples),
		cmocka_unit_test(test_edge_values_round_trip),
		cmocka_unit_test(test_negative_zero_is_zero),
		cmocka_unit_test(test_identity_round_trips),
		cmocka_unit_test(test_whole_sequential_runs_travel),
		cmocka_unit_test(test_whole_sequential_refused),
	};
	/* PostgreSQL with SQLite files beside it */
	const struct CMUnitTest across[] = {
		cmocka_unit_test(test_across_backends),
		cmocka_unit_test(test_natural_collation_database),
		cmocka_unit_test(test_identity_across_backends),
	};
	int failed = FIXTURE_RUN("whole", every, FIXTURE_SQLITE);

	failed += FIXTURE_RUN("whole", every, FIXTURE_POSTGRESQL);
	failed += FIXTURE_RUN("whole across backends", across, FIXTURE_POSTGRESQL);
	return failed;
}
