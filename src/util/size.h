/* size: parse and print byte sizes the way perf bench does (4096, 4KB, 2MB, 1GB) plus IEC KiB..TiB. */
#ifndef CLEARPATH_UTIL_SIZE_H
#define CLEARPATH_UTIL_SIZE_H

#include <stddef.h>
#include <stdint.h>

/* The accepted forms, for error messages. */
#define SIZE_FORMS "a whole number of bytes with an optional unit: 4096, 4KB, 2MB, 1GB, 1TB (or kb/mb/gb/tb, or KiB/MiB/GiB/TiB)"

/*
 * Parse @s into *out.  Accepts digits followed by nothing, B/b, KB/kb, MB/mb,
 * GB/gb, TB/tb (binary multiples, as perf_atoll) or KiB/MiB/GiB/TiB.
 * Returns 0, -EINVAL for anything else (signs, spaces, fractions, junk, a
 * bare "1G"), or -ERANGE when the value exceeds INT64_MAX.  Zero is valid
 * here; callers that need a positive size check for it.
 */
int size_parse(const char *s, uint64_t *out);

/*
 * Write @bytes as the shortest exact perf-style string ("1GB", "4KB", "1536")
 * into @buf.  Returns @buf.
 */
char *size_format(uint64_t bytes, char *buf, size_t len);

/*
 * @bytes for people, rounded, in the units sizes are given in (perf's
 * 1024-based KB, MB, GB, TB: "21.4GB", "512.0MB", "800B") into @buf, for
 * amounts that are no exact multiple (memory, MemAvailable).  Returns @buf.
 */
char *size_human(uint64_t bytes, char *buf, size_t len);

#endif
