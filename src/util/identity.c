/* identity: a benchmark identity's key and display from its parameters, and result classes as data (the one reader of their names). */
#include "util/identity.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ident_parse_named(ident_parse_fn parse, const char *text, struct bench_identity *out)
{
	char suite[sizeof(out->suite)];
	size_t coll = strcspn(text, " "), name = coll + (text[coll] == ' '), len;

	len = strcspn(text + name, " ");
	if (!coll || !len || coll + 1 + len >= sizeof(suite))
		return -EINVAL;
	snprintf(suite, sizeof(suite), "%.*s/%.*s", (int)coll, text, (int)len, text + name);
	return parse(suite, text + name + len + (text[name + len] == ' '), out);
}

void ident_raw(struct bench_identity *id, const char *suite, const char *text)
{
	memset(id, 0, sizeof(*id));
	snprintf(id->suite, sizeof(id->suite), "%s", suite);
	snprintf(id->display, sizeof(id->display), "%s", text ? text : "");
	snprintf(id->key, sizeof(id->key), "%s", text ? text : "");
}

int ident_add(struct bench_identity *id, const char *name, const char *alias, const char *value,
	      const char *shown)
{
	struct ident_param *p;

	if (id->nparams == IDENT_MAX_PARAMS)
		return -E2BIG;
	p = &id->params[id->nparams++];
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->alias, sizeof(p->alias), "%s", alias ? alias : "");
	snprintf(p->value, sizeof(p->value), "%s", value);
	snprintf(p->shown, sizeof(p->shown), "%s", shown ? shown : "");
	return 0;
}

/* Append " @text" (no space when @buf is empty) to @buf. */
static void ident_append(char *buf, size_t len, const char *a, const char *b, const char *c)
{
	size_t used = strlen(buf);

	if (used < len)
		snprintf(buf + used, len - used, "%s%s%s%s", used ? " " : "", a, b, c);
}

void ident_finish(struct bench_identity *id)
{
	id->key[0] = id->display[0] = '\0';
	for (size_t i = 0; i < id->nparams; i++) {
		const struct ident_param *p = &id->params[i];

		ident_append(id->key, sizeof(id->key), p->name, "=", p->value);
		if (p->shown[0])
			ident_append(id->display, sizeof(id->display), p->shown, "", "");
	}
}

const struct ident_param *ident_find(const struct ident_param *p, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(p[i].name, name) || (p[i].alias[0] && !strcmp(p[i].alias, name)))
			return &p[i];
	return NULL;
}

const char *ident_value(const struct ident_class *c, const char *name)
{
	const struct ident_param *p = ident_find(c->param, c->nparam, name);

	return p ? p->value : NULL;
}

bool ident_is(const struct ident_class *c, const char *workload)
{
	return c->workload && !strcmp(c->workload, workload);
}

bool ident_headline(const struct ident_class *c)
{
	return c->metric && !c->metric[0];
}

const char *ident_profile_symbol(const char *metric)
{
	size_t n = strlen(IDENT_PROFILE_METRIC);

	return metric && !strncmp(metric, IDENT_PROFILE_METRIC, n) ? metric + n : NULL;
}

/* The workload part of @suite ("memset" of "mem/memset"). */
static const char *ident_suite_tail(const char *suite)
{
	const char *slash = strrchr(suite, '/');

	return slash ? slash + 1 : suite;
}

int ident_class_name(const char *suite, const char *display, const char *metric, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s%s%s%s%s", ident_suite_tail(suite), display[0] ? " " : "", display,
			 metric[0] ? " :" : "", metric);

	return n < 0 || (size_t)n >= len ? -E2BIG : 0;
}

/*
 * What follows prefix @a + @b (@b may be NULL) at the start of @name: the
 * metric ("" when nothing follows, what comes after " :" otherwise); NULL
 * when @name does not start so or something else follows.
 */
static const char *ident_after(const char *name, const char *a, const char *b)
{
	size_t na = strlen(a), nb = b ? strlen(b) : 0;

	if (strncmp(name, a, na))
		return NULL;
	name += na;
	if (b && (*name++ != ' ' || strncmp(name, b, nb)))
		return NULL;
	name += nb;
	if (!*name)
		return name;
	return name[0] == ' ' && name[1] == ':' && name[2] ? name + 2 : NULL;
}

/* The metric of @name and whether it has the workload before the display (*@tailed). */
static const char *ident_metric_of(const char *suite, const char *display, const char *name, bool *tailed)
{
	const char *m = ident_after(name, ident_suite_tail(suite), display[0] ? display : NULL);

	*tailed = m != NULL;
	if (!m && display[0])
		m = ident_after(name, display, NULL);
	return m;
}

const char *ident_class_metric(const char *suite, const char *display, const char *name)
{
	bool tailed;

	return ident_metric_of(suite, display, name, &tailed);
}

void ident_class_rebase(const char *suite, const char *from, const char *to, const char *name, char *out,
			size_t len)
{
	bool tailed;
	const char *m = ident_metric_of(suite, from, name, &tailed);

	if (!m || !to[0])
		snprintf(out, len, "%s", name);
	else if (tailed)
		ident_class_name(suite, to, m, out, len);
	else
		snprintf(out, len, "%s%s%s", to, m[0] ? " :" : "", m);
}

