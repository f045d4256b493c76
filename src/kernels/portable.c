/* portable: the fill and copy strategies written in plain C, for every architecture. */
#include "kernels/impl.h"

#include <stdint.h>

/*
 * The compiler must not turn these loops back into memset() or memcpy()
 * calls, or "c-loop" would silently measure libc again: GCC's
 * loop-distribution pass and clang's loop-idiom recogniser both do exactly
 * that.
 */
#if defined(__clang__)
#define KERN_NO_LIBC_IDIOM(fn) __attribute__((no_builtin(fn)))
#elif defined(__GNUC__)
#define KERN_NO_LIBC_IDIOM(fn) __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define KERN_NO_LIBC_IDIOM(fn)
#endif

/* A quadword at any alignment (the source of a copy need not share the destination's). */
typedef uint64_t __attribute__((aligned(1), may_alias)) kern_u64_any;

KERN_NO_LIBC_IDIOM("memset")
void *kern_c_loop(void *p, int c, size_t n)
{
	unsigned char *d = p;
	uint64_t v = 0x0101010101010101ULL * (unsigned char)c;

	for (; n && ((uintptr_t)d & 7); n--)
		*d++ = (unsigned char)c;
	for (; n >= 8; n -= 8, d += 8)
		*(uint64_t *)(void *)d = v;
	for (; n; n--)
		*d++ = (unsigned char)c;
	return p;
}

KERN_NO_LIBC_IDIOM("memcpy")
void *kern_c_copy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	/* aligned stores, as the fill; the loads take the source as it comes */
	for (; n && ((uintptr_t)d & 7); n--)
		*d++ = *s++;
	for (; n >= 8; n -= 8, d += 8, s += 8)
		*(uint64_t *)(void *)d = *(const kern_u64_any *)(const void *)s;
	for (; n; n--)
		*d++ = *s++;
	return dst;
}
