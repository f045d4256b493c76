/* bench_out: the output formats of `clearpath bench` (perf's text layout, simple, JSON). */
#ifndef CLEARPATH_CLI_BENCH_OUT_H
#define CLEARPATH_CLI_BENCH_OUT_H

#include "workloads/workload.h"

#include <stdio.h>

/*
 * perf's default layout (@simple false) or perf's --format=simple (@simple
 * true), on @out.  @in_all: the workload runs under `bench <collection>
 * all`, whose caller prints perf's header of each ("# Running mem/memcpy
 * benchmark..."), so the sink leaves out its own "# Running" line.
 */
void bench_out_text(struct wl_sink *sink, FILE *out, bool simple, bool in_all);

/*
 * A JSON array with one object per function, of every invocation through
 * @sink, written to @out by bench_out_json_write().
 */
int bench_out_json(struct wl_sink *sink, FILE *out);
/* Write the array (a write error shows on the stream, for main() to report). */
void bench_out_json_write(struct wl_sink *sink);
/* Free what bench_out_json() allocated (safe after an error, before end). */
void bench_out_json_free(struct wl_sink *sink);

#endif
