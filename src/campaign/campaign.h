/* campaign: kernels booted in a seeded interleaved order, one session of a plan per boot, on any target through an executor. */
#ifndef CLEARPATH_CAMPAIGN_CAMPAIGN_H
#define CLEARPATH_CAMPAIGN_CAMPAIGN_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/plan.h"
#include "store/campaign.h"

/*
 * The shape of it
 * ---------------
 * A campaign is a plan with `swprofiles` (each naming how to boot its
 * kernel) and a number of boots N: every target (this machine, or each
 * remote host) boots each swprofile N times, in an order interleaved and
 * seeded (N rounds, each a shuffle of the swprofiles), and runs one session
 * of the plan after each boot.  All of it lives in the store
 * (store/campaign.h): the campaign row, and one row per boot of each target
 * with its progress, so whatever process runs next (the systemd unit after
 * a local reboot, a restarted controller) picks up where the last stopped.
 *
 * One boot of a target goes pending -> booting -> measuring -> done:
 *   pending:   the core reads the target's facts (boot id), records it as
 *              boot_before, marks the boot `booting`, asks the executor to
 *              run the boot method's commands, then to wait for the target.
 *   booting:   the core reads the facts again: the boot id must differ from
 *              boot_before, and `expect` must hold (release, cmdline words,
 *              and after applying `sysctl`, the sysctls read back).  A
 *              mismatch is recorded as the boot's error, the campaign fails,
 *              and nothing is measured under the wrong kernel.
 *   measuring: the executor runs one session of the plan as the swprofile,
 *              into the campaign's store; the core then finds the complete
 *              session recorded under this boot id and marks the boot done.
 *              A session that was interrupted (controller killed) leaves its
 *              samples marked incomplete and the boot is taken again.
 *
 * The executor interface (what a target is)
 * -----------------------------------------
 * The core never runs a command itself: everything that touches the target
 * goes through struct campaign_executor.  Local mode (campaign/local.c) runs
 * on this machine; remote mode implements the same operations over SSH and
 * passes its executors to campaign_advance(), one per host (each host's
 * boots are independent rows, so hosts may advance in parallel, each in its
 * own thread or process with its own store connection).
 */

#define CAMPAIGN_LOCAL_TARGET "local"
#define CAMPAIGN_MAX_BOOTS 1000		/* --boots per swprofile */
#define CAMPAIGN_MAX_CMDS 8		/* shell commands of one boot */

/*
 * Returned by an executor's wait() (and then by campaign_advance()) when the
 * controller must stop here because the target's reboot takes it down (a
 * local real boot: the systemd unit runs `campaign continue` after it).
 * Not an exit code: the command exits 0.
 */
#define CAMPAIGN_DETACHED 512

/* What a target says about the boot it runs. */
struct campaign_facts {
	char boot_id[64];	/* /proc/sys/kernel/random/boot_id (or the fake boot's) */
	char release[256];	/* uname -r (or the fake boot's) */
	char cmdline[4096];	/* /proc/cmdline (or the fake boot's) */
};

/*
 * What one boot of a swprofile runs (campaign_boot_commands()): shell
 * command lines, in order, each for /bin/sh -c on the target; for the fake
 * method none, the release and cmdline of the simulated boot instead.
 */
struct campaign_boot_cmds {
	enum plan_boot_method method;
	char *cmd[CAMPAIGN_MAX_CMDS];
	size_t ncmd;
	const char *fake_release;	/* PLAN_BOOT_FAKE */
	char *fake_cmdline;		/* PLAN_BOOT_FAKE: the boot spec's cmdline plus `cmdline:` */
};

struct campaign;
struct campaign_executor;

/*
 * The operations on a target.  Each returns 0 or an exit code (enum
 * exit_code) after log_err() naming the target, unless said otherwise.
 */
