/* api: the REST calls a campaign makes to a LAVA server (v0.2): who am I, submit, validate, follow, find, cancel, devices. */
#define _GNU_SOURCE	/* asprintf */
#include "lava/http.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

/* Lines of a job's log asked for at once: a bounded answer however long the log. */
#define API_LOG_WINDOW 2000

int lava_whoami(struct lava *l, char **user)
{
	json_t *j;
	const char *u;
	int ret = lava_http_json(l, "GET", "api/v0.2/system/whoami/", NULL, 200, &j);

	*user = NULL;
	if (ret)
		return ret;
	u = json_string_value(json_object_get(j, "user"));
	if (!u || !*u) {
		log_err("lava %s: the token is not accepted (the server sees no user)", lava_url(l));
		log_hint("check --lava-token-file or the lavacli identity: the token may have been revoked");
		ret = EXIT_USAGE;
	} else if (!(*user = strdup(u))) {
		log_err("out of memory");
		ret = EXIT_INTERNAL;
	}
	json_decref(j);
	return ret;
}

int lava_submit(struct lava *l, const char *yaml, long *job)
{
	json_t *body = json_pack("{s:s}", "definition", yaml), *j = NULL, *ids;
	int ret;

	*job = 0;
	if (!body) {
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	ret = lava_http_json(l, "POST", "api/v0.2/jobs/", body, 201, &j);
	json_decref(body);
	if (ret)
		return ret;
	ids = json_object_get(j, "job_ids");
	if (json_array_size(ids) != 1 || !json_is_integer(json_array_get(ids, 0)) ||
	    json_integer_value(json_array_get(ids, 0)) <= 0) {
		log_err("lava %s: the server accepted the job but named no one job id", lava_url(l));
		ret = EXIT_RESOURCE;
	} else
		*job = (long)json_integer_value(json_array_get(ids, 0));
	json_decref(j);
	return ret;
}

int lava_validate(struct lava *l, const char *yaml, char *why, size_t len, bool *valid)
{
	json_t *body = json_pack("{s:s,s:b}", "definition", yaml, "strict", 1), *j = NULL;
	const char *m;
	int ret;

	*valid = false;
	snprintf(why, len, "%s", "");
	if (!body) {
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	ret = lava_http_json(l, "POST", "api/v0.2/jobs/validate/", body, 200, &j);
	json_decref(body);
	if (ret)
		return ret;
	m = json_string_value(json_object_get(j, "message"));
	*valid = m && !strcmp(m, "Job valid.");
	if (!*valid)
		snprintf(why, len, "%s", m ? m : "the server gave no reason");
	json_decref(j);
	return 0;
}

static const char *api_str(const json_t *j, const char *key)
{
	const char *s = json_string_value(json_object_get(j, key));

	return s ? s : "";
}

/* A job object of the API into @out; -EINVAL when it is not one (not logged). */
static int api_job(const json_t *j, struct lava_job *out)
{
	const char *state = api_str(j, "state"), *health = api_str(j, "health");

	memset(out, 0, sizeof(*out));
	if (!json_is_integer(json_object_get(j, "id")))
		return -EINVAL;
	out->id = (long)json_integer_value(json_object_get(j, "id"));
	if (!strcmp(state, "Submitted"))
		out->state = LAVA_SUBMITTED;
	else if (!strcmp(state, "Scheduling") || !strcmp(state, "Scheduled") || !strcmp(state, "Running"))
		out->state = LAVA_SCHEDULED;
	else if (!strcmp(state, "Canceling"))
		out->state = LAVA_CANCELING;
	else if (!strcmp(state, "Finished"))
		out->state = LAVA_FINISHED;
	else
		return -EINVAL;
	if (!strcmp(health, "Complete"))
		out->health = LAVA_COMPLETE;
	else if (!strcmp(health, "Incomplete"))
		out->health = LAVA_INCOMPLETE;
	else if (!strcmp(health, "Canceled"))
		out->health = LAVA_CANCELED;
	else
		out->health = LAVA_UNKNOWN;
	snprintf(out->device, sizeof(out->device), "%s", api_str(j, "actual_device"));
	snprintf(out->name, sizeof(out->name), "%s", api_str(j, "description"));
	snprintf(out->failure, sizeof(out->failure), "%s", api_str(j, "failure_comment"));
	/* a traceback, often: one line for a message */
	for (char *c = out->failure; *c; c++)
		if (*c == '\n' || *c == '\r' || *c == '\t')
			*c = ' ';
	return 0;
}

int lava_job_get(struct lava *l, long id, struct lava_job *jb)
{
	char path[64];
	json_t *j;
	int ret;

	snprintf(path, sizeof(path), "api/v0.2/jobs/%ld/", id);
	ret = lava_http_json(l, "GET", path, NULL, 200, &j);
	if (ret)
		return ret;
	if (api_job(j, jb) || jb->id != id) {
		log_err("lava %s: job %ld: the server's answer is not a job", lava_url(l), id);
		ret = EXIT_RESOURCE;
	}
	json_decref(j);
	return ret;
}

/* @s escaped for a URL query (malloc'd), or NULL. */
static char *api_query_escape(const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	char *out = malloc(3 * strlen(s) + 1), *o = out;

	if (!out)
		return NULL;
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
		    strchr("-._~", *c))
			*o++ = (char)*c;
		else {
			*o++ = '%';
			*o++ = hex[*c >> 4];
			*o++ = hex[*c & 15];
		}
	}
	*o = '\0';
	return out;
}

