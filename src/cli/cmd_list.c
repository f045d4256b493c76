/* cmd_list: `clearpath list suts|swprofiles|benchmarks|sessions`, what the store holds, as a table or JSON. */
#include "cli/cli_args.h"
#include "cli/commands.h"
#include "report/report.h"
#include "store/store.h"
#include "store/url.h"
#include "util/log.h"
#include "workloads/workload.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* One table column: a key of the store's listing, "a.b" for a key inside an object. */
struct list_col {
	const char *key;
	const char *header;
	unsigned flags;
};

#define LIST_MAX_COLS 8	/* the widest column list below has 7 */

struct list_kind {
	const char *name;
	int (*fetch)(struct store *st, json_t **out);
	const struct list_col *cols;	/* terminated by a NULL key */
};

/*
 * The table shows what tells rows apart; --format json has everything (whole fingerprints).
 * A benchmark's result class names its parameters already, so the suite is enough beside it.
 */
static const struct list_col list_sut_cols[] = {
	{ "name", "SUT", 0 },
	{ "fingerprint.arch", "Arch", 0 },
	{ "fingerprint.cores", "Cores", RPT_COL_RIGHT },
	{ "fingerprint.memory", "Memory (bytes)", RPT_COL_RIGHT },
	{ "sessions", "Sessions", RPT_COL_RIGHT },
	{ NULL, NULL, 0 },
};

static const struct list_col list_swprofile_cols[] = {
	{ "name", "Swprofile", 0 },
	{ "fingerprint.kernel_release", "Kernel", 0 },
	{ "fingerprint.thp_enabled", "THP", 0 },
	{ "sessions", "Sessions", RPT_COL_RIGHT },
	{ NULL, NULL, 0 },
};

static const struct list_col list_benchmark_cols[] = {
	{ "suite", "Benchmark", RPT_COL_GROUP },
	{ "resultclass", "Result Class", 0 },
	{ "unit", "Unit", 0 },
	{ "higher_is_better", "Higher is better", 0 },
	{ "samples", "Samples", RPT_COL_RIGHT },
	{ NULL, NULL, 0 },
};

static const struct list_col list_session_cols[] = {
	{ "uuid", "Session", 0 },
	{ "sut", "SUT", 0 },
	{ "swprofile", "Swprofile", 0 },
	{ "started", "Started", 0 },
	{ "complete", "Complete", 0 },
	{ "samples", "Samples", RPT_COL_RIGHT },
	{ "errors", "Errors", RPT_COL_RIGHT },
	{ NULL, NULL, 0 },
};

static const struct list_kind list_kinds[] = {
	{ "suts", store_list_suts, list_sut_cols },
	{ "swprofiles", store_list_swprofiles, list_swprofile_cols },
	{ "benchmarks", store_list_benchmarks, list_benchmark_cols },
	{ "sessions", store_list_sessions, list_session_cols },
};

enum { LIST_TABLE, LIST_JSON };
static const char *const list_formats[] = { [LIST_TABLE] = "table", [LIST_JSON] = "json", NULL };

static const struct cli_spec list_spec = {
	.name = "list",
	.usage = "usage: clearpath list suts|swprofiles|benchmarks|sessions [--store URL] [--format table|json]\n\n"
		 "What the store holds: machine classes, software profiles, benchmarks with their\n"
		 "result classes, or sessions (with their sample and error counts, and whether they\n"
		 "completed).\n\n"
		 "    --store URL    the store (default: $CLEARPATH_STORE or ~/.local/share/clearpath/results.db)\n"
		 "    --format FMT   table (default) or json (every field, fingerprints included)\n",
	.formats = list_formats,
	.min_args = 0,	/* a missing kind gets the list of kinds, like a wrong one */
	.max_args = 1,
};

static const struct list_kind *list_kind_find(const char *name)
{
	for (size_t i = 0; name && i < sizeof(list_kinds) / sizeof(list_kinds[0]); i++)
		if (!strcmp(name, list_kinds[i].name))
			return &list_kinds[i];
	log_err("%s%s%s: expected suts, swprofiles, benchmarks or sessions", name ? "cannot list '" : "list what?",
		name ?: "", name ? "'" : "");
	return NULL;
}

/* The value at @path ("fingerprint.thp_enabled") in @obj, or NULL. */
static json_t *list_lookup(json_t *obj, const char *path)
{
	char key[64];
	const char *dot = strchr(path, '.');

	if (!dot)
		return json_object_get(obj, path);
	snprintf(key, sizeof(key), "%.*s", (int)(dot - path), path);
	return list_lookup(json_object_get(obj, key), dot + 1);
}

/* A cell's text: strings as they are, numbers in full, flags as yes/no, nothing as "-". */
static void list_cell(json_t *v, char *buf, size_t len)
{
	if (json_is_string(v))
		snprintf(buf, len, "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, len, "%.17g", json_real_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, len, "%s", json_is_true(v) ? "yes" : "no");
	else
		snprintf(buf, len, "-");
}

static int list_add_row(struct rpt_table *t, const struct list_kind *k, size_t ncols, json_t *row)
{
	char text[LIST_MAX_COLS][1024];
	const char *cells[LIST_MAX_COLS];

	for (size_t c = 0; c < ncols; c++) {
		list_cell(list_lookup(row, k->cols[c].key), text[c], sizeof(text[c]));
		cells[c] = text[c];
	}
	return rpt_table_add_row(t, cells, ncols, NULL);
}

/* Render @rows as a grid table on stdout; returns 0 or a negative errno. */
static int list_table(const struct list_kind *k, json_t *rows)
{
	struct rpt_table *t = rpt_table_new(NULL);
	size_t ncols = 0, i;
	json_t *row;
	int ret = t ? 0 : -ENOMEM;

	for (; !ret && k->cols[ncols].key; ncols++)
		ret = rpt_table_add_column(t, k->cols[ncols].header, k->cols[ncols].flags);
	json_array_foreach(rows, i, row) {
		if (!ret)
			ret = list_add_row(t, k, ncols, row);
	}
	if (!ret)
		ret = rpt_render(t, "grid", NULL, stdout);
	rpt_table_free(t);
	return ret;
}

int cmd_list(int argc, char **argv)
{
	const struct list_kind *k;
	struct cli_args a;
	struct store *st;
	json_t *rows = NULL;
	int ret = cli_parse(&list_spec, argc, argv, &a);

	if (ret)
		return ret == CLI_HELP_SHOWN ? EXIT_OK : ret;
	k = list_kind_find(a.argc ? a.argv[0] : NULL);
	if (!k)
		return EXIT_USAGE;
	ret = store_url_open_existing(a.store_url, wl_identity_parse, &st);
	if (ret)
		return ret;
	ret = k->fetch(st, &rows);
	store_close(st);
	if (ret)
		return store_exit_code(ret);
	if (a.format_ix == LIST_JSON) {
		ret = json_dumpf(rows, stdout, JSON_INDENT(2)) ? -EIO : 0;
		fputc('\n', stdout);
	} else {
		ret = list_table(k, rows);
	}
	json_decref(rows);
	/* stdout that cannot be written is what main() says for every command: exit 1, not 3 */
	if (ferror(stdout) || (!ret && fflush(stdout)))
		return EXIT_OK;
	if (ret)
		log_err("cannot print the %s: %s", k->name, strerror(-ret));
	return ret ? EXIT_RESOURCE : EXIT_OK;
}
