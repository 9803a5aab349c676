// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rocectl capture: the RoCE v2 flows of a live capture or a pcap/pcapng
 * file, from the packets themselves: the DSCP and ECN each flow really
 * carries, CNPs and their DSCP, NAKs, PSNs going back, and the traffic class
 * each rdma_cm connection was set up with. 'rocectl check wire' judges the
 * same against the intent. Reads only; a live capture needs CAP_NET_RAW.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "rocectl/collect.h"
#include "rocectl/model.h"
#include "rocectl/out.h"
#include "rocectl/roce_wire.h"

static struct {
	struct cmd_wire wire;
	int count;
	int buffer_kib;
} o;

static const struct rctl_opt capture_opts[] = {
	CMD_WIRE_OPTS(o.wire),
	{ .name = "count", .short_name = 'c', .type = OPT_INT, .arg = "COUNT", .dst = &o.count,
	  .min = 1, .max = 1000000000, .help = "stop after COUNT frames" },
	{ .name = "buffer-size", .type = OPT_INT, .arg = "KIB", .dst = &o.buffer_kib,
	  .min = 64, .max = 1048576, .help = "the kernel's capture buffer in KiB, 64 or more (libpcap's default: 2 MiB)" },
	{ 0 }
};

static const char *const ecn_short[] = { "not-ect", "ect1", "ect0", "ce" };

/* "26/ect0:1200 0/not-ect:3": DSCP/ECN:packets, for people. */
static const char *marks_text(const struct rctl_wire_mark *m, uint32_t n, char *buf, size_t len)
{
	size_t off = 0;
	uint32_t i;

	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%" PRIu32 "/%s:%" PRIu64, i ? " " : "",
				m[i].dscp, ecn_short[m[i].ecn & 3], m[i].packets);
	return n ? buf : "-";
}

static void marks_json(const char *key, const struct rctl_wire_mark *m, uint32_t n)
{
	uint32_t i;

	out_arr_begin(key);
	for (i = 0; i < n; i++) {
		out_obj_begin(NULL);
		out_u64(OUT_JSON, "dscp", NULL, m[i].dscp);
		out_str(OUT_JSON, "ecn_codepoint", NULL, ecn_short[m[i].ecn & 3]);
		out_u64(OUT_JSON, "packets", NULL, m[i].packets);
		out_obj_end();
	}
	out_arr_end();
}

static const struct out_col flow_cols[] = {
	{ .key = "src", .title = "SRC" },
	{ .key = "dst", .title = "DST" },
	{ .key = "dst_qp", .title = "QP", .flags = OUT_COL_RIGHT },
	{ .key = "packets", .title = "PKTS", .flags = OUT_COL_RIGHT },
	{ .key = "cnps", .title = "CNP", .flags = OUT_COL_RIGHT },
	{ .key = "naks", .title = "NAK", .flags = OUT_COL_RIGHT },
	{ .key = "psn_regressions", .title = "PSN_BACK", .flags = OUT_COL_RIGHT },
	{ .key = "marks_text", .title = "DSCP/ECN:PKTS" },
	{ .key = "cnp_marks_text", .title = "CNP DSCP/ECN:PKTS" },
};

