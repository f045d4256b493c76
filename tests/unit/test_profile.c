/* test_profile: --profile's symbol resolution (fixture kallsyms, an ELF the test builds), clearing category, shares, prerequisites. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "profile/profile.h"
#include "fixture.h"

#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_ksyms_fixture(void **state)
{
	struct profile_ksyms *k;

	(void)state;
	fixture_use_root("profile/ok");
	k = profile_ksyms_load("/proc/kallsyms");
	assert_non_null(k);
	/* exact start, inside, and the last byte before the next symbol */
	assert_string_equal(profile_ksyms_find(k, 0xffffffff821eb0e0ull), "clear_page_erms");
	assert_string_equal(profile_ksyms_find(k, 0xffffffff821eb0f7ull), "clear_page_erms");
	assert_string_equal(profile_ksyms_find(k, 0xffffffff821eb08full), "clear_page_rep");
	/* the file is not sorted: folio_zero_user comes after a higher address in it */
	assert_string_equal(profile_ksyms_find(k, 0xffffffff815eb9c0ull), "folio_zero_user");
	assert_string_equal(profile_ksyms_find(k, 0xffffffff8159f590ull), "clear_page_dirty_for_io");
	/* data symbols are not text: an address after some_data is still in the text before it */
	assert_string_equal(profile_ksyms_find(k, 0xffffffff81a00010ull), "folio_zero_user");
	assert_string_equal(profile_ksyms_find(k, 0xffffffff821eb150ull), "clear_page_erms.cold");
	/* below the first symbol; past _etext where no module symbol holds it; a module's own */
	assert_null(profile_ksyms_find(k, 0xffffffff80000000ull));
	assert_null(profile_ksyms_find(k, 0xffffffff82500000ull));
	assert_string_equal(profile_ksyms_find(k, 0xffffffffa0000010ull), "fixture_mod_fn");
	profile_ksyms_free(k);
}

static void test_ksyms_hidden(void **state)
{
	(void)state;
	/* kptr_restrict: every address reads 0, which names nothing */
	fixture_use_root("profile/kptr");
	errno = 0;
	assert_null(profile_ksyms_load("/proc/kallsyms"));
	assert_int_equal(errno, EPERM);
	fixture_use_root("profile/noperf");
	assert_null(profile_ksyms_load("/proc/kallsyms"));
	assert_int_equal(errno, ENOENT);
}

static void test_clearing_category(void **state)
{
	(void)state;
	assert_true(profile_is_clearing("clear_page_erms", "x86_64"));
	assert_true(profile_is_clearing("clear_page_rep", "x86_64"));
	assert_true(profile_is_clearing("clear_page_orig", "x86_64"));
	assert_true(profile_is_clearing("clear_pages_erms", "x86_64"));
	assert_true(profile_is_clearing("folio_zero_user", "x86_64"));
	assert_true(profile_is_clearing("clear_huge_page", "x86_64"));
	assert_true(profile_is_clearing("clear_page_erms.cold", "x86_64"));
	assert_true(profile_is_clearing("folio_zero_user.isra.0", "x86_64"));
	assert_false(profile_is_clearing("clear_page_dirty_for_io", "x86_64"));
	assert_false(profile_is_clearing("exc_page_fault", "x86_64"));
	assert_false(profile_is_clearing("__clear_user", "x86_64"));
	assert_false(profile_is_clearing("mte_zero_clear_page_tags", "x86_64"));
	assert_true(profile_is_clearing("clear_page", "aarch64"));
	assert_true(profile_is_clearing("__pi_clear_page", "aarch64"));
	assert_true(profile_is_clearing("mte_zero_clear_page_tags", "arm64"));
	assert_false(profile_is_clearing("clear_page_erms", "aarch64"));
	assert_false(profile_is_clearing("clear_page_dirty_for_io", "aarch64"));
}

/* A function of this test's own ELF, found by its symbol. */
__attribute__((noinline)) int test_profile_own_fn(int x);
__attribute__((noinline)) int test_profile_own_fn(int x)
{
	return x * 3 + 1;
}

