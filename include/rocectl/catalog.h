/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The counter catalogue: what a counter of a given driver means, which group
 * of problems it belongs to and whether its growth is bad. Keyed by driver,
 * because equal names mean different things on different drivers (bnxt_re's
 * out_of_buffer is not mlx5's). Counters not in it are group "other".
 */
#ifndef ROCECTL_CATALOG_H
#define ROCECTL_CATALOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rctl_counter;

enum rctl_cgroup {
	RCTL_CG_TRAFFIC,	/* packets and bytes moved: growth is normal */
	RCTL_CG_APPLICATION,	/* the application's own doing (no WQE, RNR, bad access) */
	RCTL_CG_LOSS,		/* loss in the fabric: retransmits, sequence errors */
	RCTL_CG_CONGESTION,	/* ECN marks and CNPs */
	RCTL_CG_PFC,		/* pause frames */
	RCTL_CG_BUFFER,		/* NIC buffer full, discards */
	RCTL_CG_LINK,		/* PHY, cable, link flaps */
	RCTL_CG_PCIE,		/* host bus */
	RCTL_CG_OTHER,		/* not in the catalogue */
	RCTL_CG_N,
};

/* Where a counter is read from; names are unique only within a source. */
enum rctl_csrc {
	RCTL_SRC_HW,		/* hw_counters / RDMA netlink */
	RCTL_SRC_PMA,		/* counters/ (IB PMA) */
	RCTL_SRC_ETHTOOL,	/* ethtool -S of the netdev */
	RCTL_SRC_PAUSE,		/* ethtool netlink pause statistics (ethtool -I -a) */
};

/*
 * What a counter is evidence of, for the rules, reach and Prometheus: the
 * one place that says which counters mean loss, local discards, pause or
 * CNPs. Per-priority roles have the priority as the pattern's '#'.
 */
enum rctl_crole {
	RCTL_ROLE_NONE,
	RCTL_ROLE_LOSS,		/* PSN sequence errors, out-of-sequence, retransmissions */
	RCTL_ROLE_DISCARD,	/* packets this NIC dropped for lack of buffer */
	RCTL_ROLE_NO_WQE,	/* the receiver had no WQE posted (RNR, out_of_buffer) */
	RCTL_ROLE_PFC_RX,	/* PFC frames received on priority '#' */
	RCTL_ROLE_PFC_TX,	/* PFC frames sent on priority '#' */
	RCTL_ROLE_PAUSE_US_RX,	/* microseconds paused by the peer on priority '#' */
	RCTL_ROLE_PAUSE_US_TX,	/* microseconds this NIC paused the peer on priority '#' */
	RCTL_ROLE_STORM_WARN,	/* pause storm warning events */
	RCTL_ROLE_STORM_ERR,	/* pause storm error events: the device stalled */
	RCTL_ROLE_CNP_SENT,	/* CNPs sent (notification point) */
	RCTL_ROLE_CNP_RCVD,	/* CNPs received */
	RCTL_ROLE_CNP_HANDLED,	/* CNPs the reaction point acted on */
	RCTL_ROLE_CNP_IGNORED,	/* CNPs the reaction point ignored */
	RCTL_ROLE_ECN_MARKED,	/* CE-marked RoCE packets received */
	RCTL_ROLE_RX_PKTS,	/* RoCE packets received */
	RCTL_ROLE_TX_PKTS,	/* RoCE packets sent */
	RCTL_ROLE_XON_RX,	/* PFC XON frames received on priority '#' (pause ended) */
	RCTL_ROLE_XON_TX,	/* PFC XON frames sent on priority '#' */
	RCTL_ROLE_PRIO_RX_PKTS,	/* packets (all traffic) received on priority '#' */
	RCTL_ROLE_PRIO_TX_PKTS,	/* packets (all traffic) sent on priority '#' */
	RCTL_ROLE_N,
};

struct rctl_centry {
	const char *driver;	/* "mlx5", ... or "*" for every driver */
	enum rctl_csrc src;
	const char *name;	/* exact, or a pattern where '#' matches a run of digits */
	enum rctl_cgroup group;
	bool bad;		/* growth means trouble */
	unsigned char bits;	/* width the driver counts in: 32 or 64 */
	const char *meaning;	/* one line */
	enum rctl_crole role;
};

/* The entry for (driver, source, name); a static "other" entry when unknown. */
const struct rctl_centry *rctl_catalog_lookup(const char *driver, enum rctl_csrc src,
					      const char *name);
/* The same, and into *prio the number its '#' matched (the priority), -1 without one. */
const struct rctl_centry *rctl_catalog_lookup_prio(const char *driver, enum rctl_csrc src,
						   const char *name, int *prio);

/*
 * Sum of the deltas of the counters in c[0..n) whose catalogue entry for
 * (driver, src) has "role"; prio >= 0 keeps only that priority of a
 * per-priority role. *found (may be NULL) says whether such a counter
 * exists at all; "which" (may be NULL) gets "name +delta, ..." of those
 * that moved.
 */
uint64_t rctl_catalog_sum(const char *driver, enum rctl_csrc src, enum rctl_crole role,
			  int prio, const struct rctl_counter *c, uint32_t n, bool *found,
			  char *which, size_t len);
/*
 * The name (pattern) of the first entry of (driver, src) with "role", NULL
 * when the driver has none: what a rule names as missing.
 */
const char *rctl_catalog_role_counter(const char *driver, enum rctl_csrc src,
				      enum rctl_crole role);
/* Whether any driver's entry of this name and source means trouble when it grows. */
bool rctl_catalog_bad_any(enum rctl_csrc src, const char *name);

/* "loss", "discard", "pfc_rx", ...; "" for RCTL_ROLE_NONE (labels, JSON). */
const char *rctl_crole_name(enum rctl_crole r);

const char *rctl_cgroup_name(enum rctl_cgroup g);
/* Group by name; -1 when there is none. */
int rctl_cgroup_parse(const char *name);
/* NULL-terminated group names, for option choices. */
extern const char *const rctl_cgroup_names[];

#endif
