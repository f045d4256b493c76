/* kernels: the tables of fill and copy strategies; a new strategy is one row here plus its function. */
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

/* Which of perf's -f all a row is in: perf's, or clearpath's own (-f all+ only). */
#define PERF true
#define OWN false

/*
 * A row: -f name, description, architecture, PERF or OWN, zero-only,
 * non-temporal, the function, why this CPU cannot run it, what it offers it.
 */
#define FILL(name, desc, arch, perf, zero, nt, fn, check, note) \
	{ name, desc, arch, perf, zero, nt, fn, NULL, check, note }
#define COPY(name, desc, arch, perf, nt, fn, check, note) \
	{ name, desc, arch, perf, false, nt, NULL, fn, check, note }

/*
 * perf's rows come first, in perf's order and with perf's descriptions
 * (tools/perf/bench/mem-functions.c, mem-memset-x86-64-asm-def.h as perf
 * 6.1 has them), so -f all prints the lines perf prints; the rest are the
 * clearing study's strategies.
 */
static const struct kern_strategy kern_table[] = {
	FILL("default", "Default memset() provided by glibc", NULL, PERF, false, false, memset, NULL, NULL),
	FILL("x86-64-unrolled", "unrolled memset() in arch/x86/lib/memset_64.S",
	     "x86-64", PERF, false, false, X86(kern_x86_unrolled), NULL, NULL),
	FILL("x86-64-stosq", "movsq-based memset() in arch/x86/lib/memset_64.S",
	     "x86-64", PERF, false, false, X86(kern_x86_stosq), NULL, X86(kern_x86_note_rep)),
	FILL("x86-64-stosb", "movsb-based memset() in arch/x86/lib/memset_64.S",
	     "x86-64", PERF, false, false, X86(kern_x86_stosb), NULL, X86(kern_x86_note_rep)),
	FILL("c-loop", "plain C byte/word stores; the compiler may vectorise them",
	     NULL, OWN, false, false, kern_c_loop, NULL, NULL),
	FILL("x86-64-movnti", "SSE2 non-temporal 8-byte movnti stores, sfence at the end",
	     "x86-64", OWN, false, true, X86(kern_x86_movnti), NULL, NULL),
	FILL("x86-64-nt-avx2", "AVX2 32-byte vmovntdq streaming stores, sfence at the end",
	     "x86-64", OWN, false, true, X86(kern_x86_nt_avx2), X86(kern_x86_check_avx2), NULL),
	FILL("x86-64-nt-avx512", "AVX-512 64-byte vmovntdq streaming stores, sfence at the end",
	     "x86-64", OWN, false, true, X86(kern_x86_nt_avx512), X86(kern_x86_check_avx512), NULL),
	FILL("x86-64-clzero", "AMD clzero, one cache line per instruction, sfence at the end",
	     "x86-64", OWN, true, true, X86(kern_x86_clzero), X86(kern_x86_check_clzero), NULL),
	FILL("arm64-dc-zva", "dc zva per DCZID_EL0 block, like arm64 clear_page()",
	     "arm64", OWN, true, false, ARM64(kern_arm64_dc_zva), ARM64(kern_arm64_check_dczva), NULL),
	FILL("arm64-stnp", "non-temporal stnp pairs, 64 bytes per loop (the kernel's fallback)",
	     "arm64", OWN, false, true, ARM64(kern_arm64_stnp), NULL, NULL),
	FILL("arm64-stp", "plain stp pairs, 64 bytes per loop",
	     "arm64", OWN, false, false, ARM64(kern_arm64_stp), NULL, NULL),
	FILL("arm64-mops", "FEAT_MOPS setp/setm/sete",
	     "arm64", OWN, false, false, ARM64(kern_arm64_mops), ARM64(kern_arm64_check_mops), NULL),
	FILL("arm64-mops-nt", "FEAT_MOPS setpn/setmn/seten (non-temporal hint)",
	     "arm64", OWN, false, true, ARM64(kern_arm64_mops_nt), ARM64(kern_arm64_check_mops), NULL),
};

/*
 * perf's memcpy functions (mem-memcpy-x86-64-asm-def.h as perf 6.1 has
 * them), then the copying counterparts of the study's fill strategies, under
 * the same names: the same stores, each fed by plain loads.  dc zva and
 * clzero only write zeros, so they have none.
 */
