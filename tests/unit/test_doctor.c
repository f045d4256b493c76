/* test_doctor: the doctor's checks, --fix and snapshots against fixture trees (tests/fixtures/doctor/). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "doctor/doctor.h"
#include "util/sysfs.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The fixture trees sit beside this file's directory; make runs the tests from the top of the tree. */
static void fixture_path(const char *name, char *buf, size_t len)
{
	char here[512];

	snprintf(here, sizeof(here), "%s", __FILE__);
	snprintf(buf, len, "%s/../fixtures/doctor/%s", dirname(here), name);
}

/* Counter openers standing in for perfctr_open(): every event opens, only software ones, none. */
static int open_all(uint32_t type, uint64_t config)
{
	(void)type;
	(void)config;
	return open("/dev/null", O_RDONLY | O_CLOEXEC);
}

static int open_sw_only(uint32_t type, uint64_t config)
{
	return type == PERF_TYPE_SOFTWARE ? open_all(type, config) : -ENOENT;
}

static int open_none(uint32_t type, uint64_t config)
{
	(void)type;
	(void)config;
	return -EACCES;
}

/* Run every check on fixture @name (NULL: keep the current root) with @needs. */
static void run_on(const char *name, const struct doctor_needs *needs,
		   int (*open_counter)(uint32_t, uint64_t), struct doctor_report *rep)
{
	struct doctor_opts opts = { .needs = needs, .open_counter = open_counter };
	char root[600];

	if (name) {
		fixture_path(name, root, sizeof(root));
		sysfs_set_root(root);
	}
	memset(rep, 0, sizeof(*rep));
	assert_int_equal(doctor_run(&opts, rep), 0);
}

/* Assert that check @name has status @st and that @field of it contains @text (NULL: skip). */
static const struct doctor_result *expect(const struct doctor_report *rep, const char *name,
					  enum doctor_status st, const char *text)
{
	const struct doctor_result *r = doctor_find(rep, name);

	if (!r)
		fail_msg("no result for check %s", name);
	if (r->status != st)
		fail_msg("%s: %s, expected %s (%s: %s)", name, doctor_status_name(r->status),
			 doctor_status_name(st), r->value, r->detail);
	if (text && !strstr(r->value, text) && !strstr(r->detail, text) && !strstr(r->fix, text))
		fail_msg("%s: '%s' not in value '%s', detail '%s' or fix '%s'", name, text, r->value,
			 r->detail, r->fix);
	return r;
}

static void test_needs_merge_by_maximum(void **state)
{
	struct doctor_needs n = { 0 };

	(void)state;
	assert_int_equal(doctor_needs_add(&n, 1 << 20, 4096), 0);
	assert_int_equal(doctor_needs_add(&n, 64 << 20, 0), 0);
	assert_int_equal(doctor_needs_add(&n, 1 << 20, 4096), 0);
	assert_int_equal(n.memory, 64 << 20);
	/* 5MB in 2MB pages rounds up to 3; a later smaller need does not lower it */
	assert_int_equal(doctor_needs_add(&n, 5 << 20, 2 << 20), 0);
	assert_int_equal(doctor_needs_add(&n, 2 << 20, 2 << 20), 0);
	assert_int_equal(n.npools, 1);
	assert_int_equal(n.hugepages[0].page_bytes, 2 << 20);
	assert_int_equal(n.hugepages[0].pages, 3);
	for (uint64_t i = 1; i < DOCTOR_MAX_POOLS; i++)
		assert_int_equal(doctor_needs_add(&n, 1, (4ULL << 20) << i), 0);
	assert_int_equal(doctor_needs_add(&n, 1, 1ULL << 40), -E2BIG);
	assert_int_equal(n.npools, DOCTOR_MAX_POOLS);
}

static void test_needs_parse(void **state)
{
	static const char *const bad[] = { "2MB", ":4", "2MB:", "4KB:1", "2MB:-1", "2MB:x", "2MB:4x", "2M:4" };
	struct doctor_needs n = { 0 };

	(void)state;
	assert_int_equal(doctor_needs_parse_hugepages(&n, "2MB:4"), 0);
	assert_int_equal(doctor_needs_parse_hugepages(&n, "1GB:2"), 0);
	assert_int_equal(n.npools, 2);
	assert_int_equal(n.hugepages[0].pages, 4);
	assert_int_equal(n.hugepages[1].page_bytes, 1ULL << 30);
	assert_int_equal(n.hugepages[1].pages, 2);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (doctor_needs_parse_hugepages(&n, bad[i]) != -EINVAL)
			fail_msg("'%s' was accepted", bad[i]);
	assert_int_equal(n.npools, 2);
}

