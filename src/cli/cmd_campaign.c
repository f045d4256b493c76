/* cmd_campaign: `clearpath campaign start|status|continue|abort|fake-boot`: kernels compared across boots. */
#define _GNU_SOURCE	/* asprintf */
#include "campaign/campaign.h"
#include "campaign/method.h"
#include "campaign/executor.h"
#include "campaign/unit.h"
#include "cli/cli_args.h"
#include "cli/cli_common.h"
#include "cli/commands.h"
#include "harness/session.h"
#include "remote/remote.h"
#include "store/url.h"
#include "util/boot.h"
#include "util/clock.h"
#include "util/log.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

enum { CA_BOOTS = 256, CA_STORE, CA_YES, CA_DRY_RUN, CA_SEED, CA_RELEASE, CA_CMDLINE, CA_HOST, CA_SSH_CONFIG,
       CA_BOOT_TIMEOUT, CA_FORMAT, CA_LAVA, CA_DEVICE_TYPE, CA_TAGS, CA_LAVA_DEVICES, CA_LAVA_TOKEN_FILE,
       CA_LAVA_IDENTITY, CA_LAVA_RETRIES, CA_LAVA_QUEUE_TIMEOUT, CA_LAVA_CLEARPATH, CA_SUT, CA_ALL, CA_HELP };

#define CA_MAX_HOSTS 64
#define CA_MAX_TYPES 16
#define CA_MAX_LANES 32

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
	{ "lava", required_argument, NULL, CA_LAVA },
	{ "device-type", required_argument, NULL, CA_DEVICE_TYPE },
	{ "tags", required_argument, NULL, CA_TAGS },
	{ "lava-devices", required_argument, NULL, CA_LAVA_DEVICES },
	{ "lava-token-file", required_argument, NULL, CA_LAVA_TOKEN_FILE },
	{ "lava-identity", required_argument, NULL, CA_LAVA_IDENTITY },
	{ "lava-retries", required_argument, NULL, CA_LAVA_RETRIES },
	{ "lava-queue-timeout", required_argument, NULL, CA_LAVA_QUEUE_TIMEOUT },
	{ "lava-clearpath", required_argument, NULL, CA_LAVA_CLEARPATH },
	{ "sut", required_argument, NULL, CA_SUT },
	{ "all", no_argument, NULL, CA_ALL },
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
	bool all;	/* status --all */
	const char *sut;	/* start --sut */
	/* a LAVA lab */
	const char *lava, *tags, *token_file, *identity, *lava_clearpath;
	const char *types[CA_MAX_TYPES];
	size_t ntypes;
	unsigned lanes, queue_minutes;
	int retries;		/* -1: not given */
};

