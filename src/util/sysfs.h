/* sysfs: read the few procfs/sysfs facts clearpath needs, through one root that tests can redirect. */
#ifndef CLEARPATH_UTIL_SYSFS_H
#define CLEARPATH_UTIL_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Prefix every path with @root ("" or NULL for the real machine).  Tests
 * point it at a fixture tree; $CLEARPATH_SYSROOT does the same at start-up.
 */
void sysfs_set_root(const char *root);

/*
 * How many times the root has been set: a value read through the root may be
 * cached for as long as this does not change (machine/'s base page, read on
 * the timed path of mmap).
 */
unsigned sysfs_root_generation(void);

/* fopen(@path under the root, "re") for files read whole (kallsyms).  NULL with errno set. */
FILE *sysfs_fopen(const char *path);

/* Read the first line of @path (without newline) into @buf.  0 or -errno. */
int sysfs_read_line(const char *path, char *buf, size_t len);
/* Read an unsigned decimal from @path.  0 or -errno (-EINVAL when not a number). */
int sysfs_read_u64(const char *path, uint64_t *out);

/*
 * The value of the first "@key: value" line of @path (meminfo, cpuinfo,
 * /proc/self/status; spaces or tabs may precede the colon) into @buf.
 * 0, -ENOENT when no line has @key, or -errno.
 */
int sysfs_read_key(const char *path, const char *key, char *buf, size_t len);

/*
 * Names in directory @path that start with @prefix ("" for all, never "." or
 * ".."), sorted, as a NULL-terminated malloc'd array; free it with
 * sysfs_list_free().  NULL when the directory cannot be read (errno says why)
 * or memory runs out.
 */
char **sysfs_list_dir(const char *path, const char *prefix);
void sysfs_list_free(char **names);

/*
 * Write @value and a newline to @path, as `echo value > path` does; only
 * `clearpath doctor --fix` writes.  0 or -errno (the kernel's own refusal,
 * e.g. -EINVAL for a governor it does not know, comes back as it is).
 */
int sysfs_write_line(const char *path, const char *value);

/* MemAvailable from /proc/meminfo in bytes.  0 or -errno. */
int sysfs_mem_available(uint64_t *bytes);

/*
 * Hugetlb pool for pages of @page_bytes: whether the kernel offers it, its
 * total and free pages (live counts: nr_hugepages includes the surplus pages
 * allocated while in use), and @overcommit, the most surplus pages allowed
 * (a setting; 0 where nr_overcommit_hugepages is absent, as in fixture trees).
 */
struct sysfs_hugepool {
	bool supported;
	uint64_t total;
	uint64_t free;
	uint64_t overcommit;
};
int sysfs_hugepool(uint64_t page_bytes, struct sysfs_hugepool *pool);

/* The sysfs directory of the hugetlb pool for @page_bytes, e.g. ".../hugepages-2048kB". */
void sysfs_hugepool_dir(uint64_t page_bytes, char *buf, size_t len);

/* The active value of a "[bracketed]" sysfs choice file such as THP's enabled. 0 or -errno. */
int sysfs_read_choice(const char *path, char *buf, size_t len);

/* Whether /proc/cpuinfo's flags list @flag (e.g. "pdpe1gb"). */
bool sysfs_cpu_has_flag(const char *flag);

/* How many distinct values "@key" takes in /proc/cpuinfo (e.g. "physical id" = sockets). */
int sysfs_cpuinfo_distinct(const char *key);

#endif
