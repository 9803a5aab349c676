// SPDX-License-Identifier: GPL-2.0-or-later
/* The one rule table, and judging a host by it (rules.h). */
#include <errno.h>
#include <string.h>

#include "rocectl/err.h"
#include "rocectl/rules.h"

/*
 * id, area, scope (what fn judges: rules.h), its section of docs/roce-facts.md,
 * fn, meaning; then what else it declares (.parts, .says, .unreadable).
 */
#define R(i, a, s, m, f, txt, ...) { .id = i, .area = RCTL_AREA_##a, .scope = RCTL_SCOPE_##s, \
				     .ref = m, .fn = f, .meaning = txt, __VA_ARGS__ }
#define RD(i, a, s, m, f, txt) R(i, a, s, m, f, txt, .needs_deltas = true)
/* Needs part P (RCTL_NEED_P) and reports it unreadable, or only needs it. */
#define SAYS(p) .parts = RCTL_NEED_##p, .says = RCTL_NEED_##p
#define NEEDS(p) .parts = RCTL_NEED_##p

/*
 * Root causes (rules.h): the findings each explains are grouped under its
 * root's. All here are documented driver limits.
 */
static const struct rctl_cause irdma_no_dcqcn = {
	.root = "dcqcn.params",
	.applies = rctl_dcqcn_hardwired_off,
	.limit = "upstream irdma turns DCQCN off in every RoCE QP and has no switch for it "
		 "(drivers/infiniband/hw/irdma/verbs.c irdma_roce_fill_and_set_qpctx_info)",
};

static const struct rctl_cause no_loss_counter = {
	.root = "counters.loss_budget",
	.applies = rctl_loss_unmeasurable,
	.limit = "the driver counts no RoCE sequence error, out-of-sequence packet, duplicate "
		 "request or retransmission (irdma: irdma_hw_stat_descs, irdma/verbs.c)",
};

static const struct rctl_cause no_prio_packets = {
	.root = "traffic.lossless_share",
	.applies = rctl_prio_share_unmeasurable,
	.limit = "the driver counts PFC frames per priority but no packets per priority or "
		 "traffic class, so which priority RoCE used cannot be measured (ice: "
		 "ice_gstrings_pf_stats, drivers/net/ethernet/intel/ice/ice_ethtool.c)",
};

