/* ssh: the OpenSSH transport: ssh with safe, bounded options (files copied through it, no SFTP or scp needed), and what its failures mean. */
#define _GNU_SOURCE
#include "remote/remote.h"
#include "harness/exec.h"
#include "util/log.h"
#include "util/text.h"
#include "util/shquote.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * A dead network or a host that stopped answering must end a command, not
 * hang the campaign: connecting is bounded, and an established connection
 * that stops answering is dropped after about half a minute.
 */
#define SSH_OPTIONS "-o BatchMode=yes -o ConnectTimeout=15 -o ServerAliveInterval=10 " \
		    "-o ServerAliveCountMax=3 -o LogLevel=ERROR"
/* ssh's own exit status when it, not the remote command, failed. */
#define SSH_FAILED 255
/* Copies and short queries: generous, but a hung host ends them. */
#define SSH_COPY_TIMEOUT 600
#define SSH_QUERY_TIMEOUT 120
/*
 * The shared connection's master lingers this many seconds after its last
 * command, so a controller that was killed leaves nothing running for long.
 */
#define SSH_PERSIST 60
#define SSH_SOCKET "master"
#define SSH_CLOSE_TIMEOUT 30

/*
 * A private directory for the shared connection's socket (mode 0700: whoever
 * can reach the socket runs commands on the host as this user).  Without one
 * every command connects anew, which works too.
 */
static void ssh_control_dir(struct remote_host *h)
{
	char dir[] = "/tmp/clearpath-ssh.XXXXXX";

	if (mkdtemp(dir))
		h->control = strdup(dir);
}

static char *ssh_prefix(const struct remote_host *h, bool with_stdin);

/* Stop the shared connection's master, if it runs, and remove the directory. */
static void ssh_control_close(struct remote_host *h)
{
	struct harness_exec_result r;
	char sock[PATH_MAX], *prefix, *login, *cmd = NULL;

	if (!h->control)
		return;
	snprintf(sock, sizeof(sock), "%s/" SSH_SOCKET, h->control);
	if (!access(sock, F_OK) && (prefix = ssh_prefix(h, false))) {
		login = sh_quote_always(h->login);
		if (login && asprintf(&cmd, "%s -O exit -- %s", prefix, login) < 0)
			cmd = NULL;
		if (cmd && !harness_exec(cmd, SSH_CLOSE_TIMEOUT, &r))
			harness_exec_free(&r);
		free(cmd);
		free(login);
		free(prefix);
		unlink(sock);
	}
	rmdir(h->control);
	free(h->control);
	h->control = NULL;
}

