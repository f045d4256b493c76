/* plan_units: a plan's benchmarks as the harness's units of work (plan depends on harness, not the reverse). */
#include "plan/plan.h"
#include "harness/harness.h"
#include "util/log.h"

#include <stdlib.h>

int plan_units(const struct plan *p, struct harness_unit **out)
{
	struct harness_unit *u = calloc(p->nbench ? p->nbench : 1, sizeof(*u));

	*out = u;
	if (!u)
		return EXIT_INTERNAL;
	for (size_t i = 0; i < p->nbench; i++) {
		const struct plan_bench *b = &p->bench[i];

		u[i] = (struct harness_unit){
			.kind = b->kind == PLAN_EXEC ? HARNESS_EXEC : HARNESS_BENCH,
			.id = b->id,
			.argc = b->argc,
			.argv = b->argv,
			.exec = { b->exec.command, b->exec.regex, b->exec.unit, b->exec.higher_is_better },
			.warmups = b->proto.warmups,
			.repeats = b->proto.repeats,
			.sessions = b->proto.sessions,
			.timeout_s = b->proto.timeout_s,
			.profile = b->proto.profile == 1,
			.profile_hz = b->proto.profile_hz,
			.profile_event = b->proto.profile_event ? profile_event_name(b->proto.profile_event - 1) : NULL,
		};
	}
	return 0;
}
