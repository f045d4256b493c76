/* test_sysfs_dir: sysfs_list_dir, sysfs_read_key and sysfs_write_line against a scratch tree. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "util/sysfs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[64];

/* Create @rel under the scratch root holding @text. */
static void put(const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	char path[256];

	(void)state;
	snprintf(root, sizeof(root), "/tmp/clearpath-sysfs-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	snprintf(path, sizeof(path), "%s/hp", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/empty", root);
	mkdir(path, 0755);
	put("/hp/hugepages-2048kB", "");
	put("/hp/hugepages-1048576kB", "");
	put("/hp/hugepages-64kB", "");
	put("/hp/other", "");
	put("/meminfo", "SwapCached:  1 kB\nSwapTotal:\t2048 kB\nSwap:  9 kB\n");
	put("/cpuinfo", "processor\t: 0\nflags\t\t: fpu pdpe1gb\n");
	sysfs_set_root(root);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	sysfs_set_root(NULL);
	return system(cmd);
}

static void test_list_dir(void **state)
{
	char **names = sysfs_list_dir("/hp", "hugepages-");

	(void)state;
	assert_non_null(names);
	/* sorted as strings, "other" filtered out by the prefix */
	assert_string_equal(names[0], "hugepages-1048576kB");
	assert_string_equal(names[1], "hugepages-2048kB");
	assert_string_equal(names[2], "hugepages-64kB");
	assert_null(names[3]);
	sysfs_list_free(names);
	names = sysfs_list_dir("/hp", "");
	assert_non_null(names);
	assert_string_equal(names[3], "other");
	assert_null(names[4]);
	sysfs_list_free(names);
	names = sysfs_list_dir("/empty", "");
	assert_non_null(names);
	assert_null(names[0]);
	sysfs_list_free(names);
	errno = 0;
	assert_null(sysfs_list_dir("/missing", ""));
	assert_int_equal(errno, ENOENT);
	sysfs_list_free(NULL);
}

static void test_read_key(void **state)
{
	char buf[64];

	(void)state;
	/* "Swap" must not match "SwapCached:" or "SwapTotal:" */
	assert_int_equal(sysfs_read_key("/meminfo", "Swap", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "9 kB");
	assert_int_equal(sysfs_read_key("/meminfo", "SwapTotal", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "2048 kB");
	/* cpuinfo pads keys with tabs before the colon */
	assert_int_equal(sysfs_read_key("/cpuinfo", "flags", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "fpu pdpe1gb");
	assert_int_equal(sysfs_read_key("/meminfo", "SwapFree", buf, sizeof(buf)), -ENOENT);
	assert_int_equal(sysfs_read_key("/nope", "x", buf, sizeof(buf)), -ENOENT);
}

static void test_write_line(void **state)
{
	uint64_t v;

	(void)state;
	put("/nr", "0\n");
	assert_int_equal(sysfs_write_line("/nr", "42"), 0);
	assert_int_equal(sysfs_read_u64("/nr", &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(sysfs_write_line("/no/such/dir/file", "1"), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_dir),
		cmocka_unit_test(test_read_key),
		cmocka_unit_test(test_write_line),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
