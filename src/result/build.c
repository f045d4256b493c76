/* build: result_build(), the store read once into every comparison a command prints (views, calibration floor, profiles, study), then the views. */
#include "result/env.h"
#include "result/header.h"
#include "result/profile.h"
#include "result/result.h"
#include "result/study.h"
#include "store/store.h"
#include "store/url.h"
#include "util/log.h"
#include "workloads/workload.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/*
 * What one pass over the store fills.  A sample goes to the first view
 * whose suites take it (the auto views' suites, else the residual view),
 * to the calibration set, and to the study set, each of which filters it
 * with its own options (cmp_add).
 */
struct build_view {
	struct cmp_opts o;
	const char *suite;		/* auto: the one suite this view holds; NULL: every other suite */
	struct cmp_set *set, *profile;	/* profile: the --profile classes kept apart (RESULT_WANT_PROFILE_APART) */
	size_t profile_seen;		/* how many of o.swprofiles the profile set has samples of */
	const char **profile_swp;
	char *suite_copy;		/* owns @suite */
};

struct build {
	const struct result_select *sel;
	struct build_view *views;
	size_t nviews;
	struct cmp_opts cal_o, study_o;
	struct cmp_set *cal, *study;
};

static struct cmp_sample build_sample(const struct store_row *row)
{
	return (struct cmp_sample){ row->sut, row->swprofile, row->session, row->session_started, row->ident,
				    row->unit, row->higher_is_better, row->value };
}

/* The view of @b that takes a sample of @suite: its own auto view, else the residual one (last). */
static struct build_view *build_view_for(struct build *b, const char *suite)
{
	for (size_t i = 0; i < b->nviews; i++)
		if (!b->views[i].suite || !strcmp(b->views[i].suite, suite))
			return &b->views[i];
	return NULL;
}

/* Note that the profile set of @v has samples of swprofile @name (one of v->o.swprofiles). */
static void build_profile_swp(struct build_view *v, const char *name)
{
	for (size_t i = 0; i < v->o.nswprofiles; i++) {
		if (strcmp(v->o.swprofiles[i], name))
			continue;
		for (size_t k = 0; k < v->profile_seen; k++)
			if (v->profile_swp[k] == v->o.swprofiles[i])
				return;
		v->profile_swp[v->profile_seen++] = v->o.swprofiles[i];
		return;
	}
}

static int build_collect(const struct store_row *row, void *arg)
{
	struct build *b = arg;
	struct cmp_sample x = build_sample(row);
	struct build_view *v = build_view_for(b, row->ident.suite);
	bool profile = result_profile_class(&row->ident);
	unsigned want = b->sel->want;
	int ret = 0;

	if (v && (want & RESULT_WANT_PROFILE_ONLY)) {
		/* show --profile shows the profile classes and only them */
		if (profile)
			ret = cmp_add(v->set, &v->o, &x);
	} else if (v && profile && v->profile) {
		size_t kept = v->profile->samples;

		ret = cmp_add(v->profile, &v->o, &x);
		if (!ret && v->profile->samples > kept)
			build_profile_swp(v, row->swprofile);
	} else if (v && !profile) {
		ret = cmp_add(v->set, &v->o, &x);
	}
	/* the machine's noise floor, kept apart from the comparison */
	if (!ret && b->cal && !profile && cmp_is_calibration(row->swprofile))
		ret = cmp_add(b->cal, &b->cal_o, &x);
	if (!ret && b->study && !profile)
		ret = cmp_add(b->study, &b->study_o, &x);
	return ret ? -ENOMEM : 0;
}

/*
 * Finish the profile set of @v with the view's column order and base where
 * it has them: a --swprofile or --base without profile data leaves a column
 * or the base choice to the data, never fails the page.
 */
static int build_finish_profile(struct build_view *v)
{
	struct cmp_opts o = v->o;
	bool base_seen = false;

	for (size_t c = 0; o.base && c < v->profile->ncols; c++)
		base_seen |= !strcmp(v->profile->cols[c], o.base);
	if (!base_seen)
		o.base = NULL;
	/* in the options' order: profile_swp was filled in the order the samples came */
	o.nswprofiles = 0;
	for (size_t i = 0; i < v->o.nswprofiles; i++)
		for (size_t k = 0; k < v->profile_seen; k++)
			if (v->profile_swp[k] == v->o.swprofiles[i])
				v->profile_swp[o.nswprofiles++] = v->profile_swp[k];
	o.swprofiles = o.nswprofiles ? v->profile_swp : NULL;
	return cmp_finish(v->profile, &o);
}

/*
 * The calibration cells: as the comparison's, only for calibration
 * swprofiles: the ones it names when they all are (clearpath calibrate
 * reports its own), else every one.
 */
static struct cmp_opts build_cal_opts(const struct cmp_opts *o)
{
	struct cmp_opts c = *o;
	bool named = o->nswprofiles > 0;

	for (size_t i = 0; i < o->nswprofiles; i++)
		named &= cmp_is_calibration(o->swprofiles[i]);
	if (!named) {
		c.swprofiles = NULL;
		c.nswprofiles = 0;
	}
	c.base = NULL;
	c.calibration_only = true;
	return c;
}

static void build_free(struct build *b)
{
	for (size_t i = 0; b->views && i < b->nviews; i++) {
		cmp_free(b->views[i].set);
		cmp_free(b->views[i].profile);
		free(b->views[i].profile_swp);
		free(b->views[i].suite_copy);
	}
	free(b->views);
	cmp_free(b->cal);
	cmp_free(b->study);
}

/* A view of @b with options @o for @suite (NULL: the residual); 0 or -ENOMEM. */
static int build_add_view(struct build *b, const struct cmp_opts *o, const char *suite)
{
	struct build_view *grown = realloc(b->views, (b->nviews + 1) * sizeof(*grown)), *v;

	if (!grown)
		return -ENOMEM;
	b->views = grown;
	v = &b->views[b->nviews++];
	*v = (struct build_view){ .o = *o, .suite = suite };
	v->set = cmp_new(o);
	if (b->sel->want & RESULT_WANT_PROFILE_APART) {
		v->profile = cmp_new(o);
		v->profile_swp = calloc(o->nswprofiles + 1, sizeof(*v->profile_swp));
		if (!v->profile || !v->profile_swp)
			return -ENOMEM;
	}
	return v->set ? 0 : -ENOMEM;
}

/* The first pass of the auto layout: suite -> swprofile -> SUT -> -f value, for the samples the selection keeps. */
static int build_scan(const struct store_row *row, void *arg)
{
	const void *const *ctx = arg;
	const struct cmp_opts *o = ctx[0];
	json_t *suites = (json_t *)ctx[1], *swp, *sut, *f;
	struct cmp_sample x = build_sample(row);
	const struct ident_param *p = ident_find(row->ident.param, row->ident.nparam, "f");

	if (result_profile_class(&row->ident) || !cmp_keeps(o, &x))
		return 0;
	swp = json_object_get(suites, row->ident.suite);
	if (!swp && json_object_set_new(suites, row->ident.suite, swp = json_object()))
		return -ENOMEM;
	sut = json_object_get(swp, row->swprofile);
	if (!sut && json_object_set_new(swp, row->swprofile, sut = json_object()))
		return -ENOMEM;
	f = json_object_get(sut, row->sut);
	if (!f && json_object_set_new(sut, row->sut, f = json_object()))
		return -ENOMEM;
	return p && json_object_set_new(f, p->value, json_true()) ? -ENOMEM : 0;
}

/*
 * Whether @suite's samples (@swps: swprofile -> SUT -> -f values) are one
 * kernel's several functions, compared by -f; *@dflt then whether one of
 * them is "default" (libc's memset), the natural base.
 */
static bool build_by_function(const json_t *swps, bool *dflt)
{
	const char *k, *sk;
	json_t *sut, *f;
	bool several = false;

	*dflt = false;
	if (json_object_size(swps) != 1)
		return false;
	json_object_foreach((json_t *)swps, k, sut)
		json_object_foreach(sut, sk, f) {
			several |= json_object_size(f) > 1;
			*dflt |= json_object_get(f, "default") != NULL;
		}
	return several;
}

static int build_cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The auto views of @suites into @b, by suite name, then the residual view; 0 or -ENOMEM. */
static int build_auto_add(struct build *b, json_t *suites)
{
	size_t n = json_object_size(suites), i = 0;
	const char **names = calloc(n ? n : 1, sizeof(*names)), *k;
	json_t *v;
	int ret = names ? 0 : -ENOMEM;

	json_object_foreach(suites, k, v)
		if (names)
			names[i++] = k;
	if (names)
		qsort(names, n, sizeof(*names), build_cmp_names);
	for (i = 0; !ret && i < n; i++) {
		json_t *swps = json_object_get(suites, names[i]);
		struct cmp_opts o = b->sel->cmp;
		bool dflt;

		if (!build_by_function(swps, &dflt))
			continue;
		o.axis = CMP_BY_PARAM;
		o.param = "f";
		o.base = dflt ? "default" : NULL;
		/* within one kernel: the --swprofile that kernel is, if any was named */
		o.swprofiles = NULL;
		o.nswprofiles = 0;
		/* the suite name lives in @suites, which the result outlives: keep a copy in the view */
		ret = build_add_view(b, &o, names[i]);
		if (!ret && !(b->views[b->nviews - 1].suite = b->views[b->nviews - 1].suite_copy = strdup(names[i])))
			ret = -ENOMEM;
	}
	free(names);
	return ret ?: build_add_view(b, &b->sel->cmp, NULL);
}

/*
 * One view per benchmark suite that one kernel ran with several functions
 * (compared by -f), and one by swprofile for the rest: the tables `make
 * run` prints.  Reads the store once more, first, to know the suites.
 */
static int build_auto_views(struct store *st, struct build *b)
{
	json_t *suites = json_object();
	const void *ctx[2] = { &b->sel->cmp, suites };
	int ret = suites ? store_query(st, NULL, build_scan, (void *)ctx) : -ENOMEM;

	if (!ret)
		ret = build_auto_add(b, suites);
	json_decref(suites);
	if (ret && ret != -ENOMEM) {
		log_err("cannot read the samples: %s", strerror(-ret));
		return store_exit_code(ret);
	}
	return ret;
}

/* Read every sample into the sets, the store open once; an exit code after log_err(). */
static int build_read(struct build *b, struct store *st)
{
	int ret = store_query(st, NULL, build_collect, b);

	if (ret == -ENOMEM) {
		log_err("out of memory reading the samples");
		return EXIT_INTERNAL;
	}
	if (ret) {
		log_err("cannot read the samples: %s", strerror(-ret));
		return store_exit_code(ret);
	}
	return 0;
}

/* The study's comparison: `mem clear` by -f under the same SUT selection, unless --benchmark leaves it out. */
static int build_study_opts(struct build *b)
{
	const struct cmp_opts *o = &b->sel->cmp;

	if (!(b->sel->want & RESULT_WANT_STUDY) || !result_study_wanted(o))
		return 0;
	b->study_o = *o;
	b->study_o.axis = CMP_BY_PARAM;
	b->study_o.param = "f";
	b->study_o.benchmark_glob = RESULT_STUDY_SUITE;
	b->study_o.swprofiles = NULL;
	b->study_o.nswprofiles = 0;
	b->study_o.base = NULL;
	b->study = cmp_new(&b->study_o);
	return b->study ? 0 : -ENOMEM;
}

static int build_sets(struct build *b, struct store *st)
{
	const struct result_select *sel = b->sel;
	int ret = build_study_opts(b);

	if (!ret && (sel->want & RESULT_WANT_AUTO_VIEWS))
		ret = build_auto_views(st, b);
	else if (!ret && (sel->want & (RESULT_WANT_VIEWS | RESULT_WANT_PROFILE_ONLY)))
		ret = build_add_view(b, &sel->cmp, NULL);
	if (!ret && (sel->want & RESULT_WANT_FLOOR) && sel->cmp.axis == CMP_BY_SWPROFILE) {
		b->cal_o = build_cal_opts(&sel->cmp);
		if (!(b->cal = cmp_new(&b->cal_o)))
			ret = -ENOMEM;
	}
	if (ret < 0) {
		log_err("out of memory reading the samples");
		return EXIT_INTERNAL;
	}
	return ret ?: build_read(b, st);
}

/* Finish every set: cmp_finish() says why a view cannot be made (no samples, a bad --base). */
static int build_finish(struct build *b)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < b->nviews; i++) {
		struct build_view *v = &b->views[i];

		if ((b->sel->want & RESULT_WANT_PROFILE_ONLY) && !v->set->samples) {
			/* "the store is empty" would be wrong: it holds samples, none of them a profile */
			log_err("no --profile samples match: the store holds no profile shares, or the filters"
				" exclude them");
			log_hint("'clearpath run -- mem mmap ... --profile' (or a plan's 'profile: true') stores them");
			return EXIT_USAGE;
		}
		/* an auto layout's residual view is empty when every suite got its own */
		if (!v->set->samples && (b->sel->want & RESULT_WANT_AUTO_VIEWS) && b->nviews > 1)
			continue;
		/* a parameter no benchmark has (a typo) would make one column of every sample, named "(none)" */
		if (v->o.axis == CMP_BY_PARAM && v->set->ncols == 1 && !strcmp(v->set->cols[0], CMP_NO_VALUE)) {
			log_err("--columns param:%s: no benchmark here has a parameter '%s'", v->o.param, v->o.param);
			log_hint("name one by its option, short or long (param:f or param:function, param:k, param:s); "
				 "'clearpath list benchmarks --format json' shows each benchmark's as 'key'");
			return EXIT_USAGE;
		}
		ret = cmp_finish(v->set, &v->o);
		if (!ret && v->profile && v->profile->samples)
			ret = build_finish_profile(v);
	}
	/* no calibration samples is the usual case, not an error */
	if (!ret && b->cal && b->cal->samples && !cmp_finish(b->cal, &b->cal_o))
		for (size_t i = 0; i < b->nviews; i++)
			cmp_attach_floor(b->views[i].set, b->cal, &b->views[i].o);
	if (!ret && b->study && b->study->samples) {
		/* libc's memset is the base, as `show --columns param:f --base default` compares them */
		for (size_t c = 0; c < b->study->ncols; c++)
			if (!strcmp(b->study->cols[c], "default"))
				b->study_o.base = "default";
		if (cmp_finish(b->study, &b->study_o))
			ret = EXIT_INTERNAL;
	}
	return ret;
}

