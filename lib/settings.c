// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The per-driver settings table (rocectl/settings.h): each row from the
 * driver source it names; docs/settings.md says the same with its sources.
 * Versions: Linux 6.x mainline (net/dcb/dcbnl.c; mlx5 en_dcbnl.c and
 * infiniband/hw/mlx5/cong.c; bnxt_dcb.c; ice_dcb_nl.c; bnxt_re debugfs.c of
 * 6.15; cma_configfs.c), Broadcom's bnxt_re 233.2.77.9 (bnxt_re/configfs.c,
 * bnxt_setupcc.sh), MLNX_OFED en_sysfs.c / en_dcbnl.c, Intel's irdma
 * out-of-tree configfs as lib/cc.c reads it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rocectl/settings.h"

static const char *const family_names[] = {
#define X(id, s) [RCTL_FAM_##id] = s,
	RCTL_FAMILIES(X)
#undef X
};

static const char *const setting_names[] = {
#define X(id, s) [RCTL_SET_##id] = s,
	RCTL_SETTINGS(X)
#undef X
};

const char *rctl_family_name(enum rctl_family f)
{
	return f < RCTL_FAM_N ? family_names[f] : "unknown";
}

const char *rctl_setting_name(enum rctl_setting s)
{
	return s < RCTL_SET_N ? setting_names[s] : NULL;
}

bool rctl_family_mlx5(enum rctl_family f)
{
	return f == RCTL_FAM_MLX5 || f == RCTL_FAM_MLX5_OFED;
}

/* ---- classification --------------------------------------------------- */

enum rctl_family rctl_family_of_driver(const char *drv)
{
	if (!drv)
		return RCTL_FAM_UNKNOWN;
	if (!strncmp(drv, "mlx5", 4))		/* mlx5, mlx5_core, mlx5_ib */
		return RCTL_FAM_MLX5;
	if (!strcmp(drv, "bnxt_re") || !strcmp(drv, "bnxt_en"))
		return RCTL_FAM_BNXT;
	if (!strcmp(drv, "irdma") || !strcmp(drv, "ice"))
		return RCTL_FAM_ICE;
	if (!strcmp(drv, "rxe"))
		return RCTL_FAM_RXE;
	return RCTL_FAM_UNKNOWN;
}

bool rctl_driver_roce_capable(const char *drv)
{
	enum rctl_family f = rctl_family_of_driver(drv);

	/* i40e: X722, whose RDMA half is irdma too (not the ice DCB of this table). */
	return (f != RCTL_FAM_UNKNOWN && f != RCTL_FAM_RXE) || (drv && !strcmp(drv, "i40e"));
}

/* What only the vendor's driver has: MLNX_OFED's sysfs, the vendors' configfs. */
static enum rctl_family vendor_variant(enum rctl_family f, const struct rctl_netdev *nd)
{
	const char *src = nd ? nd->cc.source : "";

	switch (f) {
	case RCTL_FAM_MLX5:
		return !strcmp(src, "mlx5-sysfs") || (nd && nd->qos.st.ok) ?
		       RCTL_FAM_MLX5_OFED : f;
	case RCTL_FAM_BNXT:
		return !strcmp(src, "bnxt_re-configfs") ? RCTL_FAM_BNXT_OOT : f;
	case RCTL_FAM_ICE:	/* Intel's irdma: its configfs, not the ENOENT of inbox irdma */
		return !strcmp(src, "irdma-configfs") && nd->cc.st.err != ENOENT ?
		       RCTL_FAM_ICE_OOT : f;
	default:
		return f;
	}
}

enum rctl_family rctl_family_of(const struct rctl_device *d, const struct rctl_netdev *nd)
{
	enum rctl_family f = d ? rctl_family_of_driver(d->driver) : RCTL_FAM_UNKNOWN;

	if (f == RCTL_FAM_UNKNOWN && nd)
		f = rctl_family_of_driver(nd->driver);
	return vendor_variant(f, nd);
}

/* ---- phase orders ----------------------------------------------------- */

static const enum rctl_phase default_phases[] = {
	RCTL_PHASE_PAUSE, RCTL_PHASE_ETS, RCTL_PHASE_PFC, RCTL_PHASE_CC, RCTL_PHASE_APP,
};

/*
 * ice: the first DSCP APP entry switches the port to DSCP mode and resets ETS
 * to TC 0 = 100 % with the identity priority -> TC map (ice_dcbnl_setapp),
 * so the APP entries go before ETS and PFC, which then land on DSCP mode.
 */
static const enum rctl_phase ice_phases[] = {
	RCTL_PHASE_PAUSE, RCTL_PHASE_APP, RCTL_PHASE_ETS, RCTL_PHASE_PFC, RCTL_PHASE_CC,
};

