/* doctor: is this machine fit to measure memory clearing? Checks, --fix, and the settings snapshot. */
#ifndef CLEARPATH_DOCTOR_DOCTOR_H
#define CLEARPATH_DOCTOR_DOCTOR_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* FAIL means "this run cannot happen as asked" (exit 3); WARN means "it can, but results carry noise". */
enum doctor_status { DOCTOR_PASS, DOCTOR_WARN, DOCTOR_FAIL };

#define DOCTOR_MAX_POOLS 8

/* Hugetlb pages of one size that a plan needs free at once. */
struct doctor_hugeneed {
	uint64_t page_bytes;
	uint64_t pages;
};

/*
 * What the coming runs need, so the checks can answer "enough?" rather than
 * only "how much?".  Zeroed means "nothing stated".  Plans fill it with one
 * doctor_needs_add() per workload; runs happen one after another, so needs
 * merge by maximum, not by sum.
 */
struct doctor_needs {
	uint64_t memory;	/* bytes of ordinary (base-page or THP) memory */
	size_t npools;
	struct doctor_hugeneed hugepages[DOCTOR_MAX_POOLS];
};

/*
 * Merge one workload's need (what workload->resources() reports: @bytes in
 * pages of @page bytes) into @needs.  Base pages (or smaller) count as
 * memory, larger ones as hugetlb pages of that size.  Returns 0, or -E2BIG when more than
 * DOCTOR_MAX_POOLS page sizes are asked for (needs left unchanged).
 */
int doctor_needs_add(struct doctor_needs *needs, uint64_t bytes, uint64_t page);

/*
 * Parse "SIZE:N" (e.g. "2MB:4", "1GB:2") and merge N pages of SIZE into
 * @needs.  Returns 0, -EINVAL for a malformed spec or a page size no larger
 * than the base page, or -E2BIG as doctor_needs_add().
 */
int doctor_needs_parse_hugepages(struct doctor_needs *needs, const char *spec);

/* One line of the doctor's answer. */
struct doctor_result {
	char check[32];		/* stable name, e.g. "thp", "hugetlb.2MB" */
	enum doctor_status status;
	char value[160];	/* what was found */
	char detail[384];	/* what it means for the measurements */
	char fix[320];		/* what to do about it; "" when nothing */
};

struct doctor_report {
	struct doctor_result *items;
	size_t n, cap;
};

/*
 * Append a result: @value and @fix verbatim ("" or NULL for none), the
 * detail from @fmt.  For the checks here and those of the store the cli
 * adds (doctor --store).  Returns 0 or -ENOMEM.
 */
int doctor_add(struct doctor_report *rep, const char *check, enum doctor_status st,
	       const char *value, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/*
 * Which checks a session records as it starts: the cheap ones whose findings
 * colour every number it measures, plus the perf checks when it counts
 * (--counters) or profiles (--profile).
 */
#define DOCTOR_SESSION_ALWAYS	1u
#define DOCTOR_SESSION_COUNTERS	2u
#define DOCTOR_SESSION_PROFILE	4u

/* How to run the checks.  A zeroed struct is valid: every check, no needs, no process sampling, real counters. */
struct doctor_opts {
	const struct doctor_needs *needs;	/* NULL: nothing stated */
	unsigned session;	/* 0: every check; else only those a session with these DOCTOR_SESSION_* bits records */
	unsigned sample_ms;	/* gap between the two /proc/[pid]/stat samples; 0 skips sampling */
	/* Opens a hardware or software counter like perfctr_open(); NULL means perfctr_open. Tests fake it. */
	int (*open_counter)(uint32_t type, uint64_t config);
};

/*
 * Run every check in the registry against the machine under the sysfs root
 * and append one result per check (one per hugetlb page size) to @rep,
 * which must be zeroed or previously freed.  Never changes the machine.
 * Returns 0, or -ENOMEM (the results so far stay in @rep; free it anyway).
 */
int doctor_run(const struct doctor_opts *opts, struct doctor_report *rep);

/* Free what doctor_run() appended and zero @rep.  Safe on a zeroed report. */
void doctor_report_free(struct doctor_report *rep);

/* The worst status in @rep (DOCTOR_PASS when empty). */
enum doctor_status doctor_worst(const struct doctor_report *rep);

/* The result of check @name, or NULL when the report has none. */
const struct doctor_result *doctor_find(const struct doctor_report *rep, const char *name);

/* "PASS", "WARN" or "FAIL". */
const char *doctor_status_name(enum doctor_status st);

/* Print @rep for a terminal: a "STATUS check value: detail" line, plus "fix:" when there is one, wrapped at @width columns (0: 100). */
void doctor_report_text(const struct doctor_report *rep, size_t width, FILE *out);

/* @rep as a new JSON array of {check, status, value, detail, fix}.  NULL when memory runs out. */
json_t *doctor_report_json(const struct doctor_report *rep);

/*
 * What a session records of the doctor as it starts, a new JSON object for
 * its environment: {"checks": [the names of the checks run], "warnings":
 * [{check, status, value, detail, fix}, ...]} with only the checks that did
 * not PASS.  @session holds DOCTOR_SESSION_* bits (ALWAYS is implied).  An
 * empty "warnings" says the machine was checked and found fit; a session
 * without the key predates the recording.  NULL only when memory runs out.
 */
json_t *doctor_session_record(unsigned session);

/*
 * Change the machine so it fits: the performance governor where cpufreq
 * offers it, THP enabled = madvise, enough free hugetlb pages for every
 * pool in @needs (NULL: none), page_reporting_order one above the largest
 * buddy order while a virtio balloon reports free pages, and automatic NUMA
 * balancing off when there is more than one node.  Prints each change and the exact command that
 * undoes it to @out.  The caller checks privileges; writes go through the
 * sysfs root.  Returns 0, -ENOMEM when the kernel could not find the pages
 * (what it did reserve stays, and is printed with its undo), or -errno from
 * the first write the kernel refused (after logging it).
 */
int doctor_fix(const struct doctor_needs *needs, FILE *out);

/*
 * The settings that change what clearpath measures, as a new JSON object for
 * the harness to store with every session: thp_enabled, thp_defrag, governor,
 * boost, hugepages ({"2048kB": {"total", "free"}}), cmdline,
 * perf_event_paranoid, virtualisation, numa_nodes.  Unreadable settings are
 * stored as null.  NULL only when memory runs out.
 */
json_t *doctor_snapshot(void);

/*
 * The settings that differ between snapshots @a and @b, as a new JSON array
 * of {"setting", "a", "b"} (hugetlb pools compare by total only, since free
 * pages are state, not a setting).  An empty array when they agree; NULL when
 * either is not an object or memory runs out.
 */
json_t *doctor_snapshot_diff(const json_t *a, const json_t *b);

#endif
