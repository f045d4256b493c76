/* job: write the LAVA job of one campaign boot (deploy, boot, test with one clearpath session) as YAML, through libyaml. */
#define _GNU_SOURCE	/* asprintf */
#include "lava/job.h"
#include "lava/frame.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

/* Where the session lives on the device while the job runs. */
#define JOB_DIR "/tmp/clearpath-lava"

struct job_out {
	char *buf;
	size_t len, cap;
	bool nomem;
};

static int job_write(void *arg, unsigned char *data, size_t size)
{
	struct job_out *o = arg;

	if (o->len + size + 1 > o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 8192;
		char *p;

		while (cap < o->len + size + 1)
			cap *= 2;
		if (!(p = realloc(o->buf, cap))) {
			o->nomem = true;
			return 0;
		}
		o->buf = p;
		o->cap = cap;
	}
	memcpy(o->buf + o->len, data, size);
	o->len += size;
	o->buf[o->len] = '\0';
	return 1;
}

/* The emitter's calls; each returns false once one failed, so a job is written whole or not at all. */
static bool y_emit(yaml_emitter_t *e, yaml_event_t *ev, bool ok)
{
	return ok && yaml_emitter_emit(e, ev);
}

static bool y_str(yaml_emitter_t *e, const char *s)
{
	yaml_event_t ev;

	return y_emit(e, &ev, yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s), 1, 1,
							   YAML_ANY_SCALAR_STYLE));
}

static bool y_map(yaml_emitter_t *e)
{
	yaml_event_t ev;

	return y_emit(e, &ev, yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE));
}

static bool y_map_end(yaml_emitter_t *e)
{
	yaml_event_t ev;

	return y_emit(e, &ev, yaml_mapping_end_event_initialize(&ev));
}

static bool y_seq(yaml_emitter_t *e)
{
	yaml_event_t ev;

	return y_emit(e, &ev, yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE));
}

static bool y_seq_end(yaml_emitter_t *e)
{
	yaml_event_t ev;

	return y_emit(e, &ev, yaml_sequence_end_event_initialize(&ev));
}

static bool y_kv(yaml_emitter_t *e, const char *k, const char *v)
{
	return y_str(e, k) && y_str(e, v);
}

/* An integer, unquoted, so the schema sees a number. */
static bool y_kint(yaml_emitter_t *e, const char *k, unsigned v)
{
	char num[24];
	yaml_event_t ev;

	snprintf(num, sizeof(num), "%u", v);
	return y_str(e, k) && y_emit(e, &ev, yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)num,
									   (int)strlen(num), 1, 0, YAML_PLAIN_SCALAR_STYLE));
}

/* `KEY: {minutes: N}` */
static bool y_minutes(yaml_emitter_t *e, const char *k, unsigned minutes)
{
	return y_str(e, k) && y_map(e) && y_kint(e, "minutes", minutes) && y_map_end(e);
}

/* @s in single quotes for the device's shell. malloc'd, NULL when out of memory. */
static char *job_quote(const char *s)
{
	size_t n = 3;
	char *q, *o;

	for (const char *c = s; *c; c++)
		n += *c == '\'' ? 4 : 1;
	if (!(q = malloc(n)))
		return NULL;
	o = q;
	*o++ = '\'';
	for (const char *c = s; *c; c++)
		if (*c == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else
			*o++ = *c;
	*o++ = '\'';
	*o = '\0';
	return q;
}

/* A test step printf'd from @fmt (the quoted words passed as %s), emitted; false on failure. */
static bool y_step(yaml_emitter_t *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool y_step(yaml_emitter_t *e, const char *fmt, ...)
{
	va_list ap;
	char *line;
	bool ok;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0)
		return false;
	ok = y_str(e, line);
	free(line);
	return ok;
}

/* An image of the deployment: `NAME: {url: URL[, KEY: VALUE]}`; nothing when @url is NULL. */
static bool y_image(yaml_emitter_t *e, const char *name, const char *url, const char *k1, const char *v1,
		    const char *k2, const char *v2)
{
	if (!url)
		return true;
	return y_str(e, name) && y_map(e) && (!k1 || !v1 || y_kv(e, k1, v1)) && y_kv(e, "url", url) &&
	       (!k2 || !v2 || y_kv(e, k2, v2)) && y_map_end(e);
}

/* The compression LAVA must undo for @url, from its name ("gz", "xz", "bz2", "zstd"), or NULL. */
static const char *job_compression(const char *url)
{
	static const char *const ext[][2] = { { ".gz", "gz" }, { ".tgz", "gz" }, { ".xz", "xz" },
					      { ".bz2", "bz2" }, { ".zst", "zstd" } };
	size_t n = url ? strlen(url) : 0;

	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		size_t k = strlen(ext[i][0]);

		if (n > k && !strcmp(url + n - k, ext[i][0]))
			return ext[i][1];
	}
	return NULL;
}

