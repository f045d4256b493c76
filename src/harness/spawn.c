/* spawn: session processes that live and die with their parent, and stop signals passed down to them. */
#include "harness/session.h"
#include "harness/exec.h"
#include "util/log.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static const int stop_signals[] = { SIGTERM, SIGINT, SIGHUP };
#define NSTOP (sizeof(stop_signals) / sizeof(stop_signals[0]))

static volatile sig_atomic_t stop_caught;	/* the stop signal the parent got, 0: none */
static volatile sig_atomic_t session_pid;	/* the session process running, 0: none */

static void stop_set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < NSTOP; i++)
		sigaddset(set, stop_signals[i]);
}

/* Parent: remember the signal and pass it to the session, which then stops as the parent will. */
static void stop_forward(int sig)
{
	pid_t pid = session_pid;

	stop_caught = sig;
	if (pid > 0)
		kill(pid, sig);
}

/* Install @handler for each stop signal, except one ignored at start (nohup, `cmd &` in a script). */
static void stop_install(void (*handler)(int))
{
	for (size_t i = 0; i < NSTOP; i++) {
		struct sigaction sa = { 0 }, old;

		if (sigaction(stop_signals[i], NULL, &old) || old.sa_handler == SIG_IGN)
			continue;
		sa.sa_handler = handler;
		sigemptyset(&sa.sa_mask);
		sigaction(stop_signals[i], &sa, NULL);
	}
}

void harness_stop_catch(void)
{
	stop_install(stop_forward);
}

int harness_stop_signal(void)
{
	return stop_caught;
}

void harness_stop_die(void)
{
	int sig = stop_caught;

	if (!sig)
		return;
	fflush(NULL);
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * Session process: the measurement in flight is abandoned, not finished:
 * its values are only written once it is over, so dying now leaves no half
 * of it in the store.  An external command goes first, since it runs in a
 * process group of its own that the signal did not reach.
 */
static void stop_session(int sig)
{
	harness_exec_kill_running();
	signal(sig, SIG_DFL);
	raise(sig);
}

void harness_session_signals(void)
{
	stop_install(stop_session);
}

/*
 * Replace this process with a fresh run of the binary running now, whatever
 * PATH says.  Under a user-mode emulator the kernel cannot run this binary
 * itself unless binfmt_misc knows the emulator, so $CLEARPATH_EMULATOR (a
 * program such as qemu-aarch64-static) runs it, as it ran this process.
 * Returns only when that failed, with errno set.
 */
static void spawn_reexec(char **argv)
{
	const char *emu = getenv("CLEARPATH_EMULATOR");
	char self[4096];
	ssize_t n;
	size_t argc = 0;

	if (!emu || !*emu) {
		execv("/proc/self/exe", argv);
		return;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		return;
	self[n] = '\0';
	while (argv[argc])
		argc++;
	{
		char *eargv[argc + 2];	/* emulator, binary, argv[1..argc] with its NULL */

		eargv[0] = (char *)emu;
		eargv[1] = self;
		for (size_t i = 1; i <= argc; i++)
			eargv[i + 1] = argv[i];
		execvp(emu, eargv);
	}
}

/* The forked child: die with the parent, then become the session process. */
static void spawn_child(char **argv, pid_t parent, const sigset_t *mask)
{
	/* SIGTERM, so the session's handler stops an external command too; kept across execv */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	/* the parent may have died before prctl: then nobody is waiting for this session */
	if (getppid() != parent)
		_exit(EXIT_INTERNAL);
	/* a signal forwarded before execv must stop this child, not run the parent's handler here */
	stop_install(SIG_DFL);
	sigprocmask(SIG_SETMASK, mask, NULL);
	spawn_reexec(argv);
	log_err("cannot re-execute clearpath for a session: %s", strerror(errno));
	if (errno == ENOEXEC)
		log_hint("an emulated clearpath needs CLEARPATH_EMULATOR set to its emulator (or binfmt_misc)");
	_exit(EXIT_INTERNAL);
}

int harness_spawn(char **argv, unsigned session_no)
{
	pid_t parent = getpid(), pid;
	sigset_t stop, old;
	int status;

	fflush(NULL);
	/* blocked across fork: a stop signal arriving now is forwarded once session_pid is set */
	stop_set(&stop);
	sigprocmask(SIG_BLOCK, &stop, &old);
	pid = fork();
	if (pid == 0)
		spawn_child(argv, parent, &old);
	if (pid > 0)
		session_pid = pid;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid < 0) {
		log_err("cannot start a session process: %s", strerror(errno));
		return EXIT_RESOURCE;
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			session_pid = 0;
			return EXIT_INTERNAL;
		}
	}
	session_pid = 0;
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
		log_err("session %u stopped: an invocation ran past its timeout; what it stored is kept, marked incomplete",
			session_no);
		return EXIT_RESOURCE;
	}
	if (WIFSIGNALED(status) && WTERMSIG(status) == stop_caught) {
		log_err("session %u stopped by signal %d (%s); what it stored is kept, marked incomplete",
			session_no, WTERMSIG(status), strsignal(WTERMSIG(status)));
		return EXIT_INTERNAL;
	}
	if (WIFSIGNALED(status)) {
		log_err("session %u died with signal %d; what it stored is kept, marked incomplete",
			session_no, WTERMSIG(status));
		return EXIT_INTERNAL;
	}
	return WEXITSTATUS(status);
}

int harness_spawn_shell(const char *cmd, int *status)
{
	pid_t pid;
	sigset_t stop, old;

	fflush(NULL);
	stop_set(&stop);
	sigprocmask(SIG_BLOCK, &stop, &old);
	pid = fork();
	if (pid == 0) {
		stop_install(SIG_DFL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		session_pid = pid;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid < 0) {
		log_err("cannot start '%s': %s", cmd, strerror(errno));
		return EXIT_RESOURCE;
	}
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR) {
			session_pid = 0;
			log_err("cannot wait for '%s': %s", cmd, strerror(errno));
			return EXIT_INTERNAL;
		}
	session_pid = 0;
	return 0;
}
