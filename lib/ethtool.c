// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ethtool driver statistics of a netdev through the SIOCETHTOOL ioctl
 * (GSSET_INFO for the count, GSTRINGS for the names, GSTATS for the values):
 * the ethtool netlink STATS_GET covers only the standard groups, not driver
 * names such as mlx5's rx_prio3_pause. Read-only; needs no privilege.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "rocectl/counters.h"

static int ethtool_ioctl(int fd, const char *ifname, void *cmd)
{
	struct ifreq ifr = { 0 };

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = cmd;
	return ioctl(fd, SIOCETHTOOL, &ifr) < 0 ? -errno : 0;
}

/* Driver name (mlx5_core, bnxt_en, ice, veth): it keys the catalogue. */
static void ethtool_driver(int fd, struct rctl_netdev *nd)
{
	struct ethtool_drvinfo di = { .cmd = ETHTOOL_GDRVINFO };

	if (!nd->driver[0] && !ethtool_ioctl(fd, nd->name, &di))
		snprintf(nd->driver, sizeof(nd->driver), "%.*s",
			 (int)sizeof(nd->driver) - 1, di.driver);
}

static int ethtool_count(int fd, const char *ifname, uint32_t *n)
{
	struct {
		struct ethtool_sset_info hdr;
		uint32_t len;	/* data[] of the one set asked for */
	} ss = { .hdr = { .cmd = ETHTOOL_GSSET_INFO, .sset_mask = 1ULL << ETH_SS_STATS } };
	int ret = ethtool_ioctl(fd, ifname, &ss);

	if (ret)
		return ret;
	*n = ss.hdr.sset_mask & (1ULL << ETH_SS_STATS) ? ss.len : 0;
	return 0;
}

static int ethtool_fill(int fd, struct rctl_netdev *nd, uint32_t n)
{
	struct ethtool_gstrings *gs;
	struct ethtool_stats *st;
	uint32_t i;
	int ret = -ENOMEM;

	gs = calloc(1, sizeof(*gs) + (size_t)n * ETH_GSTRING_LEN);
	st = calloc(1, sizeof(*st) + (size_t)n * sizeof(uint64_t));
	nd->stats = calloc(n, sizeof(*nd->stats));
	if (!gs || !st || !nd->stats)
		goto out;
	*gs = (struct ethtool_gstrings){ .cmd = ETHTOOL_GSTRINGS,
					 .string_set = ETH_SS_STATS, .len = n };
	*st = (struct ethtool_stats){ .cmd = ETHTOOL_GSTATS, .n_stats = n };
	ret = ethtool_ioctl(fd, nd->name, gs);
	if (!ret)
		ret = ethtool_ioctl(fd, nd->name, st);
	if (ret)
		goto out;
	/* The set may change between calls (a driver reconfigured): take the common part. */
	for (i = 0; i < n && i < gs->len && i < st->n_stats; i++) {
		struct rctl_counter *c = &nd->stats[nd->n_stats++];

		snprintf(c->name, sizeof(c->name), "%.*s", ETH_GSTRING_LEN,
			 (const char *)gs->data + (size_t)i * ETH_GSTRING_LEN);
		c->value = st->data[i];
	}
out:
	free(gs);
	free(st);
	return ret;
}

int rctl_ethtool_stats(struct rctl_netdev *nd)
{
	uint32_t n = 0;
	int fd, ret;

	free(nd->stats);
	nd->stats = NULL;
	nd->n_stats = 0;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		nd->stats_err = errno;
		return -errno;
	}
	ethtool_driver(fd, nd);
	ret = ethtool_count(fd, nd->name, &n);
	if (!ret && n)
		ret = ethtool_fill(fd, nd, n);
	close(fd);
	if (ret) {
		free(nd->stats);
		nd->stats = NULL;
		nd->n_stats = 0;
	}
	nd->stats_err = -ret;
	return ret;
}
