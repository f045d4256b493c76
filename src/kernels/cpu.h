/* cpu: runtime detection of the CPU features the zeroing strategies depend on. */
#ifndef CLEARPATH_KERNELS_CPU_H
#define CLEARPATH_KERNELS_CPU_H

#include <stdbool.h>

struct cpu_features {
	/* x86-64 (CPUID; AVX state checked against XCR0 so the OS really saves it) */
	bool erms;		/* enhanced rep movsb/stosb */
	bool fsrm;		/* fast short rep mov */
	bool avx2;
	bool avx512f;
	bool clzero;		/* AMD: zero one cache line */
	/* arm64 */
	unsigned dczva_block;	/* bytes zeroed by one dc zva; 0 when not readable */
	bool dczva_prohibited;	/* DCZID_EL0.DZP: dc zva would fault */
	bool mops;		/* FEAT_MOPS, from HWCAP2_MOPS */
};

/* Detect once and cache; never fails (unknown features read as absent). */
const struct cpu_features *cpu_features(void);

#endif
