// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where tune keeps its state files: a directory only root (or, in tests,
 * the user running rocectl) can enter, locked for one apply or revert at a
 * time, whose files are rewritten durably (a temporary file of a unique name
 * created O_EXCL|O_NOFOLLOW, fsync, rename, fsync of the directory) and read
 * only when they are regular files nobody else can write. Everything goes
 * through the directory's descriptor, so nothing in the directory can
 * redirect a write elsewhere. The documents are lib/tune_state.c's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rocectl/fileio.h"
#include "rocectl/tune_store.h"

#define STATE_MAX (8L << 20)

static int mkdir_p(const char *dir, struct rctl_err *e)
{
	char buf[PATH_MAX], *s, c;

	if (snprintf(buf, sizeof(buf), "%s", dir) >= (int)sizeof(buf))
		return rctl_err_strerror(e, ENAMETOOLONG, "cannot create state directory '%s'", dir);
	for (s = buf + 1;; s++) {
		if (*s && *s != '/')
			continue;
		c = *s;
		*s = '\0';
		if (mkdir(buf, 0700) && errno != EEXIST)
			return rctl_err_strerror(e, errno, "cannot create state directory '%s'", buf);
		if (!c)
			return 0;
		*s = c;
	}
}

/* Root's (or ours) and closed to everyone else: nobody else can plant files. */
static int dir_trusted(int fd, const char *path, struct rctl_err *e)
{
	struct stat st;

	if (fstat(fd, &st))
		return rctl_err_strerror(e, errno, "cannot read state directory '%s'", path);
	if (st.st_uid != 0 && st.st_uid != geteuid())
		return rctl_err_plain(e, EPERM, "refusing state directory '%s': owned by uid %u, "
				    "not root", path, (unsigned int)st.st_uid);
	if (st.st_mode & 077)
		return rctl_err_plain(e, EPERM, "refusing state directory '%s': mode %04o, not 0700 "
				    "(chmod 700 '%s')", path, (unsigned int)(st.st_mode & 07777), path);
	return 0;
}

static int dir_lock(struct rctl_tune_dir *d, struct rctl_err *e)
{
	d->lock_fd = openat(d->fd, RCTL_TUNE_LOCK, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
			    0600);
	if (d->lock_fd < 0)
		return rctl_err_strerror(e, errno, "cannot open lock '%s/%s'", d->path, RCTL_TUNE_LOCK);
	if (!flock(d->lock_fd, LOCK_EX | LOCK_NB))
		return 0;
	if (errno == EWOULDBLOCK)
		return rctl_err_plain(e, EBUSY, "cannot lock state directory '%s': another tune "
				    "apply or revert holds '%s/%s'", d->path, d->path,
				    RCTL_TUNE_LOCK);
	return rctl_err_strerror(e, errno, "cannot lock '%s/%s'", d->path, RCTL_TUNE_LOCK);
}

/* A temporary file of open_temp(): ".NAME.PID.N.tmp". */
static bool temp_name(const char *n)
{
	size_t len = strlen(n);

	return n[0] == '.' && len > 5 && !strcmp(n + len - 4, ".tmp");
}

/*
 * Under the lock no other apply or revert writes here: a temporary file
 * left is one a killed rocectl (SIGKILL, a power cut) did not rename or
 * unlink. Removed, so that they do not pile up; best effort.
 */
static void sweep_temps(const struct rctl_tune_dir *d)
{
	struct dirent *de;
	struct stat st;
	/* its own open of ".", not a dup: a dup shares the offset readdir moves */
	int fd = openat(d->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = fd < 0 ? NULL : fdopendir(fd);

	if (!dir) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(dir)))
		if (temp_name(de->d_name) &&
		    !fstatat(d->fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) && S_ISREG(st.st_mode))
			unlinkat(d->fd, de->d_name, 0);
	closedir(dir);
}

int rctl_tune_dir_open(struct rctl_tune_dir *d, const char *path, bool create,
		       struct rctl_err *e)
{
	struct stat st;
	int ret;

	d->fd = d->lock_fd = -1;
	if (snprintf(d->path, sizeof(d->path), "%s", path) >= (int)sizeof(d->path))
		return rctl_err_strerror(e, ENAMETOOLONG, "cannot open state directory '%s'", path);
	if (create && (ret = mkdir_p(path, e)))
		return ret;
	d->fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d->fd < 0) {
		ret = -errno;
		if (!lstat(path, &st) && S_ISLNK(st.st_mode))
			return rctl_err_plain(e, EPERM, "refusing state directory '%s': it is a "
					    "symbolic link", path);
		return rctl_err_strerror(e, -ret, "cannot open state directory '%s'", path);
	}
	ret = dir_trusted(d->fd, path, e);
	if (!ret)
		ret = dir_lock(d, e);
	if (ret)
		rctl_tune_dir_close(d);
	else
		sweep_temps(d);
	return ret;
}

void rctl_tune_dir_close(struct rctl_tune_dir *d)
{
	if (d->lock_fd >= 0)
		close(d->lock_fd);	/* releases the flock */
	if (d->fd >= 0)
		close(d->fd);
	d->fd = d->lock_fd = -1;
}

