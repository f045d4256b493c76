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

/*
 * v6: the references of the two tables a merge or an import fills by the
 * thousand (sample -> session, result class; session -> sut, swprofile) and
 * "samples or an error, never both" checked once per statement over its
 * rows (transition tables) instead of once per row: a foreign key is a
 * trigger and a locking lookup per row, and a merge of 100000 sessions
 * spent most of its time in them.  What the foreign keys also refused, a
 * referenced row deleted or renumbered, is refused the same way.  Nothing
 * clearpath runs deletes such rows; an owner doing so by hand in one
 * transaction while a writer adds to them in another is not locked out.
 */
#define STORE_PG_STATEMENT_CHECKS \
	"ALTER TABLE sample DROP CONSTRAINT sample_session_id_fkey;" \
	"ALTER TABLE sample DROP CONSTRAINT sample_resultclass_id_fkey;" \
	"ALTER TABLE session DROP CONSTRAINT session_sut_id_fkey;" \
	"ALTER TABLE session DROP CONSTRAINT session_swprofile_id_fkey;" \
	"DROP TRIGGER sample_excludes_error ON sample;" \
	"DROP FUNCTION clearpath_sample_excludes_error();" \
	"CREATE FUNCTION clearpath_sample_rows() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN" \
	" IF EXISTS (SELECT 1 FROM new_rows n WHERE NOT EXISTS (SELECT 1 FROM session s WHERE s.id = n.session_id))" \
	" THEN RAISE EXCEPTION 'a sample names no stored session' USING ERRCODE = 'foreign_key_violation'; END IF;" \
	" IF EXISTS (SELECT 1 FROM new_rows n WHERE NOT EXISTS" \
	"  (SELECT 1 FROM resultclass r WHERE r.id = n.resultclass_id))" \
	" THEN RAISE EXCEPTION 'a sample names no stored result class' USING ERRCODE = 'foreign_key_violation';" \
	" END IF;" \
	" IF EXISTS (SELECT 1 FROM new_rows n JOIN resultclass r ON r.id = n.resultclass_id" \
	"  JOIN error e ON e.benchmark_id = r.benchmark_id AND e.session_id = n.session_id" \
	"  AND (e.iteration IS NULL OR (e.iteration = n.iteration AND e.warmup = n.warmup)))" \
	" THEN RAISE EXCEPTION 'this invocation already has an error' USING ERRCODE = 'check_violation'; END IF;" \
	" RETURN NULL; END $f$;" \
	"CREATE TRIGGER sample_rows_inserted AFTER INSERT ON sample REFERENCING NEW TABLE AS new_rows" \
	" FOR EACH STATEMENT EXECUTE FUNCTION clearpath_sample_rows();" \
	"CREATE TRIGGER sample_rows_updated AFTER UPDATE ON sample REFERENCING NEW TABLE AS new_rows" \
	" FOR EACH STATEMENT EXECUTE FUNCTION clearpath_sample_rows();" \
	"CREATE FUNCTION clearpath_session_rows() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN" \
	" IF EXISTS (SELECT 1 FROM new_rows n WHERE NOT EXISTS (SELECT 1 FROM sut u WHERE u.id = n.sut_id)" \
	"  OR NOT EXISTS (SELECT 1 FROM swprofile p WHERE p.id = n.swprofile_id))" \
	" THEN RAISE EXCEPTION 'a session names no stored sut or swprofile' USING ERRCODE = 'foreign_key_violation';" \
	" END IF; RETURN NULL; END $f$;" \
	"CREATE TRIGGER session_rows_inserted AFTER INSERT ON session REFERENCING NEW TABLE AS new_rows" \
	" FOR EACH STATEMENT EXECUTE FUNCTION clearpath_session_rows();" \
	"CREATE TRIGGER session_rows_updated AFTER UPDATE ON session REFERENCING NEW TABLE AS new_rows" \
	" FOR EACH STATEMENT EXECUTE FUNCTION clearpath_session_rows();" \
	/* a referenced row gone (deleted, or its id changed): TG_ARGV names the table and column referring */ \
	"CREATE FUNCTION clearpath_referenced_gone() RETURNS trigger LANGUAGE plpgsql AS $f$ DECLARE hit boolean; BEGIN" \
	" EXECUTE format('SELECT EXISTS (SELECT 1 FROM old_rows o WHERE NOT EXISTS (SELECT 1 FROM %I t WHERE t.id = o.id)" \
	"  AND EXISTS (SELECT 1 FROM %I r WHERE r.%I = o.id))', TG_TABLE_NAME, TG_ARGV[0], TG_ARGV[1]) INTO hit;" \
	" IF hit THEN RAISE EXCEPTION '% rows still refer to a % row gone', TG_ARGV[0], TG_TABLE_NAME" \
	"  USING ERRCODE = 'foreign_key_violation'; END IF; RETURN NULL; END $f$;" \
	"CREATE TRIGGER session_gone_deleted AFTER DELETE ON session REFERENCING OLD TABLE AS old_rows" \
	" FOR EACH STATEMENT EXECUTE FUNCTION clearpath_referenced_gone('sample', 'session_id');" \
	"CREATE TRIGGER session_gone_updated AFTER UPDATE ON session REFERENCING OLD TABLE AS old_rows" \
	" FOR EACH STATEMENT EXECUTE FUNCTION clearpath_referenced_gone('sample', 'session_id');" \
	"CREATE TRIGGER resultclass_gone_deleted AFTER DELETE ON resultclass REFERENCING OLD TABLE AS old_rows" \
	" FOR EACH STATEMENT EXECUTE FUNCTION clearpath_referenced_gone('sample', 'resultclass_id');" \
	"CREATE TRIGGER resultclass_gone_updated AFTER UPDATE ON resultclass REFERENCING OLD TABLE AS old_rows" \
	" FOR EACH STATEMENT EXECUTE FUNCTION clearpath_referenced_gone('sample', 'resultclass_id');" \
	"CREATE TRIGGER sut_gone_deleted AFTER DELETE ON sut REFERENCING OLD TABLE AS old_rows" \
	" FOR EACH STATEMENT EXECUTE FUNCTION clearpath_referenced_gone('session', 'sut_id');" \
	"CREATE TRIGGER sut_gone_updated AFTER UPDATE ON sut REFERENCING OLD TABLE AS old_rows" \
	" FOR EACH STATEMENT EXECUTE FUNCTION clearpath_referenced_gone('session', 'sut_id');" \
	"CREATE TRIGGER swprofile_gone_deleted AFTER DELETE ON swprofile REFERENCING OLD TABLE AS old_rows" \
	" FOR EACH STATEMENT EXECUTE FUNCTION clearpath_referenced_gone('session', 'swprofile_id');" \
	"CREATE TRIGGER swprofile_gone_updated AFTER UPDATE ON swprofile REFERENCING OLD TABLE AS old_rows" \
	" FOR EACH STATEMENT EXECUTE FUNCTION clearpath_referenced_gone('session', 'swprofile_id');"

#endif
