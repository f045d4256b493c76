/* test_invoke: wl_invoke() end to end through a recording sink: parsing, defaults, exit codes, function selection, resource checks. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "workloads/workload.h"
#include "kernels/kernels.h"
#include "util/log.h"
#include "util/perfctr.h"
#include "util/sysfs.h"
#include "fixture.h"

#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_ARGS 16

/* Everything an invocation told its sink, in order, plus what it printed. */
struct run {
	int rc;
	char events[2048];	/* "begin;function:NAME;result:NAME;skipped:NAME;end;" */
	char params[512];	/* "size=1MB page=4KB ..." as the sink saw them at begin */
	char typed[256];	/* "size=4kb ..." the options given, as typed, at begin */
	unsigned nresults;
	struct wl_result last;
	char listed[8192];	/* -f help: "name|desc|why_not\n" per function the sink was given */
	char out[16384];	/* stdout */
	char err[8192];		/* stderr */
};

static void rec_event(struct wl_sink *s, const char *what, const char *name)
{
	struct run *r = s->priv;
	size_t len = strlen(r->events);

	snprintf(r->events + len, sizeof(r->events) - len, "%s%s%s;", what, name ? ":" : "",
		 name ? name : "");
}

static void rec_begin(struct wl_sink *s, const struct wl_invocation *inv)
{
	struct run *r = s->priv;

	rec_event(s, "begin", NULL);
	for (const struct wl_opt *o = inv->wl->opts; o->long_name; o++) {
		size_t len = strlen(r->params), tlen = strlen(r->typed);
		const char *typed = inv->typed[o - inv->wl->opts];
		char val[64];

		wl_opt_format(o, inv->params, val, sizeof(val));
		snprintf(r->params + len, sizeof(r->params) - len, "%s%s=%s", len ? " " : "",
			 o->long_name, val);
		if (typed)
			snprintf(r->typed + tlen, sizeof(r->typed) - tlen, "%s%s=%s", tlen ? " " : "",
				 o->long_name, typed);
	}
}

static void rec_function(struct wl_sink *s, const struct wl_invocation *inv, const struct wl_func *f)
{
	(void)inv;
	rec_event(s, "function", f->name);
}

static void rec_skipped(struct wl_sink *s, const struct wl_invocation *inv, const struct wl_func *f)
{
	(void)inv;
	rec_event(s, "skipped", f->name);
}

static void rec_result(struct wl_sink *s, const struct wl_invocation *inv, const struct wl_result *res)
{
	struct run *r = s->priv;

	(void)inv;
	rec_event(s, "result", res->function);
	r->last = *res;
	r->nresults++;
}

static void rec_end(struct wl_sink *s, const struct wl_invocation *inv)
{
	(void)inv;
	rec_event(s, "end", NULL);
}

static void rec_functions(struct wl_sink *s, const struct wl_invocation *inv, const struct wl_func *f, size_t n)
{
	struct run *r = s->priv;

	(void)inv;
	rec_event(s, "functions", NULL);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(r->listed);

		snprintf(r->listed + len, sizeof(r->listed) - len, "%s|%s|%s%s\n", f[i].name, f[i].desc,
			 f[i].why_not ? f[i].why_not : "", f[i].extended ? "|all+" : "");
	}
}

