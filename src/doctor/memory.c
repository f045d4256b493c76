/* memory: doctor checks of memory settings: THP, hugetlb pools, 1GB page support, MemAvailable, swap and free page reporting. */
#include "doctor/checks.h"
#include "machine/machine.h"
#include "util/boot.h"
#include "util/size.h"
#include "util/sysfs.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int doctor_check_thp(const struct doctor_ctx *ctx, struct doctor_report *rep)
{
	char enabled[32], defrag[32], value[96], base[16];

	(void)ctx;
	/* what -p means by the base page depends on the kernel: 4KB, or 16KB/64KB on arm64 */
	size_format(machine_base_page(), base, sizeof(base));
	if (sysfs_read_choice(DOCTOR_THP_DIR "/enabled", enabled, sizeof(enabled)))
		return doctor_add(rep, "thp", DOCTOR_PASS, "not built in", NULL,
				  "the kernel has no transparent huge pages: -p %s results are %s faults", base, base);
	if (sysfs_read_choice(DOCTOR_THP_DIR "/defrag", defrag, sizeof(defrag)))
		snprintf(defrag, sizeof(defrag), "?");
	snprintf(value, sizeof(value), "enabled=%s defrag=%s", enabled, defrag);
	if (!strcmp(enabled, "always"))
		return doctor_add(rep, "thp", DOCTOR_WARN, value,
				  "clearpath doctor --fix (or: echo madvise > " DOCTOR_THP_DIR "/enabled)",
				  "with 'always', -p %s mmap results measure THP faults (huge-page clears), not %s faults",
				  base, base);
	if (!strcmp(defrag, "always"))
		return doctor_add(rep, "thp", DOCTOR_WARN, value,
				  "echo madvise > " DOCTOR_THP_DIR "/defrag",
				  "defrag 'always' stalls THP faults on compaction, so fault times vary with fragmentation");
	return doctor_add(rep, "thp", DOCTOR_PASS, value, NULL,
			  "-p %s results are %s faults; THP only where a workload asks with madvise", base, base);
}

/* The pages of @page_bytes the needs ask for (0: none). */
static uint64_t doctor_need_pages(const struct doctor_needs *needs, uint64_t page_bytes)
{
	for (size_t i = 0; i < needs->npools; i++)
		if (needs->hugepages[i].page_bytes == page_bytes)
			return needs->hugepages[i].pages;
	return 0;
}

static int doctor_check_pool(const struct doctor_ctx *ctx, struct doctor_report *rep, uint64_t page)
{
	char name[32], sz[16], value[96], fix[384], cmd[256], dir[128];
	uint64_t need = doctor_need_pages(ctx->needs, page);
	struct machine_fit fit;
	bool fits = machine_fit(need * page, page, &fit);

	size_format(page, sz, sizeof(sz));
	snprintf(name, sizeof(name), "hugetlb.%s", sz);
	sysfs_hugepool_dir(page, dir, sizeof(dir));
	if (!fit.pool.supported || fit.verdict == MACHINE_UNREADABLE)
		return doctor_add(rep, name, need ? DOCTOR_FAIL : DOCTOR_WARN, "not offered", NULL,
				  "the kernel has no %s pool (%s), so -p %s cannot run", sz, dir, sz);
	snprintf(value, sizeof(value), "total %" PRIu64 ", free %" PRIu64, fit.pool.total, fit.pool.free);
	if (!fits) {
		machine_reserve_cmd(&fit, cmd, sizeof(cmd));
		snprintf(fix, sizeof(fix), "clearpath doctor --fix --hugepages %s:%" PRIu64 " (or: %s)", sz, need, cmd);
		return doctor_add(rep, name, DOCTOR_FAIL, value, fix,
				  "the runs need %" PRIu64 " free %s pages", need, sz);
	}
	if (need)
		return doctor_add(rep, name, DOCTOR_PASS, value, NULL,
				  "enough for the %" PRIu64 " pages the runs need", need);
	if (!fit.pool.free)	/* nothing asks for them: a PASS, which has nothing to fix */
		return doctor_add(rep, name, DOCTOR_PASS, value, NULL,
				  "no free pages: -p %s runs need pages reserved first ('doctor --fix --hugepages %s:N')",
				  sz, sz);
	return doctor_add(rep, name, DOCTOR_PASS, value, NULL, "-p %s runs can use up to %" PRIu64
			  " pages", sz, fit.pool.free);
}

int doctor_check_hugetlb(const struct doctor_ctx *ctx, struct doctor_report *rep)
{
	uint64_t sizes[MACHINE_MAX_PAGES + DOCTOR_MAX_POOLS];
	size_t n = machine_huge_sizes(sizes, MACHINE_MAX_PAGES);
	int ret = 0;

	/* every size the kernel offers, then any size the runs need that it does not */
	for (size_t i = 0; i < ctx->needs->npools; i++) {
		uint64_t page = ctx->needs->hugepages[i].page_bytes;
		size_t j = 0;

		while (j < n && sizes[j] != page)
			j++;
		if (j == n)
			sizes[n++] = page;
	}
	if (!n)
		return doctor_add(rep, "hugetlb", DOCTOR_WARN, "none", NULL,
				  "the kernel offers no hugetlb pools (CONFIG_HUGETLBFS off): -p 2MB/1GB cannot run");
	for (size_t i = 0; !ret && i < n; i++)
		ret = doctor_check_pool(ctx, rep, sizes[i]);
	return ret;
}

