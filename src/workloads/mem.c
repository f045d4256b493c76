/* mem: shared parts of the mem workloads: mappings by page size, resource checks, the timed-region timer. */
#define _GNU_SOURCE
#include "workloads/mem.h"
#include "kernels/kernels.h"
#include "machine/machine.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/perfctr.h"
#include "util/size.h"
#include "util/sysfs.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <linux/mman.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* A page size that is a page size nowhere (checked without reading this machine): exit 2. */
static int mem_check_page(uint64_t page)
{
	char pg[32], list[256];

	if (machine_page_plausible(page))
		return 0;
	machine_page_list(list, sizeof(list));
	log_err("invalid page size for -p/--page: %s is no page size Linux offers; this kernel offers %s",
		size_format(page, pg, sizeof(pg)), list);
	return EXIT_USAGE;
}

/* Whether @bytes of @page pages can be had here, said with the fix when not (machine/). */
static int mem_check_fit(uint64_t bytes, uint64_t page)
{
	struct machine_fit fit;

	if (machine_fit(bytes, page, &fit)) {
		if (fit.verdict == MACHINE_UNREADABLE)
			log_warn("cannot read MemAvailable from /proc/meminfo; not checking the size");
		return 0;
	}
	return machine_fit_explain(&fit, "this run", fit.verdict == MACHINE_SHORT_MEMORY ?
				   "use a smaller -s (or fewer -t threads)" : NULL, log_err);
}

static int mem_check_cycles(void)
{
	int fd = perfctr_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	log_err("-c/--cycles needs the CPU cycle counter, which cannot be opened: %s",
		perfctr_strerror(fd));
	log_hint("drop -c to measure bytes per second with the clock instead");
	return EXIT_RESOURCE;
}

int wl_mem_check_params(const struct wl_mem_params *m)
{
	if (m->size == 0) {
		log_err("-s/--size must be greater than zero");
		return EXIT_USAGE;
	}
	return mem_check_page(m->page);
}

const struct wl_opt wl_mem_chunked_opts[] = {
	{ 'k', "chunk", WL_OPT_SIZE, offsetof(struct wl_mem_chunked, chunk), "0", "size",
	  "bytes per function call; 0 = the whole buffer", 0, 0, NULL },
	WL_MEM_PAGE_OPT(struct wl_mem_chunked),
	WL_MEM_RUN_OPTS(struct wl_mem_chunked),
	{ 0, NULL, 0, 0, NULL, NULL, NULL, 0, 0, NULL },
};

const char *const wl_mem_chunked_capped[] = { "chunk", NULL };

int wl_mem_chunked_check(void *params)
{
	const struct wl_mem_chunked *p = params;
	int ret = wl_mem_check_params(&p->mem);

	if (ret)
		return ret;
	if (p->chunk > p->mem.size) {
		log_err("-k/--chunk (%llu bytes) is larger than -s/--size (%llu bytes)",
			(unsigned long long)p->chunk, (unsigned long long)p->mem.size);
		log_hint("use a chunk no larger than the buffer, or -k 0 for the whole buffer");
		return EXIT_USAGE;
	}
	return 0;
}

int wl_mem_prepare(const struct wl_mem_params *m, uint64_t bytes)
{
	int ret;

	if (m->cycles && (ret = mem_check_cycles()))
		return ret;
	return mem_check_fit(bytes, m->page);
}

static unsigned mem_page_shift(uint64_t page)
{
	return (unsigned)__builtin_ctzll(page);
}

void *wl_mem_map(uint64_t size, uint64_t page, bool populate)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | (populate ? MAP_POPULATE : 0);
	void *p;

	if (!machine_page_is_base(page))
		flags |= MAP_HUGETLB | (int)(mem_page_shift(page) << MAP_HUGE_SHIFT);
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, flags, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

void wl_mem_unmap(void *p, uint64_t size, uint64_t page)
{
	/* hugetlb lengths must be page multiples; mmap rounded the mapping up. */
	if (p)
		munmap(p, (size + page - 1) / page * page);
}

int wl_mem_map_failed(uint64_t size, uint64_t page, int err)
{
	char sz[32], pg[16];

	log_err("mmap of %s in %s pages failed: %s", size_format(size, sz, sizeof(sz)),
		size_format(page, pg, sizeof(pg)), strerror(err));
	if (!machine_page_is_base(page))
		log_hint("the hugetlb pool may have been used up by another process; check %s",
			 "/sys/kernel/mm/hugepages/*/free_hugepages");
	return EXIT_RESOURCE;
}

int wl_timer_init(struct wl_timer *t, bool cycles, bool counters)
{
	memset(t, 0, sizeof(*t));
	t->cycles_fd = -1;
	t->prof.fd = -1;
	if (cycles) {
		t->cycles_fd = perfctr_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
		if (t->cycles_fd < 0)
			return t->cycles_fd;
	}
	if (counters) {
		counters_open(&t->counters, NULL);
		t->counting = true;
	}
	profile_thread_open(&t->prof);
	return 0;
}

