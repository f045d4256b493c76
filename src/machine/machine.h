/* machine: this machine's memory facts (base and huge page sizes, pools, NUMA) and whether a need fits them. */
#ifndef CLEARPATH_MACHINE_MACHINE_H
#define CLEARPATH_MACHINE_MACHINE_H

#include "util/sysfs.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Everything that sizes a run against this machine (workloads before they
 * allocate, plan fit checks and --scale auto, doctor, the fingerprint) reads
 * the facts and applies the one rule here, so they cannot disagree.  All
 * reads go through util/sysfs, so $CLEARPATH_SYSROOT fixtures redirect them.
 */

/* Memory left for the rest of the system whenever a need is sized against MemAvailable. */
#define MACHINE_RESERVE (64ULL << 20)

/* The most page sizes one kernel offers (hugetlb sizes plus the base page). */
#define MACHINE_MAX_PAGES 16

/*
 * The base page size in bytes: the KernelPageSize the kernel states in
 * /proc/self/smaps (a fixture overrides it with its own proc/self/smaps),
 * else sysconf(_SC_PAGESIZE).  4KB, 16KB or 64KB on arm64, 4KB on x86-64.
 */
uint64_t machine_base_page(void);

/* The hugetlb page sizes the kernel offers (/sys/kernel/mm/hugepages), ascending; how many (<= @max). */
size_t machine_huge_sizes(uint64_t *sizes, size_t max);

/*
 * The page sizes -p may name on this machine, ascending, into @buf: the
 * base page marked "(base)", then every hugetlb size ("4KB (base), 2MB, 1GB").
 */
void machine_page_list(char *buf, size_t len);

/*
 * Whether @page is a page size Linux offers on some machine clearpath runs
 * on (a base page of 4KB/16KB/64KB, or a hugetlb size of x86-64 or of arm64
 * with any granule), reading nothing of this machine: what a plan written
 * anywhere may name.
 */
bool machine_page_plausible(uint64_t page);

/* Whether @page is a hugetlb size of some Linux machine (what a plan's requires may name anywhere). */
bool machine_page_hugetlb(uint64_t page);

/*
 * The size of a transparent huge page: the kernel's hpage_pmd_size (2MB with
 * 4KB base pages, 32MB with 16KB, 512MB with 64KB), or 0 without THP.
 */
uint64_t machine_thp_size(void);

/* Whether @page is this machine's base page (so mappings of it need no hugetlb). */
bool machine_page_is_base(uint64_t page);

/* Memory nodes under /sys/devices/system/node; 1 when the kernel shows none (no CONFIG_NUMA). */
unsigned machine_numa_nodes(void);

/*
 * The largest order the buddy allocator keeps free blocks of (MAX_PAGE_ORDER:
 * 10 on x86-64, so 4MB blocks), from the number of columns of /proc/buddyinfo
 * (one per order, 0 to the largest).  The order, or -errno (-EINVAL when the
 * file has no line of counts).
 */
int machine_max_order(void);

/* MemAvailable in bytes.  0 or -errno (-ENOENT before Linux 3.14). */
int machine_mem_available(uint64_t *bytes);

/*
 * The last-level cache the first CPU sees: the data or unified cache of the
 * highest level under /sys/devices/system/cpu/cpu0/cache (its size and
 * level, "L3" of 480MB on the development VM).  A buffer no larger than it
 * can stay in it between being dirtied and cleared, so a clear rate measures
 * the cache, not memory.  0 with *@bytes and *@level set, -ENOENT when the
 * kernel does not show the topology, or -errno.
 */
int machine_llc(uint64_t *bytes, unsigned *level);

/* Why a need does or does not fit. */
enum machine_verdict {
	MACHINE_FITS,
	MACHINE_SHORT_MEMORY,	/* base pages: MemAvailable less the reserve is too small */
	MACHINE_POOL_SHORT,	/* hugetlb pages: the pool has too few free pages */
	MACHINE_POOL_ABSENT,	/* hugetlb pages of this size are not offered */
	MACHINE_BELOW_BASE,	/* smaller than the base page: no kernel mapping can have it */
	MACHINE_NOT_A_PAGE,	/* neither the base page nor a hugetlb size of this kernel */
	MACHINE_UNREADABLE,	/* a fact could not be read (err says why) */
};

/* A need against the machine: the verdict and the facts it was made from. */
struct machine_fit {
	enum machine_verdict verdict;
	uint64_t bytes, page;	/* the need: @bytes in pages of @page */
	uint64_t pages;		/* hugetlb: whole pages needed */
	uint64_t base;		/* the base page */
	uint64_t avail;		/* MemAvailable (base pages) */
	struct sysfs_hugepool pool;	/* hugetlb pages */
	int err;		/* MACHINE_UNREADABLE: -errno */
};

/*
 * Judge @bytes in pages of @page (the base page or a hugetlb size) against
 * this machine, filling @fit.  Returns true when it fits, and when base
 * pages cannot be judged because the kernel has no MemAvailable (verdict
 * MACHINE_UNREADABLE: say the size was not checked).
 */
bool machine_fit(uint64_t bytes, uint64_t page, struct machine_fit *fit);

/* Whether the verdict is an empty or short hugetlb pool, which reserving pages fixes. */
bool machine_fit_pool_fixable(const struct machine_fit *fit);

/* Free pages of fit->page the pool must hold for the need: what to write to nr_hugepages. */
uint64_t machine_fit_reserve_total(const struct machine_fit *fit);

/* The command that reserves the pages @fit lacks: "echo N > /sys/.../nr_hugepages". */
void machine_reserve_cmd(const struct machine_fit *fit, char *buf, size_t len);

/*
 * Say why @fit does not fit: "<who> needs ..." through @say (log_err or
 * log_warn), then a hint with the command or boot option that fixes it and
 * @advice (what else the caller offers, e.g. "use a smaller -s"; NULL for
 * none).  Returns EXIT_RESOURCE (EXIT_USAGE for a size that is no page).
 */
int machine_fit_explain(const struct machine_fit *fit, const char *who, const char *advice,
			void (*say)(const char *fmt, ...));

/*
 * A plan scaled down by @divisor: the new value of the buffer size @bytes,
 * never below one @unit (a page, or the largest block the buffer is cut
 * into) and always a whole number of them, and never above @bytes.
 */
uint64_t machine_scale_size(uint64_t bytes, unsigned divisor, uint64_t unit);

#endif
