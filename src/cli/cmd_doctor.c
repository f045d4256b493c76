/* cmd_doctor: `clearpath doctor [--for PLAN] [--fix] [--format text|json]`: is this machine fit to measure? */
#include "cli/cli_args.h"
#include "cli/cli_common.h"
#include "cli/commands.h"
#include "cli/doctor_modes.h"
#include "harness/fingerprint.h"
#include "plan/plan.h"
#include "doctor/doctor.h"
#include "util/log.h"
#include "util/size.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Gap between the two /proc/[pid]/stat samples: long enough to see a busy process, short to wait for. */
#define DOCTOR_SAMPLE_MS 200

static void doctor_usage(FILE *out)
{
	fprintf(out,
		"usage: clearpath doctor [--format text|json] [--needs-memory SIZE] [--hugepages SIZE:N]... [--for PLAN]\n"
		"                        [--fix] [--store URL [--sut NAME]]\n"
		"\n"
		"Checks whether this machine is fit to measure memory clearing: CPU frequency,\n"
		"transparent and hugetlb huge pages, memory, noise, NUMA and performance counters.\n"
		"One line per check: PASS, WARN (results will be noisier) or FAIL (a run cannot happen).\n"
		"\n"
		"  --format text|json     json: an array of {check, status, value, detail, fix}\n"
		"  --needs-memory SIZE    FAIL unless MemAvailable covers SIZE\n"
		"  --hugepages SIZE:N     FAIL unless N pages of SIZE are free (with --fix: reserve them)\n"
		"  --for PLAN             FAIL unless the plan's largest benchmark per page size fits\n"
		"                         (with --fix: reserve the hugepages it needs)\n"
		"  --fix                  as root: performance governor, THP enabled=madvise, reserve\n"
		"                         the --hugepages, page_reporting_order above the largest order\n"
		"                         while a balloon reports free pages, NUMA balancing off on more\n"
		"                         than one node; prints each change and the command that undoes it\n"
		"  --store URL            also read this machine's calibration sessions (clearpath calibrate)\n"
		"                         in the store: WARN per result class whose boots land in a fast or\n"
		"                         a slow mode (their levels fall into 2 modes)\n"
		"  --sut NAME             the SUT class to read there, instead of the detected one\n"
		"\n"
		"Nothing changes without --fix.  Exit codes: 0 no FAIL, 2 usage error (also --fix\n"
		"when not root), 3 a check failed or --fix could not get the resources.\n");
}

struct doctor_args {
	bool fix, json;
	struct doctor_needs needs;
	const char *store, *sut;	/* --store, --sut: NULL when not given */
};

/* The value of option @argv[*i], also in --opt=value form; NULL after logging when it is missing. */
static const char *doctor_optval(int argc, char **argv, int *i, const char *opt)
{
	size_t n = strlen(opt);

	if (!strncmp(argv[*i], opt, n) && argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (*i + 1 < argc)
		return argv[++*i];
	log_err("%s needs a value", opt);
	return NULL;
}

/* Whether @arg is option @opt, alone or as --opt=value. */
static bool doctor_is(const char *arg, const char *opt)
{
	size_t n = strlen(opt);

	return !strncmp(arg, opt, n) && (arg[n] == '\0' || arg[n] == '=');
}

static void doctor_add_need(void *arg, uint64_t bytes, uint64_t page)
{
	doctor_needs_add(arg, bytes, page);
}

/* Add what plan @file needs to @needs.  0 or an exit code after log_err(). */
static int doctor_plan_needs(const char *file, struct doctor_needs *needs)
{
	struct plan *p;
	int ret = plan_load(file, &p);

	if (!ret)
		ret = plan_each_need(p, doctor_add_need, needs);
	plan_free(p);
	return ret;
}

/* doctor's --format values, in the enum's order. */
enum { DOCTOR_TEXT, DOCTOR_JSON };
static const char *const doctor_formats[] = { [DOCTOR_TEXT] = "text", [DOCTOR_JSON] = "json", NULL };

/* Parse @argv into @a.  Returns 0, CLI_HELP_SHOWN, or EXIT_USAGE after logging. */
static int doctor_parse(int argc, char **argv, struct doctor_args *a)
{
	for (int i = 0; i < argc; i++) {
		const char *v;
		uint64_t bytes;
		int fmt;

		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			doctor_usage(stdout);
			return CLI_HELP_SHOWN;
		} else if (!strcmp(argv[i], "--fix")) {
			a->fix = true;
		} else if (doctor_is(argv[i], "--format")) {
			if (!(v = doctor_optval(argc, argv, &i, "--format")))
				return EXIT_USAGE;
			if ((fmt = cli_format_index(doctor_formats, v)) < 0) {
				log_err("unknown output format '%s': expected text or json", v);
				return EXIT_USAGE;
			}
			a->json = fmt == DOCTOR_JSON;
		} else if (doctor_is(argv[i], "--needs-memory")) {
			if (!(v = doctor_optval(argc, argv, &i, "--needs-memory")))
				return EXIT_USAGE;
			if (size_parse(v, &bytes)) {
				log_err("bad size '%s' for --needs-memory: expected %s", v, SIZE_FORMS);
				return EXIT_USAGE;
			}
			doctor_needs_add(&a->needs, bytes, 0);
		} else if (doctor_is(argv[i], "--hugepages")) {
			if (!(v = doctor_optval(argc, argv, &i, "--hugepages")))
				return EXIT_USAGE;
			if (doctor_needs_parse_hugepages(&a->needs, v)) {
				log_err("bad --hugepages '%s': expected SIZE:N with a huge page size, e.g. 2MB:4 or 1GB:2", v);
				return EXIT_USAGE;
			}
		} else if (doctor_is(argv[i], "--for")) {
			int ret;

			if (!(v = doctor_optval(argc, argv, &i, "--for")))
				return EXIT_USAGE;
			if ((ret = doctor_plan_needs(v, &a->needs)))
				return ret;
		} else if (doctor_is(argv[i], "--store") || doctor_is(argv[i], "--sut")) {
			bool store = doctor_is(argv[i], "--store");

			if (!(v = doctor_optval(argc, argv, &i, store ? "--store" : "--sut")))
				return EXIT_USAGE;
			if (!*v) {
				log_err("%s needs a %s, not an empty one", store ? "--store" : "--sut", store ? "URL" : "name");
				return EXIT_USAGE;
			}
			*(store ? &a->store : &a->sut) = v;
		} else {
			log_err("unknown doctor option '%s'", argv[i]);
			log_hint("'clearpath doctor --help' lists them");
			return EXIT_USAGE;
		}
	}
	if (a->sut && !a->store) {
		log_err("--sut names the SUT class to read in --store: give --store too");
		return EXIT_USAGE;
	}
	return 0;
}

