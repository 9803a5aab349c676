// SPDX-License-Identifier: GPL-2.0-or-later
/* libibverbs: port attributes and the GID table (anchor: rdma-core devinfo.c). */
#include <arpa/inet.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>
#include <rdma/ib_user_ioctl_verbs.h>

#include "rocectl/collect.h"

static uint32_t mtu_bytes(enum ibv_mtu m)
{
	return m >= IBV_MTU_256 && m <= IBV_MTU_4096 ? 128u << m : 0;
}

/* Per-lane Mb/s of ibv_port_attr.active_speed (IBTA encoding). */
static uint32_t lane_mbps(uint8_t speed)
{
	switch (speed) {
	case 1: return 2500;
	case 2: return 5000;
	case 4: case 8: return 10000;
	case 16: return 14000;
	case 32: return 25000;
	case 64: return 50000;
	case 128: return 100000;
	default: return 0;
	}
}

static uint32_t width_lanes(uint8_t width, char *name, size_t len)
{
	static const struct { uint8_t code, lanes; } w[] = {
		{ 1, 1 }, { 2, 4 }, { 4, 8 }, { 8, 12 }, { 16, 2 },
	};
	size_t i;

	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (w[i].code == width) {
			snprintf(name, len, "%uX", w[i].lanes);
			return w[i].lanes;
		}
	return 0;
}

static const char *gid_type_name(uint32_t t)
{
	switch (t) {
	case IBV_GID_TYPE_ROCE_V1: return "RoCE v1";
	case IBV_GID_TYPE_ROCE_V2: return "RoCE v2";
	default: return "IB";
	}
}

static void gid_fill(struct rctl_gid *g, const struct ibv_gid_entry *ent,
		     bool roce)
{
	static const uint8_t v4map[12] = { [10] = 0xff, [11] = 0xff };
	const uint8_t *raw = ent->gid.raw;

	g->index = ent->gid_index;
	inet_ntop(AF_INET6, raw, g->gid, sizeof(g->gid));
	if (!memcmp(raw, v4map, sizeof(v4map)))
		inet_ntop(AF_INET, raw + 12, g->ip, sizeof(g->ip));
	else if (roce)
		snprintf(g->ip, sizeof(g->ip), "%s", g->gid);
	snprintf(g->type, sizeof(g->type), "%s", roce ? gid_type_name(ent->gid_type) : "IB");
	if (ent->ndev_ifindex)
		if_indextoname(ent->ndev_ifindex, g->netdev);
}

static int port_gids(struct ibv_context *ctx, struct rctl_port *p, int len)
{
	struct ibv_gid_entry *ents;
	ssize_t n, i;

	ents = calloc(len, sizeof(*ents));
	if (!ents)
		return -ENOMEM;
	n = ibv_query_gid_table(ctx, ents, len, 0);
	for (i = 0; i < n; i++) {
		struct rctl_gid *g;

		if (ents[i].port_num != p->port)
			continue;
		g = rctl_arr_push(&p->gids, &p->n_gids, sizeof(*g));
		if (!g)
			break;
		gid_fill(g, &ents[i], !strcmp(p->link_layer, "Ethernet"));
	}
	free(ents);
	return n < 0 ? (int)n : 0;
}

static int port_query(struct ibv_context *ctx, const struct ibv_device_attr *da,
		      struct rctl_port *p)
{
	struct ibv_port_attr pa;
	uint32_t lanes;
	int ret;

	ret = ibv_query_port(ctx, p->port, &pa);
	if (ret)
		return -ret;
	p->max_mtu = mtu_bytes(pa.max_mtu);
	p->active_mtu = mtu_bytes(pa.active_mtu);
	snprintf(p->link_layer, sizeof(p->link_layer), "%s",
		 pa.link_layer == IBV_LINK_LAYER_ETHERNET ? "Ethernet" : "InfiniBand");
	lanes = width_lanes(pa.active_width, p->width, sizeof(p->width));
	p->speed_mbps = lane_mbps(pa.active_speed) * lanes;
	return port_gids(ctx, p, pa.gid_tbl_len * da->phys_port_cnt);
}

static int dev_query(struct ibv_device *ibdev, struct rctl_host *h,
		     struct rctl_device *d)
{
	struct ibv_device_attr da;
	struct ibv_context *ctx;
	uint32_t i;
	int ret;

	ctx = ibv_open_device(ibdev);
	if (!ctx)
		return -(errno ? errno : ENODEV);
	ret = ibv_query_device(ctx, &da);
	for (i = 0; !ret && i < d->n_ports; i++) {
		ret = port_query(ctx, &da, &d->ports[i]);
		if (ret)
			rctl_host_unread(h, ret, strerror(-ret), "verbs port %s/%u",
					 d->name, d->ports[i].port);
		ret = 0;
	}
	ibv_close_device(ctx);
	return ret > 0 ? -ret : ret;
}

