/* registry: the list of workloads; adding one is a new file plus one line here. */
#ifndef CLEARPATH_WORKLOADS_REGISTRY_H
#define CLEARPATH_WORKLOADS_REGISTRY_H

/* X(symbol): each expands to `extern const struct workload symbol;` and a table row. */
#define WL_REGISTRY(X) \
	X(wl_mem_memcpy) \
	X(wl_mem_memset) \
	X(wl_mem_mmap) \
	X(wl_mem_clear)

#endif
