// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Traffic rules from counters: is RoCE on its lossless priority? Over the
 * sampling interval, the RoCE packets the port sent and received (the RDMA
 * function's counters) against the packets of each priority (the port's
 * per-priority counters), one direction at a time. The catalogue
 * (lib/catalog.c) says which counter is which per driver; docs/roce-facts.md
 * ("traffic") gives the sources and the thresholds' reasons.
 */
#include <stdio.h>
#include <string.h>

#include "rocectl/catalog.h"
#include "rocectl/rules.h"

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/* At least half: the larger count is roce - roce / 2, and no overflow. */
static bool half_of(uint64_t part, uint64_t roce)
{
	return part >= roce - roce / 2;
}

enum rctl_share_verdict rctl_share_judge(const struct rctl_prio_share *s, int prio, int *top)
{
	uint64_t others = 0, best = 0;
	int q;

	*top = -1;
	if (!s->has_prio)
		return RCTL_SHARE_NO_COUNTER;
	if (s->roce < RCTL_SHARE_MIN_PKTS)
		return RCTL_SHARE_FEW;
	for (q = 0; q < 8; q++) {
		if (q == prio)
			continue;
		others = sat_add(others, s->prio[q]);
		if (*top < 0 || s->prio[q] > best) {
			best = s->prio[q];
			*top = q;
		}
	}
	if (half_of(s->prio[prio], s->roce))
		return RCTL_SHARE_ON;
	/*
	 * The RoCE counters counted packets that no priority of the port
	 * carried: looped back inside the adapter, or a counter of another
	 * scope. Where they went is not known.
	 */
	return half_of(others, s->roce) ? RCTL_SHARE_OFF : RCTL_SHARE_UNPLACED;
}

/*
 * The netdevs whose counters count the port's traffic: "own" (the port's
 * netdev for RoCE packets, the target's for per-priority ones: a VF's PF)
 * and, under RoCE LAG, every slave of the bond: a QP's packets leave by
 * either port, so only the sums over all of them compare.
 */
static bool counts_port(const struct rctl_judge *j, const struct rctl_target *t,
			const struct rctl_netdev *own, const struct rctl_netdev *nd)
{
	return nd == own || rctl_port_lag_slave(j->h, t->port, nd->name);
}

/* Sum of the ethtool deltas of "role" (priority prio, or -1) over those netdevs. */
static uint64_t et_role(const struct rctl_judge *j, const struct rctl_target *t,
			const struct rctl_netdev *own, enum rctl_crole role, int prio, bool *found)
{
	const struct rctl_netdev *nd;
	uint64_t sum = 0;
	uint32_t i, n;
	bool f;

	*found = false;
	/* Without RoCE LAG only "own" counts: no walk over every netdev. */
	n = rctl_port_bond(j->h, t->port) ? j->h->n_netdevs : 0;
	if (!n && own && !own->stats_err)
		return rctl_catalog_sum(own->driver, RCTL_SRC_ETHTOOL, role, prio, own->stats,
					own->n_stats, found, NULL, 0);
	for (i = 0; i < n; i++) {
		nd = &j->h->netdevs[i];
		if (!counts_port(j, t, own, nd) || nd->stats_err)
			continue;
		sum = sat_add(sum, rctl_catalog_sum(nd->driver, RCTL_SRC_ETHTOOL, role, prio,
						    nd->stats, nd->n_stats, &f, NULL, 0));
		*found |= f;
	}
	return sum;
}

static uint64_t hw_role(const struct rctl_target *t, enum rctl_crole role, bool *found)
{
	return rctl_catalog_sum(t->dev->driver, RCTL_SRC_HW, role, -1, t->port->hw, t->port->n_hw,
				found, NULL, 0);
}

/*
 * RoCE packets of one direction: the port netdev's ethtool (mlx5's vport
 * RDMA counters: the same netdevs as the priority counters), else the
 * RDMA device's hw_counters (bnxt_re, irdma), else the IB PMA. CNPs leave
 * and arrive on the CNP priority, so where that is another priority they
 * are taken out (bnxt_re's rx/tx_pkts hold them; where a counter does not,
 * taking them out only makes a failure less likely). *src names the counter.
 */
