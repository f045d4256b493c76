/* fuzz_store: libFuzzer harness opening random bytes as a store file, then reading it every way. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "store/store.h"
#include "workloads/workload.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

/* Every read the CLI does on an opened store: listings, a check and an export. */
static void read_all(struct store *st)
{
	int (*const list[])(struct store *, json_t **) = {
		store_list_suts, store_list_swprofiles, store_list_benchmarks, store_list_sessions,
	};
	char *text = NULL;
	size_t size = 0;
	FILE *out;

	for (size_t i = 0; i < sizeof(list) / sizeof(list[0]); i++) {
		json_t *rows = NULL;

		if (!list[i](st, &rows))
			json_decref(rows);
	}
	store_check(st);
	out = open_memstream(&text, &size);
	if (out) {
		store_export(st, out, STORE_CSV);
		store_export(st, out, STORE_JSON);
		fclose(out);
	}
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	char path[PATH_MAX];
	struct store *st;
	FILE *f;

	fuzz_path("store.db", path, sizeof(path));
	fuzz_store_remove(path);
	f = fopen(path, "w");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f))
		abort();
	if (!store_open(path, wl_identity_parse, &st)) {
		read_all(st);
		store_close(st);
	}
	fuzz_store_remove(path);
	return 0;
}
