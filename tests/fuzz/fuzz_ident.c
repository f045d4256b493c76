/* fuzz_ident: libFuzzer harness for result classes as data: the real parser, names made and read back, row keys, copies, benchmarks as show names them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/identity.h"
#include "workloads/workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

/* The next line of @p (cut at '\n' in place), "" past the end. */
static char *next_line(char **p)
{
	char *line = *p, *nl = strchr(line, '\n');

	if (nl) {
		*nl = '\0';
		*p = nl + 1;
	} else {
		*p = line + strlen(line);
	}
	return line;
}

/* Input: suite, display, a stored class name and a metric, one a line. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	char *s = malloc(len + 1), *p, *suite, *display, *name, *metric, made[2048], out[2048];
	static struct bench_identity id, named;
	struct ident_class c, *d;
	const char *m;
	char *key;

	if (!s)
		return 0;
	memcpy(s, data, len);
	s[len] = '\0';
	p = s;
	suite = next_line(&p);
	display = next_line(&p);
	name = next_line(&p);
	metric = next_line(&p);
	if (wl_identity_parse(suite, display, &id))
		ident_raw(&id, suite, display);
	/* what clearpath names, it reads back */
	if (!ident_class_name(suite, display, metric, made, sizeof(made)) &&
	    (!(m = ident_class_metric(suite, display, made)) || strcmp(m, metric)))
		abort();
	c = (struct ident_class){ suite, id.workload, display, id.nparams ? id.key : display, id.params, id.nparams,
				  ident_class_metric(suite, display, name), name };
	ident_class_rebase(suite, display, id.display, name, out, sizeof(out));
	/* a rename keeps the metric */
	if (c.metric && strlen(name) < sizeof(out) - 2 * strlen(id.display) - 8 && id.display[0] &&
	    (!(m = ident_class_metric(suite, id.display, out)) || strcmp(m, c.metric)))
		abort();
	key = ident_class_key(&c, metric[0] ? metric : NULL);
	d = ident_class_dup(&c, metric[0] ? metric : NULL);
	if (!key || !d)
		abort();
	free(key);
	free(ident_class_label(d, NULL));
	ident_bench_column(d, out, sizeof(out));
	if (ident_class_head_len(d) > strlen(d->name) || (!c.metric) != (!d->metric))
		abort();
	free(d);
	/* any text as a session's profile record names a benchmark; what show names it, it reads back */
	(void)ident_parse_named(wl_identity_parse, name, &named);
	if (id.nparams && !strcmp(id.workload, suite) && !strchr(suite, ' ') && strlen(suite) + strlen(id.display) < sizeof(out) &&
	    (snprintf(out, sizeof(out), "%s %s", suite, id.display), *strchr(out, '/') = ' ',
	     ident_parse_named(wl_identity_parse, out, &named) || strcmp(named.key, id.key)))
		abort();
	free(s);
	return 0;
}
