/* doctor: the registry of checks, the report they fill, and its text and JSON forms. */
#include "doctor/checks.h"
#include "machine/machine.h"
#include "util/size.h"
#include "util/sysfs.h"
#include "util/text.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define DOCTOR_WIDTH 100	/* columns of a text report line, wrapped beyond, where the caller knows no width */

/*
 * The order is the order of the output: frequency, memory, noise, counters.
 * The third field says which checks a session records as it starts
 * (doctor_session_record): the cheap ones whose findings colour the numbers
 * measured.  Pools and memory are the run's own business (it fails without
 * them), busy-processes sleeps to sample, isolation only advises; the perf
 * checks matter only to sessions that count or profile.
 */
static const struct doctor_check doctor_checks[] = {
	{ "boot.simulated", doctor_check_boot, DOCTOR_SESSION_ALWAYS },
	{ "cpu.governor", doctor_check_governor, DOCTOR_SESSION_ALWAYS },
	{ "cpu.boost", doctor_check_boost, DOCTOR_SESSION_ALWAYS },
	{ "thp", doctor_check_thp, DOCTOR_SESSION_ALWAYS },
	{ "hugetlb", doctor_check_hugetlb, 0 },
	{ "hugetlb.1GB-support", doctor_check_1gb, 0 },
	{ "memory", doctor_check_memory, 0 },
	{ "swap", doctor_check_swap, DOCTOR_SESSION_ALWAYS },
	{ "page-reporting", doctor_check_page_reporting, DOCTOR_SESSION_ALWAYS },
	{ "load", doctor_check_load, DOCTOR_SESSION_ALWAYS },
	{ "busy-processes", doctor_check_busy, 0 },
	{ "virtualisation", doctor_check_virt, DOCTOR_SESSION_ALWAYS },
	{ "numa", doctor_check_numa, DOCTOR_SESSION_ALWAYS },
	{ "numa.balancing", doctor_check_numa_balancing, DOCTOR_SESSION_ALWAYS },
	{ "isolation", doctor_check_isolation, 0 },
	{ "perf.paranoid", doctor_check_paranoid, DOCTOR_SESSION_COUNTERS },
	{ "perf.hw-events", doctor_check_events, DOCTOR_SESSION_COUNTERS },
	{ "perf.profile", doctor_check_profile, DOCTOR_SESSION_PROFILE },
};

int doctor_needs_add(struct doctor_needs *needs, uint64_t bytes, uint64_t page)
{
	uint64_t pages;
	size_t i;

	if (page <= machine_base_page()) {
		if (bytes > needs->memory)
			needs->memory = bytes;
		return 0;
	}
	pages = (bytes + page - 1) / page;
	for (i = 0; i < needs->npools && needs->hugepages[i].page_bytes != page; i++)
		;
	if (i == needs->npools) {
		if (i == DOCTOR_MAX_POOLS)
			return -E2BIG;
		needs->hugepages[needs->npools++] = (struct doctor_hugeneed){ page, 0 };
	}
	if (pages > needs->hugepages[i].pages)
		needs->hugepages[i].pages = pages;
	return 0;
}

int doctor_needs_parse_hugepages(struct doctor_needs *needs, const char *spec)
{
	const char *colon = strchr(spec, ':');
	char size[32], *end;
	uint64_t page, n;

	if (!colon || colon == spec || (size_t)(colon - spec) >= sizeof(size))
		return -EINVAL;
	memcpy(size, spec, colon - spec);
	size[colon - spec] = '\0';
	if (size_parse(size, &page) || page <= machine_base_page())
		return -EINVAL;
	errno = 0;
	n = strtoull(colon + 1, &end, 10);
	/* a pool counts pages in an unsigned long; a count past 2^32 would also overflow n * page */
	if (errno || end == colon + 1 || *end || colon[1] == '-' || n > UINT32_MAX)
		return -EINVAL;
	return doctor_needs_add(needs, n * page, page);
}

int doctor_add(struct doctor_report *rep, const char *check, enum doctor_status st,
	       const char *value, const char *fix, const char *fmt, ...)
{
	struct doctor_result *r;
	va_list ap;

	if (rep->n == rep->cap) {
		size_t cap = rep->cap ? rep->cap * 2 : 16;
		struct doctor_result *items = realloc(rep->items, cap * sizeof(*items));

		if (!items)
			return -ENOMEM;
		rep->items = items;
		rep->cap = cap;
	}
	r = &rep->items[rep->n++];
	memset(r, 0, sizeof(*r));
	snprintf(r->check, sizeof(r->check), "%s", check);
	r->status = st;
	snprintf(r->value, sizeof(r->value), "%s", value ? value : "");
	snprintf(r->fix, sizeof(r->fix), "%s", fix ? fix : "");
	va_start(ap, fmt);
	vsnprintf(r->detail, sizeof(r->detail), fmt, ap);
	va_end(ap);
	/* what the machine says (a DMI product name, the kernel command line) may hold terminal escapes */
	text_one_line(r->value);
	text_one_line(r->detail);
	text_one_line(r->fix);
	return 0;
}

