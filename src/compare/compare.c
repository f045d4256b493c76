/* compare: group samples into blocks, rows and columns, and compute statistics and verdicts per cell. */
#include "compare/compare.h"
#include "util/log.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Grow *@arr of @size-byte elements so index @n fits; 0 or -ENOMEM.  New space is zeroed. */
static int cmp_grow(void **arr, size_t *cap, size_t n, size_t size)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 8;
	while (ncap <= n)
		ncap *= 2;
	p = realloc(*arr, ncap * size);
	if (!p)
		return -ENOMEM;
	memset((char *)p + *cap * size, 0, (ncap - *cap) * size);
	*arr = p;
	*cap = ncap;
	return 0;
}

struct cmp_set_priv {
	struct cmp_set pub;
	size_t cols_cap, blocks_cap;
	size_t *rows_cap;	/* per block */
	struct cmp_index row_ix;	/* (block, row key, unit) -> CMP_ROW_POS(block, row) */
	/*
	 * Every swprofile the other filters let through, before --swprofile
	 * filters: an unknown --swprofile is then named, with what exists,
	 * even when it filtered out every sample.
	 */
	char **swp_seen;
	size_t nswp_seen;
	/* a calibration swprofile the other filters kept, left out of the columns (for cmp_check) */
	char *calibration_left_out;
	struct cmp_looks *looks;	/* sequential runs the store recorded (cmp_add_looks) */
	size_t nlooks;
};

/* One sequential run's looks at a column. */
struct cmp_looks {
	char *sut, *swprofile;
	unsigned looks;
};

struct cmp_set *cmp_new(const struct cmp_opts *o)
{
	struct cmp_set_priv *p = calloc(1, sizeof(*p));

	if (p)
		p->pub.axis = o->axis;
	if (p && o->axis == CMP_BY_PARAM && o->param && !(p->pub.param = strdup(o->param))) {
		free(p);
		return NULL;
	}
	return p ? &p->pub : NULL;
}

static void cmp_cell_free(struct cmp_cell *c)
{
	for (size_t i = 0; i < c->nuuids; i++)
		free(c->uuids[i]);
	free(c->uuids);
	cmp_index_free(&c->uuid_ix);
	free(c->values);
	free(c->sessions);
	free(c->outlier);
}

/* What @row holds (its first @ncols cells, when it has them). */
static void cmp_row_free(struct cmp_row *row, size_t ncols)
{
	for (size_t c = 0; row->cells && c < ncols; c++)
		cmp_cell_free(&row->cells[c]);
	free(row->cells);
	free(row->bench);
	free(row->rclass);
	free(row->ident);
	free(row->key);
	free(row->unit);
}

void cmp_free(struct cmp_set *s)
{
	struct cmp_set_priv *p = (struct cmp_set_priv *)s;

	if (!s)
		return;
	for (size_t b = 0; b < s->nblocks; b++) {
		struct cmp_block *blk = &s->blocks[b];

		for (size_t r = 0; r < blk->nrows; r++)
			cmp_row_free(&blk->rows[r], s->ncols);
		free(blk->rows);
		free(blk->name);
		free(blk->sut);
		free(blk->geomean_pct);
	}
	for (size_t c = 0; c < s->ncols; c++) {
		free(s->cols[c]);
		free(s->col_first[c]);
	}
	free(s->cols);
	free(s->col_first);
	free(s->blocks);
	free(s->param);
	free(p->rows_cap);
	cmp_index_free(&p->row_ix);
	for (size_t i = 0; i < p->nswp_seen; i++)
		free(p->swp_seen[i]);
	free(p->swp_seen);
	free(p->calibration_left_out);
	for (size_t i = 0; i < p->nlooks; i++) {
		free(p->looks[i].sut);
		free(p->looks[i].swprofile);
	}
	free(p->looks);
	free(p);
}

int cmp_add_looks(struct cmp_set *s, const char *sut, const char *swprofile, unsigned looks)
{
	struct cmp_set_priv *p = (struct cmp_set_priv *)s;
	struct cmp_looks *l = realloc(p->looks, (p->nlooks + 1) * sizeof(*l));

	if (!l)
		return -ENOMEM;
	p->looks = l;
	l[p->nlooks] = (struct cmp_looks){ strdup(sut), strdup(swprofile), looks };
	if (!l[p->nlooks].sut || !l[p->nlooks].swprofile) {
		free(l[p->nlooks].sut);
		free(l[p->nlooks].swprofile);
		return -ENOMEM;
	}
	p->nlooks++;
	return 0;
}

/*
 * How many times the cells comparing column @c with the base in @blk were
 * looked at by sequential runs: every run's looks at either column add up
 * (Bonferroni over all of them); 1 when none was.
 */
