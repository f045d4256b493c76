/* workload: the interface every benchmark workload implements, its option tables and its result record. */
#ifndef CLEARPATH_WORKLOADS_WORKLOAD_H
#define CLEARPATH_WORKLOADS_WORKLOAD_H

#include "profile/profile.h"
#include "util/counters.h"
#include "util/identity.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Options are data (as in fio): parsing, defaults, validation, --help and the
 * parameters written to JSON or the store all come from one table.
 */
enum wl_opt_type {
	WL_OPT_SIZE,	/* uint64_t, parsed by size_parse() */
	WL_OPT_UINT,	/* unsigned, decimal */
	WL_OPT_STR,	/* const char *, one of opt->choices when set */
	WL_OPT_FLAG,	/* bool, no argument */
};

struct wl_opt {
	char short_name;	/* 0: long option only */
	const char *long_name;
	enum wl_opt_type type;
	size_t offset;		/* of the value inside the workload's params struct */
	const char *def;	/* default, parsed like user input; NULL: zero */
	const char *metavar;
	const char *help;
	unsigned min, max;	/* WL_OPT_UINT bounds (max 0: none) */
	const char *const *choices;	/* WL_OPT_STR: NULL-terminated list, or NULL for any */
};

/* One selectable -f function of a workload. */
struct wl_func {
	const char *name;
	const char *desc;
	const char *why_not;	/* NULL when it can run on this machine */
	const void *impl;	/* the workload's own data (a kern_strategy, ...) */
	const char *note;	/* what this machine offers it, for -f help; may be NULL */
	/*
	 * Not one of perf's functions on this architecture: -f all (perf's set)
	 * leaves it out, -f all+ runs it.  A workload lists perf's first.
	 */
	bool extended;
};

/* The -f values that select sets: perf's functions here, and every function (perf's and clearpath's). */
#define WL_FUNCS_PERF "all"
#define WL_FUNCS_EVERY "all+"

/*
 * The functions of @f (@n of them) that the set selector @spec runs, in
 * order, into @sel (room for @n): "all" those not extended, "all+" every
 * one (those that cannot run here included: the run reports them skipped).
 * Returns whether @spec is a set selector; for a list of names it selects
 * nothing and returns false.
 */
bool wl_select_set(const char *spec, const struct wl_func *f, size_t n, const struct wl_func **sel,
		   size_t *nsel);

/* One number a run produces; metrics[0] of a result is the headline value. */
struct wl_metric {
	const char *name;	/* result-class suffix, "" for the headline */
	double value;
	const char *unit;
	bool higher_is_better;
};

/* mem clear: 4 rates, -c cycles, one per --counters event, --profile's clearing share and top symbols */
#define WL_MAX_METRICS 24
#define WL_MAX_FUNCS 32

/* What one function's run measured: every output format reads this record. */
struct wl_result {
	const char *function;
	uint64_t bytes;		/* bytes processed by one thread over all loops */
	unsigned loops;
	unsigned threads;
	uint64_t elapsed_ns;	/* timed region, summed over loops, mean over threads */
	uint64_t cpu_ns;	/* the CPU time its threads ran in it, likewise: elapsed less preemption */
	long minflt, majflt;	/* page faults inside the timed region */
	double cycles;		/* CPU cycles in the timed region with -c, else -1 */
	double thread_rel_stddev;	/* % spread of per-thread times when threads > 1 */
	char note[160];		/* one line of context, e.g. the THP mode in force */
	/* in: .on set by the driver for --counters; out: the headline timed region's counts */
	struct counters_totals counters;
	/* --profile: the run's profile (valid false: none could be taken, never zeros) */
	struct profile_summary profile;
	char profile_metric[PROFILE_TOP + 1][64];	/* the profile metrics' names */
	size_t nmetrics;
	struct wl_metric metrics[WL_MAX_METRICS];
};

/* What one function's run asks of the machine, and how it uses the memory (for time estimates). */
struct wl_resources {
	uint64_t bytes;		/* memory, in pages of @page bytes */
	uint64_t page;
	double write_passes;	/* times the bytes are written by a fill or clear, untimed passes included */
	double fault_passes;	/* times the bytes are faulted in on the timed path */
};

