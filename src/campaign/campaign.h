/* campaign: kernels booted in a seeded interleaved order, one session of a plan per boot, on any target through an executor. */
#ifndef CLEARPATH_CAMPAIGN_CAMPAIGN_H
#define CLEARPATH_CAMPAIGN_CAMPAIGN_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "plan/plan.h"
#include "store/campaign.h"

/*
 * The shape of it
 * ---------------
 * A campaign is a plan with `swprofiles` (each naming how to boot its
 * kernel: a boot method, campaign/method.h) and a number of boots N: every
 * target (this machine, or each remote host) boots each swprofile N times,
 * in an order interleaved and seeded (N rounds, each a shuffle of the
 * swprofiles), and runs one session of the plan after each boot.  All of it
 * lives in the store (store/campaign.h): the campaign row, and one row per
 * boot of each target with its progress, so whatever process runs next
 * (the systemd unit after a local reboot, a restarted controller) picks up
 * where the last stopped.
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
 * Everything that touches a target goes through an executor
 * (campaign/executor.h): this machine, a host over SSH, and the dry run,
 * which prints what the others would do, all through campaign_advance().
 */

#define CAMPAIGN_LOCAL_TARGET "local"
#define CAMPAIGN_MAX_BOOTS 1000		/* --boots per swprofile */
#define CAMPAIGN_TARGET_MAX 255		/* characters of a target's name (a host as given) */
#define CAMPAIGN_BOOT_TIMEOUT_DEFAULT 900	/* seconds a host may take to come back from a boot */

#define CAMPAIGN_HOLD_KIDS 512		/* target processes a controller names in its hold (hosts, lab devices) */
#define CAMPAIGN_HOLDER_LEN (256 + 48 * CAMPAIGN_HOLD_KIDS)	/* a hold's token: the controller and its target processes */

/* What a target says about the boot it runs. */
struct campaign_facts {
	char boot_id[64];	/* /proc/sys/kernel/random/boot_id (or the fake boot's) */
	char release[256];	/* uname -r (or the fake boot's) */
	char cmdline[4096];	/* /proc/cmdline (or the fake boot's) */
};

/* A campaign loaded from the store (or, for a dry run, made in memory), with its plan. */
struct campaign {
	struct store_campaign row;
	struct store_campaign_boot *boots;	/* every target's, ordered by target then position */
	size_t nboots;
	json_t *spec;		/* row.spec parsed: boots, seed, swprofiles, order, mode, targets, executor settings */
	struct plan *plan;
	const char *plan_path;	/* row.plan */
	char *store_url;	/* the store it lives in, as given to campaign_load() */
	bool dry_run;		/* made in memory by the dry run: no store is read or written */
	char holder[CAMPAIGN_HOLDER_LEN];	/* this controller's token while it holds the campaign (campaign_hold()), "" */
	bool halted;		/* a boot did not come up: stopped for a person, running still (campaign_advance()) */
};

/* What `campaign start` was asked for. */
struct campaign_start {
	const char *plan_file;
	unsigned boots;		/* per swprofile, per target */
	uint64_t seed;
	const char *const *targets;	/* CAMPAIGN_LOCAL_TARGET, or the hosts */
	size_t ntargets;
	const char *ssh_config;	/* remote mode: ssh -F FILE (absolute), recorded for 'continue'; or NULL */
	unsigned boot_timeout;	/* remote mode: seconds a host may take to come back, recorded; 0: default */
	const json_t *settings;	/* the executor's own settings (a LAVA lab's URL, device type...), recorded; or NULL */
	const char *sut;	/* --sut: the machine class this machine's sessions are stored under, or NULL */
};

/*
 * The order of one target's boots: @boots rounds, each the @n swprofile
 * indexes shuffled with @seed + round, into @out[0..boots * n).
 */
void campaign_order(size_t n, unsigned boots, uint64_t seed, size_t *out);

/*
 * Load and check the plan for a campaign: it must name `swprofiles`, each
 * read through its boot method (campaign_methods_bind()).  Whether it fits
 * is the target's business (campaign_target_check()).  Returns 0 with *@p
 * set, or an exit code after log_err().
 */
int campaign_plan_load(const char *file, struct plan **p);

/*
 * Whether the target @env names is ready for @p, read through util/sysfs's
 * root (this machine, $CLEARPATH_SYSROOT, or a host's facts copied under a
 * directory): the plan fits its memory and hugepages (plan_check), and each
 * boot method's prerequisites hold (campaign_methods_check()).  Every
 * shortfall is said with its fix; a dry run warns and returns 0, else
 * EXIT_RESOURCE or another exit code.
 */
struct campaign_target_env;
int campaign_target_check(const struct plan *p, const struct campaign_target_env *env);

