/* executor_ssh: the campaign executor for a host over SSH: facts, boots and sessions there, each session brought back whole. */
#define _GNU_SOURCE
#include "campaign/campaign.h"
#include "campaign/executor.h"
#include "campaign/method.h"
#include "campaign/ssh.h"
#include "harness/session.h"
#include "remote/remote.h"
#include "store/store.h"
#include "store/url.h"
#include "util/boot.h"
#include "util/log.h"
#include "util/shquote.h"
#include "util/text.h"
#include "workloads/workload.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
/* The private directory's name in a dry run's lines: mktemp's, known only once made. */
#define RX_DRY_DIR "$DIR"
/* Where a host keeps each session until the controller has stored it, under its user's XDG state directory. */
#define RX_HELD "clearpath/held"
/* The held copy's directory in a dry run's lines. */
#define RX_DRY_HELD "$HELD"

struct rx {
	struct remote_host h;
	const struct plan *src;	/* the controller's plan: its files are copied */
	char *plan;		/* the top plan's copy on the host */
	char *fake;		/* the host's $CLEARPATH_FAKE_BOOT (quoted), or NULL */
	char sut[256];		/* the host's SUT class, from its facts at open: its sessions must carry it */
	unsigned boot_timeout;
	bool dry_run;
	bool installed;		/* a dry run: the copies were printed */
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

/* The dry run's copies: the binary for the host's architecture (when it can be asked), the plan. */
static int rx_install_dry(struct rx *x)
{
	char *arch = NULL, *local = NULL, why[512];
	int status = 1;

	if (x->installed)
		return 0;
	x->installed = true;
	free(x->h.bin);
	x->h.bin = strdup(RX_DRY_DIR "/clearpath");
	if (asprintf(&x->plan, RX_DRY_DIR "/plan/%s", campaign_plan_relative(x->src, 0)) < 0)
		x->plan = NULL;
	x->h.tmpdir = strdup(RX_DRY_DIR);
	if (!x->h.bin || !x->plan || !x->h.tmpdir) {
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	printf("%s: + mktemp -d \"${TMPDIR:-/tmp}/clearpath.XXXXXXXXXX\": %s, its name unknown until it is made\n",
	       x->h.dest, RX_DRY_DIR);
	if (!remote_try(&x->h, "uname -m", RX_QUERY_TIMEOUT, &arch, &status, why, sizeof(why)) && !status &&
	    (arch[strcspn(arch, "\n")] = '\0', !remote_binary_for(arch, &local)))
		printf("%s: copy %s (for %s) to %s/clearpath; whether it runs there is unknown until it is copied\n",
		       x->h.dest, local, arch, RX_DRY_DIR);
	else
		printf("%s: copy clearpath to %s/clearpath: which binary is unknown (see above)\n", x->h.dest,
		       RX_DRY_DIR);
	for (size_t i = 0; i < x->src->nsources; i++)
		printf("%s: copy %s to %s/plan/%s\n", x->h.dest, x->src->sources[i].path, RX_DRY_DIR,
		       campaign_plan_relative(x->src, i));
	if (x->fake)
		printf("%s: commands run there with %s=%s (its simulated boot's own directory)\n", x->h.dest,
		       BOOT_FAKE_ENV, x->fake);
	free(arch);
	free(local);
	return 0;
}

/*
 * The plan and every file it includes, under $DIR/plan at the places they
 * have relative to the top plan (campaign_plan_relative(), checked at
 * start), so the host's includes find them as the controller's do.
 */
static int rx_put_plan(struct rx *x)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < x->src->nsources; i++) {
		const char *rel = campaign_plan_relative(x->src, i);
		char *to = NULL, *dir = NULL, *q = NULL, *cmd = NULL;

		if (!rel || asprintf(&to, "%s/plan/%s", x->h.tmpdir, rel) < 0 || !(dir = strdup(to))) {
			log_err(rel ? "out of memory" : "plan file %s has no place beside the plan", x->src->sources[i].path);
			free(to);
			return rel ? EXIT_INTERNAL : EXIT_USAGE;
		}
		*strrchr(dir, '/') = '\0';
		if ((q = sh_quote_always(dir)) && asprintf(&cmd, "mkdir -p %s", q) < 0)
			cmd = NULL;
		ret = cmd ? remote_run_ok(&x->h, cmd, RX_QUERY_TIMEOUT, NULL) : EXIT_INTERNAL;
		if (!ret)
			ret = remote_put(&x->h, x->src->sources[i].real, to);
		if (!ret && i == 0) {
			free(x->plan);
			x->plan = to;
			to = NULL;
		}
		free(to);
		free(dir);
		free(q);
		free(cmd);
	}
	return ret;
}

