/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The transaction (lib/tune_apply.c): apply a plan with rollback, revert a
 * state file.
 */
#ifndef ROCECTL_TUNE_APPLY_H
#define ROCECTL_TUNE_APPLY_H

#include <stddef.h>
#include <stdint.h>

#include "rocectl/err.h"
#include "rocectl/tune_state.h"
#include "rocectl/tune_store.h"

/* Test aid: make step N (1-based, in plan order) of apply/revert fail with EIO. */
#define RCTL_TUNE_FAIL_ENV "ROCECTL_TUNE_FAIL_STEP"
/*
 * Test aid: apply raises SIGKILL right after the write of step N, before its
 * progress is recorded (the worst moment to die).
 */
#define RCTL_TUNE_KILL_ENV "ROCECTL_TUNE_KILL_STEP"

/*
 * Test aid: tune apply reads the host from this snapshot instead of the
 * live one, so that tests/cli/tune-plan.bats runs apply --plan on fixture
 * hosts (the writes still go to the trees tune owns, ROCECTL_*FS there).
 */
#define RCTL_TUNE_HOST_ENV "ROCECTL_TUNE_TEST_HOST"
/* Test aid: the snapshot apply's re-read after the writes sees instead. */
#define RCTL_TUNE_HOST_AFTER_ENV "ROCECTL_TUNE_TEST_HOST_AFTER"

/* Number of changes apply would write (not skipped). */
uint32_t rctl_tune_plan_active(const struct rctl_tune_plan *p);

/*
 * Apply a plan: write the state file "name" of "d" (a new time-stamped name
 * into "name" when it is "") with every previous value, then each change in
 * order, each recorded there before and after its write. A change answered
 * EOPNOTSUPP is skipped ("not supported by <driver>"); any other failure,
 * also of a record, undoes every change already written, in reverse order.
 * Returns 0 when all were applied or skipped, else -errno with "e" naming
 * the failed step (and whether the rollback restored everything).
 */
int rctl_tune_apply(struct rctl_tune_plan *p, const struct rctl_tune_dir *d,
		    char *name, size_t len, struct rctl_err *e);

/*
 * Revert: load state file "name" of "d" into "p" and write the previous
 * values back, in reverse order, of every change that was or may have been
 * written (also those whose undo failed before). Each undo is recorded; a
 * failing one does not stop the others and stays revert-failed. The file is
 * marked "reverted" only when every change is undone. Returns 0 then; else
 * -errno with "e" saying how many remain (each one's "result" says why).
 */
int rctl_tune_revert(const struct rctl_tune_dir *d, const char *name,
		     struct rctl_tune_plan *p, struct rctl_err *e);

#endif
