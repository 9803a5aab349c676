// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The counter catalogue as data (catalog.h). Sources: roce-host-facts.md §1.7
 * (mlx5 counters.rst), §2.4 (mlx5 hw_counters), §2.5 (mlx5 ethtool), §1.8 and
 * §2.10 (bnxt_re, irdma, ice), §8 (rxe_hw_counters.c). mlx5 Q counters are
 * read from firmware as 32-bit values, hence bits = 32 there.
 */
#include <ctype.h>
#include <stddef.h>
#include <string.h>

#include "rocectl/catalog.h"

#define HW(drv, n, g, b, w, m) { drv, RCTL_SRC_HW, n, RCTL_CG_##g, b, w, m }
#define ET(drv, n, g, b, m) { drv, RCTL_SRC_ETHTOOL, n, RCTL_CG_##g, b, 64, m }
#define PMA(n, g, b, m) { "*", RCTL_SRC_PMA, n, RCTL_CG_##g, b, 64, m }
#define PAUSE(n, m) { "*", RCTL_SRC_PAUSE, n, RCTL_CG_PFC, false, 64, m }

static const struct rctl_centry catalog[] = {
	/* 802.3x pause of any driver with get_pause_stats (ethtool netlink) */
	PAUSE("tx_pause_frames", "802.3x pause frames sent: this NIC's receive buffer filled"),
	PAUSE("rx_pause_frames", "802.3x pause frames received: the peer asked this NIC to wait"),

	/* rxe (Soft-RoCE): drivers/infiniband/sw/rxe/rxe_hw_counters.c */
	HW("rxe", "sent_pkts", TRAFFIC, false, 64, "RoCE packets sent"),
	HW("rxe", "rcvd_pkts", TRAFFIC, false, 64, "RoCE packets received"),
	HW("rxe", "sent_bytes", TRAFFIC, false, 64, "RoCE bytes sent"),
	HW("rxe", "rcvd_bytes", TRAFFIC, false, 64, "RoCE bytes received"),
	HW("rxe", "duplicate_request", LOSS, true, 64,
	   "duplicate requests received: the peer retransmitted"),
	HW("rxe", "out_of_seq_request", LOSS, true, 64,
	   "requests received with a PSN out of sequence: packets lost on the way in"),
	HW("rxe", "rcvd_rnr_err", APPLICATION, true, 64,
	   "RNR NAKs received: the peer had no receive WQE posted"),
	HW("rxe", "send_rnr_err", APPLICATION, true, 64,
	   "RNR NAKs sent: no receive WQE was posted here"),
	HW("rxe", "rcvd_seq_err", LOSS, true, 64,
	   "sequence-error NAKs received: the peer saw a PSN gap"),
	HW("rxe", "ack_deferred", TRAFFIC, false, 64, "ACKs deferred (coalesced)"),
	HW("rxe", "retry_exceeded_err", LOSS, true, 64,
	   "transport retry count exceeded: a QP went to error"),
	HW("rxe", "retry_rnr_exceeded_err", APPLICATION, true, 64,
	   "RNR retry count exceeded: a QP went to error"),
	HW("rxe", "completer_retry_err", LOSS, true, 64,
	   "requests retransmitted after an ACK timeout or NAK"),
	HW("rxe", "send_err", LOSS, true, 64, "packets the IP stack failed to send"),
	HW("rxe", "link_downed", LINK, true, 64, "times the port went down"),
	HW("rxe", "rdma_sends", TRAFFIC, false, 64, "RDMA request packets sent"),
	HW("rxe", "rdma_recvs", TRAFFIC, false, 64, "RDMA request packets received"),

	/* mlx5 hw_counters: drivers/infiniband/hw/mlx5/counters.c */
	HW("mlx5", "rx_write_requests", TRAFFIC, false, 32, "RDMA WRITE requests received"),
	HW("mlx5", "rx_read_requests", TRAFFIC, false, 32, "RDMA READ requests received"),
	HW("mlx5", "rx_atomic_requests", TRAFFIC, false, 32, "atomic requests received"),
	HW("mlx5", "rx_dct_connect", TRAFFIC, false, 32, "DCT connect requests received"),
	HW("mlx5", "out_of_buffer", APPLICATION, true, 32,
	   "packets dropped for lack of a receive WQE: the application, not the fabric"),
	HW("mlx5", "out_of_sequence", LOSS, true, 32,
	   "packets received with a PSN out of sequence: fabric loss"),
	HW("mlx5", "duplicate_request", LOSS, true, 32,
	   "duplicate requests received: the peer retransmitted"),
	HW("mlx5", "rnr_nak_retry_err", APPLICATION, true, 32,
	   "RNR NAKs received: the peer had no receive WQE posted"),
	HW("mlx5", "packet_seq_err", LOSS, true, 32,
	   "sequence-error NAKs received: the peer saw a PSN gap"),
	HW("mlx5", "implied_nak_seq_err", LOSS, true, 32,
	   "responses implying lost packets (implied NAK)"),
	HW("mlx5", "local_ack_timeout_err", LOSS, true, 32,
	   "ACK timeouts: requests retransmitted after no response"),
	HW("mlx5", "resp_local_length_error", APPLICATION, true, 32,
	   "responder length errors: message longer than the receive buffer"),
	HW("mlx5", "resp_cqe_error", APPLICATION, true, 32, "responder completions with error"),
	HW("mlx5", "req_cqe_error", APPLICATION, true, 32, "requester completions with error"),
	HW("mlx5", "req_remote_invalid_request", APPLICATION, true, 32,
	   "remote invalid request NAKs received"),
	HW("mlx5", "req_remote_access_errors", APPLICATION, true, 32,
	   "remote access error NAKs received (bad rkey or rights)"),
	HW("mlx5", "resp_remote_access_errors", APPLICATION, true, 32,
	   "remote access errors detected as responder"),
	HW("mlx5", "resp_cqe_flush_error", APPLICATION, true, 32,
	   "responder completions flushed: a QP went to error"),
	HW("mlx5", "req_cqe_flush_error", APPLICATION, true, 32,
	   "requester completions flushed: a QP went to error"),
	HW("mlx5", "req_transport_retries_exceeded", LOSS, true, 32,
	   "transport retry count exceeded: a QP went to error"),
	HW("mlx5", "req_rnr_retries_exceeded", APPLICATION, true, 32,
	   "RNR retry count exceeded: a QP went to error"),
	HW("mlx5", "roce_adp_retrans", LOSS, true, 32, "adaptive retransmissions"),
	HW("mlx5", "roce_adp_retrans_to", LOSS, true, 32, "adaptive retransmission timeouts"),
	HW("mlx5", "roce_slow_restart", LOSS, true, 32, "slow restarts after loss"),
	HW("mlx5", "roce_slow_restart_cnps", CONGESTION, true, 32, "CNPs sent on slow restart"),
	HW("mlx5", "roce_slow_restart_trans", LOSS, true, 32, "transitions into slow restart"),
	HW("mlx5", "rp_cnp_ignored", CONGESTION, true, 64, "CNPs received but ignored by the RP"),
	HW("mlx5", "rp_cnp_handled", CONGESTION, false, 64,
	   "CNPs handled by the RP: ECN works on the sender side"),
	HW("mlx5", "np_ecn_marked_roce_packets", CONGESTION, false, 64,
	   "CE-marked RoCE packets received: the fabric is congested"),
	HW("mlx5", "np_cnp_sent", CONGESTION, false, 64, "CNPs sent by the NP for CE marks"),
	HW("mlx5", "rx_icrc_encapsulated", LINK, true, 64, "RoCE packets with a bad ICRC"),
	HW("mlx5", "cc_rx_ce_pkts", CONGESTION, false, 64, "CE-marked packets received (optional)"),
	HW("mlx5", "cc_rx_cnp_pkts", CONGESTION, false, 64, "CNPs received (optional)"),
	HW("mlx5", "cc_tx_cnp_pkts", CONGESTION, false, 64, "CNPs sent (optional)"),
	HW("mlx5", "rdma_tx_packets", TRAFFIC, false, 64, "RDMA packets sent (optional)"),
	HW("mlx5", "rdma_tx_bytes", TRAFFIC, false, 64, "RDMA bytes sent (optional)"),
	HW("mlx5", "rdma_rx_packets", TRAFFIC, false, 64, "RDMA packets received (optional)"),
	HW("mlx5", "rdma_rx_bytes", TRAFFIC, false, 64, "RDMA bytes received (optional)"),

	/* bnxt_re: upstream names, then the 2025 mlx5-style renames */
	HW("bnxt_re", "active_qps", APPLICATION, false, 64, "QPs in use"),
	HW("bnxt_re", "rx_pkts", TRAFFIC, false, 64, "RoCE packets received"),
	HW("bnxt_re", "rx_bytes", TRAFFIC, false, 64, "RoCE bytes received"),
	HW("bnxt_re", "tx_pkts", TRAFFIC, false, 64, "RoCE packets sent"),
	HW("bnxt_re", "tx_bytes", TRAFFIC, false, 64, "RoCE bytes sent"),
	HW("bnxt_re", "rx_roce_good_pkts", TRAFFIC, false, 64, "good RoCE packets received"),
	HW("bnxt_re", "rx_roce_good_bytes", TRAFFIC, false, 64, "good RoCE bytes received"),
	HW("bnxt_re", "rx_roce_errors", LINK, true, 64, "RoCE packets received with errors"),
	HW("bnxt_re", "rx_roce_discards", BUFFER, true, 64, "RoCE packets discarded on receive"),
	HW("bnxt_re", "to_retransmits", LOSS, true, 64,
	   "ACK timeouts: requests retransmitted after no response"),
	HW("bnxt_re", "seq_err_naks_rcvd", LOSS, true, 64,
	   "sequence-error NAKs received: the peer saw a PSN gap"),
	HW("bnxt_re", "max_retry_exceeded", LOSS, true, 64,
	   "transport retry count exceeded: a QP went to error"),
	HW("bnxt_re", "rnr_naks_rcvd", APPLICATION, true, 64,
	   "RNR NAKs received: the peer had no receive WQE posted"),
	HW("bnxt_re", "missing_resp", LOSS, true, 64, "responses missing (implied NAK)"),
	HW("bnxt_re", "dup_req", LOSS, true, 64, "duplicate requests received"),
	HW("bnxt_re", "oos_drop_count", LOSS, true, 64, "packets dropped out of sequence"),
	HW("bnxt_re", "unrecoverable_err", APPLICATION, true, 64, "unrecoverable QP errors"),
	HW("bnxt_re", "bad_resp_err", APPLICATION, true, 64, "bad responses received"),
	HW("bnxt_re", "local_qp_op_err", APPLICATION, true, 64, "local QP operation errors"),
	HW("bnxt_re", "rx_out_of_buffer", APPLICATION, true, 64,
	   "packets dropped for lack of a receive WQE"),
	HW("bnxt_re", "tx_cnp_pkts", CONGESTION, false, 64, "CNPs sent (NP)"),
	HW("bnxt_re", "rx_cnp_pkts", CONGESTION, false, 64, "CNPs received (RP)"),
	HW("bnxt_re", "rx_ecn_marked_pkts", CONGESTION, false, 64, "CE-marked packets received"),
	HW("bnxt_re", "local_ack_timeout_err", LOSS, true, 64,
	   "ACK timeouts (to_retransmits before the 2025 rename)"),
	HW("bnxt_re", "packet_seq_err", LOSS, true, 64,
	   "sequence-error NAKs received (seq_err_naks_rcvd before the rename)"),
	HW("bnxt_re", "rnr_nak_retry_err", APPLICATION, true, 64,
	   "RNR NAKs received (rnr_naks_rcvd before the rename)"),
	HW("bnxt_re", "implied_nak_seq_err", LOSS, true, 64,
	   "responses missing (missing_resp before the rename)"),
	HW("bnxt_re", "duplicate_request", LOSS, true, 64,
	   "duplicate requests received (dup_req before the rename)"),
	HW("bnxt_re", "out_of_sequence", LOSS, true, 64,
	   "out-of-sequence drops (oos_drop_count before the rename)"),
	/* Thor2 drivers disagree on what this file holds (facts §1.8): loss either way. */
	HW("bnxt_re", "out_of_buffer", LOSS, true, 64,
	   "receive drops: no receive WQE, or out-of-sequence drops on some Thor2 drivers"),
	HW("bnxt_re", "np_cnp_pkts", CONGESTION, false, 64, "CNPs sent (NP)"),
	HW("bnxt_re", "rp_cnp_handled", CONGESTION, false, 64, "CNPs received and handled (RP)"),
	HW("bnxt_re", "np_ecn_marked_roce_packets", CONGESTION, false, 64,
	   "CE-marked RoCE packets received"),
	HW("bnxt_re", "req_cqe_error", APPLICATION, true, 64, "requester completions with error"),
	HW("bnxt_re", "resp_cqe_error", APPLICATION, true, 64, "responder completions with error"),
	HW("bnxt_re", "resp_remote_access_errors", APPLICATION, true, 64,
	   "remote access errors detected as responder"),

	/* irdma: drivers/infiniband/hw/irdma/verbs.c (CamelCase) */
	HW("irdma", "ip#InPkts", TRAFFIC, false, 64, "IP packets received"),
	HW("irdma", "ip#OutPkts", TRAFFIC, false, 64, "IP packets sent"),
	HW("irdma", "ip#InOctets", TRAFFIC, false, 64, "IP bytes received"),
	HW("irdma", "ip#OutOctets", TRAFFIC, false, 64, "IP bytes sent"),
	HW("irdma", "ip#InDiscards", BUFFER, true, 64, "IP packets discarded on receive"),
	HW("irdma", "ip#InTruncatedPkts", LINK, true, 64, "truncated IP packets received"),
	HW("irdma", "ip#OutNoRoutes", LOSS, true, 64, "IP packets without a route"),
	HW("irdma", "RxUDP", TRAFFIC, false, 64, "UDP (RoCE v2) packets received"),
	HW("irdma", "TxUDP", TRAFFIC, false, 64, "UDP (RoCE v2) packets sent"),
	HW("irdma", "RxVlanErrors", LINK, true, 64, "packets received with VLAN errors"),
	HW("irdma", "RxECNMrkd", CONGESTION, false, 64, "CE-marked packets received"),
	HW("irdma", "cnpHandled", CONGESTION, false, 64, "CNPs handled (RP)"),
	HW("irdma", "cnpIgnored", CONGESTION, true, 64, "CNPs ignored (RP)"),
	HW("irdma", "cnpSent", CONGESTION, false, 64, "CNPs sent (NP)"),
	HW("irdma", "tcpRetransSegs", LOSS, true, 64, "iWARP TCP segments retransmitted"),
	HW("irdma", "tcpInSegs", TRAFFIC, false, 64, "iWARP TCP segments received"),
	HW("irdma", "tcpOutSegs", TRAFFIC, false, 64, "iWARP TCP segments sent"),

	/* IB PMA counters/ (drivers/infiniband/core/sysfs.c), any driver */
	PMA("symbol_error", LINK, true, "symbol errors on the link"),
	PMA("link_error_recovery", LINK, true, "link error recoveries"),
	PMA("link_downed", LINK, true, "times the link went down"),
	PMA("port_rcv_errors", LINK, true, "packets received with errors"),
	PMA("port_rcv_remote_physical_errors", LINK, true, "packets received marked bad upstream"),
	PMA("port_rcv_switch_relay_errors", LOSS, true, "packets that could not be relayed"),
	PMA("port_xmit_discards", BUFFER, true, "outbound packets discarded"),
	PMA("port_xmit_constraint_errors", LOSS, true, "outbound packets dropped by constraints"),
	PMA("port_rcv_constraint_errors", LOSS, true, "inbound packets dropped by constraints"),
	PMA("local_link_integrity_errors", LINK, true, "local link integrity errors"),
	PMA("excessive_buffer_overrun_errors", BUFFER, true, "receive buffer overruns"),
	PMA("VL15_dropped", BUFFER, true, "VL15 packets dropped"),
	PMA("port_xmit_wait", CONGESTION, false, "ticks with data to send but no credit"),
	PMA("port_xmit_data", TRAFFIC, false, "data sent, in 4-byte words"),
	PMA("port_rcv_data", TRAFFIC, false, "data received, in 4-byte words"),
	PMA("port_xmit_packets", TRAFFIC, false, "packets sent"),
	PMA("port_rcv_packets", TRAFFIC, false, "packets received"),
	PMA("unicast_xmit_packets", TRAFFIC, false, "unicast packets sent"),
	PMA("unicast_rcv_packets", TRAFFIC, false, "unicast packets received"),
	PMA("multicast_xmit_packets", TRAFFIC, false, "multicast packets sent"),
	PMA("multicast_rcv_packets", TRAFFIC, false, "multicast packets received"),

	/* mlx5 ethtool -S: Documentation/.../mlx5/counters.rst */
	ET("mlx5_core", "rx_pause_ctrl_phy", PFC, false, "pause frames received: the network is congested"),
	ET("mlx5_core", "tx_pause_ctrl_phy", PFC, false, "pause frames sent: this NIC is congested"),
	ET("mlx5_core", "rx_prio#_pause", PFC, false, "PFC pause frames received on the priority"),
	ET("mlx5_core", "tx_prio#_pause", PFC, false, "PFC pause frames sent on the priority: NIC congested"),
	ET("mlx5_core", "rx_prio#_pause_duration", PFC, false, "time paused by the peer on the priority"),
	ET("mlx5_core", "tx_prio#_pause_duration", PFC, false, "time this NIC paused the peer"),
	ET("mlx5_core", "rx_prio#_pause_transition", PFC, false, "XOFF to XON transitions received"),
	ET("mlx5_core", "tx_pause_storm_warning_events", PFC, true, "pause storm warnings"),
	ET("mlx5_core", "tx_pause_storm_error_events", PFC, true,
	   "pause storm errors: device stalled, pause disabled, drops possible"),
	ET("mlx5_core", "rx_prio#_bytes", TRAFFIC, false, "bytes received on the priority"),
	ET("mlx5_core", "rx_prio#_packets", TRAFFIC, false, "packets received on the priority"),
	ET("mlx5_core", "tx_prio#_bytes", TRAFFIC, false, "bytes sent on the priority"),
	ET("mlx5_core", "tx_prio#_packets", TRAFFIC, false, "packets sent on the priority"),
	ET("mlx5_core", "rx_prio#_discards", BUFFER, true, "packets discarded on the priority"),
	ET("mlx5_core", "rx_prio#_buf_discard", BUFFER, true, "discards for lack of buffer on the priority"),
	ET("mlx5_core", "rx_prio#_cong_discard", BUFFER, true, "WRED discards on the priority"),
	ET("mlx5_core", "rx_prio#_marked", CONGESTION, false, "packets ECN-marked by the NIC"),
	ET("mlx5_core", "rx_discards_phy", BUFFER, true, "receive discards: the adapter had no buffer"),
	ET("mlx5_core", "tx_discards_phy", BUFFER, true, "transmit discards"),
	ET("mlx5_core", "tx_errors_phy", LINK, true, "transmit errors"),
	ET("mlx5_core", "rx_buffer_passed_thres_phy", BUFFER, true, "receive buffer above 85% full"),
	ET("mlx5_core", "rx_out_of_buffer", APPLICATION, true, "drops for lack of a receive WQE"),
	ET("mlx5_core", "rx_oversize_pkts_phy", LINK, true, "frames larger than the MTU: peer MTU larger"),
	ET("mlx5_core", "rx_out_of_range_len_phy", LINK, true, "frames with an out-of-range length"),
	ET("mlx5_core", "rx_crc_errors_phy", LINK, true, "frames with a bad CRC: cable or optics"),
	ET("mlx5_core", "rx_symbol_err_phy", LINK, true, "symbol errors: cable or optics"),
	ET("mlx5_core", "rx_pcs_symbol_err_phy", LINK, true, "PCS symbol errors"),
	ET("mlx5_core", "rx_corrected_bits_phy", LINK, false, "bits corrected by FEC"),
	ET("mlx5_core", "rx_err_lane_#_phy", LINK, true, "errors on the lane"),
	ET("mlx5_core", "link_down_events_phy", LINK, true, "times the link went down"),
	ET("mlx5_core", "rx_packets_phy", TRAFFIC, false, "packets received by the port"),
	ET("mlx5_core", "tx_packets_phy", TRAFFIC, false, "packets sent by the port"),
	ET("mlx5_core", "rx_bytes_phy", TRAFFIC, false, "bytes received by the port"),
	ET("mlx5_core", "tx_bytes_phy", TRAFFIC, false, "bytes sent by the port"),
	ET("mlx5_core", "rx_pci_signal_integrity", PCIE, true, "PCIe receive signal integrity errors"),
	ET("mlx5_core", "tx_pci_signal_integrity", PCIE, true, "PCIe transmit signal integrity errors"),
	ET("mlx5_core", "outbound_pci_buffer_overflow", PCIE, true, "PCIe outbound buffer overflows"),
	ET("mlx5_core", "outbound_pci_stalled_rd", PCIE, false, "% of the last second reads stalled"),
	ET("mlx5_core", "outbound_pci_stalled_wr", PCIE, false, "% of the last second writes stalled"),
	ET("mlx5_core", "outbound_pci_stalled_rd_events", PCIE, true, "seconds with reads stalled > 30%"),
	ET("mlx5_core", "outbound_pci_stalled_wr_events", PCIE, true, "seconds with writes stalled > 30%"),
	ET("mlx5_core", "module_unplug", LINK, false, "module unplug events"),
	ET("mlx5_core", "module_bus_stuck", LINK, true, "module bus stuck: replace the module"),
	ET("mlx5_core", "module_high_temp", LINK, true, "module over temperature"),
	ET("mlx5_core", "module_bad_shorted", LINK, true, "module shorted: replace the module"),

	/* bnxt_en and ice PFC */
	ET("bnxt_en", "rx_pfc_ena_frames_pri#", PFC, false, "PFC frames received on the priority"),
	ET("bnxt_en", "tx_pfc_ena_frames_pri#", PFC, false, "PFC frames sent on the priority"),
	ET("bnxt_en", "pfc_pri#_rx_transitions", PFC, false, "PFC XOFF/XON transitions received"),
	ET("bnxt_en", "pfc_pri#_tx_transitions", PFC, false, "PFC XOFF/XON transitions sent"),
	ET("ice", "rx_priority_#_xon.nic", PFC, false, "PFC XON frames received on the priority"),
	ET("ice", "rx_priority_#_xoff.nic", PFC, false, "PFC XOFF frames received on the priority"),
	ET("ice", "tx_priority_#_xon.nic", PFC, false, "PFC XON frames sent on the priority"),
	ET("ice", "tx_priority_#_xoff.nic", PFC, false, "PFC XOFF frames sent on the priority"),

	/* veth (the lab): drivers/net/veth.c */
	ET("veth", "peer_ifindex", OTHER, false, "ifindex of the peer (not a counter)"),
	ET("veth", "rx_queue_#_xdp_packets", TRAFFIC, false, "packets received by queue (XDP path)"),
	ET("veth", "rx_queue_#_xdp_bytes", TRAFFIC, false, "bytes received by queue (XDP path)"),
	ET("veth", "rx_queue_#_drops", LOSS, true, "packets dropped on receive"),
	ET("veth", "rx_queue_#_xdp_drops", LOSS, true, "packets dropped by XDP"),
	ET("veth", "rx_queue_#_xdp_tx_errors", LOSS, true, "XDP_TX failures"),
	ET("veth", "tx_queue_#_xdp_xmit_errors", LOSS, true, "XDP transmit failures"),
	ET("veth", "rx_queue_#_xdp_redirect", TRAFFIC, false, "packets redirected by XDP"),
	ET("veth", "rx_queue_#_xdp_tx", TRAFFIC, false, "packets sent back by XDP_TX"),
	ET("veth", "tx_queue_#_xdp_xmit", TRAFFIC, false, "packets sent by XDP"),
};

