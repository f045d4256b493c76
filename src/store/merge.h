/* merge: what merge.c (names, benchmarks) and merge_sessions.c (sessions, samples, errors) share. */
#ifndef CLEARPATH_STORE_MERGE_H
#define CLEARPATH_STORE_MERGE_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "store/xchg.h"

/* A source row id and the destination's id for the same object. */
struct id_pair {
	int64_t src, dst;
};

/* Source ids to destination ids, appended in increasing source order (every query orders by id). */
struct id_map {
	struct id_pair *p;
	size_t n, cap;
};

static inline int map_put(struct id_map *m, int64_t src, int64_t dst)
{
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 64;
		struct id_pair *p = realloc(m->p, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		m->p = p;
		m->cap = cap;
	}
	m->p[m->n++] = (struct id_pair){ src, dst };
	return 0;
}

/* The destination id of source id @src, or -1. */
static inline int64_t map_get(const struct id_map *m, int64_t src)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->p[mid].src == src)
			return m->p[mid].dst;
		if (m->p[mid].src < src)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* A merge from one store into another, row by row (merge.c: names and benchmarks; merge_sessions.c: sessions). */
struct merge {
	struct store *dst, *src;
	struct id_map sut, swprofile, bench, rclass;	/* filled by merge.c before the sessions */
	struct bench_identity *ident;
	struct store_merged done;
};

/*
 * Every source session @m->dst lacks, with its samples and errors; each one
 * it holds already judged by store_sess_rule() (the same, a copy made while
 * it ran, or one that finishes it), or refused.  In @m->dst's transaction.
 * 0 or a logged negative errno.
 */
int store_merge_sessions(struct merge *m);

#endif
