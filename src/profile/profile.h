/* profile: --profile, a sampled kernel and user profile of the timed region, and its page-clearing share. */
#ifndef CLEARPATH_PROFILE_PROFILE_H
#define CLEARPATH_PROFILE_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Symbols a profile keeps beside the clearing share (the rest only count in the total). */
#define PROFILE_TOP 5
/* A symbol's name as kept: long C++ or LTO names are cut, the share is what matters. */
#define PROFILE_NAME_MAX 48
/*
 * The default sampling frequency.  Each sample is a timer interrupt, and
 * what --profile adds to a result is the interrupts' cost: frequency x cost
 * per sample.  That cost is about 1-2 us on bare metal but 30-60 us of CPU
 * time in a KVM guest (the interrupt and the timer's re-arm are VM exits),
 * where 4 kHz slowed mmap demand faults by 15-30%.
 * 100 Hz keeps the change under 1% there (about 0.3-0.5%, bench/profile),
 * and still resolves a share: n samples give it a standard error of
 * sqrt(p(1-p)/n), at most 5 points for one second of region (n = 100),
 * 2 points for a 95% share; regions add up over -l loops and threads.
 */
#define PROFILE_DEFAULT_HZ 100

/* What to sample with. */
enum profile_event {
	PROFILE_CPU_CLOCK,	/* the cpu-clock software event: works everywhere, VMs included */
	PROFILE_CYCLES,		/* the hardware cycle counter, where the hardware offers one */
};

struct profile_config {
	enum profile_event event;
	unsigned hz;		/* samples per second per thread */
};

/* The highest --profile-freq (and a plan's profile_freq): samples per second per thread. */
#define PROFILE_MAX_HZ 100000

/* "cpu-clock" or "cycles": the --profile-event name of @e. */
const char *profile_event_name(enum profile_event e);
/* The event named @name ("cpu-clock", "cycles") into *@e: 0, or -EINVAL for another name (*@e unchanged). */
int profile_event_parse(const char *name, enum profile_event *e);

/* One symbol's share of a profile. */
struct profile_sym {
	char name[PROFILE_NAME_MAX + 16];	/* "clear_page_erms", or "memset@libc.so.6" in user space */
	bool kernel;
	bool clearing;		/* in the clearing category */
	double share;		/* percent of the samples */
};

/* What one profiled result carries: never zeros standing in for a profile that was not taken. */
struct profile_summary {
	bool on;		/* --profile was asked for */
	bool valid;		/* there is a profile: false when it could not be taken (a warning said why) */
	uint64_t samples;	/* samples over every thread and timed region */
	uint64_t lost;		/* samples the kernel dropped (ring full): the shares are of the others */
	struct profile_config cfg;	/* how it was sampled (event and frequency): results say so */
	double clearing;	/* percent of the samples in the clearing category */
	size_t ntop;
	struct profile_sym top[PROFILE_TOP];
	char why[256];		/* !valid: why there is no profile */
};

/* ---- prerequisites (access.c) ---- */

/*
 * Whether a profile with kernel addresses can be taken here, judged from the
 * settings as the kernel would (read through sysfs_set_root(), so fixtures
 * can stand in): perf_event_paranoid, kptr_restrict, and the capabilities
 * in /proc/self/status.  0 when it can; else a negative errno with @why
 * (a sentence naming the setting) and @fix (the command that lifts it).
 */
int profile_access(char *why, size_t whylen, char *fix, size_t fixlen);

/* ---- sampling of the timed region (sampler.c) ---- */

/*
 * Start collecting for one run with @cfg: every thread's wl_timer that opens
 * from now on samples its timed regions into this process's collection.
 * Checks profile_access() first: returns 0, or -errno after one warning
 * (per process) naming the setting and the fix; then nothing is sampled.
 */
int profile_begin(const struct profile_config *cfg);
/* Whether a collection is running (wl_timer_init asks). */
bool profile_active(void);
/*
 * Stop collecting and resolve what was sampled into @out (on = true; valid
 * only when samples were taken and resolved).  Safe without profile_begin():
 * then @out says off.
 */
void profile_end(struct profile_summary *out);

/* One thread's sampling event and ring buffer. */
struct profile_thread {
	int fd;			/* -1: not sampling */
	void *ring;
	size_t ring_len;
};

/*
 * Open the calling thread's sampling event, disabled.  A failure is
 * recorded in the collection (the run then has no profile) and leaves
 * @t not sampling.
 */
void profile_thread_open(struct profile_thread *t);
/* Enable right before the timed region; disable right after it. */
void profile_thread_start(struct profile_thread *t);
void profile_thread_stop(struct profile_thread *t);
/* Move the ring's samples into the run's collection: after stop, outside every other measurement. */
void profile_thread_collect(struct profile_thread *t);
void profile_thread_close(struct profile_thread *t);

/* ---- symbols (symbols.c) ---- */

/* Kernel symbols from a kallsyms file, sorted by address. */
struct profile_ksyms;
/*
 * Load @path (read through sysfs_set_root(); "/proc/kallsyms") keeping text
 * symbols.  NULL with errno set: ENOENT/EACCES when it cannot be read,
 * EPERM when every address reads as zero (kptr_restrict hides them).
 */
struct profile_ksyms *profile_ksyms_load(const char *path);
/* The kernel symbol containing @addr, or NULL (below the first, or past _etext). */
const char *profile_ksyms_find(const struct profile_ksyms *k, uint64_t addr);
void profile_ksyms_free(struct profile_ksyms *k);

/* User-space symbols of this process's loaded objects (elfutils' libdwfl). */
struct profile_usyms;
/*
 * NULL when the process's maps cannot be read (errno set), or ENOTSUP in a
 * build without libdw (WITH_LIBDW=0): user samples are then named "[user]".
 */
struct profile_usyms *profile_usyms_self(void);
/*
 * The symbol containing @addr as "name@object" ("name" in the main program),
 * into @buf; false when no loaded object or symbol holds it.
 */
bool profile_usyms_find(struct profile_usyms *u, uint64_t addr, char *buf, size_t len);
void profile_usyms_free(struct profile_usyms *u);

/* One sampled address and whether the kernel was running. */
struct profile_ip {
	uint64_t ip;
	bool kernel;
};

/*
 * Resolve @n samples (sorted in place) against @k and @u into @out's shares,
 * clearing share and top symbols.  Marks @out valid when @n > 0.  0 or -ENOMEM.
 */
int profile_resolve(struct profile_ip *ips, size_t n, const struct profile_ksyms *k,
		    struct profile_usyms *u, struct profile_summary *out);

/* ---- the clearing category (clearing.c) ---- */

/*
 * Whether kernel symbol @name is one of @arch's page-clearing functions
 * ("x86_64" or "aarch64"; NULL: this build's).  Compiler suffixes
 * (".cold", ".isra.0", ".constprop.0") are ignored.
 */
bool profile_is_clearing(const char *name, const char *arch);
/* The patterns of @arch's category, NULL-terminated (for --help and docs). */
const char *const *profile_clearing_patterns(const char *arch);

/* ---- output ---- */

/*
 * The standard error, in points, of share @pct (percent) estimated from @n
 * samples: sqrt(p(1-p)/n), p and n adjusted (Agresti-Coull) so that a share
 * of few samples never looks exact.
 */
double profile_share_stderr(double pct, uint64_t n);
/*
 * "clearing 97.8% of 4012 samples (cpu-clock at 100 Hz, standard error 0.2
 * points): a change of X% in the clearing routine moves this result by at
 * most 0.98 x X%" into @buf.
 */
void profile_bound_text(const struct profile_summary *p, char *buf, size_t len);

#endif
