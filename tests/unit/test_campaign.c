/* test_campaign: the campaign's order, boot commands, expect checks and the plan's swprofiles, without booting. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "campaign/campaign.h"
#include "campaign/method.h"
#include "plan/plan.h"
#include "store/credentials.h"
#include "util/boot.h"
#include "util/log.h"
#include "util/shquote.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A campaign's plan from @yaml (written to a temporary file), loaded; NULL with *@ret set when refused. */
static struct plan *plan_from(const char *yaml, int *ret)
{
	char path[] = "/tmp/test_campaign_XXXXXX";
	int fd = mkstemp(path);
	struct plan *p = NULL;
	FILE *f;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fprintf(f, "%s\ndefaults: {warmups: 0, repeats: 1}\nbenchmarks:\n  - mem memset -f default -s 1MB\n", yaml);
	fclose(f);
	*ret = campaign_plan_load(path, &p);
	unlink(path);
	return p;
}

static void test_order_interleaved_and_seeded(void **state)
{
	size_t a[3 * 5], b[3 * 5], c[3 * 5];
	bool differs = false;

	(void)state;
	campaign_order(3, 5, 42, a);
	campaign_order(3, 5, 42, b);
	assert_memory_equal(a, b, sizeof(a));
	/* every round boots each swprofile once */
	for (unsigned r = 0; r < 5; r++) {
		unsigned seen = 0;

		for (size_t i = 0; i < 3; i++)
			seen |= 1u << a[r * 3 + i];
		assert_int_equal(seen, 7);
	}
	/* another seed, another order (for some seed: 5 rounds of 3! orders) */
	for (uint64_t s = 43; s < 53 && !differs; s++) {
		campaign_order(3, 5, s, c);
		differs = memcmp(a, c, sizeof(a)) != 0;
	}
	assert_true(differs);
}

static void expect_quote(const char *s, const char *q)
{
	char *got = sh_quote(s);

	assert_string_equal(got, q);
	free(got);
}

static void test_shell_quote(void **state)
{
	char *long_word = malloc(5001), *q;
	const char *argv[] = { "kexec", "-l", "a b", "it's", NULL };

	(void)state;
	expect_quote("/boot/vmlinuz-6.1", "/boot/vmlinuz-6.1");
	expect_quote("a b", "'a b'");
	expect_quote("it's", "'it'\\''s'");
	expect_quote("", "''");
	expect_quote("$(reboot)", "'$(reboot)'");
	/* allocated to fit: a long word is never cut short */
	memset(long_word, 'x', 5000);
	long_word[0] = ' ';
	long_word[5000] = '\0';
	q = sh_quote(long_word);
	assert_int_equal(strlen(q), 5002);
	free(q);
	free(long_word);
	q = sh_join(argv);
	assert_string_equal(q, "kexec -l 'a b' 'it'\\''s'");
	free(q);
}

static const char two_kernels[] =
	"swprofiles:\n"
	"  base: {boot: {method: kexec, kernel: /boot/vmlinuz-6.18.0-base, cmdline: keep}}\n"
	"  nohz: {boot: {method: kexec, kernel: /boot/vmlinuz-6.18.0-patch, initrd: /boot/i}, cmdline: nohz_full=2-3}\n"
	"  grub: {boot: {method: grub, entry: \"Advanced>Debian GNU/Linux, with Linux 6.18.0-g\"}, sysctl: {vm.swappiness: 10}}\n"
	"  demo: {boot: {method: fake, release: 1.0-demo, cmdline: quiet}, cmdline: \"a=1 b\"}\n";

static void test_expect_derived(void **state)
{
	int ret;
	struct plan *p = plan_from(two_kernels, &ret);
	const struct plan_swprofile *sw;

	(void)state;
	assert_int_equal(ret, 0);
	assert_int_equal(p->nswprofiles, 4);
	sw = plan_swprofile_find(p, "base");
	assert_string_equal(sw->expect.release, "6.18.0-base");
	sw = plan_swprofile_find(p, "nohz");
	assert_string_equal(sw->expect.release, "6.18.0-patch");
	assert_int_equal(sw->expect.ncmdline_has, 1);
	assert_string_equal(sw->expect.cmdline_has[0], "nohz_full=2-3");
	sw = plan_swprofile_find(p, "grub");
	assert_string_equal(sw->expect.release, "6.18.0-g");
	assert_int_equal(sw->expect.nsysctl, 1);
	assert_string_equal(sw->expect.sysctl[0].key, "vm.swappiness");
	assert_string_equal(sw->expect.sysctl[0].value, "10");
	sw = plan_swprofile_find(p, "demo");
	assert_string_equal(sw->expect.release, "1.0-demo");
	assert_int_equal(sw->expect.ncmdline_has, 2);
	plan_free(p);
}

