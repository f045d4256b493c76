/* machine: memory facts of this machine and the one rule for "does it fit", shared by workloads, plans, doctor and the fingerprint. */
#include "machine/machine.h"
#include "util/log.h"
#include "util/size.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KB (1ULL << 10)
#define MB (1ULL << 20)
#define GB (1ULL << 30)

/* Base pages Linux uses: 4KB everywhere, 16KB and 64KB granules on arm64. */
static const uint64_t machine_bases[] = { 4 * KB, 16 * KB, 64 * KB };
/* Every hugetlb size of any of them (x86-64 and arm64 with each granule, below). */
static const uint64_t machine_hugetlb[] = { 64 * KB, 2 * MB, 32 * MB, 512 * MB, GB, 16 * GB };

/* The hugetlb sizes a kernel can offer, by architecture and base page: contiguous PTEs, PMDs, PUDs. */
struct machine_granule {
	bool x86;
	uint64_t base;
	uint64_t huge[4];	/* 0-terminated */
};

static const struct machine_granule machine_granules[] = {
	{ true, 4 * KB, { 2 * MB, GB, 0, 0 } },
	{ false, 4 * KB, { 64 * KB, 2 * MB, 32 * MB, GB } },
	{ false, 16 * KB, { 2 * MB, 32 * MB, GB, 0 } },
	{ false, 64 * KB, { 2 * MB, 512 * MB, 16 * GB, 0 } },
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static bool machine_in(const uint64_t *set, size_t n, uint64_t v)
{
	for (size_t i = 0; i < n; i++)
		if (set[i] == v)
			return true;
	return false;
}

static uint64_t machine_read_base_page(void)
{
	char line[64];
	uint64_t kb;
	long sc;

	/* "KernelPageSize:        4 kB" of the first mapping; a fixture states its own */
	if (!sysfs_read_key("/proc/self/smaps", "KernelPageSize", line, sizeof(line)) &&
	    sscanf(line, "%" SCNu64, &kb) == 1 && machine_in(machine_bases, NELEM(machine_bases), kb * KB))
		return kb * KB;
	sc = sysconf(_SC_PAGESIZE);
	return sc > 0 ? (uint64_t)sc : 4 * KB;
}

uint64_t machine_base_page(void)
{
	/*
	 * Read once per sysfs root: mmap's timed region maps through
	 * wl_mem_map(), which asks whether a page is the base page, and must
	 * not read procfs there.  Threads of one run read it before they start.
	 */
	static uint64_t cached;
	static unsigned cached_gen;
	unsigned gen = sysfs_root_generation();

	if (!cached || cached_gen != gen) {
		cached = machine_read_base_page();
		cached_gen = sysfs_root_generation();	/* the first read may have set the root */
	}
	return cached;
}

static int machine_u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

size_t machine_huge_sizes(uint64_t *sizes, size_t max)
{
	char **dirs = sysfs_list_dir("/sys/kernel/mm/hugepages", "hugepages-");
	size_t n = 0;

	for (size_t i = 0; dirs && dirs[i] && n < max; i++) {
		uint64_t kb;

		if (sscanf(dirs[i], "hugepages-%" SCNu64 "kB", &kb) == 1)
			sizes[n++] = kb * KB;
	}
	sysfs_list_free(dirs);
	qsort(sizes, n, sizeof(*sizes), machine_u64_cmp);
	return n;
}

void machine_page_list(char *buf, size_t len)
{
	uint64_t sizes[MACHINE_MAX_PAGES];
	size_t n = machine_huge_sizes(sizes, MACHINE_MAX_PAGES), used;
	char sz[16];

	snprintf(buf, len, "%s (base)", size_format(machine_base_page(), sz, sizeof(sz)));
	for (size_t i = 0; i < n; i++) {
		used = strlen(buf);
		snprintf(buf + used, len - used, ", %s", size_format(sizes[i], sz, sizeof(sz)));
	}
}

bool machine_page_plausible(uint64_t page)
{
	return machine_in(machine_bases, NELEM(machine_bases), page) ||
	       machine_in(machine_hugetlb, NELEM(machine_hugetlb), page);
}

bool machine_page_hugetlb(uint64_t page)
{
	return machine_in(machine_hugetlb, NELEM(machine_hugetlb), page);
}

uint64_t machine_thp_size(void)
{
	uint64_t bytes;
	char mode[64];

	if (!sysfs_read_u64("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", &bytes))
		return bytes;
	if (sysfs_read_line("/sys/kernel/mm/transparent_hugepage/enabled", mode, sizeof(mode)))
		return 0;
	/* older kernels lack the file: a PMD maps as many base pages as one page holds 8-byte entries */
	return machine_base_page() * (machine_base_page() / 8);
}

/* x86 cpuinfo has "flags" with fpu; arm64's has "Features". */
static bool machine_x86(void)
{
	return sysfs_cpu_has_flag("fpu");
}

/* Whether a kernel of this architecture with @base pages can offer hugetlb pages of @page at all. */
static bool machine_huge_possible(uint64_t base, uint64_t page)
{
	bool x86 = machine_x86();

	for (size_t i = 0; i < NELEM(machine_granules); i++) {
		const struct machine_granule *g = &machine_granules[i];

		if (g->x86 != x86 || g->base != base)
			continue;
		for (size_t j = 0; j < NELEM(g->huge) && g->huge[j]; j++)
			if (g->huge[j] == page)
				return true;
		return false;
	}
	return machine_in(machine_hugetlb, NELEM(machine_hugetlb), page);	/* an unknown combination */
}

bool machine_page_is_base(uint64_t page)
{
	return page == machine_base_page();
}

unsigned machine_numa_nodes(void)
{
	char **nodes = sysfs_list_dir("/sys/devices/system/node", "node");
	unsigned n = 0;

	for (size_t i = 0; nodes && nodes[i]; i++)
		n += nodes[i][4] >= '0' && nodes[i][4] <= '9';
	sysfs_list_free(nodes);
	/* without CONFIG_NUMA there is no node directory, and all memory is one node */
	return n ? n : 1;
}

/* Cache index @dir's size in bytes if it holds data at @level: its "size" reads "491520K" (or M, G). */
static int machine_cache_size(const char *dir, unsigned *level, uint64_t *bytes)
{
	char path[320], buf[64], *end;
	uint64_t lvl, v;
	int ret;

	snprintf(path, sizeof(path), "%s/type", dir);
	if ((ret = sysfs_read_line(path, buf, sizeof(buf))))
		return ret;
	if (strcmp(buf, "Data") && strcmp(buf, "Unified"))
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/level", dir);
	if ((ret = sysfs_read_u64(path, &lvl)))
		return ret;
	snprintf(path, sizeof(path), "%s/size", dir);
	if ((ret = sysfs_read_line(path, buf, sizeof(buf))))
		return ret;
	v = strtoull(buf, &end, 10);
	if (end == buf || lvl > 16)
		return -EINVAL;
	v <<= *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
	*level = (unsigned)lvl;
	*bytes = v;
	return 0;
}

int machine_llc(uint64_t *bytes, unsigned *level)
{
	static const char base[] = "/sys/devices/system/cpu/cpu0/cache";
	char **idx = sysfs_list_dir(base, "index"), dir[256];
	unsigned best = 0, lvl;
	uint64_t size;
	int ret = idx ? -ENOENT : -errno;

	for (size_t i = 0; idx && idx[i]; i++) {
		snprintf(dir, sizeof(dir), "%s/%s", base, idx[i]);
		if (!machine_cache_size(dir, &lvl, &size) && size && lvl > best) {
			best = lvl;
			*bytes = size;
			*level = lvl;
			ret = 0;
		}
	}
	sysfs_list_free(idx);
	return ret;
}

int machine_max_order(void)
{
	char line[512], *p;
	int orders = 0;
	int ret = sysfs_read_line("/proc/buddyinfo", line, sizeof(line));

	if (ret)
		return ret;
	/* "Node 0, zone      DMA      0      1 ...": the counts follow the zone's name */
	p = strstr(line, "zone");
	if (!p)
		return -EINVAL;
	p += strlen("zone");
	p += strspn(p, " \t");
	p += strcspn(p, " \t");
	for (p += strspn(p, " \t"); *p; p += strspn(p, " \t")) {
		size_t digits = strspn(p, "0123456789");

		if (!digits || (p[digits] && p[digits] != ' ' && p[digits] != '\t'))
			return -EINVAL;
		orders++;
		p += digits;
	}
	/* no kernel has more than a few dozen orders (x86-64 has 11): more is not a buddyinfo */
	return orders && orders <= 32 ? orders - 1 : -EINVAL;
}

int machine_mem_available(uint64_t *bytes)
{
	return sysfs_mem_available(bytes);
}

/*
 * Base pages: MemAvailable, less what the rest of the system keeps.  A
 * kernel without MemAvailable (before 3.14) cannot be judged: the need
 * passes, marked MACHINE_UNREADABLE so callers can say it was not checked.
 */
static bool machine_fit_memory(struct machine_fit *fit)
{
	int ret = machine_mem_available(&fit->avail);

	if (ret) {
		fit->verdict = MACHINE_UNREADABLE;
		fit->err = ret;
		return true;
	}
	if (fit->avail < MACHINE_RESERVE || fit->bytes > fit->avail - MACHINE_RESERVE)
		fit->verdict = MACHINE_SHORT_MEMORY;
	return fit->verdict == MACHINE_FITS;
}

/* Hugetlb pages: the pool of that size, which must offer them and have enough free. */
static bool machine_fit_pool(struct machine_fit *fit)
{
	int ret = sysfs_hugepool(fit->page, &fit->pool);

	fit->pages = (fit->bytes + fit->page - 1) / fit->page;
	if (ret) {
		fit->verdict = MACHINE_UNREADABLE;
		fit->err = ret;
	} else if (!fit->pool.supported) {
		fit->verdict = machine_huge_possible(fit->base, fit->page) ? MACHINE_POOL_ABSENT :
			       MACHINE_NOT_A_PAGE;
	} else if (fit->pool.free < fit->pages) {
		fit->verdict = MACHINE_POOL_SHORT;
	}
	return fit->verdict == MACHINE_FITS;
}

bool machine_fit(uint64_t bytes, uint64_t page, struct machine_fit *fit)
{
	memset(fit, 0, sizeof(*fit));
	fit->bytes = bytes;
	fit->page = page;
	fit->base = machine_base_page();
	if (page == fit->base)
		return machine_fit_memory(fit);
	if (page < fit->base) {
		fit->verdict = MACHINE_BELOW_BASE;
		return false;
	}
	return machine_fit_pool(fit);
}

bool machine_fit_pool_fixable(const struct machine_fit *fit)
{
	return fit->verdict == MACHINE_POOL_SHORT;
}

uint64_t machine_fit_reserve_total(const struct machine_fit *fit)
{
	return fit->pool.total - fit->pool.free + fit->pages;
}

void machine_reserve_cmd(const struct machine_fit *fit, char *buf, size_t len)
{
	char dir[128];

	sysfs_hugepool_dir(fit->page, dir, sizeof(dir));
	snprintf(buf, len, "echo %" PRIu64 " > %s/nr_hugepages", machine_fit_reserve_total(fit), dir);
}

/* @bytes in its largest unit, exactly when whole ("96MB"), else to one decimal ("21.4GB"). */
static const char *machine_human(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KB", "MB", "GB", "TB" };
	uint64_t unit = 1;
	size_t u = 0;

	while (u + 1 < NELEM(units) && bytes >= unit * 1024) {
		unit *= 1024;
		u++;
	}
	if (bytes % unit == 0)
		snprintf(buf, len, "%" PRIu64 "%s", bytes / unit, units[u]);
	else
		snprintf(buf, len, "%.1f%s", (double)bytes / (double)unit, units[u]);
	return buf;
}

/* The kernel's boot-option spelling of a page size: "2M", "1G", "64K". */
static const char *machine_boot_size(uint64_t page, char *buf, size_t len)
{
	size_t n;

	size_format(page, buf, len);
	n = strlen(buf);
	if (n > 1 && buf[n - 1] == 'B')
		buf[n - 1] = '\0';
	return buf;
}

/* The hint: @advice (the caller's own remedy, e.g. a smaller -s) first when there is one, then @what. */
static void machine_hint(const char *what, const char *advice)
{
	if (advice)
		log_hint("%s, or %s", advice, what);
	else
		log_hint("%s", what);
}

static int machine_explain_memory(const struct machine_fit *fit, const char *who, const char *advice,
				  void (*say)(const char *fmt, ...))
{
	char need[32], have[32];

	/* the need is what was asked for, exactly; MemAvailable is a measurement */
	say("%s needs %s of memory but only %s is available (MemAvailable, less %lluMB kept free)", who,
	    size_format(fit->bytes, need, sizeof(need)), machine_human(fit->avail, have, sizeof(have)),
	    (unsigned long long)(MACHINE_RESERVE >> 20));
	machine_hint("free memory first", advice);
	return EXIT_RESOURCE;
}

static int machine_explain_short(const struct machine_fit *fit, const char *who, const char *advice,
				 void (*say)(const char *fmt, ...))
{
	char pg[16], boot[16], cmd[256], what[512];
	uint64_t total = machine_fit_reserve_total(fit);

	size_format(fit->page, pg, sizeof(pg));
	machine_boot_size(fit->page, boot, sizeof(boot));
	machine_reserve_cmd(fit, cmd, sizeof(cmd));
	say("%s needs %" PRIu64 " free %s hugetlb pages, but %" PRIu64 " of %" PRIu64 " are free", who,
	    fit->pages, pg, fit->pool.free, fit->pool.total);
	/* the largest pages must be reserved before memory fragments, so at boot first */
	if (fit->page >= GB)
		snprintf(what, sizeof(what), "reserve them at boot: default_hugepagesz=%s hugepagesz=%s hugepages=%"
			 PRIu64 " (or as root: %s)", boot, boot, total, cmd);
	else
		snprintf(what, sizeof(what), "reserve them as root: %s (or boot with hugepagesz=%s hugepages=%"
			 PRIu64 ")", cmd, boot, total);
	machine_hint(what, advice);
	return EXIT_RESOURCE;
}

static int machine_explain_absent(const struct machine_fit *fit, const char *who, const char *advice,
				  void (*say)(const char *fmt, ...))
{
	char pg[16], boot[16], list[256], what[512];

	size_format(fit->page, pg, sizeof(pg));
	machine_page_list(list, sizeof(list));
	if (fit->page == GB && machine_x86() && !sysfs_cpu_has_flag("pdpe1gb")) {
		say("%s needs 1GB pages, but 1GB pages are not supported: this CPU lacks the pdpe1gb flag", who);
		snprintf(what, sizeof(what), "use -p 2MB or another size this kernel offers: %s", list);
	} else if (fit->verdict == MACHINE_BELOW_BASE) {
		say("%s needs %s pages, but this kernel's base page is %s: no mapping has smaller pages", who, pg,
		    size_format(fit->base, boot, sizeof(boot)));
		snprintf(what, sizeof(what), "use a size this kernel offers: %s", list);
	} else if (fit->verdict == MACHINE_NOT_A_PAGE) {
		say("%s needs %s pages, which an %s kernel with %s base pages cannot offer", who, pg,
		    machine_x86() ? "x86-64" : "arm64", size_format(fit->base, boot, sizeof(boot)));
		snprintf(what, sizeof(what), "use a size this kernel offers: %s", list);
	} else {
		char dir[128];

		sysfs_hugepool_dir(fit->page, dir, sizeof(dir));
		say("%s needs %s pages, but %s hugetlb pages are not offered by this kernel (no %s)", who, pg, pg,
		    dir);
		snprintf(what, sizeof(what), "this kernel offers %s; boot with hugepagesz=%s hugepages=N for %s pages",
			 list, machine_boot_size(fit->page, boot, sizeof(boot)), pg);
	}
	machine_hint(what, advice);
	return EXIT_RESOURCE;
}

int machine_fit_explain(const struct machine_fit *fit, const char *who, const char *advice,
			void (*say)(const char *fmt, ...))
{
	char pg[16];

	switch (fit->verdict) {
	case MACHINE_FITS:
		return 0;
	case MACHINE_SHORT_MEMORY:
		return machine_explain_memory(fit, who, advice, say);
	case MACHINE_POOL_SHORT:
		return machine_explain_short(fit, who, advice, say);
	case MACHINE_UNREADABLE:	/* only pools: unreadable MemAvailable passes */
		say("cannot read the %s hugetlb pool: %s", size_format(fit->page, pg, sizeof(pg)),
		    strerror(-fit->err));
		return EXIT_RESOURCE;
	default:
		return machine_explain_absent(fit, who, advice, say);
	}
}

uint64_t machine_scale_size(uint64_t bytes, unsigned divisor, uint64_t unit)
{
	uint64_t v;

	if (!unit || bytes <= unit || !divisor)
		return bytes;
	v = bytes / divisor / unit * unit;
	return v < unit ? unit : v;
}
