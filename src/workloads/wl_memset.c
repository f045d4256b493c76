/* wl_memset: `bench mem memset`, perf-compatible: time a fill function over a prefaulted buffer. */
#include "workloads/mem.h"
#include "kernels/kernels.h"
#include "util/log.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static int memset_prepare(void *p)
{
	struct wl_mem_chunked *mp = p;

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
	const struct wl_mem_chunked *mp = p;
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
	const struct wl_mem_chunked *mp = p;

	*r = (struct wl_resources){ .bytes = mp->mem.size, .page = mp->mem.page,
				    .write_passes = mp->mem.loops + 1.0 };	/* + the untimed prefault */
}

const struct workload wl_mem_memset = {
	.collection = "mem",
	.name = "memset",
	.perf = true,
	.summary = "Time memset-like fill functions over a prefaulted buffer (perf bench mem memset).",
	.opts = wl_mem_chunked_opts,
	.params_size = sizeof(struct wl_mem_chunked),
	.default_function = "all",
	.function_at = WL_MEM_CHUNKED_FUNCTION_AT,
	.functions = wl_mem_strategies,
	.check = wl_mem_chunked_check,
	.prepare = memset_prepare,
	.resources = memset_resources,
	.scaled_opt = "size",
	.capped_opts = wl_mem_chunked_capped,
	.run = memset_run,
};
