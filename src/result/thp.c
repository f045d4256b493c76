/* thp: say when a 4KB mmap result really measured THP faults (its sessions ran with THP enabled=always). */
#include "result/env.h"

#include <string.h>

bool result_thp_row(const struct cmp_row *row)
{
	const struct ident_class *c = row->ident;
	const char *page = ident_value(c, "page"), *thp = ident_value(c, "thp");

	/*
	 * Any value of mmap at 4KB pages, however spelled (-p 4KB, --page 4KB
	 * or the default): --thp always asked for THP by name, --thp never kept
	 * it away, so the label says what ran; with the system's setting THP
	 * may have served it.  A benchmark stored before --thp existed has no
	 * such parameter: it ran as "system" does.
	 */
	return ident_is(c, "mem/mmap") && page && !strcmp(page, "4KB") && (!thp || !strcmp(thp, "system"));
}

/* Whether a session of @cell ran with THP enabled=always, as its environment snapshot says. */
static bool thp_cell(const struct cmp_cell *cell, const json_t *envs)
{
	for (size_t u = 0; u < cell->nuuids; u++) {
		const json_t *settings = json_object_get(json_object_get(envs, cell->uuids[u]), "settings");
		const char *thp = json_string_value(json_object_get(settings, "thp_enabled"));

		if (thp && !strcmp(thp, "always"))
			return true;
	}
	return false;
}

json_t *result_thp_always(const struct cmp_set *s, const struct cmp_block *blk, const json_t *envs)
{
	json_t *out = json_array();

	for (size_t r = 0; out && envs && r < blk->nrows; r++) {
		const struct cmp_row *row = &blk->rows[r];
		json_t *cols;

		if (!result_thp_row(row) || !(cols = json_array()))
			continue;
		for (size_t c = 0; c < s->ncols; c++)
			if (row->cells[c].n && thp_cell(&row->cells[c], envs))
				json_array_append_new(cols, json_string(s->cols[c]));
		if (json_array_size(cols))
			json_array_append_new(out, json_pack("{s:s, s:s, s:o}", "resultclass", row->rclass, "unit",
							     row->unit, "columns", cols));
		else
			json_decref(cols);
	}
	return out;
}