static bool job_deploy_tmpfs(yaml_emitter_t *e, const struct lava_job_spec *s)
{
	char *karg = NULL;
	bool ok;

	/* qemu takes the images as its own arguments; the command line goes with -kernel */
	if (asprintf(&karg, "-kernel {kernel}%s%s%s", s->cmdline ? " -append \"" : "", s->cmdline ? s->cmdline : "",
		     s->cmdline ? "\"" : "") < 0)
		return false;
	ok = y_image(e, "kernel", s->kernel, "image_arg", karg, NULL, NULL) &&
	     y_image(e, "initrd", s->initrd, "image_arg", "-initrd {initrd}", NULL, NULL) &&
	     y_image(e, "rootfs", s->rootfs, "image_arg", "-drive format=raw,file={rootfs}", "compression",
		     job_compression(s->rootfs));
	free(karg);
	return ok;
}

static bool job_deploy_tftp(yaml_emitter_t *e, const struct lava_job_spec *s)
{
	return y_image(e, "kernel", s->kernel, "type", s->kernel_type ? s->kernel_type : "image", NULL, NULL) &&
	       y_image(e, "ramdisk", s->initrd, NULL, NULL, "compression", job_compression(s->initrd)) &&
	       y_image(e, "dtb", s->dtb, NULL, NULL, NULL, NULL) &&
	       y_image(e, "modules", s->modules, NULL, NULL, "compression", job_compression(s->modules)) &&
	       y_image(e, "nfsrootfs", s->nfsrootfs, NULL, NULL, "compression", job_compression(s->nfsrootfs));
}

static bool job_deploy(yaml_emitter_t *e, const struct lava_job_spec *s, const char *to)
{
	bool tmpfs = !strcmp(to, "tmpfs");
	bool ok = y_map(e) && y_str(e, "deploy") && y_map(e) && y_kv(e, "to", to) && y_minutes(e, "timeout", 10);

	/* qemu's images go under images:, a board's deployment names each of them at its top */
	if (tmpfs)
		ok = ok && y_str(e, "images") && y_map(e) && job_deploy_tmpfs(e, s) && y_map_end(e);
	else
		ok = ok && job_deploy_tftp(e, s);
	return ok && y_map_end(e) && y_map_end(e);
}

static bool job_boot(yaml_emitter_t *e, const struct lava_job_spec *s, const char *to)
{
	const char *method = s->boot ? s->boot : "qemu";
	bool ok = y_map(e) && y_str(e, "boot") && y_map(e) && y_kv(e, "method", method);

	if (!strcmp(method, "qemu") || !strcmp(method, "qemu-nfs"))
		ok = ok && y_kv(e, "media", to);
	if (s->boot_commands)
		ok = ok && y_kv(e, "commands", s->boot_commands);
	ok = ok && y_minutes(e, "timeout", 10) && y_str(e, "prompts") && y_seq(e);
	if (s->prompts && s->prompts[0])
		for (size_t i = 0; ok && s->prompts[i]; i++)
			ok = y_str(e, s->prompts[i]);
	else
		ok = ok && y_str(e, "# ");
	return ok && y_seq_end(e) && y_map_end(e) && y_map_end(e);
}

/* The plan file, one printf per line, so a reader sees the plan the session runs. */
static bool job_plan_steps(yaml_emitter_t *e, const char *plan)
{
	bool ok = y_step(e, ": > \"$D/plan.yaml\"");

	for (const char *p = plan; ok && *p;) {
		size_t n = strcspn(p, "\n");
		char *line = strndup(p, n), *q = line ? job_quote(line) : NULL;

		ok = q && y_step(e, "printf '%%s\\n' %s >> \"$D/plan.yaml\"", q);
		free(q);
		free(line);
		p += n + (p[n] == '\n');
	}
	return ok;
}

