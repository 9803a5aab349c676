// SPDX-License-Identifier: GPL-2.0-or-later
/* GID rules (docs/roce-facts.md, "GID"): a RoCE v2 GID for every IPv4 address, and its index. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/rules.h"

#define FOR_TARGETS(j, t)                                                     \
	for (uint32_t di_ = 0, pi_ = 0; rctl_target_next(j, &t, &di_, &pi_);) \
		if (t.nd)

static const struct rctl_gid *v2_gid(const struct rctl_port *p, const char *ip)
{
	uint32_t i;

	for (i = 0; i < p->n_gids; i++)
		if (!strcmp(p->gids[i].type, "RoCE v2") && !strcmp(p->gids[i].ip, ip))
			return &p->gids[i];
	return NULL;
}

static bool is_v4(const struct rctl_addr *a)
{
	return !strcmp(a->family, "inet");
}

/*
 * The IPv4 addresses RoCE of a port may use: those of its netdev, of the
 * bond above it (RoCE LAG) and of VLANs on either (rctl_roce_netdev()).
 * Calls fn for each; returns how many there were.
 */
static uint32_t for_each_v4(struct rctl_judge *j, const struct rctl_target *t,
			    void (*fn)(struct rctl_judge *, const struct rctl_target *,
				       const struct rctl_netdev *, const struct rctl_addr *))
{
	const struct rctl_host *h = j->h;
	uint32_t i, k, n, n4 = 0, *idx;
	int err;

	idx = rctl_roce_netdevs(h, t->nd, &n, &err);
	if (err)
		j->r->oom = true;
	for (i = 0; i < n; i++) {
		const struct rctl_netdev *nd = &h->netdevs[idx[i]];

		for (k = 0; k < nd->n_addrs; k++) {
			if (!is_v4(&nd->addrs[k]))
				continue;
			n4++;
			fn(j, t, nd, &nd->addrs[k]);
		}
	}
	free(idx);
	return n4;
}

static void no_v2_one(struct rctl_judge *j, const struct rctl_target *t,
		      const struct rctl_netdev *nd, const struct rctl_addr *a)
{
	char exp[80], ev[200];

	snprintf(exp, sizeof(exp), "a RoCE v2 GID for %s", a->ip);
	snprintf(ev, sizeof(ev), "%u GIDs on %s", t->port->n_gids, t->name);
	if (v2_gid(t->port, a->ip))
		rctl_emit(j, RCTL_PASS, t->name, exp, "present", ev, NULL,
			  "%s on '%s' has a RoCE v2 GID", a->ip, nd->name);
	else
		rctl_emit(j, RCTL_FAIL, t->name, exp, "none", ev, NULL,
			  "%s on '%s' has no RoCE v2 GID: RoCE v2 to this address cannot work",
			  a->ip, nd->name);
}

void rule_gid_no_v2(struct rctl_judge *j)
{
	struct rctl_target t;

	FOR_TARGETS(j, t) {
		if (!for_each_v4(j, &t, no_v2_one))
			rctl_emit(j, RCTL_WARN, t.name, "an IPv4 address", "none", NULL, NULL,
				  "'%s' has no IPv4 address (nor a VLAN or bond above it): there is no RoCE v2 IPv4 GID to use",
				  t.nd->name);
	}
}

static void index_one(struct rctl_judge *j, const struct rctl_target *t,
		      const struct rctl_netdev *nd, const struct rctl_addr *a)
{
	const struct rctl_gid *g = v2_gid(t->port, a->ip);
	char got[64];

	if (!g)
		return;
	snprintf(got, sizeof(got), "index %u", g->index);
	rctl_emit(j, RCTL_PASS, t->name, "looked up, never hard-coded", got, g->gid, NULL,
		  "RoCE v2 GID of %s is index %u", g->ip, g->index);
}

void rule_gid_index(struct rctl_judge *j)
{
	struct rctl_target t;

	FOR_TARGETS(j, t)
		for_each_v4(j, &t, index_one);
}
