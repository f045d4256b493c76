/* sysfs: read procfs/sysfs facts through one redirectable root (fixtures in tests). */
#include "util/sysfs.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char sysfs_root[512];
static int sysfs_root_init;
static unsigned sysfs_root_gen = 1;

void sysfs_set_root(const char *root)
{
	snprintf(sysfs_root, sizeof(sysfs_root), "%s", root ? root : "");
	sysfs_root_init = 1;
	sysfs_root_gen++;
}

unsigned sysfs_root_generation(void)
{
	return sysfs_root_gen;
}

/* @path under the root; $CLEARPATH_SYSROOT is read the first time unless a test set the root. */
static void sysfs_full_path(const char *path, char *full, size_t len)
{
	if (!sysfs_root_init) {
		const char *env = getenv("CLEARPATH_SYSROOT");

		sysfs_set_root(env);
	}
	snprintf(full, len, "%s%s", sysfs_root, path);
}

FILE *sysfs_fopen(const char *path)
{
	char full[1024];

	sysfs_full_path(path, full, sizeof(full));
	return fopen(full, "re");
}

int sysfs_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = sysfs_fopen(path);
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

int sysfs_read_key(const char *path, const char *key, char *buf, size_t len)
{
	FILE *f = sysfs_fopen(path);
	size_t klen = strlen(key);
	char line[8192];
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (ret && fgets(line, sizeof(line), f)) {
		char *v = line + klen;

		if (strncmp(line, key, klen))
			continue;
		v += strspn(v, " \t");
		if (*v != ':')
			continue;	/* a longer key with the same prefix */
		v += 1 + strspn(v + 1, " \t");
		v[strcspn(v, "\n")] = '\0';
		snprintf(buf, len, "%s", v);
		ret = 0;
	}
	fclose(f);
	return ret;
}

static int sysfs_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **sysfs_list_dir(const char *path, const char *prefix)
{
	char full[1024], **names = NULL, **grown;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *dir;

	sysfs_full_path(path, full, sizeof(full));
	dir = opendir(full);
	if (!dir)
		return NULL;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.' || strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		if (n + 2 > cap) {
			cap = cap ? cap * 2 : 16;
			grown = realloc(names, cap * sizeof(*names));
			if (!grown)
				goto fail;
			names = grown;
		}
		names[n] = strdup(de->d_name);
		if (!names[n])
			goto fail;
		names[++n] = NULL;
	}
	closedir(dir);
	if (!names)
		names = calloc(1, sizeof(*names));	/* an empty list, not an error */
	else
		qsort(names, n, sizeof(*names), sysfs_name_cmp);
	return names;
fail:
	closedir(dir);
	if (names)
		names[n] = NULL;
	sysfs_list_free(names);
	errno = ENOMEM;
	return NULL;
}

void sysfs_list_free(char **names)
{
	if (!names)
		return;
	for (char **p = names; *p; p++)
		free(*p);
	free(names);
}

int sysfs_write_line(const char *path, const char *value)
{
	char full[1024];
	FILE *f;
	int ret = 0;

	sysfs_full_path(path, full, sizeof(full));
	f = fopen(full, "we");
	if (!f)
		return -errno;
	/* sysfs reports a rejected value at write or at close, so check both */
	if (fprintf(f, "%s\n", value) < 0 || fflush(f))
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

int sysfs_mem_available(uint64_t *bytes)
{
	FILE *f = sysfs_fopen("/proc/meminfo");
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

/* @dir/@file into *@out, which stays 0 when the file is absent. */
static int sysfs_pool_optional(const char *dir, const char *file, uint64_t *out)
{
	char path[192];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	ret = sysfs_read_u64(path, out);
	return ret == -ENOENT ? 0 : ret;
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
	ret = sysfs_pool_optional(dir, "nr_overcommit_hugepages", &pool->overcommit);
	if (ret)
		return ret;
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
	FILE *f = sysfs_fopen("/proc/cpuinfo");
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

int sysfs_cpuinfo_distinct(const char *key)
{
	FILE *f = sysfs_fopen("/proc/cpuinfo");
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