/* The session, its results for LAVA's UI, and the session whole for the controller. */
static bool job_session_steps(yaml_emitter_t *e, const struct lava_job_spec *s)
{
	char *qtag = job_quote(s->frame_tag), *qsw = job_quote(s->swprofile), *qurl = NULL;
	bool ok = qtag && qsw;

	if (ok && s->clearpath_url && !(qurl = job_quote(s->clearpath_url)))
		ok = false;
	ok = ok && y_step(e, "D=" JOB_DIR "; T=%s; rm -rf \"$D\"; mkdir -p \"$D\"", qtag);
	/* kernel messages on the console would land inside the lines the controller reads back */
	ok = ok && y_step(e, "dmesg -n 1 2>/dev/null || true");
	if (qurl)
		ok = ok && y_step(e, "wget -q -O \"$D/clearpath\" %s || curl -fsS -o \"$D/clearpath\" %s; "
				     "chmod +x \"$D/clearpath\"; CP=\"$D/clearpath\"", qurl, qurl);
	else
		ok = ok && y_step(e, "CP=$(command -v clearpath) || lava-test-raise 'no clearpath on this rootfs'");
	ok = ok && job_plan_steps(e, s->plan_text);
	ok = ok && y_step(e, "printf '" LAVA_FRAME_MARK " %%s facts %%s %%s\\n' \"$T\" "
			     "\"$(cat /proc/sys/kernel/random/boot_id)\" \"$(uname -r)\"");
	ok = ok && y_step(e, "printf '" LAVA_FRAME_MARK " %%s cmdline %%s\\n' \"$T\" \"$(cat /proc/cmdline)\"");
	/* `if` keeps a failing session from ending the script (LAVA runs it with set -e) */
	ok = ok && y_step(e, "if \"$CP\" plan run --sessions 1 --swprofile %s --store \"$D/session.db\" "
			     "\"$D/plan.yaml\"; then rc=0; else rc=$?; fi", qsw);
	ok = ok && y_step(e, "printf '" LAVA_FRAME_MARK " %%s exit %%s\\n' \"$T\" \"$rc\"");
	ok = ok && y_step(e, "if [ \"$rc\" = 0 ]; then lava-test-case clearpath-session --result pass; "
			     "else lava-test-case clearpath-session --result fail; fi");
	/* each result class's mean as a measurement: "CLASS (UNIT),VALUE" are show's last two columns */
	ok = ok && y_step(e, "\"$CP\" show --store \"$D/session.db\" --format csv | tail -n +2 | "
			     "while IFS= read -r l; do v=${l##*,}; c=${l%%,*}; c=${c##*,}; u=${c##*(}; u=${u%%)*}; "
			     "n=$(printf %%s \"${c%% (*}\" | tr -cs 'A-Za-z0-9._' '-'); "
			     "lava-test-case \"$n\" --result pass --measurement \"$v\" --units \"$u\"; done");
	ok = ok && y_step(e, "\"$CP\" export --whole --store \"$D/session.db\" \"$D/session.csv\"");
	ok = ok && y_step(e, "printf '" LAVA_FRAME_MARK " %%s begin %%s %%s\\n' \"$T\" "
			     "\"$(wc -c < \"$D/session.csv\" | tr -d ' ')\" \"$(sha256sum < \"$D/session.csv\" | cut -d' ' -f1)\"");
	ok = ok && y_step(e, "base64 \"$D/session.csv\" | sed \"s/^/" LAVA_FRAME_MARK " $T data /\"");
	ok = ok && y_step(e, "printf '" LAVA_FRAME_MARK " %%s end\\n' \"$T\"");
	free(qurl);
	free(qsw);
	free(qtag);
	return ok;
}

static bool job_test(yaml_emitter_t *e, const struct lava_job_spec *s)
{
	char *desc = NULL;
	bool ok = asprintf(&desc, "one clearpath session of swprofile %s, handed back whole", s->swprofile) >= 0;

	ok = ok && y_map(e) && y_str(e, "test") && y_map(e) && y_minutes(e, "timeout", s->session_minutes) &&
	     y_str(e, "definitions") && y_seq(e) && y_map(e) && y_kv(e, "from", "inline") &&
	     y_kv(e, "name", "clearpath") && y_kv(e, "path", "inline/clearpath.yaml") && y_str(e, "repository") &&
	     y_map(e) && y_str(e, "metadata") && y_map(e) && y_kv(e, "format", "Lava-Test Test Definition 1.0") &&
	     y_kv(e, "name", "clearpath") && y_kv(e, "description", desc) && y_map_end(e) && y_str(e, "run") &&
	     y_map(e) && y_str(e, "steps") && y_seq(e) && job_session_steps(e, s) && y_seq_end(e) && y_map_end(e) &&
	     y_map_end(e) && y_map_end(e) && y_seq_end(e) && y_map_end(e) && y_map_end(e);
	free(desc);
	return ok;
}

