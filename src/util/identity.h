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

#endif
