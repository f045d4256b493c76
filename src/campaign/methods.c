/* methods: the boot method table, and reading a swprofile's `boot:` through its row (keys, params, expect). */
#define _GNU_SOURCE	/* vasprintf */
#include "campaign/method.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

#define CAMPAIGN_METHOD_ROW(m) &m,
static const struct campaign_method *const methods[] = { CAMPAIGN_METHODS(CAMPAIGN_METHOD_ROW) };
#undef CAMPAIGN_METHOD_ROW
#define NMETHODS (sizeof(methods) / sizeof(methods[0]))

const struct campaign_method *campaign_method_find(const char *name)
{
	for (size_t i = 0; i < NMETHODS; i++)
		if (!strcmp(methods[i]->name, name))
			return methods[i];
	return NULL;
}

const struct campaign_method *campaign_method_of(const struct plan_swprofile *sw)
{
	return sw->boot_method;
}

/* "kexec, grub, command or fake" into @buf. */
static const char *methods_list(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NMETHODS && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? (i + 1 == NMETHODS ? " or " : ", ") : "",
				      methods[i]->name);
	return buf;
}

/* The row of @sw's method; NULL after plan_err() when it names none or an unknown one. */
static const struct campaign_method *methods_lookup(const struct plan_swprofile *sw)
{
	const char *names[NMETHODS];
	const struct campaign_method *m;
	char list[256];

	/* "methd: command": the key misspelt, not the method missing */
	for (size_t i = 0; !sw->method && i < sw->nboot; i++)
		if (strspn(sw->boot[i].key, "abcdefghijklmnopqrstuvwxyz_") == strlen(sw->boot[i].key) &&
		    plan_distance(sw->boot[i].key, "method") <= 2) {
			plan_err(&sw->boot[i].key_loc, "unknown key '%s' in boot; nearest valid key: 'method' (%s)",
				 sw->boot[i].key, methods_list(list, sizeof(list)));
			return NULL;
		}
	if (!sw->method) {
		plan_err(&sw->method_loc, "boot needs a method: %s", methods_list(list, sizeof(list)));
		return NULL;
	}
	if ((m = campaign_method_find(sw->method)))
		return m;
	for (size_t i = 0; i < NMETHODS; i++)
		names[i] = methods[i]->name;
	plan_err(&sw->method_loc, "unknown boot method '%s'; nearest: '%s' (%s)", sw->method,
		 names[plan_nearest(sw->method, names, NMETHODS)], methods_list(list, sizeof(list)));
	return NULL;
}

/* The row's key named @key, or NULL. */
static const struct campaign_method_key *methods_key(const struct campaign_method *m, const char *key)
{
	for (const struct campaign_method_key *k = m->keys; k->name; k++)
		if (!strcmp(k->name, key))
			return k;
	return NULL;
}

/* An unknown key of `boot` for @m, with the keys it takes ("method" first). */
static int methods_unknown_key(const struct campaign_method *m, const struct plan_boot_value *v)
{
	const char *valid[16] = { "method" };
	size_t n = 1;

	for (const struct campaign_method_key *k = m->keys; k->name && n < 16; k++)
		valid[n++] = k->name;
	return plan_key_unknown(&v->key_loc, v->key, "boot", valid, n);
}

/* Value @v of key @k into its field of @params. */
static int methods_set(const struct campaign_method_key *k, const struct plan_boot_value *v, void *params)
{
	char *field = (char *)params + k->offset;

	if (k->kind == CAMPAIGN_KEY_LIST) {
		struct campaign_key_list l = { v->values, v->nvalues };

		memcpy(field, &l, sizeof(l));
		return 0;
	}
	if (v->list || v->nvalues != 1)
		return plan_err(&v->loc, "%s must be a single value", v->key);
	/* a release, a kernel path or an entry with a line break could never match what the booted kernel reports */
	if (strpbrk(v->values[0], "\n\r"))
		return plan_err(&v->loc, "%s must be one line (it has a line break)", v->key);
	memcpy(field, &v->values[0], sizeof(char *));
	return 0;
}

