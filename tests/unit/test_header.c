/* test_header: the header model of src/report/header.h built from store-shaped listings: values, joins, counts, unknowns. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compare/compare.h"
#include "ident_fixture.h"
#include "report/header.h"

#define MMAP4K "mmap -p 4KB -f demand -s 32GB -l 5"

static void add(struct cmp_set *s, const struct cmp_opts *o, const char *swp, const char *uuid, double v)
{
	struct fixture_class fc;
	struct cmp_sample x = { "box", swp, uuid, "2026-01-01T00:00:00Z", *fixture_class(&fc, "perf/mem", MMAP4K),
				"bytes/sec", true, v };

	assert_int_equal(cmp_add(s, o, &x), 0);
}

/* Two kernels on one machine: "old" in sessions s1 and s2, "new" in s3 (twice the samples) and s4. */
static struct cmp_set *two_kernels(struct cmp_opts *o)
{
	struct cmp_set *s;

	*o = (struct cmp_opts){ .axis = CMP_BY_SWPROFILE, .alpha = 0.05, .min_effect_pct = 0.5, .target_pct = 1 };
	s = cmp_new(o);
	assert_non_null(s);
	add(s, o, "old", "s1", 10);
	add(s, o, "old", "s2", 11);
	add(s, o, "new", "s3", 12);
	add(s, o, "new", "s3", 12.5);
	add(s, o, "new", "s4", 13);
	assert_int_equal(cmp_finish(s, o), 0);
	return s;
}

/* The listings as the store gives them: s4 ran with THP always, s1 is unknown to the listing. */
static void listings(json_t **sessions, json_t **suts, json_t **swps)
{
	const char *settings_madvise = "{\"settings\": {\"thp_enabled\": \"madvise\", \"hugepages\":"
				       " {\"2048kB\": {\"total\": 8, \"free\": 8}, \"1048576kB\": {\"total\": 1}}}}";
	json_t *env_m = json_loads(settings_madvise, 0, NULL);

	*sessions = json_pack("[{s:s, s:s, s:s, s:s, s:O}, {s:s, s:s, s:s, s:s, s:O}, {s:s, s:s, s:s, s:s, s:{s:{s:s}}}]",
			      "uuid", "s2", "sut", "box", "swprofile", "old", "started", "2026-01-02T10:00:00.0Z",
			      "environment", env_m,
			      "uuid", "s3", "sut", "box", "swprofile", "new", "started", "2026-01-03T10:00:00.0Z",
			      "environment", env_m,
			      "uuid", "s4", "sut", "box", "swprofile", "new", "started", "2026-01-04T10:00:00.0Z",
			      "environment", "settings", "thp_enabled", "always");
	*suts = json_pack("[{s:s, s:{s:s, s:s, s:i, s:I, s:I, s:i}}]", "name", "box", "fingerprint", "cpu",
			  "Neoverse-N1", "arch", "aarch64", "cores", 80, "memory", (json_int_t)1 << 35, "llc_bytes",
			  (json_int_t)32 << 20, "llc_level", 3);
	*swps = json_pack("[{s:s, s:{s:s, s:s, s:s, s:{s:i}}}, {s:s, s:{s:s, s:s}}]",
			  "name", "old", "fingerprint", "kernel_release", "6.1.0", "cmdline", "ro quiet",
			  "thp_defrag", "defer", "hugepages", "2MB", 4,
			  "name", "new", "fingerprint", "kernel_release", "6.2.0", "thp_defrag", "madvise");
	json_decref(env_m);
	assert_non_null(*sessions);
	assert_non_null(*suts);
	assert_non_null(*swps);
}