static void test_x86_metal(void **state)
{
	struct doctor_report rep;

	(void)state;
	run_on("x86-metal", NULL, open_all, &rep);
	expect(&rep, "cpu.governor", DOCTOR_WARN, "powersave (0/4 CPUs");
	/* intel_pstate: no_turbo=0 means boost on, and the fix writes 1 */
	expect(&rep, "cpu.boost", DOCTOR_WARN, "echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo");
	expect(&rep, "thp", DOCTOR_WARN, "measure THP faults");
	expect(&rep, "hugetlb.2MB", DOCTOR_PASS, "total 16, free 16");
	expect(&rep, "hugetlb.1GB", DOCTOR_PASS, "total 2, free 1");
	expect(&rep, "hugetlb.1GB-support", DOCTOR_PASS, "supported");
	expect(&rep, "memory", DOCTOR_PASS, "243.2GB");
	/* SwapTotal 8388604 kB - SwapFree 8126460 kB = 262144 kB */
	expect(&rep, "swap", DOCTOR_WARN, "256.0MB in use");
	expect(&rep, "load", DOCTOR_PASS, "0.08 on 4 CPUs");
	expect(&rep, "busy-processes", DOCTOR_PASS, "not sampled");
	expect(&rep, "virtualisation", DOCTOR_PASS, "Dell Inc. PowerEdge R750");
	expect(&rep, "numa", DOCTOR_WARN, "2 nodes");
	expect(&rep, "isolation", DOCTOR_PASS, "isolcpus=3 nohz_full=3");
	expect(&rep, "perf.paranoid", geteuid() ? DOCTOR_WARN : DOCTOR_PASS, "2");
	expect(&rep, "perf.hw-events", DOCTOR_PASS, "cycles instructions cache-misses dTLB-load-misses");
	assert_int_equal(doctor_worst(&rep), DOCTOR_WARN);
	doctor_report_free(&rep);
	assert_null(rep.items);
}

static void test_x86_needs_fail(void **state)
{
	struct doctor_needs needs = { 0 };
	struct doctor_report rep;

	(void)state;
	assert_int_equal(doctor_needs_parse_hugepages(&needs, "2MB:40"), 0);
	assert_int_equal(doctor_needs_parse_hugepages(&needs, "1GB:1"), 0);
	needs.memory = 1ULL << 40;
	run_on("x86-metal", &needs, open_all, &rep);
	/* 16 reserved, all free, 40 needed: the pool must grow to 40 */
	expect(&rep, "hugetlb.2MB", DOCTOR_FAIL, "echo 40 > /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages");
	expect(&rep, "hugetlb.1GB", DOCTOR_PASS, "enough for the 1 pages");
	expect(&rep, "memory", DOCTOR_FAIL, "need 1.0TB");
	assert_int_equal(doctor_worst(&rep), DOCTOR_FAIL);
	doctor_report_free(&rep);
}

static void test_arm64_metal(void **state)
{
	struct doctor_report rep;

	(void)state;
	run_on("arm64-metal", NULL, open_all, &rep);
	expect(&rep, "cpu.governor", DOCTOR_PASS, "performance (4/4");
	expect(&rep, "cpu.boost", DOCTOR_PASS, "no boost switch");
	expect(&rep, "thp", DOCTOR_PASS, "enabled=madvise defrag=madvise");
	expect(&rep, "hugetlb.2MB", DOCTOR_PASS, "total 8, free 8");
	expect(&rep, "hugetlb.512MB", DOCTOR_PASS, "--hugepages 512MB:N");
	assert_null(doctor_find(&rep, "hugetlb.64KB"));
	/* no "flags" line in an arm64 cpuinfo: the answer is about granules, not pdpe1gb */
	expect(&rep, "hugetlb.1GB-support", DOCTOR_WARN, "4KB or 16KB base pages");
	expect(&rep, "swap", DOCTOR_PASS, "none");
	expect(&rep, "load", DOCTOR_WARN, "6.50 on 4 CPUs");
	expect(&rep, "numa", DOCTOR_PASS, "1 node");
	expect(&rep, "isolation", DOCTOR_PASS, "none");
	expect(&rep, "perf.paranoid", DOCTOR_PASS, "include kernel work");
	doctor_report_free(&rep);
}

