/* cpu: runtime detection of the CPU features the zeroing strategies depend on. */
#include "kernels/cpu.h"

#include <stdint.h>

#if defined(__x86_64__)
#include <cpuid.h>

/* XCR0 says which register state the OS saves on context switch. */
static uint64_t cpu_xgetbv0(void)
{
	uint32_t lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

static void cpu_detect(struct cpu_features *f)
{
	unsigned a, b, c, d;
	uint64_t xcr0 = 0;

	if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_OSXSAVE))
		xcr0 = cpu_xgetbv0();
	if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
		bool ymm = (xcr0 & 0x6) == 0x6;		/* SSE + AVX state */
		bool zmm = (xcr0 & 0xe6) == 0xe6;	/* + opmask, ZMM_Hi256, Hi16_ZMM */

		f->erms = b & (1u << 9);
		f->fsrm = d & (1u << 4);
		f->avx2 = ymm && (b & (1u << 5));
		f->avx512f = zmm && (b & (1u << 16));
	}
	if (__get_cpuid(0x80000000, &a, &b, &c, &d) && a >= 0x80000008 &&
	    __get_cpuid(0x80000008, &a, &b, &c, &d))
		f->clzero = b & 1u;
}

#elif defined(__aarch64__)
#include <sys/auxv.h>

#ifndef HWCAP2_MOPS
#define HWCAP2_MOPS (1UL << 43)
#endif

static void cpu_detect(struct cpu_features *f)
{
	uint64_t dczid;

	/* DCZID_EL0 is readable from EL0 by architecture. */
	__asm__ volatile("mrs %0, dczid_el0" : "=r"(dczid));
	f->dczva_prohibited = dczid & (1u << 4);
	f->dczva_block = 4u << (dczid & 0xf);
	f->mops = getauxval(AT_HWCAP2) & HWCAP2_MOPS;
}

#else
static void cpu_detect(struct cpu_features *f)
{
	(void)f;
}
#endif

const struct cpu_features *cpu_features(void)
{
	static struct cpu_features f;
	static bool done;

	/* Detection is idempotent, so a racing second caller only repeats it. */
	if (!done) {
		cpu_detect(&f);
		done = true;
	}
	return &f;
}