/*
 * The GRUB_DEFAULT grub-mkconfig would use, read as it sources them:
 * /etc/default/grub, then each /etc/default/grub.d/NAME.cfg in order of NAME (the last
 * setting wins), through util/sysfs's root.  0 with @buf set, 1 when none
 * sets it, or -errno when /etc/default/grub cannot be read.
 */
int campaign_grub_default(char *buf, size_t len);

/*
 * The SHA-256 of each file @p was read from (the top plan and each it
 * includes), as a JSON object realpath -> hex digest, recorded in a
 * campaign's spec ("plan_files").  NULL after log_err() when one cannot be
 * read.
 */
json_t *campaign_plan_digests(const struct plan *p);

/*
 * Whether @c's plan (c->plan, loaded again) is the one it started with: the
 * same files with the same digests.  0, or EXIT_USAGE after log_err()
 * naming the file that changed (a campaign must not mix two plans).
 */
int campaign_plan_unchanged(const struct campaign *c);

/*
 * Where file @i of @p's sources goes in a copy of the plan (a host's): its
 * path relative to the top plan's directory, which its includes then find
 * as they do here.  NULL when it has no such place: an absolute include, or
 * one outside the top plan's directory.
 */
const char *campaign_plan_relative(const struct plan *p, size_t i);

/*
 * The spec a campaign started as @s with @p records (json_decref() it): what
 * 'continue' and 'status' read back.  NULL when out of memory (not logged).
 */
json_t *campaign_spec(const struct campaign_start *s, const struct plan *p, const char *mode);

/*
 * Create the campaign in the store at @store_url: the spec and every
 * target's boots, pending, in the seeded order, and the machine each target
 * is (its kind's machine()).  *@id is its id.  Returns 0 or an exit code
 * after log_err() (a target's machine in another running campaign is
 * EXIT_USAGE; other machines' campaigns run beside it).
 */
int campaign_create(const char *store_url, const struct campaign_start *s, const struct plan *p,
		    int64_t *id);

/*
 * The campaign of @s made in memory for a dry run (c->dry_run): the boots
 * of every target pending, in the seeded order, nothing stored.  0 with @c
 * filled (free with campaign_free(), which leaves @p alone), or
 * EXIT_INTERNAL after log_err().
 */
int campaign_make_dry(const struct campaign_start *s, struct plan *p, const char *store_url, struct campaign *c);

/*
 * Load campaign @id (0 with @running: this machine's running one, as
 * campaign_pick() finds it; 0 without: the most recent) from the store at
 * @store_url, with its plan.  Returns 0 with @c filled (free with
 * campaign_free()), EXIT_USAGE when there is none, or another exit code
 * with @c holding nothing (campaign_free() on it is harmless).
 */
int campaign_load(const char *store_url, int64_t id, bool running, struct campaign *c);

/*
 * campaign_load() of what the store holds alone, c->plan NULL: all that
 * `campaign status` reads, so a campaign whose plan is gone or was edited
 * (after it ended, say) still tells its state.  The same returns.
 */
int campaign_load_state(const char *store_url, int64_t id, bool running, struct campaign *c);

/*
 * The campaign @which names in the store at @store_url: its id ("3"), or
 * one of its targets as written at start ("local", "root@box1"), or with
 * @which NULL this machine's: one with a target on this machine, or started
 * from it.  Running ones only with @running.  A store a lab shares holds
 * other machines' campaigns: one is never taken for this machine's, and
 * when several match, none is picked (EXIT_USAGE naming them).  0 with *@id,
 * EXIT_USAGE after log_err() when none or several match, or another exit
 * code.
 */
int campaign_pick(const char *store_url, const char *which, bool running, int64_t *id);

/* The id of the newest campaign of the store at @store_url older than @after (0: the newest), into *@id, 0 when none is.  0 or an exit code. */
int campaign_next(const char *store_url, int64_t after, int64_t *id);

/*
 * One line about @c for `campaign status --all`: id, state, boots done, its
 * targets, where it was started; under it, indented, its message when it has
 * one (why it failed or stopped), as `campaign status` prints it.
 */
void campaign_print_summary(const struct campaign *c);
void campaign_free(struct campaign *c);

/*
 * Whether @f satisfies @sw's expect (release and cmdline words; sysctls are
 * checked after applying them).  Returns NULL, or why not, into @why.
 */
const char *campaign_expect_mismatch(const struct plan_swprofile *sw, const struct campaign_facts *f,
				     char *why, size_t len);

/*
 * Whether a boot of @sw that left kernel @release_before ("" unknown) and
 * came back as @f did not come up (the target came back under another
 * kernel than the one its boot method boots), rather than booting a kernel
 * `expect` wrongly names.  true with why into @why, or false.
 */
bool campaign_boot_not_up(const struct plan_swprofile *sw, const char *release_before,
			  const struct campaign_facts *f, char *why, size_t len);

/* Whether @word is one of the space-separated words of the command line @line. */
bool campaign_cmdline_has(const char *line, const char *word);

struct campaign_executor;

