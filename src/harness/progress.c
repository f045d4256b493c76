/* progress: a single self-overwriting status line on stderr, only when stderr is a terminal. */
#include "harness/progress.h"
#include "util/clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define PROGRESS_ENV "CLEARPATH_PROGRESS"
#define PROGRESS_T0_ENV "CLEARPATH_PROGRESS_T0"

void progress_start(void)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)clock_now_ns());
	setenv(PROGRESS_T0_ENV, buf, 1);
}

void progress_to_env(unsigned session, unsigned sessions, unsigned done, unsigned total)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "%u %u %u %u %s", session, sessions, done, total,
		 getenv(PROGRESS_T0_ENV) ?: "0");
	setenv(PROGRESS_ENV, buf, 1);
}

void progress_from_env(struct progress *p, bool quiet)
{
	const char *env = getenv(PROGRESS_ENV);
	unsigned long long t0 = 0;

	*p = (struct progress){ .session = 1, .sessions = 1 };
	if (!env || sscanf(env, "%u %u %u %u %llu", &p->session, &p->sessions, &p->step, &p->steps,
			   &t0) != 5 || p->session < 1 || p->session > p->sessions) {
		p->session = p->sessions = 1;
		p->step = p->steps = 0;
	}
	p->t0_ns = t0;
	if (!p->t0_ns)
		p->t0_ns = clock_now_ns();
	p->enabled = !quiet && isatty(STDERR_FILENO);
}

static void progress_duration(double s, char *buf, size_t len)
{
	if (s < 60)
		snprintf(buf, len, "%.0fs", s);
	else if (s < 3600)
		snprintf(buf, len, "%.0fm%02.0fs", s / 60 - 0.5, (double)((long)s % 60));
	else
		snprintf(buf, len, "%.0fh%02ldm", s / 3600 - 0.5, ((long)s % 3600) / 60);
}

void progress_step(struct progress *p)
{
	double elapsed;
	char el[32], eta[32] = "?";

	p->step++;
	if (!p->enabled)
		return;
	elapsed = (double)(clock_now_ns() - p->t0_ns) / 1e9;
	progress_duration(elapsed, el, sizeof(el));
	if (p->steps && p->step)
		progress_duration(elapsed * (p->steps - p->step) / p->step, eta, sizeof(eta));
	fprintf(stderr, "\rclearpath: session %u/%u  step %u/%u  elapsed %s  ETA %s   ", p->session,
		p->sessions, p->step, p->steps ?: p->step, el, eta);
	fflush(stderr);
	p->printed = true;
}

void progress_done(struct progress *p)
{
	if (p->printed)
		fputc('\n', stderr);
	p->printed = false;
}
