/* wl_mmap: `bench mem mmap`, perf-compatible: time mmap plus first touch of every page (the kernel's fault and clear path). */
#include "workloads/mem.h"
#include "machine/machine.h"
#include "util/log.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct mmap_params {
	struct wl_mem_params mem;
	unsigned seed;		/* -r: randomise the offset touched in each page; 0 = offset 0 */
	unsigned threads;	/* -t */
	const char *thp;	/* --thp: system, always, never */
};

static const char *const mmap_thp_modes[] = { "system", "always", "never", NULL };

static const struct wl_opt mmap_opts[] = {
	WL_MEM_PAGE_OPT(struct mmap_params),
	WL_MEM_RUN_OPTS(struct mmap_params),
	{ 'r', "randomize", WL_OPT_UINT, offsetof(struct mmap_params, seed), "0", "seed",
	  "seed to randomise the offset touched in each page (0: first byte)", 0, 0, NULL },
	{ 't', "threads", WL_OPT_UINT, offsetof(struct mmap_params, threads), "1", "n",
	  "threads mapping and touching concurrently, each its own buffer", 1, 1024, NULL },
	{ 0, "thp", WL_OPT_STR, offsetof(struct mmap_params, thp), "system", "mode",
	  "with -p 4KB: system (no madvise, as perf), always (MADV_HUGEPAGE), never (MADV_NOHUGEPAGE)",
	  0, 0, mmap_thp_modes },
	{ 0, NULL, 0, 0, NULL, NULL, NULL, 0, 0, NULL },
};

/* The impl pointer says whether the mapping is populated eagerly. */
static const bool mmap_demand = false, mmap_populate = true;

static size_t mmap_functions(struct wl_func *out, size_t max)
{
	if (max < 2)
		return 0;
	/* both are perf's */
	out[0] = (struct wl_func){ "demand", "Demand loaded mmap()", NULL, &mmap_demand, NULL, false };
	out[1] = (struct wl_func){ "populate", "Eagerly populated mmap()", NULL, &mmap_populate, NULL, false };
	return 2;
}

static void mmap_resources(const void *p, struct wl_resources *r);

static int mmap_check(void *p)
{
	struct mmap_params *mp = p;
	int ret = wl_mem_check_params(&mp->mem);

	if (ret)
		return ret;
	if (strcmp(mp->thp, "system") && !machine_page_is_base(mp->mem.page)) {
		log_err("--thp %s applies to -p 4KB only; huge pages come from hugetlb, not THP", mp->thp);
		log_hint("drop --thp, or use -p 4KB to compare THP modes");
		return EXIT_USAGE;
	}
	return 0;
}

static int mmap_prepare(void *p)
{
	struct mmap_params *mp = p;
	struct wl_resources r;

	if (mp->mem.size > UINT64_MAX / mp->threads) {
		log_err("-s/--size times -t/--threads is more memory than any machine has");
		log_hint("every thread maps its own -s bytes: use a smaller -s or fewer threads");
		return EXIT_RESOURCE;
	}
	mmap_resources(mp, &r);
	return wl_mem_prepare(&mp->mem, r.bytes);
}

struct mmap_thread {
	pthread_t id;
	const struct mmap_params *mp;
	bool populate;
	bool counters;		/* --counters: each thread counts its own timed region */
	unsigned seed;
	struct wl_timer timer;
	bool started;		/* a thread was created and must be joined */
	int error;		/* errno of a failed mmap, or -errno of the timer or thread */
};

/* One read-modify-write per page, at offset 0 or a random offset (perf's mmap_page_touch). */
static void mmap_touch(volatile char *p, uint64_t size, uint64_t page, unsigned *seed)
{
	uint64_t npages = size / page;

	for (uint64_t i = 0; i < npages; i++) {
		uint64_t r = *seed ? (uint64_t)rand_r(seed) % page : 0;

		p[i * page + r] = (char)(p[i * page + r] + (char)i);
	}
}

static void *mmap_thread_main(void *arg)
{
	struct mmap_thread *th = arg;
	const struct mmap_params *mp = th->mp;
	int advice = !strcmp(mp->thp, "always") ? MADV_HUGEPAGE :
		     !strcmp(mp->thp, "never") ? MADV_NOHUGEPAGE : -1;

	th->error = -wl_timer_init(&th->timer, mp->mem.cycles, th->counters);
	for (unsigned l = 0; l < mp->mem.loops && !th->error; l++) {
		char *p;

		wl_timer_start(&th->timer);
		p = wl_mem_map(mp->mem.size, mp->mem.page, th->populate);
		if (!p) {
			th->error = errno;
			break;
		}
		if (advice >= 0)
			madvise(p, mp->mem.size, advice);
		mmap_touch(p, mp->mem.size, mp->mem.page, &th->seed);
		wl_timer_stop(&th->timer);
		wl_mem_unmap(p, mp->mem.size, mp->mem.page);	/* outside the timed region */
	}
	return NULL;
}