static void print_flow(const struct rctl_wire_flow *f)
{
	uint64_t naks = f->nak_psn_seq + f->nak_rnr + f->nak_invalid_req + f->nak_remote_access +
			f->nak_remote_op;
	char a[256], b[256];

	out_row_begin();
	out_str(OUT_ANY, "src", NULL, f->src);
	out_str(OUT_ANY, "dst", NULL, f->dst);
	out_u64(OUT_ANY, "dst_qp", NULL, f->dst_qp);
	out_u64(OUT_JSON, "vlan", NULL, f->vlan);
	out_u64(OUT_JSON, "ifindex", NULL, f->ifindex);
	out_bool(OUT_JSON, "outgoing", NULL, f->outgoing);
	out_str(OUT_JSON, "owner", NULL, f->owner);
	out_u64(OUT_ANY, "packets", NULL, f->packets);
	out_u64(OUT_JSON, "ip_bytes", NULL, f->bytes);
	out_u64(OUT_JSON, "requests", NULL, f->requests);
	out_u64(OUT_JSON, "responses", NULL, f->responses);
	out_u64(OUT_JSON, "acks", NULL, f->acks);
	out_u64(OUT_ANY, "cnps", NULL, f->cnps);
	out_u64(OUT_JSON, "mads", NULL, f->mads);
	out_u64(OUT_JSON, "other", NULL, f->other);
	out_u64(OUT_TEXT, "naks", NULL, naks);
	out_obj_begin("naks");
	out_u64(OUT_JSON, "psn_seq", NULL, f->nak_psn_seq);
	out_u64(OUT_JSON, "rnr", NULL, f->nak_rnr);
	out_u64(OUT_JSON, "invalid_req", NULL, f->nak_invalid_req);
	out_u64(OUT_JSON, "remote_access", NULL, f->nak_remote_access);
	out_u64(OUT_JSON, "remote_op", NULL, f->nak_remote_op);
	out_obj_end();
	out_u64(OUT_ANY, "psn_regressions", NULL, f->psn_regressions);
	out_str(OUT_TEXT, "marks_text", NULL, marks_text(f->marks, f->n_marks, a, sizeof(a)));
	out_str(OUT_TEXT, "cnp_marks_text", NULL,
		marks_text(f->cnp_marks, f->n_cnp_marks, b, sizeof(b)));
	marks_json("marks", f->marks, f->n_marks);
	marks_json("cnp_marks", f->cnp_marks, f->n_cnp_marks);
	out_row_end();
}

static const struct out_col conn_cols[] = {
	{ .key = "src", .title = "SRC" },
	{ .key = "dst", .title = "DST" },
	{ .key = "qpn", .title = "QP", .flags = OUT_COL_RIGHT },
	{ .key = "traffic_class", .title = "TCLASS", .flags = OUT_COL_RIGHT },
	{ .key = "dscp", .title = "DSCP", .flags = OUT_COL_RIGHT },
	{ .key = "reqs", .title = "REQS", .flags = OUT_COL_RIGHT },
	{ .key = "reply", .title = "REPLY" },
	{ .key = "rep_qpn", .title = "PEER_QP", .flags = OUT_COL_RIGHT },
};

static void print_conn(const struct rctl_wire_conn *c)
{
	out_row_begin();
	out_str(OUT_ANY, "src", NULL, c->src);
	out_str(OUT_ANY, "dst", NULL, c->dst);
	out_u64(OUT_ANY, "qpn", NULL, c->qpn);
	out_u64(OUT_ANY, "traffic_class", NULL, c->traffic_class);
	out_u64(OUT_ANY, "dscp", NULL, c->traffic_class >> 2);
	out_str(OUT_JSON, "local_gid", NULL, c->local_gid);
	out_str(OUT_JSON, "remote_gid", NULL, c->remote_gid);
	out_u64(OUT_JSON, "ip_tos", NULL, c->ip_tos);
	out_u64(OUT_ANY, "reqs", NULL, c->reqs);
	out_str(OUT_ANY, "reply", NULL, c->reply[0] ? c->reply : "-");
	if (c->reply[0] == 'r' && c->reply[2] == 'j')
		out_u64(OUT_JSON, "rej_reason", NULL, c->rej_reason);
	else
		out_null(OUT_JSON, "rej_reason", NULL);
	out_u64(OUT_ANY, "rep_qpn", NULL, c->rep_qpn);
	out_row_end();
}

static void print_head(const struct rctl_wire *w)
{
	out_obj_begin("capture");
	out_str(OUT_JSON, "source", NULL, w->source);
	out_str(OUT_ANY, "iface", w->iface[0] ? "capture on %s" : NULL, w->iface);
	out_str(OUT_ANY, "file", w->file[0] ? "capture of %s" : NULL, w->file);
	out_str(OUT_ANY, "link_type", " (%s)", w->link_type);
	out_dbl(OUT_ANY, "duration_s", " %.1f s:", w->seconds);
	out_u64(OUT_ANY, "frames", " %" PRIu64 " frames,", w->frames);
	out_u64(OUT_ANY, "roce_packets", " %" PRIu64 " RoCE v2,", w->roce_packets);
	out_u64(OUT_ANY, "malformed", " %" PRIu64 " malformed", w->malformed);
	if (w->drops_known) {
		out_u64(OUT_ANY, "drops", ", capture drops %" PRIu64, w->drops);
		out_u64(OUT_ANY, "if_drops", " (interface %" PRIu64 ")", w->if_drops);
	} else {
		out_null(OUT_JSON, "drops", NULL);
		out_null(OUT_JSON, "if_drops", NULL);
	}
	out_text("\n");
	out_u64(OUT_JSON, "flow_cap", NULL, w->flow_cap);
	out_u64(OUT_ANY, "flow_overflow", w->flow_overflow ?
		"  %" PRIu64 " packets of flows beyond the cap not kept\n" : NULL, w->flow_overflow);
	out_str(OUT_JSON, "bypass", NULL, w->bypass);
	out_obj_end();
	if (w->drops)
		out_text("  the capture dropped packets: counts are lower bounds; a PSN gap "
			 "here is not loss\n");
}

