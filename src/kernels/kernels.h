/* kernels: the tables of memory-zeroing (fill) and copy strategies, every architecture's, with runtime availability. */
#ifndef CLEARPATH_KERNELS_KERNELS_H
#define CLEARPATH_KERNELS_KERNELS_H

#include <stdbool.h>
#include <stddef.h>

/* Same shape as memset(3), so libc's memset is a strategy without a wrapper. */
typedef void *(*kern_fill_fn)(void *p, int c, size_t n);
/* Same shape as memcpy(3), likewise: @dst and @src never overlap. */
typedef void *(*kern_copy_fn)(void *dst, const void *src, size_t n);

struct cpu_features;

/*
 * One strategy of the fill table (fn) or of the copy table (copy); the
 * other function pointer is NULL.
 */
struct kern_strategy {
	const char *name;	/* -f name, e.g. "x86-64-stosb" */
	const char *desc;	/* one line for -f help; perf's own words for perf's functions */
	const char *arch;	/* "x86-64", "arm64", or NULL when portable */
	/*
	 * One of perf bench mem's functions on its architecture (what perf's
	 * -f all runs there); the others are clearpath's, run by -f all+.
	 */
	bool perf;
	bool zero_only;		/* ignores c and always writes zero */
	bool nontemporal;	/* stores bypass (or do not allocate in) the cache */
	kern_fill_fn fn;	/* fill: NULL when not built for this architecture */
	kern_copy_fn copy;	/* copy: NULL when not built for this architecture */
	/* Why this CPU cannot run it, or NULL.  NULL pointer: always runnable. */
	const char *(*check)(const struct cpu_features *cpu);
	/* What this CPU offers it ("ERMS, FSRM"), or NULL: a hint for -f help. */
	const char *(*note)(const struct cpu_features *cpu);
};

/* Number of fill strategies in the table (all architectures). */
size_t kern_count(void);
/* The i-th fill strategy, or NULL when i >= kern_count(). */
const struct kern_strategy *kern_at(size_t i);
/* The fill strategy named @name, or NULL. */
const struct kern_strategy *kern_find(const char *name);

/* The copy table, likewise: perf's memcpy functions first, then their clearing-study counterparts. */
size_t kern_copy_count(void);
const struct kern_strategy *kern_copy_at(size_t i);
const struct kern_strategy *kern_copy_find(const char *name);

/* Why @s cannot run on this machine ("arm64 only", "needs AVX-512F"), or NULL. */
const char *kern_why_not(const struct kern_strategy *s);
/* What this CPU offers @s that changes its speed ("ERMS, FSRM"), or NULL. */
const char *kern_note(const struct kern_strategy *s);
/* Whether @s is in perf's -f all on this architecture (a perf function built here). */
bool kern_perf_here(const struct kern_strategy *s);

#endif