const enum rctl_phase *rctl_family_phases(enum rctl_family f, size_t *n)
{
	if (f == RCTL_FAM_ICE || f == RCTL_FAM_ICE_OOT) {
		*n = sizeof(ice_phases) / sizeof(ice_phases[0]);
		return ice_phases;
	}
	*n = sizeof(default_phases) / sizeof(default_phases[0]);
	return default_phases;
}

unsigned int rctl_setting_undo_rank(enum rctl_family f, enum rctl_phase phase)
{
	const enum rctl_phase *ph;
	size_t n, i;

	if (phase == RCTL_PHASE_CM)
		return RCTL_PHASE_N + 1;		/* undone first */
	/* ice: deleting the last DSCP entry loads defaults: undo APP before ETS/PFC. */
	if ((f == RCTL_FAM_ICE || f == RCTL_FAM_ICE_OOT) && phase == RCTL_PHASE_APP)
		return RCTL_PHASE_N;
	ph = rctl_family_phases(f, &n);
	for (i = 0; i < n; i++)
		if (ph[i] == phase)
			return (unsigned int)i;
	return 0;
}

/* ---- the table -------------------------------------------------------- */

#define DCBNL_PFC "dcbnl RTM_GETDCB IEEE_GET: DCB_ATTR_IEEE_PFC pfc_en bitmap"
#define DCBNL_ETS "dcbnl RTM_GETDCB IEEE_GET: DCB_ATTR_IEEE_ETS prio_tc[8], tc_tx_bw[8], tc_tsa[8]"
#define DCBNL_APP "dcbnl RTM_GETDCB IEEE_GET: DCB_ATTR_IEEE_APP_TABLE (selector 5 DSCP)"
#define BNXT_CFS "configfs bnxt_re/<dev>/ports/1/cc/"
#define BNXT_CFS_FMT "; text, hexadecimal: store sscanf(\"%x\"), show \"%#x\" of the driver's own copy " \
	"(updated on store, before apply: not read back from firmware)"
#define BNXT_CFS_W "; write hex (0x1a for 26), then 0x1 to cc/apply, one step"
#define BNXT_SRC_OOT "Broadcom bnxt_re 233.2.77.9 bnxt_re/configfs.c (*_store, *_show, apply_store)"
#define BNXT_DBG "debugfs bnxt_re/<pci>/cc_config/ (mode 0400)"
#define BNXT_SRC_DBG "Linux 6.15 drivers/infiniband/hw/bnxt_re/debugfs.c"
#define BNXT_TOOL "Broadcom bnxt_setupcc.sh, niccli or bnxtqos"
#define MLX5_SRC "Linux 6.x drivers/net/ethernet/mellanox/mlx5/core/en_dcbnl.c"
#define MLX5_CONG "Linux 6.x drivers/infiniband/hw/mlx5/cong.c"
#define ICE_SRC "Linux 6.x drivers/net/ethernet/intel/ice/ice_dcb_nl.c"
#define BNXT_SRC "Linux 6.x drivers/net/ethernet/broadcom/bnxt/bnxt_dcb.c"
#define DCB_SRC "Linux 6.x net/dcb/dcbnl.c"
#define FW_BLOCK "DCBX mode LLD_MANAGED or without HOST: a firmware LLDP agent owns DCB"

