/* cli_select: the options that choose what a comparison holds and how it judges, shared by show and report. */
#include "cli/cli_select.h"
#include "util/log.h"

#include <stdlib.h>
#include <string.h>

void cli_select_init(struct cli_select *s)
{
	memset(s, 0, sizeof(*s));
	s->cmp.alpha = STATS_DEFAULT_ALPHA;
	s->cmp.min_effect_pct = STATS_DEFAULT_MIN_EFFECT_PCT;
	s->cmp.target_pct = STATS_DEFAULT_TARGET_PCT;
}

void cli_select_usage(FILE *out)
{
	fprintf(out,
		"    --store URL            the store (default: $CLEARPATH_STORE or ~/.local/share/clearpath/results.db)\n"
		"    --sut GLOB             only SUT classes matching GLOB\n"
		"    --swprofile NAME       a column (repeat; order as given; the first is the base)\n"
		"    --base NAME            the base column (default: the first)\n"
		"    --benchmark GLOB       only benchmarks or result classes matching GLOB\n"
		"    --columns AXIS         swprofile (default), sut, or param:NAME (e.g. param:f)\n"
		"    --rule RULE            nested (default: sessions are the unit) or fastpath\n"
		"                           (pooled samples, intervals must not overlap)\n"
		"    --min-effect PCT       smallest change ever marked (default 0.5)\n"
		"    --target PCT           the change an undecided cell plans for: the sessions\n"
		"                           needed to detect it (default 1)\n"
		"    --alpha A              significance level of each cell (default 0.05)\n"
		"    --fdr Q                judge each table as one question: marks keep its false\n"
		"                           discovery rate at or below Q (Benjamini-Hochberg; e.g. 0.05)\n");
}

static int cli_select_double(const char *arg, const char *name, double lo, double hi, double *out)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end || !(v >= lo && v <= hi)) {
		log_err("invalid value '%s' for --%s: expected a number from %g to %g", arg, name, lo, hi);
		return EXIT_USAGE;
	}
	*out = v;
	return 0;
}

static int cli_select_columns(const char *arg, struct cmp_opts *c)
{
	if (!strcmp(arg, "swprofile")) {
		c->axis = CMP_BY_SWPROFILE;
	} else if (!strcmp(arg, "sut")) {
		c->axis = CMP_BY_SUT;
	} else if (!strncmp(arg, "param:", 6) && arg[6]) {
		c->axis = CMP_BY_PARAM;
		c->param = arg + 6;
	} else {
		log_err("invalid value '%s' for --columns: expected swprofile, sut or param:NAME", arg);
		return EXIT_USAGE;
	}
	return 0;
}

int cli_choice(const char *arg, const char *name, const char *const *choices)
{
	for (const char *const *c = choices; *c; c++)
		if (!strcmp(arg, *c))
			return 0;
	char list[128] = "";

	for (const char *const *c = choices; *c; c++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
			 c == choices ? "" : c[1] ? ", " : " or ", *c);
	log_err("invalid value '%s' for --%s: expected %s", arg, name, list);
	return EXIT_USAGE;
}

int cli_select_option(int c, const char *arg, struct cli_select *s)
{
	static const char *const rules[] = { "nested", "fastpath", NULL };

	switch (c) {
	case CLI_SEL_STORE: s->store_url = arg; return 0;
	case CLI_SEL_SUT: s->cmp.sut_glob = arg; return 0;
	case CLI_SEL_BASE: s->cmp.base = arg; return 0;
	case CLI_SEL_BENCHMARK: s->cmp.benchmark_glob = arg; return 0;
	case CLI_SEL_COLUMNS:
		s->columns_given = true;
		return cli_select_columns(arg, &s->cmp);
	case CLI_SEL_MIN_EFFECT: return cli_select_double(arg, "min-effect", 0, 1000, &s->cmp.min_effect_pct);
	case CLI_SEL_TARGET: return cli_select_double(arg, "target", 0.001, 1000, &s->cmp.target_pct);
	case CLI_SEL_ALPHA: return cli_select_double(arg, "alpha", 1e-9, 0.5, &s->cmp.alpha);
	case CLI_SEL_FDR: return cli_select_double(arg, "fdr", 1e-9, 0.5, &s->cmp.fdr);
	case CLI_SEL_RULE:
		s->cmp.rule = strcmp(arg, "fastpath") ? STATS_RULE_NESTED : STATS_RULE_FASTPATH;
		return cli_choice(arg, "rule", rules);
	case CLI_SEL_SWPROFILE:
		if (s->cmp.nswprofiles == CLI_SELECT_MAX_SWPROFILES) {
			log_err("at most %d --swprofile columns", CLI_SELECT_MAX_SWPROFILES);
			return EXIT_USAGE;
		}
		s->swprofiles[s->cmp.nswprofiles++] = arg;
		s->cmp.swprofiles = s->swprofiles;
		return 0;
	}
	log_err("unknown option; see --help");
	return EXIT_USAGE;
}
