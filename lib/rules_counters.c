// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Counter rules: they judge deltas of two samples, never absolute values,
 * since counters count since boot. Which counter means loss, a local
 * discard, pause or a CNP comes from the catalogue (lib/catalog.c), keyed
 * by the driver: the RDMA device's for hw_counters, the netdev's for
 * ethtool -S (docs/roce-facts.md, "Counters").
 */
#include <stdio.h>
#include <string.h>

#include "rocectl/settings.h"
#include "rocectl/catalog.h"
#include "rocectl/rules.h"

static bool present(const struct rctl_port *p, const char *name)
{
	uint32_t i;

	for (i = 0; i < p->n_hw; i++)
		if (!strcmp(p->hw[i].name, name))
			return true;
	return false;
}

static uint64_t hw_sum(const struct rctl_target *t, enum rctl_crole role, bool *found,
		       char *which, size_t len)
{
	return rctl_catalog_sum(t->dev->driver, RCTL_SRC_HW, role, -1, t->port->hw,
				t->port->n_hw, found, which, len);
}

static uint64_t et_sum(const struct rctl_netdev *nd, enum rctl_crole role, int prio,
		       bool *found, char *which, size_t len)
{
	if (!nd) {
		if (found)
			*found = false;
		return 0;
	}
	return rctl_catalog_sum(nd->driver, RCTL_SRC_ETHTOOL, role, prio, nd->stats,
				nd->n_stats, found, which, len);
}

/* RoCE packets both ways over the interval: hw_counters, then PMA, then ethtool. */
static bool roce_packets(const struct rctl_target *t, uint64_t *pkts)
{
	const struct rctl_port *p = t->port;
	bool rx, tx;

	*pkts = hw_sum(t, RCTL_ROLE_RX_PKTS, &rx, NULL, 0) +
		hw_sum(t, RCTL_ROLE_TX_PKTS, &tx, NULL, 0);
	if (rx || tx)
		return true;
	*pkts = rctl_catalog_sum("*", RCTL_SRC_PMA, RCTL_ROLE_RX_PKTS, -1, p->pma, p->n_pma, &rx,
				 NULL, 0) +
		rctl_catalog_sum("*", RCTL_SRC_PMA, RCTL_ROLE_TX_PKTS, -1, p->pma, p->n_pma, &tx,
				 NULL, 0);
	if (rx || tx)
		return true;
	*pkts = et_sum(t->nd, RCTL_ROLE_RX_PKTS, -1, &rx, NULL, 0) +
		et_sum(t->nd, RCTL_ROLE_TX_PKTS, -1, &tx, NULL, 0);
	return rx || tx;
}

/* Sum of loss deltas; "which" lists the counters that rose. */
static uint64_t roce_lost(const struct rctl_target *t, char *which, size_t len)
{
	which[0] = '\0';
	return hw_sum(t, RCTL_ROLE_LOSS, NULL, which, len);
}

/*
 * A port none of whose counters means RoCE loss: irdma (irdma_hw_stat_descs,
 * drivers/infiniband/hw/irdma/verbs.c, Linux 5.14 to 6.15, counts no RoCE
 * sequence error, out-of-sequence packet, duplicate request or
 * retransmission; its tcpRetransSegs is iWARP's TCP), or a driver the
 * catalogue does not know. Silence there is no "0 lost": the one unknown,
 * naming why. True when it was said.
 */
bool rctl_loss_unmeasurable(const struct rctl_target *t)
{
	bool found;

	if (t->port->hw_err)
		return false;
	hw_sum(t, RCTL_ROLE_LOSS, &found, NULL, 0);
	return !found;
}

static bool loss_unmeasurable(struct rctl_judge *j, const struct rctl_target *t)
{
	char ev[RCTL_FIELD_LEN * 2];

	if (!rctl_loss_unmeasurable(t))
		return false;
	snprintf(ev, sizeof(ev), "%u hw_counters of %s, none a RoCE loss counter%s",
		 t->port->n_hw, t->dev->driver,
		 rctl_family_of(t->dev, NULL) == RCTL_FAM_ICE ?
			 " (irdma_hw_stat_descs, irdma/verbs.c: tcpRetransSegs is iWARP's TCP)" :
			 " in the catalogue");
	rctl_say(j,
		 &(struct rctl_say){ .status = RCTL_UNKNOWN,
				     .target = t->name,
				     .expected = "a RoCE loss counter",
				     .observed = "none",
				     .evidence = ev },
		 "%s counts no RoCE sequence error, out-of-sequence packet, duplicate request or "
		 "retransmission: RoCE loss cannot be measured on '%s'", t->dev->driver, t->name);
	return true;
}