static void test_build(void **state)
{
	struct cmp_opts o;
	struct cmp_set *s = two_kernels(&o);
	json_t *sessions, *suts, *swps;
	struct result_header *h;
	const struct result_header_column *old, *new;

	(void)state;
	listings(&sessions, &suts, &swps);
	h = result_header_build(s, sessions, suts, swps);
	assert_non_null(h);
	assert_int_equal(h->nblocks, 1);
	assert_string_equal(h->blocks[0].name, "box");
	assert_int_equal(h->blocks[0].ncols, 2);
	assert_int_equal(h->blocks[0].sessions, 4);
	assert_int_equal(h->blocks[0].samples, 5);
	assert_true(h->blocks[0].same_machine);
	assert_string_equal(h->blocks[0].first, "2026-01-02T10:00:00.0Z");
	assert_string_equal(h->blocks[0].last, "2026-01-04T10:00:00.0Z");
	old = &h->blocks[0].cols[s->base];
	new = &h->blocks[0].cols[1 - s->base];
	assert_true(old->base);
	assert_string_equal(old->name, "old");
	/* s1 is not in the listing: it counts, but says nothing */
	assert_int_equal(old->sessions, 2);
	assert_string_equal(old->first, "2026-01-02T10:00:00.0Z");
	assert_string_equal(old->kernel_release, "6.1.0");
	assert_string_equal(old->cmdline, "ro quiet");
	/* the session's record wins over the fingerprint, which fills what the session lacks */
	assert_string_equal(old->hugepages, "2MB: 8, 1GB: 1");
	assert_string_equal(old->thp_defrag, "defer");
	assert_string_equal(old->machine.cpu, "Neoverse-N1");
	assert_int_equal(old->machine.cores, 80);
	assert_int_equal(old->machine.memory, (long long)1 << 35);
	assert_int_equal(old->machine.sockets, -1);
	/* the last-level cache, which says which buffers a rate measures the cache of */
	assert_int_equal(old->machine.llc, 32 << 20);
	assert_int_equal(old->machine.llc_level, 3);
	char *text = result_machine_text(&old->machine);

	assert_string_equal(text, "Neoverse-N1 (aarch64), 80 cores, 32.0GB memory, 32MB L3 cache");
	free(text);
	/* sessions that differ: every value, in the order first seen */
	assert_string_equal(new->thp_enabled, "madvise, always");
	assert_int_equal(new->samples, 3);
	assert_int_equal(new->sessions, 2);
	assert_null(new->cmdline);
	result_header_free(h);
	json_decref(sessions);
	json_decref(suts);
	json_decref(swps);
	cmp_free(s);
}

static int collect(void *ctx, const char *line)
{
	FILE *f = ctx;

	fprintf(f, "%s\n", line);
	return 0;
}

static int stop_second(void *ctx, const char *line)
{
	int *n = ctx;

	(void)line;
	return ++*n == 2 ? -42 : 0;
}

static void test_lines_and_json(void **state)
{
	struct cmp_opts o;
	struct cmp_set *s = two_kernels(&o);
	struct result_header *h = result_header_build(s, NULL, NULL, NULL);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	json_t *j;
	int n = 0;

	(void)state;
	assert_non_null(h);
	assert_int_equal(rpt_header_lines(&h->blocks[0], collect, f), 0);
	fclose(f);
	assert_non_null(strstr(text, "Machine: not recorded.\n"));
	assert_non_null(strstr(text, "Measured: 4 sessions, 5 samples.\n"));
	assert_non_null(strstr(text, "old (base): kernel not recorded; 2 sessions, 2 samples.\n"));
	assert_null(strstr(text, "THP"));
	free(text);
	assert_int_equal(rpt_header_lines(&h->blocks[0], stop_second, &n), -42);
	assert_int_equal(n, 2);
	j = rpt_header_json(&h->blocks[0]);
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(j, "sessions")), 4);
	assert_true(json_is_null(json_object_get(j, "first")));
	assert_true(json_is_null(json_object_get(json_object_get(json_array_get(json_object_get(j, "columns"), 0),
								  "machine"), "cores")));
	json_decref(j);
	result_header_free(h);
	cmp_free(s);
}


/* A doctor record as a session stores it (doctor_session_record): the warnings of @n checks. */
static json_t *record(size_t n, const char *const *checks, const char *const *values)
{
	json_t *warnings = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(warnings, json_pack("{s:s, s:s, s:s, s:s, s:s}", "check", checks[i], "status",
							  "WARN", "value", values[i], "detail",
							  !strcmp(checks[i], "load") ? "other work competes" : "THP faults",
							  "fix", !strcmp(checks[i], "load") ? "" : "doctor --fix"));
	return json_pack("{s:{s:[], s:o}}", "doctor", "checks", "warnings", warnings);
}