/* The finished sets as views of @r (taking them over from @b). */
static int build_views(struct build *b, struct result *r)
{
	r->views = calloc(b->nviews ? b->nviews : 1, sizeof(*r->views));
	if (!r->views)
		return -ENOMEM;
	for (size_t i = 0; i < b->nviews; i++) {
		struct build_view *v = &b->views[i];
		struct result_view *rv = &r->views[r->nviews];
		int ret;

		if (!v->set->samples)
			continue;
		if ((ret = result_view_of(v->set, &v->o, rv)))
			return ret;
		r->nviews++;
		rv->set = v->set;
		v->set = NULL;
		rv->profile_only = b->sel->want & RESULT_WANT_PROFILE_ONLY;
		if (v->profile && v->profile->samples) {
			rv->profile = v->profile;
			v->profile = NULL;
		}
	}
	return 0;
}

/*
 * Session UUID -> environment snapshot (JSON null: none), fetched one at a
 * time for what the warnings read: the first session with settings per
 * block and column, and every session of the 4KB mmap rows (THP always) or,
 * for show --profile, of every row; so memory follows the table, not the
 * store's sessions.
 */
static int build_env_want(struct store *st, json_t *envs, const char *uuid, bool *found)
{
	json_t *env = json_object_get(envs, uuid);
	int ret = 0;

	if (!env) {
		ret = store_session_environment(st, uuid, &env);
		if (ret == -ENOENT || (!ret && !env))
			env = json_null();
		if ((ret && ret != -ENOENT) || json_object_set_new(envs, uuid, env))
			return ret && ret != -ENOENT ? ret : -ENOMEM;
		ret = 0;
	}
	*found = json_is_object(json_object_get(env, "settings"));
	return ret;
}