static unsigned cmp_looks_of(const struct cmp_set *s, const struct cmp_block *blk, size_t c)
{
	const struct cmp_set_priv *p = (const struct cmp_set_priv *)s;
	unsigned n = 0;

	for (size_t i = 0; s->axis == CMP_BY_SWPROFILE && i < p->nlooks; i++)
		if (!strcmp(p->looks[i].sut, blk->name) &&
		    (!strcmp(p->looks[i].swprofile, s->cols[c]) || !strcmp(p->looks[i].swprofile, s->cols[s->base])))
			n += p->looks[i].looks;
	return n ? n : 1;
}

static bool cmp_swp_seen(const struct cmp_set_priv *p, const char *name)
{
	for (size_t i = 0; i < p->nswp_seen; i++)
		if (!strcmp(p->swp_seen[i], name))
			return true;
	return false;
}

/* Remember @name as a swprofile the store has (under the sut/benchmark filters); 0 or -ENOMEM. */
static int cmp_swp_note(struct cmp_set_priv *p, const char *name)
{
	char **seen;

	if (cmp_swp_seen(p, name))
		return 0;
	seen = realloc(p->swp_seen, (p->nswp_seen + 1) * sizeof(*seen));
	if (!seen)
		return -ENOMEM;
	p->swp_seen = seen;
	if (!(seen[p->nswp_seen] = strdup(name)))
		return -ENOMEM;
	p->nswp_seen++;
	return 0;
}

bool cmp_is_calibration(const char *swprofile)
{
	size_t n = strlen(swprofile), k = strlen(CMP_CALIBRATION_SUFFIX);

	return n >= k && !strcmp(swprofile + n - k, CMP_CALIBRATION_SUFFIX);
}

/* Whether @o's filters other than --swprofile keep @x. */
static bool cmp_keeps_but_swprofile(const struct cmp_opts *o, const struct cmp_sample *x)
{
	if (!o->swprofiles && cmp_is_calibration(x->swprofile) != o->calibration_only)
		return false;
	if (o->sut_glob && fnmatch(o->sut_glob, x->sut, 0))
		return false;
	return !o->benchmark_glob || !fnmatch(o->benchmark_glob, x->ident.suite, 0) ||
	       !fnmatch(o->benchmark_glob, x->ident.name, 0);
}

static bool cmp_keeps_swprofile(const struct cmp_opts *o, const char *swprofile)
{
	bool sw_ok = !o->swprofiles;

	for (size_t i = 0; !sw_ok && i < o->nswprofiles; i++)
		sw_ok = !strcmp(o->swprofiles[i], swprofile);
	return sw_ok;
}

bool cmp_keeps(const struct cmp_opts *o, const struct cmp_sample *x)
{
	return cmp_keeps_but_swprofile(o, x) && cmp_keeps_swprofile(o, x->swprofile);
}

/*
 * Remember the first calibration swprofile that only being one keeps out of
 * the columns: a store `calibrate` alone filled must not read as empty.
 */
static int cmp_note_calibration(struct cmp_set_priv *p, const struct cmp_opts *o, const struct cmp_sample *x)
{
	struct cmp_opts calibration = *o;

	if (p->calibration_left_out || o->swprofiles || o->calibration_only || !cmp_is_calibration(x->swprofile))
		return 0;
	calibration.calibration_only = true;
	if (cmp_keeps_but_swprofile(&calibration, x) && !(p->calibration_left_out = strdup(x->swprofile)))
		return -ENOMEM;
	return 0;
}

/* 1 when @o's filters keep @x, 0 when they do not, -ENOMEM. */
static int cmp_wanted(struct cmp_set_priv *p, const struct cmp_opts *o, const struct cmp_sample *x)
{
	if (!cmp_keeps_but_swprofile(o, x))
		return cmp_note_calibration(p, o, x);
	if (cmp_swp_note(p, x->swprofile))
		return -ENOMEM;
	return cmp_keeps_swprofile(o, x->swprofile);
}

static ssize_t cmp_col_index(struct cmp_set *s, const char *name, const char *started)
{
	struct cmp_set_priv *p = (struct cmp_set_priv *)s;
	size_t cap = p->cols_cap;

	for (size_t i = 0; i < s->ncols; i++) {
		if (strcmp(s->cols[i], name))
			continue;
		if (started && strcmp(started, s->col_first[i]) < 0) {
			free(s->col_first[i]);
			s->col_first[i] = strdup(started);
		}
		return (ssize_t)i;
	}
	if (cmp_grow((void **)&s->cols, &cap, s->ncols, sizeof(char *)) ||
	    cmp_grow((void **)&s->col_first, &p->cols_cap, s->ncols, sizeof(char *)))
		return -ENOMEM;
	s->cols[s->ncols] = strdup(name);
	s->col_first[s->ncols] = strdup(started ?: "");
	/* Rows created before this column have no cell for it yet. */
	for (size_t b = 0; b < s->nblocks; b++)
		for (size_t r = 0; r < s->blocks[b].nrows; r++) {
			struct cmp_row *row = &s->blocks[b].rows[r];
			struct cmp_cell *cells = realloc(row->cells, (s->ncols + 1) * sizeof(*cells));

			if (!cells)
				return -ENOMEM;
			memset(&cells[s->ncols], 0, sizeof(*cells));
			row->cells = cells;
		}
	return (ssize_t)s->ncols++;
}

