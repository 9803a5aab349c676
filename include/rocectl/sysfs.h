/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The file-system floor under every collector: where sysfs, debugfs and
 * configfs are (overridable for tests and fixtures), reading one small file,
 * parsing a kernel number file, and reading a directory of counter files.
 * Nothing here knows a driver; every collector reads through it.
 */
#ifndef ROCECTL_SYSFS_H
#define ROCECTL_SYSFS_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "rocectl/model.h"

/* sysfs root, overridable for tests through ROCECTL_SYSFS ("/sys"). */
const char *rctl_sysfs(void);
/* debugfs and configfs roots, overridable through ROCECTL_DEBUGFS/_CONFIGFS. */
const char *rctl_debugfs(void);
const char *rctl_configfs(void);

/* Read a small sysfs/configfs file, newline stripped; -errno on failure. */
int rctl_read_file(const char *path, char *buf, size_t len);

/*
 * 1 when a line of the file at "path" (of any length) satisfies "match", 0
 * when none does, -errno when it cannot be read.
 */
int rctl_file_any_line(const char *path, bool (*match)(const char *line));

/* Whether "line", its trailing newline and blanks aside, ends with "tail". */
bool rctl_line_ends_with(const char *line, const char *tail);

/*
 * A number file's text (newline stripped): digits in "base" (0: decimal or
 * 0x-hex), trailing spaces allowed, no sign, no leading blank. -EINVAL/-ERANGE.
 */
int rctl_sysfs_u64(const char *txt, int base, uint64_t *v);

/*
 * Every file of a counter directory (e.g. ports/N/counters, hw_counters) as
 * decimal counters appended to *c, sorted by name; hw_counters' "lifespan"
 * is no counter and is left out. A file reading "N/A" (no PMA) makes the
 * whole directory -EOPNOTSUPP and leaves *c empty. 0 or -errno (the first
 * failure; what was read before it is kept). With RCTL_CDIR_SKIP_UNREADABLE
 * a file that cannot be read or is no number is passed over instead (reach
 * takes what it can before and after its traffic). Deltas of these values go
 * through rctl_counter_delta(), which knows 32-bit wraps.
 */
#define RCTL_CDIR_SKIP_UNREADABLE (1u << 0)
int rctl_sysfs_counter_dir(const char *dir, unsigned int flags, struct rctl_counter **c,
			   uint32_t *n);

/*
 * cur - prev for a counter "bits" wide (32 or 64). A 32-bit counter that went
 * backwards wrapped once; a 64-bit one was reset: returns false.
 */
bool rctl_counter_delta(uint64_t prev, uint64_t cur, unsigned int bits,
			uint64_t *delta);

/*
 * A device's configfs directory: rctl_configfs_enter() makes "dir" when it
 * is missing (*made true), rctl_configfs_leave() removes it only if made.
 * Reading rdma_cm defaults needs this too (the directory is how configfs is
 * asked), so it is no tune-only write. 0 or -errno.
 */
int rctl_configfs_enter(const char *dir, bool *made);
int rctl_configfs_leave(const char *dir, bool made);

#endif
