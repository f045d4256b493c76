/* plan_swprofile: a plan's `swprofiles`: each kernel's `boot` as written, what a campaign applies and expects. */
#include "plan/plan_int.h"
#include "util/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLAN_NKEYS(a) (sizeof(a) / sizeof((a)[0]))

static const char *const sw_keys[] = { "boot", "expect", "sysctl", "cmdline" };
static const char *const sw_expect_keys[] = { "release", "cmdline_has", "sysctl" };

void plan_sysctl_path(const char *key, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "/proc/sys/%s", key);

	for (size_t i = strlen("/proc/sys/"); i < n && i < len; i++)
		if (buf[i] == '.')
			buf[i] = '/';
}

const struct plan_swprofile *plan_swprofile_find(const struct plan *p, const char *name)
{
	for (size_t i = 0; i < p->nswprofiles; i++)
		if (!strcmp(p->swprofiles[i].name, name))
			return &p->swprofiles[i];
	return NULL;
}

/*
 * A copy of scalar @n into *@out.  0 or an exit code.  One line: a release, a
 * command line, a kernel path or a grub entry with a line break in it could
 * never match what the booted kernel reports, and the campaign would find out
 * only after its first reboot.
 */
static int sw_string(struct plan_file *f, yaml_node_t *n, const char *what, char **out)
{
	const char *s = plan_scalar(f, n, what);
	struct plan_loc loc = plan_node_loc(f, n);

	if (!s)
		return EXIT_USAGE;
	if (strpbrk(s, "\n\r"))
		return plan_err(&loc, "%s must be one line (it has a line break)", what);
	free(*out);
	*out = plan_strdup(s);
	return *out ? 0 : EXIT_INTERNAL;
}

