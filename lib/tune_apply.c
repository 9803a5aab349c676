// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rocectl tune's transaction: apply with rollback, and revert, over the
 * writes of lib/tune_write.c. The state file they keep is lib/tune_state.c.
 * Nothing else in rocectl writes.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rocectl/tune_apply.h"
#include "rocectl/tune_plan.h"
#include "rocectl/tune_write.h"

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

static int env_step(const char *name)
{
	const char *s = getenv(name);

	return s && *s ? atoi(s) : 0;
}

/* Where apply and revert are: the state file, the step number of each change. */
struct tx {
	struct rctl_tune_plan *p;
	const struct rctl_tune_dir *d;
	const char *name;
	struct rctl_err rec;	/* the first record that failed */
	int rec_failed;
};

/* Progress on disk; apply stops at a failed record, revert carries on. */
static int record(struct tx *t, enum rctl_tune_status doc)
{
	struct rctl_err we = { 0 };
	int ret = rctl_tune_state_write(t->d, t->name, t->p, doc, &we);

	if (ret && !t->rec_failed++)
		t->rec = we;
	return ret;
}

/*
 * The k-th change to undo: rctl_tune_undo_order()'s (on ice the APP entries
 * before ETS and PFC), or the plan backwards when there was no memory for it.
 */
static uint32_t *undo_order(const struct rctl_tune_plan *p)
{
	uint32_t *order = malloc((p->n_ch ? p->n_ch : 1) * sizeof(*order));

	if (order)
		rctl_tune_undo_order(p, order);
	return order;
}

static uint32_t undo_nth(const uint32_t *order, const struct rctl_tune_plan *p, uint32_t k)
{
	return order ? order[k] : p->n_ch - 1 - k;
}

/* Undo the changes that were applied, in the undo order; count what failed. */
static int rollback(struct tx *t, struct rctl_err *first)
{
	uint32_t *order = undo_order(t->p), k;
	struct rctl_err we = { 0 };
	int failed = 0;

	for (k = 0; k < t->p->n_ch; k++) {
		struct rctl_tune_change *c = &t->p->ch[undo_nth(order, t->p, k)];

		if (c->status != RCTL_TUNE_APPLIED)
			continue;
		if (rctl_tune_write(c, true, &we)) {
			set_status(c, RCTL_TUNE_UNDO_FAILED, we.msg);
			if (!failed++)
				*first = we;
		} else {
			set_status(c, RCTL_TUNE_UNDONE, NULL);
		}
		record(t, RCTL_TUNE_IN_PROGRESS);
	}
	free(order);
	return failed;
}

static int apply_one(struct rctl_tune_change *c, int step, struct rctl_err *we)
{
	int ret;

	if (step == env_step(RCTL_TUNE_FAIL_ENV))
		return rctl_err_plain(we, EIO, "cannot set %s of '%s': injected failure (%s=%d)",
				    c->setting, c->target, RCTL_TUNE_FAIL_ENV, step);
	ret = rctl_tune_write(c, false, we);
	if (step == env_step(RCTL_TUNE_KILL_ENV))
		raise(SIGKILL);
	return ret;
}

static int apply_failed(struct tx *t, uint32_t i, int step, const struct rctl_err *we,
			bool *rb_failed, struct rctl_err *e)
{
	struct rctl_err rb = { 0 };
	int undone = 0, failed;
	uint32_t j;

	/* Step i too when only its record failed: it was written. */
	for (j = 0; j <= i; j++)
		undone += t->p->ch[j].status == RCTL_TUNE_APPLIED;
	failed = rollback(t, &rb);
	*rb_failed = failed;
	if (failed)
		return rctl_err_plain(e, we->errnum,
				    "step %d failed: %s; rollback FAILED for %d of %d changes, first: %s",
				    step, we->msg, failed, undone, rb.msg);
	return rctl_err_plain(e, we->errnum, "step %d failed: %s; rolled back %d change%s",
			    step, we->msg, undone, undone == 1 ? "" : "s");
}

/* One step: recorded in progress, written, recorded done. */
static int apply_step(struct tx *t, struct rctl_tune_change *c, int step,
		      struct rctl_err *we)
{
	enum rctl_tune_status before = c->status;
	int ret;

