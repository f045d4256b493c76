/* cpu: doctor checks of CPU frequency control: the scaling governor and boost/turbo. */
#include "doctor/checks.h"

#include <errno.h>
#include <string.h>

/* Without cpufreq the platform, not us, picks the frequency: fine in a VM, a gap on bare metal. */
static int doctor_no_cpufreq(const struct doctor_ctx *ctx, struct doctor_report *rep,
			     const char *check, const char *what)
{
	if (ctx->vm)
		return doctor_add(rep, check, DOCTOR_PASS, "not exposed", NULL,
				  "a virtual machine: the host controls %s; compare only runs on the same host type",
				  what);
	return doctor_add(rep, check, DOCTOR_WARN, "not exposed",
			  "load the platform's cpufreq driver (intel_pstate, amd-pstate, acpi-cpufreq, cppc)",
			  "no cpufreq on bare metal: %s cannot be checked or pinned, so it may differ between sessions",
			  what);
}

int doctor_check_governor(const struct doctor_ctx *ctx, struct doctor_report *rep)
{
	char gov[96], value[160];
	unsigned nfreq, nperf;

	if (doctor_governor(gov, sizeof(gov), &nfreq, &nperf) == -ENOENT)
		return doctor_no_cpufreq(ctx, rep, "cpu.governor", "the frequency");
	snprintf(value, sizeof(value), "%s (%u/%u CPUs on performance)", gov, nperf, nfreq);
	if (nperf == nfreq)
		return doctor_add(rep, "cpu.governor", DOCTOR_PASS, value, NULL,
				  "the clock does not ramp up during a run");
	return doctor_add(rep, "cpu.governor", DOCTOR_WARN, value,
			  "clearpath doctor --fix (or: cpupower frequency-set -g performance)",
			  "the clock ramps up while a run is timed, so short runs look slower than long ones");
}

int doctor_check_boost(const struct doctor_ctx *ctx, struct doctor_report *rep)
{
	char fix[256], gov[96];
	const char *path;
	unsigned nfreq, nperf;
	int on = doctor_boost(&path);

	if (on == -ENOENT && !doctor_governor(gov, sizeof(gov), &nfreq, &nperf))
		return doctor_add(rep, "cpu.boost", DOCTOR_PASS, "not exposed", NULL,
				  "cpufreq offers no boost switch: the CPU does not boost, or its firmware decides");
	if (on == -ENOENT)
		return doctor_no_cpufreq(ctx, rep, "cpu.boost", "boost/turbo");
	if (!on)
		return doctor_add(rep, "cpu.boost", DOCTOR_PASS, "off", NULL,
				  "the clock does not depend on temperature or on other cores' load (%s)", path);
	/* no_turbo says "1" to turn boost off; cpufreq/boost says "0" */
	snprintf(fix, sizeof(fix), "echo %d > %s (for the whole measurement, base and patched alike)",
		 strstr(path, "no_turbo") != NULL, path);
	return doctor_add(rep, "cpu.boost", DOCTOR_WARN, "on", fix,
			  "boosted clocks depend on temperature and on how many cores are busy, so sessions differ");
}
