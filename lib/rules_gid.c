// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * GID rules (docs/roce-facts.md, "GID"): a RoCE v2 GID for every routable
 * address, IPv4 or IPv6, and its index. ib_core adds a RoCE v1 and a v2 GID
 * for every address of the netdev and its uppers (roce_gid_mgmt.c), and
 * rdma_cm resolves RoCE v2 over IPv6 as over IPv4 (cma.c): both are RoCE v2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rocectl/rules.h"

static const struct rctl_gid *v2_gid(const struct rctl_port *p, const char *ip)
{
	uint32_t i;

	for (i = 0; i < p->n_gids; i++)
		if (!strcmp(p->gids[i].type, "RoCE v2") && !strcmp(p->gids[i].ip, ip))
			return &p->gids[i];
	return NULL;
}

/* IPv4, or IPv6 beyond link-local (fe80::/10 GIDs exist on every port). */
static bool routable(const struct rctl_addr *a)
{
	if (!strcmp(a->family, "inet"))
		return true;
	return !strcmp(a->family, "inet6") && strncasecmp(a->ip, "fe8", 3) &&
	       strncasecmp(a->ip, "fe9", 3) && strncasecmp(a->ip, "fea", 3) &&
	       strncasecmp(a->ip, "feb", 3);
}

/*
 * The routable addresses RoCE of a port may use: those of its netdev, of the
 * bond above it (RoCE LAG) and of VLANs on either (rctl_roce_netdev()).
 * Calls fn for each; returns how many there were.
 */
static uint32_t for_each_addr(struct rctl_judge *j, const struct rctl_target *t,
			    void (*fn)(struct rctl_judge *, const struct rctl_target *,
				       const struct rctl_netdev *, const struct rctl_addr *))
{
	const struct rctl_host *h = j->h;
	uint32_t i, k, n, na = 0, *idx;
	int err;

	idx = rctl_roce_netdevs(h, t->nd, &n, &err);
	if (err)
		j->r->oom = true;
	for (i = 0; i < n; i++) {
		const struct rctl_netdev *nd = &h->netdevs[idx[i]];

		for (k = 0; k < nd->n_addrs; k++) {
			if (!routable(&nd->addrs[k]))
				continue;
			na++;
			fn(j, t, nd, &nd->addrs[k]);
		}
	}
	free(idx);
	return na;
}

static void no_v2_one(struct rctl_judge *j, const struct rctl_target *t,
		      const struct rctl_netdev *nd, const struct rctl_addr *a)
{
	char exp[80], ev[200];

	snprintf(exp, sizeof(exp), "a RoCE v2 GID for %s", a->ip);
	snprintf(ev, sizeof(ev), "%u GIDs on %s", t->port->n_gids, t->name);
	if (v2_gid(t->port, a->ip))
		rctl_pass_ev(j, t, exp, "present", ev, "%s on '%s' has a RoCE v2 GID", a->ip,
			     nd->name);
	else
		rctl_say(j,
			 &(struct rctl_say){ .status = RCTL_FAIL,
					     .target = t->name,
					     .expected = exp,
					     .observed = "none",
					     .evidence = ev },
			 "%s on '%s' has no RoCE v2 GID: RoCE v2 to this address cannot work",
			 a->ip, nd->name);
}

void rule_gid_no_v2(struct rctl_judge *j, const struct rctl_target *t)
{
	if (!for_each_addr(j, t, no_v2_one))
		rctl_say(j,
			 &(struct rctl_say){ .status = RCTL_WARN,
					     .target = t->name,
					     .expected = "an IPv4 or IPv6 address",
					     .observed = "link-local only" },
			 "'%s' has no IPv4 or routable IPv6 address (nor a VLAN "
			 "or bond above it): there is no routable RoCE v2 GID to use",
			 t->nd->name);
}

static void index_one(struct rctl_judge *j, const struct rctl_target *t,
		      const struct rctl_netdev *nd, const struct rctl_addr *a)
{
	const struct rctl_gid *g = v2_gid(t->port, a->ip);
	char got[64];

	if (!g)
		return;
	snprintf(got, sizeof(got), "index %u", g->index);
	rctl_pass_ev(j, t, "looked up, never hard-coded", got, g->gid,
		     "RoCE v2 GID of %s is index %u", g->ip, g->index);
}

void rule_gid_index(struct rctl_judge *j, const struct rctl_target *t)
{
	for_each_addr(j, t, index_one);
}
