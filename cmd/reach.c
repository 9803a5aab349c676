// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rocectl reach: prove RoCE reachability with a real RC QP (rdma_cm connect
 * at a ToS, SEND and RDMA WRITE ping-pong, optional MTU sweep), classify a
 * failure, and tell "IP reachable" from "RoCE blocked" with a plain-IP probe.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "rocectl/hist.h"
#include "rocectl/out.h"
#include "rocectl/probe.h"

#define SWEEP_MAX 16384		/* 4 × the largest RoCE MTU */

static struct {
	int tos, count, port;
	uint64_t size;
	bool sweep, size_given, tos_given;
	double timeout;
	const char *dev, *src;
} ro = { .count = 10, .size = 64, .timeout = 5, .port = RCTL_PROBE_PORT };

static const struct rctl_opt reach_opts[] = {
	{ .name = "tos", .short_name = 't', .type = OPT_INT, .arg = "TOS", .dst = &ro.tos,
	  .min = 0, .max = 255, .given = &ro.tos_given,
	  .help = "IP ToS of the connection (DSCP << 2; default: rdma_cm's)" },
	{ .name = "count", .short_name = 'c', .type = OPT_INT, .arg = "N", .dst = &ro.count,
	  .min = 1, .max = 100000, .help = "round trips of each kind, SEND and WRITE (default 10)" },
	{ .name = "size", .short_name = 's', .type = OPT_SIZE, .arg = "BYTES", .dst = &ro.size,
	  .min = 1, .max = RCTL_PROBE_MAX_SIZE, .given = &ro.size_given,
	  .help = "message size (default 64); with --mtu-sweep the largest tried" },
	{ .name = "mtu-sweep", .short_name = 'm', .type = OPT_FLAG, .dst = &ro.sweep,
	  .help = "find the largest message that makes the round trip" },
	{ .name = "timeout", .short_name = 'T', .type = OPT_SECS, .arg = "SECS",
	  .dst = &ro.timeout, .max = 600,
	  .help = "longest wait of each step and each message (default 5)" },
	{ .name = "dev", .short_name = 'd', .type = OPT_STR, .arg = "DEV", .dst = &ro.dev,
	  .kind = ARG_DEV, .help = "send from this RDMA device (its RoCE v2 address)" },
	{ .name = "src", .type = OPT_STR, .arg = "ADDR", .dst = &ro.src,
	  .help = "send from this local IP address" },
	{ .name = "port", .short_name = 'P', .type = OPT_INT, .arg = "PORT", .dst = &ro.port,
	  .min = 1, .max = 65535, .help = "port of 'rocectl serve' (default 18520)" },
	{ 0 }
};

/* ---- addresses --------------------------------------------------------- */

static int reach_src(struct sockaddr_storage *ss, struct rctl_err *e)
{
	if (ro.src)
		return rctl_sockaddr_parse(ro.src, 0, true, ss, e);
	return rctl_dev_src_addr(ro.dev, 1, ss, e);
}

/* ---- the run ------------------------------------------------------------ */

struct reach_run {
	struct rctl_conn c;
	struct rctl_conn_opts o;
	struct rctl_hist rtt[2];	/* SEND, WRITE */
	struct rctl_sweep sweep;
	bool swept;
	double traffic_ms;
	enum rctl_reach_class cls;
	struct rctl_err why;
	struct rctl_counter *before, *after;
	uint32_t n_before, n_after;
	char cdev[RCTL_NAME_LEN];
	uint32_t cport;
};

static int pingpongs(struct reach_run *r)
{
	enum rctl_xfer_op ops[2] = { RCTL_OP_SEND, RCTL_OP_WRITE };
	uint64_t t0 = rctl_now_ns(), rtt;
	int k, i;

	for (k = 0; k < 2; k++) {
		rctl_hist_init(&r->rtt[k]);
		for (i = 0; i < ro.count; i++) {
			if (rctl_conn_pingpong(&r->c, ops[k], (uint32_t)ro.size,
					       ro.timeout, false, &rtt, &r->why)) {
				r->cls = RCTL_REACH_STALLED;
				r->traffic_ms = (rctl_now_ns() - t0) / 1e6;
				return -1;
			}
			rctl_hist_add(&r->rtt[k], rtt);
		}
	}
	r->traffic_ms = (rctl_now_ns() - t0) / 1e6;
	return 0;
}

