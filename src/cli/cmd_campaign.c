/* cmd_campaign: `clearpath campaign start|status|continue|abort|fake-boot`: kernels compared across boots. */
#include "campaign/campaign.h"
#include "campaign/method.h"
#include "campaign/executor.h"
#include "campaign/unit.h"
#include "cli/cli_common.h"
#include "cli/commands.h"
#include "harness/session.h"
#include "remote/remote.h"
#include "store/url.h"
#include "util/boot.h"
#include "util/clock.h"
#include "util/log.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { CA_BOOTS = 256, CA_STORE, CA_YES, CA_DRY_RUN, CA_SEED, CA_RELEASE, CA_CMDLINE, CA_HOST, CA_SSH_CONFIG,
       CA_BOOT_TIMEOUT, CA_FORMAT, CA_HELP };

#define CA_MAX_HOSTS 64

static const struct option ca_options[] = {
	{ "boots", required_argument, NULL, CA_BOOTS },
	{ "store", required_argument, NULL, CA_STORE },
	{ "yes", no_argument, NULL, CA_YES },
	{ "dry-run", no_argument, NULL, CA_DRY_RUN },
	{ "seed", required_argument, NULL, CA_SEED },
	{ "release", required_argument, NULL, CA_RELEASE },
	{ "cmdline", required_argument, NULL, CA_CMDLINE },
	{ "host", required_argument, NULL, CA_HOST },
	{ "ssh-config", required_argument, NULL, CA_SSH_CONFIG },
	{ "boot-timeout", required_argument, NULL, CA_BOOT_TIMEOUT },
	{ "format", required_argument, NULL, CA_FORMAT },
	{ "help", no_argument, NULL, CA_HELP },
	{ NULL, 0, NULL, 0 },
};

struct ca_cli {
	unsigned boots;
	const char *store;
	bool yes, dry_run, have_seed;
	unsigned long long seed;
	const char *release, *cmdline;	/* fake-boot */
	const char *hosts[CA_MAX_HOSTS];	/* remote mode */
	size_t nhosts;
	const char *ssh_config;
	unsigned boot_timeout;
	bool json;	/* status --format json */
	bool format_given;
};

static void ca_usage(FILE *out)
{
	fprintf(out,
		"usage: clearpath campaign start PLAN --boots N [--store URL] [--yes] [--dry-run] [--seed N]\n"
		"                [--host [USER@]HOST[:PORT]]... [--ssh-config FILE] [--boot-timeout S]\n"
		"       clearpath campaign status [ID] [--store URL] [--format text|json]\n"
		"       clearpath campaign continue [ID] [--store URL] [--ssh-config FILE] [--boot-timeout S]\n"
		"       clearpath campaign abort [ID] [--store URL]\n"
		"       clearpath campaign fake-boot --release R [--cmdline C]\n\n"
		"Boots each swprofile the plan names (its `swprofiles`) N times, in an interleaved\n"
		"seeded order, and runs one session of the plan after each boot, checking first\n"
		"that the boot gave the kernel asked for.  The campaign's state is in the store.\n\n"
		"    start PLAN        create the campaign and take its first boot; on this machine a\n"
		"                      systemd unit runs 'campaign continue' after each boot (fake\n"
		"                      boots run to the end at once); prints the table at the end\n"
		"    status [ID]       the campaign's boots: order, status, boot id, session, errors\n"
		"    continue [ID]     check the boot (boot id changed, expect: holds), measure, boot next\n"
		"    abort [ID]        end the running campaign (or campaign ID) and remove its unit\n"
		"    fake-boot         simulate a boot in $CLEARPATH_FAKE_BOOT (tests and demos)\n\n"
		"    --boots N         boots per swprofile (1 to %d)\n"
		"    --store URL       a path or sqlite:///path (default: $CLEARPATH_STORE, else\n"
		"                      ${XDG_DATA_HOME:-~/.local/share}/clearpath/results.db)\n"
		"    --yes             reboot without asking (asked on a terminal, refused elsewhere)\n"
		"    --dry-run         print the unit and every command instead of running them; with\n"
		"                      --host, each host's, from its facts read over ssh (nothing changed)\n"
		"    --seed N          the seed of the boot order (default: from the clock)\n"
		"    --release R       fake-boot: the kernel release the simulated boot reports\n"
		"    --cmdline C       fake-boot: its kernel command line\n"
		"    --host DEST       remote mode: measure on this host over ssh instead of here\n"
		"                      (repeatable: hosts run in parallel); clearpath is copied there,\n"
		"                      each session's samples come back into the store whole\n"
		"    --ssh-config FILE remote mode: ssh's configuration file (ssh -F), recorded\n"
		"    --boot-timeout S  remote mode: seconds a host may take to come back from a boot\n"
		"                      before that boot is an error (default %d), recorded\n"
		"    --format text|json  status: the table, or one JSON object with the same facts\n"
		"Unit directory: $%s (default %s).\n",
		CAMPAIGN_MAX_BOOTS, CAMPAIGN_BOOT_TIMEOUT_DEFAULT, CAMPAIGN_UNIT_DIR_ENV, CAMPAIGN_UNIT_DIR);
}