int doctor_run(const struct doctor_opts *opts, struct doctor_report *rep)
{
	static const struct doctor_needs none;
	struct doctor_ctx ctx = { .opts = opts, .needs = opts->needs ? opts->needs : &none };
	char what[256], flags[16];
	char **cpus = doctor_cpu_dirs();

	for (size_t i = 0; cpus && cpus[i]; i++)
		ctx.ncpus++;
	sysfs_list_free(cpus);
	ctx.vm = doctor_virt(what, sizeof(what));
	/* x86 lists "flags" in cpuinfo, arm64 "Features": pdpe1gb only means something on x86 */
	ctx.x86 = sysfs_read_key("/proc/cpuinfo", "flags", flags, sizeof(flags)) == 0;
	for (size_t i = 0; i < sizeof(doctor_checks) / sizeof(doctor_checks[0]); i++) {
		int ret;

		if (opts->session && !(doctor_checks[i].session & opts->session))
			continue;
		ret = doctor_checks[i].run(&ctx, rep);
		if (ret)
			return ret;
	}
	return 0;
}

void doctor_report_free(struct doctor_report *rep)
{
	free(rep->items);
	memset(rep, 0, sizeof(*rep));
}

enum doctor_status doctor_worst(const struct doctor_report *rep)
{
	enum doctor_status worst = DOCTOR_PASS;

	for (size_t i = 0; i < rep->n; i++)
		if (rep->items[i].status > worst)
			worst = rep->items[i].status;
	return worst;
}

const struct doctor_result *doctor_find(const struct doctor_report *rep, const char *name)
{
	for (size_t i = 0; i < rep->n; i++)
		if (!strcmp(rep->items[i].check, name))
			return &rep->items[i];
	return NULL;
}

const char *doctor_status_name(enum doctor_status st)
{
	static const char *const names[] = { "PASS", "WARN", "FAIL" };

	return st <= DOCTOR_FAIL ? names[st] : "????";
}

/*
 * Print @head (@indent columns wide) then @text's words, wrapped so no line
 * passes @width; continuation lines start at column @indent.  Bytes
 * count as columns (the text is ASCII; anything else only wraps earlier).  A
 * word wider than a line gets a line of its own rather than being cut.
 */
static void doctor_wrap(FILE *out, const char *head, size_t indent, const char *text, size_t width)
{
	size_t col = indent;

	fputs(head, out);
	for (const char *w = text; *w;) {
		size_t len = strcspn(w, " ");

		if (col > indent && col + 1 + len > width) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fwrite(w, 1, len, out);
		col += len;
		w += len;
		w += strspn(w, " ");
	}
	fputc('\n', out);
}

void doctor_report_text(const struct doctor_report *rep, size_t width, FILE *out)
{
	/* a terminal narrower than the head and a word leaves those on a line of their own */
	width = width ? width : DOCTOR_WIDTH;
	for (size_t i = 0; i < rep->n; i++) {
		const struct doctor_result *r = &rep->items[i];
		char head[64], text[sizeof(r->value) + sizeof(r->detail) + 2];

		snprintf(head, sizeof(head), "%s  %-20s ", doctor_status_name(r->status), r->check);
		snprintf(text, sizeof(text), "%s%s%s", r->value, r->detail[0] ? ": " : "", r->detail);
		doctor_wrap(out, head, strlen(head), text, width);
		if (r->fix[0]) {
			snprintf(head, sizeof(head), "      %-20s fix: ", "");
			doctor_wrap(out, head, strlen(head), r->fix, width);
		}
	}
}

json_t *doctor_report_json(const struct doctor_report *rep)
{
	json_t *arr = json_array();

	for (size_t i = 0; arr && i < rep->n; i++) {
		const struct doctor_result *r = &rep->items[i];
		json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s}", "check", r->check,
				      "status", doctor_status_name(r->status), "value", r->value,
				      "detail", r->detail, "fix", r->fix);

		if (!o || json_array_append_new(arr, o)) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}
