/* kernels: the one table of zeroing strategies; a new strategy is one row here plus its function. */
#include "kernels/kernels.h"
#include "kernels/cpu.h"
#include "kernels/impl.h"

#include <string.h>

/* Rows of other architectures stay in the table (fn NULL) so -f help lists them everywhere. */
#if defined(__x86_64__)
#define X86(x) x
#else
#define X86(x) NULL
#endif
#if defined(__aarch64__)
#define ARM64(x) x
#else
#define ARM64(x) NULL
#endif

static const struct kern_strategy kern_table[] = {
	{ "default", "Default memset() provided by libc", NULL, false, false, memset, NULL, NULL },
	{ "x86-64-unrolled", "unrolled 8x8-byte movq stores, like memset_orig in arch/x86/lib/memset_64.S",
	  "x86-64", false, false, X86(kern_x86_unrolled), NULL, NULL },
	{ "x86-64-stosq", "rep stosq, like __memset in arch/x86/lib/memset_64.S",
	  "x86-64", false, false, X86(kern_x86_stosq), NULL, X86(kern_x86_note_rep) },
	{ "x86-64-stosb", "rep stosb, like memset_erms in arch/x86/lib/memset_64.S",
	  "x86-64", false, false, X86(kern_x86_stosb), NULL, X86(kern_x86_note_rep) },
	{ "c-loop", "plain C byte/word stores; the compiler may vectorise them",
	  NULL, false, false, kern_c_loop, NULL, NULL },
	{ "x86-64-movnti", "SSE2 non-temporal 8-byte movnti stores, sfence at the end",
	  "x86-64", false, true, X86(kern_x86_movnti), NULL, NULL },
	{ "x86-64-nt-avx2", "AVX2 32-byte vmovntdq streaming stores, sfence at the end",
	  "x86-64", false, true, X86(kern_x86_nt_avx2), X86(kern_x86_check_avx2), NULL },
	{ "x86-64-nt-avx512", "AVX-512 64-byte vmovntdq streaming stores, sfence at the end",
	  "x86-64", false, true, X86(kern_x86_nt_avx512), X86(kern_x86_check_avx512), NULL },
	{ "x86-64-clzero", "AMD clzero, one cache line per instruction, sfence at the end",
	  "x86-64", true, true, X86(kern_x86_clzero), X86(kern_x86_check_clzero), NULL },
	{ "arm64-dc-zva", "dc zva per DCZID_EL0 block, like arm64 clear_page()",
	  "arm64", true, false, ARM64(kern_arm64_dc_zva), ARM64(kern_arm64_check_dczva), NULL },
	{ "arm64-stnp", "non-temporal stnp pairs, 64 bytes per loop (the kernel's fallback)",
	  "arm64", false, true, ARM64(kern_arm64_stnp), NULL, NULL },
	{ "arm64-stp", "plain stp pairs, 64 bytes per loop",
	  "arm64", false, false, ARM64(kern_arm64_stp), NULL, NULL },
	{ "arm64-mops", "FEAT_MOPS setp/setm/sete",
	  "arm64", false, false, ARM64(kern_arm64_mops), ARM64(kern_arm64_check_mops), NULL },
	{ "arm64-mops-nt", "FEAT_MOPS setpn/setmn/seten (non-temporal hint)",
	  "arm64", false, true, ARM64(kern_arm64_mops_nt), ARM64(kern_arm64_check_mops), NULL },
};

size_t kern_count(void)
{
	return sizeof(kern_table) / sizeof(kern_table[0]);
}

const struct kern_strategy *kern_at(size_t i)
{
	return i < kern_count() ? &kern_table[i] : NULL;
}

const struct kern_strategy *kern_find(const char *name)
{
	for (size_t i = 0; i < kern_count(); i++)
		if (!strcmp(kern_table[i].name, name))
			return &kern_table[i];
	return NULL;
}

const char *kern_note(const struct kern_strategy *s)
{
	return s->fn && s->note ? s->note(cpu_features()) : NULL;
}

const char *kern_why_not(const struct kern_strategy *s)
{
	if (!s->fn)
		return s->arch && !strcmp(s->arch, "arm64") ? "arm64 only" : "x86-64 only";
	return s->check ? s->check(cpu_features()) : NULL;
}
