/* exec: run a plan's external command under /bin/sh with a deadline, capturing stdout and stderr. */
#include "harness/exec.h"
#include "util/log.h"
#include "util/clock.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define EXEC_MAX_OUT (16u << 20)	/* keep at most this much stdout */

/* The process group of the command running now (0: none), for harness_exec_kill_running(). */
static volatile sig_atomic_t exec_running;

struct exec_buf {
	char *data;
	size_t len, cap;
};

static void exec_append(struct exec_buf *b, const char *p, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;
		char *d = cap <= EXEC_MAX_OUT ? realloc(b->data, cap) : NULL;

		if (!d)
			return;	/* keep what fits: the regex looks at the start */
		b->data = d;
		b->cap = cap;
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

/* Keep the last part of stderr as one line. */
static void exec_tail(struct harness_exec_result *r, const struct exec_buf *err)
{
	const char *start = err->len > sizeof(r->err_tail) - 1 ? err->data + err->len - (sizeof(r->err_tail) - 1)
							       : err->data;

	snprintf(r->err_tail, sizeof(r->err_tail), "%s", err->len ? start : "(empty)");
	for (char *c = r->err_tail; *c; c++)
		if (*c == '\n' || *c == '\r' || *c == '\t')
			*c = ' ';
}

/*
 * Fork the shell with the stop signals blocked, so a session process that is
 * told to stop always knows the group to kill first.
 */
static pid_t exec_start(const char *command, int out[2], int err[2])
{
	sigset_t stop, old;
	pid_t pid;

	if (pipe(out) || pipe(err))
		return -1;
	sigemptyset(&stop);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop, &old);
	pid = fork();
	if (pid > 0)
		exec_running = pid;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid == 0) {
		setpgid(0, 0);	/* one group, so a timeout kills what the shell started too */
		/* and a session process killed without a chance to kill the group takes the shell along */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(out[1], STDOUT_FILENO);
		dup2(err[1], STDERR_FILENO);
		close(out[0]);
		close(err[0]);
		execl("/bin/sh", "sh", "-c", command, (char *)NULL);
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	return pid;
}

/* Read both pipes until they close or the deadline passes. */
static bool exec_collect(int out_fd, int err_fd, uint64_t deadline, struct exec_buf *out,
			 struct exec_buf *err)
{
	struct pollfd fds[2] = { { out_fd, POLLIN, 0 }, { err_fd, POLLIN, 0 } };
	struct exec_buf *bufs[2] = { out, err };
	int open = 2;

	while (open) {
		int wait_ms = -1;
		char chunk[4096];

		if (deadline) {
			uint64_t now = clock_now_ns();

			if (now >= deadline) {
				for (int i = 0; i < 2; i++)
					if (fds[i].fd >= 0)
						close(fds[i].fd);
				return true;
			}
			wait_ms = (int)((deadline - now) / 1000000) + 1;
		}
		if (poll(fds, 2, wait_ms) < 0 && errno != EINTR)
			break;
		for (int i = 0; i < 2; i++) {
			ssize_t n;

			if (fds[i].fd < 0 || !fds[i].revents)
				continue;
			n = read(fds[i].fd, chunk, sizeof(chunk));
			if (n > 0) {
				exec_append(bufs[i], chunk, (size_t)n);
			} else {
				close(fds[i].fd);
				fds[i].fd = -1;
				open--;
			}
		}
	}
	return false;
}

int harness_exec(const char *command, unsigned timeout_s, struct harness_exec_result *r)
{
	struct exec_buf out = { 0 }, err = { 0 };
	int po[2] = { -1, -1 }, pe[2] = { -1, -1 }, status = 0;
	uint64_t deadline = timeout_s ? clock_now_ns() + (uint64_t)timeout_s * 1000000000ULL : 0;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	fflush(NULL);
	pid = exec_start(command, po, pe);
	if (pid < 0) {
		log_err("cannot start '%s': %s", command, strerror(errno));
		return EXIT_RESOURCE;
	}
	r->timed_out = exec_collect(po[0], pe[0], deadline, &out, &err);
	if (r->timed_out)
		kill(-pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	exec_running = 0;
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	r->out = out.data;
	exec_tail(r, &err);
	free(err.data);
	return 0;
}

void harness_exec_free(struct harness_exec_result *r)
{
	free(r->out);
	r->out = NULL;
}

void harness_exec_kill_running(void)
{
	pid_t pid = exec_running;

	if (pid > 0)
		kill(-pid, SIGKILL);
}

int harness_exec_extract(const char *regex, const char *output, double *value)
{
	regmatch_t m[2];
	regex_t re;
	char num[64], *end;
	size_t len;
	int ret = -ENOENT;

	if (regcomp(&re, regex, REG_EXTENDED))
		return -EINVAL;
	if (regexec(&re, output, 2, m, 0) || m[1].rm_so < 0)
		goto out;
	len = (size_t)(m[1].rm_eo - m[1].rm_so);
	if (len == 0 || len >= sizeof(num))
		goto out;
	memcpy(num, output + m[1].rm_so, len);
	num[len] = '\0';
	errno = 0;
	*value = strtod(num, &end);
	ret = -EDOM;
	if (end == num)
		goto out;
	/* "(.*)" takes the line's newline too: blanks after the number are no reason to refuse it */
	while (isspace((unsigned char)*end))
		end++;
	/* nan, inf and 1e999 are numbers to strtod but no measurement: the store takes finite values */
	if (*end == '\0')
		ret = isfinite(*value) && !(errno == ERANGE && fabs(*value) > 1) ? 0 : -ERANGE;
out:
	regfree(&re);
	return ret;
}
