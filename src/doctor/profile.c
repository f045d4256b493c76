/* profile: doctor's check that --profile can see and name the kernel (perf_event_paranoid, kptr_restrict, privileges). */
#include "doctor/checks.h"
#include "profile/profile.h"

#include <errno.h>

int doctor_check_profile(const struct doctor_ctx *ctx, struct doctor_report *rep)
{
	char why[256], fix[128];
	int ret = profile_access(why, sizeof(why), fix, sizeof(fix));

	(void)ctx;
	if (!ret)
		return doctor_add(rep, "perf.profile", DOCTOR_PASS, "kernel+user", NULL,
				  "--profile samples kernel and user space and names kernel symbols, so results "
				  "carry their page-clearing share");
	return doctor_add(rep, "perf.profile", DOCTOR_WARN,
			  ret == -EPERM ? "no kernel symbols" : ret == -ENOSYS ? "absent" : "no kernel samples", fix,
			  "--profile gives no profile: %s", why);
}