/* Read what @f collected into @buf, then close it. */
static void slurp(FILE *f, char *buf, size_t len)
{
	size_t n;

	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/* Point fd @fd at a fresh temporary file; returns the saved original fd. */
static int capture_fd(int fd, FILE **tmp)
{
	int saved = dup(fd);

	*tmp = tmpfile();
	if (saved < 0 || !*tmp)
		abort();
	dup2(fileno(*tmp), fd);
	return saved;
}

static void restore_fd(int fd, int saved)
{
	dup2(saved, fd);
	close(saved);
}

/*
 * Run wl_invoke() on the NULL-terminated words, with stdout and stderr
 * captured (cmocka's TAP goes to stdout too).  The words are copied because
 * getopt permutes argv.
 */
static void invoke_argv(struct run *r, const char *const *words)
{
	struct wl_sink sink = { rec_begin, rec_function, rec_skipped, rec_result, rec_end, r, rec_functions };
	char *argv[MAX_ARGS + 1];
	int argc = 0, so, se;
	FILE *out, *err;

	memset(r, 0, sizeof(*r));
	while (words[argc]) {
		assert_true(argc < MAX_ARGS);
		argv[argc] = strdup(words[argc]);
		argc++;
	}
	argv[argc] = NULL;
	fflush(stdout);
	fflush(stderr);
	so = capture_fd(STDOUT_FILENO, &out);
	se = capture_fd(STDERR_FILENO, &err);
	r->rc = wl_invoke(argc, argv, &sink);
	fflush(stdout);
	fflush(stderr);
	restore_fd(STDOUT_FILENO, so);
	restore_fd(STDERR_FILENO, se);
	slurp(out, r->out, sizeof(r->out));
	slurp(err, r->err, sizeof(r->err));
	for (int i = 0; i < argc; i++)
		free(argv[i]);
}

#define INVOKE(r, ...) invoke_argv((r), (const char *const[]){ __VA_ARGS__, NULL })

static void expect_contains(const char *what, const char *text, const char *needle)
{
	if (!strstr(text, needle))
		fail_msg("%s does not contain \"%s\":\n%s", what, needle, text);
}

/* A failed invocation: exit code @rc, nothing reported to the sink, @msg on stderr. */
static void expect_refused(const struct run *r, int rc, const char *msg)
{
	if (r->rc != rc)
		fail_msg("exit code %d, expected %d; stderr:\n%s", r->rc, rc, r->err);
	assert_string_equal(r->events, "");
	expect_contains("stderr", r->err, msg);
	assert_int_equal(r->out[0], '\0');
}

static void expect_ok(const struct run *r, const char *events)
{
	if (r->rc != 0)
		fail_msg("exit code %d, expected 0; stderr:\n%s", r->rc, r->err);
	assert_string_equal(r->events, events);
}

static int reset_root(void **state)
{
	(void)state;
	sysfs_set_root(NULL);
	return 0;
}

static void test_memset_defaults(void **state)
{
	struct run r;

	(void)state;
	INVOKE(&r, "mem", "memset", "-f", "default");
	expect_ok(&r, "begin;function:default;result:default;end;");
	/* perf's defaults (bench/mem-functions.c): -s 1MB, -l 1 */
	assert_string_equal(r.params, "chunk=0 page=4KB size=1MB nr_loops=1 cycles=false");
	assert_int_equal(r.last.bytes, 1 << 20);
	assert_int_equal(r.last.loops, 1);
	assert_int_equal(r.last.threads, 1);
	assert_true(r.last.elapsed_ns > 0);
	assert_int_equal(r.last.nmetrics, 1);
	assert_string_equal(r.last.metrics[0].name, "");
	assert_string_equal(r.last.metrics[0].unit, "bytes/sec");
	assert_true(r.last.metrics[0].higher_is_better);
	/* the headline is bytes over elapsed time, nothing else */
	assert_true(r.last.metrics[0].value > 0);
	assert_float_equal(r.last.metrics[0].value, (double)r.last.bytes * 1e9 / (double)r.last.elapsed_ns,
			   r.last.metrics[0].value * 1e-9);
	assert_true(r.last.cycles < 0);
	assert_string_equal(r.err, "");
}

static void test_mmap_defaults(void **state)
{
	struct run r;

	(void)state;
	INVOKE(&r, "mem", "mmap", "-s", "64KB");
	/* perf's default for mmap is every function */
	expect_ok(&r, "begin;function:demand;result:demand;function:populate;result:populate;end;");
	assert_string_equal(r.params,
			    "page=4KB size=64KB nr_loops=1 cycles=false randomize=0 threads=1 thp=system");
	assert_int_equal(r.last.bytes, 64 << 10);
	assert_int_equal(r.last.threads, 1);
	expect_contains("note", r.last.note, "THP: system setting");
}

/* The demand function faults inside the timed region: that is what it measures. */
static void test_mmap_demand_faults(void **state)
{
	struct run r;

	(void)state;
	INVOKE(&r, "mem", "mmap", "-s", "256KB", "-f", "demand");
	expect_ok(&r, "begin;function:demand;result:demand;end;");
	assert_true(r.last.minflt >= 1);
}

/* Short, glued, long, long=value and abbreviated spellings all reach the same field. */
static void test_option_spellings(void **state)
{
	static const char *const spellings[][3] = {
		{ "-s", "64KB", NULL }, { "-s64KB", NULL, NULL }, { "--size", "64KB", NULL },
		{ "--size=64KB", NULL, NULL }, { "-s", "65536", NULL }, { "--size=64KiB", NULL, NULL },
	};
	struct run r;

	(void)state;
	for (size_t i = 0; i < sizeof(spellings) / sizeof(spellings[0]); i++) {
		const char *words[8] = { "mem", "memset", "-f", "default" };
		size_t n = 4;

		for (size_t j = 0; j < 3 && spellings[i][j]; j++)
			words[n++] = spellings[i][j];
		invoke_argv(&r, words);
		expect_ok(&r, "begin;function:default;result:default;end;");
		assert_string_equal(r.params, "chunk=0 page=4KB size=64KB nr_loops=1 cycles=false");
	}
	INVOKE(&r, "mem", "memset", "--function=default", "-l3", "-k", "4KB", "--size=16KB", "-p",
	       "4096");
	expect_ok(&r, "begin;function:default;result:default;end;");
	assert_string_equal(r.params, "chunk=4KB page=4KB size=16KB nr_loops=3 cycles=false");
	assert_int_equal(r.last.loops, 3);
	assert_int_equal(r.last.bytes, 3 * (16 << 10));
	/* options after the function, and the long name of -l */
	INVOKE(&r, "mem", "memset", "-s", "8KB", "--nr_loops=2", "--chunk=8KB", "--function", "c-loop");
	expect_ok(&r, "begin;function:c-loop;result:c-loop;end;");
	assert_string_equal(r.params, "chunk=8KB page=4KB size=8KB nr_loops=2 cycles=false");
	assert_int_equal(r.last.bytes, 2 * (8 << 10));
}

/*
 * The sinks are told each option as typed ("4kb", "1073741824"), which perf
 * echoes in its "# Copying" line; the parameters are normalised.
 */
static void test_typed_values(void **state)
{
	struct run r;

	(void)state;
	INVOKE(&r, "mem", "memset", "-f", "default", "-s", "4kb");
	expect_ok(&r, "begin;function:default;result:default;end;");
	assert_string_equal(r.typed, "size=4kb");
	assert_string_equal(r.params, "chunk=0 page=4KB size=4KB nr_loops=1 cycles=false");
	INVOKE(&r, "mem", "memset", "-f", "default", "--size=65536", "-k4096", "-s", "8192");
	expect_ok(&r, "begin;function:default;result:default;end;");
	/* the last of a repeated option, as its value is */
	assert_string_equal(r.typed, "chunk=4096 size=8192");
	assert_string_equal(r.params, "chunk=4KB page=4KB size=8KB nr_loops=1 cycles=false");
	INVOKE(&r, "mem", "memset", "-f", "default");
	assert_string_equal(r.typed, "");
}

/* memcpy: perf's options and defaults, the bytes copied per loop, and -k no larger than -s. */
static void test_memcpy(void **state)
{
	struct run r;

	(void)state;
	INVOKE(&r, "mem", "memcpy", "-f", "default");
	expect_ok(&r, "begin;function:default;result:default;end;");
	assert_string_equal(r.params, "chunk=0 page=4KB size=1MB nr_loops=1 cycles=false");
	assert_int_equal(r.last.bytes, 1 << 20);
	assert_string_equal(r.last.metrics[0].unit, "bytes/sec");
	assert_true(r.last.metrics[0].value > 0);
	INVOKE(&r, "mem", "memcpy", "-f", "c-loop,default", "-s", "64KB", "-k", "4KB", "-l", "3");
	expect_ok(&r, "begin;function:c-loop;result:c-loop;function:default;result:default;end;");
	assert_int_equal(r.last.bytes, 3 * (64 << 10));
	INVOKE(&r, "mem", "memcpy", "-s", "64KB", "-k", "128KB");
	expect_refused(&r, EXIT_USAGE, "-k/--chunk (131072 bytes) is larger than -s/--size (65536 bytes)");
	/* a fill's name is no copy's */
	INVOKE(&r, "mem", "memcpy", "-f", "x86-64-stosb");
	expect_refused(&r, EXIT_USAGE, "unknown function 'x86-64-stosb' for 'bench mem memcpy'");
}

static void test_mmap_options(void **state)
{
	struct run r;

	(void)state;
	INVOKE(&r, "mem", "mmap", "-s", "64KB", "-r", "42", "-t", "2", "-l", "2", "-f", "demand");
	expect_ok(&r, "begin;function:demand;result:demand;end;");
	assert_string_equal(r.params,
			    "page=4KB size=64KB nr_loops=2 cycles=false randomize=42 threads=2 thp=system");
	assert_int_equal(r.last.threads, 2);
	assert_int_equal(r.last.loops, 2);
	assert_int_equal(r.last.bytes, 2 * (64 << 10));	/* per thread */
	assert_true(r.last.thread_rel_stddev >= 0);
	INVOKE(&r, "mem", "mmap", "-s", "64KB", "--thp", "never", "--randomize=7", "--threads=1",
	       "-f", "populate");
	expect_ok(&r, "begin;function:populate;result:populate;end;");
	assert_string_equal(r.params,
			    "page=4KB size=64KB nr_loops=1 cycles=false randomize=7 threads=1 thp=never");
	expect_contains("note", r.last.note, "MADV_NOHUGEPAGE");
}

struct usage_case {
	const char *words[8];
	const char *msg;
};

/* Every usage error is exit 2, reported before anything runs, with a message saying what is wrong. */
static void test_usage_errors(void **state)
{
	static const struct usage_case cases[] = {
		{ { "mem" }, "needs a collection and a workload" },
		{ { "mem", "nosuch" }, "unknown workload 'mem nosuch'" },
		{ { "nosuch", "memset" }, "unknown workload 'nosuch memset'" },
		{ { "mem", "memset", "-x" }, "-x is not an option" },
		{ { "mem", "memset", "--bogus" }, "--bogus is not an option" },
		{ { "mem", "memset", "-s" }, "-s of 'bench mem memset' needs a value" },
		{ { "mem", "memset", "--size" }, "--size of 'bench mem memset' needs a value" },
		{ { "mem", "memset", "-f" }, "-f of 'bench mem memset' needs a value" },
		{ { "mem", "memset", "-s", "1G" }, "invalid size '1G' for -s/--size: expected a whole number" },
		{ { "mem", "memset", "-s", "1.5GB" }, "invalid size '1.5GB'" },
		{ { "mem", "memset", "-s", "-1" }, "invalid size '-1'" },
		{ { "mem", "memset", "-s", "+1" }, "invalid size '+1'" },
		{ { "mem", "memset", "-s", " 1MB" }, "invalid size ' 1MB'" },
		{ { "mem", "memset", "-s", "1MBx" }, "invalid size '1MBx'" },
		{ { "mem", "memset", "-s", "4Kb" }, "KiB/MiB/GiB/TiB" },
		{ { "mem", "memset", "-s", "8589934592GB" }, "too large" },
		{ { "mem", "memset", "-s", "0" }, "-s/--size must be greater than zero" },
		{ { "mem", "memset", "-s", "0KB" }, "-s/--size must be greater than zero" },
		{ { "mem", "memset", "-p", "8KB" }, "invalid page size" },
		{ { "mem", "memset", "-p", "0" }, "invalid page size" },
		{ { "mem", "memset", "-p", "2M" }, "invalid size '2M' for -p/--page" },
		{ { "mem", "memset", "-l", "0" }, "-l/--nr_loops must be at least 1, not 0" },
		{ { "mem", "memset", "-l", "abc" }, "expected a whole number" },
		{ { "mem", "memset", "-l", "-1" }, "expected a whole number" },
		{ { "mem", "memset", "-l", "4294967296" }, "expected a whole number" },
		{ { "mem", "memset", "-s", "1MB", "-k", "2MB" }, "-k/--chunk (2097152 bytes) is larger than -s/--size" },
		{ { "mem", "memset", "-f", "nosuch" }, "unknown function 'nosuch'" },
		{ { "mem", "memset", "-f", "default,nosuch" }, "unknown function 'nosuch'" },
		{ { "mem", "memset", "-f", "" }, "-f needs at least one function name" },
		{ { "mem", "memset", "-f", ",default" }, "unknown function ''" },
		{ { "mem", "memset", "-f", "DEFAULT" }, "unknown function 'DEFAULT'" },
		{ { "mem", "memset", "extra" }, "unexpected argument 'extra'" },
		{ { "mem", "memset", "-s", "1MB", "-s" }, "-s of 'bench mem memset' needs a value" },
		{ { "mem", "mmap", "-t", "0" }, "-t/--threads must be between 1 and 1024, not 0" },
		{ { "mem", "mmap", "-t", "1025" }, "-t/--threads must be between 1 and 1024, not 1025" },
		{ { "mem", "mmap", "-r", "x" }, "invalid value 'x' for -r/--randomize" },
		{ { "mem", "mmap", "--thp", "sometimes" }, "expected one of system, always, never" },
		{ { "mem", "mmap", "--thp", "always", "-p", "2MB" }, "--thp always applies to -p 4KB only" },
		{ { "mem", "mmap", "--thp=never", "-p", "1GB" }, "--thp never applies to -p 4KB only" },
		{ { "mem", "mmap", "-f", "default" }, "unknown function 'default' for 'bench mem mmap'" },
		{ { "mem", "mmap", "-k", "4KB" }, "-k is not an option" },
		/* 33 names: the list is refused, not cut to the first 32 */
		{ { "mem", "mmap", "-f",
		    "demand,populate,demand,populate,demand,populate,demand,populate,demand,populate,"
		    "demand,populate,demand,populate,demand,populate,demand,populate,demand,populate,"
		    "demand,populate,demand,populate,demand,populate,demand,populate,demand,populate,"
		    "demand,populate,demand" }, "-f names more than 32 functions" },
	};
	struct run r;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		invoke_argv(&r, cases[i].words);
		expect_refused(&r, EXIT_USAGE, cases[i].msg);
	}
}

