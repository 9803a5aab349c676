// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rocectl tune's transaction: apply with rollback, and revert, over the
 * writes of lib/tune_write.c. The state file they keep is lib/tune_state.c.
 * Nothing else in rocectl writes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rocectl/nl.h"
#include "rocectl/snapshot.h"
#include "rocectl/tune.h"
#include "rocectl/sysfs.h"

uint32_t rctl_tune_plan_active(const struct rctl_tune_plan *p)
{
	uint32_t i, n = 0;

	for (i = 0; i < p->n_ch; i++)
		n += !p->ch[i].skip[0];
	return n;
}

/* ---- apply, rollback, revert ------------------------------------------ */

static void set_status(struct rctl_tune_change *c, enum rctl_tune_status status,
		       const char *result)
{
	c->status = status;
	snprintf(c->result, sizeof(c->result), "%.500s", result ? result : "");
}

static void unsupported(struct rctl_tune_change *c, const struct rctl_err *we)
{
	char msg[sizeof(c->result)];

	snprintf(msg, sizeof(msg), "not supported by %s (%.400s)",
		 c->driver[0] ? c->driver : "the driver", we->msg);
	set_status(c, RCTL_TUNE_SKIPPED, msg);
}

static int fail_step(void)
{
	const char *s = getenv(RCTL_TUNE_FAIL_ENV);

	return s && *s ? atoi(s) : 0;
}

/* Undo changes [0, upto) that were applied, last first; count what failed. */
static int rollback(struct rctl_tune_plan *p, uint32_t upto, struct rctl_err *first)
{
	struct rctl_err we = { 0 };
	int failed = 0;
	uint32_t i;

	for (i = upto; i-- > 0;) {
		struct rctl_tune_change *c = &p->ch[i];

		if (c->status != RCTL_TUNE_APPLIED)
			continue;
		if (rctl_tune_write(c, true, &we)) {
			set_status(c, RCTL_TUNE_UNDO_FAILED, we.msg);
			if (!failed++)
				*first = we;
		} else {
			set_status(c, RCTL_TUNE_UNDONE, NULL);
		}
	}
	return failed;
}

static int apply_one(struct rctl_tune_change *c, int step, struct rctl_err *we)
{
	if (step == fail_step())
		return rctl_err_msg(we, EIO, "cannot set %s of '%s': injected failure (%s=%d)",
				    c->setting, c->target, RCTL_TUNE_FAIL_ENV, step);
	return rctl_tune_write(c, false, we);
}

static int apply_failed(struct rctl_tune_plan *p, uint32_t i, int step,
			const struct rctl_err *we, bool *rb_failed,
			struct rctl_err *e)
{
	struct rctl_err rb = { 0 };
	int undone = 0, failed;
	uint32_t j;

	set_status(&p->ch[i], RCTL_TUNE_FAILED, we->msg);
	for (j = 0; j < i; j++)
		undone += p->ch[j].status == RCTL_TUNE_APPLIED;
	failed = rollback(p, i, &rb);
	*rb_failed = failed;
	if (failed)
		return rctl_err_msg(e, we->errnum,
				    "step %d failed: %s; rollback FAILED for %d of %d changes, first: %s",
				    step, we->msg, failed, undone, rb.msg);
	return rctl_err_msg(e, we->errnum, "step %d failed: %s; rolled back %d change%s",
			    step, we->msg, undone, undone == 1 ? "" : "s");
}

int rctl_tune_apply(struct rctl_tune_plan *p, const char *state_dir,
		    char *state_path, size_t len, struct rctl_err *e)
{
	struct rctl_err we = { 0 };
	int ret = 0, step = 0, wret;
	bool rb_failed = false;
	uint32_t i;

	for (i = 0; i < p->n_ch; i++)
		if (p->ch[i].skip[0])
			set_status(&p->ch[i], RCTL_TUNE_SKIPPED, p->ch[i].skip);
		else
			set_status(&p->ch[i], RCTL_TUNE_PENDING, NULL);
	/* The previous values are on disk before anything changes. */
	ret = rctl_tune_state_create(p, state_dir, state_path, len, e);
	if (ret)
		return ret;
	for (i = 0; i < p->n_ch && !ret; i++) {
		struct rctl_tune_change *c = &p->ch[i];

		if (c->skip[0])
			continue;
		wret = apply_one(c, ++step, &we);
		if (wret == -EOPNOTSUPP)
			unsupported(c, &we);
		else if (wret)
			ret = apply_failed(p, i, step, &we, &rb_failed, e);
		else
			set_status(c, RCTL_TUNE_APPLIED, NULL);
	}
	wret = rctl_tune_state_write(state_path, p, !ret ? RCTL_TUNE_APPLIED : rb_failed ?
				     RCTL_TUNE_UNDO_FAILED : RCTL_TUNE_UNDONE, ret ? &we : e);
	return ret ? ret : wret;
}

int rctl_tune_revert(const char *path, struct rctl_tune_plan *p,
		     struct rctl_err *e)
{
	struct rctl_err we = { 0 };
	enum rctl_tune_status status;
	int ret, failed = 0;
	uint32_t i;

	ret = rctl_tune_state_load(path, p, &status, e);
	if (ret)
		return ret;
	for (i = p->n_ch; i-- > 0;) {
		struct rctl_tune_change *c = &p->ch[i];

		if (!rctl_tune_change_written(c))
			continue;
		ret = rctl_tune_write(c, true, &we);
		if (ret == -EOPNOTSUPP) {
			unsupported(c, &we);
		} else if (ret) {
			set_status(c, RCTL_TUNE_FAILED, we.msg);
			if (!failed++)
				*e = we;
		} else {
			set_status(c, RCTL_TUNE_REVERTED, NULL);
		}
	}
	ret = rctl_tune_state_write(path, p, failed ? status : RCTL_TUNE_REVERTED, failed ? &we : e);
	if (failed)
		return -e->errnum;
	return ret;
}
