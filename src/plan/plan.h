/* plan: a measurement plan read from YAML, validated and expanded into the benchmarks to run. */
#ifndef CLEARPATH_PLAN_PLAN_H
#define CLEARPATH_PLAN_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workloads/workload.h"

struct harness_unit;
struct plan;

#define PLAN_MAX_BENCHMARKS 1000	/* a matrix that expands past this is refused */
#define PLAN_MAX_HUGE 4			/* hugepage sizes a plan may require */

/* How often one benchmark runs: per session, warmups then repeats, in each of sessions. */
struct plan_protocol {
	unsigned warmups;
	unsigned repeats;
	unsigned sessions;
	unsigned timeout_s;	/* per invocation */
	unsigned profile;	/* profile: true: bench runs as with --profile (1), or not (0) */
	unsigned profile_hz;	/* profile_freq: samples per second per thread; 0: the command line's */
	unsigned profile_event;	/* profile_event: 1 + enum profile_event; 0: the command line's */
};

enum plan_kind {
	PLAN_BENCH,	/* a clearpath workload, run in-process */
	PLAN_EXEC,	/* an external command whose output a regex reads */
};

/* The driver's -f/--function, which no workload's option table lists. */
extern const struct wl_opt plan_opt_function;

/* One option of a bench benchmark (@opt may be &plan_opt_function). */
struct plan_arg {
	const struct wl_opt *opt;
	char *value;		/* as used now (scaled); NULL for a flag */
	char *written;		/* as written in the plan, what scaling starts from */
};

struct plan_exec {
	char *command;		/* run with /bin/sh -c */
	char *regex;		/* POSIX extended; group 1 is the value */
	char *unit;
	bool higher_is_better;
};

/* One expanded benchmark: a matrix row is one of these. */
struct plan_bench {
	enum plan_kind kind;
	/*
	 * Identity and result-class name in the store: the canonical command
	 * line without the collection ("mmap -p 1GB -f demand -s 32GB -l 5"),
	 * or the exec's name.  Unique within a plan.
	 */
	char *id;
	const struct workload *wl;	/* PLAN_BENCH */
	struct plan_arg *args;		/* PLAN_BENCH, in canonical order */
	size_t nargs;
	int argc;			/* PLAN_BENCH: wl_parse()-ready, argv[0] the collection */
	char **argv;
	struct plan_exec exec;		/* PLAN_EXEC */
	struct plan_protocol proto;
	char *file;			/* where it was written, for messages */
	unsigned line, col;
};

/* What must be true of the machine before anything runs (plan key `requires`). */
struct plan_requires {
	uint64_t memory;		/* bytes of MemAvailable, 0: no requirement */
	size_t nhuge;
	struct {
		uint64_t page;		/* bytes per huge page */
		uint64_t count;		/* free pages of that size */
	} huge[PLAN_MAX_HUGE];
};

#define PLAN_MAX_SWPROFILES 16
#define PLAN_MAX_SYSCTLS 64
#define PLAN_MAX_WORDS 64		/* boot commands, cmdline_has words */

/* Where something was written: every plan message starts with it. */
struct plan_loc {
	const char *file;
	unsigned line, col;	/* 1-based */
};

