/* test_machine: machine facts and the fit rule against the fixture trees (4KB x86 VM, small box, 16KB and 64KB arm64). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "machine/machine.h"
#include "fixture.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define KB (1ULL << 10)
#define MB (1ULL << 20)
#define GB (1ULL << 30)

/* The base page is the kernel's (smaps in the fixture), else the system's, never 4KB by assumption. */
static void test_base_page(void **state)
{
	(void)state;
	fixture_use_root("arm64-64k");
	assert_int_equal(machine_base_page(), 64 * KB);
	assert_true(machine_page_is_base(64 * KB));
	assert_false(machine_page_is_base(4 * KB));
	fixture_use_root("arm64-16k");
	assert_int_equal(machine_base_page(), 16 * KB);
	fixture_use_root("vm-x86");	/* no smaps: the real system's page size */
	assert_int_equal(machine_base_page(), (uint64_t)sysconf(_SC_PAGESIZE));
}

/* Read once per root, never again on the way (mmap's timed region asks on every map). */
static void test_base_page_cached(void **state)
{
	char dir[] = "/tmp/test_machine.XXXXXX", path[256];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/proc", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/proc/self", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/proc/self/smaps", dir);
	assert_non_null(f = fopen(path, "w"));
	fputs("KernelPageSize:       64 kB\n", f);
	fclose(f);
	sysfs_set_root(dir);
	assert_int_equal(machine_base_page(), 64 * KB);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(machine_base_page(), 64 * KB);	/* not read again */
	sysfs_set_root(dir);				/* a new root is read afresh */
	assert_int_equal(machine_base_page(), (uint64_t)sysconf(_SC_PAGESIZE));
	snprintf(path, sizeof(path), "%s/proc/self", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/proc", dir);
	rmdir(path);
	rmdir(dir);
}

static void test_huge_sizes(void **state)
{
	uint64_t s[MACHINE_MAX_PAGES];
	char list[256];

	(void)state;
	fixture_use_root("arm64-64k");
	assert_int_equal(machine_huge_sizes(s, MACHINE_MAX_PAGES), 3);
	assert_int_equal(s[0], 2 * MB);
	assert_int_equal(s[1], 512 * MB);
	assert_int_equal(s[2], 16 * GB);
	machine_page_list(list, sizeof(list));
	assert_string_equal(list, "64KB (base), 2MB, 512MB, 16GB");
	fixture_use_root("arm64-16k");
	machine_page_list(list, sizeof(list));
	assert_string_equal(list, "16KB (base), 2MB, 32MB, 1GB");
	fixture_use_root("old-arm64");	/* no hugetlbfs: the base page only */
	assert_int_equal(machine_huge_sizes(s, MACHINE_MAX_PAGES), 0);
	fixture_use_root("vm-x86");
	assert_int_equal(machine_huge_sizes(s, 1), 1);	/* never more than asked for */
}

static void test_plausible(void **state)
{
	(void)state;
	assert_true(machine_page_plausible(4 * KB));
	assert_true(machine_page_plausible(16 * KB));
	assert_true(machine_page_plausible(512 * MB));
	assert_true(machine_page_plausible(16 * GB));
	assert_false(machine_page_plausible(8 * KB));
	assert_false(machine_page_plausible(3 * MB));
	assert_false(machine_page_plausible(0));
}

/* THP's size is the kernel's PMD size; without the file, the granule's. */
static void test_thp_size(void **state)
{
	(void)state;
	fixture_use_root("arm64-64k");
	assert_int_equal(machine_thp_size(), 512 * MB);
	fixture_use_root("arm64-16k");
	assert_int_equal(machine_thp_size(), 32 * MB);
	fixture_use_root("vm-x86");	/* no hpage_pmd_size: 4KB pages map 2MB per PMD */
	assert_int_equal(machine_thp_size(), (uint64_t)sysconf(_SC_PAGESIZE) * (uint64_t)sysconf(_SC_PAGESIZE) / 8);
	fixture_use_root("sysroot");	/* no THP at all */
	assert_int_equal(machine_thp_size(), 0);
	assert_true(machine_page_hugetlb(512 * MB));
	assert_false(machine_page_hugetlb(16 * KB));
}

/* NUMA: the node directories, and one node when the kernel shows none (the fingerprint and doctor agree). */
static void test_numa(void **state)
{
	(void)state;
	fixture_use_root("doctor/x86-metal");
	assert_int_equal(machine_numa_nodes(), 2);
	fixture_use_root("vm-x86");
	assert_int_equal(machine_numa_nodes(), 1);
}

/* The largest buddy order: /proc/buddyinfo's columns less one; malformed or absent is an error, not a guess. */
/* The last-level cache: the highest-level data or unified cache, never the instruction cache. */
static void test_llc(void **state)
{
	uint64_t bytes = 0;
	unsigned level = 0;

	(void)state;
	fixture_use_root("vm-x86");
	assert_int_equal(machine_llc(&bytes, &level), 0);
	assert_int_equal(bytes, 491520ULL * 1024);
	assert_int_equal(level, 3);
	fixture_use_root("small-box");	/* no cache topology */
	assert_int_equal(machine_llc(&bytes, &level), -ENOENT);
}

static void test_max_order(void **state)
{
	(void)state;
	fixture_use_root("doctor/vm");	/* x86-64: orders 0-10 */
	assert_int_equal(machine_max_order(), 10);
	fixture_use_root("arm64-64k");	/* 64KB pages: orders 0-13 */
	assert_int_equal(machine_max_order(), 13);
	fixture_use_root("broken");	/* a count that is not a number */
	assert_int_equal(machine_max_order(), -EINVAL);
	fixture_use_root("sysroot");	/* no buddyinfo */
	assert_int_equal(machine_max_order(), -ENOENT);
}

/* One reserve for every caller: MemAvailable less 64MB. */
static void test_fit_memory(void **state)
{
	struct machine_fit f;

	(void)state;
	fixture_use_root("small-box");	/* 96MB available */
	assert_true(machine_fit(32 * MB, 4 * KB, &f));
	assert_false(machine_fit(32 * MB + 4 * KB, 4 * KB, &f));
	assert_int_equal(f.verdict, MACHINE_SHORT_MEMORY);
	assert_int_equal(f.avail, 96 * MB);
	fixture_use_root("old-arm64");	/* no MemAvailable: passes, marked as not checked */
	assert_true(machine_fit(machine_base_page(), machine_base_page(), &f));
	assert_int_equal(f.verdict, MACHINE_UNREADABLE);
}

static void test_fit_pools(void **state)
{
	struct machine_fit f;
	char cmd[256];

	(void)state;
	fixture_use_root("small-box");	/* 1 of 4 2MB pages free */
	assert_true(machine_fit(2 * MB, 2 * MB, &f));
	assert_false(machine_fit(2 * MB + 1, 2 * MB, &f));
	assert_int_equal(f.verdict, MACHINE_POOL_SHORT);
	assert_int_equal(f.pages, 2);
	assert_true(machine_fit_pool_fixable(&f));
	assert_int_equal(machine_fit_reserve_total(&f), 5);
	machine_reserve_cmd(&f, cmd, sizeof(cmd));
	assert_string_equal(cmd, "echo 5 > /sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages");
	assert_false(machine_fit(GB, GB, &f));	/* no 1GB pool, a size x86 can have */
	assert_int_equal(f.verdict, MACHINE_POOL_ABSENT);
	assert_false(machine_fit_pool_fixable(&f));
	fixture_use_root("arm64-64k");
	assert_false(machine_fit(GB, GB, &f));	/* no 64KB-granule kernel has 1GB pages */
	assert_int_equal(f.verdict, MACHINE_NOT_A_PAGE);
	assert_false(machine_fit(1 * MB, 4 * KB, &f));
	assert_int_equal(f.verdict, MACHINE_BELOW_BASE);
	assert_true(machine_fit(1 * MB, 64 * KB, &f));	/* the base page: MemAvailable */
	assert_true(machine_fit(2 * GB, 512 * MB, &f));
	assert_false(machine_fit(3 * GB, 512 * MB, &f));
	fixture_use_root("broken");	/* a pool without free_hugepages cannot be judged */
	assert_false(machine_fit(2 * MB, 2 * MB, &f));
	assert_int_equal(f.verdict, MACHINE_UNREADABLE);
}

/* Scaling divides, keeps whole units, never goes below one unit nor above the size. */
static void test_scale_size(void **state)
{
	(void)state;
	assert_int_equal(machine_scale_size(32 * GB, 64, GB), GB);	/* 512MB would be half a page */
	assert_int_equal(machine_scale_size(32 * GB, 16, GB), 2 * GB);
	assert_int_equal(machine_scale_size(16 * GB, 64, 4 * KB), 256 * MB);
	assert_int_equal(machine_scale_size(3 * MB, 2, 2 * MB), 2 * MB);	/* whole pages */
	assert_int_equal(machine_scale_size(4 * KB, 1024, 4 * KB), 4 * KB);
	assert_int_equal(machine_scale_size(3000, 2, 4 * KB), 3000);	/* below a page: as written */
	assert_int_equal(machine_scale_size(GB, 1, 4 * KB), GB);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_base_page, fixture_reset_root),
		cmocka_unit_test_teardown(test_base_page_cached, fixture_reset_root),
		cmocka_unit_test_teardown(test_huge_sizes, fixture_reset_root),
		cmocka_unit_test_teardown(test_plausible, fixture_reset_root),
		cmocka_unit_test_teardown(test_thp_size, fixture_reset_root),
		cmocka_unit_test_teardown(test_numa, fixture_reset_root),
		cmocka_unit_test_teardown(test_llc, fixture_reset_root),
		cmocka_unit_test_teardown(test_max_order, fixture_reset_root),
		cmocka_unit_test_teardown(test_fit_memory, fixture_reset_root),
		cmocka_unit_test_teardown(test_fit_pools, fixture_reset_root),
		cmocka_unit_test_teardown(test_scale_size, fixture_reset_root),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
