/* method_fake: a simulated boot (`clearpath campaign fake-boot` into $CLEARPATH_FAKE_BOOT) for tests and demos. */
#include "campaign/campaign.h"
#include "campaign/method.h"

#include <stddef.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/boot.h"
#include "util/log.h"
#include "util/shquote.h"

struct fake_params {
	const char *release;	/* the release the simulated boot reports */
	const char *cmdline;	/* its command line, before `cmdline:` ("" when not given) */
	/*
	 * "machine": the simulated machine's own command line instead (its
	 * $CLEARPATH_FAKE_BOOT/cmdline before the boot), as a boot loader keeps
	 * each machine's console=: one plan, a command line per machine.
	 */
	const char *cmdline_from;
};

static const struct campaign_method_key fake_keys[] = {
	{ "release", CAMPAIGN_KEY_LINE, true, offsetof(struct fake_params, release), NULL },
	{ "cmdline", CAMPAIGN_KEY_LINE, false, offsetof(struct fake_params, cmdline), NULL },
	{ "cmdline_from", CAMPAIGN_KEY_LINE, false, offsetof(struct fake_params, cmdline_from), NULL },
	{ NULL, 0, false, 0, NULL },
};

static int fake_parse(void *params, const struct plan_swprofile *sw)
{
	struct fake_params *f = params;

	if (f->cmdline_from && (strcmp(f->cmdline_from, "machine") || f->cmdline)) {
		plan_err(&sw->method_loc, "swprofile '%s': the fake method's cmdline_from takes 'machine' (the simulated"
			 " machine's own command line) and no cmdline beside it; it has '%s'%s", sw->name,
			 f->cmdline_from, f->cmdline ? " and a cmdline" : "");
		return EXIT_USAGE;
	}
	if (!f->cmdline)
		f->cmdline = "";
	return 0;
}

/* Whether @word is a word of some swprofile's `cmdline:`: the machine's line sheds it, or boots would pile them up. */
static bool fake_added_word(const struct plan *p, const char *word)
{
	for (size_t i = 0; i < p->nswprofiles; i++)
		if (p->swprofiles[i].cmdline && campaign_cmdline_has(p->swprofiles[i].cmdline, word))
			return true;
	return false;
}

/* The machine's command line before this boot without any swprofile's words; NULL when out of memory. */
static char *fake_machine_cmdline(const struct campaign_boot_ctx *ctx)
{
	char *copy = strdup(ctx->now->cmdline), *out = calloc(1, strlen(ctx->now->cmdline) + 1), *save = NULL;

	if (!copy || !out) {
		free(copy);
		free(out);
		return NULL;
	}
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
		if (!fake_added_word(ctx->plan, w))
			strcat(strcat(out, *out ? " " : ""), w);
	free(copy);
	return out;
}

/* Whether the simulated boot in @dir has a command line of its own (else /proc/cmdline is read). */
static bool fake_has_cmdline(const char *dir)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/cmdline", dir);
	return access(path, R_OK) == 0;
}

/* A simulated boot needs the directory it lives in: refused before anything is recorded. */
static int fake_check(const void *params, const struct plan_swprofile *sw, const struct campaign_target_env *env)
{
	const struct fake_params *f = params;
	const char *dir = getenv(BOOT_FAKE_ENV);

	if (dir && *dir && f->cmdline_from && env->here && !fake_has_cmdline(dir)) {
		env->say("swprofile '%s' keeps the simulated machine's command line (cmdline_from: machine), but %s/cmdline"
			 " does not exist: write the machine's line there first", sw->name, dir);
		return EXIT_USAGE;
	}
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
	const char *argv[] = { ctx->emulator, ctx->clearpath, "campaign", "fake-boot", "--release", f->release,
			       "--cmdline", NULL, NULL };
	char *line = NULL;
	int ret = EXIT_INTERNAL;

	char *machine = f->cmdline_from ? fake_machine_cmdline(ctx) : NULL;

	if (f->cmdline_from && !machine)
		return EXIT_INTERNAL;
	out->cmdline = campaign_boot_cmdline(ctx->plan, ctx->sw, machine ? machine : f->cmdline, false);
	free(machine);
	argv[7] = out->cmdline;
	if (out->cmdline && (line = sh_join(ctx->emulator ? argv : argv + 1)))
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