/* The commands of one boot of swprofile @name of @p on a target whose facts are @now. */
static void boot_of(const struct plan *p, const char *name, const struct campaign_facts *now,
		    struct campaign_boot_cmds *c)
{
	struct campaign_boot_ctx ctx = { p, plan_swprofile_find(p, name), now, "/opt/clear path", NULL };

	assert_int_equal(campaign_boot_commands(&ctx, c), 0);
}

static void test_boot_commands(void **state)
{
	int ret;
	struct plan *p = plan_from(two_kernels, &ret);
	struct campaign_facts now = { .cmdline = "BOOT_IMAGE=/vmlinuz root=/dev/sda1 nohz_full=2-3 ro" };
	struct campaign_boot_cmds c;

	(void)state;
	assert_int_equal(ret, 0);
	/* keep: today's cmdline without BOOT_IMAGE= and without what another swprofile added */
	boot_of(p, "base", &now, &c);
	assert_int_equal(c.ncmd, 2);
	assert_string_equal(c.cmd[0], "kexec -l /boot/vmlinuz-6.18.0-base '--command-line=root=/dev/sda1 ro'");
	assert_string_equal(c.cmd[1], "systemctl kexec");
	assert_true(c.method->reboots);
	campaign_boot_cmds_free(&c);
	/* no cmdline given is keep too; its own cmdline: appended */
	boot_of(p, "nohz", &now, &c);
	assert_string_equal(c.cmd[0], "kexec -l /boot/vmlinuz-6.18.0-patch --initrd=/boot/i "
				      "'--command-line=root=/dev/sda1 ro nohz_full=2-3'");
	assert_string_equal(c.cmdline, "root=/dev/sda1 ro nohz_full=2-3");
	campaign_boot_cmds_free(&c);
	boot_of(p, "grub", &now, &c);
	assert_int_equal(c.ncmd, 2);
	assert_string_equal(c.cmd[0], "grub-reboot 'Advanced>Debian GNU/Linux, with Linux 6.18.0-g'");
	assert_string_equal(c.cmd[1], "systemctl reboot");
	assert_null(c.cmdline);
	campaign_boot_cmds_free(&c);
	/* a simulated boot is a command like the others, run by the target's clearpath; nothing goes down */
	boot_of(p, "demo", &now, &c);
	assert_int_equal(c.ncmd, 1);
	assert_string_equal(c.cmd[0], "'/opt/clear path' campaign fake-boot --release 1.0-demo --cmdline 'quiet a=1 b' >/dev/null");
	assert_string_equal(c.cmdline, "quiet a=1 b");
	assert_false(c.method->reboots);
	campaign_boot_cmds_free(&c);
	plan_free(p);
}

/* Each method is one row: found by name, its keys what the plan may write in `boot`. */
static void test_method_rows(void **state)
{
	static const char *const names[] = { "kexec", "grub", "command", "fake" };

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct campaign_method *m = campaign_method_find(names[i]);

		assert_non_null(m);
		assert_string_equal(m->name, names[i]);
		assert_non_null(m->commands);
		assert_non_null(m->keys);
	}
	assert_null(campaign_method_find("kexek"));
}

