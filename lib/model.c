// SPDX-License-Identifier: GPL-2.0-or-later
/* Host model helpers: allocation, lookups, the RoCE MTU rule (model.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rocectl/model.h"

void *rctl_arr_push(void *arr_p, uint32_t *n, size_t elem)
{
	void **arr = arr_p;
	char *p = realloc(*arr, elem * (*n + 1));

	if (!p)
		return NULL;
	*arr = p;
	memset(p + elem * *n, 0, elem);
	return p + elem * (*n)++;
}

/* ---- the netdev index (model.h) --------------------------------------- */

static const struct rctl_netdev *sort_nd;

/* By name, then by position: equal names keep their order. */
static int by_name(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = strcmp(sort_nd[x].name, sort_nd[y].name);

	return c ? c : (x > y) - (x < y);
}

static int by_lower(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = strcmp(sort_nd[x].vlan_lower, sort_nd[y].vlan_lower);

	return c ? c : (x > y) - (x < y);
}

void rctl_host_index_free(struct rctl_host *h)
{
	free(h->idx_name);
	free(h->idx_vlan);
	h->idx_name = h->idx_vlan = NULL;
	h->idx_base = NULL;
	h->idx_n = h->n_idx_vlan = 0;
}

void rctl_host_index(struct rctl_host *h)
{
	uint32_t i, n = h->n_netdevs;

	rctl_host_index_free(h);
	if (!n)
		return;
	h->idx_name = malloc(n * sizeof(uint32_t));
	h->idx_vlan = malloc(n * sizeof(uint32_t));
	if (!h->idx_name || !h->idx_vlan) {
		rctl_host_index_free(h);
		return;
	}
	for (i = 0; i < n; i++) {
		h->idx_name[i] = i;
		if (!strcmp(h->netdevs[i].kind, "vlan"))
			h->idx_vlan[h->n_idx_vlan++] = i;
	}
	sort_nd = h->netdevs;
	qsort(h->idx_name, n, sizeof(uint32_t), by_name);
	qsort(h->idx_vlan, h->n_idx_vlan, sizeof(uint32_t), by_lower);
	h->idx_base = h->netdevs;
	h->idx_n = n;
}

static bool indexed(const struct rctl_host *h)
{
	return h->idx_name && h->idx_base == h->netdevs && h->idx_n == h->n_netdevs;
}

static const char *idx_key(const struct rctl_host *h, const uint32_t *idx, uint32_t i,
			   bool lower)
{
	const struct rctl_netdev *nd = &h->netdevs[idx[i]];

	return lower ? nd->vlan_lower : nd->name;
}

