/* impl: declarations of the per-architecture strategy functions behind the kernels table. */
#ifndef CLEARPATH_KERNELS_IMPL_H
#define CLEARPATH_KERNELS_IMPL_H

#include <stddef.h>
#include <stdint.h>

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

void *kern_c_loop(void *p, int c, size_t n);

#if defined(__x86_64__)
void *kern_x86_stosb(void *p, int c, size_t n);
void *kern_x86_stosq(void *p, int c, size_t n);
void *kern_x86_unrolled(void *p, int c, size_t n);
void *kern_x86_movnti(void *p, int c, size_t n);
void *kern_x86_nt_avx2(void *p, int c, size_t n);
void *kern_x86_nt_avx512(void *p, int c, size_t n);
void *kern_x86_clzero(void *p, int c, size_t n);
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
const char *kern_arm64_check_dczva(const struct cpu_features *cpu);
const char *kern_arm64_check_mops(const struct cpu_features *cpu);
#endif

#endif
