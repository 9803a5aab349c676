// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The counter catalogue as data (catalog.h): the one place that says what a
 * counter of a driver means and what it is evidence of (its role). Every
 * block names the driver file its names come from; docs/roce-facts.md
 * explains how the rules use the roles.
 */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "rocectl/catalog.h"
#include "rocectl/model.h"

/* One row each: the table stays one line per counter, the fields by name. */
#define ROW(drv, s, n, g, b, w, r, m)						\
	{ .driver = drv, .src = RCTL_SRC_##s, .name = n, .group = RCTL_CG_##g,	\
	  .bad = b, .bits = w, .meaning = m, .role = RCTL_ROLE_##r }
#define HW(drv, n, g, b, w, m) ROW(drv, HW, n, g, b, w, NONE, m)
#define HWR(drv, n, g, b, w, r, m) ROW(drv, HW, n, g, b, w, r, m)
#define ET(drv, n, g, b, m) ROW(drv, ETHTOOL, n, g, b, 64, NONE, m)
#define ETR(drv, n, g, b, r, m) ROW(drv, ETHTOOL, n, g, b, 64, r, m)
#define PMA(n, g, b, m) ROW("*", PMA, n, g, b, 64, NONE, m)
#define PMAR(n, g, b, r, m) ROW("*", PMA, n, g, b, 64, r, m)
#define PAUSE(n, m) ROW("*", PAUSE, n, PFC, false, 64, NONE, m)

static const struct rctl_centry catalog[] = {
	/* 802.3x pause of any driver with get_pause_stats (ethtool netlink) */
	PAUSE("tx_pause_frames", "802.3x pause frames sent: this NIC's receive buffer filled"),
	PAUSE("rx_pause_frames", "802.3x pause frames received: the peer asked this NIC to wait"),

	/* rxe (Soft-RoCE): drivers/infiniband/sw/rxe/rxe_hw_counters.c */
	HWR("rxe", "sent_pkts", TRAFFIC, false, 64, TX_PKTS, "RoCE packets sent"),
	HWR("rxe", "rcvd_pkts", TRAFFIC, false, 64, RX_PKTS, "RoCE packets received"),
	HW("rxe", "sent_bytes", TRAFFIC, false, 64, "RoCE bytes sent"),
	HW("rxe", "rcvd_bytes", TRAFFIC, false, 64, "RoCE bytes received"),
	HWR("rxe", "duplicate_request", LOSS, true, 64, LOSS,
	    "duplicate requests received: the peer retransmitted"),
	HWR("rxe", "out_of_seq_request", LOSS, true, 64, LOSS,
	    "requests received with a PSN out of sequence: packets lost on the way in"),
	HWR("rxe", "rcvd_rnr_err", APPLICATION, true, 64, NO_WQE,
	    "RNR NAKs received: the peer had no receive WQE posted"),
	HW("rxe", "send_rnr_err", APPLICATION, true, 64,
	   "RNR NAKs sent: no receive WQE was posted here"),
	HWR("rxe", "rcvd_seq_err", LOSS, true, 64, LOSS,
	    "sequence-error NAKs received: the peer saw a PSN gap"),
	HW("rxe", "ack_deferred", TRAFFIC, false, 64, "ACKs deferred (coalesced)"),
	HW("rxe", "retry_exceeded_err", LOSS, true, 64,
	   "transport retry count exceeded: a QP went to error"),
	HW("rxe", "retry_rnr_exceeded_err", APPLICATION, true, 64,
	   "RNR retry count exceeded: a QP went to error"),
	HWR("rxe", "completer_retry_err", LOSS, true, 64, LOSS,
	    "requests retransmitted after an ACK timeout or NAK"),
	HW("rxe", "send_err", LOSS, true, 64, "packets the IP stack failed to send"),
	HW("rxe", "link_downed", LINK, true, 64, "times the port went down"),
	HW("rxe", "rdma_sends", TRAFFIC, false, 64, "RDMA request packets sent"),
	HW("rxe", "rdma_recvs", TRAFFIC, false, 64, "RDMA request packets received"),

	/*
	 * mlx5 hw_counters: drivers/infiniband/hw/mlx5/counters.c (Linux 6.8):
	 * basic_q_cnts, out_of_seq_q_cnts, retrans_q_cnts, extended_err_cnts,
	 * roce_accl_cnts are Q counters the firmware keeps in 32 bits (hence
	 * bits 32: one wrap between two samples is corrected); cong_cnts and
	 * the optional counters are 64-bit. out_of_buffer counts drops for
	 * lack of a receive WQE: this host's application, not the fabric.
	 */
	HW("mlx5", "rx_write_requests", TRAFFIC, false, 32, "RDMA WRITE requests received"),
	HW("mlx5", "rx_read_requests", TRAFFIC, false, 32, "RDMA READ requests received"),
	HW("mlx5", "rx_atomic_requests", TRAFFIC, false, 32, "atomic requests received"),
	HW("mlx5", "rx_dct_connect", TRAFFIC, false, 32, "DCT connect requests received"),
	HWR("mlx5", "out_of_buffer", APPLICATION, true, 32, NO_WQE,
	    "packets dropped for lack of a receive WQE: the application, not the fabric"),
	HWR("mlx5", "out_of_sequence", LOSS, true, 32, LOSS,
	    "packets received with a PSN out of sequence: fabric loss"),
	HWR("mlx5", "duplicate_request", LOSS, true, 32, LOSS,
	    "duplicate requests received: the peer retransmitted"),
	HWR("mlx5", "rnr_nak_retry_err", APPLICATION, true, 32, NO_WQE,
	    "RNR NAKs received: the peer had no receive WQE posted"),
	HWR("mlx5", "packet_seq_err", LOSS, true, 32, LOSS,
	    "sequence-error NAKs received: the peer saw a PSN gap"),
	HWR("mlx5", "implied_nak_seq_err", LOSS, true, 32, LOSS,
	    "responses implying lost packets (implied NAK)"),
	HWR("mlx5", "local_ack_timeout_err", LOSS, true, 32, LOSS,
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
	HWR("mlx5", "roce_adp_retrans", LOSS, true, 32, LOSS, "adaptive retransmissions"),
	HW("mlx5", "roce_adp_retrans_to", LOSS, true, 32, "adaptive retransmission timeouts"),
	HWR("mlx5", "roce_slow_restart", LOSS, true, 32, LOSS, "slow restarts after loss"),
	HW("mlx5", "roce_slow_restart_cnps", CONGESTION, true, 32, "CNPs sent on slow restart"),
	HW("mlx5", "roce_slow_restart_trans", LOSS, true, 32, "transitions into slow restart"),
	HWR("mlx5", "rp_cnp_ignored", CONGESTION, true, 64, CNP_IGNORED,
	    "CNPs received but ignored by the RP"),
	HWR("mlx5", "rp_cnp_handled", CONGESTION, false, 64, CNP_HANDLED,
	    "CNPs handled by the RP: ECN works on the sender side"),
	HWR("mlx5", "np_ecn_marked_roce_packets", CONGESTION, false, 64, ECN_MARKED,
	    "CE-marked RoCE packets received: the fabric is congested"),
	HWR("mlx5", "np_cnp_sent", CONGESTION, false, 64, CNP_SENT,
	    "CNPs sent by the NP for CE marks"),
	HW("mlx5", "rx_icrc_encapsulated", LINK, true, 64, "RoCE packets with a bad ICRC"),
	HW("mlx5", "cc_rx_ce_pkts", CONGESTION, false, 64, "CE-marked packets received (optional)"),
	HWR("mlx5", "cc_rx_cnp_pkts", CONGESTION, false, 64, CNP_RCVD,
	    "CNPs received (optional)"),
	HW("mlx5", "cc_tx_cnp_pkts", CONGESTION, false, 64, "CNPs sent (optional)"),
	HWR("mlx5", "rdma_tx_packets", TRAFFIC, false, 64, TX_PKTS, "RDMA packets sent (optional)"),
	HW("mlx5", "rdma_tx_bytes", TRAFFIC, false, 64, "RDMA bytes sent (optional)"),
	HWR("mlx5", "rdma_rx_packets", TRAFFIC, false, 64, RX_PKTS,
	    "RDMA packets received (optional)"),
	HW("mlx5", "rdma_rx_bytes", TRAFFIC, false, 64, "RDMA bytes received (optional)"),

	/*
	 * bnxt_re, inbox: drivers/infiniband/hw/bnxt_re/hw_counters.c
	 * (bnxt_re_stat_descs, Linux 6.12-6.15). The error counters come from
	 * the firmware's roce stats, the CNP/ECN ones from the extended stats
	 * (Thor and later only). rx_pkts/tx_pkts are the RoCE function's
	 * unicast packets; on Thor bnxt_re_copy_normal_total_stats() makes
	 * them RoCE-only plus CNPs (cnp_rx/tx_pkts + roce_only rx/tx_pkts).
	 */
	HW("bnxt_re", "active_qps", APPLICATION, false, 64, "QPs in use"),
	HWR("bnxt_re", "rx_pkts", TRAFFIC, false, 64, RX_PKTS, "RoCE packets received"),
	HW("bnxt_re", "rx_bytes", TRAFFIC, false, 64, "RoCE bytes received"),
	HWR("bnxt_re", "tx_pkts", TRAFFIC, false, 64, TX_PKTS, "RoCE packets sent"),
	HW("bnxt_re", "tx_bytes", TRAFFIC, false, 64, "RoCE bytes sent"),
	HW("bnxt_re", "rx_roce_good_pkts", TRAFFIC, false, 64, "good RoCE packets received"),
	HW("bnxt_re", "rx_roce_good_bytes", TRAFFIC, false, 64, "good RoCE bytes received"),
	HW("bnxt_re", "rx_roce_only_pkts", TRAFFIC, false, 64, "RoCE-only packets received"),
	HW("bnxt_re", "tx_roce_only_pkts", TRAFFIC, false, 64, "RoCE-only packets sent"),
	HW("bnxt_re", "rx_roce_errors", LINK, true, 64, "RoCE packets received with errors"),
	HW("bnxt_re", "tx_roce_errors", LINK, true, 64, "RoCE packets that failed to send"),
	HWR("bnxt_re", "rx_roce_discards", BUFFER, true, 64, DISCARD,
	    "RoCE packets this NIC discarded on receive"),
	HW("bnxt_re", "tx_roce_discards", BUFFER, true, 64, "RoCE packets discarded on send"),
	HWR("bnxt_re", "to_retransmits", LOSS, true, 64, LOSS,
	    "ACK timeouts: requests retransmitted after no response"),
	HWR("bnxt_re", "seq_err_naks_rcvd", LOSS, true, 64, LOSS,
	    "sequence-error NAKs received: the peer saw a PSN gap"),
	HW("bnxt_re", "max_retry_exceeded", LOSS, true, 64,
	   "transport retry count exceeded: a QP went to error"),
	HWR("bnxt_re", "rnr_naks_rcvd", APPLICATION, true, 64, NO_WQE,
	    "RNR NAKs received: the peer had no receive WQE posted"),
	HWR("bnxt_re", "missing_resp", LOSS, true, 64, LOSS, "responses missing (implied NAK)"),
	HWR("bnxt_re", "dup_req", LOSS, true, 64, LOSS,
	    "duplicate requests received: the peer retransmitted"),
	HWR("bnxt_re", "oos_drop_count", LOSS, true, 64, LOSS,
	    "packets dropped for a PSN out of sequence: fabric loss"),
	HW("bnxt_re", "unrecoverable_err", APPLICATION, true, 64, "unrecoverable QP errors"),
	HW("bnxt_re", "bad_resp_err", APPLICATION, true, 64, "bad responses received"),
	HW("bnxt_re", "local_qp_op_err", APPLICATION, true, 64, "local QP operation errors"),
	HWR("bnxt_re", "rx_out_of_buffer", APPLICATION, true, 64, NO_WQE,
	    "packets dropped for lack of a receive WQE"),
	HWR("bnxt_re", "tx_cnp_pkts", CONGESTION, false, 64, CNP_SENT, "CNPs sent (NP)"),
	HWR("bnxt_re", "rx_cnp_pkts", CONGESTION, false, 64, CNP_RCVD, "CNPs received (RP)"),
	HWR("bnxt_re", "rx_ecn_marked_pkts", CONGESTION, false, 64, ECN_MARKED,
	    "CE-marked packets received"),

	/*
	 * bnxt_re, Broadcom's out-of-tree driver (bnxt_re/hw_counters.c of the
	 * NetXtreme-E package 233.x): mlx5-style names for the same firmware
	 * counters, plus CC counters upstream lacks. Its out_of_buffer is the
	 * no-WQE drop (e_errs.oob) and out_of_sequence the OOS drop.
	 */
	HWR("bnxt_re", "local_ack_timeout_err", LOSS, true, 64, LOSS,
	    "ACK timeouts (to_retransmits upstream)"),
	HWR("bnxt_re", "packet_seq_err", LOSS, true, 64, LOSS,
	    "sequence-error NAKs received (seq_err_naks_rcvd upstream)"),
	HWR("bnxt_re", "rnr_nak_retry_err", APPLICATION, true, 64, NO_WQE,
	    "RNR NAKs received (rnr_naks_rcvd upstream)"),
	HWR("bnxt_re", "implied_nak_seq_err", LOSS, true, 64, LOSS,
	    "responses missing (missing_resp upstream)"),
	HWR("bnxt_re", "duplicate_request", LOSS, true, 64, LOSS,
	    "duplicate requests received (dup_req upstream)"),
	HWR("bnxt_re", "out_of_sequence", LOSS, true, 64, LOSS,
	    "out-of-sequence drops (oos_drop_count upstream)"),
	HWR("bnxt_re", "out_of_buffer", APPLICATION, true, 64, NO_WQE,
	    "packets dropped for lack of a receive WQE (rx_out_of_buffer upstream)"),
	HWR("bnxt_re", "np_cnp_sent", CONGESTION, false, 64, CNP_SENT, "CNPs sent (NP)"),
	HWR("bnxt_re", "rp_cnp_handled", CONGESTION, false, 64, CNP_HANDLED,
	    "CNPs received and handled (RP)"),
	HWR("bnxt_re", "rp_cnp_ignored", CONGESTION, true, 64, CNP_IGNORED,
	    "CNPs received but ignored by the RP"),
	HWR("bnxt_re", "np_ecn_marked_roce_packets", CONGESTION, false, 64, ECN_MARKED,
	    "CE-marked RoCE packets received"),
	HWR("bnxt_re", "roce_adp_retrans", LOSS, true, 64, LOSS, "adaptive retransmissions"),
	HW("bnxt_re", "roce_adp_retrans_to", LOSS, true, 64, "adaptive retransmission timeouts"),
	HWR("bnxt_re", "roce_slow_restart", LOSS, true, 64, LOSS, "slow restarts after loss"),
	HW("bnxt_re", "roce_slow_restart_cnps", CONGESTION, true, 64, "CNPs sent on slow restart"),
	HW("bnxt_re", "roce_slow_restart_trans", LOSS, true, 64, "transitions into slow restart"),
	HW("bnxt_re", "rx_icrc_encapsulated", LINK, true, 64, "RoCE packets with a bad ICRC"),
	HW("bnxt_re", "req_cqe_error", APPLICATION, true, 64, "requester completions with error"),
	HW("bnxt_re", "resp_cqe_error", APPLICATION, true, 64, "responder completions with error"),
	HW("bnxt_re", "resp_remote_access_errors", APPLICATION, true, 64,
	   "remote access errors detected as responder"),

	/*
	 * irdma: drivers/infiniband/hw/irdma/verbs.c (irdma_hw_stat_names,
	 * Linux 5.14 to 6.15). rxVlanErrors and the cnp* counters are 32 bits wide in
	 * the hardware, but irdma_update_stats() (ctrl.c) adds each delta,
	 * roll-over included, to a 64-bit total: userspace sees 64 bits and a
	 * 32-bit wrap correction would be wrong here.
	 */
	HW("irdma", "ip#InPkts", TRAFFIC, false, 64, "IP packets received"),
	HW("irdma", "ip#OutPkts", TRAFFIC, false, 64, "IP packets sent"),
	HW("irdma", "ip#InOctets", TRAFFIC, false, 64, "IP bytes received"),
	HW("irdma", "ip#OutOctets", TRAFFIC, false, 64, "IP bytes sent"),
	HWR("irdma", "ip#InDiscards", BUFFER, true, 64, DISCARD, "IP packets discarded on receive"),
	HW("irdma", "ip#InTruncatedPkts", LINK, true, 64, "truncated IP packets received"),
	HW("irdma", "ip#OutNoRoutes", LOSS, true, 64, "IP packets without a route"),
	HWR("irdma", "RxUDP", TRAFFIC, false, 64, RX_PKTS, "UDP (RoCE v2) packets received"),
	HWR("irdma", "TxUDP", TRAFFIC, false, 64, TX_PKTS, "UDP (RoCE v2) packets sent"),
	HW("irdma", "rxVlanErrors", LINK, true, 64, "packets received with VLAN errors"),
	HWR("irdma", "RxECNMrkd", CONGESTION, false, 64, ECN_MARKED, "CE-marked packets received"),
	HWR("irdma", "cnpHandled", CONGESTION, false, 64, CNP_HANDLED, "CNPs handled (RP)"),
	HWR("irdma", "cnpIgnored", CONGESTION, true, 64, CNP_IGNORED, "CNPs ignored (RP)"),
	HWR("irdma", "cnpSent", CONGESTION, false, 64, CNP_SENT, "CNPs sent (NP)"),
	/*
	 * iWARP's TCP: no RoCE packet is counted here. irdma_hw_stat_descs has
	 * no RoCE sequence-error, out-of-sequence, duplicate-request or
	 * retransmission counter, so no irdma row has the loss role and the
	 * RoCE loss rate of irdma is unknown (rules_counters.c).
	 */
	HW("irdma", "tcpRetransSegs", LOSS, true, 64, "iWARP TCP segments retransmitted"),
	HW("irdma", "RetransSegs", LOSS, true, 64,
	   "iWARP TCP segments retransmitted (tcpRetransSegs before the gen3 rework)"),
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
	PMAR("port_xmit_packets", TRAFFIC, false, TX_PKTS, "packets sent"),
	PMAR("port_rcv_packets", TRAFFIC, false, RX_PKTS, "packets received"),
	PMA("unicast_xmit_packets", TRAFFIC, false, "unicast packets sent"),
	PMA("unicast_rcv_packets", TRAFFIC, false, "unicast packets received"),
	PMA("multicast_xmit_packets", TRAFFIC, false, "multicast packets sent"),
	PMA("multicast_rcv_packets", TRAFFIC, false, "multicast packets received"),

	/*
	 * mlx5_core ethtool -S: drivers/net/ethernet/mellanox/mlx5/core/en_stats.c
	 * (pport_per_prio_pfc_stats_desc, pport_pfc_stall_stats_desc) and
	 * Documentation/networking/device_drivers/ethernet/mellanox/mlx5/counters.rst.
	 * The per-priority pause counters exist only for PFC priorities; the
	 * storm counters only where the firmware has stall_detect and pfcc_mask
	 * (not on every ConnectX-5); pause durations are in microseconds.
	 */
	ET("mlx5_core", "rx_pause_ctrl_phy", PFC, false, "pause frames received: the network is congested"),
	ET("mlx5_core", "tx_pause_ctrl_phy", PFC, false, "pause frames sent: this NIC is congested"),
	ETR("mlx5_core", "rx_prio#_pause", PFC, false, PFC_RX, "PFC pause frames received on the priority"),
	ETR("mlx5_core", "tx_prio#_pause", PFC, false, PFC_TX,
	    "PFC pause frames sent on the priority: NIC congested"),
	ETR("mlx5_core", "rx_prio#_pause_duration", PFC, false, PAUSE_US_RX,
	    "microseconds paused by the peer on the priority"),
	ETR("mlx5_core", "tx_prio#_pause_duration", PFC, false, PAUSE_US_TX,
	    "microseconds this NIC paused the peer on the priority"),
	ET("mlx5_core", "rx_prio#_pause_transition", PFC, false, "XOFF to XON transitions received"),
	/* the same group as "global" while 802.3x pause is on */
	ET("mlx5_core", "rx_global_pause", PFC, false, "802.3x pause frames received"),
	ET("mlx5_core", "tx_global_pause", PFC, false, "802.3x pause frames sent: this NIC is congested"),
	ET("mlx5_core", "rx_global_pause_duration", PFC, false, "microseconds paused by the peer"),
	ET("mlx5_core", "tx_global_pause_duration", PFC, false, "microseconds this NIC paused the peer"),
	ET("mlx5_core", "rx_global_pause_transition", PFC, false, "XOFF to XON transitions received"),
	ETR("mlx5_core", "tx_pause_storm_warning_events", PFC, true, STORM_WARN, "pause storm warnings"),
	ETR("mlx5_core", "tx_pause_storm_error_events", PFC, true, STORM_ERR,
	    "pause storm errors: device stalled, pause disabled, drops possible"),
	/*
	 * pport_per_prio_traffic_stats_desc: port counters of every frame on
	 * the priority (RoCE, TCP, other functions'), always present; the
	 * vport_stats_desc rx/tx_vport_rdma_unicast_packets below count the
	 * RDMA packets of this function's vport.
	 */
	ET("mlx5_core", "rx_prio#_bytes", TRAFFIC, false, "bytes received on the priority"),
	ETR("mlx5_core", "rx_prio#_packets", TRAFFIC, false, PRIO_RX_PKTS,
	    "packets received on the priority"),
	ET("mlx5_core", "tx_prio#_bytes", TRAFFIC, false, "bytes sent on the priority"),
	ETR("mlx5_core", "tx_prio#_packets", TRAFFIC, false, PRIO_TX_PKTS,
	    "packets sent on the priority"),
	ET("mlx5_core", "rx_prio#_discards", BUFFER, true, "packets discarded on the priority"),
	ETR("mlx5_core", "rx_prio#_buf_discard", BUFFER, true, DISCARD,
	    "discards for lack of per-host buffer on the priority"),
	ET("mlx5_core", "rx_prio#_cong_discard", BUFFER, true, "WRED discards on the priority"),
	ET("mlx5_core", "rx_prio#_marked", CONGESTION, false, "packets ECN-marked by the NIC"),
	ETR("mlx5_core", "rx_discards_phy", BUFFER, true, DISCARD,
	    "receive discards: the adapter had no buffer"),
	ET("mlx5_core", "tx_discards_phy", BUFFER, true, "transmit discards"),
	ET("mlx5_core", "tx_errors_phy", LINK, true, "transmit errors"),
	ET("mlx5_core", "rx_buffer_passed_thres_phy", BUFFER, true, "receive buffer above 85% full"),
	ET("mlx5_core", "rx_out_of_buffer", APPLICATION, true,
	   "Ethernet drops for lack of a receive WQE (not RoCE)"),
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
	ETR("mlx5_core", "rx_vport_rdma_unicast_packets", TRAFFIC, false, RX_PKTS,
	    "RDMA unicast packets received by the vport"),
	ETR("mlx5_core", "tx_vport_rdma_unicast_packets", TRAFFIC, false, TX_PKTS,
	    "RDMA unicast packets sent by the vport"),
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

	/*
	 * bnxt_en ethtool -S: drivers/net/ethernet/broadcom/bnxt/bnxt_ethtool.c
	 * (bnxt_port_stats_arr, bnxt_port_stats_ext_arr: BNXT_RX_STATS_EXT_PFC_ENTRY,
	 * BNXT_RX_STATS_EXT_DISCARD_COS_ENTRY). The discards are per CoS queue,
	 * not per priority.
	 */
	ET("bnxt_en", "rx_ucast_frames", TRAFFIC, false, "unicast frames received by the port"),
	ET("bnxt_en", "tx_ucast_frames", TRAFFIC, false, "unicast frames sent by the port"),
	ET("bnxt_en", "rx_pause_frames", PFC, false, "802.3x pause frames received"),
	ET("bnxt_en", "tx_pause_frames", PFC, false, "802.3x pause frames sent"),
	ET("bnxt_en", "rx_fcs_err_frames", LINK, true, "frames with a bad FCS: cable or optics"),
	ETR("bnxt_en", "rx_pfc_ena_frames_pri#", PFC, false, PFC_RX,
	    "PFC frames received on the priority"),
	ETR("bnxt_en", "tx_pfc_ena_frames_pri#", PFC, false, PFC_TX, "PFC frames sent on the priority"),
	ETR("bnxt_en", "pfc_pri#_rx_duration_us", PFC, false, PAUSE_US_RX,
	    "microseconds paused by the peer on the priority"),
	ETR("bnxt_en", "pfc_pri#_tx_duration_us", PFC, false, PAUSE_US_TX,
	    "microseconds this NIC paused the peer on the priority"),
	ET("bnxt_en", "pfc_pri#_rx_transitions", PFC, false, "PFC XOFF/XON transitions received"),
	ET("bnxt_en", "pfc_pri#_tx_transitions", PFC, false, "PFC XOFF/XON transitions sent"),
	ETR("bnxt_en", "rx_discard_packets_cos#", BUFFER, true, DISCARD,
	    "packets the port discarded on receive in the CoS queue"),
	ET("bnxt_en", "rx_discard_bytes_cos#", BUFFER, false, "bytes discarded in the CoS queue"),
	/*
	 * BNXT_RX/TX_STATS_EXT_COS_ENTRY: frames per CoS queue; and the
	 * bnxt_rx/tx_pkts_pri_arr "rx/tx_packets_pri#", the same queue
	 * counters indexed by priority through the firmware's pri2cos map:
	 * only with port_stats_ext (a PF, recent firmware) and a valid map
	 * (bp->pri2cos_valid), and priorities sharing a queue show the
	 * same number.
	 */
	ET("bnxt_en", "rx_packets_cos#", TRAFFIC, false, "frames received in the CoS queue"),
	ET("bnxt_en", "tx_packets_cos#", TRAFFIC, false, "frames sent from the CoS queue"),
	ET("bnxt_en", "rx_bytes_cos#", TRAFFIC, false, "bytes received in the CoS queue"),
	ET("bnxt_en", "tx_bytes_cos#", TRAFFIC, false, "bytes sent from the CoS queue"),
	ETR("bnxt_en", "rx_packets_pri#", TRAFFIC, false, PRIO_RX_PKTS,
	    "frames received in the CoS queue of the priority"),
	ETR("bnxt_en", "tx_packets_pri#", TRAFFIC, false, PRIO_TX_PKTS,
	    "frames sent from the CoS queue of the priority"),
	ET("bnxt_en", "rx_bytes_pri#", TRAFFIC, false, "bytes received in the CoS queue of the priority"),
	ET("bnxt_en", "tx_bytes_pri#", TRAFFIC, false, "bytes sent from the CoS queue of the priority"),

	/*
	 * ice ethtool -S: drivers/net/ethernet/intel/ice/ice_ethtool.c
	 * (ice_gstrings_pf_stats, ice_get_strings(): "%s_priority_%u_xon.nic").
	 * An XOFF frame is the pause; XON ends it. ice counts no packets per
	 * priority or TC (only per queue, and RoCE uses irdma's QPs, not the
	 * netdev's queues): no PRIO_RX/TX_PKTS role here.
	 */
	ETR("ice", "rx_priority_#_xon.nic", PFC, false, XON_RX,
	    "PFC XON frames received on the priority"),
	ETR("ice", "rx_priority_#_xoff.nic", PFC, false, PFC_RX,
	    "PFC XOFF frames received on the priority"),
	ETR("ice", "tx_priority_#_xon.nic", PFC, false, XON_TX, "PFC XON frames sent on the priority"),
	ETR("ice", "tx_priority_#_xoff.nic", PFC, false, PFC_TX, "PFC XOFF frames sent on the priority"),
	ET("ice", "link_xoff_rx.nic", PFC, false, "802.3x pause frames received"),
	ET("ice", "link_xoff_tx.nic", PFC, false, "802.3x pause frames sent"),
	ETR("ice", "rx_dropped.nic", BUFFER, true, DISCARD,
	    "packets the port dropped on receive (no buffer)"),
	ET("ice", "rx_crc_errors.nic", LINK, true, "frames with a bad CRC: cable or optics"),
	ET("ice", "rx_unicast.nic", TRAFFIC, false, "unicast packets received by the port"),
	ET("ice", "tx_unicast.nic", TRAFFIC, false, "unicast packets sent by the port"),

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

const char *rctl_crole_name(enum rctl_crole r)
{
	static const char *const names[RCTL_ROLE_N] = {
		[RCTL_ROLE_NONE] = "", [RCTL_ROLE_LOSS] = "loss", [RCTL_ROLE_DISCARD] = "discard",
		[RCTL_ROLE_NO_WQE] = "no_wqe", [RCTL_ROLE_PFC_RX] = "pfc_rx",
		[RCTL_ROLE_PFC_TX] = "pfc_tx", [RCTL_ROLE_PAUSE_US_RX] = "pause_us_rx",
		[RCTL_ROLE_PAUSE_US_TX] = "pause_us_tx", [RCTL_ROLE_STORM_WARN] = "storm_warning",
		[RCTL_ROLE_STORM_ERR] = "storm_error", [RCTL_ROLE_CNP_SENT] = "cnp_sent",
		[RCTL_ROLE_CNP_RCVD] = "cnp_received", [RCTL_ROLE_CNP_HANDLED] = "cnp_handled",
		[RCTL_ROLE_CNP_IGNORED] = "cnp_ignored", [RCTL_ROLE_ECN_MARKED] = "ecn_marked",
		[RCTL_ROLE_RX_PKTS] = "rx_packets", [RCTL_ROLE_TX_PKTS] = "tx_packets",
		[RCTL_ROLE_XON_RX] = "xon_rx", [RCTL_ROLE_XON_TX] = "xon_tx",
		[RCTL_ROLE_PRIO_RX_PKTS] = "prio_rx_packets",
		[RCTL_ROLE_PRIO_TX_PKTS] = "prio_tx_packets",
	};

	return r < RCTL_ROLE_N ? names[r] : "";
}

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

/*
 * '#' in the pattern matches one or more digits; everything else is literal.
 * *num gets the number the last '#' matched (-1 without one).
 */
static bool name_match(const char *pat, const char *s, int *num)
{
	*num = -1;
	for (; *pat; pat++) {
		if (*pat != '#') {
			if (*s++ != *pat)
				return false;
			continue;
		}
		if (!isdigit((unsigned char)*s))
			return false;
		for (*num = 0; isdigit((unsigned char)*s); s++)
			*num = *num < 1000 ? *num * 10 + (*s - '0') : *num;
	}
	return !*s;
}

#define CATALOG_N (sizeof(catalog) / sizeof(catalog[0]))

static const struct rctl_centry other = {
	.driver = "*", .group = RCTL_CG_OTHER, .bits = 64, .meaning = "",
};

/* The entries of (driver, src) in the table's order: all lookup() may return. */
static size_t entries_of(const char *driver, enum rctl_csrc src,
			 const struct rctl_centry *out[CATALOG_N])
{
	size_t i, n = 0;

	for (i = 0; i < CATALOG_N; i++)
		if (catalog[i].src == src &&
		    (!strcmp(catalog[i].driver, "*") || !strcmp(catalog[i].driver, driver)))
			out[n++] = &catalog[i];
	return n;
}

/* The first of e[0..n) that "name" matches; "other" when none. */
static const struct rctl_centry *match_in(const struct rctl_centry *const *e, size_t n,
					  const char *name, int *num)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (name_match(e[i]->name, name, num))
			return e[i];
	*num = -1;
	return &other;
}

/*
 * match_in(e, n, name) where only the entries r[0..nr) of e have the role
 * asked for: those are tried first (few), the ones before the one that
 * matches only then (the first match wins). "other" when the first match
 * has another role, or when none matches.
 */
static const struct rctl_centry *match_role(const struct rctl_centry *const *e,
					    const size_t *r, size_t nr, const char *name,
					    int *num)
{
	size_t k;
	int m;

	for (k = 0; k < nr; k++) {
		if (!name_match(e[r[k]]->name, name, &m))
			continue;
		if (match_in(e, r[k], name, num) != &other)
			break;
		*num = m;
		return e[r[k]];
	}
	*num = -1;
	return &other;
}

static const struct rctl_centry *lookup(const char *driver, enum rctl_csrc src,
					const char *name, int *num)
{
	const struct rctl_centry *e[CATALOG_N];

	return match_in(e, entries_of(driver, src, e), name, num);
}

const struct rctl_centry *rctl_catalog_lookup(const char *driver, enum rctl_csrc src,
					      const char *name)
{
	int num;

	return lookup(driver, src, name, &num);
}

const struct rctl_centry *rctl_catalog_lookup_prio(const char *driver, enum rctl_csrc src,
						   const char *name, int *prio)
{
	return lookup(driver, src, name, prio);
}

uint64_t rctl_catalog_sum(const char *driver, enum rctl_csrc src, enum rctl_crole role,
			  int prio, const struct rctl_counter *c, uint32_t n, bool *found,
			  char *which, size_t len)
{
	size_t off = which && len ? strlen(which) : 0;
	const struct rctl_centry *e[CATALOG_N];
	size_t k, ne, nr, r[CATALOG_N];
	uint64_t sum = 0;
	uint32_t i;
	int num;

	if (found)
		*found = false;
	/*
	 * The driver's entries once, not per counter: a snapshot of thousands
	 * of netdevs sums their counters per rule and priority. None with the
	 * role: no counter has it.
	 */
	ne = entries_of(driver, src, e);
	for (k = 0, nr = 0; k < ne; k++)
		if (e[k]->role == role)
			r[nr++] = k;
	if (!nr && role != other.role)
		return 0;
	for (i = 0; i < n; i++) {
		if ((role == other.role ? match_in(e, ne, c[i].name, &num)
					: match_role(e, r, nr, c[i].name, &num))->role != role ||
		    (prio >= 0 && num != prio))
			continue;
		if (found)
			*found = true;
		if (!c[i].has_delta || !c[i].delta)
			continue;
		sum += c[i].delta;
		if (which && off < len)
			off += snprintf(which + off, len - off, "%s%s +%llu", off ? ", " : "",
					c[i].name, (unsigned long long)c[i].delta);
	}
	return sum;
}

const char *rctl_catalog_role_counter(const char *driver, enum rctl_csrc src,
				      enum rctl_crole role)
{
	size_t i;

	for (i = 0; i < sizeof(catalog) / sizeof(catalog[0]); i++)
		if (catalog[i].src == src && catalog[i].role == role &&
		    !strcmp(catalog[i].driver, driver))
			return catalog[i].name;
	return NULL;
}

bool rctl_catalog_bad_any(enum rctl_csrc src, const char *name)
{
	size_t i;
	int num;

	for (i = 0; i < sizeof(catalog) / sizeof(catalog[0]); i++)
		if (catalog[i].src == src && catalog[i].bad &&
		    name_match(catalog[i].name, name, &num))
			return true;
	return false;
}
