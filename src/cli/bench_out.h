/* bench_out: the output formats of `clearpath bench` (perf's text layout, simple, JSON). */
#ifndef CLEARPATH_CLI_BENCH_OUT_H
#define CLEARPATH_CLI_BENCH_OUT_H

#include "workloads/workload.h"

#include <stdio.h>

/* perf's default layout (@simple false) or perf's --format=simple (@simple true), on @out. */
void bench_out_text(struct wl_sink *sink, FILE *out, bool simple);

/* A JSON array with one object per function, written to @out when the invocation ends. */
int bench_out_json(struct wl_sink *sink, FILE *out);
/* Free what bench_out_json() allocated (safe after an error, before end). */
void bench_out_json_free(struct wl_sink *sink);

#endif