/* Options and unknown-option errors point at --help, unknown functions at -f help. */
static void test_usage_hints(void **state)
{
	struct run r;

	(void)state;
	INVOKE(&r, "mem", "memset", "--bogus");
	expect_contains("stderr", r.err, "hint: see 'clearpath bench mem memset --help'");
	INVOKE(&r, "mem", "mmap", "-f", "nosuch");
	expect_contains("stderr", r.err, "hint: '-f help' lists the functions");
	INVOKE(&r, "mem", "memset", "-s", "1G");
	expect_contains("stderr", r.err, "4096, 4KB, 2MB, 1GB, 1TB");
}

/* One process parses many command lines (the harness): an error leaves no state behind. */
static void test_parse_again_after_error(void **state)
{
	struct run r;

	(void)state;
	INVOKE(&r, "mem", "memset", "-s", "64KB", "-x", "-l", "5");
	expect_refused(&r, EXIT_USAGE, "-x is not an option");
	INVOKE(&r, "mem", "memset", "-f", "default", "-s", "8KB");
	expect_ok(&r, "begin;function:default;result:default;end;");
	assert_string_equal(r.params, "chunk=0 page=4KB size=8KB nr_loops=1 cycles=false");
	INVOKE(&r, "mem", "memset", "--help", "-s", "1G");
	assert_int_equal(r.rc, 0);
	INVOKE(&r, "mem", "memset", "-f", "default", "-s", "4KB");
	expect_ok(&r, "begin;function:default;result:default;end;");
	assert_string_equal(r.params, "chunk=0 page=4KB size=4KB nr_loops=1 cycles=false");
}