static bool roce_packets(const struct rctl_judge *j, const struct rctl_target *t, bool tx,
			 uint64_t *n, const char **src)
{
	enum rctl_crole role = tx ? RCTL_ROLE_TX_PKTS : RCTL_ROLE_RX_PKTS;
	const struct rctl_port *p = t->port;
	uint64_t cnp;
	bool found, f2;

	*src = "ethtool -S";
	*n = et_role(j, t, p->netdev[0] ? rctl_host_netdev(j->h, p->netdev) : NULL, role, -1,
		     &found);
	if (!found && !p->hw_err) {
		*src = "hw_counters";
		*n = hw_role(t, role, &found);
	}
	if (!found) {
		*src = "PMA counters";
		*n = rctl_catalog_sum("*", RCTL_SRC_PMA, role, -1, p->pma, p->n_pma, &found, NULL,
				      0);
	}
	if (!found || j->in->cnp_prio == j->in->prio || p->hw_err)
		return found;
	if (tx) {
		cnp = hw_role(t, RCTL_ROLE_CNP_SENT, &f2);
	} else {
		cnp = hw_role(t, RCTL_ROLE_CNP_RCVD, &f2);
		if (!f2)
			cnp = sat_add(hw_role(t, RCTL_ROLE_CNP_HANDLED, &f2),
				      hw_role(t, RCTL_ROLE_CNP_IGNORED, &f2));
	}
	*n -= cnp < *n ? cnp : *n;
	return true;
}

struct dir {
	const char *name; /* "received", "sent" */
	struct rctl_prio_share s;
	const char *src;
	bool counted; /* a RoCE packet counter exists */
	enum rctl_share_verdict v;
	int top;
};

static void measure(const struct rctl_judge *j, const struct rctl_target *t, bool tx, struct dir *d)
{
	enum rctl_crole role = tx ? RCTL_ROLE_PRIO_TX_PKTS : RCTL_ROLE_PRIO_RX_PKTS;
	bool found;
	int q;

	memset(d, 0, sizeof(*d));
	d->name = tx ? "sent" : "received";
	d->counted = roce_packets(j, t, tx, &d->s.roce, &d->src);
	for (q = 0; q < 8; q++) {
		d->s.prio[q] = et_role(j, t, t->nd, role, q, &found);
		d->s.has_prio |= found;
	}
	d->v = d->counted ? rctl_share_judge(&d->s, j->in->prio, &d->top) : RCTL_SHARE_NO_COUNTER;
}

/* "rx: 1075200 RoCE (ethtool -S), 1075200 on prio 3, 401 on prio 0" */
static int dir_text(const struct dir *d, int prio, char *buf, size_t len)
{
	if (!d->counted)
		return snprintf(buf, len, "%s: no RoCE packet counter", d->name);
	if (!d->s.has_prio)
		return snprintf(buf, len, "%s: %llu RoCE (%s), no per-priority counter", d->name,
				(unsigned long long)d->s.roce, d->src);
	return snprintf(buf, len, "%s: %llu RoCE (%s), %llu on prio %d, %llu on prio %d", d->name,
			(unsigned long long)d->s.roce, d->src, (unsigned long long)d->s.prio[prio],
			prio, d->top < 0 ? 0ULL : (unsigned long long)d->s.prio[d->top],
			d->top < 0 ? 0 : d->top);
}

static void evidence(const struct rctl_judge *j, const struct dir d[2], char *buf, size_t len)
{
	int n = j->in->cnp_prio == j->in->prio ?
			snprintf(buf, len, "over %.1f s: ", j->h->sample_interval_s) :
			snprintf(buf, len,
				 "over %.1f s, CNPs (prio %d) left out: ", j->h->sample_interval_s,
				 j->in->cnp_prio);

	if (n < 0 || (size_t)n >= len)
		return;
	n += dir_text(&d[0], j->in->prio, buf + n, len - n);
	if (n < 0 || (size_t)n >= len)
		return;
	n += snprintf(buf + n, len - n, "; ");
	if (n >= 0 && (size_t)n < len)
		dir_text(&d[1], j->in->prio, buf + n, len - n);
}

/*
 * The driver lacks a counter: unknown, naming the one missing. ice counts
 * PFC frames per priority (rx_priority_#_xoff.nic) but no packets per
 * priority or TC (drivers/net/ethernet/intel/ice/ice_ethtool.c,
 * ice_gstrings_pf_stats): its RoCE share cannot be measured, and a host
 * whose RoCE may be on priority 0 must not pass for it.
 */