static struct cmp_block *cmp_block_get(struct cmp_set *s, const char *name, const char *sut)
{
	struct cmp_set_priv *p = (struct cmp_set_priv *)s;
	size_t cap = p->blocks_cap;

	for (size_t i = 0; i < s->nblocks; i++)
		if (!strcmp(s->blocks[i].name, name))
			return &s->blocks[i];
	if (cmp_grow((void **)&s->blocks, &cap, s->nblocks, sizeof(*s->blocks)) ||
	    cmp_grow((void **)&p->rows_cap, &p->blocks_cap, s->nblocks, sizeof(size_t)))
		return NULL;
	s->blocks[s->nblocks].name = strdup(name);
	s->blocks[s->nblocks].sut = sut ? strdup(sut) : NULL;
	return &s->blocks[s->nblocks++];
}

/* A row's place in the set-wide row index: its block and its index in the block. */
#define CMP_ROW_POS(b, r) (((size_t)(b) << 32) | (r))

struct cmp_row_key {
	const struct cmp_set *s;
	size_t block;
	const char *key, *unit;
};

static bool cmp_row_eq(size_t pos, const void *key)
{
	const struct cmp_row_key *k = key;
	const struct cmp_row *row = &k->s->blocks[pos >> 32].rows[pos & 0xffffffffu];

	return (pos >> 32) == k->block && !strcmp(row->key, k->key) && !strcmp(row->unit, k->unit);
}

/* A new row of @blk for sample @x, keyed by @key (taken: freed on failure); NULL when out of memory. */
static struct cmp_row *cmp_row_new(struct cmp_set *s, struct cmp_block *blk, char *key, uint64_t h,
				   const struct cmp_sample *x, const char *drop)
{
	struct cmp_set_priv *p = (struct cmp_set_priv *)s;
	size_t b = (size_t)(blk - s->blocks);
	struct cmp_row *row;
	char bench[256];

	if (cmp_grow((void **)&blk->rows, &p->rows_cap[b], blk->nrows, sizeof(*blk->rows))) {
		free(key);
		return NULL;
	}
	row = &blk->rows[blk->nrows];
	row->key = key;
	ident_bench_column(&x->ident, bench, sizeof(bench));
	row->cells = calloc(s->ncols ? s->ncols : 1, sizeof(*row->cells));
	row->ident = ident_class_dup(&x->ident, drop);
	row->bench = strdup(bench);
	row->rclass = row->ident ? strdup(row->ident->name) : NULL;
	row->unit = strdup(x->unit);
	row->higher_is_better = x->higher_is_better;
	if (!row->cells || !row->ident || !row->bench || !row->rclass || !row->unit ||
	    cmp_index_add(&p->row_ix, h, CMP_ROW_POS(b, blk->nrows))) {
		cmp_row_free(row, 0);	/* its cells are calloc's zeros: nothing in them */
		memset(row, 0, sizeof(*row));
		return NULL;
	}
	blk->nrows++;
	return row;
}

/*
 * The row of @blk for sample @x: its result class as data, with @drop (the
 * CMP_BY_PARAM parameter, NULL for the other axes) left out, and its unit.
 */
static struct cmp_row *cmp_row_get(struct cmp_set *s, struct cmp_block *blk, const struct cmp_sample *x,
				   const char *drop)
{
	struct cmp_set_priv *p = (struct cmp_set_priv *)s;
	size_t b = (size_t)(blk - s->blocks), at;
	char *key = ident_class_key(&x->ident, drop);
	struct cmp_row_key k = { s, b, key, x->unit };
	uint64_t h;

	if (!key)
		return NULL;
	/* Hashed: a fleet's blocks hold hundreds of rows, searched once per sample. */
	h = cmp_hash(cmp_hash(CMP_HASH_SEED + b * 0x9e3779b97f4a7c15ULL, key), x->unit);
	at = cmp_index_find(&p->row_ix, h, cmp_row_eq, &k);
	if (at != CMP_INDEX_NONE) {
		free(key);
		return &blk->rows[at & 0xffffffffu];
	}
	return cmp_row_new(s, blk, key, h, x, drop);
}