static const struct rctl_setting_row rows[] = {
	/* PFC */
	{ RCTL_SET_PFC, RCTL_FAM_UNKNOWN, DCBNL_PFC,
	  "dcbnl IEEE_SET PFC: struct ieee_pfc, pfc_cap/mbc/delay written back unchanged", 10, true,
	  NULL, "IEEE_SET PFC of the old pfc_en", RCTL_PHASE_PFC, NULL, NULL, DCB_SRC },
	{ RCTL_SET_PFC, RCTL_FAM_MLX5, DCBNL_PFC, "dcbnl IEEE_SET PFC (mlx5e_dcbnl_ieee_setpfc)", 10, true,
	  "a changed pfc_en toggles the port link (mlx5_toggle_port_link) and, with SW-owned buffers, "
	  "re-sizes them", "IEEE_SET PFC of the old pfc_en (flaps the link again)", RCTL_PHASE_PFC,
	  "firmware DCBX (mode 0x0c, no HOST bit): the firmware negotiates PFC with the switch",
	  "dcb dcbx set dev IF host ieee (hands DCB to the host), or mlnx_qos / mlxconfig", MLX5_SRC },
	{ RCTL_SET_PFC, RCTL_FAM_BNXT, DCBNL_PFC " (zeroes until set through dcbnl: firmware-managed)",
	  "dcbnl IEEE_SET PFC (bnxt_dcbnl_ieee_setpfc)", 10, true, NULL, "IEEE_SET PFC of the old pfc_en",
	  RCTL_PHASE_PFC, FW_BLOCK ": -EINVAL", BNXT_TOOL, BNXT_SRC },
	{ RCTL_SET_PFC, RCTL_FAM_ICE, DCBNL_PFC, "dcbnl IEEE_SET PFC (ice_dcbnl_setpfc)", 10, true,
	  "may reset the netdev (ice_dcbnl_devreset) when the firmware asks", "IEEE_SET PFC of the old pfc_en",
	  RCTL_PHASE_PFC, FW_BLOCK ": -EINVAL; also -EINVAL in a bond",
	  "ethtool --set-priv-flags IF fw-lldp-agent off (hands DCB to the host)", ICE_SRC },
	{ RCTL_SET_PFC, RCTL_FAM_RXE, "none: rxe has no dcbnl ops", NULL, 10, true, NULL, NULL,
	  RCTL_PHASE_PFC, "Soft-RoCE: DCB belongs to the lower netdev's driver", NULL,
	  "Linux drivers/infiniband/sw/rxe" },
	/* ETS */
	{ RCTL_SET_ETS_PRIO_TC, RCTL_FAM_UNKNOWN, DCBNL_ETS,
	  "dcbnl IEEE_SET ETS: the whole struct ieee_ets, prio_tc changed, tc_tx_bw/tc_tsa as read", 10,
	  true, NULL, "IEEE_SET ETS of the old prio_tc", RCTL_PHASE_ETS, NULL, NULL, DCB_SRC },
	{ RCTL_SET_ETS_PRIO_TC, RCTL_FAM_BNXT, DCBNL_ETS, "dcbnl IEEE_SET ETS (bnxt_dcbnl_ieee_setets)", 10,
	  true, NULL, "IEEE_SET ETS of the old prio_tc", RCTL_PHASE_ETS, FW_BLOCK ": -EINVAL", BNXT_TOOL,
	  BNXT_SRC },
	{ RCTL_SET_ETS_PRIO_TC, RCTL_FAM_ICE, DCBNL_ETS, "dcbnl IEEE_SET ETS (ice_dcbnl_setets), after the "
	  "APP entries", 10, true, "the first DSCP APP entry resets ETS (TC 0 100 %, identity prio->TC): "
	  "ETS is written after it", "IEEE_SET ETS of the old prio_tc, after the APP deletes",
	  RCTL_PHASE_ETS, FW_BLOCK ": -EINVAL; also -EINVAL in a bond",
	  "ethtool --set-priv-flags IF fw-lldp-agent off", ICE_SRC },
	{ RCTL_SET_ETS_BW, RCTL_FAM_UNKNOWN, DCBNL_ETS, NULL, 10, true,
	  "tune moves the RoCE priority to a traffic class with bandwidth (ets-prio-tc) rather than "
	  "give a 0 % class a share it would take from the others", NULL, RCTL_PHASE_ETS,
	  "a share is the operator's bandwidth policy: tune does not divide it", "dcb ets set ... tc-bw",
	  DCB_SRC },
	/*
	 * ice in DSCP mode keeps its priority -> TC map (ice_dcbnl_setets copies
	 * prio_tc only in VLAN mode): a RoCE TC at 0 % needs a share. tune names
	 * the shares and leaves them to the operator (no undo of shares).
	 */
	{ RCTL_SET_ETS_BW, RCTL_FAM_ICE, DCBNL_ETS, NULL, 10, true,
	  "in DSCP mode the only fix of a RoCE TC at 0 %: prio-tc is ignored there (the TC of a priority "
	  "is fixed, identity after the switch to DSCP mode)", NULL, RCTL_PHASE_ETS,
	  "a share is the operator's bandwidth policy: tune names it (half of the largest share) and "
	  "does not write it", "dcb ets set dev IF tc-bw TC:BW ...",
	  ICE_SRC " ice_dcbnl_setets (prio_tc only while pfc_mode is ICE_QOS_MODE_VLAN), ice_dcbnl_setapp" },
	/* APP */
	{ RCTL_SET_APP_DSCP, RCTL_FAM_UNKNOWN, DCBNL_APP,
	  "dcbnl IEEE_SET / IEEE_DEL APP, one struct dcb_app each; the dcbnl core keeps a list: add the "
	  "new entry, then delete the old", 10, false, NULL, "DEL of an added entry, SET of a deleted one",
	  RCTL_PHASE_APP, NULL, NULL, DCB_SRC " dcb_ieee_setapp/dcb_ieee_delapp" },
	{ RCTL_SET_APP_DSCP, RCTL_FAM_MLX5, DCBNL_APP, "dcbnl IEEE_SET APP: replaces the DSCP's entry "
	  "(mlx5e_dcbnl_ieee_setapp)", 10, true, "the first DSCP entry switches the port to DSCP trust; "
	  "deleting the last switches it back to PCP", "SET of the old priority, or DEL", RCTL_PHASE_APP,
	  "not the vport group manager (a VF) or no QPTS/QPDPM: -EOPNOTSUPP", "mlnx_qos --trust dscp", MLX5_SRC },
	{ RCTL_SET_APP_DSCP, RCTL_FAM_BNXT, DCBNL_APP " (the dcbnl core's list only)",
	  "dcbnl IEEE_SET / IEEE_DEL APP (bnxt_dcbnl_ieee_setapp)", 10, false, NULL,
	  "DEL of an added entry, SET of a deleted one", RCTL_PHASE_APP, FW_BLOCK ": -EINVAL", BNXT_TOOL,
	  BNXT_SRC },
	{ RCTL_SET_APP_DSCP, RCTL_FAM_ICE, DCBNL_APP, "dcbnl IEEE_SET / IEEE_DEL APP (ice_dcbnl_setapp, "
	  "ice_dcbnl_delapp); a DSCP already mapped is refused: delete first", 10, false,
	  "the first DSCP entry switches the port to DSCP mode and resets ETS; deleting the last loads the "
	  "defaults (ice_dcb_sw_dflt_cfg); success answers 1 or 2, not 0",
	  "DEL / SET, undone before ETS and PFC are restored", RCTL_PHASE_APP,
	  FW_BLOCK ": -EINVAL; also -EINVAL in a bond or without the DSCP feature",
	  "ethtool --set-priv-flags IF fw-lldp-agent off", ICE_SRC },
	{ RCTL_SET_APP_PCP, RCTL_FAM_UNKNOWN, DCBNL_APP " (selector 255 PCP)", NULL, 10, false, NULL, NULL,
	  RCTL_PHASE_APP, "tune writes no PCP entries: the VLAN egress map sets the PCP", NULL, DCB_SRC },
	/* trust */
	{ RCTL_SET_TRUST, RCTL_FAM_MLX5, "derived: DSCP trust while any DSCP APP entry exists", NULL, 10,
	  true, NULL, NULL, RCTL_PHASE_APP, NULL, NULL, MLX5_SRC },
	{ RCTL_SET_TRUST, RCTL_FAM_MLX5_OFED, "sysfs class/net/IF/qos/trust: \"pcp\" or \"dscp\"",
	  "sysfs class/net/IF/qos/trust: \"dscp\"", 10, true, NULL, "write the old word back",
	  RCTL_PHASE_APP, NULL, "mlnx_qos -i IF --trust dscp", "MLNX_OFED en_sysfs.c" },
	/* ECN per priority */
	{ RCTL_SET_ECN_NP, RCTL_FAM_MLX5_OFED, "sysfs class/net/IF/ecn/roce_np/enable/P: 0 or 1 (decimal)",
	  "the same file, \"1\"", 10, true, NULL, "write the old value", RCTL_PHASE_CC, NULL, NULL,
	  "MLNX_OFED en_sysfs.c" },
	{ RCTL_SET_ECN_RP, RCTL_FAM_MLX5_OFED, "sysfs class/net/IF/ecn/roce_rp/enable/P: 0 or 1 (decimal)",
	  "the same file, \"1\"", 10, true, NULL, "write the old value", RCTL_PHASE_CC, NULL, NULL,
	  "MLNX_OFED en_sysfs.c" },
	{ RCTL_SET_ECN, RCTL_FAM_MLX5, "firmware (NVCONFIG ROCE_CC_PRIO_MASK); only counters hint it",
	  NULL, 10, true, NULL, NULL, RCTL_PHASE_CC, "upstream mlx5 has no host knob", "mlxconfig", MLX5_CONG },
	{ RCTL_SET_ECN, RCTL_FAM_BNXT_OOT, BNXT_CFS "ecn_enable" BNXT_CFS_FMT,
	  BNXT_CFS "ecn_enable" BNXT_CFS_W, 16, true, "applies to roce_prio only",
	  "write the old value, then apply", RCTL_PHASE_CC, NULL, BNXT_TOOL, BNXT_SRC_OOT },
	/*
	 * ecn_marking_store: sscanf("%x"), 3 and more -EINVAL, into the driver's
	 * tos_ecn, sent on apply; the show prints that copy "%#x". The ECN bits
	 * of every RoCE packet: 0 Not-ECT (no switch marks it), 1 ECT(1), 2
	 * ECT(0). tune writes ECT(1), as bnxt_setupcc.sh's default does.
	 */
	{ RCTL_SET_ECN_MARKING, RCTL_FAM_BNXT_OOT, BNXT_CFS "ecn_marking" BNXT_CFS_FMT
	  " (0 Not-ECT, 1 ECT(1), 2 ECT(0))", BNXT_CFS "ecn_marking" BNXT_CFS_W " (>= 0x3: EINVAL)", 16,
	  true, "the ECN bits of every RoCE packet the function sends", "write the old value in hex, "
	  "then apply", RCTL_PHASE_CC, NULL, BNXT_TOOL, BNXT_SRC_OOT },
	{ RCTL_SET_ECN, RCTL_FAM_BNXT, BNXT_DBG "enable_cc, tos_ecn", NULL, 10, true, NULL, NULL,
	  RCTL_PHASE_CC, "inbox bnxt_re's cc_config is read-only to tune", BNXT_TOOL, BNXT_SRC_DBG },
	/*
	 * The same field as ecn_marking above: cc_param->tos_ecn, which
	 * bnxt_qplib_modify_cc() sends in tos_dscp_tos_ecn. 0 leaves RoCE
	 * packets Not-ECT; the notification point still answers the peers.
	 */
	{ RCTL_SET_ECN_MARKING, RCTL_FAM_BNXT, BNXT_DBG "tos_ecn (0 Not-ECT, 1 ECT(1), 2 ECT(0))", NULL,
	  10, true, "the ECN bits of every RoCE packet the function sends", NULL, RCTL_PHASE_CC,
	  "inbox bnxt_re's cc_config is read-only to tune", BNXT_TOOL,
	  BNXT_SRC_DBG ", qplib_sp.c bnxt_qplib_modify_cc" },
	{ RCTL_SET_ECN, RCTL_FAM_ICE_OOT, "configfs irdma/<dev>/roce_dcqcn_enable (decimal)",
	  "the same file, \"1\"", 10, true, NULL, "write the old value", RCTL_PHASE_CC, NULL, NULL,
	  "Intel irdma out-of-tree configfs" },
	{ RCTL_SET_ECN, RCTL_FAM_ICE, "none: inbox irdma has no DCQCN switch", NULL, 10, true, NULL, NULL,
	  RCTL_PHASE_CC, "inbox irdma has no knob", "Intel's out-of-tree irdma (configfs)",
	  "Linux 6.x drivers/infiniband/hw/irdma/verbs.c" },
	/* CNP, RoCE DSCP/priority */
	{ RCTL_SET_CNP_DSCP, RCTL_FAM_MLX5, "debugfs mlx5/<pci>/cc_params/np_cnp_dscp (decimal; 0600, refused "
	  "under lockdown)", "the same file, decimal", 10, true, NULL, "write the old value", RCTL_PHASE_CC,
	  "kernel lockdown (debugfs refuses files with a write bit)", "mlxconfig CNP_DSCP_P1", MLX5_CONG },
	{ RCTL_SET_CNP_DSCP, RCTL_FAM_MLX5_OFED, "sysfs class/net/IF/ecn/roce_np/cnp_dscp (decimal)",
	  "the same file, decimal", 10, true, NULL, "write the old value", RCTL_PHASE_CC, NULL,
	  "mlxconfig", "MLNX_OFED en_sysfs.c" },
	{ RCTL_SET_CNP_DSCP, RCTL_FAM_BNXT_OOT, BNXT_CFS "cnp_dscp" BNXT_CFS_FMT, BNXT_CFS "cnp_dscp"
	  BNXT_CFS_W " (> 0x3f: EINVAL)", 16, true, NULL, "write the old value in hex, then apply",
	  RCTL_PHASE_CC, NULL, BNXT_TOOL, BNXT_SRC_OOT },
	{ RCTL_SET_CNP_DSCP, RCTL_FAM_BNXT, BNXT_DBG "alt_vlan_dscp", NULL, 10, true, NULL, NULL,
	  RCTL_PHASE_CC, "inbox bnxt_re's cc_config is read-only to tune", BNXT_TOOL, BNXT_SRC_DBG },
	{ RCTL_SET_CNP_DSCP, RCTL_FAM_ICE, "none: E810 has no CNP DSCP setting", NULL, 10, true, NULL, NULL,
	  RCTL_PHASE_CC, "no knob", NULL, "Linux 6.x drivers/infiniband/hw/irdma/verbs.c" },
	{ RCTL_SET_CNP_PRIO, RCTL_FAM_MLX5, "debugfs mlx5/<pci>/cc_params/np_cnp_prio (decimal)",
	  "the same file, decimal", 10, true, "used only while np_cnp_prio_mode is 0", "write the old value",
	  RCTL_PHASE_CC, "kernel lockdown", "mlxconfig", MLX5_CONG },
	{ RCTL_SET_CNP_PRIO, RCTL_FAM_MLX5_OFED, "sysfs class/net/IF/ecn/roce_np/cnp_802p_prio (decimal)",
	  "the same file, decimal", 10, true, NULL, "write the old value", RCTL_PHASE_CC, NULL, "mlxconfig",
	  "MLNX_OFED en_sysfs.c" },
	{ RCTL_SET_CNP_PRIO, RCTL_FAM_BNXT_OOT, BNXT_CFS "cnp_prio" BNXT_CFS_FMT, BNXT_CFS "cnp_prio"
	  BNXT_CFS_W, 16, true, NULL, "write the old value in hex, then apply", RCTL_PHASE_CC, NULL,
	  BNXT_TOOL, BNXT_SRC_OOT },
	{ RCTL_SET_CNP_PRIO, RCTL_FAM_BNXT, BNXT_DBG "alt_vlan_pcp", NULL, 10, true, NULL, NULL,
	  RCTL_PHASE_CC, "inbox bnxt_re's cc_config is read-only to tune", BNXT_TOOL, BNXT_SRC_DBG },
	{ RCTL_SET_ROCE_DSCP, RCTL_FAM_BNXT_OOT, BNXT_CFS "roce_dscp" BNXT_CFS_FMT, BNXT_CFS "roce_dscp"
	  BNXT_CFS_W " (> 0x3f: EINVAL)", 16, true, NULL, "write the old value in hex, then apply",
	  RCTL_PHASE_CC, NULL, BNXT_TOOL, BNXT_SRC_OOT },
	{ RCTL_SET_ROCE_PRIO, RCTL_FAM_BNXT_OOT, BNXT_CFS "roce_prio" BNXT_CFS_FMT, BNXT_CFS "roce_prio"
	  BNXT_CFS_W, 16, true, "refused (EINVAL) when the firmware carries service profiles",
	  "write the old value in hex, then apply", RCTL_PHASE_CC, NULL, BNXT_TOOL, BNXT_SRC_OOT },
	/* rdma_cm */
	{ RCTL_SET_CM_TOS, RCTL_FAM_UNKNOWN, "configfs rdma_cm/<dev>/ports/<p>/default_roce_tos (decimal u8)",
	  "the same file, decimal (kstrtou8 base 0); mkdir rdma_cm/<dev> first, rmdir after", 10, true,
	  "new rdma_cm connections only", "write the old value", RCTL_PHASE_CM, NULL, NULL,
	  "Linux 6.x drivers/infiniband/core/cma_configfs.c" },
	{ RCTL_SET_CM_MODE, RCTL_FAM_UNKNOWN, "configfs rdma_cm/<dev>/ports/<p>/default_roce_mode "
	  "(\"RoCE v2\", \"IB/RoCE v1\")", "the same file, the mode's name", 10, true,
	  "new rdma_cm connections only", "write the old name", RCTL_PHASE_CM, NULL, NULL,
	  "Linux 6.x drivers/infiniband/core/cma_configfs.c" },
	/* netdev settings tune leaves alone */
	{ RCTL_SET_MTU, RCTL_FAM_UNKNOWN, "rtnetlink IFLA_MTU; RDMA port active_mtu (nldev)", NULL, 10, true,
	  NULL, NULL, RCTL_PHASE_PAUSE, "tune does not change the MTU: the path must carry it end to end",
	  "ip link set dev IF mtu N", "Linux net/core/rtnetlink.c" },
	{ RCTL_SET_PAUSE, RCTL_FAM_UNKNOWN, "ethtool ETHTOOL_GPAUSEPARAM", "ethtool ETHTOOL_SPAUSEPARAM "
	  "autoneg off rx off tx off", 10, true, "global pause and PFC cannot coexist on several NICs",
	  "SPAUSEPARAM of the old bits", RCTL_PHASE_PAUSE, NULL, NULL, "Linux net/ethtool/ioctl.c" },
	{ RCTL_SET_VLAN_EGRESS, RCTL_FAM_UNKNOWN, "rtnetlink IFLA_VLAN_EGRESS_QOS", NULL, 10, true, NULL,
	  NULL, RCTL_PHASE_APP, "tune does not write VLANs", "ip link set dev VLAN type vlan egress-qos-map "
	  "SKPRIO:PCP", "Linux net/8021q/vlan_netlink.c" },
	{ RCTL_SET_BUFFER, RCTL_FAM_UNKNOWN, "dcbnl DCB_ATTR_DCB_BUFFER prio2buffer, buffer_size", NULL, 10,
	  true, NULL, NULL, RCTL_PHASE_PFC, "tune does not size receive buffers (headroom depends on cable "
	  "length and MTU)", "dcb buffer set dev IF prio-buffer P:B, or mlnx_qos --prio2buffer", DCB_SRC },
};

