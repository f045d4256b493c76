/* cache: which rows of a view clear buffers their machine's last-level cache holds, so their rates measure the cache. */
#include "result/result.h"
#include "util/identity.h"
#include "util/size.h"

#include <string.h>

/* The fingerprint of SUT class @name in @suts (store_list_suts), or NULL. */
static const json_t *cache_fingerprint(const json_t *suts, const char *name)
{
	size_t i;
	json_t *s;

	json_array_foreach(suts, i, s) {
		const char *n = json_string_value(json_object_get(s, "name"));

		if (n && name && !strcmp(n, name))
			return json_object_get(s, "fingerprint");
	}
	return NULL;
}

/* The bytes of @row's buffer (its benchmark's size parameter), 0 when it has none. */
static uint64_t cache_buffer(const struct result_row *row)
{
	const char *size = row->src && row->src->ident ? ident_value(row->src->ident, "size") : NULL;
	uint64_t bytes;

	return size && !size_parse(size, &bytes) ? bytes : 0;
}

void result_view_cache(struct result_view *v, const json_t *suts)
{
	for (size_t b = 0; b < v->nblocks; b++) {
		struct result_block *blk = &v->blocks[b];
		const json_t *fp = cache_fingerprint(suts, v->set->blocks[b].sut);
		json_int_t llc = json_integer_value(json_object_get(fp, "llc_bytes"));

		blk->llc = llc > 0 ? (uint64_t)llc : 0;
		blk->llc_level = (unsigned)json_integer_value(json_object_get(fp, "llc_level"));
		for (size_t r = 0; r < blk->nrows; r++) {
			struct result_row *row = &blk->rows[r];

			row->buffer = cache_buffer(row);
			/* a --profile share is no rate of the buffer: where the time goes, whatever holds it */
			row->cache_resident = blk->llc && row->buffer && row->buffer <= blk->llc &&
					      !(row->src->ident && ident_profile_symbol(row->src->ident->metric));
		}
	}
}
