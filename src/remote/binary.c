/* binary: which clearpath a host runs (the static build for its architecture, or this one), copied there. */
#define _GNU_SOURCE
#include "remote/remote.h"
#include "util/arch.h"
#include "util/log.h"
#include "util/shquote.h"
#include "util/text.h"

#include <libgen.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BINARY_TIMEOUT 120
/* The longest --version line taken for a clearpath's; printed no longer either. */
#define BINARY_VERSION_MAX 256

/* The directory this binary is in, or NULL. */
static char *binary_self_dir(void)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0)
		return NULL;
	self[n] = '\0';
	return strdup(dirname(self));
}

/* @dir/clearpath-@arch into *path when it is an executable file; true then. */
static bool binary_try(const char *dir, const char *arch, char **path)
{
	if (asprintf(path, "%s/clearpath-%s", dir, arch) < 0) {
		*path = NULL;
		return false;
	}
	if (!access(*path, X_OK))
		return true;
	free(*path);
	*path = NULL;
	return false;
}

int remote_binary_for(const char *arch, char **path)
{
	const char *env = getenv("CLEARPATH_STATIC_DIR");
	char *dir = binary_self_dir(), *build = NULL;
	bool found;

	*path = NULL;
	if (env && *env) {
		found = binary_try(env, arch, path);
	} else {
		found = dir && asprintf(&build, "%s/build/static", dir) >= 0 && binary_try(build, arch, path);
		found = found || (dir && binary_try(dir, arch, path));
	}
	free(build);
	if (!found && !strcmp(arch, CLEARPATH_MACHINE) && dir) {
		/* this very file: the host has the architecture, maybe not the libraries (checked there) */
		*path = realpath("/proc/self/exe", NULL);
		found = *path != NULL;
	}
	free(dir);
	if (found)
		return 0;
	log_err("no clearpath for %s hosts: this one is built for %s and there is no static %s build%s%s",
		arch, CLEARPATH_MACHINE, arch, env && *env ? " in " : "", env && *env ? env : "");
	if (!strcmp(arch, "aarch64"))
		log_hint("build one with 'make static-arm64' (build/static/clearpath-aarch64)");
	else if (!strcmp(arch, "x86_64"))
		log_hint("build one with 'make static' on an x86-64 machine (build/static/clearpath-x86_64)");
	else
		log_hint("clearpath builds for x86_64 and aarch64; build it on the host itself");
	return EXIT_RESOURCE;
}

/*
 * Whether @out is what a clearpath says to --version: one short line of
 * printable text, "clearpath VERSION" (anything else, a 30 MB answer or one
 * with escape sequences, is not this binary running there).
 */
static bool binary_version_ok(const char *out)
{
	size_t n = strcspn(out, "\n");

	if (strncmp(out, "clearpath ", 10) || n > BINARY_VERSION_MAX || (out[n] && out[n + 1]))
		return false;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)out[i] < 0x20 || out[i] == 0x7f)
			return false;
	return true;
}

int remote_install(struct remote_host *h)
{
	char *local = NULL, *q = NULL, *cmd = NULL, *out = NULL;
	int status, ret = remote_arch(h, &h->arch);

	if (!ret)
		ret = remote_binary_for(h->arch, &local);
	if (!ret)
		ret = remote_mkdtemp(h);
	if (!ret && asprintf(&h->bin, "%s/clearpath", h->tmpdir) < 0) {
		h->bin = NULL;
		log_err("out of memory");
		ret = EXIT_INTERNAL;
	}
	if (!ret)
		ret = remote_put(h, local, h->bin);
	if (!ret && (!(q = sh_quote_always(h->bin)) || asprintf(&cmd, "%s --version 2>&1", q) < 0)) {
		cmd = NULL;
		log_err("out of memory");
		ret = EXIT_INTERNAL;
	}
	if (!ret)
		ret = remote_run(h, cmd, BINARY_TIMEOUT, &out, &status);
	if (!ret && (status || !binary_version_ok(out))) {
		out[strcspn(out, "\n")] = '\0';
		if (strlen(out) > BINARY_VERSION_MAX)
			strcpy(out + BINARY_VERSION_MAX - 3, "...");
		log_err("%s (%s) cannot run %s: %s", h->dest, h->arch, local, text_one_line(out));
		log_hint("a static clearpath runs anywhere: 'make static'%s", !strcmp(h->arch, "aarch64") ?
			 " or 'make static-arm64'" : "");
		ret = EXIT_RESOURCE;
	}
	if (!ret) {
		out[strcspn(out, "\n")] = '\0';
		h->version = out;
		out = NULL;
	}
	free(out);
	free(cmd);
	free(q);
	free(local);
	return ret;
}
