/* wl_clear: `bench mem clear`, what the kernel does when it hands out a fresh page: clear it, then the user touches it. */
#include "workloads/mem.h"
#include "machine/machine.h"
#include "kernels/kernels.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/size.h"
#include "util/sysfs.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#define CLEAR_LINE 64		/* the consumer touches one word per cache line */
#define CLEAR_DIRT 0x5a		/* non-zero, so no clear is short-circuited */
#define CLEAR_MARK 0x1111111111111111ULL	/* what the write consumer stores */

struct clear_params {
	struct wl_mem_params mem;
	uint64_t extent;	/* -k: bytes per clear call; 0 = one page */
	const char *then;	/* --then: none, read, write */
	const char *backing;	/* --backing: auto, hugetlb, thp (huge pages; THP only at its PMD size) */
	enum wl_backing how;	/* resolved by prepare */
};

static const char *const clear_then_modes[] = { "none", "read", "write", NULL };
static const char *const clear_backings[] = { "auto", "hugetlb", "thp", NULL };

static const struct wl_opt clear_opts[] = {
	/* the page, then the extent in those pages: "-p 2MB -k 4MB" reads as clear_pages of two */
	WL_MEM_PAGE_OPT(struct clear_params),
	{ 'k', "extent", WL_OPT_SIZE, offsetof(struct clear_params, extent), "0", "size",
	  "bytes per clear call, a multiple of the page: the page for clear_page, more for clear_pages (0: one page)",
	  0, 0, NULL },
	WL_MEM_RUN_OPTS(struct clear_params),
	{ 0, "then", WL_OPT_STR, offsetof(struct clear_params, then), "none", "mode",
	  "after each extent is cleared, the consumer reads or writes every cache line of it",
	  0, 0, clear_then_modes },
	{ 0, "backing", WL_OPT_STR, offsetof(struct clear_params, backing), "auto", "how",
	  "huge pages from hugetlb or THP; auto: hugetlb when enough are free, else THP",
	  0, 0, clear_backings },
	{ 0, NULL, 0, 0, NULL, NULL, NULL, 0, 0, NULL },
};

static int clear_check_shape(const struct clear_params *cp)
{
	char pg[16], ex[32];

	size_format(cp->mem.page, pg, sizeof(pg));
	size_format(cp->extent, ex, sizeof(ex));
	if (cp->extent % cp->mem.page) {
		log_err("-k/--extent %s is not a multiple of the page size %s", ex, pg);
		log_hint("clear_page clears one page (-k %s), clear_pages a whole number of them", pg);
		return EXIT_USAGE;
	}
	if (cp->mem.size % cp->extent) {
		log_err("-s/--size is not a multiple of the extent %s", ex);
		log_hint("use a size that is a whole number of extents, e.g. a power of two");
		return EXIT_USAGE;
	}
	return 0;
}

/* --backing thp on a page size this kernel's THP does not have: say which size it has. */
static int clear_no_thp_size(const struct clear_params *cp, uint64_t thp_size)
{
	char pg[16], thp[16];

	size_format(cp->mem.page, pg, sizeof(pg));
	if (!thp_size) {
		log_err("--backing thp: this kernel has no transparent huge pages");
		log_hint("use --backing hugetlb (or auto)");
		return EXIT_RESOURCE;
	}
	log_err("--backing thp: this kernel's transparent huge pages are %s, not %s",
		size_format(thp_size, thp, sizeof(thp)), pg);
	log_hint("use -p %s with THP, or --backing hugetlb (or auto) for %s pages", thp, pg);
	return EXIT_RESOURCE;
}

/*
 * Pick hugetlb or THP for huge pages before anything is allocated, and say
 * why when neither works.  THP has one size, the kernel's PMD size (2MB on
 * x86-64, 32MB or 512MB on arm64 with 16KB or 64KB pages).
 */
static int clear_resolve_backing(struct clear_params *cp)
{
	uint64_t thp_size = machine_thp_size();
	char thp[32], pg[16], dir[128];

	if (machine_page_is_base(cp->mem.page)) {
		cp->how = WL_BACK_BASE;
		return 0;
	}
	if (!strcmp(cp->backing, "thp") && cp->mem.page != thp_size)
		return clear_no_thp_size(cp, thp_size);
	if (!strcmp(cp->backing, "hugetlb") || cp->mem.page != thp_size ||
	    (!strcmp(cp->backing, "auto") && wl_mem_hugetlb_fits(cp->mem.size, cp->mem.page))) {
		cp->how = WL_BACK_HUGETLB;
		return 0;
	}
	wl_mem_thp_mode(thp, sizeof(thp));
	if (!strcmp(thp, "never")) {
		size_format(cp->mem.page, pg, sizeof(pg));
		sysfs_hugepool_dir(cp->mem.page, dir, sizeof(dir));
		log_err("no free %s hugetlb pages for -s and transparent huge pages are disabled", pg);
		log_hint("reserve hugetlb pages (echo N > %s/nr_hugepages) or enable THP "
			 "(echo madvise > /sys/kernel/mm/transparent_hugepage/enabled)", dir);
		return EXIT_RESOURCE;
	}
	cp->how = WL_BACK_THP;
	return 0;
}