/* Append a copy of @s to the array *@arr of *@n strings.  0 or EXIT_INTERNAL. */
static int sw_push(char ***arr, size_t *n, const char *s)
{
	char **a = realloc(*arr, (*n + 1) * sizeof(*a));

	if (!a) {
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	*arr = a;
	if (!(a[*n] = plan_strdup(s)))
		return EXIT_INTERNAL;
	(*n)++;
	return 0;
}

/* The words of @s (split at spaces) appended to *@arr, each once. */
static int sw_push_words(char ***arr, size_t *n, const char *s, const struct plan_loc *loc)
{
	char *copy = plan_strdup(s), *save = NULL;
	int ret = copy ? 0 : EXIT_INTERNAL;

	if (!ret && strpbrk(s, "\n\r")) {
		free(copy);
		return plan_err(loc, "command-line words must be one line (a line break is never in /proc/cmdline)");
	}

	for (char *w = copy ? strtok_r(copy, " \t", &save) : NULL; !ret && w; w = strtok_r(NULL, " \t", &save)) {
		size_t i;

		for (i = 0; i < *n && strcmp((*arr)[i], w); i++)
			;
		if (i < *n)
			continue;
		if (*n == PLAN_MAX_WORDS)
			ret = plan_err(loc, "more than %d command-line words to expect", PLAN_MAX_WORDS);
		else
			ret = sw_push(arr, n, w);
	}
	free(copy);
	return ret;
}

int plan_expect_add_words(struct plan_expect *e, const char *s, const struct plan_loc *loc)
{
	return sw_push_words(&e->cmdline_has, &e->ncmdline_has, s, loc);
}

/* A scalar or a list of scalars into *@arr: commands, or (@words) cmdline words. */
static int sw_strings(struct plan_file *f, yaml_node_t *n, const char *what, bool words, char ***arr,
		      size_t *cnt)
{
	struct plan_loc loc = plan_node_loc(f, n);
	int ret = 0;

	if (n->type == YAML_SCALAR_NODE)
		return words ? sw_push_words(arr, cnt, (const char *)n->data.scalar.value, &loc)
			     : sw_push(arr, cnt, (const char *)n->data.scalar.value);
	if ((ret = plan_expect(f, n, YAML_SEQUENCE_NODE, what)))
		return ret;
	for (yaml_node_item_t *i = n->data.sequence.items.start; !ret && i < n->data.sequence.items.top; i++) {
		yaml_node_t *item = plan_node(f, *i);
		struct plan_loc iloc = plan_node_loc(f, item);
		const char *s = plan_scalar(f, item, what);

		if (!s)
			return EXIT_USAGE;
		if (!words && *cnt == PLAN_MAX_WORDS)
			return plan_err(&iloc, "more than %d %s", PLAN_MAX_WORDS, what);
		ret = words ? sw_push_words(arr, cnt, s, &iloc) : sw_push(arr, cnt, s);
	}
	if (!ret && !*cnt)
		ret = plan_err(&loc, "%s is empty", what);
	return ret;
}

/*
 * A sysctl name as /proc/sys spells it with dots: letters, digits, '_', '-'
 * and '.' separators, no empty part, so it can never leave /proc/sys.
 */
static bool sw_sysctl_name_ok(const char *k)
{
	size_t n = strspn(k, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.");

	return n && !k[n] && k[0] != '.' && k[n - 1] != '.' && !strstr(k, "..") && n < 200;
}

/* A `sysctl` mapping (name: value) into *@arr. */
static int sw_sysctls(struct plan_file *f, yaml_node_t *n, const char *what, struct plan_sysctl **arr,
		      size_t *cnt)
{
	int ret = plan_expect(f, n, YAML_MAPPING_NODE, what);

	for (yaml_node_pair_t *p = n->data.mapping.pairs.start; !ret && p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = plan_node(f, p->key), *v = plan_node(f, p->value);
		struct plan_loc loc = plan_node_loc(f, k);
		const char *key = plan_scalar(f, k, "a sysctl name"), *val = plan_scalar(f, v, "a sysctl value");
		struct plan_sysctl *a;

		if (!key || !val)
			return EXIT_USAGE;
		if (!sw_sysctl_name_ok(key))
			return plan_err(&loc, "'%s' is not a sysctl name such as vm.swappiness", key);
		for (size_t i = 0; i < *cnt; i++)
			if (!strcmp((*arr)[i].key, key))
				return plan_err(&loc, "sysctl '%s' is given twice in %s", key, what);
		if (*cnt == PLAN_MAX_SYSCTLS)
			return plan_err(&loc, "more than %d sysctls in %s", PLAN_MAX_SYSCTLS, what);
		if (!(a = realloc(*arr, (*cnt + 1) * sizeof(*a)))) {
			log_err("out of memory");
			return EXIT_INTERNAL;
		}
		*arr = a;
		a[*cnt].key = plan_strdup(key);
		a[*cnt].value = plan_strdup(val);
		(*cnt)++;
		if (!a[*cnt - 1].key || !a[*cnt - 1].value)
			return EXIT_INTERNAL;
	}
	return ret;
}

/* One value of `boot` (a scalar, or a list of scalars) into @v. */
static int sw_boot_value(struct plan_file *f, yaml_node_t *k, yaml_node_t *n, struct plan_boot_value *v,
			 const char *file)
{
	v->key_loc = plan_node_loc(f, k);
	v->loc = plan_node_loc(f, n);
	v->key_loc.file = v->loc.file = file;
	v->list = n->type == YAML_SEQUENCE_NODE;
	if (n->type == YAML_MAPPING_NODE)
		return plan_err(&v->loc, "%s must be a value or a list of values", (const char *)k->data.scalar.value);
	if (!(v->key = plan_strdup((const char *)k->data.scalar.value)))
		return EXIT_INTERNAL;
	return sw_strings(f, n, v->key, false, &v->values, &v->nvalues);
}

/*
 * `boot` as written: its method's name and every other key's value(s).
 * Which keys a method takes, and what they mean, is campaign/'s boot method
 * table's to say (campaign_plan_load()).
 */
static int sw_read_boot(struct plan_file *f, yaml_node_t *boot, struct plan_swprofile *sw)
{
	int ret = plan_expect(f, boot, YAML_MAPPING_NODE, "boot");
	size_t n;

	if (ret)
		return ret;
	sw->boot_loc = sw->method_loc = plan_node_loc(f, boot);
	sw->boot_loc.file = sw->method_loc.file = sw->file;
	n = (size_t)(boot->data.mapping.pairs.top - boot->data.mapping.pairs.start);
	if (n && !(sw->boot = calloc(n, sizeof(*sw->boot)))) {
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	for (yaml_node_pair_t *p = boot->data.mapping.pairs.start; !ret && p < boot->data.mapping.pairs.top; p++) {
		yaml_node_t *k = plan_node(f, p->key), *v = plan_node(f, p->value);
		const char *key = plan_scalar(f, k, "a key"), *s;
		struct plan_loc loc = plan_node_loc(f, k);

		if (!key)
			return EXIT_USAGE;
		for (size_t i = 0; i < sw->nboot; i++)
			if (!strcmp(sw->boot[i].key, key))
				return plan_err(&loc, "key '%s' is given twice in boot", key);
		if (!strcmp(key, "method") && !sw->method) {
			if (!(s = plan_scalar(f, v, "method")))
				return EXIT_USAGE;
			sw->method_loc = plan_node_loc(f, v);
			sw->method_loc.file = sw->file;
			if (!(sw->method = plan_strdup(s)))
				return EXIT_INTERNAL;
		} else if (!strcmp(key, "method")) {
			return plan_err(&loc, "key 'method' is given twice in boot");
		} else {
			ret = sw_boot_value(f, k, v, &sw->boot[sw->nboot++], sw->file);
		}
	}
	return ret;
}

/* The sysctls applied are expected to read back as applied (unless `expect` says otherwise). */
static int sw_expect_sysctls(struct plan_swprofile *sw)
{
	for (size_t i = 0; i < sw->nsysctl; i++) {
		size_t j;
		struct plan_sysctl *a;

		for (j = 0; j < sw->expect.nsysctl && strcmp(sw->expect.sysctl[j].key, sw->sysctl[i].key); j++)
			;
		if (j < sw->expect.nsysctl)
			continue;
		if (!(a = realloc(sw->expect.sysctl, (j + 1) * sizeof(*a)))) {
			log_err("out of memory");
			return EXIT_INTERNAL;
		}
		sw->expect.sysctl = a;
		a[j].key = plan_strdup(sw->sysctl[i].key);
		a[j].value = plan_strdup(sw->sysctl[i].value);
		sw->expect.nsysctl++;
		if (!a[j].key || !a[j].value)
			return EXIT_INTERNAL;
	}
	return 0;
}

static int sw_read_expect(struct plan_file *f, yaml_node_t *n, struct plan_swprofile *sw)
{
	int ret = plan_check_keys(f, n, "expect", sw_expect_keys, PLAN_NKEYS(sw_expect_keys));
	yaml_node_t *v;

	if (!ret && (v = plan_get(f, n, "release")))
		ret = sw_string(f, v, "release", &sw->expect.release);
	if (!ret && (v = plan_get(f, n, "cmdline_has")))
		ret = sw_strings(f, v, "cmdline_has", true, &sw->expect.cmdline_has, &sw->expect.ncmdline_has);
	if (!ret && (v = plan_get(f, n, "sysctl")))
		ret = sw_sysctls(f, v, "expect's sysctl", &sw->expect.sysctl, &sw->expect.nsysctl);
	return ret;
}

static int sw_read_one(struct plan_file *f, yaml_node_t *k, yaml_node_t *n, struct plan_swprofile *sw)
{
	struct plan_loc loc = plan_node_loc(f, k);
	const char *name = plan_scalar(f, k, "a swprofile name");
	int ret;
	yaml_node_t *v;

	if (!name)
		return EXIT_USAGE;
	if (!*name || strlen(name) > 200 || strchr(name, '\n'))
		return plan_err(&loc, "a swprofile name must be one line of 1 to 200 characters");
	sw->line = loc.line;
	sw->col = loc.col;
	if (!(sw->name = plan_strdup(name)) || !(sw->file = plan_strdup(f->path)))
		return EXIT_INTERNAL;
	if ((ret = plan_check_keys(f, n, "a swprofile", sw_keys, PLAN_NKEYS(sw_keys))))
		return ret;
	if (!(v = plan_get(f, n, "boot")))
		return plan_err(&loc, "swprofile '%s' needs boot: {method: METHOD, ...}", name);
	ret = sw_read_boot(f, v, sw);
	if (!ret && (v = plan_get(f, n, "cmdline"))) {
		sw->cmdline_loc = plan_node_loc(f, v);
		sw->cmdline_loc.file = sw->file;
		ret = sw_string(f, v, "cmdline", &sw->cmdline);
	}
	if (!ret && (v = plan_get(f, n, "sysctl")))
		ret = sw_sysctls(f, v, "sysctl", &sw->sysctl, &sw->nsysctl);
	if (!ret && (v = plan_get(f, n, "expect")))
		ret = sw_read_expect(f, v, sw);
	return ret ? ret : sw_expect_sysctls(sw);
}

int plan_read_swprofiles(struct plan_file *f, yaml_node_t *n)
{
	struct plan *p = f->rd->plan;
	struct plan_loc loc = plan_node_loc(f, n);
	int ret = plan_expect(f, n, YAML_MAPPING_NODE, "swprofiles");
	size_t cnt;

	if (ret)
		return ret;
	cnt = (size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
	if (!cnt || cnt > PLAN_MAX_SWPROFILES)
		return plan_err(&loc, "swprofiles names 1 to %d swprofiles, not %zu", PLAN_MAX_SWPROFILES, cnt);
	if (!(p->swprofiles = calloc(cnt, sizeof(*p->swprofiles)))) {
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	for (yaml_node_pair_t *q = n->data.mapping.pairs.start; !ret && q < n->data.mapping.pairs.top; q++) {
		yaml_node_t *k = plan_node(f, q->key);
		struct plan_loc kloc = plan_node_loc(f, k);

		ret = sw_read_one(f, k, plan_node(f, q->value), &p->swprofiles[p->nswprofiles++]);
		for (size_t i = 0; !ret && i + 1 < p->nswprofiles; i++)
			if (!strcmp(p->swprofiles[i].name, p->swprofiles[p->nswprofiles - 1].name))
				ret = plan_err(&kloc, "swprofile '%s' is named twice", p->swprofiles[i].name);
	}
	return ret;
}

static void sw_free_strings(char **a, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(a[i]);
	free(a);
}

static void sw_free_sysctls(struct plan_sysctl *a, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(a[i].key);
		free(a[i].value);
	}
	free(a);
}

void plan_swprofiles_free(struct plan *p)
{
	for (size_t i = 0; i < p->nswprofiles; i++) {
		struct plan_swprofile *sw = &p->swprofiles[i];

		free(sw->name);
		free(sw->method);
		for (size_t k = 0; k < sw->nboot; k++) {
			free(sw->boot[k].key);
			sw_free_strings(sw->boot[k].values, sw->boot[k].nvalues);
		}
		free(sw->boot);
		free(sw->boot_params);
		free(sw->cmdline);
		sw_free_sysctls(sw->sysctl, sw->nsysctl);
		free(sw->expect.release);
		sw_free_strings(sw->expect.cmdline_has, sw->expect.ncmdline_has);
		sw_free_sysctls(sw->expect.sysctl, sw->expect.nsysctl);
		free(sw->file);
	}
	free(p->swprofiles);
	p->swprofiles = NULL;
	p->nswprofiles = 0;
}