static void mmap_note(const struct mmap_params *mp, struct wl_result *res)
{
	char mode[32];

	if (!machine_page_is_base(mp->mem.page)) {
		snprintf(res->note, sizeof(res->note), "hugetlb pages, THP not involved");
		return;
	}
	wl_mem_thp_mode(mode, sizeof(mode));
	if (!strcmp(mp->thp, "system"))
		snprintf(res->note, sizeof(res->note), "THP: system setting '%s', no madvise", mode);
	else
		snprintf(res->note, sizeof(res->note), "THP: %s (system setting '%s')",
			 !strcmp(mp->thp, "always") ? "MADV_HUGEPAGE" : "MADV_NOHUGEPAGE", mode);
}

/* Per-thread times are summed and divided by the thread count: a per-thread rate, like perf. */
static void mmap_collect(const struct mmap_params *mp, struct mmap_thread *th, struct wl_result *res)
{
	unsigned n = mp->threads;
	double sum = 0, sq = 0, cycles = 0, cpu = 0;

	res->cycles = mp->mem.cycles ? 0 : -1;
	for (unsigned i = 0; i < n; i++) {
		double ns = (double)th[i].timer.ns;

		sum += ns;
		sq += ns * ns;
		cpu += (double)th[i].timer.cpu_ns;
		res->minflt += th[i].timer.minflt;
		res->majflt += th[i].timer.majflt;
		cycles += (double)th[i].timer.cycles;
		if (th[i].counters)
			counters_merge(&res->counters, &th[i].timer.counters.tot);
	}
	if (mp->mem.cycles)
		res->cycles = cycles;
	res->elapsed_ns = (uint64_t)(sum / n);
	res->cpu_ns = (uint64_t)(cpu / n);
	if (n > 1) {
		double mean = sum / n, var = (sq - n * mean * mean) / (n - 1);

		/* relative standard error of the mean, as perf's rel_stddev_stats() */
		res->thread_rel_stddev = var > 0 ? 100.0 * sqrt(var / n) / mean : 0;
	}
}

static int mmap_run(const void *p, const struct wl_func *f, struct wl_result *res)
{
	const struct mmap_params *mp = p;
	struct mmap_thread *th = calloc(mp->threads, sizeof(*th));
	int err = 0, ret;

	if (!th) {
		log_err("out of memory for %u threads", mp->threads);
		return EXIT_INTERNAL;
	}
	for (unsigned i = 0; i < mp->threads; i++) {
		th[i] = (struct mmap_thread){ .mp = mp, .populate = *(const bool *)f->impl,
					      .counters = res->counters.on,
					      .seed = mp->seed ? mp->seed + i : 0 };
		if (mp->threads == 1)
			mmap_thread_main(&th[i]);	/* no thread to create: same timed region */
		else if ((ret = pthread_create(&th[i].id, NULL, mmap_thread_main, &th[i])))
			th[i].error = -ret;
		else
			th[i].started = true;
	}
	for (unsigned i = 0; i < mp->threads; i++) {
		if (th[i].started)
			pthread_join(th[i].id, NULL);
		if (th[i].error && !err)
			err = th[i].error;
	}
	if (!err)
		mmap_collect(mp, th, res);
	for (unsigned i = 0; i < mp->threads; i++)
		wl_timer_fini(&th[i].timer);
	free(th);
	if (err < 0) {
		log_err("cannot start the run: %s", strerror(-err));
		return EXIT_RESOURCE;
	}
	if (err)
		return wl_mem_map_failed(mp->mem.size, mp->mem.page, err);

	res->bytes = mp->mem.size * mp->mem.loops;
	res->loops = mp->mem.loops;
	res->threads = mp->threads;
	mmap_note(mp, res);
	wl_result_add(res, "", (double)res->bytes * 1e9 / (double)(res->elapsed_ns ?: 1),
		      "bytes/sec", true);
	return 0;
}

static void mmap_resources(const void *p, struct wl_resources *r)
{
	const struct mmap_params *mp = p;

	/* every thread maps its own buffer; every loop is the timed fault path */
	*r = (struct wl_resources){ .bytes = mp->mem.size * mp->threads, .page = mp->mem.page,
				    .fault_passes = mp->mem.loops };
}

const struct workload wl_mem_mmap = {
	.collection = "mem",
	.name = "mmap",
	.perf = true,
	.summary = "Time mmap() plus the first touch of every page: the kernel's fault and page-clearing path (perf bench mem mmap).",
	.opts = mmap_opts,
	.params_size = sizeof(struct mmap_params),
	.default_function = "all",
	.function_at = 1,
	.functions = mmap_functions,
	.check = mmap_check,
	.prepare = mmap_prepare,
	.resources = mmap_resources,
	.scaled_opt = "size",
	.run = mmap_run,
};
