/* executor: a campaign's steps on a host over SSH (facts, boots, sessions whose samples come back whole), hosts in parallel. */
#define _GNU_SOURCE
#include "remote/executor.h"
#include "remote/remote.h"
#include "campaign/campaign.h"
#include "campaign/local.h"
#include "harness/session.h"
#include "store/store.h"
#include "store/url.h"
#include "util/boot.h"
#include "util/log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A query (facts, sysctls, a boot command) must not hang a host's campaign. */
#define RX_QUERY_TIMEOUT 120
/* Between two tries to reach a host that is rebooting. */
#define RX_POLL_SECONDS 2
/* The session's store on the host, in the private directory. */
#define RX_STORE "session.db"
/* That session exported whole, to be brought back (store_export_whole()). */
#define RX_EXPORT "session.csv"

struct rx {
	struct remote_host h;
	const char *plan_file;	/* the controller's plan */
	char *plan;		/* its copy on the host */
	char *fake;		/* the host's $CLEARPATH_FAKE_BOOT (quoted), or NULL */
	unsigned boot_timeout;
	bool rebooting;		/* the last boot() ran a real boot method */
	bool recheck;		/* a real boot came back: its /tmp may be empty */
};

/*
 * @fmt's command for the host, with $CLEARPATH_FAKE_BOOT set there when the
 * campaign simulates boots; NULL after log_err() when out of memory.
 */
static char *rx_cmd(const struct rx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *rx_cmd(const struct rx *x, const char *fmt, ...)
{
	char *body, *cmd;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&body, fmt, ap);
	va_end(ap);
	if (n < 0) {
		log_err("out of memory");
		return NULL;
	}
	if (!x->fake)
		return body;
	n = asprintf(&cmd, "%s=%s; export %s; %s", BOOT_FAKE_ENV, x->fake, BOOT_FAKE_ENV, body);
	free(body);
	if (n >= 0)
		return cmd;
	log_err("out of memory");
	return NULL;
}

/* The host's private directory, clearpath and the plan there: made again after a boot that emptied /tmp. */
static int rx_install(struct rx *x)
{
	char *q, *cmd;
	int status = 1, ret;

	if (x->h.bin && !x->recheck)
		return 0;
	x->recheck = false;
	if (x->h.bin && (q = remote_quote(x->h.bin))) {
		cmd = rx_cmd(x, "test -x %s", q);
		free(q);
		ret = cmd ? remote_run(&x->h, cmd, RX_QUERY_TIMEOUT, NULL, &status) : EXIT_INTERNAL;
		free(cmd);
		if (ret || !status)
			return ret;
	}
	free(x->h.tmpdir);
	free(x->h.arch);
	free(x->h.bin);
	free(x->h.version);
	free(x->plan);
	x->h.tmpdir = x->h.arch = x->h.bin = x->h.version = x->plan = NULL;
	ret = remote_install(&x->h);
	if (!ret && asprintf(&x->plan, "%s/plan.yaml", x->h.tmpdir) < 0) {
		x->plan = NULL;
		log_err("out of memory");
		ret = EXIT_INTERNAL;
	}
	if (!ret)
		ret = remote_put(&x->h, x->plan_file, x->plan);
	/* a simulated boot's directory, for fake-boot and for a command method that simulates */
	if (!ret && x->fake) {
		cmd = rx_cmd(x, "mkdir -p \"$%s\"", BOOT_FAKE_ENV);
		ret = cmd ? remote_run_ok(&x->h, cmd, RX_QUERY_TIMEOUT, NULL) : EXIT_INTERNAL;
		free(cmd);
	}
	if (!ret)
		printf("%s: %s, %s\n", x->h.dest, x->h.arch, x->h.version);
	return ret;
}

/* The first line of @s into @buf (cut at @len - 1); returns the rest of @s. */
static const char *rx_line(const char *s, char *buf, size_t len)
{
	size_t n = strcspn(s, "\n");

	snprintf(buf, len, "%.*s", (int)n, s);
	return s[n] ? s + n + 1 : s + n;
}

