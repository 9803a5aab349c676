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

struct rctl_centry {
	const char *driver;	/* "mlx5", ... or "*" for every driver */
	enum rctl_csrc src;
	const char *name;	/* exact, or a pattern where '#' matches a run of digits */
	enum rctl_cgroup group;
	bool bad;		/* growth means trouble */
	unsigned char bits;	/* width the driver counts in: 32 or 64 */
	const char *meaning;	/* one line */
};

/* The entry for (driver, source, name); a static "other" entry when unknown. */
const struct rctl_centry *rctl_catalog_lookup(const char *driver, enum rctl_csrc src,
					      const char *name);

const char *rctl_cgroup_name(enum rctl_cgroup g);
/* Group by name; -1 when there is none. */
int rctl_cgroup_parse(const char *name);
/* NULL-terminated group names, for option choices. */
extern const char *const rctl_cgroup_names[];

#endif