static bool cmp_uuid_eq(size_t pos, const void *key)
{
	const struct cmp_cell *c = ((const void *const *)key)[0];

	return !strcmp(c->uuids[pos], ((const char *const *)key)[1]);
}

/* The index of @session in @c->uuids, or CMP_INDEX_NONE. */
static size_t cmp_cell_find(const struct cmp_cell *c, const char *session, uint64_t h)
{
	const void *key[2] = { c, session };

	return cmp_index_find(&c->uuid_ix, h, cmp_uuid_eq, key);
}

static int cmp_cell_add(struct cmp_cell *c, const char *session, double value)
{
	size_t ucap = c->nuuids, vcap = c->cap, i;
	uint64_t h;

	/* The store yields a session's samples together: most samples are the last session's. */
	if (c->nuuids && !strcmp(c->uuids[c->nuuids - 1], session))
		i = c->nuuids - 1;
	else if ((i = cmp_cell_find(c, session, h = cmp_hash(CMP_HASH_SEED, session))) == CMP_INDEX_NONE) {
		char **u = realloc(c->uuids, (ucap + 1) * sizeof(*u));

		if (!u)
			return -ENOMEM;
		c->uuids = u;
		if (!(c->uuids[c->nuuids] = strdup(session)) || cmp_index_add(&c->uuid_ix, h, c->nuuids))
			return -ENOMEM;
		i = c->nuuids++;
	}
	if (cmp_grow((void **)&c->values, &vcap, c->n, sizeof(double)) ||
	    cmp_grow((void **)&c->sessions, &c->cap, c->n, sizeof(int)))
		return -ENOMEM;
	c->values[c->n] = value;
	c->sessions[c->n++] = (int)i;
	return 0;
}

struct stats_sample_set cmp_cell_samples(const struct cmp_cell *c)
{
	return (struct stats_sample_set){ c->values, c->sessions, c->n, c->shares };
}

int cmp_add(struct cmp_set *s, const struct cmp_opts *o, const struct cmp_sample *x)
{
	const char *col = x->swprofile, *blk_name = x->sut, *drop = NULL, *value;
	char blk_buf[512];
	struct cmp_block *blk;
	struct cmp_row *row;
	ssize_t ci;
	int wanted = cmp_wanted((struct cmp_set_priv *)s, o, x);

	if (wanted <= 0)
		return wanted;
	if (o->axis == CMP_BY_SUT) {
		col = x->sut;
		blk_name = x->swprofile;
	} else if (o->axis == CMP_BY_PARAM) {
		/* the columns are the parameter's values; the row is the class without it */
		drop = o->param;
		value = ident_value(&x->ident, o->param);
		col = value ? value : CMP_NO_VALUE;
		/* Parameter values compare within one kernel: never pool swprofiles into a cell. */
		snprintf(blk_buf, sizeof(blk_buf), "%s, swprofile %s", x->sut, x->swprofile);
		blk_name = blk_buf;
	}
	ci = cmp_col_index(s, col, x->session_started);
	if (ci < 0)
		return -ENOMEM;
	blk = cmp_block_get(s, blk_name, o->axis == CMP_BY_SUT ? NULL : x->sut);
	row = blk ? cmp_row_get(s, blk, x, drop) : NULL;
	if (!row)
		return -ENOMEM;
	s->samples++;
	return cmp_cell_add(&row->cells[ci], x->session, x->value);
}

/* Swap columns @a and @b everywhere. */
static void cmp_swap_cols(struct cmp_set *s, size_t a, size_t b)
{
	char *t = s->cols[a];

	s->cols[a] = s->cols[b];
	s->cols[b] = t;
	t = s->col_first[a];
	s->col_first[a] = s->col_first[b];
	s->col_first[b] = t;
	for (size_t i = 0; i < s->nblocks; i++)
		for (size_t r = 0; r < s->blocks[i].nrows; r++) {
			struct cmp_cell tmp = s->blocks[i].rows[r].cells[a];

			s->blocks[i].rows[r].cells[a] = s->blocks[i].rows[r].cells[b];
			s->blocks[i].rows[r].cells[b] = tmp;
		}
}

static ssize_t cmp_find_col(const struct cmp_set *s, const char *name)
{
	for (size_t i = 0; i < s->ncols; i++)
		if (!strcmp(s->cols[i], name))
			return (ssize_t)i;
	return -1;
}

/*
 * Column order: swprofiles as the user listed them, else by when each was
 * first measured (the base kernel is usually measured first); other axes
 * keep the order of first appearance.  Selection sort: columns are few.
 */