struct workload {
	const char *collection;	/* "mem" */
	const char *name;	/* "memset" */
	const char *summary;
	/*
	 * One of perf bench's workloads: `bench <collection> all` runs these,
	 * in the registry's order (perf's), and says it skips the others.
	 */
	bool perf;
	/*
	 * Terminated by an entry with long_name NULL.  The order is the
	 * display order of a benchmark (-k/-p, -f, -s, -l, then the rest):
	 * --help lists them so, and a stored benchmark shows them so.
	 */
	const struct wl_opt *opts;
	size_t function_at;	/* how many of opts come before the driver's -f in that order */
	size_t params_size;
	const char *default_function;
	/* Fill @out with the selectable functions; returns how many. */
	size_t (*functions)(struct wl_func *out, size_t max);
	/*
	 * Check the parsed parameters on their own, reading nothing of the
	 * machine (so plans validate anywhere): 0 or EXIT_USAGE after log_err().
	 * wl_parse() calls it; it may fill in defaults that depend on other
	 * options (an extent of one page).
	 */
	int (*check)(void *params);
	/*
	 * Check that this machine can run the checked parameters, before
	 * anything is allocated.  Returns 0, or an exit code after log_err().
	 */
	int (*prepare)(void *params);
	/* Run one function; fills @res.  Returns 0, or an exit code after log_err(). */
	int (*run)(const void *params, const struct wl_func *fn, struct wl_result *res);
	/* What one function's run asks of the machine (for plans, doctor and the fit checks). */
	void (*resources)(const void *params, struct wl_resources *res);
	/*
	 * How a plan scales this workload down to a smaller machine (plan
	 * --scale): the long name of the size option that is divided (never
	 * below one page), and the size options lowered to it only where they
	 * would exceed it (NULL-terminated, or NULL).  Every other option keeps
	 * its value: it is part of what the experiment is.
	 */
	const char *scaled_opt;
	const char *const *capped_opts;
};

/* A workload's option table has at most this many entries (wl_invocation.given is a bit mask). */
#define WL_MAX_OPTS 32

/* One parsed command line: what every output sink is told about. */
struct wl_invocation {
	const struct workload *wl;
	const void *params;
	const char *functions;	/* the -f value as given */
	bool counters;		/* --counters */
	uint32_t given;		/* bit i: opts[i] was on the command line */
	bool profile;		/* --profile */
	/*
	 * opts[i]'s value as typed ("4kb", "1073741824"), NULL when not given:
	 * perf echoes sizes so; params hold them normalised.
	 */
	const char *const *typed;
};

/* Receives the progress of an invocation: the perf text, simple, JSON outputs and the harness. */
struct wl_sink {
	void (*begin)(struct wl_sink *s, const struct wl_invocation *inv);
	void (*function)(struct wl_sink *s, const struct wl_invocation *inv, const struct wl_func *f);
	void (*skipped)(struct wl_sink *s, const struct wl_invocation *inv, const struct wl_func *f);
	void (*result)(struct wl_sink *s, const struct wl_invocation *inv, const struct wl_result *r);
	void (*end)(struct wl_sink *s, const struct wl_invocation *inv);
	void *priv;
	/* -f help: the workload's @n functions, each with why it cannot run here; NULL: say nothing. */
	void (*functions)(struct wl_sink *s, const struct wl_invocation *inv, const struct wl_func *f, size_t n);
};

/* Registry access (registry.c). */
size_t wl_count(void);
const struct workload *wl_at(size_t i);
const struct workload *wl_find(const char *collection, const char *name);

/* One parsed bench command line. */
struct wl_parsed {
	const struct workload *wl;
	void *params;		/* the workload's params struct, owned */
	const char *functions;	/* the -f value; points into the parsed argv */
	bool counters;		/* --counters: count perf events over the timed region */
	bool profile;		/* --profile: sample the timed region (profile_cfg) */
	struct profile_config profile_cfg;
	bool help;		/* --help was given and printed: nothing to run */
	uint32_t given;		/* bit i: wl->opts[i] was on the command line */
	const char *typed[WL_MAX_OPTS];	/* wl->opts[i]'s value as typed (the last one), or NULL */
};

