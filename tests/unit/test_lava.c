/* test_lava: the LAVA client's pure parts: URLs, credentials, log parsing, the frame a job hands back, job YAML (golden). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lava/frame.h"
#include "lava/http.h"
#include "lava/job.h"
#include "lava/lava.h"
#include "util/log.h"

#ifdef CLEARPATH_HAVE_LIBCURL
#include <openssl/evp.h>
#endif

static void test_base_url(void **state)
{
	static const char *const cases[][2] = {
		{ "http://127.0.0.1:8000", "http://127.0.0.1:8000/" },
		{ "http://127.0.0.1:8000/", "http://127.0.0.1:8000/" },
		{ "https://lava.example.org/RPC2", "https://lava.example.org/" },
		{ "https://lava.example.org/RPC2/", "https://lava.example.org/" },
		{ "http://lab/lava/", "http://lab/lava/" },
	};
	static const char *const bad[] = { "lava.example.org", "ftp://lab/", "http://", "http:///x", "" };
	char *b;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(lava_http_base(cases[i][0], &b), 0);
		assert_string_equal(b, cases[i][1]);
		free(b);
	}
	log_set_quiet(true);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(lava_http_base(bad[i], &b), EXIT_USAGE);
	log_set_quiet(false);
}

/* A scratch directory holding @name with @text at @mode; its path in @path. */
static void scratch_file(char *dir, const char *name, const char *text, mode_t mode, char *path, size_t len)
{
	FILE *f;

	if (!dir[0]) {
		strcpy(dir, "/tmp/test_lava.XXXXXX");
		assert_non_null(mkdtemp(dir));
	}
	snprintf(path, len, "%s/%s", dir, name);
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
}

static void scratch_rm(const char *dir, const char *const *names)
{
	char p[512];

	for (size_t i = 0; names[i]; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		unlink(p);
	}
	rmdir(dir);
}

static void test_token_file(void **state)
{
	char dir[64] = "", path[512], *tok = NULL;
	struct lava_auth a = { 0 };

	(void)state;
	scratch_file(dir, "token", "s3cr3t-token\n", 0600, path, sizeof(path));
	a.token_file = path;
	assert_int_equal(lava_token("http://127.0.0.1:1/", &a, &tok), 0);
	assert_string_equal(tok, "s3cr3t-token");
	free(tok);
	/* one others can read is refused, saying how to fix it */
	assert_int_equal(chmod(path, 0644), 0);
	log_set_quiet(true);
	assert_int_equal(lava_token("http://127.0.0.1:1/", &a, &tok), EXIT_USAGE);
	assert_null(tok);
	/* a first line that is no token (spaces would go into the header) */
	scratch_file(dir, "token", "two words\n", 0600, path, sizeof(path));
	assert_int_equal(lava_token("http://127.0.0.1:1/", &a, &tok), EXIT_USAGE);
	scratch_file(dir, "token", "\n", 0600, path, sizeof(path));
	assert_int_equal(lava_token("http://127.0.0.1:1/", &a, &tok), EXIT_USAGE);
	/* both sources at once */
	a.identity = "lab";
	assert_int_equal(lava_token("http://127.0.0.1:1/", &a, &tok), EXIT_USAGE);
	log_set_quiet(false);
	scratch_rm(dir, (const char *const[]){ "token", NULL });
}

