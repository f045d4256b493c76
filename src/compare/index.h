/* index: an open-addressing hash index from keys to array positions, so grouping samples stays linear. */
#ifndef CLEARPATH_COMPARE_INDEX_H
#define CLEARPATH_COMPARE_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The index holds only (hash, position) pairs: the caller keeps the keys in
 * its own arrays and says, through @eq, whether position @pos holds @key.
 * Zeroed memory is an empty index.
 */
struct cmp_index {
	struct cmp_index_slot *slots;
	size_t cap, n;
};

#define CMP_INDEX_NONE SIZE_MAX

/* FNV-1a of @s, continuing from @h (start from CMP_HASH_SEED); a 0 byte separates chained strings. */
#define CMP_HASH_SEED 14695981039346656037ULL
uint64_t cmp_hash(uint64_t h, const char *s);

/* The position whose key @eq finds equal to @key, or CMP_INDEX_NONE. */
size_t cmp_index_find(const struct cmp_index *ix, uint64_t hash, bool (*eq)(size_t pos, const void *key),
		      const void *key);

/* Record that position @pos has a key hashing to @hash; 0 or -ENOMEM. */
int cmp_index_add(struct cmp_index *ix, uint64_t hash, size_t pos);

void cmp_index_free(struct cmp_index *ix);

#endif
