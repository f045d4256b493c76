/* test_store_interchange: RFC 4180 reading/writing, export -> import -> export round trips, all-or-nothing import, merge, on every backend. */
#include "store_fixture.h"

#include <errno.h>

#include "store/csv.h"
#include "store/xchg.h"

/* A read-only stream over @text. */
static FILE *text_stream(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	assert_non_null(f);
	return f;
}

static void test_csv_reader_rfc4180(void **state)
{
	/* RFC 4180 section 2: quoted commas, doubled quotes, line breaks inside quotes, CRLF */
	FILE *f = text_stream("a,\"b,c\",\"say \"\"hi\"\"\"\r\n\"two\nlines\",,x\nlast");
	struct csv_record rec = { 0 };
	struct csv_reader r;
	struct csv_error err;

	(void)state;
	csv_reader_init(&r, f);
	assert_int_equal(csv_read_record(&r, &rec, &err), 1);
	assert_int_equal(rec.n, 3);
	assert_string_equal(rec.field[1], "b,c");
	assert_string_equal(rec.field[2], "say \"hi\"");
	assert_int_equal(csv_read_record(&r, &rec, &err), 1);
	assert_int_equal(rec.line, 2);
	assert_int_equal(rec.n, 3);
	assert_string_equal(rec.field[0], "two\nlines");
	assert_string_equal(rec.field[1], "");
	assert_int_equal(csv_read_record(&r, &rec, &err), 1);
	assert_int_equal(rec.line, 4);
	assert_string_equal(rec.field[0], "last");
	assert_int_equal(csv_read_record(&r, &rec, &err), 0);
	csv_record_free(&rec);
	fclose(f);
}

/* Read records from @text until one fails; that failure must be -EINVAL at @line:@column. */
static void expect_malformed(const char *text, long line, long column)
{
	FILE *f = text_stream(text);
	struct csv_record rec = { 0 };
	struct csv_reader r;
	struct csv_error err;
	int ret;

	csv_reader_init(&r, f);
	while ((ret = csv_read_record(&r, &rec, &err)) == 1)
		;
	assert_int_equal(ret, -EINVAL);
	assert_int_equal(err.line, line);
	assert_int_equal(err.column, column);
	csv_record_free(&rec);
	fclose(f);
}

/* A record whose first field is empty: nothing had been buffered when that field ended. */
static void test_csv_reader_empty_first_field(void **state)
{
	FILE *f = text_stream(",x\n,\n");
	struct csv_record rec = { 0 };
	struct csv_reader r;
	struct csv_error err;

	(void)state;
	csv_reader_init(&r, f);
	assert_int_equal(csv_read_record(&r, &rec, &err), 1);
	assert_int_equal(rec.n, 2);
	assert_string_equal(rec.field[0], "");
	assert_string_equal(rec.field[1], "x");
	assert_int_equal(csv_read_record(&r, &rec, &err), 1);
	assert_int_equal(rec.n, 2);
	assert_string_equal(rec.field[0], "");
	assert_string_equal(rec.field[1], "");
	csv_record_free(&rec);
	fclose(f);
}

static void test_csv_reader_errors(void **state)
{
	(void)state;
	expect_malformed("a,b\nc,\"never closed\nd,e\n", 2, 2);
	expect_malformed("a,b\nc,d\"e\n", 2, 2);
	expect_malformed("a,\"b\"x,c\n", 1, 2);
	expect_malformed("a,b\rc\n", 1, 2);
}

static void test_csv_writer_quotes_only_when_needed(void **state)
{
	const char *fields[] = { "plain", "with,comma", "with \"quote\"", "two\nlines", "" };
	char buf[256] = { 0 };
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
	struct csv_record rec = { 0 };
	struct csv_reader r;
	struct csv_error err;

	(void)state;
	assert_int_equal(csv_write_record(f, fields, 5), 0);
	fclose(f);
	assert_string_equal(buf, "plain,\"with,comma\",\"with \"\"quote\"\"\",\"two\nlines\",\n");
	f = text_stream(buf);
	csv_reader_init(&r, f);
	assert_int_equal(csv_read_record(&r, &rec, &err), 1);
	assert_int_equal(rec.n, 5);
	for (int i = 0; i < 5; i++)
		assert_string_equal(rec.field[i], fields[i]);
	csv_record_free(&rec);
	fclose(f);
}