/*
 * The host's boot id, release and cmdline, as util/boot reads them there: from
 * the simulated boot's files when it has them, else /proc and uname.
 */
static int rx_facts_run(struct rx *x, struct campaign_facts *f)
{
	char *out = NULL, *cmd = rx_cmd(x, "%s",
		"r() { if [ -n \"${CLEARPATH_FAKE_BOOT:-}\" ] && [ -r \"$CLEARPATH_FAKE_BOOT/$1\" ]; "
		"then head -n1 \"$CLEARPATH_FAKE_BOOT/$1\"; else $2; fi; }; "
		"printf '%s\\n' \"$(r boot_id 'cat /proc/sys/kernel/random/boot_id')\" \"$(r release 'uname -r')\" "
		"\"$(r cmdline 'cat /proc/cmdline')\"");
	const char *p;
	int ret = cmd ? remote_run_ok(&x->h, cmd, RX_QUERY_TIMEOUT, &out) : EXIT_INTERNAL;

	free(cmd);
	if (ret)
		return ret;
	p = rx_line(out, f->boot_id, sizeof(f->boot_id));
	p = rx_line(p, f->release, sizeof(f->release));
	rx_line(p, f->cmdline, sizeof(f->cmdline));
	free(out);
	if (f->boot_id[0] && f->release[0])
		return 0;
	log_err("%s: cannot read its boot id and kernel release", x->h.dest);
	return EXIT_RESOURCE;
}

static int rx_facts(struct campaign_executor *ex, struct campaign_facts *f)
{
	return rx_facts_run(ex->priv, f);
}

int remote_boot_facts(const struct remote_host *h, const char *fake, struct campaign_facts *f)
{
	struct rx x = { .h = *h, .fake = (char *)fake };

	return rx_facts_run(&x, f);
}

/* "/proc/sys/vm/swappiness" for "vm.swappiness", quoted; NULL when out of memory. */
static char *rx_sysctl_path(const char *key)
{
	char *path, *q;

	if (asprintf(&path, "/proc/sys/%s", key) < 0)
		return NULL;
	for (char *c = path + 10; *c; c++)
		if (*c == '.')
			*c = '/';
	q = remote_quote(path);
	free(path);
	return q;
}

static int rx_sysctl_get(struct campaign_executor *ex, const char *key, char *buf, size_t len)
{
	struct rx *x = ex->priv;
	char *path = rx_sysctl_path(key), *cmd = path ? rx_cmd(x, "cat %s", path) : NULL, *out = NULL;
	int status = 1, ret = cmd ? remote_run(&x->h, cmd, RX_QUERY_TIMEOUT, &out, &status) : EXIT_INTERNAL;

	free(path);
	free(cmd);
	if (!ret && !status)
		rx_line(out, buf, len);
	free(out);
	return ret || status ? -EIO : 0;
}

static int rx_sysctl_set(struct campaign_executor *ex, const char *key, const char *value)
{
	struct rx *x = ex->priv;
	char *path = rx_sysctl_path(key), *v = remote_quote(value), *cmd = NULL;
	int status = 1, ret;

	if (path && v)
		cmd = rx_cmd(x, "printf '%%s\\n' %s > %s", v, path);
	printf("%s: + sysctl -w %s=%s\n", x->h.dest, key, value);
	ret = cmd ? remote_run(&x->h, cmd, RX_QUERY_TIMEOUT, NULL, &status) : EXIT_INTERNAL;
	free(path);
	free(v);
	free(cmd);
	return ret || status ? -EIO : 0;
}

/* @argv quoted and joined, for the host's shell; NULL when out of memory. */
static char *rx_join(const char *const *argv)
{
	char *s = strdup(""), *q, *t;

	for (size_t i = 0; s && argv[i]; i++) {
		q = remote_quote(argv[i]);
		t = NULL;
		if (!q || asprintf(&t, "%s%s%s", s, i ? " " : "", q) < 0)
			t = NULL;
		free(q);
		free(s);
		s = t;
	}
	return s;
}

