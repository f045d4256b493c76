/* boot: whether the kernel a session names is the one that runs, or a simulated boot's ($CLEARPATH_FAKE_BOOT). */
#include "doctor/checks.h"

#include "util/boot.h"

/*
 * Silent on a real boot (no PASS line: nothing to say on every machine);
 * under a simulated one a warning every session records, so `show --header`,
 * the report and `doctor --store` flag its numbers as not the kernel's they name.
 */
int doctor_check_boot(const struct doctor_ctx *ctx, struct doctor_report *rep)
{
	const char *dir = boot_simulated();

	(void)ctx;
	if (!dir)
		return 0;
	return doctor_add(rep, "boot.simulated", DOCTOR_WARN, dir,
			  "unset " BOOT_FAKE_ENV " (a test hook of campaigns) to measure under the kernel that runs",
			  "the boot id, kernel release and cmdline come from a simulated boot in " BOOT_FAKE_ENV
			  ", not from this kernel: the swprofile these numbers are filed under is not the kernel that ran them");
}
