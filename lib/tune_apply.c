// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rocectl tune's transaction: each change translated into its family's write
 * (rocectl/write.h: dcbnl SET/DEL, ETHTOOL_SPAUSEPARAM, text files with the
 * rdma_cm mkdir/rmdir dance), apply with rollback, and revert. The state
 * file they keep is lib/tune_state.c. Nothing else in rocectl writes.
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

#include <linux/dcbnl.h>

#include "rocectl/nl.h"
#include "rocectl/snapshot.h"
#include "rocectl/tune.h"
#include "rocectl/sysfs.h"
#include "rocectl/write.h"

uint32_t rctl_tune_plan_active(const struct rctl_tune_plan *p)
{
	uint32_t i, n = 0;

	for (i = 0; i < p->n_ch; i++)
		n += !p->ch[i].skip[0];
	return n;
}

/* ---- dcbnl ------------------------------------------------------------ */

static int write_pfc(const struct rctl_tune_change *c, bool undo)
{
	struct ieee_pfc pfc = {
		.pfc_cap = c->pfc_cap,
		.pfc_en = undo ? c->old_val : c->new_val,
		.mbc = c->pfc_mbc,
		.delay = c->pfc_delay,
	};

	return rctl_dcb_set(c->ifname, DCB_CMD_IEEE_SET, DCB_ATTR_IEEE_PFC, &pfc,
			    sizeof(pfc));
}

static int write_ets(const struct rctl_tune_change *c, bool undo)
{
	struct ieee_ets ets = { .willing = c->ets_willing };

	memcpy(ets.tc_tx_bw, c->tc_tx_bw, 8);
	memcpy(ets.tc_rx_bw, c->tc_tx_bw, 8);
	memcpy(ets.tc_tsa, c->tc_tsa, 8);
	memcpy(ets.prio_tc, undo ? c->old_prio_tc : c->new_prio_tc, 8);
	return rctl_dcb_set(c->ifname, DCB_CMD_IEEE_SET, DCB_ATTR_IEEE_ETS, &ets,
			    sizeof(ets));
}

bool rctl_tune_app_op(const struct rctl_tune_change *c, bool undo, uint32_t *prio)
{
	enum rctl_tune_op op = rctl_tune_op_of(c);

	*prio = c->app_prio;
	if (op == RCTL_TUNE_APP_SET && undo && c->old_val != RCTL_APP_NONE) {
		*prio = c->old_val;	/* mlx5: SET the old priority back */
		return true;
	}
	if (op == RCTL_TUNE_APP_DEL)
		return undo;
	return !undo;
}

static int write_app(const struct rctl_tune_change *c, bool undo)
{
	uint32_t prio;
	bool set = rctl_tune_app_op(c, undo, &prio);
	struct dcb_app app = {
		.selector = c->app_selector,
		.priority = prio,
		.protocol = c->app_protocol,
	};

	return rctl_dcb_set(c->ifname, set ? DCB_CMD_IEEE_SET : DCB_CMD_IEEE_DEL,
			    DCB_ATTR_IEEE_APP_TABLE, &app, sizeof(app));
}

/* ---- ethtool ---------------------------------------------------------- */

static int write_pause(const struct rctl_tune_change *c, bool undo)
{
	uint32_t v = undo ? c->old_val : c->new_val;

	return rctl_ethtool_set_pause(c->ifname, v & RCTL_PAUSE_AUTONEG,
				      v & RCTL_PAUSE_RX, v & RCTL_PAUSE_TX);
}

/* ---- files ------------------------------------------------------------ */

/*
 * rdma_cm keeps its defaults in the device, not in the configfs directory:
 * make the directory if it is missing, write, and remove only what we made.
 */
static int write_file(const struct rctl_tune_change *c, bool undo,
		      struct rctl_err *e)
{
	const char *text = undo ? c->old_text : c->new_text;
	bool made = false;
	int ret;

	if (c->mkdir[0] && rctl_tune_path_check(c->mkdir, true, e))
		return -e->errnum;
	if (c->mkdir[0] && (ret = rctl_configfs_enter(c->mkdir, &made)))
		return rctl_err_set(e, -ret, "cannot create '%s'", c->mkdir);
	if (rctl_tune_path_check(c->path, false, e) ||
	    (c->commit[0] && rctl_tune_path_check(c->commit, false, e)))
		ret = -e->errnum;
	else if ((ret = rctl_write_text(c->path, text)))
		rctl_err_set(e, ret, "cannot write '%s' to '%s'", text, c->path);
	else if (c->commit[0] && (ret = rctl_write_text(c->commit, "1")))
		rctl_err_set(e, ret, "cannot write '1' to '%s'", c->commit);
	if (rctl_configfs_leave(c->mkdir, made) && !ret)
		ret = rctl_err_set(e, errno, "cannot remove '%s'", c->mkdir);
	return ret;
}

int rctl_tune_write(struct rctl_tune_change *c, bool undo, struct rctl_err *e)
{
	enum rctl_tune_op op = rctl_tune_op_of(c);
	int ret;

	switch (op) {
	case RCTL_TUNE_PAUSE: ret = write_pause(c, undo); break;
	case RCTL_TUNE_ETS: ret = write_ets(c, undo); break;
	case RCTL_TUNE_PFC: ret = write_pfc(c, undo); break;
	case RCTL_TUNE_APP_ADD:
	case RCTL_TUNE_APP_DEL:
	case RCTL_TUNE_APP_SET: ret = write_app(c, undo); break;
	case RCTL_TUNE_WRITE: return write_file(c, undo, e);
	default:
		return rctl_err_msg(e, EINVAL, "unknown tune operation '%s'", c->op);
	}
	if (ret)
		rctl_err_set(e, ret, "cannot set %s of '%s'%s%s%s", c->setting, c->target,
			     c->via[0] ? " (" : "", c->via, c->via[0] ? ")" : "");
	return ret;
}

/* ---- apply, rollback, revert ------------------------------------------ */

static void set_status(struct rctl_tune_change *c, const char *status,
		       const char *result)
{
	snprintf(c->status, sizeof(c->status), "%s", status);
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

		if (strcmp(c->status, RCTL_TUNE_APPLIED))
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
		undone += !strcmp(p->ch[j].status, RCTL_TUNE_APPLIED);
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
	wret = rctl_tune_state_write(state_path, p, !ret ? "applied" : rb_failed ?
			   "rollback-failed" : "rolled-back", ret ? &we : e);
	return ret ? ret : wret;
}

int rctl_tune_revert(const char *path, struct rctl_tune_plan *p,
		     struct rctl_err *e)
{
	struct rctl_err we = { 0 };
	char status[32];
	int ret, failed = 0;
	uint32_t i;

	ret = rctl_tune_state_load(path, p, status, sizeof(status), e);
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
	ret = rctl_tune_state_write(path, p, failed ? status : "reverted", failed ? &we : e);
	if (failed)
		return -e->errnum;
	return ret;
}
