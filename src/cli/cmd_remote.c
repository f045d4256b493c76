/* cmd_remote: `clearpath remote check DEST...`: can clearpath run sessions on these hosts over SSH? */
#include "cli/cli_common.h"
#include "cli/commands.h"
#include "remote/remote.h"
#include "util/log.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { RM_SSH_CONFIG = 300, RM_HELP };

static const struct option rm_options[] = {
	{ "ssh-config", required_argument, NULL, RM_SSH_CONFIG },
	{ "help", no_argument, NULL, RM_HELP },
	{ NULL, 0, NULL, 0 },
};

static void rm_usage(FILE *out)
{
	fprintf(out,
		"usage: clearpath remote check [--ssh-config FILE] DEST...\n\n"
		"Checks each host DEST ([user@]host[:port]) as a campaign would use it: logs in\n"
		"with ssh (BatchMode, your known_hosts), asks its architecture (uname -m), copies\n"
		"the clearpath for it into a private temporary directory there (the static build\n"
		"from 'make static' or 'make static-arm64', else this binary), runs its --version\n"
		"and removes the directory.  Prints one line per host; exit 3 when any fails.\n\n"
		"    --ssh-config FILE  ssh's configuration file instead of ~/.ssh/config (ssh -F)\n");
}

static int rm_option(int c, const char *arg, void *ctx)
{
	const char **ssh_config = ctx;

	if (c == RM_SSH_CONFIG) {
		*ssh_config = arg;
		return 0;
	}
	log_err("that option is not one of 'remote check'; see 'clearpath remote check --help'");
	return EXIT_USAGE;
}

/* Check one host; returns 0 or an exit code after log_err(). */
static int rm_check_one(const char *dest, const char *ssh_config)
{
	struct remote_host h;
	int ret = remote_host_parse(dest, &h);

	if (ret)
		return ret;
	h.ssh_config = ssh_config;
	ret = remote_install(&h);
	if (!ret)
		printf("%s: %s, %s runs there\n", h.dest, h.arch, h.version);
	remote_rmtemp(&h);
	remote_host_free(&h);
	return ret;
}

int cmd_remote(int argc, char **argv)
{
	static const struct cli_getopt g = { "remote", rm_options, RM_HELP, rm_usage, rm_option };
	const char *ssh_config = NULL;
	int ret, worst = 0;

	if (argc < 1 || strcmp(argv[0], "check")) {
		if (argc >= 1 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"))) {
			rm_usage(stdout);
			return EXIT_OK;
		}
		log_err("'remote' needs a subcommand: check");
		log_hint("e.g. 'clearpath remote check root@box1 root@box2:2222'");
		return EXIT_USAGE;
	}
	ret = cli_getopt(&g, argc, argv, &ssh_config);
	if (ret)
		return ret == CLI_HELP_SHOWN ? EXIT_OK : ret;
	if (optind >= argc) {
		log_err("'remote check' needs at least one host, [user@]host[:port]");
		return EXIT_USAGE;
	}
	if ((ret = remote_ssh_config_check(ssh_config)))
		return ret;
	/* every host is checked even after one failed: the user wants the whole picture */
	for (int i = optind; i < argc; i++) {
		ret = rm_check_one(argv[i], ssh_config);
		if (ret && (!worst || ret == EXIT_USAGE))
			worst = ret;
	}
	return worst;
}