const struct rctl_setting_row *rctl_setting_rows(size_t *n)
{
	*n = sizeof(rows) / sizeof(rows[0]);
	return rows;
}

/* The generic family a vendor variant falls back to. */
static enum rctl_family inbox_of(enum rctl_family f)
{
	switch (f) {
	case RCTL_FAM_MLX5_OFED: return RCTL_FAM_MLX5;
	case RCTL_FAM_BNXT_OOT: return RCTL_FAM_BNXT;
	case RCTL_FAM_ICE_OOT: return RCTL_FAM_ICE;
	default: return RCTL_FAM_UNKNOWN;
	}
}

static const struct rctl_setting_row *row_exact(enum rctl_setting s, enum rctl_family f)
{
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (rows[i].setting == s && rows[i].family == f)
			return &rows[i];
	return NULL;
}

const struct rctl_setting_row *rctl_setting_row(enum rctl_setting s, enum rctl_family f)
{
	const struct rctl_setting_row *r = row_exact(s, f);

	if (!r && inbox_of(f) != RCTL_FAM_UNKNOWN)
		r = row_exact(s, inbox_of(f));
	return r ? r : row_exact(s, RCTL_FAM_UNKNOWN);
}

/* ---- who owns DCB ----------------------------------------------------- */

bool rctl_dcb_owner_refuses(enum rctl_family f)
{
	/* bnxt_dcb.c and ice_dcb_nl.c: setets/setpfc/setapp return -EINVAL. */
	return f == RCTL_FAM_BNXT || f == RCTL_FAM_BNXT_OOT || f == RCTL_FAM_ICE ||
	       f == RCTL_FAM_ICE_OOT;
}