static void test_vm(void **state)
{
	struct doctor_needs needs = { 0 };
	struct doctor_report rep;

	(void)state;
	assert_int_equal(doctor_needs_parse_hugepages(&needs, "1GB:1"), 0);
	run_on("vm", &needs, open_sw_only, &rep);
	expect(&rep, "cpu.governor", DOCTOR_PASS, "the host controls the frequency");
	expect(&rep, "cpu.boost", DOCTOR_PASS, "not exposed");
	expect(&rep, "thp", DOCTOR_WARN, "defrag=always");
	expect(&rep, "hugetlb.2MB", DOCTOR_PASS, "no free pages");
	expect(&rep, "hugetlb.1GB", DOCTOR_FAIL, "not offered");
	expect(&rep, "hugetlb.1GB-support", DOCTOR_WARN, "lacks the pdpe1gb flag (or the hypervisor hides it)");
	expect(&rep, "virtualisation", DOCTOR_WARN, "QEMU Standard PC");
	expect(&rep, "perf.hw-events", DOCTOR_WARN, "software counters (task-clock, page-faults) work");
	assert_int_equal(doctor_worst(&rep), DOCTOR_FAIL);
	doctor_report_free(&rep);
}

static void test_counters_none(void **state)
{
	struct doctor_report rep;

	(void)state;
	run_on("vm", NULL, open_none, &rep);
	expect(&rep, "perf.hw-events", DOCTOR_WARN, "not permitted");
	expect(&rep, "perf.hw-events", DOCTOR_WARN, "do not open either");
	doctor_report_free(&rep);
}

/* A root with nothing in it: every check still answers, none crashes, nothing is FAIL without needs. */
static void test_empty_root(void **state)
{
	struct doctor_report rep;

	(void)state;
	run_on("does-not-exist", NULL, open_all, &rep);
	expect(&rep, "cpu.governor", DOCTOR_WARN, "no cpufreq on bare metal");
	expect(&rep, "thp", DOCTOR_PASS, "not built in");
	expect(&rep, "hugetlb", DOCTOR_WARN, "no hugetlb pools");
	expect(&rep, "memory", DOCTOR_WARN, "unknown");
	expect(&rep, "load", DOCTOR_WARN, "cannot read");
	expect(&rep, "perf.paranoid", DOCTOR_WARN, "absent");
	assert_int_equal(doctor_worst(&rep), DOCTOR_WARN);
	doctor_report_free(&rep);
}

static void test_json_and_text(void **state)
{
	struct doctor_report rep;
	char *text = NULL;
	size_t len = 0, lines = 0;
	json_t *arr;
	FILE *f;

	(void)state;
	run_on("vm", NULL, open_all, &rep);
	arr = doctor_report_json(&rep);
	assert_non_null(arr);
	assert_int_equal(json_array_size(arr), rep.n);
	for (size_t i = 0; i < rep.n; i++) {
		json_t *o = json_array_get(arr, i);

		assert_string_equal(json_string_value(json_object_get(o, "check")), rep.items[i].check);
		assert_string_equal(json_string_value(json_object_get(o, "status")),
				    doctor_status_name(rep.items[i].status));
		assert_non_null(json_string_value(json_object_get(o, "value")));
		assert_non_null(json_string_value(json_object_get(o, "detail")));
		assert_non_null(json_string_value(json_object_get(o, "fix")));
		assert_int_equal(json_object_size(o), 5);
	}
	json_decref(arr);
	/* one status line per check, a "fix:" line for each that has a fix, their wrapped rest indented */
	f = open_memstream(&text, &len);
	doctor_report_text(&rep, 0, f);
	fclose(f);
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
		if (!strncmp(line, "PASS  ", 6) || !strncmp(line, "WARN  ", 6) || !strncmp(line, "FAIL  ", 6))
			lines++;
		else if (strlen(line) > 100 || strspn(line, " ") < 27)
			fail_msg("unexpected line '%s'", line);
	assert_int_equal(lines, rep.n);
	free(text);
	doctor_report_free(&rep);
}

static json_t *snapshot_of(const char *name)
{
	char root[600];

	fixture_path(name, root, sizeof(root));
	sysfs_set_root(root);
	return doctor_snapshot();
}

