/* harness: run benchmarks with warmups and repeats in sessions, every sample into the store at once. */
#ifndef CLEARPATH_HARNESS_HARNESS_H
#define CLEARPATH_HARNESS_HARNESS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct plan_bench;

/* What every session of a run shares. */
struct harness_opts {
	unsigned max_failures;	/* consecutive failed invocations before a session stops (0: never) */
	const char *sut;	/* class name override, or NULL for the detected one */
	const char *swprofile;	/* name override, or NULL for the kernel release */
	const char *store_url;	/* NULL: the default store */
	bool quiet;		/* no progress line */
	bool force;		/* accept a swprofile name whose fingerprint changed */
};

/* One benchmark of a session: a bench command line, or an external command (plan exec). */
struct harness_unit {
	const char *id;		/* for progress, summaries and resume */
	int argc;		/* bench: the command line, argv[0] the collection ("mem") */
	char **argv;
	const struct plan_bench *exec;	/* exec: the plan's benchmark (command, regex, unit), else NULL */
	unsigned warmups, repeats;
	unsigned timeout_s;	/* per invocation, 0: none */
};

/* Called after each unit of a session completed; nonzero stops the session. */
typedef int (*harness_done_fn)(void *arg, const struct harness_unit *u);

/*
 * Parent side, before the first session: register the SUT class and the
 * swprofile in the store, so a fingerprint conflict stops the run before
 * anything is measured.  Returns 0 or an exit code after log_err().
 */
int harness_register(const struct harness_opts *o);

/*
 * One session in this process: each unit's warmups then repeats, every value
 * committed as soon as it exists, failures recorded as error rows.  @env_extra
 * (may be NULL) is merged into the session's environment snapshot.  Returns
 * 0 when the session completed, or an exit code when it stopped (store error,
 * too many consecutive failures, @done asked to stop).
 */
int harness_session(const struct harness_opts *o, const struct harness_unit *units, size_t n,
		    json_t *env_extra, harness_done_fn done, void *arg);

/*
 * Run @argv (argv[0] ignored: this binary re-executes itself) as a fresh
 * session process and wait for it.  Returns its exit code, or
 * EXIT_INTERNAL after log_err() when it died of a signal.
 */
int harness_spawn(char **argv, unsigned session_no);

#endif
