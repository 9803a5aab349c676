// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The netdev index and the one-pass GID uppers (lib/model.c, lib/rules.c):
 * with the index the lookups answer what the scans answered (bench/rules.sh
 * shows the time; a unit test cannot tell O(n log n) from O(n^2)).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rocectl/model.h"
#include "rocectl/rules.h"

static void add_nd(struct rctl_host *h, const char *name, const char *kind,
		   const char *lower, const char *master)
{
	struct rctl_netdev *nd = rctl_arr_push(&h->netdevs, &h->n_netdevs, sizeof(*nd));

	assert_non_null(nd);
	snprintf(nd->name, sizeof(nd->name), "%s", name);
	snprintf(nd->kind, sizeof(nd->kind), "%s", kind);
	snprintf(nd->vlan_lower, sizeof(nd->vlan_lower), "%s", lower);
	snprintf(nd->master, sizeof(nd->master), "%s", master);
}

/* A host of bonds, slaves, VLANs on both, and unrelated netdevs, in mixed order. */
static void make_host(struct rctl_host *h)
{
	memset(h, 0, sizeof(*h));
	add_nd(h, "eth9.7", "vlan", "eth9", "");
	add_nd(h, "bond0", "bond", "", "");
	add_nd(h, "eth1", "", "", "bond0");
	add_nd(h, "eth0", "", "", "bond0");
	add_nd(h, "bond0.100", "vlan", "bond0", "");
	add_nd(h, "eth0.5", "vlan", "eth0", "");
	add_nd(h, "eth9", "", "", "");
	add_nd(h, "eth1.5", "vlan", "eth1", "");
	add_nd(h, "bond0.200", "vlan", "bond0", "");
	add_nd(h, "eth0", "", "", "");		/* a name twice: the first wins */
	add_nd(h, "lo", "", "", "");
}

static void test_lookups_agree(void **state)
{
	struct rctl_host h;
	uint32_t i, k, n1, n2, *a, *b;
	int err;
	struct rctl_netdev *scan[16];

	make_host(&h);
	for (i = 0; i < h.n_netdevs; i++)
		scan[i] = rctl_host_netdev(&h, h.netdevs[i].name);
	assert_ptr_equal(scan[9], &h.netdevs[3]);
	for (i = 0; i < h.n_netdevs; i++) {
		a = rctl_roce_netdevs(&h, &h.netdevs[i], &n1, &err);
		assert_int_equal(err, 0);
		rctl_host_index(&h);
		assert_ptr_equal(rctl_host_netdev(&h, h.netdevs[i].name), scan[i]);
		b = rctl_roce_netdevs(&h, &h.netdevs[i], &n2, &err);
		assert_int_equal(err, 0);
		assert_int_equal(n1, n2);
		for (k = 0; k < n1; k++)
			assert_int_equal(a[k], b[k]);
		free(a);
		free(b);
		rctl_host_index_free(&h);
	}
	rctl_host_index(&h);
	assert_null(rctl_host_netdev(&h, "eth7"));
	assert_null(rctl_host_netdev(&h, ""));
	/* bond0's RoCE netdevs: itself, its VLANs, in the array's order */
	b = rctl_roce_netdevs(&h, &h.netdevs[1], &n2, &err);
	assert_int_equal(n2, 3);
	assert_int_equal(b[0], 1);
	assert_int_equal(b[1], 4);
	assert_int_equal(b[2], 8);
	free(b);
	/* a netdev pushed after the index: the index no longer answers */
	add_nd(&h, "eth7", "", "", "");
	assert_ptr_equal(rctl_host_netdev(&h, "eth7"), &h.netdevs[h.n_netdevs - 1]);
	rctl_host_free(&h);
}

static void add_gid(struct rctl_port *p, const char *ip, const char *type, const char *nd)
{
	struct rctl_gid *g = rctl_arr_push(&p->gids, &p->n_gids, sizeof(*g));

	assert_non_null(g);
	g->index = p->n_gids - 1;
	snprintf(g->ip, sizeof(g->ip), "%s", ip);
	snprintf(g->type, sizeof(g->type), "%s", type);
	snprintf(g->netdev, sizeof(g->netdev), "%s", nd);
}

static void test_gid_uppers(void **state)
{
	static const char *const nds[] = { "eth0", "eth0.5", "bond0", "eth0.7", "eth0.5" };
	static const char *const ips[] = { "fe80::1", "10.0.0.1", "fe80::2", "10.0.0.2" };
	struct rctl_host h = { 0 };
	struct rctl_port p = { 0 };
	uint32_t i, n, m, *u;
	bool routable;
	int err;

	snprintf(p.netdev, sizeof(p.netdev), "eth0");
	for (i = 0; i < 60; i++)
		add_gid(&p, ips[(i * 7) % 4], i % 3 ? "RoCE v2" : "RoCE v1", nds[(i * 5 + i / 7) % 5]);
	for (i = 0; i < 5; i++)
		add_nd(&h, nds[i], "vlan", "eth0", "");
	for (routable = false; ; routable = true) {
		u = rctl_gid_uppers(&p, routable, &n, &err);
		assert_int_equal(err, 0);
		for (i = 0, m = 0; i < p.n_gids; i++) {
			if (!rctl_gid_upper(&h, &p, i, routable))
				continue;
			assert_true(m < n);
			assert_int_equal(u[m++], i);
		}
		assert_int_equal(m, n);
		assert_true(n >= 3);
		free(u);
		if (routable)
			break;
	}
	free(p.gids);
	rctl_host_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookups_agree),
		cmocka_unit_test(test_gid_uppers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
