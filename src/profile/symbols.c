/* symbols: name sampled addresses: the kernel's from kallsyms, this process's from its loaded ELF objects (libdwfl); sum them into shares. */
#include "profile/profile.h"
#include "util/sysfs.h"

#ifdef CLEARPATH_HAVE_LIBDW
#include <elfutils/libdwfl.h>
#endif
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct ksym {
	uint64_t addr;
	char *name;
};

struct profile_ksyms {
	struct ksym *syms;
	size_t n;
	char *names;		/* every name, NUL-separated: one allocation */
	uint64_t end;		/* _etext when present: nothing above it is core kernel text */
};

#ifdef CLEARPATH_HAVE_LIBDW
struct profile_usyms {
	Dwfl *dwfl;
};
#endif

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Parse "ffffffff81000000 T _stext [module]" into *@addr, *@type and @name.  Whether it is text. */
static bool ksym_parse(char *line, uint64_t *addr, char **name)
{
	char *type, *save = NULL, *a = strtok_r(line, " \t\n", &save);

	type = strtok_r(NULL, " \t\n", &save);
	*name = strtok_r(NULL, " \t\n", &save);
	if (!a || !type || !*name || (type[0] != 't' && type[0] != 'T'))
		return false;
	*addr = strtoull(a, NULL, 16);
	return true;
}

/* Append @name to the name arena; the offset of the copy, or -1 when out of memory. */
static long ksym_keep_name(struct profile_ksyms *k, size_t *used, size_t *cap, const char *name)
{
	size_t len = strlen(name) + 1;
	long at = (long)*used;

	if (*used + len > *cap) {
		size_t ncap = (*cap + len) * 2;
		char *p = realloc(k->names, ncap);

		if (!p)
			return -1;
		k->names = p;
		*cap = ncap;
	}
	memcpy(k->names + *used, name, len);
	*used += len;
	return at;
}

/* Read @f's text symbols into @k (names as arena offsets until the end).  0 or -errno. */
static int ksym_read(struct profile_ksyms *k, FILE *f, bool *any_addr)
{
	char line[512], *name;
	size_t cap = 0, used = 0, ncap = 0;
	uint64_t addr;

	while (fgets(line, sizeof(line), f)) {
		long at;

		if (!ksym_parse(line, &addr, &name))
			continue;
		*any_addr |= addr != 0;
		if (!strcmp(name, "_etext"))
			k->end = addr;
		if (k->n == ncap) {
			struct ksym *p = realloc(k->syms, (ncap = ncap ? ncap * 2 : 4096) * sizeof(*p));

			if (!p)
				return -ENOMEM;
			k->syms = p;
		}
		if ((at = ksym_keep_name(k, &used, &cap, name)) < 0)
			return -ENOMEM;
		k->syms[k->n].addr = addr;
		k->syms[k->n++].name = (char *)(uintptr_t)at;
	}
	for (size_t i = 0; i < k->n; i++)
		k->syms[i].name = k->names + (uintptr_t)k->syms[i].name;
	return 0;
}

struct profile_ksyms *profile_ksyms_load(const char *path)
{
	struct profile_ksyms *k = calloc(1, sizeof(*k));
	FILE *f = sysfs_fopen(path);
	bool any_addr = false;
	int ret = !k ? -ENOMEM : !f ? -errno : 0;

	if (!ret)
		ret = ksym_read(k, f, &any_addr);
	if (!ret && !any_addr)
		ret = -EPERM;	/* kptr_restrict: every address reads as 0 */
	if (f)
		fclose(f);
	if (ret) {
		profile_ksyms_free(k);
		errno = -ret;
		return NULL;
	}
	qsort(k->syms, k->n, sizeof(*k->syms), ksym_cmp);
	return k;
}

const char *profile_ksyms_find(const struct profile_ksyms *k, uint64_t addr)
{
	size_t lo = 0, hi = k->n;

	if (!k->n || addr < k->syms[0].addr)
		return NULL;
	/* the last symbol at or below @addr */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/* past the end of the core text, only a module's symbol can hold it */
	if (k->end && addr >= k->end && k->syms[lo].addr <= k->end)
		return NULL;
	return k->syms[lo].name;
}

void profile_ksyms_free(struct profile_ksyms *k)
{
	if (!k)
		return;
	free(k->syms);
	free(k->names);
	free(k);
}

#ifdef CLEARPATH_HAVE_LIBDW
/* Symbol tables are all a profile needs: never look for separate debuginfo (nor ask a debuginfod server). */
static int usyms_no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			      const char *file, const char *debuglink, GElf_Word crc, char **path)
{
	(void)mod, (void)userdata, (void)modname, (void)base, (void)file, (void)debuglink, (void)crc;
	*path = NULL;
	return -1;
}

static const Dwfl_Callbacks usyms_callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = usyms_no_debuginfo,
};

struct profile_usyms *profile_usyms_self(void)
{
	struct profile_usyms *u = calloc(1, sizeof(*u));
	FILE *maps;

