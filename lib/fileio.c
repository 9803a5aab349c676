// SPDX-License-Identifier: GPL-2.0-or-later
/* Atomic whole-file writes (fileio.h). */
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

int rctl_write_atomic(const char *path, const char *buf, size_t len,
		      struct rctl_err *e)
{
	char tmp[PATH_MAX];
	int fd, ret;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return rctl_err_set(e, ENAMETOOLONG, "cannot write '%s'", path);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return rctl_err_set(e, errno, "cannot write '%s'", path);
	ret = fchmod(fd, 0644) ? -errno : rctl_write_all(fd, buf, len);
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret) {
		unlink(tmp);
		return rctl_err_set(e, -ret, "cannot write '%s'", path);
	}
	return 0;
}
