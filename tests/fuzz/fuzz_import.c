/* fuzz_import: libFuzzer harness for `import` (sample CSV, whole CSV and JSON): what imports must export, re-import and export the same. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/db.h"
#include "store/store.h"
#include "workloads/workload.h"
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

/* Import @len bytes at @data, whatever their form; 0 when the store took them. */
static int import(const void *data, size_t len)
{
	FILE *in = fmemopen((void *)data, len, "r");
	int ret;

	if (!in)
		abort();
	ret = store_import(st, in, "fuzz", NULL);
	fclose(in);
	return ret;
}

/* The store's export, sample form or (@whole) sessions whole, in @fmt, as a new string of *@len bytes. */
static char *export(bool whole, enum store_format fmt, size_t *len)
{
	char *text = NULL;
	FILE *out = open_memstream(&text, len);

	if (!out || (whole ? store_export_whole(st, out, fmt, NULL, 0) : store_export(st, out, fmt)))
		abort();
	fclose(out);
	return text;
}

/*
 * The store holds what an accepted input gave.  Its export in form @whole
 * and format @fmt must import into an empty store (twice: the second adds
 * nothing) and export the same bytes; the store is left as it was found.
 */
static void round_trip(bool whole, enum store_format fmt)
{
	size_t n1, n2, n3;
	char *first = export(whole, fmt, &n1), *second, *samples = export(false, STORE_CSV, &n3);
	int64_t rows;

	wipe();
	if (import(first, n1))
		abort();
	rows = stored();
	if (import(first, n1) || stored() != rows)
		abort();
	second = export(whole, fmt, &n2);
	if (n1 != n2 || memcmp(first, second, n1))
		abort();
	free(second);
	/* either form keeps every sample */
	second = export(false, STORE_CSV, &n2);
	if (n2 != n3 || memcmp(samples, second, n3))
		abort();
	free(first);
	free(second);
	free(samples);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	if (!st) {
		char path[PATH_MAX];

		fuzz_path("import.db", path, sizeof(path));
		if (store_open(path, wl_identity_parse, &st))
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
	/* Accepted, in either form: each export round-trips; the sample form's last, from the same store. */
	round_trip(true, STORE_CSV);
	round_trip(true, STORE_JSON);
	round_trip(false, STORE_CSV);
	wipe();
	return 0;
}
