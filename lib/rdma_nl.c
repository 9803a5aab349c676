// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RDMA netlink (nldev): devices and ports (anchor: iproute2 rdma/dev.c, link.c)
 * and their hw counters, STAT_GET and STAT_GET_STATUS (anchor: rdma/stat.c);
 * the resource dumps RES_QP_GET and RES_CM_ID_GET (anchor: rdma/res-qp.c,
 * res-cmid.c; the kernel's drivers/infiniband/core/nldev.c, 6.1).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

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

/* ---- RES_QP_GET, RES_CM_ID_GET: the RDMA consumers ---------------------- */

/* enum ib_qp_type (include/rdma/ib_verbs.h), as iproute2 rdma/res-qp.c names them. */
static const char *const qp_types[] = {
	[0] = "SMI", [1] = "GSI", [2] = "RC", [3] = "UC", [4] = "UD",
	[5] = "RAW_IPV6", [6] = "RAW_ETHERTYPE", [8] = "RAW_PACKET",
	[9] = "XRC_INI", [10] = "XRC_TGT", [255] = "DRIVER",
};

/* enum ib_qp_state. */
static const char *const qp_states[] = {
	"RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR",
};

/* enum rdma_cm_state (drivers/infiniband/core/cma_priv.h), as rdma/res-cmid.c. */
static const char *const cm_states[] = {
	"IDLE", "ADDR_QUERY", "ADDR_RESOLVED", "ROUTE_QUERY", "ROUTE_RESOLVED",
	"CONNECT", "DISCONNECT", "ADDR_BOUND", "LISTEN", "DEVICE_REMOVAL",
	"DESTROYING",
};

/* enum rdma_ucm_port_space (include/uapi/rdma/rdma_user_cm.h). */
static const char *port_space(uint32_t ps)
{
	switch (ps) {
	case 0x0002: return "IPOIB";
	case 0x0106: return "TCP";
	case 0x0111: return "UDP";
	case 0x013f: return "IB";
	default: return "UNKNOWN";
	}
}

/* A kernel cm_id with a QP: its device, QP number and owner, for the join. */
struct rctl_res_kcm {
	char dev[RCTL_NAME_LEN];
	uint32_t lqpn;
	char owner[RCTL_NAME_LEN];
};

static int kcm_cmp(const void *a, const void *b)
{
	const struct rctl_res_kcm *x = a, *y = b;
	int d = strcmp(x->dev, y->dev);

	return d ? d : (x->lqpn > y->lqpn) - (x->lqpn < y->lqpn);
}

/*
 * A __kernel_sockaddr_storage (cm_id->route.addr) as "10.0.0.1:4420" or
 * "[fe80::1]:4420"; AF_IB and anything shorter than its family needs: "".
 */
static void res_addr(const struct nlattr *a, char *buf, size_t len)
{
	const void *p = mnl_attr_get_payload(a);
	size_t n = mnl_attr_get_payload_len(a);
	char ip[INET6_ADDRSTRLEN];
	struct sockaddr_in6 s6;
	struct sockaddr_in s4;
	sa_family_t fam;

	buf[0] = '\0';
	if (n < sizeof(fam))
		return;
	memcpy(&fam, p, sizeof(fam));
	if (fam == AF_INET && n >= sizeof(s4)) {
		memcpy(&s4, p, sizeof(s4));
		inet_ntop(AF_INET, &s4.sin_addr, ip, sizeof(ip));
		snprintf(buf, len, "%s:%u", ip, ntohs(s4.sin_port));
	} else if (fam == AF_INET6 && n >= sizeof(s6)) {
		memcpy(&s6, p, sizeof(s6));
		inet_ntop(AF_INET6, &s6.sin6_addr, ip, sizeof(ip));
		snprintf(buf, len, "[%s]:%u", ip, ntohs(s6.sin6_port));
	}
}

/* The consumer of e, found or added; NULL past the bound or out of memory. */
static struct rctl_consumer *res_consumer(struct rctl_res_ctx *c, const struct rctl_res_entry *e)
{
	struct rctl_rdma_res *r = c->res;
	struct rctl_consumer *k;
	uint32_t i;

	for (i = r->n_consumers; i-- > 0;)
		if (r->consumers[i].pid == e->pid &&
		    (e->pid || !strcmp(r->consumers[i].name, e->owner)))
			return &r->consumers[i];
	if (r->n_consumers >= RCTL_RES_COUNT_MAX)
		return NULL;
	k = rctl_arr_push(&r->consumers, &r->n_consumers, sizeof(*k));
	if (!k) {
		c->oom = true;
		return NULL;
	}
	k->pid = e->pid;
	snprintf(k->name, sizeof(k->name), "%s", e->owner);
	return k;
}

/* Count e in its group: a scan from the last group hit, bounded by the cap. */
static void res_count(struct rctl_res_ctx *c, const struct rctl_res_entry *e)
{
	struct rctl_rdma_res *r = c->res;
	struct rctl_res_count *g;
	uint32_t i;

	for (i = r->n_counts; i-- > 0;) {
		g = &r->counts[i];
		if (g->port == e->port && g->pid == e->pid && !strcmp(g->kind, e->kind) &&
		    !strcmp(g->dev, e->dev) && !strcmp(g->owner, e->owner) &&
		    !strcmp(g->qp_type, e->qp_type) && !strcmp(g->state, e->state)) {
			g->n++;
			return;
		}
	}
	if (r->n_counts >= RCTL_RES_COUNT_MAX) {
		r->n_uncounted++;
		return;
	}
	g = rctl_arr_push(&r->counts, &r->n_counts, sizeof(*g));
	if (!g) {
		c->oom = true;
		return;
	}
	snprintf(g->kind, sizeof(g->kind), "%s", e->kind);
	snprintf(g->dev, sizeof(g->dev), "%s", e->dev);
	g->port = e->port;
	g->pid = e->pid;
	snprintf(g->owner, sizeof(g->owner), "%s", e->owner);
	snprintf(g->qp_type, sizeof(g->qp_type), "%s", e->qp_type);
	snprintf(g->state, sizeof(g->state), "%s", e->state);
	g->n = 1;
}

/* A kernel QP of rdma_cm takes the owner of its cm_id (the ULP). */
static void res_join(const struct rctl_res_ctx *c, struct rctl_res_entry *e)
{
	struct rctl_res_kcm key = { .lqpn = e->lqpn }, *k;

	if (e->pid || strcmp(e->owner, "[rdma_cm]") || !c->n_kcm)
		return;
	snprintf(key.dev, sizeof(key.dev), "%s", e->dev);
	k = bsearch(&key, c->kcm, c->n_kcm, sizeof(*k), kcm_cmp);
	if (!k)
		return;
	snprintf(e->via, sizeof(e->via), "%s", e->owner);
	snprintf(e->owner, sizeof(e->owner), "%s", k->owner);
}

/* Keep a kernel cm_id with a QP for the join; bounded like the list. */
static void res_keep_kcm(struct rctl_res_ctx *c, const struct rctl_res_entry *e)
{
	struct rctl_res_kcm *k;

	if (e->pid || !e->lqpn || c->n_kcm >= RCTL_RES_LIST_MAX * 16)
		return;
	k = rctl_arr_push(&c->kcm, &c->n_kcm, sizeof(*k));
	if (!k) {
		c->oom = true;
		return;
	}
	snprintf(k->dev, sizeof(k->dev), "%s", e->dev);
	k->lqpn = e->lqpn;
	snprintf(k->owner, sizeof(k->owner), "%s", e->owner);
}

static void res_add(struct rctl_res_ctx *c, struct rctl_res_entry *e, bool qp)
{
	struct rctl_rdma_res *r = c->res;
	struct rctl_consumer *k;
	struct rctl_res_entry *l;

	if (qp) {
		res_join(c, e);
		r->n_qps++;
	} else {
		res_keep_kcm(c, e);
		r->n_cm_ids++;
	}
	res_count(c, e);
	k = res_consumer(c, e);
	if (k && qp)
		k->n_qps++;
	else if (k)
		k->n_cm_ids++;
	if (r->n_list >= RCTL_RES_LIST_MAX) {
		r->n_unlisted++;
		return;
	}
	l = rctl_arr_push(&r->list, &r->n_list, sizeof(*l));
	if (!l) {
		c->oom = true;
		return;
	}
	*l = *e;
}

static void res_entry(struct rctl_res_ctx *c, const struct nlattr *nest, const char *dev, bool qp)
{
	const struct nlattr *tb[RDMA_NLDEV_ATTR_MAX] = { 0 };
	struct rctl_res_entry e = { 0 };
	const struct nlattr *a;

	if (mnl_attr_parse_nested(nest, rctl_nldev_attr_cb, tb) != MNL_CB_OK)
		return;
	snprintf(e.kind, sizeof(e.kind), "%s", qp ? "qp" : "cm_id");
	snprintf(e.dev, sizeof(e.dev), "%s", dev);
	if ((a = tb[RDMA_NLDEV_ATTR_PORT_INDEX]))
		e.port = mnl_attr_get_u32(a);
	if ((a = tb[RDMA_NLDEV_ATTR_RES_LQPN]))
		e.lqpn = mnl_attr_get_u32(a);
	if ((a = tb[RDMA_NLDEV_ATTR_RES_TYPE]))
		snprintf(e.qp_type, sizeof(e.qp_type), "%s", NAME_OF(qp_types, mnl_attr_get_u8(a)));
	if ((a = tb[RDMA_NLDEV_ATTR_RES_STATE]))
		snprintf(e.state, sizeof(e.state), "%s",
			 qp ? NAME_OF(qp_states, mnl_attr_get_u8(a)) :
			      NAME_OF(cm_states, mnl_attr_get_u8(a)));
	if (!qp && (a = tb[RDMA_NLDEV_ATTR_RES_PS]))
		snprintf(e.ps, sizeof(e.ps), "%s", port_space(mnl_attr_get_u32(a)));
	if (!qp && (a = tb[RDMA_NLDEV_ATTR_RES_SRC_ADDR]))
		res_addr(a, e.src, sizeof(e.src));
	if (!qp && (a = tb[RDMA_NLDEV_ATTR_RES_DST_ADDR]))
		res_addr(a, e.dst, sizeof(e.dst));
	/* fill_res_cm_id_entry(): the restrack id, what tune's state keeps of a connection */
	if (!qp && (a = tb[RDMA_NLDEV_ATTR_RES_CM_IDN]))
		e.id = mnl_attr_get_u32(a);
	/* fill_res_name_pid(): a user resource has its pid, a kernel one its module */
	if ((a = tb[RDMA_NLDEV_ATTR_RES_PID]))
		e.pid = mnl_attr_get_u32(a);
	else if ((a = tb[RDMA_NLDEV_ATTR_RES_KERN_NAME]))
		snprintf(e.owner, sizeof(e.owner), "[%.*s]", RCTL_NAME_LEN - 3,
			 mnl_attr_get_str(a));
	else
		snprintf(e.owner, sizeof(e.owner), "[kernel]");
	res_add(c, &e, qp);
}

int rctl_res_parse(const struct nlmsghdr *nlh, struct rctl_res_ctx *c)
{
	const struct nlattr *tb[RDMA_NLDEV_ATTR_MAX] = { 0 };
	const struct nlattr *a, *table;
	const char *dev;
	bool qp;

	if (mnl_attr_parse(nlh, 0, rctl_nldev_attr_cb, tb) != MNL_CB_OK)
		return 0;
	qp = tb[RDMA_NLDEV_ATTR_RES_QP];
	table = qp ? tb[RDMA_NLDEV_ATTR_RES_QP] : tb[RDMA_NLDEV_ATTR_RES_CM_ID];
	dev = tb[RDMA_NLDEV_ATTR_DEV_NAME] ? mnl_attr_get_str(tb[RDMA_NLDEV_ATTR_DEV_NAME]) : "";
	if (!table)
		return 0;
	mnl_attr_for_each_nested(a, table)
		if (mnl_attr_get_type(a) == (qp ? RDMA_NLDEV_ATTR_RES_QP_ENTRY :
						  RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY))
			res_entry(c, a, dev, qp);
	return c->oom ? -ENOMEM : 0;
}

void rctl_res_join_ready(struct rctl_res_ctx *c)
{
	if (c->n_kcm)
		qsort(c->kcm, c->n_kcm, sizeof(*c->kcm), kcm_cmp);
}

void rctl_res_ctx_free(struct rctl_res_ctx *c)
{
	free(c->kcm);
	c->kcm = NULL;
	c->n_kcm = 0;
}

static int res_cb(const struct nlmsghdr *nlh, void *data)
{
	return rctl_res_parse(nlh, data) ? MNL_CB_ERROR : MNL_CB_OK;
}

static int res_dump(struct rctl_nl *nl, const struct rctl_device *d, uint8_t cmd,
		    struct rctl_res_ctx *c)
{
	struct nlmsghdr *nlh;

	/* nldev's res_get_common_dumpit() wants the device: one dump each. */
	nlh = rctl_nl_msg(nl, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd), NLM_F_DUMP);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, d->index);
	return rctl_nl_talk(nl, nlh, res_cb, c);
}

int rctl_res_collect(struct rctl_nl *nl, struct rctl_host *h)
{
	struct rctl_res_ctx c = { .res = &h->res };
	int ret = 0;
	uint32_t i;

	for (i = 0; !ret && i < h->n_devs; i++)
		ret = res_dump(nl, &h->devs[i], RDMA_NLDEV_CMD_RES_CM_ID_GET, &c);
	rctl_res_join_ready(&c);
	for (i = 0; !ret && i < h->n_devs; i++)
		ret = res_dump(nl, &h->devs[i], RDMA_NLDEV_CMD_RES_QP_GET, &c);
	rctl_res_ctx_free(&c);
	if (ret) {
		rctl_part_fail(&h->res.st, -ret, ret == -EPERM ?
			       "the resource dumps need CAP_NET_ADMIN in some kernels" : NULL);
		return ret == -ENOMEM ? ret : 0;
	}
	h->res.st.ok = true;
	return 0;
}
