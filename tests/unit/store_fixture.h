/* store_fixture: temp directories, stderr capture and a small data set shared by the store's unit tests. */
#ifndef CLEARPATH_TESTS_STORE_FIXTURE_H
#define CLEARPATH_TESTS_STORE_FIXTURE_H

#define _GNU_SOURCE
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store.h"

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* A fresh directory under /tmp, removed by fixture_rmdir(). */
static char *fixture_mkdtemp(void)
{
	char tmpl[] = "/tmp/clearpath-store-XXXXXX";
	char *dir = mkdtemp(tmpl);

	return dir ? strdup(dir) : NULL;
}

static void fixture_rmdir(char *dir)
{
	if (dir)
		nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(dir);
}

/* "@dir/@name" in a static buffer of the caller's choosing. */
static const char *fixture_path(char *buf, size_t len, const char *dir, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
	return buf;
}

/* Stderr goes to a temp file between capture_begin() and capture_end(), which returns its text. */
struct capture {
	int saved;
	FILE *f;
	char text[4096];
};

static void capture_begin(struct capture *c)
{
	fflush(stderr);
	c->f = tmpfile();
	c->saved = dup(STDERR_FILENO);
	dup2(fileno(c->f), STDERR_FILENO);
}

static const char *capture_end(struct capture *c)
{
	size_t n;

	fflush(stderr);
	dup2(c->saved, STDERR_FILENO);
	close(c->saved);
	rewind(c->f);
	n = fread(c->text, 1, sizeof(c->text) - 1, c->f);
	c->text[n] = '\0';
	fclose(c->f);
	fputs(c->text, stderr);	/* still visible in the test log */
	return c->text;
}

/* Get or create the benchmark that is the text @params of @suite (no parsing: store tests). */
static inline int fixture_benchmark(struct store *st, const char *suite, const char *params, int64_t *id)
{
	static struct bench_identity ident;

	ident_raw(&ident, suite, params);
	return store_benchmark_get(st, &ident, id, NULL, 0);
}

/* Ids of one benchmark with one result class, the usual shape of a test data set. */
struct fixture_ids {
	int64_t sut, swprofile, benchmark, resultclass;
};

static int fixture_objects(struct store *st, const char *sut, const char *swp, struct fixture_ids *ids)
{
	int ret = store_sut_get(st, sut, "{\"arch\":\"x86_64\",\"cores\":2}", &ids->sut);

	if (!ret)
		ret = store_swprofile_get(st, swp, "{\"kernel\":\"6.9.0\"}", false, &ids->swprofile);
	if (!ret)
		ret = fixture_benchmark(st, "mem/mmap", "-p 1GB -f demand -s 32GB -l 5", &ids->benchmark);
	if (!ret)
		ret = store_resultclass_get(st, ids->benchmark, "mmap -p 1GB -f demand -s 32GB -l 5",
					    "bytes/sec", true, &ids->resultclass);
	return ret;
}

/* One complete session: 1 warmup and @repeats samples of value base + i. */
static int fixture_session(struct store *st, const struct fixture_ids *ids, int repeats, double base,
			   char uuid[STORE_UUID_LEN + 1])
{
	struct store_session s = { .boot_id = "b00t", .sut_id = ids->sut, .swprofile_id = ids->swprofile };
	int64_t id;
	int ret = store_session_begin(st, &s, &id);

	if (!ret)
		ret = store_sample_add(st, id, ids->resultclass, 0, true, base / 2);
	for (int i = 0; !ret && i < repeats; i++)
		ret = store_sample_add(st, id, ids->resultclass, i, false, base + i);
	if (!ret)
		ret = store_session_end(st, id);
	if (uuid)
		memcpy(uuid, s.uuid, sizeof(s.uuid));
	return ret;
}

static int count_row(const struct store_row *row, void *arg)
{
	(void)row;
	(*(int *)arg)++;
	return 0;
}

/* How many samples the store holds (warmups too when @warmup). */
static int fixture_count(struct store *st, bool warmup)
{
	struct store_filter f = { .include_warmup = warmup };
	int n = 0;

	return store_query(st, &f, count_row, &n) ? -1 : n;
}

#endif
