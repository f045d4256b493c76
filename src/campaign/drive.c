/* drive: the executor registry, and a campaign's targets advanced through their kind's executors (in parallel when it says so). */
#include "campaign/campaign.h"
#include "campaign/executor.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/session.h"
#include "util/log.h"

#define CAMPAIGN_EXECUTOR_ROW(k) &k,
static const struct campaign_executor_kind *const kinds[] = { CAMPAIGN_EXECUTORS(CAMPAIGN_EXECUTOR_ROW) };
#undef CAMPAIGN_EXECUTOR_ROW
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

const struct campaign_executor_kind *campaign_executor_for_target(const char *target)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (kinds[i]->claims(target))
			return kinds[i];
	return NULL;
}

const struct campaign_executor_kind *campaign_executor_named(const char *mode)
{
	for (size_t i = 0; mode && i < NKINDS; i++)
		if (!strcmp(kinds[i]->name, mode))
			return kinds[i];
	return NULL;
}

const struct campaign_executor_kind *campaign_executor_of(const struct campaign *c)
{
	const char *mode = json_string_value(json_object_get(c->spec, "mode"));
	const struct campaign_executor_kind *k = campaign_executor_named(mode);

	if (k)
		return k;
	log_err("campaign %lld runs in %s mode, which this clearpath does not know", (long long)c->row.id,
		mode ? mode : "no");
	return NULL;
}

int campaign_executor_open(const struct campaign_executor_kind *kind, const struct campaign *c, const char *target,
			   bool dry_run, struct campaign_executor *ex)
{
	memset(ex, 0, sizeof(*ex));
	ex->kind = kind;
	ex->target = target;
	ex->dry_run = dry_run;
	return kind->open(ex, c, target);
}

void campaign_executor_close(struct campaign_executor *ex)
{
	if (ex->kind && ex->kind->close)
		ex->kind->close(ex);
	memset(ex, 0, sizeof(*ex));
}

int campaign_begin(const struct campaign *c)
{
	const struct campaign_executor_kind *k = campaign_executor_of(c);

	if (!k)
		return EXIT_USAGE;
	return k->begin ? k->begin(c) : 0;
}

int campaign_resume(const struct campaign *c)
{
	const struct campaign_executor_kind *k = campaign_executor_of(c);

	if (!k)
		return EXIT_USAGE;
	return k->resume ? k->resume(c) : 0;
}

/* One target of @c, in this process: its executor opened, advanced, closed. */
static int drive_target(struct campaign *c, const struct campaign_executor_kind *k, const char *target, bool *detached)
{
	struct campaign_executor ex;
	int ret = campaign_executor_open(k, c, target, false, &ex);

	if (!ret)
		ret = campaign_advance(c, &ex, detached);
	campaign_executor_close(&ex);
	return ret;
}

/* Wait for every target's process; the first failure's exit code (a usage error wins). */
static int drive_wait(const pid_t *pids, size_t n)
{
	int worst = 0;

	for (size_t i = 0; i < n; i++) {
		int status, code;

		if (pids[i] <= 0)
			continue;
		while (waitpid(pids[i], &status, 0) < 0 && errno == EINTR)
			;
		code = WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_INTERNAL;
		if (code && (!worst || code == EXIT_USAGE))
			worst = code;
	}
	return worst;
}

/* Close each of the @n pipes @fds (two ends each) but the read end of @keep (n: none). */
static void drive_close_pipes(int *fds, size_t n, size_t keep)
{
	for (size_t i = 0; i < 2 * n; i++)
		if (fds[i] >= 0 && i != 2 * keep)
			close(fds[i]);
}

/*
 * In a target's process: the hold the controller took for every target's
 * process (campaign_hold_kids()), read from @fd into c->holder.  Nothing
 * (the controller could not take it, or died first): this process does nothing.
 */
static bool drive_kid_holder(struct campaign *c, int fd)
{
	size_t n = 0;
	ssize_t r;

	while (n < sizeof(c->holder) - 1 &&
	       ((r = read(fd, c->holder + n, sizeof(c->holder) - 1 - n)) > 0 || (r < 0 && errno == EINTR)))
		n += r > 0 ? (size_t)r : 0;
	c->holder[n] = '\0';
	close(fd);
	return n > 0;
}

