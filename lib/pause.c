// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SIOCETHTOOL reads: 802.3x global pause (ETHTOOL_GPAUSEPARAM) and the
 * driver name, version and bus address (ETHTOOL_GDRVINFO). Both are GET
 * ioctls; they need no privilege and change nothing.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "rocectl/collect.h"

static int ethtool_get(int fd, const char *ifname, void *cmd)
{
	struct ifreq ifr = { 0 };

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = cmd;
	return ioctl(fd, SIOCETHTOOL, &ifr) ? -errno : 0;
}

static void pause_one(struct rctl_host *h, int fd, struct rctl_netdev *nd)
{
	struct ethtool_pauseparam pp = { .cmd = ETHTOOL_GPAUSEPARAM };
	int ret = ethtool_get(fd, nd->name, &pp);

	if (ret) {
		rctl_part_fail(&nd->pause.st, ret, ret == -EOPNOTSUPP ?
			       "not supported by the driver" : NULL);
		rctl_host_unread(h, ret, nd->pause.st.reason,
				 "global pause of '%s'", nd->name);
		return;
	}
	nd->pause.autoneg = pp.autoneg;
	nd->pause.rx = pp.rx_pause;
	nd->pause.tx = pp.tx_pause;
	nd->pause.st.ok = true;
}

/* A PCI bus_info looks like "0000:3b:00.0"; veth and rxe report none. */
static bool is_pci(const char *s)
{
	unsigned int dom, bus, dev, fn;
	char end;

	return sscanf(s, "%x:%x:%x.%x%c", &dom, &bus, &dev, &fn, &end) == 4;
}

static void drvinfo_one(int fd, struct rctl_netdev *nd)
{
	struct ethtool_drvinfo di = { .cmd = ETHTOOL_GDRVINFO };

	if (ethtool_get(fd, nd->name, &di))
		return;
	if (!nd->driver[0])
		snprintf(nd->driver, sizeof(nd->driver), "%.*s",
			 (int)sizeof(nd->driver) - 1, di.driver);
	snprintf(nd->driver_version, sizeof(nd->driver_version), "%.*s",
		 (int)sizeof(nd->driver_version) - 1, di.version);
	if (is_pci(di.bus_info))
		snprintf(nd->pci, sizeof(nd->pci), "%.*s",
			 (int)sizeof(nd->pci) - 1, di.bus_info);
}

int rctl_pause_collect(struct rctl_host *h, struct rctl_err *e)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	uint32_t i;

	if (fd < 0) {
		for (i = 0; i < h->n_netdevs; i++)
			rctl_part_fail(&h->netdevs[i].pause.st, errno, NULL);
		rctl_host_unread(h, errno, strerror(errno), "ethtool (socket)");
		return 0;
	}
	for (i = 0; i < h->n_netdevs; i++) {
		drvinfo_one(fd, &h->netdevs[i]);
		pause_one(h, fd, &h->netdevs[i]);
	}
	close(fd);
	(void)e;
	return 0;
}
