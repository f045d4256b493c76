/* cli_cmp: a comparison loaded from a store, for the commands that judge stored samples (calibrate, plan run --until-decided, report). */
#include "cli/cli_cmp.h"
#include "store/store.h"
#include "store/url.h"
#include "util/log.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct cmp_sample cli_cmp_sample(const struct store_row *row)
{
	struct cmp_sample x = {
		row->sut, row->swprofile, row->session, row->session_started, row->suite,
		row->resultclass, row->unit, row->param, row->nparam, row->higher_is_better, row->value,
	};

	return x;
}

static int cli_cmp_collect(const struct store_row *row, void *arg)
{
	void **ctx = arg;
	struct cmp_sample x = cli_cmp_sample(row);

	return cmp_add(ctx[0], ctx[1], &x) ? -ENOMEM : 0;
}

/* With @empty_ok, no samples kept is 0 and *@out NULL; otherwise cmp_finish() says why it is an error. */
static int cli_cmp_load_set(const char *store_url, const struct cmp_opts *o, bool empty_ok, struct cmp_set **out)
{
	struct cmp_set *set = cmp_new(o);
	struct store *st = NULL;
	void *ctx[2] = { set, (void *)o };
	int ret = set ? store_url_open_existing(store_url, &st) : EXIT_INTERNAL;

	if (!ret) {
		ret = store_query(st, NULL, cli_cmp_collect, ctx);
		store_close(st);
		if (ret) {
			log_err("cannot read the samples: %s", strerror(-ret));
			ret = EXIT_RESOURCE;
		}
	}
	if (!ret && empty_ok && !set->samples) {
		cmp_free(set);
		*out = NULL;
		return 0;
	}
	if (!ret)
		ret = cmp_finish(set, o);
	if (ret) {
		cmp_free(set);
		return ret;
	}
	*out = set;
	return 0;
}

int cli_cmp_load(const char *store_url, const struct cmp_opts *o, struct cmp_set **out)
{
	return cli_cmp_load_set(store_url, o, false, out);
}

int cli_cmp_load_any(const char *store_url, const struct cmp_opts *o, struct cmp_set **out)
{
	return cli_cmp_load_set(store_url, o, true, out);
}

/* What cli_cmp_load_apart() collects into: the two sets and the swprofiles the aside's samples ran under. */
struct cli_cmp_apart {
	struct cmp_set *set, *aside;
	const struct cmp_opts *o;
	bool (*apart)(const char *rclass);
	const char **swp;	/* of @o->swprofiles, those the aside has samples of */
	size_t nswp;
};

static int cli_cmp_collect_apart(const struct store_row *row, void *arg)
{
	struct cli_cmp_apart *a = arg;
	struct cmp_sample x = cli_cmp_sample(row);

	size_t kept = a->aside->samples;

	if (!a->apart(row->resultclass))
		return cmp_add(a->set, a->o, &x) ? -ENOMEM : 0;
	if (cmp_add(a->aside, a->o, &x))
		return -ENOMEM;
	/* a --swprofile the aside keeps samples of: one of its columns */
	for (size_t i = 0; a->aside->samples > kept && i < a->o->nswprofiles; i++)
		if (!strcmp(a->o->swprofiles[i], row->swprofile)) {
			size_t k = 0;

			while (k < a->nswp && a->swp[k] != a->o->swprofiles[i])
				k++;
			if (k == a->nswp)
				a->swp[a->nswp++] = a->o->swprofiles[i];
		}
	return 0;
}

/*
 * Finish the aside with @o's column order and base where it has them: a
 * --swprofile or --base without profile data leaves a column or the base
 * choice to the data, never fails the page.
 */
static int cli_cmp_finish_aside(struct cli_cmp_apart *a)
{
	struct cmp_opts o = *a->o;
	bool base_seen = false;

	for (size_t c = 0; o.base && c < a->aside->ncols; c++)
		base_seen |= !strcmp(a->aside->cols[c], o.base);
	if (!base_seen)
		o.base = NULL;
	/* in @o's order: swp was filled in the order the samples came */
	o.nswprofiles = 0;
	for (size_t i = 0; i < a->o->nswprofiles; i++)
		for (size_t k = 0; k < a->nswp; k++)
			if (a->swp[k] == a->o->swprofiles[i])
				a->swp[o.nswprofiles++] = a->swp[k];
	o.swprofiles = o.nswprofiles ? a->swp : NULL;
	return cmp_finish(a->aside, &o);
}

int cli_cmp_load_apart(const char *store_url, const struct cmp_opts *o, bool (*apart)(const char *rclass),
		       struct cmp_set **out, struct cmp_set **aside)
{
	struct cli_cmp_apart a = { cmp_new(o), cmp_new(o), o, apart, calloc(o->nswprofiles + 1, sizeof(char *)), 0 };
	struct store *st = NULL;
	int ret = a.set && a.aside && a.swp ? store_url_open_existing(store_url, &st) : EXIT_INTERNAL;

	if (!ret) {
		ret = store_query(st, NULL, cli_cmp_collect_apart, &a);
		store_close(st);
		if (ret) {
			log_err("cannot read the samples: %s", strerror(-ret));
			ret = EXIT_RESOURCE;
		}
	}
	if (!ret)
		ret = cmp_finish(a.set, o);
	if (!ret && a.aside->samples)
		ret = cli_cmp_finish_aside(&a);
	free(a.swp);
	if (ret || !a.aside->samples) {
		cmp_free(a.aside);
		a.aside = NULL;
	}
	if (ret) {
		cmp_free(a.set);
		return ret;
	}
	*out = a.set;
	*aside = a.aside;
	return 0;
}