	if (!u)
		return NULL;
	u->dwfl = dwfl_begin(&usyms_callbacks);
	if (!u->dwfl)
		goto fail;
	/* /proc/self/maps rather than /proc/<pid>/maps: what a user-mode emulator shows the program */
	maps = fopen("/proc/self/maps", "re");
	dwfl_report_begin(u->dwfl);
	if (!maps || dwfl_linux_proc_maps_report(u->dwfl, maps) != 0 || dwfl_report_end(u->dwfl, NULL, NULL)) {
		if (maps)
			fclose(maps);
		dwfl_end(u->dwfl);
		goto fail;
	}
	fclose(maps);
	return u;
fail:
	free(u);
	errno = errno ?: EIO;
	return NULL;
}

bool profile_usyms_find(struct profile_usyms *u, uint64_t addr, char *buf, size_t len)
{
	Dwfl_Module *m = dwfl_addrmodule(u->dwfl, addr);
	const char *name, *mod, *slash;

	if (!m || !(name = dwfl_module_addrname(m, addr)))
		return false;
	mod = dwfl_module_info(m, NULL, NULL, NULL, NULL, NULL, NULL, NULL) ?: "?";
	slash = strrchr(mod, '/');
	snprintf(buf, len, "%.*s@%s", PROFILE_NAME_MAX, name, slash ? slash + 1 : mod);
	return true;
}

void profile_usyms_free(struct profile_usyms *u)
{
	if (!u)
		return;
	dwfl_end(u->dwfl);
	free(u);
}

#else
/* Built without libdw (WITH_LIBDW=0): user-space samples count, unnamed. */
struct profile_usyms *profile_usyms_self(void)
{
	errno = ENOTSUP;
	return NULL;
}

bool profile_usyms_find(struct profile_usyms *u, uint64_t addr, char *buf, size_t len)
{
	(void)u, (void)addr, (void)buf, (void)len;
	return false;
}

void profile_usyms_free(struct profile_usyms *u)
{
	(void)u;
}
#endif

/* One named symbol's count while a profile is summed. */
struct symcount {
	char name[PROFILE_NAME_MAX + 16];
	bool kernel, clearing;
	uint64_t n;
};

static int ip_cmp(const void *a, const void *b)
{
	const struct profile_ip *x = a, *y = b;

	if (x->kernel != y->kernel)
		return x->kernel ? -1 : 1;
	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

static int symcount_by_name(const void *a, const void *b)
{
	const struct symcount *x = a, *y = b;

	return x->kernel != y->kernel ? (x->kernel ? -1 : 1) : strcmp(x->name, y->name);
}

/* Most samples first; ties by name, so the same profile always lists the same way. */
static int symcount_by_count(const void *a, const void *b)
{
	const struct symcount *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void resolve_name(const struct profile_ip *ip, const struct profile_ksyms *k, struct profile_usyms *u,
			 struct symcount *c)
{
	const char *name;

	c->kernel = ip->kernel;
	if (ip->kernel) {
		name = k ? profile_ksyms_find(k, ip->ip) : NULL;
		snprintf(c->name, sizeof(c->name), "%.*s", PROFILE_NAME_MAX, name ?: "[kernel]");
		c->clearing = name && profile_is_clearing(name, NULL);
	} else if (!u) {
		snprintf(c->name, sizeof(c->name), "[user]");	/* no symbol tables: still user time */
	} else if (!profile_usyms_find(u, ip->ip, c->name, sizeof(c->name))) {
		snprintf(c->name, sizeof(c->name), "[unknown]");
	}
}

/* Fold entries of equal name (sorted by name) into one; the new count. */
static size_t symcount_fold(struct symcount *c, size_t n)
{
	size_t out = 0;

	for (size_t i = 0; i < n; i++) {
		if (out && !symcount_by_name(&c[out - 1], &c[i]))
			c[out - 1].n += c[i].n;
		else
			c[out++] = c[i];
	}
	return out;
}

int profile_resolve(struct profile_ip *ips, size_t n, const struct profile_ksyms *k,
		    struct profile_usyms *u, struct profile_summary *out)
{
	struct symcount *c = calloc(n ? n : 1, sizeof(*c));
	size_t nc = 0;
	uint64_t clearing = 0;

	if (!c)
		return -ENOMEM;
	qsort(ips, n, sizeof(*ips), ip_cmp);
	/* one lookup per distinct address */
	for (size_t i = 0; i < n; i++) {
		if (i && !ip_cmp(&ips[i - 1], &ips[i])) {
			c[nc - 1].n++;
			continue;
		}
		resolve_name(&ips[i], k, u, &c[nc]);
		c[nc++].n = 1;
	}
	qsort(c, nc, sizeof(*c), symcount_by_name);
	nc = symcount_fold(c, nc);
	qsort(c, nc, sizeof(*c), symcount_by_count);
	out->samples = n;
	out->valid = n > 0;
	out->ntop = 0;
	for (size_t i = 0; i < nc; i++) {
		if (c[i].clearing)
			clearing += c[i].n;
		if (out->ntop < PROFILE_TOP) {
			struct profile_sym *s = &out->top[out->ntop++];

			snprintf(s->name, sizeof(s->name), "%s", c[i].name);
			s->kernel = c[i].kernel;
			s->clearing = c[i].clearing;
			s->share = 100.0 * (double)c[i].n / (double)n;
		}
	}
	out->clearing = n ? 100.0 * (double)clearing / (double)n : 0;
	free(c);
	return 0;
}