/* Two profiles, awkward names (comma, quote, newline), values that need all 17 digits. */
static void populate(struct store *st)
{
	struct fixture_ids a, b;
	int64_t bench, rc;
	struct store_session s = { 0 };
	int64_t sess;

	assert_int_equal(fixture_objects(st, "aws-m7g.metal", "next-20260821", &a), 0);
	assert_int_equal(fixture_objects(st, "aws-m7g.metal", "next-20260821 \"patched\", v2", &b), 0);
	assert_int_equal(fixture_session(st, &a, 3, 63932542232.12, NULL), 0);
	assert_int_equal(fixture_session(st, &b, 3, 0.1 + 0.2, NULL), 0);
	assert_int_equal(fixture_benchmark(st, "mem/memset", "", &bench), 0);
	assert_int_equal(store_resultclass_get(st, bench, "line1\nline2", NULL, "ns", false, &rc), 0);
	s.sut_id = a.sut;
	s.swprofile_id = a.swprofile;
	assert_int_equal(store_session_begin(st, &s, &sess), 0);
	assert_int_equal(store_sample_add(st, sess, rc, 0, false, 1e-300), 0);
}

static int import_text(struct store *st, const char *text)
{
	FILE *f = text_stream(text);
	int ret = store_import_csv(st, f, "test.csv");

	fclose(f);
	return ret;
}

static void test_export_import_export_identical(void **state)
{
	struct store *src = fixture_open(state, "src.db"), *dst = fixture_open(state, "dst.db");
	char *csv1, *csv2, *json1, *json2;

	populate(src);
	csv1 = fixture_export(src, STORE_CSV);
	assert_int_equal(strncmp(csv1, STORE_EXPORT_COLUMNS "\n", strlen(STORE_EXPORT_COLUMNS) + 1), 0);
	/* %.17g of 63932542232.12 (the seed's base value), as Python's '%.17g' % 63932542232.12 prints it */
	assert_non_null(strstr(csv1, ",63932542232.120003,"));
	assert_non_null(strstr(csv1, ",0.30000000000000004,"));
	assert_non_null(strstr(csv1, "\"next-20260821 \"\"patched\"\", v2\""));
	assert_int_equal(import_text(dst, csv1), 0);
	csv2 = fixture_export(dst, STORE_CSV);
	assert_string_equal(csv1, csv2);
	json1 = fixture_export(src, STORE_JSON);
	json2 = fixture_export(dst, STORE_JSON);
	assert_string_equal(json1, json2);
	assert_non_null(strstr(json1, "\"warmup\":true"));

	/* importing the same file again adds nothing */
	assert_int_equal(import_text(dst, csv1), 0);
	assert_int_equal(fixture_count(dst, true), fixture_count(src, true));
	free(csv1);
	free(csv2);
	free(json1);
	free(json2);
	store_close(src);
	store_close(dst);
}

static void test_json_export_parses(void **state)
{
	struct store *st = fixture_open(state, "json.db");
	char *text;
	json_t *j;

	populate(st);
	text = fixture_export(st, STORE_JSON);
	j = json_loads(text, 0, NULL);
	assert_non_null(j);
	assert_int_equal(json_array_size(j), (size_t)fixture_count(st, true));
	assert_true(json_is_real(json_object_get(json_array_get(j, 0), "value")));
	json_decref(j);
	free(text);
	store_close(st);
}

#define HEADER STORE_EXPORT_COLUMNS "\n"
#define GOOD "m7g,6.9,0b7e4c36-7a0e-4c1e-9f5e-2b9d0c8a1f00,mem/mmap -p 1GB,bw,bytes/sec,1,0,0,1.5," \
	"2026-04-08T08:47:00.000000Z,2026-04-08T08:47:01.000000Z\n"

/* @text must be refused naming "line @line, column @column" and leave @st without any sample or sut. */
static void expect_rejected(void **state, const char *text, const char *where)
{
	static int calls;
	char name[32];
	struct store *st;
	struct capture cap;
	json_t *suts;

	snprintf(name, sizeof(name), "reject%d.db", calls++);
	st = fixture_open(state, name);
	capture_begin(&cap);
	assert_int_equal(import_text(st, text), -EINVAL);
	assert_non_null(strstr(capture_end(&cap), where));
	assert_int_equal(fixture_count(st, true), 0);
	assert_int_equal(store_list_suts(st, &suts), 0);
	assert_int_equal(json_array_size(suts), 0);
	json_decref(suts);
	assert_int_equal(import_text(st, HEADER GOOD), 0);	/* the store still works */
	assert_int_equal(fixture_count(st, true), 1);
	store_close(st);
}

