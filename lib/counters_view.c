// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The counters view: every counter of a port and of its netdev with what the
 * catalogue says about it (lib/catalog.c), in the order problems first, which
 * rows a view shows, and the Prometheus mapping of the same rows (one unit
 * per family). rocectl counters prints it; nothing here prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/counters_view.h"

/* Problems first: the order groups are shown in. */
static const enum rctl_cgroup group_order[] = {
	RCTL_CG_LOSS, RCTL_CG_CONGESTION, RCTL_CG_PFC, RCTL_CG_BUFFER, RCTL_CG_LINK,
	RCTL_CG_PCIE, RCTL_CG_APPLICATION, RCTL_CG_TRAFFIC, RCTL_CG_OTHER,
};

bool rctl_counter_moved(const struct rctl_counter *c)
{
	return c->has_delta ? c->delta > 0 : c->value > 0;
}

/* Growth of a counter whose growth is bad: the mark people look for. */
bool rctl_crow_problem(const struct rctl_crow *r)
{
	return r->ce->bad && rctl_counter_moved(r->c);
}

/* Text hides zero counters that are not error counters; JSON and Prometheus do not. */
bool rctl_crow_shown(const struct rctl_crow *r, const struct rctl_cview *v, bool text)
{
	if (v->has_group && v->group != (int)r->ce->group)
		return false;
	if (v->nonzero)
		return rctl_counter_moved(r->c);
	if (v->all || !text)
		return true;
	return rctl_counter_moved(r->c) || r->ce->bad;
}

static void rows_add(struct rctl_crow *rows, uint32_t *n, const struct rctl_counter *c,
		     uint32_t nc, const char *driver, enum rctl_csrc src, const char *name)
{
	uint32_t i;

	for (i = 0; i < nc; i++)
		rows[(*n)++] = (struct rctl_crow){ &c[i], rctl_catalog_lookup(driver, src, c[i].name), name };
}

/* Every counter of a port and its netdev, grouped in group_order. */
struct rctl_crow *rctl_port_rows(const struct rctl_host *h, const struct rctl_device *d,
				 const struct rctl_port *p, uint32_t *n)
{
	const struct rctl_netdev *nd = rctl_host_netdev(h, p->netdev);
	uint32_t all = p->n_hw + p->n_pma + (nd ? nd->n_stats + nd->pause_stats.n : 0), k = 0, i, g;
	struct rctl_crow *tmp = calloc(all + 1, sizeof(*tmp)), *rows = calloc(all + 1, sizeof(*rows));

	*n = 0;
	if (!tmp || !rows) {
		free(tmp);
		free(rows);
		return NULL;
	}
	rows_add(tmp, &k, p->hw, p->n_hw, d->driver, RCTL_SRC_HW, "hw");
	rows_add(tmp, &k, p->pma, p->n_pma, d->driver, RCTL_SRC_PMA, "pma");
	if (nd) {
		rows_add(tmp, &k, nd->stats, nd->n_stats, nd->driver, RCTL_SRC_ETHTOOL, "ethtool");
		rows_add(tmp, &k, nd->pause_stats.c, nd->pause_stats.n, nd->driver,
			 RCTL_SRC_PAUSE, "pause");
	}
	for (g = 0; g < sizeof(group_order) / sizeof(group_order[0]); g++)
		for (i = 0; i < k; i++)
			if (tmp[i].ce->group == group_order[g])
				rows[(*n)++] = tmp[i];
	free(tmp);
	return rows;
}

/* ---- Prometheus ------------------------------------------------------ */

static void prom_port_info(struct rctl_prom *pr, const struct rctl_host *h, const char *filter)
{
	char port[16], mtu[16];
	uint32_t i, j;

	rctl_prom_family(pr, "rocectl_port_info", "gauge",
			 "RDMA port: 1, with its state, driver and netdev as labels");
	for (i = 0; i < h->n_devs; i++)
		for (j = 0; j < h->devs[i].n_ports; j++) {
			const struct rctl_device *d = &h->devs[i];
			const struct rctl_port *p = &d->ports[j];
			struct rctl_prom_label l[] = {
				{ "device", d->name }, { "port", port }, { "driver", d->driver },
				{ "netdev", p->netdev }, { "state", p->state },
				{ "active_mtu", mtu },
			};

			if (!rctl_port_match(filter, d, p))
				continue;
			snprintf(port, sizeof(port), "%u", p->port);
			snprintf(mtu, sizeof(mtu), "%u", p->active_mtu);
			rctl_prom_u64(pr, l, 6, 1);
		}
}

/*
 * The IB PMA data counters count 4-byte words ("octets divided by 4", the
 * kernel's Documentation/ABI/stable/sysfs-class-infiniband): they are
 * exported in bytes, in their own family.
 */
static bool pma_words(const char *name)
{
	return !strcmp(name, "port_rcv_data") || !strcmp(name, "port_xmit_data");
}

/* Every port that matches, with its counters of source "src". */
#define FOR_PORTS(h, filter, d, p, i, j)					\
	for (i = 0; i < (h)->n_devs; i++)					\
		for (j = 0; j < (h)->devs[i].n_ports; j++)			\
			if ((d = &(h)->devs[i]), (p = &d->ports[j]),		\
			    rctl_port_match(filter, d, p))

/*
 * hw_counters and the PMA counters other than the data words: event and
 * packet counts, one family per source; the "counter" label names them.
 */