#ifdef CLEARPATH_HAVE_LIBDW
/* Build a small shared object with two known functions; its path in @path.  0 or -1. */
static int build_fixture_elf(char *dir, char *path, size_t len)
{
	char src[512], cmd[2048];
	const char *cc = getenv("CC");
	FILE *f;

	if (!mkdtemp(dir))
		return -1;
	snprintf(src, sizeof(src), "%s/fixture.c", dir);
	snprintf(path, len, "%s/libprofilefixture.so", dir);
	f = fopen(src, "w");
	if (!f)
		return -1;
	fputs("int cp_fixture_alpha(int x) { return x + 1; }\n"
	      "int cp_fixture_beta(int x) { volatile int y = x; for (int i = 0; i < 8; i++) y += i; return y; }\n",
	      f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s -shared -fPIC -O1 -o %s %s", cc && cc[0] ? cc : "cc", path, src);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_usyms_elf(void **state)
{
	char dir[] = "/tmp/clearpath-profile-XXXXXX", path[600], name[128], rm[700];
	struct profile_usyms *u;
	void *so, *alpha, *beta;

	(void)state;
	assert_int_equal(build_fixture_elf(dir, path, sizeof(path)), 0);
	so = dlopen(path, RTLD_NOW);
	assert_non_null(so);
	alpha = dlsym(so, "cp_fixture_alpha");
	beta = dlsym(so, "cp_fixture_beta");
	assert_non_null(alpha);
	assert_non_null(beta);
	u = profile_usyms_self();	/* after dlopen: the maps hold the new object */
	assert_non_null(u);
	assert_true(profile_usyms_find(u, (uint64_t)(uintptr_t)alpha, name, sizeof(name)));
	assert_string_equal(name, "cp_fixture_alpha@libprofilefixture.so");
	assert_true(profile_usyms_find(u, (uint64_t)(uintptr_t)beta + 4, name, sizeof(name)));
	assert_string_equal(name, "cp_fixture_beta@libprofilefixture.so");
	assert_true(profile_usyms_find(u, (uint64_t)(uintptr_t)test_profile_own_fn + 1, name, sizeof(name)));
	assert_string_equal(name, "test_profile_own_fn@test_profile");
	/* no object is mapped at 16: nothing to name */
	assert_false(profile_usyms_find(u, 16, name, sizeof(name)));
	profile_usyms_free(u);
	dlclose(so);
	snprintf(rm, sizeof(rm), "rm -rf %s", dir);
	assert_int_equal(system(rm), 0);
}
#else
/* Built without libdw (WITH_LIBDW=0): no user symbol tables, said as ENOTSUP, never a crash. */
static void test_usyms_elf(void **state)
{
	(void)state;
	errno = 0;
	assert_null(profile_usyms_self());
	assert_int_equal(errno, ENOTSUP);
}
#endif

static void test_resolve_shares(void **state)
{
	struct profile_ip ips[10] = {
		{ 0xffffffff821eb0e0ull, true }, { 0xffffffff821eb0e8ull, true }, { 0xffffffff821eb0e0ull, true },
		{ 0xffffffff815eb9b8ull, true },	/* folio_zero_user: clearing */
		{ 0xffffffff821eb200ull, true }, { 0xffffffff821eb210ull, true },	/* exc_page_fault */
		{ 0xffffffff8159f580ull, true },	/* clear_page_dirty_for_io: not clearing */
		{ 0xffffffff80000000ull, true },	/* below every symbol */
		{ (uint64_t)(uintptr_t)test_profile_own_fn, false }, { 16, false },
	};
	struct profile_summary s = { .on = true };
	struct profile_usyms *u = profile_usyms_self();
	struct profile_ksyms *k;

	(void)state;
	fixture_use_root("profile/ok");
	k = profile_ksyms_load("/proc/kallsyms");
	assert_non_null(k);
#ifdef CLEARPATH_HAVE_LIBDW
	assert_non_null(u);
#else
	/* without symbol tables both user samples are one "[user]", which then sorts second */
	assert_null(u);
	ips[9].kernel = true;	/* 16 in the kernel: below every symbol, as ips[7] */
#endif
	assert_int_equal(profile_resolve(ips, 10, k, u, &s), 0);
	assert_true(s.valid);
	assert_int_equal(s.samples, 10);
	assert_int_equal(s.ntop, PROFILE_TOP);
	assert_string_equal(s.top[0].name, "clear_page_erms");
	assert_float_equal(s.top[0].share, 30.0, 1e-9);
	assert_true(s.top[0].kernel);
#if defined(__aarch64__)
	/* the fixture is an x86-64 kernel's: on arm64 only folio_zero_user is in the category */
	assert_float_equal(s.clearing, 10.0, 1e-9);
	assert_false(s.top[0].clearing);
#else
	assert_float_equal(s.clearing, 40.0, 1e-9);
	assert_true(s.top[0].clearing);
#endif
#ifdef CLEARPATH_HAVE_LIBDW
	assert_string_equal(s.top[1].name, "exc_page_fault");
	assert_false(s.top[1].clearing);
#endif
#ifdef CLEARPATH_HAVE_LIBDW
	/* ties (one sample each) by name: [kernel] < [unknown] < clear_page_dirty_for_io < folio_zero_user < ... */
	assert_string_equal(s.top[2].name, "[kernel]");
	assert_string_equal(s.top[3].name, "[unknown]");
	assert_string_equal(s.top[4].name, "clear_page_dirty_for_io");
#else
	/* [kernel] (2) ties exc_page_fault (2), ahead by name; then [user] < clear_page_dirty_for_io */
	assert_string_equal(s.top[1].name, "[kernel]");
	assert_string_equal(s.top[2].name, "exc_page_fault");
	assert_string_equal(s.top[3].name, "[user]");
#endif
	profile_ksyms_free(k);
	profile_usyms_free(u);
}

static void test_bound_text(void **state)
{
	struct profile_summary s = { .on = true, .valid = true, .samples = 4012, .clearing = 97.8,
				     .cfg = { PROFILE_CPU_CLOCK, 100 } };
	char buf[256];

	(void)state;
	profile_bound_text(&s, buf, sizeof(buf));
	/* sqrt(0.978 x 0.022 / 4012) = 0.23 points */
	assert_string_equal(buf, "clearing 97.8% of 4012 samples (cpu-clock at 100 Hz, standard error 0.2 points): "
				 "a change of X% in the clearing routine moves this result by at most 0.98 x X%");
	/* sqrt(p(1-p)/n) once n is large; never 0 for few samples all in one symbol */
	assert_true(fabs(profile_share_stderr(50, 100) - 100 * sqrt(0.25 / 104)) < 1e-9);
	assert_true(fabs(profile_share_stderr(95, 100000) - 100 * sqrt(0.95 * 0.05 / 100000)) < 0.001);
	assert_true(fabs(profile_share_stderr(100, 10) - 100 * sqrt(12.0 / 14 * 2 / 14 / 14)) < 1e-9);
}

static void test_access(void **state)
{
	char why[256], fix[128];

	(void)state;
	fixture_use_root("profile/ok");
	assert_int_equal(profile_access(why, sizeof(why), fix, sizeof(fix)), 0);
	assert_string_equal(why, "");
	fixture_use_root("profile/paranoid");
	assert_int_equal(profile_access(why, sizeof(why), fix, sizeof(fix)), -EACCES);
	assert_non_null(strstr(why, "perf_event_paranoid is 2"));
	assert_string_equal(fix, "sysctl -w kernel.perf_event_paranoid=1 (or run as root)");
	/* every capability does not lift kptr_restrict 2 */
	fixture_use_root("profile/kptr");
	assert_int_equal(profile_access(why, sizeof(why), fix, sizeof(fix)), -EPERM);
	assert_non_null(strstr(why, "kptr_restrict is 2"));
	assert_string_equal(fix, "sysctl -w kernel.kptr_restrict=0");
	fixture_use_root("profile/noperf");
	assert_int_equal(profile_access(why, sizeof(why), fix, sizeof(fix)), -ENOSYS);
	assert_non_null(strstr(why, "no perf events"));
}

/* A refused profile: the run goes on, and its summary says why instead of holding zeros. */
static void test_refused_run(void **state)
{
	struct profile_config cfg = { PROFILE_CPU_CLOCK, PROFILE_DEFAULT_HZ };
	struct profile_summary s;
	struct profile_thread t;

	(void)state;
	fixture_use_root("profile/paranoid");
	assert_int_equal(profile_begin(&cfg), -EACCES);
	assert_false(profile_active());
	profile_thread_open(&t);
	assert_int_equal(t.fd, -1);
	profile_end(&s);
	assert_true(s.on);
	assert_false(s.valid);
	assert_int_equal(s.ntop, 0);
	assert_non_null(strstr(s.why, "perf_event_paranoid"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_ksyms_fixture, fixture_reset_root),
		cmocka_unit_test_teardown(test_ksyms_hidden, fixture_reset_root),
		cmocka_unit_test(test_clearing_category),
		cmocka_unit_test(test_usyms_elf),
		cmocka_unit_test_teardown(test_resolve_shares, fixture_reset_root),
		cmocka_unit_test(test_bound_text),
		cmocka_unit_test_teardown(test_access, fixture_reset_root),
		cmocka_unit_test_teardown(test_refused_run, fixture_reset_root),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