static void test_import_rejects_bad_column_count(void **state)
{
	expect_rejected(state, HEADER GOOD GOOD "m7g,6.9,only three\n", "line 4, column 4 (benchmark): expected 12 columns, found 3");
}

static void test_import_rejects_non_numeric_value(void **state)
{
	expect_rejected(state, HEADER GOOD
			"m7g,6.9,0b7e4c36-7a0e-4c1e-9f5e-2b9d0c8a1f00,mem/mmap -p 1GB,bw,bytes/sec,1,1,0,fast,"
			"2026-04-08T08:47:00.000000Z,2026-04-08T08:47:01.000000Z\n",
			"line 3, column 10 (value): 'fast' is not a finite number");
}

static void test_import_rejects_unterminated_quote(void **state)
{
	expect_rejected(state, HEADER GOOD "m7g,\"6.9,0b7e4c36\n", "line 3, column 2: unterminated");
}

static void test_import_rejects_bad_header_and_conflicts(void **state)
{
	expect_rejected(state, "sut,swprofile\n", "line 1, column 3");
	expect_rejected(state, "", "empty file");
	/* the same sample with another value contradicts the first line */
	expect_rejected(state, HEADER GOOD
			"m7g,6.9,0b7e4c36-7a0e-4c1e-9f5e-2b9d0c8a1f00,mem/mmap -p 1GB,bw,bytes/sec,1,0,0,2.5,"
			"2026-04-08T08:47:00.000000Z,2026-04-08T08:47:01.000000Z\n",
			"line 3, column 10 (value): this sample is already stored with value 1.5");
}

/* store_import() of @text (any form) into @st. */
static int import_any(struct store *st, const char *text)
{
	FILE *f = text_stream(text);
	int ret = store_import(st, f, "test.json", NULL);

	fclose(f);
	return ret;
}

/*
 * A file that is one JSON scalar is refused as that (-EINVAL), not read as
 * a CSV header "that says '42'"; JSON behind blank lines is still JSON, and
 * what had to be read to tell is given back to the CSV reader whole.
 */
static void test_import_refuses_json_scalar(void **state)
{
	static const char *const scalars[][2] = {
		{ "42\n", "single JSON number (42)" }, { "\"x\"", "single JSON string (\"x\")" },
		{ "true\n", "single JSON boolean (true)" }, { "null", "single JSON null (null)" },
		{ "\n\n  -3.5e2  \n\n", "single JSON number (-3.5e2)" },
	};
	struct store *src = fixture_open(state, "src.db"), *st = fixture_open(state, "scalar.db");
	struct capture cap;
	char *whole, *text, *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	for (size_t i = 0; i < sizeof(scalars) / sizeof(scalars[0]); i++) {
		const char *said;

		capture_begin(&cap);
		assert_int_equal(import_any(st, scalars[i][0]), -EINVAL);
		said = capture_end(&cap);
		if (!strstr(said, scalars[i][1]) || !strstr(said, "not a clearpath export"))
			fail_msg("%s: %s", scalars[i][0], said);
	}
	/* two lines are no single value: the CSV reader says what its header lacks */
	capture_begin(&cap);
	assert_int_equal(import_any(st, "42\n43\n"), -EINVAL);
	assert_non_null(strstr(capture_end(&cap), "header says '42'"));
	assert_int_equal(fixture_count(st, true), 0);

	populate(src);
	assert_non_null(out);
	assert_int_equal(store_export_whole(src, out, STORE_JSON, NULL, 0), 0);
	fclose(out);
	whole = malloc(len + 8);
	assert_non_null(whole);
	snprintf(whole, len + 8, "\n \n\t%s", buf);
	assert_int_equal(import_any(st, whole), 0);
	assert_int_equal(fixture_count(st, true), fixture_count(src, true));
	store_close(st);
	/* a header with its names quoted is read whole after the look ahead */
	st = fixture_open(state, "quoted.db");
	text = fixture_export(src, STORE_CSV);
	assert_int_equal(strncmp(text, "sut,", 4), 0);
	free(whole);
	assert_true(asprintf(&whole, "\"sut\"%s", text + 3) > 0);
	assert_int_equal(import_any(st, whole), 0);
	assert_int_equal(fixture_count(st, true), fixture_count(src, true));
	free(whole);
	free(buf);
	free(text);
	store_close(src);
	store_close(st);
}

/*
 * import remembers the previous line's ids (issue 12): a later line of the
 * same session that disagrees about its start or sut is still refused, and
 * lines that alternate sessions and classes land where they belong.
 */