static void sweep(struct reach_run *r)
{
	uint32_t max = ro.size_given ? (uint32_t)ro.size : SWEEP_MAX;

	if (rctl_mtu_sweep(&r->c, &r->o, max, &r->sweep, &r->why)) {
		r->cls = r->c.cls ? r->c.cls : RCTL_REACH_STALLED;
		return;
	}
	r->swept = true;
	if (r->sweep.smallest_bad) {
		r->cls = RCTL_REACH_MTU;
		snprintf(r->why.msg, sizeof(r->why.msg),
			 "messages up to %u bytes pass, %u bytes stall (path_mtu %u): a smaller MTU on the path drops full-size packets",
			 r->sweep.largest_ok, r->sweep.smallest_bad, r->c.path.path_mtu);
	}
}

static void sample(struct reach_run *r, bool after)
{
	if (!r->cdev[0])
		return;
	if (after)
		rctl_port_hw_read(r->cdev, r->cport, &r->after, &r->n_after);
	else
		rctl_port_hw_read(r->cdev, r->cport, &r->before, &r->n_before);
}

/* Returns 0 with r->cls set, or a runtime error status. */
static int reach_run(struct rctl_ctx *ctx, struct reach_run *r)
{
	int ret;

	ret = rctl_conn_resolve(&r->c, &r->o, &r->why);
	if (ret && !r->c.cls)
		return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &r->why);
	if (!ret) {
		snprintf(r->cdev, sizeof(r->cdev), "%s", r->c.path.dev);
		r->cport = r->c.path.port;
		sample(r, false);
		ret = rctl_conn_connect(&r->c, &r->o, &r->why);
		if (ret && !r->c.cls) {
			rctl_conn_close(&r->c);
			return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &r->why);
		}
	}
	r->cls = r->c.cls;
	if (!ret && !pingpongs(r) && ro.sweep)
		sweep(r);
	rctl_conn_close(&r->c);
	sample(r, true);
	return 0;
}

/* ---- output ------------------------------------------------------------- */

static void print_path(const struct rctl_rpath *p)
{
	out_obj_begin("path");
	out_str(OUT_ANY, "device", "  path   %s", p->dev[0] ? p->dev : NULL);
	out_u64(OUT_ANY, "port", " port %" PRIu64, p->port);
	if (p->gid_index >= 0) {
		out_s64(OUT_ANY, "gid_index", "  gid_index %" PRId64, p->gid_index);
		out_str(OUT_ANY, "gid", " %s", p->gid[0] ? p->gid : NULL);
		out_str(OUT_ANY, "roce_mode", " (%s)", p->roce_mode[0] ? p->roce_mode : NULL);
	} else {	/* known only once a QP is connected */
		out_null(OUT_JSON, "gid_index", NULL);
		out_null(OUT_JSON, "gid", NULL);
		out_null(OUT_JSON, "roce_mode", NULL);
	}
	out_str(OUT_ANY, "netdev", "  netdev %s", p->netdev[0] ? p->netdev : NULL);
	out_str(OUT_ANY, "src_ip", "  src %s", p->src_ip[0] ? p->src_ip : NULL);
	out_str(OUT_ANY, "dst_ip", "  dst %s\n", p->dst_ip);
	out_u64(OUT_ANY, "active_mtu", "         active_mtu %" PRIu64, p->active_mtu);
	out_u64(OUT_ANY, "path_mtu", "  path_mtu %" PRIu64, p->path_mtu);
	if (p->tos >= 0)
		out_s64(OUT_ANY, "tos", "  tos %" PRId64, p->tos);
	else
		out_null(OUT_ANY, "tos", "  tos default");
	if (p->traffic_class >= 0)
		out_s64(OUT_ANY, "traffic_class", " (traffic_class %" PRId64 ")",
			p->traffic_class);
	else
		out_null(OUT_ANY, "traffic_class", NULL);
	out_u64(OUT_ANY, "ack_timeout", "  ack_timeout %" PRIu64, p->ack_timeout);
	out_u64(OUT_ANY, "retry_cnt", "  retry_cnt %" PRIu64 "\n", p->retry_cnt);
	out_obj_end();
}

static void print_steps(const struct reach_run *r)
{
	static const char *const names[RCTL_STEP_NSTEPS] = {
		"resolve_addr", "resolve_route", "connect",
	};
	char fmt[48];
	int i;

	out_text("  steps ");
	out_obj_begin("steps_ms");
	for (i = 0; i < RCTL_STEP_NSTEPS; i++) {
		snprintf(fmt, sizeof(fmt), "  %s %%.1f ms", names[i]);
		if (r->c.step_ms[i] >= 0)
			out_dbl(OUT_ANY, names[i], fmt, r->c.step_ms[i]);
		else
			out_null(OUT_JSON, names[i], NULL);
	}
	if (r->traffic_ms > 0)
		out_dbl(OUT_ANY, "traffic", "  traffic %.1f ms", r->traffic_ms);
	out_obj_end();
	out_text("\n");
}

