/* frame: what a clearpath LAVA job prints on the device's console for the controller, read back from its log and checked. */
#include "lava/frame.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CLEARPATH_HAVE_LIBCURL
#include <openssl/evp.h>
#endif

/* A session's export is small (kilobytes); a device that sends more is not sending a session. */
#define FRAME_MAX_B64 (48u << 20)

void lava_frame_init(struct lava_frame *f, const char *tag)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->tag, sizeof(f->tag), "%s", tag);
	f->exit_status = -1;
}

void lava_frame_free(struct lava_frame *f)
{
	free(f->b64);
	f->b64 = NULL;
	f->len = f->cap = 0;
}

/* The next space-separated word of *@s into @buf (cut to @len - 1); false when there is none. */
static bool frame_word(const char **s, char *buf, size_t len)
{
	const char *p = *s + strspn(*s, " "), *e = p + strcspn(p, " ");

	if (p == e)
		return false;
	snprintf(buf, len, "%.*s", (int)(e - p), p);
	*s = e;
	return true;
}

static int frame_data(struct lava_frame *f, const char *b64)
{
	size_t n = strlen(b64);
	char *p;

	for (const char *c = b64; *c; c++)
		if (!((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '+' ||
		      *c == '/' || *c == '='))
			return f->bad = true, 0;
	if (f->len + n + 1 > FRAME_MAX_B64)
		return f->bad = true, 0;
	if (f->len + n + 1 > f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 4096;

		while (cap < f->len + n + 1)
			cap *= 2;
		if (!(p = realloc(f->b64, cap)))
			return -ENOMEM;
		f->b64 = p;
		f->cap = cap;
	}
	memcpy(f->b64 + f->len, b64, n);
	f->len += n;
	f->b64[f->len] = '\0';
	return 0;
}

int lava_frame_line(struct lava_frame *f, const char *line)
{
	char word[80], kind[16];
	const char *p = line;
	size_t n;

	/* "clearpath-lava TAG KIND ...": a line of this job's, and no other's */
	if (!frame_word(&p, word, sizeof(word)) || strcmp(word, LAVA_FRAME_MARK) ||
	    !frame_word(&p, word, sizeof(word)) || strcmp(word, f->tag) || !frame_word(&p, kind, sizeof(kind)))
		return 0;
	p += strspn(p, " ");
	/* the console ends lines with \r\n */
	n = strcspn(p, "\r\n");
	if (!strcmp(kind, "facts")) {
		char rest[512];

		snprintf(rest, sizeof(rest), "%.*s", (int)n, p);
		p = rest;
		if (!frame_word(&p, f->boot_id, sizeof(f->boot_id)) || !frame_word(&p, f->release, sizeof(f->release)))
			f->bad = true;
		else
			f->have_facts = true;
	} else if (!strcmp(kind, "cmdline"))
		snprintf(f->cmdline, sizeof(f->cmdline), "%.*s", (int)n, p);
	else if (!strcmp(kind, "exit"))
		f->exit_status = atoi(p);
	else if (!strcmp(kind, "begin")) {
		if (f->begun || sscanf(p, "%zu %64s", &f->bytes, f->sha256) != 2)
			f->bad = true;
		f->begun = true;
	} else if (!strcmp(kind, "data")) {
		char chunk[256];

		if (!f->begun || f->ended || n >= sizeof(chunk))
			return f->bad = true, 0;
		snprintf(chunk, sizeof(chunk), "%.*s", (int)n, p);
		return frame_data(f, chunk);
	} else if (!strcmp(kind, "end")) {
		if (!f->begun)
			f->bad = true;
		f->ended = true;
	}
	return 0;
}

#ifdef CLEARPATH_HAVE_LIBCURL
int lava_frame_decode(const struct lava_frame *f, char **data, size_t *len, char *why, size_t whylen)
{
	unsigned char md[EVP_MAX_MD_SIZE], *out;
	unsigned int mdlen = 0;
	char hex[2 * EVP_MAX_MD_SIZE + 1];
	EVP_ENCODE_CTX *ctx;
	int n = 0, fin = 0, ok;

	*data = NULL;
	*len = 0;
	if (f->bad || !f->begun || !f->ended) {
		snprintf(why, whylen, "%s", f->bad ? "the session it printed is garbled"
					  : !f->begun ? "it printed no session" : "the session it printed was cut short");
		return -EINVAL;
	}
	if (!(out = malloc(f->len / 4 * 3 + 4)) || !(ctx = EVP_ENCODE_CTX_new())) {
		free(out);
		return -ENOMEM;
	}
	EVP_DecodeInit(ctx);
	ok = EVP_DecodeUpdate(ctx, out, &n, (const unsigned char *)f->b64, (int)f->len) >= 0 &&
	     EVP_DecodeFinal(ctx, out + n, &fin) == 1;
	EVP_ENCODE_CTX_free(ctx);
	if (ok && (size_t)(n + fin) == f->bytes &&
	    EVP_Digest(out, f->bytes, md, &mdlen, EVP_sha256(), NULL)) {
		for (unsigned i = 0; i < mdlen; i++)
			snprintf(hex + 2 * i, 3, "%02x", md[i]);
		ok = !strcmp(hex, f->sha256);
	} else
		ok = 0;
	if (!ok) {
		free(out);
		snprintf(why, whylen, "the session it printed does not match its size and SHA-256 (garbled on the console)");
		return -EINVAL;
	}
	*data = (char *)out;
	*len = f->bytes;
	return 0;
}
#else
int lava_frame_decode(const struct lava_frame *f, char **data, size_t *len, char *why, size_t whylen)
{
	(void)f;
	*data = NULL;
	*len = 0;
	snprintf(why, whylen, "built without LAVA support");
	return -ENOTSUP;
}
#endif