static void test_import_cache_checks_every_line(void **state)
{
	struct store *st;
	json_t *list;
	char *text;

	expect_rejected(state, HEADER GOOD
			"m7g,6.9,0b7e4c36-7a0e-4c1e-9f5e-2b9d0c8a1f00,mem/mmap -p 1GB,bw,bytes/sec,1,1,0,1.5,"
			"2026-04-08T09:47:00.000000Z,2026-04-08T08:47:01.000000Z\n",
			"line 3, column 3 (session): session 0b7e4c36-7a0e-4c1e-9f5e-2b9d0c8a1f00 has another");
	expect_rejected(state, HEADER GOOD
			"c7g,6.9,0b7e4c36-7a0e-4c1e-9f5e-2b9d0c8a1f00,mem/mmap -p 1GB,bw,bytes/sec,1,1,0,1.5,"
			"2026-04-08T08:47:00.000000Z,2026-04-08T08:47:01.000000Z\n",
			"line 3, column 3 (session)");
	st = fixture_open(state, "alternating.db");
	assert_int_equal(import_text(st, HEADER GOOD
			"m7g,6.9,1b7e4c36-7a0e-4c1e-9f5e-2b9d0c8a1f00,mem/mmap -p 2MB,bw,bytes/sec,1,0,0,2.5,"
			"2026-04-08T09:47:00.000000Z,2026-04-08T09:47:01.000000Z\n"
			"m7g,6.9,0b7e4c36-7a0e-4c1e-9f5e-2b9d0c8a1f00,mem/mmap -p 1GB,bw,bytes/sec,1,1,0,1.5,"
			"2026-04-08T08:47:00.000000Z,2026-04-08T08:47:02.000000Z\n"
			"c7g,6.10,2b7e4c36-7a0e-4c1e-9f5e-2b9d0c8a1f00,mem/mmap -p 2MB,bw,bytes/sec,1,0,0,4.5,"
			"2026-04-08T10:47:00.000000Z,2026-04-08T10:47:01.000000Z\n"
			"m7g,6.9,1b7e4c36-7a0e-4c1e-9f5e-2b9d0c8a1f00,mem/mmap -p 1GB,bw,bytes/sec,1,0,0,3.5,"
			"2026-04-08T09:47:00.000000Z,2026-04-08T09:47:02.000000Z\n"), 0);
	assert_int_equal(fixture_count(st, true), 5);
	assert_int_equal(store_list_sessions(st, &list), 0);
	assert_int_equal(json_array_size(list), 3);
	json_decref(list);
	assert_int_equal(store_list_benchmarks(st, &list), 0);
	assert_int_equal(json_array_size(list), 2);
	json_decref(list);
	text = fixture_export(st, STORE_CSV);
	assert_non_null(strstr(text, "\nm7g,6.9,1b7e4c36-7a0e-4c1e-9f5e-2b9d0c8a1f00,mem/mmap -p 1GB,bw,bytes/sec,1,0,0,3.5,"));
	assert_non_null(strstr(text, "\nm7g,6.9,0b7e4c36-7a0e-4c1e-9f5e-2b9d0c8a1f00,mem/mmap -p 1GB,bw,bytes/sec,1,1,0,1.5,"));
	assert_non_null(strstr(text, "\nc7g,6.10,2b7e4c36-7a0e-4c1e-9f5e-2b9d0c8a1f00,mem/mmap -p 2MB,bw,bytes/sec,1,0,0,4.5,"));
	free(text);
	store_close(st);
}

static void test_merge_without_duplicates(void **state)
{
	struct store *a = fixture_open(state, "a.db"), *b = fixture_open(state, "b.db");
	struct fixture_ids ids;
	json_t *list;
	struct store_merged added;

	populate(a);
	assert_int_equal(fixture_objects(b, "other-box", "6.10", &ids), 0);
	assert_int_equal(fixture_session(b, &ids, 2, 5.0, NULL), 0);
	store_close(a);

	assert_int_equal(store_merge(b, fixture_url(state, "a.db"), &added), 0);
	assert_int_equal(added.added, 3);
	assert_int_equal(store_merge(b, fixture_url(state, "a.db"), &added), 0);
	assert_int_equal(added.added, 0);
	assert_int_equal(store_list_sessions(b, &list), 0);
	assert_int_equal(json_array_size(list), 4);
	json_decref(list);
	/* 3 + 1 samples in a's first two sessions (warmup included), 1 in its third, 3 in b's */
	assert_int_equal(fixture_count(b, true), 4 + 4 + 1 + 3);

	/* the merged part exports exactly as the source did */
	a = fixture_open(state, "a.db");
	{
		char *ea = fixture_export(a, STORE_CSV), *eb = fixture_export(b, STORE_CSV);

		assert_non_null(strstr(eb, ea + strlen(STORE_EXPORT_COLUMNS) + 1));
		free(ea);
		free(eb);
	}
	store_close(a);
	store_close(b);
}

