/* session: the harness's own pieces for one session process and for starting one (not for callers). */
#ifndef CLEARPATH_HARNESS_SESSION_H
#define CLEARPATH_HARNESS_SESSION_H

#include "harness/harness.h"

/*
 * Register the SUT class and the swprofile in the store.  Returns 0 or an
 * exit code after log_err().
 */
int harness_register(const struct harness_opts *o);

/*
 * One session in this process: each unit's warmups then repeats, each
 * invocation's values written in one transaction once it is over, failures
 * recorded as error rows.  @env_extra (may be NULL) is merged into the
 * session's environment snapshot.  With @resume (NULL: not resumable), each
 * unit completed is recorded in that run's resume state.  Returns 0 when the
 * session completed, or an exit code when it stopped (store error, too many
 * consecutive failures).
 */
struct store_run_key;
int harness_session(const struct harness_opts *o, const struct harness_unit *units, size_t n,
		    json_t *env_extra, const struct store_run_key *resume);

/* A named run's key in the store: its plan, SUT class, swprofile and host; the names live in @buf. */
struct harness_run_key {
	char sut[256], swprofile[256], host[256];	/* the defaults, when not given */
};
int harness_run_key(const struct harness_run *r, struct harness_run_key *buf, struct store_run_key *k);

/*
 * Run @argv (argv[0] ignored: this binary re-executes itself) as session
 * @session_no's process and wait for it.  The child dies with this process
 * (PR_SET_PDEATHSIG); a stop signal this process gets while it waits is
 * forwarded to it.  Returns its exit code, EXIT_INTERNAL after log_err()
 * when it died of a signal, or EXIT_RESOURCE when an invocation timed out.
 */
int harness_spawn(char **argv, unsigned session_no);

/*
 * Run @cmd with /bin/sh -c as a child that the stop signals reach (passed
 * down as to a session, not ignored as system() does), and wait for it:
 * *@status is its wait status.  0, or an exit code after log_err() when it
 * could not be started.
 */
int harness_spawn_shell(const char *cmd, int *status);

/*
 * The stop signal (SIGTERM, SIGINT, SIGHUP) this parent got since
 * harness_stop_catch(), or 0.  harness_stop_catch() installs the handlers
 * (leaving a signal ignored at start ignored); harness_stop_die() restores
 * the default and dies of the signal caught, when there was one.
 */
int harness_stop_signal(void);
void harness_stop_catch(void);
void harness_stop_die(void);

/*
 * In a session process: on a stop signal, kill the external command running
 * (harness_exec's process group), then die of the signal.
 */
void harness_session_signals(void);

#endif
