/* x86_64_copy: copy strategies in x86-64 instructions (rep movs, unrolled movq, non-temporal stores). */
#if defined(__x86_64__)
#include "kernels/impl.h"
#include "kernels/cpu.h"

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

void *kern_x86_movsb(void *dst, const void *src, size_t n)
{
	void *d = dst;

	__asm__ volatile("rep movsb" : "+D"(d), "+S"(src), "+c"(n) : : "memory");
	return dst;
}

void *kern_x86_movsq(void *dst, const void *src, size_t n)
{
	void *d = dst;
	size_t q = n >> 3;

	/* Quadwords first, then the 0..7 byte remainder, as the kernel's __memcpy. */
	__asm__ volatile("rep movsq\n\t"
			 "movl %k[rem], %%ecx\n\t"
			 "rep movsb"
			 : "+D"(d), "+S"(src), "+c"(q)
			 : [rem] "r"(n & 7)
			 : "memory");
	return dst;
}

/* Four quadwords loaded, then stored with @insn (movq or movnti), at byte offset @off. */
#define X86_COPY32(insn, off)                                                                    \
	"movq " #off "+0(%[s]), %[a]\n\tmovq " #off "+8(%[s]), %[b]\n\t"                        \
	"movq " #off "+16(%[s]), %[c]\n\tmovq " #off "+24(%[s]), %[e]\n\t"                      \
	insn " %[a], " #off "+0(%[d])\n\t" insn " %[b], " #off "+8(%[d])\n\t"                   \
	insn " %[c], " #off "+16(%[d])\n\t" insn " %[e], " #off "+24(%[d])\n\t"

void *kern_x86_unrolled_copy(void *dst, const void *src, size_t n)
{
	char *d = dst;
	const char *s = src;
	uint64_t a, b, c, e;

	/* 32 bytes per loop through four registers, as the kernel's memcpy_orig. */
	for (; n >= 32; n -= 32, d += 32, s += 32)
		__asm__ volatile(X86_COPY32("movq", 0)
				 : [a] "=&r"(a), [b] "=&r"(b), [c] "=&r"(c), [e] "=&r"(e)
				 : [s] "r"(s), [d] "r"(d) : "memory");
	for (; n >= 8; n -= 8, d += 8, s += 8)
		__asm__ volatile("movq (%[s]), %[a]\n\tmovq %[a], (%[d])"
				 : [a] "=&r"(a) : [s] "r"(s), [d] "r"(d) : "memory");
	for (; n; n--, d++, s++)
		__asm__ volatile("movb (%[s]), %b[a]\n\tmovb %b[a], (%[d])"
				 : [a] "=&q"(a) : [s] "r"(s), [d] "r"(d) : "memory");
	return dst;
}

void *kern_x86_movnti_copy(void *dst, const void *src, size_t n)
{
	char *d = dst;
	const char *s = src;
	uint64_t a, b, c, e;

	/* Whole destination lines only are streamed, as the fill does. */
	n = kern_copy_head(&d, &s, 64, n);
	for (; n >= 64; n -= 64, d += 64, s += 64)
		__asm__ volatile(X86_COPY32("movnti", 0) X86_COPY32("movnti", 32)
				 : [a] "=&r"(a), [b] "=&r"(b), [c] "=&r"(c), [e] "=&r"(e)
				 : [s] "r"(s), [d] "r"(d) : "memory");
	memcpy(d, s, n);
	_mm_sfence();	/* order the weakly-ordered streaming stores before any later store */
	return dst;
}

__attribute__((target("avx2")))
void *kern_x86_nt_avx2_copy(void *dst, const void *src, size_t n)
{
	char *d = dst;
	const char *s = src;

	n = kern_copy_head(&d, &s, 64, n);
	for (; n >= 128; n -= 128, d += 128, s += 128)
		for (unsigned i = 0; i < 128; i += 32)
			_mm256_stream_si256((__m256i *)(void *)(d + i),
					    _mm256_loadu_si256((const __m256i *)(const void *)(s + i)));
	for (; n >= 32; n -= 32, d += 32, s += 32)
		_mm256_stream_si256((__m256i *)(void *)d, _mm256_loadu_si256((const __m256i *)(const void *)s));
	memcpy(d, s, n);
	_mm_sfence();
	return dst;
}

__attribute__((target("avx512f")))
void *kern_x86_nt_avx512_copy(void *dst, const void *src, size_t n)
{
	char *d = dst;
	const char *s = src;

	n = kern_copy_head(&d, &s, 64, n);
	for (; n >= 256; n -= 256, d += 256, s += 256)
		for (unsigned i = 0; i < 256; i += 64)
			_mm512_stream_si512((void *)(d + i), _mm512_loadu_si512((const void *)(s + i)));
	for (; n >= 64; n -= 64, d += 64, s += 64)
		_mm512_stream_si512((void *)d, _mm512_loadu_si512((const void *)s));
	memcpy(d, s, n);
	_mm_sfence();
	return dst;
}
#endif