struct campaign_executor_ops {
	/* The target's boot id, release and cmdline (honouring $CLEARPATH_FAKE_BOOT there). */
	int (*facts)(struct campaign_executor *ex, struct campaign_facts *f);
	/* Read sysctl @key ("vm.swappiness") into @buf: 0, or -errno (not logged). */
	int (*sysctl_get)(struct campaign_executor *ex, const char *key, char *buf, size_t len);
	/* Write sysctl @key = @value: 0, or -errno (not logged). */
	int (*sysctl_set)(struct campaign_executor *ex, const char *key, const char *value);
	/*
	 * Run one session of @c's plan (c->plan_path) as swprofile @swprofile,
	 * whose samples must end up in @c's store (c->store_url) under the
	 * target's current boot id: remote mode runs it on the host and imports
	 * it.  A session that fails returns its exit code.
	 */
	int (*session)(struct campaign_executor *ex, const struct campaign *c, const char *swprofile);
	/* Run the boot method: @cmds->cmd in order (fake: simulate the boot on the target). */
	int (*boot)(struct campaign_executor *ex, const struct campaign_boot_cmds *cmds);
	/*
	 * After boot(): wait until the target runs a boot other than @before
	 * (bounded; a target that does not return is an error for that boot),
	 * or return CAMPAIGN_DETACHED when this process will not see it.
	 */
	int (*wait)(struct campaign_executor *ex, const struct campaign_facts *before);
};

struct campaign_executor {
	const struct campaign_executor_ops *ops;
	const char *target;	/* the boots' target: CAMPAIGN_LOCAL_TARGET, or the host as given */
	void *priv;		/* the executor's own state */
};

/* A campaign loaded from the store, with its plan. */
struct campaign {
	struct store_campaign row;
	struct store_campaign_boot *boots;	/* every target's, ordered by target then position */
	size_t nboots;
	json_t *spec;		/* row.spec parsed: boots, seed, swprofiles, order, mode, store, targets */
	struct plan *plan;
	const char *plan_path;	/* row.plan */
	char *store_url;	/* the store it lives in, as given to campaign_load() */
};

/* What `campaign start` was asked for. */
struct campaign_start {
	const char *plan_file;
	unsigned boots;		/* per swprofile, per target */
	uint64_t seed;
	const char *mode;	/* "local" or "remote" (recorded in the spec) */
	const char *const *targets;	/* CAMPAIGN_LOCAL_TARGET, or the hosts */
	size_t ntargets;
	const char *ssh_config;	/* remote mode: ssh -F FILE (absolute), recorded for 'continue'; or NULL */
	unsigned boot_timeout;	/* remote mode: seconds a host may take to come back, recorded; 0: default */
};

/*
 * The order of one target's boots: @boots rounds, each the @n swprofile
 * indexes shuffled with @seed + round, into @out[0..boots * n).
 */
void campaign_order(size_t n, unsigned boots, uint64_t seed, size_t *out);

/*
 * Load and check the plan for a campaign: it must name `swprofiles`, and a
 * fake method needs $CLEARPATH_FAKE_BOOT.  Whether it fits is the target's
 * business (campaign_target_check()).  Returns 0 with *@p set, or an exit
 * code after log_err().
 */
int campaign_plan_load(const char *file, struct plan **p);

/*
 * Whether @target (named so in messages: "this machine", a host) is ready
 * for @p, read through util/sysfs's root (this machine, $CLEARPATH_SYSROOT,
 * or a host's facts copied under a directory): the plan fits its memory and
 * hugepages (plan_check), and when a swprofile boots with grub,
 * GRUB_DEFAULT=saved (campaign_grub_default()).  Every shortfall is said
 * with its fix; a dry run (@dry_run) warns and returns 0, else
 * EXIT_RESOURCE or another exit code.
 */
int campaign_target_check(const struct plan *p, const char *target, bool dry_run);

/*
 * The GRUB_DEFAULT grub-mkconfig would use, read as it sources them:
 * /etc/default/grub, then each /etc/default/grub.d/NAME.cfg in order of NAME (the last
 * setting wins), through util/sysfs's root.  0 with @buf set, 1 when none
 * sets it, or -errno when /etc/default/grub cannot be read.
 */
