/* plan_int: what the files of src/plan share with each other and with nothing else. */
#ifndef CLEARPATH_PLAN_PLAN_INT_H
#define CLEARPATH_PLAN_PLAN_INT_H

#include "plan/plan.h"

#include <yaml.h>

#define PLAN_MAX_DEPTH 16
/*
 * Files read for one plan, a file included again counted again: a fan-out
 * (each file including the next ten times) grows exponentially.
 */
#define PLAN_MAX_FILES 256

/* One plan run through plan_load(): the plan being filled and the include chain. */
struct plan_reader {
	struct plan *plan;
	char *real[PLAN_MAX_DEPTH];	/* realpath of each file being read, outermost first */
	const char *shown[PLAN_MAX_DEPTH];	/* the same, as named in messages */
	size_t depth;
	size_t files;		/* files read so far, the top plan included */
};

/* One YAML file being read. */
struct plan_file {
	struct plan_reader *rd;
	const char *path;
	yaml_document_t doc;
};

/* The option of @wl named @key (short or long, or f/function), or NULL. */
const struct wl_opt *plan_opt_find(const struct workload *wl, const char *key);

/*
 * Log that @key is no option of @wl, naming the nearest option.  Returns
 * EXIT_USAGE.
 */
int plan_opt_unknown(const struct plan_loc *loc, const struct workload *wl, const char *key);

/*
 * Append @opt with @value (NULL for a flag) to @b's args; sizes are written
 * in their shortest exact form so equal sizes give equal ids.  Returns 0,
 * or EXIT_USAGE after plan_err() when @opt is already there, EXIT_INTERNAL
 * when out of memory.
 */
int plan_bench_add_arg(struct plan_bench *b, const struct wl_opt *opt, const char *value,
		       const struct plan_loc *loc);

/*
 * Fill @b (zeroed, with @b->file/line/col set) from one string-form bench
 * line ("mem mmap -p 1GB -f demand -s 32GB -l 5"): the workload parser
 * judges it first, then its options are kept in the order written.
 * Returns 0 or an exit code after log_err().
 */
int plan_bench_from_line(struct plan_bench *b, const char *line);

/*
 * Rebuild @b's argv and id from its args and check the result with the
 * workload parser and the workload's function list.  Returns 0 or
 * EXIT_USAGE after log_err() naming where @b was written.
 */
int plan_bench_build(struct plan_bench *b);

/* Free what @b owns and zero it. */
void plan_bench_clear(struct plan_bench *b);

/* Where node @n of @f was written. */
struct plan_loc plan_node_loc(const struct plan_file *f, const yaml_node_t *n);

/* Node @index of @f's document. */
yaml_node_t *plan_node(struct plan_file *f, int index);

/* The text of scalar @n, or NULL after plan_err() saying @what must be a single value. */
const char *plan_scalar(struct plan_file *f, yaml_node_t *n, const char *what);

/* 0 when @n is of @type (mapping or sequence), else EXIT_USAGE after plan_err() naming @what. */
int plan_expect(struct plan_file *f, yaml_node_t *n, yaml_node_type_t type, const char *what);

/*
 * Check that @n is a mapping whose keys are all in @valid, none twice; an
 * unknown key is named with the nearest valid one.  0 or EXIT_USAGE.
 */
int plan_check_keys(struct plan_file *f, yaml_node_t *n, const char *what, const char *const *valid,
		    size_t nvalid);

/* The value of @key in mapping @n (checked by plan_check_keys()), or NULL. */
yaml_node_t *plan_get(struct plan_file *f, yaml_node_t *n, const char *key);

/* Read the top plan's `swprofiles` mapping @n into @f's plan (plan_swprofile.c).  0 or an exit code. */
int plan_read_swprofiles(struct plan_file *f, yaml_node_t *n);

/* Free the swprofiles of @p. */
void plan_swprofiles_free(struct plan *p);

/* Duplicate @s, or log "out of memory" and return NULL. */
char *plan_strdup(const char *s);

#endif