static void test_snapshot(void **state)
{
	json_t *x86 = snapshot_of("x86-metal"), *vm = snapshot_of("vm");

	(void)state;
	assert_non_null(x86);
	assert_non_null(vm);
	assert_string_equal(json_string_value(json_object_get(x86, "thp_enabled")), "always");
	assert_string_equal(json_string_value(json_object_get(x86, "thp_defrag")), "madvise");
	assert_string_equal(json_string_value(json_object_get(x86, "governor")), "powersave");
	assert_string_equal(json_string_value(json_object_get(x86, "boost")), "on");
	assert_int_equal(json_integer_value(json_object_get(
				 json_object_get(json_object_get(x86, "hugepages"), "2048kB"), "total")), 16);
	assert_int_equal(json_integer_value(json_object_get(x86, "perf_event_paranoid")), 2);
	assert_int_equal(json_integer_value(json_object_get(x86, "numa_nodes")), 2);
	assert_string_equal(json_string_value(json_object_get(x86, "virtualisation")), "none");
	assert_non_null(strstr(json_string_value(json_object_get(x86, "cmdline")), "isolcpus=3"));
	/* what a VM does not expose is recorded as null, not left out */
	assert_true(json_is_null(json_object_get(vm, "governor")));
	assert_true(json_is_null(json_object_get(vm, "boost")));
	assert_string_equal(json_string_value(json_object_get(vm, "virtualisation")),
			    "QEMU Standard PC (Q35 + ICH9, 2009)");
	json_decref(x86);
	json_decref(vm);
}

/* Whether @diff names @setting. */
static bool diff_names(const json_t *diff, const char *setting)
{
	size_t i;
	json_t *d;

	json_array_foreach(diff, i, d)
		if (!strcmp(json_string_value(json_object_get(d, "setting")), setting))
			return true;
	return false;
}

static void test_snapshot_diff(void **state)
{
	json_t *x86 = snapshot_of("x86-metal"), *vm = snapshot_of("vm");
	json_t *copy = json_deep_copy(x86), *diff;

	(void)state;
	diff = doctor_snapshot_diff(x86, copy);
	assert_int_equal(json_array_size(diff), 0);
	json_decref(diff);
	/* free pages are state: a run using them is no different setting */
	json_object_set_new(json_object_get(json_object_get(copy, "hugepages"), "2048kB"), "free",
			    json_integer(3));
	diff = doctor_snapshot_diff(x86, copy);
	assert_int_equal(json_array_size(diff), 0);
	json_decref(diff);
	json_object_set_new(copy, "thp_enabled", json_string("madvise"));
	diff = doctor_snapshot_diff(x86, copy);
	assert_int_equal(json_array_size(diff), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(diff, 0), "a")), "always");
	assert_string_equal(json_string_value(json_object_get(json_array_get(diff, 0), "b")), "madvise");
	json_decref(diff);

	diff = doctor_snapshot_diff(x86, vm);
	assert_non_null(diff);
	assert_true(diff_names(diff, "thp_enabled"));
	assert_true(diff_names(diff, "thp_defrag"));
	assert_true(diff_names(diff, "governor"));
	assert_true(diff_names(diff, "boost"));
	assert_true(diff_names(diff, "hugepages.2048kB"));
	assert_true(diff_names(diff, "hugepages.1048576kB"));	/* only in a */
	assert_true(diff_names(diff, "numa_nodes"));
	assert_true(diff_names(diff, "virtualisation"));
	assert_false(diff_names(diff, "hugepages"));
	json_decref(diff);
	assert_null(doctor_snapshot_diff(x86, json_array_get(NULL, 0)));
	json_decref(x86);
	json_decref(vm);
	json_decref(copy);
}

/* A private copy of fixture @name that --fix may write into; the caller removes it. */
static void fixture_copy(const char *name, char *dir, size_t len)
{
	char src[600], cmd[1400];

	snprintf(dir, len, "/tmp/clearpath-doctor-XXXXXX");
	assert_non_null(mkdtemp(dir));
	fixture_path(name, src, sizeof(src));
	snprintf(cmd, sizeof(cmd), "cp -R '%s/.' '%s'", src, dir);
	assert_int_equal(system(cmd), 0);
	sysfs_set_root(dir);
}

static void fixture_remove(const char *dir)
{
	char cmd[700];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	sysfs_set_root(NULL);
}

static char *fix_output(const struct doctor_needs *needs, int expect_ret)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	assert_int_equal(doctor_fix(needs, f), expect_ret);
	fclose(f);
	return out;
}

