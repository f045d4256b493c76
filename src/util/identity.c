/* identity: build a benchmark identity's key and display from its parameters. */
#include "util/identity.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

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