static void test_lavacli_identities(void **state)
{
	char dir[64] = "", path[512], *tok = NULL, *old = getenv("XDG_CONFIG_HOME") ? strdup(getenv("XDG_CONFIG_HOME")) : NULL;
	struct lava_auth a = { 0 };

	(void)state;
	scratch_file(dir, "lavacli.yaml",
		     "default:\n  uri: https://other.example.org/RPC2\n  username: u\n  token: t-other\n"
		     "lab:\n  uri: http://127.0.0.1:8000/RPC2\n  username: clearpath\n  token: t-lab\n"
		     "lab2:\n  uri: http://127.0.0.1:8000/RPC2\n  username: x\n  token: t-lab2\n",
		     0600, path, sizeof(path));
	setenv("XDG_CONFIG_HOME", dir, 1);
	/* by server: the first identity for it */
	assert_int_equal(lava_token("http://127.0.0.1:8000", &a, &tok), 0);
	assert_string_equal(tok, "t-lab");
	free(tok);
	/* by name */
	a.identity = "lab2";
	assert_int_equal(lava_token("http://127.0.0.1:8000/", &a, &tok), 0);
	assert_string_equal(tok, "t-lab2");
	free(tok);
	log_set_quiet(true);
	/* a named identity for another server is refused */
	a.identity = "default";
	assert_int_equal(lava_token("http://127.0.0.1:8000/", &a, &tok), EXIT_USAGE);
	a.identity = "nosuch";
	assert_int_equal(lava_token("http://127.0.0.1:8000/", &a, &tok), EXIT_USAGE);
	/* no identity for this server */
	a.identity = NULL;
	assert_int_equal(lava_token("http://127.0.0.1:9/", &a, &tok), EXIT_USAGE);
	/* not YAML */
	scratch_file(dir, "lavacli.yaml", "lab: [unclosed\n", 0600, path, sizeof(path));
	assert_int_equal(lava_token("http://127.0.0.1:8000/", &a, &tok), EXIT_USAGE);
	log_set_quiet(false);
	if (old)
		setenv("XDG_CONFIG_HOME", old, 1);
	else
		unsetenv("XDG_CONFIG_HOME");
	free(old);
	scratch_rm(dir, (const char *const[]){ "lavacli.yaml", NULL });
}

struct lines {
	size_t n;
	char lvl[8][16];
	char msg[8][128];
};

static int collect(const struct lava_line *l, void *arg)
{
	struct lines *c = arg;

	if (c->n < 8) {
		snprintf(c->lvl[c->n], sizeof(c->lvl[0]), "%s", l->lvl);
		snprintf(c->msg[c->n], sizeof(c->msg[0]), "%s", l->msg);
	}
	c->n++;
	return 0;
}

static void test_log_parse(void **state)
{
	/* as the server sends it: YAML's double-quoted escapes, not JSON's; results lines carry a mapping */
	static const char log[] =
		"- {\"dt\": \"2026-12-01T22:10:04.952564\", \"lvl\": \"info\", \"msg\": \"start: 0 validate\"}\n"
		"- {\"dt\": \"2026-12-01T22:10:05\", \"lvl\": \"target\", \"msg\": \"clearpath-lava# \\e[6nuname -r\"}\n"
		"- {\"dt\": \"2026-12-01T22:10:06\", \"lvl\": \"results\", \"msg\": {\"case\": \"x\", \"extra\": [1, 2]}}\n"
		"- {\"dt\": \"2026-12-01T22:10:07\", \"lvl\": \"target\", \"msg\": \"caf\\xE9 \\\"q\\\"\"}\n";
	struct lines c = { 0 };
	size_t n;

	(void)state;
	assert_int_equal(lava_log_parse(log, strlen(log), collect, &c, &n), 0);
	assert_int_equal(n, 4);
	assert_int_equal(c.n, 4);
	assert_string_equal(c.lvl[0], "info");
	assert_string_equal(c.msg[1], "clearpath-lava# \x1b[6nuname -r");
	assert_string_equal(c.lvl[2], "results");
	assert_string_equal(c.msg[2], "");
	assert_string_equal(c.msg[3], "caf\xc3\xa9 \"q\"");
	/* empty: no lines */
	c.n = 0;
	assert_int_equal(lava_log_parse("", 0, collect, &c, &n), 0);
	assert_int_equal(n, 0);
	/* not a list of mappings */
	assert_int_equal(lava_log_parse("just text\n", 10, collect, &c, &n), -EINVAL);
	assert_int_equal(lava_log_parse("- [1, 2]\n", 9, collect, &c, &n), -EINVAL);
	assert_int_equal(lava_log_parse("- {\"msg\": \"unclosed\n", 20, collect, &c, &n), -EINVAL);
}

