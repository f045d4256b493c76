/* header: what a comparison was measured on (machine, kernels, THP, sessions, dates), built once for every format and the HTML report. */
#ifndef CLEARPATH_REPORT_HEADER_H
#define CLEARPATH_REPORT_HEADER_H

#include "compare/compare.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * The header reviewers ask for with every comparison (what LKP and mmtests
 * print): per block of a finished comparison (cmp_finish), per column, the
 * machine, the kernel, its cmdline, THP and hugepage settings, how many
 * sessions and samples the column's cells hold and when those sessions ran.
 *
 * The model is plain data, built from what the store already lists (no SQL
 * here): the sessions (store_list_sessions: uuid, sut, swprofile, started,
 * environment.settings and .doctor), the SUT classes and swprofiles (store_list_suts,
 * store_list_swprofiles: name, fingerprint).  Every text format prints it
 * with rpt_header_lines(), json and the HTML report with rpt_header_json()
 * or by reading the structs directly.
 *
 * Strings are NULL when the store does not know the value (imported CSV
 * carries no fingerprints); a value that differs between the sessions of one
 * column is every distinct value joined with ", " in the order first seen.
 * Numbers are -1 when unknown.
 */

/* The machine a column ran on: the SUT fingerprint (harness/fingerprint.c). */
struct rpt_machine {
	char *sut;		/* SUT class name(s) */
	char *cpu;		/* CPU model */
	char *arch;		/* "x86_64", "aarch64" */
	long long cores, sockets, numa_nodes;
	long long memory;	/* bytes */
};

struct rpt_header_column {
	char *name;		/* the column as the table heads it (swprofile, SUT class or value) */
	bool base;
	struct rpt_machine machine;
	char *swprofile;	/* swprofile name(s) of its sessions */
	char *kernel_release;	/* uname -r */
	char *cmdline;		/* /proc/cmdline */
	/* As each session recorded them when it ran (its environment), else the swprofile's fingerprint. */
	char *thp_enabled, *thp_defrag;	/* "always", "madvise", "never" */
	char *hugepages;	/* hugetlb pools: "2MB: 36, 1GB: 0" (pages reserved per size) */
	/*
	 * What `clearpath doctor` found wrong as each session started (its
	 * environment's "doctor"): @doctor_checked of the @sessions recorded it
	 * (sessions before clearpath recorded it did not), and the warnings,
	 * one per check and finding: [{check, status, values: [distinct values
	 * in the order first seen], detail, fix, sessions: how many had it}].
	 */
	size_t doctor_checked;
	json_t *doctor_warnings;
	size_t sessions;	/* distinct sessions in the column's cells */
	size_t samples;		/* measured samples in the column's cells (warmups excluded) */
	char *first, *last;	/* earliest and latest session start, ISO 8601 UTC as stored */
};

struct rpt_header_block {
	char *name;		/* the block (SUT class, or swprofile for CMP_BY_SUT), as cmp_block */
	struct rpt_header_column *cols;	/* one per column of the set, in the set's order */
	size_t ncols;
	size_t sessions, samples;	/* over every column (a session shared by columns counts once) */
	char *first, *last;
	bool same_machine;	/* every column ran on the same machine: print it once */
};

struct rpt_header {
	struct rpt_header_block *blocks;	/* one per block of the set, in order */
	size_t nblocks;
};

/*
 * The header of the finished comparison @s.  @sessions is an array of
 * session objects (store_list_sessions' shape; sessions absent from it count
 * but add no details), @suts and @swprofiles arrays of {name, fingerprint}
 * (either may be NULL: nothing known).  A new header to free with
 * rpt_header_free(); NULL when out of memory.
 */
struct rpt_header *rpt_header_build(const struct cmp_set *s, const json_t *sessions, const json_t *suts,
				    const json_t *swprofiles);
void rpt_header_free(struct rpt_header *h);

/*
 * Block @b as JSON: {sessions, samples, first, last, columns: [{column,
 * base, machine: {sut, cpu, arch, cores, sockets, numa_nodes, memory_bytes},
 * swprofile, kernel_release, cmdline, thp_enabled, thp_defrag, hugepages,
 * doctor: {sessions_checked, warnings: [...]}, sessions, samples, first,
 * last}]}; unknown values are null.  A new reference, NULL when out of memory.
 */
json_t *rpt_header_json(const struct rpt_header_block *b);

/*
 * Block @b as the lines text formats print between the title and the table
 * ("Machine: ...", per column its kernel, sessions and dates, its cmdline,
 * THP and hugepages, and the doctor's warnings recorded with its sessions;
 * a kernel, cmdline or THP line that two or more columns all share is
 * printed once, under "All columns", before them).  Lines may be long; formats that fit a width wrap
 * them.  Calls @emit for each line and stops at its first non-zero return,
 * which it returns; 0 when every line was emitted.
 */
int rpt_header_lines(const struct rpt_header_block *b, int (*emit)(void *ctx, const char *line), void *ctx);

#endif