/* A row's tool text with its "IF" placeholder replaced by the netdev's name. */
const char *rctl_setting_tool(const struct rctl_setting_row *r, const char *ifname,
			      char *buf, size_t len)
{
	const char *t = r && r->tool ? r->tool : "the NIC vendor's tool";
	const char *at = strstr(t, " IF");

	if (at && (at[3] == ' ' || at[3] == '\0'))
		snprintf(buf, len, "%.*s %s%s", (int)(at - t), t, ifname, at + 3);
	else
		snprintf(buf, len, "%s", t);
	return buf;
}

static bool firmware_mode(const struct rctl_netdev *nd, enum rctl_family f)
{
	uint8_t m = nd->dcbx.mode;

	if (m & RCTL_DCBX_LLD_MANAGED)
		return true;
	/*
	 * mlx5 firmware DCBX: cap VER_CEE|VER_IEEE without HOST (0x0c);
	 * bnxt_en and ice refuse writes without HOST as well. A mode of 0 is
	 * a netdev without DCBX (a VF, a bond): not a firmware agent.
	 */
	return m && !(m & RCTL_DCBX_HOST) &&
	       (rctl_family_mlx5(f) || rctl_dcb_owner_refuses(f));
}

enum rctl_dcb_owner rctl_dcb_owner(const struct rctl_host *h, const struct rctl_netdev *nd,
				   enum rctl_family f, char *why, size_t len)
{
	char tool[128];

