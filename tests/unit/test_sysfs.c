/* test_sysfs: procfs/sysfs readers against the fixture trees in tests/fixtures/ (see its README). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "util/sysfs.h"
#include "fixture.h"

#include <errno.h>

#define HP_2MB (2ULL << 20)
#define HP_1GB (1ULL << 30)
#define HP_64KB (64ULL << 10)
#define THP_ENABLED "/sys/kernel/mm/transparent_hugepage/enabled"
#define THP_DEFRAG "/sys/kernel/mm/transparent_hugepage/defrag"

static void use(const char *fixture)
{
	sysfs_set_root(fixture_path(fixture));
}

static int reset_root(void **state)
{
	(void)state;
	sysfs_set_root(NULL);
	return 0;
}

/* MemAvailable is in kB in the file and in bytes here. */
static void test_mem_available(void **state)
{
	uint64_t bytes = 0;

	(void)state;
	use("vm-x86");
	assert_int_equal(sysfs_mem_available(&bytes), 0);
	assert_int_equal(bytes, 24302024ULL * 1024);
	use("small-box");
	assert_int_equal(sysfs_mem_available(&bytes), 0);
	assert_int_equal(bytes, 98304ULL * 1024);
	use("broken");	/* MemAvailable on the first line */
	assert_int_equal(sysfs_mem_available(&bytes), 0);
	assert_int_equal(bytes, 1048576ULL * 1024);
}

/* Kernels before 3.14 have no MemAvailable: an error, not a zero that would reject every size. */
static void test_mem_available_missing(void **state)
{
	uint64_t bytes = 7;

	(void)state;
	use("old-arm64");
	assert_int_equal(sysfs_mem_available(&bytes), -ENOENT);
	assert_int_equal(bytes, 7);
	sysfs_set_root("/nonexistent-clearpath-root");
	assert_int_equal(sysfs_mem_available(&bytes), -ENOENT);
}

/* With no root the real /proc is read: this machine has some memory available. */
static void test_real_machine(void **state)
{
	uint64_t bytes = 0;

	(void)state;
	use("old-arm64");	/* a fixture without MemAvailable, then back to the machine */
	sysfs_set_root(NULL);
	assert_int_equal(sysfs_mem_available(&bytes), 0);
	assert_true(bytes > 0);
	bytes = 0;
	sysfs_set_root("");
	assert_int_equal(sysfs_mem_available(&bytes), 0);
	assert_true(bytes > 0);
}

static void expect_pool(uint64_t page, int ret, bool supported, uint64_t total, uint64_t nfree)
{
	struct sysfs_hugepool pool = { true, 99, 99, 99 };

	assert_int_equal(sysfs_hugepool(page, &pool), ret);
	assert_int_equal(pool.supported, supported);
	assert_int_equal(pool.total, total);
	if (!ret)
		assert_int_equal(pool.free, nfree);
}

static void test_hugepool(void **state)
{
	(void)state;
	use("vm-x86");
	expect_pool(HP_2MB, 0, true, 0, 0);
	expect_pool(HP_1GB, 0, true, 0, 0);
	expect_pool(HP_64KB, 0, false, 0, 0);
	use("small-box");
	expect_pool(HP_2MB, 0, true, 4, 1);
	expect_pool(HP_1GB, 0, false, 0, 0);	/* no directory: not offered, not an error */
	use("old-arm64");
	expect_pool(HP_2MB, 0, false, 0, 0);
	expect_pool(HP_1GB, 0, false, 0, 0);
}

/* A pool directory whose files are missing or garbled is an error, not an empty pool. */
static void test_hugepool_broken(void **state)
{
	(void)state;
	use("broken");
	expect_pool(HP_2MB, -ENOENT, true, 3, 0);
	expect_pool(HP_1GB, -EINVAL, false, 0, 0);
}

static void test_hugepool_dir(void **state)
{
	char dir[128];

	(void)state;
	sysfs_hugepool_dir(HP_2MB, dir, sizeof(dir));
	assert_string_equal(dir, "/sys/kernel/mm/hugepages/hugepages-2048kB");
	sysfs_hugepool_dir(HP_1GB, dir, sizeof(dir));
	assert_string_equal(dir, "/sys/kernel/mm/hugepages/hugepages-1048576kB");
	sysfs_hugepool_dir(HP_64KB, dir, sizeof(dir));	/* arm64 contiguous-PTE size */
	assert_string_equal(dir, "/sys/kernel/mm/hugepages/hugepages-64kB");
}

static void expect_choice(const char *fixture, const char *path, int ret, const char *want)
{
	char buf[64] = "untouched";

	use(fixture);
	assert_int_equal(sysfs_read_choice(path, buf, sizeof(buf)), ret);
	if (want)
		assert_string_equal(buf, want);
}

