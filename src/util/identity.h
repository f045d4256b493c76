/* identity: a benchmark's identity as a value: suite, structured parameters, canonical key and display. */
#ifndef CLEARPATH_UTIL_IDENTITY_H
#define CLEARPATH_UTIL_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Workloads produce it (wl_identity()), the harness hands it to the store,
 * the store keeps it (benchmark.key and benchmark_param rows) and compare
 * reads its parameters: none of them re-parses a command line to know what
 * a benchmark is.  A plain value type, so those modules share it without
 * depending on each other.
 */
#define IDENT_MAX_PARAMS 40

/* One parameter: every option of the workload's table, defaults filled in, and -f. */
struct ident_param {
	char name[32];		/* the long name: "size", "function" */
	char alias[4];		/* the short name ("s"), "" when there is none */
	char value[128];	/* normalised: sizes as size_format() writes them ("1MB") */
	char shown[160];	/* as in the display ("-s 1MB"), "" when not given */
};

struct bench_identity {
	char suite[160];	/* "mem/memset", "exec/name" */
	/*
	 * The workload the parameters are of, "collection/name" ("mem/mmap"),
	 * whatever the suite is called ("perf/mem" + "mmap -p 4KB ..."); "" for
	 * a raw identity.
	 */
	char workload[64];	/* a collection and name of the registry: short */
	/*
	 * What users read: the options that were given, in the workload
	 * table's order ("-k 1GB -f default -s 16GB").  Two spellings of one
	 * benchmark may display differently; the store keeps the first.
	 */
	char display[1024];
	/*
	 * What decides equality: every parameter as name=value in table order
	 * ("chunk=1GB function=default size=16GB ..."), or for a command line
	 * that does not parse (an exec command, an old error row), the raw text.
	 */
	char key[2048];
	size_t nparams;		/* 0 for a raw identity */
	struct ident_param params[IDENT_MAX_PARAMS];
};

/*
 * The longest exec name and command an identity carries whole: "exec/NAME"
 * is the suite, the command is the display.  Plans refuse longer ones rather
 * than store a name cut short (two commands would then share one benchmark).
 */
#define IDENT_EXEC_NAME_MAX (sizeof(((struct bench_identity *)0)->suite) - sizeof("exec/"))
#define IDENT_EXEC_COMMAND_MAX (sizeof(((struct bench_identity *)0)->display) - 1)

/*
 * Who turns a benchmark's stored text (@suite, @params: a display or a
 * command line after the workload name) into its identity: the workloads,
 * which own the option tables (wl_identity_parse()).  Whatever reads
 * stored text (the store's imports, merges and migrations) is handed one;
 * 0 or a negative errno.
 */
typedef int (*ident_parse_fn)(const char *suite, const char *params, struct bench_identity *out);

/*
 * The identity of a benchmark as `show` names it in its Benchmark and
 * Result Class columns ("mem mmap -p 4KB -f demand -s 64MB": collection,
 * workload, then the display), by @parse; 0 or a negative errno (-EINVAL
 * when @text is not so named).
 */
int ident_parse_named(ident_parse_fn parse, const char *text, struct bench_identity *out);

/* An identity that is its text: no parameters, key and display both @text (NULL: ""). */
void ident_raw(struct bench_identity *id, const char *suite, const char *text);

/*
 * Append parameter @name (@alias may be "" or NULL) = @value; @shown is its
 * display text, NULL or "" when it was not given.  Returns 0, or -E2BIG when
 * the identity is full.
 */
int ident_add(struct bench_identity *id, const char *name, const char *alias, const char *value,
	      const char *shown);

/* Build key and display from the parameters, in their order. */
void ident_finish(struct bench_identity *id);

/* The parameter named @name, long or short; NULL when there is none. */
const struct ident_param *ident_find(const struct ident_param *p, size_t n, const char *name);

/*
 * A result class as data: the benchmark it is of (suite, workload,
 * parameters, key) and which of the benchmark's values it holds (the
 * metric).  What compare, the clear study, the THP notes and the profiles
 * read; the name is for people only, and only this module reads it back.
 * Its strings belong to whoever filled it in (the store's row, a
 * comparison's row: ident_class_dup()).
 */
