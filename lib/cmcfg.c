// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rdma_cm defaults from configfs (drivers/infiniband/core/cma_configfs.c):
 * <configfs>/rdma_cm/<dev>/ports/<p>/default_roce_{mode,tos}. The <dev>
 * directory exists only while someone holds it, so reading means mkdir,
 * read, rmdir. A directory that was already there is read and left alone;
 * one we created is always removed, and a failed removal is reported.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "rocectl/collect.h"
#include "rocectl/sysfs.h"

#define CONFIGFS_MAGIC 0x62656570

static void cm_fail_dev(struct rctl_device *d, int err, const char *reason)
{
	uint32_t i;

	for (i = 0; i < d->n_ports; i++)
		rctl_part_fail(&d->ports[i].cm.st, err, reason);
}

int rctl_cm_dir(char *buf, size_t len, const char *dev)
{
	return snprintf(buf, len, "%s/rdma_cm/%s", rctl_configfs(), dev) >= (int)len ?
	       -ENAMETOOLONG : 0;
}

int rctl_cm_file(char *buf, size_t len, const char *dev, uint32_t port, const char *file)
{
	return snprintf(buf, len, "%s/rdma_cm/%s/ports/%u/%s", rctl_configfs(), dev, port,
			file) >= (int)len ? -ENAMETOOLONG : 0;
}

static void cm_read_port(struct rctl_host *h, struct rctl_device *d, struct rctl_port *p)
{
	char path[512], buf[32];
	uint64_t tos = 0;
	int ret;

	ret = rctl_cm_file(path, sizeof(path), d->name, p->port, RCTL_CM_MODE_FILE);
	if (!ret)
		ret = rctl_read_file(path, p->cm.roce_mode, sizeof(p->cm.roce_mode));
	if (!ret)
		ret = rctl_cm_file(path, sizeof(path), d->name, p->port, RCTL_CM_TOS_FILE);
	if (!ret)
		ret = rctl_read_file(path, buf, sizeof(buf));
	if (!ret) {
		ret = rctl_sysfs_u64(buf, 10, &tos) || tos > 255 ? -EINVAL : 0;
		p->cm.roce_tos = tos;
	}
	if (ret) {
		rctl_part_fail(&p->cm.st, ret, NULL);
		rctl_host_unread(h, ret, p->cm.st.reason, "rdma_cm defaults of '%s/%u'",
				 d->name, p->port);
		return;
	}
	p->cm.st.ok = true;
}

/* Why <configfs>/rdma_cm is missing: configfs not mounted, or no rdma_cm. */
static const char *cm_absent_reason(void)
{
	struct statfs sf;

	if (statfs(rctl_configfs(), &sf) || sf.f_type != CONFIGFS_MAGIC)
		return "configfs not mounted";
	return "no rdma_cm in configfs (rdma_cm module not loaded)";
}

static void cm_dev(struct rctl_host *h, struct rctl_device *d)
{
	char dir[384];
	bool made = false;
	uint32_t i;
	int err;

	err = -rctl_cm_dir(dir, sizeof(dir), d->name);
	if (!err)
		err = -rctl_configfs_enter(dir, &made);
	if (err) {
		cm_fail_dev(d, err, err == EPERM || err == EACCES ?
			    "needs root (mkdir in rdma_cm configfs)" : NULL);
		rctl_host_unread(h, err, d->ports ? d->ports[0].cm.st.reason : "",
				 "rdma_cm defaults of '%s'", d->name);
		return;
	}
	for (i = 0; i < d->n_ports; i++)
		cm_read_port(h, d, &d->ports[i]);
	err = -rctl_configfs_leave(dir, made);
	if (err)
		rctl_host_unread(h, err, strerror(err), "removing '%s' (left behind)", dir);
}

int rctl_cmcfg_collect(struct rctl_host *h, struct rctl_err *e)
{
	char root[320];
	struct stat st;
	uint32_t i;

	snprintf(root, sizeof(root), "%s/rdma_cm", rctl_configfs());
	if (stat(root, &st) || !S_ISDIR(st.st_mode)) {
		int err = errno == EACCES ? EACCES : ENOENT;
		const char *why = err == EACCES ? "needs root" : cm_absent_reason();

		for (i = 0; i < h->n_devs; i++)
			cm_fail_dev(&h->devs[i], err, why);
		if (h->n_devs)
			rctl_host_unread(h, err, why, "rdma_cm defaults");
		return 0;
	}
	for (i = 0; i < h->n_devs; i++)
		cm_dev(h, &h->devs[i]);
	(void)e;
	return 0;
}
