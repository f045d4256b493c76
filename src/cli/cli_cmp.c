/* cli_cmp: a comparison loaded from a store, for the commands that judge stored samples (calibrate, plan run --until-decided). */
#include "cli/cli_cmp.h"
#include "store/store.h"
#include "store/url.h"
#include "util/log.h"

#include <stdbool.h>
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