#ifdef CLEARPATH_HAVE_LIBCURL
/* Feed @f the frame a job prints for @payload under tag @tag, with line @corrupt (0: none) changed. */
static void feed_frame(struct lava_frame *f, const char *tag, const char *payload, int corrupt)
{
	unsigned char md[EVP_MAX_MD_SIZE], b64[4096];
	unsigned int mdlen;
	char hex[129] = "", line[512];
	int n = EVP_EncodeBlock(b64, (const unsigned char *)payload, (int)strlen(payload)), k = 0;

	EVP_Digest(payload, strlen(payload), md, &mdlen, EVP_sha256(), NULL);
	for (unsigned i = 0; i < mdlen; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	snprintf(line, sizeof(line), "clearpath-lava %s facts 0f0f-boot 6.1.0-57-amd64\r", tag);
	assert_int_equal(lava_frame_line(f, line), 0);
	snprintf(line, sizeof(line), "clearpath-lava %s begin %zu %s", tag, strlen(payload), hex);
	assert_int_equal(lava_frame_line(f, line), 0);
	/* the kernel, the shell's trace and another job's line in between change nothing */
	assert_int_equal(lava_frame_line(f, "[   12.3] random: crng init done"), 0);
	assert_int_equal(lava_frame_line(f, "+ sed 's/^/clearpath-lava TAG data /'"), 0);
	assert_int_equal(lava_frame_line(f, "clearpath-lava othertag data AAAA"), 0);
	for (int off = 0; off < n; off += 76) {
		snprintf(line, sizeof(line), "clearpath-lava %s data %.*s\r", tag, n - off < 76 ? n - off : 76, b64 + off);
		if (++k == corrupt)
			line[strlen(line) - 3] ^= 1;
		assert_int_equal(lava_frame_line(f, line), 0);
	}
	snprintf(line, sizeof(line), "clearpath-lava %s exit 0", tag);
	assert_int_equal(lava_frame_line(f, line), 0);
	snprintf(line, sizeof(line), "clearpath-lava %s end", tag);
	assert_int_equal(lava_frame_line(f, line), 0);
}

static void test_frame(void **state)
{
	const char *payload = "record,sut,swprofile,session\nsut,box,,\nend,,,\n" "0123456789abcdefghijklmnopqrstuvwxyz"
			      "0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz\n";
	struct lava_frame f;
	char *data, why[256];
	size_t len;

	(void)state;
	lava_frame_init(&f, "k1-t2");
	feed_frame(&f, "k1-t2", payload, 0);
	assert_true(f.have_facts);
	assert_string_equal(f.boot_id, "0f0f-boot");
	assert_string_equal(f.release, "6.1.0-57-amd64");
	assert_int_equal(f.exit_status, 0);
	assert_int_equal(lava_frame_decode(&f, &data, &len, why, sizeof(why)), 0);
	assert_int_equal(len, strlen(payload));
	assert_memory_equal(data, payload, len);
	free(data);
	lava_frame_free(&f);

	/* one character changed on the way: refused */
	lava_frame_init(&f, "k1-t2");
	feed_frame(&f, "k1-t2", payload, 2);
	assert_int_equal(lava_frame_decode(&f, &data, &len, why, sizeof(why)), -EINVAL);
	assert_null(data);
	assert_non_null(strstr(why, "SHA-256"));
	lava_frame_free(&f);

	/* another tag's frame is not this job's */
	lava_frame_init(&f, "mine");
	feed_frame(&f, "theirs", payload, 0);
	assert_false(f.have_facts);
	assert_int_equal(lava_frame_decode(&f, &data, &len, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "no session"));
	lava_frame_free(&f);

	/* cut short: no end line */
	lava_frame_init(&f, "t");
	assert_int_equal(lava_frame_line(&f, "clearpath-lava t begin 3 abc"), 0);
	assert_int_equal(lava_frame_line(&f, "clearpath-lava t data YWJj"), 0);
	assert_int_equal(lava_frame_decode(&f, &data, &len, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "cut short"));
	/* data that is no base64 marks the frame garbled */
	assert_int_equal(lava_frame_line(&f, "clearpath-lava t data Y*Jj"), 0);
	assert_int_equal(lava_frame_line(&f, "clearpath-lava t end"), 0);
	assert_int_equal(lava_frame_decode(&f, &data, &len, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "garbled"));
	lava_frame_free(&f);
}
#endif

/* Compare @got with tests/golden/lava/@name byte for byte; UPDATE_GOLDEN=1 rewrites it. */
static void golden(const char *name, const char *got)
{
	char path[256], want[65536];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "tests/golden/lava/%s", name);
	if (getenv("UPDATE_GOLDEN")) {
		assert_non_null(f = fopen(path, "w"));
		fputs(got, f);
		fclose(f);
		return;
	}
	if (!(f = fopen(path, "r")))
		fail_msg("missing golden file %s (run with UPDATE_GOLDEN=1 from the top directory)", path);
	n = fread(want, 1, sizeof(want) - 1, f);
	fclose(f);
	want[n] = '\0';
	if (strcmp(want, got))
		fail_msg("%s differs from the golden file; got:\n%s", path, got);
}

