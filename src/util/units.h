/* units: numbers as people read them ("59.54 GB/sec", "1.25 ms"), one convention for every output. */
#ifndef CLEARPATH_UTIL_UNITS_H
#define CLEARPATH_UTIL_UNITS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * One GB for the whole tool, perf's: `perf bench mem` prints rates in
 * 1024-based KB/sec, MB/sec and GB/sec (tools/perf/bench/mem-functions.c,
 * print_bps()), so clearpath's bench, show, report and the answer in words
 * print bytes/sec in those units, under those names, and never a 1000-based
 * "GB/s" beside them: one number per quantity under one unit name.
 */
#define UNITS_GB_NOTE "GB/sec, MB/sec, KB/sec: 2^30, 2^20, 2^10 bytes per second, as perf bench prints them"

/*
 * @v in @unit as people read it, into @buf: bytes/sec in perf's units
 * ("59.54 GB/sec"), times scaled from ns to s ("1.25 ms"), other units as
 * the number with k/M/G/T and the unit ("1.20k faults/page", "0.0123
 * cycles/byte").
 */
void units_human(double v, const char *unit, char *buf, size_t len);

/* The unit units_human() prints @v of @unit in ("GB/sec", "us", "faults/page"), into @buf. */
void units_human_unit(double v, const char *unit, char *buf, size_t len);

/* @bytes_per_sec in perf's unit for it (bytes/sec, KB/sec, MB/sec, GB/sec: 1024 each), as bench and units_human() print it. */
void units_rate(double bytes_per_sec, double *value, const char **unit);

/* Whether @unit is a rate in bytes that units_human() prints in perf's GB/sec. */
bool units_is_byte_rate(const char *unit);

#endif