static void ca_usage(FILE *out)
{
	fprintf(out,
		"usage: clearpath campaign start PLAN --boots N [--store URL] [--yes] [--dry-run] [--seed N]\n"
		"                [--host [USER@]HOST[:PORT]]... [--ssh-config FILE] [--boot-timeout S]\n"
		"                [--lava URL --device-type T... [--tags A,B] [--lava-devices N]\n"
		"                 [--lava-token-file FILE | --lava-identity ID] [--lava-retries N]\n"
		"                 [--lava-queue-timeout MIN] [--lava-clearpath URL]] [--sut NAME]\n"
		"       clearpath campaign status [ID|TARGET | --all] [--store URL] [--format text|json]\n"
		"       clearpath campaign continue [ID|TARGET] [--store URL] [--ssh-config FILE] [--boot-timeout S]\n"
		"                [--lava-token-file FILE | --lava-identity ID]\n"
		"       clearpath campaign abort [ID|TARGET] [--store URL]\n"
		"       clearpath campaign fake-boot --release R [--cmdline C]\n\n"
		"Boots each swprofile the plan names (its `swprofiles`) N times, in an interleaved\n"
		"seeded order, and runs one session of the plan after each boot, checking first\n"
		"that the boot gave the kernel asked for.  The campaign's state is in the store; a\n"
		"store a lab shares holds a campaign per machine at once.  Without ID or TARGET (a\n"
		"target as start named it: local, USER@HOST), status, continue and abort take this\n"
		"machine's campaign: one with a target here, or started here; never another's.\n\n"
		"    start PLAN        create the campaign and take its first boot; on this machine a\n"
		"                      systemd unit runs 'campaign continue' after each boot (fake\n"
		"                      boots run to the end at once); prints the table at the end\n"
		"    status [ID]       the campaign's boots: order, status, boot id, session, errors\n"
		"    continue [ID]     check the boot (boot id changed, expect: holds), measure, boot next\n"
		"    abort [ID]        end the running campaign (or campaign ID) and remove its unit\n"
		"    fake-boot         simulate a boot in $CLEARPATH_FAKE_BOOT (tests and demos)\n\n"
		"    --boots N         boots per swprofile (1 to %d)\n"
		"    --store URL       a path, sqlite:///path or postgresql://user@host:port/db (a\n"
		"                      lab's shared store; default: $CLEARPATH_STORE, else\n"
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
		"    --boot-timeout S  seconds a target may take to go down and come back from a boot\n"
		"                      (default %d), recorded: a host that does not answer then is\n"
		"                      that boot's error, one that still runs the boot it left (as\n"
		"                      this machine, if it never went down) has the boot pending again\n"
		"    --format text|json  status: the table, or one JSON object with the same facts\n"
		"    --all             status: every campaign of the store, newest first (JSON: an array)\n"
		"    --sut NAME        start: the machine class this machine's sessions are stored\n"
		"                      under, as for run (hosts keep the class they detect)\n"
		"    --lava URL        LAVA mode: each boot is one job on this LAVA server (the plan's\n"
		"                      swprofiles boot with method lava: what the job deploys); its\n"
		"                      session comes back in the job's log, checked, and is imported\n"
		"    --device-type T   LAVA mode: the device type the jobs ask for (repeatable: one\n"
		"                      SUT class each)\n"
		"    --tags A,B        LAVA mode: device tags every job asks for\n"
		"    --lava-devices N  LAVA mode: devices of each type measuring at once, each with\n"
		"                      its own interleaved order (default 1)\n"
		"    --lava-token-file FILE  LAVA mode: the API token, alone in a file only you can\n"
		"                      read (default: lavacli's identity for the server); recorded\n"
		"                      as a path, never the token\n"
		"    --lava-identity ID  LAVA mode: this identity of lavacli's identities file\n"
		"    --lava-retries N  LAVA mode: tries after the first when a job ends Incomplete,\n"
		"                      Canceled or without a whole session (default 2); then the\n"
		"                      boot waits for 'continue'\n"
		"    --lava-queue-timeout MIN  LAVA mode: minutes a job may wait for a device before\n"
		"                      LAVA cancels it (default 60)\n"
		"    --lava-clearpath URL  LAVA mode: a static clearpath the device fetches (default:\n"
		"                      the one on the rootfs's PATH)\n"
		"Unit directory: $%s (default %s).\n",
		CAMPAIGN_MAX_BOOTS, CAMPAIGN_BOOT_TIMEOUT_DEFAULT, CAMPAIGN_UNIT_DIR_ENV, CAMPAIGN_UNIT_DIR);
}

/* campaign status's --format values, in the enum's order. */
enum { CAMPAIGN_TEXT, CAMPAIGN_JSON };
static const char *const campaign_formats[] = { [CAMPAIGN_TEXT] = "text", [CAMPAIGN_JSON] = "json", NULL };

