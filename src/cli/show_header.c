/* show_header: the store listings the header model (report/header.h) is built from, for show and report. */
#include "cli/show.h"
#include "report/header.h"
#include "store/store.h"

json_t *show_header_inputs(struct store *st)
{
	json_t *sessions = NULL, *suts = NULL, *swprofiles = NULL;

	/* each listing logs its own failure */
	if (store_list_sessions(st, &sessions) || store_list_suts(st, &suts) ||
	    store_list_swprofiles(st, &swprofiles)) {
		json_decref(sessions);
		json_decref(suts);
		json_decref(swprofiles);
		return NULL;
	}
	return json_pack("{s:o, s:o, s:o}", "sessions", sessions, "suts", suts, "swprofiles", swprofiles);
}

struct rpt_header *show_header_build(const struct cmp_set *set, const json_t *inputs)
{
	return rpt_header_build(set, json_object_get(inputs, "sessions"), json_object_get(inputs, "suts"),
				json_object_get(inputs, "swprofiles"));
}