/*
 * Advance @ex's target in campaign @c as far as it can: boot, check,
 * measure, next boot, until its boots are all done (0), the controller must
 * stop because the target's reboot takes it down (0 with *@detached set:
 * the systemd unit continues after the boot), or a boot fails (its error
 * recorded, the campaign marked failed, an exit code returned).  When every
 * target is done the campaign is marked done.  Progress lines go to stdout.
 */
int campaign_advance(struct campaign *c, struct campaign_executor *ex, bool *detached);

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

/*
 * The seconds campaign @c still needs: each target's boots not done times
 * the mean seconds of the boots done so far (from a boot's start to its
 * session stored; *@per_boot, over all targets), the longest target's when
 * they run in parallel, else their sum.  NAN when no boot is done yet.
 */
double campaign_eta(const struct campaign *c, double *per_boot);

/* @s seconds as people read a duration ("4m 10s", "2h 5m") into @buf.  Returns @buf. */
char *campaign_duration(double s, char *buf, size_t len);

/*
 * The progress line of @target's boot @b (its method @method): boot N of M,
 * boots done and left, the mean time per boot so far and the ETA (the same
 * figures as status), to stdout.
 */
void campaign_print_progress(const struct campaign *c, const char *target, const struct store_campaign_boot *b,
			     const char *method);

/* Whether every boot of @c is done. */
bool campaign_all_done(const struct campaign *c);

/* The targets of @c in the order they were given (the spec's array of strings). */
json_t *campaign_targets(const struct campaign *c);

#define CAMPAIGN_SESSION_ARGC 14	/* campaign_session_argv()'s words, with the NULL */
/* Set for a campaign's sessions (to the campaign's id): 'plan run' keeps no resume state of its own then. */
#define CAMPAIGN_SESSION_ENV "CLEARPATH_CAMPAIGN"

/*
 * The command line of one session of @c's plan as @swprofile: "clearpath
 * plan run --sessions 1 --swprofile NAME [--sut CLASS] [--store URL] PLAN"
 * into @argv, NULL-terminated, with @clearpath, @sut (NULL: the class the
 * target detects), @store_url and @plan (the target's binary, store and
 * plan file).  Returns the number of words.
 */
int campaign_session_argv(const char *clearpath, const char *swprofile, const char *sut, const char *store_url,
			  const char *plan, const char *argv[CAMPAIGN_SESSION_ARGC]);

/*
 * The store @url names (NULL: the default) as a campaign records it and
 * hands it to every later process (the unit after a reboot, sessions, the
 * hosts' bring-back): a file store as an absolute path; a PostgreSQL one
 * without its password, which goes into
 * ${XDG_CONFIG_HOME:-~/.config}/clearpath/pgpass for libpq to read
 * (store_url_stash_password(); a dry run writes nothing).  A control
 * character is refused.  0 with @buf set, or an exit code after log_err().
 */
int campaign_store_url(const char *url, bool dry_run, char *buf, size_t len);

/*
 * Open the store at @url that a campaign lives in: it must still be there
 * (a file store deleted or moved while the campaign runs is not made again,
 * empty).  0, or an exit code after log_err() (EXIT_RESOURCE: gone, busy,
 * unreachable).
 */
struct store;
int campaign_store_open(const char *url, struct store **st);

/*
 * Take campaign @c for this controller (c->holder): free, held by a
 * controller that no longer runs (it died, or this machine booted since),
 * or by one on another machine that has not said so for a day.  0, or
 * EXIT_RESOURCE after log_err() naming the controller that holds it.
 */
int campaign_hold(struct campaign *c);

/*
 * At each step: say this controller still holds @c, and read its status
 * (another controller or command may have aborted it) into @status.  0, or
 * EXIT_RESOURCE after log_err() when another controller took it over.
 */
int campaign_holding(struct campaign *c, char *status, size_t len);

/*
 * The hold of @c (this controller's, campaign_hold()) made to name the
 * processes @kids[0..@n) too (a pid <= 0 is none), each advancing one
 * target: a controller killed while they run still holds the campaign until
 * the last of them ends, so no other advances a target they run.  c->holder
 * is the new token, which each of them takes as its own.  0, or an exit
 * code after log_err().
 */
int campaign_hold_kids(struct campaign *c, const pid_t *kids, size_t n);

/* Let @c go (nothing when it is not held by this controller). */
void campaign_unhold(struct campaign *c);

/* Whether a controller that still runs holds @c: then "pid N on HOST since T" into @who (may be NULL). */
bool campaign_controller(const struct campaign *c, char *who, size_t len);

/* The seed of @c's order (its spec's, a decimal string or, as older campaigns kept it, a number). */
uint64_t campaign_seed(const struct campaign *c);

/* The path of the running binary into @buf.  0 or EXIT_INTERNAL after log_err(). */
int campaign_self_path(char *buf, size_t len);

#endif