/* A missing source file is not created; a file that is not a store is refused. */
static void test_merge_refuses_missing_and_foreign_files(void **state)
{
	char path[512];
	struct store *b = fixture_open(state, "b.db");
	struct store_merged added;

	fixture_path(path, sizeof(path), fixture_dir(state), "missing.db");
	assert_int_equal(store_merge(b, path, &added), -ENOENT);
	assert_int_equal(access(path, F_OK), -1);
	fixture_path(path, sizeof(path), fixture_dir(state), "notes.txt");
	{
		FILE *f = fopen(path, "w");

		assert_non_null(f);
		for (int i = 0; i < 50; i++)
			fputs("not a store, just notes\n", f);
		fclose(f);
	}
	assert_int_equal(store_merge(b, path, &added), -EINVAL);
	store_close(b);
}

/* Times are real calendar instants, and compare by instant, not by text. */
static void test_timestamps_are_instants(void **state)
{
	static const char *const good[] = { "2024-02-29T00:00:00Z", "2000-02-29T23:59:59.999999Z",
					     "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.5Z" };
	static const char *const bad[] = { "2026-02-30T00:00:00Z", "1900-02-29T00:00:00Z", "2026-04-31T00:00:00Z",
					    "2026-08-22T23:59:60Z", "0000-01-01T00:00:00Z", "2026-00-01T00:00:00Z",
					    "2026-08-22T24:00:00Z", "2026-08-22T08:00:00.Z", "2026-08-22T08:00:00" };

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_true(store_xchg_timestamp(good[i]));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_false(store_xchg_timestamp(bad[i]));
	assert_int_equal(store_xchg_time_cmp("2026-08-22T08:00:00Z", "2026-08-22T08:00:00.000000Z"), 0);
	assert_int_equal(store_xchg_time_cmp("2026-08-22T08:00:00.5Z", "2026-08-22T08:00:00.500Z"), 0);
	assert_true(store_xchg_time_cmp("2026-08-22T08:00:00.5Z", "2026-08-22T08:00:00Z") > 0);
	assert_true(store_xchg_time_cmp("2026-08-22T08:00:00Z", "2026-08-22T08:00:00.000001Z") < 0);
	assert_true(store_xchg_time_cmp("2026-08-22T08:00:01Z", "2026-08-22T08:00:00.999999Z") > 0);
	assert_true(store_xchg_time_cmp("2025-12-31T23:59:59.9Z", "2026-01-01T00:00:00Z") < 0);
}

int main(void)
{
	const struct CMUnitTest plain[] = {
		cmocka_unit_test(test_csv_reader_rfc4180),
		cmocka_unit_test(test_csv_reader_empty_first_field),
		cmocka_unit_test(test_csv_reader_errors),
		cmocka_unit_test(test_csv_writer_quotes_only_when_needed),
		cmocka_unit_test(test_timestamps_are_instants),
	};
	const struct CMUnitTest every[] = {
		cmocka_unit_test(test_export_import_export_identical),
		cmocka_unit_test(test_json_export_parses),
		cmocka_unit_test(test_import_rejects_bad_column_count),
		cmocka_unit_test(test_import_rejects_non_numeric_value),
		cmocka_unit_test(test_import_rejects_unterminated_quote),
		cmocka_unit_test(test_import_rejects_bad_header_and_conflicts),
		cmocka_unit_test(test_import_cache_checks_every_line),
		cmocka_unit_test(test_import_refuses_json_scalar),
		cmocka_unit_test(test_merge_without_duplicates),
		/* every backend merges from a file */
		cmocka_unit_test(test_merge_refuses_missing_and_foreign_files),
	};
	int failed = cmocka_run_group_tests_name("interchange", plain, NULL, NULL);

	failed += FIXTURE_RUN("interchange", every, FIXTURE_SQLITE);
	failed += FIXTURE_RUN("interchange", every, FIXTURE_POSTGRESQL);
	return failed;
}
