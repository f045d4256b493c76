/* fuzz_plan: libFuzzer harness for the plan loader: random bytes as a plan file, loaded and freed. */
/* Seeds: tests/fuzz/corpus/plan/ (the plan fixtures and shipped plans); `make fuzz` runs it. */
#include "plan/plan.h"
#include "fuzz_common.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * plan_load() reads a path, so each input goes through one file, written in
 * the harness's scratch directory: relative includes find only the input
 * itself (an include loop), never the tree the fuzzer runs in.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[PATH_MAX];
	struct plan *p;
	FILE *f;

	if (!path[0]) {
		fuzz_path("plan.yaml", path, sizeof(path));
		/*
		 * Run by hand (without -close_fd_mask), every refusal would go to
		 * stderr: point clearpath's stderr stream at /dev/null, which
		 * leaves fd 2, where libFuzzer and the sanitizers report, alone.
		 */
		if (!getenv("FUZZ_VERBOSE") && !(stderr = fopen("/dev/null", "w")))
			abort();
	}
	f = fopen(path, "w");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	if (!plan_load(path, &p))
		plan_free(p);
	return 0;
}
