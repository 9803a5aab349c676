// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Counter rules (M13, M15, M16, M17 with the loss budget, M24, M26): they
 * judge deltas of two samples, never absolute values, since counters count
 * since boot. Names differ per driver (roce-host-facts.md §2.10).
 */
#include <stdio.h>
#include <string.h>

#include "rocectl/rules.h"

#define FOR_TARGETS(j, t) \
	for (uint32_t di_ = 0, pi_ = 0; rctl_target_next(j, &t, &di_, &pi_);)

/* Sequence errors, out-of-sequence packets and retransmissions, per driver. */
static const char *const loss_hw[] = {
	"out_of_sequence", "packet_seq_err", "implied_nak_seq_err",	/* mlx5 */
	"local_ack_timeout_err", "duplicate_request", "roce_adp_retrans",
	"roce_slow_restart",
	"out_of_seq_request", "rcvd_seq_err", "completer_retry_err",	/* rxe */
	"oos_drop_count", "seq_err_naks_rcvd", "to_retransmits",	/* bnxt_re */
	NULL
};

/* RoCE packets both ways: hw_counters pairs, then PMA, then ethtool. */
static const char *const pkt_hw[][2] = {
	{ "rdma_rx_packets", "rdma_tx_packets" },	/* mlx5 optional */
	{ "rcvd_pkts", "sent_pkts" },			/* rxe */
	{ "rx_pkts", "tx_pkts" },			/* bnxt_re */
};

static bool has(const struct rctl_counter *c, uint32_t n, const char *name)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(c[i].name, name) && c[i].has_delta)
			return true;
	return false;
}

static bool present(const struct rctl_port *p, const char *name)
{
	uint32_t i;

	for (i = 0; i < p->n_hw; i++)
		if (!strcmp(p->hw[i].name, name))
			return true;
	return false;
}

/* Packets moved over the interval; false when no packet counter exists. */
static bool roce_packets(const struct rctl_target *t, uint64_t *pkts)
{
	const struct rctl_port *p = t->port;
	size_t i;

	for (i = 0; i < sizeof(pkt_hw) / sizeof(pkt_hw[0]); i++)
		if (has(p->hw, p->n_hw, pkt_hw[i][0])) {
			*pkts = rctl_delta_of(p->hw, p->n_hw, pkt_hw[i][0]) +
				rctl_delta_of(p->hw, p->n_hw, pkt_hw[i][1]);
			return true;
		}
	if (has(p->pma, p->n_pma, "port_rcv_packets")) {
		*pkts = rctl_delta_of(p->pma, p->n_pma, "port_rcv_packets") +
			rctl_delta_of(p->pma, p->n_pma, "port_xmit_packets");
		return true;
	}
	if (t->nd && has(t->nd->stats, t->nd->n_stats, "rx_vport_rdma_unicast_packets")) {
		*pkts = rctl_delta_of(t->nd->stats, t->nd->n_stats, "rx_vport_rdma_unicast_packets") +
			rctl_delta_of(t->nd->stats, t->nd->n_stats, "tx_vport_rdma_unicast_packets");
		return true;
	}
	return false;
}

/* Sum of loss deltas; "which" lists the counters that rose. */
static uint64_t roce_lost(const struct rctl_port *p, char *which, size_t len)
{
	uint64_t sum = 0, d;
	size_t off = 0;
	int i;

	which[0] = '\0';
	for (i = 0; loss_hw[i]; i++) {
		d = rctl_delta_of(p->hw, p->n_hw, loss_hw[i]);
		if (d && off < len)
			off += snprintf(which + off, len - off, "%s%s +%llu", off ? ", " : "",
					loss_hw[i], (unsigned long long)d);
		sum += d;
	}
	return sum;
}

static uint64_t local_discards(const struct rctl_netdev *nd)
{
	if (!nd)
		return 0;
	return rctl_delta_of(nd->stats, nd->n_stats, "rx_discards_phy") +
	       rctl_delta_match(nd->stats, nd->n_stats, "rx_prio#_buf_discard");
}