static int clear_check_backing(const struct clear_params *cp)
{
	if (machine_page_is_base(cp->mem.page) && strcmp(cp->backing, "auto")) {
		log_err("--backing %s applies to huge pages only", cp->backing);
		return EXIT_USAGE;
	}
	/* THP pages are PMD-sized: 2MB, 32MB or 512MB by granule, never 1GB or 16GB */
	if (cp->mem.page >= (1ULL << 30) && !strcmp(cp->backing, "thp")) {
		log_err("THP cannot back pages of 1GB or more; use --backing hugetlb (or auto)");
		return EXIT_USAGE;
	}
	return 0;
}

static int clear_check(void *p)
{
	struct clear_params *cp = p;
	int ret = wl_mem_check_params(&cp->mem);

	if (ret || (ret = clear_check_backing(cp)))
		return ret;
	if (!cp->extent)
		cp->extent = cp->mem.page;
	if (cp->extent > cp->mem.size) {
		char ex[32], sz[32];

		log_err("-k/--extent %s (default: one page) is larger than -s/--size %s",
			size_format(cp->extent, ex, sizeof(ex)), size_format(cp->mem.size, sz, sizeof(sz)));
		return EXIT_USAGE;
	}
	return clear_check_shape(cp);
}

static int clear_prepare(void *p)
{
	struct clear_params *cp = p;
	struct wl_mem_params base = cp->mem;
	int ret = clear_resolve_backing(cp);

	if (ret)
		return ret;
	/* THP-backed buffers come from ordinary memory: check MemAvailable, plus the alignment slack. */
	if (cp->how == WL_BACK_THP)
		base.page = machine_base_page();
	return wl_mem_prepare(&base, cp->mem.size + (cp->how == WL_BACK_THP ? cp->mem.page : 0));
}

/*
 * The filler for the untimed dirty pass: a streaming-store strategy when
 * this CPU has one, so the pass leaves no dirty line in the cache whose
 * write-back would land inside the timed clear (up to the size of the last
 * level cache, a few per cent of the clear's traffic); libc memset else.
 */
static kern_fill_fn clear_dirtier(void)
{
	static const char *const streamers[] = { "x86-64-nt-avx2", "x86-64-movnti", "arm64-stnp" };

	for (size_t i = 0; i < sizeof(streamers) / sizeof(streamers[0]); i++) {
		const struct kern_strategy *k = kern_find(streamers[i]);

		if (k && !k->zero_only && !kern_why_not(k))
			return k->fn;
	}
	return memset;
}

/* Untimed: make every byte non-zero, as a page its last user wrote, and leave it in memory. */
static void clear_dirty(char *p, uint64_t size)
{
	clear_dirtier()(p, CLEAR_DIRT, size);
}

/* Touch one word per cache line, as a program does right after its page fault. */
static void clear_consume(char *p, uint64_t n, bool write)
{
	if (write) {
		for (uint64_t off = 0; off < n; off += CLEAR_LINE)
			*(volatile uint64_t *)(void *)(p + off) = CLEAR_MARK;
		return;
	}
	for (uint64_t off = 0; off < n; off += CLEAR_LINE)
		(void)*(volatile uint64_t *)(void *)(p + off);
}

/*
 * A cheap cycle-like counter to split the combined pass between clearing and
 * consuming: two reads per extent cost far less than a clock_gettime() pair,
 * and only their ratio is used, so their unit does not matter.
 */
static inline uint64_t clear_ticks(void)
{
#if defined(__x86_64__)
	return __rdtsc();
#elif defined(__aarch64__)
	uint64_t v;

	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v));
	return v;
#else
	return clock_now_ns();
#endif
}

/* The clear-only pass: nothing but the strategy inside the timed region. */
static void clear_pass(const struct kern_strategy *k, char *p, uint64_t size, uint64_t extent,
		       struct wl_timer *t)
{
	wl_timer_start(t);
	for (uint64_t off = 0; off < size; off += extent)
		k->fn(p + off, 0, extent);
	wl_timer_stop(t);
}

/*
 * The combined pass: clear each extent, then consume it right after, as a
 * program touches its page after the fault.  Ticks taken between the two
 * split the pass's time into clearing and consuming (*consume_share).
 */
static void clear_then_pass(const struct kern_strategy *k, char *p, uint64_t size, uint64_t extent,
			    bool write, struct wl_timer *t, uint64_t *clear_ticks_sum,
			    uint64_t *consume_ticks_sum)
{
	uint64_t a, b, c, tc = 0, tu = 0;

	wl_timer_start(t);
	a = clear_ticks();
	for (uint64_t off = 0; off < size; off += extent) {
		k->fn(p + off, 0, extent);
		b = clear_ticks();
		clear_consume(p + off, extent, write);
		c = clear_ticks();
		tc += b - a;
		tu += c - b;
		a = c;
	}
	wl_timer_stop(t);
	*clear_ticks_sum += tc;
	*consume_ticks_sum += tu;
}