	if (nd->dcbx.st.ok && firmware_mode(nd, f)) {
		rctl_setting_tool(rctl_setting_row(RCTL_SET_PFC, f), nd->name, tool, sizeof(tool));
		snprintf(why, len, "firmware DCBX agent owns DCB (mode 0x%02x%s): %s",
			 nd->dcbx.mode, rctl_dcb_owner_refuses(f) ?
			 ", host writes refused" : "", tool);
		return RCTL_DCB_FIRMWARE;
	}
	if (h->lldpad_running) {
		snprintf(why, len, "lldpad (pid %u) manages DCB and may override it", h->lldpad_pid);
		return RCTL_DCB_LLDPAD;
	}
	if (why && len)
		why[0] = '\0';
	return nd->dcbx.st.ok ? RCTL_DCB_HOST : RCTL_DCB_UNKNOWN;
}

/* ---- rendering -------------------------------------------------------- */

const char *rctl_cc_evidence(const struct rctl_cc *cc)
{
	/* bnxt_re configfs *_show print the driver's copy, updated on store before apply. */
	if (!strcmp(cc->source, "bnxt_re-configfs"))
		return "bnxt_re-configfs (driver copy, not read back from firmware)";
	return cc->source;
}

unsigned int rctl_cc_base(const struct rctl_cc *cc)
{
	/* Broadcom's bnxt_re parses cc/ files with sscanf("%x") (configfs.c). */
	return !strcmp(cc->source, "bnxt_re-configfs") ? 16 : 10;
}

