/* sqlite/schema: the schema's SQLite-only parts (store_migrations[] in open.c holds the rest). */
#ifndef CLEARPATH_STORE_SQLITE_SCHEMA_H
#define CLEARPATH_STORE_SQLITE_SCHEMA_H

/* v1: an invocation yields samples or an error, never both: the schema says so. */
#define STORE_SQLITE_TRIGGERS \
	"CREATE TRIGGER sample_excludes_error BEFORE INSERT ON sample" \
	" WHEN EXISTS (SELECT 1 FROM error e JOIN resultclass r ON r.benchmark_id = e.benchmark_id" \
	"  WHERE r.id = NEW.resultclass_id AND e.session_id = NEW.session_id" \
	"  AND (e.iteration IS NULL OR (e.iteration = NEW.iteration AND e.warmup = NEW.warmup)))" \
	" BEGIN SELECT RAISE(ABORT, 'this invocation already has an error'); END;" \
	"CREATE TRIGGER error_excludes_samples BEFORE INSERT ON error" \
	" WHEN EXISTS (SELECT 1 FROM sample s JOIN resultclass r ON r.id = s.resultclass_id" \
	"  WHERE r.benchmark_id = NEW.benchmark_id AND s.session_id = NEW.session_id" \
	"  AND (NEW.iteration IS NULL OR (s.iteration = NEW.iteration AND s.warmup = NEW.warmup)))" \
	" BEGIN SELECT RAISE(ABORT, 'this invocation already has samples'); END;"

#endif
