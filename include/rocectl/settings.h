/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The per-driver settings table, as lib/catalog.c is for counters: for every
 * setting check judges or tune changes, and every driver family, how it is
 * read and written (interface, path, format, base), what else the write
 * changes, its undo, its place in the apply and undo orders, when the host
 * cannot write it and which vendor tool does it then, and the driver file it
 * was taken from. docs/settings.md holds the same facts with their sources.
 *
 * The render functions here turn one change into the command text the user
 * would type: tune's "command" and check's "fix" both come from them, so the
 * two never disagree about a path, a base or an order.
 */
#ifndef ROCECTL_SETTINGS_H
#define ROCECTL_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rocectl/model.h"

/* Driver families: the netdev driver and its RDMA driver, inbox or vendor's. */
#define RCTL_FAMILIES(X)						\
	X(UNKNOWN, "unknown")						\
	X(MLX5, "mlx5")			/* mlx5_core/mlx5_ib, upstream */	\
	X(MLX5_OFED, "mlx5-ofed")	/* MLNX_OFED mlx5_core/mlx5_ib */	\
	X(BNXT, "bnxt")			/* bnxt_en/bnxt_re, upstream */	\
	X(BNXT_OOT, "bnxt-oot")		/* Broadcom's out-of-tree bnxt_en/bnxt_re */ \
	X(ICE, "ice")			/* ice/irdma, upstream */	\
	X(ICE_OOT, "ice-oot")		/* Intel's out-of-tree ice/irdma */	\
	X(RXE, "rxe")			/* Soft-RoCE over any netdev */

enum rctl_family {
#define X(id, s) RCTL_FAM_##id,
	RCTL_FAMILIES(X)
#undef X
	RCTL_FAM_N
};

/*
 * The family of an RDMA device and its netdev (either may be NULL): from the
 * RDMA driver (mlx5, bnxt_re, irdma, rxe), else the netdev driver (mlx5_core,
 * bnxt_en, ice), and the vendor's driver told apart by what only it has
 * (MLNX_OFED's ecn/ or qos/ sysfs, Broadcom's and Intel's configfs trees).
 * The one place in lib/ that compares driver names.
 */
enum rctl_family rctl_family_of(const struct rctl_device *d, const struct rctl_netdev *nd);
/* The family of a tune change's "driver" (netdev or RDMA driver name). */
enum rctl_family rctl_family_of_driver(const char *driver);
const char *rctl_family_name(enum rctl_family f);
/* A netdev driver of a RoCE-capable NIC (mlx5_core, bnxt_en, ice, i40e). */
bool rctl_driver_roce_capable(const char *drv);
/* mlx5 upstream or MLNX_OFED. */
bool rctl_family_mlx5(enum rctl_family f);

/* The settings, with the names findings and changes carry as "setting_id". */
#define RCTL_SETTINGS(X)						\
	X(NONE, NULL)							\
	X(PFC, "pfc")			/* PFC enable per priority */	\
	X(ETS_BW, "ets-tc-bw")		/* ETS share per traffic class */ \
	X(ETS_PRIO_TC, "ets-prio-tc")	/* priority -> traffic class */	\
	X(APP_DSCP, "app-dscp")		/* DSCP -> priority APP entries */ \
	X(APP_PCP, "app-pcp")		/* PCP -> priority (mlx5 trust pcp) */ \
	X(TRUST, "trust")		/* DSCP or PCP trust */		\
	X(ECN_NP, "ecn-np")		/* ECN notification point per prio */ \
	X(ECN_RP, "ecn-rp")		/* ECN reaction point per prio */ \
	X(ECN, "ecn")			/* one ECN/DCQCN switch for both sides */ \
	X(ECN_MARKING, "ecn-marking")	/* bnxt_re: ECN codepoint of RoCE packets */ \
	X(CNP_DSCP, "cnp-dscp")						\
	X(CNP_PRIO, "cnp-prio")						\
	X(ROCE_DSCP, "roce-dscp")	/* bnxt_re: DSCP of RoCE data */ \
	X(ROCE_PRIO, "roce-prio")	/* bnxt_re: priority of RoCE data */ \
	X(CM_TOS, "cm-tos")		/* rdma_cm default_roce_tos */	\
	X(CM_MODE, "cm-mode")		/* rdma_cm default_roce_mode */	\
	X(MTU, "mtu")							\
	X(PAUSE, "pause")		/* 802.3x global pause */	\
	X(VLAN_EGRESS, "vlan-egress-map")				\
	X(BUFFER, "dcb-buffer")		/* priority -> receive buffer */