static int ca_option(int c, const char *arg, void *ctx)
{
	struct ca_cli *o = ctx;
	char *end;

	switch (c) {
	case CA_BOOTS:
		return cli_number_max(arg, "boots", 1, CAMPAIGN_MAX_BOOTS, &o->boots);
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
		/* a longer name would be cut in the store and match none of its boots */
		if (strlen(arg) > CAMPAIGN_TARGET_MAX) {
			log_err("--host takes a name of at most %d characters, not %zu", CAMPAIGN_TARGET_MAX, strlen(arg));
			log_hint("give the host a shorter name in your ssh config (Host alias, HostName ...) and use that");
			return EXIT_USAGE;
		}
		o->hosts[o->nhosts++] = arg;
		return 0;
	case CA_SSH_CONFIG: o->ssh_config = arg; return 0;
	case CA_BOOT_TIMEOUT: return cli_number(arg, "boot-timeout", 1, &o->boot_timeout);
	case CA_LAVA: o->lava = arg; return 0;
	case CA_DEVICE_TYPE:
		if (o->ntypes == CA_MAX_TYPES) {
			log_err("at most %d --device-type", CA_MAX_TYPES);
			return EXIT_USAGE;
		}
		if (!*arg || strpbrk(arg, "/ ")) {
			log_err("--device-type takes a LAVA device type name such as qemu, not '%s'", arg);
			return EXIT_USAGE;
		}
		o->types[o->ntypes++] = arg;
		return 0;
	case CA_TAGS: o->tags = arg; return 0;
	case CA_LAVA_DEVICES:
		return cli_number_max(arg, "lava-devices", 1, CA_MAX_LANES, &o->lanes);
	case CA_LAVA_TOKEN_FILE: o->token_file = arg; return 0;
	case CA_LAVA_IDENTITY: o->identity = arg; return 0;
	case CA_LAVA_RETRIES: {
		unsigned n;

		if (cli_number(arg, "lava-retries", 0, &n))
			return EXIT_USAGE;
		o->retries = (int)(n > 100 ? 100 : n);
		return 0;
	}
	case CA_LAVA_QUEUE_TIMEOUT: return cli_number(arg, "lava-queue-timeout", 1, &o->queue_minutes);
	case CA_LAVA_CLEARPATH: o->lava_clearpath = arg; return 0;
	case CA_SUT:
		o->sut = arg;
		return cli_store_name("sut", arg);
	case CA_ALL: o->all = true; return 0;
	case CA_FORMAT:
		o->format_given = true;
		o->json = cli_format_index(campaign_formats, arg) == CAMPAIGN_JSON;
		if (cli_format_index(campaign_formats, arg) >= 0)
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
	if (!ret && o->all && (strcmp(argv[0], "status") || optind < argc)) {
		log_err(strcmp(argv[0], "status") ? "--all is for 'campaign status'"
			: "'campaign status --all' lists every campaign: it takes no ID or target");
		return EXIT_USAGE;
	}
	if (!ret && o->sut && strcmp(argv[0], "start")) {
		log_err("--sut is for 'campaign start': the campaign keeps it");
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
	/* a LAVA token's source, for this run only */
	if (o->token_file || o->identity) {
		char path[PATH_MAX];

		json_object_del(c->spec, "lava_token_file");
		json_object_del(c->spec, "lava_identity");
		if (o->token_file && !realpath(o->token_file, path)) {
			log_err("cannot read the token file %s: %s", o->token_file, strerror(errno));
			return EXIT_USAGE;
		}
		if (o->token_file)
			err |= json_object_set_new(c->spec, "lava_token_file", json_string(path));
		if (o->identity)
			err |= json_object_set_new(c->spec, "lava_identity", json_string(o->identity));
	}
	if (!err)
		return 0;
	log_err("out of memory");
	return EXIT_INTERNAL;
}

/*
 * LAVA mode's targets, one per lane of each device type ("lava:TYPE/N", each
 * with its own order), into *@targets (free each and it), and the settings its
 * executor reads back (campaign/executor_lava.c) into *@settings.
 */
static int ca_lava(const struct ca_cli *o, bool dry_run, char ***targets, size_t *n, json_t **settings)
{
	unsigned lanes = o->lanes ? o->lanes : 1;
	char token_file[PATH_MAX], key[17] = "dryrun";
	unsigned char rnd[4];
	json_t *s, *tags;
	int err = 0;

	*targets = NULL;
	*n = 0;
	*settings = NULL;
	if (!o->ntypes) {
		log_err("--lava needs the device type its jobs ask for: --device-type TYPE (lavacli device-types list)");
		return EXIT_USAGE;
	}
	if (o->token_file && o->identity) {
		log_err("--lava-token-file and --lava-identity name two sources of one token: give one");
		return EXIT_USAGE;
	}
	/* recorded for 'continue', which may run from another directory */
	if (o->token_file && !realpath(o->token_file, token_file)) {
		log_err("cannot read the token file %s: %s", o->token_file, strerror(errno));
		return EXIT_USAGE;
	}
	/* names this campaign's jobs on the server, so a later controller finds them again */
	if (!dry_run && getrandom(rnd, sizeof(rnd), 0) == (ssize_t)sizeof(rnd))
		snprintf(key, sizeof(key), "%02x%02x%02x%02x", rnd[0], rnd[1], rnd[2], rnd[3]);
	else if (!dry_run) {
		log_err("cannot draw the campaign's key: %s", strerror(errno));
		return EXIT_INTERNAL;
	}
	s = json_pack("{s:s, s:s, s:[], s:i, s:i}", "lava_url", o->lava, "lava_key", key, "lava_tags", "lava_retries",
		      o->retries < 0 ? 2 : o->retries, "lava_queue_minutes", o->queue_minutes ? (int)o->queue_minutes : 60);
	tags = s ? json_object_get(s, "lava_tags") : NULL;
	for (const char *t = o->tags; s && t && *t;) {
		size_t k = strcspn(t, ",");

		if (k)
			err |= json_array_append_new(tags, json_stringn(t, k));
		t += k + (t[k] == ',');
	}
	if (s && o->tags)
		err |= json_object_set_new(s, "lava_tags_text", json_string(o->tags));
	if (s && o->token_file)
		err |= json_object_set_new(s, "lava_token_file", json_string(token_file));
	if (s && o->identity)
		err |= json_object_set_new(s, "lava_identity", json_string(o->identity));
	if (s && o->lava_clearpath)
		err |= json_object_set_new(s, "lava_clearpath", json_string(o->lava_clearpath));
	if (s && !err && (*targets = calloc(o->ntypes * lanes, sizeof(**targets))))
		for (size_t i = 0; i < o->ntypes && !err; i++)
			for (unsigned k = 1; k <= lanes && !err; k++)
				if (asprintf(&(*targets)[(*n)++], "lava:%s/%u", o->types[i], k) < 0) {
					(*targets)[--*n] = NULL;
					err = 1;
				}
	if (!s || err || !*targets) {
		json_decref(s);
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	*settings = s;
	return 0;
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
	/* never "done" unless every boot is */
	if (strcmp(c->row.status, STORE_CAMPAIGN_DONE) || !campaign_all_done(c)) {
		log_err("campaign %lld is %s with %zu boots, not all done", (long long)c->row.id, c->row.status,
			c->nboots);
		return EXIT_INTERNAL;
	}
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
	struct ca_cli o = { .retries = -1 };
	char **lava_targets = NULL;
	size_t nlava = 0;
	json_t *settings = NULL;
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
	} else if (o.ssh_config) {
		log_err("--ssh-config is for campaigns on other hosts (--host)");
		return EXIT_USAGE;
	}
	if (o.lava && o.nhosts) {
		log_err("--lava and --host name two kinds of target: a campaign runs on one");
		return EXIT_USAGE;
	}
	if (o.sut && (o.nhosts || o.lava)) {
		log_err("--sut names this machine's class: hosts keep the class each detects, LAVA each device type's");
		return EXIT_USAGE;
	}
	s.sut = o.sut;
	if (!o.lava && (o.ntypes || o.tags || o.lanes || o.token_file || o.identity || o.retries >= 0 ||
			o.queue_minutes || o.lava_clearpath)) {
		log_err("--device-type, --tags and the --lava-* options are for campaigns on a LAVA lab (--lava URL)");
		return EXIT_USAGE;
	}
	if (o.lava) {
		if ((ret = ca_lava(&o, o.dry_run, &lava_targets, &nlava, &settings)))
			return ret;
		s.targets = (const char *const *)lava_targets;
		s.ntargets = nlava;
		s.settings = settings;
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
	for (size_t i = 0; i < nlava; i++)
		free(lava_targets[i]);
	free(lava_targets);
	json_decref(settings);
	return ret;
}

/* The store of continue/abort/status: --store, else the default, as start recorded it. */
static int ca_open(int argc, char **argv, int max, struct ca_cli *o, char *url, size_t len)
{
	int ret = ca_parse(argc, argv, o, max);

	return ret ? ret : campaign_store_url(o->store, false, url, len);
}

/*
 * The campaign ID or TARGET after the options, as an id (0 when none is
 * given: campaign_load() then takes this machine's running one); a target
 * is the running campaign of that target (campaign_pick()).  0 or an exit
 * code after log_err().
 */
static int ca_id(int argc, char **argv, const char *url, int64_t *id)
{
	const char *arg = optind < argc ? argv[optind] : NULL;

	*id = 0;
	if (!arg)
		return 0;
	if (*arg == '0' || *arg == '-' || !*arg) {
		log_err("a campaign id is a number such as 1, not '%s'", arg);
		return EXIT_USAGE;
	}
	return campaign_pick(url, arg, true, id);
}

/* Say that campaign @c ended, and what there is to do instead: a campaign that ended never goes on. */
static void ca_refuse_ended(const struct campaign *c)
{
	long long id = (long long)c->row.id;

	log_err("campaign %lld is %s, not running", id, c->row.status);
	if (!strcmp(c->row.status, STORE_CAMPAIGN_DONE))
		log_hint("its boots are all done: 'clearpath show' prints its table; 'clearpath campaign start PLAN "
			 "--boots N' begins another");
	else
		log_hint("'clearpath campaign status %lld' says why; an ended campaign does not go on: 'clearpath "
			 "campaign start PLAN --boots N' begins another (the sessions this one stored stay)", id);
}

/* The campaign continue and abort act on: ID when given (it must be running), else the running one. */
static int ca_load_running(const char *url, int64_t id, struct campaign *c)
{
	int ret = campaign_load(url, id, !id, c);

	if (!ret && strcmp(c->row.status, STORE_CAMPAIGN_RUNNING)) {
		ca_refuse_ended(c);
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
	int ret = ca_open(argc, argv, 1, &o, url, sizeof(url)) ?: ca_id(argc, argv, url, &id);

	if (ret)
		return ret;
	/* after a halt (a boot that did not come up) the unit is back: this continue takes it on unattended */
	if (!(ret = ca_load_running(url, id, &c)) && !(ret = campaign_resume(&c)))
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
	int ret = ca_open(argc, argv, 1, &o, url, sizeof(url)) ?: ca_id(argc, argv, url, &id);

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

/* `status --all`: each campaign of the store, newest first: a line each, or the JSON objects in an array. */
static int ca_status_all(const char *url, bool json)
{
	json_t *all = json ? json_array() : NULL;
	int64_t id = 0;
	int ret = 0;

	if (json && !all) {
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	while (!ret && !(ret = campaign_next(url, id, &id)) && id) {
		struct campaign c;

		if ((ret = campaign_load_state(url, id, false, &c)))
			break;
		if (json && json_array_append_new(all, campaign_status_json(&c)))
			ret = EXIT_INTERNAL;
		else if (!json)
			campaign_print_summary(&c);
		campaign_free(&c);
	}
	if (!ret && json && (json_dumpf(all, stdout, JSON_INDENT(2)) || putchar('\n') == EOF)) {
		log_err("cannot write the campaigns' status: %s", strerror(errno));
		ret = EXIT_RESOURCE;
	}
	json_decref(all);
	return ret;
}

static int ca_status(int argc, char **argv)
{
	struct ca_cli o = { 0 };
	struct campaign c;
	char url[PATH_MAX + 64];
	int64_t id = 0;
	int ret = ca_open(argc, argv, 1, &o, url, sizeof(url));

	if (!ret && o.all)
		return ca_status_all(url, o.json);
	/* this machine's, the one of a target, or campaign ID: running first, else the newest that ran */
	if (!ret)
		ret = campaign_pick(url, optind < argc ? argv[optind] : NULL, false, &id);
	if (ret)
		return ret;
	ret = campaign_load_state(url, id, false, &c);
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
