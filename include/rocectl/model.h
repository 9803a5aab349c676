/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The host model: everything the collectors read from a host, and everything
 * the rules and commands look at. It round-trips through the snapshot JSON
 * (snapshot.h), which is what makes --input and the fixtures run the same
 * code as a live host. Strings are fixed arrays so a model is plain data;
 * "" means "not reported". Things that could not be read carry an errno and
 * a reason instead of a value ("unknown", never "disabled").
 */
#ifndef ROCECTL_MODEL_H
#define ROCECTL_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#define RCTL_NAME_LEN 64
#define RCTL_IFNAME_LEN 32
#define RCTL_ADDR_LEN 48
#define RCTL_REASON_LEN 160

struct rctl_gid {
	uint32_t index;
	char gid[RCTL_ADDR_LEN];	/* canonical IPv6 text: "::ffff:10.0.0.1" */
	char ip[RCTL_ADDR_LEN];		/* IPv4 of a mapped GID, else the IPv6 */
	char type[16];			/* "RoCE v1", "RoCE v2", "IB" */
	char netdev[RCTL_IFNAME_LEN];
};

struct rctl_counter {
	char name[RCTL_NAME_LEN];
	uint64_t value;
	uint64_t delta;			/* since the previous sample, wrap-corrected */
	bool has_delta;			/* false: one sample only, or counter reset */
};

struct rctl_port {
	uint32_t port;
	char state[16];			/* ACTIVE, DOWN, INIT, ARMED */
	char phys_state[24];		/* LINK_UP, DISABLED, POLLING, ... */
	char link_layer[16];		/* Ethernet, InfiniBand */
	uint32_t max_mtu;		/* bytes, verbs */
	uint32_t active_mtu;		/* bytes, verbs */
	uint32_t speed_mbps;		/* per-lane speed × width, Mb/s */
	char width[8];			/* "1X", "4X" ... */
	char netdev[RCTL_IFNAME_LEN];
	uint32_t netdev_ifindex;
	struct rctl_gid *gids;
	uint32_t n_gids;
	struct rctl_counter *hw;	/* RDMA netlink hw counters */
	uint32_t n_hw;
	int hw_err;			/* errno when counters were unreadable */
	uint32_t hw_lifespan_ms;	/* hw_counters/lifespan, 0 unknown */
	struct rctl_counter *pma;	/* sysfs counters/ (IB PMA), if any */
	uint32_t n_pma;
	int pma_err;			/* errno: ENOENT none, EOPNOTSUPP "N/A (no PMA)" */
};

struct rctl_device {
	char name[RCTL_NAME_LEN];
	uint32_t index;
	char driver[32];		/* mlx5, bnxt_re, irdma, rxe, siw ... */
	char node_type[16];		/* ca, rnic, ... */
	char node_guid[24];		/* "5054:00ff:fe12:3456" */
	char sys_image_guid[24];
	char fw[64];
	struct rctl_port *ports;
	uint32_t n_ports;
};

struct rctl_addr {
	char ip[RCTL_ADDR_LEN];
	uint32_t prefix;
	char family[8];			/* "inet", "inet6" */
};

struct rctl_netdev {
	char name[RCTL_IFNAME_LEN];
	uint32_t ifindex;
	char operstate[16];		/* up, down, lowerlayerdown, ... */
	uint32_t mtu;
	uint32_t min_mtu;
	uint32_t max_mtu;
	char kind[16];			/* veth, vlan, bond ... "" for hardware */
	char driver[32];		/* ethtool driver name when known */
	struct rctl_addr *addrs;
	uint32_t n_addrs;
	struct rctl_counter *stats;	/* ethtool -S (driver statistics) */
	uint32_t n_stats;
	int stats_err;			/* errno when the stats were unreadable */
};

/* Something that could not be read, and why. */
struct rctl_unread {
	char what[RCTL_NAME_LEN * 2];	/* "dcb pfc of 'eth2'" */
	int errnum;
	char reason[RCTL_REASON_LEN];
};

struct rctl_host {
	char hostname[RCTL_NAME_LEN];
	char kernel[RCTL_NAME_LEN];
	int64_t time;			/* seconds since the epoch */
	double sample_interval_s;	/* measured time between counter samples, 0 none */
	struct rctl_device *devs;
	uint32_t n_devs;
	struct rctl_netdev *netdevs;
	uint32_t n_netdevs;
	struct rctl_unread *unread;
	uint32_t n_unread;
};

void rctl_host_free(struct rctl_host *h);

/* Lookups used by commands and rules. */
struct rctl_netdev *rctl_host_netdev(const struct rctl_host *h, const char *name);
struct rctl_device *rctl_host_dev(const struct rctl_host *h, const char *name);

/* Append a zeroed element to a dynamic array; NULL when out of memory. */
void *rctl_arr_push(void *arr_p, uint32_t *n, size_t elem);

/* Note something that could not be read (ignored when out of memory). */
void rctl_host_unread(struct rctl_host *h, int errnum, const char *reason,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Whether the netdev MTU is what limits active_mtu (RoCE needs MTU - 96). */
uint32_t rctl_roce_mtu_for(uint32_t netdev_mtu);

#endif
