/* sampler: per-thread perf_event_open sampling enabled only over timed regions, collected process-wide for one run. */
#include "profile/profile.h"
#include "util/log.h"
#include "util/perfctr.h"
#include "util/sysfs.h"

#include <errno.h>
#include <math.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * Data pages of each thread's ring: 64 x 4KB holds 16K samples of 16 bytes,
 * four seconds of one thread at 4 kHz between two drains.  A region longer
 * than that loses samples (counted, never invented): the shares stay those
 * of the samples kept.  An unprivileged user may lock only
 * perf_event_mlock_kb (516KB) of rings in all, so with many threads a ring
 * halves down to SAMPLER_RING_MIN pages before the profile gives up.
 */
#define SAMPLER_RING_PAGES 64
#define SAMPLER_RING_MIN 4

/* The run being profiled: what every thread's stop appends to. */
static struct {
	pthread_mutex_t lock;
	bool active;		/* between profile_begin() and profile_end() */
	bool refused;		/* profile_begin() found it cannot work: the run has no profile */
	struct profile_config cfg;
	struct profile_ip *ips;
	size_t n, cap;
	uint64_t lost;
	int err;		/* a thread could not sample (first -errno): no profile */
	char why[256];		/* refused: why */
} coll = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Kernel and user symbols, loaded once per process: neither changes while clearpath runs. */
static struct profile_ksyms *cached_ksyms;
static int ksyms_err;
static unsigned ksyms_gen;
static struct profile_usyms *cached_usyms;

static void sampler_warn_once(const char *why, const char *fix)
{
	static bool warned;

	if (warned)
		return;
	warned = true;
	log_warn("no profile: %s", why);
	if (fix && fix[0])
		log_hint("%s", fix);
}

int profile_begin(const struct profile_config *cfg)
{
	char why[256], fix[128];
	int ret = profile_access(why, sizeof(why), fix, sizeof(fix));

	pthread_mutex_lock(&coll.lock);
	free(coll.ips);
	coll.ips = NULL;
	coll.n = coll.cap = 0;
	coll.lost = 0;
	coll.err = 0;
	coll.cfg = *cfg;
	coll.refused = ret != 0;
	coll.active = ret == 0;
	snprintf(coll.why, sizeof(coll.why), "%s", why);
	pthread_mutex_unlock(&coll.lock);
	if (ret)
		sampler_warn_once(why, fix);
	return ret;
}

bool profile_active(void)
{
	bool on;

	pthread_mutex_lock(&coll.lock);
	on = coll.active;
	pthread_mutex_unlock(&coll.lock);
	return on;
}

static void sampler_fail(int err)
{
	pthread_mutex_lock(&coll.lock);
	if (!coll.err)
		coll.err = err;
	pthread_mutex_unlock(&coll.lock);
}

static void sampler_attr(struct perf_event_attr *a, const struct profile_config *cfg)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->sample_type = PERF_SAMPLE_IP;
	a->disabled = 1;	/* enabled around each timed region only */
	a->exclude_hv = 1;
	if (cfg->event == PROFILE_CYCLES) {
		a->type = PERF_TYPE_HARDWARE;
		a->config = PERF_COUNT_HW_CPU_CYCLES;
		a->freq = 1;
		a->sample_freq = cfg->hz;
	} else {
		/* cpu-clock counts nanoseconds: a fixed period is the frequency exactly */
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_CPU_CLOCK;
		a->sample_period = 1000000000ull / cfg->hz;
	}
}

void profile_thread_open(struct profile_thread *t)
{
	struct profile_config cfg;
	struct perf_event_attr attr;
	long page = sysconf(_SC_PAGESIZE);
	long fd;

	t->fd = -1;
	t->ring = NULL;
	pthread_mutex_lock(&coll.lock);
	cfg = coll.cfg;
	if (!coll.active) {
		pthread_mutex_unlock(&coll.lock);
		return;
	}
	pthread_mutex_unlock(&coll.lock);
	sampler_attr(&attr, &cfg);
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		sampler_fail(-errno);
		return;
	}
	for (size_t pages = SAMPLER_RING_PAGES; pages >= SAMPLER_RING_MIN; pages /= 2) {
		t->ring_len = (size_t)page * (1 + pages);
		t->ring = mmap(NULL, t->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED, (int)fd, 0);
		if (t->ring != MAP_FAILED || errno != EPERM)
			break;
	}
	if (t->ring == MAP_FAILED) {
		sampler_fail(-errno);
		t->ring = NULL;
		close((int)fd);
		return;
	}
	t->fd = (int)fd;
}

void profile_thread_start(struct profile_thread *t)
{
	if (t->fd >= 0 && ioctl(t->fd, PERF_EVENT_IOC_ENABLE, 0))
		sampler_fail(-errno);
}

/* Copy @len bytes at ring offset @off (wrapping) of the data area @data of @size bytes. */
static void ring_copy(const char *data, uint64_t size, uint64_t off, void *dst, size_t len)
{
	size_t at = (size_t)(off % size), first = len < size - at ? len : (size_t)(size - at);

	memcpy(dst, data + at, first);
	memcpy((char *)dst + first, data, len - first);
}

