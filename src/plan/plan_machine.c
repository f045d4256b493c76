/* plan_machine: a plan against this machine: does it fit, how far to scale it down, how long it takes. */
#include "plan/plan_int.h"
#include "util/log.h"
#include "util/size.h"
#include "util/sysfs.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLAN_BASE_PAGE 4096ULL
#define PLAN_RESERVE (64ULL << 20)	/* kept free, as the mem workloads' own check (mem.c) keeps */
#define PLAN_MAX_PAGES 8
#define PLAN_MAX_DIVISOR (1U << 20)

typedef void (*plan_say_fn)(const char *fmt, ...);

/* The largest memory need of any benchmark, per page size. */
struct plan_need {
	uint64_t page;
	uint64_t bytes;
	const struct plan_bench *who;
};

/* What @b's workload says one of its runs needs.  0 or an exit code after log_err(). */
static int plan_bench_needs(const struct plan_bench *b, uint64_t *bytes, uint64_t *page)
{
	char *copy[256];
	struct wl_parsed parsed;
	int ret;

	if ((size_t)b->argc > sizeof(copy) / sizeof(copy[0]))
		return EXIT_INTERNAL;
	memcpy(copy, b->argv, (size_t)b->argc * sizeof(*copy));
	ret = wl_parse(b->argc, copy, &parsed);
	if (ret)
		return ret;
	b->wl->needs(parsed.params, bytes, page);
	wl_parsed_free(&parsed);
	return 0;
}

/* Collect the largest need per page size into @need; returns how many sizes, or -exit code. */
static int plan_collect_needs(const struct plan *p, struct plan_need *need)
{
	int n = 0;

	for (size_t i = 0; i < p->nbench; i++) {
		const struct plan_bench *b = &p->bench[i];
		uint64_t bytes, page;
		int k, ret;

		if (b->kind != PLAN_BENCH)
			continue;
		if ((ret = plan_bench_needs(b, &bytes, &page)))
			return -ret;
		for (k = 0; k < n && need[k].page != page; k++)
			;
		if (k == PLAN_MAX_PAGES)
			return -EXIT_INTERNAL;
		if (k == n)
			need[n++] = (struct plan_need){ page, 0, NULL };
		if (bytes > need[k].bytes) {
			need[k].bytes = bytes;
			need[k].who = b;
		}
	}
	return n;
}

static char *plan_human(uint64_t bytes, char *buf, size_t len)
{
	if (bytes >= (1ULL << 30))
		snprintf(buf, len, "%.1f GB", (double)bytes / (1ULL << 30));
	else
		snprintf(buf, len, "%.0f MB", (double)bytes / (1ULL << 20));
	return buf;
}

/* Whether @count free pages of @page are there; says why not through @say (NULL: silent). */
static int plan_fit_huge(uint64_t page, uint64_t count, const char *who, plan_say_fn say)
{
	struct sysfs_hugepool pool;
	char pg[16], dir[128];

	size_format(page, pg, sizeof(pg));
	if (sysfs_hugepool(page, &pool) || !pool.supported) {
		if (say) {
			say("%s needs %s huge pages, which this kernel does not offer", who, pg);
			log_hint("boot with hugepagesz=%s hugepages=%" PRIu64 ", or drop the benchmark", pg, count);
		}
		return EXIT_RESOURCE;
	}
	if (pool.free >= count)
		return 0;
	if (say) {
		sysfs_hugepool_dir(page, dir, sizeof(dir));
		say("%s needs %" PRIu64 " free %s huge pages; %" PRIu64 " of %" PRIu64 " are free", who,
		    count, pg, pool.free, pool.total);
		log_hint("as root: echo %" PRIu64 " > %s/nr_hugepages%s", pool.total - pool.free + count,
			 dir, pool.free ? " (or 'plan show --scale auto')" : "");
	}
	return EXIT_RESOURCE;
}

static int plan_fit_memory(uint64_t bytes, uint64_t avail, const char *who, plan_say_fn say)
{
	char need[32], have[32];

	if (bytes + PLAN_RESERVE <= avail)
		return 0;
	if (say) {
		say("%s needs %s of memory; MemAvailable is %s (less %llu MB kept free)", who,
		    plan_human(bytes, need, sizeof(need)), plan_human(avail, have, sizeof(have)),
		    (unsigned long long)(PLAN_RESERVE >> 20));
		log_hint("free memory first, or scale the plan down ('plan show --scale auto')");
	}
	return EXIT_RESOURCE;
}