static void test_help(void **state)
{
	struct run r;

	(void)state;
	/* -f help goes to the sink, which prints it in its format; the workload prints nothing */
	INVOKE(&r, "mem", "memset", "-f", "help");
	expect_ok(&r, "functions;");
	assert_string_equal(r.out, "");
	for (size_t i = 0; i < kern_count(); i++) {
		const struct kern_strategy *k = kern_at(i);
		const char *why = kern_why_not(k);
		char line[512];

		snprintf(line, sizeof(line), "%s|%s|%s%s\n", k->name, k->desc, why ? why : "",
			 kern_perf_here(k) ? "" : "|all+");
		expect_contains("listed", r.listed, line);
	}
	/* memcpy lists the copy table: perf's first, the study's counterparts under all+ */
	INVOKE(&r, "mem", "memcpy", "-f", "help");
	expect_ok(&r, "functions;");
	for (size_t i = 0; i < kern_copy_count(); i++) {
		const struct kern_strategy *k = kern_copy_at(i);
		const char *why = kern_why_not(k);
		char line[512];

		snprintf(line, sizeof(line), "%s|%s|%s%s\n", k->name, k->desc, why ? why : "",
			 kern_perf_here(k) ? "" : "|all+");
		expect_contains("listed", r.listed, line);
	}
	assert_ptr_equal(strstr(r.listed, "default|Default memcpy() provided by glibc|\n"), r.listed);
	INVOKE(&r, "mem", "mmap", "-f", "help");
	expect_ok(&r, "functions;");
	expect_contains("listed", r.listed, "demand|Demand loaded mmap()|\n");
	expect_contains("listed", r.listed, "populate|Eagerly populated mmap()|\n");
	/* -f help needs no resources: it works where the run itself would be refused */
	INVOKE(&r, "mem", "memset", "-s", "8TB", "-f", "help");
	expect_ok(&r, "functions;");
	INVOKE(&r, "mem", "memset", "--help");
	expect_ok(&r, "");
	expect_contains("stdout", r.out, "usage: clearpath bench mem memset [options]");
	expect_contains("stdout", r.out, "-s, --size <size>");
	expect_contains("stdout", r.out, "(default: 1MB)");
	INVOKE(&r, "mem", "mmap", "-h");
	expect_ok(&r, "");
	expect_contains("stdout", r.out, "--thp <mode>");
}