static void cmp_order(struct cmp_set *s, const struct cmp_opts *o)
{
	if (o->axis == CMP_BY_SWPROFILE && o->swprofiles) {
		size_t next = 0;

		for (size_t i = 0; i < o->nswprofiles; i++) {
			ssize_t at = cmp_find_col(s, o->swprofiles[i]);

			if (at >= (ssize_t)next)
				cmp_swap_cols(s, next++, (size_t)at);
		}
		return;
	}
	if (o->axis != CMP_BY_SWPROFILE)
		return;
	for (size_t i = 0; i < s->ncols; i++) {
		size_t min = i;

		for (size_t j = i + 1; j < s->ncols; j++)
			if (strcmp(s->col_first[j], s->col_first[min]) < 0)
				min = j;
		if (min != i)
			cmp_swap_cols(s, i, min);
	}
}

/* "'a', 'b'" from @n names into @buf. */
static void cmp_list_names(char *const *names, size_t n, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s'%s'", i ? ", " : "", names[i]);
}

static int cmp_check(struct cmp_set *s, const struct cmp_opts *o)
{
	struct cmp_set_priv *p = (struct cmp_set_priv *)s;
	char list[1024];

	/* Before the sample count: an unknown --swprofile alone filters out everything. */
	cmp_list_names(p->swp_seen, p->nswp_seen, list, sizeof(list));
	for (size_t i = 0; p->nswp_seen && i < o->nswprofiles; i++)
		if (!cmp_swp_seen(p, o->swprofiles[i])) {
			log_err("swprofile '%s' has no samples here; the store has %s", o->swprofiles[i], list);
			return EXIT_USAGE;
		}
	if (!s->samples && p->calibration_left_out) {
		log_err("no samples to compare: what matches is calibration ('%s'), which show leaves out of its columns",
			p->calibration_left_out);
		log_hint("measure a kernel with 'clearpath plan run' or 'clearpath run' (show --stats then prints the "
			 "calibration as its noise floor), or show it alone: --swprofile '%s'", p->calibration_left_out);
		return EXIT_USAGE;
	}
	if (!s->samples) {
		log_err("no samples match: the store is empty or the filters exclude everything");
		log_hint("'clearpath list sessions' shows what the store holds; 'clearpath run' adds samples");
		return EXIT_USAGE;
	}
	cmp_list_names(s->cols, s->ncols, list, sizeof(list));
	if (o->base && cmp_find_col(s, o->base) < 0) {
		log_err("base '%s' is not among the columns %s", o->base, list);
		return EXIT_USAGE;
	}
	return 0;
}

/* One cell's session levels: ids index the cell's uuids. */
struct cmp_levels {
	int *ids;
	double *lv;
	int k;
};

static int cmp_levels_of(const struct cmp_cell *c, struct cmp_levels *l)
{
	struct stats_sample_set set = cmp_cell_samples(c);

	l->ids = malloc(c->n * sizeof(*l->ids));
	l->lv = malloc(c->n * sizeof(*l->lv));
	l->k = l->ids && l->lv ? stats_session_levels(&set, l->ids, l->lv) : -ENOMEM;
	return l->k < 0 ? -1 : 0;
}

/*
 * The sessions @a and @b share, by UUID: their levels into @la/@lb, in @x's
 * order; returns how many, or -ENOMEM.  Hashed: a CI store's cells hold tens
 * of thousands of sessions.
 */
static ssize_t cmp_shared(const struct cmp_cell *a, const struct cmp_levels *x, const struct cmp_cell *b,
			  const struct cmp_levels *y, double *la, double *lb)
{
	int *level_of = malloc((b->nuuids + 1) * sizeof(*level_of));	/* b's uuid -> its level in y */
	size_t k = 0;

	if (!level_of)
		return -ENOMEM;
	for (size_t u = 0; u < b->nuuids; u++)
		level_of[u] = -1;
	for (int j = 0; j < y->k; j++)
		level_of[y->ids[j]] = j;
	for (int i = 0; i < x->k; i++) {
		const char *uuid = a->uuids[x->ids[i]];
		size_t u = cmp_cell_find(b, uuid, cmp_hash(CMP_HASH_SEED, uuid));

		if (u != CMP_INDEX_NONE && level_of[u] >= 0) {
			la[k] = x->lv[i];
			lb[k++] = y->lv[level_of[u]];
		}
	}
	free(level_of);
	return (ssize_t)k;
}

/*
 * Columns measured in the same sessions (the strategies of one -f all run)
 * share each session's offset: compare @cell with @base within the
 * sessions both have, setting *@paired; when they share none *@paired stays
 * false (compare them as independent).  Returns 0 or EXIT_INTERNAL (which
 * is 1: never a second meaning of the return).
 */