/* Each line of @out, prefixed with the host: the session's own summary. */
static void rx_print_prefixed(const struct rx *x, const char *out)
{
	char line[1024];

	while (*out) {
		out = rx_line(out, line, sizeof(line));
		printf("%s: %s\n", x->h.dest, line);
	}
}

/*
 * Bring the host's session into @c's store in the export/import form: the
 * host exports its session store whole (fingerprints, environment, samples,
 * errors), the file comes back over scp and is imported in one transaction.
 * All or nothing; a session brought back before (a restarted controller) is
 * recognised by its UUID and added nothing twice.  The text form, unlike a
 * copied database, does not depend on the two binaries' schema versions.
 */
static int rx_bring_back(struct rx *x, const struct campaign *c, const char *remote_store)
{
	char dir[] = "/tmp/clearpath-rx.XXXXXX", local[sizeof(dir) + 16];
	char *remote_file = NULL, *qbin = NULL, *qstore = NULL, *qfile = NULL, *cmd = NULL;
	struct store *dst;
	FILE *in = NULL;
	int ret = EXIT_INTERNAL;

	if (!mkdtemp(dir)) {
		log_err("cannot make a temporary directory: %s", strerror(errno));
		return EXIT_INTERNAL;
	}
	snprintf(local, sizeof(local), "%s/" RX_EXPORT, dir);
	if (asprintf(&remote_file, "%s/" RX_EXPORT, x->h.tmpdir) >= 0) {
		qbin = remote_quote(x->h.bin);
		qstore = remote_quote(remote_store);
		qfile = remote_quote(remote_file);
	}
	if (qbin && qstore && qfile)
		cmd = rx_cmd(x, "%s export --whole --store %s %s", qbin, qstore, qfile);
	if (!cmd)
		log_err("out of memory");
	else
		ret = remote_run_ok(&x->h, cmd, RX_QUERY_TIMEOUT, NULL);
	if (!ret)
		ret = remote_get(&x->h, remote_file, local);
	if (!ret && !(in = fopen(local, "r"))) {
		log_err("cannot read %s: %s", local, strerror(errno));
		ret = EXIT_INTERNAL;
	}
	if (!ret)
		ret = store_url_open(c->store_url, &dst);
	if (!ret) {
		ret = store_exit_code(store_import(dst, in, local, NULL));
		store_close(dst);
	}
	if (!ret)
		printf("%s: session brought back\n", x->h.dest);
	if (in)
		fclose(in);
	free(cmd);
	free(qfile);
	free(qstore);
	free(qbin);
	free(remote_file);
	unlink(local);
	rmdir(dir);
	return ret;
}