/* The host's private directory, clearpath and the plan there: made again after a boot that emptied /tmp. */
static int rx_install(struct rx *x)
{
	char *q, *cmd;
	int status = 1, ret;

	if (x->dry_run)
		return rx_install_dry(x);
	if (x->h.bin && !x->recheck)
		return 0;
	x->recheck = false;
	if (x->h.bin && (q = sh_quote_always(x->h.bin))) {
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
	if (!ret)
		ret = rx_put_plan(x);
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
 * the simulated boot's files when it has them, else /proc and uname.  With
 * @why, a host that cannot be reached is said there only (a boot being waited for).
 */
static int rx_facts_run(struct rx *x, struct campaign_facts *f, char *why, size_t len)
{
	char *out = NULL, *cmd = rx_cmd(x, "%s",
		/* as util/boot: a simulated boot's file that is there is read only when regular (a FIFO would hang) */
		"r() { f=\"${CLEARPATH_FAKE_BOOT:-}/$1\"; if [ -n \"${CLEARPATH_FAKE_BOOT:-}\" ] && "
		"{ [ -e \"$f\" ] || [ -L \"$f\" ]; }; then if [ -f \"$f\" ]; then head -n1 \"$f\"; fi; else $2; fi; }; "
		"printf '%s\\n' \"$(r boot_id 'cat /proc/sys/kernel/random/boot_id')\" \"$(r release 'uname -r')\" "
		"\"$(r cmdline 'cat /proc/cmdline')\"");
	const char *p;
	int status = 1, ret = !cmd ? EXIT_INTERNAL :
			      why ? remote_try(&x->h, cmd, RX_QUERY_TIMEOUT, &out, &status, why, len) :
			      remote_run_ok(&x->h, cmd, RX_QUERY_TIMEOUT, &out);

	free(cmd);
	if (!ret && why && status) {
		snprintf(why, len, "reading its boot id failed with status %d", status);
		ret = EXIT_RESOURCE;
	}
	if (ret) {
		free(out);
		return ret;
	}
	p = rx_line(out, f->boot_id, sizeof(f->boot_id));
	p = rx_line(p, f->release, sizeof(f->release));
	rx_line(p, f->cmdline, sizeof(f->cmdline));
	free(out);
	/* printed, recorded and compared: a host's release with escape sequences is taken as the text it shows */
	text_one_line(f->boot_id);
	text_one_line(f->release);
	text_one_line(f->cmdline);
	if (f->boot_id[0] && f->release[0])
		return 0;
	if (why)
		snprintf(why, len, "cannot read its boot id and kernel release");
	else
		log_err("%s: cannot read its boot id and kernel release", x->h.dest);
	return EXIT_RESOURCE;
}

static int rx_facts(struct campaign_executor *ex, struct campaign_facts *f)
{
	return rx_facts_run(ex->priv, f, NULL, 0);
}

/* "/proc/sys/vm/swappiness" for "vm.swappiness", quoted; NULL when out of memory. */
static char *rx_sysctl_path(const char *key)
{
	char path[4096];

	plan_sysctl_path(key, path, sizeof(path));
	return sh_quote_always(path);
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
	char *path, *v, *cmd = NULL, now[256];
	int status = 1, ret;

	/* an equal value is not written again: no root needed for what is already so */
	if (!x->dry_run && !rx_sysctl_get(ex, key, now, sizeof(now)) && !strcmp(now, value))
		return 0;
	printf("%s: + sysctl -w %s=%s\n", x->h.dest, key, value);
	if (x->dry_run)
		return 0;
	path = rx_sysctl_path(key);
	v = sh_quote_always(value);
	if (path && v)
		cmd = rx_cmd(x, "printf '%%s\\n' %s > %s", v, path);
	ret = cmd ? remote_run(&x->h, cmd, RX_QUERY_TIMEOUT, NULL, &status) : EXIT_INTERNAL;
	free(path);
	free(v);
	free(cmd);
	return ret || status ? -EIO : 0;
}

/* Each line of @out, prefixed with the host: the session's own summary. */
static void rx_print_prefixed(const struct rx *x, const char *out)
{
	char line[1024];

	while (*out) {
		out = rx_line(out, line, sizeof(line));
		/* the host's words, not its escape sequences, reach this terminal */
		printf("%s: %s\n", x->h.dest, text_one_line(line));
	}
}

/*
 * Bring the session a host holds in @held (its whole form, RX_EXPORT, as
 * `export --whole` wrote it there) into @c's store: the file comes back over
 * ssh, campaign_ssh_accept() takes from it only the one session boot @b was
 * to give, and that is imported in one transaction.  All or nothing; a
 * session brought back before (a restarted controller) is recognised by its
 * UUID and added nothing twice.  *@store_failed: the host's file was fine,
 * the controller's store was not (busy, gone): the host keeps it for a retry.
 */
static int rx_bring_back(struct rx *x, const struct campaign *c, const struct store_campaign_boot *b,
			 const char *held, bool *store_failed)
{
	char dir[] = "/tmp/clearpath-rx.XXXXXX", local[sizeof(dir) + 16], accepted[sizeof(dir) + 32];
	char *remote_file = NULL;
	struct store *dst;
	FILE *in = NULL;
	int ret = EXIT_INTERNAL;

	*store_failed = false;
	if (!mkdtemp(dir)) {
		log_err("cannot make a temporary directory: %s", strerror(errno));
		return EXIT_INTERNAL;
	}
	snprintf(local, sizeof(local), "%s/" RX_EXPORT, dir);
	if (asprintf(&remote_file, "%s/" RX_EXPORT, held) >= 0)
		ret = remote_get(&x->h, remote_file, local);
	else
		log_err("out of memory");
	if (!ret)
		ret = campaign_ssh_accept(c, b, x->sut, local, dir, accepted, sizeof(accepted));
	if (!ret && !(in = fopen(accepted, "r"))) {
		log_err("cannot read %s: %s", accepted, strerror(errno));
		ret = EXIT_INTERNAL;
	}
	if (!ret) {
		ret = campaign_store_open(c->store_url, &dst);
		if (!ret) {
			ret = store_exit_code(store_import(dst, in, accepted, NULL));
			store_close(dst);
		}
		*store_failed = ret == EXIT_RESOURCE;
	}
	if (!ret)
		printf("%s: session brought back\n", x->h.dest);
	if (in)
		fclose(in);
	free(remote_file);
	unlink(accepted);
	unlink(local);
	snprintf(local, sizeof(local), "%s/check.db", dir);
	unlink(local);
	rmdir(dir);
	return ret;
}

/* The held copy's name for boot @b of @c: campaign, place and boot id, in letters a shell takes as they are. */
static void rx_held_name(const struct campaign *c, const struct store_campaign_boot *b, char *buf, size_t len)
{
	snprintf(buf, len, "c%lld-b%d-%.40s", (long long)c->row.id, b->pos + 1, b->boot_id);
	for (char *p = buf; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-')
			*p = '_';
}

/*
 * The directory on the host that keeps boot @b's session until the
 * controller has stored it, into *@dir (absolute; made 0700): per user,
 * outside the private directory rx_close() removes and the /tmp a boot
 * empties, so a store that is busy or gone loses nothing the host measured
 * (*@kept).  A host with no state directory to write (a read-only home)
 * keeps it in the private directory instead, for as long as this controller runs.
 */
static int rx_held_dir(struct rx *x, const struct campaign *c, const struct store_campaign_boot *b, char **dir,
		       bool *kept)
{
	char name[128], *cmd = NULL, *out = NULL, *tmp = sh_quote_always(x->h.tmpdir);
	int ret;

	rx_held_name(c, b, name, sizeof(name));
	/* a read-only home (a minimal board) keeps it in the private directory: until the controller is done */
	if (tmp)
		cmd = rx_cmd(x, "k=K d=\"${XDG_STATE_HOME:-$HOME/.local/state}/" RX_HELD "/%s\"; "
			     "{ mkdir -p \"$d\" && chmod 0700 \"$d\"; } 2>/dev/null || { k=T d=%s/%s; mkdir -p \"$d\"; } && "
			     "cd \"$d\" && printf '%%s %%s\\n' \"$k\" \"$(pwd -P)\"", name, tmp, name);
	ret = cmd ? remote_run_ok(&x->h, cmd, RX_QUERY_TIMEOUT, &out) : EXIT_INTERNAL;
	free(cmd);
	free(tmp);
	if (!ret && (!strchr("KT", out[0]) || out[1] != ' ' || out[2] != '/')) {
		log_err("%s: cannot make a directory to keep the session in", x->h.dest);
		ret = EXIT_RESOURCE;
	}
	if (!ret) {
		out[strcspn(out, "\n")] = '\0';
		*kept = out[0] == 'K';
		ret = (*dir = strdup(out + 2)) ? 0 : EXIT_INTERNAL;
	}
	free(out);
	return ret;
}

/* Whether the host holds the whole form of a session in @held already (one a store refused before). */
static bool rx_held_kept(struct rx *x, const char *held)
{
	char *q = sh_quote_always(held), *cmd = q ? rx_cmd(x, "test -s %s/" RX_EXPORT, q) : NULL;
	int status = 1, ret = cmd ? remote_run(&x->h, cmd, RX_QUERY_TIMEOUT, NULL, &status) : EXIT_INTERNAL;

	free(q);
	free(cmd);
	return !ret && !status;
}

/* Remove the held copy @held: the controller's store has it now. */
static void rx_held_drop(struct rx *x, const char *held)
{
	char *q = sh_quote_always(held), *cmd = q ? rx_cmd(x, "rm -rf -- %s", q) : NULL;

	if (!cmd || remote_run_ok(&x->h, cmd, RX_QUERY_TIMEOUT, NULL))
		log_warn("%s: the session stored is still kept in %s there; remove it by hand", x->h.dest, held);
	free(q);
	free(cmd);
}

/*
 * The session's command line for the host's shell: a fresh store in @held,
 * the same command as a local session, then its whole form beside it
 * (written under another name and renamed: a file there is always whole).
 */
static char *rx_session_cmd(struct rx *x, long long id, const char *swprofile, const char *held)
{
	const char *argv[CAMPAIGN_SESSION_ARGC];
	char *line = NULL, *store = NULL, *qstore = NULL, *qbin = sh_quote_always(x->h.bin), *qheld = sh_quote_always(held);
	char *cmd = NULL;

	if (qheld && asprintf(&store, "%s/" RX_STORE, held) >= 0) {
		/* a host keeps its own machine class: the one it detects, whatever this machine is called */
		campaign_session_argv(x->h.bin, swprofile, NULL, store, x->plan, argv);
		line = sh_join(argv);
		qstore = sh_quote_always(store);
	}
	/* a fresh store per session: what comes back is this session, whole; a campaign's session keeps no resume state */
	if (line && qstore && qbin &&
	    asprintf(&cmd, "rm -f %s %s-wal %s-shm %s/" RX_EXPORT " && " CAMPAIGN_SESSION_ENV "=%lld %s && "
		     "%s export --whole --store %s %s/" RX_EXPORT ".part && mv %s/" RX_EXPORT ".part %s/" RX_EXPORT,
		     qstore, qstore, qstore, qheld, id, line, qbin, qstore, qheld, qheld, qheld) < 0)
		cmd = NULL;
	free(line);
	free(store);
	free(qstore);
	free(qbin);
	free(qheld);
	if (!cmd)
		log_err("out of memory");
	return cmd;
}

/* A dry run's session: what would run on the host, and where its session is kept until it is stored. */
static void rx_session_dry(struct rx *x, const struct campaign *c, const struct store_campaign_boot *b)
{
	char name[128], *line;

	snprintf(name, sizeof(name), "c%lld-b%d-BOOT_ID", (long long)c->row.id, b->pos + 1);
	line = rx_session_cmd(x, (long long)c->row.id, b->swprofile, RX_DRY_HELD);
	printf("%s: " RX_DRY_HELD " is ${XDG_STATE_HOME:-~/.local/state}/" RX_HELD "/%s (0700): it keeps the session "
	       "until it is stored here\n", x->h.dest, name);
	printf("%s: + %s\n", x->h.dest, line ? line : "");
	printf("%s: copy " RX_DRY_HELD "/" RX_EXPORT " back, take its one session of this boot and import it into %s\n",
	       x->h.dest, c->store_url);
	free(line);
}

static int rx_session(struct campaign_executor *ex, const struct campaign *c, const struct store_campaign_boot *b,
		      bool *resumable)
{
	struct rx *x = ex->priv;
	char *held = NULL, *cmd = NULL, *out = NULL;
	bool store_failed = false, kept = false;
	int status = 0, ret = rx_install(x);

	if (ret)
		return ret;
	printf("%s: session of %s\n", x->h.dest, b->swprofile);
	if (x->dry_run) {
		rx_session_dry(x, c, b);
		return 0;
	}
	if ((ret = rx_held_dir(x, c, b, &held, &kept)))
		return ret;
	if (rx_held_kept(x, held)) {
		printf("%s: the host kept the session of boot %d (%s) in %s: bringing it back\n", x->h.dest, b->pos + 1,
		       b->swprofile, held);
	} else {
		char *line = rx_session_cmd(x, (long long)c->row.id, b->swprofile, held);

		cmd = line ? rx_cmd(x, "%s", line) : NULL;
		free(line);
		fflush(stdout);
		ret = cmd ? remote_run(&x->h, cmd, 0, &out, &status) : EXIT_INTERNAL;
		if (!ret && status) {
			log_err("%s: the session of %s failed with exit %d", x->h.dest, b->swprofile, status);
			ret = status >= EXIT_INTERNAL && status <= EXIT_REGRESSION ? status : EXIT_RESOURCE;
		}
		if (!ret)
			rx_print_prefixed(x, out);
	}
	if (!ret)
		ret = rx_bring_back(x, c, b, held, &store_failed);
	/* stored, or refused: kept only for a store that could not take it yet */
	if (!store_failed)
		rx_held_drop(x, held);
	if (ret && store_failed && kept)
		log_hint("%s keeps the session in %s until it is stored: 'clearpath campaign continue' brings it back"
			 " once the store can be written", x->h.dest, held);
	else if (ret && store_failed)
		log_hint("%s could not keep the session where it outlasts this controller (no state directory there):"
			 " 'clearpath campaign continue' measures this boot again", x->h.dest);
	*resumable = ret && store_failed;
	free(out);
	free(cmd);
	free(held);
	return ret;
}

/* Run boot command @i of @cmds on the host; the last one of a real boot takes it down, connection and all. */
static int rx_boot_cmd(struct rx *x, const struct campaign_boot_cmds *cmds, size_t i)
{
	bool last = i + 1 == cmds->ncmd && cmds->method->reboots;
	char *cmd = rx_cmd(x, "(%s) 2>&1", cmds->cmd[i]), *out = NULL, why[512];
	int status = 0, ret;

	printf("%s: + %s\n", x->h.dest, cmds->cmd[i]);
	fflush(stdout);
	if (x->dry_run) {
		free(cmd);
		return 0;
	}
	/* the connection may drop before ssh hears back from a command that reboots the host */
	ret = !cmd ? EXIT_INTERNAL : last ? remote_try(&x->h, cmd, RX_QUERY_TIMEOUT, &out, &status, why, sizeof(why)) :
	      remote_run(&x->h, cmd, RX_QUERY_TIMEOUT, &out, &status);
	if (out)
		rx_print_prefixed(x, out);
	free(out);
	free(cmd);
	if (last && ret == EXIT_RESOURCE)
		return 0;
	if (!ret && status) {
		log_err("%s: '%s' failed with exit %d", x->h.dest, cmds->cmd[i], status);
		ret = EXIT_RESOURCE;
	}
	return ret;
}

static int rx_boot(struct campaign_executor *ex, const struct plan *p, const struct plan_swprofile *sw,
		   const struct campaign_facts *before)
{
	struct rx *x = ex->priv;
	struct campaign_boot_cmds cmds;
	struct campaign_boot_ctx ctx = { p, sw, before, NULL, NULL };
	int ret = rx_install(x);

	if (ret)
		return ret;
	ctx.clearpath = x->h.bin;
	if ((ret = campaign_boot_commands(&ctx, &cmds)))
		return ret;
	for (size_t i = 0; !ret && i < cmds.ncmd; i++)
		ret = rx_boot_cmd(x, &cmds, i);
	campaign_boot_cmds_free(&cmds);
	return ret;
}

/* Seconds on the monotonic clock. */
static time_t rx_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

/*
 * Ask the host for its facts until it answers, with a boot id other than
 * @left (unless NULL), into *@f, or until x->boot_timeout seconds passed or
 * a stop signal came.  *@back: it did answer so.  Otherwise the last try's
 * exit code (0: it answered, still with @left), why it failed in @why.
 */
static int rx_poll(struct rx *x, const char *left, struct campaign_facts *f, bool *back, char *why, size_t len)
{
	time_t deadline = rx_now() + x->boot_timeout;
	int ret;

	*back = false;
	for (;;) {
		/* while it reboots the host refuses or times out: that is the wait, not an error */
		ret = rx_facts_run(x, f, why, len);
		if (!ret && (!left || strcmp(f->boot_id, left))) {
			*back = true;
			return 0;
		}
		if (harness_stop_signal() || rx_now() >= deadline)
			return ret;
		sleep(RX_POLL_SECONDS);
	}
}

static int rx_wait(struct campaign_executor *ex, const struct plan_swprofile *sw, const struct campaign_facts *before,
		   enum campaign_wait *how)
{
	struct rx *x = ex->priv;
	struct campaign_facts f;
	char why[512] = "";
	bool back;
	int ret;

	*how = CAMPAIGN_BACK;
	if (x->dry_run) {
		if (campaign_method_of(sw)->reboots)
			printf("%s: wait until it answers with a new boot id, at most %u seconds; a %s emptied by the "
			       "boot gets clearpath and the plan again\n", x->h.dest, x->boot_timeout, RX_DRY_DIR);
		return 0;
	}
	ret = rx_poll(x, before->boot_id, &f, &back, why, sizeof(why));
	if (back) {
		x->recheck = campaign_method_of(sw)->reboots;
		return 0;
	}
	if (harness_stop_signal())
		return EXIT_RESOURCE;
	/* it answers, with the boot it left: the boot never happened, and is taken again */
	if (!ret) {
		*how = CAMPAIGN_NOT_BOOTED;
		return 0;
	}
	/* what ssh last said (refused, timed out, a changed host key) is what a lab admin acts on */
	log_err("%s: did not come back from the boot within %u seconds (%s%s%s)", x->h.dest, x->boot_timeout,
		ret ? "unreachable" : "still the boot it left", ret && why[0] ? ": " : "", ret ? why : "");
	return EXIT_RESOURCE;
}

/*
 * A controller that stopped while the host rebooted left its boot booting:
 * this one waits for the host to answer again (it may still be coming
 * back), as long as a boot may take, before anything is asked of it.
 */
static int rx_back(struct rx *x, const struct campaign *c, const char *target)
{
	size_t total;
	const struct store_campaign_boot *b = campaign_next_boot(c, target, &total);
	struct campaign_facts f;
	char why[512] = "";
	bool back;

	if (!b || strcmp(b->status, STORE_BOOT_BOOTING))
		return 0;
	printf("%s: boot %d of %zu (%s) was started: waiting for it to come back, at most %u seconds\n", x->h.dest,
	       b->pos + 1, total, b->swprofile, x->boot_timeout);
	fflush(stdout);
	rx_poll(x, NULL, &f, &back, why, sizeof(why));
	if (back || harness_stop_signal())
		return back ? 0 : EXIT_RESOURCE;
	log_err("%s: did not come back from boot %d within %u seconds (%s)", x->h.dest, b->pos + 1, x->boot_timeout,
		why);
	log_hint("'clearpath campaign continue' checks the boot once %s answers again", x->h.dest);
	return EXIT_RESOURCE;
}

static const struct campaign_executor_ops rx_ops = {
	.facts = rx_facts,
	.sysctl_get = rx_sysctl_get,
	.sysctl_set = rx_sysctl_set,
	.boot = rx_boot,
	.wait = rx_wait,
	.session = rx_session,
};

/*
 * The host's own $CLEARPATH_FAKE_BOOT: a directory per host under the
 * controller's, so hosts that share a file system (tests: several sshds on
 * one machine) simulate their boots apart.  Quoted for the host's shell,
 * malloc'd; NULL when not faking.
 */
static char *rx_fake_dir(const char *dest)
{
	const char *env = getenv(BOOT_FAKE_ENV);
	char *dir, *q;

	if (!env || !*env || asprintf(&dir, "%s/%s", env, dest) < 0)
		return NULL;
	for (char *c = dir + strlen(env) + 1; *c; c++)
		if (*c == '/' || *c == ' ')
			*c = '_';
	q = sh_quote_always(dir);
	free(dir);
	return q;
}

/* ssh takes every target but this machine's name: [user@]host[:port], checked when parsed. */
static bool rx_claims(const char *target)
{
	return strcmp(target, CAMPAIGN_LOCAL_TARGET) != 0;
}

/*
 * Whether the plan fits the host and grub boots will take there, from the
 * host's own facts, read over ssh (nothing changes there).  A host that
 * cannot be reached now is checked once a later 'continue' reaches it.
 */
static int rx_check(const struct plan *p, const json_t *spec, const char *target, bool dry_run)
{
	struct remote_host h;
	bool reached;
	int ret = remote_host_parse(target, &h);

	if (ret)
		return ret;
	h.ssh_config = json_string_value(json_object_get(spec, "ssh_config"));
	/* the host reads the plan from a copy: its includes must have their place in it */
	for (size_t i = 0; i < p->nsources; i++)
		if (!campaign_plan_relative(p, i)) {
			log_err("plan file %s is %s: a remote campaign copies the plan and what it includes into a"
				" private directory on each host, where it would not be found", p->sources[i].path,
				p->sources[i].absolute ? "included by an absolute path" : "outside the plan's directory");
			log_hint("include it by a path relative to the including file, beside or below %s", p->file);
			remote_host_free(&h);
			return EXIT_USAGE;
		}
	ret = campaign_ssh_check(&h, p, dry_run, &reached, NULL, 0);
	if (!reached && ret == EXIT_RESOURCE) {
		log_warn("%s: whether the plan fits it is checked when the campaign reaches it", h.dest);
		ret = 0;
	}
	remote_host_free(&h);
	return ret;
}

static void rx_close(struct campaign_executor *ex)
{
	struct rx *x = ex->priv;

	if (!x)
		return;
	if (x->dry_run && x->installed)
		printf("%s: + rm -rf -- %s\n", x->h.dest, RX_DRY_DIR);
	if (!x->dry_run)
		remote_rmtemp(&x->h);
	remote_host_free(&x->h);
	free(x->plan);
	free(x->fake);
	free(x);
	ex->priv = NULL;
}

static int rx_open(struct campaign_executor *ex, const struct campaign *c, const char *target)
{
	struct rx *x = calloc(1, sizeof(*x));
	json_int_t timeout = json_integer_value(json_object_get(c->spec, "boot_timeout"));
	int ret = x ? remote_host_parse(target, &x->h) : EXIT_INTERNAL;

	if (!x)
		log_err("out of memory");
	if (ret) {
		free(x);
		return ret;
	}
	x->h.ssh_config = json_string_value(json_object_get(c->spec, "ssh_config"));
	x->boot_timeout = timeout > 0 ? (unsigned)timeout : CAMPAIGN_BOOT_TIMEOUT_DEFAULT;
	x->fake = rx_fake_dir(target);
	x->src = c->plan;
	x->dry_run = ex->dry_run;
	ex->ops = &rx_ops;
	ex->priv = x;
	if (x->dry_run)
		return 0;
	/*
	 * A host unreachable from the start has not failed a boot: its boots
	 * stay pending and 'campaign continue' tries it again.  Whether the plan
	 * fits the host is known once it is reached: checked before each drive.
	 */
	ret = rx_back(x, c, target);
	if (!ret)
		ret = rx_install(x);
	if (!ret)
		ret = campaign_ssh_check(&x->h, c->plan, false, NULL, x->sut, sizeof(x->sut));
	if (ret)
		rx_close(ex);
	return ret;
}

/* A host is its name and port, whoever logs in: root@box1 and box1 are one machine. */
static int rx_machine(const json_t *spec, const char *target, char *buf, size_t len)
{
	struct remote_host h;
	const char *at;
	int ret = remote_host_parse(target, &h);

	(void)spec;
	if (ret)
		return ret;
	at = strrchr(h.login, '@');
	if (snprintf(buf, len, "ssh:%s:%d", at ? at + 1 : h.login, h.port ? h.port : 22) >= (int)len) {
		log_err("%s: the host's name is too long to name it in a campaign", target);
		ret = EXIT_USAGE;
	}
	for (char *c = buf; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	remote_host_free(&h);
	return ret;
}

const struct campaign_executor_kind campaign_executor_ssh = {
	.name = "remote",
	.summary = "hosts over ssh: clearpath is copied there, each session comes back whole",
	.process_per_target = true,
	.claims = rx_claims,
	.check = rx_check,
	.open = rx_open,
	.close = rx_close,
	.machine = rx_machine,
};