void rule_counters_unreadable(struct rctl_judge *j)
{
	struct rctl_target t;

	FOR_TARGETS(j, t) {
		if (!t.port->hw_err)
			continue;
		rctl_emit(j, RCTL_UNKNOWN, t.name, "readable", "unknown", NULL, NULL,
			  "cannot read hw counters of '%s': %s", t.name, strerror(t.port->hw_err));
	}
}

/* M17: which loss counters rose, and whether this NIC dropped them. */
void rule_counters_loss(struct rctl_judge *j)
{
	struct rctl_target t;
	char which[200], got[64];
	uint64_t lost, disc;

	if (!rctl_host_has_deltas(j->h))
		return;
	FOR_TARGETS(j, t) {
		if (t.port->hw_err)
			continue;
		lost = roce_lost(t.port, which, sizeof(which));
		if (!lost) {
			rctl_emit(j, RCTL_PASS, t.name, "+0", "+0", NULL, NULL,
				  "no sequence error or retransmission over %.1f s",
				  j->h->sample_interval_s);
			continue;
		}
		disc = local_discards(t.nd);
		snprintf(got, sizeof(got), "+%llu loss events", (unsigned long long)lost);
		rctl_emit(j, RCTL_WARN, t.name, "+0", got, which, NULL,
			  disc ? "RoCE packets were lost and this NIC discarded %llu packets: the loss is at this host"
			       : "RoCE packets were lost but this NIC discarded none: the loss is in the fabric or at the peer",
			  (unsigned long long)disc);
	}
}

/* The loss budget: (seq errors + OOS + retransmits) / packets vs intent. */
void rule_counters_loss_budget(struct rctl_judge *j)
{
	struct rctl_target t;
	char exp[48], got[96], which[200], ev[320];
	uint64_t lost, pkts = 0;
	double rate = 0;
	bool counted;

	if (!rctl_host_has_deltas(j->h))
		return;
	FOR_TARGETS(j, t) {
		if (t.port->hw_err)
			continue;
		lost = roce_lost(t.port, which, sizeof(which));
		counted = roce_packets(&t, &pkts);
		snprintf(exp, sizeof(exp), "loss rate <= %g", j->in->loss_budget);
		snprintf(ev, sizeof(ev), "over %.1f s: %s; %llu packets%s", j->h->sample_interval_s,
			 lost ? which : "no loss counter rose", (unsigned long long)pkts,
			 local_discards(t.nd) ? "; local NIC discards rose too: loss at this host"
					      : lost ? "; no local discards: loss in the fabric or at the peer" : "");
		if (counted && rctl_loss_rate(lost, pkts, &rate)) {
			snprintf(got, sizeof(got), "loss rate %.3g (%llu of %llu packets)", rate,
				 (unsigned long long)lost, (unsigned long long)pkts);
			rctl_emit(j, rate > j->in->loss_budget ? RCTL_FAIL : RCTL_PASS, t.name,
				  exp, got, ev, NULL, "RoCE loss rate %.3g over %.1f s %s the budget %g",
				  rate, j->h->sample_interval_s,
				  rate > j->in->loss_budget ? "exceeds" : "is within", j->in->loss_budget);
			rctl_emit_ratio(j, rate);
		} else if (lost) {
			snprintf(got, sizeof(got), "%llu loss events, %s", (unsigned long long)lost,
				 counted ? "0 packets" : "no packet counter");
			rctl_emit(j, counted ? RCTL_FAIL : RCTL_WARN, t.name, exp, got, ev, NULL,
				  "RoCE loss counters rose by %llu over %.1f s", (unsigned long long)lost,
				  j->h->sample_interval_s);
		} else {
			rctl_emit(j, RCTL_PASS, t.name, exp, "no loss, no traffic", ev, NULL,
				  "no RoCE traffic and no loss over %.1f s: the rate was not measured",
				  j->h->sample_interval_s);
		}
	}
}