/* ---- writing ---------------------------------------------------------- */

/* ".NAME.PID.N.tmp", created: never an existing file, never through a symlink. */
static int open_temp(const struct rctl_tune_dir *d, const char *name, char *tmp, size_t len)
{
	static unsigned int seq;
	struct timespec ts;
	int fd, i;

	for (i = 0; i < 100; i++) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		snprintf(tmp, len, ".%s.%ld.%u%09ld.tmp", name, (long)getpid(), seq++, ts.tv_nsec);
		fd = openat(d->fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd < 0 ? -errno : fd;
	}
	return -EEXIST;
}

static int write_durably(const struct rctl_tune_dir *d, const char *name, const char *text)
{
	char tmp[NAME_MAX + 1];
	int fd, ret;

	fd = open_temp(d, name, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	ret = rctl_write_all(fd, text, strlen(text));
	if (!ret)
		ret = rctl_write_all(fd, "\n", 1);
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && renameat(d->fd, tmp, d->fd, name))
		ret = -errno;
	if (ret)
		unlinkat(d->fd, tmp, 0);
	else if (fsync(d->fd))	/* the rename itself on disk */
		ret = -errno;
	return ret;
}

int rctl_tune_state_write(const struct rctl_tune_dir *d, const char *name,
			  const struct rctl_tune_plan *p, enum rctl_tune_status status,
			  struct rctl_err *e)
{
	char *text = rctl_tune_state_text(p, status);
	int ret = text ? write_durably(d, name, text) : -ENOMEM;

	free(text);
	if (ret)
		rctl_err_strerror(e, -ret, "cannot write state file '%s/%s'", d->path, name);
	return ret;
}

/* tune-20261130T101502.123456789Z.json: names sort in time order. */
static int new_name(char *name, size_t len)
{
	struct timespec ts;
	struct tm tm;
	char stamp[32];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", &tm);
	return snprintf(name, len, "tune-%s.%09ldZ.json", stamp, ts.tv_nsec) >= (int)len ?
	       -ENAMETOOLONG : 0;
}

int rctl_tune_state_create(const struct rctl_tune_plan *p, const struct rctl_tune_dir *d,
			   char *name, size_t len, struct rctl_err *e)
{
	if (!name[0] && new_name(name, len))
		return rctl_err_strerror(e, ENAMETOOLONG, "cannot write state file in '%s'", d->path);
	/* A new name is new: two applies in one nanosecond must not share it. */
	if (strcmp(name, RCTL_TUNE_BOOT_STATE) &&
	    !faccessat(d->fd, name, F_OK, AT_SYMLINK_NOFOLLOW))
		return rctl_err_strerror(e, EEXIST, "cannot write state file '%s/%s'", d->path, name);
	return rctl_tune_state_write(d, name, p, RCTL_TUNE_PENDING, e);
}

/* ---- reading ---------------------------------------------------------- */

/*
 * Revert writes as root what the state file says: it must be a regular file
 * of root (or of the user running rocectl) that nobody else can write.
 */
static int state_trusted(const struct stat *st, const char *path, struct rctl_err *e)
{
	if (S_ISDIR(st->st_mode))
		return rctl_err_plain(e, EISDIR, "cannot read state file '%s': it is a directory", path);
	if (S_ISLNK(st->st_mode))
		return rctl_err_plain(e, EPERM, "refusing state file '%s': it is a symbolic link", path);
	if (!S_ISREG(st->st_mode))
		return rctl_err_plain(e, EINVAL, "cannot read state file '%s': not a regular file", path);
	if (st->st_uid != 0 && st->st_uid != geteuid())
		return rctl_err_plain(e, EPERM, "refusing state file '%s': owned by uid %u, "
				    "not root", path, (unsigned int)st->st_uid);
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return rctl_err_plain(e, EPERM, "refusing state file '%s': writable by group "
				    "or others (mode %04o)", path, (unsigned int)(st->st_mode & 07777));
	if (st->st_size > STATE_MAX)
		return rctl_err_plain(e, EFBIG, "cannot read state file '%s': too large", path);
	return 0;
}

