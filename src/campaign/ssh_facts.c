/* ssh_facts: a host's memory, hugepage and grub facts copied under a local root, so the checks that read this machine read the host. */
#define _GNU_SOURCE	/* nftw's FTW_DEPTH */
#include "campaign/campaign.h"
#include "campaign/method.h"
#include "campaign/ssh.h"
#include "harness/fingerprint.h"
#include "remote/remote.h"
#include "util/log.h"
#include "util/sysfs.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FACTS_TIMEOUT 120

/*
 * Each file as "@PATH" then its lines, each behind '|' (a line of the file
 * never reads as a path), then an empty line (the last one may lack its
 * newline).  Read-only: cat, sed and grep, nothing written.
 * Under $CLEARPATH_SYSROOT when the host sets it, as clearpath there reads.
 * cpuinfo: the first CPU's block (its flags decide); smaps: the line that
 * gives the base page.
 */
#define FACTS_SCRIPT \
	"R=${CLEARPATH_SYSROOT:-}; " \
	"for f in \"$R\"/proc/meminfo \"$R\"/sys/kernel/mm/transparent_hugepage/* " \
	"\"$R\"/sys/kernel/mm/hugepages/hugepages-*/nr_hugepages " \
	"\"$R\"/sys/kernel/mm/hugepages/hugepages-*/free_hugepages " \
	"\"$R\"/etc/default/grub \"$R\"/etc/default/grub.d/*.cfg \"$R\"/sys/class/dmi/id/product_name; do " \
	"[ -f \"$f\" ] && [ -r \"$f\" ] || continue; printf '@%s\\n' \"${f#\"$R\"}\"; sed 's/^/|/' \"$f\"; echo; done; " \
	"printf '@/proc/cpuinfo\\n'; sed -n '/^[[:space:]]*$/q; s/^/|/p' \"$R\"/proc/cpuinfo 2>/dev/null; " \
	"printf '@/proc/self/smaps\\n'; grep -m1 '^KernelPageSize:' \"$R\"/proc/self/smaps 2>/dev/null | sed 's/^/|/'; " \
	"true"

/* mkdir -p of @path's parent directories. */
static int facts_mkdirs(char *path)
{
	for (char *s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(path, 0700) && errno != EEXIST) {
			*s = '/';
			return -errno;
		}
		*s = '/';
	}
	return 0;
}

/* A path the host may name: absolute, without "..", printable. */
static bool facts_path_ok(const char *p)
{
	if (p[0] != '/' || strstr(p, "/../") || (strlen(p) >= 3 && !strcmp(p + strlen(p) - 3, "/..")))
		return false;
	for (const char *c = p; *c; c++)
		if ((unsigned char)*c < ' ')
			return false;
	return true;
}

/* Write the files of @out (FACTS_SCRIPT's form) under @dir.  0 or -errno. */
static int facts_write(const char *out, const char *dir)
{
	FILE *f = NULL;
	int err = 0;

	while (*out && !err) {
		size_t n = strcspn(out, "\n");
		char path[1024];

		if (out[0] == '@') {
			if (f && fclose(f))
				err = -errno;
			f = NULL;
			if ((size_t)snprintf(path, sizeof(path), "%s%.*s", dir, (int)n - 1, out + 1) < sizeof(path) &&
			    facts_path_ok(path + strlen(dir)) && !err && !(err = facts_mkdirs(path)) &&
			    !(f = fopen(path, "w")))
				err = -errno;
		} else if (out[0] == '|' && f) {
			fprintf(f, "%.*s\n", (int)n - 1, out + 1);
		}
		out += n + (out[n] == '\n');
	}
	if (f && fclose(f) && !err)
		err = -errno;
	return err;
}

int campaign_ssh_facts_copy(const struct remote_host *h, const char *dir)
{
	char *out = NULL;
	int ret = remote_run_ok(h, FACTS_SCRIPT, FACTS_TIMEOUT, &out), err;

	if (ret)
		return ret;
	err = facts_write(out, dir);
	free(out);
	if (err) {
		log_err("cannot keep %s's facts in %s: %s", h->dest, dir, strerror(-err));
		return EXIT_INTERNAL;
	}
	return 0;
}

static int facts_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int campaign_ssh_check(const struct remote_host *h, const struct plan *p, bool dry_run, bool *reached, char *sut,
		       size_t sut_len)
{
	char dir[] = "/tmp/clearpath-facts.XXXXXX";
	const char *sysroot = getenv("CLEARPATH_SYSROOT");
	int ret;

	if (reached)
		*reached = false;
	if (!mkdtemp(dir)) {
		log_err("cannot make a temporary directory: %s", strerror(errno));
		return EXIT_INTERNAL;
	}
	ret = campaign_ssh_facts_copy(h, dir);
	if (!ret) {
		if (reached)
			*reached = true;
		/* the same checks as on this machine, reading the host's facts */
		struct campaign_target_env env = { h->dest, false, dry_run, dry_run ? log_warn : log_err };

		sysfs_set_root(dir);
		if (sut)
			fp_sut_class(sut, sut_len);
		ret = campaign_target_check(p, &env);
		sysfs_set_root(sysroot);
	}
	nftw(dir, facts_rm, 16, FTW_DEPTH | FTW_PHYS);
	return ret;
}
