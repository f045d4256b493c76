/* stats fdr: Benjamini-Hochberg adjusted p-values, so the marks of a whole table keep its false discovery rate. */
#include "stats/internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

/* One p-value and where it came from, for sorting. */
struct stats_pidx {
	double p;
	size_t i;
};

static int stats_pidx_cmp(const void *a, const void *b)
{
	const struct stats_pidx *x = a, *y = b;

	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

int stats_bh_adjust(const double *p, size_t n, double *adj)
{
	struct stats_pidx *o;
	size_t m = 0;
	double run = 1;

	if ((!p || !adj) && n)
		return -EINVAL;
	o = malloc((n ? n : 1) * sizeof(*o));
	if (!o)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		adj[i] = NAN;
		if (p[i] >= 0 && p[i] <= 1)
			o[m++] = (struct stats_pidx){ p[i], i };
	}
	qsort(o, m, sizeof(*o), stats_pidx_cmp);
	/* q_(j) = min over i >= j of m p_(i) / i, from the largest p down */
	for (size_t j = m; j > 0; j--) {
		double q = (double)m * o[j - 1].p / (double)j;

		if (q < run)
			run = q;
		adj[o[j - 1].i] = run;
	}
	free(o);
	return 0;
}
