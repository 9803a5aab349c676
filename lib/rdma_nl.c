// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RDMA netlink (nldev): devices and ports (anchor: iproute2 rdma/dev.c, link.c)
 * and their hw counters, STAT_GET and STAT_GET_STATUS (anchor: rdma/stat.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdma/rdma_netlink.h>

#include "rocectl/collect.h"
#include "rocectl/counters.h"
#include "rocectl/sysfs.h"

static const char *const port_states[] = {
	[1] = "DOWN", [2] = "INIT", [3] = "ARMED", [4] = "ACTIVE", [5] = "ACTIVE_DEFER",
};

static const char *const phys_states[] = {
	[1] = "SLEEP", [2] = "POLLING", [3] = "DISABLED",
	[4] = "PORT_CONFIGURATION_TRAINING", [5] = "LINK_UP",
	[6] = "LINK_ERROR_RECOVERY", [7] = "PHY_TEST",
};

static const char *const node_types[] = {
	[1] = "ca", [2] = "switch", [3] = "router", [4] = "rnic",
	[5] = "usnic", [6] = "usnic_udp", [7] = "unspecified",
};

#define NAME_OF(tab, i) ((i) < sizeof(tab) / sizeof(tab[0]) && tab[i] ? tab[i] : "UNKNOWN")

/* The u64 GUID in host order printed as iproute2 rdma does. */
static void guid_str(char *buf, size_t len, uint64_t guid)
{
	snprintf(buf, len, "%04x:%04x:%04x:%04x", (unsigned int)(guid >> 48) & 0xffff,
		 (unsigned int)(guid >> 32) & 0xffff, (unsigned int)(guid >> 16) & 0xffff,
		 (unsigned int)guid & 0xffff);
}

int rctl_rdma_parse_dev(const struct nlmsghdr *nlh, struct rctl_host *h)
{
	const struct nlattr *tb[RDMA_NLDEV_ATTR_MAX] = { 0 };
	struct rctl_device *d;

	mnl_attr_parse(nlh, 0, rctl_nldev_attr_cb, tb);
	if (!tb[RDMA_NLDEV_ATTR_DEV_INDEX] || !tb[RDMA_NLDEV_ATTR_DEV_NAME])
		return 0;
	d = rctl_arr_push(&h->devs, &h->n_devs, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->index = mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX]);
	snprintf(d->name, sizeof(d->name), "%s", mnl_attr_get_str(tb[RDMA_NLDEV_ATTR_DEV_NAME]));
	if (tb[RDMA_NLDEV_ATTR_FW_VERSION])
		snprintf(d->fw, sizeof(d->fw), "%s", mnl_attr_get_str(tb[RDMA_NLDEV_ATTR_FW_VERSION]));
	if (tb[RDMA_NLDEV_ATTR_NODE_GUID])
		guid_str(d->node_guid, sizeof(d->node_guid),
			 mnl_attr_get_u64(tb[RDMA_NLDEV_ATTR_NODE_GUID]));
	if (tb[RDMA_NLDEV_ATTR_SYS_IMAGE_GUID])
		guid_str(d->sys_image_guid, sizeof(d->sys_image_guid),
			 mnl_attr_get_u64(tb[RDMA_NLDEV_ATTR_SYS_IMAGE_GUID]));
	if (tb[RDMA_NLDEV_ATTR_DEV_NODE_TYPE])
		snprintf(d->node_type, sizeof(d->node_type), "%s",
			 NAME_OF(node_types, mnl_attr_get_u8(tb[RDMA_NLDEV_ATTR_DEV_NODE_TYPE])));
	return 0;
}

int rctl_rdma_parse_port(const struct nlmsghdr *nlh, struct rctl_device *d)
{
	const struct nlattr *tb[RDMA_NLDEV_ATTR_MAX] = { 0 };
	struct rctl_port *p;

	mnl_attr_parse(nlh, 0, rctl_nldev_attr_cb, tb);
	if (!tb[RDMA_NLDEV_ATTR_PORT_INDEX])
		return 0;
	p = rctl_arr_push(&d->ports, &d->n_ports, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->port = mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	if (tb[RDMA_NLDEV_ATTR_PORT_STATE])
		snprintf(p->state, sizeof(p->state), "%s",
			 NAME_OF(port_states, mnl_attr_get_u8(tb[RDMA_NLDEV_ATTR_PORT_STATE])));
	if (tb[RDMA_NLDEV_ATTR_PORT_PHYS_STATE])
		snprintf(p->phys_state, sizeof(p->phys_state), "%s",
			 NAME_OF(phys_states, mnl_attr_get_u8(tb[RDMA_NLDEV_ATTR_PORT_PHYS_STATE])));
	if (tb[RDMA_NLDEV_ATTR_NDEV_NAME])
		snprintf(p->netdev, sizeof(p->netdev), "%s",
			 mnl_attr_get_str(tb[RDMA_NLDEV_ATTR_NDEV_NAME]));
	if (tb[RDMA_NLDEV_ATTR_NDEV_INDEX])
		p->netdev_ifindex = mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_NDEV_INDEX]);
	return 0;
}

