/* test_counters: the --counters event set on this machine and through fake openers, its merge, messages and metrics. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "util/counters.h"
#include "workloads/workload.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096
#define NPAGES 1024

/* --- the real machine: software events count what the kernel did ---------------------- */

static long minor_faults(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_minflt;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Not instrumented: under ASan each store would also fault in shadow pages. */
__attribute__((no_sanitize("address"))) static void touch_pages(volatile char *p)
{
	for (size_t i = 0; i < NPAGES; i++)
		p[i * PAGE] = 1;
}

/*
 * One plain write to each page of a fresh private anonymous 4KB mapping is
 * one minor fault per page (a read first would add a zero-page fault).  The
 * reference is getrusage's own fault count over the same interval: a second,
 * independent source.
 */
static void test_real_page_faults(void **state)
{
	struct counters_set s;
	volatile char *p = mmap(NULL, NPAGES * PAGE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long f0, f1;
	uint64_t t0, t1;

	(void)state;
	assert_true(p != MAP_FAILED);
	madvise((void *)p, NPAGES * PAGE, MADV_NOHUGEPAGE);
	counters_open(&s, NULL);
	if (s.tot.err[COUNTERS_PAGE_FAULTS]) {
		print_message("# test_real_page_faults skipped: the page-faults event does not open here (%s)\n",
			      counters_strerror(s.tot.err[COUNTERS_PAGE_FAULTS]));
		counters_close(&s);
		munmap((void *)p, NPAGES * PAGE);
		skip();		/* perf_event_paranoid 3, no CONFIG_PERF_EVENTS, or qemu-user */
	}
	f0 = minor_faults();
	t0 = now_ns();
	counters_start(&s);
	touch_pages(p);
	counters_stop(&s);
	t1 = now_ns();
	f1 = minor_faults();
	counters_close(&s);
	munmap((void *)p, NPAGES * PAGE);

	assert_true(s.tot.on);
	assert_false(s.tot.scaled[COUNTERS_PAGE_FAULTS]);	/* software events never multiplex */
	assert_true(s.tot.value[COUNTERS_PAGE_FAULTS] >= NPAGES);
	assert_true(s.tot.value[COUNTERS_PAGE_FAULTS] <= NPAGES + 8);
	assert_true(s.tot.value[COUNTERS_PAGE_FAULTS] <= (double)(f1 - f0));
	/* the thread ran inside the interval, and no longer than the interval lasted */
	assert_int_equal(s.tot.err[COUNTERS_TASK_CLOCK], 0);
	assert_true(s.tot.value[COUNTERS_TASK_CLOCK] > 0);
	assert_true(s.tot.value[COUNTERS_TASK_CLOCK] <= (double)(t1 - t0));
	/* fds closed, totals kept, a second close is harmless */
	for (size_t i = 0; i < COUNTERS_N; i++)
		assert_int_equal(s.fd[i], -1);
	counters_close(&s);
}

/* --- fake events: a pipe per event, the test writes what each read returns ------------ */

static int fake_wr[COUNTERS_N];	/* write ends, by event, for the test to feed */
static size_t fake_opened;
static int fake_hw_err;		/* what hardware events fail with; 0: they open too */

static int fake_index(uint32_t type, uint64_t config)
{
	for (size_t i = 0; i < COUNTERS_N; i++)
		if (counters_events[i].type == type && counters_events[i].config == config)
			return (int)i;
	return -1;
}

static int fake_open(uint32_t type, uint64_t config)
{
	int i = fake_index(type, config), fds[2];

	if (i < 0)
		return -EINVAL;
	if (counters_events[i].hardware && fake_hw_err)
		return fake_hw_err;
	if (pipe(fds))
		return -errno;
	fake_wr[i] = fds[1];
	fake_opened++;
	return fds[0];
}

/* Queue the next read of event @i: value, time enabled, time running. */
static void fake_feed(size_t i, uint64_t value, uint64_t enabled, uint64_t running)
{
	uint64_t v[3] = { value, enabled, running };

	assert_int_equal(write(fake_wr[i], v, sizeof(v)), (ssize_t)sizeof(v));
}

static int fake_reset(void **state)
{
	(void)state;
	for (size_t i = 0; i < COUNTERS_N; i++) {
		if (fake_wr[i] > 0)
			close(fake_wr[i]);
		fake_wr[i] = -1;
	}
	fake_opened = 0;
	fake_hw_err = 0;
	return 0;
}

/* Every event opens: counts are end minus start, summed over start/stop pairs. */
static void test_fake_all_open(void **state)
{
	struct counters_set s;
	char msg[512];

	(void)state;
	assert_int_equal(counters_open(&s, fake_open), COUNTERS_N);
	for (size_t i = 0; i < COUNTERS_N; i++) {
		fake_feed(i, 100, 1000, 1000);
		fake_feed(i, 100 + 10 * (i + 1), 2000, 2000);
		fake_feed(i, 500, 3000, 3000);
		fake_feed(i, 505, 3500, 3500);
	}
	counters_start(&s);
	counters_stop(&s);
	counters_start(&s);
	counters_stop(&s);
	counters_close(&s);
	for (size_t i = 0; i < COUNTERS_N; i++) {
		assert_int_equal(s.tot.err[i], 0);
		assert_false(s.tot.scaled[i]);
		assert_float_equal(s.tot.value[i], 10.0 * (double)(i + 1) + 5, 1e-9);
	}
	assert_int_equal(counters_describe_missing(&s.tot, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "");
}

/*
 * A multiplexed event is scaled by enabled/running as perf stat does (500
 * counted while on the PMU half the time reads as 1000); one that never got
 * on the PMU has no value at all, not zero.
 */
static void test_fake_multiplexed(void **state)
{
	struct counters_set s;
	char msg[512];

	(void)state;
	counters_open(&s, fake_open);
	for (size_t i = 0; i < COUNTERS_N; i++)
		fake_feed(i, 0, 0, 0);
	fake_feed(COUNTERS_TASK_CLOCK, 7, 7, 7);
	fake_feed(COUNTERS_PAGE_FAULTS, 0, 0, 0);
	fake_feed(COUNTERS_CONTEXT_SWITCHES, 0, 0, 0);
	fake_feed(COUNTERS_CPU_MIGRATIONS, 0, 0, 0);
	fake_feed(COUNTERS_CYCLES, 500, 2000, 1000);
	fake_feed(COUNTERS_INSTRUCTIONS, 300, 2000, 2000);
	fake_feed(COUNTERS_CACHE_MISSES, 0, 2000, 0);
	fake_feed(COUNTERS_DTLB_LOAD_MISSES, 40, 2000, 500);
	counters_start(&s);
	counters_stop(&s);
	assert_int_equal(s.fd[COUNTERS_CACHE_MISSES], -1);	/* dropped, not read again */
	counters_close(&s);

	assert_float_equal(s.tot.value[COUNTERS_CYCLES], 1000, 1e-9);
	assert_true(s.tot.scaled[COUNTERS_CYCLES]);
	assert_float_equal(s.tot.value[COUNTERS_INSTRUCTIONS], 300, 1e-9);
	assert_false(s.tot.scaled[COUNTERS_INSTRUCTIONS]);
	assert_float_equal(s.tot.value[COUNTERS_DTLB_LOAD_MISSES], 160, 1e-9);
	assert_int_not_equal(s.tot.err[COUNTERS_CACHE_MISSES], 0);
	assert_float_equal(s.tot.value[COUNTERS_TASK_CLOCK], 7, 1e-9);
	assert_int_equal(counters_describe_missing(&s.tot, msg, sizeof(msg)), 1);
	assert_string_equal(msg, "hardware counters unavailable (never got a hardware counter: other events "
				 "(perf, the NMI watchdog) hold them all): cache-misses");
}

/* A VM without a PMU: the software events count, the hardware ones are named once with the reason. */
static void test_fake_no_hardware(void **state)
{
	struct counters_set s;
	char msg[512];

	(void)state;
	fake_hw_err = -ENOENT;
	assert_int_equal(counters_open(&s, fake_open), COUNTERS_FIRST_HW);
	for (size_t i = 0; i < COUNTERS_FIRST_HW; i++) {
		fake_feed(i, 1, 1, 1);
		fake_feed(i, 3, 2, 2);
	}
	counters_start(&s);
	counters_stop(&s);
	counters_close(&s);
	for (size_t i = 0; i < COUNTERS_N; i++) {
		assert_int_equal(s.tot.err[i], i < COUNTERS_FIRST_HW ? 0 : -ENOENT);
		assert_float_equal(s.tot.value[i], i < COUNTERS_FIRST_HW ? 2 : 0, 1e-9);
	}
	assert_int_equal(counters_describe_missing(&s.tot, msg, sizeof(msg)), 1);
	assert_string_equal(msg, "hardware counters unavailable (this CPU or hypervisor does not expose the "
				 "hardware counter (common in VMs)): cycles, instructions, cache-misses, "
				 "dTLB-load-misses");
}

/* Different reasons make different lines; a software event among them is not called hardware. */
static void test_describe_reasons(void **state)
{
	struct counters_totals t = { .on = true };
	char msg[1024];

	(void)state;
	t.err[COUNTERS_TASK_CLOCK] = -EACCES;
	t.err[COUNTERS_CYCLES] = -EACCES;
	t.err[COUNTERS_CACHE_MISSES] = -ENOENT;
	assert_int_equal(counters_describe_missing(&t, msg, sizeof(msg)), 2);
	assert_string_equal(msg,
			    "counters unavailable (not permitted: lower /proc/sys/kernel/perf_event_paranoid "
			    "or run as root): task-clock, cycles\n"
			    "hardware counters unavailable (this CPU or hypervisor does not expose the hardware "
			    "counter (common in VMs)): cache-misses");
	/* not asked for: nothing to say */
	t.on = false;
	assert_int_equal(counters_describe_missing(&t, msg, sizeof(msg)), 0);
}

/* Threads add up; an event one thread could not count is missing from the sum. */
static void test_merge(void **state)
{
	struct counters_totals sum = { 0 }, a = { .on = true }, b = { .on = true };

	(void)state;
	a.value[COUNTERS_PAGE_FAULTS] = 10;
	b.value[COUNTERS_PAGE_FAULTS] = 32;
	a.value[COUNTERS_CYCLES] = 5;
	b.err[COUNTERS_CYCLES] = -EMFILE;
	b.scaled[COUNTERS_INSTRUCTIONS] = true;
	counters_merge(&sum, &a);
	counters_merge(&sum, &b);
	assert_true(sum.on);
	assert_float_equal(sum.value[COUNTERS_PAGE_FAULTS], 42, 1e-9);
	assert_int_equal(sum.err[COUNTERS_PAGE_FAULTS], 0);
	assert_int_equal(sum.err[COUNTERS_CYCLES], -EMFILE);
	assert_true(sum.scaled[COUNTERS_INSTRUCTIONS]);
	assert_false(sum.scaled[COUNTERS_PAGE_FAULTS]);
}

/* --- metrics: every event normalised to the run, none for an event without a value ------ */

static const struct wl_metric *metric(const struct wl_result *r, const char *name)
{
	for (size_t i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i].name, name))
			return &r->metrics[i];
	return NULL;
}

static void expect_metric(const struct wl_result *r, const char *name, double value, const char *unit)
{
	const struct wl_metric *m = metric(r, name);

	if (!m)
		fail_msg("no metric '%s'", name);
	assert_float_equal(m->value, value, 1e-9 * (value > 1 ? value : 1));
	assert_string_equal(m->unit, unit);
	assert_false(m->higher_is_better);
}

/*
 * Two threads of 4MB each over 2MB pages: 8MB = 8192KB = 4 huge pages in all.
 * The expected values are the arithmetic of the units, worked by hand.
 */
static void test_metrics(void **state)
{
	struct wl_result r = { .bytes = 4 << 20, .threads = 2, .cycles = -1, .counters.on = true };

	(void)state;
	wl_result_add(&r, "", 1e9, "bytes/sec", true);
	r.counters.value[COUNTERS_TASK_CLOCK] = 6e6;	/* ns over both threads: 3 msec each */
	r.counters.value[COUNTERS_PAGE_FAULTS] = 4;
	r.counters.value[COUNTERS_CONTEXT_SWITCHES] = 3;
	r.counters.value[COUNTERS_CPU_MIGRATIONS] = 1;
	r.counters.value[COUNTERS_CYCLES] = 8 << 20;
	r.counters.value[COUNTERS_INSTRUCTIONS] = 2 << 20;
	r.counters.value[COUNTERS_CACHE_MISSES] = 16384;
	r.counters.err[COUNTERS_DTLB_LOAD_MISSES] = -ENOENT;
	r.counters.value[COUNTERS_DTLB_LOAD_MISSES] = 0;
	wl_counter_metrics(&r, 2 << 20);

	assert_int_equal(r.nmetrics, 1 + COUNTERS_N - 1);
	expect_metric(&r, "task-clock", 3, "msec");
	expect_metric(&r, "page-faults", 1, "faults/page");
	expect_metric(&r, "context-switches", 3, "count");
	expect_metric(&r, "cpu-migrations", 1, "count");
	expect_metric(&r, "cycles", 1, "cycles/byte");
	expect_metric(&r, "instructions", 0.25, "instructions/byte");
	expect_metric(&r, "cache-misses", 2, "misses/KB");
	assert_null(metric(&r, "dTLB-load-misses"));	/* never a zero in its place */
	assert_string_equal(r.metrics[0].name, "");	/* the headline stays first */
}

/* -c already reports cycles/byte for the same region; off means nothing at all. */
static void test_metrics_cycles_and_off(void **state)
{
	struct wl_result r = { .bytes = 4096, .threads = 1, .cycles = 4096, .counters.on = true };

	(void)state;
	wl_result_add(&r, "", 1e9, "bytes/sec", true);
	wl_result_add(&r, "cycles", 1, "cycles/byte", false);
	r.counters.value[COUNTERS_CYCLES] = 4096;
	wl_counter_metrics(&r, 4096);
	assert_int_equal(r.nmetrics, 2 + COUNTERS_N - 1);
	r.nmetrics = 1;
	r.counters.on = false;
	wl_counter_metrics(&r, 4096);
	assert_int_equal(r.nmetrics, 1);
}

/* --- identity: --counters adds result classes to the benchmark, it is not another one --- */

static void test_canonical_ignores_counters(void **state)
{
	static struct bench_identity a, b;

	(void)state;
	assert_int_equal(wl_identity_parse("mem/memset", "-s 4MB --counters -f default", &a), 0);
	assert_int_equal(wl_identity_parse("mem/memset", "-s 4MB -f default", &b), 0);
	assert_string_equal(a.display, "-f default -s 4MB");
	assert_string_equal(a.key, b.key);
	assert_string_equal(a.display, b.display);
	assert_int_equal(wl_identity_parse("mem/memset", "--counters -s 4096 -f default", &a), 0);
	assert_string_equal(a.display, "-f default -s 4KB");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_page_faults),
		cmocka_unit_test_setup_teardown(test_fake_all_open, fake_reset, fake_reset),
		cmocka_unit_test_setup_teardown(test_fake_multiplexed, fake_reset, fake_reset),
		cmocka_unit_test_setup_teardown(test_fake_no_hardware, fake_reset, fake_reset),
		cmocka_unit_test(test_describe_reasons),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_metrics),
		cmocka_unit_test(test_metrics_cycles_and_off),
		cmocka_unit_test(test_canonical_ignores_counters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
