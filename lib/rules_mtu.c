// SPDX-License-Identifier: GPL-2.0-or-later
/* MTU rules (docs/roce-facts.md, "MTU"): active_mtu against the intent, oversize frames arriving. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/rules.h"

/*
 * rdma_cm takes the path MTU from the netdev of the source GID
 * (iboe_get_mtu(ndev->mtu) in cma_resolve_iboe_route()): a VLAN or bond with
 * a smaller MTU than the port's netdev bounds RoCE below active_mtu.
 */
static void mtu_uppers(struct rctl_judge *j, const struct rctl_target *t)
{
	const struct rctl_netdev *u;
	uint32_t want = j->in->mtu, i, n, *first;
	char exp[48], got[80], fix[96], name[RCTL_NAME_LEN * 2];
	int err;

	first = rctl_gid_uppers(t->port, false, &n, &err);
	if (err)
		j->r->oom = true;
	for (i = 0; i < n; i++) {
		u = rctl_host_netdev(j->h, t->port->gids[first[i]].netdev);
		if (!u)
			continue;
		snprintf(name, sizeof(name), "%s/%u (%s)", t->dev->name, t->port->port, u->name);
		snprintf(exp, sizeof(exp), "RoCE MTU %u", want);
		snprintf(got, sizeof(got), "mtu %u of '%s' (RoCE MTU %u)", u->mtu, u->name,
			 rctl_roce_mtu_for(u->mtu));
		if (rctl_roce_mtu_for(u->mtu) >= want) {
			rctl_say(j,
				 &(struct rctl_say){ .status = RCTL_PASS,
						     .target = name,
						     .expected = exp,
						     .observed = got },
				 "'%s' carries RoCE MTU %u", u->name, rctl_roce_mtu_for(u->mtu));
			continue;
		}
		snprintf(fix, sizeof(fix), "ip link set dev %s mtu %u", u->name, want + 96);
		rctl_say(j,
			 &(struct rctl_say){ .status = RCTL_FAIL,
					     .target = name,
					     .expected = exp,
					     .observed = got,
					     .evidence = "rdma_cm path MTU of its GIDs",
					     .fix = fix },
			 "the MTU %u of '%s' bounds RoCE on its GIDs to %u, below the intended %u",
			 u->mtu, u->name, rctl_roce_mtu_for(u->mtu), want);
	}
	free(first);
}

/*
 * irdma reports active_mtu = ib_mtu_int_to_enum(netdev->mtu), the netdev MTU
 * with no room for the RoCE headers (drivers/infiniband/hw/irdma/verbs.c
 * irdma_query_port(), Linux 5.14 to 6.15), where mlx5 and bnxt_re subtract
 * them (iboe_get_mtu()): a netdev MTU of 4150 shows 4096 while rdma_cm
 * resolves 2048 and a verbs QP at 4096 overflows the link. Judge the netdev
 * MTU there; true (and a finding) when it bounds RoCE below the intent.
 */
static bool irdma_mtu_short(struct rctl_judge *j, const struct rctl_target *t,
			    const char *exp, const char *got)
{
	enum rctl_family f = rctl_family_of(t->dev, t->nd);
	uint32_t want = j->in->mtu, roce;
	char fix[96];

	if (!t->nd || (f != RCTL_FAM_ICE && f != RCTL_FAM_ICE_OOT))
		return false;
	roce = rctl_roce_mtu_for(t->nd->mtu);
	if (t->port->active_mtu < want || roce >= want)
		return false;
	snprintf(fix, sizeof(fix), "ip link set dev %s mtu %u", t->nd->name, want + 96);
	rctl_say(j,
		 &(struct rctl_say){ .status = RCTL_FAIL,
				     .target = t->name,
				     .expected = exp,
				     .observed = got,
				     .evidence = "irdma_query_port(): active_mtu from the netdev MTU, "
						 "without the RoCE headers",
				     .fix = fix },
		 "irdma reports active_mtu %u, but the netdev MTU %u leaves room for RoCE MTU "
		 "%u only (what rdma_cm resolves): the netdev MTU must be at least %u",
		 t->port->active_mtu, t->nd->mtu, roce, want + 96);
	return true;
}

void rule_mtu_active(struct rctl_judge *j, const struct rctl_target *t)
{
	char exp[48], got[80], fix[96];
	uint32_t want = j->in->mtu;

	const struct rctl_port *p = t->port;

	snprintf(exp, sizeof(exp), "active_mtu %u", want);
	snprintf(got, sizeof(got), "active_mtu %u, netdev mtu %u, port max_mtu %u", p->active_mtu,
		 t->nd ? t->nd->mtu : 0, p->max_mtu);
	if (irdma_mtu_short(j, t, exp, got)) {
		/* said */
	} else if (!p->active_mtu) {
		rctl_say(j,
			 &(struct rctl_say){ .status = RCTL_UNKNOWN,
					     .target = t->name,
					     .expected = exp,
					     .observed = "unknown" },
			 "active_mtu of %s is unknown (verbs could not query the port)", t->name);
	} else if (p->active_mtu >= want) {
		rctl_pass(j, t, exp, got, "active_mtu %u", p->active_mtu);
	} else if (p->max_mtu && p->max_mtu < want) {
		rctl_say(j,
			 &(struct rctl_say){ .status = RCTL_WARN,
					     .target = t->name,
					     .expected = exp,
					     .observed = got },
			 "the port cannot reach RoCE MTU %u (max_mtu %u)", want, p->max_mtu);
	} else {
		fix[0] = '\0';
		if (t->nd)
			snprintf(fix, sizeof(fix), "ip link set dev %s mtu %u", t->nd->name,
				 want + 96);
		rctl_say(
			j,
			&(struct rctl_say){ .status = RCTL_FAIL,
					    .target = t->name,
					    .expected = exp,
					    .observed = got,
					    .fix = fix },
			"active_mtu %u is below the intended %u: the netdev MTU must be at least %u",
			p->active_mtu, want, want + 96);
	}
	mtu_uppers(j, t);
}

void rule_mtu_oversize(struct rctl_judge *j, const struct rctl_target *t)
{
	char got[64];
	uint64_t n;

	n = rctl_delta_of(t->nd->stats, t->nd->n_stats, "rx_oversize_pkts_phy") +
	    rctl_delta_of(t->nd->stats, t->nd->n_stats, "rx_out_of_range_len_phy");
	snprintf(got, sizeof(got), "+%llu oversize frames", (unsigned long long)n);
	if (!n)
		return;
	rctl_say(j,
		 &(struct rctl_say){
			 .status = RCTL_WARN,
			 .target = t->name,
			 .expected = "+0 oversize frames",
			 .observed = got,
			 .evidence = "ethtool -S rx_oversize_pkts_phy, rx_out_of_range_len_phy" },
		 "frames larger than the MTU of '%s' arrive: a peer's MTU is larger", t->nd->name);
}
