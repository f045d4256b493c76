/* auth: the API token for a LAVA server, from a token file of its owner's or from lavacli's identities file. */
#define _GNU_SOURCE	/* asprintf */
#include "lava/http.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "util/log.h"

/* Neither file is ever this large; a larger one is not what we think it is. */
#define AUTH_MAX_FILE (1u << 20)
#define AUTH_MAX_TOKEN 1024

/*
 * @path read whole into *@text when it is a regular file of at most
 * AUTH_MAX_FILE bytes; *@st its status.  0, or an exit code after log_err().
 */
static int auth_slurp(const char *path, const char *what, char **text, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	ssize_t n = 0, r;
	char *buf = NULL;

	*text = NULL;
	if (fd < 0 && errno == ELOOP)
		fd = open(path, O_RDONLY | O_CLOEXEC);	/* a link is fine; what it names is checked below */
	if (fd < 0) {
		log_err("cannot read %s %s: %s", what, path, strerror(errno));
		return errno == ENOENT || errno == EACCES ? EXIT_USAGE : EXIT_RESOURCE;
	}
	if (fstat(fd, st) || !S_ISREG(st->st_mode) || st->st_size > AUTH_MAX_FILE) {
		log_err("%s %s is not a regular file of at most %u bytes", what, path, AUTH_MAX_FILE);
		close(fd);
		return EXIT_USAGE;
	}
	if (!(buf = malloc((size_t)st->st_size + 1))) {
		close(fd);
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	while (n < st->st_size && (r = read(fd, buf + n, (size_t)(st->st_size - n))) > 0)
		n += r;
	close(fd);
	buf[n] = '\0';
	*text = buf;
	return 0;
}

/* Whether @t can go into a header as it is: printable ASCII without spaces, and not too long. */
static bool auth_token_ok(const char *t)
{
	size_t n = strlen(t);

	if (!n || n > AUTH_MAX_TOKEN)
		return false;
	for (; *t; t++)
		if (*t <= ' ' || *t > '~')
			return false;
	return true;
}

/* The first line of @path, which only its owner may read. */
static int auth_token_file(const char *path, char **token)
{
	struct stat st;
	char *text;
	int ret = auth_slurp(path, "the token file", &text, &st);

	if (ret)
		return ret;
	if (st.st_mode & 077) {
		log_err("the token file %s can be read by others (mode %04o)", path, (unsigned)(st.st_mode & 07777));
		log_hint("chmod 600 %s", path);
		ret = EXIT_USAGE;
	} else {
		text[strcspn(text, "\r\n")] = '\0';
		if (!auth_token_ok(text)) {
			log_err("the token file %s does not hold a token on its first line", path);
			ret = EXIT_USAGE;
		}
	}
	if (ret) {
		memset(text, 0, strlen(text));
		free(text);
		return ret;
	}
	*token = text;
	return 0;
}

/* lavacli's identities file: $XDG_CONFIG_HOME/lavacli.yaml, else ~/.config/lavacli.yaml. */
static char *auth_lavacli_path(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	char *p;

	if (xdg && *xdg)
		return asprintf(&p, "%s/lavacli.yaml", xdg) < 0 ? NULL : p;
	return asprintf(&p, "%s/.config/lavacli.yaml", home && *home ? home : ".") < 0 ? NULL : p;
}

/* The scalar value of @key in mapping @map of @doc, or NULL. */
static const char *auth_get(yaml_document_t *doc, yaml_node_t *map, const char *key)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(doc, p->key), *v = yaml_document_get_node(doc, p->value);

		if (k && v && k->type == YAML_SCALAR_NODE && v->type == YAML_SCALAR_NODE &&
		    !strcmp((const char *)k->data.scalar.value, key))
			return (const char *)v->data.scalar.value;
	}
	return NULL;
}

/* Whether identity @id's uri is the server @base (both normalised). */
static bool auth_same_server(yaml_document_t *doc, yaml_node_t *id, const char *base)
{
	const char *uri = auth_get(doc, id, "uri");
	char *b = NULL;
	bool same;

	if (!uri)
		return false;
	/* quietly: an identity for something else is not an error */
	{
		bool q = log_set_quiet(true);

		if (lava_http_base(uri, &b))
			b = NULL;
		log_set_quiet(q);
	}
	same = b && !strcmp(b, base);
	free(b);
	return same;
}