/* No RoCE on a NIC that bypasses the kernel is no verdict: say where to look. */
static void print_bypass(const struct rctl_wire *w)
{
	if (!w->bypass[0] || w->roce_packets)
		return;
	out_text("  '%s' is a %s netdev (%s): its RoCE is sent and received in the NIC, past "
		 "the kernel, so no capture on '%s' sees it\n  capture it with: tcpdump -i %s "
		 "-w roce.pcap (libpcap's RDMA sniffer), ibdump -d %s, or a switch mirror port;"
		 " then: rocectl capture -r roce.pcap\n", w->iface, w->bypass, w->bypass_dev,
		 w->iface, w->bypass_dev, w->bypass_dev);
}

static void print_wire(const struct rctl_wire *w)
{
	uint32_t i;

	print_head(w);
	print_bypass(w);
	if (!out_json() && !w->n_flows) {
		out_text("no RoCE v2 flow\n");
	} else {
		out_text("\n");
		out_table_begin("flows", flow_cols, sizeof(flow_cols) / sizeof(flow_cols[0]));
		for (i = 0; i < w->n_flows; i++)
			print_flow(&w->flows[i]);
		out_table_end();
	}
	if (!out_json() && !w->n_conns)
		return;
	out_text("\nrdma_cm connection requests:\n");
	out_table_begin("connections", conn_cols, sizeof(conn_cols) / sizeof(conn_cols[0]));
	for (i = 0; i < w->n_conns; i++)
		print_conn(&w->conns[i]);
	out_table_end();
}

static int do_capture(struct rctl_ctx *ctx, int argc, char **argv)
{
	struct rctl_host h = { 0 };
	struct rctl_err e = { 0 };
	int ret;

	if (argc == 1 && o.wire.iface && strcmp(o.wire.iface, argv[0]))
		return cmd_errorf(ctx, RCTL_EXIT_USAGE, "%s: '%s' and '--capture %s' name two "
				  "netdevs; give one", ctx->path, argv[0], o.wire.iface);
	if (argc == 1)
		o.wire.iface = argv[0];
	if (!o.wire.iface && !o.wire.file)
		return cmd_errorf(ctx, RCTL_EXIT_USAGE, "%s: a netdev to capture on, or '-r FILE' "
				  "(see 'rocectl capture --help')", ctx->path);
	if (o.buffer_kib && !o.wire.iface)
		return cmd_errorf(ctx, RCTL_EXIT_USAGE, "%s: '--buffer-size' is for a live capture",
				  ctx->path);
	/* The inventory tells a NIC whose RoCE bypasses the netdev; without it, no hint. */
	if (o.wire.iface && rctl_collect(&h, RCTL_COLLECT_INVENTORY, &e))
		memset(&h, 0, sizeof(h));
	ret = cmd_wire_capture(ctx, &o.wire, (uint64_t)o.count, (uint32_t)o.buffer_kib, &h);
	if (!ret)
		print_wire(&h.wire);
	rctl_host_free(&h);
	return ret;
}

const struct rctl_cmd cmd_capture = {
	.name = "capture",
	.summary = "show the RoCE v2 flows of a live capture or a pcap file: DSCP, ECN, CNPs, NAKs, connection ToS",
	.args = "[IFACE]",
	.max_args = 1,
	.arg_kind = ARG_NETDEV,
	.opts = capture_opts,
	.fn = do_capture,
};
