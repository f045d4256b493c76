/* dryrun: what a campaign would do on a host, boot by boot, from the host's facts read over ssh; nothing is changed there. */
#define _GNU_SOURCE
#include "remote/executor.h"
#include "remote/remote.h"
#include "campaign/campaign.h"
#include "campaign/local.h"
#include "util/boot.h"
#include "util/log.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The host's private directory in the lines printed: its name is mktemp's, known only once made. */
#define DRY_DIR "$DIR"

/* @argv as the host's shell reads it, behind @indent. */
static void dry_argv(const char *indent, const char *const *argv)
{
	char q[PATH_MAX * 2];

	printf("%s", indent);
	for (size_t i = 0; argv[i]; i++)
		printf("%s%s", i ? " " : "", strncmp(argv[i], DRY_DIR, strlen(DRY_DIR)) ? campaign_shell_quote(argv[i], q, sizeof(q)) :
		       argv[i]);
	printf("\n");
}

/* The host's facts, or "unknown" ones when it cannot be reached now (said so). */
static void dry_facts(const struct remote_host *h, const char *fake, struct campaign_facts *f, bool *reached)
{
	*reached = !remote_boot_facts(h, fake, f);
	if (*reached) {
		printf("host %s: kernel %s, boot id %.8s, cmdline '%s' (read over ssh; nothing is changed there)\n",
		       h->dest, f->release, f->boot_id, f->cmdline);
		return;
	}
	snprintf(f->release, sizeof(f->release), "unknown");
	snprintf(f->cmdline, sizeof(f->cmdline), "<unknown: %s's /proc/cmdline>", h->dest);
	printf("host %s: cannot be reached now: its kernel, command line and architecture are unknown\n", h->dest);
}

/* The binary copied there: the static build for its architecture, or this one. */
static void dry_install(const struct remote_host *h, const struct campaign *c, bool reached)
{
	char *arch = NULL, *local = NULL;

	if (reached && !remote_arch(h, &arch) && !remote_binary_for(arch, &local))
		printf("  copy %s (for %s) to %s/clearpath; whether it runs there is unknown until it is copied\n",
		       local, arch, DRY_DIR);
	else
		printf("  copy clearpath to %s/clearpath: which binary is unknown (see above)\n", DRY_DIR);
	printf("  copy %s to %s/plan.yaml\n", c->plan_path, DRY_DIR);
	free(arch);
	free(local);
}

/* One boot on the host: its method's commands there, the wait, the checks, the session and its way back. */
static int dry_boot(const struct campaign *c, const struct plan_swprofile *sw, const struct campaign_facts *now,
		    const char *fake, unsigned boot_timeout, size_t i, size_t n)
{
	struct campaign_boot_cmds cmds;
	struct campaign rc = *c;
	const char *argv[CAMPAIGN_SESSION_ARGC];
	int ret = campaign_boot_commands(c->plan, sw, now, &cmds);

	if (ret)
		return ret;
	printf("  boot %zu of %zu: %s (%s)\n", i + 1, n, sw->name, plan_boot_method_name(sw->method));
	for (size_t k = 0; k < cmds.ncmd; k++)
		printf("    %s\n", cmds.cmd[k]);
	if (sw->method == PLAN_BOOT_FAKE) {
		const char *fb[] = { DRY_DIR "/clearpath", "campaign", "fake-boot", "--release", cmds.fake_release,
				     "--cmdline", cmds.fake_cmdline, NULL };

		printf("    %s=%s\n", BOOT_FAKE_ENV, fake ? fake : "(not set: the fake method needs it)");
		dry_argv("    ", fb);
	} else {
		printf("    wait until it answers with a new boot id, at most %u seconds; a %s emptied by the boot "
		       "gets clearpath and the plan again\n", boot_timeout, DRY_DIR);
	}
	campaign_print_checks(sw, "    ");
	rc.store_url = DRY_DIR "/session.db";
	rc.plan_path = DRY_DIR "/plan.yaml";
	campaign_session_argv(&rc, sw->name, argv);
	argv[0] = DRY_DIR "/clearpath";
	printf("    rm -f %s/session.db\n", DRY_DIR);
	dry_argv("    ", argv);
	printf("    %s/clearpath export --whole --store %s/session.db %s/session.csv\n", DRY_DIR, DRY_DIR, DRY_DIR);
	printf("    copy %s/session.csv back and import it into %s\n", DRY_DIR, c->store_url);
	campaign_boot_cmds_free(&cmds);
	return 0;
}

int remote_campaign_dry_run(const struct campaign *c, const char *dest, const char *ssh_config,
			    unsigned boot_timeout_s, const size_t *order, size_t n)
{
	struct remote_host h;
	struct campaign_facts now = { .boot_id = "" };
	char *fake;
	bool reached;
	int ret = remote_host_parse(dest, &h);

	if (ret)
		return ret;
	h.ssh_config = ssh_config;
	fake = remote_fake_dir(dest);
	dry_facts(&h, fake, &now, &reached);
	printf("  mktemp -d \"${TMPDIR:-/tmp}/clearpath.XXXXXXXXXX\": %s, its name unknown until it is made\n",
	       DRY_DIR);
	dry_install(&h, c, reached);
	for (size_t i = 0; !ret && i < n; i++)
		ret = dry_boot(c, &c->plan->swprofiles[order[i]], &now, fake, boot_timeout_s, i, n);
	if (!ret)
		printf("  rm -rf -- %s\n", DRY_DIR);
	free(fake);
	remote_host_free(&h);
	return ret;
}
