// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rocectl devices: RDMA device ↔ netdev, port state, active vs netdev MTU and
 * the GID table (what ibdev2netdev, show_gids and ibv_devinfo showed).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "rocectl/collect.h"
#include "rocectl/lldp.h"
#include "rocectl/out.h"
#include "rocectl/rules.h"
#include "rocectl/snapshot.h"

static const struct out_col gid_cols[] = {
	{ .key = "index", .title = "INDEX", .flags = OUT_COL_RIGHT },
	{ .key = "gid", .title = "GID" },
	{ .key = "ip", .title = "IP" },
	{ .key = "type", .title = "TYPE" },
	{ .key = "netdev", .title = "NETDEV" },
};

static void print_gids(const struct rctl_port *p)
{
	uint32_t i;

	out_table_indent(8);
	out_table_begin("gids", gid_cols, 5);
	for (i = 0; i < p->n_gids; i++) {
		const struct rctl_gid *g = &p->gids[i];

		out_row_begin();
		out_u64(OUT_ANY, "index", NULL, g->index);
		out_str(OUT_ANY, "gid", NULL, g->gid);
		out_str(OUT_ANY, "ip", NULL, g->ip[0] ? g->ip : NULL);
		out_str(OUT_ANY, "type", NULL, g->type);
		out_str(OUT_ANY, "netdev", NULL, g->netdev[0] ? g->netdev : NULL);
		out_row_end();
	}
	out_table_end();
}

/* "1024 (limited by netdev mtu 1500; 4096 needs 4192)" when the netdev caps it. */
static void print_mtu(const struct rctl_port *p, const struct rctl_netdev *nd)
{
	uint32_t roce = nd && nd->mtu ? rctl_roce_mtu_for(nd->mtu) : 0;
	bool limited = roce && roce < p->max_mtu && p->active_mtu <= roce;

	out_u64(OUT_ANY, "active_mtu", "        active_mtu %" PRIu64, p->active_mtu);
	out_u64(OUT_ANY, "max_mtu", "  max_mtu %" PRIu64, p->max_mtu);
	out_bool(OUT_JSON, "mtu_limited_by_netdev", NULL, limited);
	if (limited)
		out_text("  (limited by netdev mtu %u; %u needs %u)", nd->mtu,
			 p->max_mtu, p->max_mtu + 96);
	out_text("\n");
}

static void print_netdev(const struct rctl_port *p, const struct rctl_netdev *nd)
{
	out_str(OUT_ANY, "netdev", "        netdev %s", p->netdev[0] ? p->netdev : NULL);
	out_str(OUT_ANY, "netdev_operstate", " (%s)", nd ? nd->operstate : NULL);
	if (nd)
		out_u64(OUT_ANY, "netdev_mtu", "  mtu %" PRIu64 "\n", nd->mtu);
	else
		out_null(OUT_ANY, "netdev_mtu", "\n");
}

static struct {
	const char *dev;
	double lldp_wait;
	bool verbose;
} o;

static const struct rctl_opt devices_opts[] = {
	CMD_DEV_OPT(o.dev),
	CMD_LLDP_WAIT_OPT(o.lldp_wait),
	{ 0 }
};

static void print_pfc_prios(const bool en[8])
{
	char buf[24];
	int i;

	out_arr_begin("pfc_prios");
	for (i = 0; i < 8; i++)
		if (en[i])
			out_u64(OUT_JSON, NULL, NULL, i);
	out_arr_end();
	out_text("  pfc %s", rctl_prio_list(en, buf, sizeof(buf)));
}

/*
 * "neighbor leaf-07 port Ethernet1/7 (lldpd)  mfs 9216  pfc 3  dcbx ets,pfc,app",
 * or why it is unknown; nothing (null) when it was not looked for. With no
 * source at all (ENOENT: no lldpd, no --lldp-wait) the text says why only
 * with -v: every port of every host without lldpd would say the same.
 */
static void print_neighbor(const struct rctl_netdev *nd)
{
	const struct rctl_lldp_peer *p = nd ? &nd->lldp : NULL;

	if (!p || (!p->st.ok && !p->st.err)) {
		out_null(OUT_JSON, "neighbor", NULL);
		return;
	}
	out_obj_begin("neighbor");
	out_bool(OUT_JSON, "known", NULL, p->st.ok);
	if (!p->st.ok) {
		out_str(p->st.err == ENOENT && !o.verbose ? OUT_JSON : OUT_ANY, "reason",
			"        neighbor unknown: %s\n", p->st.reason);
		out_str(OUT_JSON, "fw_agent", NULL, p->fw_agent);
		out_obj_end();
		return;
	}
	out_str(OUT_ANY, "system_name", "        neighbor %s", p->system_name[0] ?
		p->system_name : p->chassis_id);
	out_str(OUT_ANY, "port_id", " port %s", p->port_id);
	out_str(OUT_ANY, "source", " (%s)", p->source);
	out_str(OUT_JSON, "chassis_id", NULL, p->chassis_id);
	out_str(OUT_JSON, "port_description", NULL, p->port_descr);
	out_u64(OUT_JSON, "ttl_s", NULL, p->ttl);
	if (p->has_mfs)
		out_u64(OUT_ANY, "mfs_bytes", "  mfs %" PRIu64, p->mfs);
	else
		out_null(OUT_JSON, "mfs_bytes", NULL);
	out_bool(OUT_JSON, "dcbx", NULL, rctl_lldp_has_dcbx(p));
	if (p->has_pfc)
		print_pfc_prios(p->pfc_en);
	if (!rctl_lldp_has_dcbx(p))
		out_text("  no DCBX TLVs");
	out_text("\n");
	out_obj_end();
}

