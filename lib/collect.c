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

const char *rctl_sysfs(void)
{
	const char *s = getenv("ROCECTL_SYSFS");

	return s && *s ? s : "/sys";
}

int rctl_read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	if (ferror(f)) {
		int err = errno ? errno : EIO;

		fclose(f);
		return -err;
	}
	fclose(f);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

int rctl_sysfs_u64(const char *txt, int base, uint64_t *v)
{
	char *end;

	/* strtoull takes " -1" as 2^64 - 1: a kernel number file has no sign. */
	if (!((txt[0] >= '0' && txt[0] <= '9')))
		return -EINVAL;
	errno = 0;
	*v = strtoull(txt, &end, base);
	while (*end == ' ')
		end++;
	return errno ? -ERANGE : *end ? -EINVAL : 0;
}

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
		rctl_err_set(e, ret, "cannot open RDMA netlink (is ib_core loaded?)");
		return ret;
	}
	ret = rctl_rdma_collect(&nl, h, e);
	rctl_nl_close(&nl);
	if (ret)
		return ret;
	if (what & RCTL_COLLECT_INVENTORY) {
		rctl_verbs_collect(h, e);
		rctl_netdev_collect(h, e);
	}
	/* Counters read what the inventory found: ports, and their netdevs. */
	if ((what & RCTL_COLLECT_COUNTERS) && rctl_collect_counters(h, e))
		rctl_host_unread(h, e->errnum, e->msg, "counters");
	if ((what & RCTL_COLLECT_QOS) && rctl_collect_qos(h, e))
		return -e->errnum;
	return 0;
}