static int sampler_append(const struct profile_ip *ip)
{
	if (coll.n == coll.cap) {
		size_t ncap = coll.cap ? coll.cap * 2 : 16384;
		struct profile_ip *p = realloc(coll.ips, ncap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		coll.ips = p;
		coll.cap = ncap;
	}
	coll.ips[coll.n++] = *ip;
	return 0;
}

/* Move every record of @t's ring into the collection (called with the lock held). */
static void sampler_drain(struct profile_thread *t)
{
	struct perf_event_mmap_page *meta = t->ring;
	const char *data = (const char *)t->ring + meta->data_offset;
	uint64_t size = meta->data_size, head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = meta->data_tail;

	while (tail + sizeof(struct perf_event_header) <= head) {
		struct perf_event_header h;
		uint64_t body[2];

		ring_copy(data, size, tail, &h, sizeof(h));
		if (h.size < sizeof(h))
			break;
		if (h.type == PERF_RECORD_SAMPLE && h.size >= sizeof(h) + 8) {
			struct profile_ip ip;

			ring_copy(data, size, tail + sizeof(h), body, 8);
			ip.ip = body[0];
			ip.kernel = (h.misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
			if (sampler_append(&ip) && !coll.err)
				coll.err = -ENOMEM;
		} else if (h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 16) {
			ring_copy(data, size, tail + sizeof(h), body, 16);	/* id, lost */
			coll.lost += body[1];
		}
		tail += h.size;
	}
	__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
}

void profile_thread_stop(struct profile_thread *t)
{
	if (t->fd >= 0 && ioctl(t->fd, PERF_EVENT_IOC_DISABLE, 0))
		sampler_fail(-errno);
}

void profile_thread_collect(struct profile_thread *t)
{
	if (t->fd < 0)
		return;
	pthread_mutex_lock(&coll.lock);
	sampler_drain(t);
	pthread_mutex_unlock(&coll.lock);
}

void profile_thread_close(struct profile_thread *t)
{
	if (t->ring)
		munmap(t->ring, t->ring_len);
	if (t->fd >= 0)
		close(t->fd);
	t->ring = NULL;
	t->fd = -1;
}

/* The symbol tables, loaded the first time (again when a test moves the sysfs root). */
static void sampler_symbols(void)
{
	if (!cached_ksyms || ksyms_gen != sysfs_root_generation()) {
		profile_ksyms_free(cached_ksyms);
		cached_ksyms = profile_ksyms_load("/proc/kallsyms");
		ksyms_err = cached_ksyms ? 0 : -errno;
		ksyms_gen = sysfs_root_generation();
	}
	if (!cached_usyms)
		cached_usyms = profile_usyms_self();
}

/* Why the run's samples cannot make a profile, into @why/@fix; false when they can. */
static bool sampler_unusable(char *why, size_t wlen, char *fix, size_t flen)
{
	fix[0] = '\0';
	if (coll.err) {
		snprintf(why, wlen, "perf_event_open sampling failed: %s", perfctr_strerror(coll.err));
		if (coll.err == -EACCES || coll.err == -EPERM)
			snprintf(fix, flen, "sysctl -w kernel.perf_event_paranoid=1 (or run as root)");
		else if (coll.err == -ENOENT || coll.err == -EOPNOTSUPP || coll.err == -ENODEV)
			snprintf(fix, flen, "--profile-event cpu-clock works where the hardware has no cycle counter");
		return true;
	}
	if (ksyms_err) {
		snprintf(why, wlen, "cannot read kernel symbols from /proc/kallsyms: %s",
			 ksyms_err == -EPERM ? "kptr_restrict hides the addresses" : strerror(-ksyms_err));
		if (ksyms_err == -EPERM)
			snprintf(fix, flen, "sysctl -w kernel.kptr_restrict=0");
		return true;
	}
	if (!coll.n) {
		snprintf(why, wlen, "no sample fell in the timed region (shorter than one sampling period)");
		snprintf(fix, flen, "raise --profile-freq, or -l for a longer region");
		return true;
	}
	return false;
}

void profile_end(struct profile_summary *out)
{
	char why[256], fix[128];

	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&coll.lock);
	out->on = coll.active || coll.refused;
	if (coll.active) {
		coll.active = false;
		sampler_symbols();
		if (sampler_unusable(why, sizeof(why), fix, sizeof(fix))) {
			sampler_warn_once(why, fix);
			snprintf(out->why, sizeof(out->why), "%s", why);
		} else if (profile_resolve(coll.ips, coll.n, cached_ksyms, cached_usyms, out)) {
			snprintf(out->why, sizeof(out->why), "out of memory");
		}
		out->lost = coll.lost;
		out->cfg = coll.cfg;
	} else if (coll.refused) {
		snprintf(out->why, sizeof(out->why), "%s", coll.why);
	}
	coll.refused = false;
	free(coll.ips);
	coll.ips = NULL;
	coll.n = coll.cap = 0;
	pthread_mutex_unlock(&coll.lock);
}

const char *profile_event_name(enum profile_event e)
{
	return e == PROFILE_CYCLES ? "cycles" : "cpu-clock";
}

int profile_event_parse(const char *name, enum profile_event *e)
{
	if (strcmp(name, "cpu-clock") && strcmp(name, "cycles"))
		return -EINVAL;
	*e = strcmp(name, "cycles") ? PROFILE_CPU_CLOCK : PROFILE_CYCLES;
	return 0;
}

/*
 * sqrt(p(1-p)/n) with Agresti and Coull's two added successes and failures:
 * the same for many samples, but 10 samples all clearing say +-9 points,
 * not a certain 100%.
 */
double profile_share_stderr(double pct, uint64_t n)
{
	double m = (double)n + 4.0, p = (pct / 100.0 * (double)n + 2.0) / m;

	return 100.0 * sqrt(p * (1.0 - p) / m);
}

void profile_bound_text(const struct profile_summary *p, char *buf, size_t len)
{
	double f = p->clearing / 100.0;

	snprintf(buf, len,
		 "clearing %.1f%% of %llu samples (%s at %u Hz, standard error %.1f points): a change of X%% "
		 "in the clearing routine moves this result by at most %.2f x X%%",
		 p->clearing, (unsigned long long)p->samples, profile_event_name(p->cfg.event), p->cfg.hz,
		 profile_share_stderr(p->clearing, p->samples), f);
}
