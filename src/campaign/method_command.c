/* method_command: boot with the user's own shell commands (a lab's power switch, a board's bootloader). */
#include "campaign/campaign.h"
#include "campaign/method.h"

#include <stddef.h>

#include "util/log.h"

struct command_params {
	struct campaign_key_list commands;	/* each run with /bin/sh -c, in order */
};

static const struct campaign_method_key command_keys[] = {
	{ "commands", CAMPAIGN_KEY_LIST, true, offsetof(struct command_params, commands),
	  "the shell commands that boot it" },
	{ NULL, 0, false, 0, NULL },
};

static int command_commands(const void *params, const struct campaign_boot_ctx *ctx, struct campaign_boot_cmds *out)
{
	const struct command_params *c = params;
	int ret = 0;

	(void)ctx;
	for (size_t i = 0; !ret && i < c->commands.n; i++)
		ret = campaign_boot_add(out, "%s", c->commands.v[i]);
	return ret;
}

const struct campaign_method campaign_method_command = {
	.name = "command",
	.summary = "the user's own shell commands",
	.keys = command_keys,
	.params_size = sizeof(struct command_params),
	.reboots = true,
	.applies_cmdline = false,
	.commands = command_commands,
};