/* The one table; the man page rocectl-check(8) lists the same ids. */
const struct rctl_rule rctl_rules[] = {
	R("pfc.prio_disabled", PFC, QOS, "pfc", rule_pfc_prio_disabled,
	  "PFC is off on the RoCE priority (lossless profile)", SAYS(PFC),
	  .unreadable = rule_pfc_prio_unreadable),
	R("pfc.extra_prio", PFC, QOS, "pfc", rule_pfc_extra_prio,
	  "PFC is on for other priorities than the RoCE one (any, in the lossy profile)", NEEDS(PFC)),
	R("pfc.cnp_prio", PFC, QOS, "pfc", rule_pfc_cnp_prio,
	  "PFC is on for the CNP priority", NEEDS(PFC)),
	R("pfc.without_ecn", PFC, QOS, "ecn", rule_pfc_without_ecn,
	  "PFC is on for the RoCE priority but ECN/DCQCN is off: pause storms, head-of-line blocking", NEEDS(PFC),
	  .cause = &irdma_no_dcqcn),
	R("pfc.global_pause", PFC, QOS, "pfc", rule_pfc_global_pause,
	  "global 802.3x pause is on together with, or instead of, PFC", SAYS(PAUSE)),
	R("pfc.buffer", PFC, QOS, "pfc", rule_pfc_buffer,
	  "the RoCE priority maps to a receive buffer of size 0", SAYS(BUFFER),
	  .unreadable = rule_pfc_buffer_unreadable),
	R("pfc.ets", PFC, QOS, "pfc", rule_pfc_ets,
	  "the traffic class of the RoCE priority has no bandwidth guarantee, a rate limit, or the CNP priority too", SAYS(ETS)),
	R("pfc.dcbx_owner", PFC, QOS, "pfc", rule_pfc_dcbx_owner,
	  "who manages DCB: the host, or a firmware/LLDP agent (a pass: the other rules judge what it reports)",
	  SAYS(DCBX)),
	R("pfc.lldpad", PFC, HOST, "pfc", rule_pfc_lldpad,
	  "lldpad runs and may override the host's DCB settings"),
	R("ecn.np_disabled", ECN, PF, "ecn", rule_ecn_np_disabled,
	  "ECN notification point (CNP generation) is off on the RoCE priority", .cause = &irdma_no_dcqcn),
	R("ecn.rp_disabled", ECN, PF, "ecn", rule_ecn_rp_disabled,
	  "ECN reaction point (rate reduction) is off on the RoCE priority", .cause = &irdma_no_dcqcn),
	R("ecn.without_pfc", ECN, PF, "ecn", rule_ecn_without_pfc,
	  "ECN is on but PFC is off in the lossless profile: throughput collapses on the first drop", NEEDS(PFC)),
	R("ecn.sriov_vf", ECN, NETDEV, "sriov", rule_ecn_sriov_vf,
	  "the RoCE netdev is an SR-IOV VF: judged on its PF when the PF is in the model, else a pointer to it"),
	R("dcqcn.params", DCQCN, PF, "ecn", rule_dcqcn_params,
	  "DCQCN parameters and where they were read; unreadable (debugfs, root) is unknown",
	  SAYS(CC), .unreadable = rule_dcqcn_params_unreadable, .cause = &irdma_no_dcqcn),
	R("dscp.trust_pcp", DSCP, QOS, "dscp", rule_dscp_trust_pcp,
	  "the port trusts PCP while RoCE runs untagged, or on a VLAN whose egress-qos-map gives it another PCP", SAYS(APP)),
	R("dscp.missing", DSCP, QOS, "dscp", rule_dscp_missing,
	  "the RoCE DSCP is not mapped to the RoCE priority", NEEDS(APP)),
	R("dscp.ambiguous", DSCP, QOS, "dscp", rule_dscp_ambiguous,
	  "the RoCE DSCP is mapped to more than one priority", NEEDS(APP)),
	R("dscp.roce_marking", DSCP, PF, "dscp", rule_dscp_roce_marking,
	  "Broadcom's bnxt_re maps RoCE at another DSCP or priority than the intent (cc/roce_dscp, roce_prio)", NEEDS(CC)),
	R("cnp.data_prio", CNP, PF, "cnp", rule_cnp_data_prio,
	  "CNPs are sent on the RoCE data DSCP/priority or on a PFC priority", SAYS(CC),
	  .unreadable = rule_cnp_data_prio_unreadable),
	R("cnp.mismatch", CNP, PF, "cnp", rule_cnp_mismatch,
	  "CNP DSCP or 802.1p priority differs from the intent", NEEDS(CC)),
	R("mtu.active", MTU, PORT, "mtu", rule_mtu_active,
	  "active_mtu, or the MTU of a VLAN or bond carrying RoCE GIDs, is below the intended RoCE MTU (+ 96)"),
	RD("mtu.oversize", MTU, QOS, "mtu", rule_mtu_oversize,
	   "frames larger than the local MTU arrived during the interval (peer MTU larger)"),
	R("gid.no_v2", GID, NETDEV, "gid", rule_gid_no_v2,
	  "an IPv4 or routable IPv6 address of the RoCE netdev (or a VLAN or bond above it) has no RoCE v2 GID"),
	R("gid.index", GID, NETDEV, "gid", rule_gid_index,
	  "index of the RoCE v2 GID of each IPv4 or routable IPv6 address (compare hosts with rocectl compare)"),
	R("mode.roce_v1", MODE, PORT, "rdma-cm", rule_mode_roce_version,
	  "rdma_cm default RoCE mode is not the intended one (v1 instead of v2)", SAYS(CM),
	  .unreadable = rule_mode_cm_version_unreadable),
	R("mode.tos", MODE, PORT, "rdma-cm", rule_mode_tos,
	  "rdma_cm default ToS differs from the intent (0: RDMA-CM traffic runs at DSCP 0, lossy)", NEEDS(CM),
	  .unreadable = rule_mode_cm_tos_unreadable),
	R("mode.roce_disabled", MODE, HOST, "rdma-cm", rule_mode_roce_disabled,
	  "no RDMA device, an RDMA port without netdev or not ACTIVE, or a RoCE NIC without RDMA device"),
	R("counters.unreadable", COUNTERS, PORT, "unknown", rule_counters_unreadable,
	  "counters could not be read"),
	RD("counters.pause_storm", COUNTERS, QOS, "pause-storm", rule_counters_pause_storm,
	   "PFC pause storm events rose during the interval"),
	RD("counters.rx_discards", COUNTERS, QOS, "counters", rule_counters_rx_discards,
	   "the NIC dropped received packets for lack of buffer during the interval"),
	RD("counters.no_wqe", COUNTERS, PORT, "counters", rule_counters_no_wqe,
	   "the receiver had no WQE posted (an application problem, not the fabric)"),
	R("counters.loss", COUNTERS, PORT, "counters", rule_counters_loss,
	  "sequence errors, out-of-sequence packets or retransmissions rose; where the loss is",
	  .needs_deltas = true, .cause = &no_loss_counter),
	R("counters.loss_budget", COUNTERS, PORT, "counters", rule_counters_loss_budget,
	  "RoCE loss rate (sequence errors + out-of-sequence + retransmissions) / packets over the budget",
	  .needs_deltas = true, .cause = &no_loss_counter),
	R("counters.optional_cc", COUNTERS, PORT, "counters", rule_counters_optional_cc,
	  "optional congestion counters (cc_*) are not enabled, so received CNPs are invisible"),
	R("firewall.roce_udp", FIREWALL, HOST, "firewall", rule_firewall_roce_udp,
	  "a netfilter rule drops UDP 4791: it blocks Soft-RoCE (rxe); hardware RoCE bypasses netfilter"),
	R("firewall.oob_tcp", FIREWALL, HOST, "firewall", rule_firewall_oob_tcp,
	  "a netfilter rule drops out-of-band TCP: 4420 (NVMe/TCP) or 18515 (perftest)"),
	R("peer.neighbor", PEER, QOS, "switch-port", rule_peer_neighbor,
	  "the LLDP neighbour of each RoCE netdev (switch, port); unknown with the reason when none was read"),
	R("peer.dcbx_absent", PEER, QOS, "switch-port", rule_peer_dcbx_absent,
	  "the switch port sends no DCBX TLVs (ETS, PFC, APP): PFC cannot be negotiated"),
	R("peer.pfc_prio", PEER, QOS, "switch-port", rule_peer_pfc_prio,
	  "the switch port has PFC off on the RoCE priority (lossless profile)"),
	R("peer.pfc_extra", PEER, QOS, "switch-port", rule_peer_pfc_extra,
	  "the switch port has PFC on a priority the host does not expect"),
	R("peer.app_dscp", PEER, QOS, "switch-port", rule_peer_app_dscp,
	  "the switch's APP table maps the RoCE DSCP or the CNP DSCP to another priority than the intent"),
	R("peer.ets", PEER, QOS, "switch-port", rule_peer_ets,
	  "the switch gives the traffic class of the RoCE priority no ETS bandwidth, or puts the CNP priority in it"),
	R("peer.willing", PEER, QOS, "switch-port", rule_peer_willing,
	  "DCBX willing bits: both ends willing, or a willing host and a switch advertising other than the intent"),
	R("peer.mfs", PEER, QOS, "switch-port", rule_peer_mfs,
	  "the switch port's maximum frame size is below the host's frames (MTU + 18, + 4 with a VLAN tag)"),
	R("traffic.lossless_share", TRAFFIC, QOS, "traffic", rule_traffic_lossless_share,
	  "RoCE packets moved but the lossless priority carried less than half of them (port per-priority counters)",
	  .needs_deltas = true, NEEDS(PFC), .cause = &no_prio_packets),
	R("traffic.consumer_class", TRAFFIC, NETDEV, "traffic", rule_traffic_consumer_class,
	  "an RDMA consumer (NCCL, UCX, Ceph, rdma_cm, a kernel ULP) sends at a traffic class that lands on a priority without PFC; unknown where the host cannot tell"),
	R("nvmf.state", NVMF, HOST, "nvmf-host", rule_nvmf_state,
	  "an NVMe-oF controller of the kernel is not live (reconnecting, resetting, deleting, dead)"),
	R("nvmf.paths", NVMF, HOST, "nvmf-host", rule_nvmf_paths,
	  "a subsystem with one path, all paths through one netdev or one switch (LLDP), or paths ANA says serve no I/O"),
	R("nvmf.timers", NVMF, HOST, "nvmf-host", rule_nvmf_timers,
	  "no keep-alive, I/O that waits forever without a path, or no fast_io_fail_tmo without native multipath"),
	R("nvmf.port_pfc", NVMF, HOST, "nvmf-host", rule_nvmf_port_pfc,
	  "an NVMe/RDMA controller runs on a port whose PFC is off for the RoCE priority (lossless profile)"),
	R("nvmf.tos", NVMF, HOST, "nvmf-host", rule_nvmf_tos,
	  "the ToS of an NVMe/RDMA controller's queues: the kernel does not show it (unknown, with the rdma_cm default)"),
	R("wire.capture", WIRE, HOST, "the-wire", rule_wire_capture,
	  "a capture was taken and saw RoCE v2; unknown when it cannot (a NIC whose RoCE bypasses the kernel)"),
	R("wire.data_dscp", WIRE, HOST, "the-wire", rule_wire_data_dscp,
	  "a flow's RoCE packets carry another DSCP than the intent's (rewritten on the path when its REQ had the right one)"),
	R("wire.data_ecn", WIRE, HOST, "the-wire", rule_wire_data_ecn,
	  "a flow's RoCE packets are Not-ECT while ECN is expected: DCQCN cannot act"),
	R("wire.cnp_dscp", WIRE, HOST, "the-wire", rule_wire_cnp_dscp,
	  "CNPs carry another DSCP than the intent's CNP DSCP"),
	R("wire.cm_tos", WIRE, HOST, "the-wire", rule_wire_cm_tos,
	  "an rdma_cm connection request's traffic class is not the intent's ToS"),
	R("wire.naks", WIRE, HOST, "the-wire", rule_wire_naks,
	  "NAKs: receiver not ready (warn), invalid request, remote access or operational error (fail)"),
	R("wire.loss", WIRE, HOST, "the-wire", rule_wire_loss,
	  "retransmissions seen (PSN going back, sequence-error NAKs) against the loss budget"),
};

