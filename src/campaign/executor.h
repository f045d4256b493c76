/* executor: what a campaign target is (this machine, a host over SSH, a dry run): operations, and one registry row per kind. */
#ifndef CLEARPATH_CAMPAIGN_EXECUTOR_H
#define CLEARPATH_CAMPAIGN_EXECUTOR_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "campaign/campaign.h"

/*
 * Adding a campaign executor
 * --------------------------
 * The core (campaign_advance()) never runs a command itself: everything
 * that touches a target goes through a struct campaign_executor, whose
 * operations a kind implements.  A new kind (a LAVA lab) is one file,
 * src/campaign/executor_<name>.c, defining its operations and
 * `const struct campaign_executor_kind campaign_executor_<name>`, and one
 * line X(campaign_executor_<name>) in CAMPAIGN_EXECUTORS below:
 *
 *   - claims(): which targets it takes, by how they are written
 *     (`--host lava://lab/board`); the first row that claims a target wins,
 *     so the catch-all (ssh's [user@]host[:port]) comes last.  A campaign's
 *     targets all belong to one kind, recorded as the spec's "mode".
 *   - check(): at `campaign start`, before anything is recorded, whether the
 *     target can run the plan (it fits, the boot methods' prerequisites).
 *   - open()/close(): one target's executor, for one controller process.
 *     Its settings are the spec's (c->spec: "ssh_config", "boot_timeout",
 *     what a kind records at start), which 'continue' may override.
 *   - begin()/end(): once per campaign, optional: local mode installs the
 *     systemd unit that continues after each reboot, and removes it when
 *     the campaign has ended or halted (a boot that did not come up).
 *   - resume(): optional, at each 'continue': put back what begin() set up
 *     and a halt took away (local mode: the unit, when none is installed).
 *   - process_per_target: targets advance in parallel, each in a process of
 *     its own with its own store connections.
 *
 * With ex->dry_run set (the dry run, campaign/executor_dry.c), an executor
 * reads what it can without changing anything (facts) and prints each
 * command it would run instead of running it, built by the same code.
 */

struct campaign_executor;

/* How the wait for a boot ended. */
enum campaign_wait {
	CAMPAIGN_BACK,		/* the target runs a new boot: check it */
	CAMPAIGN_DETACHED,	/* this process will not live to see it: the reboot takes this machine down */
	CAMPAIGN_NOT_BOOTED,	/* the time is up and the target still runs the boot it left: boot it again */
};

/*
 * The operations on one target.  Each returns 0 or an exit code (enum
 * exit_code) after log_err() naming the target, unless said otherwise.
 */
struct campaign_executor_ops {
	/* The target's boot id, release and cmdline (honouring $CLEARPATH_FAKE_BOOT there). */
	int (*facts)(struct campaign_executor *ex, struct campaign_facts *f);
	/* Read sysctl @key ("vm.swappiness") into @buf: 0, or -errno (not logged). */
	int (*sysctl_get)(struct campaign_executor *ex, const char *key, char *buf, size_t len);
	/* Make sysctl @key read @value (written only when it does not already): 0, or -errno (not logged). */
	int (*sysctl_set)(struct campaign_executor *ex, const char *key, const char *value);
	/*
	 * Boot @sw of @p on a target that runs the boot @before: the commands
	 * of its boot method (campaign_boot_commands(), with the target's own
	 * clearpath), in order.
	 */
	int (*boot)(struct campaign_executor *ex, const struct plan *p, const struct plan_swprofile *sw,
		    const struct campaign_facts *before);
	/*
	 * After boot(): wait until the target runs a boot other than @before,
	 * bounded, and say how it went in *@how.  A target that cannot be
	 * reached when the time is up is an error for that boot (an exit code).
	 */
	int (*wait)(struct campaign_executor *ex, const struct plan_swprofile *sw, const struct campaign_facts *before,
		    enum campaign_wait *how);
	/*
	 * Run one session of @c's plan as boot @b's swprofile, whose samples
	 * must end up in @c's store (c->store_url) under the boot id @b was
	 * checked with (b->boot_id): remote mode runs it on the host and brings
	 * back that one session.  A session that fails returns its exit code;
	 * one that ran but could not be stored (the store busy or gone) sets
	 * *@resumable too: the boot stays measuring, nothing is lost (a copy
	 * kept on the target is brought back by the next controller).
	 */
	int (*session)(struct campaign_executor *ex, const struct campaign *c, const struct store_campaign_boot *b,
		       bool *resumable);
};

