// SPDX-License-Identifier: GPL-2.0-or-later
/* rctl_collect(): run the collectors in order and stamp the snapshot. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <linux/netlink.h>

#include "rocectl/collect.h"
#include "rocectl/counters.h"

static void collect_stamp(struct rctl_host *h)
{
	struct utsname u;

	gethostname(h->hostname, sizeof(h->hostname) - 1);
	if (!uname(&u))
		snprintf(h->kernel, sizeof(h->kernel), "%.*s",
			 (int)sizeof(h->kernel) - 1, u.release);
	h->time = time(NULL);
}

int rctl_collect(struct rctl_host *h, unsigned int what, struct rctl_err *e)
{
	struct rctl_nl nl;
	int ret;

	memset(h, 0, sizeof(*h));
	collect_stamp(h);
	ret = rctl_nl_open(&nl, NETLINK_RDMA, e);
	if (ret) {
		rctl_err_strerror(e, ret, "cannot open RDMA netlink (is ib_core loaded?)");
		return ret;
	}
	ret = rctl_rdma_collect(&nl, h, e);
	if (!ret && (what & RCTL_COLLECT_INVENTORY)) {
		rctl_verbs_collect(&nl, h, e);
		rctl_netdev_collect(h, e);
	}
	if (!ret && (what & RCTL_COLLECT_CONSUMERS)) {
		ret = rctl_res_collect(&nl, h);
		if (ret)
			rctl_err_strerror(e, ret, "cannot read the RDMA resources");
		else
			ret = rctl_consumers_collect(h, e);
	}
	rctl_nl_close(&nl);
	if (ret)
		return ret;
	rctl_host_index(h);	/* the netdevs are all in */
	/* Counters read what the inventory found: ports, and their netdevs. */
	if ((what & RCTL_COLLECT_COUNTERS) && rctl_collect_counters(h, e))
		rctl_host_unread(h, e->errnum, e->msg, "counters");
	if ((what & RCTL_COLLECT_QOS) && rctl_collect_qos(h, e))
		return -e->errnum;
	if ((what & RCTL_COLLECT_NVME) && rctl_nvme_collect(h, e))
		return -e->errnum;
	return 0;
}