/*
 * The events of a run of the fill (or copy) table's functions: those of
 * perf's set here (@every false), or every one, the ones this machine
 * cannot run reported as skipped.
 */
static void table_events(const struct kern_strategy *(*at)(size_t), size_t n, bool every, char *want,
			 size_t len)
{
	snprintf(want, len, "begin;");
	for (size_t i = 0; i < n; i++) {
		const struct kern_strategy *k = at(i);
		size_t used = strlen(want);

		if (!every && !kern_perf_here(k))
			continue;
		if (kern_why_not(k))
			snprintf(want + used, len - used, "skipped:%s;", k->name);
		else
			snprintf(want + used, len - used, "function:%s;result:%s;", k->name, k->name);
	}
	snprintf(want + strlen(want), len - strlen(want), "end;");
}

/*
 * -f all runs perf's functions for this architecture, in perf's order (so a
 * parser taking the last line, or keying on names, reads what it reads from
 * perf); -f all+ runs every one this machine can and reports the rest as
 * skipped.
 */
static void test_function_all(void **state)
{
	char want[2048];
	struct run r;

	(void)state;
	table_events(kern_at, kern_count(), false, want, sizeof(want));
#if defined(__x86_64__)
	assert_string_equal(want, "begin;function:default;result:default;function:x86-64-unrolled;"
			    "result:x86-64-unrolled;function:x86-64-stosq;result:x86-64-stosq;"
			    "function:x86-64-stosb;result:x86-64-stosb;end;");
#else
	assert_string_equal(want, "begin;function:default;result:default;end;");
#endif
	INVOKE(&r, "mem", "memset", "-s", "4KB", "-f", "all");
	expect_ok(&r, want);
	/* nothing of perf's set is skipped, so stderr stays empty */
	assert_string_equal(r.err, "");
	/* and "all" is the default, as in perf */
	INVOKE(&r, "mem", "memset", "-s", "4KB");
	expect_ok(&r, want);
	table_events(kern_at, kern_count(), true, want, sizeof(want));
	INVOKE(&r, "mem", "memset", "-s", "4KB", "-f", "all+");
	expect_ok(&r, want);
	INVOKE(&r, "mem", "clear", "-s", "64KB", "-f", "all+");
	expect_ok(&r, want);
	table_events(kern_copy_at, kern_copy_count(), false, want, sizeof(want));
#if defined(__x86_64__)
	assert_string_equal(want, "begin;function:default;result:default;function:x86-64-unrolled;"
			    "result:x86-64-unrolled;function:x86-64-movsq;result:x86-64-movsq;"
			    "function:x86-64-movsb;result:x86-64-movsb;end;");
#endif
	INVOKE(&r, "mem", "memcpy", "-s", "4KB");
	expect_ok(&r, want);
	table_events(kern_copy_at, kern_copy_count(), true, want, sizeof(want));
	INVOKE(&r, "mem", "memcpy", "-s", "4KB", "-f", "all+");
	expect_ok(&r, want);
	/* mmap's two are both perf's: all and all+ are one */
	INVOKE(&r, "mem", "mmap", "-s", "64KB", "-f", "all+");
	expect_ok(&r, "begin;function:demand;result:demand;function:populate;result:populate;end;");
	/* a selector is the whole -f value, never a name in a list */
	INVOKE(&r, "mem", "memset", "-s", "4KB", "-f", "default,all+");
	expect_refused(&r, EXIT_USAGE, "unknown function 'all+'");
}

static void test_function_list(void **state)
{
	struct run r;

	(void)state;
	INVOKE(&r, "mem", "memset", "-s", "4KB", "-f", "c-loop,default");
	expect_ok(&r, "begin;function:c-loop;result:c-loop;function:default;result:default;end;");
	assert_int_equal(r.nresults, 2);
	INVOKE(&r, "mem", "mmap", "-s", "64KB", "-f", "populate");
	expect_ok(&r, "begin;function:populate;result:populate;end;");
}

/* Naming a function this CPU lacks is a resource error, even among runnable ones. */
static void test_function_unavailable(void **state)
{
	const struct kern_strategy *k = NULL;
	char list[128], msg[256];
	struct run r;

	(void)state;
	for (size_t i = 0; i < kern_count() && !k; i++)
		if (kern_why_not(kern_at(i)))
			k = kern_at(i);
	assert_non_null(k);	/* the other architecture's rows at least */
	snprintf(msg, sizeof(msg), "function '%s' cannot run on this machine: %s", k->name,
		 kern_why_not(k));
	INVOKE(&r, "mem", "memset", "-s", "4KB", "-f", k->name);
	expect_refused(&r, EXIT_RESOURCE, msg);
	expect_contains("stderr", r.err, "hint: '-f all+' runs what this machine can");
	snprintf(list, sizeof(list), "default,%s", k->name);
	INVOKE(&r, "mem", "memset", "-s", "4KB", "-f", list);
	expect_refused(&r, EXIT_RESOURCE, msg);
#if defined(__x86_64__)
	INVOKE(&r, "mem", "memset", "-s", "4KB", "-f", "arm64-stp");
	expect_refused(&r, EXIT_RESOURCE, "function 'arm64-stp' cannot run on this machine: arm64 only");
#endif
}