static const struct kern_strategy kern_copy_table[] = {
	COPY("default", "Default memcpy() provided by glibc", NULL, PERF, false, memcpy, NULL, NULL),
	COPY("x86-64-unrolled", "unrolled memcpy() in arch/x86/lib/memcpy_64.S",
	     "x86-64", PERF, false, X86(kern_x86_unrolled_copy), NULL, NULL),
	COPY("x86-64-movsq", "movsq-based memcpy() in arch/x86/lib/memcpy_64.S",
	     "x86-64", PERF, false, X86(kern_x86_movsq), NULL, X86(kern_x86_note_rep)),
	COPY("x86-64-movsb", "movsb-based memcpy() in arch/x86/lib/memcpy_64.S",
	     "x86-64", PERF, false, X86(kern_x86_movsb), NULL, X86(kern_x86_note_rep)),
	COPY("c-loop", "plain C word loads and stores; the compiler may vectorise them",
	     NULL, OWN, false, kern_c_copy, NULL, NULL),
	COPY("x86-64-movnti", "8-byte loads, SSE2 non-temporal movnti stores, sfence at the end",
	     "x86-64", OWN, true, X86(kern_x86_movnti_copy), NULL, NULL),
	COPY("x86-64-nt-avx2", "AVX2 32-byte loads, vmovntdq streaming stores, sfence at the end",
	     "x86-64", OWN, true, X86(kern_x86_nt_avx2_copy), X86(kern_x86_check_avx2), NULL),
	COPY("x86-64-nt-avx512", "AVX-512 64-byte loads, vmovntdq streaming stores, sfence at the end",
	     "x86-64", OWN, true, X86(kern_x86_nt_avx512_copy), X86(kern_x86_check_avx512), NULL),
	COPY("arm64-stnp", "ldp loads, non-temporal stnp stores, 64 bytes per loop",
	     "arm64", OWN, true, ARM64(kern_arm64_stnp_copy), NULL, NULL),
	COPY("arm64-stp", "ldp loads, plain stp stores, 64 bytes per loop",
	     "arm64", OWN, false, ARM64(kern_arm64_stp_copy), NULL, NULL),
	COPY("arm64-mops", "FEAT_MOPS cpyfp/cpyfm/cpyfe",
	     "arm64", OWN, false, ARM64(kern_arm64_mops_copy), ARM64(kern_arm64_check_mops), NULL),
	COPY("arm64-mops-nt", "FEAT_MOPS cpyfpwn/cpyfmwn/cpyfewn (non-temporal writes)",
	     "arm64", OWN, true, ARM64(kern_arm64_mops_nt_copy), ARM64(kern_arm64_check_mops), NULL),
};

#define KERN_N(t) (sizeof(t) / sizeof((t)[0]))

static const struct kern_strategy *kern_lookup(const struct kern_strategy *t, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(t[i].name, name))
			return &t[i];
	return NULL;
}

size_t kern_count(void)
{
	return KERN_N(kern_table);
}

const struct kern_strategy *kern_at(size_t i)
{
	return i < kern_count() ? &kern_table[i] : NULL;
}

const struct kern_strategy *kern_find(const char *name)
{
	return kern_lookup(kern_table, kern_count(), name);
}

size_t kern_copy_count(void)
{
	return KERN_N(kern_copy_table);
}

const struct kern_strategy *kern_copy_at(size_t i)
{
	return i < kern_copy_count() ? &kern_copy_table[i] : NULL;
}

const struct kern_strategy *kern_copy_find(const char *name)
{
	return kern_lookup(kern_copy_table, kern_copy_count(), name);
}

/* Whether the row's function was built for this architecture. */
static bool kern_built(const struct kern_strategy *s)
{
	return s->fn || s->copy;
}

const char *kern_note(const struct kern_strategy *s)
{
	return kern_built(s) && s->note ? s->note(cpu_features()) : NULL;
}

const char *kern_why_not(const struct kern_strategy *s)
{
	if (!kern_built(s))
		return s->arch && !strcmp(s->arch, "arm64") ? "arm64 only" : "x86-64 only";
	return s->check ? s->check(cpu_features()) : NULL;
}

bool kern_perf_here(const struct kern_strategy *s)
{
	return s->perf && kern_built(s);
}