static int cmp_paired(const struct cmp_cell *base, struct cmp_cell *cell, const struct cmp_row *row,
		      const struct cmp_opts *o, double alpha, bool *paired)
{
	struct cmp_levels x = { 0 }, y = { 0 };
	double *la = malloc((base->n + 1) * sizeof(*la)), *lb = malloc((base->n + 1) * sizeof(*lb));
	int ret = EXIT_INTERNAL;
	ssize_t k;

	if (!la || !lb || cmp_levels_of(base, &x) || cmp_levels_of(cell, &y))
		goto out;
	k = cmp_shared(base, &x, cell, &y, la, lb);
	if (k < 0)
		goto out;
	*paired = k > 0;
	if (!k || !stats_compare_paired(la, lb, (size_t)k, row->higher_is_better, alpha,
					o->min_effect_pct, &cell->change))
		ret = 0;
out:
	free(x.ids);
	free(x.lv);
	free(y.ids);
	free(y.lv);
	free(la);
	free(lb);
	return ret;
}

/*
 * Modes are a property of the machine: where one cell of @row shows them,
 * every cell's spread is at least the row's (stats_share_modes).  Not
 * across machines (columns by SUT), whose modes are their own.
 */
static int cmp_share_modes(const struct cmp_set *s, const struct cmp_opts *o, struct cmp_row *row)
{
	struct stats_cell **cells;

	if (s->axis == CMP_BY_SUT || o->rule != STATS_RULE_NESTED)
		return 0;
	cells = calloc(s->ncols, sizeof(*cells));
	if (!cells)
		return EXIT_INTERNAL;
	for (size_t c = 0; c < s->ncols; c++)
		cells[c] = row->cells[c].n ? &row->cells[c].st : NULL;
	row->modes_shared = stats_share_modes(cells, s->ncols, o->alpha);
	free(cells);
	return 0;
}

/* The clearing-share row of the benchmark of --profile row @r in @blk (the class every profiled run stores), or NULL. */
static const struct cmp_row *cmp_clearing_row(const struct cmp_block *blk, const struct cmp_row *r)
{
	for (size_t i = 0; i < blk->nrows; i++) {
		const struct cmp_row *c = &blk->rows[i];
		const char *sym = ident_profile_symbol(c->ident->metric);

		if (sym && !strcmp(sym, "clearing") && !strcmp(c->ident->suite, r->ident->suite) &&
		    !strcmp(c->ident->key, r->ident->key))
			return c;
	}
	return NULL;
}

/*
 * A run keeps the top five symbols of its profile, and its clearing share
 * always: a symbol a profiled run did not store had a share of 0 there (at
 * most the fifth's, unknown), so every estimate of the symbol's share
 * (table, change, summary, report) is over all the column's profiled runs.
 * Each session of @r's cell gets a 0 per clearing sample it has beyond its
 * own; a column where no run stored the symbol stays empty (no share of it).
 */
static int cmp_fill_absent(const struct cmp_block *blk, struct cmp_row *r, size_t ncols)
{
	const char *sym = ident_profile_symbol(r->ident->metric);
	const struct cmp_row *clearing;

	if (!sym)
		return 0;
	for (size_t c = 0; c < ncols; c++)
		r->cells[c].shares = true;
	if (!strcmp(sym, "clearing") || !(clearing = cmp_clearing_row(blk, r)))
		return 0;
	for (size_t c = 0; c < ncols; c++) {
		struct cmp_cell *cell = &r->cells[c];
		const struct cmp_cell *all = &clearing->cells[c];

		for (size_t u = 0; cell->n && u < all->nuuids; u++) {
			size_t want = 0, have = 0, ix = cmp_cell_find(cell, all->uuids[u], cmp_hash(CMP_HASH_SEED, all->uuids[u]));

			for (size_t i = 0; i < all->n; i++)
				want += all->sessions[i] == (int)u;
			for (size_t i = 0; ix != CMP_INDEX_NONE && i < cell->n - cell->absent; i++)
				have += cell->sessions[i] == (int)ix;
			for (; have < want; have++, cell->absent++)
				if (cmp_cell_add(cell, all->uuids[u], 0))
					return -ENOMEM;
		}
	}
	return 0;
}

static int cmp_compute_row(struct cmp_set *s, const struct cmp_opts *o, const struct cmp_block *blk,
			   struct cmp_row *row)
{
	struct cmp_cell *base = &row->cells[s->base];

