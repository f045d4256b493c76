/* target: is a campaign's target ready for its plan: memory and hugepages for the sessions, grub set up for one-shot boots. */
#include "campaign/campaign.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "util/sysfs.h"

#define GRUB_DEFAULTS "/etc/default/grub"
#define GRUB_DEFAULTS_DIR "/etc/default/grub.d"

/* The value of a `GRUB_DEFAULT=...` line (with `export`, quotes, a comment after it) into @buf; false when not one. */
static bool target_grub_line(char *line, char *buf, size_t len)
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
static int target_grub_file(const char *path, char *buf, size_t len)
{
	FILE *f = sysfs_fopen(path);
	char line[1024];
	int ret = 1;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (target_grub_line(line, buf, len))
			ret = 0;
	fclose(f);
	return ret;
}

int campaign_grub_default(char *buf, size_t len)
{
	char **cfgs = sysfs_list_dir(GRUB_DEFAULTS_DIR, ""), path[512];
	int ret = target_grub_file(GRUB_DEFAULTS, buf, len), err;

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
		err = target_grub_file(path, buf, len);
		ret = !err ? 0 : ret;
	}
	sysfs_list_free(cfgs);
	return ret;
}

/* The first swprofile booted with grub, or NULL. */
static const struct plan_swprofile *target_grub_swprofile(const struct plan *p)
{
	for (size_t i = 0; i < p->nswprofiles; i++)
		if (p->swprofiles[i].method == PLAN_BOOT_GRUB)
			return &p->swprofiles[i];
	return NULL;
}

/*
 * grub-reboot only writes next_entry into grubenv; the grub.cfg that
 * grub-mkconfig writes boots it once only when GRUB_DEFAULT=saved.
 * Otherwise every grub boot would come back with the default kernel.
 */
static int target_grub(const struct plan *p, const char *target, void (*say)(const char *fmt, ...))
{
	const struct plan_swprofile *sw = target_grub_swprofile(p);
	char value[256] = "";
	int err;

	if (!sw)
		return 0;
	err = campaign_grub_default(value, sizeof(value));
	if (!err && !strcmp(value, "saved"))
		return 0;
	if (err < 0)
		say("swprofile '%s' boots with grub-reboot, but %s's %s cannot be read: %s", sw->name, target,
		    GRUB_DEFAULTS, strerror(-err));
	else
		say("swprofile '%s' boots with grub-reboot, which takes effect only with GRUB_DEFAULT=saved; "
		    "%s's %s has GRUB_DEFAULT=%s: the boot would come back with the default kernel", sw->name,
		    target, GRUB_DEFAULTS, err ? "0 (not set)" : value);
	log_hint("on %s: set GRUB_DEFAULT=saved in %s, then run update-grub (or grub-mkconfig -o /boot/grub/grub.cfg)",
		 target, GRUB_DEFAULTS);
	return EXIT_RESOURCE;
}

int campaign_target_check(const struct plan *p, const char *target, bool dry_run)
{
	void (*say)(const char *fmt, ...) = dry_run ? log_warn : log_err;
	int ret = plan_check(p, NULL), err;

	/* which machine comes first: the shortfalls after it are that machine's */
	if (ret == EXIT_RESOURCE) {
		say("the plan does not fit %s:", target);
		ret = plan_check(p, say);
	}
	if (ret && ret != EXIT_RESOURCE)
		return ret;
	err = target_grub(p, target, say);
	ret = ret ? ret : err;
	return dry_run ? 0 : ret;
}
