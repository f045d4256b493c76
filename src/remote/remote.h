/* remote: the ssh transport below campaign/: run a command on another machine over OpenSSH, copy files, choose the binary. */
#ifndef CLEARPATH_REMOTE_REMOTE_H
#define CLEARPATH_REMOTE_REMOTE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * One host, as the user named it: user@host[:port] (an IPv6 address in
 * brackets: [::1]:2222).  ssh always runs with BatchMode=yes (no
 * prompt can hang a campaign), bounded ConnectTimeout and ServerAlive
 * checks, and the user's own known_hosts: clearpath never turns host key
 * checking off.  The commands to one host share one connection (ssh's
 * ControlMaster, its socket in a private local directory): a campaign
 * runs a dozen commands per boot, and each new connection costs a key
 * exchange.
 */
struct remote_host {
	char *dest;		/* as given, for messages */
	char *login;		/* user@host or host, as ssh takes it (no brackets, no port) */
	int port;		/* 0: ssh's default (or the config's) */
	const char *ssh_config;	/* --ssh-config FILE, or NULL for ~/.ssh/config */
	char *control;		/* a private local directory for ssh's shared connection, or NULL */
	char *tmpdir;		/* the private directory remote_mkdtemp() made there, or NULL */
	char *arch;		/* after remote_install(): the host's `uname -m` */
	char *bin;		/* after remote_install(): clearpath's path on the host */
	char *version;		/* after remote_install(): its --version line there */
};

/*
 * Parse @dest into *h (ssh_config NULL, no tmpdir).  Returns 0, or
 * EXIT_USAGE after log_err() for an empty host, a bad port or a name that
 * ssh would read as an option; free with remote_host_free().
 */
int remote_host_parse(const char *dest, struct remote_host *h);

/*
 * --ssh-config @path (NULL: none) as ssh -F can use it: a readable regular
 * file (ssh reads a device such as /dev/zero for ever, and takes a directory
 * for no configuration).  0, or EXIT_USAGE after saying what is wrong.
 */
int remote_ssh_config_check(const char *path);
/* Close the shared connection, if one is open, and free @h. */
void remote_host_free(struct remote_host *h);

/*
 * Run @command (a shell command line, its words quoted with sh_quote_always()) on @h,
 * with stdin from /dev/null, killed after @timeout_s seconds (0: only the
 * connection's own ServerAlive bound).  *out (when @out is not NULL) gets
 * all of stdout, NUL-terminated ("" when empty; free it), *status the
 * command's exit status.  Returns 0 when the command ran, whatever its
 * status; EXIT_RESOURCE after log_err() and a log_hint() when the host
 * could not be reached (refused, timed out, unknown or changed host key,
 * authentication failed: ssh's own message is quoted), EXIT_INTERNAL when
 * ssh itself could not be started.
 */
int remote_run(const struct remote_host *h, const char *command, unsigned timeout_s, char **out, int *status);

/*
 * remote_run() that logs nothing: a host that cannot be reached is
 * EXIT_RESOURCE with ssh's message in @why (a host rebooting is waited for,
 * not an error).
 */
int remote_try(const struct remote_host *h, const char *command, unsigned timeout_s, char **out, int *status,
	       char *why, size_t len);

/*
 * remote_run() for a command that must succeed: a non-zero status is
 * EXIT_RESOURCE after log_err() quoting the command's stderr.
 */
int remote_run_ok(const struct remote_host *h, const char *command, unsigned timeout_s, char **out);

/*
 * Make a private directory on @h (mktemp -d: mode 0700) into h->tmpdir.
 * Returns 0 or remote_run_ok()'s exit code.
 */
int remote_mkdtemp(struct remote_host *h);

/* Remove h->tmpdir and everything in it, if any; failures are only warned about. */
void remote_rmtemp(struct remote_host *h);

/*
 * Copy the local file @local to @remote_path on @h (remote_put), or
 * @remote_path on @h to the local file @local (remote_get), through ssh
 * itself (cat there: no SFTP subsystem or scp is needed on the host; what
 * is put is private to its owner and may be run).
 * Returns 0, or EXIT_RESOURCE after log_err() (unreachable host, as
 * remote_run(), or a copy that failed: the host's message).
 */
int remote_put(const struct remote_host *h, const char *local, const char *remote_path);
int remote_get(const struct remote_host *h, const char *remote_path, const char *local);

/*
 * The host's machine architecture as `uname -m` spells it ("x86_64",
 * "aarch64") into *arch (free it).  Returns 0 or remote_run_ok()'s code.
 */
int remote_arch(const struct remote_host *h, char **arch);

/*
 * The clearpath binary to copy to a host whose `uname -m` is @arch, into
 * *path (free it): the static build for @arch (clearpath-ARCH, from `make
 * static` or `make static-arm64`) in $CLEARPATH_STATIC_DIR when that is
 * set, else in build/static/ beside this binary or beside it; else this
 * binary itself when it was built for @arch.  Returns 0, or EXIT_RESOURCE
 * after log_err() and a log_hint() saying what to build.
 */
int remote_binary_for(const char *arch, char **path);

/*
 * Make @h ready to run sessions: ask its architecture, make its private
 * directory, copy remote_binary_for() there and run its --version (a local
 * binary whose libraries the host lacks fails here, with what to build).
 * Fills h->arch, h->tmpdir, h->bin and h->version.  Returns 0, or an exit
 * code after log_err(); the private directory, if made, stays in h->tmpdir
 * for remote_rmtemp().
 */
int remote_install(struct remote_host *h);

#endif
