/* wl_memcpy: `bench mem memcpy`, perf-compatible: time a copy function between two prefaulted buffers. */
#include "workloads/mem.h"
#include "kernels/kernels.h"
#include "util/log.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static int memcpy_prepare(void *p)
{
	struct wl_mem_chunked *mp = p;

	/* two buffers of -s bytes: the source and the destination */
	if (mp->mem.size > UINT64_MAX / 2) {
		log_err("-s/--size twice over (source and destination) is more memory than any machine has");
		return EXIT_RESOURCE;
	}
	return wl_mem_prepare(&mp->mem, 2 * mp->mem.size);
}

/* The timed loop is perf's do_memcpy(): every loop copies the whole buffer, chunk by chunk. */
static void memcpy_timed(kern_copy_fn fn, char *dst, const char *src, uint64_t size, uint64_t chunk,
			 unsigned loops)
{
	for (unsigned i = 0; i < loops; i++)
		for (uint64_t off = 0; off < size; off += chunk)
			fn(dst + off, src + off, chunk < size - off ? chunk : size - off);
}

static int memcpy_run(const void *p, const struct wl_func *f, struct wl_result *res)
{
	const struct wl_mem_chunked *mp = p;
	const struct kern_strategy *k = f->impl;
	uint64_t size = mp->mem.size, chunk = mp->chunk ? mp->chunk : size, page = mp->mem.page;
	struct wl_timer t;
	char *src, *dst;
	int ret;

	ret = wl_timer_init(&t, mp->mem.cycles, res->counters.on);
	if (ret) {
		log_err("cannot open the cycle counter: %s", strerror(-ret));
		return EXIT_RESOURCE;
	}
	src = wl_mem_map(size, page, true);
	dst = src ? wl_mem_map(size, page, true) : NULL;
	if (!dst) {
		ret = errno;
		wl_mem_unmap(src, size, page);
		wl_timer_fini(&t);
		return wl_mem_map_failed(size, page, ret);
	}
	/*
	 * Outside the timed region, as perf's memcpy_prefault(): write the
	 * source (zeros), then copy once with the function itself, so neither
	 * buffer faults or is cold in the TLB when the clock starts.
	 */
	memset(src, 0, size);
	k->copy(dst, src, size);

	wl_timer_start(&t);
	memcpy_timed(k->copy, dst, src, size, chunk, mp->mem.loops);
	wl_timer_stop(&t);

	wl_timer_result(&t, res);
	wl_timer_fini(&t);
	wl_mem_unmap(dst, size, page);
	wl_mem_unmap(src, size, page);

	/* bytes copied, as perf counts them: the source's size times the loops */
	res->bytes = size * mp->mem.loops;
	res->loops = mp->mem.loops;
	res->threads = 1;
	wl_result_add(res, "", (double)res->bytes * 1e9 / (double)(res->elapsed_ns ?: 1),
		      "bytes/sec", true);
	return 0;
}

static void memcpy_resources(const void *p, struct wl_resources *r)
{
	const struct wl_mem_chunked *mp = p;

	/*
	 * Both buffers; every pass moves -s bytes in and -s bytes out, about as
	 * much memory traffic as writing both: the prefault's memset and copy,
	 * then the loops.
	 */
	*r = (struct wl_resources){ .bytes = 2 * mp->mem.size, .page = mp->mem.page,
				    .write_passes = mp->mem.loops + 1.0 };
}

const struct workload wl_mem_memcpy = {
	.collection = "mem",
	.name = "memcpy",
	.perf = true,
	.summary = "Time memcpy-like copy functions between two prefaulted buffers (perf bench mem memcpy).",
	.opts = wl_mem_chunked_opts,
	.params_size = sizeof(struct wl_mem_chunked),
	.default_function = "all",
	.function_at = WL_MEM_CHUNKED_FUNCTION_AT,
	.functions = wl_mem_copy_strategies,
	.check = wl_mem_chunked_check,
	.prepare = memcpy_prepare,
	.resources = memcpy_resources,
	.scaled_opt = "size",
	.capped_opts = wl_mem_chunked_capped,
	.run = memcpy_run,
};
