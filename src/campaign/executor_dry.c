/* executor_dry: the dry run, a printing executor around a target's own: campaign_advance() runs, nothing is changed. */
#include "campaign/campaign.h"
#include "campaign/executor.h"
#include "campaign/method.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "util/shquote.h"

/*
 * The target's own executor, opened with dry_run set, reads what it can
 * (the facts of the boot it runs now) and prints each command instead of
 * running it.  This one stands in for what only a real boot would tell:
 * after a boot, the facts are those the boot is expected to give (a new boot
 * id, the release and command-line words of `expect`) and the sysctls read
 * back as set, so the core goes on through every boot, check and session
 * as a run would, and prints what it checks.
 */
struct dry {
	struct campaign_executor inner;
	const struct plan_swprofile *booted;	/* the boot in flight, NULL before the first */
	bool checked;				/* its check was printed */
	unsigned boots;
	struct campaign_facts now;
};

/* The facts of the boot the target runs now, read for real; "unknown" ones when it cannot be asked. */
static void dry_first_facts(struct dry *d, const char *target)
{
	int err = d->inner.ops->facts(&d->inner, &d->now);

	if (!err && !d->now.release[0]) {
		/* a target that boots afresh for each boot (a LAVA job): nothing runs there before */
		printf("%s: each boot starts afresh there: nothing to read before the first\n", target);
		return;
	}
	if (!err) {
		printf("%s: runs kernel %s, boot id %.8s, cmdline '%s' (read; nothing is changed there)\n", target,
		       d->now.release, d->now.boot_id, d->now.cmdline);
		return;
	}
	snprintf(d->now.boot_id, sizeof(d->now.boot_id), "unknown");
	snprintf(d->now.release, sizeof(d->now.release), "unknown");
	snprintf(d->now.cmdline, sizeof(d->now.cmdline), "<unknown: %s's /proc/cmdline>", target);
	printf("%s: cannot be reached now: its kernel, command line and architecture are unknown\n", target);
}

/* "check: boot id changed, release R, cmdline has W..." for the boot in flight. */
static void dry_print_check(const struct dry *d, const char *target)
{
	const struct plan_expect *e = &d->booted->expect;

	printf("%s: check: boot id changed, release %s", target, e->release);
	for (size_t k = 0; k < e->ncmdline_has; k++)
		printf(", cmdline has %s", e->cmdline_has[k]);
	printf("\n");
}

static int dry_facts(struct campaign_executor *ex, struct campaign_facts *f)
{
	struct dry *d = ex->priv;

	if (!d->booted && !d->now.boot_id[0])
		dry_first_facts(d, ex->target);
	if (d->booted && !d->checked) {
		dry_print_check(d, ex->target);
		d->checked = true;
	}
	*f = d->now;
	return 0;
}

/* The expected value of sysctl @key after the boot in flight, or NULL. */
static const char *dry_expected(const struct dry *d, const char *key)
{
	for (size_t i = 0; d->booted && i < d->booted->expect.nsysctl; i++)
		if (!strcmp(d->booted->expect.sysctl[i].key, key))
			return d->booted->expect.sysctl[i].value;
	return NULL;
}

static int dry_sysctl_get(struct campaign_executor *ex, const char *key, char *buf, size_t len)
{
	const char *v = dry_expected(ex->priv, key);

	if (!v)
		return -ENODATA;
	printf("%s: check: sysctl %s = %s\n", ex->target, key, v);
	snprintf(buf, len, "%s", v);
	return 0;
}

static int dry_sysctl_set(struct campaign_executor *ex, const char *key, const char *value)
{
	struct dry *d = ex->priv;

	return d->inner.ops->sysctl_set(&d->inner, key, value);
}

/*
 * The facts the boot of @sw is expected to give: a new boot id, its
 * release, the command line its method passes (else the one it left, with
 * the words `expect` names): what the check after it then finds.
 */
