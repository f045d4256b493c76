/* fuzz_csv: libFuzzer harness for the CSV reader, and the writer's round trip of what it read. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

/* Write @rec and read it back: the same fields must come out (fields with a NUL inside aside). */
static void round_trip(const struct csv_record *rec)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	struct csv_record back = { 0 };
	struct csv_reader r;
	struct csv_error err;
	FILE *in;

	if (!out)
		return;
	if (csv_write_record(out, (const char *const *)rec->field, rec->n)) {
		fclose(out);
		free(text);
		return;
	}
	fclose(out);
	in = fmemopen(text, size, "r");
	if (!in) {
		free(text);
		return;
	}
	csv_reader_init(&r, in);
	if (csv_read_record(&r, &back, &err) != 1 || back.n != rec->n)
		abort();
	for (size_t i = 0; i < rec->n; i++)
		if (strcmp(back.field[i], rec->field[i]))
			abort();
	csv_record_free(&back);
	fclose(in);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct csv_record rec = { 0 };
	struct csv_reader r;
	struct csv_error err;
	FILE *f;
	int got;

	if (!len)
		return 0;
	f = fmemopen((void *)data, len, "r");
	if (!f)
		return 0;
	csv_reader_init(&r, f);
	while ((got = csv_read_record(&r, &rec, &err)) == 1)
		round_trip(&rec);
	if (got == -EINVAL && (err.line < 1 || err.column < 1))
		abort();
	csv_record_free(&rec);
	fclose(f);
	return 0;
}