static int rx_session(struct campaign_executor *ex, const struct campaign *c, const char *swprofile)
{
	struct rx *x = ex->priv;
	struct campaign rc = *c;
	const char *argv[CAMPAIGN_SESSION_ARGC];
	char *store = NULL, *qstore = NULL, *line = NULL, *cmd = NULL, *out = NULL;
	int status = 0, ret = rx_install(x);

	if (ret)
		return ret;
	if (asprintf(&store, "%s/" RX_STORE, x->h.tmpdir) < 0) {
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	/* the same command line as a local session, with the host's binary, plan and store */
	rc.store_url = store;
	rc.plan_path = x->plan;
	campaign_session_argv(&rc, swprofile, argv);
	argv[0] = x->h.bin;
	line = rx_join(argv);
	qstore = remote_quote(store);
	/* a fresh store per session: what comes back is this session, whole */
	if (line && qstore)
		cmd = rx_cmd(x, "rm -f %s %s-wal %s-shm && %s", qstore, qstore, qstore, line);
	printf("%s: session of %s\n", x->h.dest, swprofile);
	fflush(stdout);
	ret = cmd ? remote_run(&x->h, cmd, 0, &out, &status) : EXIT_INTERNAL;
	if (!ret && status) {
		log_err("%s: the session of %s failed with exit %d", x->h.dest, swprofile, status);
		ret = status >= EXIT_INTERNAL && status <= EXIT_REGRESSION ? status : EXIT_RESOURCE;
	}
	if (!ret) {
		rx_print_prefixed(x, out);
		ret = rx_bring_back(x, c, store);
	}
	free(out);
	free(cmd);
	free(line);
	free(qstore);
	free(store);
	return ret;
}

/* A fake boot: `clearpath campaign fake-boot` on the host, into its $CLEARPATH_FAKE_BOOT. */
static int rx_fake_boot(struct rx *x, const struct campaign_boot_cmds *cmds)
{
	const char *argv[] = { x->h.bin, "campaign", "fake-boot", "--release", cmds->fake_release,
			       "--cmdline", cmds->fake_cmdline ? cmds->fake_cmdline : "", NULL };
	char *line, *cmd;
	int ret = rx_install(x);

	if (ret)
		return ret;
	if (!x->fake) {
		log_err("%s: the fake boot method needs %s set", x->h.dest, BOOT_FAKE_ENV);
		return EXIT_USAGE;
	}
	line = rx_join(argv);
	cmd = line ? rx_cmd(x, "%s >/dev/null", line) : NULL;
	ret = cmd ? remote_run_ok(&x->h, cmd, RX_QUERY_TIMEOUT, NULL) : EXIT_INTERNAL;
	free(line);
	free(cmd);
	return ret;
}

static int rx_boot(struct campaign_executor *ex, const struct campaign_boot_cmds *cmds)
{
	struct rx *x = ex->priv;
	int ret = 0, status = 0;

	x->rebooting = cmds->method != PLAN_BOOT_FAKE;
	if (!x->rebooting)
		return rx_fake_boot(x, cmds);
	for (size_t i = 0; !ret && i < cmds->ncmd; i++) {
		bool last = i + 1 == cmds->ncmd, quiet;
		char *cmd = rx_cmd(x, "(%s) 2>&1", cmds->cmd[i]), *out = NULL;

		printf("%s: + %s\n", x->h.dest, cmds->cmd[i]);
		fflush(stdout);
		/* the last command takes the host down: the connection may drop before ssh hears back */
		quiet = log_set_quiet(last);
		ret = cmd ? remote_run(&x->h, cmd, RX_QUERY_TIMEOUT, &out, &status) : EXIT_INTERNAL;
		log_set_quiet(quiet);
		if (out)
			rx_print_prefixed(x, out);
		free(out);
		free(cmd);
		if (last && ret == EXIT_RESOURCE)
			ret = 0;
		else if (!ret && status) {
			log_err("%s: '%s' failed with exit %d", x->h.dest, cmds->cmd[i], status);
			ret = EXIT_RESOURCE;
		}
	}
	return ret;
}

/* Seconds on the monotonic clock. */
static time_t rx_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

static int rx_wait(struct campaign_executor *ex, const struct campaign_facts *before)
{
	struct rx *x = ex->priv;
	struct campaign_facts f;
	time_t deadline = rx_now() + x->boot_timeout;
	int ret;

	for (;;) {
		/* while it reboots the host refuses or times out: that is the wait, not an error */
		bool quiet = log_set_quiet(true);

		ret = rx_facts_run(x, &f);
		log_set_quiet(quiet);
		if (!ret && strcmp(f.boot_id, before->boot_id)) {
			x->recheck = x->rebooting;
			return 0;
		}
		if (harness_stop_signal())
			return EXIT_RESOURCE;
		if (rx_now() >= deadline)
			break;
		sleep(RX_POLL_SECONDS);
	}
	log_err("%s: did not come back from the boot within %u seconds (%s)", x->h.dest, x->boot_timeout,
		ret ? "unreachable" : "still the boot it left");
	return EXIT_RESOURCE;
}

static const struct campaign_executor_ops rx_ops = {
	.facts = rx_facts,
	.sysctl_get = rx_sysctl_get,
	.sysctl_set = rx_sysctl_set,
	.session = rx_session,
	.boot = rx_boot,
	.wait = rx_wait,
};

char *remote_fake_dir(const char *dest)
{
	const char *env = getenv(BOOT_FAKE_ENV);
	char *dir, *q;

	if (!env || !*env || asprintf(&dir, "%s/%s", env, dest) < 0)
		return NULL;
	for (char *c = dir + strlen(env) + 1; *c; c++)
		if (*c == '/' || *c == ' ')
			*c = '_';
	q = remote_quote(dir);
	free(dir);
	return q;
}

/* One host's part of the campaign, in its own process: the exit code. */
static int rx_drive_host(const char *store_url, int64_t id, const char *dest, const char *ssh_config,
			 unsigned boot_timeout)
{
	struct campaign c;
	struct campaign_executor ex = { .ops = &rx_ops, .target = dest };
	struct rx x = { .boot_timeout = boot_timeout };
	int ret = remote_host_parse(dest, &x.h);

	if (ret)
		return ret;
	x.h.ssh_config = ssh_config;
	x.fake = remote_fake_dir(dest);
	ex.priv = &x;
	ret = campaign_load(store_url, id, false, &c);
	if (!ret) {
		x.plan_file = c.plan_path;
		/*
		 * A host unreachable from the start has not failed a boot: its boots
		 * stay pending and 'campaign continue' tries it again.
		 */
		ret = rx_install(&x);
		/* whether the plan fits the host is known once it is reached: checked before each drive */
		if (!ret)
			ret = remote_target_check(&x.h, c.plan, false, NULL);
		if (!ret)
			ret = campaign_advance(&c, &ex);
		campaign_free(&c);
	}
	remote_rmtemp(&x.h);
	remote_host_free(&x.h);
	free(x.plan);
	free(x.fake);
	return ret;
}

/* The campaign's hosts, from its spec: a JSON array of strings. */
static json_t *rx_targets(const struct campaign *c)
{
	json_t *t = json_object_get(c->spec, "targets");

	return json_is_array(t) ? t : NULL;
}

/* Wait for every host's process; the first failure's exit code (a usage error wins). */
static int rx_wait_hosts(const pid_t *pids, size_t n)
{
	int worst = 0;

	for (size_t i = 0; i < n; i++) {
		int status, code;

		if (pids[i] <= 0)
			continue;
		while (waitpid(pids[i], &status, 0) < 0 && errno == EINTR)
			;
		code = WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_INTERNAL;
		if (code && (!worst || code == EXIT_USAGE))
			worst = code;
	}
	return worst;
}

int remote_campaign_drive(struct campaign *c, const char *ssh_config, unsigned boot_timeout_s)
{
	json_t *targets = rx_targets(c);
	size_t n = targets ? json_array_size(targets) : 0;
	pid_t *pids = calloc(n ? n : 1, sizeof(*pids));
	char *url = c->store_url ? strdup(c->store_url) : NULL;
	int64_t id = c->row.id;
	int ret = 0, err;

	if (!pids || (c->store_url && !url)) {
		free(pids);
		free(url);
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	fflush(NULL);
	for (size_t i = 0; i < n; i++) {
		const char *dest = json_string_value(json_array_get(targets, i));

		pids[i] = fork();
		if (pids[i] == 0) {
			/* its own store connections (campaign_load opens them), its own ssh processes */
			harness_stop_catch();
			ret = rx_drive_host(url, id, dest, ssh_config, boot_timeout_s);
			fflush(NULL);
			_exit(ret == CAMPAIGN_DETACHED ? 0 : ret);
		}
		if (pids[i] < 0) {
			log_err("cannot start the process for %s: %s", dest, strerror(errno));
			ret = EXIT_INTERNAL;
		}
	}
	err = rx_wait_hosts(pids, n);
	ret = ret ? ret : err;
	free(pids);
	/* what the hosts did, seen from here: each process saw its own boots only */
	campaign_free(c);
	err = campaign_load(url, id, false, c);
	free(url);
	if (err)
		return ret ? ret : err;
	if (!ret && !strcmp(c->row.status, STORE_CAMPAIGN_RUNNING) && campaign_all_done(c)) {
		/* every boot is done: advancing any target now only marks the campaign done */
		struct campaign_executor ex = { .ops = &rx_ops, .target = "" };

		ret = campaign_advance(c, &ex);
	}
	return ret;
}
