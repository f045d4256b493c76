/* http: one LAVA server over libcurl: its base URL, the token header, bounded requests with JSON in and out. */
#define _GNU_SOURCE	/* asprintf */
#include "lava/http.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

/* Nothing a server sends may make the controller hold more than this at once. */
#define HTTP_MAX_BODY (64u << 20)

/* @url as the server's base: scheme http(s), a host, a trailing slash, lavacli's /RPC2 dropped.  NULL: malformed. */
static char *http_base(const char *url)
{
	size_t n = strlen(url);
	char *base;

	if (strncmp(url, "http://", 7) && strncmp(url, "https://", 8))
		return NULL;
	if (!url[strcspn(url, ":") + 3] || url[strcspn(url, ":") + 3] == '/')
		return NULL;
	if (n >= 5 && !strcmp(url + n - 5, "/RPC2"))
		n -= 4;
	else if (n >= 6 && !strcmp(url + n - 6, "/RPC2/"))
		n -= 5;
	if (asprintf(&base, "%.*s%s", (int)n, url, n && url[n - 1] == '/' ? "" : "/") < 0)
		return NULL;
	return base;
}

int lava_http_base(const char *url, char **base)
{
	if (!(*base = http_base(url))) {
		log_err("lava: '%s' is not a server URL", url);
		log_hint("give the server's address as http://HOST[:PORT]/ or https://HOST[:PORT]/");
		return EXIT_USAGE;
	}
	return 0;
}

#ifdef CLEARPATH_HAVE_LIBCURL
#include <curl/curl.h>

struct lava {
	char *url;		/* normalised, with the trailing slash */
	char *token;
	CURL *curl;
	struct curl_slist *headers;
};

bool lava_supported(void)
{
	return true;
}