/* Log "FILE:LINE:COL: <msg>" through log_err().  Returns EXIT_USAGE. */
int plan_err(const struct plan_loc *loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Log that @key (at @loc) is none of the @nvalid keys @valid of @what,
 * naming the nearest one (a key that does not read as one is not quoted
 * back).  Returns EXIT_USAGE.
 */
int plan_key_unknown(const struct plan_loc *loc, const char *key, const char *what, const char *const *valid,
		     size_t nvalid);

/* One sysctl setting: "vm.swappiness" = "10". */
struct plan_sysctl {
	char *key;
	char *value;
};

/* What the booted system must show before anything is measured under it. */
struct plan_expect {
	char *release;			/* uname -r, or NULL: not checked */
	char **cmdline_has;		/* words /proc/cmdline must contain */
	size_t ncmdline_has;
	struct plan_sysctl *sysctl;	/* values /proc/sys must read back */
	size_t nsysctl;
};

/*
 * One key of a swprofile's `boot:` mapping other than `method`, as written:
 * the plan reads `boot:` without knowing the methods, campaign/'s boot
 * method table (campaign/method.h) says which keys a method takes.
 */
struct plan_boot_value {
	char *key;
	char **values;			/* a scalar: its one value; a list: each item */
	size_t nvalues;
	bool list;			/* written as a list */
	struct plan_loc key_loc, loc;	/* of the key, of the value */
};

/* A named swprofile of a campaign: how to boot it, what to apply, what to expect. */
struct plan_swprofile {
	char *name;
	char *method;			/* `boot: {method: ...}` as written, or NULL when boot names none */
	struct plan_loc boot_loc;	/* of the `boot` mapping */
	struct plan_loc method_loc;	/* of the method's name (of `boot` when none) */
	struct plan_boot_value *boot;	/* the other keys of `boot`, in the order written */
	size_t nboot;
	char *cmdline;			/* `cmdline:` appended to the boot's command line, or NULL */
	struct plan_loc cmdline_loc;
	struct plan_sysctl *sysctl;	/* `sysctl:` applied after each boot, before measuring */
	size_t nsysctl;
	/*
	 * `expect:` as written, with the sysctls applied; campaign_plan_load()
	 * completes it with what the boot gives (release, cmdline words)
	 */
	struct plan_expect expect;
	char *file;			/* where it was written, for messages */
	unsigned line, col;
	/* campaign_plan_load()'s reading of `boot`: its method's row and parameters (free()d with the plan) */
	const void *boot_method;
	void *boot_params;
};

/*
 * Add the words of @s (split at blanks) to @e's cmdline_has, each once.
 * 0, or EXIT_USAGE after plan_err() at @loc (a line break, more than
 * PLAN_MAX_WORDS words), EXIT_INTERNAL when out of memory.
 */
int plan_expect_add_words(struct plan_expect *e, const char *s, const struct plan_loc *loc);

/* The /proc/sys file of sysctl @key: "vm.swappiness" -> "/proc/sys/vm/swappiness", into @buf. */
void plan_sysctl_path(const char *key, char *buf, size_t len);

/* The swprofile of @p named @name, or NULL. */
const struct plan_swprofile *plan_swprofile_find(const struct plan *p, const char *name);

/* A file a plan was read from: the top plan, then each it includes (once). */
struct plan_source {
	char *path;			/* as opened: the top plan's path, an include joined to its includer's directory */
	char *real;			/* realpath() of it */
	bool absolute;			/* an include written as an absolute path */
};

struct plan {
	char *name;
	char *file;
	struct plan_source *sources;	/* every file read, the top plan first */
	size_t nsources;
	char *swprofile;		/* "auto": detected from the running kernel */
	struct plan_swprofile *swprofiles;	/* `swprofiles`: a campaign's, in the order written */
	size_t nswprofiles;
	struct plan_bench *bench;
	size_t nbench;
	struct plan_requires req;
	unsigned scale;			/* sizes are divided by this (1: as written) */
	bool past_cache;		/* `buffers: past-cache`: plan_past_cache() before scaling */
	unsigned raised;		/* what plan_past_cache() multiplied the buffers by (0, 1: nothing) */
};

/*
 * Read, validate and expand the plan in @path (with its includes) into a
 * new plan.  Returns 0 with *out set (free with plan_free()), or an exit code
 * (EXIT_USAGE for a bad plan, EXIT_RESOURCE when a file cannot be read)
 * after log_err() naming file:line:column; *out is then NULL.
 */
int plan_load(const char *path, struct plan **out);

/* Free a plan from plan_load(); NULL is fine. */
void plan_free(struct plan *p);

/*
 * Check @p against this machine: `requires`, and for each page size the
 * largest bench benchmark's memory, as machine_fit() judges it (MemAvailable
 * for base pages, free hugetlb pages otherwise).  Every shortfall is
 * reported through @say (log_err or log_warn) with a hint.  Returns 0,
 * EXIT_RESOURCE, or another exit code.
 */
int plan_check(const struct plan *p, void (*say)(const char *fmt, ...));

/*
 * Divide the buffer size of every bench benchmark (the option its workload
 * names as scaled_opt) by @divisor (a power of two), starting from the
 * written value, keeping it a whole number of pages and at least one; the
 * workload's capped_opts (-k) keep their value unless it would exceed the
 * new size; every other option is the experiment and stays.  Ids and argv
 * follow.  Returns 0, or EXIT_USAGE after log_err() when a scaled line no
 * longer parses (the plan is then unchanged).
 */
int plan_scale(struct plan *p, unsigned divisor);

/*
 * Find the smallest power-of-two divisor (up to 2^20) under which every
 * bench benchmark fits MemAvailable and the hugepage pools, and apply it
 * with plan_scale().  Returns 0 with *divisor set, EXIT_RESOURCE after
 * log_err() when no divisor makes it fit (saying whether memory, a page size
 * this kernel lacks, or a hugetlb pool short of pages is why, with the
 * command that reserves them), or another exit code.
 */
int plan_scale_auto(struct plan *p, unsigned *divisor);

/*
 * The bytes of the buffer one run of bench benchmark @b clears (its
 * workload's memory need), into *@bytes: what decides whether it fits the
 * last-level cache.  0, or an exit code (EXIT_USAGE for an exec).
 */
int plan_bench_buffer(const struct plan_bench *b, uint64_t *bytes);

/*
 * `buffers: past-cache`: raise the buffer size (the option the workload
 * names as scaled_opt, as if the plan had written it so) of every bench
 * benchmark whose buffer this machine's last-level cache holds, by the
 * smallest power of two that takes them all to twice its size (a buffer
 * just past it still finds most of its lines there), or the largest
 * smaller one under which the plan still fits memory and the hugepage
 * pools (a buffer the cache holds measures the cache, not memory).
 * *@factor is what they were multiplied by (1: none, also on a machine that
 * does not show its cache), *@llc the cache's size.  Returns 0 or an exit
 * code after log_err().
 */
int plan_past_cache(struct plan *p, unsigned *factor, uint64_t *llc);

/*
 * Call @fn with what each bench benchmark of @p needs for one run (@bytes in
 * pages of @page bytes, as its workload's resources() says) and with each
 * `requires` entry, so doctor can check a plan.  Returns 0 or an exit code.
 */
int plan_each_need(const struct plan *p, void (*fn)(void *arg, uint64_t bytes, uint64_t page), void *arg);

/* Assumed rates (bytes/sec) and the fixed guess for exec, stated by `plan show`. */
#define PLAN_RATE_CLEAR (5.0 * (1ULL << 30))	/* memset and clear, counting their untimed passes */
#define PLAN_RATE_MMAP (1.0 * (1ULL << 30))	/* mmap: faulting, the kernel's clear path */
#define PLAN_EXEC_GUESS_S 10.0

/* Estimated seconds for one invocation of @b at the assumed rates. */
double plan_estimate_s(const struct plan_bench *b);

/* Invocations of @b: sessions x (warmups + repeats). */
unsigned long plan_invocations(const struct plan_bench *b);

/*
 * The harness's units of work for @p's benchmarks, in plan order, into a new
 * array *@out of p->nbench units (free() it; its strings are @p's, so it
 * lives no longer than @p).  Returns 0 or EXIT_INTERNAL (out of memory).
 */
int plan_units(const struct plan *p, struct harness_unit **out);

#define PLAN_REGEX_MAX 512	/* characters of an exec regex */
#define PLAN_REGEX_DEPTH 32	/* nested groups */
#define PLAN_REGEX_BUDGET 4096	/* atoms once every repetition is expanded */
#define PLAN_STR_(x) #x
#define PLAN_STR(x) PLAN_STR_(x)

/*
 * Whether compiling the exec regex @re stays cheap: glibc's regcomp copies
 * an atom for each repetition, so '(x++++...)' doubles its memory per '+'.
 * Returns NULL, or why @re is refused: longer than PLAN_REGEX_MAX, groups
 * deeper than PLAN_REGEX_DEPTH, a repetition of a repetition, a
 * back-reference, or more than PLAN_REGEX_BUDGET atoms once expanded.
 */
const char *plan_regex_cost(const char *re);

/* Parse a duration ("90", "30s", "10m", "2h") into seconds.  0 or -EINVAL. */
int plan_parse_duration(const char *s, unsigned *seconds);

/* The edit distance between @a and @b (an upper bound beyond 64 characters). */
size_t plan_distance(const char *a, const char *b);

/*
 * Index of the string in @cands[0..n) closest to @word by edit distance
 * (the first on a tie), or -1 when @n is 0.  A word of any length has one.
 */
int plan_nearest(const char *word, const char *const *cands, size_t n);

#endif
