/* sysfs: read the few procfs/sysfs facts clearpath needs, through one root that tests can redirect. */
#ifndef CLEARPATH_UTIL_SYSFS_H
#define CLEARPATH_UTIL_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Prefix every path with @root ("" or NULL for the real machine).  Tests
 * point it at a fixture tree; $CLEARPATH_SYSROOT does the same at start-up.
 */
void sysfs_set_root(const char *root);

/* Read the first line of @path (without newline) into @buf.  0 or -errno. */
int sysfs_read_line(const char *path, char *buf, size_t len);
/* Read an unsigned decimal from @path.  0 or -errno (-EINVAL when not a number). */
int sysfs_read_u64(const char *path, uint64_t *out);

/* MemAvailable from /proc/meminfo in bytes.  0 or -errno. */
int sysfs_mem_available(uint64_t *bytes);

/* Hugetlb pool for pages of @page_bytes: whether the kernel offers it, total and free pages. */
struct sysfs_hugepool {
	bool supported;
	uint64_t total;
	uint64_t free;
};
int sysfs_hugepool(uint64_t page_bytes, struct sysfs_hugepool *pool);

/* The sysfs directory of the hugetlb pool for @page_bytes, e.g. ".../hugepages-2048kB". */
void sysfs_hugepool_dir(uint64_t page_bytes, char *buf, size_t len);

/* The active value of a "[bracketed]" sysfs choice file such as THP's enabled. 0 or -errno. */
int sysfs_read_choice(const char *path, char *buf, size_t len);

/* Whether /proc/cpuinfo's flags list @flag (e.g. "pdpe1gb"). */
bool sysfs_cpu_has_flag(const char *flag);

/*
 * The value of the first "@key : value" line of /proc/cpuinfo into @buf
 * (e.g. "model name", "CPU implementer").  0, -ENOENT when absent, or -errno.
 */
int sysfs_cpuinfo_value(const char *key, char *buf, size_t len);
/* How many distinct values "@key" takes in /proc/cpuinfo (e.g. "physical id" = sockets). */
int sysfs_cpuinfo_distinct(const char *key);

#endif