const char *rctl_cc_value_text(const struct rctl_cc *cc, uint64_t v, char *buf, size_t len)
{
	snprintf(buf, len, rctl_cc_base(cc) == 16 ? "%#llx" : "%llu", (unsigned long long)v);
	return buf;
}

void rctl_cc_write_cmd(const struct rctl_cc *cc, const char *path, const char *text,
		       char *buf, size_t len)
{
	if (!strcmp(cc->source, "bnxt_re-configfs"))	/* value, then apply: one step */
		snprintf(buf, len, "echo %s > %s && echo 1 > %s/apply", text, path, cc->path);
	else
		snprintf(buf, len, "echo %s > %s", text, path);
}

bool rctl_cc_param_path(const struct rctl_cc *cc, const char *name, char *buf, size_t len)
{
	uint32_t i;

	for (i = 0; i < cc->n_params; i++)
		if (!strcmp(cc->params[i].name, name)) {
			snprintf(buf, len, "%s/%s", cc->path,
				 cc->params[i].src[0] ? cc->params[i].src : name);
			return true;
		}
	return false;
}

void rctl_render_pfc(const char *ifname, uint32_t cur, uint32_t want, char *buf, size_t len)
{
	size_t o = snprintf(buf, len, "dcb pfc set dev %s prio-pfc", ifname);
	int i;

	for (i = 0; i < 8 && o < len; i++)
		if ((cur ^ want) & (1u << i))
			o += snprintf(buf + o, len - o, " %d:%s", i, want & (1u << i) ? "on" : "off");
}

