/* eta: how long a campaign's boots take so far and when it will be done: the progress line and status say the same. */
#define _GNU_SOURCE	/* strptime, timegm */
#include "campaign/campaign.h"
#include "campaign/executor.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* Seconds since the epoch of the store time @t ("2026-04-08T08:47:00.123456Z"), or NAN. */
static double eta_time(const char *t)
{
	struct tm tm = { 0 };
	const char *end = *t ? strptime(t, "%Y-%m-%dT%H:%M:%S", &tm) : NULL;
	double frac = 0;

	if (!end)
		return NAN;
	if (*end == '.')
		sscanf(end, "%lf", &frac);
	return (double)timegm(&tm) + frac;
}

/* @target's (NULL: every target's) done boots with both times, their mean seconds, and the boots not done. */
static double eta_mean(const struct campaign *c, const char *target, size_t *timed, size_t *left)
{
	double sum = 0;

	*timed = *left = 0;
	for (size_t i = 0; i < c->nboots; i++) {
		const struct store_campaign_boot *b = &c->boots[i];
		double d;

		if (target && strcmp(b->target, target))
			continue;
		if (strcmp(b->status, STORE_BOOT_DONE)) {
			(*left)++;
			continue;
		}
		d = eta_time(b->finished) - eta_time(b->started);
		if (isfinite(d) && d >= 0) {
			sum += d;
			(*timed)++;
		}
	}
	return *timed ? sum / (double)*timed : NAN;
}

double campaign_eta(const struct campaign *c, double *per_boot)
{
	const struct campaign_executor_kind *k = campaign_executor_named(json_string_value(json_object_get(c->spec, "mode")));
	json_t *targets = campaign_targets(c), *v;
	size_t timed, left, i;
	double all = eta_mean(c, NULL, &timed, &left), eta = 0;

	*per_boot = all;
	if (!timed)
		return left ? NAN : 0;
	/* targets in parallel are done when the slowest is; one after the other, when the last is */
	json_array_foreach(targets, i, v) {
		double mine = eta_mean(c, json_string_value(v), &timed, &left);
		double t = (double)left * (timed ? mine : all);

		eta = k && k->process_per_target ? fmax(eta, t) : eta + t;
	}
	return eta;
}

char *campaign_duration(double s, char *buf, size_t len)
{
	long t = isfinite(s) && s > 0 ? lround(s) : 0;

	if (t >= 3600)
		snprintf(buf, len, "%ldh %ldm", t / 3600, t % 3600 / 60);
	else if (t >= 60)
		snprintf(buf, len, "%ldm %lds", t / 60, t % 60);
	else
		snprintf(buf, len, "%lds", t);
	return buf;
}

void campaign_print_progress(const struct campaign *c, const char *target, const struct store_campaign_boot *b,
			     const char *method)
{
	char per[32], left[32];
	size_t total, done = 0;
	double mean, eta = campaign_eta(c, &mean);

	campaign_next_boot(c, target, &total);
	for (size_t i = 0; i < c->nboots; i++)
		done += !strcmp(c->boots[i].target, target) && !strcmp(c->boots[i].status, STORE_BOOT_DONE);
	printf("%s: boot %d of %zu: %s (%s); %zu done, %zu left", target, b->pos + 1, total, b->swprofile, method,
	       done, total - done);
	if (isfinite(mean) && isfinite(eta))
		printf(", %s per boot so far, about %s to go", campaign_duration(mean, per, sizeof(per)),
		       campaign_duration(eta, left, sizeof(left)));
	printf("\n");
	fflush(stdout);
}