/* -c needs the cycle counter: exit 3 before running where it cannot open (most VMs). */
static void test_cycles(void **state)
{
	int fd = perfctr_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	struct run r;

	(void)state;
	INVOKE(&r, "mem", "memset", "-s", "64KB", "-f", "default", "-c");
	if (fd < 0) {
		expect_refused(&r, EXIT_RESOURCE, "-c/--cycles needs the CPU cycle counter");
		expect_contains("stderr", r.err, perfctr_strerror(fd));
		expect_contains("stderr", r.err, "hint: drop -c");
		INVOKE(&r, "mem", "mmap", "-s", "64KB", "--cycles");
		expect_refused(&r, EXIT_RESOURCE, "-c/--cycles needs the CPU cycle counter");
		return;
	}
	close(fd);
	expect_ok(&r, "begin;function:default;result:default;end;");
	assert_string_equal(r.params, "chunk=0 page=4KB size=64KB nr_loops=1 cycles=true");
	assert_int_equal(r.last.nmetrics, 2);
	assert_string_equal(r.last.metrics[1].unit, "cycles/byte");
	assert_true(r.last.cycles >= 0);
}

static const struct wl_metric *find_metric(const struct wl_result *res, const char *name)
{
	for (size_t i = 0; i < res->nmetrics; i++)
		if (!strcmp(res->metrics[i].name, name))
			return &res->metrics[i];
	return NULL;
}

