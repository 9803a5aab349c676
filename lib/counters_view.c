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

/*
 * rocectl_port_info carries what names a port (labels that change rarely);
 * the active MTU is a value, so a gauge of its own (a label would start a
 * new series at every change).
 */
static void prom_port_info(struct rctl_prom *pr, const struct rctl_host *h, const char *filter,
			   bool mtu)
{
	char port[16];
	uint32_t i, j;

	if (mtu)
		rctl_prom_family(pr, "rocectl_port_active_mtu_bytes", "gauge",
				 "RDMA port active_mtu in bytes (0: not known)");
	else
		rctl_prom_family(pr, "rocectl_port_info", "gauge",
				 "RDMA port: 1, with its state, driver and netdev as labels");
	for (i = 0; i < h->n_devs; i++)
		for (j = 0; j < h->devs[i].n_ports; j++) {
			const struct rctl_device *d = &h->devs[i];
			const struct rctl_port *p = &d->ports[j];
			struct rctl_prom_label l[] = {
				{ "device", d->name }, { "port", port }, { "driver", d->driver },
				{ "netdev", p->netdev }, { "state", p->state },
			};

			if (!rctl_port_match(filter, d, p))
				continue;
			snprintf(port, sizeof(port), "%u", p->port);
			rctl_prom_u64(pr, l, mtu ? 2 : 5, mtu ? p->active_mtu : 1);
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

/* The unit of an ethtool stat: each has a family of its own (one unit per family). */
enum stat_unit { UNIT_OTHER, UNIT_BYTES, UNIT_US };

static enum stat_unit stat_unit(const char *name, const struct rctl_centry *ce)
{
	if (ce->role == RCTL_ROLE_PAUSE_US_RX || ce->role == RCTL_ROLE_PAUSE_US_TX ||
	    strstr(name, "duration_us") || strstr(name, "_usec"))
		return UNIT_US;
	return strstr(name, "bytes") || strstr(name, "octets") ? UNIT_BYTES : UNIT_OTHER;
}

/*
 * ethtool -S stats are not all counters (peer_ifindex, stall percentages,
 * buffer sizes): untyped, in two families, bytes and the rest. Pause frame
 * statistics are counters.
 */
static void prom_ethtool(struct rctl_prom *pr, const struct rctl_host *h, const char *filter,
			 const struct rctl_cview *v, enum rctl_csrc src, enum stat_unit unit)
{
	bool pause = src == RCTL_SRC_PAUSE;
	uint32_t k, x, n;

	if (pause)
		rctl_prom_family(pr, "rocectl_pause_frames_total", "counter",
				 "802.3x pause frame statistics (ethtool -I -a) of the netdev under an RDMA port");
	else if (unit == UNIT_BYTES)
		rctl_prom_family(pr, "rocectl_ethtool_stat_bytes", "untyped",
				 "ethtool -S statistics in bytes of the netdev under an RDMA port");
	else if (unit == UNIT_US)
		rctl_prom_family(pr, "rocectl_ethtool_stat_seconds", "untyped",
				 "ethtool -S statistics that count microseconds (pause durations), in seconds, of the netdev under an RDMA port");
	else
		rctl_prom_family(pr, "rocectl_ethtool_stat", "untyped",
				 "ethtool -S statistics other than bytes and durations (packets, events) of the netdev under an RDMA port");
	for (x = 0; x < h->n_netdevs; x++) {
		const struct rctl_netdev *nd = &h->netdevs[x];
		const struct rctl_counter *c = pause ? nd->pause_stats.c : nd->stats;

		if (!netdev_wanted(h, filter, nd->name))
			continue;
		n = pause ? nd->pause_stats.n : nd->n_stats;
		for (k = 0; k < n; k++) {
			struct rctl_crow r = { &c[k], rctl_catalog_lookup(nd->driver, src, c[k].name), "" };

			if (!rctl_crow_shown(&r, v, false) || (!pause && stat_unit(c[k].name, r.ce) != unit))
				continue;
			const struct rctl_prom_label l[] = {
				{ "netdev", nd->name }, { "stat", c[k].name },
				{ "group", rctl_cgroup_name(r.ce->group) },
			};

			if (unit == UNIT_US)
				rctl_prom_dbl(pr, l, 3, (double)c[k].value / 1e6);
			else
				rctl_prom_u64(pr, l, 3, c[k].value);
		}
	}
}

/*
 * Vendor-neutral PFC families from each driver's own per-priority names, by
 * their catalogue role (lib/catalog.c cites the drivers): frames as
 * counters, and where the driver counts pause time (mlx5
 * rx_prio3_pause_duration, bnxt pfc_pri3_rx_duration_us, both in
 * microseconds) seconds. One series per netdev, direction and priority.
 */
static void prom_pfc(struct rctl_prom *pr, const struct rctl_host *h, const char *filter,
		     bool duration)
{
	char prio[8];
	uint32_t k, x;
	int num;

	if (duration)
		rctl_prom_family(pr, "rocectl_pfc_pause_duration_seconds_total", "counter",
				 "Time paused by PFC on a priority: rx the peer paused this NIC, tx this NIC paused the peer");
	else
		rctl_prom_family(pr, "rocectl_pfc_frames_total", "counter",
				 "PFC pause frames on a priority, received (rx) or sent (tx), whatever the driver calls them");
	for (x = 0; x < h->n_netdevs; x++) {
		const struct rctl_netdev *nd = &h->netdevs[x];

		if (!netdev_wanted(h, filter, nd->name))
			continue;
		for (k = 0; k < nd->n_stats; k++) {
			const struct rctl_counter *c = &nd->stats[k];
			const struct rctl_centry *ce =
				rctl_catalog_lookup_prio(nd->driver, RCTL_SRC_ETHTOOL, c->name, &num);
			enum rctl_crole rx = duration ? RCTL_ROLE_PAUSE_US_RX : RCTL_ROLE_PFC_RX;
			enum rctl_crole tx = duration ? RCTL_ROLE_PAUSE_US_TX : RCTL_ROLE_PFC_TX;
			const struct rctl_prom_label l[] = {
				{ "netdev", nd->name }, { "direction", ce->role == rx ? "rx" : "tx" },
				{ "priority", prio },
			};

			if ((ce->role != rx && ce->role != tx) || num < 0 || num > 7)
				continue;
			snprintf(prio, sizeof(prio), "%d", num);
			if (duration)
				rctl_prom_dbl(pr, l, 3, (double)c->value / 1e6);
			else
				rctl_prom_u64(pr, l, 3, c->value);
		}
	}
}

void rctl_counters_prom(struct rctl_prom *pr, const struct rctl_host *h, const char *filter,
			const struct rctl_cview *v)
{
	prom_port_info(pr, h, filter, false);
	prom_port_info(pr, h, filter, true);
	prom_counters(pr, h, filter, v, RCTL_SRC_HW);
	prom_counters(pr, h, filter, v, RCTL_SRC_PMA);
	prom_pma_bytes(pr, h, filter);
	prom_pfc(pr, h, filter, false);
	prom_pfc(pr, h, filter, true);
	prom_ethtool(pr, h, filter, v, RCTL_SRC_ETHTOOL, UNIT_OTHER);
	prom_ethtool(pr, h, filter, v, RCTL_SRC_ETHTOOL, UNIT_BYTES);
	prom_ethtool(pr, h, filter, v, RCTL_SRC_ETHTOOL, UNIT_US);
	prom_ethtool(pr, h, filter, v, RCTL_SRC_PAUSE, UNIT_OTHER);
}
