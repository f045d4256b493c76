/* facts: CPU and platform facts (governor, boost, virtualisation, balloon, NUMA balancing) shared by checks, fixes and snapshots. */
#include "doctor/checks.h"
#include "machine/machine.h"
#include "util/sysfs.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

char **doctor_cpu_dirs(void)
{
	char **names = sysfs_list_dir(DOCTOR_CPU_DIR, "cpu");
	size_t out = 0;

	if (!names)
		return NULL;
	/* keep cpu0, cpu1, ...; drop cpufreq, cpuidle */
	for (size_t i = 0; names[i]; i++) {
		if (isdigit((unsigned char)names[i][3]))
			names[out++] = names[i];
		else
			free(names[i]);
	}
	names[out] = NULL;
	return names;
}

int doctor_governor(char *buf, size_t len, unsigned *nfreq, unsigned *nperf)
{
	char **cpus = doctor_cpu_dirs();
	char first[64] = "", other[64] = "";

	*nfreq = *nperf = 0;
	for (size_t i = 0; cpus && cpus[i]; i++) {
		char path[256], gov[64];

		snprintf(path, sizeof(path), DOCTOR_CPU_DIR "/%s/cpufreq/scaling_governor", cpus[i]);
		if (sysfs_read_line(path, gov, sizeof(gov)))
			continue;
		++*nfreq;
		*nperf += !strcmp(gov, "performance");
		if (!first[0])
			snprintf(first, sizeof(first), "%s", gov);
		else if (strcmp(gov, first) && !other[0])
			snprintf(other, sizeof(other), "%s", gov);
	}
	sysfs_list_free(cpus);
	if (!*nfreq)
		return -ENOENT;
	if (other[0])
		snprintf(buf, len, "mixed: %s, %s", first, other);
	else
		snprintf(buf, len, "%s", first);
	return 0;
}

int doctor_boost(const char **path)
{
	static const char no_turbo[] = DOCTOR_CPU_DIR "/intel_pstate/no_turbo";
	static const char boost[] = DOCTOR_CPU_DIR "/cpufreq/boost";
	uint64_t v;

	/* intel_pstate inverts the sense: no_turbo=1 means boost off */
	*path = no_turbo;
	if (!sysfs_read_u64(no_turbo, &v))
		return v ? 0 : 1;
	*path = boost;
	if (!sysfs_read_u64(boost, &v))
		return v ? 1 : 0;
	return -ENOENT;
}

/* DMI sys_vendor prefixes of common hypervisors. */
static const char *const guests[] = { "QEMU", "VMware", "Xen", "innotek", "Parallels" };

bool doctor_virt(char *what, size_t len)
{
	char vendor[128] = "", product[128] = "";
	bool flag = sysfs_cpu_has_flag("hypervisor");

	sysfs_read_line("/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor));
	sysfs_read_line("/sys/class/dmi/id/product_name", product, sizeof(product));
	if (vendor[0] || product[0])
		snprintf(what, len, "%s%s%s", vendor, vendor[0] && product[0] ? " " : "", product);
	else
		snprintf(what, len, "%s", flag ? "hypervisor flag, no DMI" : "no DMI");
	/*
	 * x86 guests always see the hypervisor CPUID bit; arm64 guests do not,
	 * so fall back on the DMI vendor strings hypervisors put there.
	 */
	if (flag)
		return true;
	for (size_t i = 0; i < sizeof(guests) / sizeof(guests[0]); i++)
		if (!strncmp(vendor, guests[i], strlen(guests[i])))
			return true;
	return false;
}

#define DOCTOR_VIRTIO_ID_BALLOON 5
#define DOCTOR_BALLOON_F_REPORTING 5	/* VIRTIO_BALLOON_F_REPORTING: free page reporting */

/* Whether directory @dir has an entry named exactly @name (a symlink such as "driver" counts). */
static bool doctor_has_entry(const char *dir, const char *name)
{
	char **names = sysfs_list_dir(dir, name);
	bool found = false;

	for (size_t i = 0; names && names[i]; i++)
		found |= !strcmp(names[i], name);
	sysfs_list_free(names);
	return found;
}

/* What virtio device @dev (a bound balloon or not) does with freed memory. */
static enum doctor_balloon doctor_balloon_of(const char *dev)
{
	char path[256], line[512], *end;
	unsigned long id;

	snprintf(path, sizeof(path), DOCTOR_VIRTIO_DIR "/%s/device", dev);
	if (sysfs_read_line(path, line, sizeof(line)))
		return DOCTOR_NO_BALLOON;
	id = strtoul(line, &end, 16);
	if (end == line || *end || id != DOCTOR_VIRTIO_ID_BALLOON)
		return DOCTOR_NO_BALLOON;
	snprintf(path, sizeof(path), DOCTOR_VIRTIO_DIR "/%s", dev);
	if (!doctor_has_entry(path, "driver"))
		return DOCTOR_NO_BALLOON;	/* no driver: nobody reports anything */
	/* one '0' or '1' per feature bit, bit 0 first */
	snprintf(path, sizeof(path), DOCTOR_VIRTIO_DIR "/%s/features", dev);
	if (sysfs_read_line(path, line, sizeof(line)) || strlen(line) <= DOCTOR_BALLOON_F_REPORTING ||
	    line[strspn(line, "01")])
		return DOCTOR_BALLOON_UNKNOWN;
	return line[DOCTOR_BALLOON_F_REPORTING] == '1' ? DOCTOR_BALLOON_REPORTS : DOCTOR_BALLOON_KEEPS;
}

enum doctor_balloon doctor_balloon(char *dev, size_t len)
{
	char **devs = sysfs_list_dir(DOCTOR_VIRTIO_DIR, "virtio");
	enum doctor_balloon found = DOCTOR_NO_BALLOON;

	for (size_t i = 0; devs && devs[i]; i++) {
		enum doctor_balloon b = doctor_balloon_of(devs[i]);

		if (b > found) {
			found = b;
			snprintf(dev, len, "%s", devs[i]);
		}
	}
	sysfs_list_free(devs);
	return found;
}

int doctor_reporting_order(long *order, char *raw, size_t len)
{
	char *end;
	int ret = sysfs_read_line(DOCTOR_REPORTING_ORDER, raw, len);

	if (ret == -ENOENT)
		return ret;
	if (ret)
		return -EINVAL;
	errno = 0;
	*order = strtol(raw, &end, 10);
	if (errno || end == raw || *end || *order < -1)
		return -EINVAL;
	return 0;
}

int doctor_max_order(void)
{
	int max = machine_max_order();

	return max < 0 ? 10 : max;	/* nothing to count: x86-64's MAX_PAGE_ORDER */
}

int doctor_numa_balancing(long *mode)
{
	char line[32], *end;
	int ret = sysfs_read_line(DOCTOR_NUMA_BALANCING, line, sizeof(line));

	if (ret == -ENOENT)
		return ret;
	if (ret)
		return -EINVAL;
	errno = 0;
	*mode = strtol(line, &end, 10);
	if (errno || end == line || *end || *mode < 0)
		return -EINVAL;
	return 0;
}
