/* roles: a lab's owner, writer and reader on a PostgreSQL store, each granted per table what store_lab_tables[] says. */
#include "store/postgresql/roles.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

/*
 * Run every statement the query @sql writes (one a row, column 0; the
 * catalog quotes the names: format('%I')), binding @role as ?1.  0 or a
 * logged store error.
 */
static int lab_generated(struct store *st, const char *sql, const char *role, const char *what)
{
	struct store_stmt *stmt;
	char **todo = NULL;
	size_t n = 0;
	int ret = store_prepare(st, &stmt, sql, "t", role), rc;

	while (!ret && (rc = store_step(stmt)) == STORE_ROW) {
		char **grown = realloc(todo, (n + 1) * sizeof(*todo));

		if (!grown || !(grown[n] = strdup(store_col_text(stmt, 0)))) {
			todo = grown ? grown : todo;
			ret = -ENOMEM;
			break;
		}
		todo = grown;
		n++;
	}
	if (!ret && rc < 0)
		ret = store_sql_fail(st, rc, what);
	store_finalize(stmt);
	/* after the query is done: one connection runs one statement at a time */
	for (size_t i = 0; !ret && i < n; i++)
		if ((ret = st->be->script(st, todo[i])))
			ret = store_sql_fail(st, ret, what);
	for (size_t i = 0; i < n; i++)
		free(todo[i]);
	free(todo);
	return ret;
}

/* Create role @name (LOGIN, no password) unless it exists. */
static int lab_role(struct store *st, const char *name)
{
	return lab_generated(st, "SELECT format('CREATE ROLE %I LOGIN', ?1::text) WHERE NOT EXISTS"
			     " (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = ?1)", name, "creating a role");
}

/*
 * The owner gets the database, its schema and whatever clearpath made there
 * before (as another user, say the administrator), so it can migrate them.
 */
static int lab_ownership(struct store *st, const char *owner)
{
	static const char *const sql[] = {
		"SELECT format('ALTER DATABASE %I OWNER TO %I', current_database(), ?1::text)",
		"SELECT format('ALTER SCHEMA %I OWNER TO %I', current_schema(), ?1::text)",
		"SELECT format('ALTER TABLE %I.%I OWNER TO %I', schemaname, tablename, ?1::text)"
		" FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tableowner <> ?1",
		"SELECT format('ALTER FUNCTION %s OWNER TO %I', p.oid::regprocedure, ?1::text)"
		" FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace"
		" WHERE n.nspname = current_schema() AND pg_catalog.pg_get_userbyid(p.proowner) <> ?1",
		/* nobody else creates objects in the schema; the roles may use it */
		"SELECT format('REVOKE CREATE ON SCHEMA %I FROM PUBLIC', current_schema())",
	};
	int ret = 0;

	for (size_t i = 0; !ret && i < sizeof(sql) / sizeof(sql[0]); i++)
		ret = lab_generated(st, sql[i], owner, "giving the owner the store");
	return ret;
}

static int lab_prepare(struct store *st, const struct store_roles *r)
{
	int ret = store_tx_begin(st);

	if (!ret)
		ret = lab_role(st, r->owner);
	if (!ret)
		ret = lab_role(st, r->writer);
	if (!ret)
		ret = lab_role(st, r->reader);
	if (!ret)
		ret = lab_ownership(st, r->owner);
	ret = store_tx_end(st, ret);
	/* from now on as the owner: the schema it creates or migrates is its own */
	if (!ret)
		ret = lab_generated(st, "SELECT format('SET ROLE %I', ?1::text)", r->owner, "acting as the owner");
	return ret;
}

/* The row of store_lab_tables[] for @table, or NULL. */
static const struct store_lab_table *lab_table(const char *table)
{
	for (const struct store_lab_table *t = store_lab_tables; t->table; t++)
		if (!strcmp(t->table, table))
			return t;
	return NULL;
}

/* Table @t exactly as store_lab_tables[] says: what it granted before goes, reading for both, the writer's rest. */
static int lab_grant_table(struct store *st, const struct store_roles *r, const char *t)
{
	const struct store_lab_table *row = lab_table(t);
	char sql[512];
	int ret;

	if (!row) {
		log_err("store %s: table %s is none of clearpath's, and no role is granted it", st->path, t);
		log_hint("a store's database holds clearpath's tables only (a newer clearpath's? run this one's)");
		return -EMEDIUMTYPE;
	}
	snprintf(sql, sizeof(sql), "REVOKE ALL ON \"%s\" FROM \"%s\", \"%s\"; GRANT SELECT ON \"%s\" TO \"%s\", \"%s\"",
		 t, r->writer, r->reader, t, r->writer, r->reader);
	ret = st->be->script(st, sql);
	if (!ret && *row->writer) {
		snprintf(sql, sizeof(sql), "GRANT %s ON \"%s\" TO \"%s\"", row->writer, t, r->writer);
		ret = st->be->script(st, sql);
	}
	return ret ? store_sql_fail(st, ret, "granting the roles their tables") : 0;
}

static int lab_grant(struct store *st, const struct store_roles *r)
{
	struct store_stmt *stmt;
	char **tables = NULL, sql[256];
	size_t n = 0;
	int ret = store_tx_begin(st), rc;

	if (!ret)
		ret = store_prepare(st, &stmt, "SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = current_schema()"
				    " ORDER BY tablename", NULL);
	while (!ret && (rc = store_step(stmt)) == STORE_ROW) {
		char **grown = realloc(tables, (n + 1) * sizeof(*tables));

		if (!grown || !(grown[n] = strdup(store_col_text(stmt, 0)))) {
			tables = grown ? grown : tables;
			ret = -ENOMEM;
		} else {
			tables = grown;
			n++;
		}
	}
	if (!ret && rc < 0)
		ret = store_sql_fail(st, rc, "listing the store's tables");
	store_finalize(stmt);
	for (size_t i = 0; !ret && i < n; i++)
		ret = lab_grant_table(st, r, tables[i]);
	/* the schema itself, and what a later migration adds is readable by both at once */
	snprintf(sql, sizeof(sql), "\"%s\", \"%s\"", r->writer, r->reader);
	if (!ret)
		ret = lab_generated(st, "SELECT format('GRANT USAGE ON SCHEMA %I TO %s', current_schema(), ?1::text)", sql,
				    "granting the roles the schema");
	if (!ret)
		ret = lab_generated(st, "SELECT format('ALTER DEFAULT PRIVILEGES IN SCHEMA %I GRANT SELECT ON TABLES"
				    " TO %s', current_schema(), ?1::text)", sql, "granting the roles the schema");
	for (size_t i = 0; i < n; i++)
		free(tables[i]);
	free(tables);
	return store_tx_end(st, ret);
}

int store_pg_lab_roles(struct store *st, const struct store_roles *r, int phase)
{
	return phase == STORE_LAB_PREPARE ? lab_prepare(st, r) : lab_grant(st, r);
}
