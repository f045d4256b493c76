/* fuzz_import: libFuzzer harness for `import`: what imports must export, re-import and export the same. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/db.h"
#include "store/store.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

static struct store *st;

/* Empty every table, so each input starts from an empty store. */
static void wipe(void)
{
	static const char *const table[] = {
		"sample", "error", "session", "resultclass", "benchmark", "sut", "swprofile",
	};
	char sql[64];

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		snprintf(sql, sizeof(sql), "DELETE FROM %s", table[i]);
		if (store_exec(st, sql, NULL))
			abort();
	}
}

/* How many rows the store holds, all tables together. */
static int64_t stored(void)
{
	int64_t n = -1;

	if (store_int64(st, &n, "SELECT (SELECT count(*) FROM sample) + (SELECT count(*) FROM error)"
			" + (SELECT count(*) FROM session) + (SELECT count(*) FROM resultclass)"
			" + (SELECT count(*) FROM benchmark) + (SELECT count(*) FROM sut)"
			" + (SELECT count(*) FROM swprofile)", NULL))
		abort();
	return n;
}

/* Import @len bytes at @data; 0 when the store took them. */
static int import(const void *data, size_t len)
{
	FILE *in = fmemopen((void *)data, len, "r");
	int ret;

	if (!in)
		abort();
	ret = store_import_csv(st, in, "fuzz");
	fclose(in);
	return ret;
}

/* The store's CSV export as a new string of *@len bytes. */
static char *export(size_t *len)
{
	char *text = NULL;
	FILE *out = open_memstream(&text, len);

	if (!out || store_export(st, out, STORE_CSV))
		abort();
	fclose(out);
	return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	char *first, *second;
	size_t n1, n2;

	if (!st) {
		char path[PATH_MAX];

		fuzz_path("import.db", path, sizeof(path));
		if (store_open(path, &st))
			abort();
	}
	if (!len)
		return 0;
	if (import(data, len)) {
		/* All or nothing: a refused file leaves the store as empty as it was. */
		if (stored() != 0)
			abort();
		return 0;
	}
	/* Accepted: the export must import into an empty store and export the same bytes. */
	first = export(&n1);
	wipe();
	if (import(first, n1))
		abort();
	second = export(&n2);
	if (n1 != n2 || memcmp(first, second, n1))
		abort();
	free(first);
	free(second);
	wipe();
	return 0;
}