int campaign_grub_default(char *buf, size_t len);

/*
 * Create the campaign in the store at @store_url: the spec and every
 * target's boots, pending, in the seeded order.  *@id is its id.  Returns 0
 * or an exit code after log_err() (another campaign running in that store
 * is EXIT_USAGE).
 */
int campaign_create(const char *store_url, const struct campaign_start *s, const struct plan *p,
		    int64_t *id);

/*
 * Load campaign @id (0: the running one, else the most recent) from the
 * store at @store_url, with its plan.  Returns 0 with @c filled (free with
 * campaign_free()), EXIT_USAGE when there is none, or another exit code.
 */
int campaign_load(const char *store_url, int64_t id, bool running, struct campaign *c);
void campaign_free(struct campaign *c);

/*
 * The commands one boot of @sw (a swprofile of @p) runs on a target whose
 * facts are @now, into @out (free with campaign_boot_cmds_free()).  kexec
 * with `cmdline: keep` reuses @now's cmdline without BOOT_IMAGE= and without
 * the words any swprofile's `cmdline:` adds, then appends @sw's own.
 * 0 or EXIT_INTERNAL.
 */
int campaign_boot_commands(const struct plan *p, const struct plan_swprofile *sw,
			   const struct campaign_facts *now, struct campaign_boot_cmds *out);
void campaign_boot_cmds_free(struct campaign_boot_cmds *c);

/*
 * A dry run's lines for what follows a boot of @sw, each behind @indent: the
 * check (boot id, release, cmdline words), the sysctls written, the
 * sysctls checked.
 */
void campaign_print_checks(const struct plan_swprofile *sw, const char *indent);

/* @s quoted for /bin/sh when it needs to be, into @buf.  Returns @buf. */
char *campaign_shell_quote(const char *s, char *buf, size_t len);

/*
 * Whether @f satisfies @sw's expect (release and cmdline words; sysctls are
 * checked after applying them).  Returns NULL, or why not, into @why.
 */
const char *campaign_expect_mismatch(const struct plan_swprofile *sw, const struct campaign_facts *f,
				     char *why, size_t len);

/*
 * Advance @ex's target in campaign @c (loaded with campaign_load) as far as
 * it can: boot, check, measure, next boot, until its boots are all done (0),
 * the controller must stop for a reboot (CAMPAIGN_DETACHED), or a boot fails
 * (its error recorded, the campaign marked failed, an exit code returned).
 * When every target is done the campaign is marked done.  Progress lines go
 * to stdout.
 */
int campaign_advance(struct campaign *c, struct campaign_executor *ex);

/* Mark campaign @c aborted (it stays in the store, its finished boots' sessions too).  0 or an exit code. */
int campaign_abort(struct campaign *c);

/* The next boot of @target that is not done, or NULL when all are; *@total: the target's boots. */
const struct store_campaign_boot *campaign_next_boot(const struct campaign *c, const char *target, size_t *total);

/* Print @c's state (the order, each boot's status, boot id, session, error, what comes next) to stdout. */
void campaign_print_status(const struct campaign *c);

/*
 * @c's state as `campaign status --format json` prints it: the same facts
 * as the text (id, plan, state, progress per swprofile and per target,
 * sessions stored, each boot, the next step of each target, the errors).
 * NULL when out of memory.  The keys are documented in the man page.
 */
json_t *campaign_status_json(const struct campaign *c);

/* Whether every boot of @c is done. */
bool campaign_all_done(const struct campaign *c);

/* Whether any swprofile of @p boots for real (not fake): it needs --yes and the systemd unit locally. */
bool campaign_reboots(const struct plan *p);

/* The local executor (campaign/local.c): this machine; sessions re-execute this binary. */
void campaign_local_executor(struct campaign_executor *ex);

#endif