static void test_fix(void **state)
{
	struct doctor_needs needs = { 0 };
	char dir[64], line[64], *out;
	struct doctor_report rep;

	(void)state;
	fixture_copy("x86-metal", dir, sizeof(dir));
	assert_int_equal(doctor_needs_parse_hugepages(&needs, "2MB:20"), 0);
	out = fix_output(&needs, 0);
	assert_non_null(strstr(out, "undo: echo powersave > /sys/devices/system/cpu/cpu3/cpufreq/scaling_governor"));
	assert_non_null(strstr(out, "undo: echo always > /sys/kernel/mm/transparent_hugepage/enabled"));
	/* 16 reserved and free, 20 needed: grow by 4 */
	assert_non_null(strstr(out, "nr_hugepages: 16 -> 20\n  undo: echo 16 > "));
	/* two nodes: NUMA balancing off */
	assert_non_null(strstr(out, "changed /proc/sys/kernel/numa_balancing: 1 -> 0\n"
			       "  undo: echo 1 > /proc/sys/kernel/numa_balancing\n"));
	free(out);
	assert_int_equal(sysfs_read_line("/proc/sys/kernel/numa_balancing", line, sizeof(line)), 0);
	assert_string_equal(line, "0");
	assert_int_equal(sysfs_read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", line,
					 sizeof(line)), 0);
	assert_string_equal(line, "performance");
	assert_int_equal(sysfs_read_choice("/sys/kernel/mm/transparent_hugepage/enabled", line, sizeof(line)), 0);
	assert_string_equal(line, "madvise");

	/* the kernel would raise free_hugepages with the pool; the fixture needs telling */
	assert_int_equal(sysfs_write_line("/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages", "20"), 0);
	run_on(NULL, &needs, open_all, &rep);
	expect(&rep, "cpu.governor", DOCTOR_PASS, NULL);
	expect(&rep, "thp", DOCTOR_PASS, NULL);
	expect(&rep, "hugetlb.2MB", DOCTOR_PASS, "total 20, free 20");
	expect(&rep, "numa.balancing", DOCTOR_PASS, "off");
	doctor_report_free(&rep);
	/* a second --fix has nothing left to do */
	out = fix_output(&needs, 0);
	assert_null(strstr(out, "changed"));
	assert_non_null(strstr(out, "kept 2MB pool"));
	free(out);
	fixture_remove(dir);
}

static void test_fix_unoffered_size(void **state)
{
	struct doctor_needs needs = { 0 };
	char dir[64];

	(void)state;
	fixture_copy("vm", dir, sizeof(dir));
	assert_int_equal(doctor_needs_parse_hugepages(&needs, "1GB:1"), 0);
	free(fix_output(&needs, -EOPNOTSUPP));
	fixture_remove(dir);
}


/* Write @value into @path of the current (copied) root, or remove @path when @value is NULL. */
static void set_file(const char *dir, const char *path, const char *value)
{
	char cmd[1400];

	if (value)
		snprintf(cmd, sizeof(cmd), "printf '%%s\\n' '%s' > '%s%s'", value, dir, path);
	else
		snprintf(cmd, sizeof(cmd), "rm -rf '%s%s'", dir, path);
	assert_int_equal(system(cmd), 0);
}

/* The page-reporting result on the current root, expected to be @st and to mention @text. */
static void expect_reporting(enum doctor_status st, const char *text)
{
	struct doctor_report rep;

	run_on(NULL, NULL, open_all, &rep);
	expect(&rep, "page-reporting", st, text);
	doctor_report_free(&rep);
}

#define ORDER "/sys/module/page_reporting/parameters/page_reporting_order"
#define BALLOON "/sys/bus/virtio/devices/virtio0"

/* The VM fixture's balloon reports 2MB blocks (order 9 of 10): a warning with the order that stops it. */
static void test_page_reporting_on(void **state)
{
	struct doctor_report rep;
	const struct doctor_result *r;

	(void)state;
	run_on("vm", NULL, open_all, &rep);
	r = expect(&rep, "page-reporting", DOCTOR_WARN, "virtio0 reports free blocks of order >= 9 (2MB)");
	assert_non_null(strstr(r->detail, "THP or hugetlb fault"));
	assert_non_null(strstr(r->detail, "vary several-fold"));
	assert_non_null(strstr(r->fix, "clearpath doctor --fix (or: echo 11 > " ORDER ") until reboot"));
	assert_non_null(strstr(r->fix, "page_reporting.page_reporting_order=11"));
	assert_non_null(strstr(r->fix, "free-page-reporting=off"));
	doctor_report_free(&rep);
	/* bare metal: no virtio bus at all */
	run_on("x86-metal", NULL, open_all, &rep);
	expect(&rep, "page-reporting", DOCTOR_PASS, "no balloon");
	doctor_report_free(&rep);
}

