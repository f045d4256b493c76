/* header: the header (result/header.h) as JSON and as the lines text formats print. */
#ifndef CLEARPATH_REPORT_HEADER_H
#define CLEARPATH_REPORT_HEADER_H

#include "result/header.h"

#include <jansson.h>

/*
 * Block @b as JSON: {sessions, samples, first, last, columns: [{column,
 * base, machine: {sut, cpu, arch, cores, sockets, numa_nodes, memory_bytes},
 * swprofile, kernel_release, cmdline, thp_enabled, thp_defrag, hugepages,
 * doctor: {sessions_checked, warnings: [...]}, sessions, samples, first,
 * last}]}; unknown values are null.  A new reference, NULL when out of memory.
 */
json_t *rpt_header_json(const struct result_header_block *b);

/*
 * Block @b as the lines text formats print between the title and the table
 * ("Machine: ...", per column its kernel, sessions and dates, its cmdline,
 * THP and hugepages, and the doctor's warnings recorded with its sessions;
 * a kernel, cmdline or THP line that two or more columns all share is
 * printed once, under "All columns", before them).  Lines may be long; formats that fit a width wrap
 * them.  Calls @emit for each line and stops at its first non-zero return,
 * which it returns; 0 when every line was emitted.
 */
int rpt_header_lines(const struct result_header_block *b, int (*emit)(void *ctx, const char *line), void *ctx);

#endif