static int ca_option(int c, const char *arg, void *ctx)
{
	struct ca_cli *o = ctx;
	char *end;

	switch (c) {
	case CA_BOOTS:
		if (cli_number(arg, "boots", 1, &o->boots))
			return EXIT_USAGE;
		if (o->boots > CAMPAIGN_MAX_BOOTS) {
			log_err("--boots takes 1 to %d, not %u", CAMPAIGN_MAX_BOOTS, o->boots);
			return EXIT_USAGE;
		}
		return 0;
	case CA_STORE: o->store = arg; return 0;
	case CA_YES: o->yes = true; return 0;
	case CA_DRY_RUN: o->dry_run = true; return 0;
	case CA_SEED:
		errno = 0;
		o->seed = strtoull(arg, &end, 10);
		o->have_seed = true;
		if (*arg < '0' || *arg > '9' || *end || errno) {
			log_err("--seed takes a whole number, not '%s'", arg);
			return EXIT_USAGE;
		}
		return 0;
	case CA_RELEASE: o->release = arg; return 0;
	case CA_CMDLINE: o->cmdline = arg; return 0;
	case CA_HOST:
		if (o->nhosts == CA_MAX_HOSTS) {
			log_err("at most %d --host", CA_MAX_HOSTS);
			return EXIT_USAGE;
		}
		o->hosts[o->nhosts++] = arg;
		return 0;
	case CA_SSH_CONFIG: o->ssh_config = arg; return 0;
	case CA_BOOT_TIMEOUT: return cli_number(arg, "boot-timeout", 1, &o->boot_timeout);
	case CA_FORMAT:
		o->format_given = true;
		o->json = !strcmp(arg, "json");
		if (o->json || !strcmp(arg, "text"))
			return 0;
		log_err("unknown output format '%s': expected text or json", arg);
		return EXIT_USAGE;
	}
	return EXIT_USAGE;
}

/* Options for every subcommand, then the positional arguments: at most @max of them. */
static int ca_parse(int argc, char **argv, struct ca_cli *o, int max)
{
	static const struct cli_getopt g = { "campaign", ca_options, CA_HELP, ca_usage, ca_option };
	int ret = cli_getopt(&g, argc, argv, o);

	if (!ret && argc - optind > max) {
		log_err("unexpected argument '%s' to 'campaign %s'", argv[optind + max], argv[0]);
		return EXIT_USAGE;
	}
	if (!ret && o->format_given && strcmp(argv[0], "status")) {
		log_err("--format is for 'campaign status'");
		return EXIT_USAGE;
	}
	return ret ?: remote_ssh_config_check(o->ssh_config);
}

