/* harness: run one bench command line with warmups, repeats and sessions, every sample into the store. */
#ifndef CLEARPATH_HARNESS_HARNESS_H
#define CLEARPATH_HARNESS_HARNESS_H

#include <stdbool.h>

struct harness_opts {
	unsigned warmups;	/* stored, flagged, never used in statistics */
	unsigned repeats;
	unsigned sessions;	/* each one a fresh process */
	unsigned max_failures;	/* consecutive failed invocations before a session stops */
	const char *sut;	/* class name override, or NULL for the detected one */
	const char *swprofile;	/* name override, or NULL for the kernel release */
	const char *store_url;	/* NULL: store_default_url() */
	bool quiet;		/* no progress line */
	bool force;		/* accept a swprofile name whose fingerprint changed */
	int bench_argc;		/* the bench command line: "mem", "mmap", options... */
	char **bench_argv;
};

/*
 * The parent side of `clearpath run`: check the command line and the
 * machine, register SUT and swprofile, then run each session in a fresh
 * process (re-executing this binary with @self_argv plus --session-child)
 * and wait for it.  Stops at the first session that fails; what it stored
 * stays, marked incomplete.  Returns an exit code.
 */
int harness_run(const struct harness_opts *o, int self_argc, char **self_argv);

/*
 * The child side: one session in this process: warmups then repeats of the
 * bench command line, every value committed as soon as it exists, failures
 * recorded as error rows.  Returns 0 when the session completed, or an exit
 * code when it stopped (store error, too many consecutive failures).
 */
int harness_session(const struct harness_opts *o);

#endif
