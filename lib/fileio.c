// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Whole-file writes (fileio.h): atomic for regular files, in place for
 * devices and FIFOs, and never redirected by another user's symbolic link.
 *
 * Every step works on the file's directory held open (openat, fstatat,
 * renameat with O_NOFOLLOW and O_EXCL), so a link swapped in between the
 * look and the write is replaced, never followed. A link is followed only
 * when the user who runs rocectl owns it or nobody else can write its
 * directory: what fs.protected_symlinks does for sticky directories, for
 * every directory (a node_exporter textfile directory owned by prometheus
 * is not sticky).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rocectl/fileio.h"

/* symlink(7)'s MAXSYMLINKS: links followed for one path */
#define LINKS_MAX 40

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

/* One write: the path asked for, the directory of the name at hand. */
struct wr {
	const char *buf;
	size_t len;
	char why[160];		/* a refusal that explains itself, else empty */
};

/*
 * A new file "base.XXXXXX" in dirfd, created, never opened if it exists
 * (O_EXCL), so nothing already there is written through.
 */
static int open_tmp(int dirfd, const char *base, char *tmp, size_t size)
{
	unsigned char r[3];
	int i, fd;

	for (i = 0; i < 16; i++) {
		if (getrandom(r, sizeof(r), 0) != sizeof(r))
			return -EIO;
		if (snprintf(tmp, size, "%s.%02x%02x%02x", base, r[0], r[1], r[2]) >=
		    (int)size)
			return -ENAMETOOLONG;
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0600);
		if (fd >= 0 || errno != EEXIST)
			return fd < 0 ? -errno : fd;
	}
	return -EEXIST;
}

/*
 * A temporary file beside "base", fsync, renameat(2) over it: the name is
 * replaced whatever it became meanwhile. The file replaced keeps its
 * permission bits; a new one gets 0644.
 */
static int replace_regular(int dirfd, const char *base, mode_t mode, struct wr *w)
{
	char tmp[NAME_MAX + 1];
	int fd, ret;

	fd = open_tmp(dirfd, base, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	ret = fchmod(fd, mode & 0777) ? -errno : rctl_write_all(fd, w->buf, w->len);
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && renameat(dirfd, tmp, dirfd, base))
		ret = -errno;
	if (ret)
		unlinkat(dirfd, tmp, 0);
	return ret;
}

/*
 * A character device (/dev/null, a terminal) or a FIFO: written where it is,
 * never created, truncated or replaced. O_NONBLOCK so that a FIFO nobody
 * reads fails with ENXIO instead of hanging; the writes then block again.
 * "flags" is O_NOFOLLOW unless a trusted link leads there.
 */
static int write_in_place(int dirfd, const char *base, int flags, struct wr *w)
{
	struct stat st;
	int fd, ret;

	fd = openat(dirfd, base, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC | flags);
	if (fd < 0)
		return errno == ELOOP ? -EAGAIN : -errno; /* became a link */
	if (fstat(fd, &st))
		ret = -errno;
	else if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode))
		ret = -EAGAIN; /* replaced between stat and open: start over */
	else if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK))
		ret = -errno;
	else
		ret = rctl_write_all(fd, w->buf, w->len);
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* Whether a user other than us (and root) may write the directory. */
static bool others_write(const struct stat *dir)
{
	return (dir->st_uid != geteuid() && dir->st_uid != 0) ||
	       (dir->st_mode & (S_IWGRP | S_IWOTH));
}

static int write_path(const char *path, int links, struct wr *w);

static int refuse(struct wr *w, int err, const char *what)
{
	snprintf(w->why, sizeof(w->why), "%s", what);
	return err;
}

/*
 * A symbolic link "base" in dirfd (dir, its status ds): followed if
 * trusted, to a regular file by its text one link at a time, so that each
 * link on the way is judged in its own directory.
 */
static int follow(int dirfd, const char *dir, const struct stat *ds,
		  const char *base, const struct stat *ls, int links, struct wr *w)
{
	char target[PATH_MAX], next[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (ls->st_uid != geteuid() && others_write(ds)) {
		snprintf(w->why, sizeof(w->why),
			 "it is a symbolic link of uid %u in a directory other users can write",
			 (unsigned int)ls->st_uid);
		return -EPERM;
	}
	if (!links)
		return -ELOOP;
	if (fstatat(dirfd, base, &st, 0))
		return errno == ENOENT ? refuse(w, -ENOENT, "it is a dangling symbolic link") : -errno;
	/* /dev/stdout: /proc's links name no path; a device is written, never replaced */
	if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
		return write_in_place(dirfd, base, 0, w);
	n = readlinkat(dirfd, base, target, sizeof(target));
	if (n < 0)
		return -errno;
	if ((size_t)n >= sizeof(target))
		return -ENAMETOOLONG;
	target[n] = '\0';
	if (target[0] != '/' &&
	    snprintf(next, sizeof(next), "%s/%s", dir, target) >= (int)sizeof(next))
		return -ENAMETOOLONG;
	return write_path(target[0] == '/' ? target : next, links - 1, w);
}

/* What "base" in dirfd is, and so how it is written. */
static int write_at(int dirfd, const char *dir, const char *base, int links,
		    struct wr *w)
{
	struct stat ds, st;

	if (fstat(dirfd, &ds))
		return -errno;
	if (fstatat(dirfd, base, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? replace_regular(dirfd, base, 0644, w) : -errno;
	if (S_ISLNK(st.st_mode))
		return follow(dirfd, dir, &ds, base, &st, links, w);
	if (S_ISREG(st.st_mode))
		return replace_regular(dirfd, base, st.st_mode, w);
	if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
		return write_in_place(dirfd, base, O_NOFOLLOW, w);
	if (S_ISDIR(st.st_mode))
		return refuse(w, -EISDIR, "it is a directory");
	return refuse(w, -EINVAL, S_ISBLK(st.st_mode) ? "it is a block device" :
				   "it is a socket");
}

/* "path" split into its directory, held open, and its last name. */
static int write_path(const char *path, int links, struct wr *w)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	int dirfd, ret;

	if (strlen(path) >= sizeof(dir))
		return -ENAMETOOLONG;
	if (!slash)
		strcpy(dir, ".");
	else if (slash == path)
		strcpy(dir, "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (!*base)
		base = "."; /* "dir/": the directory itself */
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return -errno;
	ret = write_at(dirfd, dir, base, links, w);
	close(dirfd);
	return ret;
}

int rctl_write_atomic(const char *path, const char *buf, size_t len,
		      struct rctl_err *e)
{
	struct wr w = { .buf = buf, .len = len };
	int ret, tries = 3;

	do {
		w.why[0] = '\0';
		ret = write_path(path, LINKS_MAX, &w);
	} while (ret == -EAGAIN && --tries);
	if (ret == -ENXIO)
		return rctl_err_plain(e, ENXIO, "cannot write '%s': no process reads the FIFO",
				    path);
	if (ret && w.why[0])
		return rctl_err_plain(e, -ret, "cannot write '%s': %s", path, w.why);
	if (ret)
		return rctl_err_strerror(e, -ret, "cannot write '%s'", path);
	return 0;
}
