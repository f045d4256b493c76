/* job: the LAVA job definition of one boot of a campaign (deploy, boot, test), written with libyaml's emitter. */
#ifndef CLEARPATH_LAVA_JOB_H
#define CLEARPATH_LAVA_JOB_H

#include <stddef.h>

/*
 * One job is one boot of one kernel and exactly one clearpath session: LAVA
 * deploys what the swprofile names, boots it with the device type's own
 * method, and the test action runs the session on the device, records its
 * results as lava-test-case measurements (LAVA's own UI shows the numbers) and
 * prints the session whole for the controller (lava/frame.h).
 *
 * The deployment follows LAVA's idioms per `to:`:
 *   tmpfs (qemu devices): kernel, initrd, rootfs as -kernel/-initrd/-drive
 *         images, the command line in -append;
 *   tftp  (u-boot, grub, ipxe, uefi boards): kernel (with its type), ramdisk,
 *         dtb, modules, nfsrootfs (an NFS root: boot commands "nfs"); the
 *         command line through the device type's context (extra_kernel_args).
 */
struct lava_job_spec {
	const char *name;		/* job_name: unique per boot and try (found again by it) */
	const char *device_type;
	const char *const *tags;	/* NULL-terminated, or NULL */
	const char *const *context;	/* "KEY=VALUE", NULL-terminated, or NULL */
	const char *frame_tag;		/* lava/frame.h's tag for this job */
	const char *swprofile;		/* for the metadata and the session */
	const char *campaign;		/* "3" etc.: the metadata */
	/* what to deploy */
	const char *deploy;		/* LAVA's `to:`: tmpfs (default) or tftp */
	const char *boot;		/* LAVA's boot method (default qemu) */
	const char *boot_commands;	/* u-boot/grub `commands:` (ramdisk, nfs, ...), or NULL */
	const char *kernel, *kernel_type, *initrd, *modules, *dtb, *rootfs, *nfsrootfs;
	const char *cmdline;		/* kernel command line words to add, or NULL */
	const char *const *prompts;	/* the shell's prompts, NULL-terminated (NULL: "# ") */
	/* the session */
	const char *clearpath_url;	/* a static clearpath for the device to fetch, or NULL: on its PATH */
	const char *plan_text;		/* the plan file, written on the device */
	unsigned queue_minutes;		/* how long it may wait for a device before LAVA cancels it */
	unsigned job_minutes;		/* the whole job */
	unsigned session_minutes;	/* the test action (the session) */
};

/*
 * The job for @s as YAML text (malloc'd, NUL-terminated) into *@yaml.
 * 0, -EINVAL for a spec that cannot make a job (no kernel, another
 * deployment than tmpfs or tftp), -ENOMEM.  Not logged.
 */
int lava_job_yaml(const struct lava_job_spec *s, char **yaml);

#endif
