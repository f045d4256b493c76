/* cmd_plan: `clearpath plan validate|show|run FILE`: check a plan and say what it will run and for how long. */
#include "campaign/method.h"
#include "cli/commands.h"
#include "machine/machine.h"
#include "plan/plan.h"
#include "util/log.h"
#include "util/size.h"
#include "util/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void plan_usage(FILE *out)
{
	fprintf(out, "usage: clearpath plan <command> FILE\n\n"
		"  validate FILE                   check the plan; every bench line goes through its workload's parser\n"
		"  show [--scale auto|N] FILE      the expanded benchmarks, their invocations and an estimated time;\n"
		"                                  --scale auto divides sizes by the smallest power of two that fits here\n"
		"  run [options] FILE              run the plan into the store: sessions, shuffled order, --resume\n"
		"                                  ('clearpath plan run --help' lists the options)\n");
}

/* "1h 5m", "3m 20s", "12s": rough on purpose, it is an estimate. */
static char *plan_duration(double s, char *buf, size_t len)
{
	unsigned long t;

	/* past a million hours (sizes of terabytes times -l 2^32) converting to an integer overflowed: "0s" */
	if (!(s < 3600e6)) {
		snprintf(buf, len, "> 1000000h");
		return buf;
	}
	t = (unsigned long)(s + 0.5);
	if (s > 0 && s < 0.5)
		snprintf(buf, len, "<1s");
	else if (t >= 3600)
		snprintf(buf, len, "%luh %lum", t / 3600, t % 3600 / 60);
	else if (t >= 60)
		snprintf(buf, len, "%lum %lus", t / 60, t % 60);
	else
		snprintf(buf, len, "%lus", t);
	return buf;
}

/* A benchmark as shown: an exec's name is the plan's text, so it goes through the sanitiser. */
static void plan_label(const struct plan_bench *b, char *buf, size_t len)
{
	if (b->kind == PLAN_EXEC)
		snprintf(buf, len, "exec %s", b->id);
	else
		snprintf(buf, len, "%s %s", b->wl->collection, b->id);
	text_one_line(buf);
}

/* The plan's header line; its name, file and swprofile are the plan's text too. */
static void plan_print_header(const struct plan *p)
{
	char *name = text_one_line_dup(p->name), *file = text_one_line_dup(p->file),
	     *sw = text_one_line_dup(p->swprofile);

	printf("plan %s (%s), swprofile %s\n", name ?: "?", file ?: "?", sw ?: "?");
	free(name);
	free(file);
	free(sw);
}

/*
 * Which benchmarks clear a buffer no larger than this machine's last-level
 * cache: it can stay there between being dirtied and cleared, so their rates
 * measure the cache more than memory (and non-temporal stores, which go to
 * memory, lose to it unfairly).  Nothing when the machine does not say.
 */
static void plan_print_cache(const struct plan *p)
{
	char llc_s[32], buf_s[32], list[512] = "";
	uint64_t llc, bytes, most = 0;
	unsigned level, n = 0;
	size_t run = 0;		/* the benchmark a range of consecutive ones started at, + 1 */

	if (machine_llc(&llc, &level))
		return;
	for (size_t i = 0; i <= p->nbench; i++) {
		bool in = i < p->nbench && p->bench[i].kind == PLAN_BENCH &&
			  !plan_bench_buffer(&p->bench[i], &bytes) && bytes <= llc;

		if (in) {
			n++;
			most = bytes > most ? bytes : most;
			run = run ? run : i + 1;
		} else if (run) {
			/* "1-3, 5": benchmarks by their number in the table */
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%zu", *list ? ", " : "", run);
			if (i > run)
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "-%zu", i);
			run = 0;
		}
	}
	if (!n)
		return;
	size_format(llc, llc_s, sizeof(llc_s));
	printf("cache-resident: #%s clear%s buffers of at most %s, within this machine's %s L%u cache:\n"
	       "  %s rates measure the cache more than memory (buffers above %s measure memory)\n", list,
	       n > 1 ? "" : "s", size_format(most, buf_s, sizeof(buf_s)), llc_s, level, n > 1 ? "their" : "its",
	       llc_s);
}