/* Untimed: the buffer holds zeros, or zeros plus the write consumer's mark at each line. */
static int clear_verify(const char *p, uint64_t size, bool marked, const char *fn)
{
	for (uint64_t off = 0; off < size; off += CLEAR_LINE) {
		uint64_t first, rest = 0;

		memcpy(&first, p + off, 8);
		for (unsigned i = 8; i < CLEAR_LINE; i++)
			rest |= (unsigned char)p[off + i];
		if (first != (marked ? CLEAR_MARK : 0) || rest) {
			log_err("function '%s' left wrong bytes at offset %llu: the clear is broken, no result reported",
				fn, (unsigned long long)off);
			return EXIT_INTERNAL;
		}
	}
	return 0;
}

/*
 * With --then, all three rates come from the one combined pass, so they
 * agree by construction: its time split by the ticks into clearing and
 * consuming gives clear and then-read/-write, the whole time combined
 * (1/combined = 1/clear + 1/then-read, and combined never exceeds clear).
 * Without --then the clear-only pass is the clear rate.
 */
static void clear_metrics(const struct clear_params *cp, const struct wl_timer *t, double consume_share,
			  struct wl_result *res)
{
	double bytes = (double)res->bytes, ns = (double)(t->ns ?: 1);
	const char *then_name = !strcmp(cp->then, "read") ? "then-read" : "then-write";

	if (!strcmp(cp->then, "none")) {
		wl_result_add(res, "clear", bytes * 1e9 / ns, "bytes/sec", true);
		return;
	}
	wl_result_add(res, "clear", bytes * 1e9 / (ns * (1 - consume_share)), "bytes/sec", true);
	if (consume_share > 0)
		wl_result_add(res, then_name, bytes * 1e9 / (ns * consume_share), "bytes/sec", true);
	wl_result_add(res, "combined", bytes * 1e9 / ns, "bytes/sec", true);
}

static int clear_run(const void *p, const struct wl_func *f, struct wl_result *res)
{
	const struct clear_params *cp = p;
	const struct kern_strategy *k = f->impl;
	int then = !strcmp(cp->then, "none") ? 0 : !strcmp(cp->then, "read") ? 1 : 2;
	struct wl_timer t;
	uint64_t tc = 0, tu = 0;
	struct wl_buf buf;
	char ex[32], how[32];
	int ret;

	/* Counters follow the one timed pass: the clear alone, or with --then clear and consumer. */
	if ((ret = wl_timer_init(&t, cp->mem.cycles, res->counters.on))) {
		log_err("cannot open the cycle counter: %s", strerror(-ret));
		return EXIT_RESOURCE;
	}
	ret = wl_buf_map(&buf, cp->mem.size, cp->mem.page, cp->how);
	if (ret) {
		wl_timer_fini(&t);
		return wl_mem_map_failed(cp->mem.size, cp->mem.page, -ret);
	}
	for (unsigned l = 0; l < cp->mem.loops; l++) {
		clear_dirty(buf.p, buf.size);
		if (then)
			clear_then_pass(k, buf.p, buf.size, cp->extent, then == 2, &t, &tc, &tu);
		else
			clear_pass(k, buf.p, buf.size, cp->extent, &t);
	}
	ret = clear_verify(buf.p, buf.size, then == 2, f->name);
	wl_timer_result(&t, res);
	wl_timer_fini(&t);
	wl_buf_unmap(&buf);
	if (ret)
		return ret;

	res->bytes = cp->mem.size * cp->mem.loops;
	res->loops = cp->mem.loops;
	res->threads = 1;
	snprintf(res->note, sizeof(res->note), "%s, %s extents%s", wl_backing_name(cp->how, how, sizeof(how)),
		 size_format(cp->extent, ex, sizeof(ex)), k->nontemporal ? ", non-temporal" : "");
	clear_metrics(cp, &t, tc + tu ? (double)tu / (double)(tc + tu) : 0, res);
	return 0;
}

static void clear_resources(const void *p, struct wl_resources *r)
{
	const struct clear_params *cp = p;
	/* prefault and verify, and each loop dirties before it clears (once: with --then the pass consumes too) */
	*r = (struct wl_resources){ .bytes = cp->mem.size, .page = cp->mem.page,
				    .write_passes = 2 + 2.0 * cp->mem.loops };
}

/* -k is the clear_page/clear_pages extent: scaling keeps it, only never above -s */
static const char *const clear_capped[] = { "extent", NULL };

const struct workload wl_mem_clear = {
	.collection = "mem",
	.name = "clear",
	.summary = "Clear pages extent by extent with each zeroing strategy, optionally touching them right after, as a fresh page is used.",
	.opts = clear_opts,
	.params_size = sizeof(struct clear_params),
	.default_function = "all",
	.function_at = 2,
	.functions = wl_mem_strategies,
	.check = clear_check,
	.prepare = clear_prepare,
	.resources = clear_resources,
	.scaled_opt = "size",
	.capped_opts = clear_capped,
	.run = clear_run,
};