	for (size_t c = 0; c < s->ncols; c++) {
		struct cmp_cell *cell = &row->cells[c];
		struct stats_sample_set set = cmp_cell_samples(cell);

		if (!cell->n)
			continue;
		cell->outlier = calloc(cell->n, sizeof(*cell->outlier));
		if (!cell->outlier || stats_cell_compute(&set, o->alpha, &cell->st) ||
		    stats_outliers(&set, cell->outlier) < 0)
			return EXIT_INTERNAL;
	}
	if (cmp_share_modes(s, o, row))
		return EXIT_INTERNAL;
	for (size_t c = 0; base->n && c < s->ncols; c++) {
		struct cmp_cell *cell = &row->cells[c];
		bool paired = false;

		if (c == s->base || !cell->n)
			continue;
		cell->looks = cmp_looks_of(s, blk, c);
		cell->alpha = o->alpha / cell->looks;
		if (o->rule == STATS_RULE_NESTED && cmp_paired(base, cell, row, o, cell->alpha, &paired))
			return EXIT_INTERNAL;
		if (!paired && stats_compare(&base->st, &cell->st, row->higher_is_better, o->rule, cell->alpha,
					     o->min_effect_pct, &cell->change))
			return EXIT_INTERNAL;
		cell->has_change = true;
	}
	return 0;
}

/* A cell of a block that has a p-value and can be marked, with its row. */
struct cmp_tested {
	struct cmp_cell *cell;
	const struct cmp_row *row;
};

/* The tested cells of @blk in row-major order into @out (may be NULL); returns how many. */
static size_t cmp_tested(const struct cmp_set *s, const struct cmp_block *blk, struct cmp_tested *out)
{
	size_t m = 0;

	for (size_t r = 0; r < blk->nrows; r++)
		for (size_t c = 0; c < s->ncols; c++) {
			struct cmp_cell *cell = &blk->rows[r].cells[c];

			if (!cell->has_change || cell->change.verdict == STATS_INSUFFICIENT ||
			    cell->change.why_undecided || !isfinite(cell->change.p_value))
				continue;
			if (out)
				out[m] = (struct cmp_tested){ cell, &blk->rows[r] };
			m++;
		}
	return m;
}

/*
 * A table is one question: each cell's p-value adjusted over the cells of
 * its block (Benjamini-Hochberg), and under --fdr the marks re-judged by
 * the adjusted value, so they keep the table's false discovery rate.
 */
static int cmp_fdr_block(const struct cmp_set *s, const struct cmp_opts *o, struct cmp_block *blk)
{
	size_t m = cmp_tested(s, blk, NULL);
	struct cmp_tested *t = calloc(m ? m : 1, sizeof(*t));
	double *p = calloc(m ? m : 1, sizeof(*p)), *adj = calloc(m ? m : 1, sizeof(*adj));
	int ret = EXIT_INTERNAL;

	if (!t || !p || !adj)
		goto out;
	cmp_tested(s, blk, t);
	for (size_t i = 0; i < m; i++)
		p[i] = t[i].cell->change.p_value;
	if (stats_bh_adjust(p, m, adj))
		goto out;
	blk->tested = m;
	for (size_t i = 0; i < m; i++) {
		t[i].cell->change.p_adjusted = adj[i];
		if (o->fdr > 0 && o->rule == STATS_RULE_NESTED)
			stats_judge(&t[i].cell->change, adj[i] <= o->fdr / t[i].cell->looks,
				    t[i].row->higher_is_better, o->min_effect_pct);
	}
	ret = 0;
out:
	free(t);
	free(p);
	free(adj);
	return ret;
}

/* What more data would decide each change of @blk, once its verdict is final. */
static void cmp_plan_block(const struct cmp_set *s, const struct cmp_opts *o, struct cmp_block *blk)
{
	for (size_t r = 0; r < blk->nrows; r++)
		for (size_t c = 0; c < s->ncols; c++)
			if (blk->rows[r].cells[c].has_change)
				stats_plan(&blk->rows[r].cells[c].change, blk->rows[r].cells[c].alpha, o->target_pct);
}

/* The geomean row of @blk: one stats_pair per row where the base and column @c both have samples. */
static int cmp_geomean(const struct cmp_set *s, struct cmp_block *blk)
{
	struct stats_pair *pairs = calloc(blk->nrows ? blk->nrows : 1, sizeof(*pairs));

	blk->geomean_pct = calloc(s->ncols, sizeof(double));
	if (!pairs || !blk->geomean_pct) {
		free(pairs);
		return EXIT_INTERNAL;
	}
	for (size_t c = 0; c < s->ncols; c++) {
		size_t n = 0;

		for (size_t r = 0; c != s->base && r < blk->nrows; r++) {
			const struct cmp_row *row = &blk->rows[r];

			if (row->cells[c].n && row->cells[s->base].n)
				pairs[n++] = (struct stats_pair){ row->cells[s->base].st.mean, row->cells[c].st.mean,
								  row->higher_is_better };
		}
		blk->geomean_pct[c] = stats_geomean_change_pct(pairs, n);
	}
	free(pairs);
	return 0;
}