int doctor_check_1gb(const struct doctor_ctx *ctx, struct doctor_report *rep)
{
	static const char check[] = "hugetlb.1GB-support";
	struct sysfs_hugepool pool;

	if (!sysfs_hugepool(1ULL << 30, &pool) && pool.supported)
		return doctor_add(rep, check, DOCTOR_PASS, "supported", NULL,
				  "the kernel offers a 1GB pool; reserve early, before memory fragments");
	if (!ctx->x86 && machine_base_page() == (64ULL << 10))
		return doctor_add(rep, check, DOCTOR_WARN, "not offered", NULL,
				  "this kernel has 64KB base pages, whose hugetlb sizes are 2MB, 512MB and 16GB, never 1GB");
	if (!ctx->x86)
		return doctor_add(rep, check, DOCTOR_WARN, "not offered", "boot with hugepagesz=1G hugepages=N",
				  "arm64 has 1GB pages only in kernels built with 4KB or 16KB base pages (64KB-page kernels offer 512MB)");
	if (!sysfs_cpu_has_flag("pdpe1gb"))
		return doctor_add(rep, check, DOCTOR_WARN, "not supported", ctx->vm ?
				  "ask for a VM type that passes pdpe1gb through (e.g. -cpu host)" : NULL,
				  "the CPU lacks the pdpe1gb flag%s", ctx->vm ? " (or the hypervisor hides it)" : "");
	return doctor_add(rep, check, DOCTOR_WARN, "not offered", "boot with hugepagesz=1G hugepages=N",
			  "the CPU has pdpe1gb but the kernel offers no hugepages-1048576kB pool");
}

/* A "N kB" line of /proc/meminfo, in bytes.  0 or -errno. */
static int doctor_meminfo(const char *key, uint64_t *bytes)
{
	char line[64];
	int ret = sysfs_read_key("/proc/meminfo", key, line, sizeof(line));

	if (ret)
		return ret;
	if (sscanf(line, "%" SCNu64, bytes) != 1)
		return -1;
	*bytes *= 1024;
	return 0;
}

int doctor_check_memory(const struct doctor_ctx *ctx, struct doctor_report *rep)
{
	char value[64], avail_s[32], need_s[32];
	uint64_t need = ctx->needs->memory;
	struct machine_fit fit;
	bool fits = machine_fit(need, machine_base_page(), &fit);

	if (fit.verdict == MACHINE_UNREADABLE)
		return doctor_add(rep, "memory", need ? DOCTOR_FAIL : DOCTOR_WARN, "unknown", NULL,
				  "no MemAvailable in /proc/meminfo (kernel older than 3.14?)");
	snprintf(value, sizeof(value), "MemAvailable %s", size_human(fit.avail, avail_s, sizeof(avail_s)));
	size_human(need, need_s, sizeof(need_s));
	if (!fits)
		return doctor_add(rep, "memory", DOCTOR_FAIL, value, "free memory, or use a smaller -s",
				  "the runs need %s, and %lluMB stay free for the rest of the system", need_s,
				  (unsigned long long)(MACHINE_RESERVE >> 20));
	if (need)
		return doctor_add(rep, "memory", DOCTOR_PASS, value, NULL, "enough for the %s the runs need",
				  need_s);
	return doctor_add(rep, "memory", DOCTOR_PASS, value, NULL, "keep -s well below this");
}

int doctor_check_swap(const struct doctor_ctx *ctx, struct doctor_report *rep)
{
	uint64_t total, free_b;
	char value[64], used[32];

	(void)ctx;
	if (doctor_meminfo("SwapTotal", &total) || doctor_meminfo("SwapFree", &free_b))
		return doctor_add(rep, "swap", DOCTOR_WARN, "unknown", NULL, "no Swap lines in /proc/meminfo");
	if (!total)
		return doctor_add(rep, "swap", DOCTOR_PASS, "none", NULL, "no swap device");
	snprintf(value, sizeof(value), "%s in use", size_human(total - free_b, used, sizeof(used)));
	if (total > free_b)
		return doctor_add(rep, "swap", DOCTOR_WARN, value,
				  "free memory, then swapoff -a && swapon -a to bring pages back",
				  "memory is under pressure: runs may reclaim or swap in the middle");
	return doctor_add(rep, "swap", DOCTOR_PASS, value, NULL, "swap is on but unused");
}

#define DOCTOR_REPORTING_CHECK "page-reporting"

/* What reporting does to the numbers, and the fix that works on any kernel. */
#define DOCTOR_REPORTING_OFF "turn reporting off in the VMM (QEMU: virtio-balloon free-page-reporting=off)"
#define DOCTOR_REPORTING_EFFECT \
	"the host discards the blocks the guest frees; a THP or hugetlb fault that reuses one " \
	"waits for the host to fault it in and zero it again, so clear rates vary several-fold from run to run"

