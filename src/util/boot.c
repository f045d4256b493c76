/* boot: read the boot id, kernel release and cmdline from the kernel, or from a simulated boot's directory. */
#include "util/boot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "util/sysfs.h"

/*
 * The first line of $CLEARPATH_FAKE_BOOT/@name into @buf: 0, or -ENOENT when
 * the variable is unset or the file missing (the real value is read then: a
 * campaign reads the real boot id before its first simulated boot).  Only a
 * regular file is read (a FIFO would block for ever), and one whose first line
 * is empty is unreadable (-ENODATA), never a boot id of "".
 */
static int boot_fake_read(const char *name, char *buf, size_t len)
{
	const char *dir = getenv(BOOT_FAKE_ENV);
	char path[4096];
	struct stat sb;
	FILE *f;
	int fd, ret = 0;

	buf[0] = '\0';
	if (!dir || !*dir)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	/* O_NONBLOCK: opening a FIFO without a writer would wait for one */
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
		return -errno;
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) || !(f = fdopen(fd, "r"))) {
		close(fd);
		return -EINVAL;
	}
	if (!fgets(buf, (int)len, f))
		ret = ferror(f) ? -EIO : -ENODATA;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	if (!ret && !buf[0])
		ret = -ENODATA;
	if (ret)
		buf[0] = '\0';
	return ret;
}

const char *boot_simulated(void)
{
	static const char *const files[] = { "boot_id", "release", "cmdline" };
	const char *dir = getenv(BOOT_FAKE_ENV);
	char path[4096];
	struct stat sb;

	if (!dir || !*dir)
		return NULL;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		if (!lstat(path, &sb))
			return dir;
	}
	return NULL;
}

static int boot_fake_or(const char *name, const char *real, char *buf, size_t len)
{
	int ret = boot_fake_read(name, buf, len);

	if (ret == -ENOENT)
		ret = sysfs_read_line(real, buf, len);
	if (ret)
		buf[0] = '\0';
	return ret;
}

int boot_id(char *buf, size_t len)
{
	return boot_fake_or("boot_id", "/proc/sys/kernel/random/boot_id", buf, len);
}

int boot_cmdline(char *buf, size_t len)
{
	int ret = boot_fake_or("cmdline", "/proc/cmdline", buf, len);

	/* a kernel booted with no parameters has an empty command line: that reads */
	return ret == -ENODATA ? 0 : ret;
}

int boot_release(char *buf, size_t len)
{
	struct utsname u;
	int ret = boot_fake_read("release", buf, len);

	if (ret != -ENOENT)
		return ret;
	if (uname(&u)) {
		buf[0] = '\0';
		return -errno;
	}
	snprintf(buf, len, "%s", u.release);
	return 0;
}

/* Write @value and a newline to @dir/@name through a temporary file and rename(). */
static int boot_fake_write(const char *dir, const char *name, const char *value)
{
	char path[4096], tmp[4200];
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid());
	if (!(f = fopen(tmp, "w")))
		return -errno;
	if (fprintf(f, "%s\n", value) < 0)
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

int boot_fake(const char *dir, const char *release, const char *cmdline, char *id, size_t len)
{
	unsigned char r[16];
	char uuid[40];
	int ret = 0;

	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
		return -EIO;
	/* a version 4 UUID, as the kernel's boot_id is */
	r[6] = (unsigned char)((r[6] & 0x0f) | 0x40);
	r[8] = (unsigned char)((r[8] & 0x3f) | 0x80);
	snprintf(uuid, sizeof(uuid), "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13], r[14],
		 r[15]);
	/* the id last: a reader that sees the new id sees the new release and cmdline too */
	ret = boot_fake_write(dir, "release", release);
	if (!ret)
		ret = boot_fake_write(dir, "cmdline", cmdline);
	if (!ret)
		ret = boot_fake_write(dir, "boot_id", uuid);
	if (!ret && id)
		snprintf(id, len, "%s", uuid);
	return ret;
}