/* The first of idx[lo..hi) whose key is >= "key" (past_equal: > "key"). */
static uint32_t idx_bound(const struct rctl_host *h, const uint32_t *idx, uint32_t lo,
			  uint32_t hi, bool lower, const char *key, bool past_equal)
{
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = strcmp(idx_key(h, idx, mid, lower), key);

		if (c < 0 || (past_equal && !c))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The netdevs of idx[0..n) whose key (name or vlan_lower) is "key": the range
 * [*first, *first + return), found by two binary searches, so that a lookup
 * costs log n however many netdevs share the key.
 */
static uint32_t idx_range(const struct rctl_host *h, const uint32_t *idx, uint32_t n,
			  bool lower, const char *key, uint32_t *first)
{
	*first = idx_bound(h, idx, 0, n, lower, key, false);
	return idx_bound(h, idx, *first, n, lower, key, true) - *first;
}

struct rctl_netdev *rctl_host_netdev(const struct rctl_host *h, const char *name)
{
	uint32_t i;

	if (indexed(h)) {
		i = idx_bound(h, h->idx_name, 0, h->n_netdevs, false, name, false);
		return i < h->n_netdevs && !strcmp(idx_key(h, h->idx_name, i, false), name) ?
		       &h->netdevs[h->idx_name[i]] : NULL;
	}
	for (i = 0; i < h->n_netdevs; i++)
		if (!strcmp(h->netdevs[i].name, name))
			return &h->netdevs[i];
	return NULL;
}

struct rctl_device *rctl_host_dev(const struct rctl_host *h, const char *name)
{
	uint32_t i;

	for (i = 0; i < h->n_devs; i++)
		if (!strcmp(h->devs[i].name, name))
			return &h->devs[i];
	return NULL;
}

bool rctl_port_match(const char *f, const struct rctl_device *d,
		     const struct rctl_port *p)
{
	size_t n = strlen(d->name);
	char *end;

	if (!f || !strcmp(f, d->name) || (p->netdev[0] && !strcmp(f, p->netdev)))
		return true;
	return !strncmp(f, d->name, n) && f[n] == '/' && f[n + 1] &&
	       strtoul(f + n + 1, &end, 10) == p->port && !*end;
}

bool rctl_host_matches(const struct rctl_host *h, const char *filter)
{
	uint32_t i, j;

	for (i = 0; i < h->n_devs; i++)
		for (j = 0; j < h->devs[i].n_ports; j++)
			if (rctl_port_match(filter, &h->devs[i], &h->devs[i].ports[j]) ||
			    rctl_port_lag_slave(h, &h->devs[i].ports[j], filter))
				return true;
	return false;
}

const struct rctl_netdev *rctl_port_bond(const struct rctl_host *h, const struct rctl_port *p)
{
	const struct rctl_netdev *pnd = p->netdev[0] ? rctl_host_netdev(h, p->netdev) : NULL;

	return pnd ? rctl_bond_of(h, pnd) : NULL;
}

bool rctl_port_lag_slave(const struct rctl_host *h, const struct rctl_port *p, const char *name)
{
	const struct rctl_netdev *pnd = p->netdev[0] ? rctl_host_netdev(h, p->netdev) : NULL;
	const struct rctl_netdev *nd = name ? rctl_host_netdev(h, name) : NULL;
	const struct rctl_netdev *bond = pnd ? rctl_bond_of(h, pnd) : NULL;

	return bond && nd && nd != pnd && nd != bond && rctl_bond_of(h, nd) == bond &&
	       !rctl_port_netdev(h, name);
}

void rctl_host_unread(struct rctl_host *h, int errnum, const char *reason,
		      const char *fmt, ...)
{
	struct rctl_unread *u;
	va_list ap;

	u = rctl_arr_push(&h->unread, &h->n_unread, sizeof(*u));
	if (!u)
		return;
	va_start(ap, fmt);
	vsnprintf(u->what, sizeof(u->what), fmt, ap);
	va_end(ap);
	u->errnum = errnum < 0 ? -errnum : errnum;
	snprintf(u->reason, sizeof(u->reason), "%s", reason);
}

/*
 * iboe_get_mtu(): a RoCE packet carries GRH 40 + UDP 8 + BTH 12 + XRC 4 +
 * AtomicETH 28 + ICRC 4 = 96 bytes on top of the payload, and the payload
 * MTU is the largest IB MTU that fits (include/rdma/ib_addr.h).
 */
uint32_t rctl_roce_mtu_for(uint32_t netdev_mtu)
{
	static const uint32_t ib_mtus[] = { 4096, 2048, 1024, 512, 256 };
	uint32_t i;

	for (i = 0; i < sizeof(ib_mtus) / sizeof(ib_mtus[0]); i++)
		if (netdev_mtu >= ib_mtus[i] + 96)
			return ib_mtus[i];
	return 0;
}

bool rctl_cc_get(const struct rctl_cc *cc, const char *name, uint64_t *v)
{
	uint32_t i;

	if (!cc->st.ok)
		return false;
	for (i = 0; i < cc->n_params; i++)
		if (!strcmp(cc->params[i].name, name)) {
			*v = cc->params[i].value;
			return true;
		}
	return false;
}

void rctl_part_fail(struct rctl_part *p, int errnum, const char *reason)
{
	p->ok = false;
	p->err = errnum < 0 ? -errnum : errnum;
	snprintf(p->reason, sizeof(p->reason), "%s",
		 reason ? reason : strerror(p->err));
}

/*
 * ip_tos2prio[] of net/ipv4/route.c, indexed by IPTOS_TOS(tos) >> 1: the
 * TC_PRIO_* class of a ToS (BESTEFFORT 0, BULK 2, INTERACTIVE_BULK 4,
 * INTERACTIVE 6). rdma_cm turns the RoCE ToS into the VLAN PCP through it.
 */
uint32_t rctl_tos2priority(uint32_t tos)
{
	static const uint8_t tos2prio[16] = { 0, 0, 0, 0, 2, 2, 2, 2,
					      6, 6, 6, 6, 4, 4, 4, 4 };

	return tos2prio[(tos & 0x1e) >> 1];
}

const struct rctl_netdev *rctl_bond_of(const struct rctl_host *h,
				       const struct rctl_netdev *nd)
{
	const struct rctl_netdev *m;

	if (!strcmp(nd->kind, "bond"))
		return nd;
	m = nd->master[0] ? rctl_host_netdev(h, nd->master) : NULL;
	return m && !strcmp(m->kind, "bond") ? m : NULL;
}

bool rctl_roce_netdev(const struct rctl_host *h, const struct rctl_netdev *port_nd,
		      const char *name)
{
	const struct rctl_netdev *bond = rctl_bond_of(h, port_nd);
	const struct rctl_netdev *nd = rctl_host_netdev(h, name);

	if (!strcmp(name, port_nd->name) || (bond && !strcmp(name, bond->name)))
		return true;
	if (!nd || strcmp(nd->kind, "vlan"))
		return false;
	return !strcmp(nd->vlan_lower, port_nd->name) ||
	       (bond && !strcmp(nd->vlan_lower, bond->name));
}

int rctl_u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* Append idx[first..first+k) to out (room for them is there). */
static void add_range(uint32_t *out, uint32_t *n, const uint32_t *idx, uint32_t first,
		      uint32_t k)
{
	memcpy(out + *n, idx + first, k * sizeof(*out));
	*n += k;
}

/* With the index: the netdevs named as the port's netdev or bond, and the VLANs on either. */
static uint32_t *roce_netdevs_indexed(const struct rctl_host *h, const struct rctl_netdev *pnd,
				      uint32_t *n, int *err)
{
	const struct rctl_netdev *bond = rctl_bond_of(h, pnd);
	const char *names[2] = { pnd->name, bond ? bond->name : NULL };
	uint32_t f[4], k[4] = { 0 }, i, m = 0, *out;

	for (i = 0; i < 2 && names[i]; i++) {
		k[2 * i] = idx_range(h, h->idx_name, h->n_netdevs, false, names[i], &f[2 * i]);
		k[2 * i + 1] = idx_range(h, h->idx_vlan, h->n_idx_vlan, true, names[i], &f[2 * i + 1]);
	}
	out = malloc((k[0] + k[1] + k[2] + k[3] + 1) * sizeof(*out));
	if (!out) {
		*err = -ENOMEM;
		return NULL;
	}
	for (i = 0; i < 4; i++)
		if (k[i])
			add_range(out, &m, i % 2 ? h->idx_vlan : h->idx_name, f[i], k[i]);
	qsort(out, m, sizeof(*out), rctl_u32_cmp);
	for (i = 0, *n = 0; i < m; i++)	/* a bond that is the port's netdev comes twice */
		if (!*n || out[*n - 1] != out[i])
			out[(*n)++] = out[i];
	return out;
}

uint32_t *rctl_roce_netdevs(const struct rctl_host *h, const struct rctl_netdev *port_nd,
			    uint32_t *n, int *err)
{
	uint32_t i, *out;

	*n = 0;
	*err = 0;
	if (indexed(h))
		return roce_netdevs_indexed(h, port_nd, n, err);
	out = malloc((h->n_netdevs + 1) * sizeof(*out));
	if (!out) {
		*err = -ENOMEM;
		return NULL;
	}
	for (i = 0; i < h->n_netdevs; i++)
		if (rctl_roce_netdev(h, port_nd, h->netdevs[i].name))
			out[(*n)++] = i;
	return out;
}

bool rctl_port_netdev(const struct rctl_host *h, const char *name)
{
	uint32_t i, k;

	for (i = 0; i < h->n_devs; i++)
		for (k = 0; k < h->devs[i].n_ports; k++)
			if (!strcmp(h->devs[i].ports[k].netdev, name))
				return true;
	return false;
}

/* The port of "10.0.0.1:4420" or "[fe80::1]:4420": what follows the last ':'. */
static const char *ep_port(const char *ep)
{
	const char *c = strrchr(ep, ':');

	return c ? c + 1 : "";
}

bool rctl_res_cm_active(const struct rctl_rdma_res *r, const struct rctl_res_entry *e)
{
	uint32_t i;

	if (strcmp(e->kind, "cm_id") || strcmp(e->state, "CONNECT") || !e->dst[0])
		return false;
	for (i = 0; i < r->n_list; i++) {
		const struct rctl_res_entry *l = &r->list[i];

		if (!strcmp(l->kind, "cm_id") && !strcmp(l->state, "LISTEN") &&
		    !strcmp(l->dev, e->dev) && !strcmp(l->ps, e->ps) &&
		    !strcmp(ep_port(l->src), ep_port(e->src)))
			return false;
	}
	return true;
}

const struct rctl_tos_change *rctl_res_tos_change(const struct rctl_rdma_res *r, const char *dev,
						  uint32_t port)
{
	uint32_t i;

	for (i = 0; i < r->n_tos_changes; i++)
		if (r->tos_changes[i].port == port && !strcmp(r->tos_changes[i].dev, dev))
			return &r->tos_changes[i];
	return NULL;
}

const char *rctl_utc_time(uint64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M:%S UTC", &tm))
		snprintf(buf, len, "%llu", (unsigned long long)t);
	return buf;
}