static const char plan_text[] = "# a plan\nbenchmarks:\n  - mem memset -s 1MB -f default\nswprofiles:\n  base: {boot: {method: lava, kernel: 'x'}}\n";

static void test_job_tmpfs(void **state)
{
	const char *ctx[] = { "arch=amd64", "memory=1024", "no_kvm=true", NULL };
	const char *prompts[] = { "clearpath-lava# ", NULL };
	struct lava_job_spec s = {
		.name = "clearpath campaign 7 qemu/1 boot 2 try 1 (k3y)",
		.device_type = "qemu",
		.context = ctx,
		.frame_tag = "k3y-qemu-1-2-1",
		.swprofile = "it's base",
		.campaign = "7",
		.kernel = "file:///srv/vmlinuz-6.1.0-57-amd64",
		.initrd = "file:///srv/initrd-6.1.0-57-amd64.cpio.gz",
		.cmdline = "console=ttyS0,115200 mitigations=off",
		.prompts = prompts,
		.plan_text = plan_text,
		.queue_minutes = 60,
		.job_minutes = 30,
		.session_minutes = 20,
	};
	char *y;

	(void)state;
	assert_int_equal(lava_job_yaml(&s, &y), 0);
	golden("job-tmpfs.yaml", y);
	free(y);
	/* no kernel, no job */
	s.kernel = NULL;
	assert_int_equal(lava_job_yaml(&s, &y), -EINVAL);
}

static void test_job_tftp(void **state)
{
	const char *tags[] = { "juno-r2", "big-ram", NULL };
	struct lava_job_spec s = {
		.name = "clearpath campaign 8 juno/1 boot 1 try 2 (z9)",
		.device_type = "juno",
		.tags = tags,
		.frame_tag = "z9-juno-1-1-2",
		.swprofile = "patched",
		.campaign = "8",
		.deploy = "tftp",
		.boot = "u-boot",
		.boot_commands = "nfs",
		.cmdline = "mitigations=off",
		.kernel = "https://files.example.org/Image",
		.dtb = "https://files.example.org/juno-r2.dtb",
		.modules = "https://files.example.org/modules.tar.xz",
		.nfsrootfs = "https://files.example.org/rootfs.tar.xz",
		.clearpath_url = "https://files.example.org/clearpath-aarch64",
		.plan_text = plan_text,
		.queue_minutes = 120,
		.job_minutes = 45,
		.session_minutes = 30,
	};
	char *y;

	(void)state;
	assert_int_equal(lava_job_yaml(&s, &y), 0);
	golden("job-tftp.yaml", y);
	free(y);
	/* a deployment this writer does not know */
	s.deploy = "fastboot";
	assert_int_equal(lava_job_yaml(&s, &y), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base_url),
		cmocka_unit_test(test_token_file),
		cmocka_unit_test(test_lavacli_identities),
		cmocka_unit_test(test_log_parse),
#ifdef CLEARPATH_HAVE_LIBCURL
		cmocka_unit_test(test_frame),
#endif
		cmocka_unit_test(test_job_tmpfs),
		cmocka_unit_test(test_job_tftp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
