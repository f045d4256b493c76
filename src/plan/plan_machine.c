/* plan_machine: a plan against this machine: does it fit, how far to scale it down, how long it takes. */
#include "plan/plan_int.h"
#include "machine/machine.h"
#include "util/log.h"
#include "util/size.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLAN_MAX_PAGES MACHINE_MAX_PAGES
#define PLAN_MAX_DIVISOR (1U << 20)

typedef void (*plan_say_fn)(const char *fmt, ...);

/* The largest memory need of any benchmark, per page size. */
struct plan_need {
	uint64_t page;
	uint64_t bytes;
	const struct plan_bench *who;
};

/* How a plan falls short of the machine: what stops it, so --scale auto can say what would help. */
struct plan_shortfall {
	unsigned memory;	/* needs beyond MemAvailable: scaling helps */
	unsigned pools;		/* hugetlb pools too small or empty: reserving pages helps */
	unsigned other;		/* sizes this kernel does not offer, facts that cannot be read */
};

/* What @b's workload says one of its runs asks of the machine.  0 or an exit code after log_err(). */
static int plan_bench_resources(const struct plan_bench *b, struct wl_resources *r)
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
	b->wl->resources(parsed.params, r);
	wl_parsed_free(&parsed);
	return 0;
}

int plan_bench_buffer(const struct plan_bench *b, uint64_t *bytes)
{
	struct wl_resources r;
	int ret = b->kind == PLAN_BENCH ? plan_bench_resources(b, &r) : EXIT_USAGE;

	if (!ret)
		*bytes = r.bytes;
	return ret;
}

/* Collect the largest need per page size into @need; returns how many sizes, or -exit code. */
static int plan_collect_needs(const struct plan *p, struct plan_need *need)
{
	int n = 0;

	for (size_t i = 0; i < p->nbench; i++) {
		const struct plan_bench *b = &p->bench[i];
		struct wl_resources r;
		int k, ret;

		if (b->kind != PLAN_BENCH)
			continue;
		if ((ret = plan_bench_resources(b, &r)))
			return -ret;
		for (k = 0; k < n && need[k].page != r.page; k++)
			;
		if (k == PLAN_MAX_PAGES)
			return -EXIT_INTERNAL;
		if (k == n)
			need[n++] = (struct plan_need){ r.page, 0, NULL };
		if (r.bytes > need[k].bytes) {
			need[k].bytes = r.bytes;
			need[k].who = b;
		}
	}
	return n;
}

/* One need against the machine (machine/ judges and words it); counts a shortfall in @sf. */
static int plan_fit_one(uint64_t bytes, uint64_t page, const char *who, plan_say_fn say,
			struct plan_shortfall *sf)
{
	struct machine_fit fit;

	if (machine_fit(bytes, page, &fit))
		return 0;
	if (fit.verdict == MACHINE_SHORT_MEMORY)
		sf->memory++;
	else if (machine_fit_pool_fixable(&fit))
		sf->pools++;
	else
		sf->other++;
	if (!say)
		return EXIT_RESOURCE;
	return machine_fit_explain(&fit, who, fit.verdict == MACHINE_SHORT_MEMORY || fit.pool.free ?
				   "scale the plan down ('plan show --scale auto')" : NULL, say);
}

/* Every benchmark's largest need against MemAvailable or its hugetlb pool. */
static int plan_fit_needs(const struct plan_need *need, int n, plan_say_fn say, struct plan_shortfall *sf)
{
	int ret = 0;

	for (int k = 0; k < n; k++) {
		char who[320];

		snprintf(who, sizeof(who), "benchmark '%s'", need[k].who->id);
		ret = plan_fit_one(need[k].bytes, need[k].page, who, say, sf) ?: ret;
	}
	return ret;
}

/* `requires`, divided by the plan's scale like its sizes (never below one page). */
static int plan_fit_requires(const struct plan *p, plan_say_fn say, struct plan_shortfall *sf)
{
	int ret = 0;

	if (p->req.memory)
		ret = plan_fit_one((p->req.memory + p->scale - 1) / p->scale, machine_base_page(),
				   "the plan", say, sf);
	for (size_t i = 0; i < p->req.nhuge; i++) {
		uint64_t count = (p->req.huge[i].count + p->scale - 1) / p->scale;

		ret = plan_fit_one(count * p->req.huge[i].page, p->req.huge[i].page, "the plan", say, sf) ?: ret;
	}
	return ret;
}

/* 0 when @p fits, EXIT_RESOURCE when not (said through @say unless NULL), or another exit code. */
static int plan_fits(const struct plan *p, bool with_requires, plan_say_fn say, struct plan_shortfall *sf)
{
	struct plan_need need[PLAN_MAX_PAGES];
	struct plan_shortfall ignored;
	int n = plan_collect_needs(p, need), ret;

	if (!sf)
		sf = &ignored;
	memset(sf, 0, sizeof(*sf));
	if (n < 0)
		return -n;
	ret = plan_fit_needs(need, n, say, sf);
	if (with_requires)
		ret = plan_fit_requires(p, say, sf) ?: ret;
	return ret;
}