int lava_job_find(struct lava *l, const char *name, struct lava_job *jb)
{
	char *q = api_query_escape(name), *path = NULL, *user = NULL, *qu = NULL;
	json_t *j = NULL, *res;
	int ret = q ? lava_whoami(l, &user) : EXIT_INTERNAL;

	if (!ret && (!(qu = api_query_escape(user)) ||
		     asprintf(&path, "api/v0.2/jobs/?description=%s&submitter__username=%s&ordering=-id&limit=1", q,
			      qu) < 0)) {
		path = NULL;
		ret = EXIT_INTERNAL;
	}
	if (ret == EXIT_INTERNAL)
		log_err("out of memory");
	if (!ret)
		ret = lava_http_json(l, "GET", path, NULL, 200, &j);
	if (!ret) {
		res = json_object_get(j, "results");
		if (!json_is_array(res)) {
			log_err("lava %s: the job list is not a list", lava_url(l));
			ret = EXIT_RESOURCE;
		} else if (!json_array_size(res))
			ret = -ENOENT;
		else if (api_job(json_array_get(res, 0), jb) || strcmp(jb->name, name)) {
			log_err("lava %s: the job list does not hold the job asked for", lava_url(l));
			ret = EXIT_RESOURCE;
		}
	}
	json_decref(j);
	free(path);
	free(qu);
	free(user);
	free(q);
	return ret;
}

int lava_cancel(struct lava *l, long id)
{
	char path[64];
	json_t *j;
	int ret;

	snprintf(path, sizeof(path), "api/v0.2/jobs/%ld/cancel/", id);
	ret = lava_http_json(l, "GET", path, NULL, 200, &j);
	json_decref(j);
	return ret;
}

int lava_log(struct lava *l, long id, size_t start, lava_line_fn fn, void *arg, size_t *next)
{
	char path[96], *text = NULL;
	long status = 0;
	size_t len = 0, n = 0;
	int ret;

	*next = start;
	for (;;) {
		snprintf(path, sizeof(path), "api/v0.2/jobs/%ld/logs/?start=%zu&end=%zu", id, *next,
			 *next + API_LOG_WINDOW);
		ret = lava_http(l, "GET", path, NULL, &status, &text, &len);
		if (ret)
			return ret;
		/* no log yet (the job has not started), or nothing past @start */
		if (status == 404 || (status == 200 && !len))
			break;
		if (status != 200) {
			log_err("lava %s: GET %s: HTTP %ld", lava_url(l), path, status);
			free(text);
			return status >= 500 ? EXIT_RESOURCE : EXIT_USAGE;
		}
		ret = lava_log_parse(text, len, fn, arg, &n);
		free(text);
		text = NULL;
		*next += n;
		if (ret == -EINVAL) {
			log_err("lava %s: job %ld: its log is not a list of lines", lava_url(l), id);
			return EXIT_RESOURCE;
		}
		if (ret || n < API_LOG_WINDOW)
			return ret;
	}
	free(text);
	return 0;
}

/* Whether device @d carries every tag of @tags. */
static bool api_has_tags(const json_t *d, const char *const *tags)
{
	const json_t *t = json_object_get(d, "tags");

	for (size_t i = 0; tags && tags[i]; i++) {
		bool found = false;
		size_t k;
		json_t *v;

		json_array_foreach(t, k, v)
			if (json_is_string(v) && !strcmp(json_string_value(v), tags[i]))
				found = true;
		if (!found)
			return false;
	}
	return true;
}

int lava_devices(struct lava *l, const char *device_type, const char *const *tags, size_t *usable, size_t *total)
{
	char *q = api_query_escape(device_type), *path = NULL;
	json_t *j = NULL, *res, *d;
	size_t i;
	int ret = 0;

	*usable = *total = 0;
	if (!q || asprintf(&path, "api/v0.2/devices/?device_type=%s&limit=1000", q) < 0) {
		free(q);
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	ret = lava_http_json(l, "GET", path, NULL, 200, &j);
	if (!ret && !json_is_array(res = json_object_get(j, "results"))) {
		log_err("lava %s: the device list is not a list", lava_url(l));
		ret = EXIT_RESOURCE;
	}
	if (!ret)
		json_array_foreach(res, i, d) {
			const char *health = api_str(d, "health");

			if (!api_has_tags(d, tags))
				continue;
			++*total;
			if (!strcmp(health, "Good") || !strcmp(health, "Unknown") || !strcmp(health, "Looping"))
				++*usable;
		}
	json_decref(j);
	free(path);
	free(q);
	return ret;
}