#define DOCTOR_REPORTING_PARAM "page_reporting.page_reporting_order="

/* The order the kernel command line asks for (the last one given), or -1 when it names none. */
static long doctor_reporting_cmdline(void)
{
	char cmdline[4096], *save = NULL, *end;
	long order = -1;

	if (boot_cmdline(cmdline, sizeof(cmdline)))
		return -1;
	for (char *tok = strtok_r(cmdline, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		if (!strncmp(tok, DOCTOR_REPORTING_PARAM, strlen(DOCTOR_REPORTING_PARAM))) {
			long v = strtol(tok + strlen(DOCTOR_REPORTING_PARAM), &end, 10);

			order = end != tok + strlen(DOCTOR_REPORTING_PARAM) && !*end ? v : order;
		}
	return order;
}

/*
 * The warning and its fix.  Booting with the parameter keeps the order only
 * where the kernel takes it: a command line that already asks for an order
 * the running kernel does not have (one that caps or refuses it) is said
 * so, and that advice left out (@order: the order in effect, -1 unknown).
 */
static int doctor_reporting_warn(struct doctor_report *rep, const char *value, int max, long order,
				 const char *why)
{
	char fix[480], note[200] = "";
	long asked = doctor_reporting_cmdline();

	/* one order above the largest: no free block is ever large enough to report */
	if (asked > max && asked != order) {
		snprintf(fix, sizeof(fix), "clearpath doctor --fix (or: echo %d > " DOCTOR_REPORTING_ORDER ") after"
			 " each boot, or " DOCTOR_REPORTING_OFF, max + 1);
		snprintf(note, sizeof(note), "; the kernel command line asks for " DOCTOR_REPORTING_PARAM "%ld, but"
			 " the order in effect is %ld: this kernel did not take it at boot", asked, order);
	} else {
		snprintf(fix, sizeof(fix), "clearpath doctor --fix (or: echo %d > " DOCTOR_REPORTING_ORDER ") until"
			 " reboot; boot with " DOCTOR_REPORTING_PARAM "%d to keep it, or " DOCTOR_REPORTING_OFF,
			 max + 1, max + 1);
	}
	return doctor_add(rep, DOCTOR_REPORTING_CHECK, DOCTOR_WARN, value, fix, "%s" DOCTOR_REPORTING_EFFECT "%s", why,
			  note);
}

int doctor_check_page_reporting(const struct doctor_ctx *ctx, struct doctor_report *rep)
{
	static const char *const check = DOCTOR_REPORTING_CHECK;
	char dev[64] = "", value[160], raw[32], block[16];
	int max = doctor_max_order(), ret;
	long order;

	(void)ctx;
	switch (doctor_balloon(dev, sizeof(dev))) {
	case DOCTOR_NO_BALLOON:
		return doctor_add(rep, check, DOCTOR_PASS, "no balloon", NULL,
				  "no virtio balloon driver is bound: no host takes back the memory the kernel frees");
	case DOCTOR_BALLOON_KEEPS:
		snprintf(value, sizeof(value), "%s without free page reporting", dev);
		return doctor_add(rep, check, DOCTOR_PASS, value, NULL,
				  "the balloon does not hand freed memory to the host");
	case DOCTOR_BALLOON_UNKNOWN:
		snprintf(value, sizeof(value), "%s: features unreadable", dev);
		return doctor_add(rep, check, DOCTOR_WARN, value, NULL,
				  "cannot tell whether the virtio balloon hands freed memory to the host (%s/%s/features)",
				  DOCTOR_VIRTIO_DIR, dev);
	case DOCTOR_BALLOON_REPORTS:
		break;
	}
	ret = doctor_reporting_order(&order, raw, sizeof(raw));
	if (ret == -ENOENT) {
		snprintf(value, sizeof(value), "%s reports free blocks of the pageblock order", dev);
		return doctor_add(rep, check, DOCTOR_WARN, value,
				  DOCTOR_REPORTING_OFF "; kernels before 5.14 cannot raise the order",
				  DOCTOR_REPORTING_EFFECT);
	}
	if (ret) {
		snprintf(value, sizeof(value), "%s reports free blocks, page_reporting_order '%s'", dev, raw);
		return doctor_reporting_warn(rep, value, max, -1, "unreadable order, so assume the worst: ");
	}
	if (order > max) {
		snprintf(value, sizeof(value), "%s: page_reporting_order %ld, largest buddy order %d", dev, order, max);
		return doctor_add(rep, check, DOCTOR_PASS, value, NULL,
				  "no free block is that large, so the balloon reports none: freed memory stays with the guest");
	}
	if (order < 0)
		snprintf(value, sizeof(value), "%s reports free blocks of the pageblock order (order unset)", dev);
	else
		snprintf(value, sizeof(value), "%s reports free blocks of order >= %ld (%s)", dev, order,
			 size_format(machine_base_page() << order, block, sizeof(block)));
	return doctor_reporting_warn(rep, value, max, order, "");
}