/* The token c->holder written whole to @fd (a target's process waits for it). */
static void drive_give_holder(const struct campaign *c, int fd)
{
	size_t len = strlen(c->holder), n = 0;
	/* a process killed before it read it is no reason for this controller to die */
	void (*was)(int) = signal(SIGPIPE, SIG_IGN);
	ssize_t r;

	while (n < len && ((r = write(fd, c->holder + n, len - n)) > 0 || (r < 0 && errno == EINTR)))
		n += r > 0 ? (size_t)r : 0;
	signal(SIGPIPE, was);
}

/* Target @target's process: it waits for the hold naming every target's process, then advances its target. */
static void drive_kid(struct campaign *c, const struct campaign_executor_kind *k, const char *target, int *fds,
		      size_t n, size_t i)
{
	bool detached;
	int err = EXIT_RESOURCE;

	drive_close_pipes(fds, n, i);
	harness_stop_catch();
	if (drive_kid_holder(c, fds[2 * i]))
		err = drive_target(c, k, target, &detached);
	fflush(NULL);
	_exit(err);
}

/*
 * Every target in a process of its own, each with its own store connections
 * and ssh processes; the hold names them all, so a controller killed alone
 * still holds the campaign while they run.
 */
static int drive_parallel(struct campaign *c, const struct campaign_executor_kind *k, json_t *targets)
{
	size_t n = json_array_size(targets);
	pid_t *pids = calloc(n ? n : 1, sizeof(*pids));
	int *fds = malloc(2 * (n ? n : 1) * sizeof(*fds)), ret = 0, err;

	if (!pids || !fds) {
		log_err("out of memory");
		free(pids);
		free(fds);
		return EXIT_INTERNAL;
	}
	for (size_t i = 0; i < n; i++)
		if (pipe(fds + 2 * i)) {
			log_err("cannot make a pipe: %s", strerror(errno));
			fds[2 * i] = fds[2 * i + 1] = -1;
			ret = EXIT_INTERNAL;
		}
	fflush(NULL);
	for (size_t i = 0; !ret && i < n; i++) {
		const char *target = json_string_value(json_array_get(targets, i));

		pids[i] = fork();
		if (pids[i] == 0)
			drive_kid(c, k, target, fds, n, i);
		if (pids[i] < 0) {
			log_err("cannot start the process for %s: %s", target, strerror(errno));
			ret = EXIT_INTERNAL;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (fds[2 * i] >= 0)
			close(fds[2 * i]);
	/* a process that is not given the hold (closed unwritten) does nothing */
	if (!ret && !(ret = campaign_hold_kids(c, pids, n)))
		for (size_t i = 0; i < n; i++)
			drive_give_holder(c, fds[2 * i + 1]);
	for (size_t i = 0; i < n; i++)
		if (fds[2 * i + 1] >= 0)
			close(fds[2 * i + 1]);
	err = drive_wait(pids, n);
	free(pids);
	free(fds);
	return ret ? ret : err;
}

/* @c as the store has it now: each process saw its own target's boots only. */
static int drive_reload(struct campaign *c)
{
	char *url = c->store_url ? strdup(c->store_url) : NULL;
	int64_t id = c->row.id;
	int ret;

	if (c->store_url && !url) {
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	campaign_free(c);
	ret = campaign_load(url, id, false, c);
	free(url);
	return ret;
}

int campaign_drive(struct campaign *c, bool *detached)
{
	const struct campaign_executor_kind *k = campaign_executor_of(c);
	json_t *targets = campaign_targets(c), *v;
	size_t i;
	int ret = 0, err;

	*detached = false;
	if (!k)
		return EXIT_USAGE;
	/* one controller at a time: a second 'continue' (the unit's and the user's) waits its turn */
	if ((ret = campaign_hold(c)))
		return ret;
	if (k->process_per_target) {
		ret = drive_parallel(c, k, targets);
		if ((err = drive_reload(c)))
			return ret ? ret : err;
		/* every boot done: the campaign is, too (no target's process saw the others finish) */
		if (!ret && !strcmp(c->row.status, STORE_CAMPAIGN_RUNNING) && campaign_all_done(c)) {
			struct campaign_executor none = { .target = "" };

			ret = campaign_advance(c, &none, detached);
		}
	} else {
		json_array_foreach(targets, i, v)
			if (!ret && !*detached)
				ret = drive_target(c, k, json_string_value(v), detached);
	}
	/* a reboot that takes this controller down keeps the hold: the next boot's one takes it over */
	if (!*detached)
		campaign_unhold(c);
	if (!*detached && (strcmp(c->row.status, STORE_CAMPAIGN_RUNNING) || c->halted) && k->end && (err = k->end(c)))
		ret = ret ? ret : err;
	return ret;
}