static int dry_next_facts(struct dry *d, const struct plan *p, const struct plan_swprofile *sw,
			  const struct campaign_facts *before)
{
	struct campaign_boot_ctx ctx = { p, sw, before, "clearpath", NULL };
	struct campaign_boot_cmds cmds;
	int ret = campaign_boot_commands(&ctx, &cmds);
	char *line = d->now.cmdline;
	size_t n;

	if (ret)
		return ret;
	d->booted = sw;
	d->checked = false;
	snprintf(d->now.boot_id, sizeof(d->now.boot_id), "dry-run-boot-%u", ++d->boots);
	snprintf(d->now.release, sizeof(d->now.release), "%s", sw->expect.release);
	if (cmds.cmdline)
		snprintf(line, sizeof(d->now.cmdline), "%s", cmds.cmdline);
	n = strlen(line);
	for (size_t i = 0; i < sw->expect.ncmdline_has && n < sizeof(d->now.cmdline); i++)
		if (!campaign_cmdline_has(line, sw->expect.cmdline_has[i]))
			n += (size_t)snprintf(line + n, sizeof(d->now.cmdline) - n, "%s%s", n ? " " : "",
					      sw->expect.cmdline_has[i]);
	campaign_boot_cmds_free(&cmds);
	return 0;
}

static int dry_boot(struct campaign_executor *ex, const struct plan *p, const struct plan_swprofile *sw,
		    const struct campaign_facts *before)
{
	struct dry *d = ex->priv;
	int ret = d->inner.ops->boot(&d->inner, p, sw, before);

	return ret ? ret : dry_next_facts(d, p, sw, before);
}

static int dry_wait(struct campaign_executor *ex, const struct plan_swprofile *sw, const struct campaign_facts *before,
		    enum campaign_wait *how)
{
	struct dry *d = ex->priv;

	return d->inner.ops->wait(&d->inner, sw, before, how);
}

static int dry_session(struct campaign_executor *ex, const struct campaign *c, const struct store_campaign_boot *b,
		       bool *resumable)
{
	struct dry *d = ex->priv;

	return d->inner.ops->session(&d->inner, c, b, resumable);
}

static const struct campaign_executor_ops dry_ops = {
	.facts = dry_facts,
	.sysctl_get = dry_sysctl_get,
	.sysctl_set = dry_sysctl_set,
	.boot = dry_boot,
	.wait = dry_wait,
	.session = dry_session,
};

/* The header: the plan, the order, the store. */
static void dry_header(const struct campaign *c)
{
	json_t *order = json_object_get(c->spec, "order"), *v;
	size_t i, n = json_array_size(campaign_targets(c));

	printf("campaign (dry run): plan %s, %lld boots per swprofile, seed %" PRIu64 ", store %s\n", c->plan_path,
	       (long long)json_integer_value(json_object_get(c->spec, "boots")), campaign_seed(c), c->store_url);
	printf("order%s:", n > 1 ? " (on every target)" : "");
	json_array_foreach(order, i, v)
		printf(" %s", json_string_value(v));
	printf("\n");
	if (n > 1 && campaign_executor_of(c)->process_per_target)
		printf("on %zu targets in parallel, each in a process of its own\n", n);
	printf("\n");
}

/* The table that ends a campaign: `show` of its swprofiles, base first. */
static int dry_show(const struct campaign *c)
{
	const char *argv[5 + 2 * PLAN_MAX_SWPROFILES] = { NULL, "show", "--store", c->store_url };
	char self[PATH_MAX], *line;
	size_t k = 4;
	int ret = campaign_self_path(self, sizeof(self));

	if (ret)
		return ret;
	argv[0] = self;
	for (size_t i = 0; i < c->plan->nswprofiles; i++) {
		argv[k++] = "--swprofile";
		argv[k++] = c->plan->swprofiles[i].name;
	}
	argv[k] = NULL;
	if (!(line = sh_join(argv))) {
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	printf("%s\n", line);
	free(line);
	return 0;
}

/* One target through the printing executor around its own. */
static int dry_target(struct campaign *c, const struct campaign_executor_kind *k, const char *target)
{
	struct dry d = { .boots = 0 };
	struct campaign_executor ex = { .ops = &dry_ops, .kind = k, .target = target, .dry_run = true, .priv = &d };
	bool detached;
	int ret = campaign_executor_open(k, c, target, true, &d.inner);

	if (!ret)
		ret = campaign_advance(c, &ex, &detached);
	campaign_executor_close(&d.inner);
	return ret;
}

int campaign_dry_run(struct campaign *c)
{
	const struct campaign_executor_kind *k = campaign_executor_of(c);
	json_t *v;
	size_t i;
	int ret = k ? 0 : EXIT_USAGE;

	if (ret)
		return ret;
	dry_header(c);
	if (k->begin)
		ret = k->begin(c);
	json_array_foreach(campaign_targets(c), i, v)
		if (!ret)
			ret = dry_target(c, k, json_string_value(v));
	if (!ret && k->end)
		ret = k->end(c);
	return ret ? ret : dry_show(c);
}
