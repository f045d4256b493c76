/* csv: a small RFC 4180 reader and writer for the store's long-form interchange files. */
#ifndef CLEARPATH_STORE_CSV_H
#define CLEARPATH_STORE_CSV_H

#include <stdio.h>

/* Where and why a CSV file is malformed; line and column count from 1. */
struct csv_error {
	long line;
	long column;
	char msg[160];
};

struct csv_reader {
	FILE *f;
	long line;		/* physical line the next character belongs to */
};

/* One record: @n fields, each a NUL-terminated string owned by the record. */
struct csv_record {
	char **field;
	size_t n;
	size_t cap;
	long line;		/* physical line where the record starts */
};

/* Start reading @f at line 1.  Cannot fail. */
void csv_reader_init(struct csv_reader *r, FILE *f);

/*
 * Read the next record into @rec, replacing what it held.  Fields are
 * unquoted ("" inside quotes becomes ").  Records end with LF or CRLF;
 * quoted fields may contain commas, quotes and newlines.  Returns 1 when a
 * record was read, 0 at end of file, -EINVAL when the input is malformed
 * (a quote inside an unquoted field, a NUL byte, junk after a closing quote, an
 * unterminated quoted field; *@err names line and column), -ENOMEM, or -EIO
 * when reading failed.
 */
int csv_read_record(struct csv_reader *r, struct csv_record *rec, struct csv_error *err);

/* Free what @rec holds and reset it to empty.  Safe on a zeroed record. */
void csv_record_free(struct csv_record *rec);

/*
 * Write @n fields as one LF-terminated record, quoting exactly the fields
 * that need it (comma, quote, CR or LF inside), so output is deterministic.
 * Returns 0, or -EIO when the stream reports an error.
 */
int csv_write_record(FILE *f, const char *const *field, size_t n);

#endif