static void print_rtt(const char *key, const struct rctl_hist *h)
{
	char fmt[64];

	if (!rctl_hist_count(h))
		return;
	out_obj_begin(key);
	snprintf(fmt, sizeof(fmt), "  %-5s %%" PRIu64, key);
	out_u64(OUT_ANY, "count", fmt, rctl_hist_count(h));
	out_u64(OUT_ANY, "size_bytes", " x %" PRIu64 " B  rtt_us", ro.size);
	out_dbl(OUT_ANY, "rtt_min_us", " min %.1f", rctl_hist_min(h) / 1e3);
	out_dbl(OUT_ANY, "rtt_avg_us", " avg %.1f", rctl_hist_mean(h) / 1e3);
	out_dbl(OUT_ANY, "rtt_p50_us", " p50 %.1f", rctl_hist_percentile(h, 50) / 1e3);
	out_dbl(OUT_ANY, "rtt_p99_us", " p99 %.1f", rctl_hist_percentile(h, 99) / 1e3);
	out_dbl(OUT_ANY, "rtt_max_us", " max %.1f\n", rctl_hist_max(h) / 1e3);
	out_obj_end();
}

static void print_sweep(const struct reach_run *r)
{
	const struct rctl_sweep *s = &r->sweep;

	if (!r->swept)
		return;
	out_obj_begin("mtu_sweep");
	out_u64(OUT_ANY, "largest_ok_bytes", "  sweep largest passing message %" PRIu64 " B",
		s->largest_ok);
	if (s->smallest_bad)
		out_u64(OUT_ANY, "smallest_failed_bytes", ", %" PRIu64 " B stalls",
			s->smallest_bad);
	else
		out_null(OUT_ANY, "smallest_failed_bytes", " (all passed)");
	out_u64(OUT_ANY, "max_bytes", " (tried up to %" PRIu64 " B", s->max);
	out_u64(OUT_ANY, "probes", " in %" PRIu64 " probes)\n", s->probes);
	out_obj_end();
}

static uint64_t before_of(const struct reach_run *r, const char *name, bool *found)
{
	uint32_t i;

	for (i = 0; i < r->n_before; i++)
		if (!strcmp(r->before[i].name, name)) {
			*found = true;
			return r->before[i].value;
		}
	*found = false;
	return 0;
}

static void print_counters(const struct reach_run *r)
{
	unsigned int moved = 0;
	uint64_t b, d;
	uint32_t i;
	bool found;

	if (!r->n_after)
		return;
	out_text("  counters %s/%u:", r->cdev, r->cport);
	out_arr_begin("counters");
	for (i = 0; i < r->n_after; i++) {
		const struct rctl_counter *a = &r->after[i];
		bool loss = rctl_counter_is_loss(a->name);

		b = before_of(r, a->name, &found);
		if (!found)
			continue;
		d = a->value >= b ? a->value - b : 0;	/* a reset reads as 0 */
		out_obj_begin(NULL);
		out_str(OUT_JSON, "name", NULL, a->name);
		out_u64(OUT_JSON, "before", NULL, b);
		out_u64(OUT_JSON, "after", NULL, a->value);
		out_u64(OUT_JSON, "delta", NULL, d);
		out_bool(OUT_JSON, "loss", NULL, loss);
		if (d && (loss || r->cls || !strcmp(a->name, "sent_pkts") ||
			  !strcmp(a->name, "rcvd_pkts")))
			out_text(" %s%s +%" PRIu64, loss ? "LOSS " : "", a->name, d);
		moved += d && loss;
		out_obj_end();
	}
	out_arr_end();
	if (!moved)
		out_text("  (no loss or retry counter moved)");
	out_text("\n");
}

static void print_ctl(const struct reach_run *r)
{
	enum rctl_ctl_result cr;
	int err, ver;
	bool ip;

	cr = rctl_ctl_probe((const struct sockaddr *)r->o.dst, r->o.src,
			    ro.timeout < 3 ? ro.timeout : 3, &ver, &err);
	ip = rctl_ctl_ip_reachable(cr);
	out_obj_begin("control_probe");
	out_u64(OUT_ANY, "tcp_port", "  control probe tcp/%" PRIu64, (uint64_t)ro.port);
	out_str(OUT_ANY, "result", ": %s", rctl_ctl_result_name(cr));
	out_bool(OUT_JSON, "ip_reachable", NULL, ip);
	out_text(" -> IP %s%s\n", ip ? "reachable" : "unreachable too",
		 ip && (r->cls == RCTL_REACH_TIMEOUT || r->cls == RCTL_REACH_STALLED) ?
		 ", RoCE (UDP 4791) blocked or lost" : "");
	out_obj_end();
}

