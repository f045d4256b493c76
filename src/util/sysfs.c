/* sysfs: read procfs/sysfs facts through one redirectable root (fixtures in tests). */
#include "util/sysfs.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char sysfs_root[512];
static int sysfs_root_init;

void sysfs_set_root(const char *root)
{
	snprintf(sysfs_root, sizeof(sysfs_root), "%s", root ? root : "");
	sysfs_root_init = 1;
}

static FILE *sysfs_open(const char *path)
{
	char full[1024];

	if (!sysfs_root_init) {
		const char *env = getenv("CLEARPATH_SYSROOT");

		sysfs_set_root(env);
	}
	snprintf(full, sizeof(full), "%s%s", sysfs_root, path);
	return fopen(full, "re");
}

int sysfs_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = sysfs_open(path);
	int ret = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f)) {
		ret = -EIO;
		buf[0] = '\0';
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ret;
}

int sysfs_read_u64(const char *path, uint64_t *out)
{
	char line[64], *end;
	int ret = sysfs_read_line(path, line, sizeof(line));

	if (ret)
		return ret;
	errno = 0;
	*out = strtoull(line, &end, 10);
	if (errno || end == line)
		return -EINVAL;
	return 0;
}

int sysfs_mem_available(uint64_t *bytes)
{
	FILE *f = sysfs_open("/proc/meminfo");
	char line[256];
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		uint64_t kb;

		if (sscanf(line, "MemAvailable: %" SCNu64 " kB", &kb) == 1) {
			*bytes = kb * 1024;
			ret = 0;
			break;
		}
	}
	fclose(f);
	return ret;
}

void sysfs_hugepool_dir(uint64_t page_bytes, char *buf, size_t len)
{
	snprintf(buf, len, "/sys/kernel/mm/hugepages/hugepages-%" PRIu64 "kB", page_bytes / 1024);
}

int sysfs_hugepool(uint64_t page_bytes, struct sysfs_hugepool *pool)
{
	char dir[128], path[192];
	int ret;

	memset(pool, 0, sizeof(*pool));
	sysfs_hugepool_dir(page_bytes, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/nr_hugepages", dir);
	ret = sysfs_read_u64(path, &pool->total);
	if (ret == -ENOENT)
		return 0;	/* the kernel does not offer this page size */
	if (ret)
		return ret;
	pool->supported = true;
	snprintf(path, sizeof(path), "%s/free_hugepages", dir);
	return sysfs_read_u64(path, &pool->free);
}

int sysfs_read_choice(const char *path, char *buf, size_t len)
{
	char line[256], *open, *close;
	int ret = sysfs_read_line(path, line, sizeof(line));

	if (ret)
		return ret;
	open = strchr(line, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!close) {
		snprintf(buf, len, "%s", line);	/* a single-valued file */
		return 0;
	}
	*close = '\0';
	snprintf(buf, len, "%s", open + 1);
	return 0;
}

bool sysfs_cpu_has_flag(const char *flag)
{
	FILE *f = sysfs_open("/proc/cpuinfo");
	char line[8192];
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *save = NULL, *tok, *colon = strchr(line, ':');

		if (strncmp(line, "flags", 5) || !colon)
			continue;
		for (tok = strtok_r(colon + 1, " \t\n", &save); tok;
		     tok = strtok_r(NULL, " \t\n", &save))
			if (!strcmp(tok, flag)) {
				found = true;
				break;
			}
		break;	/* the first CPU's flags are enough */
	}
	fclose(f);
	return found;
}

/* Split a "key<tabs>: value" cpuinfo line; returns the value or NULL when @key does not match. */
static char *sysfs_cpuinfo_match(char *line, const char *key)
{
	size_t klen = strlen(key);
	char *v;

	if (strncmp(line, key, klen) || (line[klen] != '\t' && line[klen] != ' ' && line[klen] != ':'))
		return NULL;
	v = strchr(line + klen, ':');
	if (!v)
		return NULL;
	v += 1 + strspn(v + 1, " \t");
	v[strcspn(v, "\n")] = '\0';
	return v;
}

int sysfs_cpuinfo_value(const char *key, char *buf, size_t len)
{
	FILE *f = sysfs_open("/proc/cpuinfo");
	char line[8192], *v = NULL;

	if (!f)
		return -errno;
	while (!v && fgets(line, sizeof(line), f))
		v = sysfs_cpuinfo_match(line, key);
	if (v)
		snprintf(buf, len, "%s", v);
	fclose(f);
	return v ? 0 : -ENOENT;
}

int sysfs_cpuinfo_distinct(const char *key)
{
	FILE *f = sysfs_open("/proc/cpuinfo");
	char line[8192], seen[64][32];
	int n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *v = sysfs_cpuinfo_match(line, key);
		int i;

		if (!v)
			continue;
		for (i = 0; i < n && strcmp(seen[i], v); i++)
			;
		if (i == n && n < 64)
			snprintf(seen[n++], sizeof(seen[0]), "%s", v);
	}
	fclose(f);
	return n;
}