static void not_measurable(struct rctl_judge *j, const struct rctl_target *t, const char *ev,
			   const struct dir d[2], const char *exp)
{
	const char *drv = t->nd->driver[0] ? t->nd->driver : "its driver";
	const char *c = rctl_catalog_role_counter(t->nd->driver, RCTL_SRC_ETHTOOL,
						  RCTL_ROLE_PRIO_RX_PKTS);
	const char *pfc = rctl_catalog_role_counter(t->nd->driver, RCTL_SRC_ETHTOOL,
						    RCTL_ROLE_PFC_RX);
	char why[192];

	if (d[0].s.has_prio || d[1].s.has_prio)
		snprintf(why, sizeof(why), "%s has no RoCE packet counter (hw_counters, PMA)",
			 t->name);
	else if (c)
		snprintf(why, sizeof(why), "'%s' (%s) shows no %s in ethtool -S", t->nd->name, drv,
			 c);
	else if (pfc)
		snprintf(why, sizeof(why), "%s counts no packets per priority (only PFC frames: %s)",
			 drv, pfc);
	else
		snprintf(why, sizeof(why), "%s counts no packets per priority", drv);
	rctl_say(j,
		 &(struct rctl_say){ .status = RCTL_UNKNOWN,
				     .target = t->name,
				     .expected = exp,
				     .observed = "not measurable",
				     .evidence = ev },
		 "which priority RoCE used cannot be measured: %s", why);
}

/*
 * A driver the catalogue knows to count PFC frames per priority but no
 * packets per priority (ice: ice_gstrings_pf_stats, ice_ethtool.c) can never
 * say where RoCE went: a documented driver limit (rctl_rules' .cause), not a
 * fault of the host. A driver the catalogue does not know stays unknown.
 */
bool rctl_prio_share_unmeasurable(const struct rctl_target *t)
{
	const char *drv = t->nd ? t->nd->driver : "";

	return drv[0] && !rctl_catalog_role_counter(drv, RCTL_SRC_ETHTOOL, RCTL_ROLE_PRIO_RX_PKTS) &&
	       rctl_catalog_role_counter(drv, RCTL_SRC_ETHTOOL, RCTL_ROLE_PFC_RX);
}

void rule_traffic_lossless_share(struct rctl_judge *j, const struct rctl_target *t)
{
	char exp[48], got[96], ev[RCTL_FIELD_LEN * 2];
	int p = j->in->prio, w;
	struct dir d[2];

	if (!j->in->pfc || !t->first)
		return;
	measure(j, t, false, &d[0]);
	measure(j, t, true, &d[1]);
	evidence(j, d, ev, sizeof(ev));
	snprintf(exp, sizeof(exp), "RoCE on prio %d", p);
	if (d[0].v == RCTL_SHARE_NO_COUNTER && d[1].v == RCTL_SHARE_NO_COUNTER) {
		not_measurable(j, t, ev, d, exp);
		return;
	}
	/* The direction that says most: a failure, then an unknown, then the larger. */
	w = d[1].v > d[0].v || (d[1].v == d[0].v && d[1].s.roce > d[0].s.roce);
	if (d[w].v == RCTL_SHARE_OFF) {
		snprintf(got, sizeof(got), "%llu of %llu on prio %d",
			 (unsigned long long)d[w].s.prio[p], (unsigned long long)d[w].s.roce, p);
		rctl_say(j,
			 &(struct rctl_say){ .status = RCTL_FAIL,
					     .target = t->name,
					     .expected = exp,
					     .observed = got,
					     .evidence = ev },
			 "RoCE traffic is not on priority %d: %llu RoCE packets %s, %llu on "
			 "priority %d, %llu on priority %d",
			 p, (unsigned long long)d[w].s.roce, d[w].name,
			 (unsigned long long)d[w].s.prio[p], p,
			 (unsigned long long)d[w].s.prio[d[w].top], d[w].top);
	} else if (d[w].v == RCTL_SHARE_UNPLACED) {
		rctl_say(j,
			 &(struct rctl_say){ .status = RCTL_UNKNOWN,
					     .target = t->name,
					     .expected = exp,
					     .observed = "unknown",
					     .evidence = ev },
			 "cannot place RoCE traffic: %llu RoCE packets %s, but no priority of the "
			 "port carried half as many (looped back inside the adapter, or counters "
			 "of another scope)",
			 (unsigned long long)d[w].s.roce, d[w].name);
	} else if (d[w].v == RCTL_SHARE_ON) {
		snprintf(got, sizeof(got), "%llu of %llu on prio %d",
			 (unsigned long long)d[w].s.prio[p], (unsigned long long)d[w].s.roce, p);
		rctl_pass_ev(j, t, exp, got, ev, "RoCE traffic is on priority %d", p);
	} else {
		rctl_pass_ev(j, t, exp, "too little RoCE traffic", ev,
			     "fewer than %u RoCE packets each way over %.1f s: not judged",
			     RCTL_SHARE_MIN_PKTS, j->h->sample_interval_s);
	}
}
