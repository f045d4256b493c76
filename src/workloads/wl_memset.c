/* wl_memset: `bench mem memset`, perf-compatible: time a fill function over a prefaulted buffer. */
#include "workloads/mem.h"
#include "kernels/kernels.h"
#include "util/log.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct memset_params {
	struct wl_mem_params mem;
	uint64_t chunk;		/* -k: bytes per call, 0 = the whole buffer */
};

static const struct wl_opt memset_opts[] = {
	{ 'k', "chunk", WL_OPT_SIZE, offsetof(struct memset_params, chunk), "0", "size",
	  "bytes per function call; 0 = the whole buffer", 0, 0, NULL },
	WL_MEM_PAGE_OPT(struct memset_params),
	WL_MEM_RUN_OPTS(struct memset_params),
	{ 0, NULL, 0, 0, NULL, NULL, NULL, 0, 0, NULL },
};

static int memset_check(void *p)
{
	struct memset_params *mp = p;
	int ret = wl_mem_check_params(&mp->mem);

	if (ret)
		return ret;
	if (mp->chunk > mp->mem.size) {
		log_err("-k/--chunk (%llu bytes) is larger than -s/--size (%llu bytes)",
			(unsigned long long)mp->chunk, (unsigned long long)mp->mem.size);
		log_hint("use a chunk no larger than the buffer, or -k 0 for the whole buffer");
		return EXIT_USAGE;
	}
	return 0;
}

static int memset_prepare(void *p)
{
	struct memset_params *mp = p;

	return wl_mem_prepare(&mp->mem, mp->mem.size);
}

/*
 * The timed loop is perf's do_memset(): every loop fills the whole buffer,
 * chunk by chunk, with the loop index as the fill byte (zero-only
 * strategies always write zero).
 */
static void memset_timed(kern_fill_fn fn, bool zero_only, char *buf, uint64_t size,
			 uint64_t chunk, unsigned loops)
{
	for (unsigned i = 0; i < loops; i++) {
		int c = zero_only ? 0 : (int)i;

		for (uint64_t off = 0; off < size; off += chunk)
			fn(buf + off, c, chunk < size - off ? chunk : size - off);
	}
}

static int memset_run(const void *p, const struct wl_func *f, struct wl_result *res)
{
	const struct memset_params *mp = p;
	const struct kern_strategy *k = f->impl;
	uint64_t size = mp->mem.size, chunk = mp->chunk ? mp->chunk : size;
	struct wl_timer t;
	char *buf;
	int ret;

	ret = wl_timer_init(&t, mp->mem.cycles, res->counters.on);
	if (ret) {
		log_err("cannot open the cycle counter: %s", strerror(-ret));
		return EXIT_RESOURCE;
	}
	buf = wl_mem_map(size, mp->mem.page, true);
	if (!buf) {
		wl_timer_fini(&t);
		return wl_mem_map_failed(size, mp->mem.page, errno);
	}
	/* Prefault (and warm) with the function itself, outside the timed region, as perf does. */
	k->fn(buf, k->zero_only ? 0 : -1, size);

	wl_timer_start(&t);
	memset_timed(k->fn, k->zero_only, buf, size, chunk, mp->mem.loops);
	wl_timer_stop(&t);

	wl_timer_result(&t, res);
	wl_timer_fini(&t);
	wl_mem_unmap(buf, size, mp->mem.page);

	res->bytes = size * mp->mem.loops;
	res->loops = mp->mem.loops;
	res->threads = 1;
	if (k->zero_only)
		snprintf(res->note, sizeof(res->note), "zero fill only: this function cannot write other bytes");
	wl_result_add(res, "", (double)res->bytes * 1e9 / (double)(res->elapsed_ns ?: 1),
		      "bytes/sec", true);
	return 0;
}

static void memset_resources(const void *p, struct wl_resources *r)
{
	const struct memset_params *mp = p;

	*r = (struct wl_resources){ .bytes = mp->mem.size, .page = mp->mem.page,
				    .write_passes = mp->mem.loops + 1.0 };	/* + the untimed prefault */
}

static const char *const memset_capped[] = { "chunk", NULL };

const struct workload wl_mem_memset = {
	.collection = "mem",
	.name = "memset",
	.summary = "Time memset-like fill functions over a prefaulted buffer (perf bench mem memset).",
	.opts = memset_opts,
	.params_size = sizeof(struct memset_params),
	.default_function = "all",
	.function_at = 2,
	.functions = wl_mem_strategies,
	.check = memset_check,
	.prepare = memset_prepare,
	.resources = memset_resources,
	.scaled_opt = "size",
	.capped_opts = memset_capped,
	.run = memset_run,
};