/* Every benchmark's largest need against MemAvailable or its hugetlb pool. */
static int plan_fit_needs(const struct plan_need *need, int n, uint64_t avail, plan_say_fn say)
{
	int ret = 0;

	for (int k = 0; k < n; k++) {
		char who[320];

		snprintf(who, sizeof(who), "benchmark '%s'", need[k].who->id);
		if (need[k].page <= PLAN_BASE_PAGE)
			ret = plan_fit_memory(need[k].bytes, avail, who, say) ?: ret;
		else
			ret = plan_fit_huge(need[k].page, (need[k].bytes + need[k].page - 1) / need[k].page,
					    who, say) ?: ret;
		if (ret && !say)
			break;
	}
	return ret;
}

/* `requires`, divided by the plan's scale like its sizes. */
static int plan_fit_requires(const struct plan *p, uint64_t avail, plan_say_fn say)
{
	int ret = 0;

	if (p->req.memory)
		ret = plan_fit_memory((p->req.memory + p->scale - 1) / p->scale, avail, "the plan", say);
	for (size_t i = 0; i < p->req.nhuge; i++)
		ret = plan_fit_huge(p->req.huge[i].page, (p->req.huge[i].count + p->scale - 1) / p->scale,
				    "the plan", say) ?: ret;
	return ret;
}

/* 0 when @p fits, EXIT_RESOURCE when not (said through @say unless NULL), or another exit code. */
static int plan_fits(const struct plan *p, bool with_requires, plan_say_fn say)
{
	struct plan_need need[PLAN_MAX_PAGES];
	uint64_t avail;
	int n = plan_collect_needs(p, need), ret;

	if (n < 0)
		return -n;
	if (sysfs_mem_available(&avail)) {
		if (say)
			say("cannot read MemAvailable from /proc/meminfo");
		return EXIT_INTERNAL;
	}
	ret = plan_fit_needs(need, n, avail, say);
	if (with_requires && (!ret || say))
		ret = plan_fit_requires(p, avail, say) ?: ret;
	return ret;
}

int plan_check(const struct plan *p, void (*say)(const char *fmt, ...))
{
	return plan_fits(p, true, say);
}

/* @written divided by @divisor, unless that is not exact or drops below one @page. */
static void plan_scale_size(const char *written, unsigned divisor, uint64_t page, char *buf, size_t len)
{
	uint64_t bytes;

	snprintf(buf, len, "%s", written);
	if (size_parse(written, &bytes) || bytes % divisor || bytes / divisor < page)
		return;
	size_format(bytes / divisor, buf, len);
}

static int plan_scale_bench(struct plan_bench *b, unsigned divisor)
{
	uint64_t bytes, page;
	char buf[32];
	int ret = plan_bench_needs(b, &bytes, &page);

	for (size_t i = 0; !ret && i < b->nargs; i++) {
		struct plan_arg *a = &b->args[i];
		char *v;

		if (a->opt->type != WL_OPT_SIZE || !strcmp(a->opt->long_name, "page"))
			continue;
		plan_scale_size(a->written, divisor, page, buf, sizeof(buf));
		if (!(v = plan_strdup(buf)))
			return EXIT_INTERNAL;
		free(a->value);
		a->value = v;
	}
	return ret ?: plan_bench_build(b);
}

int plan_scale(struct plan *p, unsigned divisor)
{
	unsigned old = p->scale;
	int ret = 0;

	if (!divisor || (divisor & (divisor - 1))) {
		log_err("scale divisor %u is not a power of two", divisor);
		return EXIT_USAGE;
	}
	for (size_t i = 0; !ret && i < p->nbench; i++)
		if (p->bench[i].kind == PLAN_BENCH)
			ret = plan_scale_bench(&p->bench[i], divisor);
	if (ret && divisor != old) {
		plan_scale(p, old);	/* worked before, so it works again */
		return ret;
	}
	p->scale = divisor;
	return ret;
}

/* Sum of the largest needs: scaling that no longer lowers it cannot help any more. */
static uint64_t plan_need_total(const struct plan *p)
{
	struct plan_need need[PLAN_MAX_PAGES];
	int n = plan_collect_needs(p, need);
	uint64_t sum = 0;

	for (int k = 0; k < n; k++)
		sum += need[k].bytes;
	return sum;
}