static void prom_counters(struct rctl_prom *pr, const struct rctl_host *h,
			  const char *filter, const struct rctl_cview *v, enum rctl_csrc src)
{
	const struct rctl_device *d;
	const struct rctl_port *p;
	char port[16];
	uint32_t i, j, k;

	if (src == RCTL_SRC_HW)
		rctl_prom_family(pr, "rocectl_rdma_hw_events_total", "counter",
				 "RDMA port hw_counters (rdma statistic show): packets and events");
	else
		rctl_prom_family(pr, "rocectl_rdma_pma_events_total", "counter",
				 "RDMA port IB PMA counters (sysfs counters/) other than the data words: packets and events");
	FOR_PORTS(h, filter, d, p, i, j) {
		const struct rctl_counter *c = src == RCTL_SRC_HW ? p->hw : p->pma;
		uint32_t n = src == RCTL_SRC_HW ? p->n_hw : p->n_pma;

		snprintf(port, sizeof(port), "%u", p->port);
		for (k = 0; k < n; k++) {
			struct rctl_crow r = { &c[k], rctl_catalog_lookup(d->driver, src, c[k].name), "" };

			if (!rctl_crow_shown(&r, v, false) || (src == RCTL_SRC_PMA && pma_words(c[k].name)))
				continue;
			rctl_prom_u64(pr, (struct rctl_prom_label[]){
				{ "device", d->name }, { "port", port }, { "counter", c[k].name },
				{ "group", rctl_cgroup_name(r.ce->group) },
			}, 4, c[k].value);
		}
	}
}

static void prom_pma_bytes(struct rctl_prom *pr, const struct rctl_host *h, const char *filter)
{
	const struct rctl_device *d;
	const struct rctl_port *p;
	char port[16];
	uint32_t i, j, k;

	rctl_prom_family(pr, "rocectl_rdma_pma_data_bytes_total", "counter",
			 "RDMA port data received (port_rcv_data) and sent (port_xmit_data), in bytes: the PMA's 4-byte words times 4");
	FOR_PORTS(h, filter, d, p, i, j) {
		snprintf(port, sizeof(port), "%u", p->port);
		for (k = 0; k < p->n_pma; k++)
			if (pma_words(p->pma[k].name))
				rctl_prom_u64(pr, (struct rctl_prom_label[]){
					{ "device", d->name }, { "port", port },
					{ "counter", p->pma[k].name },
				}, 3, p->pma[k].value * 4);
	}
}

/* Whether a netdev is under an RDMA port the filter keeps. */
static bool netdev_wanted(const struct rctl_host *h, const char *filter, const char *name)
{
	const struct rctl_device *d;
	const struct rctl_port *p;
	uint32_t i, j;

	FOR_PORTS(h, filter, d, p, i, j)
		if (!strcmp(p->netdev, name))
			return true;
	return false;
}

/* An ethtool stat in bytes goes to the _bytes family: one unit per metric. */
static bool stat_bytes(const char *name)
{
	return strstr(name, "bytes") || strstr(name, "octets");
}

/*
 * ethtool -S stats are not all counters (peer_ifindex, stall percentages,
 * buffer sizes): untyped, in two families, bytes and the rest. Pause frame
 * statistics are counters.
 */
static void prom_ethtool(struct rctl_prom *pr, const struct rctl_host *h, const char *filter,
			 const struct rctl_cview *v, enum rctl_csrc src, bool bytes)
{
	bool pause = src == RCTL_SRC_PAUSE;
	uint32_t k, x, n;

	if (pause)
		rctl_prom_family(pr, "rocectl_pause_frames_total", "counter",
				 "802.3x pause frame statistics (ethtool -I -a) of the netdev under an RDMA port");
	else if (bytes)
		rctl_prom_family(pr, "rocectl_ethtool_stat_bytes", "untyped",
				 "ethtool -S statistics in bytes of the netdev under an RDMA port");
	else
		rctl_prom_family(pr, "rocectl_ethtool_stat", "untyped",
				 "ethtool -S statistics other than bytes of the netdev under an RDMA port");
	for (x = 0; x < h->n_netdevs; x++) {
		const struct rctl_netdev *nd = &h->netdevs[x];
		const struct rctl_counter *c = pause ? nd->pause_stats.c : nd->stats;

		if (!netdev_wanted(h, filter, nd->name))
			continue;
		n = pause ? nd->pause_stats.n : nd->n_stats;
		for (k = 0; k < n; k++) {
			struct rctl_crow r = { &c[k], rctl_catalog_lookup(nd->driver, src, c[k].name), "" };

			if (!rctl_crow_shown(&r, v, false) || (!pause && stat_bytes(c[k].name) != bytes))
				continue;
			rctl_prom_u64(pr, (struct rctl_prom_label[]){
				{ "netdev", nd->name }, { "stat", c[k].name },
				{ "group", rctl_cgroup_name(r.ce->group) },
			}, 3, c[k].value);
		}
	}
}

void rctl_counters_prom(struct rctl_prom *pr, const struct rctl_host *h, const char *filter,
			const struct rctl_cview *v)
{
	prom_port_info(pr, h, filter);
	prom_counters(pr, h, filter, v, RCTL_SRC_HW);
	prom_counters(pr, h, filter, v, RCTL_SRC_PMA);
	prom_pma_bytes(pr, h, filter);
	prom_ethtool(pr, h, filter, v, RCTL_SRC_ETHTOOL, false);
	prom_ethtool(pr, h, filter, v, RCTL_SRC_ETHTOOL, true);
	prom_ethtool(pr, h, filter, v, RCTL_SRC_PAUSE, false);
}