/* ---- the providers of the devices present ------------------------------ */

/*
 * rdma-core's provider of each kernel driver id (enum rdma_driver_id,
 * include/uapi/rdma/ib_user_ioctl_verbs.h): providers/<name>/, built as
 * lib<name>-rdmav<PABI>.so into libibverbs/ beside libibverbs itself
 * (rdma-core buildlib, VERBS_PROVIDER_DIR; rdma-core 44: rdmav34).
 */
static const char *const provider_of[] = {
	[RDMA_DRIVER_MLX5] = "mlx5",		[RDMA_DRIVER_MLX4] = "mlx4",
	[RDMA_DRIVER_CXGB4] = "cxgb4",		[RDMA_DRIVER_MTHCA] = "mthca",
	[RDMA_DRIVER_BNXT_RE] = "bnxt_re",	[RDMA_DRIVER_OCRDMA] = "ocrdma",
	[RDMA_DRIVER_IRDMA] = "irdma",		[RDMA_DRIVER_VMW_PVRDMA] = "vmw_pvrdma",
	[RDMA_DRIVER_QEDR] = "qedr",		[RDMA_DRIVER_HNS] = "hns",
	[RDMA_DRIVER_RXE] = "rxe",		[RDMA_DRIVER_HFI1] = "hfi1verbs",
	[RDMA_DRIVER_QIB] = "ipathverbs",	[RDMA_DRIVER_EFA] = "efa",
	[RDMA_DRIVER_SIW] = "siw",		[RDMA_DRIVER_ERDMA] = "erdma",
};
#define N_PROVIDERS (sizeof(provider_of) / sizeof(provider_of[0]))

/* libibverbs's directory of providers: "libibverbs" beside the library itself. */
static int provider_dir(char *dir, size_t len)
{
	void *sym = dlsym(RTLD_DEFAULT, "ibv_get_device_list");
	const char *slash;
	Dl_info di;

	if (!sym || !dladdr(sym, &di) || !di.dli_fname || !(slash = strrchr(di.dli_fname, '/')))
		return -ENOENT;
	if (snprintf(dir, len, "%.*s/libibverbs", (int)(slash - di.dli_fname),
		     di.dli_fname) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

/* dlopen "lib<name>-rdmav*.so" of dir: its constructor registers the provider. */
static void provider_load(const char *dir, const char *name)
{
	char prefix[64], path[PATH_MAX];
	struct dirent *de;
	size_t n, k;
	DIR *d = opendir(dir);

	if (!d)
		return;
	k = (size_t)snprintf(prefix, sizeof(prefix), "lib%s-rdmav", name);
	while ((de = readdir(d))) {
		n = strlen(de->d_name);
		if (n <= k + 3 || strncmp(de->d_name, prefix, k) || strcmp(de->d_name + n - 3, ".so"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (dlopen(path, RTLD_NOW))
			break;
	}
	closedir(d);
}

/*
 * Without this, ibv_get_device_list() dlopens every provider installed
 * (rdma-core libibverbs/init.c: load_drivers() when a device matches no
 * provider yet): 17 on Debian 12, most of its time. Loaded first, the
 * providers of the devices present match them, and no other is loaded. A
 * device this cannot place (no driver id, one not in the table, no file)
 * leaves libibverbs to load them all, as before: the device list is the same.
 */
static void providers_preload(struct rctl_nl *nl, const struct rctl_host *h)
{
	bool want[N_PROVIDERS] = { false };
	char dir[PATH_MAX];
	uint32_t i, id;

	for (i = 0; i < h->n_devs; i++) {
		if (rctl_rdma_uverbs_driver(nl, h->devs[i].index, &id) ||
		    id >= N_PROVIDERS || !provider_of[id])
			return;
		want[id] = true;
	}
	if (provider_dir(dir, sizeof(dir)))
		return;
	for (i = 0; i < N_PROVIDERS; i++)
		if (want[i])
			provider_load(dir, provider_of[i]);
}

int rctl_verbs_collect(struct rctl_nl *nl, struct rctl_host *h, struct rctl_err *e)
{
	struct ibv_device **list;
	int n, i, ret;
	struct rctl_device *d;

	if (!h->n_devs)
		return 0;
	providers_preload(nl, h);
	list = ibv_get_device_list(&n);
	if (!list) {
		rctl_host_unread(h, errno, strerror(errno), "verbs device list");
		return 0;
	}
	for (i = 0; i < n; i++) {
		d = rctl_host_dev(h, ibv_get_device_name(list[i]));
		if (!d)
			continue;
		ret = dev_query(list[i], h, d);
		if (ret)
			rctl_host_unread(h, ret, strerror(-ret), "verbs device '%s'", d->name);
	}
	ibv_free_device_list(list);
	return 0;
}