static void plan_print(const struct plan *p)
{
	unsigned long total = 0;
	double secs = 0;
	int width = 9;
	char label[320], dur[32];
	bool exec = false;

	for (size_t i = 0; i < p->nbench; i++) {
		plan_label(&p->bench[i], label, sizeof(label));
		if ((int)strlen(label) > width)
			width = (int)strlen(label);
	}
	plan_print_header(p);
	if (p->raised > 1)
		printf("buffers the last-level cache holds raised %u-fold, past it (buffers: past-cache)\n", p->raised);
	if (p->scale > 1)
		printf("sizes divided by %u to fit this machine\n", p->scale);
	printf("\n%4s  %-*s  %7s  %7s  %8s  %11s  %8s\n", "#", width, "benchmark", "warmups", "repeats",
	       "sessions", "invocations", "estimate");
	for (size_t i = 0; i < p->nbench; i++) {
		const struct plan_bench *b = &p->bench[i];
		double s = plan_estimate_s(b) * (double)plan_invocations(b);

		plan_label(b, label, sizeof(label));
		printf("%4zu  %-*s  %7u  %7u  %8u  %11lu  %8s\n", i + 1, width, label, b->proto.warmups,
		       b->proto.repeats, b->proto.sessions, plan_invocations(b),
		       plan_duration(s, dur, sizeof(dur)));
		total += plan_invocations(b);
		secs += s;
		exec |= b->kind == PLAN_EXEC;
	}
	printf("\n%zu benchmarks, %lu invocations, about %s\n", p->nbench, total,
	       plan_duration(secs, dur, sizeof(dur)));
	printf("estimate assumes memset and clear at %.0f GB/sec (with their untimed prefault, dirty and\n"
	       "verify passes), mmap demand faults at %.0f GB/sec, every -f function this CPU has",
	       PLAN_RATE_CLEAR / (1ULL << 30), PLAN_RATE_MMAP / (1ULL << 30));
	if (exec)
		printf("; exec: %.0f s per invocation (or its timeout if shorter)", PLAN_EXEC_GUESS_S);
	printf("\n");
	plan_print_cache(p);
}

/* --scale auto|N: 0 for auto, else the divisor.  Returns 0 or EXIT_USAGE. */
static int plan_scale_arg(const char *arg, unsigned *divisor)
{
	char *end;
	unsigned long v;

	if (!strcmp(arg, "auto")) {
		*divisor = 0;
		return 0;
	}
	v = strtoul(arg, &end, 10);
	if (*arg < '1' || *arg > '9' || *end || v > (1UL << 20) || (v & (v - 1))) {
		log_err("--scale takes 'auto' or a power of two up to 1048576, not '%s'", arg);
		return EXIT_USAGE;
	}
	*divisor = (unsigned)v;
	return 0;
}

/* Options of show/validate: FILE and --scale in any order. */
static int plan_args(int argc, char **argv, bool scale_ok, const char **file, unsigned *divisor)
{
	*file = NULL;
	*divisor = 1;
	for (int i = 0; i < argc; i++) {
		const char *val = NULL;

		if (scale_ok && !strncmp(argv[i], "--scale=", 8))
			val = argv[i] + 8;
		else if (scale_ok && !strcmp(argv[i], "--scale") && i + 1 < argc)
			val = argv[++i];
		if (val) {
			if (plan_scale_arg(val, divisor))
				return EXIT_USAGE;
		} else if (argv[i][0] == '-' || *file) {
			log_err("unexpected argument '%s'", argv[i]);
			log_hint("see 'clearpath plan --help'");
			return EXIT_USAGE;
		} else {
			*file = argv[i];
		}
	}
	if (!*file) {
		log_err("plan needs a plan file, e.g. 'clearpath plan show plans/quick.yaml'");
		return EXIT_USAGE;
	}
	return 0;
}

/* Parse the arguments and load the plan they name.  Returns 0 or an exit code after log_err(). */
static int plan_open(int argc, char **argv, bool scale_ok, const char **file, unsigned *divisor,
		     struct plan **p)
{
	int ret = plan_args(argc, argv, scale_ok, file, divisor);

	return ret ?: plan_load(*file, p);
}

static int plan_validate(int argc, char **argv)
{
	struct plan *p;
	const char *file;
	unsigned divisor;
	int ret = plan_open(argc, argv, false, &file, &divisor, &p);

	/* a campaign's swprofiles: each `boot` as its method reads it */
	if (!ret && (ret = campaign_methods_bind(p)))
		plan_free(p);
	if (ret)
		return ret;
	printf("%s: ok, %zu benchmarks\n", file, p->nbench);
	plan_free(p);
	return EXIT_OK;
}

static int plan_show(int argc, char **argv)
{
	struct plan *p;
	const char *file;
	unsigned divisor;
	int ret = plan_open(argc, argv, true, &file, &divisor, &p);

	unsigned factor;
	uint64_t llc;

	if (ret)
		return ret;
	if (p->past_cache)
		ret = plan_past_cache(p, &factor, &llc);
	if (!ret)
		ret = divisor ? plan_scale(p, divisor) : plan_scale_auto(p, &divisor);
	if (!ret) {
		plan_print(p);
		/* a plan is shown to decide whether to run it: say now what would stop it */
		if (plan_check(p, log_warn) == EXIT_RESOURCE && p->scale == 1)
			log_hint("'clearpath plan show --scale auto %s' shows it scaled to fit", file);
	}
	plan_free(p);
	return ret;
}

int cmd_plan(int argc, char **argv)
{
	if (argc == 0 || !strcmp(argv[0], "-h") || !strcmp(argv[0], "--help")) {
		plan_usage(argc == 0 ? stderr : stdout);
		return argc == 0 ? EXIT_USAGE : EXIT_OK;
	}
	if (!strcmp(argv[0], "validate"))
		return plan_validate(argc - 1, argv + 1);
	if (!strcmp(argv[0], "show"))
		return plan_show(argc - 1, argv + 1);
	if (!strcmp(argv[0], "run"))
		return plan_run(argc - 1, argv + 1);
	log_err("unknown plan command '%s': expected validate, show or run", argv[0]);
	log_hint("see 'clearpath plan --help'");
	return EXIT_USAGE;
}