static unsigned count_of(const char *text, const char *needle)
{
	unsigned n = 0;

	for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/*
 * --counters is the driver's: every workload takes it, parameters stay the
 * same, the metrics follow the headline, and what cannot count is said once
 * per process.  All in one test because that once is per process.
 */
static void test_counters(void **state)
{
	int hw = perfctr_open_timed(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	int sw = perfctr_open_timed(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS);
	const struct wl_metric *pf;
	struct run r;
	char plain[512];
	double pages;

	(void)state;
	if (hw >= 0)
		close(hw);
	if (sw >= 0)
		close(sw);
	INVOKE(&r, "mem", "memset", "--help");
	expect_contains("stdout", r.out, "    --counters ");
	INVOKE(&r, "mem", "memset", "-s", "64KB", "-f", "default");
	expect_ok(&r, "begin;function:default;result:default;end;");
	assert_false(r.last.counters.on);
	assert_int_equal(r.last.nmetrics, 1);
	snprintf(plain, sizeof(plain), "%s", r.params);

	INVOKE(&r, "mem", "memset", "-s", "64KB", "--counters", "-f", "default");
	expect_ok(&r, "begin;function:default;result:default;end;");
	assert_string_equal(r.params, plain);
	assert_true(r.last.counters.on);
	assert_string_equal(r.last.metrics[0].name, "");
	assert_int_equal(find_metric(&r.last, "task-clock") != NULL, sw >= 0);
	assert_int_equal(find_metric(&r.last, "cycles") != NULL, hw >= 0);
	/* without perf events at all (no CONFIG_PERF_EVENTS, qemu-user) one line names every event */
	assert_int_equal(count_of(r.err, sw < 0 ? ": counters unavailable (" : "hardware counters unavailable ("),
			 hw < 0);
	if (hw < 0)
		expect_contains("stderr", r.err, perfctr_strerror(hw));

	/* the same reason again in this process: nothing more on stderr */
	INVOKE(&r, "mem", "mmap", "-s", "4MB", "-f", "demand", "--thp", "never", "-t", "2", "--counters");
	expect_ok(&r, "begin;function:demand;result:demand;end;");
	assert_string_equal(r.err, "");
	if (sw < 0)
		return;
	/* both threads' faults, per 4KB page of both buffers, agree with getrusage's count */
	pages = 2.0 * (4 << 20) / 4096;
	pf = find_metric(&r.last, "page-faults");
	assert_non_null(pf);
	assert_string_equal(pf->unit, "faults/page");
	assert_float_equal(pf->value, (double)r.last.minflt / pages, 0.05);
	assert_true(pf->value >= 1);
}

static void use(const char *fixture)
{
	sysfs_set_root(fixture_path(fixture));
}

/* small-box has 96MB available and clearpath keeps 64MB free: 32MB is the most a run may use. */
static void test_resource_memory(void **state)
{
	struct run r;

	(void)state;
	use("small-box");
	INVOKE(&r, "mem", "memset", "-s", "64MB");
	expect_refused(&r, EXIT_RESOURCE, "this run needs 64MB of memory but only 96MB is available");
	expect_contains("stderr", r.err, "hint: use a smaller -s");
	INVOKE(&r, "mem", "memset", "-s", "32772KB", "-f", "default");
	expect_refused(&r, EXIT_RESOURCE, "needs 32772KB of memory");
	INVOKE(&r, "mem", "memset", "-s", "32MB", "-f", "default");
	expect_ok(&r, "begin;function:default;result:default;end;");
	/* memcpy maps a source and a destination: twice -s */
	INVOKE(&r, "mem", "memcpy", "-s", "64MB", "-f", "default");
	expect_refused(&r, EXIT_RESOURCE, "this run needs 128MB of memory but only 96MB is available");
	INVOKE(&r, "mem", "memcpy", "-s", "16MB", "-f", "default");
	expect_ok(&r, "begin;function:default;result:default;end;");
	/* mmap threads each map their own buffer: -t multiplies the need */
	INVOKE(&r, "mem", "mmap", "-s", "12MB", "-t", "3", "-f", "demand");
	expect_refused(&r, EXIT_RESOURCE, "this run needs 36MB of memory");
	INVOKE(&r, "mem", "mmap", "-s", "8MB", "-t", "2", "-f", "demand");
	expect_ok(&r, "begin;function:demand;result:demand;end;");
	/* a size checks before the function list: -f all does not reach a run */
	INVOKE(&r, "mem", "mmap", "-s", "1TB");
	expect_refused(&r, EXIT_RESOURCE, "this run needs 1TB of memory");
}

/* Not enough free 2MB pages: exit 3 with the exact sysfs command, counting pages already in use. */
static void test_resource_2mb(void **state)
{
	struct run r;

	(void)state;
	use("vm-x86");
	INVOKE(&r, "mem", "mmap", "-p", "2MB", "-s", "4MB");
	expect_refused(&r, EXIT_RESOURCE, "this run needs 2 free 2MB hugetlb pages, but 0 of 0 are free");
	expect_contains("stderr", r.err,
			"echo 2 > /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages");
	expect_contains("stderr", r.err, "hugepagesz=2M hugepages=2");
	INVOKE(&r, "mem", "memset", "-p", "2MB", "-s", "3MB", "-f", "default");
	expect_refused(&r, EXIT_RESOURCE, "needs 2 free 2MB hugetlb pages");	/* rounded up */
	/* small-box: 3 of 4 pages in use, so 2 more free pages means a pool of 5 */
	use("small-box");
	INVOKE(&r, "mem", "memset", "-p", "2MB", "-s", "4MB", "-f", "default");
	expect_refused(&r, EXIT_RESOURCE, "needs 2 free 2MB hugetlb pages, but 1 of 4 are free");
	expect_contains("stderr", r.err,
			"echo 5 > /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages");
	INVOKE(&r, "mem", "mmap", "-p", "2MB", "-s", "2MB", "-t", "2");
	expect_refused(&r, EXIT_RESOURCE, "needs 2 free 2MB hugetlb pages");
	use("old-arm64");
	INVOKE(&r, "mem", "mmap", "-p", "2MB", "-s", "2MB");
	expect_refused(&r, EXIT_RESOURCE, "2MB hugetlb pages are not offered by this kernel");
	use("broken");
	INVOKE(&r, "mem", "mmap", "-p", "2MB", "-s", "2MB");
	expect_refused(&r, EXIT_RESOURCE, "cannot read the 2MB hugetlb pool");
}

/* 1GB pages: not reserved, not offered by the kernel, or not supported by the CPU. */
static void test_resource_1gb(void **state)
{
	struct run r;

	(void)state;
	use("vm-x86");
	INVOKE(&r, "mem", "mmap", "-p", "1GB", "-s", "1GB", "-f", "demand");
	expect_refused(&r, EXIT_RESOURCE, "needs 1 free 1GB hugetlb pages, but 0 of 0 are free");
	expect_contains("stderr", r.err, "default_hugepagesz=1G hugepagesz=1G hugepages=1");
	expect_contains("stderr", r.err,
			"echo 1 > /sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages");
	use("small-box");
	INVOKE(&r, "mem", "mmap", "-p", "1GB", "-s", "1GB");
	expect_refused(&r, EXIT_RESOURCE, "1GB pages are not supported: this CPU lacks the pdpe1gb flag");
	expect_contains("stderr", r.err, "hint: use -p 2MB");
	use("old-arm64");
	INVOKE(&r, "mem", "memset", "-p", "1GB", "-s", "1GB");
	expect_refused(&r, EXIT_RESOURCE,
		       "1GB hugetlb pages are not offered by this kernel (no /sys/kernel/mm/hugepages/hugepages-1048576kB)");
	use("broken");	/* nr_hugepages "abc" */
	INVOKE(&r, "mem", "mmap", "-p", "1GB", "-s", "1GB");
	expect_refused(&r, EXIT_RESOURCE, "cannot read the 1GB hugetlb pool");
}

/* Without MemAvailable (kernels before 3.14) the size is not checked, with a warning. */
static void test_resource_unknown_memory(void **state)
{
	struct run r;

	(void)state;
	use("old-arm64");
	INVOKE(&r, "mem", "memset", "-s", "64KB", "-f", "default");
	expect_ok(&r, "begin;function:default;result:default;end;");
	expect_contains("stderr", r.err, "warning: cannot read MemAvailable");
}

/* The THP note reads the system setting through the same root. */
static void test_mmap_thp_note(void **state)
{
	struct run r;

	(void)state;
	use("small-box");
	INVOKE(&r, "mem", "mmap", "-s", "64KB", "-f", "demand", "--thp", "always");
	expect_ok(&r, "begin;function:demand;result:demand;end;");
	assert_string_equal(r.last.note, "THP: MADV_HUGEPAGE (system setting 'always')");
	use("vm-x86");
	INVOKE(&r, "mem", "mmap", "-s", "64KB", "-f", "demand");
	expect_ok(&r, "begin;function:demand;result:demand;end;");
	assert_string_equal(r.last.note, "THP: system setting 'madvise', no madvise");
}

/*
 * mmap checks size * threads against MemAvailable; the product must not wrap
 * around 2^64 (-s 6148914691236517206 -t 3 would ask for 2 bytes) and let a
 * run start that can only fail in mmap.
 */
static void test_mmap_threads_overflow(void **state)
{
	struct run r;

	(void)state;
	use("small-box");
	INVOKE(&r, "mem", "mmap", "-s", "6148914691236517206", "-t", "3", "-f", "demand");
	expect_refused(&r, EXIT_RESOURCE, "more memory than any machine has");
}

/* --thp with a page size that is not 4KB/2MB/1GB reports the bad page size first. */
static void test_thp_bad_page_reports_page(void **state)
{
	struct run r;

	(void)state;
	INVOKE(&r, "mem", "mmap", "--thp", "always", "-p", "8KB");
	expect_refused(&r, EXIT_USAGE, "invalid page size");
}

/* --- identity: one benchmark whatever the spelling, shown in the table's order --- */

static void expect_identity(const char *suite, const char *params, const char *display, const char *key)
{
	static struct bench_identity id;

	assert_int_equal(wl_identity_parse(suite, params, &id), 0);
	assert_string_equal(id.suite, suite);
	assert_string_equal(id.display, display);
	if (key)
		assert_string_equal(id.key, key);
}

static void test_identity_spellings(void **state)
{
	static const char *const same[] = {
		"-f default -s 1MB -l 2", "-l 2 -s 1MB -f default", "--size 1MB --nr_loops 2 --function default",
		"--size=1024KB -l2 -fdefault", "-s 1048576 -l 2 -f default -k 0 -p 4KB", "-f default -l 2",
	};
	static struct bench_identity a, b;

	(void)state;
	assert_int_equal(wl_identity_parse("mem/memset", same[0], &a), 0);
	assert_string_equal(a.key, "chunk=0 page=4KB function=default size=1MB nr_loops=2 cycles=false");
	for (size_t i = 1; i < sizeof(same) / sizeof(same[0]); i++) {
		assert_int_equal(wl_identity_parse("mem/memset", same[i], &b), 0);
		assert_string_equal(a.key, b.key);
	}
	/* another value, another function: another benchmark */
	assert_int_equal(wl_identity_parse("mem/memset", "-f default -s 2MB -l 2", &b), 0);
	assert_string_not_equal(a.key, b.key);
	assert_int_equal(wl_identity_parse("mem/memset", "-f c-loop -s 1MB -l 2", &b), 0);
	assert_string_not_equal(a.key, b.key);
	/* an extent of 0 is one page: the same measurement as -k 4KB */
	assert_int_equal(wl_identity_parse("mem/clear", "-f default -s 1GB", &a), 0);
	assert_int_equal(wl_identity_parse("mem/clear", "-k 4KB -f default -s 1GB", &b), 0);
	assert_string_equal(a.key, b.key);
}

static void test_identity_display(void **state)
{
	(void)state;
	/* the seed's strings come out as they were */
	expect_identity("mem/memset", "-k 1GB -f default -s 16GB", "-k 1GB -f default -s 16GB", NULL);
	expect_identity("mem/mmap", "-p 4KB -f demand -s 32GB -l 5", "-p 4KB -f demand -s 32GB -l 5", NULL);
	expect_identity("mem/mmap", "-l 5 -s 32768MB --function demand --page 1GB", "-p 1GB -f demand -s 32GB -l 5",
			"page=1GB function=demand size=32GB nr_loops=5 cycles=false randomize=0 threads=1 thp=system");
	/* the rest after -l, long names where there is no short one; flags bare */
	expect_identity("mem/clear", "--then read -c -s 1GB -k 2MB -p 2MB -f default",
			"-p 2MB -k 2MB -f default -s 1GB -c --then read", NULL);
	/* hand-made data sets name the workload in the text */
	expect_identity("perf/mem", "memset -k 1GB -f default -s 16GB", "memset -k 1GB -f default -s 16GB", NULL);
	/* what does not parse is its text */
	expect_identity("mem/memset", "-s 1MB --bogus", "-s 1MB --bogus", "-s 1MB --bogus");
	expect_identity("exec/marker", "sh -c 'echo 1'", "sh -c 'echo 1'", "sh -c 'echo 1'");
	expect_identity("mem/nosuch", "-s 1MB", "-s 1MB", "-s 1MB");
	/* an empty -f names no function anywhere: its text, not "-f " that reads back as another benchmark */
	expect_identity("mem/mmap", "--f=", "--f=", "--f=");
	expect_identity("mem/memset", "-s 1MB --function=", "-s 1MB --function=", "-s 1MB --function=");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memset_defaults),
		cmocka_unit_test(test_mmap_defaults),
		cmocka_unit_test(test_mmap_demand_faults),
		cmocka_unit_test(test_option_spellings),
		cmocka_unit_test(test_typed_values),
		cmocka_unit_test(test_memcpy),
		cmocka_unit_test(test_mmap_options),
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_usage_hints),
		cmocka_unit_test(test_parse_again_after_error),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_identity_spellings),
		cmocka_unit_test(test_identity_display),
		cmocka_unit_test(test_function_all),
		cmocka_unit_test(test_function_list),
		cmocka_unit_test(test_function_unavailable),
		cmocka_unit_test(test_cycles),
		cmocka_unit_test(test_counters),
		cmocka_unit_test_teardown(test_resource_memory, reset_root),
		cmocka_unit_test_teardown(test_resource_2mb, reset_root),
		cmocka_unit_test_teardown(test_resource_1gb, reset_root),
		cmocka_unit_test_teardown(test_resource_unknown_memory, reset_root),
		cmocka_unit_test_teardown(test_mmap_thp_note, reset_root),
		cmocka_unit_test_teardown(test_mmap_threads_overflow, reset_root),
		cmocka_unit_test(test_thp_bad_page_reports_page),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