/* Every session of @row's cells (or of those whose @all is false, none). */
static int build_env_row(struct store *st, const struct cmp_set *set, const struct cmp_row *row, json_t *envs)
{
	int ret = 0;

	for (size_t c = 0; !ret && c < set->ncols; c++) {
		const struct cmp_cell *cell = &row->cells[c];
		bool found;

		for (size_t u = 0; !ret && u < cell->nuuids; u++)
			ret = build_env_want(st, envs, cell->uuids[u], &found);
	}
	return ret;
}

static int build_envs_of(struct store *st, const struct cmp_set *set, bool all, json_t *envs)
{
	int ret = 0;

	for (size_t b = 0; !ret && b < set->nblocks; b++) {
		const struct cmp_block *blk = &set->blocks[b];

		for (size_t c = 0; !ret && c < set->ncols; c++) {
			bool found = false;

			for (size_t r = 0; !ret && !found && r < blk->nrows; r++) {
				const struct cmp_cell *cell = &blk->rows[r].cells[c];

				for (size_t u = 0; !ret && !found && u < cell->nuuids; u++)
					ret = build_env_want(st, envs, cell->uuids[u], &found);
			}
		}
		for (size_t r = 0; !ret && r < blk->nrows; r++)
			if (all || result_thp_row(&blk->rows[r]))
				ret = build_env_row(st, set, &blk->rows[r], envs);
	}
	return ret;
}

