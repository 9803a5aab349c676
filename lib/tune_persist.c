// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tune apply --persist: what systemctl enable does for rocectl-tune.service,
 * plus a drop-in that carries the intent's options, so the unit re-applies
 * the same intent at boot (tune.h). Written by hand because the unit
 * directory must work without a running systemd (installers, the lab) and
 * because revert must remove exactly what apply wrote, nothing else.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rocectl/fileio.h"
#include "rocectl/tune.h"

#define DROPIN_NAME "persist.conf"

/* Where systemd looks for system units, $ROCECTL_SYSTEMD_DIR first. */
static const char *const unit_dirs[] = {
	"/etc/systemd/system", "/usr/local/lib/systemd/system",
	"/usr/lib/systemd/system", "/lib/systemd/system", NULL,
};

static const char *systemd_dir(void)
{
	const char *d = getenv(RCTL_SYSTEMD_DIR_ENV);

	return d && *d ? d : RCTL_SYSTEMD_DIR;
}

/* The installed unit file: the enable link points at it. */
int rctl_tune_unit_path(char *path, size_t len, struct rctl_err *e)
{
	int i;

	snprintf(path, len, "%s/%s", systemd_dir(), RCTL_TUNE_UNIT);
	if (!access(path, R_OK))
		return 0;
	for (i = 0; unit_dirs[i]; i++) {
		snprintf(path, len, "%s/%s", unit_dirs[i], RCTL_TUNE_UNIT);
		if (!access(path, R_OK))
			return 0;
	}
	return rctl_err_msg(e, ENOENT, "cannot persist: unit '%s' is not installed in %s "
			    "or the systemd unit directories ('make install' installs it)",
			    RCTL_TUNE_UNIT, systemd_dir());
}

static int mkdir_one(const char *path, struct rctl_err *e)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		return rctl_err_set(e, errno, "cannot create '%s'", path);
	return 0;
}

int rctl_tune_persist(const char *args, char *dropin, size_t len, struct rctl_err *e)
{
	char unit[PATH_MAX], dir[PATH_MAX], link[PATH_MAX], text[2048];
	time_t now = time(NULL);
	struct tm tm;
	char stamp[32] = "";
	int ret;

	ret = rctl_tune_unit_path(unit, sizeof(unit), e);
	if (ret)
		return ret;
	if (gmtime_r(&now, &tm))
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(dir, sizeof(dir), "%s/%s.d", systemd_dir(), RCTL_TUNE_UNIT);
	snprintf(dropin, len, "%s/%s", dir, DROPIN_NAME);
	snprintf(text, sizeof(text),
		 "# Written by 'rocectl tune apply --persist' at %s;\n"
		 "# 'rocectl tune revert' removes it. See rocectl-tune(8).\n"
		 "[Service]\nEnvironment=\"ROCECTL_TUNE_ARGS=%s\"\n", stamp, args);
	ret = mkdir_one(dir, e);
	if (!ret)
		ret = rctl_write_atomic(dropin, text, strlen(text), e);
	if (ret)
		return ret;
	snprintf(dir, sizeof(dir), "%s/multi-user.target.wants", systemd_dir());
	snprintf(link, sizeof(link), "%s/%s", dir, RCTL_TUNE_UNIT);
	ret = mkdir_one(dir, e);
	if (ret)
		return ret;
	if (unlink(link) && errno != ENOENT)
		return rctl_err_set(e, errno, "cannot replace '%s'", link);
	if (symlink(unit, link))
		return rctl_err_set(e, errno, "cannot enable '%s': symlink '%s'", RCTL_TUNE_UNIT, link);
	return 0;
}

static int remove_one(const char *path, bool *removed, struct rctl_err *e)
{
	if (!unlink(path)) {
		*removed = true;
		return 0;
	}
	if (errno == ENOENT)
		return 0;
	return rctl_err_set(e, errno, "cannot remove '%s'", path);
}

int rctl_tune_unpersist(bool *removed, struct rctl_err *e)
{
	char path[PATH_MAX];
	int ret;

	*removed = false;
	snprintf(path, sizeof(path), "%s/multi-user.target.wants/%s", systemd_dir(),
		 RCTL_TUNE_UNIT);
	ret = remove_one(path, removed, e);
	snprintf(path, sizeof(path), "%s/%s.d/%s", systemd_dir(), RCTL_TUNE_UNIT, DROPIN_NAME);
	if (!ret)
		ret = remove_one(path, removed, e);
	snprintf(path, sizeof(path), "%s/%s.d", systemd_dir(), RCTL_TUNE_UNIT);
	rmdir(path);	/* only when empty: another drop-in of the admin stays */
	return ret;
}
