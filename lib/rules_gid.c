// SPDX-License-Identifier: GPL-2.0-or-later
/* GID rules (docs/roce-facts.md, "GID"): a RoCE v2 GID for every IPv4 address, and its index. */
#include <stdio.h>
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

void rule_gid_no_v2(struct rctl_judge *j)
{
	struct rctl_target t;
	char exp[80], ev[200];
	uint32_t i, n4;

	FOR_TARGETS(j, t) {
		for (i = n4 = 0; i < t.nd->n_addrs; i++) {
			const struct rctl_addr *a = &t.nd->addrs[i];

			if (!is_v4(a))
				continue;
			n4++;
			snprintf(exp, sizeof(exp), "a RoCE v2 GID for %s", a->ip);
			snprintf(ev, sizeof(ev), "%u GIDs on %s", t.port->n_gids, t.name);
			if (v2_gid(t.port, a->ip))
				rctl_emit(j, RCTL_PASS, t.name, exp, "present", ev, NULL,
					  "%s has a RoCE v2 GID", a->ip);
			else
				rctl_emit(j, RCTL_FAIL, t.name, exp, "none", ev, NULL,
					  "%s on '%s' has no RoCE v2 GID: RoCE v2 to this address cannot work",
					  a->ip, t.nd->name);
		}
		if (!n4)
			rctl_emit(j, RCTL_WARN, t.name, "an IPv4 address", "none", NULL, NULL,
				  "'%s' has no IPv4 address: there is no RoCE v2 IPv4 GID to use",
				  t.nd->name);
	}
}

void rule_gid_index(struct rctl_judge *j)
{
	struct rctl_target t;
	const struct rctl_gid *g;
	char got[64];
	uint32_t i;

	FOR_TARGETS(j, t) {
		for (i = 0; i < t.nd->n_addrs; i++) {
			if (!is_v4(&t.nd->addrs[i]))
				continue;
			g = v2_gid(t.port, t.nd->addrs[i].ip);
			if (!g)
				continue;
			snprintf(got, sizeof(got), "index %u", g->index);
			rctl_emit(j, RCTL_PASS, t.name, "looked up, never hard-coded", got,
				  g->gid, NULL, "RoCE v2 GID of %s is index %u", g->ip, g->index);
		}
	}
}
