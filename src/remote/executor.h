/* executor: campaigns on hosts over SSH: the campaign executor for one host, and the parallel driver. */
#ifndef CLEARPATH_REMOTE_EXECUTOR_H
#define CLEARPATH_REMOTE_EXECUTOR_H

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

#endif