enum rctl_setting {
#define X(id, s) RCTL_SET_##id,
	RCTL_SETTINGS(X)
#undef X
	RCTL_SET_N
};

const char *rctl_setting_name(enum rctl_setting s);

/* bnxt_re's ecn_marking that tune writes and check's fix names: ECT(1). */
#define RCTL_ECN_MARKING_ECT1 1

/*
 * The apply phases of tune, in the default order; rctl_family_phases() gives
 * each family's order. Undo runs in reverse, except where a family's
 * rctl_setting_undo_rank() says otherwise.
 */
enum rctl_phase {
	RCTL_PHASE_PAUSE,
	RCTL_PHASE_ETS,
	RCTL_PHASE_PFC,
	RCTL_PHASE_CC,		/* ECN/DCQCN enables, CNP and RoCE DSCP/prio */
	RCTL_PHASE_APP,		/* trust, DSCP -> priority entries */
	RCTL_PHASE_CM,		/* rdma_cm defaults, per port: always last */
	RCTL_PHASE_N
};

/* The netdev phases of a family in apply order (RCTL_PHASE_CM excluded). */
const enum rctl_phase *rctl_family_phases(enum rctl_family f, size_t *n);

struct rctl_setting_row {
	enum rctl_setting setting;
	enum rctl_family family;	/* RCTL_FAM_UNKNOWN: every family without a row */
	const char *read;		/* interface, path, format and base */
	const char *write;		/* interface, path, format and base; NULL: none the host owns */
	unsigned int base;		/* what the driver parses: 10 or 16 */
	bool replaces;			/* the write replaces the value (else it adds an entry) */
	const char *also;		/* what else the write changes, or NULL */
	const char *undo;		/* how tune undoes it */
	enum rctl_phase phase;
	const char *blocked;		/* when the host cannot write it, or NULL */
	const char *tool;		/* which vendor tool does it then, or NULL */
	const char *source;		/* driver file and version the row is taken from */
};

/* The row of a setting on a family (its own, else the generic one); NULL if none. */
const struct rctl_setting_row *rctl_setting_row(enum rctl_setting s, enum rctl_family f);
/* A row's vendor tool with its "IF" placeholder replaced by "ifname". */
const char *rctl_setting_tool(const struct rctl_setting_row *r, const char *ifname,
			      char *buf, size_t len);
/* Every row, for docs and tests. */
const struct rctl_setting_row *rctl_setting_rows(size_t *n);

/*
 * Undo rank of a change of "phase" on "f": undo runs from the highest rank
 * down. By default the apply position; on ice the APP entries are undone
 * before ETS and PFC are restored, because deleting the last DSCP entry
 * loads the driver's defaults (ice_dcb_nl.c ice_dcbnl_delapp).
 */
unsigned int rctl_setting_undo_rank(enum rctl_family f, enum rctl_phase phase);

/* ---- who owns DCB ------------------------------------------------------ */

enum rctl_dcb_owner {
	RCTL_DCB_HOST,		/* dcbnl writes are the host's */
	RCTL_DCB_LLDPAD,	/* lldpad runs: it may override host writes */
	RCTL_DCB_FIRMWARE,	/* a firmware/LLD agent owns DCB */
	RCTL_DCB_UNKNOWN,	/* DCBX mode not read */
};

/*
 * Who owns DCB of "nd": a firmware agent when the DCBX mode has LLD_MANAGED,
 * or lacks HOST on a driver that reports it (mlx5 in firmware mode shows
 * VER_CEE|VER_IEEE, 0x0c: en_dcbnl.c mlx5e_dcbnl_initialize/getdcbx); else
 * lldpad when it runs. "why" gets the reason and the vendor tool that does
 * the write then, as one sentence.
 */
enum rctl_dcb_owner rctl_dcb_owner(const struct rctl_host *h, const struct rctl_netdev *nd,
				   enum rctl_family f, char *why, size_t len);
