/* profile: doctor's check that --profile can see and name the kernel (perf_event_paranoid, kptr_restrict, privileges). */
#include "doctor/checks.h"
#include "profile/profile.h"

#include <errno.h>

int doctor_check_profile(const struct doctor_ctx *ctx, struct doctor_report *rep)
{
	char why[256], fix[128];
	int ret = profile_access(why, sizeof(why), fix, sizeof(fix));

	char what[128];

	(void)ctx;
	/* each sample is a timer interrupt: a VM exit costing tens of us in a guest, about 1 us on metal */
	if (!ret && doctor_virt(what, sizeof(what)))
		return doctor_add(rep, "perf.profile", DOCTOR_PASS, "kernel+user", NULL,
				  "--profile samples kernel and user space and names kernel symbols, so results "
				  "carry their page-clearing share; in a virtual machine each sample (a timer "
				  "interrupt) costs tens of us: a --profile-freq of a few hundred Hz slows what it "
				  "measures by 1%% (the default is %u Hz; bench/profile measures it)",
				  PROFILE_DEFAULT_HZ);
	if (!ret)
		return doctor_add(rep, "perf.profile", DOCTOR_PASS, "kernel+user", NULL,
				  "--profile samples kernel and user space and names kernel symbols, so results "
				  "carry their page-clearing share (%u samples a second by default)",
				  PROFILE_DEFAULT_HZ);
	return doctor_add(rep, "perf.profile", DOCTOR_WARN,
			  ret == -EPERM ? "no kernel symbols" : ret == -ENOSYS ? "absent" : "no kernel samples", fix,
			  "--profile gives no profile: %s", why);
}
