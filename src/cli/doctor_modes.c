/* doctor_modes: doctor --store's check of this machine's calibration sessions: does a boot land in a fast or a slow mode? */
#include "cli/doctor_modes.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "compare/compare.h"
#include "store/store.h"
#include "store/url.h"
#include "util/log.h"
#include "workloads/workload.h"

/* store_query() callback: every sample of the SUT class into the set (cmp_add() keeps the calibration's). */
static int dm_add(const struct store_row *row, void *arg)
{
	void **a = arg;
	struct cmp_sample x = { row->sut, row->swprofile, row->session, row->session_started, row->ident,
				row->unit, row->higher_is_better, row->value };

	return cmp_add(a[0], a[1], &x);
}

/* One WARN per calibration cell whose sessions fall into two modes; *@told: cells with 4 sessions or more. */
static int dm_cells(const struct cmp_set *set, struct doctor_report *rep, size_t *told)
{
	int ret = 0;

	for (size_t b = 0; !ret && b < set->nblocks; b++)
		for (size_t r = 0; !ret && r < set->blocks[b].nrows; r++)
			for (size_t c = 0; !ret && c < set->ncols; c++) {
				const struct cmp_row *row = &set->blocks[b].rows[r];
				const struct stats_cell *st = &row->cells[c].st;
				char value[64];

				if (!row->cells[c].n || !st->modes)
					continue;
				++*told;
				if (st->modes != 2)
					continue;
				snprintf(value, sizeof(value), "2 modes %.1f%% apart", st->mode_gap_pct);
				ret = doctor_add(rep, "modes", DOCTOR_WARN, value,
						 "more sessions per kernel (show then judges the row with its spread"
						 " shared); the same placement every boot (hugepages= reserved on the"
						 " kernel command line) may remove the slow mode",
						 "%.120s (%.24s) under %.80s: %zu of %zu sessions in the lower mode: a"
						 " boot lands in a fast or a slow mode, so comparisons take more boots",
						 row->rclass, row->unit, set->cols[c], st->mode_low, st->sessions);
			}
	return ret;
}

/* The findings of @set (a finished calibration-only set) into @rep. */
static int dm_report(const struct cmp_set *set, const char *sut, struct doctor_report *rep)
{
	size_t before = rep->n, told = 0;
	int ret = dm_cells(set, rep, &told);

	if (ret || rep->n > before)
		return ret;
	if (!told)
		return doctor_add(rep, "modes", DOCTOR_WARN, "cannot tell", "clearpath calibrate --sessions 4 PLAN (it adds to"
				  " the calibration)", "the calibration of SUT class %.200s has fewer than 4 sessions per"
				  " result class: too few to tell whether boots land in modes", sut);
	return doctor_add(rep, "modes", DOCTOR_PASS, "one mode", NULL,
			  "the calibration's sessions of SUT class %.200s fall into one mode (%zu result class%s with"
			  " 4 sessions or more)", sut, told, told == 1 ? "" : "es");
}

int doctor_store_modes(const char *url, const char *sut, struct doctor_report *rep)
{
	struct cmp_opts o = { .axis = CMP_BY_SWPROFILE, .alpha = STATS_DEFAULT_ALPHA,
			      .min_effect_pct = STATS_DEFAULT_MIN_EFFECT_PCT, .target_pct = STATS_DEFAULT_TARGET_PCT,
			      .calibration_only = true };
	struct store_filter f = { .sut = sut };
	struct store *st = NULL;
	struct cmp_set *set = cmp_new(&o);
	void *arg[2] = { set, &o };
	int ret = set ? store_url_open_existing(url, wl_identity_parse, &st) : EXIT_INTERNAL;

	if (!ret && store_query(st, &f, dm_add, arg)) {
		log_err("cannot read the calibration sessions of SUT class '%s'", sut);
		ret = EXIT_RESOURCE;
	}
	if (!ret && !set->samples)
		ret = doctor_add(rep, "modes", DOCTOR_WARN, "not calibrated", "clearpath calibrate PLAN",
				 "the store holds no calibration sessions of SUT class %.200s: whether a boot lands in"
				 " a fast or a slow mode is not known", sut) ? EXIT_INTERNAL : 0;
	else if (!ret)
		ret = cmp_finish(set, &o) ? EXIT_INTERNAL : dm_report(set, sut, rep) ? EXIT_INTERNAL : 0;
	store_close(st);
	cmp_free(set);
	return ret;
}