static int dev_cb(const struct nlmsghdr *nlh, void *data)
{
	return rctl_rdma_parse_dev(nlh, data) ? MNL_CB_ERROR : MNL_CB_OK;
}

static int port_cb(const struct nlmsghdr *nlh, void *data)
{
	return rctl_rdma_parse_port(nlh, data) ? MNL_CB_ERROR : MNL_CB_OK;
}

/*
 * The driver is not in nldev: take the bound kernel driver of the parent
 * device (mlx5_core → mlx5, bnxt_en → bnxt_re, ice → irdma); software
 * devices (rxe, siw) have none, and are named after the device prefix.
 */
static void dev_driver(struct rctl_device *d)
{
	static const struct { const char *kmod, *name; } map[] = {
		{ "mlx5_core", "mlx5" }, { "mlx4_core", "mlx4" },
		{ "bnxt_en", "bnxt_re" }, { "ice", "irdma" }, { "i40e", "irdma" },
	};
	char path[PATH_MAX], link[PATH_MAX];
	ssize_t n;
	size_t i;

	snprintf(path, sizeof(path), "%s/class/infiniband/%s/device/driver",
		 rctl_sysfs(), d->name);
	n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		snprintf(d->driver, sizeof(d->driver), "%s", basename(link));
		for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
			if (!strcmp(d->driver, map[i].kmod))
				snprintf(d->driver, sizeof(d->driver), "%s", map[i].name);
		return;
	}
	snprintf(d->driver, sizeof(d->driver), "%.*s",
		 (int)strcspn(d->name, "0123456789_"), d->name);
}

int rctl_rdma_collect(struct rctl_nl *nl, struct rctl_host *h, struct rctl_err *e)
{
	struct nlmsghdr *nlh;
	uint32_t i;
	int ret;

	nlh = rctl_nl_msg(nl, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET),
			  NLM_F_DUMP);
	ret = rctl_nl_talk(nl, nlh, dev_cb, h);
	if (ret)
		return rctl_err_strerror(e, ret, "cannot list RDMA devices");
	for (i = 0; i < h->n_devs; i++) {
		struct rctl_device *d = &h->devs[i];

		dev_driver(d);
		nlh = rctl_nl_msg(nl, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_PORT_GET),
				  NLM_F_DUMP);
		mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, d->index);
		ret = rctl_nl_talk(nl, nlh, port_cb, d);
		if (ret)
			rctl_host_unread(h, ret, strerror(-ret), "ports of '%s'", d->name);
	}
	return 0;
}

/* ---- the uverbs driver id ---------------------------------------------- */

static int driver_id_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[RDMA_NLDEV_ATTR_MAX] = { 0 };

	mnl_attr_parse(nlh, 0, rctl_nldev_attr_cb, tb);
	if (tb[RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID])
		*(int64_t *)data = mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID]);
	return MNL_CB_OK;
}

/*
 * GET_CHARDEV of "uverbs" names the kernel driver's enum rdma_driver_id
 * (drivers/infiniband/core/uverbs_main.c, ib_uverbs_get_nl_info(); absent for
 * a driver with uverbs_no_driver_id_binding), which rdma-core matches its
 * providers by (libibverbs/ibdev_nl.c, VERBS_DRIVER_ID()).
 */
int rctl_rdma_uverbs_driver(struct rctl_nl *nl, uint32_t index, uint32_t *id)
{
	struct nlmsghdr *nlh;
	int64_t got = -1;
	int ret;

	nlh = rctl_nl_msg(nl, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET_CHARDEV),
			  NLM_F_ACK);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, index);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_CHARDEV_TYPE, "uverbs");
	ret = rctl_nl_talk(nl, nlh, driver_id_cb, &got);
	if (ret)
		return ret;
	if (got < 0)
		return -ENOENT;
	*id = (uint32_t)got;
	return 0;
}

/* ---- STAT: hw counters of a port ------------------------------------- */