/* The lines of block 0 of the header of @s over @sessions and @swps (no SUT listing), as one string (free it). */
static char *lines_over(const struct cmp_set *s, const json_t *sessions, const json_t *swps)
{
	struct result_header *h = result_header_build(s, sessions, NULL, swps);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(h);
	assert_int_equal(rpt_header_lines(&h->blocks[0], collect, f), 0);
	fclose(f);
	result_header_free(h);
	return text;
}

static char *lines_of(const struct cmp_set *s, const json_t *sessions)
{
	return lines_over(s, sessions, NULL);
}

static void test_doctor_warnings(void **state)
{
	static const char *const load_thp[] = { "load", "thp" }, *const load_thp_v[] = { "3.10 on 2 CPUs", "enabled=always" };
	static const char *const load[] = { "load" }, *const load_v[] = { "2.50 on 2 CPUs" };
	struct cmp_opts o;
	struct cmp_set *s = two_kernels(&o);
	/* old: s1 unknown, s2 recorded nothing wrong; new: s3 load, s4 load and THP */
	json_t *sessions = json_pack("[{s:s, s:s, s:s, s:o}, {s:s, s:s, s:s, s:o}, {s:s, s:s, s:s, s:o}]",
				     "uuid", "s2", "sut", "box", "swprofile", "old", "environment", record(0, NULL, NULL),
				     "uuid", "s3", "sut", "box", "swprofile", "new", "environment", record(1, load, load_v),
				     "uuid", "s4", "sut", "box", "swprofile", "new", "environment",
				     record(2, load_thp, load_thp_v));
	struct result_header *h = result_header_build(s, sessions, NULL, NULL);
	const struct result_header_column *old, *new;
	json_t *j, *w;
	char *text;

	(void)state;
	assert_non_null(h);
	old = &h->blocks[0].cols[s->base];
	new = &h->blocks[0].cols[1 - s->base];
	assert_int_equal(old->doctor_checked, 1);
	assert_int_equal(json_array_size(old->doctor_warnings), 0);
	assert_int_equal(new->doctor_checked, 2);
	/* one entry per finding, counted per session, its values distinct in the order first seen */
	assert_int_equal(json_array_size(new->doctor_warnings), 2);
	w = json_array_get(new->doctor_warnings, 0);
	assert_string_equal(json_string_value(json_object_get(w, "check")), "load");
	assert_int_equal(json_integer_value(json_object_get(w, "sessions")), 2);
	assert_int_equal(json_array_size(json_object_get(w, "values")), 2);
	assert_string_equal(json_string_value(json_array_get(json_object_get(w, "values"), 1)), "3.10 on 2 CPUs");
	w = json_array_get(new->doctor_warnings, 1);
	assert_string_equal(json_string_value(json_object_get(w, "check")), "thp");
	assert_int_equal(json_integer_value(json_object_get(w, "sessions")), 1);

	text = lines_of(s, sessions);
	assert_non_null(strstr(text, "  No doctor warnings recorded (1 session checked; the others predate"
				     " the recording).\n"));
	assert_non_null(strstr(text, "  Doctor WARN load in 2 of 2 sessions: 2.50 on 2 CPUs, 3.10 on 2 CPUs:"
				     " other work competes.\n"));
	assert_non_null(strstr(text, "  Doctor WARN thp in 1 of 2 sessions: enabled=always: THP faults;"
				     " fix: doctor --fix\n"));
	free(text);

	j = rpt_header_json(&h->blocks[0]);
	assert_non_null(j);
	w = json_object_get(json_array_get(json_object_get(j, "columns"), 1 - s->base), "doctor");
	assert_int_equal(json_integer_value(json_object_get(w, "sessions_checked")), 2);
	assert_int_equal(json_array_size(json_object_get(w, "warnings")), 2);
	json_decref(j);
	result_header_free(h);

	/* s3 without a record: the warnings count over the session that has one, and the gap is said */
	json_object_set_new(json_array_get(sessions, 1), "environment", json_object());
	text = lines_of(s, sessions);
	assert_non_null(strstr(text, "  Doctor WARN load in 1 of 1 session: 3.10 on 2 CPUs: other work competes.\n"));
	assert_non_null(strstr(text, "  Doctor warnings not recorded for 1 of 2 sessions (they predate"));
	free(text);
	json_decref(sessions);

	/* sessions from before the recording: not recorded, which is not "none" */
	text = lines_of(s, NULL);
	assert_non_null(strstr(text, "  Doctor warnings not recorded (the sessions predate"));
	assert_null(strstr(text, "No doctor warnings"));
	free(text);
	cmp_free(s);
}