int remote_host_parse(const char *dest, struct remote_host *h)
{
	const char *at = strrchr(dest, '@'), *host = at ? at + 1 : dest, *port = NULL;
	size_t userlen = at ? (size_t)(at - dest) + 1 : 0, hostlen;
	bool v6 = host[0] == '[';

	memset(h, 0, sizeof(*h));
	if (v6) {
		const char *end = strchr(host, ']');

		if (!end || (end[1] && end[1] != ':'))
			goto bad;
		host++;
		hostlen = (size_t)(end - host);
		port = end[1] ? end + 2 : NULL;
	} else {
		port = strchr(host, ':');
		hostlen = port ? (size_t)(port - host) : strlen(host);
		port = port ? port + 1 : NULL;
	}
	/* a leading '-' would reach ssh as an option; blanks and control characters ssh refuses */
	if (!hostlen || dest[0] == '-' || host[0] == '-' || (at && at == dest))
		goto bad;
	for (const char *c = dest; *c; c++)
		if ((unsigned char)*c <= ' ' || *c == 0x7f)
			goto bad;
	if (port) {
		char *end;
		long p = strtol(port, &end, 10);

		if (!*port || *end || p < 1 || p > 65535)
			goto bad;
		h->port = (int)p;
	}
	h->dest = strdup(dest);
	h->login = malloc(userlen + hostlen + 1);
	if (!h->dest || !h->login) {
		remote_host_free(h);
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	sprintf(h->login, "%.*s%.*s", (int)userlen, dest, (int)hostlen, host);
	ssh_control_dir(h);
	return 0;
bad:
	log_err("bad host '%s': expected [user@]host[:port] (an IPv6 address in brackets: [::1]:22)", dest);
	return EXIT_USAGE;
}

void remote_host_free(struct remote_host *h)
{
	ssh_control_close(h);
	free(h->dest);
	free(h->login);
	free(h->tmpdir);
	free(h->arch);
	free(h->bin);
	free(h->version);
	memset(h, 0, sizeof(*h));
}

/*
 * The local command line for ssh, with the options and the config file
 * (@with_stdin: the command reads this process's stdin, else /dev/null);
 * NULL when out of memory.  Every word from the user is quoted: this goes
 * through /bin/sh.
 */
static char *ssh_prefix(const struct remote_host *h, bool with_stdin)
{
	char *cfg = h->ssh_config ? sh_quote_always(h->ssh_config) : NULL, *ctl = NULL, *cmd;
	char port[32] = "";
	int n;

	if (h->ssh_config && !cfg)
		return NULL;
	if (h->control && asprintf(&ctl, " -o ControlMaster=auto -o ControlPersist=%d -o ControlPath=%s/"
				   SSH_SOCKET, SSH_PERSIST, h->control) < 0) {
		free(cfg);
		return NULL;
	}
	if (h->port)
		snprintf(port, sizeof(port), " -p %d", h->port);
	n = asprintf(&cmd, "%s %s%s%s%s%s", with_stdin ? "ssh" : "ssh -n", SSH_OPTIONS, ctl ? ctl : "",
		     cfg ? " -F " : "", cfg ? cfg : "", port);
	free(cfg);
	free(ctl);
	return n < 0 ? NULL : cmd;
}

/*
 * "ssh OPTIONS -- LOGIN @command", both words quoted for the local shell,
 * then @redirect (a local "< file" or "> file", or ""); NULL after log_err()
 * when out of memory.
 */
static char *ssh_cmdline(const struct remote_host *h, const char *command, const char *redirect)
{
	char *prefix = ssh_prefix(h, strchr(redirect, '<') != NULL), *qa = sh_quote_always(h->login), *qb = sh_quote_always(command);
	char *cmd = NULL;

	if (prefix && qa && qb && asprintf(&cmd, "%s -- %s %s%s", prefix, qa, qb, redirect) < 0)
		cmd = NULL;
	free(prefix);
	free(qa);
	free(qb);
	if (!cmd)
		log_err("out of memory");
	return cmd;
}

/* Why ssh could not reach @h, from its message @err: log_err() with it and a hint to fix it. */
static void ssh_explain(const struct remote_host *h, const char *err)
{
	log_err("cannot reach %s over ssh: %s", h->dest, err);
	if (strstr(err, "Connection refused"))
		log_hint("nothing listens for ssh there: is sshd running on that host and port?");
	else if (strstr(err, "IDENTIFICATION HAS CHANGED") || strstr(err, "host key for"))
		log_hint("the host's key differs from the one in your known_hosts: check why before "
			 "removing the old key (ssh-keygen -R HOST)");
	else if (strstr(err, "Host key verification failed") || strstr(err, "host key is known"))
		log_hint("the host's key is not in your known_hosts: connect once with 'ssh %s' and check "
			 "its fingerprint (clearpath never turns host key checking off)", h->dest);
	else if (strstr(err, "Permission denied"))
		log_hint("clearpath logs in without prompting (BatchMode): load your key into ssh-agent or "
			 "name it with IdentityFile in your ssh config (or --ssh-config FILE)");
	else if (strstr(err, "Could not resolve"))
		log_hint("check the host name, or give an address");
	else if (strstr(err, "timed out") || strstr(err, "Timeout"))
		log_hint("the host did not answer in time: is it up, and reachable from here?");
}

/*
 * Run the local command line @cmd (ssh against @h).  Returns 0 with
 * *r filled, or EXIT_RESOURCE when ssh could not reach the host (its
 * message explained through log_err(), or with @why set only copied there
 * and nothing logged), or another exit code after log_err().
 */
static int ssh_exec(const struct remote_host *h, const char *cmd, unsigned timeout_s,
		    struct harness_exec_result *r, char *why, size_t len)
{
	int ret = harness_exec(cmd, timeout_s, r);

	if (ret)
		return ret;
	/* what the host wrote to stderr reaches this terminal: no escape sequence of its own */
	text_one_line(r->err_tail);
	/* nor the blanks its closing \r\n became, at the end of the line it is quoted in */
	for (size_t n = strlen(r->err_tail); n && r->err_tail[n - 1] == ' ';)
		r->err_tail[--n] = '\0';
	if (r->timed_out) {
		if (why)
			snprintf(why, len, "no answer within %u seconds", timeout_s);
		else
			log_err("%s: no answer within %u seconds", h->dest, timeout_s);
		harness_exec_free(r);
		return EXIT_RESOURCE;
	}
	if (r->status == SSH_FAILED) {
		if (why)
			snprintf(why, len, "%s", r->err_tail);
		else
			ssh_explain(h, r->err_tail);
		harness_exec_free(r);
		return EXIT_RESOURCE;
	}
	return 0;
}

/* Run @command on @h through ssh: ssh_exec()'s contract. */
static int ssh_run(const struct remote_host *h, const char *command, unsigned timeout_s,
		   struct harness_exec_result *r, char *why, size_t len)
{
	char *cmd = ssh_cmdline(h, command, "");
	int ret;

	if (!cmd)
		return EXIT_INTERNAL;
	ret = ssh_exec(h, cmd, timeout_s, r, why, len);
	free(cmd);
	return ret;
}

/* Hand r->out over to *out ("" when empty); returns 0 or EXIT_INTERNAL after log_err(). */
static int ssh_take_out(struct harness_exec_result *r, char **out)
{
	if (!out)
		return 0;
	*out = r->out ? r->out : strdup("");
	r->out = NULL;
	if (*out)
		return 0;
	log_err("out of memory");
	return EXIT_INTERNAL;
}

/* remote_run() and remote_try(): @why NULL logs why the host could not be reached. */
static int ssh_run_status(const struct remote_host *h, const char *command, unsigned timeout_s, char **out,
			  int *status, char *why, size_t len)
{
	struct harness_exec_result r;
	int ret = ssh_run(h, command, timeout_s, &r, why, len);

	if (ret)
		return ret;
	*status = r.status;
	ret = ssh_take_out(&r, out);
	harness_exec_free(&r);
	return ret;
}

int remote_run(const struct remote_host *h, const char *command, unsigned timeout_s, char **out, int *status)
{
	return ssh_run_status(h, command, timeout_s, out, status, NULL, 0);
}

int remote_try(const struct remote_host *h, const char *command, unsigned timeout_s, char **out, int *status,
	       char *why, size_t len)
{
	return ssh_run_status(h, command, timeout_s, out, status, why, len);
}

int remote_run_ok(const struct remote_host *h, const char *command, unsigned timeout_s, char **out)
{
	struct harness_exec_result r;
	int ret = ssh_run(h, command, timeout_s, &r, NULL, 0);

	if (ret)
		return ret;
	if (r.status) {
		log_err("%s: '%s' failed with status %d: %s", h->dest, command, r.status, r.err_tail);
		ret = EXIT_RESOURCE;
	} else {
		ret = ssh_take_out(&r, out);
	}
	harness_exec_free(&r);
	return ret;
}

/* The first line of @s, in place: a command's one-word answer. */
static char *ssh_line(char *s)
{
	s[strcspn(s, "\r\n")] = '\0';
	return s;
}

int remote_mkdtemp(struct remote_host *h)
{
	char *out;
	int ret = remote_run_ok(h, "mktemp -d \"${TMPDIR:-/tmp}/clearpath.XXXXXXXXXX\"", SSH_QUERY_TIMEOUT, &out);

	if (ret)
		return ret;
	if (out[0] != '/') {
		log_err("%s: mktemp -d gave no directory: '%s'", h->dest, ssh_line(out));
		free(out);
		return EXIT_RESOURCE;
	}
	free(h->tmpdir);
	h->tmpdir = ssh_line(out);
	return 0;
}

void remote_rmtemp(struct remote_host *h)
{
	char *q, *cmd = NULL, why[512];
	bool failed;
	int status;

	if (!h->tmpdir)
		return;
	q = sh_quote_always(h->tmpdir);
	if (q && asprintf(&cmd, "rm -rf -- %s", q) < 0)
		cmd = NULL;
	free(q);
	/* a host that went away keeps it: a warning, not a second error */
	failed = !cmd || remote_try(h, cmd, SSH_QUERY_TIMEOUT, NULL, &status, why, sizeof(why)) || status;
	if (failed)
		log_warn("%s: could not remove %s", h->dest, h->tmpdir);
	free(cmd);
	free(h->tmpdir);
	h->tmpdir = NULL;
}

/*
 * Copy a file through ssh itself: @command runs on @h with this side's file
 * on its stdin (@redirect "< FILE") or stdout ("> FILE").  A host without an
 * SFTP subsystem or an scp (a dropbear board, a minimal image) copies as
 * well as any: all it needs is a shell and cat.
 */
static int ssh_copy(const struct remote_host *h, const char *command, char op, const char *local,
		    const char *what_from, const char *what_to)
{
	struct harness_exec_result r;
	char *qlocal = sh_quote_always(local), *redirect = NULL, *cmd = NULL;
	int ret;

	if (qlocal && asprintf(&redirect, " %c %s", op, qlocal) >= 0)
		cmd = ssh_cmdline(h, command, redirect);
	else
		log_err("out of memory");
	free(qlocal);
	free(redirect);
	if (!cmd)
		return EXIT_INTERNAL;
	ret = ssh_exec(h, cmd, SSH_COPY_TIMEOUT, &r, NULL, 0);
	free(cmd);
	if (ret)
		return ret;
	if (r.status) {
		log_err("%s: copying %s to %s failed: %s", h->dest, what_from, what_to,
			r.err_tail[0] ? r.err_tail : "the copy's command failed there");
		ret = EXIT_RESOURCE;
	}
	harness_exec_free(&r);
	return ret;
}

int remote_put(const struct remote_host *h, const char *local, const char *remote_path)
{
	char *q = sh_quote_always(remote_path), *command = NULL;
	int ret = EXIT_INTERNAL;

	/* private, and runnable: the binary is one of the files */
	if (q && asprintf(&command, "umask 077 && cat > %s && chmod u+x %s", q, q) >= 0)
		ret = ssh_copy(h, command, '<', local, local, remote_path);
	else
		log_err("out of memory");
	free(q);
	free(command);
	return ret;
}

int remote_get(const struct remote_host *h, const char *remote_path, const char *local)
{
	char *q = sh_quote_always(remote_path), *command = NULL;
	int ret = EXIT_INTERNAL;

	if (q && asprintf(&command, "cat %s", q) >= 0)
		ret = ssh_copy(h, command, '>', local, remote_path, local);
	else
		log_err("out of memory");
	free(q);
	free(command);
	return ret;
}

int remote_arch(const struct remote_host *h, char **arch)
{
	int ret = remote_run_ok(h, "uname -m", SSH_QUERY_TIMEOUT, arch);

	if (!ret)
		text_one_line(ssh_line(*arch));
	return ret;
}

int remote_ssh_config_check(const char *path)
{
	struct stat sb;

	if (!path)
		return 0;
	/* a missing file is the user's slip, not an unreachable host */
	if (access(path, R_OK)) {
		log_err("cannot read the ssh config %s: %s", path, strerror(errno));
		return EXIT_USAGE;
	}
	if (stat(path, &sb) || !S_ISREG(sb.st_mode)) {
		log_err("the ssh config %s is not a regular file", path);
		log_hint("--ssh-config names a file in ssh_config(5) format, as ssh -F takes");
		return EXIT_USAGE;
	}
	return 0;
}
