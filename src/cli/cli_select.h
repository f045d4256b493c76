/* cli_select: the options that choose what a comparison holds and how it judges, shared by show and report. */
#ifndef CLEARPATH_CLI_CLI_SELECT_H
#define CLEARPATH_CLI_CLI_SELECT_H

#include "compare/compare.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#define CLI_SELECT_MAX_SWPROFILES 32

struct cli_select {
	struct cmp_opts cmp;
	const char *swprofiles[CLI_SELECT_MAX_SWPROFILES];
	const char *store_url;	/* NULL: the default store */
	bool columns_given;	/* --columns was given (report otherwise lays out the columns the data has) */
};

/* getopt values of the selection options: above any command's own. */
enum {
	CLI_SEL_STORE = 512, CLI_SEL_SUT, CLI_SEL_SWPROFILE, CLI_SEL_BASE, CLI_SEL_BENCHMARK, CLI_SEL_COLUMNS,
	CLI_SEL_RULE, CLI_SEL_MIN_EFFECT, CLI_SEL_TARGET, CLI_SEL_ALPHA, CLI_SEL_FDR,
};

/* The selection options, to open a command's getopt table with. */
#define CLI_SELECT_OPTIONS \
	{ "store", required_argument, NULL, CLI_SEL_STORE }, \
	{ "sut", required_argument, NULL, CLI_SEL_SUT }, \
	{ "swprofile", required_argument, NULL, CLI_SEL_SWPROFILE }, \
	{ "base", required_argument, NULL, CLI_SEL_BASE }, \
	{ "benchmark", required_argument, NULL, CLI_SEL_BENCHMARK }, \
	{ "columns", required_argument, NULL, CLI_SEL_COLUMNS }, \
	{ "rule", required_argument, NULL, CLI_SEL_RULE }, \
	{ "min-effect", required_argument, NULL, CLI_SEL_MIN_EFFECT }, \
	{ "target", required_argument, NULL, CLI_SEL_TARGET }, \
	{ "alpha", required_argument, NULL, CLI_SEL_ALPHA }, \
	{ "fdr", required_argument, NULL, CLI_SEL_FDR }

/* The defaults: every sample, swprofile columns, the nested rule at the default alpha and effects. */
void cli_select_init(struct cli_select *s);

/*
 * Apply selection option @c.  Returns 0, or EXIT_USAGE after log_err() for
 * a bad value or a @c that is no selection option.
 */
int cli_select_option(int c, const char *arg, struct cli_select *s);

/* The selection options' help lines, as report prints them. */
void cli_select_usage(FILE *out);

/* "invalid value" unless @arg is one of @choices (NULL-terminated): 0 or EXIT_USAGE after log_err(). */
int cli_choice(const char *arg, const char *name, const char *const *choices);

#endif