/* @sw's `boot` keys into a new params block of @m. */
static int methods_read(const struct campaign_method *m, struct plan_swprofile *sw)
{
	int ret = 0;

	free(sw->boot_params);
	if (!(sw->boot_params = calloc(1, m->params_size ? m->params_size : 1))) {
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	for (size_t i = 0; !ret && i < sw->nboot; i++) {
		const struct campaign_method_key *k = methods_key(m, sw->boot[i].key);

		ret = k ? methods_set(k, &sw->boot[i], sw->boot_params) : methods_unknown_key(m, &sw->boot[i]);
	}
	for (const struct campaign_method_key *k = m->keys; !ret && k->name; k++) {
		bool given = false;

		for (size_t i = 0; i < sw->nboot; i++)
			given = given || !strcmp(sw->boot[i].key, k->name);
		if (k->required && !given)
			ret = plan_err(&sw->boot_loc, "boot method %s needs '%s'%s%s", m->name, k->name,
				       k->what ? ": " : "", k->what ? k->what : "");
	}
	return ret;
}

/* `expect` completed: the release the boot gives, the command-line words the method passes, then `cmdline:`'s. */
static int methods_expect(const struct campaign_method *m, struct plan_swprofile *sw)
{
	const char *rel = m->release ? m->release(sw->boot_params, (char[256]){ 0 }, 256) : NULL;
	const char *words = m->cmdline_words ? m->cmdline_words(sw->boot_params) : NULL;
	struct plan_loc loc = { sw->file, sw->line, sw->col };
	int ret = 0;

	if (!sw->expect.release && rel && !(sw->expect.release = strdup(rel))) {
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	if (!sw->expect.release) {
		plan_err(&loc, "swprofile '%s': cannot tell which kernel release its boot gives", sw->name);
		log_hint("add expect: {release: RELEASE} (what 'uname -r' prints under that kernel)");
		return EXIT_USAGE;
	}
	if (words)
		ret = plan_expect_add_words(&sw->expect, words, &loc);
	if (!ret && sw->cmdline)
		ret = plan_expect_add_words(&sw->expect, sw->cmdline, &loc);
	return ret;
}

/* One swprofile through its method's row. */
static int methods_bind_one(struct plan_swprofile *sw)
{
	const struct campaign_method *m = methods_lookup(sw);
	int ret;

	if (!m)
		return EXIT_USAGE;
	sw->boot_method = m;
	if ((ret = methods_read(m, sw)) || (m->parse && (ret = m->parse(sw->boot_params, sw))))
		return ret;
	if (sw->cmdline && !m->applies_cmdline) {
		plan_err(&sw->cmdline_loc, "swprofile '%s': cmdline cannot be applied by boot method %s", sw->name,
			 m->name);
		log_hint("put the parameters in the boot entry and name them in expect: {cmdline_has: ...}");
		return EXIT_USAGE;
	}
	return methods_expect(m, sw);
}

int campaign_methods_bind(struct plan *p)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < p->nswprofiles; i++)
		ret = p->swprofiles[i].boot_method ? 0 : methods_bind_one(&p->swprofiles[i]);
	return ret;
}

bool campaign_reboots(const struct plan *p)
{
	for (size_t i = 0; i < p->nswprofiles; i++)
		if (campaign_method_of(&p->swprofiles[i])->reboots)
			return true;
	return false;
}

int campaign_methods_check(const struct plan *p, const struct campaign_target_env *env)
{
	int ret = 0, err;

	for (size_t i = 0; i < p->nswprofiles; i++) {
		const struct plan_swprofile *sw = &p->swprofiles[i];
		const struct campaign_method *m = campaign_method_of(sw);
		bool first = true;

		for (size_t j = 0; m->check_once && j < i; j++)
			first = first && campaign_method_of(&p->swprofiles[j]) != m;
		err = m->check && first ? m->check(sw->boot_params, sw, env) : 0;
		ret = ret ? ret : err;
	}
	return ret;
}

int campaign_boot_add(struct campaign_boot_cmds *out, const char *fmt, ...)
{
	char **grown = realloc(out->cmd, (out->ncmd + 1) * sizeof(*grown));
	va_list ap;
	int n;

	if (!grown)
		return EXIT_INTERNAL;
	out->cmd = grown;
	va_start(ap, fmt);
	n = vasprintf(&out->cmd[out->ncmd], fmt, ap);
	va_end(ap);
	if (n < 0)
		return EXIT_INTERNAL;
	out->ncmd++;
	return 0;
}

int campaign_boot_commands(const struct campaign_boot_ctx *ctx, struct campaign_boot_cmds *out)
{
	const struct campaign_method *m = campaign_method_of(ctx->sw);
	int ret;

	memset(out, 0, sizeof(*out));
	out->method = m;
	out->sw = ctx->sw;
	ret = m->commands(ctx->sw->boot_params, ctx, out);
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
	free(c->cmd);
	free(c->cmdline);
	memset(c, 0, sizeof(*c));
}

/* Whether @word is a word some swprofile's `cmdline:` adds: a kept cmdline sheds them. */
static bool methods_added_word(const struct plan *p, const char *word)
{
	for (size_t i = 0; i < p->nswprofiles; i++)
		for (size_t j = 0; j < p->swprofiles[i].expect.ncmdline_has; j++)
			if (p->swprofiles[i].cmdline && strstr(p->swprofiles[i].cmdline, word) &&
			    !strcmp(p->swprofiles[i].expect.cmdline_has[j], word))
				return true;
	return false;
}

char *campaign_boot_cmdline(const struct plan *p, const struct plan_swprofile *sw, const char *base, bool keep)
{
	size_t len = strlen(base) + (sw->cmdline ? strlen(sw->cmdline) : 0) + 2;
	char *out = calloc(1, len), *copy = strdup(base), *save = NULL;

	if (!out || !copy) {
		free(out);
		free(copy);
		return NULL;
	}
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (keep && (!strncmp(w, "BOOT_IMAGE=", 11) || methods_added_word(p, w)))
			continue;
		strcat(strcat(out, *out ? " " : ""), w);
	}
	if (sw->cmdline && *sw->cmdline)
		strcat(strcat(out, *out ? " " : ""), sw->cmdline);
	free(copy);
	return out;
}