const char *const rctl_cgroup_names[] = {
	[RCTL_CG_TRAFFIC] = "traffic", [RCTL_CG_APPLICATION] = "application",
	[RCTL_CG_LOSS] = "loss", [RCTL_CG_CONGESTION] = "congestion",
	[RCTL_CG_PFC] = "pfc", [RCTL_CG_BUFFER] = "buffer", [RCTL_CG_LINK] = "link",
	[RCTL_CG_PCIE] = "pcie", [RCTL_CG_OTHER] = "other", [RCTL_CG_N] = NULL,
};

const char *rctl_cgroup_name(enum rctl_cgroup g)
{
	return g < RCTL_CG_N ? rctl_cgroup_names[g] : "other";
}

int rctl_cgroup_parse(const char *name)
{
	int g;

	for (g = 0; g < RCTL_CG_N; g++)
		if (!strcmp(name, rctl_cgroup_names[g]))
			return g;
	return -1;
}

/* '#' in the pattern matches one or more digits; everything else is literal. */
static bool name_match(const char *pat, const char *s)
{
	for (; *pat; pat++) {
		if (*pat != '#') {
			if (*s++ != *pat)
				return false;
			continue;
		}
		if (!isdigit((unsigned char)*s))
			return false;
		while (isdigit((unsigned char)*s))
			s++;
	}
	return !*s;
}

const struct rctl_centry *rctl_catalog_lookup(const char *driver, enum rctl_csrc src,
					      const char *name)
{
	static const struct rctl_centry other = {
		.driver = "*", .group = RCTL_CG_OTHER, .bits = 64, .meaning = "",
	};
	size_t i;

	for (i = 0; i < sizeof(catalog) / sizeof(catalog[0]); i++) {
		const struct rctl_centry *c = &catalog[i];

		if (c->src != src || (strcmp(c->driver, "*") && strcmp(c->driver, driver)))
			continue;
		if (name_match(c->name, name))
			return c;
	}
	return &other;
}
