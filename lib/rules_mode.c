// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RoCE mode rules: rdma_cm defaults from configfs, and whether RoCE is
 * there at all: devices, ports with netdevs, NICs without RDMA
 * (docs/roce-facts.md, "rdma_cm defaults").
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rocectl/settings.h"
#include "rocectl/collect.h"
#include "rocectl/rules.h"

/* tune's render of an rdma_cm default (rocectl/settings.h), in the same paths. */
static void cm_fix(const struct rctl_target *t, const char *file, const char *text,
		   char *fix, size_t len)
{
	char dir[256], path[320];

	rctl_cm_dir(dir, sizeof(dir), t->dev->name);
	rctl_cm_file(path, sizeof(path), t->dev->name, t->port->port, file);
	rctl_render_cm(dir, path, text, fix, len);
}

/*
 * Without rdma_cm in configfs (configfs not mounted, or rdma_cm not loaded)
 * nothing has changed rdma_cm's defaults: cma_add_one() sets ToS 0 and RoCE
 * v2 where the port supports it (CMA_PREFERRED_ROCE_GID_TYPE), and only
 * cma_configfs.c changes them (drivers/infiniband/core/cma.c, Linux 4.9 to
 * 6.15). They are known, and ToS 0 is a finding, not an unknown.
 */
static bool cm_defaults(const struct rctl_target *t, struct rctl_cm_cfg *cm, const char **how)
{
	const struct rctl_part *st = &t->port->cm.st;
	uint32_t i;

	if (st->ok || st->err != ENOENT)
		return false;
	if (!strcmp(st->reason, "configfs not mounted"))
		*how = "mount -t configfs none /sys/kernel/config && ";
	else if (!strncmp(st->reason, "no rdma_cm in configfs", 22))
		*how = "modprobe rdma_cm && ";
	else
		return false;
	memset(cm, 0, sizeof(*cm));
	cm->st.ok = true;
	snprintf(cm->roce_mode, sizeof(cm->roce_mode), "IB/RoCE v1");
	for (i = 0; i < t->port->n_gids; i++)
		if (!strcmp(t->port->gids[i].type, "RoCE v2"))
			snprintf(cm->roce_mode, sizeof(cm->roce_mode), "RoCE v2");
	return true;
}

static void version_of(struct rctl_judge *j, const struct rctl_target *t,
		       const struct rctl_cm_cfg *cm, const char *ev, const char *how)
{
	const char *want = j->in->roce_version == 1 ? "IB/RoCE v1" : "RoCE v2";
	char fix[320], cmd[320];

	if (!strcmp(cm->roce_mode, want)) {
		rctl_pass_ev(j, t, want, cm->roce_mode, ev, "rdma_cm uses %s by default", want);
		return;
	}
	cm_fix(t, RCTL_CM_MODE_FILE, want, cmd, sizeof(cmd));
	snprintf(fix, sizeof(fix), "%s%s", how, cmd);
	rctl_say(j,
		 &(struct rctl_say){ .status = RCTL_FAIL,
				     .target = t->name,
				     .expected = want,
				     .observed = cm->roce_mode,
				     .evidence = ev,
				     .fix = fix },
		 "rdma_cm connections (NVMe-oF, rping, perftest -R) use %s, not %s", cm->roce_mode,
		 want);
}

void rule_mode_roce_version(struct rctl_judge *j, const struct rctl_target *t)
{
	version_of(j, t, &t->port->cm, "configfs default_roce_mode", "");
}

bool rule_mode_cm_version_unreadable(struct rctl_judge *j, const struct rctl_target *t)
{
	struct rctl_cm_cfg cm;
	const char *how;
	char ev[RCTL_FIELD_LEN * 2];

	if (!cm_defaults(t, &cm, &how))
		return false;
	snprintf(ev, sizeof(ev), "no rdma_cm configfs (%s): cma_add_one()'s default",
		 t->port->cm.st.reason);
	version_of(j, t, &cm, ev, how);
	rctl_emit_setting(j, RCTL_SET_NONE);
	return true;
}

