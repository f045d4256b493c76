/* fix: `clearpath doctor --fix`: make the machine fit, printing every change with the command that undoes it. */
#include "doctor/checks.h"
#include "machine/machine.h"
#include "util/log.h"
#include "util/size.h"
#include "util/sysfs.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

/* Write @new into @path, which held @old, and print the change and its undo.  0 or -errno. */
static int doctor_fix_write(FILE *out, const char *path, const char *old, const char *new)
{
	int ret = sysfs_write_line(path, new);

	if (ret) {
		log_err("cannot write '%s' to %s: %s", new, path, strerror(-ret));
		return ret;
	}
	fprintf(out, "changed %s: %s -> %s\n  undo: echo %s > %s\n", path, old, new, old, path);
	return 0;
}

/* Whether the space-separated @list holds the word @word. */
static bool doctor_has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = strstr(list, word); p; p = strstr(p + 1, word))
		if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
			return true;
	return false;
}

static int doctor_fix_governor(FILE *out)
{
	char **cpus = doctor_cpu_dirs();
	int ret = 0;

	for (size_t i = 0; !ret && cpus && cpus[i]; i++) {
		char path[256], avail[512], gov[64];

		snprintf(path, sizeof(path), DOCTOR_CPU_DIR "/%s/cpufreq/scaling_available_governors", cpus[i]);
		if (sysfs_read_line(path, avail, sizeof(avail)))
			avail[0] = '\0';
		snprintf(path, sizeof(path), DOCTOR_CPU_DIR "/%s/cpufreq/scaling_governor", cpus[i]);
		if (sysfs_read_line(path, gov, sizeof(gov)) || !strcmp(gov, "performance"))
			continue;	/* no cpufreq here, or nothing to do */
		if (!doctor_has_word(avail, "performance")) {
			/* intel_pstate in active mode offers only powersave/performance; others may lack it */
			fprintf(out, "kept %s: %s (the driver offers no performance governor: %s)\n", path, gov,
				avail[0] ? avail : "none listed");
			continue;
		}
		ret = doctor_fix_write(out, path, gov, "performance");
	}
	sysfs_list_free(cpus);
	return ret;
}

static int doctor_fix_thp(FILE *out)
{
	char enabled[32];

	if (sysfs_read_choice(DOCTOR_THP_DIR "/enabled", enabled, sizeof(enabled)) ||
	    !strcmp(enabled, "madvise") || !strcmp(enabled, "never"))
		return 0;	/* no THP, or already not in the way of -p 4KB */
	return doctor_fix_write(out, DOCTOR_THP_DIR "/enabled", enabled, "madvise");
}

/*
 * The kernel grows a pool as far as memory lets it: asked for more than
 * there is, it takes all the free memory and the rest of the machine
 * starves (or the OOM killer steps in).  0 when the pages to add fit in
 * MemAvailable less the reserve, else -ENOMEM after saying so.
 */
static int doctor_fix_pool_fits(const struct doctor_hugeneed *need, const struct sysfs_hugepool *pool,
				const char *sz)
{
	uint64_t avail, more = need->pages - pool->free;
	char have[32];

	if (machine_mem_available(&avail))
		return 0;	/* no MemAvailable (before Linux 3.14): the kernel's own limit decides */
	avail = avail > MACHINE_RESERVE ? avail - MACHINE_RESERVE : 0;
	if (more <= avail / need->page_bytes)
		return 0;
	size_format(avail, have, sizeof(have));
	log_err("reserving %" PRIu64 " more %s pages takes more memory than the %s available (MemAvailable less"
		" 64MB): nothing was reserved", more, sz, have);
	log_hint("ask for fewer pages, or free memory first; at most %" PRIu64 " more fit now", avail / need->page_bytes);
	return -ENOMEM;
}

/* Grow the pool of @need->page_bytes pages until @need->pages are free.  0, -ENOMEM when short, or -errno. */
static int doctor_fix_pool(FILE *out, const struct doctor_hugeneed *need)
{
	char dir[128], path[192], sz[16], old_s[24], new_s[24];
	struct sysfs_hugepool pool;
	uint64_t total;
	int ret;

	size_format(need->page_bytes, sz, sizeof(sz));
	sysfs_hugepool_dir(need->page_bytes, dir, sizeof(dir));
	ret = sysfs_hugepool(need->page_bytes, &pool);
	if (ret || !pool.supported) {
		log_err("the kernel offers no %s hugetlb pool (%s)", sz, dir);
		return ret ? ret : -EOPNOTSUPP;
	}
	if (pool.free >= need->pages) {
		fprintf(out, "kept %s pool: %" PRIu64 " free, %" PRIu64 " needed\n", sz, pool.free, need->pages);
		return 0;
	}
	ret = doctor_fix_pool_fits(need, &pool, sz);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/nr_hugepages", dir);
	snprintf(old_s, sizeof(old_s), "%" PRIu64, pool.total);
	snprintf(new_s, sizeof(new_s), "%" PRIu64, pool.total + need->pages - pool.free);
	ret = doctor_fix_write(out, path, old_s, new_s);
	if (ret)
		return ret;
	/* the kernel reserves what it can find and reports that, not what was asked */
	ret = sysfs_read_u64(path, &total);
	if (ret)
		return ret;
	if (pool.free + (total - pool.total) < need->pages) {
		log_err("the kernel reserved %" PRIu64 " of the %" PRIu64 " more %s pages asked for",
			total - pool.total, need->pages - pool.free, sz);
		log_hint("memory is fragmented: reserve right after boot, or boot with hugepagesz=%s hugepages=%" PRIu64,
			 sz, total + need->pages);
		return -ENOMEM;
	}
	return 0;
}

/* A balloon that reports free blocks: raise page_reporting_order above the largest order, so none is. */
static int doctor_fix_reporting(FILE *out)
{
	char dev[64], old[32], new[16];
	int max = doctor_max_order();
	long order;

	if (doctor_balloon(dev, sizeof(dev)) != DOCTOR_BALLOON_REPORTS ||
	    doctor_reporting_order(&order, old, sizeof(old)) || order > max || order < 0)
		return 0;	/* nothing reported; before 5.14 only the VMM can stop it; -1 could not be undone */
	snprintf(new, sizeof(new), "%d", max + 1);
	return doctor_fix_write(out, DOCTOR_REPORTING_ORDER, old, new);
}

/* Automatic NUMA balancing off, where there is another node to migrate pages to. */
static int doctor_fix_numa_balancing(FILE *out)
{
	char old[24];
	long mode;

	if (machine_numa_nodes() <= 1 || doctor_numa_balancing(&mode) || !mode)
		return 0;
	snprintf(old, sizeof(old), "%ld", mode);
	return doctor_fix_write(out, DOCTOR_NUMA_BALANCING, old, "0");
}

int doctor_fix(const struct doctor_needs *needs, FILE *out)
{
	int ret = doctor_fix_governor(out);

	if (!ret)
		ret = doctor_fix_thp(out);
	for (size_t i = 0; !ret && needs && i < needs->npools; i++)
		ret = doctor_fix_pool(out, &needs->hugepages[i]);
	if (!ret)
		ret = doctor_fix_reporting(out);
	if (!ret)
		ret = doctor_fix_numa_balancing(out);
	return ret;
}