/* What turns the warning off, what keeps it, and what it cannot read. */
static void test_page_reporting_variants(void **state)
{
	char dir[64], link[128];

	(void)state;
	fixture_copy("vm", dir, sizeof(dir));
	/* above the largest order nothing is reported; at it, 4MB blocks still are */
	set_file(dir, ORDER, "11");
	expect_reporting(DOCTOR_PASS, "page_reporting_order 11, largest buddy order 10");
	set_file(dir, ORDER, "10");
	expect_reporting(DOCTOR_WARN, "order >= 10 (4MB)");
	/* unset (-1): the kernel takes the pageblock order */
	set_file(dir, ORDER, "-1");
	expect_reporting(DOCTOR_WARN, "(order unset)");
	set_file(dir, ORDER, "abc");
	expect_reporting(DOCTOR_WARN, "page_reporting_order 'abc'");
	expect_reporting(DOCTOR_WARN, "echo 11 > " ORDER);
	set_file(dir, ORDER, "9x");
	expect_reporting(DOCTOR_WARN, "'9x'");
	set_file(dir, ORDER, "");
	expect_reporting(DOCTOR_WARN, "page_reporting_order ''");
	/* before 5.14 the order was fixed: only the VMM can stop it */
	set_file(dir, ORDER, NULL);
	expect_reporting(DOCTOR_WARN, "kernels before 5.14 cannot raise the order");
	set_file(dir, ORDER, "11");
	/* more orders (a 64KB-page arm64 has 14): 11 is no longer above them all */
	set_file(dir, "/proc/buddyinfo", "Node 0, zone Normal 1 2 3 4 5 6 7 8 9 10 11 12 13 14");
	expect_reporting(DOCTOR_WARN, "echo 14 > " ORDER);
	/* a buddyinfo that cannot be read: x86-64's largest order, 10, is assumed */
	set_file(dir, "/proc/buddyinfo", "Node 0, zone Normal 1 x 3");
	expect_reporting(DOCTOR_PASS, "largest buddy order 10");
	set_file(dir, ORDER, "9");
	expect_reporting(DOCTOR_WARN, "echo 11 > " ORDER);

	/* the feature bit: '0' at index 5; the net device's bit 5 (its MAC) is no balloon's */
	set_file(dir, BALLOON "/features", "0110000100000000000000000000000010000000");
	expect_reporting(DOCTOR_PASS, "virtio0 without free page reporting");
	set_file(dir, BALLOON "/features", "01100");
	expect_reporting(DOCTOR_WARN, "virtio0: features unreadable");
	set_file(dir, BALLOON "/features", "0110x1");
	expect_reporting(DOCTOR_WARN, "features unreadable");
	set_file(dir, BALLOON "/features", "011001");
	expect_reporting(DOCTOR_WARN, "order >= 9");
	/* a balloon no driver is bound to reports nothing; nor does a device that is not a balloon */
	set_file(dir, BALLOON "/driver", NULL);
	expect_reporting(DOCTOR_PASS, "no balloon");
	snprintf(link, sizeof(link), "%s" BALLOON "/driver", dir);
	assert_int_equal(symlink("../../drivers/virtio_balloon", link), 0);
	expect_reporting(DOCTOR_WARN, "order >= 9");
	set_file(dir, BALLOON "/device", "0x0001");
	expect_reporting(DOCTOR_PASS, "no balloon");
	set_file(dir, BALLOON "/device", "balloon");
	expect_reporting(DOCTOR_PASS, "no balloon");
	set_file(dir, "/sys/bus", NULL);
	expect_reporting(DOCTOR_PASS, "no balloon");
	fixture_remove(dir);
}

/* --fix changes nothing in @path, which keeps @value. */
static void expect_unfixed(const char *path, const char *value)
{
	char line[64], *out = fix_output(NULL, 0);

	assert_null(strstr(out, path));
	free(out);
	assert_int_equal(sysfs_read_line(path, line, sizeof(line)), 0);
	assert_string_equal(line, value);
}

