/* executor: campaigns on hosts over SSH: the campaign executor for one host, and the parallel driver. */
#ifndef CLEARPATH_REMOTE_EXECUTOR_H
#define CLEARPATH_REMOTE_EXECUTOR_H

#include <stddef.h>

struct campaign;

/* How long a host may take to come back from a boot before that boot is an error. */
#define REMOTE_BOOT_TIMEOUT_DEFAULT 900

/*
 * Advance every target of remote campaign @c (each a host as the user gave
 * it) in parallel, one process per host with its own store connection:
 * copy clearpath there (remote_install), then campaign_advance() with an
 * executor that runs each step on the host over ssh (@ssh_config: ssh -F,
 * or NULL).  Sessions run on the host into a store of their own there,
 * which is copied back and merged into @c's store whole (all or nothing per
 * session).  With $CLEARPATH_FAKE_BOOT set, each host simulates its boots in
 * $CLEARPATH_FAKE_BOOT/<host> there.  A host that cannot be reached, or
 * does not come back from a boot within @boot_timeout_s seconds, fails its
 * boot; the other hosts go on.  Returns 0 when every host finished, else
 * the exit code of a host that failed (after it logged why); @c is loaded
 * again afterwards.
 */
int remote_campaign_drive(struct campaign *c, const char *ssh_config, unsigned boot_timeout_s);

struct campaign_facts;
struct remote_host;

/*
 * The host's own $CLEARPATH_FAKE_BOOT: a directory per host under the
 * controller's, so hosts that share a file system (tests: several sshds on
 * one machine) simulate their boots apart.  Quoted for the host's shell,
 * malloc'd; NULL when not faking.
 */
char *remote_fake_dir(const char *dest);

/*
 * @h's boot id, release and cmdline as a campaign reads them there (from
 * the simulated boot in @fake, remote_fake_dir()'s, when it has one; else
 * /proc and uname).  Only reads.  0, or an exit code after log_err().
 */
int remote_boot_facts(const struct remote_host *h, const char *fake, struct campaign_facts *f);

/*
 * `campaign start --dry-run --host DEST`: what campaign @c (its plan,
 * store and plan_path set, not stored) would do on @dest, boot by boot in
 * @order (indexes into the plan's swprofiles, @n of them): the facts it
 * reads there (over ssh, changing nothing), the binary it copies, each
 * boot's commands as the host would run them, the checks, each session's
 * command line there and how it comes back.  What cannot be known without
 * changing the host (its private directory's name, whether the copied
 * binary runs there) is printed as unknown.  0 or an exit code.
 */
int remote_campaign_dry_run(const struct campaign *c, const char *dest, const char *ssh_config,
			    unsigned boot_timeout_s, const size_t *order, size_t n);

#endif