/* `show` for the campaign's swprofiles, in the plan's order (the first is the base). */
static int ca_show(const struct campaign *c)
{
	char *argv[4 + 2 * PLAN_MAX_SWPROFILES] = { "show" };
	int n = 1;

	if (c->store_url) {
		argv[n++] = "--store";
		argv[n++] = c->store_url;
	}
	for (size_t i = 0; i < c->plan->nswprofiles; i++) {
		argv[n++] = "--swprofile";
		argv[n++] = c->plan->swprofiles[i].name;
	}
	argv[n] = NULL;
	fflush(stdout);
	return cmd_show(n - 1, argv + 1);
}

/* --ssh-config and --boot-timeout given to 'continue' win over the recorded ones (not stored). */
static int ca_override(struct campaign *c, const struct ca_cli *o)
{
	int err = 0;

	if (o->ssh_config)
		err |= json_object_set_new(c->spec, "ssh_config", json_string(o->ssh_config));
	if (o->boot_timeout)
		err |= json_object_set_new(c->spec, "boot_timeout", json_integer(o->boot_timeout));
	if (!err)
		return 0;
	log_err("out of memory");
	return EXIT_INTERNAL;
}

/* Advance every target, then tidy up: the table comes at the end. */
static int ca_drive(struct campaign *c, const struct ca_cli *o)
{
	bool detached;
	int ret = ca_override(c, o);

	if (ret)
		return ret;
	/* Ctrl-C stops the session and this controller, not the campaign: 'continue' goes on */
	harness_stop_catch();
	ret = campaign_drive(c, &detached);
	harness_stop_die();
	if (ret || detached)
		return ret;
	printf("campaign %lld done: %zu boots, one session each\n\n", (long long)c->row.id, c->nboots);
	return ca_show(c);
}

/* Rebooting this machine is asked for: --yes, or "y" on a terminal. */
static int ca_confirm(const struct ca_cli *o, const struct plan *p)
{
	char answer[16] = "";

	if (o->yes || o->dry_run || !campaign_reboots(p))
		return 0;
	if (!isatty(STDIN_FILENO)) {
		log_err("this campaign reboots %s %u times: pass --yes to go on", o->nhosts ? "each host" : "this machine",
			o->boots * (unsigned)p->nswprofiles);
		return EXIT_USAGE;
	}
	fprintf(stderr, "This campaign reboots %s %u times and measures after each boot. Go on? [y/N] ",
		o->nhosts ? "each host" : "this machine", o->boots * (unsigned)p->nswprofiles);
	if (!fgets(answer, sizeof(answer), stdin) || (strcmp(answer, "y\n") && strcmp(answer, "yes\n"))) {
		log_err("not confirmed; nothing was started");
		return EXIT_USAGE;
	}
	return 0;
}

/* Whether each target can run the plan, by its kind's check (a dry run warns and goes on). */
static int ca_check_targets(const struct campaign_start *s, const struct plan *p, bool dry_run)
{
	struct campaign c;
	int ret = campaign_make_dry(s, (struct plan *)p, "", &c);
	const struct campaign_executor_kind *k = ret ? NULL : campaign_executor_of(&c);

	for (size_t i = 0; k && i < s->ntargets; i++) {
		int err = k->check(p, c.spec, s->targets[i], dry_run);

		ret = ret ? ret : err;
	}
	campaign_free(&c);
	return ret;
}

/* --dry-run: each target's boots through the printing executor. */
static int ca_dry_run(const struct campaign_start *s, struct plan *p, const char *url)
{
	struct campaign c;
	int ret = campaign_make_dry(s, p, url, &c);

	if (!ret)
		ret = campaign_dry_run(&c);
	campaign_free(&c);
	return ret;
}

