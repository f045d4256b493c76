/* units: numbers as people read them ("59.54 GB/sec", "1.25 ms"), per result class unit, in one convention. */
#include "util/units.h"

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

/* perf's rate units, each 1024 times the one before (print_bps() stops at GB/sec, so does this). */
static const char *const perf_rate[] = { "bytes/sec", "KB/sec", "MB/sec", "GB/sec" };

bool units_is_byte_rate(const char *unit)
{
	return !strcmp(unit, "bytes/sec");
}

/* @v in bytes/sec scaled into perf's unit for it; the index into perf_rate. */
static int units_rate_scale(double *v)
{
	int i = 0;

	while (i < 3 && fabs(*v) >= 1024) {
		*v /= 1024;
		i++;
	}
	return i;
}

void units_rate(double bytes_per_sec, double *value, const char **unit)
{
	*value = bytes_per_sec;
	*unit = perf_rate[units_rate_scale(value)];
}

/* Write @v in @unit (scaled) into @buf, the unit name into @ubuf; either may be NULL. */
static void units_format(double v, const char *unit, char *buf, size_t len, char *ubuf, size_t ulen)
{
	double secs = units_seconds(unit);
	char scaled[64], uname[96];
	int p;

	if (!isfinite(v)) {
		snprintf(scaled, sizeof(scaled), "%.2f", v);
		snprintf(uname, sizeof(uname), "%s", unit);
	} else if (units_is_byte_rate(unit)) {
		p = units_rate_scale(&v);
		snprintf(scaled, sizeof(scaled), "%.2f", v);
		snprintf(uname, sizeof(uname), "%s", perf_rate[p]);
	} else if (secs) {
		v *= secs;
		p = units_scale(&v, 0, SI_ONE);
		snprintf(scaled, sizeof(scaled), "%.2f", v);
		snprintf(uname, sizeof(uname), "%ss", si_prefix[p]);
	} else {
		/* counts and ratios (faults/page, cycles/byte): the number scaled, the unit as it is */
		bool count = !strcmp(unit, "count") || !*unit;

		p = units_scale(&v, SI_ONE, 7);
		/* below 1 (0.0123 cycles/byte) two decimals would lose the number: three digits instead */
		snprintf(scaled, sizeof(scaled), v != 0 && fabs(v) < 1 ? "%.3g%s" : "%.2f%s", v, si_prefix[p]);
		snprintf(uname, sizeof(uname), "%s", count ? "" : unit);
	}
	if (buf)
		snprintf(buf, len, "%s%s%s", scaled, *uname ? " " : "", uname);
	if (ubuf)
		snprintf(ubuf, ulen, "%s", uname);
}

void units_human(double v, const char *unit, char *buf, size_t len)
{
	units_format(v, unit, buf, len, NULL, 0);
}

void units_human_unit(double v, const char *unit, char *buf, size_t len)
{
	units_format(v, unit, NULL, 0, buf, len);
}