int lava_open(const char *url, const struct lava_auth *auth, struct lava **out)
{
	struct lava *l = calloc(1, sizeof(*l));
	char *hdr = NULL;
	int ret;

	*out = NULL;
	if (!l) {
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	ret = lava_http_base(url, &l->url);
	if (!ret)
		ret = lava_token(l->url, auth, &l->token);
	if (!ret) {
		curl_global_init(CURL_GLOBAL_DEFAULT);
		if (!(l->curl = curl_easy_init()) || asprintf(&hdr, "Authorization: Token %s", l->token) < 0 ||
		    !(l->headers = curl_slist_append(NULL, hdr)) ||
		    !(l->headers = curl_slist_append(l->headers, "Accept: application/json"))) {
			log_err("out of memory");
			ret = EXIT_INTERNAL;
		}
	}
	if (hdr) {
		/* the token lived in this copy too */
		memset(hdr, 0, strlen(hdr));
		free(hdr);
	}
	if (ret) {
		lava_close(l);
		return ret;
	}
	*out = l;
	return 0;
}

void lava_close(struct lava *l)
{
	if (!l)
		return;
	if (l->curl)
		curl_easy_cleanup(l->curl);
	curl_slist_free_all(l->headers);
	if (l->token)
		memset(l->token, 0, strlen(l->token));
	free(l->token);
	free(l->url);
	free(l);
}

const char *lava_url(const struct lava *l)
{
	return l->url;
}

struct http_buf {
	char *data;
	size_t len;
	bool too_big;
};

static size_t http_write(char *ptr, size_t size, size_t nmemb, void *arg)
{
	struct http_buf *b = arg;
	size_t n = size * nmemb;
	char *p;

	if (b->len + n > HTTP_MAX_BODY) {
		b->too_big = true;
		return 0;
	}
	if (!(p = realloc(b->data, b->len + n + 1)))
		return 0;
	memcpy(p + b->len, ptr, n);
	b->data = p;
	b->len += n;
	b->data[b->len] = '\0';
	return n;
}

/* The server's own words about a refusal: its "message" or "detail", or the start of the body. */
static void http_why(const char *body, char *why, size_t len)
{
	json_t *j = body ? json_loads(body, 0, NULL) : NULL;
	const char *m = j ? json_string_value(json_object_get(j, "message")) : NULL;

	if (!m && j)
		m = json_string_value(json_object_get(j, "detail"));
	snprintf(why, len, "%.200s", m ? m : body ? body : "");
	for (char *c = why; *c; c++)
		if (*c == '\n' || *c == '\r')
			*c = ' ';
	json_decref(j);
}

int lava_http(struct lava *l, const char *method, const char *path, const json_t *body, long *status,
	      char **text, size_t *len)
{
	struct http_buf b = { 0 };
	char *url = NULL, *payload = NULL, errbuf[CURL_ERROR_SIZE] = "";
	struct curl_slist *headers = l->headers, *extra = NULL;
	CURLcode rc;
	int ret = 0;

	*text = NULL;
	if (len)
		*len = 0;
	if (asprintf(&url, "%s%s", l->url, path) < 0 || (body && !(payload = json_dumps(body, JSON_COMPACT)))) {
		free(url);
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	curl_easy_reset(l->curl);
	curl_easy_setopt(l->curl, CURLOPT_URL, url);
	curl_easy_setopt(l->curl, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(l->curl, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(l->curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(l->curl, CURLOPT_CONNECTTIMEOUT, 20L);
	curl_easy_setopt(l->curl, CURLOPT_TIMEOUT, 120L);
	curl_easy_setopt(l->curl, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(l->curl, CURLOPT_WRITEFUNCTION, http_write);
	curl_easy_setopt(l->curl, CURLOPT_WRITEDATA, &b);
	curl_easy_setopt(l->curl, CURLOPT_USERAGENT, "clearpath/" CLEARPATH_VERSION);
	if (payload) {
		if (!(extra = curl_slist_append(NULL, "Content-Type: application/json"))) {
			ret = EXIT_INTERNAL;
			log_err("out of memory");
			goto out;
		}
		/* the shared headers, then this request's */
		for (struct curl_slist *h = l->headers; h; h = h->next)
			if (!(extra = curl_slist_append(extra, h->data))) {
				ret = EXIT_INTERNAL;
				log_err("out of memory");
				goto out;
			}
		headers = extra;
		curl_easy_setopt(l->curl, CURLOPT_POSTFIELDS, payload);
	}
	curl_easy_setopt(l->curl, CURLOPT_CUSTOMREQUEST, method);
	curl_easy_setopt(l->curl, CURLOPT_HTTPHEADER, headers);
	rc = curl_easy_perform(l->curl);
	if (rc != CURLE_OK) {
		if (b.too_big)
			log_err("lava %s: %s %s: the answer is larger than %u MB", l->url, method, path, HTTP_MAX_BODY >> 20);
		else
			log_err("lava %s: %s %s: %s", l->url, method, path, errbuf[0] ? errbuf : curl_easy_strerror(rc));
		ret = b.too_big ? EXIT_RESOURCE : rc == CURLE_OUT_OF_MEMORY ? EXIT_INTERNAL : EXIT_RESOURCE;
		goto out;
	}
	curl_easy_getinfo(l->curl, CURLINFO_RESPONSE_CODE, status);
	*text = b.data ? b.data : strdup("");
	b.data = NULL;
	if (!*text) {
		log_err("out of memory");
		ret = EXIT_INTERNAL;
	} else if (len)
		*len = b.len;
out:
	/* the token was copied into this request's headers */
	for (struct curl_slist *h = extra; h; h = h->next)
		memset(h->data, 0, strlen(h->data));
	curl_slist_free_all(extra);
	free(b.data);
	free(payload);
	free(url);
	return ret;
}

int lava_http_json(struct lava *l, const char *method, const char *path, const json_t *body, long expect,
		   json_t **out)
{
	long status = 0;
	char *text, why[256];
	json_error_t err;
	int ret = lava_http(l, method, path, body, &status, &text, NULL);

	*out = NULL;
	if (ret)
		return ret;
	if (status != expect) {
		http_why(text, why, sizeof(why));
		log_err("lava %s: %s %s: HTTP %ld%s%s", l->url, method, path, status, why[0] ? ": " : "", why);
		if (status == 401 || status == 403)
			log_hint("the token is refused or lacks the permission: check --lava-token-file or the lavacli identity");
		free(text);
		/* 4xx: what was asked is wrong; 5xx and the rest: the server's trouble, try again later */
		return status >= 400 && status < 500 && status != 404 && status != 408 && status != 429 ? EXIT_USAGE
												      : EXIT_RESOURCE;
	}
	*out = json_loads(text, 0, &err);
	free(text);
	if (!*out || !json_is_object(*out)) {
		json_decref(*out);
		*out = NULL;
		log_err("lava %s: %s %s: the answer is not a JSON object", l->url, method, path);
		return EXIT_RESOURCE;
	}
	return 0;
}

#else /* !CLEARPATH_HAVE_LIBCURL */

struct lava {
	char *url;
};

bool lava_supported(void)
{
	return false;
}

static int http_unsupported(void)
{
	log_err("this clearpath was built without LAVA support (libcurl)");
	log_hint("build it where libcurl4-openssl-dev is installed (scripts/install-deps)");
	return EXIT_USAGE;
}

int lava_open(const char *url, const struct lava_auth *auth, struct lava **out)
{
	(void)url;
	(void)auth;
	*out = NULL;
	return http_unsupported();
}

void lava_close(struct lava *l)
{
	if (l)
		free(l->url);
	free(l);
}

const char *lava_url(const struct lava *l)
{
	return l->url;
}

int lava_http(struct lava *l, const char *method, const char *path, const json_t *body, long *status,
	      char **text, size_t *len)
{
	(void)l, (void)method, (void)path, (void)body, (void)status, (void)len;
	*text = NULL;
	return http_unsupported();
}

int lava_http_json(struct lava *l, const char *method, const char *path, const json_t *body, long expect,
		   json_t **out)
{
	(void)l, (void)method, (void)path, (void)body, (void)expect;
	*out = NULL;
	return http_unsupported();
}

#endif
