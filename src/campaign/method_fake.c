/* method_fake: a simulated boot (`clearpath campaign fake-boot` into $CLEARPATH_FAKE_BOOT) for tests and demos. */
#include "campaign/campaign.h"
#include "campaign/method.h"

#include <stddef.h>
#include <stdlib.h>

#include "util/boot.h"
#include "util/log.h"
#include "util/shquote.h"

struct fake_params {
	const char *release;	/* the release the simulated boot reports */
	const char *cmdline;	/* its command line, before `cmdline:` ("" when not given) */
};

static const struct campaign_method_key fake_keys[] = {
	{ "release", CAMPAIGN_KEY_LINE, true, offsetof(struct fake_params, release), NULL },
	{ "cmdline", CAMPAIGN_KEY_LINE, false, offsetof(struct fake_params, cmdline), NULL },
	{ NULL, 0, false, 0, NULL },
};

static int fake_parse(void *params, const struct plan_swprofile *sw)
{
	struct fake_params *f = params;

	(void)sw;
	if (!f->cmdline)
		f->cmdline = "";
	return 0;
}

/* A simulated boot needs the directory it lives in: refused before anything is recorded. */
static int fake_check(const void *params, const struct plan_swprofile *sw, const struct campaign_target_env *env)
{
	const char *dir = getenv(BOOT_FAKE_ENV);

	(void)params;
	if (dir && *dir)
		return 0;
	env->say("swprofile '%s' boots with the fake method, which needs %s: the directory of the simulated boot",
		 sw->name, BOOT_FAKE_ENV);
	return EXIT_USAGE;
}

static const char *fake_release(const void *params, char *buf, size_t len)
{
	(void)buf;
	(void)len;
	return ((const struct fake_params *)params)->release;
}

/* The simulated boot is a command like any other, run by the target's own clearpath. */
static int fake_commands(const void *params, const struct campaign_boot_ctx *ctx, struct campaign_boot_cmds *out)
{
	const struct fake_params *f = params;
	const char *argv[] = { ctx->clearpath, "campaign", "fake-boot", "--release", f->release, "--cmdline", NULL, NULL };
	char *line = NULL;
	int ret = EXIT_INTERNAL;

	out->cmdline = campaign_boot_cmdline(ctx->plan, ctx->sw, f->cmdline, false);
	argv[6] = out->cmdline;
	if (out->cmdline && (line = sh_join(argv)))
		ret = campaign_boot_add(out, "%s >/dev/null", line);
	free(line);
	return ret;
}

const struct campaign_method campaign_method_fake = {
	.name = "fake",
	.summary = "a simulated boot in $CLEARPATH_FAKE_BOOT (tests, demos)",
	.keys = fake_keys,
	.params_size = sizeof(struct fake_params),
	.reboots = false,
	.applies_cmdline = true,
	.parse = fake_parse,
	.release = fake_release,
	.commands = fake_commands,
	.check = fake_check,
};
