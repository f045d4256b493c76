/* method_grub: boot a GRUB menu entry once (grub-reboot, then systemctl reboot); needs GRUB_DEFAULT=saved. */
#include "campaign/campaign.h"
#include "campaign/method.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "util/shquote.h"
#include "util/sysfs.h"

#define GRUB_DEFAULTS "/etc/default/grub"
#define GRUB_DEFAULTS_DIR "/etc/default/grub.d"

struct grub_params {
	const char *entry;	/* the menu entry: title, id or "1>2" */
};

static const struct campaign_method_key grub_keys[] = {
	{ "entry", CAMPAIGN_KEY_LINE, true, offsetof(struct grub_params, entry), NULL },
	{ NULL, 0, false, 0, NULL },
};

/* "Debian GNU/Linux, with Linux 6.18.0-patch" -> "6.18.0-patch"; NULL when the title does not say. */
static const char *grub_release(const void *params, char *buf, size_t len)
{
	const char *entry = ((const struct grub_params *)params)->entry, *at = NULL, *s = entry;
	size_t n;

	while ((s = strstr(s, "Linux "))) {
		at = s + 6;
		s = at;
	}
	if (!at || !*at)
		return NULL;
	n = strcspn(at, " ");
	snprintf(buf, len, "%.*s", (int)n, at);
	return buf;
}

static int grub_commands(const void *params, const struct campaign_boot_ctx *ctx, struct campaign_boot_cmds *out)
{
	char *entry = sh_quote(((const struct grub_params *)params)->entry);
	int ret = EXIT_INTERNAL;

	(void)ctx;
	/* one shot: a kernel that hangs falls back to the default entry on the next power cycle */
	if (entry)
		ret = campaign_boot_add(out, "grub-reboot %s", entry) ?: campaign_boot_add(out, "systemctl reboot");
	free(entry);
	return ret;
}

/* The value of a `GRUB_DEFAULT=...` line (with `export`, quotes, a comment after it) into @buf; false when not one. */
static bool grub_default_line(char *line, char *buf, size_t len)
{
	char *v = line + strspn(line, " \t"), quote;
	size_t n;

	if (!strncmp(v, "export", 6) && (v[6] == ' ' || v[6] == '\t'))
		v += 6 + strspn(v + 6, " \t");
	if (strncmp(v, "GRUB_DEFAULT=", 13))
		return false;
	v += 13;
	quote = *v == '"' || *v == '\'' ? *v++ : '\0';
	n = quote ? strcspn(v, (char[]){ quote, '\0' }) : strcspn(v, " \t\n#;");
	snprintf(buf, len, "%.*s", (int)n, v);
	return true;
}

/* The last GRUB_DEFAULT of file @path into @buf: 0, 1 when it sets none, or -errno. */
static int grub_default_file(const char *path, char *buf, size_t len)
{
	FILE *f = sysfs_fopen(path);
	char line[1024];
	int ret = 1;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (grub_default_line(line, buf, len))
			ret = 0;
	fclose(f);
	return ret;
}

int campaign_grub_default(char *buf, size_t len)
{
	char **cfgs = sysfs_list_dir(GRUB_DEFAULTS_DIR, ""), path[512];
	int ret = grub_default_file(GRUB_DEFAULTS, buf, len), err;

	if (ret < 0) {
		sysfs_list_free(cfgs);
		return ret;
	}
	/* grub-mkconfig sources each grub.d/NAME.cfg after the file, by NAME: the last one wins */
	for (size_t i = 0; cfgs && cfgs[i]; i++) {
		size_t n = strlen(cfgs[i]);

		if (n < 4 || strcmp(cfgs[i] + n - 4, ".cfg"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", GRUB_DEFAULTS_DIR, cfgs[i]);
		err = grub_default_file(path, buf, len);
		ret = !err ? 0 : ret;
	}
	sysfs_list_free(cfgs);
	return ret;
}

/*
 * grub-reboot only writes next_entry into grubenv; the grub.cfg that
 * grub-mkconfig writes boots it once only when GRUB_DEFAULT=saved.
 * Otherwise every grub boot would come back with the default kernel.
 * Read through util/sysfs's root: this machine's, or a host's facts.
 */
static int grub_check(const void *params, const struct plan_swprofile *sw, const struct campaign_target_env *env)
{
	char value[256] = "";
	int err;

	(void)params;
	err = campaign_grub_default(value, sizeof(value));
	if (!err && !strcmp(value, "saved"))
		return 0;
	if (err < 0)
		env->say("swprofile '%s' boots with grub-reboot, but %s's %s cannot be read: %s", sw->name, env->name,
			 GRUB_DEFAULTS, strerror(-err));
	else
		env->say("swprofile '%s' boots with grub-reboot, which takes effect only with GRUB_DEFAULT=saved; "
			 "%s's %s has GRUB_DEFAULT=%s: the boot would come back with the default kernel", sw->name,
			 env->name, GRUB_DEFAULTS, err ? "0 (not set)" : value);
	log_hint("on %s: set GRUB_DEFAULT=saved in %s, then run update-grub (or grub-mkconfig -o /boot/grub/grub.cfg)",
		 env->name, GRUB_DEFAULTS);
	return EXIT_RESOURCE;
}

const struct campaign_method campaign_method_grub = {
	.name = "grub",
	.summary = "grub-reboot ENTRY (one shot), then systemctl reboot",
	.keys = grub_keys,
	.params_size = sizeof(struct grub_params),
	.reboots = true,
	.applies_cmdline = false,
	.check_once = true,
	.release = grub_release,
	.commands = grub_commands,
	.check = grub_check,
};