static const char *cls_hint(enum rctl_reach_class c)
{
	switch (c) {
	case RCTL_REACH_TIMEOUT:
		return "UDP 4791 filtered by an ACL or firewall? host netfilter rules affect only Soft-RoCE (rxe); hardware RoCE bypasses them, so look at switch ACLs and security groups";
	case RCTL_REACH_STALLED:
	case RCTL_REACH_MTU:
		return "MTU black hole or loss on the path: compare MTUs end to end (rocectl reach --mtu-sweep) and the loss counters";
	case RCTL_REACH_REJECTED:
		return "is 'rocectl serve' running on the target, on that port?";
	case RCTL_REACH_VERSION:
		return "run the same rocectl version on both hosts";
	case RCTL_REACH_NODEV:
		return "the source address is on no RoCE netdev: see 'rocectl devices'";
	default:
		return NULL;
	}
}

static void print_reach(struct rctl_ctx *ctx, const char *target, struct reach_run *r)
{
	const char *id = rctl_reach_class_id(r->cls);

	out_str(OUT_ANY, "target", "reach %s", target);
	out_u64(OUT_ANY, "port", " port %" PRIu64, (uint64_t)ro.port);
	out_str(OUT_ANY, "verdict", ": %s", r->cls ? "fail" : "ok");
	out_str(id ? OUT_ANY : OUT_JSON, "finding", " %s", id);
	out_text("\n");
	if (r->cls) {
		out_str(OUT_ANY, "message", "  %s\n", r->why.msg);
		out_str(OUT_ANY, "hint", "  hint: %s\n", cls_hint(r->cls));
	}
	print_path(&r->c.path);
	print_steps(r);
	print_rtt("send", &r->rtt[0]);
	print_rtt("write", &r->rtt[1]);
	print_sweep(r);
	if (r->cls)
		print_ctl(r);
	print_counters(r);
}

static int do_reach(struct rctl_ctx *ctx, int argc, char **argv)
{
	struct sockaddr_storage dst, src;
	struct reach_run *r;
	struct rctl_err e = { 0 };
	int ret;

	if (ro.dev && ro.src)
		return cmd_errorf(ctx, RCTL_EXIT_USAGE, "reach: --dev and --src exclude each other");
	if (rctl_sockaddr_parse(argv[0], (uint16_t)ro.port, false, &dst, &e))
		return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	if ((ro.dev || ro.src) && reach_src(&src, &e))
		return cmd_error(ctx, ro.src ? RCTL_EXIT_USAGE : RCTL_EXIT_UNKNOWN, &e);
	r = calloc(1, sizeof(*r));
	if (!r)
		return cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "out of memory");
	r->o = (struct rctl_conn_opts){
		.dst = (struct sockaddr *)&dst,
		.src = ro.dev || ro.src ? (struct sockaddr *)&src : NULL,
		.tos = ro.tos_given ? ro.tos : -1,
		.timeout_s = ro.timeout,
		.mode = RCTL_MODE_ECHO,
		.size = ro.sweep && !ro.size_given ? SWEEP_MAX : (uint32_t)ro.size,
		.depth = 4,
		.retry_cnt = 7,
		.ack_timeout = 14,	/* 67 ms: retries run out in about half a second */
	};
	if (getenv("ROCECTL_PROBE_VERSION"))	/* testing aid: speak another version */
		r->o.version = (uint8_t)atoi(getenv("ROCECTL_PROBE_VERSION"));
	ret = reach_run(ctx, r);
	if (!ret) {
		print_reach(ctx, argv[0], r);
		ret = r->cls ? RCTL_EXIT_FAIL : RCTL_EXIT_OK;
	}
	free(r->before);
	free(r->after);
	free(r);
	return ret;
}

const struct rctl_cmd cmd_reach = {
	.name = "reach",
	.summary = "prove RoCE reachability with a real RC QP against 'rocectl serve'",
	.args = "TARGET",
	.min_args = 1,
	.max_args = 1,
	.arg_kind = ARG_HOST,
	.opts = reach_opts,
	.fn = do_reach,
	.flags = CMD_CHECK,
};
