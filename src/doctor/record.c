/* record: the doctor's warnings a session stores with its environment, so a report can show what the machine was like. */
#include "doctor/doctor.h"

#include <string.h>

/* The names of the checks @rep holds, in order, each once (hugetlb adds one result per pool). */
static json_t *doctor_record_checks(const struct doctor_report *rep)
{
	json_t *names = json_array();

	for (size_t i = 0; names && i < rep->n; i++) {
		const char *name = rep->items[i].check;

		if (i && !strcmp(rep->items[i - 1].check, name))
			continue;
		if (json_array_append_new(names, json_string(name))) {
			json_decref(names);
			return NULL;
		}
	}
	return names;
}

/* @all's results less those that passed: a PASS tells a reader of the results nothing. */
static json_t *doctor_record_warnings(json_t *all)
{
	json_t *warnings = json_array(), *r;
	size_t i;

	json_array_foreach(all, i, r) {
		if (!warnings || !strcmp(json_string_value(json_object_get(r, "status")), "PASS"))
			continue;
		if (json_array_append(warnings, r)) {
			json_decref(warnings);
			warnings = NULL;
		}
	}
	return warnings;
}

json_t *doctor_session_record(unsigned session)
{
	struct doctor_opts opts = { .session = session | DOCTOR_SESSION_ALWAYS };
	struct doctor_report rep = { 0 };
	json_t *out = NULL, *checks = NULL, *all = NULL, *warnings = NULL;

	if (!doctor_run(&opts, &rep)) {
		checks = doctor_record_checks(&rep);
		all = doctor_report_json(&rep);
		warnings = all ? doctor_record_warnings(all) : NULL;
	}
	if (checks && warnings)
		out = json_pack("{s:O, s:O}", "checks", checks, "warnings", warnings);
	json_decref(checks);
	json_decref(all);
	json_decref(warnings);
	doctor_report_free(&rep);
	return out;
}
