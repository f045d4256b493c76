/* fuzz_plan: libFuzzer harness for the plan loader: random bytes as a plan file, loaded and freed. */
/*
 * Seeds: tests/fuzz/corpus/plan/ (the plan fixtures and shipped plans).  By
 * hand: clang -fsanitize=fuzzer,address,undefined -Isrc tests/fuzz/fuzz_plan.c
 * src/{plan,util,workloads,kernels}/'*'.c $(pkg-config --cflags --libs yaml-0.1
 * jansson sqlite3 gsl) -lm, then ./a.out tests/fuzz/corpus/plan.
 */
#include "plan/plan.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[] = "/tmp/fuzz_plan.XXXXXX", path[64];

static void fuzz_plan_cleanup(void)
{
	unlink(path);
	rmdir(dir);
}

/*
 * plan_load() reads a path, so each input goes through one file, written in
 * a directory of its own: relative includes find only the input itself (an
 * include loop), never the tree the fuzzer runs in.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct plan *p;
	FILE *f;

	if (!path[0]) {
		if (!mkdtemp(dir))
			abort();
		snprintf(path, sizeof(path), "%s/plan.yaml", dir);
		atexit(fuzz_plan_cleanup);
		/*
		 * Every refusal goes to stderr: point clearpath's stderr stream at
		 * /dev/null, which leaves fd 2, where libFuzzer and the sanitizers
		 * report, alone.
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