struct ident_class {
	const char *suite;		/* as stored: "mem/clear", "perf/mem", "exec/name" */
	const char *workload;		/* "mem/clear"; "" for a raw identity (an exec, text that does not parse) */
	const char *display;		/* the benchmark as stored: "-k 2MB -f default -s 1GB --then read" */
	const char *key;		/* what decides the benchmark's equality (a raw one: its text) */
	const struct ident_param *param;	/* nparam of them, in the workload table's order */
	size_t nparam;
	/*
	 * Which value of the benchmark: "" its headline, "cycles", "then-read",
	 * "profile:clear_page_erms" (IDENT_PROFILE_METRIC); NULL for a class
	 * that is named by itself rather than after its benchmark (an exec's
	 * plan name, an imported "bw").
	 */
	const char *metric;
	const char *name;		/* what people read: "clear -k 2MB -f default -s 1GB --then read :then-read" */
};

/* The metrics of `--profile`: "profile:<symbol>", "profile:clearing" for the category. */
#define IDENT_PROFILE_METRIC "profile:"

/* The value of parameter @name (long or short) of @c's benchmark; NULL when it has none. */
const char *ident_value(const struct ident_class *c, const char *name);

/* Whether @c is of workload @workload ("mem/mmap"), whatever its suite is called. */
bool ident_is(const struct ident_class *c, const char *workload);

/* Whether @c holds its benchmark's headline value (metric ""). */
bool ident_headline(const struct ident_class *c);

/* The symbol of a --profile metric ("clear_page_erms", "clearing"); NULL for any other metric or NULL. */
const char *ident_profile_symbol(const char *metric);

/*
 * The name clearpath gives metric @metric ("" the headline) of a benchmark
 * of @suite stored as @display: the suite's workload, the display, then
 * " :metric" ("memset -k 1GB -f default -s 16GB :cycles").  Into @buf;
 * 0, or -E2BIG when it does not fit.
 */
int ident_class_name(const char *suite, const char *display, const char *metric, char *buf, size_t len);

/*
 * The metric of a result class known only by its text (an import, a store
 * written before result classes had one): @name of a benchmark of @suite
 * stored as @display.  A name clearpath gave (ident_class_name()), or the
 * display alone when it starts with the workload ("perf/mem" + "memset -k
 * 1GB ..."), followed by nothing (the headline, "") or " :metric": a pointer
 * into @name.  NULL when @name is not named after its benchmark.
 */
const char *ident_class_metric(const char *suite, const char *display, const char *name);

/*
 * Result class @name of a benchmark of @suite displayed as @from, renamed
 * for display @to ("memset -s 1MB -f x :cycles" -> "memset -f x -s 1MB
 * :cycles"), into @out: when another spelling of its benchmark was stored
 * first, its classes take that one's name.  A class not named after its
 * benchmark (ident_class_metric() NULL) is copied as is.
 */
void ident_class_rebase(const char *suite, const char *from, const char *to, const char *name, char *out,
			size_t len);

/*
 * What people read for @c when its parameter @drop (NULL: none) is what
 * the columns tell apart (show --columns param:f): its name without that
 * option ("clear -k 2MB -s 1GB" of "clear -k 2MB -f default -s 1GB"), where
 * the name shows it.  A new string; NULL when out of memory.
 */
char *ident_class_label(const struct ident_class *c, const char *drop);

/*
 * What decides whether two samples are of one result class, @drop (NULL:
 * none) left out: the suite, the benchmark's key without that parameter,
 * and the metric; for a class named by itself, the suite and its label
 * (an exec named "rate" in two plans is one class whatever its command).
 * A new string to compare with strcmp; NULL when out of memory.
 */
char *ident_class_key(const struct ident_class *c, const char *drop);

/*
 * The Benchmark column of @c: the suite's collection ("mem" of
 * "mem/memset") when the name already starts with the workload ("memset
 * -k 1GB ..."), else the whole suite ("perf/mem").  Into @buf.
 */
void ident_bench_column(const struct ident_class *c, char *buf, size_t len);

/* How much of @c's name is its benchmark's part ("mmap -s 1GB" of "mmap -s 1GB :profile:x"). */
size_t ident_class_head_len(const struct ident_class *c);

/*
 * A copy of @c in one allocation (free() it): a row of a comparison
 * outlives the store's row.  With @drop (NULL: none), the class as a row
 * whose columns are that parameter's values: its parameters and key
 * without it, its name the label (ident_class_label()).  NULL when out of
 * memory.
 */
struct ident_class *ident_class_dup(const struct ident_class *c, const char *drop);

#endif
