/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The state directory and its state files (lib/tune_store.c): checked,
 * locked, rewritten durably.
 */
#ifndef ROCECTL_TUNE_STORE_H
#define ROCECTL_TUNE_STORE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "rocectl/err.h"
#include "rocectl/tune_state.h"

#define RCTL_TUNE_STATE_DIR "/var/lib/rocectl"

/*
 * The state directory (lib/tune_store.c), open for one apply or revert:
 * owned by root (or the user running rocectl) and mode 0700, else refused
 * with the reason; created 0700 when missing and "create" is set; locked
 * with flock(LOCK_EX | LOCK_NB) on RCTL_TUNE_LOCK in it, -EBUSY naming the
 * lock when another apply or revert holds it. Every state file is a name in
 * it.
 */
#define RCTL_TUNE_LOCK "tune.lock"
/* The state file of the boot-time apply (--boot), replaced at each boot. */
#define RCTL_TUNE_BOOT_STATE "tune-boot.json"

struct rctl_tune_dir {
	int fd, lock_fd;
	char path[PATH_MAX];
};

int rctl_tune_dir_open(struct rctl_tune_dir *d, const char *path, bool create,
		       struct rctl_err *e);
void rctl_tune_dir_close(struct rctl_tune_dir *d);

/* The state file of "d" written last that holds something to revert. */
int rctl_tune_newest_state(const struct rctl_tune_dir *d, char *name, size_t len,
			   struct rctl_err *e);

/*
 * The state file as apply and revert keep it (lib/tune_store.c): create
 * "name" of "d" (a new name when "" ; never an existing one but the boot
 * state) with status "pending"; rewrite it durably with a status; load it
 * (a regular file owned by root or us, not group- or world-writable, looked
 * at before it is opened, never through a symlink).
 */
int rctl_tune_state_create(const struct rctl_tune_plan *p, const struct rctl_tune_dir *d,
			   char *name, size_t len, struct rctl_err *e);
int rctl_tune_state_write(const struct rctl_tune_dir *d, const char *name,
			  const struct rctl_tune_plan *p, enum rctl_tune_status status,
			  struct rctl_err *e);
int rctl_tune_state_load(const struct rctl_tune_dir *d, const char *name,
			 struct rctl_tune_plan *p, enum rctl_tune_status *status,
			 struct rctl_err *e);

/*
 * The newest applied state file of directory "path" into the model
 * (rctl_tune_mark_cm()), read only: no lock, nothing created. No directory,
 * or none this user may open, or no applied state: 0 and nothing marked.
 */
int rctl_tune_cm_history(struct rctl_host *h, const char *path, struct rctl_err *e);

#endif