/*
 * Discards come in two kinds, never added: the ethtool rows of the
 * catalogue are port counters (mlx5 *_phy and rx_prio#_buf_discard, bnxt_en
 * port_stats_ext rx_discard_packets_cos#, ice .nic), which on NPAR and
 * multi-host adapters hold other functions' traffic too; the hw_counters
 * rows are the RDMA function's own (bnxt_re rx_roce_discards, irdma).
 */
static uint64_t function_discards(const struct rctl_target *t, char *which, size_t len)
{
	which[0] = '\0';
	return t->port->hw_err ? 0 : hw_sum(t, RCTL_ROLE_DISCARD, NULL, which, len);
}

/*
 * The largest delta among a netdev's counters of "role": port discard
 * counters overlap (mlx5's rx_discards_phy holds rx_prio#_buf_discard), so
 * their sum would count a packet twice; the largest is a true lower bound.
 */
static uint64_t et_max(const struct rctl_netdev *nd, enum rctl_crole role)
{
	const struct rctl_centry *e;
	uint64_t best = 0;
	uint32_t i;

	for (i = 0; i < nd->n_stats; i++) {
		e = rctl_catalog_lookup(nd->driver, RCTL_SRC_ETHTOOL, nd->stats[i].name);
		if (e->role == role && nd->stats[i].has_delta && nd->stats[i].delta > best)
			best = nd->stats[i].delta;
	}
	return best;
}

/* One netdev's port discards, named after "which" (at *off). */
static uint64_t nd_discards(const struct rctl_netdev *nd, char *which, size_t len, size_t *off)
{
	uint64_t n = et_max(nd, RCTL_ROLE_DISCARD);
	char one[160];

	one[0] = '\0';
	et_sum(nd, RCTL_ROLE_DISCARD, -1, NULL, one, sizeof(one));
	if (n && *off < len)
		*off += snprintf(which + *off, len - *off, "%s'%s' %s", *off ? "; " : "",
				 nd->name, one);
	return n;
}

/* Port discards of every netdev carrying the port's traffic: each RoCE LAG slave. */
static uint64_t port_discards(const struct rctl_judge *j, const struct rctl_target *t,
			      char *which, size_t len)
{
	const struct rctl_netdev *nd;
	uint64_t sum = 0;
	size_t off = 0;
	uint32_t i;

	which[0] = '\0';
	/* Without RoCE LAG only the port's own netdev: no walk over every netdev. */
	if (!rctl_port_bond(j->h, t->port))
		return t->nd && !t->nd->stats_err ? nd_discards(t->nd, which, len, &off) : 0;
	for (i = 0; i < j->h->n_netdevs; i++) {
		nd = &j->h->netdevs[i];
		if ((nd != t->nd && !rctl_port_lag_slave(j->h, t->port, nd->name)) || nd->stats_err)
			continue;
		sum += nd_discards(nd, which, len, &off);
	}
	return sum;
}

void rule_counters_unreadable(struct rctl_judge *j, const struct rctl_target *t)
{
	if (!t->port->hw_err)
		return;
	rctl_say(j,
		 &(struct rctl_say){ .status = RCTL_UNKNOWN,
				     .target = t->name,
				     .expected = "readable",
				     .observed = "unknown" },
		 "cannot read hw counters of '%s': %s", t->name, strerror(t->port->hw_err));
}

/* "+40 in the RDMA function's counters, at least +7 in port counters" */
static const char *discard_text(uint64_t fdisc, uint64_t pdisc, char *buf, size_t len)
{
	int n = 0;

	buf[0] = '\0';
	if (fdisc)
		n = snprintf(buf, len, "+%llu in the RDMA function's counters",
			     (unsigned long long)fdisc);
	if (pdisc && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, "%sat least +%llu in port counters", n ? ", " : "",
			 (unsigned long long)pdisc);
	return buf;
}

/* ", every slave of 'bond0'" when the port's port counters span a RoCE LAG. */
static const char *lag_note(const struct rctl_judge *j, const struct rctl_target *t,
			    char *buf, size_t len)
{
	uint32_t i;

	buf[0] = '\0';
	if (!rctl_port_bond(j->h, t->port))
		return buf;
	for (i = 0; i < j->h->n_netdevs; i++)
		if (rctl_port_lag_slave(j->h, t->port, j->h->netdevs[i].name)) {
			snprintf(buf, len, ", every slave of '%s'", j->h->netdevs[i].master);
			break;
		}
	return buf;
}

