/* postgresql/schema: the schema's PostgreSQL-only parts (store_migrations[] in open.c holds the rest). */
#ifndef CLEARPATH_STORE_POSTGRESQL_SCHEMA_H
#define CLEARPATH_STORE_POSTGRESQL_SCHEMA_H

/*
 * v1: an invocation yields samples or an error, never both, as SQLite's
 * RAISE triggers say it; check_violation maps to -EINVAL like a constraint.
 */
#define STORE_PG_TRIGGERS \
	"CREATE FUNCTION clearpath_sample_excludes_error() RETURNS trigger LANGUAGE plpgsql AS $f$" \
	" BEGIN IF EXISTS (SELECT 1 FROM error e JOIN resultclass r ON r.benchmark_id = e.benchmark_id" \
	"  WHERE r.id = NEW.resultclass_id AND e.session_id = NEW.session_id" \
	"  AND (e.iteration IS NULL OR (e.iteration = NEW.iteration AND e.warmup = NEW.warmup)))" \
	" THEN RAISE EXCEPTION 'this invocation already has an error' USING ERRCODE = 'check_violation';" \
	" END IF; RETURN NEW; END $f$;" \
	"CREATE TRIGGER sample_excludes_error BEFORE INSERT ON sample" \
	" FOR EACH ROW EXECUTE FUNCTION clearpath_sample_excludes_error();" \
	"CREATE FUNCTION clearpath_error_excludes_samples() RETURNS trigger LANGUAGE plpgsql AS $f$" \
	" BEGIN IF EXISTS (SELECT 1 FROM sample s JOIN resultclass r ON r.id = s.resultclass_id" \
	"  WHERE r.benchmark_id = NEW.benchmark_id AND s.session_id = NEW.session_id" \
	"  AND (NEW.iteration IS NULL OR (s.iteration = NEW.iteration AND s.warmup = NEW.warmup)))" \
	" THEN RAISE EXCEPTION 'this invocation already has samples' USING ERRCODE = 'check_violation';" \
	" END IF; RETURN NEW; END $f$;" \
	"CREATE TRIGGER error_excludes_samples BEFORE INSERT ON error" \
	" FOR EACH ROW EXECUTE FUNCTION clearpath_error_excludes_samples();"

#endif
