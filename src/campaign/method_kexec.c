/* method_kexec: boot a kernel file with kexec (kexec -l, then systemctl kexec): no firmware, no boot loader. */
#include "campaign/campaign.h"
#include "campaign/method.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/log.h"
#include "util/shquote.h"

struct kexec_params {
	const char *kernel;
	const char *initrd;	/* or NULL */
	const char *cmdline;	/* NULL: "keep" (today's /proc/cmdline) */
};

static const struct campaign_method_key kexec_keys[] = {
	{ "kernel", CAMPAIGN_KEY_LINE, true, offsetof(struct kexec_params, kernel), NULL },
	{ "initrd", CAMPAIGN_KEY_LINE, false, offsetof(struct kexec_params, initrd), NULL },
	{ "cmdline", CAMPAIGN_KEY_LINE, false, offsetof(struct kexec_params, cmdline), NULL },
	{ NULL, 0, false, 0, NULL },
};

static int kexec_parse(void *params, const struct plan_swprofile *sw)
{
	struct kexec_params *k = params;

	(void)sw;
	if (k->cmdline && !strcmp(k->cmdline, "keep"))
		k->cmdline = NULL;
	return 0;
}

/* "/boot/vmlinuz-6.18.0-base" -> "6.18.0-base"; NULL when the file name does not say. */
static const char *kexec_release(const void *params, char *buf, size_t len)
{
	static const char *const prefixes[] = { "vmlinuz-", "vmlinux-", "bzImage-", "Image-", "zImage-" };
	const struct kexec_params *k = params;
	const char *base = strrchr(k->kernel, '/') ? strrchr(k->kernel, '/') + 1 : k->kernel;

	(void)buf;
	(void)len;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(base, prefixes[i], strlen(prefixes[i])) && base[strlen(prefixes[i])])
			return base + strlen(prefixes[i]);
	return NULL;
}

static const char *kexec_words(const void *params)
{
	return ((const struct kexec_params *)params)->cmdline;
}

/* "--NAME=VALUE" quoted for the shell, malloc'd. */
static char *kexec_arg(const char *name, const char *value)
{
	size_t n = strlen(name) + strlen(value) + 4;
	char *arg = malloc(n), *q;

	if (!arg)
		return NULL;
	strcpy(stpcpy(stpcpy(stpcpy(arg, "--"), name), "="), value);
	q = sh_quote(arg);
	free(arg);
	return q;
}

static int kexec_commands(const void *params, const struct campaign_boot_ctx *ctx, struct campaign_boot_cmds *out)
{
	const struct kexec_params *k = params;
	char *kernel = sh_quote(k->kernel), *initrd = k->initrd ? kexec_arg("initrd", k->initrd) : NULL, *line = NULL;
	int ret = EXIT_INTERNAL;

	out->cmdline = campaign_boot_cmdline(ctx->plan, ctx->sw, k->cmdline ? k->cmdline : ctx->now->cmdline,
					     !k->cmdline);
	if (out->cmdline)
		line = kexec_arg("command-line", out->cmdline);
	if (kernel && line && (initrd || !k->initrd))
		ret = campaign_boot_add(out, "kexec -l %s%s%s %s", kernel, initrd ? " " : "", initrd ? initrd : "",
					line) ?: campaign_boot_add(out, "systemctl kexec");
	free(kernel);
	free(initrd);
	free(line);
	return ret;
}

/* A kernel or initrd that is not there would fail only at its turn, hours in: said now, on this machine. */
static int kexec_check(const void *params, const struct plan_swprofile *sw, const struct campaign_target_env *env)
{
	const struct kexec_params *k = params;
	const char *files[] = { k->kernel, k->initrd };
	int ret = 0;

	for (size_t i = 0; env->here && i < 2; i++) {
		if (!files[i] || !access(files[i], R_OK))
			continue;
		env->say("swprofile '%s': cannot read %s: %s", sw->name, files[i], strerror(errno));
		ret = EXIT_USAGE;
	}
	return ret;
}

const struct campaign_method campaign_method_kexec = {
	.name = "kexec",
	.summary = "kexec -l KERNEL [--initrd] --command-line, then systemctl kexec",
	.keys = kexec_keys,
	.params_size = sizeof(struct kexec_params),
	.reboots = true,
	.applies_cmdline = true,
	.parse = kexec_parse,
	.release = kexec_release,
	.cmdline_words = kexec_words,
	.commands = kexec_commands,
	.check = kexec_check,
};
