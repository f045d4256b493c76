/* digest: the SHA-256 of each file a campaign's plan is read from, so a plan edited between boots is refused, not mixed in. */
#include "campaign/campaign.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sha2.h>

#include "util/log.h"

#define DIGEST_FILE_MAX (16 << 20)	/* a plan file past this is not one (plan_load reads less) */

/* The SHA-256 of file @path, in hex, into @hex.  0 or -errno. */
static int digest_file(const char *path, char hex[SHA256_DIGEST_STRING_LENGTH])
{
	FILE *f = fopen(path, "re");
	char *buf = malloc(DIGEST_FILE_MAX);
	size_t n;
	int err = 0;

	if (!f || !buf) {
		err = f ? -ENOMEM : -errno;
		goto out;
	}
	n = fread(buf, 1, DIGEST_FILE_MAX, f);
	if (ferror(f) || !feof(f))
		err = ferror(f) ? -EIO : -EFBIG;
	else
		SHA256Data((const uint8_t *)buf, n, hex);
out:
	if (f)
		fclose(f);
	free(buf);
	return err;
}

json_t *campaign_plan_digests(const struct plan *p)
{
	char hex[SHA256_DIGEST_STRING_LENGTH];
	json_t *out = json_object();

	for (size_t i = 0; out && i < p->nsources; i++) {
		int err = digest_file(p->sources[i].real, hex);

		if (err) {
			log_err("cannot read plan file %s: %s", p->sources[i].path, strerror(-err));
			json_decref(out);
			return NULL;
		}
		if (json_object_set_new(out, p->sources[i].real, json_string(hex))) {
			log_err("out of memory");
			json_decref(out);
			return NULL;
		}
	}
	return out;
}

int campaign_plan_unchanged(const struct campaign *c)
{
	const json_t *then = json_object_get(c->spec, "plan_files"), *v;
	json_t *now;
	const char *path;
	int ret = 0;

	/* a campaign started before clearpath kept them has nothing to compare */
	if (!json_is_object(then))
		return 0;
	if (!(now = campaign_plan_digests(c->plan)))
		return EXIT_RESOURCE;
	json_object_foreach(now, path, v)
		if (!ret && !json_equal(v, json_object_get(then, path))) {
			log_err("plan file %s %s since campaign %lld started: one campaign measures one plan", path,
				json_object_get(then, path) ? "changed" : "was added to its plan", (long long)c->row.id);
			ret = EXIT_USAGE;
		}
	json_object_foreach((json_t *)then, path, v)
		if (!ret && !json_object_get(now, path)) {
			log_err("plan file %s is no longer part of the plan of campaign %lld", path, (long long)c->row.id);
			ret = EXIT_USAGE;
		}
	if (ret)
		log_hint("put the plan back as it was to go on ('campaign abort' ends it), or start a new campaign with the new plan");
	json_decref(now);
	return ret;
}

const char *campaign_plan_relative(const struct plan *p, size_t i)
{
	const char *top = p->sources[0].path, *slash = strrchr(top, '/'), *rel;
	size_t dir = slash ? (size_t)(slash - top) + 1 : 0;

	if (i >= p->nsources || p->sources[i].absolute || strncmp(p->sources[i].path, top, dir))
		return NULL;
	rel = p->sources[i].path + dir;
	/* an include that climbs out of the plan's directory has no place in its copy */
	if (!strncmp(rel, "../", 3) || strstr(rel, "/../") || rel[0] == '/' || !*rel)
		return NULL;
	return rel;
}