int plan_check(const struct plan *p, void (*say)(const char *fmt, ...))
{
	return plan_fits(p, true, say, NULL);
}

/* The value of @b's arg for option @name, or NULL when it was not given. */
static struct plan_arg *plan_arg_find(struct plan_bench *b, const char *name)
{
	for (size_t i = 0; name && i < b->nargs; i++)
		if (!strcmp(b->args[i].opt->long_name, name))
			return &b->args[i];
	return NULL;
}

/* Set @a's value to @bytes (its written text when that is the value written). */
static int plan_arg_set_size(struct plan_arg *a, uint64_t bytes, uint64_t written)
{
	char buf[32], *v;

	if (bytes == written)
		snprintf(buf, sizeof(buf), "%s", a->written);
	else
		size_format(bytes, buf, sizeof(buf));
	if (!(v = plan_strdup(buf)))
		return EXIT_INTERNAL;
	free(a->value);
	a->value = v;
	return 0;
}

/*
 * The workload's scaled option divided from its written value (machine/
 * keeps it a whole number of pages, at least one), and the options capped
 * at it lowered where they would exceed it; everything else as written.
 */
static int plan_scale_bench(struct plan_bench *b, unsigned divisor)
{
	struct plan_arg *size = plan_arg_find(b, b->wl->scaled_opt);
	struct wl_resources r;
	uint64_t written, scaled;
	int ret;

	if (!size || size_parse(size->written, &written))
		return 0;	/* not given: the workload's default is small already */
	if ((ret = plan_bench_resources(b, &r)))
		return ret;
	scaled = machine_scale_size(written, divisor, r.page);
	ret = plan_arg_set_size(size, scaled, written);
	for (const char *const *c = b->wl->capped_opts; !ret && c && *c; c++) {
		struct plan_arg *a = plan_arg_find(b, *c);
		uint64_t v;

		if (a && !size_parse(a->written, &v))
			ret = plan_arg_set_size(a, v > scaled ? scaled : v, v);
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

/* Multiply @b's written buffer size by @factor (a power of two) where @b's buffer is at most @llc; 0 or an exit code. */
static int plan_raise_bench(struct plan_bench *b, uint64_t llc, unsigned factor)
{
	struct plan_arg *size = plan_arg_find(b, b->wl->scaled_opt);
	uint64_t written, bytes;
	char buf[32], *w;
	int ret;

	if (!size || size_parse(size->written, &written) || (ret = plan_bench_buffer(b, &bytes)) || bytes > llc)
		return 0;	/* not given (the default is small, but the plan chose it), or past the cache already */
	/* as if the plan said it: scaling divides from it, and the capped -k keeps its value */
	size_format(written * factor, buf, sizeof(buf));
	if (!(w = plan_strdup(buf)))
		return EXIT_INTERNAL;
	free(size->written);
	size->written = w;
	return plan_arg_set_size(size, written * factor, written * factor) ?: plan_bench_build(b);
}

/* Whether two benchmarks of @p became one (a raised -s 64MB and a written -s 1GB). */
static bool plan_ids_collide(const struct plan *p)
{
	for (size_t i = 0; i < p->nbench; i++)
		for (size_t j = i + 1; j < p->nbench; j++)
			if (p->bench[i].kind == p->bench[j].kind && !strcmp(p->bench[i].id, p->bench[j].id))
				return true;
	return false;
}

/* The smallest power of two that takes every buffer of @p at most @llc to twice it, or 0 when none is. */
static unsigned plan_past_factor(const struct plan *p, uint64_t llc)
{
	uint64_t least = 0, bytes;

	for (size_t i = 0; i < p->nbench; i++) {
		struct plan_bench *b = &p->bench[i];
		struct plan_arg *size = b->kind == PLAN_BENCH ? plan_arg_find(b, b->wl->scaled_opt) : NULL;

		if (size && !plan_bench_buffer(b, &bytes) && bytes <= llc && (!least || bytes < least))
			least = bytes;
	}
	if (!least)
		return 0;
	/* twice the cache at least: a buffer just past it still finds most of its lines there */
	for (unsigned f = 2; f <= PLAN_MAX_DIVISOR; f <<= 1)
		if (least * f >= 2 * llc)
			return f;
	return 0;
}

int plan_past_cache(struct plan *p, unsigned *factor, uint64_t *llc)
{
	unsigned level, f;
	int ret = 0;

	*factor = 1;
	if (machine_llc(llc, &level) || !(f = plan_past_factor(p, *llc)))
		return 0;
	/* where memory allows: each halving of the factor, down to none */
	for (; f > 1; f >>= 1) {
		struct plan *copy = NULL;

		if ((ret = plan_load(p->file, &copy)))
			return ret;
		for (size_t i = 0; !ret && i < copy->nbench; i++)
			if (copy->bench[i].kind == PLAN_BENCH)
				ret = plan_raise_bench(&copy->bench[i], *llc, f);
		if (!ret && !plan_fits(copy, false, NULL, NULL) && !plan_ids_collide(copy)) {
			plan_free(copy);
			break;
		}
		plan_free(copy);
		if (ret)
			return ret;
	}
	for (size_t i = 0; f > 1 && !ret && i < p->nbench; i++)
		if (p->bench[i].kind == PLAN_BENCH)
			ret = plan_raise_bench(&p->bench[i], *llc, f);
	if (!ret)
		*factor = p->raised = f;
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

/*
 * Say why no scale fits @p (scaled as far as it went).  When memory stops
 * being the obstacle at @pool_div and only hugetlb pools short of free pages
 * remain, say so and give the commands that reserve the pages for that scale.
 */
static void plan_scale_refuse(struct plan *p, unsigned pool_div)
{
	struct plan_shortfall sf;

	plan_fits(p, false, NULL, &sf);
	if (pool_div) {
		plan_scale(p, pool_div);
		log_err("the plan does not fit this machine at any scale: a hugetlb pool it needs has too few "
			"free pages (scaling stops at one page)");
		log_hint("reserve the pages below and --scale auto picks --scale %u; with more pages, less", pool_div);
	} else if (!sf.memory) {
		log_err("the plan does not fit this machine at any scale: it needs page sizes this kernel does "
			"not offer (scaling stops at one page)");
	} else {
		log_err("the plan does not fit this machine at any scale (sizes stop at one page)");
	}
	plan_fits(p, false, log_err, NULL);
}

int plan_scale_auto(struct plan *p, unsigned *divisor)
{
	uint64_t last = UINT64_MAX, now;
	unsigned old = p->scale, pool_div = 0;
	struct plan_shortfall sf;
	int ret = 0;

	for (unsigned d = 1; d <= PLAN_MAX_DIVISOR; d <<= 1) {
		if ((ret = plan_scale(p, d)))
			break;
		ret = plan_fits(p, false, NULL, &sf);
		if (ret != EXIT_RESOURCE) {
			*divisor = d;
			return ret;
		}
		if (!pool_div && !sf.memory && !sf.other)
			pool_div = d;	/* the first scale at which only empty pools stand in the way */
		now = plan_need_total(p);
		if (now >= last)
			break;
		last = now;
	}
	if (ret == EXIT_RESOURCE)
		plan_scale_refuse(p, pool_div);
	plan_scale(p, old);
	return ret;
}

/* How many functions the -f list runs here ("all", "all+": those of the set this CPU has). */
static unsigned plan_nfunctions(const struct plan_bench *b)
{
	struct wl_func f[WL_MAX_FUNCS];
	const struct wl_func *sel[WL_MAX_FUNCS];
	size_t n = b->wl->functions(f, WL_MAX_FUNCS), nsel;
	const char *spec = b->wl->default_function;
	unsigned cnt = 0;

	for (size_t i = 0; i < b->nargs; i++)
		if (b->args[i].opt == &plan_opt_function)
			spec = b->args[i].value;
	if (!wl_select_set(spec, f, n, sel, &nsel)) {
		for (cnt = 1; *spec; spec++)
			cnt += *spec == ',';
		return cnt;
	}
	for (size_t i = 0; i < nsel; i++)
		cnt += !sel[i]->why_not;
	return cnt;
}

double plan_estimate_s(const struct plan_bench *b)
{
	struct wl_resources r;

	if (b->kind == PLAN_EXEC)
		return PLAN_EXEC_GUESS_S < b->proto.timeout_s ? PLAN_EXEC_GUESS_S : b->proto.timeout_s;
	if (plan_bench_resources(b, &r))
		return 0;
	return plan_nfunctions(b) * (double)r.bytes *
	       (r.write_passes / PLAN_RATE_CLEAR + r.fault_passes / PLAN_RATE_MMAP);
}

unsigned long plan_invocations(const struct plan_bench *b)
{
	return (unsigned long)b->proto.sessions * (b->proto.warmups + b->proto.repeats);
}

int plan_each_need(const struct plan *p, void (*fn)(void *arg, uint64_t bytes, uint64_t page), void *arg)
{
	for (size_t i = 0; i < p->nbench; i++) {
		struct wl_resources r;
		int ret;

		if (p->bench[i].kind != PLAN_BENCH)
			continue;
		ret = plan_bench_resources(&p->bench[i], &r);
		if (ret)
			return ret;
		fn(arg, r.bytes, r.page);
	}
	if (p->req.memory)
		fn(arg, p->req.memory, machine_base_page());
	for (size_t i = 0; i < p->req.nhuge; i++)
		fn(arg, p->req.huge[i].count * p->req.huge[i].page, p->req.huge[i].page);
	return 0;
}
