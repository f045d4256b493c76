/* header: what a comparison was measured on (machine, kernels, THP, sessions, dates), built once for every format and the HTML report. */
#ifndef CLEARPATH_RESULT_HEADER_H
#define CLEARPATH_RESULT_HEADER_H

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
 * with rpt_header_lines() (report/header.h), json and the HTML report with
 * rpt_header_json() or by reading the structs directly.
 *
 * Strings are NULL when the store does not know the value (imported CSV
 * carries no fingerprints); a value that differs between the sessions of one
 * column is every distinct value joined with ", " in the order first seen.
 * Numbers are -1 when unknown.
 */

/* The machine a column ran on: the SUT fingerprint (harness/fingerprint.c). */
struct result_machine {
	char *sut;		/* SUT class name(s) */
	char *cpu;		/* CPU model */
	char *arch;		/* "x86_64", "aarch64" */
	long long cores, sockets, numa_nodes;
	long long memory;	/* bytes */
	long long llc, llc_level;	/* the last-level cache (machine_llc()): bytes and level */
};

struct result_header_column {
	char *name;		/* the column as the table heads it (swprofile, SUT class or value) */
	bool base;
	struct result_machine machine;
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

struct result_header_block {
	char *name;		/* the block (SUT class, or swprofile for CMP_BY_SUT), as cmp_block */
	struct result_header_column *cols;	/* one per column of the set, in the set's order */
	size_t ncols;
	size_t sessions, samples;	/* over every column (a session shared by columns counts once) */
	char *first, *last;
	bool same_machine;	/* every column ran on the same machine: print it once */
};

struct result_header {
	struct result_header_block *blocks;	/* one per block of the set, in order */
	size_t nblocks;
};

/*
 * The header of the finished comparison @s.  @sessions is an array of
 * session objects (store_list_sessions' shape; sessions absent from it count
 * but add no details), @suts and @swprofiles arrays of {name, fingerprint}
 * (either may be NULL: nothing known).  A new header to free with
 * result_header_free(); NULL when out of memory.
 */
struct result_header *result_header_build(const struct cmp_set *s, const json_t *sessions, const json_t *suts,
				    const json_t *swprofiles);
void result_header_free(struct result_header *h);

/* The machine as one phrase ("Neoverse-V1 (aarch64), 64 cores, ..."); NULL when nothing is known or out of memory. */
char *result_machine_text(const struct result_machine *m);

#endif