/* Which loss counters rose, and whether this NIC dropped packets too. */
void rule_counters_loss(struct rctl_judge *j, const struct rctl_target *t)
{
	char which[200], fw[200], pw[200], got[64], ev[RCTL_FIELD_LEN * 2];
	char note[96];
	uint64_t lost, fdisc, pdisc;

	if (loss_unmeasurable(j, t))
		return;
	lost = roce_lost(t, which, sizeof(which));
	if (!lost) {
		rctl_pass(j, t, "+0", "+0", "no sequence error or retransmission over %.1f s",
			 j->h->sample_interval_s);
		return;
	}
	fdisc = function_discards(t, fw, sizeof(fw));
	pdisc = port_discards(j, t, pw, sizeof(pw));
	snprintf(got, sizeof(got), "+%llu loss events", (unsigned long long)lost);
	snprintf(ev, sizeof(ev), "%s%s%s%s%s", which, fdisc ? "; function: " : "", fw,
		 pdisc ? "; port: " : "", pw);
	rctl_say(j,
		 &(struct rctl_say){ .status = RCTL_WARN,
				     .target = t->name,
				     .expected = "+0",
				     .observed = got,
				     .evidence = ev },
		 fdisc || pdisc ? "RoCE packets were lost and this NIC discarded packets (%s): the "
				  "loss is at this host" :
				  "RoCE packets were lost but this NIC discarded none (function and "
				  "port counters%s): the loss is in the fabric or at the peer",
		 fdisc || pdisc ? discard_text(fdisc, pdisc, note, sizeof(note)) :
				  lag_note(j, t, note, sizeof(note)));
}

/* The loss budget: (seq errors + OOS + retransmits) / packets vs intent. */
void rule_counters_loss_budget(struct rctl_judge *j, const struct rctl_target *t)
{
	char exp[48], got[96], which[200], dw[200], ev[320];
	uint64_t lost, pkts = 0;
	double rate = 0;
	bool counted;

	if (loss_unmeasurable(j, t))
		return;
	lost = roce_lost(t, which, sizeof(which));
	counted = roce_packets(t, &pkts);
	snprintf(exp, sizeof(exp), "loss rate <= %g", j->in->loss_budget);
	snprintf(ev, sizeof(ev), "over %.1f s: %s; %llu packets%s", j->h->sample_interval_s,
		 lost ? which : "no loss counter rose", (unsigned long long)pkts,
		 function_discards(t, dw, sizeof(dw)) || port_discards(j, t, dw, sizeof(dw)) ?
			 "; local NIC discards rose too: loss at this host" :
		 lost ? "; no local discards: loss in the fabric or at the peer" :
			"");
	if (counted && rctl_loss_rate(lost, pkts, &rate)) {
		snprintf(got, sizeof(got), "loss rate %.3g (%llu of %llu packets)", rate,
			 (unsigned long long)lost, (unsigned long long)pkts);
		rctl_say(j,
			 &(struct rctl_say){ .status = rate > j->in->loss_budget ? RCTL_FAIL :
										   RCTL_PASS,
					     .target = t->name,
					     .expected = exp,
					     .observed = got,
					     .evidence = ev },
			 "RoCE loss rate %.3g over %.1f s %s the budget %g", rate,
			 j->h->sample_interval_s,
			 rate > j->in->loss_budget ? "exceeds" : "is within", j->in->loss_budget);
		rctl_emit_ratio(j, rate);
	} else if (lost) {
		snprintf(got, sizeof(got), "%llu loss events, %s", (unsigned long long)lost,
			 counted ? "0 packets" : "no packet counter");
		rctl_say(j,
			 &(struct rctl_say){ .status = counted ? RCTL_FAIL : RCTL_WARN,
					     .target = t->name,
					     .expected = exp,
					     .observed = got,
					     .evidence = ev },
			 "RoCE loss counters rose by %llu over %.1f s", (unsigned long long)lost,
			 j->h->sample_interval_s);
	} else {
		rctl_pass_ev(j, t, exp, "no loss, no traffic", ev,
			     "no RoCE traffic and no loss over %.1f s: the rate was not measured",
			     j->h->sample_interval_s);
	}
}

/* A pause-storm finding: every kind of evidence says it the same way. */
static void storm(struct rctl_judge *j, const struct rctl_target *t, enum rctl_status st,
		  const char *got, const char *ev, const char *msg)
{
	rctl_say(j,
		 &(struct rctl_say){ .status = st,
				     .target = t->name,
				     .expected = "no pause storm",
				     .observed = got,
				     .evidence = ev },
		 "%s", msg);
}

