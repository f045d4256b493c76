/* boot: the running boot's id, kernel release and cmdline, or a simulated boot's ($CLEARPATH_FAKE_BOOT). */
#ifndef CLEARPATH_UTIL_BOOT_H
#define CLEARPATH_UTIL_BOOT_H

#include <stddef.h>

/*
 * The directory of a simulated boot (the `fake` boot method of campaigns,
 * for tests and demos).  While it is set and holds the file, the boot id,
 * the kernel release and the cmdline are read from $CLEARPATH_FAKE_BOOT/
 * boot_id, release and cmdline instead of /proc and uname(); everything else
 * is read from the real machine.
 */
#define BOOT_FAKE_ENV "CLEARPATH_FAKE_BOOT"

/*
 * The directory of the simulated boot the boot id, release or cmdline below
 * come from ($CLEARPATH_FAKE_BOOT holding one of its files), or NULL when
 * they are the kernel's own.  A session under one is marked so (doctor's
 * boot.simulated), never passed off as a real kernel's.
 */
const char *boot_simulated(void);

/* The boot id (/proc/sys/kernel/random/boot_id) into @buf.  0, or -errno with @buf "". */
int boot_id(char *buf, size_t len);

/* The kernel release (uname -r) into @buf.  0, or -errno with @buf "". */
int boot_release(char *buf, size_t len);

/* The kernel command line (/proc/cmdline, one line) into @buf.  0, or -errno with @buf "". */
int boot_cmdline(char *buf, size_t len);

/*
 * Simulate a boot: write a new random boot id, @release and @cmdline into
 * directory @dir (created when missing), each file replaced atomically so a
 * reader never sees half a boot.  The new id goes to @id (may be NULL).
 * Returns 0 or -errno.
 */
int boot_fake(const char *dir, const char *release, const char *cmdline, char *id, size_t len);

#endif
