/* mem: what the mem workloads share: common options, page-size mappings, resource checks, the timer. */
#ifndef CLEARPATH_WORKLOADS_MEM_H
#define CLEARPATH_WORKLOADS_MEM_H

#include "workloads/workload.h"
#include "profile/profile.h"
#include "util/counters.h"

#include <stddef.h>

/* Options every mem workload takes, as perf's bench_common_options. */
struct wl_mem_params {
	uint64_t size;		/* -s: bytes per buffer */
	uint64_t page;		/* -p: the base page or a hugetlb size (machine/ says which exist here) */
	unsigned loops;		/* -l */
	bool cycles;		/* -c */
};

/*
 * Table rows for struct wl_mem_params embedded as member `mem` of @type.  A
 * table lists its options in the order a benchmark is displayed (perf's
 * habit: -k/-p, then -f, -s, -l, then the rest): the page option, then
 * workload.function_at places -f, then the run options.
 */
#define WL_MEM_PAGE_OPT(type)                                                                  \
	{ 'p', "page", WL_OPT_SIZE, offsetof(type, mem.page), "4KB", "size",                   \
	  "page size backing the buffer: the base page, or a hugetlb size this kernel offers "   \
	  "(x86-64: 4KB, 2MB, 1GB)", 0, 0, NULL }
#define WL_MEM_RUN_OPTS(type)                                                                  \
	{ 's', "size", WL_OPT_SIZE, offsetof(type, mem.size), "1MB", "size",                   \
	  "bytes per buffer (4096, 4KB, 2MB, 1GB, 1TB, KiB..TiB)", 0, 0, NULL },               \
	{ 'l', "nr_loops", WL_OPT_UINT, offsetof(type, mem.loops), "1", "n",                   \
	  "number of timed loops", 1, 0, NULL },                                               \
	{ 'c', "cycles", WL_OPT_FLAG, offsetof(type, mem.cycles), NULL, NULL,                  \
	  "report CPU cycles per byte (needs a hardware cycle counter)", 0, 0, NULL }

/*
 * memset's and memcpy's parameters, option table and checks: perf's
 * bench_mem_options, the common ones and -k, bytes per function call (0:
 * the whole buffer), no larger than -s.
 */
struct wl_mem_chunked {
	struct wl_mem_params mem;
	uint64_t chunk;
};
extern const struct wl_opt wl_mem_chunked_opts[];
#define WL_MEM_CHUNKED_FUNCTION_AT 2	/* -k, -p, then -f */
/* workload.check of them: wl_mem_check_params() and -k <= -s.  0 or EXIT_USAGE after log_err(). */
int wl_mem_chunked_check(void *params);
/* workload.capped_opts of them: plan --scale lowers -k to -s only where it would exceed it. */
extern const char *const wl_mem_chunked_capped[];

/*
 * Check the values alone: size > 0 and a page size some Linux machine
 * offers (whether this one does is wl_mem_prepare()'s question).  0 or
 * EXIT_USAGE after log_err().
 */
int wl_mem_check_params(const struct wl_mem_params *m);

/*
 * Check the machine for @m (already through wl_mem_check_params()): the
 * cycle counter when -c, and that
 * @bytes of @m->page pages can be had without the OOM killer, as
 * machine_fit() judges: MemAvailable for base pages, free hugetlb pages
 * otherwise; a page size this kernel does not offer is refused with the
 * list of those it does.  Returns 0 or an exit code after log_err() and a
 * hint saying how to fix it.
 */
int wl_mem_prepare(const struct wl_mem_params *m, uint64_t bytes);

/*
 * mmap @size anonymous private bytes backed by @page pages (MAP_HUGETLB with
 * the matching MAP_HUGE_* flag unless @page is the base page), with MAP_POPULATE when @populate.
 * Returns NULL (errno set) on failure.
 */
void *wl_mem_map(uint64_t size, uint64_t page, bool populate);
/* Undo wl_mem_map(). */
void wl_mem_unmap(void *p, uint64_t size, uint64_t page);
/* Log why a mapping of @size bytes in @page pages failed with @err. Returns EXIT_RESOURCE. */
int wl_mem_map_failed(uint64_t size, uint64_t page, int err);

/*
 * Timer of a timed region for the calling thread: wall time (CLOCK_MONOTONIC),
 * page faults (getrusage RUSAGE_THREAD), with cycles a hardware cycle
 * counter, with counters the --counters event set.  Everything but the clock
 * is read outside the clock's interval, so turning counters on adds nothing
 * inside it.  While a --profile collection runs (profile_active()), the
 * thread's sampling event is enabled right before the clock starts and
 * disabled right after it stops.
 */
struct wl_timer {
	int cycles_fd;		/* -1 when not counting cycles */
	uint64_t ns, cycles;	/* accumulated over start/stop pairs */
	uint64_t cpu_ns, cpu0;	/* the thread's CPU time over the same pairs: ns less what others ran */
	long minflt, majflt;
	uint64_t t0, c0;
	long minflt0, majflt0;
	bool counting;		/* the counter set below is open */
	struct counters_set counters;
	struct profile_thread prof;
};

/*
 * Returns 0 or -errno when the cycle counter cannot open.  Counters that
 * cannot open are not an error: the set records why, and the result says so.
 */
int wl_timer_init(struct wl_timer *t, bool cycles, bool counters);
void wl_timer_start(struct wl_timer *t);
void wl_timer_stop(struct wl_timer *t);
void wl_timer_fini(struct wl_timer *t);
/* Copy the timer's totals into @res (elapsed, faults, cycles, counters). */
void wl_timer_result(const struct wl_timer *t, struct wl_result *res);


/* Every fill strategy of src/kernels as a -f function (memset and clear share the table). */
size_t wl_mem_strategies(struct wl_func *out, size_t max);
/* Every copy strategy of src/kernels as a -f function (memcpy). */
size_t wl_mem_copy_strategies(struct wl_func *out, size_t max);

/* How a buffer of huge pages is backed. */
enum wl_backing {
	WL_BACK_BASE,		/* base pages (THP explicitly off for the range) */
	WL_BACK_HUGETLB,	/* MAP_HUGETLB from the reserved pool */
	WL_BACK_THP,		/* base-page mapping aligned to the THP size with MADV_HUGEPAGE */
};

/* A mapped, prefaulted buffer aligned to its page size. */
struct wl_buf {
	char *p;		/* aligned start, @size bytes usable */
	uint64_t size;
	void *map;		/* what mmap returned */
	size_t map_len;
};

/* Name of @b for notes and JSON ("4KB pages" with the kernel's base page, "hugetlb", "THP"); may use @buf. */
const char *wl_backing_name(enum wl_backing b, char *buf, size_t len);

/*
 * Map and prefault @size bytes aligned to @page with @backing.  Returns 0, or
 * -errno after which nothing is mapped.
 */
int wl_buf_map(struct wl_buf *b, uint64_t size, uint64_t page, enum wl_backing backing);
/* Undo wl_buf_map(); safe on a zeroed struct. */
void wl_buf_unmap(struct wl_buf *b);

/* Whether @page-sized hugetlb pages for @bytes are free right now. */
bool wl_mem_hugetlb_fits(uint64_t bytes, uint64_t page);
/* The system THP mode ("always", "madvise", "never", or "unknown") into @buf. */
void wl_mem_thp_mode(char *buf, size_t len);

#endif