static int hwc_entry(const struct nlattr *nest, struct rctl_port *p)
{
	const struct nlattr *tb[RDMA_NLDEV_ATTR_MAX] = { 0 };
	const struct nlattr *name, *val;
	struct rctl_counter *c;

	mnl_attr_parse_nested(nest, rctl_nldev_attr_cb, tb);
	name = tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME];
	val = tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE];
	if (!name || !val)
		return MNL_CB_OK;
	c = rctl_arr_push(&p->hw, &p->n_hw, sizeof(*c));
	if (!c)
		return MNL_CB_ERROR;
	snprintf(c->name, sizeof(c->name), "%s", mnl_attr_get_str(name));
	c->value = mnl_attr_get_u64(val);
	return MNL_CB_OK;
}

int rctl_hw_counters_parse(const struct nlmsghdr *nlh, struct rctl_port *p)
{
	const struct nlattr *tb[RDMA_NLDEV_ATTR_MAX] = { 0 };
	const struct nlattr *a;

	mnl_attr_parse(nlh, 0, rctl_nldev_attr_cb, tb);
	if (!tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS])
		return MNL_CB_OK;
	mnl_attr_for_each_nested(a, tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS])
		if (hwc_entry(a, p) != MNL_CB_OK)
			return MNL_CB_ERROR;
	return MNL_CB_OK;
}

static int stat_cb(const struct nlmsghdr *nlh, void *data)
{
	return rctl_hw_counters_parse(nlh, data);
}

/*
 * STAT_GET_STATUS lists every hw counter of the port; only optional ones carry
 * STAT_HWCOUNTER_DYNAMIC (u8: enabled). Those are what we keep.
 */
static int status_entry(const struct nlattr *nest, struct rctl_opt_counters *oc)
{
	const struct nlattr *tb[RDMA_NLDEV_ATTR_MAX] = { 0 };
	const struct nlattr *name, *dyn;
	struct rctl_counter_status *c;

	mnl_attr_parse_nested(nest, rctl_nldev_attr_cb, tb);
	name = tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME];
	dyn = tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC];
	if (!name || !dyn)
		return MNL_CB_OK;
	c = rctl_arr_push(&oc->c, &oc->n, sizeof(*c));
	if (!c)
		return MNL_CB_ERROR;
	snprintf(c->name, sizeof(c->name), "%s", mnl_attr_get_str(name));
	c->enabled = mnl_attr_get_u8(dyn);
	return MNL_CB_OK;
}

int rctl_opt_counters_parse(const struct nlmsghdr *nlh, struct rctl_opt_counters *oc)
{
	const struct nlattr *tb[RDMA_NLDEV_ATTR_MAX] = { 0 };
	const struct nlattr *a;

	if (mnl_attr_parse(nlh, 0, rctl_nldev_attr_cb, tb) != MNL_CB_OK)
		return MNL_CB_ERROR;
	if (!tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS])
		return MNL_CB_OK;
	mnl_attr_for_each_nested(a, tb[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS])
		if (status_entry(a, oc) != MNL_CB_OK)
			return MNL_CB_ERROR;
	return MNL_CB_OK;
}

static int status_cb(const struct nlmsghdr *nlh, void *data)
{
	return rctl_opt_counters_parse(nlh, data);
}

int rctl_port_opt_counters(struct rctl_nl *nl, const struct rctl_device *d,
			   struct rctl_port *p)
{
	struct rctl_opt_counters *oc = &p->opt_counters;
	struct nlmsghdr *nlh;
	int ret;

	free(oc->c);
	*oc = (struct rctl_opt_counters){ 0 };
	nlh = rctl_nl_msg(nl, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_STAT_GET_STATUS),
			  NLM_F_ACK);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, d->index);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, p->port);
	ret = rctl_nl_talk(nl, nlh, status_cb, oc);
	if (!ret) {
		oc->st.ok = true;
		return 0;
	}
	free(oc->c);
	oc->c = NULL;
	oc->n = 0;
	/* Before 5.18, or a driver without hw stats: EOPNOTSUPP or EINVAL. Data. */
	rctl_part_fail(&oc->st, ret, ret == -EOPNOTSUPP || ret == -EINVAL ?
		       "not exported by this kernel/driver" : NULL);
	return ret;
}

int rctl_port_hw_counters(struct rctl_nl *nl, const struct rctl_device *d,
			  struct rctl_port *p)
{
	struct nlmsghdr *nlh;

	nlh = rctl_nl_msg(nl, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_STAT_GET),
			  NLM_F_ACK);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, d->index);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, p->port);
	return rctl_nl_talk(nl, nlh, stat_cb, p);
}