/* The calling thread's CPU time (ns): what it ran, interrupts it took included, preemption not. */
static uint64_t wl_thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void wl_timer_start(struct wl_timer *t)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	t->minflt0 = ru.ru_minflt;
	t->majflt0 = ru.ru_majflt;
	/* The counter set before the cycle counter, so -c never counts the set's reads. */
	if (t->counting)
		counters_start(&t->counters);
	if (t->cycles_fd >= 0)
		perfctr_read(t->cycles_fd, &t->c0);
	profile_thread_start(&t->prof);
	t->cpu0 = wl_thread_cpu_ns();
	t->t0 = clock_now_ns();
}

void wl_timer_stop(struct wl_timer *t)
{
	uint64_t t1 = clock_now_ns(), c1 = 0;
	struct rusage ru;

	t->cpu_ns += wl_thread_cpu_ns() - t->cpu0;
	profile_thread_stop(&t->prof);
	t->ns += t1 - t->t0;
	if (t->cycles_fd >= 0 && !perfctr_read(t->cycles_fd, &c1))
		t->cycles += c1 - t->c0;
	if (t->counting)
		counters_stop(&t->counters);
	getrusage(RUSAGE_THREAD, &ru);
	t->minflt += ru.ru_minflt - t->minflt0;
	t->majflt += ru.ru_majflt - t->majflt0;
	profile_thread_collect(&t->prof);
}

void wl_timer_fini(struct wl_timer *t)
{
	if (t->cycles_fd >= 0)
		close(t->cycles_fd);
	t->cycles_fd = -1;
	if (t->counting)
		counters_close(&t->counters);
	profile_thread_close(&t->prof);
}

void wl_timer_result(const struct wl_timer *t, struct wl_result *res)
{
	res->elapsed_ns = t->ns;
	res->cpu_ns = t->cpu_ns;
	res->minflt = t->minflt;
	res->majflt = t->majflt;
	res->cycles = t->cycles_fd >= 0 ? (double)t->cycles : -1;
	if (t->counting)
		res->counters = t->counters.tot;
}

const char *wl_backing_name(enum wl_backing b, char *buf, size_t len)
{
	char base[16];

	switch (b) {
	case WL_BACK_HUGETLB:
		return "hugetlb";
	case WL_BACK_THP:
		return "THP";
	default:
		/* the kernel's base page: 4KB, or 16KB/64KB on arm64 */
		snprintf(buf, len, "%s pages", size_format(machine_base_page(), base, sizeof(base)));
		return buf;
	}
}

int wl_buf_map(struct wl_buf *b, uint64_t size, uint64_t page, enum wl_backing backing)
{
	memset(b, 0, sizeof(*b));
	if (backing == WL_BACK_HUGETLB) {
		b->map = wl_mem_map(size, page, true);
		b->map_len = (size + page - 1) / page * page;
		if (!b->map)
			return -errno;
		b->p = b->map;
		b->size = size;
		return 0;
	}
	/*
	 * Over-allocate by one page so the start can be aligned to it: THP
	 * needs PMD alignment, and mmap aligns only to the page size it really
	 * uses, which a fixture's larger base page (CLEARPATH_SYSROOT) is not.
	 */
	b->map_len = size + (backing == WL_BACK_THP || page > (uint64_t)sysconf(_SC_PAGESIZE) ? page : 0);
	b->map = mmap(NULL, b->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b->map == MAP_FAILED) {
		b->map = NULL;
		return -errno;
	}
	b->p = (char *)(((uintptr_t)b->map + page - 1) & ~(uintptr_t)(page - 1));
	b->size = size;
	/* Say which pages we want before the first touch decides. */
	madvise(b->p, size, backing == WL_BACK_THP ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	if (madvise(b->p, size, MADV_POPULATE_WRITE))
		memset(b->p, 0, size);	/* kernels before 5.14 lack it: fault in by writing */
	return 0;
}

void wl_buf_unmap(struct wl_buf *b)
{
	if (b->map)
		munmap(b->map, b->map_len);
	memset(b, 0, sizeof(*b));
}

bool wl_mem_hugetlb_fits(uint64_t bytes, uint64_t page)
{
	struct machine_fit fit;

	return machine_fit(bytes, page, &fit) && fit.verdict == MACHINE_FITS;
}

void wl_mem_thp_mode(char *buf, size_t len)
{
	if (sysfs_read_choice("/sys/kernel/mm/transparent_hugepage/enabled", buf, len))
		snprintf(buf, len, "unknown");
}

/* The strategies of one kernels table as -f functions: perf's here first, as the table has them. */
static size_t mem_functions(size_t count, const struct kern_strategy *(*at)(size_t), struct wl_func *out,
			    size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < count && n < max; i++) {
		const struct kern_strategy *k = at(i);

		out[n++] = (struct wl_func){ k->name, k->desc, kern_why_not(k), k, kern_note(k), !kern_perf_here(k) };
	}
	return n;
}

size_t wl_mem_strategies(struct wl_func *out, size_t max)
{
	return mem_functions(kern_count(), kern_at, out, max);
}

size_t wl_mem_copy_strategies(struct wl_func *out, size_t max)
{
	return mem_functions(kern_copy_count(), kern_copy_at, out, max);
}
