/* portable: the strategy written in plain C, for every architecture. */
#include "kernels/impl.h"

#include <stdint.h>

/*
 * The compiler must not turn this loop back into a memset() call, or
 * "c-loop" would silently measure libc again: GCC's loop-distribution pass
 * and clang's loop-idiom recogniser both do exactly that.
 */
#if defined(__clang__)
#define KERN_NO_MEMSET_IDIOM __attribute__((no_builtin("memset")))
#elif defined(__GNUC__)
#define KERN_NO_MEMSET_IDIOM __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define KERN_NO_MEMSET_IDIOM
#endif

KERN_NO_MEMSET_IDIOM
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