static int ca_start(int argc, char **argv)
{
	struct ca_cli o = { 0 };
	const char *targets[] = { CAMPAIGN_LOCAL_TARGET };
	struct campaign_start s = { .targets = targets, .ntargets = 1 };
	struct campaign c;
	struct plan *p = NULL;
	char url[PATH_MAX + 64], ssh_config[PATH_MAX];
	int64_t id;
	int ret = ca_parse(argc, argv, &o, 1);

	if (ret)
		return ret;
	if (optind == argc || !o.boots) {
		log_err("campaign start needs a plan and --boots N, e.g. 'clearpath campaign start plans/ab.yaml --boots 4'");
		return EXIT_USAGE;
	}
	s.plan_file = argv[optind];
	s.boots = o.boots;
	s.boot_timeout = o.boot_timeout;
	if (o.nhosts) {
		/* recorded for 'continue', which may run from another directory */
		if (o.ssh_config && !realpath(o.ssh_config, ssh_config)) {
			log_err("cannot read the ssh config %s: %s", o.ssh_config, strerror(errno));
			return EXIT_USAGE;
		}
		s.ssh_config = o.ssh_config ? ssh_config : NULL;
		s.targets = o.hosts;
		s.ntargets = o.nhosts;
	} else if (o.ssh_config || o.boot_timeout) {
		log_err("--ssh-config and --boot-timeout are for campaigns on other hosts (--host)");
		return EXIT_USAGE;
	}
	s.seed = o.have_seed ? o.seed : clock_now_ns() ^ (uint64_t)getpid();
	o.seed = s.seed;
	ret = campaign_store_url(o.store, o.dry_run, url, sizeof(url)) ?: campaign_plan_load(s.plan_file, &p) ?:
	      ca_check_targets(&s, p, o.dry_run);
	if (!ret && o.dry_run)
		ret = ca_dry_run(&s, p, url);
	if (ret || o.dry_run)
		goto out;
	if ((ret = ca_confirm(&o, p)) || (ret = campaign_create(url, &s, p, &id)))
		goto out;
	printf("campaign %lld: %u boots of each of %zu swprofiles, seed %llu, store %s\n", (long long)id, o.boots,
	       p->nswprofiles, (unsigned long long)s.seed, url);
	if (!(ret = campaign_load(url, id, false, &c))) {
		/* the unit continues a local campaign after this machine's reboot */
		if ((ret = campaign_begin(&c)))
			campaign_abort(&c);
		else
			ret = ca_drive(&c, &o);
	}
	campaign_free(&c);
out:
	plan_free(p);
	return ret;
}

/* The store of continue/abort/status: --store, else the default, as start recorded it. */
static int ca_open(int argc, char **argv, int max, struct ca_cli *o, char *url, size_t len)
{
	int ret = ca_parse(argc, argv, o, max);

	return ret ? ret : campaign_store_url(o->store, false, url, len);
}

