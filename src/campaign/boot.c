/* boot: the exact commands each boot method runs (kexec, grub, the user's own) and what a fake boot writes. */
#define _GNU_SOURCE	/* vasprintf */
#include "campaign/campaign.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

char *campaign_shell_quote(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=.,/:@%") == strlen(s)) {
		snprintf(buf, len, "%s", s);
		return buf;
	}
	/* '...' with each ' written as '\'' */
	for (const char *p = s; n + 5 < len; p++) {
		if (p == s)
			buf[n++] = '\'';
		if (!*p)
			break;
		if (*p == '\'') {
			memcpy(buf + n, "'\\''", 4);
			n += 4;
		} else {
			buf[n++] = *p;
		}
	}
	buf[n++] = '\'';
	buf[n] = '\0';
	return buf;
}

/* Whether @word is a word some swprofile's `cmdline:` adds: a kept cmdline sheds them. */
static bool boot_added_word(const struct plan *p, const char *word)
{
	for (size_t i = 0; i < p->nswprofiles; i++)
		for (size_t j = 0; j < p->swprofiles[i].expect.ncmdline_has; j++)
			if (p->swprofiles[i].cmdline && strstr(p->swprofiles[i].cmdline, word) &&
			    !strcmp(p->swprofiles[i].expect.cmdline_has[j], word))
				return true;
	return false;
}

/* The cmdline a kexec boot of @sw passes: @base (kept: without BOOT_IMAGE= and added words), then `cmdline:`. */
static char *boot_cmdline(const struct plan *p, const struct plan_swprofile *sw, const char *base, bool keep)
{
	size_t len = strlen(base) + (sw->cmdline ? strlen(sw->cmdline) : 0) + 2;
	char *out = calloc(1, len), *copy = strdup(base), *save = NULL;

	if (!out || !copy) {
		free(out);
		free(copy);
		return NULL;
	}
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (keep && (!strncmp(w, "BOOT_IMAGE=", 11) || boot_added_word(p, w)))
			continue;
		strcat(strcat(out, *out ? " " : ""), w);
	}
	if (sw->cmdline && *sw->cmdline)
		strcat(strcat(out, *out ? " " : ""), sw->cmdline);
	free(copy);
	return out;
}

static int boot_add(struct campaign_boot_cmds *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int boot_add(struct campaign_boot_cmds *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (c->ncmd == CAMPAIGN_MAX_CMDS)
		return EXIT_INTERNAL;
	va_start(ap, fmt);
	n = vasprintf(&c->cmd[c->ncmd], fmt, ap);
	va_end(ap);
	if (n < 0) {
		c->cmd[c->ncmd] = NULL;
		return EXIT_INTERNAL;
	}
	c->ncmd++;
	return 0;
}

static int boot_kexec(const struct plan *p, const struct plan_swprofile *sw, const struct campaign_facts *now,
		      struct campaign_boot_cmds *c)
{
	char *line = boot_cmdline(p, sw, sw->boot_cmdline ? sw->boot_cmdline : now->cmdline, !sw->boot_cmdline);
	size_t qlen = 2 * (strlen(sw->kernel) + (sw->initrd ? strlen(sw->initrd) : 0) + (line ? strlen(line) : 0)) + 64;
	char *qk = malloc(qlen), *qi = malloc(qlen), *ql = malloc(qlen), *arg = malloc(qlen);
	int ret = EXIT_INTERNAL;

	if (line && qk && qi && ql && arg) {
		char initrd[4200] = "";

		if (sw->initrd) {
			snprintf(arg, qlen, "--initrd=%s", sw->initrd);
			snprintf(initrd, sizeof(initrd), " %s", campaign_shell_quote(arg, qi, qlen));
		}
		snprintf(arg, qlen, "--command-line=%s", line);
		ret = boot_add(c, "kexec -l %s%s %s", campaign_shell_quote(sw->kernel, qk, qlen), initrd,
			       campaign_shell_quote(arg, ql, qlen)) ?:
		      boot_add(c, "systemctl kexec");
	}
	free(line);
	free(qk);
	free(qi);
	free(ql);
	free(arg);
	return ret;
}

int campaign_boot_commands(const struct plan *p, const struct plan_swprofile *sw,
			   const struct campaign_facts *now, struct campaign_boot_cmds *out)
{
	char q[1024];
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->method = sw->method;
	switch (sw->method) {
	case PLAN_BOOT_KEXEC:
		ret = boot_kexec(p, sw, now, out);
		break;
	case PLAN_BOOT_GRUB:
		/* one shot: a kernel that hangs falls back to the default entry on the next power cycle */
		ret = boot_add(out, "grub-reboot %s", campaign_shell_quote(sw->entry, q, sizeof(q))) ?:
		      boot_add(out, "systemctl reboot");
		break;
	case PLAN_BOOT_COMMAND:
		for (size_t i = 0; !ret && i < sw->ncommands; i++)
			ret = boot_add(out, "%s", sw->commands[i]);
		break;
	case PLAN_BOOT_FAKE:
		out->fake_release = sw->release;
		out->fake_cmdline = boot_cmdline(p, sw, sw->boot_cmdline, false);
		ret = out->fake_cmdline ? 0 : EXIT_INTERNAL;
		break;
	}
	if (ret) {
		log_err("out of memory");
		campaign_boot_cmds_free(out);
	}
	return ret;
}

void campaign_boot_cmds_free(struct campaign_boot_cmds *c)
{
	for (size_t i = 0; i < c->ncmd; i++)
		free(c->cmd[i]);
	free(c->fake_cmdline);
	memset(c, 0, sizeof(*c));
}

void campaign_print_checks(const struct plan_swprofile *sw, const char *indent)
{
	char q[1024];

	printf("%scheck: boot id changed, release %s", indent, sw->expect.release);
	for (size_t k = 0; k < sw->expect.ncmdline_has; k++)
		printf(", cmdline has %s", sw->expect.cmdline_has[k]);
	printf("\n");
	for (size_t k = 0; k < sw->nsysctl; k++)
		printf("%ssysctl -w %s=%s\n", indent, sw->sysctl[k].key,
		       campaign_shell_quote(sw->sysctl[k].value, q, sizeof(q)));
	for (size_t k = 0; k < sw->expect.nsysctl; k++)
		printf("%scheck: sysctl %s = %s\n", indent, sw->expect.sysctl[k].key, sw->expect.sysctl[k].value);
}
