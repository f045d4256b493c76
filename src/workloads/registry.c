/* registry: the table of workloads built from WL_REGISTRY, and lookups by name. */
#include "workloads/registry.h"
#include "workloads/workload.h"

#include <string.h>

#define WL_DECLARE(sym) extern const struct workload sym;
WL_REGISTRY(WL_DECLARE)
#undef WL_DECLARE

#define WL_ROW(sym) &sym,
static const struct workload *const wl_table[] = { WL_REGISTRY(WL_ROW) };
#undef WL_ROW

size_t wl_count(void)
{
	return sizeof(wl_table) / sizeof(wl_table[0]);
}

const struct workload *wl_at(size_t i)
{
	return i < wl_count() ? wl_table[i] : NULL;
}

const struct workload *wl_find(const char *collection, const char *name)
{
	for (size_t i = 0; i < wl_count(); i++)
		if (!strcmp(wl_table[i]->collection, collection) && !strcmp(wl_table[i]->name, name))
			return wl_table[i];
	return NULL;
}