/*
 * Pick the identity of @doc for server @base: @name when given (its uri must be
 * @base), else the one whose uri is @base ("default" when several are).
 */
static int auth_pick(yaml_document_t *doc, const char *path, const char *base, const char *name, yaml_node_t **out)
{
	yaml_node_t *root = yaml_document_get_root_node(doc), *found = NULL;

	*out = NULL;
	if (!root || root->type != YAML_MAPPING_NODE) {
		log_err("%s is not lavacli's identities file (a mapping of identities)", path);
		return EXIT_USAGE;
	}
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(doc, p->key), *v = yaml_document_get_node(doc, p->value);
		const char *id = k && k->type == YAML_SCALAR_NODE ? (const char *)k->data.scalar.value : "";

		if (name) {
			if (strcmp(id, name))
				continue;
			if (!auth_same_server(doc, v, base)) {
				log_err("the lavacli identity '%s' of %s is for %s, not %s", name, path,
					auth_get(doc, v, "uri") ? auth_get(doc, v, "uri") : "no uri", base);
				return EXIT_USAGE;
			}
			*out = v;
			return 0;
		}
		if (auth_same_server(doc, v, base) && (!found || !strcmp(id, "default")))
			found = v;
	}
	if (name) {
		log_err("%s has no identity '%s'", path, name);
		log_hint("lavacli identities list shows them; lavacli identities add NAME --uri %sRPC2 --username U --token T adds one",
			 base);
		return EXIT_USAGE;
	}
	if (!found) {
		log_err("no credentials for %s: no identity of %s is for it, and no --lava-token-file was given", base, path);
		log_hint("give --lava-token-file FILE (the token alone, chmod 600), or add a lavacli identity for %sRPC2", base);
		return EXIT_USAGE;
	}
	*out = found;
	return 0;
}

static int auth_lavacli(const char *base, const char *name, char **token)
{
	char *path = auth_lavacli_path(), *text = NULL;
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *id;
	struct stat st;
	const char *t;
	int ret;

	if (!path) {
		log_err("out of memory");
		return EXIT_INTERNAL;
	}
	ret = auth_slurp(path, "lavacli's identities file", &text, &st);
	if (ret) {
		log_hint("give --lava-token-file FILE, or add an identity with lavacli identities add");
		free(path);
		return ret;
	}
	if (st.st_mode & 077)
		log_warn("lavacli's identities file %s, which holds tokens, can be read by others (chmod 600 %s)", path, path);
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
	if (!yaml_parser_load(&parser, &doc)) {
		log_err("%s:%zu: not YAML: %s", path, parser.problem_mark.line + 1,
			parser.problem ? parser.problem : "unreadable");
		yaml_parser_delete(&parser);
		ret = EXIT_USAGE;
		goto out;
	}
	ret = auth_pick(&doc, path, base, name, &id);
	if (!ret) {
		t = auth_get(&doc, id, "token");
		if (!t || !auth_token_ok(t)) {
			log_err("the lavacli identity for %s in %s has no usable token", base, path);
			ret = EXIT_USAGE;
		} else if (!(*token = strdup(t))) {
			log_err("out of memory");
			ret = EXIT_INTERNAL;
		}
	}
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
out:
	memset(text, 0, strlen(text));
	free(text);
	free(path);
	return ret;
}

int lava_token(const char *url, const struct lava_auth *auth, char **token)
{
	char *base;
	int ret;

	*token = NULL;
	if (auth && auth->token_file && auth->identity) {
		log_err("--lava-token-file and --lava-identity name two sources of one token: give one");
		return EXIT_USAGE;
	}
	if (auth && auth->token_file)
		return auth_token_file(auth->token_file, token);
	ret = lava_http_base(url, &base);
	if (ret)
		return ret;
	ret = auth_lavacli(base, auth ? auth->identity : NULL, token);
	free(base);
	return ret;
}