	set_status(c, RCTL_TUNE_IN_PROGRESS, NULL);
	if (record(t, RCTL_TUNE_IN_PROGRESS)) {
		set_status(c, before, NULL);	/* not written */
		*we = t->rec;
		return -we->errnum;
	}
	ret = apply_one(c, step, we);
	if (ret == -EOPNOTSUPP)
		unsupported(c, we);
	else if (ret)
		set_status(c, RCTL_TUNE_FAILED, we->msg);
	else
		set_status(c, RCTL_TUNE_APPLIED, NULL);
	if (!ret)
		c->applied_at = (uint64_t)time(NULL);
	if (ret == -EOPNOTSUPP || !ret) {
		if (record(t, RCTL_TUNE_IN_PROGRESS)) {
			*we = t->rec;
			return -we->errnum;
		}
		ret = 0;
	}
	return ret;
}

int rctl_tune_apply(struct rctl_tune_plan *p, const struct rctl_tune_dir *d,
		    char *name, size_t len, struct rctl_err *e)
{
	struct tx t = { .p = p, .d = d, .name = name };
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
	ret = rctl_tune_state_create(p, d, name, len, e);
	if (ret)
		return ret;
	for (i = 0; i < p->n_ch && !ret; i++) {
		if (p->ch[i].skip[0])
			continue;
		if (apply_step(&t, &p->ch[i], ++step, &we))
			ret = apply_failed(&t, i, step, &we, &rb_failed, e);
	}
	wret = rctl_tune_state_write(d, name, p, !ret ? RCTL_TUNE_APPLIED : rb_failed ?
				     RCTL_TUNE_UNDO_FAILED : RCTL_TUNE_UNDONE, ret ? &we : e);
	return ret ? ret : wret;
}

/* ---- revert ----------------------------------------------------------- */

/* The step number apply gave change i (skipped changes have none). */
static int step_of(const struct rctl_tune_plan *p, uint32_t i)
{
	int step = 1;
	uint32_t j;

	for (j = 0; j < i; j++)
		step += !p->ch[j].skip[0];
	return step;
}

static int undo_one(struct rctl_tune_change *c, int step, struct rctl_err *we)
{
	int ret;

	if (step == env_step(RCTL_TUNE_FAIL_ENV))
		return rctl_err_plain(we, EIO, "injected failure (%s=%d)", RCTL_TUNE_FAIL_ENV, step);
	ret = rctl_tune_write(c, true, we);
	/* Unsupported now is not undone: the value apply wrote may still be there. */
	if (ret == -EOPNOTSUPP) {
		struct rctl_err why = *we;

		rctl_err_plain(we, EOPNOTSUPP, "not supported by %s (%.400s)",
			     c->driver[0] ? c->driver : "the driver", why.msg);
	}
	return ret;
}

int rctl_tune_revert(const struct rctl_tune_dir *d, const char *name,
		     struct rctl_tune_plan *p, struct rctl_err *e)
{
	struct tx t = { .p = p, .d = d, .name = name };
	const struct rctl_tune_change *first = NULL;
	struct rctl_err we = { 0 };
	enum rctl_tune_status status;
	int ret, failed = 0, tried = 0, errnum = 0;
	uint32_t i, k, *order;

	ret = rctl_tune_state_load(d, name, p, &status, e);
	if (ret)
		return ret;
	order = undo_order(p);
	for (k = 0; k < p->n_ch; k++) {
		struct rctl_tune_change *c = &p->ch[i = undo_nth(order, p, k)];

		if (!rctl_tune_change_written(c))
			continue;
		tried++;
		c->tried = true;
		if (undo_one(c, step_of(p, i), &we)) {
			set_status(c, RCTL_TUNE_REVERT_FAILED, we.msg);
			if (!failed++) {
				first = c;
				errnum = we.errnum;
			}
		} else {
			set_status(c, RCTL_TUNE_REVERTED, NULL);
		}
		record(&t, status);
	}
	free(order);
	record(&t, failed ? RCTL_TUNE_REVERT_FAILED : RCTL_TUNE_REVERTED);
	if (failed)
		return rctl_err_plain(e, errnum, "%d of %d change%s not undone, first: %s of '%s': %s",
				    failed, tried, tried == 1 ? "" : "s", first->setting,
				    first->target, first->result);
	if (t.rec_failed)
		return rctl_err_plain(e, t.rec.errnum, "every change undone, but %s", t.rec.msg);
	return 0;
}