/* The header lines of @s over sessions whose swprofiles "old" and "new" have fingerprints @old and @new (JSON). */
static char *lines_with(const struct cmp_set *s, const char *old, const char *new)
{
	json_t *sessions = json_pack("[{s:s, s:s}, {s:s, s:s}, {s:s, s:s}, {s:s, s:s}]", "uuid", "s1", "swprofile",
				     "old", "uuid", "s2", "swprofile", "old", "uuid", "s3", "swprofile", "new",
				     "uuid", "s4", "swprofile", "new");
	json_t *swps = json_pack("[{s:s, s:o}, {s:s, s:o}]", "name", "old", "fingerprint", json_loads(old, 0, NULL),
				 "name", "new", "fingerprint", json_loads(new, 0, NULL));
	char *text = lines_over(s, sessions, swps);

	json_decref(sessions);
	json_decref(swps);
	return text;
}

/* How often @needle occurs in @hay. */
static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void test_shared_rows(void **state)
{
	struct cmp_opts o;
	struct cmp_set *s = two_kernels(&o);
	char *text;

	(void)state;
	/* two kernels, one cmdline and THP: those print once, above the columns; the kernels per column */
	text = lines_with(s, "{\"kernel_release\": \"6.1\", \"cmdline\": \"ro quiet\", \"thp_enabled\": \"never\"}",
			  "{\"kernel_release\": \"6.2\", \"cmdline\": \"ro quiet\", \"thp_enabled\": \"never\"}");
	assert_non_null(strstr(text, "Measured: 4 sessions, 5 samples.\nAll columns:\n  cmdline: ro quiet\n"
				     "  THP enabled never, defrag not recorded; hugepages not recorded.\n"
				     "  Doctor warnings not recorded (the sessions predate the recording, or came without their environment).\n"
				     "old (base): kernel 6.1; 2 sessions, 2 samples.\n"));
	/* the doctor line both columns print alike is printed once too */
	assert_int_equal(count(text, "Doctor warnings not recorded"), 1);
	assert_int_equal(count(text, "cmdline"), 1);
	assert_int_equal(count(text, "THP"), 1);
	free(text);
	/* one kernel too: it joins them; what differs (THP) stays with each column */
	text = lines_with(s, "{\"kernel_release\": \"6.1\", \"cmdline\": \"ro quiet\", \"thp_enabled\": \"never\"}",
			  "{\"kernel_release\": \"6.1\", \"cmdline\": \"ro quiet\", \"thp_enabled\": \"always\"}");
	assert_non_null(strstr(text, "All columns: kernel 6.1.\n  cmdline: ro quiet\n" "  Doctor warnings not recorded (the sessions predate the recording, or came without their environment).\n"
				     "old (base): 2 sessions, 2 samples.\n"
				     "  THP enabled never, defrag not recorded; hugepages not recorded.\n"));
	assert_non_null(strstr(text, "\nnew: 2 sessions, 3 samples.\n  THP enabled always,"));
	assert_int_equal(count(text, "cmdline"), 1);
	free(text);
	/* a value one column lacks is not shared: each column says what it knows */
	text = lines_with(s, "{\"kernel_release\": \"6.1\", \"cmdline\": \"ro quiet\"}", "{\"kernel_release\": \"6.2\"}");
	assert_non_null(strstr(text, "All columns:\n" "  Doctor warnings not recorded (the sessions predate the recording, or came without their environment).\n"));
	assert_non_null(strstr(text, "old (base): kernel 6.1; 2 sessions, 2 samples.\n  cmdline: ro quiet\n"));
	free(text);
	cmp_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build),
		cmocka_unit_test(test_lines_and_json),
		cmocka_unit_test(test_doctor_warnings),
		cmocka_unit_test(test_shared_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