/* --fix raises the order of a reporting balloon one above the largest, and only then. */
static void test_fix_page_reporting(void **state)
{
	char dir[64], line[32], *out;
	struct doctor_report rep;

	(void)state;
	fixture_copy("vm", dir, sizeof(dir));
	out = fix_output(NULL, 0);
	assert_non_null(strstr(out, "changed " ORDER ": 9 -> 11\n  undo: echo 9 > " ORDER "\n"));
	free(out);
	assert_int_equal(sysfs_read_line(ORDER, line, sizeof(line)), 0);
	assert_string_equal(line, "11");
	expect_reporting(DOCTOR_PASS, "page_reporting_order 11");
	out = fix_output(NULL, 0);
	assert_null(strstr(out, "page_reporting_order"));
	free(out);
	/* 14 orders: 11 is no longer enough */
	set_file(dir, "/proc/buddyinfo", "Node 0, zone Normal 1 2 3 4 5 6 7 8 9 10 11 12 13 14");
	out = fix_output(NULL, 0);
	assert_non_null(strstr(out, "changed " ORDER ": 11 -> 14\n"));
	free(out);
	/* nothing to change: no reporting bit, an unset order (-1 could not be undone), no parameter */
	set_file(dir, ORDER, "9");
	set_file(dir, BALLOON "/features", "0110000100000000000000000000000010000000");
	expect_unfixed(ORDER, "9");
	set_file(dir, BALLOON "/features", "011001");
	set_file(dir, ORDER, "-1");
	expect_unfixed(ORDER, "-1");
	set_file(dir, ORDER, NULL);
	out = fix_output(NULL, 0);
	assert_null(strstr(out, "page_reporting_order"));
	free(out);
	run_on(NULL, NULL, open_all, &rep);
	expect(&rep, "page-reporting", DOCTOR_WARN, "kernels before 5.14");
	doctor_report_free(&rep);
	fixture_remove(dir);
}

#define BALANCING "/proc/sys/kernel/numa_balancing"

/* Automatic NUMA balancing moves pages only where there is more than one node. */
static void test_numa_balancing(void **state)
{
	static const char *const bad[] = { "", "on", "1x", "-1" };
	struct doctor_report rep;
	const struct doctor_result *r;
	char dir[64];

	(void)state;
	run_on("x86-metal", NULL, open_all, &rep);
	r = expect(&rep, "numa.balancing", DOCTOR_WARN, "on (1), 2 nodes");
	assert_non_null(strstr(r->fix, "clearpath doctor --fix (or: sysctl -w kernel.numa_balancing=0)"));
	assert_non_null(strstr(r->detail, "pages can move during a run"));
	doctor_report_free(&rep);
	run_on("vm", NULL, open_all, &rep);
	expect(&rep, "numa.balancing", DOCTOR_PASS, "on (1), 1 node");
	doctor_report_free(&rep);
	fixture_copy("vm", dir, sizeof(dir));	/* one node: --fix leaves balancing on */
	expect_unfixed(BALANCING, "1");
	fixture_remove(dir);
	run_on("arm64-metal", NULL, open_all, &rep);	/* no sysctl: CONFIG_NUMA_BALANCING off */
	expect(&rep, "numa.balancing", DOCTOR_PASS, "not built in");
	doctor_report_free(&rep);

	fixture_copy("x86-metal", dir, sizeof(dir));
	set_file(dir, BALANCING, "0");
	run_on(NULL, NULL, open_all, &rep);
	expect(&rep, "numa.balancing", DOCTOR_PASS, "off");
	doctor_report_free(&rep);
	set_file(dir, BALANCING, "2");	/* memory tiering moves pages too */
	run_on(NULL, NULL, open_all, &rep);
	expect(&rep, "numa.balancing", DOCTOR_WARN, "on (2), 2 nodes");
	doctor_report_free(&rep);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		set_file(dir, BALANCING, bad[i]);
		run_on(NULL, NULL, open_all, &rep);
		expect(&rep, "numa.balancing", DOCTOR_WARN, "cannot read " BALANCING);
		doctor_report_free(&rep);
	}
	fixture_remove(dir);
}

/* The names in JSON array @arr joined with spaces, into @buf. */
static const char *names_of(const json_t *arr, const char *key, char *buf, size_t len)
{
	size_t i, used = 0;
	json_t *e;

	buf[0] = '\0';
	json_array_foreach(arr, i, e) {
		const char *name = json_string_value(key ? json_object_get(e, key) : e);

		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "", name ? name : "?");
		assert_true(used < len);
	}
	return buf;
}

