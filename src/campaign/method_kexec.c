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
	/* more kexec -l options, each one word starting with '-': -i (--no-checks: no purgatory checksum), -s */
	struct campaign_key_list options;
};

static const struct campaign_method_key kexec_keys[] = {
	{ "kernel", CAMPAIGN_KEY_LINE, true, offsetof(struct kexec_params, kernel), NULL },
	{ "initrd", CAMPAIGN_KEY_LINE, false, offsetof(struct kexec_params, initrd), NULL },
	{ "cmdline", CAMPAIGN_KEY_LINE, false, offsetof(struct kexec_params, cmdline), NULL },
	{ "options", CAMPAIGN_KEY_LIST, false, offsetof(struct kexec_params, options), NULL },
	{ NULL, 0, false, 0, NULL },
};

static int kexec_parse(void *params, const struct plan_swprofile *sw)
{
	struct kexec_params *k = params;

	if (k->cmdline && !strcmp(k->cmdline, "keep"))
		k->cmdline = NULL;
	/* an option, not a second kernel or a command: kexec -l takes one file, the kernel */
	for (size_t i = 0; i < k->options.n; i++)
		if (k->options.v[i][0] != '-' || !k->options.v[i][1])
			return plan_err(&sw->boot_loc, "swprofile '%s': kexec options are options of kexec -l ('-i', "
				       "'--no-checks'), not '%s'", sw->name, k->options.v[i]);
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

/* " OPTION" for each of @o, each quoted for the shell, malloc'd ("" for none). */
static char *kexec_options(const struct campaign_key_list *o)
{
	size_t n = 1;
	char **q = calloc(o->n + 1, sizeof(*q)), *all = NULL, *p;
	bool ok = q != NULL;

	for (size_t i = 0; ok && i < o->n; i++)
		if ((ok = (q[i] = sh_quote(o->v[i])) != NULL))
			n += strlen(q[i]) + 1;
	if (ok && (all = p = malloc(n))) {
		*p = '\0';
		for (size_t i = 0; i < o->n; i++)
			p = stpcpy(stpcpy(p, " "), q[i]);
	}
	for (size_t i = 0; q && i < o->n; i++)
		free(q[i]);
	free(q);
	return all;
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
	char *options = kexec_options(&k->options);
	int ret = EXIT_INTERNAL;

	out->cmdline = campaign_boot_cmdline(ctx->plan, ctx->sw, k->cmdline ? k->cmdline : ctx->now->cmdline,
					     !k->cmdline);
	if (out->cmdline)
		line = kexec_arg("command-line", out->cmdline);
	if (kernel && line && options && (initrd || !k->initrd))
		ret = campaign_boot_add(out, "kexec -l%s %s%s%s %s", options, kernel, initrd ? " " : "",
					initrd ? initrd : "", line) ?: campaign_boot_add(out, "systemctl kexec");
	free(options);
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
	.summary = "kexec -l [OPTIONS] KERNEL [--initrd] --command-line, then systemctl kexec",
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