int plan_scale_auto(struct plan *p, unsigned *divisor)
{
	uint64_t last = UINT64_MAX, now;
	unsigned old = p->scale;
	int ret = 0;

	for (unsigned d = 1; d <= PLAN_MAX_DIVISOR; d <<= 1) {
		if ((ret = plan_scale(p, d)))
			break;
		ret = plan_fits(p, false, NULL);
		if (ret != EXIT_RESOURCE) {
			*divisor = d;
			return ret;
		}
		now = plan_need_total(p);
		if (now >= last)
			break;
		last = now;
	}
	if (ret == EXIT_RESOURCE) {
		log_err("the plan does not fit this machine at any scale (sizes stop at one page)");
		plan_fits(p, false, log_err);
	}
	plan_scale(p, old);
	return ret;
}

/* The unsigned value of option @name in @b's args, or @def when not given. */
static uint64_t plan_arg_value(const struct plan_bench *b, const char *name, uint64_t def)
{
	for (size_t i = 0; i < b->nargs; i++) {
		const struct wl_opt *o = b->args[i].opt;
		uint64_t v;

		if (strcmp(o->long_name, name))
			continue;
		if (o->type == WL_OPT_SIZE && !size_parse(b->args[i].value, &v))
			return v;
		return strtoull(b->args[i].value, NULL, 10);
	}
	return def;
}

/* Whether option @name of @b is @value (or not given and @value is its default). */
static bool plan_arg_is(const struct plan_bench *b, const char *name, const char *value)
{
	for (size_t i = 0; i < b->nargs; i++)
		if (!strcmp(b->args[i].opt->long_name, name))
			return b->args[i].value && !strcmp(b->args[i].value, value);
	for (const struct wl_opt *o = b->wl->opts; o->long_name; o++)
		if (!strcmp(o->long_name, name))
			return o->def && !strcmp(o->def, value);
	return false;
}

/* How many functions the -f list runs here ("all": those this CPU has). */
static unsigned plan_nfunctions(const struct plan_bench *b)
{
	struct wl_func f[WL_MAX_FUNCS];
	size_t n = b->wl->functions(f, WL_MAX_FUNCS);
	const char *spec = b->wl->default_function;
	unsigned cnt = 0;

	for (size_t i = 0; i < b->nargs; i++)
		if (b->args[i].opt == &plan_opt_function)
			spec = b->args[i].value;
	if (strcmp(spec, "all")) {
		for (cnt = 1; *spec; spec++)
			cnt += *spec == ',';
		return cnt;
	}
	for (size_t i = 0; i < n; i++)
		cnt += !f[i].why_not;
	return cnt;
}

double plan_estimate_s(const struct plan_bench *b)
{
	uint64_t bytes, page;
	double passes, rate;

	if (b->kind == PLAN_EXEC)
		return PLAN_EXEC_GUESS_S < b->proto.timeout_s ? PLAN_EXEC_GUESS_S : b->proto.timeout_s;
	if (plan_bench_needs(b, &bytes, &page))
		return 0;
	passes = (double)plan_arg_value(b, "nr_loops", 1);
	rate = PLAN_RATE_CLEAR;
	if (!strcmp(b->wl->name, "mmap"))
		rate = PLAN_RATE_MMAP;		/* every pass is the timed fault path */
	else if (!strcmp(b->wl->name, "memset"))
		passes += 1;			/* the untimed prefault */
	else if (!strcmp(b->wl->name, "clear"))
		/* prefault and verify, and each loop dirties before it clears, twice with --then */
		passes = 2 + 2 * passes * (plan_arg_is(b, "then", "none") ? 1 : 2);
	return plan_nfunctions(b) * passes * (double)bytes / rate;
}

unsigned long plan_invocations(const struct plan_bench *b)
{
	return (unsigned long)b->proto.sessions * (b->proto.warmups + b->proto.repeats);
}

int plan_each_need(const struct plan *p, void (*fn)(void *arg, uint64_t bytes, uint64_t page), void *arg)
{
	for (size_t i = 0; i < p->nbench; i++) {
		uint64_t bytes, page;
		int ret;

		if (p->bench[i].kind != PLAN_BENCH)
			continue;
		ret = plan_bench_needs(&p->bench[i], &bytes, &page);
		if (ret)
			return ret;
		fn(arg, bytes, page);
	}
	if (p->req.memory)
		fn(arg, p->req.memory, 4096);
	for (size_t i = 0; i < p->req.nhuge; i++)
		fn(arg, p->req.huge[i].count * p->req.huge[i].page, p->req.huge[i].page);
	return 0;
}
