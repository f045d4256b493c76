/* cmd_store: `clearpath store roles`: a lab's shared PostgreSQL store, its owner, writer and reader roles. */
#include "cli/cli_common.h"
#include "cli/commands.h"
#include "store/store.h"
#include "store/url.h"
#include "util/log.h"
#include "workloads/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ST_OWNER = 300, ST_WRITER, ST_READER, ST_HELP };

static const struct option st_options[] = {
	{ "store", required_argument, NULL, CLI_STORE },
	{ "owner", required_argument, NULL, ST_OWNER },
	{ "writer", required_argument, NULL, ST_WRITER },
	{ "reader", required_argument, NULL, ST_READER },
	{ "help", no_argument, NULL, ST_HELP },
	{ NULL, 0, NULL, 0 },
};

struct st_cli {
	const char *store;
	struct store_roles roles;
};

static void st_usage(FILE *out)
{
	fprintf(out,
		"usage: clearpath store roles --store URL [--owner NAME] [--writer NAME] [--reader NAME]\n\n"
		"Sets up the PostgreSQL database URL names, connected to as the server's administrator,\n"
		"as a lab's shared store: the three roles (created when missing, able to log in, no\n"
		"password: set one with psql's \\password, and give it to clearpath in ~/.pgpass or a\n"
		"pg_service.conf), the database and its schema owned by the owner, clearpath's schema\n"
		"created (or migrated) as the owner, and each role granted exactly what it needs.\n"
		"Run it again after upgrading clearpath: it migrates and grants what is new.\n\n"
		"    --store URL     the database, as its administrator (postgresql://postgres@db.lab/clearpath)\n"
		"    --owner NAME    owns the store and migrates it (default clearpath_owner)\n"
		"    --writer NAME   runs, plan runs, campaigns, imports, merges in (default clearpath_writer)\n"
		"    --reader NAME   show, report, list, export, a merge's source (default clearpath_reader)\n");
}

static int st_option(int c, const char *arg, void *ctx)
{
	struct st_cli *o = ctx;

	switch (c) {
	case CLI_STORE: o->store = arg; return 0;
	case ST_OWNER: o->roles.owner = arg; return 0;
	case ST_WRITER: o->roles.writer = arg; return 0;
	case ST_READER: o->roles.reader = arg; return 0;
	}
	log_err("that option is not one of 'store roles'; see 'clearpath store roles --help'");
	return EXIT_USAGE;
}

int cmd_store(int argc, char **argv)
{
	static const struct cli_getopt g = { "store roles", st_options, ST_HELP, st_usage, st_option };
	struct st_cli o = { NULL, { "clearpath_owner", "clearpath_writer", "clearpath_reader" } };
	char *shown;
	int ret;

	if (argc < 1 || strcmp(argv[0], "roles")) {
		if (argc >= 1 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"))) {
			st_usage(stdout);
			return EXIT_OK;
		}
		log_err("'store' needs a subcommand: roles");
		log_hint("e.g. 'clearpath store roles --store postgresql://postgres@db.lab/clearpath'");
		return EXIT_USAGE;
	}
	ret = cli_getopt(&g, argc, argv, &o);
	if (ret)
		return ret == CLI_HELP_SHOWN ? EXIT_OK : ret;
	if (optind < argc) {
		log_err("unexpected argument '%s' to 'store roles'", argv[optind]);
		return EXIT_USAGE;
	}
	if (!o.store) {
		log_err("'store roles' needs --store, the database as its administrator");
		log_hint("e.g. 'clearpath store roles --store postgresql://postgres@db.lab/clearpath'");
		return EXIT_USAGE;
	}
	ret = store_lab_setup(o.store, wl_identity_parse, &o.roles);
	if (ret)
		return store_exit_code(ret);
	shown = store_url_display(o.store);
	printf("%s: owned by %s, written by %s, read by %s; schema v%d\n", shown ? shown : "the store", o.roles.owner,
	       o.roles.writer, o.roles.reader, store_schema_version());
	free(shown);
	return EXIT_OK;
}
