// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The file-system floor: sysfs, debugfs and configfs roots, one small-file
 * reader, the number-file parser, the counter-directory reader and the
 * arithmetic of two counter samples; and, for tune only, the one text write. Every collector reads through here;
 * nothing here calls a collector.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rocectl/sysfs.h"
#include "rocectl/write.h"

static const char *root(const char *env, const char *dflt)
{
	const char *s = getenv(env);

	return s && *s ? s : dflt;
}

const char *rctl_sysfs(void)
{
	return root("ROCECTL_SYSFS", "/sys");
}

const char *rctl_debugfs(void)
{
	return root("ROCECTL_DEBUGFS", "/sys/kernel/debug");
}

const char *rctl_configfs(void)
{
	return root("ROCECTL_CONFIGFS", "/sys/kernel/config");
}

int rctl_file_any_line(const char *path, bool (*match)(const char *line))
{
	char *line = NULL;
	size_t cap = 0;
	int found = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	while (!found && getline(&line, &cap, f) > 0)
		found = match(line);
	free(line);
	fclose(f);
	return found;
}

bool rctl_line_ends_with(const char *line, const char *tail)
{
	size_t n = strlen(line), k = strlen(tail);

	while (n && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' '))
		n--;
	return n >= k && !strncmp(line + n - k, tail, k);
}

int rctl_read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	if (ferror(f)) {
		int err = errno ? errno : EIO;

		fclose(f);
		return -err;
	}
	fclose(f);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

int rctl_sysfs_u64(const char *txt, int base, uint64_t *v)
{
	char *end;

	/* strtoull takes " -1" as 2^64 - 1: a kernel number file has no sign. */
	if (!((txt[0] >= '0' && txt[0] <= '9')))
		return -EINVAL;
	errno = 0;
	*v = strtoull(txt, &end, base);
	while (*end == ' ')
		end++;
	return errno ? -ERANGE : *end ? -EINVAL : 0;
}

static int cmp_counter(const void *a, const void *b)
{
	return strcmp(((const struct rctl_counter *)a)->name,
		      ((const struct rctl_counter *)b)->name);
}

/* One counter file; "N/A (no PMA)" means the driver has no such counters. */
static int counter_file(const char *dir, const char *name,
			struct rctl_counter **c, uint32_t *n)
{
	char path[PATH_MAX], buf[64];
	struct rctl_counter *x;
	uint64_t v;
	int ret;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	ret = rctl_read_file(path, buf, sizeof(buf));
	if (ret)
		return ret;
	if (!strncmp(buf, "N/A", 3))
		return -EOPNOTSUPP;
	if (rctl_sysfs_u64(buf, 10, &v))
		return -EINVAL;
	x = rctl_arr_push(c, n, sizeof(*x));
	if (!x)
		return -ENOMEM;
	snprintf(x->name, sizeof(x->name), "%s", name);
	x->value = v;
	return 0;
}

int rctl_sysfs_counter_dir(const char *dir, unsigned int flags, struct rctl_counter **c,
			   uint32_t *n)
{
	struct dirent *de;
	DIR *dh;
	int ret = 0;

	dh = opendir(dir);
	if (!dh)
		return -errno;
	while (!ret && (de = readdir(dh))) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= RCTL_NAME_LEN)
			continue;
		/* hw_counters/lifespan is the cache time in ms, not a counter */
		if (!strcmp(de->d_name, "lifespan"))
			continue;
		ret = counter_file(dir, de->d_name, c, n);
		if (ret && ret != -ENOMEM && (flags & RCTL_CDIR_SKIP_UNREADABLE))
			ret = 0;
	}
	closedir(dh);
	if (ret == -EOPNOTSUPP) {
		free(*c);
		*c = NULL;
		*n = 0;
	}
	if (*n)
		qsort(*c, *n, sizeof(**c), cmp_counter);
	return ret;
}

bool rctl_counter_delta(uint64_t prev, uint64_t cur, unsigned int bits,
			uint64_t *delta)
{
	if (cur >= prev) {
		*delta = cur - prev;
		return true;
	}
	/* Backwards: one wrap of a 32-bit counter, or a reset of anything else. */
	if (bits == 32 && prev <= UINT32_MAX && cur <= UINT32_MAX) {
		*delta = (uint64_t)UINT32_MAX + 1 - prev + cur;
		return true;
	}
	*delta = 0;
	return false;
}

/*
 * configfs directories of a device (rdma_cm, bnxt_re, irdma) exist only once
 * someone makes them; the kernel fills them from the device. Make one that is
 * missing and say so, so that the caller removes only what it made.
 */
int rctl_configfs_enter(const char *dir, bool *made)
{
	*made = false;
	if (!mkdir(dir, 0755)) {
		*made = true;
		return 0;
	}
	return errno == EEXIST ? 0 : -errno;
}

int rctl_configfs_leave(const char *dir, bool made)
{
	return made && rmdir(dir) ? -errno : 0;
}

/* ---- write (tune only: rocectl/write.h) ------------------------------- */

int rctl_write_text(const char *path, const char *text)
{
	size_t len = strlen(text);
	char buf[80];
	int fd, ret = 0;

	/* Like echo: the kernel parsers accept the trailing newline. */
	if (len + 1 >= sizeof(buf))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s\n", text);
	/*
	 * O_TRUNC as the shell's "echo V > FILE": nothing to sysfs, configfs
	 * and debugfs attributes, and on a regular file (a test's redirected
	 * root) "0" over "106" leaves "0", not "0\n6".
	 */
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	if (write(fd, buf, len + 1) != (ssize_t)(len + 1))
		ret = errno ? -errno : -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}
