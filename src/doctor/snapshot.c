/* snapshot: the settings that change what clearpath measures, as JSON stored per session, and their diff. */
#include "doctor/checks.h"
#include "machine/machine.h"
#include "util/boot.h"
#include "util/sysfs.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* A string when @ret says @buf was read, null otherwise: an unreadable setting is still a fact. */
static json_t *doctor_str_or_null(int ret, const char *buf)
{
	return ret ? json_null() : json_string(buf);
}

static json_t *doctor_snap_pools(void)
{
	uint64_t sizes[MACHINE_MAX_PAGES];
	size_t n = machine_huge_sizes(sizes, MACHINE_MAX_PAGES);
	json_t *pools = json_object();

	for (size_t i = 0; pools && i < n; i++) {
		struct sysfs_hugepool pool;
		char key[32];

		if (sysfs_hugepool(sizes[i], &pool) || !pool.supported)
			continue;
		snprintf(key, sizeof(key), "%" PRIu64 "kB", sizes[i] / 1024);
		json_object_set_new(pools, key, json_pack("{s:I, s:I}", "total", (json_int_t)pool.total,
							  "free", (json_int_t)pool.free));
	}
	return pools;
}

json_t *doctor_snapshot(void)
{
	char buf[4096];
	const char *path;
	unsigned nfreq, nperf;
	json_t *o = json_object();
	int boost = doctor_boost(&path);

	if (!o)
		return NULL;
	json_object_set_new(o, "thp_enabled",
			    doctor_str_or_null(sysfs_read_choice(DOCTOR_THP_DIR "/enabled", buf, sizeof(buf)), buf));
	json_object_set_new(o, "thp_defrag",
			    doctor_str_or_null(sysfs_read_choice(DOCTOR_THP_DIR "/defrag", buf, sizeof(buf)), buf));
	json_object_set_new(o, "governor",
			    doctor_str_or_null(doctor_governor(buf, sizeof(buf), &nfreq, &nperf), buf));
	json_object_set_new(o, "boost", boost < 0 ? json_null() : json_string(boost ? "on" : "off"));
	json_object_set_new(o, "hugepages", doctor_snap_pools());
	json_object_set_new(o, "cmdline",
			    doctor_str_or_null(boot_cmdline(buf, sizeof(buf)), buf));
	json_object_set_new(o, "perf_event_paranoid",
			    sysfs_read_line("/proc/sys/kernel/perf_event_paranoid", buf, sizeof(buf))
				    ? json_null() : json_integer(strtol(buf, NULL, 10)));
	json_object_set_new(o, "virtualisation",
			    json_string(doctor_virt(buf, sizeof(buf)) ? buf : "none"));
	json_object_set_new(o, "numa_nodes", json_integer(machine_numa_nodes()));
	/* a failed json_*() above left a key out; say so rather than store half a snapshot */
	if (json_object_size(o) != 9) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* Append {setting, a, b} to @diff unless @va and @vb (either may be NULL: absent) are equal. 0 or -1. */
static int doctor_diff_one(json_t *diff, const char *setting, json_t *va, json_t *vb)
{
	if ((!va && !vb) || (va && vb && json_equal(va, vb)))
		return 0;
	return json_array_append_new(diff, json_pack("{s:s, s:O, s:O}", "setting", setting,
						     "a", va ? va : json_null(), "b", vb ? vb : json_null()));
}

/* Pools differ when a size's total differs; free pages change while a run uses them. */
static int doctor_diff_pools(json_t *diff, json_t *pa, json_t *pb)
{
	json_t *sides[2] = { pa, pb }, *v;
	const char *size;
	int ret = 0;

	for (int s = 0; s < 2; s++)
		json_object_foreach(sides[s], size, v) {
			char name[64];

			if (s == 1 && json_object_get(pa, size))
				continue;	/* compared on the first pass */
			snprintf(name, sizeof(name), "hugepages.%s", size);
			ret |= doctor_diff_one(diff, name, json_object_get(json_object_get(pa, size), "total"),
					       json_object_get(json_object_get(pb, size), "total"));
		}
	return ret;
}

json_t *doctor_snapshot_diff(const json_t *a, const json_t *b)
{
	json_t *sides[2] = { (json_t *)a, (json_t *)b }, *diff, *v;
	const char *key;
	int ret = 0;

	if (!json_is_object(a) || !json_is_object(b))
		return NULL;
	diff = json_array();
	if (!diff)
		return NULL;
	for (int s = 0; s < 2; s++)
		json_object_foreach(sides[s], key, v) {
			if (s == 1 && json_object_get(a, key))
				continue;
			if (!strcmp(key, "hugepages"))
				ret |= doctor_diff_pools(diff, json_object_get(a, key), json_object_get(b, key));
			else
				ret |= doctor_diff_one(diff, key, json_object_get(a, key), json_object_get(b, key));
		}
	if (ret) {
		json_decref(diff);
		return NULL;
	}
	return diff;
}
