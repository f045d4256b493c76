/* clearing: the per-architecture list of the kernel's page-clearing functions, the category a profile's clearing share counts. */
#include "profile/profile.h"

#include <fnmatch.h>
#include <string.h>

/*
 * x86-64: clear_page() picks one of three bodies at boot by CPU feature
 * (clear_page_erms with ERMS, clear_page_rep, clear_page_orig); newer kernels
 * add clear_pages() for runs of pages.  Huge pages are cleared a subpage at a
 * time by folio_zero_user() (clear_huge_page(), clear_gigantic_page() and
 * clear_subpage() in older kernels), whose own samples are the loop around
 * clear_page.  Not clear_page_dirty_for_io(), which clears a flag.
 */
static const char *const clearing_x86_64[] = {
	"clear_page", "clear_page_erms", "clear_page_rep", "clear_page_orig", "clear_pages",
	"clear_pages_*", "folio_zero_user", "clear_huge_page", "clear_gigantic_page",
	"clear_subpage", "clear_user_page", "clear_highpage*", NULL,
};

/*
 * arm64: clear_page() (dc zva, or the MOPS setp/setm/sete form on CPUs with
 * FEAT_MOPS; __pi_clear_page is its position-independent alias), and with
 * MTE the variants that clear the tags with the data.
 */
static const char *const clearing_aarch64[] = {
	"clear_page", "__pi_clear_page", "clear_pages", "clear_pages_*", "__pi_clear_pages",
	"mte_zero_clear_page_tags", "mte_clear_page_tags", "folio_zero_user", "clear_huge_page",
	"clear_gigantic_page", "clear_subpage", "clear_user_page", "clear_highpage*", NULL,
};

const char *const *profile_clearing_patterns(const char *arch)
{
	if (!arch) {
#if defined(__aarch64__)
		arch = "aarch64";
#else
		arch = "x86_64";
#endif
	}
	return !strcmp(arch, "aarch64") || !strcmp(arch, "arm64") ? clearing_aarch64 : clearing_x86_64;
}

bool profile_is_clearing(const char *name, const char *arch)
{
	char base[256];
	size_t len = strcspn(name, ".");

	/* clear_page_erms.cold and the like are parts of the same function */
	if (len >= sizeof(base))
		return false;
	memcpy(base, name, len);
	base[len] = '\0';
	for (const char *const *p = profile_clearing_patterns(arch); *p; p++)
		if (!fnmatch(*p, base, 0))
			return true;
	return false;
}