/*
 * `context:` from "KEY=VALUE" words (a value that reads as a number or a
 * boolean stays one), and on a board the command line as the device type's
 * extra_kernel_args.
 */
static bool job_context(yaml_emitter_t *e, const struct lava_job_spec *s, const char *to)
{
	const char *const *ctx = s->context;
	bool args = s->cmdline && strcmp(to, "tmpfs"), ok;

	if ((!ctx || !ctx[0]) && !args)
		return true;
	ok = y_str(e, "context") && y_map(e);
	for (size_t i = 0; ok && ctx && ctx[i]; i++) {
		const char *eq = strchr(ctx[i], '=');
		char *k = eq ? strndup(ctx[i], (size_t)(eq - ctx[i])) : NULL;
		yaml_event_t ev;

		ok = k && y_str(e, k) &&
		     y_emit(e, &ev, yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)eq + 1,
								 (int)strlen(eq + 1), 1, 0, YAML_ANY_SCALAR_STYLE));
		free(k);
	}
	if (args)
		ok = ok && y_kv(e, "extra_kernel_args", s->cmdline);
	return ok && y_map_end(e);
}

static bool job_emit(yaml_emitter_t *e, const struct lava_job_spec *s, const char *to)
{
	yaml_event_t ev;
	bool ok = y_emit(e, &ev, yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING)) &&
		  y_emit(e, &ev, yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1)) && y_map(e);

	ok = ok && y_kv(e, "device_type", s->device_type) && y_kv(e, "job_name", s->name) &&
	     y_kv(e, "visibility", "public") && y_kv(e, "priority", "medium");
	if (s->tags && s->tags[0]) {
		ok = ok && y_str(e, "tags") && y_seq(e);
		for (size_t i = 0; ok && s->tags[i]; i++)
			ok = y_str(e, s->tags[i]);
		ok = ok && y_seq_end(e);
	}
	ok = ok && y_str(e, "timeouts") && y_map(e) && y_minutes(e, "job", s->job_minutes) &&
	     y_minutes(e, "queue", s->queue_minutes) && y_minutes(e, "action", s->session_minutes) &&
	     y_minutes(e, "connection", 5) && y_map_end(e);
	ok = ok && job_context(e, s, to);
	ok = ok && y_str(e, "metadata") && y_map(e) && y_kv(e, "clearpath.campaign", s->campaign) &&
	     y_kv(e, "clearpath.swprofile", s->swprofile) && y_kv(e, "clearpath.tag", s->frame_tag) && y_map_end(e);
	ok = ok && y_str(e, "actions") && y_seq(e) && job_deploy(e, s, to) && job_boot(e, s, to) && job_test(e, s) &&
	     y_seq_end(e);
	return ok && y_map_end(e) && y_emit(e, &ev, yaml_document_end_event_initialize(&ev, 1)) &&
	       y_emit(e, &ev, yaml_stream_end_event_initialize(&ev));
}

int lava_job_yaml(const struct lava_job_spec *s, char **yaml)
{
	const char *to = s->deploy ? s->deploy : "tmpfs";
	struct job_out o = { 0 };
	yaml_emitter_t e;
	bool ok;

	*yaml = NULL;
	if (!s->kernel || !s->device_type || !s->name || !s->frame_tag || !s->swprofile || !s->plan_text)
		return -EINVAL;
	/* qemu's tmpfs and a board's tftp (with its ramdisk or NFS root) are the deployments written */
	if (strcmp(to, "tmpfs") && strcmp(to, "tftp"))
		return -EINVAL;
	if (!yaml_emitter_initialize(&e))
		return -ENOMEM;
	yaml_emitter_set_output(&e, job_write, &o);
	yaml_emitter_set_unicode(&e, 1);
	yaml_emitter_set_width(&e, 4096);
	ok = job_emit(&e, s, to) && yaml_emitter_flush(&e);
	yaml_emitter_delete(&e);
	if (!ok) {
		free(o.buf);
		return o.nomem || !o.buf ? -ENOMEM : -EINVAL;
	}
	*yaml = o.buf;
	return 0;
}