/* The environments the views' warnings read, into r->envs; an exit code after log_err(). */
static int build_envs(struct store *st, unsigned want, struct result *r)
{
	struct store_counts n;
	int ret;

	if (r->sessions) {
		/* the page lists every session: their environments came with them */
		r->envs = result_env_index(r->sessions);
		ret = r->envs ? 0 : -ENOMEM;
	} else {
		r->envs = json_object();
		ret = r->envs ? store_count(st, &n) : -ENOMEM;
		/* a store of imports has no snapshots: nothing to look up */
		for (size_t i = 0; !ret && n.environments && i < r->nviews; i++)
			ret = build_envs_of(st, r->views[i].set, want & RESULT_WANT_PROFILE_ONLY, r->envs);
	}
	if (ret == -ENOMEM) {
		log_err("out of memory reading the sessions' environments");
		return EXIT_INTERNAL;
	}
	if (ret) {
		log_err("cannot read the sessions' environments: %s", strerror(-ret));
		return store_exit_code(ret);
	}
	return 0;
}

/* What the header and the page read besides the samples: the store's listings, then the environments. */
static int result_read_context(struct store *st, unsigned want, struct result *r)
{
	if ((want & (RESULT_WANT_HEADER | RESULT_WANT_SESSIONS)) &&
	    (store_list_sessions(st, &r->sessions) || store_list_swprofiles(st, &r->swprofiles)))
		/* each listing logged its failure */
		return EXIT_RESOURCE;
	/* the machines' fingerprints say which buffers their caches hold: a few rows, always read */
	if (store_list_suts(st, &r->suts))
		return EXIT_RESOURCE;
	return build_envs(st, want, r);
}

