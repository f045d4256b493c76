/* arm64_copy: copy strategies in AArch64 instructions (ldp with stnp or stp, FEAT_MOPS cpyf*). */
#if defined(__aarch64__)
#include "kernels/impl.h"

#include <stdint.h>
#include <string.h>

/*
 * ldp loads feeding stnp or stp stores, 64 bytes per loop: the fills'
 * counterparts, differing from each other in the store instruction only.
 */
#define A64_PAIR_COPY(name, insn)                                                              \
	void *name(void *dst, const void *src, size_t n)                                       \
	{                                                                                      \
		char *d = dst;                                                                 \
		const char *s = src;                                                           \
		uint64_t a, b, c, e;                                                           \
                                                                                               \
		n = kern_copy_head(&d, &s, 64, n);                                             \
		for (; n >= 64; n -= 64, d += 64, s += 64)                                     \
			__asm__ volatile("ldp %[a], %[b], [%[s]]\n\tldp %[c], %[e], [%[s], #16]\n\t" \
					 insn " %[a], %[b], [%[d]]\n\t" insn " %[c], %[e], [%[d], #16]\n\t" \
					 "ldp %[a], %[b], [%[s], #32]\n\tldp %[c], %[e], [%[s], #48]\n\t" \
					 insn " %[a], %[b], [%[d], #32]\n\t" insn " %[c], %[e], [%[d], #48]" \
					 : [a] "=&r"(a), [b] "=&r"(b), [c] "=&r"(c), [e] "=&r"(e)        \
					 : [s] "r"(s), [d] "r"(d) : "memory");                           \
		memcpy(d, s, n);                                                               \
		return dst;                                                                    \
	}

A64_PAIR_COPY(kern_arm64_stnp_copy, "stnp")
A64_PAIR_COPY(kern_arm64_stp_copy, "stp")

/*
 * FEAT_MOPS forward copy (memcpy's contract: no overlap): the
 * prologue/main/epilogue triple stays together with the same registers.
 * @wn is "" for CPYFP/CPYFM/CPYFE, "wn" for the non-temporal-write forms,
 * the counterpart of the fills' SETPN.
 */
#define A64_MOPS_COPY(name, wn)                                                  \
	void *name(void *dst, const void *src, size_t n)                          \
	{                                                                         \
		char *d = dst;                                                    \
		const char *s = src;                                              \
                                                                                  \
		__asm__ volatile(".arch_extension mops\n\t"                      \
				 "cpyfp" wn " [%0]!, [%1]!, %2!\n\t"               \
				 "cpyfm" wn " [%0]!, [%1]!, %2!\n\t"               \
				 "cpyfe" wn " [%0]!, [%1]!, %2!"                    \
				 : "+r"(d), "+r"(s), "+r"(n) : : "memory", "cc");   \
		return dst;                                                       \
	}

A64_MOPS_COPY(kern_arm64_mops_copy, "")
A64_MOPS_COPY(kern_arm64_mops_nt_copy, "wn")
#endif
