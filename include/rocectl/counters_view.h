/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The counters view (lib/counters_view.c): the counters of a port and of its
 * netdev as rows that carry the catalogue's meaning, grouped problems first;
 * which rows a view shows; and their Prometheus families.
 */
#ifndef ROCECTL_COUNTERS_VIEW_H
#define ROCECTL_COUNTERS_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "rocectl/catalog.h"
#include "rocectl/model.h"
#include "rocectl/prom.h"

/* One counter with what the catalogue says about it. */
struct rctl_crow {
	const struct rctl_counter *c;
	const struct rctl_centry *ce;
	const char *src;		/* "hw", "pma", "ethtool", "pause" */
};

/* Which rows a view shows (rocectl counters --group, --nonzero, --all). */
struct rctl_cview {
	bool has_group;
	int group;			/* enum rctl_cgroup, or -1 */
	bool nonzero;
	bool all;
};

/* A counter that moved: its delta, or with one sample its value, is not 0. */
bool rctl_counter_moved(const struct rctl_counter *c);
/* Growth of a counter whose growth is bad: the mark people look for. */
bool rctl_crow_problem(const struct rctl_crow *r);
/*
 * Whether a view shows a row. Text hides zero counters that are not error
 * counters ("text" true); JSON and Prometheus do not.
 */
bool rctl_crow_shown(const struct rctl_crow *r, const struct rctl_cview *v, bool text);

/*
 * Every counter of port p and of its netdev, grouped problems first (loss,
 * congestion, PFC, buffer, link, PCIe, application, traffic, other); *n rows.
 * The caller frees the array; NULL when out of memory.
 */
struct rctl_crow *rctl_port_rows(const struct rctl_host *h, const struct rctl_device *d,
				 const struct rctl_port *p, uint32_t *n);

/*
 * The Prometheus families of the ports "filter" keeps (NULL: all) and of
 * their netdevs, the rows the view shows as JSON would: port info, hw
 * events, PMA events, PMA data in bytes, ethtool stats (bytes apart) and
 * pause frames.
 */
void rctl_counters_prom(struct rctl_prom *pr, const struct rctl_host *h, const char *filter,
			const struct rctl_cview *v);

#endif