static void print_port(const struct rctl_host *h, const struct rctl_device *d,
		       const struct rctl_port *p)
{
	const struct rctl_netdev *nd = rctl_host_netdev(h, p->netdev);

	out_obj_begin(NULL);
	out_u64(OUT_ANY, "port", "    port %" PRIu64 ":", p->port);
	out_str(OUT_ANY, "state", " %s", p->state);
	out_str(OUT_ANY, "physical_state", " %s", p->phys_state);
	out_str(OUT_ANY, "link_layer", "  %s", p->link_layer);
	out_u64(OUT_JSON, "speed_mbps", NULL, p->speed_mbps);
	out_str(OUT_JSON, "width", NULL, p->width);
	if (p->speed_mbps)
		out_text("  %g Gb/s (%s)", p->speed_mbps / 1000.0, p->width);
	out_text("\n");
	print_netdev(p, nd);
	print_mtu(p, nd);
	print_neighbor(nd);
	print_gids(p);
	out_obj_end();
}

static void print_dev_head(const struct rctl_device *d)
{
	out_str(OUT_ANY, "name", "%s:", d->name);
	out_str(OUT_ANY, "driver", " driver %s", d->driver);
	out_str(OUT_ANY, "node_type", "  node_type %s", d->node_type);
	out_str(OUT_ANY, "node_guid", "  node_guid %s", d->node_guid);
	out_str(OUT_JSON, "sys_image_guid", NULL, d->sys_image_guid);
	out_str(OUT_ANY, "fw", "  fw %s\n", d->fw[0] ? d->fw : NULL);
}

static int print_devices(const struct rctl_host *h, const char *filter)
{
	uint32_t i, j, shown = 0;

	out_arr_begin("devices");
	for (i = 0; i < h->n_devs; i++) {
		const struct rctl_device *d = &h->devs[i];
		/* A device whose ports were not read is still a device. */
		bool head = !d->n_ports && (!filter || !strcmp(filter, d->name));

		if (head) {
			out_obj_begin(NULL);
			print_dev_head(d);
			out_arr_begin("ports");
			shown++;
		}
		for (j = 0; j < d->n_ports; j++) {
			if (!rctl_port_match(filter, d, &d->ports[j]))
				continue;
			if (!head) {
				out_obj_begin(NULL);
				print_dev_head(d);
				out_arr_begin("ports");
				head = true;
			}
			print_port(h, d, &d->ports[j]);
			shown++;
		}
		if (head) {
			out_arr_end();
			out_obj_end();
		}
	}
	out_arr_end();
	return shown;
}

static int load_host(struct rctl_ctx *ctx, struct rctl_host *h)
{
	struct rctl_err e = { 0 };
	int ret;

	ret = cmd_load_host(ctx, 0, h, &e);
	if (ret) {
		out_arr_begin("devices");
		out_arr_end();
		return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	}
	return cmd_load_lldp(ctx, h, o.lldp_wait);
}

static int do_devices(struct rctl_ctx *ctx, int argc, char **argv)
{
	const char *filter;
	struct rctl_host h;
	int ret;

	o.verbose = ctx->verbose;
	ret = cmd_dev_arg(ctx, o.dev, argc, argv, &filter);
	if (ret)
		return ret;
	ret = load_host(ctx, &h);
	if (ret)
		return ret;
	if (!h.n_devs)
		ret = cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "no RDMA device found");
	if (!print_devices(&h, filter) && !ret)
		ret = cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "no RDMA device '%s'", filter);
	rctl_host_free(&h);
	return ret;
}

const struct rctl_cmd cmd_devices = {
	.name = "devices",
	.summary = "show RDMA devices, ports, netdevs, MTUs and GID tables",
	.args = "[DEV[/PORT] | NETDEV]",
	.max_args = 1,
	.arg_kind = ARG_DEV,
	.opts = devices_opts,
	.fn = do_devices,
	.host = RCTL_COLLECT_INVENTORY,
	.host_input = true,
};