struct campaign_executor {
	const struct campaign_executor_ops *ops;
	const struct campaign_executor_kind *kind;
	const char *target;	/* the boots' target: CAMPAIGN_LOCAL_TARGET, or the host as given */
	bool dry_run;		/* print what would be done; change nothing */
	/*
	 * Set by boot() or wait() when their failure leaves the boot to be
	 * taken again by 'campaign continue' (a LAVA job tried as often as
	 * allowed, the lab unreachable): the campaign goes on running.
	 */
	bool resumable;
	void *priv;		/* the executor's own state */
};

/* One kind of executor: a row of CAMPAIGN_EXECUTORS. */
struct campaign_executor_kind {
	const char *name;	/* the spec's "mode" */
	const char *summary;
	bool process_per_target;
	/* Whether @target, as the user wrote it, is one of this kind's. */
	bool (*claims)(const char *target);
	/*
	 * At start, before anything is recorded: whether @target can run @p
	 * (@spec: the campaign's settings).  A dry run (@dry_run) warns and
	 * returns 0.  0 or an exit code after log_err().
	 */
	int (*check)(const struct plan *p, const json_t *spec, const char *target, bool dry_run);
	/* Fill @ex (ops, priv; kind, target and dry_run are set) for @target of @c.  0 or an exit code. */
	int (*open)(struct campaign_executor *ex, const struct campaign *c, const char *target);
	void (*close)(struct campaign_executor *ex);
	/* Optional, once per campaign: before its first boot; after it ended (done, failed, aborted).  0 or an exit code. */
	int (*begin)(const struct campaign *c);
	/* also after it halted (c->halted, still running): nothing may take it further unattended */
	int (*end)(const struct campaign *c);
	/* Optional, at 'continue' of a running campaign: begin()'s set-up back where a halt removed it.  0 or an exit code. */
	int (*resume)(const struct campaign *c);
	/*
	 * Optional: which machine @target is, into @buf, for "one running
	 * campaign per machine" in a store a lab shares (two campaigns whose
	 * targets are one machine never run at once; others do).  With @spec
	 * NULL, what every machine @target can name starts with (a campaign's
	 * target to find it by).  NULL: the kind's targets never keep another
	 * campaign waiting (a LAVA lab queues its own jobs).  0 or an exit code
	 * after log_err().
	 */
	int (*machine)(const json_t *spec, const char *target, char *buf, size_t len);
};

#define CAMPAIGN_EXECUTORS(X)			\
	X(campaign_executor_local)		\
	X(campaign_executor_lava)		\
	X(campaign_executor_ssh)

#define CAMPAIGN_EXECUTOR_DECLARE(k) extern const struct campaign_executor_kind k;
CAMPAIGN_EXECUTORS(CAMPAIGN_EXECUTOR_DECLARE)
#undef CAMPAIGN_EXECUTOR_DECLARE

/* The kind that claims @target (the first row that does), or NULL. */
const struct campaign_executor_kind *campaign_executor_for_target(const char *target);

/* The kind named @mode (a spec's "mode"), or NULL (not logged). */
const struct campaign_executor_kind *campaign_executor_named(const char *mode);

/* The kind of campaign @c (its spec's mode), or NULL after log_err(). */
const struct campaign_executor_kind *campaign_executor_of(const struct campaign *c);

/* Open @kind's executor for @target of @c into @ex (@dry_run: print, change nothing).  0 or an exit code. */
int campaign_executor_open(const struct campaign_executor_kind *kind, const struct campaign *c, const char *target,
			   bool dry_run, struct campaign_executor *ex);
void campaign_executor_close(struct campaign_executor *ex);

/*
 * Advance every target of @c through its kind's executors (in parallel
 * when the kind says so) until each is done, detached or failed; @c is
 * loaded again afterwards, and when it no longer runs (or halted: a boot
 * that did not come up) the kind's end() is called.  0 (*@detached: a target's reboot takes this controller down),
 * or the exit code of a target that failed, after it logged why (a usage
 * error wins).
 */
int campaign_drive(struct campaign *c, bool *detached);

/* The kind's begin() for campaign @c, if it has one: before the first boot.  0 or an exit code. */
int campaign_begin(const struct campaign *c);

/* The kind's resume() for campaign @c, if it has one: at 'continue', before driving it.  0 or an exit code. */
int campaign_resume(const struct campaign *c);

/*
 * `campaign start --dry-run`: campaign @c (campaign_make_dry()) on each of
 * its targets through the printing executor: the unit, each boot's
 * commands, checks and session, as the run would do them; nothing is
 * stored or changed.  0 or an exit code.
 */
int campaign_dry_run(struct campaign *c);

#endif