size_t cmp_count_verdicts(const struct cmp_set *s, enum stats_verdict v)
{
	size_t n = 0;

	for (size_t b = 0; b < s->nblocks; b++)
		for (size_t r = 0; r < s->blocks[b].nrows; r++)
			for (size_t c = 0; c < s->ncols; c++) {
				const struct cmp_cell *cell = &s->blocks[b].rows[r].cells[c];

				n += cell->has_change && cell->change.verdict == v;
			}
	return n;
}

int cmp_finish(struct cmp_set *s, const struct cmp_opts *o)
{
	int ret = cmp_check(s, o);

	if (ret)
		return ret;
	cmp_order(s, o);
	s->base = o->base ? (size_t)cmp_find_col(s, o->base) : 0;
	/* Parameter values have no natural order: the base leads, the rest keep theirs. */
	for (size_t c = s->base; o->axis == CMP_BY_PARAM && c > 0; c--)
		cmp_swap_cols(s, c, c - 1);
	if (o->axis == CMP_BY_PARAM)
		s->base = 0;
	s->rule = o->rule;
	for (size_t b = 0; !ret && b < s->nblocks; b++)
		for (size_t r = 0; !ret && r < s->blocks[b].nrows; r++)
			ret = cmp_fill_absent(&s->blocks[b], &s->blocks[b].rows[r], s->ncols) ? EXIT_INTERNAL : 0;
	for (size_t b = 0; !ret && b < s->nblocks; b++) {
		for (size_t r = 0; !ret && r < s->blocks[b].nrows; r++)
			ret = cmp_compute_row(s, o, &s->blocks[b], &s->blocks[b].rows[r]);
		if (!ret)
			ret = cmp_fdr_block(s, o, &s->blocks[b]);
		if (!ret)
			cmp_plan_block(s, o, &s->blocks[b]);
	}
	for (size_t b = 0; !ret && b < s->nblocks; b++)
		ret = cmp_geomean(s, &s->blocks[b]);
	/* the steps above fail only for memory or a statistic refusing its input: said once, here */
	if (ret)
		log_err("cannot compute the comparison: out of memory or an invalid sample");
	return ret;
}

static const struct cmp_row *cmp_find_row(const struct cmp_block *b, const struct cmp_row *like)
{
	for (size_t r = 0; r < b->nrows; r++)
		if (!strcmp(b->rows[r].key, like->key) && !strcmp(b->rows[r].unit, like->unit))
			return &b->rows[r];
	return NULL;
}

/* The calibration cell of @row with the most sessions, or NULL. */
static const struct cmp_cell *cmp_best_cell(const struct cmp_set *cal, const struct cmp_row *row)
{
	const struct cmp_cell *best = NULL;

	for (size_t c = 0; c < cal->ncols; c++)
		if (row->cells[c].n && (!best || row->cells[c].st.sessions > best->st.sessions))
			best = &row->cells[c];
	return best;
}

void cmp_floor_of(const struct stats_cell *c, double alpha, double target_pct, struct cmp_floor *f)
{
	double rsd = c->level > 0 ? sqrt(c->var_sessions) / c->level : NAN;

	f->sessions = c->sessions;
	f->between_pct = c->mean ? 100 * sqrt(c->var_between) / fabs(c->mean) : NAN;
	f->within_pct = c->mean ? 100 * sqrt(c->var_within) / fabs(c->mean) : NAN;
	f->at_least = false;
	f->mde4_pct = stats_mde_independent(rsd, c->sessions_df, 4, alpha, &f->at_least);
	f->sessions_needed = stats_sessions_independent(rsd, c->sessions_df, c->sessions, target_pct, alpha,
							&f->at_least);
}

void cmp_attach_floor(struct cmp_set *s, const struct cmp_set *cal, const struct cmp_opts *o)
{
	if (!s || !cal || s->axis != CMP_BY_SWPROFILE || cal->axis != CMP_BY_SWPROFILE)
		return;
	for (size_t b = 0; b < s->nblocks; b++)
		for (size_t cb = 0; cb < cal->nblocks; cb++) {
			if (strcmp(s->blocks[b].name, cal->blocks[cb].name))
				continue;
			for (size_t r = 0; r < s->blocks[b].nrows; r++) {
				struct cmp_row *row = &s->blocks[b].rows[r];
				const struct cmp_row *cr = cmp_find_row(&cal->blocks[cb], row);
				const struct cmp_cell *cell = cr ? cmp_best_cell(cal, cr) : NULL;

				if (cell) {
					cmp_floor_of(&cell->st, o->alpha, o->target_pct, &row->floor);
					row->has_floor = true;
				}
			}
		}
}