/* Per block of @v: what its sessions' environments warn about, the header, the profile summary; then the notes. */
static int build_view_context(const struct result *r, unsigned want, struct result_view *v)
{
	int ret = 0;

	if ((want & RESULT_WANT_HEADER) &&
	    !(v->header = result_header_build(v->set, r->sessions, r->suts, r->swprofiles)))
		return -ENOMEM;
	for (size_t b = 0; !ret && b < v->nblocks; b++) {
		struct result_block *blk = &v->blocks[b];
		const struct cmp_block *cb = &v->set->blocks[b];

		blk->settings_differ = result_env_diffs(v->set, cb, r->envs);
		blk->thp_always = result_thp_always(v->set, cb, r->envs);
		if (v->header)
			blk->header = &v->header->blocks[b];
		if (want & RESULT_WANT_PROFILE_ONLY)
			blk->profiles = result_profiles_json(v->set, b, r->envs);
		if (!blk->settings_differ || !blk->thp_always || ((want & RESULT_WANT_PROFILE_ONLY) && !blk->profiles))
			ret = -ENOMEM;
	}
	if (!ret)
		result_view_cache(v, r->suts);
	return ret ?: result_view_notes(v);
}

static int result_finish(unsigned want, struct cmp_set *study, const struct cmp_opts *study_o, struct result *r)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < r->nviews; i++)
		ret = build_view_context(r, want, &r->views[i]);
	if (!ret && study && study->samples)
		ret = result_study_build(study, study_o, r->suts, &r->study);
	if (ret) {
		log_err("out of memory building the result");
		return EXIT_INTERNAL;
	}
	return 0;
}

