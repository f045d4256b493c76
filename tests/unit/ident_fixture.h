/* ident_fixture: a result class as data from its suite and name, as the store hands it to compare (tests only). */
#ifndef CLEARPATH_TESTS_IDENT_FIXTURE_H
#define CLEARPATH_TESTS_IDENT_FIXTURE_H

#include "util/identity.h"
#include "workloads/workload.h"

#include <stdio.h>
#include <string.h>

/* A class with the storage its pointers point into. */
struct fixture_class {
	struct bench_identity id;
	char display[1024], name[1200];
	struct ident_class c;
};

/*
 * The class of @suite named @name ("mmap -p 4KB -f demand -s 1GB :cycles"),
 * as a store that took it from clearpath or from an import holds it: the
 * benchmark's display is the name before its metric, less the workload
 * word when that is the suite's ("mem/mmap"), whole when it is not
 * ("perf/mem" + "mmap -p 4KB ..."); parameters and workload from the real
 * parser, the metric as the store reads it.  Returns @fc->c.
 */
static inline const struct ident_class *fixture_class(struct fixture_class *fc, const char *suite, const char *name)
{
	const char *slash = strrchr(suite, '/'), *tail = slash ? slash + 1 : suite, *colon = strstr(name, " :");
	size_t head = colon ? (size_t)(colon - name) : strlen(name), t = strlen(tail);

	snprintf(fc->name, sizeof(fc->name), "%s", name);
	if (!strncmp(name, tail, t) && name[t] == ' ' && t < head)
		snprintf(fc->display, sizeof(fc->display), "%.*s", (int)(head - t - 1), name + t + 1);
	else
		snprintf(fc->display, sizeof(fc->display), "%.*s", (int)head, name);
	if (wl_identity_parse(suite, fc->display, &fc->id))
		ident_raw(&fc->id, suite, fc->display);
	fc->c = (struct ident_class){ suite, fc->id.workload, fc->display, fc->id.nparams ? fc->id.key : fc->display,
				      fc->id.params, fc->id.nparams, NULL, fc->name };
	fc->c.metric = ident_class_metric(suite, fc->display, fc->name);
	return &fc->c;
}

#endif