static void tos_of(struct rctl_judge *j, const struct rctl_target *t, const struct rctl_cm_cfg *cm,
		   const char *ev, const char *how)
{
	char exp[48], got[48], fix[320], cmd[320], txt[8];
	int want = j->in->tos;

	snprintf(exp, sizeof(exp), "tos %d (DSCP %d)", want, want >> 2);
	snprintf(got, sizeof(got), "tos %u (DSCP %u)", cm->roce_tos, cm->roce_tos >> 2);
	if (cm->roce_tos == (uint32_t)want) {
		rctl_pass_ev(j, t, exp, got, ev, "rdma_cm default ToS is %d", want);
		return;
	}
	snprintf(txt, sizeof(txt), "%d", want);
	cm_fix(t, RCTL_CM_TOS_FILE, txt, cmd, sizeof(cmd));
	snprintf(fix, sizeof(fix), "%s%s", how, cmd);
	rctl_say(
		j,
		&(struct rctl_say){ .status = RCTL_WARN,
				    .target = t->name,
				    .expected = exp,
				    .observed = got,
				    .evidence = ev,
				    .fix = fix },
		cm->roce_tos ?
			"rdma_cm traffic is marked DSCP %u, not %d" :
			"rdma_cm traffic is marked DSCP %u: it runs in the lossy default class, not DSCP %d",
		cm->roce_tos >> 2, want >> 2);
}

void rule_mode_tos(struct rctl_judge *j, const struct rctl_target *t)
{
	tos_of(j, t, &t->port->cm, "configfs default_roce_tos", "");
}

bool rule_mode_cm_tos_unreadable(struct rctl_judge *j, const struct rctl_target *t)
{
	struct rctl_cm_cfg cm;
	const char *how;
	char ev[RCTL_FIELD_LEN * 2];

	if (!cm_defaults(t, &cm, &how))
		return false;
	snprintf(ev, sizeof(ev), "no rdma_cm configfs (%s): cma_add_one()'s default ToS 0",
		 t->port->cm.st.reason);
	tos_of(j, t, &cm, ev, how);
	rctl_emit_setting(j, RCTL_SET_NONE); /* tune writes no configfs it cannot see */
	return true;
}

/* Ethernet drivers of RoCE-capable NICs (their RDMA half: mlx5_ib, bnxt_re, irdma). */
static bool roce_nic(const char *drv)
{
	return rctl_driver_roce_capable(drv);
}

/*
 * Whether a netdev carries RDMA: an RDMA port names it, or it is a slave of
 * the bond of a port's netdev (RoCE LAG: one RDMA device, mlx5_bond_0, names
 * one slave and serves them all; lag/lag.c mlx5_lag_get_roce_netdev()).
 */
static bool has_rdma(const struct rctl_host *h, const struct rctl_netdev *nd)
{
	const struct rctl_netdev *bond = rctl_bond_of(h, nd), *pnd;
	uint32_t i, k;

	if (rctl_port_netdev(h, nd->name))
		return true;
	for (i = 0; bond && i < h->n_devs; i++)
		for (k = 0; k < h->devs[i].n_ports; k++) {
			pnd = rctl_host_netdev(h, h->devs[i].ports[k].netdev);
			if (pnd && rctl_bond_of(h, pnd) == bond)
				return true;
		}
	return false;
}

void rule_mode_roce_disabled(struct rctl_judge *j, const struct rctl_target *host)
{
	const struct rctl_host *h = j->h;
	struct rctl_target t;
	uint32_t i;

	if (!h->n_devs)
		rctl_say(j,
			 &(struct rctl_say){ .status = RCTL_FAIL,
					     .expected = "an RDMA device",
					     .observed = "none" },
			 "no RDMA device: RoCE is not enabled on this host");
	for (uint32_t di = 0, pi = 0; rctl_target_next(j, &t, &di, &pi);) {
		if (!t.port->netdev[0])
			rctl_say(j,
				 &(struct rctl_say){ .status = RCTL_FAIL,
						     .target = t.name,
						     .expected = "a netdev",
						     .observed = "none" },
				 "%s has no netdev: it cannot carry RoCE", t.name);
		else if (strcmp(t.port->state, "ACTIVE"))
			rctl_say(j,
				 &(struct rctl_say){ .status = RCTL_FAIL,
						     .target = t.name,
						     .expected = "ACTIVE",
						     .observed = t.port->state,
						     .evidence = t.port->phys_state },
				 "%s is %s (%s)", t.name, t.port->state, t.port->phys_state);
		else
			rctl_say(j,
				 &(struct rctl_say){ .status = RCTL_PASS,
						     .target = t.name,
						     .expected = "ACTIVE",
						     .observed = "ACTIVE" },
				 "%s is ACTIVE", t.name);
	}
	for (i = 0; !j->filter && i < h->n_netdevs; i++)
		if (roce_nic(h->netdevs[i].driver) && !has_rdma(h, &h->netdevs[i]))
			rctl_say(
				j,
				&(struct rctl_say){ .status = RCTL_WARN,
						    .target = h->netdevs[i].name,
						    .expected = "an RDMA device",
						    .observed = "none",
						    .evidence = h->netdevs[i].driver },
				"'%s' (%s) has no RDMA device: its RDMA driver is not loaded or RoCE is off",
				h->netdevs[i].name, h->netdevs[i].driver);
}