/* The optional campaign ID after the options (0 when none).  0 or EXIT_USAGE. */
static int ca_id(int argc, char **argv, int64_t *id)
{
	char *end;

	*id = 0;
	if (optind >= argc)
		return 0;
	errno = 0;
	*id = strtoll(argv[optind], &end, 10);
	if (*argv[optind] < '1' || *argv[optind] > '9' || *end || errno) {
		log_err("a campaign id is a number such as 1, not '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	return 0;
}

/* The campaign continue and abort act on: ID when given (it must be running), else the running one. */
static int ca_load_running(const char *url, int64_t id, struct campaign *c)
{
	int ret = campaign_load(url, id, !id, c);

	if (!ret && strcmp(c->row.status, STORE_CAMPAIGN_RUNNING)) {
		log_err("campaign %lld is %s, not running", (long long)c->row.id, c->row.status);
		ret = EXIT_USAGE;
	}
	/* the unit of a campaign of this store that ended from elsewhere must not run again; never on a failed load */
	if (ret == EXIT_USAGE)
		campaign_unit_tidy(url);
	return ret;
}

static int ca_continue(int argc, char **argv)
{
	struct ca_cli o = { 0 };
	struct campaign c = { .boots = NULL };
	char url[PATH_MAX + 64];
	int64_t id;
	int ret = ca_open(argc, argv, 1, &o, url, sizeof(url)) ?: ca_id(argc, argv, &id);

	if (ret)
		return ret;
	if (!(ret = ca_load_running(url, id, &c)))
		ret = ca_drive(&c, &o);
	campaign_free(&c);
	return ret;
}

static int ca_abort(int argc, char **argv)
{
	struct ca_cli o = { 0 };
	struct campaign c = { .boots = NULL };
	char url[PATH_MAX + 64];
	int64_t id;
	int ret = ca_open(argc, argv, 1, &o, url, sizeof(url)) ?: ca_id(argc, argv, &id);

	if (ret)
		return ret;
	if (!(ret = ca_load_running(url, id, &c)) && !(ret = campaign_abort(&c))) {
		/* its own unit goes, and one an older clearpath wrote, which names no campaign */
		ret = campaign_unit_remove(&c, true);
		printf("campaign %lld aborted; the sessions of its finished boots stay in the store\n",
		       (long long)c.row.id);
	}
	campaign_free(&c);
	return ret;
}

/* `status --format json`: one object on stdout, nothing else there. */
static int ca_print_json(const struct campaign *c)
{
	json_t *o = campaign_status_json(c);
	int err = !o || json_dumpf(o, stdout, JSON_INDENT(2)) || putchar('\n') == EOF;

	json_decref(o);
	if (err) {
		log_err("cannot write the campaign's status: %s", o ? strerror(errno) : "out of memory");
		return o ? EXIT_RESOURCE : EXIT_INTERNAL;
	}
	return 0;
}

static int ca_status(int argc, char **argv)
{
	struct ca_cli o = { 0 };
	struct campaign c;
	char url[PATH_MAX + 64];
	int64_t id;
	int ret = ca_open(argc, argv, 1, &o, url, sizeof(url)) ?: ca_id(argc, argv, &id);

	if (ret)
		return ret;
	ret = campaign_load(url, id, false, &c);
	if (!ret && o.json)
		ret = ca_print_json(&c);
	else if (!ret)
		campaign_print_status(&c);
	campaign_free(&c);
	return ret;
}

static int ca_fake_boot(int argc, char **argv)
{
	struct ca_cli o = { 0 };
	const char *dir = getenv(BOOT_FAKE_ENV);
	char id[64];
	int ret = ca_parse(argc, argv, &o, 0), err;

	if (ret)
		return ret;
	if (!dir || !*dir || !o.release) {
		log_err("fake-boot needs %s (the directory) and --release R", BOOT_FAKE_ENV);
		return EXIT_USAGE;
	}
	err = boot_fake(dir, o.release, o.cmdline ? o.cmdline : "", id, sizeof(id));
	if (err) {
		log_err("cannot write the fake boot into %s: %s", dir, strerror(-err));
		return EXIT_RESOURCE;
	}
	printf("%s\n", id);
	return 0;
}

int cmd_campaign(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} subs[] = {
		{ "start", ca_start }, { "status", ca_status }, { "continue", ca_continue },
		{ "abort", ca_abort }, { "fake-boot", ca_fake_boot },
	};

	if (argc == 0 || !strcmp(argv[0], "-h") || !strcmp(argv[0], "--help")) {
		ca_usage(argc == 0 ? stderr : stdout);
		return argc == 0 ? EXIT_USAGE : EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
		if (!strcmp(argv[0], subs[i].name)) {
			int ret = subs[i].fn(argc, argv);

			return ret == CLI_HELP_SHOWN ? EXIT_OK : ret;
		}
	log_err("unknown campaign command '%s': expected start, status, continue, abort or fake-boot", argv[0]);
	log_hint("see 'clearpath campaign --help'");
	return EXIT_USAGE;
}