void rule_counters_pause_storm(struct rctl_judge *j)
{
	struct rctl_target t;
	char got[80];
	uint64_t w, e;

	if (!rctl_host_has_deltas(j->h))
		return;
	FOR_TARGETS(j, t) {
		if (!t.nd || t.nd->stats_err)
			continue;
		w = rctl_delta_of(t.nd->stats, t.nd->n_stats, "tx_pause_storm_warning_events");
		e = rctl_delta_of(t.nd->stats, t.nd->n_stats, "tx_pause_storm_error_events");
		snprintf(got, sizeof(got), "+%llu warning, +%llu error events",
			 (unsigned long long)w, (unsigned long long)e);
		if (!w && !e)
			continue;
		rctl_emit(j, e ? RCTL_FAIL : RCTL_WARN, t.name, "no pause storm", got,
			  "ethtool -S tx_pause_storm_*_events", NULL,
			  e ? "PFC pause storm: the device stalled and stopped sending pause, packets may drop"
			    : "the device is close to a PFC pause storm (it sent pause for too long)");
	}
}

void rule_counters_rx_discards(struct rctl_judge *j)
{
	struct rctl_target t;
	char got[80];
	uint64_t n;

	if (!rctl_host_has_deltas(j->h))
		return;
	FOR_TARGETS(j, t) {
		if (!t.nd || t.nd->stats_err)
			continue;
		n = local_discards(t.nd);
		if (!n)
			continue;
		snprintf(got, sizeof(got), "+%llu discards", (unsigned long long)n);
		rctl_emit(j, RCTL_WARN, t.name, "+0 discards", got,
			  "ethtool -S rx_discards_phy, rx_prio#_buf_discard", NULL,
			  "'%s' dropped received packets for lack of buffer: check PFC on the RoCE prio and its buffer",
			  t.nd->name);
	}
}

void rule_counters_no_wqe(struct rctl_judge *j)
{
	struct rctl_target t;
	char got[120];
	uint64_t oob = 0, rnr;

	if (!rctl_host_has_deltas(j->h))
		return;
	FOR_TARGETS(j, t) {
		const struct rctl_port *p = t.port;

		/* bnxt_re's out_of_buffer can hold oos_drop_count: mlx5 only. */
		if (!strcmp(t.dev->driver, "mlx5"))
			oob = rctl_delta_of(p->hw, p->n_hw, "out_of_buffer");
		rnr = rctl_delta_of(p->hw, p->n_hw, "rnr_nak_retry_err") +
		      rctl_delta_of(p->hw, p->n_hw, "rcvd_rnr_err") +
		      rctl_delta_of(p->hw, p->n_hw, "rnr_naks_rcvd");
		if (!oob && !rnr)
			continue;
		snprintf(got, sizeof(got), "+%llu out_of_buffer, +%llu RNR",
			 (unsigned long long)oob, (unsigned long long)rnr);
		rctl_emit(j, RCTL_WARN, t.name, "+0", got, "hw_counters deltas", NULL,
			  "receivers had no WQE posted: an application problem, not the fabric");
	}
}

void rule_counters_optional_cc(struct rctl_judge *j)
{
	struct rctl_target t;
	char fix[160];

	FOR_TARGETS(j, t) {
		const struct rctl_port *p = t.port;

		if (strcmp(t.dev->driver, "mlx5") || !present(p, "rp_cnp_handled"))
			continue;
		if (present(p, "cc_rx_cnp_pkts")) {
			rctl_emit(j, RCTL_PASS, t.name, "enabled", "enabled", NULL, NULL,
				  "optional congestion counters are enabled");
			continue;
		}
		snprintf(fix, sizeof(fix),
			 "rdma statistic set link %s/%u optional-counters cc_rx_ce_pkts,cc_rx_cnp_pkts,cc_tx_cnp_pkts",
			 t.dev->name, p->port);
		rctl_emit(j, RCTL_PASS, t.name, "enabled", "not enabled", NULL, fix,
			  "optional congestion counters are off: received CNPs are invisible (suggestion)");
	}
}