static void test_session_record(void **state)
{
	char root[600], names[512];
	json_t *rec, *w;
	size_t i;

	(void)state;
	fixture_path("x86-metal", root, sizeof(root));
	sysfs_set_root(root);
	rec = doctor_session_record(0);
	assert_non_null(rec);
	/* the cheap checks that colour every number; no pools, memory, process sampling or perf */
	assert_string_equal(names_of(json_object_get(rec, "checks"), NULL, names, sizeof(names)),
			    "cpu.governor cpu.boost thp swap page-reporting load virtualisation numa numa.balancing");
	assert_string_equal(names_of(json_object_get(rec, "warnings"), "check", names, sizeof(names)),
			    "cpu.governor cpu.boost thp swap numa numa.balancing");
	json_array_foreach(json_object_get(rec, "warnings"), i, w) {
		assert_string_equal(json_string_value(json_object_get(w, "status")), "WARN");
		assert_true(json_string_length(json_object_get(w, "detail")) > 0);
		assert_true(json_is_string(json_object_get(w, "fix")));
	}
	w = json_array_get(json_object_get(rec, "warnings"), 0);
	assert_string_equal(json_string_value(json_object_get(w, "value")), "powersave (0/4 CPUs on performance)");
	assert_non_null(strstr(json_string_value(json_object_get(w, "fix")), "doctor --fix"));
	json_decref(rec);

	/* a session that counts or profiles also records whether its counters can see the kernel */
	rec = doctor_session_record(DOCTOR_SESSION_COUNTERS);
	assert_non_null(rec);
	assert_string_equal(names_of(json_object_get(rec, "checks"), NULL, names, sizeof(names)),
			    "cpu.governor cpu.boost thp swap page-reporting load virtualisation numa numa.balancing "
			    "perf.paranoid perf.hw-events");
	json_decref(rec);
	rec = doctor_session_record(DOCTOR_SESSION_PROFILE);
	assert_non_null(rec);
	assert_non_null(strstr(names_of(json_object_get(rec, "checks"), NULL, names, sizeof(names)),
			       "numa numa.balancing perf.profile"));
	json_decref(rec);

	fixture_path("vm", root, sizeof(root));
	sysfs_set_root(root);
	rec = doctor_session_record(0);
	assert_non_null(rec);
	assert_string_equal(names_of(json_object_get(rec, "warnings"), "check", names, sizeof(names)),
			    "thp page-reporting virtualisation");
	assert_non_null(strstr(json_string_value(json_object_get(json_array_get(json_object_get(rec, "warnings"), 0),
								 "detail")), "defrag 'always'"));
	/* the reporting warning is recorded whole: what a reader of the results needs to undo it */
	assert_non_null(strstr(json_string_value(json_object_get(json_array_get(json_object_get(rec, "warnings"), 1),
								 "fix")), "page_reporting.page_reporting_order=11"));
	json_decref(rec);
	sysfs_set_root(NULL);
}

/* A machine made fit (by --fix, boost off, swap unused, one node) records an empty list: checked, nothing wrong. */
static void test_session_record_fit(void **state)
{
	char dir[64], cmd[400];
	json_t *rec;

	(void)state;
	fixture_copy("x86-metal", dir, sizeof(dir));
	free(fix_output(NULL, 0));
	assert_int_equal(sysfs_write_line("/sys/devices/system/cpu/intel_pstate/no_turbo", "1"), 0);
	snprintf(cmd, sizeof(cmd), "sed -i 's/^SwapFree:.*/SwapFree:        8388604 kB/' '%s/proc/meminfo' &&"
		 " rm -rf '%s/sys/devices/system/node/node1'", dir, dir);
	assert_int_equal(system(cmd), 0);
	rec = doctor_session_record(0);
	assert_non_null(rec);
	assert_int_equal(json_array_size(json_object_get(rec, "checks")), 9);
	assert_true(json_is_array(json_object_get(rec, "warnings")));
	if (json_array_size(json_object_get(rec, "warnings"))) {
		char *s = json_dumps(rec, 0);

		fail_msg("a fit machine recorded warnings: %s", s);
	}
	json_decref(rec);
	fixture_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_needs_merge_by_maximum),
		cmocka_unit_test(test_needs_parse),
		cmocka_unit_test(test_x86_metal),
		cmocka_unit_test(test_x86_needs_fail),
		cmocka_unit_test(test_arm64_metal),
		cmocka_unit_test(test_vm),
		cmocka_unit_test(test_counters_none),
		cmocka_unit_test(test_empty_root),
		cmocka_unit_test(test_json_and_text),
		cmocka_unit_test(test_snapshot),
		cmocka_unit_test(test_snapshot_diff),
		cmocka_unit_test(test_fix),
		cmocka_unit_test(test_fix_unoffered_size),
		cmocka_unit_test(test_page_reporting_on),
		cmocka_unit_test(test_page_reporting_variants),
		cmocka_unit_test(test_fix_page_reporting),
		cmocka_unit_test(test_numa_balancing),
		cmocka_unit_test(test_session_record),
		cmocka_unit_test(test_session_record_fit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