/* doctor --store: the calibration sessions of --sut, or of the SUT class this machine is, into @rep. */
static int doctor_run_store(const struct doctor_args *a, struct doctor_report *rep)
{
	char name[256];
	json_t *fp = NULL;
	int ret;

	if (!a->sut && !(fp = fp_sut(name, sizeof(name)))) {
		log_err("out of memory reading this machine's fingerprint");
		return EXIT_INTERNAL;
	}
	ret = doctor_store_modes(a->store, a->sut ? a->sut : name, rep);
	json_decref(fp);
	return ret;
}

/*
 * --fix writes kernel settings, so it needs root.  A fixture tree
 * ($CLEARPATH_SYSROOT) is the exception: the writes land in files the
 * user owns, which is how the tests exercise --fix without root.
 */
static int doctor_run_fix(const struct doctor_args *a)
{
	const char *root = getenv("CLEARPATH_SYSROOT");
	int ret;

	if (geteuid() != 0 && !(root && root[0])) {
		log_err("--fix changes kernel settings and needs root; nothing was changed");
		log_hint("run it as root (sudo clearpath doctor --fix ...), or drop --fix to only check");
		return EXIT_USAGE;
	}
	/* with --format json, stdout carries only the JSON */
	ret = doctor_fix(&a->needs, a->json ? stderr : stdout);
	if (ret == -ENOMEM || ret == -EOPNOTSUPP)
		return EXIT_RESOURCE;
	return ret ? EXIT_INTERNAL : EXIT_OK;
}

static int doctor_print(const struct doctor_report *rep, bool json)
{
	json_t *arr;

	if (!json) {
		doctor_report_text(rep, cli_terminal_width(), stdout);
		return 0;
	}
	arr = doctor_report_json(rep);
	if (!arr || json_dumpf(arr, stdout, JSON_INDENT(2)) || putchar('\n') == EOF) {
		json_decref(arr);
		log_err("cannot write the JSON report");
		return EXIT_INTERNAL;
	}
	json_decref(arr);
	return 0;
}

int cmd_doctor(int argc, char **argv)
{
	struct doctor_args a = { 0 };
	struct doctor_opts opts = { .needs = &a.needs, .sample_ms = DOCTOR_SAMPLE_MS };
	struct doctor_report rep = { 0 };
	int ret = doctor_parse(argc, argv, &a);

	if (ret)
		return ret == CLI_HELP_SHOWN ? EXIT_OK : ret;
	if (a.fix) {
		ret = doctor_run_fix(&a);
		if (ret == EXIT_USAGE || ret == EXIT_INTERNAL)
			return ret;
	}
	if (doctor_run(&opts, &rep)) {
		log_err("out of memory while checking");
		doctor_report_free(&rep);
		return EXIT_INTERNAL;
	}
	if (a.store && (ret = doctor_run_store(&a, &rep))) {
		doctor_report_free(&rep);
		return ret;
	}
	if (!doctor_print(&rep, a.json) && !ret && doctor_worst(&rep) == DOCTOR_FAIL)
		ret = EXIT_RESOURCE;
	else if (!ret)
		ret = EXIT_OK;
	doctor_report_free(&rep);
	return ret;
}
