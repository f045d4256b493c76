/* progress: the "step i/N, elapsed, ETA" line of `clearpath run`, carried across session processes. */
#ifndef CLEARPATH_HARNESS_PROGRESS_H
#define CLEARPATH_HARNESS_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct progress {
	bool enabled;		/* stderr is a terminal and not --quiet */
	bool printed;
	unsigned session, sessions;	/* 1-based index of this session, and how many */
	unsigned step, steps;	/* steps done overall, and the total */
	uint64_t t0_ns;		/* when the run started (CLOCK_MONOTONIC is system-wide) */
};

/* Parent: remember when the run started. */
void progress_start(void);
/*
 * Parent: tell the process of session @session (1-based, of @sessions) where
 * the run stands, via the environment: @done steps before it, @total in all.
 */
void progress_to_env(unsigned session, unsigned sessions, unsigned done, unsigned total);
/* Child: pick up where the run stands; a session started by hand is session 1 of 1. */
void progress_from_env(struct progress *p, bool quiet);
/* One invocation finished: redraw the line. */
void progress_step(struct progress *p);
/* The session is over: end the line. */
void progress_done(struct progress *p);

#endif