/*
 * Pause for most of the interval on one priority is a storm whether or not
 * the firmware has storm-event counters (a ConnectX-5 without stall_detect
 * has none): the per-priority pause duration, in microseconds, says so.
 */
#define STORM_SHARE 0.5

/* The priority paused longest in one direction, as a share of the interval. */
static double paused_share(const struct rctl_judge *j, const struct rctl_netdev *nd,
			   enum rctl_crole role, int *prio)
{
	double best = 0, secs = j->h->sample_interval_s;
	uint64_t us;
	int p;

	*prio = -1;
	for (p = 0; p < 8 && secs > 0; p++) {
		us = et_sum(nd, role, p, NULL, NULL, 0);
		if ((double)us / (secs * 1e6) > best) {
			best = (double)us / (secs * 1e6);
			*prio = p;
		}
	}
	return best;
}

static void storm_by_duration(struct rctl_judge *j, const struct rctl_target *t)
{
	char got[96], ev[96], msg[RCTL_FIELD_LEN * 2];
	int ptx, prx;
	double tx = paused_share(j, t->nd, RCTL_ROLE_PAUSE_US_TX, &ptx);
	double rx = paused_share(j, t->nd, RCTL_ROLE_PAUSE_US_RX, &prx);
	bool sent = tx >= rx;

	if ((sent ? tx : rx) < STORM_SHARE)
		return;
	snprintf(got, sizeof(got), "prio %d %s for %.0f%% of %.1f s", sent ? ptx : prx,
		 sent ? "sent pause" : "was paused", 100 * (sent ? tx : rx),
		 j->h->sample_interval_s);
	snprintf(ev, sizeof(ev), "ethtool -S per-priority pause duration (us) of '%s'",
		 t->nd->name);
	snprintf(
		msg, sizeof(msg),
		sent ? "PFC pause storm: '%s' paused its peer for most of the interval (its receive path is stuck)" :
		       "'%s' was paused by its peer for most of the interval: a pause storm upstream",
		t->nd->name);
	storm(j, t, sent ? RCTL_FAIL : RCTL_WARN, got, ev, msg);
}

/*
 * ice has no pause duration and no storm counter, only PFC XOFF and XON
 * frames per priority (ice_ethtool.c "%s_priority_%u_xoff.nic"). A port
 * whose receive path stays stuck refreshes XOFF before each pause quanta
 * runs out and never sends the XON that ends a pause: XOFF rising at ten
 * or more a second (a stall of the whole interval refreshes far more often
 * at any speed from 1 Gb/s up) with no XON is the storm. Only on a device
 * that has sent XON before (its counter is not zero), so that silence
 * means something.
 */
#define XOFF_STORM_PER_S 10

static uint64_t et_value(const struct rctl_netdev *nd, enum rctl_crole role, int prio)
{
	const struct rctl_centry *e;
	uint64_t v = 0;
	uint32_t i;
	int p;

	for (i = 0; i < nd->n_stats; i++) {
		e = rctl_catalog_lookup_prio(nd->driver, RCTL_SRC_ETHTOOL, nd->stats[i].name, &p);
		if (e->role == role && p == prio)
			v += nd->stats[i].value;
	}
	return v;
}

static bool storm_by_xoff(struct rctl_judge *j, const struct rctl_target *t, bool sent)
{
	enum rctl_crole xoff = sent ? RCTL_ROLE_PFC_TX : RCTL_ROLE_PFC_RX;
	enum rctl_crole xon = sent ? RCTL_ROLE_XON_TX : RCTL_ROLE_XON_RX;
	double secs = j->h->sample_interval_s;
	char got[96], ev[160], msg[RCTL_FIELD_LEN * 2];
	uint64_t off, on;
	bool has_xon;
	int p;

	for (p = 0; p < 8; p++) {
		off = et_sum(t->nd, xoff, p, NULL, NULL, 0);
		on = et_sum(t->nd, xon, p, &has_xon, NULL, 0);
		if (!has_xon || on || !et_value(t->nd, xon, p) ||
		    (double)off < XOFF_STORM_PER_S * secs)
			continue;
		snprintf(got, sizeof(got), "prio %d: +%llu XOFF, +0 XON %s in %.1f s", p,
			 (unsigned long long)off, sent ? "sent" : "received", secs);
		snprintf(ev, sizeof(ev), "ethtool -S %s_priority_%d_xoff.nic/_xon.nic of '%s' "
			 "(ice has no pause duration counter)", sent ? "tx" : "rx", p, t->nd->name);
		snprintf(
			msg, sizeof(msg),
			sent ? "PFC pause storm: '%s' kept its peer paused on prio %d for the whole interval (XOFF refreshed, never an XON)" :
			       "'%s' was kept paused by its peer on prio %d for the whole interval: a pause storm upstream",
			t->nd->name, p);
		storm(j, t, sent ? RCTL_FAIL : RCTL_WARN, got, ev, msg);
		return true;
	}
	return false;
}

