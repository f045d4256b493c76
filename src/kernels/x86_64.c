/* x86_64: zeroing strategies in x86-64 instructions (rep stos, unrolled movq, non-temporal, clzero). */
#if defined(__x86_64__)
#include "kernels/impl.h"
#include "kernels/cpu.h"

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

/*
 * One 64-byte line as eight quadword stores of %1 at %0 with @insn (movq or
 * movnti): the unrolled and the non-temporal loop differ only in it.
 */
#define X86_LINE_OF(insn)                                                               \
	insn " %1, 0(%0)\n\t" insn " %1, 8(%0)\n\t" insn " %1, 16(%0)\n\t"              \
	insn " %1, 24(%0)\n\t" insn " %1, 32(%0)\n\t" insn " %1, 40(%0)\n\t"           \
	insn " %1, 48(%0)\n\t" insn " %1, 56(%0)"

void *kern_x86_stosb(void *p, int c, size_t n)
{
	void *d = p;

	__asm__ volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
	return p;
}

void *kern_x86_stosq(void *p, int c, size_t n)
{
	void *d = p;
	size_t q = n >> 3;

	/* Quadwords first, then the 0..7 byte remainder, as the kernel's __memset. */
	__asm__ volatile("rep stosq\n\t"
			 "movl %k[rem], %%ecx\n\t"
			 "rep stosb"
			 : "+D"(d), "+c"(q)
			 : "a"(kern_pattern(c)), [rem] "r"(n & 7)
			 : "memory");
	return p;
}

void *kern_x86_unrolled(void *p, int c, size_t n)
{
	uint64_t v = kern_pattern(c);
	char *d = p;

	/* One unaligned quadword covers the head, then everything is 8-byte aligned. */
	if (n >= 8 && ((uintptr_t)d & 7)) {
		size_t adv = 8 - ((uintptr_t)d & 7);

		__asm__ volatile("movq %1, (%0)" : : "r"(d), "r"(v) : "memory");
		d += adv;
		n -= adv;
	}
	for (; n >= 64; n -= 64, d += 64)
		__asm__ volatile(X86_LINE_OF("movq") : : "r"(d), "r"(v) : "memory");
	for (; n >= 8; n -= 8, d += 8)
		__asm__ volatile("movq %1, (%0)" : : "r"(d), "r"(v) : "memory");
	for (; n; n--, d++)
		__asm__ volatile("movb %b1, (%0)" : : "r"(d), "q"(c) : "memory");
	return p;
}

void *kern_x86_movnti(void *p, int c, size_t n)
{
	uint64_t v = kern_pattern(c);
	char *d = p;
	size_t h = kern_head(d, 64, n);

	/* Stream whole cache lines only; partial lines would be read for ownership anyway. */
	memset(d, c, h);
	d += h;
	n -= h;
	for (; n >= 64; n -= 64, d += 64)
		__asm__ volatile(X86_LINE_OF("movnti") : : "r"(d), "r"(v) : "memory");
	memset(d, c, n);
	_mm_sfence();	/* order the weakly-ordered streaming stores before any later store */
	return p;
}

__attribute__((target("avx2")))
void *kern_x86_nt_avx2(void *p, int c, size_t n)
{
	__m256i v = _mm256_set1_epi8((char)c);
	char *d = p;
	size_t h = kern_head(d, 64, n);

	memset(d, c, h);
	d += h;
	n -= h;
	for (; n >= 128; n -= 128, d += 128) {
		_mm256_stream_si256((__m256i *)(void *)d, v);
		_mm256_stream_si256((__m256i *)(void *)(d + 32), v);
		_mm256_stream_si256((__m256i *)(void *)(d + 64), v);
		_mm256_stream_si256((__m256i *)(void *)(d + 96), v);
	}
	for (; n >= 32; n -= 32, d += 32)
		_mm256_stream_si256((__m256i *)(void *)d, v);
	memset(d, c, n);
	_mm_sfence();
	return p;
}

__attribute__((target("avx512f")))
void *kern_x86_nt_avx512(void *p, int c, size_t n)
{
	__m512i v = _mm512_set1_epi32((int)(0x01010101u * (unsigned char)c));
	char *d = p;
	size_t h = kern_head(d, 64, n);

	memset(d, c, h);
	d += h;
	n -= h;
	for (; n >= 256; n -= 256, d += 256) {
		_mm512_stream_si512((void *)d, v);
		_mm512_stream_si512((void *)(d + 64), v);
		_mm512_stream_si512((void *)(d + 128), v);
		_mm512_stream_si512((void *)(d + 192), v);
	}
	for (; n >= 64; n -= 64, d += 64)
		_mm512_stream_si512((void *)d, v);
	memset(d, c, n);
	_mm_sfence();
	return p;
}

void *kern_x86_clzero(void *p, int c, size_t n)
{
	char *d = p;
	size_t h = kern_head(d, 64, n);

	(void)c;	/* clzero can only write zeros: the table marks it zero_only */
	memset(d, 0, h);
	d += h;
	n -= h;
	for (; n >= 64; n -= 64, d += 64)
		__asm__ volatile(".byte 0x0f, 0x01, 0xfc" /* clzero (%rax) */
				 : : "a"(d) : "memory");
	memset(d, 0, n);
	_mm_sfence();	/* clzero stores are weakly ordered like streaming stores */
	return p;
}

const char *kern_x86_check_avx2(const struct cpu_features *cpu)
{
	return cpu->avx2 ? NULL : "needs AVX2 (CPU or OS lacks it)";
}

const char *kern_x86_check_avx512(const struct cpu_features *cpu)
{
	return cpu->avx512f ? NULL : "needs AVX-512F (CPU or OS lacks it)";
}

/* rep stos is microcoded: ERMS makes it fast for large sizes, FSRM (strictly for movs) for short ones. */
const char *kern_x86_note_rep(const struct cpu_features *cpu)
{
	if (cpu->erms && cpu->fsrm)
		return "this CPU has ERMS and FSRM";
	if (cpu->erms)
		return "this CPU has ERMS, no FSRM";
	return "no ERMS here: rep stos takes the slow microcode path";
}

const char *kern_x86_check_clzero(const struct cpu_features *cpu)
{
	return cpu->clzero ? NULL : "needs CLZERO (AMD Zen and later)";
}
#endif
