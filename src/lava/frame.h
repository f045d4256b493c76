/* frame: the lines a clearpath LAVA job prints for the controller (facts, exit, the session whole), and reading them back. */
#ifndef CLEARPATH_LAVA_FRAME_H
#define CLEARPATH_LAVA_FRAME_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Each line the job's test prints for the controller starts with the mark and
 * the job's own tag, so that nothing else on the console (the kernel, the
 * shell's trace, another job's output quoted in this one) is taken for it:
 *
 *   clearpath-lava TAG facts BOOT_ID RELEASE     the boot, read before the session
 *   clearpath-lava TAG cmdline CMDLINE
 *   clearpath-lava TAG exit STATUS               how the session ended
 *   clearpath-lava TAG begin BYTES SHA256        the session's `export --whole`, then
 *   clearpath-lava TAG data BASE64               ... in base64 lines,
 *   clearpath-lava TAG end                       ... and its end.
 *
 * The export comes back only when its size and SHA-256 match: a console that
 * dropped or mixed a character fails the check, and the boot is tried again.
 */
#define LAVA_FRAME_MARK "clearpath-lava"

struct lava_frame {
	char tag[64];
	bool have_facts;
	char boot_id[64];
	char release[256];
	char cmdline[4096];
	int exit_status;	/* -1 until the exit line */
	bool begun, ended, bad;
	size_t bytes;		/* what begin announced */
	char sha256[65];
	char *b64;		/* the data lines, concatenated */
	size_t len, cap;
};

void lava_frame_init(struct lava_frame *f, const char *tag);
void lava_frame_free(struct lava_frame *f);

/* Read one line of the device's output (any line: those not for @f's tag are ignored).  0, or -ENOMEM. */
int lava_frame_line(struct lava_frame *f, const char *line);

/*
 * The export the frame carried, decoded and checked against its size and
 * SHA-256, into the malloc'd *@data of *@len bytes.  0, -EINVAL with why
 * (none printed, cut short, garbled) in @why, or -ENOMEM; not logged.
 */
int lava_frame_decode(const struct lava_frame *f, char **data, size_t *len, char *why, size_t whylen);

#endif