const unsigned int rctl_n_rules = sizeof(rctl_rules) / sizeof(rctl_rules[0]);

void rctl_judge_host(const struct rctl_host *h, const struct rctl_intent *in,
		     unsigned int areas, const char *filter, struct rctl_report *r)
{
	rctl_judge_rules(h, in, areas, filter, rctl_rules, rctl_n_rules, r);
}

int rctl_rules_skip(const char *const *names, unsigned int n, unsigned int *areas,
		    struct rctl_rule *out, unsigned int *n_out, struct rctl_err *e)
{
	unsigned int i, s, k = 0;
	int a;

	for (s = 0; s < n; s++) {
		a = rctl_area_parse(names[s]);
		if (a >= 0) {
			*areas &= ~(1u << a);
			continue;
		}
		for (i = 0; i < rctl_n_rules && strcmp(rctl_rules[i].id, names[s]); i++)
			;
		if (i == rctl_n_rules)
			return rctl_err_plain(e, EINVAL, "cannot skip '%s': no such rule or area "
					    "(the rule ids are in rocectl-check(8) RULES)", names[s]);
	}
	for (i = 0; i < rctl_n_rules; i++) {
		for (s = 0; s < n && strcmp(rctl_rules[i].id, names[s]); s++)
			;
		if (s == n)
			out[k++] = rctl_rules[i];
	}
	*n_out = k;
	return 0;
}