/*
 * Parse one bench command line (@argv[0] is the collection) without running
 * it.  Returns 0 with *out filled (free with wl_parsed_free()), or an exit
 * code after log_err() with nothing to free.  *out refers to @argv's strings.
 */
int wl_parse(int argc, char **argv, struct wl_parsed *out);
void wl_parsed_free(struct wl_parsed *p);
/*
 * Check, without running anything, that the -f list of @p names functions
 * that exist and can run here ("all" and "help" pass), so `clearpath run`
 * refuses a typo before it creates a session.  Returns 0, or an exit code
 * after log_err(): 2 for an unknown function, 3 for one this machine cannot run.
 */
int wl_check_functions(const struct wl_parsed *p);
/* Check resources and run what @p selects, reporting to @sink.  Returns an exit code. */
int wl_run(const struct wl_parsed *p, struct wl_sink *sink);

/*
 * Parse and run one bench command line, @argv[0] being the collection
 * ("mem", "memset", "-s", "1MB", ...).  Reports through @sink.  Returns an
 * exit code (0 ok, 2 usage, 3 resource unavailable, 1 internal).
 */
int wl_invoke(int argc, char **argv, struct wl_sink *sink);

/*
 * The identity of one function of a parsed command line: the benchmark a
 * result belongs to in the store.  Every option of the workload's table is
 * a parameter, with its default when not given (so long and short
 * spellings, any order, and "-l 1" against no -l are one benchmark), sizes
 * normalised ("1024KB" is "1MB"); -f is @function.  --counters is not part
 * of it: counting adds result classes to the same benchmark.  The display
 * shows the options given and -f, in table order ("-k 1GB -f default -s
 * 16GB").  Returns 0, or -E2BIG when the table is too long for an identity.
 */
int wl_identity(const struct workload *wl, const void *params, uint32_t given, const char *function,
		struct bench_identity *out);

/*
 * The identity of a stored benchmark from its text: @suite ("mem/memset")
 * and @params (the display or any command line after the workload name).
 * -f stays as written (one function, a list or "all").  A suite that names
 * no workload, or options that do not parse, give ident_raw().  Logs
 * nothing.  Returns 0, or -E2BIG as wl_identity().
 */
int wl_identity_parse(const char *suite, const char *params, struct bench_identity *out);

/* Words a command line may have (after the workload name). */
#define WL_MAX_WORDS 64
/*
 * Split @buf at blanks (in place) into at most @max words of @tok, the one
 * tokeniser for command lines written as text (plans, stored benchmarks).
 * Returns the count, or -1 when there are more than @max.
 */
int wl_split(char *buf, char **tok, int max);

/* Format the value of @opt inside @params as text (for JSON, canonical names). */
void wl_opt_format(const struct wl_opt *opt, const void *params, char *buf, size_t len);

/* Add a metric to @res; returns it (NULL when the record is full). */
struct wl_metric *wl_result_add(struct wl_result *res, const char *name, double value,
				const char *unit, bool higher_is_better);

/*
 * Add a metric for every event of res->counters that has a value, named as
 * the event, normalised to the run (@page: the run's page size):
 *   task-clock        msec          CPU time per thread in the timed region
 *   page-faults       faults/page   per page of @page bytes touched
 *   context-switches  count         summed over threads
 *   cpu-migrations    count         summed over threads
 *   cycles            cycles/byte   (skipped when -c already added it)
 *   instructions      instructions/byte
 *   cache-misses      misses/KB
 *   dTLB-load-misses  misses/page
 * all lower-is-better.  An event without a value gets no metric, never a
 * zero.  Does nothing unless res->counters.on.
 */
void wl_counter_metrics(struct wl_result *res, uint64_t page);

/*
 * Add --profile's metrics when res->profile is valid, all in percent of the
 * samples, lower-is-better: "profile:clearing" (the clearing category's
 * share) and "profile:<symbol>" for each of the top symbols.  Nothing when
 * there is no profile.
 */
void wl_profile_metrics(struct wl_result *res);

#endif
