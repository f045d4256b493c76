/* env: warn under a table when its columns ran with different settings (THP, governor, pools, cmdline). */
#include "result/env.h"
#include "doctor/doctor.h"

#include <stddef.h>
#include <stdlib.h>

/* The settings snapshot of the first session found in column @c of @blk, or NULL. */
static const json_t *env_of(const struct cmp_block *blk, size_t c, const json_t *envs)
{
	for (size_t r = 0; r < blk->nrows; r++) {
		const struct cmp_cell *cell = &blk->rows[r].cells[c];

		for (size_t u = 0; u < cell->nuuids; u++) {
			const json_t *env = json_object_get(envs, cell->uuids[u]);
			const json_t *settings = json_object_get(env, "settings");

			if (json_is_object(settings))
				return settings;
		}
	}
	return NULL;
}

json_t *result_env_diffs(const struct cmp_set *s, const struct cmp_block *blk, const json_t *envs)
{
	const json_t *base = envs ? env_of(blk, s->base, envs) : NULL;
	json_t *out = json_array();

	for (size_t c = 0; base && out && c < s->ncols; c++) {
		const json_t *env = c == s->base ? NULL : env_of(blk, c, envs);
		json_t *diff = env ? doctor_snapshot_diff(base, env) : NULL;
		size_t i;
		json_t *d;

		json_array_foreach(diff, i, d)
			json_array_append_new(out, json_pack("{s:s, s:O, s:O?, s:O?}", "column", s->cols[c],
							     "setting", json_object_get(d, "setting"),
							     "base", json_object_get(d, "a"),
							     "value", json_object_get(d, "b")));
		json_decref(diff);
	}
	return out;
}

json_t *result_env_index(const json_t *sessions)
{
	json_t *envs = json_object(), *s;
	size_t i;

	json_array_foreach(sessions, i, s) {
		const char *uuid = json_string_value(json_object_get(s, "uuid"));
		json_t *env = json_object_get(s, "environment");

		if (envs && uuid && json_is_object(env))
			json_object_set(envs, uuid, env);
	}
	return envs;
}