/* Remove the words @words (whole words only) from @s, once, with the blank before them. */
static void ident_drop_words(char *s, const char *words)
{
	size_t n = strlen(words);

	for (char *at = strstr(s, words); n && at; at = strstr(at + 1, words)) {
		if ((at == s || at[-1] == ' ') && (at[n] == ' ' || !at[n])) {
			/* the blank before them, or at the start the one after */
			char *from = at == s ? at : at - 1, *rest = at + n + (at == s && at[n] == ' ');

			memmove(from, rest, strlen(rest) + 1);
			return;
		}
	}
}

char *ident_class_label(const struct ident_class *c, const char *drop)
{
	const struct ident_param *p = drop ? ident_find(c->param, c->nparam, drop) : NULL;
	char *s = strdup(c->name);

	/* the option leaves the name only where the display shows it */
	if (s && p && p->shown[0])
		ident_drop_words(s, p->shown);
	return s;
}

/* Whether parameter @p is the one @drop names (long or short). */
static bool ident_dropped(const struct ident_param *p, const char *drop)
{
	return drop && (!strcmp(p->name, drop) || (p->alias[0] && !strcmp(p->alias, drop)));
}

/* @c's benchmark key without parameter @drop (a raw one: its text), as a new string; NULL when out of memory. */
static char *ident_key_without(const struct ident_class *c, const char *drop)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	if (!c->nparam || !drop)
		fputs(c->key, f);
	for (size_t i = 0, first = 1; drop && i < c->nparam; i++) {
		if (ident_dropped(&c->param[i], drop))
			continue;
		fprintf(f, "%s%s=%s", first ? "" : " ", c->param[i].name, c->param[i].value);
		first = 0;
	}
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}

char *ident_class_key(const struct ident_class *c, const char *drop)
{
	/* a class named by itself is what its name says, whatever its command (a plan's exec) */
	char *label = c->metric ? NULL : ident_class_label(c, drop);
	char *key = c->metric ? ident_key_without(c, drop) : strdup(""), *out;
	const char *last = c->metric ? c->metric : label;

	out = key && last ? malloc(strlen(c->suite) + strlen(key) + strlen(last) + 4) : NULL;
	/* fields apart by a byte no name holds; a metric and a label never meet: 'm' or 'n' first */
	if (out)
		sprintf(out, "%s\037%s\037%c%s", c->suite, key, c->metric ? 'm' : 'n', last);
	free(label);
	free(key);
	return out;
}

void ident_bench_column(const struct ident_class *c, char *buf, size_t len)
{
	const char *slash = strrchr(c->suite, '/');
	size_t tail = slash ? strlen(slash + 1) : 0;

	if (slash && !strncmp(c->name, slash + 1, tail) && (c->name[tail] == ' ' || !c->name[tail]))
		snprintf(buf, len, "%.*s", (int)(slash - c->suite), c->suite);
	else
		snprintf(buf, len, "%s", c->suite);
}

size_t ident_class_head_len(const struct ident_class *c)
{
	size_t n = strlen(c->name), m = c->metric ? strlen(c->metric) : 0;

	/* a metric is the end of the name, after " :" */
	return m && n >= m + 2 ? n - m - 2 : n;
}

/* Copy @s to *@at and advance it; the copy. */
static const char *ident_put(char **at, const char *s)
{
	char *p = *at;
	size_t n = strlen(s) + 1;

	memcpy(p, s, n);
	*at += n;
	return p;
}

struct ident_class *ident_class_dup(const struct ident_class *c, const char *drop)
{
	char *key = ident_key_without(c, drop), *name = ident_class_label(c, drop);
	const char *const text[] = { c->suite, c->workload ? c->workload : "", c->display, key ? key : "",
				     c->metric ? c->metric : "", name ? name : "" };
	size_t len = sizeof(struct ident_class) + c->nparam * sizeof(struct ident_param), n = 0;
	struct ident_class *d = NULL;
	struct ident_param *p;
	char *at;

	for (size_t i = 0; i < sizeof(text) / sizeof(text[0]); i++)
		len += strlen(text[i]) + 1;
	if (key && name)
		d = malloc(len);
	if (!d)
		goto out;
	p = (struct ident_param *)(d + 1);
	for (size_t i = 0; i < c->nparam; i++)
		if (!ident_dropped(&c->param[i], drop))
			p[n++] = c->param[i];
	at = (char *)(p + c->nparam);
	d->suite = ident_put(&at, text[0]);
	d->workload = ident_put(&at, text[1]);
	d->display = ident_put(&at, text[2]);
	d->key = ident_put(&at, text[3]);
	d->param = p;
	d->nparam = n;
	d->metric = ident_put(&at, text[4]);
	d->name = ident_put(&at, text[5]);
	if (!c->metric)
		d->metric = NULL;
out:
	free(key);
	free(name);
	return d;
}
