/* fingerprint: read the SUT and swprofile descriptions from procfs, sysfs and uname. */
#include "harness/fingerprint.h"
#include "doctor/doctor.h"
#include "machine/machine.h"
#include "util/boot.h"
#include "util/size.h"
#include "util/sysfs.h"

#include <gnu/libc-version.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static void fp_set_str(json_t *o, const char *key, const char *path)
{
	char buf[4096];

	if (!sysfs_read_line(path, buf, sizeof(buf)))
		json_object_set_new(o, key, json_string(buf));
}

static void fp_cpu_model(char *buf, size_t len)
{
	char impl[32], part[32];

	if (!sysfs_read_key("/proc/cpuinfo", "model name", buf, len))
		return;
	/* arm64 /proc/cpuinfo has no model name, only the MIDR fields. */
	if (!sysfs_read_key("/proc/cpuinfo", "CPU implementer", impl, sizeof(impl)) &&
	    !sysfs_read_key("/proc/cpuinfo", "CPU part", part, sizeof(part))) {
		snprintf(buf, len, "arm64 implementer %s part %s", impl, part);
		return;
	}
	snprintf(buf, len, "unknown CPU");
}

static const char *fp_virtualisation(void)
{
	static char vendor[128];

	if (!sysfs_cpu_has_flag("hypervisor"))
		return sysfs_cpu_has_flag("fpu") ? "none" : "unknown";
	if (!sysfs_read_line("/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor)))
		return vendor;
	return "hypervisor";
}

void fp_sut_class(char *name, size_t len)
{
	char product[256];

	if (!sysfs_read_line("/sys/class/dmi/id/product_name", product, sizeof(product)) && product[0])
		snprintf(name, len, "%s", product);
	else
		fp_cpu_model(name, len);
}

json_t *fp_sut(char *name, size_t len)
{
	json_t *o = json_object();
	struct utsname u;
	char model[256], host[256] = "";
	uint64_t llc;
	unsigned level;

	if (!o)
		return NULL;
	uname(&u);
	gethostname(host, sizeof(host) - 1);
	fp_cpu_model(model, sizeof(model));
	json_object_set_new(o, "hostname", json_string(host));
	json_object_set_new(o, "arch", json_string(u.machine));
	json_object_set_new(o, "cpu", json_string(model));
	json_object_set_new(o, "cores", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	json_object_set_new(o, "sockets", json_integer(sysfs_cpuinfo_distinct("physical id") ?: 1));
	json_object_set_new(o, "numa_nodes", json_integer(machine_numa_nodes()));
	json_object_set_new(o, "memory", json_integer((json_int_t)sysconf(_SC_PHYS_PAGES) *
						       sysconf(_SC_PAGESIZE)));
	fp_set_str(o, "dmi_product", "/sys/class/dmi/id/product_name");
	/* a buffer this large or smaller can be measured from the cache: show and the answer say so */
	if (!machine_llc(&llc, &level)) {
		json_object_set_new(o, "llc_bytes", json_integer((json_int_t)llc));
		json_object_set_new(o, "llc_level", json_integer(level));
	}
	json_object_set_new(o, "virtualisation", json_string(fp_virtualisation()));
	fp_sut_class(name, len);
	return o;
}

/*
 * The hugetlb page sizes the kernel offers, each with its overcommit limit
 * ({"1GB": 0, "2MB": 0}): settings, which decide where a hugetlb fault's page
 * comes from.  Not the pool's page counts: free, reserved and surplus pages
 * move while any process maps hugepages, and the persistent pool is resized
 * at run time (doctor --fix, other jobs) without changing what a page clear
 * costs; each session records its pools in its environment instead.
 */
static json_t *fp_hugepools(void)
{
	json_t *pools = json_object();

	uint64_t sizes[MACHINE_MAX_PAGES];
	size_t n = machine_huge_sizes(sizes, MACHINE_MAX_PAGES);

	for (size_t i = 0; pools && i < n; i++) {
		struct sysfs_hugepool pool;
		char key[16];

		if (sysfs_hugepool(sizes[i], &pool) || !pool.supported)
			continue;
		json_object_set_new(pools, size_format(sizes[i], key, sizeof(key)),
				    json_integer((json_int_t)pool.overcommit));
	}
	return pools;
}

json_t *fp_swprofile(char *name, size_t len)
{
	json_t *o = json_object();
	struct utsname u;
	char thp[64], release[256], cmdline[4096];

	if (!o)
		return NULL;
	uname(&u);
	/* release and cmdline through util/boot: a simulated boot ($CLEARPATH_FAKE_BOOT) names its own */
	boot_release(release, sizeof(release));
	json_object_set_new(o, "kernel_release", json_string(release));
	json_object_set_new(o, "kernel_version", json_string(u.version));
	if (!boot_cmdline(cmdline, sizeof(cmdline)))
		json_object_set_new(o, "cmdline", json_string(cmdline));
	if (!sysfs_read_choice("/sys/kernel/mm/transparent_hugepage/enabled", thp, sizeof(thp)))
		json_object_set_new(o, "thp_enabled", json_string(thp));
	if (!sysfs_read_choice("/sys/kernel/mm/transparent_hugepage/defrag", thp, sizeof(thp)))
		json_object_set_new(o, "thp_defrag", json_string(thp));
	json_object_set_new(o, "base_page", json_integer((json_int_t)machine_base_page()));
	json_object_set_new(o, "hugepage_overcommit", fp_hugepools());
	json_object_set_new(o, "libc", json_sprintf("glibc %s", gnu_get_libc_version()));
	json_object_set_new(o, "clearpath", json_string(CLEARPATH_VERSION));
	snprintf(name, len, "%s", release);
	return o;
}

void fp_boot_id(char *buf, size_t len)
{
	boot_id(buf, len);
}

json_t *fp_environment(unsigned doctor)
{
	/*
	 * "settings" is doctor's snapshot, what `show` compares between columns;
	 * "doctor" what its checks found wrong, for the report's header; the rest is context.
	 */
	json_t *o = json_object(), *settings = doctor_snapshot(), *record = doctor_session_record(doctor);
	char buf[256];
	uint64_t avail;

	if (!o || !settings || !record) {
		json_decref(o);
		json_decref(settings);
		json_decref(record);
		return NULL;
	}
	json_object_set_new(o, "settings", settings);
	json_object_set_new(o, "doctor", record);
	if (!sysfs_read_line("/proc/loadavg", buf, sizeof(buf)))
		json_object_set_new(o, "loadavg", json_string(buf));
	if (!sysfs_mem_available(&avail))
		json_object_set_new(o, "mem_available", json_integer((json_int_t)avail));
	return o;
}
