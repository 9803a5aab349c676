/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Counters of RDMA ports and of the netdevs under them: hw_counters over RDMA
 * netlink (STAT_GET), the IB PMA counters/ in sysfs, ethtool driver statistics
 * (SIOCETHTOOL), and the arithmetic of two samples (32-bit wrap, rates).
 *
 * A counter the driver does not export is data, not an error: the arrays are
 * simply shorter, and *_err says why a whole set could not be read.
 */
#ifndef ROCECTL_COUNTERS_H
#define ROCECTL_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "rocectl/err.h"
#include "rocectl/model.h"
#include "rocectl/nl.h"
#include "rocectl/sysfs.h"

/*
 * Fill hw (RDMA netlink), hw_lifespan_ms, pma and opt_counters of every
 * port, and stats and pause_stats of every netdev under a port of a host
 * whose devices and ports are listed (the netdevs are added when missing: no
 * inventory needed). Replaces earlier values. Returns 0, or -errno when RDMA
 * netlink cannot be opened at all.
 */
int rctl_collect_counters(struct rctl_host *h, struct rctl_err *e);

/*
 * Take a second sample "interval_s" seconds after the one in "h" and store, in
 * every counter present in both, the wrap-corrected delta (has_delta); values
 * become the second sample's; h->sample_interval_s the measured interval.
 * Refuses (-EINVAL, with the reason) an interval shorter than the longest
 * hw_counters lifespan, as the kernel would answer from its cache.
 */
int rctl_sample_deltas(struct rctl_host *h, double interval_s, struct rctl_err *e);

/*
 * The second sample itself, now, for callers that did the waiting (watch
 * mode): "elapsed_s" is the time since the previous sample. On error the
 * previous sample is kept. Counters only: lifespan and opt_counters stay
 * those of the first sample.
 */
int rctl_counters_resample(struct rctl_host *h, double elapsed_s, struct rctl_err *e);

/*
 * Reads every counter set of h afresh (the arrays are empty on entry): 0, or
 * -errno with e filled.
 */
typedef int (*rctl_counters_read_fn)(struct rctl_host *h, void *arg, struct rctl_err *e);

/*
 * rctl_counters_resample() with the reading given: "read" fills the new
 * sample, and each counter present in both gets its delta against the
 * previous one (rctl_counter_delta(): one 32-bit wrap corrected by the
 * catalogue's width, a counter gone backwards otherwise is a reset, without
 * a delta). On error the previous sample is kept and sample_interval_s is 0.
 */
int rctl_counters_next(struct rctl_host *h, double elapsed_s, rctl_counters_read_fn read,
		       void *arg, struct rctl_err *e);

/* The parts rctl_collect_counters() runs. */
int rctl_port_counters(struct rctl_nl *nl, const struct rctl_device *d,
		       struct rctl_port *p);
/* Its RDMA netlink part, STAT_GET, into p->hw (lib/rdma_nl.c); 0 or -errno. */
int rctl_port_hw_counters(struct rctl_nl *nl, const struct rctl_device *d,
			  struct rctl_port *p);
int rctl_ethtool_stats(struct rctl_netdev *nd);

/*
 * Optional hw counters of a port and whether each counts (RDMA netlink
 * STAT_GET_STATUS), into p->opt_counters; its st says why when the kernel or
 * driver has no such list. rctl_collect_counters() runs it (not a resample).
 */
int rctl_port_opt_counters(struct rctl_nl *nl, const struct rctl_device *d,
			   struct rctl_port *p);

/* The optional counters of one STAT_GET_STATUS reply, appended to oc (MNL_CB_*). */
/* One STAT_GET reply's hw counters appended to p->hw; MNL_CB_OK or _ERROR. */
int rctl_hw_counters_parse(const struct nlmsghdr *nlh, struct rctl_port *p);
int rctl_opt_counters_parse(const struct nlmsghdr *nlh, struct rctl_opt_counters *oc);

/*
 * Pause frame statistics of every netdev through ethtool netlink
 * (ETHTOOL_MSG_PAUSE_GET with ETHTOOL_FLAG_STATS), into nd->pause_stats; a
 * driver or kernel without them is data in its st. Fails only never: 0.
 */
int rctl_pause_stats(struct rctl_host *h);

/* The statistics of one PAUSE_GET reply, appended to s; 0 or -errno. */
int rctl_pause_stats_parse(const struct nlmsghdr *nlh, struct rctl_counter_set *s);

/* Longest hw_counters lifespan of the host, in ms (0 when none is known). */
uint32_t rctl_counters_lifespan_ms(const struct rctl_host *h);

/* rctl_counter_delta(): the 32-bit wrap arithmetic, in rocectl/sysfs.h. */
/* Per-second rate of a delta over "secs" (0 when secs is not positive). */
double rctl_counter_rate(uint64_t delta, double secs);

/* Find a counter by name in an array; NULL when absent. */
struct rctl_counter *rctl_counter_find(struct rctl_counter *c, uint32_t n,
				       const char *name);

#endif
