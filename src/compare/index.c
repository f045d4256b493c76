/* index: an open-addressing hash index from keys to array positions, so grouping samples stays linear. */
#include "compare/index.h"

#include <errno.h>
#include <stdlib.h>

struct cmp_index_slot {
	uint64_t hash;
	size_t pos1;	/* position + 1; 0 is an empty slot */
};

uint64_t cmp_hash(uint64_t h, const char *s)
{
	do {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	} while (*s++);
	return h;
}

size_t cmp_index_find(const struct cmp_index *ix, uint64_t hash, bool (*eq)(size_t pos, const void *key),
		      const void *key)
{
	if (!ix->cap)
		return CMP_INDEX_NONE;
	for (size_t i = hash & (ix->cap - 1);; i = (i + 1) & (ix->cap - 1)) {
		const struct cmp_index_slot *sl = &ix->slots[i];

		if (!sl->pos1)
			return CMP_INDEX_NONE;
		if (sl->hash == hash && eq(sl->pos1 - 1, key))
			return sl->pos1 - 1;
	}
}

static void cmp_index_put(struct cmp_index_slot *slots, size_t cap, uint64_t hash, size_t pos1)
{
	size_t i = hash & (cap - 1);

	while (slots[i].pos1)
		i = (i + 1) & (cap - 1);
	slots[i] = (struct cmp_index_slot){ hash, pos1 };
}

/* Keep the load under a half, so probes stay short. */
static int cmp_index_grow(struct cmp_index *ix)
{
	size_t cap = ix->cap ? ix->cap * 2 : 16;
	struct cmp_index_slot *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < ix->cap; i++)
		if (ix->slots[i].pos1)
			cmp_index_put(slots, cap, ix->slots[i].hash, ix->slots[i].pos1);
	free(ix->slots);
	ix->slots = slots;
	ix->cap = cap;
	return 0;
}

int cmp_index_add(struct cmp_index *ix, uint64_t hash, size_t pos)
{
	if (2 * (ix->n + 1) > ix->cap && cmp_index_grow(ix))
		return -ENOMEM;
	cmp_index_put(ix->slots, ix->cap, hash, pos + 1);
	ix->n++;
	return 0;
}

void cmp_index_free(struct cmp_index *ix)
{
	free(ix->slots);
	*ix = (struct cmp_index){ 0 };
}