static int read_fd(int fd, char *buf, size_t max, size_t *n)
{
	ssize_t k;

	*n = 0;
	while (*n < max) {
		k = read(fd, buf + *n, max - *n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -errno;
		if (!k)
			break;
		*n += k;
	}
	return *n < max ? 0 : -EFBIG;
}

/* Looked at before it is opened (a FIFO or a device is never opened), and after. */
static int open_state(const struct rctl_tune_dir *d, const char *name, const char *path,
		      struct stat *st, struct rctl_err *e)
{
	int fd, ret;

	if (fstatat(d->fd, name, st, AT_SYMLINK_NOFOLLOW))
		return rctl_err_strerror(e, errno, "cannot open state file '%s'", path);
	ret = state_trusted(st, path, e);
	if (ret)
		return ret;
	fd = openat(d->fd, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return rctl_err_strerror(e, errno, "cannot open state file '%s'", path);
	if (fstat(fd, st))
		ret = rctl_err_strerror(e, errno, "cannot read state file '%s'", path);
	else
		ret = state_trusted(st, path, e);
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}

int rctl_tune_state_load(const struct rctl_tune_dir *d, const char *name,
			 struct rctl_tune_plan *p, enum rctl_tune_status *status,
			 struct rctl_err *e)
{
	char path[PATH_MAX], *buf;
	struct stat st;
	size_t n;
	int fd, ret;

	memset(p, 0, sizeof(*p));
	snprintf(path, sizeof(path), "%s/%s", d->path, name);
	fd = open_state(d, name, path, &st, e);
	if (fd < 0)
		return fd;
	buf = malloc(STATE_MAX + 1);
	ret = buf ? read_fd(fd, buf, STATE_MAX, &n) : -ENOMEM;
	close(fd);
	if (ret) {
		free(buf);
		return rctl_err_strerror(e, -ret, "cannot read state file '%s'", path);
	}
	buf[n] = '\0';
	ret = rctl_tune_state_parse(buf, path, p, status, e);
	free(buf);
	return ret;
}

/* ---- the newest revertible state file ---------------------------------- */

static bool is_state(const char *name)
{
	size_t n = strlen(name);

	return !strncmp(name, "tune-", 5) && n > 10 && !strcmp(name + n - 5, ".json");
}

/* Applied, partly applied, or not fully undone: something to put back. */
static bool revertible(enum rctl_tune_status status)
{
	return status == RCTL_TUNE_APPLIED || status == RCTL_TUNE_PENDING ||
	       status == RCTL_TUNE_IN_PROGRESS || status == RCTL_TUNE_UNDO_FAILED ||
	       status == RCTL_TUNE_REVERT_FAILED;
}

static bool newer(const struct stat *a, const char *an, const struct stat *b, const char *bn)
{
	if (a->st_mtim.tv_sec != b->st_mtim.tv_sec)
		return a->st_mtim.tv_sec > b->st_mtim.tv_sec;
	if (a->st_mtim.tv_nsec != b->st_mtim.tv_nsec)
		return a->st_mtim.tv_nsec > b->st_mtim.tv_nsec;
	return strcmp(an, bn) > 0;
}

static bool candidate(const struct rctl_tune_dir *d, const char *name, struct stat *st)
{
	enum rctl_tune_status status;
	struct rctl_tune_plan p;
	struct rctl_err le = { 0 };
	bool ok;

	if (!is_state(name) || fstatat(d->fd, name, st, AT_SYMLINK_NOFOLLOW))
		return false;
	if (rctl_tune_state_load(d, name, &p, &status, &le))
		return false;
	ok = revertible(status);
	rctl_tune_plan_free(&p);
	return ok;
}

/* The last one written (by mtime): the boot state's name sorts anywhere. */
int rctl_tune_newest_state(const struct rctl_tune_dir *d, char *name, size_t len,
			   struct rctl_err *e)
{
	struct stat best = { 0 }, st;
	int fd = dup(d->fd);
	struct dirent *de;
	bool found = false;
	DIR *dir;

	dir = fd < 0 ? NULL : fdopendir(fd);
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return rctl_err_strerror(e, errno, "cannot read state directory '%s'", d->path);
	}
	while ((de = readdir(dir)))
		if (candidate(d, de->d_name, &st) && (!found || newer(&st, de->d_name, &best, name))) {
			snprintf(name, len, "%s", de->d_name);
			best = st;
			found = true;
		}
	closedir(dir);
	if (!found)
		return rctl_err_plain(e, ENOENT, "no applied tune state file in '%s'", d->path);
	return 0;
}

/* ---- read only: the connections a past apply left on the old ToS ------- */

/*
 * Neither created nor locked: flows and check only read, beside an apply
 * that may run (each state file is replaced by rename, never half written).
 * No state directory, or one this user may not open: nothing is known of a
 * tune, and nothing is said.
 */
int rctl_tune_cm_history(struct rctl_host *h, const char *path, struct rctl_err *e)
{
	struct rctl_tune_dir d = { .fd = -1, .lock_fd = -1 };
	enum rctl_tune_status status;
	struct rctl_tune_plan p;
	char name[NAME_MAX + 1];
	struct rctl_err le = { 0 };
	int ret;

	snprintf(d.path, sizeof(d.path), "%s", path);
	d.fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d.fd < 0)
		return errno == ENOENT || errno == EACCES || errno == EPERM ? 0 :
		       rctl_err_strerror(e, errno, "cannot open state directory '%s'", path);
	ret = dir_trusted(d.fd, path, e);
	if (!ret && rctl_tune_newest_state(&d, name, sizeof(name), &le)) {
		close(d.fd);
		return le.errnum == ENOENT ? 0 : (*e = le, -le.errnum);
	}
	if (!ret)
		ret = rctl_tune_state_load(&d, name, &p, &status, e);
	close(d.fd);
	if (ret)
		return ret;
	ret = rctl_tune_mark_cm(h, &p, name);
	rctl_tune_plan_free(&p);
	return ret ? rctl_err_strerror(e, -ret, "cannot read state file '%s/%s'", path, name) : 0;
}
