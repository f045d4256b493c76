/* arm64: zeroing strategies in AArch64 instructions (dc zva, stnp, stp, FEAT_MOPS). */
#if defined(__aarch64__)
#include "kernels/impl.h"
#include "kernels/cpu.h"

#include <stdint.h>
#include <string.h>

void *kern_arm64_dc_zva(void *p, int c, size_t n)
{
	size_t block = cpu_features()->dczva_block;
	char *d = p;
	size_t h = kern_head(d, block, n);

	(void)c;	/* dc zva only writes zeros: the table marks it zero_only */
	memset(d, 0, h);
	d += h;
	n -= h;
	for (; n >= block; n -= block, d += block)
		__asm__ volatile("dc zva, %0" : : "r"(d) : "memory");
	memset(d, 0, n);
	return p;
}

/*
 * stnp and stp differ only in the pair-store instruction: a non-temporal
 * hint or none.  One body keeps the two measured loops identical otherwise,
 * so a difference in their rates is the hint's alone.
 */
#define A64_PAIR_FILL(name, insn)                                                            \
	void *name(void *p, int c, size_t n)                                                  \
	{                                                                                     \
		uint64_t v = kern_pattern(c);                                                  \
		char *d = p;                                                                  \
		size_t h = kern_head(d, 64, n);                                                \
                                                                                              \
		memset(d, c, h);                                                              \
		d += h;                                                                       \
		n -= h;                                                                       \
		for (; n >= 64; n -= 64, d += 64)                                             \
			__asm__ volatile(insn " %1, %1, [%0]\n\t" insn " %1, %1, [%0, #16]\n\t" \
					 insn " %1, %1, [%0, #32]\n\t" insn " %1, %1, [%0, #48]"  \
					 : : "r"(d), "r"(v) : "memory");                      \
		memset(d, c, n);                                                              \
		return p;                                                                     \
	}

A64_PAIR_FILL(kern_arm64_stnp, "stnp")
A64_PAIR_FILL(kern_arm64_stp, "stp")

/*
 * FEAT_MOPS: the prologue/main/epilogue triple must stay together with the
 * same registers.  @nt is "" for SETP/SETM/SETE, "n" for the non-temporal
 * SETPN/SETMN/SETEN.
 */
#define A64_MOPS_FILL(name, nt)                                                  \
	void *name(void *p, int c, size_t n)                                      \
	{                                                                         \
		char *d = p;                                                      \
		uint64_t v = (unsigned char)c;                                    \
                                                                                  \
		__asm__ volatile(".arch_extension mops\n\t"                      \
				 "setp" nt " [%0]!, %1!, %2\n\t"                   \
				 "setm" nt " [%0]!, %1!, %2\n\t"                   \
				 "sete" nt " [%0]!, %1!, %2"                        \
				 : "+r"(d), "+r"(n) : "r"(v) : "memory", "cc");     \
		return p;                                                         \
	}

A64_MOPS_FILL(kern_arm64_mops, "")
A64_MOPS_FILL(kern_arm64_mops_nt, "n")

const char *kern_arm64_check_dczva(const struct cpu_features *cpu)
{
	if (cpu->dczva_prohibited)
		return "dc zva prohibited here (DCZID_EL0.DZP is set)";
	if (cpu->dczva_block < 16 || cpu->dczva_block > 2048)
		return "dc zva block size from DCZID_EL0 is out of range";
	return NULL;
}

const char *kern_arm64_check_mops(const struct cpu_features *cpu)
{
	return cpu->mops ? NULL : "needs FEAT_MOPS (HWCAP2_MOPS not set)";
}
#endif
