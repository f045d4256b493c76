/* size: parse and print byte sizes the way perf bench does, plus IEC units. */
#include "util/size.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

struct size_unit {
	const char *suffix;
	unsigned shift;
};

/* perf_atoll accepts each two-letter unit in one case only: "KB" or "kb", never "Kb". */
static const struct size_unit size_units[] = {
	{ "", 0 },    { "B", 0 },    { "b", 0 },
	{ "KB", 10 }, { "kb", 10 },  { "KiB", 10 },
	{ "MB", 20 }, { "mb", 20 },  { "MiB", 20 },
	{ "GB", 30 }, { "gb", 30 },  { "GiB", 30 },
	{ "TB", 40 }, { "tb", 40 },  { "TiB", 40 },
};

int size_parse(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	const char *p = s;

	if (!s || !isdigit((unsigned char)*p))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');

		if (v > ((uint64_t)INT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	for (size_t i = 0; i < sizeof(size_units) / sizeof(size_units[0]); i++) {
		unsigned shift = size_units[i].shift;

		if (strcmp(p, size_units[i].suffix))
			continue;
		if (v > ((uint64_t)INT64_MAX >> shift))
			return -ERANGE;
		*out = v << shift;
		return 0;
	}
	return -EINVAL;
}

char *size_format(uint64_t bytes, char *buf, size_t len)
{
	static const char *const names[] = { "TB", "GB", "MB", "KB" };
	static const unsigned shifts[] = { 40, 30, 20, 10 };

	for (int i = 0; i < 4; i++) {
		uint64_t unit = 1ULL << shifts[i];

		if (bytes && bytes % unit == 0) {
			snprintf(buf, len, "%llu%s", (unsigned long long)(bytes / unit), names[i]);
			return buf;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)bytes);
	return buf;
}

char *size_human(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KB", "MB", "GB", "TB" };
	double v = (double)bytes;
	size_t u = 0;

	while (v >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, u ? "%.1f%s" : "%.0f%s", v, units[u]);
	return buf;
}