static void test_expect_mismatch(void **state)
{
	int ret;
	struct plan *p = plan_from(two_kernels, &ret);
	const struct plan_swprofile *sw = plan_swprofile_find(p, "nohz");
	struct campaign_facts f = { .release = "6.18.0-patch", .cmdline = "ro nohz_full=2-3" };
	char why[256];

	(void)state;
	assert_null(campaign_expect_mismatch(sw, &f, why, sizeof(why)));
	snprintf(f.cmdline, sizeof(f.cmdline), "ro xnohz_full=2-3 nohz_full=2-33");
	assert_non_null(campaign_expect_mismatch(sw, &f, why, sizeof(why)));
	assert_string_equal(why, "the kernel command line lacks 'nohz_full=2-3'");
	snprintf(f.release, sizeof(f.release), "6.18.0-base");
	assert_non_null(campaign_expect_mismatch(sw, &f, why, sizeof(why)));
	assert_string_equal(why, "booted kernel 6.18.0-base, expected 6.18.0-patch");
	plan_free(p);
}

/* Whether a boot of @sw that left @before and came back under @release did not come up; @want: why, or NULL (it did). */
static void check_not_up(const struct plan_swprofile *sw, const char *before, const char *release, const char *want)
{
	struct campaign_facts f = { .boot_id = "" };
	char why[512] = "";

	snprintf(f.release, sizeof(f.release), "%s", release);
	assert_int_equal(campaign_boot_not_up(sw, before, &f, why, sizeof(why)), want != NULL);
	if (want && *want)
		assert_string_equal(why, want);
}

/* A kernel not the one expected: a boot that did not come up (taken again), or a wrong expect (the plan's). */
static void test_boot_not_up(void **state)
{
	static const char plan[] =
		"swprofiles:\n"
		"  base: {boot: {method: kexec, kernel: /boot/vmlinuz-6.18.0-base}}\n"
		"  grub: {boot: {method: grub, entry: \"Debian GNU/Linux, with Linux 6.1.0-old\"}, expect: {release: 6.12.0-new}}\n"
		"  cmd: {boot: {method: command, commands: [reboot]}, expect: {release: 6.18.0-cmd}}\n";
	int ret;
	struct plan *p = plan_from(plan, &ret);
	const struct plan_swprofile *base, *grub, *cmd;

	(void)state;
	assert_int_equal(ret, 0);
	base = plan_swprofile_find(p, "base");
	grub = plan_swprofile_find(p, "grub");
	cmd = plan_swprofile_find(p, "cmd");
	/* the kernel asked for came up */
	check_not_up(base, "6.1.0-old", "6.18.0-base", NULL);
	/* the kexec'd kernel did not: the machine is back under the one it left, or GRUB's default */
	check_not_up(base, "6.1.0-old", "6.1.0-old",
		     "came back under kernel 6.1.0-old (the one it left), not 6.18.0-base, which its boot method boots");
	check_not_up(base, "6.1.0-old", "6.12.0-default",
		     "came back under kernel 6.12.0-default, not 6.18.0-base, which its boot method boots");
	check_not_up(base, "", "6.12.0-default", "");
	/* the entry's kernel came up, and expect names another: the plan is wrong, not the boot */
	check_not_up(grub, "6.12.0-new", "6.1.0-old", NULL);
	check_not_up(grub, "6.1.0-old", "6.1.0-old", NULL);
	/* neither the entry's kernel nor the expected one */
	check_not_up(grub, "6.12.0-new", "5.10.0-other", "");
	/* a method that cannot tell its release: only a boot back under the kernel it left did not come up */
	check_not_up(cmd, "6.1.0-old", "5.10.0-other", NULL);
	check_not_up(cmd, "", "5.10.0-other", NULL);
	check_not_up(cmd, "6.1.0-old", "6.1.0-old", "came back under kernel 6.1.0-old, the one it left, not 6.18.0-cmd");
	check_not_up(cmd, "6.18.0-cmd", "6.18.0-cmd", NULL);
	plan_free(p);
}

static void test_bad_swprofiles(void **state)
{
	static const char *const bad[] = {
		"swprofiles: {a: {boot: {method: kexec}}}",
		"swprofiles: {a: {boot: {method: nope}}}",
		"swprofiles: {a: {boot: {method: command, commands: reboot}}}",
		"swprofiles: {a: {boot: {method: grub, entry: x}, expect: {release: 1}, cmdline: quiet}}",
		"swprofiles: {a: {boot: {method: fake, release: 1}, sysctl: {'a..b': 1}}}",
		"swprofiles: {a: {boot: {method: fake, release: 1}, sysctl: {vm.x: 1, vm.x: 2}}}",
		"swprofiles: {}",
		"swprofiles: [a]",
		"swprofile: x\nswprofiles: {a: {boot: {method: fake, release: 1}}}",
	};

	(void)state;
	log_set_quiet(true);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ret;
		struct plan *p = plan_from(bad[i], &ret);

		if (ret != EXIT_USAGE)
			fail_msg("accepted: %s", bad[i]);
		assert_null(p);
	}
	log_set_quiet(false);
}

