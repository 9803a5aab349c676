// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rocectl tune's writes: each change translated into its family's write
 * primitive (rocectl/write.h: dcbnl SET/DEL, ETHTOOL_SPAUSEPARAM, text files
 * with the rdma_cm mkdir/rmdir dance), forwards or as its undo. The
 * transaction around them is lib/tune_apply.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/dcbnl.h>

#include "rocectl/sysfs.h"
#include "rocectl/tune_write.h"
#include "rocectl/write.h"

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
	enum rctl_tune_op op = c->op;

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
		return rctl_err_strerror(e, -ret, "cannot create '%s'", c->mkdir);
	if (rctl_tune_path_check(c->path, false, e) ||
	    (c->commit[0] && rctl_tune_path_check(c->commit, false, e)))
		ret = -e->errnum;
	else if ((ret = rctl_write_text(c->path, text)))
		rctl_err_strerror(e, ret, "cannot write '%s' to '%s'", text, c->path);
	else if (c->commit[0] && (ret = rctl_write_text(c->commit, "1")))
		rctl_err_strerror(e, ret, "cannot write '1' to '%s'", c->commit);
	if (rctl_configfs_leave(c->mkdir, made) && !ret)
		ret = rctl_err_strerror(e, errno, "cannot remove '%s'", c->mkdir);
	return ret;
}

int rctl_tune_write(struct rctl_tune_change *c, bool undo, struct rctl_err *e)
{
	enum rctl_tune_op op = c->op;
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
		return rctl_err_plain(e, EINVAL, "unknown tune operation %d", (int)op);
	}
	if (ret)
		rctl_err_strerror(e, ret, "cannot set %s of '%s'%s%s%s", c->setting, c->target,
			     c->via[0] ? " (" : "", c->via, c->via[0] ? ")" : "");
	return ret;
}