void rctl_render_prio_tc(const char *ifname, int prio, int tc, char *buf, size_t len)
{
	snprintf(buf, len, "dcb ets set dev %s prio-tc %d:%d", ifname, prio, tc);
}

void rctl_render_tc_bw(const char *ifname, const uint8_t old[8], const uint8_t bw[8], char *buf,
		       size_t len)
{
	size_t o = snprintf(buf, len, "dcb ets set dev %s tc-bw", ifname);
	int i;

	for (i = 0; i < 8 && o < len; i++)
		if (old[i] != bw[i])
			o += snprintf(buf + o, len - o, " %d:%u", i, bw[i]);
}

void rctl_render_app(const char *ifname, const char *verb, uint32_t dscp, uint32_t prio,
		     char *buf, size_t len)
{
	snprintf(buf, len, "dcb app %s dev %s dscp-prio %u:%u", verb, ifname, dscp, prio);
}

void rctl_render_pause_off(const char *ifname, char *buf, size_t len)
{
	snprintf(buf, len, "ethtool -A %s autoneg off rx off tx off", ifname);
}

void rctl_render_cm(const char *dir, const char *path, const char *text, char *buf, size_t len)
{
	const char *q = strchr(text, ' ') ? "'" : "";

	snprintf(buf, len, "mkdir -p %s && echo %s%s%s > %s", dir, q, text, q, path);
}

/* ---- what is wanted ----------------------------------------------------- */

static bool tc_has_bw(const struct rctl_ets *e, int tc)
{
	return e->tc_tsa[tc] != RCTL_TSA_ETS || e->tc_tx_bw[tc];
}

/* The lowest TC with bandwidth that no priority but "prio" uses; -1 if none. */
static int ets_pick_tc(const struct rctl_ets *e, int prio)
{
	int ntc = e->ets_cap >= 1 && e->ets_cap <= 8 ? (int)e->ets_cap : 8;
	int tc, q;

	for (tc = 0; tc < ntc; tc++) {
		if (!tc_has_bw(e, tc))
			continue;
		for (q = 0; q < 8; q++)
			if (q != prio && (e->prio_tc[q] & 7) == tc)
				break;
		if (q == 8)
			return tc;
	}
	return -1;
}

int rctl_ets_wanted_tc(const struct rctl_ets *e, int prio, int cnp_prio)
{
	int tc = e->prio_tc[prio & 7] & 7;

	if (tc_has_bw(e, tc) && (cnp_prio == prio || (e->prio_tc[cnp_prio & 7] & 7) != tc))
		return RCTL_ETS_OK;
	tc = ets_pick_tc(e, prio);
	return tc < 0 ? RCTL_ETS_NO_TC : tc;
}

bool rctl_ets_prio_tc_fixed(enum rctl_family f, const struct rctl_netdev *nd)
{
	uint32_t i;

	if ((f != RCTL_FAM_ICE && f != RCTL_FAM_ICE_OOT) || !nd->app.st.ok ||
	    (nd->dcbx.st.ok && nd->dcbx.mode & RCTL_DCBX_LLD_MANAGED))
		return false;
	for (i = 0; i < nd->app.n_apps; i++)
		if (nd->app.apps[i].selector == RCTL_APP_SEL_DSCP)
			return true;
	return false;
}

void rctl_ets_ice_dscp_reset(const struct rctl_ets *e, struct rctl_ets *out)
{
	unsigned int max_tc = e->ets_cap >= 1 && e->ets_cap <= 8 ? e->ets_cap : 8, i;

	*out = *e;
	out->willing = false;
	for (i = 0; i < max_tc; i++) {
		out->tc_tx_bw[i] = i ? 0 : 100;
		out->tc_tsa[i] = RCTL_TSA_ETS;
		out->prio_tc[i] = (uint8_t)i;
	}
}

bool rctl_ets_share_for(const struct rctl_ets *e, int tc, uint8_t bw[8])
{
	int i, donor = -1;

	memcpy(bw, e->tc_tx_bw, 8);
	for (i = 0; i < 8; i++)
		if (i != tc && e->tc_tsa[i] == RCTL_TSA_ETS && e->tc_tx_bw[i] > 1 &&
		    (donor < 0 || e->tc_tx_bw[i] > e->tc_tx_bw[donor]))
			donor = i;
	if (donor < 0 || tc < 0 || tc > 7)
		return false;
	bw[tc] = (uint8_t)(bw[tc] + bw[donor] / 2);
	bw[donor] = (uint8_t)(bw[donor] - bw[donor] / 2);
	return true;
}

bool rctl_ets_cnp_shares(const struct rctl_ets *e, int prio, int cnp_prio)
{
	return cnp_prio != prio && (e->prio_tc[cnp_prio & 7] & 7) == (e->prio_tc[prio & 7] & 7);
}