/* Each sequential run the store recorded, into every view: its cells are judged at the looks' level. */
static int build_look(const struct store_sequential *q, void *arg)
{
	const struct build *b = arg;

	for (size_t i = 0; i < b->nviews; i++)
		if (cmp_add_looks(b->views[i].set, q->sut, q->swprofile, q->looks))
			return -ENOMEM;
	return 0;
}

static int build_looks(struct build *b, struct store *st)
{
	int ret = b->sel->want & RESULT_OWN_ALPHA ? 0 : store_sequential_each(st, build_look, b);

	if (ret == -ENOMEM) {
		log_err("out of memory reading the sequential runs");
		return EXIT_INTERNAL;
	}
	if (ret) {
		log_err("cannot read the sequential runs: %s", strerror(-ret));
		return store_exit_code(ret);
	}
	return 0;
}

int result_build(const struct result_select *sel, struct result **out)
{
	struct build b = { .sel = sel };
	struct result *r = calloc(1, sizeof(*r));
	struct store *st = NULL;
	int ret = r ? store_url_open_existing(sel->store_url, wl_identity_parse, &st) : EXIT_INTERNAL;

	*out = NULL;
	if (!ret)
		ret = build_sets(&b, st);
	if (!ret)
		ret = build_looks(&b, st);
	if (!ret)
		ret = build_finish(&b);
	if (!ret && build_views(&b, r)) {
		log_err("out of memory building the result");
		ret = EXIT_INTERNAL;
	}
	if (!ret)
		ret = result_read_context(st, sel->want, r);
	store_close(st);
	if (!ret)
		ret = result_finish(sel->want, b.study, &b.study_o, r);
	if (!ret && b.study) {
		r->study_set = b.study;
		b.study = NULL;
	}
	build_free(&b);
	if (ret) {
		result_free(r);
		return ret;
	}
	*out = r;
	return 0;
}

void result_free(struct result *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nviews; i++) {
		struct result_view *v = &r->views[i];

		cmp_free(v->set);
		cmp_free(v->profile);
		result_header_free(v->header);
		result_view_free(v);
	}
	free(r->views);
	result_study_free(r->study);
	cmp_free(r->study_set);
	json_decref(r->sessions);
	json_decref(r->suts);
	json_decref(r->swprofiles);
	json_decref(r->envs);
	free(r);
}