static void test_read_choice(void **state)
{
	(void)state;
	expect_choice("vm-x86", THP_ENABLED, 0, "madvise");
	expect_choice("small-box", THP_ENABLED, 0, "always");
	expect_choice("broken", THP_ENABLED, 0, "never");	/* the last word */
	/* "defer+madvise" is not the bracketed one; the match must not stop at a prefix */
	expect_choice("vm-x86", THP_DEFRAG, 0, "madvise");
	expect_choice("old-arm64", THP_ENABLED, 0, "madvise");	/* single value, no brackets */
	expect_choice("old-arm64", THP_DEFRAG, -ENOENT, NULL);	/* THP not built in */
	expect_choice("broken", THP_DEFRAG, -EIO, NULL);	/* empty file */
}

/* A small buffer truncates the choice and stays terminated. */
static void test_read_choice_truncates(void **state)
{
	char buf[4];

	(void)state;
	use("vm-x86");
	assert_int_equal(sysfs_read_choice(THP_ENABLED, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "mad");
}

static void test_read_line_and_u64(void **state)
{
	char line[64];
	uint64_t v = 42;

	(void)state;
	use("vm-x86");
	assert_int_equal(sysfs_read_line("/proc/meminfo", line, sizeof(line)), 0);
	assert_string_equal(line, "MemTotal:       24590316 kB");	/* first line, no newline */
	assert_int_equal(sysfs_read_u64("/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages", &v), 0);
	assert_int_equal(v, 0);
	use("small-box");
	assert_int_equal(sysfs_read_u64("/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages", &v), 0);
	assert_int_equal(v, 4);
	use("broken");
	assert_int_equal(sysfs_read_u64("/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages", &v),
			 -EINVAL);
	assert_int_equal(sysfs_read_u64("/proc/cpuinfo", &v), -EIO);	/* empty */
	strcpy(line, "junk");
	assert_int_equal(sysfs_read_line("/proc/cpuinfo", line, sizeof(line)), -EIO);
	assert_string_equal(line, "");
	assert_int_equal(sysfs_read_u64("/no/such/file", &v), -ENOENT);
	assert_int_equal(sysfs_read_line("/no/such/file", line, sizeof(line)), -ENOENT);
}

/* Flags are whole words of the first CPU's x86 "flags" line. */
static void test_cpu_flags(void **state)
{
	static const char *const present[] = { "fpu", "pdpe1gb", "avx2", "clzero", "erms", "fsrm", "lm" };
	static const char *const absent[] = { "avx512f", "pdpe1g", "pdpe1gbx", "fp", "", "flags",
					      "second_cpu_only", "srso", "AVX2" };

	(void)state;
	use("vm-x86");
	for (size_t i = 0; i < sizeof(present) / sizeof(present[0]); i++)
		if (!sysfs_cpu_has_flag(present[i]))
			fail_msg("vm-x86 cpuinfo has flag '%s' but it was not found", present[i]);
	for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++)
		if (sysfs_cpu_has_flag(absent[i]))
			fail_msg("vm-x86 cpuinfo lacks flag '%s' but it was found", absent[i]);
	use("small-box");
	assert_true(sysfs_cpu_has_flag("fpu"));
	assert_true(sysfs_cpu_has_flag("lm"));	/* the last word, followed by a newline */
	assert_false(sysfs_cpu_has_flag("pdpe1gb"));
	/* arm64 names its features "Features": none of them reads as an x86 flag */
	use("old-arm64");
	assert_false(sysfs_cpu_has_flag("fp"));
	assert_false(sysfs_cpu_has_flag("fpu"));
	use("broken");
	assert_false(sysfs_cpu_has_flag("fpu"));
	sysfs_set_root("/nonexistent-clearpath-root");
	assert_false(sysfs_cpu_has_flag("fpu"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_mem_available, reset_root),
		cmocka_unit_test_teardown(test_mem_available_missing, reset_root),
		cmocka_unit_test_teardown(test_real_machine, reset_root),
		cmocka_unit_test_teardown(test_hugepool, reset_root),
		cmocka_unit_test_teardown(test_hugepool_broken, reset_root),
		cmocka_unit_test_teardown(test_hugepool_dir, reset_root),
		cmocka_unit_test_teardown(test_read_choice, reset_root),
		cmocka_unit_test_teardown(test_read_choice_truncates, reset_root),
		cmocka_unit_test_teardown(test_read_line_and_u64, reset_root),
		cmocka_unit_test_teardown(test_cpu_flags, reset_root),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