static void test_fake_boot(void **state)
{
	char dir[] = "/tmp/test_campaign_boot_XXXXXX", id[64], id2[64], buf[256];

	(void)state;
	assert_non_null(mkdtemp(dir));
	setenv(BOOT_FAKE_ENV, dir, 1);
	assert_int_equal(boot_fake(dir, "9.9-fake", "a b", id, sizeof(id)), 0);
	assert_int_equal(boot_id(buf, sizeof(buf)), 0);
	assert_string_equal(buf, id);
	assert_int_equal(boot_release(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "9.9-fake");
	assert_int_equal(boot_cmdline(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "a b");
	assert_int_equal(boot_fake(dir, "9.9-fake", "", id2, sizeof(id2)), 0);
	assert_string_not_equal(id, id2);
	assert_int_equal(strlen(id2), 36);
	unsetenv(BOOT_FAKE_ENV);
	/* the real one again */
	assert_int_equal(boot_id(buf, sizeof(buf)), 0);
	assert_string_not_equal(buf, id2);
	snprintf(buf, sizeof(buf), "rm -rf '%s'", dir);
	assert_int_equal(system(buf), 0);
}

#ifdef CLEARPATH_HAVE_LIBPQ
/* The contents of @path, NUL-terminated, into @buf. */
static void slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static void test_store_password_stashed(void **state)
{
	char dir[] = "/tmp/test_campaign_pw_XXXXXX", pass[256], text[1024], cmd[300], *out;
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(pass, sizeof(pass), "%s/new/clearpath/pgpass", dir);
	/* no password: the URL as it is, nothing written */
	assert_int_equal(store_url_stash_password("postgresql://u@h:5/db", pass, true, &out), 0);
	assert_string_equal(out, "postgresql://u@h:5/db");
	free(out);
	assert_int_not_equal(access(pass, F_OK), 0);
	/* a dry run says what the URL would be and writes nothing */
	assert_int_equal(store_url_stash_password("postgresql://u:s3@h:5/db", pass, false, &out), 0);
	assert_null(strstr(out, "s3"));
	free(out);
	assert_int_not_equal(access(pass, F_OK), 0);
	/* the password, with the characters pgpass escapes, in the file; the keyword form names the file */
	assert_int_equal(store_url_stash_password("postgresql://u:a%3Ab%5Cc@h:5/db?sslmode=disable", pass, true, &out), 0);
	assert_null(strstr(out, "a:b"));
	assert_non_null(strstr(out, "sslmode='disable'"));
	assert_non_null(strstr(out, "passfile='"));
	free(out);
	slurp(pass, text, sizeof(text));
	assert_string_equal(text, "h:5:db:u:a\\:b\\\\c\n");
	assert_int_equal(stat(pass, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	/* the same server, database and user again: its line replaced, another one's kept */
	assert_int_equal(store_url_stash_password("host=other user=v password=x dbname=d", pass, true, &out), 0);
	free(out);
	assert_int_equal(store_url_stash_password("postgresql://u:new@h:5/db", pass, true, &out), 0);
	free(out);
	slurp(pass, text, sizeof(text));
	assert_string_equal(text, "other:*:d:v:x\nh:5:db:u:new\n");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_interleaved_and_seeded),
		cmocka_unit_test(test_shell_quote),
		cmocka_unit_test(test_expect_derived),
		cmocka_unit_test(test_boot_commands),
		cmocka_unit_test(test_method_rows),
		cmocka_unit_test(test_expect_mismatch),
		cmocka_unit_test(test_boot_not_up),
		cmocka_unit_test(test_bad_swprofiles),
		cmocka_unit_test(test_fake_boot),
#ifdef CLEARPATH_HAVE_LIBPQ
		cmocka_unit_test(test_store_password_stashed),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
