/* ssh_accept: what a host hands back is checked before it is stored: exactly the one session its boot was to give. */
#include "campaign/campaign.h"
#include "campaign/ssh.h"
#include "store/store.h"
#include "store/url.h"
#include "util/log.h"
#include "util/text.h"
#include "workloads/workload.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The SUT class of @target's sessions brought back before in @c (@facts' when none is yet), into @buf. */
static int accept_sut_of(const struct campaign *c, const char *target, const char *facts, char *buf, size_t len)
{
	const struct store_campaign_boot *prev = NULL;
	struct store *st;
	json_t *all = NULL, *se;
	size_t i;
	int ret;

	snprintf(buf, len, "%s", facts);
	for (size_t k = 0; !prev && k < c->nboots; k++)
		if (!strcmp(c->boots[k].target, target) && c->boots[k].session[0])
			prev = &c->boots[k];
	if (!prev)
		return 0;
	if ((ret = campaign_store_open(c->store_url, &st)))
		return ret;
	ret = store_exit_code(store_list_sessions(st, &all));
	store_close(st);
	json_array_foreach(all, i, se)
		if (!strcmp(json_string_value(json_object_get(se, "uuid")), prev->session))
			snprintf(buf, len, "%s", json_string_value(json_object_get(se, "sut")));
	json_decref(all);
	return ret;
}

/* Why the sessions @all of a host's file are not the one @b was to give (NULL: they are), into @why. */
static const char *accept_why(const json_t *all, const struct store_campaign_boot *b, const char *sut, char *why,
			      size_t len)
{
	const json_t *se = json_array_get(all, 0);
	const char *got_boot = json_string_value(json_object_get(se, "boot_id"));
	const char *got_sw = json_string_value(json_object_get(se, "swprofile"));
	const char *got_sut = json_string_value(json_object_get(se, "sut"));

	if (json_array_size(all) != 1)
		snprintf(why, len, "it holds %zu sessions, not the one of this boot", json_array_size(all));
	else if (!json_is_true(json_object_get(se, "complete")))
		snprintf(why, len, "its session is not complete");
	else if (!got_boot || strcmp(got_boot, b->boot_id))
		snprintf(why, len, "its session was measured under boot id %s, not %s, the boot just checked",
			 got_boot ? got_boot : "(none)", b->boot_id);
	else if (!got_sw || strcmp(got_sw, b->swprofile))
		snprintf(why, len, "its session is filed under swprofile '%s', not '%s', the swprofile of this boot",
			 got_sw ? got_sw : "", b->swprofile);
	else if (!got_sut || strcmp(got_sut, sut))
		snprintf(why, len, "its session is filed under SUT class '%s', not '%s', this host's",
			 got_sut ? got_sut : "", sut);
	else
		return NULL;
	text_one_line(why);
	return why;
}

/* @file imported into the scratch store @scratch, its sessions into *@all. */
static int accept_load(const char *file, const char *scratch, json_t **all)
{
	struct store *st;
	FILE *in = fopen(file, "r");
	int err;

	*all = NULL;
	if (!in) {
		log_err("cannot read %s: %s", file, strerror(errno));
		return EXIT_INTERNAL;
	}
	err = store_open(scratch, wl_identity_parse, &st);
	if (!err) {
		err = store_import(st, in, file, NULL);
		if (!err)
			err = store_list_sessions(st, all);
		store_close(st);
	}
	fclose(in);
	return err ? EXIT_RESOURCE : 0;
}

/* The session @uuid of @scratch in the whole form, alone (its SUT and swprofile, nothing else), to @out. */
static int accept_write(const char *scratch, const char *uuid, const char *out)
{
	const char *uuids[] = { uuid };
	struct store *st;
	FILE *f = fopen(out, "w");
	int err = f ? store_open(scratch, wl_identity_parse, &st) : -errno;

	if (!err) {
		err = store_export_whole(st, f, STORE_CSV, uuids, 1);
		store_close(st);
	}
	if (f && fclose(f) && !err)
		err = -errno;
	if (err)
		log_err("cannot write %s: %s", out, strerror(-err));
	return err ? EXIT_INTERNAL : 0;
}

int campaign_ssh_accept(const struct campaign *c, const struct store_campaign_boot *b, const char *host_sut,
			const char *file, const char *dir, char *out, size_t len)
{
	char scratch[4096], sut[256], why[1024];
	json_t *all = NULL;
	int ret;

	snprintf(scratch, sizeof(scratch), "%s/check.db", dir);
	if ((size_t)snprintf(out, len, "%s/accepted.csv", dir) >= len)
		return EXIT_INTERNAL;
	if ((ret = accept_sut_of(c, b->target, host_sut, sut, sizeof(sut))))
		return ret;
	if ((ret = accept_load(file, scratch, &all))) {
		log_err("%s: what the host handed back for boot %d (%s) is no session clearpath can read", b->target,
			b->pos + 1, b->swprofile);
		json_decref(all);
		return EXIT_RESOURCE;
	}
	if (accept_why(all, b, sut, why, sizeof(why))) {
		log_err("%s: the session the host handed back for boot %d (%s) is refused: %s", b->target, b->pos + 1,
			b->swprofile, why);
		log_hint("only the one session measured under the boot just checked is taken from a host");
		json_decref(all);
		return EXIT_RESOURCE;
	}
	ret = accept_write(scratch, json_string_value(json_object_get(json_array_get(all, 0), "uuid")), out);
	json_decref(all);
	return ret;
}
