/* rpt_units: numbers as people read them ("97.09 GB/s", "1.25 ms") for --units human, per result class unit. */
#include "report/report.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* SI prefixes from 10^-9 to 10^12, for scaling a value into [1, 1000). */
static const char *const si_prefix[] = { "n", "u", "m", "", "k", "M", "G", "T" };
#define SI_ONE 3	/* index of the empty prefix */

/* @v scaled by powers of 1000 into [1, 1000) within the prefixes from @lo to @hi; the prefix index. */
static int units_scale(double *v, int lo, int hi)
{
	int i = SI_ONE;

	while (i < hi && fabs(*v) >= 1000) {
		*v /= 1000;
		i++;
	}
	while (i > lo && *v != 0 && fabs(*v) < 1) {
		*v *= 1000;
		i--;
	}
	return i;
}

/* Seconds per unit for the time units the store holds, 0 when @unit is not a time. */
static double units_seconds(const char *unit)
{
	static const struct {
		const char *name;
		double s;
	} t[] = { { "ns", 1e-9 }, { "nsec", 1e-9 }, { "us", 1e-6 }, { "usec", 1e-6 }, { "µs", 1e-6 },
		  { "ms", 1e-3 }, { "msec", 1e-3 }, { "s", 1 }, { "sec", 1 } };

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(unit, t[i].name))
			return t[i].s;
	return 0;
}

void rpt_human(double v, const char *unit, char *buf, size_t len)
{
	double secs = units_seconds(unit);
	int p;

	if (!isfinite(v)) {
		snprintf(buf, len, "%.2f", v);
	} else if (!strcmp(unit, "bytes/sec")) {
		/* decimal prefixes, as perf and fio print GB/s: 97094829312 bytes/sec is 97.09 GB/s */
		p = units_scale(&v, SI_ONE, 7);
		snprintf(buf, len, "%.2f %sB/s", v, si_prefix[p]);
	} else if (secs) {
		v *= secs;
		p = units_scale(&v, 0, SI_ONE);
		snprintf(buf, len, "%.2f %ss", v, si_prefix[p]);
	} else {
		/* counts and ratios (faults/page, cycles/byte): the number scaled, the unit as it is */
		bool count = !strcmp(unit, "count") || !*unit;

		p = units_scale(&v, SI_ONE, 7);
		/* below 1 (0.0123 cycles/byte) two decimals would lose the number: three digits instead */
		snprintf(buf, len, v != 0 && fabs(v) < 1 ? "%.3g%s%s%s" : "%.2f%s%s%s", v, si_prefix[p],
			 count ? "" : " ", count ? "" : unit);
	}
}
