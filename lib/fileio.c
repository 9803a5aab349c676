// SPDX-License-Identifier: GPL-2.0-or-later
/* Whole-file writes (fileio.h): atomic for regular files, in place for devices and FIFOs. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rocectl/fileio.h"

int rctl_write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* A temporary file beside "path", fsync, rename(2) over it. */
static int replace_regular(const char *path, const char *buf, size_t len)
{
	char tmp[PATH_MAX];
	int fd, ret;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = fchmod(fd, 0644) ? -errno : rctl_write_all(fd, buf, len);
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

/*
 * A character device (/dev/null, a terminal) or a FIFO: written where it is,
 * never created, truncated or replaced. O_NONBLOCK so that a FIFO nobody
 * reads fails with ENXIO instead of hanging; the writes then block again.
 */
static int write_in_place(const char *path, const char *buf, size_t len)
{
	struct stat st;
	int fd, ret;

	fd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		ret = -errno;
	else if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode))
		ret = -EAGAIN; /* replaced between stat and open: start over */
	else if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK))
		ret = -errno;
	else
		ret = rctl_write_all(fd, buf, len);
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* What "path" names after its symbolic links, and so how it is written. */
static int write_by_type(const char *path, const char *buf, size_t len,
			 const char **what)
{
	char real[PATH_MAX];
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? replace_regular(path, buf, len) : -errno;
	if (S_ISLNK(st.st_mode)) {
		/* node_exporter setups link FILE into the textfile directory:
		 * the link stays, its target is replaced atomically. */
		if (stat(path, &st)) {
			*what = errno == ENOENT ? "dangling symbolic link" : NULL;
			return -errno;
		}
		if (S_ISREG(st.st_mode))
			return realpath(path, real) ? replace_regular(real, buf, len) : -errno;
	}
	if (S_ISREG(st.st_mode))
		return replace_regular(path, buf, len);
	if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
		return write_in_place(path, buf, len);
	*what = S_ISDIR(st.st_mode) ? "directory" :
		S_ISBLK(st.st_mode) ? "block device" : "socket";
	return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
}

int rctl_write_atomic(const char *path, const char *buf, size_t len,
		      struct rctl_err *e)
{
	const char *what = NULL;
	int ret, tries = 3;

	do
		ret = write_by_type(path, buf, len, &what);
	while (ret == -EAGAIN && --tries);
	if (ret == -ENXIO)
		return rctl_err_plain(e, ENXIO, "cannot write '%s': no process reads the FIFO",
				    path);
	if (ret && what)
		return rctl_err_plain(e, -ret, "cannot write '%s': it is a %s", path, what);
	if (ret)
		return rctl_err_strerror(e, -ret, "cannot write '%s'", path);
	return 0;
}
