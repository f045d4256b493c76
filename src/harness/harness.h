/* harness: runs units of work with warmups and repeats in sessions, each a fresh process, resumably. */
#ifndef CLEARPATH_HARNESS_HARNESS_H
#define CLEARPATH_HARNESS_HARNESS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What every session of a run shares. */
struct harness_opts {
	unsigned max_failures;	/* consecutive failed invocations before a session stops (0: never) */
	const char *sut;	/* class name override, or NULL for the detected one */
	const char *swprofile;	/* name override, or NULL for the kernel release */
	const char *store_url;	/* NULL: the default store */
	bool quiet;		/* no progress line */
	bool force;		/* accept a swprofile name whose fingerprint changed */
	json_t *swprofile_extra;	/* more keys for the swprofile fingerprint (a campaign's sysctls), or NULL */
};

enum harness_kind {
	HARNESS_BENCH,		/* a workload invocation: a bench command line, run in-process */
	HARNESS_EXEC,		/* an external command whose output a regex reads */
};

/*
 * The harness's unit of work: one benchmark, invoked warmups + repeats
 * times in each of its sessions.  Strings are borrowed from the caller.
 */
struct harness_unit {
	enum harness_kind kind;
	/*
	 * Unique within a run: progress, resume, the stored order; for an exec
	 * also its result class and (whitespace made '-') its suite "exec/<id>".
	 */
	const char *id;
	int argc;		/* bench: the command line, argv[0] the collection ("mem") */
	char **argv;
	struct {
		const char *command;	/* run with /bin/sh -c */
		const char *regex;	/* POSIX extended; group 1 is the value */
		const char *unit;
		bool higher_is_better;
	} exec;
	unsigned warmups, repeats;
	unsigned sessions;	/* the unit runs in sessions 1..sessions of the run */
	unsigned timeout_s;	/* per invocation, 0: none */
	bool profile;		/* bench: sample as --profile does (a plan's profile: true) */
	unsigned profile_hz;	/* bench: a plan's profile_freq over the command line's (0: none) */
	const char *profile_event;	/* bench: a plan's profile_event ("cycles"), or NULL */
};

/*
 * A run: @units in sessions, each session a fresh process re-executing this
 * binary as @child_argv, which must bring the command back to the same
 * run and call harness_run_session() there.  A session runs the units whose
 * sessions reach it, in an order shuffled with seed + session index.
 */
struct harness_run {
	struct harness_opts opts;
	const struct harness_unit *units;
	size_t nunits;
	/*
	 * Resumable runs (plan run): the name their progress is kept under in the
	 * store, and each session's environment records the seed, the session
	 * and the order (keys plan_seed, plan_session, plan_sessions,
	 * plan_order).  NULL: a run that is not resumable.
	 */
	const char *name;
	json_t *env;		/* more keys for each session's environment, or NULL */
	unsigned scale;		/* recorded with the resume state (1: none) */
	uint64_t seed;		/* the shuffle seed when have_seed */
	bool have_seed;
	bool resume;		/* continue the interrupted run of @name */
	const char *resume_command;	/* for the hint when a named run stops, or NULL */
	char **child_argv;	/* argv[0] ignored: the binary re-executes itself */
	/*
	 * How the sessions are numbered where they are printed ("session
	 * 1a2b3c4d (5/10)"): after @label_first earlier ones, of @label_of in
	 * all; 0, 0: this run's own count (--until-decided adds sessions one run
	 * at a time, each of which would otherwise be "(1/1)").
	 */
	unsigned label_first, label_of;
};

/*
 * Parent side: register the SUT class and swprofile (a fingerprint conflict
 * stops the run before anything is measured), then run every session, each
 * in a child process, keeping the resume state of a named run in the store
 * until the run completes.  SIGTERM, SIGINT and SIGHUP are forwarded to the
 * session running, and the parent then dies of the same signal; a session
 * whose parent dies (even by SIGKILL) is stopped too, and the invocation it
 * was in never reaches the store.  Returns 0 or an exit code after log_err().
 */
int harness_run(struct harness_run *r);

/*
 * Child side: the session the parent asked for (a session started by hand
 * is the first), in this process.  Returns 0 when it completed, or an exit
 * code when it stopped (store error, too many consecutive failures).
 */
int harness_run_session(const struct harness_run *r);

/*
 * Shuffle @order[0..n) in place, deterministically for a given @seed
 * (splitmix64 driving Fisher-Yates), so a session's order can be replayed.
 */
void harness_shuffle(size_t *order, size_t n, uint64_t seed);

#endif
