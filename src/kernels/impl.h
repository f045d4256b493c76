/* impl: declarations of the per-architecture fill and copy functions behind the kernels tables. */
#ifndef CLEARPATH_KERNELS_IMPL_H
#define CLEARPATH_KERNELS_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct cpu_features;

/* @c repeated in every byte of a quadword: what a 64-bit store writes for memset(p, c, n). */
static inline uint64_t kern_pattern(int c)
{
	return 0x0101010101010101ULL * (unsigned char)c;
}

/* Bytes to the next @align boundary, capped at @n: the head done with plain stores. */
static inline size_t kern_head(const void *p, size_t align, size_t n)
{
	size_t h = (size_t)(-(uintptr_t)p & (align - 1));

	return h < n ? h : n;
}

/*
 * Copy the head up to *@d's next @align boundary with memcpy and move both
 * pointers past it: what a loop of whole destination lines leaves out.
 * Returns the bytes left.
 */
static inline size_t kern_copy_head(char **d, const char **s, size_t align, size_t n)
{
	size_t h = kern_head(*d, align, n);

	memcpy(*d, *s, h);
	*d += h;
	*s += h;
	return n - h;
}

void *kern_c_loop(void *p, int c, size_t n);
void *kern_c_copy(void *dst, const void *src, size_t n);

#if defined(__x86_64__)
void *kern_x86_stosb(void *p, int c, size_t n);
void *kern_x86_stosq(void *p, int c, size_t n);
void *kern_x86_unrolled(void *p, int c, size_t n);
void *kern_x86_movnti(void *p, int c, size_t n);
void *kern_x86_nt_avx2(void *p, int c, size_t n);
void *kern_x86_nt_avx512(void *p, int c, size_t n);
void *kern_x86_clzero(void *p, int c, size_t n);
void *kern_x86_movsb(void *dst, const void *src, size_t n);
void *kern_x86_movsq(void *dst, const void *src, size_t n);
void *kern_x86_unrolled_copy(void *dst, const void *src, size_t n);
void *kern_x86_movnti_copy(void *dst, const void *src, size_t n);
void *kern_x86_nt_avx2_copy(void *dst, const void *src, size_t n);
void *kern_x86_nt_avx512_copy(void *dst, const void *src, size_t n);
const char *kern_x86_check_avx2(const struct cpu_features *cpu);
const char *kern_x86_check_avx512(const struct cpu_features *cpu);
const char *kern_x86_check_clzero(const struct cpu_features *cpu);
const char *kern_x86_note_rep(const struct cpu_features *cpu);
#endif

#if defined(__aarch64__)
void *kern_arm64_dc_zva(void *p, int c, size_t n);
void *kern_arm64_stnp(void *p, int c, size_t n);
void *kern_arm64_stp(void *p, int c, size_t n);
void *kern_arm64_mops(void *p, int c, size_t n);
void *kern_arm64_mops_nt(void *p, int c, size_t n);
void *kern_arm64_stnp_copy(void *dst, const void *src, size_t n);
void *kern_arm64_stp_copy(void *dst, const void *src, size_t n);
void *kern_arm64_mops_copy(void *dst, const void *src, size_t n);
void *kern_arm64_mops_nt_copy(void *dst, const void *src, size_t n);
const char *kern_arm64_check_dczva(const struct cpu_features *cpu);
const char *kern_arm64_check_mops(const struct cpu_features *cpu);
#endif

#endif
