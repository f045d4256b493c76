/* rpt_profiles: the --profile result classes of a block grouped per benchmark, symbols by their largest share. */
#define _GNU_SOURCE	/* qsort_r */
#include "report/profile.h"
#include "profile/profile.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

bool rpt_profile_class(const char *rclass)
{
	return strstr(rclass, RPT_PROFILE_MARK) != NULL;
}

/* The benchmark part of a profile class ("mmap -s 1GB" of "mmap -s 1GB :profile:x"), its length. */
static size_t rpt_profile_bench_len(const char *rclass)
{
	const char *m = strstr(rclass, RPT_PROFILE_MARK);

	return m ? (size_t)(m - rclass) : strlen(rclass);
}

const char *rpt_profile_symbol(const struct cmp_row *r)
{
	size_t len = rpt_profile_bench_len(r->rclass);

	return r->rclass[len] ? r->rclass + len + strlen(RPT_PROFILE_MARK) : "";
}

double rpt_profile_share(const struct cmp_row *r, size_t col)
{
	return r->cells[col].n ? r->cells[col].st.mean : NAN;
}

bool rpt_profile_clearing_symbol(const char *name)
{
	return profile_is_clearing(name, "x86_64") || profile_is_clearing(name, "aarch64");
}

/* The largest share any of @s's columns has for @r: symbols are listed by it. */
static double rpt_profile_peak(const struct cmp_set *s, const struct cmp_row *r)
{
	double peak = -1;

	for (size_t c = 0; c < s->ncols; c++)
		if (!isnan(rpt_profile_share(r, c)) && rpt_profile_share(r, c) > peak)
			peak = rpt_profile_share(r, c);
	return peak;
}

static int rpt_profile_by_peak(const void *a, const void *b, void *set)
{
	double x = rpt_profile_peak(set, *(const struct cmp_row *const *)a);
	double y = rpt_profile_peak(set, *(const struct cmp_row *const *)b);

	return x > y ? -1 : x < y;
}

/* Whether row @r belongs to profile @p (same Benchmark column and benchmark part). */
static bool rpt_profile_owns(const struct rpt_profile *p, const struct cmp_row *r)
{
	return rpt_profile_bench_len(r->rclass) == p->namelen && !strncmp(r->rclass, p->name, p->namelen) &&
	       !strcmp(r->bench, p->bench);
}

/* The profile of @blk that row @r belongs to, a new one when none of the first @n does; NULL when out of memory. */
static struct rpt_profile *rpt_profile_for(struct rpt_profile **list, size_t *n, const struct cmp_row *r)
{
	struct rpt_profile *grown;

	for (size_t i = 0; i < *n; i++)
		if (rpt_profile_owns(&(*list)[i], r))
			return &(*list)[i];
	grown = realloc(*list, (*n + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	*list = grown;
	grown[*n] = (struct rpt_profile){ r->bench, r->rclass, rpt_profile_bench_len(r->rclass), NULL, NULL, 0 };
	return &grown[(*n)++];
}

static int rpt_profile_add(struct rpt_profile *p, const struct cmp_row *r)
{
	const struct cmp_row **grown;

	if (!strcmp(rpt_profile_symbol(r), "clearing")) {
		p->clearing = r;
		return 0;
	}
	grown = realloc(p->syms, (p->nsyms + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	p->syms = grown;
	p->syms[p->nsyms++] = r;
	return 0;
}

int rpt_profiles_of(const struct cmp_set *s, size_t b, struct rpt_profile **out, size_t *n)
{
	const struct cmp_block *blk = &s->blocks[b];
	struct rpt_profile *list = NULL, *p;
	size_t np = 0;

	for (size_t i = 0; i < blk->nrows; i++) {
		if (!rpt_profile_class(blk->rows[i].rclass))
			continue;
		if (!(p = rpt_profile_for(&list, &np, &blk->rows[i])) || rpt_profile_add(p, &blk->rows[i])) {
			rpt_profiles_free(list, np);
			return -ENOMEM;
		}
	}
	for (size_t i = 0; i < np; i++)
		qsort_r(list[i].syms, list[i].nsyms, sizeof(*list[i].syms), rpt_profile_by_peak, (void *)s);
	*out = list;
	*n = np;
	return 0;
}

void rpt_profiles_free(struct rpt_profile *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(p[i].syms);
	free(p);
}
