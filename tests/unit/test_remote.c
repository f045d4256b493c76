/* test_remote: host parsing, shell quoting and which binary goes to a host, without a network. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "remote/remote.h"
#include "util/arch.h"
#include "util/log.h"
#include "util/shquote.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void expect_host(const char *dest, const char *login, int port)
{
	struct remote_host h;

	assert_int_equal(remote_host_parse(dest, &h), 0);
	assert_string_equal(h.dest, dest);
	assert_string_equal(h.login, login);
	assert_int_equal(h.port, port);
	remote_host_free(&h);
}

static void test_host_parse(void **state)
{
	(void)state;
	expect_host("box", "box", 0);
	expect_host("root@box", "root@box", 0);
	expect_host("root@box:2222", "root@box", 2222);
	expect_host("10.0.0.7:22", "10.0.0.7", 22);
	expect_host("me@[::1]:2200", "me@::1", 2200);
	expect_host("[fe80::1]", "fe80::1", 0);
}

static void test_host_parse_rejects(void **state)
{
	const char *bad[] = { "", "root@", "@box", "box:", "box:0", "box:65536", "box:22x", "-oProxyCommand=x",
			      "root@-box", "[::1", "[::1]x", "[]:22" };
	struct remote_host h;
	bool quiet = log_set_quiet(true);

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(remote_host_parse(bad[i], &h), EXIT_USAGE);
		assert_null(h.dest);
	}
	log_set_quiet(quiet);
}

static void expect_quote(const char *s, const char *q)
{
	char *got = sh_quote_always(s);

	assert_string_equal(got, q);
	free(got);
}

static void test_quote(void **state)
{
	(void)state;
	expect_quote("", "''");
	expect_quote("a b", "'a b'");
	expect_quote("it's", "'it'\\''s'");
	expect_quote("$(rm -rf /)", "'$(rm -rf /)'");
}

/* A scratch static directory, in $CLEARPATH_STATIC_DIR too; the caller removes it. */
static char *static_dir(char dir[static 32])
{
	strcpy(dir, "/tmp/test_remote.XXXXXX");
	assert_non_null(mkdtemp(dir));
	setenv("CLEARPATH_STATIC_DIR", dir, 1);
	return dir;
}

static void test_binary_static_preferred(void **state)
{
	char buf[32], *dir = static_dir(buf), file[256], *path;
	FILE *f;

	(void)state;
	snprintf(file, sizeof(file), "%s/clearpath-riscv64", dir);
	assert_non_null(f = fopen(file, "w"));
	fclose(f);
	/* not executable: not a binary to copy */
	log_set_quiet(true);
	assert_int_equal(remote_binary_for("riscv64", &path), EXIT_RESOURCE);
	log_set_quiet(false);
	assert_int_equal(chmod(file, 0755), 0);
	assert_int_equal(remote_binary_for("riscv64", &path), 0);
	assert_string_equal(path, file);
	free(path);
	unlink(file);
	rmdir(dir);
}

static void test_binary_local_fallback_and_what_to_build(void **state)
{
	char buf[32], *dir = static_dir(buf), *path, self[4096];
	const char *other = strcmp(CLEARPATH_MACHINE, "aarch64") ? "aarch64" : "x86_64";
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	(void)state;
	assert_true(n > 0);
	self[n] = '\0';
	/* no static build: this very binary for its own architecture */
	assert_int_equal(remote_binary_for(CLEARPATH_MACHINE, &path), 0);
	assert_string_equal(path, self);
	free(path);
	/* and for another, the answer is what to build (printed: quiet would not keep the message) */
	assert_int_equal(remote_binary_for(other, &path), EXIT_RESOURCE);
	assert_null(path);
	assert_non_null(strstr(log_last_error(), other));
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_parse),
		cmocka_unit_test(test_host_parse_rejects),
		cmocka_unit_test(test_quote),
		cmocka_unit_test(test_binary_static_preferred),
		cmocka_unit_test(test_binary_local_fallback_and_what_to_build),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