/* Whether the driver refuses dcbnl SETs in that mode (-EINVAL: bnxt_en, ice). */
bool rctl_dcb_owner_refuses(enum rctl_family f);

/* ---- what is wanted ---------------------------------------------------- */

/*
 * The traffic class the RoCE priority should move to: its own TC with
 * bandwidth (strict, or an ETS share), not shared with the CNP priority.
 * Moving the priority keeps the operator's bandwidth shares; giving a 0 %
 * class a share would change every other class's (the shares sum to 100:
 * mlx5e_dbcnl_validate_ets, bnxt_ets_validate, ice_dcb_bwchk refuse else).
 * RCTL_ETS_OK: nothing to change; RCTL_ETS_NO_TC: no such TC.
 */
#define RCTL_ETS_OK (-2)
#define RCTL_ETS_NO_TC (-1)
int rctl_ets_wanted_tc(const struct rctl_ets *e, int prio, int cnp_prio);
/* Whether the CNP priority shares the RoCE priority's traffic class. */
bool rctl_ets_cnp_shares(const struct rctl_ets *e, int prio, int cnp_prio);
/*
 * ice in DSCP mode (a DSCP APP entry set, no firmware agent): the priority ->
 * TC map cannot change, ice_dcbnl_setets() copies prio_tc only while
 * pfc_mode is ICE_QOS_MODE_VLAN (ice_dcb_nl.c, Linux 5.16 and later), so a
 * TC without bandwidth is fixed with a share (tc-bw), not with prio-tc.
 */
bool rctl_ets_prio_tc_fixed(enum rctl_family f, const struct rctl_netdev *nd);
/*
 * ETS as ice makes it when its first DSCP APP entry switches a VLAN-mode
 * port to DSCP mode (ice_dcbnl_setapp): TC 0 100 %, every other TC below
 * ets_cap 0 %, all ETS, priority i on TC i below ets_cap.
 */
void rctl_ets_ice_dscp_reset(const struct rctl_ets *e, struct rctl_ets *out);
/*
 * The shares that give "tc" bandwidth without moving a priority: half of the
 * largest other ETS share (the sum stays 100, as ice_dcb_bwchk wants);
 * false when no TC has a share to give.
 */
bool rctl_ets_share_for(const struct rctl_ets *e, int tc, uint8_t bw[8]);

/* ---- rendering ----------------------------------------------------------- */

/* A value in the base the driver of a congestion-control home parses. */
const char *rctl_cc_value_text(const struct rctl_cc *cc, uint64_t v, char *buf, size_t len);
/* The evidence a finding names for a cc value: its home, and how trustworthy it is. */
const char *rctl_cc_evidence(const struct rctl_cc *cc);
/* The base the driver of a congestion-control home parses (bnxt_re configfs: 16). */
unsigned int rctl_cc_base(const struct rctl_cc *cc);
/*
 * The command that writes "text" to "path" of a congestion-control home,
 * with the driver's commit (bnxt_re: echo 0x1 > apply) as part of it.
 */
void rctl_cc_write_cmd(const struct rctl_cc *cc, const char *path, const char *text,
		       char *buf, size_t len);
/* The path of a normalized cc parameter (its file in the home); false: not read. */
bool rctl_cc_param_path(const struct rctl_cc *cc, const char *name, char *buf, size_t len);

void rctl_render_pfc(const char *ifname, uint32_t cur, uint32_t want, char *buf, size_t len);
void rctl_render_prio_tc(const char *ifname, int prio, int tc, char *buf, size_t len);
/* "dcb ets set dev IF tc-bw TC:BW ..." of the TCs whose share changes from old to bw. */
void rctl_render_tc_bw(const char *ifname, const uint8_t old[8], const uint8_t bw[8], char *buf,
		       size_t len);
/* "add", "del" or "replace" dscp-prio DSCP:PRIO. */
void rctl_render_app(const char *ifname, const char *verb, uint32_t dscp, uint32_t prio,
		     char *buf, size_t len);
void rctl_render_pause_off(const char *ifname, char *buf, size_t len);
/* rdma_cm: its device directory made first, the text quoted when it has a space. */
void rctl_render_cm(const char *dir, const char *path, const char *text, char *buf, size_t len);

#endif