void rule_counters_pause_storm(struct rctl_judge *j, const struct rctl_target *t)
{
	char got[80];
	uint64_t w, e;

	w = et_sum(t->nd, RCTL_ROLE_STORM_WARN, -1, NULL, NULL, 0);
	e = et_sum(t->nd, RCTL_ROLE_STORM_ERR, -1, NULL, NULL, 0);
	if (!w && !e) {
		if (!storm_by_xoff(j, t, true) && !storm_by_xoff(j, t, false))
			storm_by_duration(j, t);
		return;
	}
	snprintf(got, sizeof(got), "+%llu warning, +%llu error events", (unsigned long long)w,
		 (unsigned long long)e);
	storm(j, t, e ? RCTL_FAIL : RCTL_WARN, got, "ethtool -S tx_pause_storm_*_events",
	      e ? "PFC pause storm: the device stalled and stopped sending pause, packets may drop" :
		  "the device is close to a PFC pause storm (it sent pause for too long)");
}

/*
 * Function counters once per port (on its first QoS target), port counters
 * on each netdev that carries the port: two findings, never one sum.
 */
void rule_counters_rx_discards(struct rctl_judge *j, const struct rctl_target *t)
{
	char got[80], which[200];
	uint64_t n;

	if (t->first && (n = function_discards(t, which, sizeof(which)))) {
		snprintf(got, sizeof(got), "+%llu discards (function)", (unsigned long long)n);
		rctl_say(
			j,
			&(struct rctl_say){ .status = RCTL_WARN,
					    .target = t->name,
					    .expected = "+0 discards",
					    .observed = got,
					    .evidence = which },
			"the RDMA function %s/%u dropped received RoCE packets (its own counters): "
			"check PFC on the RoCE prio and its buffer",
			t->dev->name, t->port->port);
	}
	which[0] = '\0';
	et_sum(t->nd, RCTL_ROLE_DISCARD, -1, NULL, which, sizeof(which));
	n = et_max(t->nd, RCTL_ROLE_DISCARD);
	if (!n)
		return;
	snprintf(got, sizeof(got), "at least +%llu discards (port)", (unsigned long long)n);
	rctl_say(j,
		 &(struct rctl_say){ .status = RCTL_WARN,
				     .target = t->name,
				     .expected = "+0 discards",
				     .observed = got,
				     .evidence = which },
		 "'%s' dropped received packets for lack of buffer (port counters: on NPAR "
		 "or multi-host adapters other functions' traffic too): check PFC on the "
		 "RoCE prio and its buffer",
		 t->nd->name);
}

void rule_counters_no_wqe(struct rctl_judge *j, const struct rctl_target *t)
{
	char got[32], which[200];
	uint64_t n;

	which[0] = '\0';
	n = hw_sum(t, RCTL_ROLE_NO_WQE, NULL, which, sizeof(which));
	if (!n)
		return;
	snprintf(got, sizeof(got), "+%llu", (unsigned long long)n);
	rctl_say(j,
		 &(struct rctl_say){ .status = RCTL_WARN,
				     .target = t->name,
				     .expected = "+0",
				     .observed = got,
				     .evidence = which },
		 "receivers had no WQE posted: an application problem, not the fabric");
}

void rule_counters_optional_cc(struct rctl_judge *j, const struct rctl_target *t)
{
	char fix[160];

	const struct rctl_port *p = t->port;

	if (!rctl_family_mlx5(rctl_family_of(t->dev, t->nd)) || !present(p, "rp_cnp_handled"))
		return;
	if (present(p, "cc_rx_cnp_pkts")) {
		rctl_pass(j, t, "enabled", "enabled", "optional congestion counters are enabled");
		return;
	}
	snprintf(
		fix, sizeof(fix),
		"rdma statistic set link %s/%u optional-counters cc_rx_ce_pkts,cc_rx_cnp_pkts,cc_tx_cnp_pkts",
		t->dev->name, p->port);
	rctl_say(j,
		 &(struct rctl_say){ .status = RCTL_PASS,
				     .target = t->name,
				     .expected = "enabled",
				     .observed = "not enabled",
				     .fix = fix },
		 "optional congestion counters are off: received CNPs are invisible (suggestion)");
}
