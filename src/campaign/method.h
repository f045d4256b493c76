/* method: how a campaign boots a swprofile's kernel; each boot method is one row of CAMPAIGN_METHODS. */
#ifndef CLEARPATH_CAMPAIGN_METHOD_H
#define CLEARPATH_CAMPAIGN_METHOD_H

#include <stdbool.h>
#include <stddef.h>

#include "plan/plan.h"

struct campaign_facts;

/*
 * Adding a boot method
 * --------------------
 * One file, src/campaign/method_<name>.c, defining a params struct, its
 * key table and `const struct campaign_method campaign_method_<name>`, and
 * one line X(campaign_method_<name>) in CAMPAIGN_METHODS below.  Nothing
 * else switches on method names: the plan reads `boot:` as keys and values
 * (plan/plan.h), campaign_plan_load() checks them against the row's keys and
 * fills the params, and the campaign core, the executors and the dry run
 * only call the row.
 */

/* A key of `boot:` a method takes: one line (a path, an entry), or a list (commands). */
enum campaign_key_kind {
	CAMPAIGN_KEY_LINE,	/* params field: const char * (NULL when not given) */
	CAMPAIGN_KEY_LIST,	/* params field: struct campaign_key_list */
};

struct campaign_key_list {
	char *const *v;
	size_t n;
};

struct campaign_method_key {
	const char *name;	/* NULL ends the table */
	enum campaign_key_kind kind;
	bool required;
	size_t offset;		/* of its field in the method's params */
	const char *what;	/* for "boot method M needs 'KEY': WHAT" (NULL: nothing more) */
};

/* Where the boot runs and what its commands may use. */
struct campaign_boot_ctx {
	const struct plan *plan;
	const struct plan_swprofile *sw;
	const struct campaign_facts *now;	/* the target's boot before this one */
	const char *clearpath;			/* clearpath's path on the target (a fake boot runs it there) */
	/* the program that runs it there ($CLEARPATH_EMULATOR: an arm64 build under qemu), or NULL */
	const char *emulator;
};

/* What one boot of a swprofile runs: shell command lines, in order, each for /bin/sh -c on the target. */
struct campaign_boot_cmds {
	const struct campaign_method *method;
	const struct plan_swprofile *sw;
	char **cmd;
	size_t ncmd;
	char *cmdline;		/* the kernel command line the boot passes, or NULL when the method does not set it */
};

/* What a method's prerequisite check is told about the target. */
struct campaign_target_env {
	const char *name;	/* "this machine", or the host as given: for messages */
	bool here;		/* the target is this machine: its files can be looked at */
	bool dry_run;		/* shortfalls are warnings */
	void (*say)(const char *fmt, ...) __attribute__((format(printf, 1, 2)));	/* log_err, or log_warn */
};

struct campaign_method {
	const char *name;	/* as `boot: {method: NAME}` names it */
	const char *summary;
	const struct campaign_method_key *keys;
	size_t params_size;
	bool reboots;		/* the boot takes the target down (fake: simulated in place, nothing goes down) */
	bool applies_cmdline;	/* a swprofile's `cmdline:` can be applied: the method passes the command line */
	bool check_once;	/* check() is the target's, not the swprofile's: run for the first swprofile only */
	/* After its keys are read into @params: defaults and the method's own rules.  0 or EXIT_USAGE after plan_err(). */
	int (*parse)(void *params, const struct plan_swprofile *sw);
	/* The kernel release its boot gives, known from the spec (a kernel's file name), into @buf; NULL when it cannot tell. */
	const char *(*release)(const void *params, char *buf, size_t len);
	/* Command-line words the boot passes that the booted kernel must show, or NULL. */
	const char *(*cmdline_words)(const void *params);
	/* The commands of one boot into @out (campaign_boot_add()).  0, or EXIT_INTERNAL when out of memory. */
	int (*commands)(const void *params, const struct campaign_boot_ctx *ctx, struct campaign_boot_cmds *out);
	/* Whether the target is ready for it (files, boot loader set up), said through env->say.  0, or an exit code; NULL: nothing to check. */
	int (*check)(const void *params, const struct plan_swprofile *sw, const struct campaign_target_env *env);
};

#define CAMPAIGN_METHODS(X)			\
	X(campaign_method_kexec)		\
	X(campaign_method_grub)			\
	X(campaign_method_command)		\
	X(campaign_method_lava)			\
	X(campaign_method_fake)

#define CAMPAIGN_METHOD_DECLARE(m) extern const struct campaign_method m;
CAMPAIGN_METHODS(CAMPAIGN_METHOD_DECLARE)
#undef CAMPAIGN_METHOD_DECLARE

/* The method named @name, or NULL. */
const struct campaign_method *campaign_method_find(const char *name);

/* The method and params campaign_plan_load() gave @sw. */
const struct campaign_method *campaign_method_of(const struct plan_swprofile *sw);

/*
 * Read every swprofile's `boot:` through its method's row: the method must
 * be known, its keys known and given as the row says (one line where it
 * takes a line), required ones present; then the row's parse, and `expect`
 * completed with the release the boot gives and the command-line words it
 * passes (the method's, then `cmdline:`'s).  A swprofile whose release can
 * be neither derived nor read from `expect` is refused: a boot that cannot
 * be checked could measure the wrong kernel.  0, or an exit code after
 * plan_err() naming file:line:col.
 */
int campaign_methods_bind(struct plan *p);

/*
 * The commands one boot of @ctx->sw runs (its method's row) into @out (free
 * with campaign_boot_cmds_free()).  0, or EXIT_INTERNAL after log_err().
 */
int campaign_boot_commands(const struct campaign_boot_ctx *ctx, struct campaign_boot_cmds *out);
void campaign_boot_cmds_free(struct campaign_boot_cmds *c);

/* Append the command @fmt to @out.  0, or EXIT_INTERNAL when out of memory (not logged). */
int campaign_boot_add(struct campaign_boot_cmds *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * The kernel command line a boot of @sw passes: @base (with @keep: without
 * BOOT_IMAGE= and without the words any swprofile's `cmdline:` adds, so
 * alternating kernels do not pile them up), then @sw's `cmdline:`.
 * malloc'd; NULL when out of memory.
 */
char *campaign_boot_cmdline(const struct plan *p, const struct plan_swprofile *sw, const char *base, bool keep);

/* Whether any swprofile of @p boots for real (not simulated): it needs --yes, and locally the systemd unit. */
bool campaign_reboots(const struct plan *p);

/* Each swprofile's method's check against @env.  0, or the first exit code (after env->say). */
int campaign_methods_check(const struct plan *p, const struct campaign_target_env *env);

#endif
