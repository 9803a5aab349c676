// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rocectl bench rdma: raw RDMA latency and bandwidth against rocectl serve
 * over a real RC QP, measured by perftest's method (lib/bench_rdma.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "rocectl/hist.h"
#include "rocectl/out.h"
#include "rocectl/bench_rdma.h"
#include "rocectl/probe.h"

static const char *const op_names[] = { "send", "write", "read", NULL };

static struct {
	const char *op, *token_file;
	struct cmd_src from;
	uint64_t size;
	int iters, qd, port, tos;
	double time, timeout;
	bool lat, bw, event, histogram, size_given, iters_given, time_given, qd_given, tos_given,
	     compare_tcp;
} bo = { .op = "send", .size = 64, .iters = 1000, .qd = 128, .port = RCTL_PROBE_PORT,
	 .timeout = 5 };

static const struct rctl_opt bench_rdma_opts[] = {
	{ .name = "op", .type = OPT_CHOICE, .arg = "OP", .dst = &bo.op,
	  .choices = op_names, .help = "send, write or read (default send)" },
	{ .name = "size", .short_name = 's', .type = OPT_SIZE, .arg = "BYTES", .dst = &bo.size,
	  .min = 1, .max = RCTL_PROBE_MAX_SIZE, .given = &bo.size_given,
	  .help = "message size (default 64 for --lat, 65536 for --bw)" },
	{ .name = "iters", .type = OPT_INT, .arg = "N", .dst = &bo.iters,
	  .min = 1, .max = 100000000, .given = &bo.iters_given,
	  .help = "iterations (default 1000 for --lat, 5000 for --bw)" },
	{ .name = "time", .aliases = "duration", .short_name = 'D', .type = OPT_SECS, .arg = "SECS", .dst = &bo.time, .max = 3600,
	  .given = &bo.time_given, .help = "run for SECS seconds instead of --iters" },
	{ .name = "qd", .aliases = "tx-depth", .type = OPT_INT, .arg = "N", .dst = &bo.qd, .min = 1,
	  .max = RCTL_PROBE_MAX_DEPTH, .given = &bo.qd_given,
	  .help = "work requests in flight with --bw (default 128)" },
	{ .name = "lat", .type = OPT_FLAG, .dst = &bo.lat,
	  .help = "measure latency (the default)" },
	{ .name = "bw", .type = OPT_FLAG, .dst = &bo.bw,
	  .help = "measure bandwidth and message rate" },
	{ .name = "event", .type = OPT_FLAG, .dst = &bo.event,
	  .help = "sleep on completion events instead of busy polling (shared machines)" },
	{ .name = "histogram", .type = OPT_FLAG, .dst = &bo.histogram,
	  .help = "print the latency histogram (with --lat)" },
	{ .name = "tos", .short_name = 'T', .type = OPT_INT, .arg = "TOS", .dst = &bo.tos,
	  .min = 0, .max = 255, .given = &bo.tos_given,
	  .help = "IP ToS of the connection (default: rdma_cm's)" },
	CMD_SRC_OPTS(bo.from),
	{ .name = "port", .short_name = 'P', .type = OPT_INT, .arg = "PORT", .dst = &bo.port,
	  .min = 1, .max = 65535, .help = "port of 'rocectl serve' (default 18520)" },
	{ .name = "timeout", .type = OPT_SECS, .arg = "SECS",
	  .dst = &bo.timeout, .max = 600,
	  .help = "longest wait of each connect step and each completion (default 5)" },
	{ .name = "compare-tcp", .type = OPT_FLAG, .dst = &bo.compare_tcp,
	  .help = "also time as many TCP round trips to serve's control port, and print the ratio" },
	{ .name = "token-file", .type = OPT_STR, .arg = "FILE", .dst = &bo.token_file,
	  .kind = ARG_FILE, .help = "send the token in FILE to a serve that asks for one" },
	{ 0 }
};

static enum rctl_xfer_op op_of(const char *s)
{
	return !strcmp(s, "write") ? RCTL_OP_WRITE : !strcmp(s, "read") ? RCTL_OP_READ :
	       RCTL_OP_SEND;
}

static const double rdma_pcts[] = { 50, 99, 99.9 };

static void print_lat(const struct rctl_bench_rdma_result *r)
{
	const struct rctl_hist *h = r->lat;

	out_bool(OUT_JSON, "half_round_trip", NULL, r->half_rtt);
	cmd_latency_json("latency_ns", h, rdma_pcts, 3);
	out_text("  latency_us (%s)\n   ", r->half_rtt ?
		 "half the round trip, as perftest reports" : "whole operation, as perftest reports");
	out_text(" min %.2f  median %.2f  avg %.2f  p99 %.2f  p99.9 %.2f  max %.2f\n",
		 rctl_hist_min(h) / 1e3, rctl_hist_percentile(h, 50) / 1e3, rctl_hist_mean(h) / 1e3,
		 rctl_hist_percentile(h, 99) / 1e3, rctl_hist_percentile(h, 99.9) / 1e3,
		 rctl_hist_max(h) / 1e3);
	if (bo.histogram)
		cmd_histogram(h);
}

static void print_bw(const struct rctl_bench_rdma_result *r)
{
	double bps = r->secs > 0 ? r->bytes / r->secs : 0;

	out_dbl(OUT_JSON, "bytes_per_s", NULL, bps);
	out_text("  bw %.2f MiB/s (%.3f Gb/s)", bps / 1048576, bps * 8 / 1e9);
	out_dbl(OUT_JSON, "messages_per_s", NULL, r->secs > 0 ? r->iters / r->secs : 0);
	out_text("  msg_rate %.4f Mpps\n", r->secs > 0 ? r->iters / r->secs / 1e6 : 0);
}

static void print_result(const char *target, const struct rctl_conn *c,
			 const struct rctl_bench_rdma_result *r, uint32_t size)
{
	out_str(OUT_ANY, "target", "bench rdma %s", target);
	out_str(OUT_ANY, "op", " %s", bo.op);
	out_str(OUT_ANY, "mode", " %s:", bo.bw ? "bw" : "lat");
	out_u64(OUT_ANY, "iters", " %" PRIu64, r->iters);
	out_u64(OUT_ANY, "size_bytes", " x %" PRIu64 " B", size);
	out_u64(OUT_ANY, "qd", ", qd %" PRIu64, bo.bw ? (uint64_t)bo.qd : 1);
	out_dbl(OUT_ANY, "elapsed_s", ", %.2f s", r->secs);
	out_str(OUT_ANY, "device", " (%s", c->path.dev);
	out_u64(OUT_ANY, "path_mtu", ", path_mtu %" PRIu64 ")\n", c->path.path_mtu);
	out_str(OUT_ANY, "polling", "  %s", bo.event ? "event" : "busy-poll");
	out_str(OUT_ANY, "clock_source", ", clock %s\n", r->clock_source);
	if (bo.event)
		out_text("  event mode: sleeps on completion events, for shared machines; "
			 "latency includes the wake-up\n");
	if (bo.bw)
		print_bw(r);
	else
		print_lat(r);
}

/*
 * --compare-tcp: TCP round trips of the same size on the same addresses,
 * against the latency just measured (both medians; RDMA's as a round trip).
 */
static void compare_tcp(const struct rctl_conn_opts *o, const struct rctl_bench_rdma_result *r,
			uint32_t size)
{
	uint64_t n = r->iters < 100000 ? r->iters : 100000, rdma;
	struct rctl_hist *h = malloc(sizeof(*h));
	struct rctl_stat st = { 0 };
	struct rctl_err e = { 0 };
	struct rctl_lat l;

	if (!h)
		return;
	rctl_hist_init(h);
	out_obj_begin("compare_tcp");
	if (rctl_tcp_pingpong(o->dst, o->src, size, (unsigned int)n, o->timeout_s, o->token, h,
			      &st, &e)) {
		out_str(OUT_ANY, "error", "  tcp: %s\n", e.msg);
	} else {
		rctl_lat_of(&l, h, &st);
		rdma = rctl_hist_percentile(r->lat, 50) * (r->half_rtt ? 2 : 1);
		out_obj_begin("tcp");
		out_u64(OUT_ANY, "count", "  tcp    %" PRIu64, l.count);
		out_u64(OUT_ANY, "size_bytes", " x %" PRIu64 " B", size);
		cmd_print_rtt_ns(&l);
		out_obj_end();
		out_dbl(OUT_ANY, "tcp_to_rdma_ratio", "  tcp/rdma p50 round-trip ratio %.2f\n",
			rdma ? (double)l.p50 / (double)rdma : 0);
	}
	out_obj_end();
	free(h);
}

static int bench_connect(struct rctl_ctx *ctx, struct rctl_conn *c,
			 struct rctl_conn_opts *o)
{
	struct rctl_err e = { 0 };
	int ret;

	ret = rctl_conn_resolve(c, o, &e);
	if (!ret)
		ret = rctl_conn_connect(c, o, &e);
	if (!ret)
		return 0;
	rctl_conn_close(c);
	if (c->cls)
		return cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "%s (%s; see 'rocectl reach')",
				  e.msg, rctl_reach_class_id(c->cls));
	return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
}

static int do_bench_rdma(struct rctl_ctx *ctx, int argc, char **argv)
{
	struct sockaddr_storage dst, src;
	struct rctl_err e = { 0 };
	struct rctl_conn c;
	struct rctl_hist *h;
	struct rctl_bench_rdma_result r = { 0 };
	struct rctl_bench_rdma_opts bopt = { .op = op_of(bo.op), .timeout_s = bo.timeout };
	/* perftest's transport defaults: 7 retries, ACK timeout 14 (67 ms) */
	struct rctl_conn_opts o = { .tos = bo.tos_given ? bo.tos : -1, .timeout_s = bo.timeout,
				    .retry_cnt = 7, .ack_timeout = 14 };
	uint8_t token[RCTL_TOKEN_LEN];
	int ret;

	if (bo.lat && bo.bw)
		return cmd_errorf(ctx, RCTL_EXIT_USAGE, "bench rdma: --lat and --bw exclude each other");
	if (bo.compare_tcp && bo.bw)
		return cmd_errorf(ctx, RCTL_EXIT_USAGE, "bench rdma: --compare-tcp measures latency, not --bw");
	if (bo.iters_given && bo.time_given)
		return cmd_errorf(ctx, RCTL_EXIT_USAGE, "bench rdma: --iters and --time exclude each other");
	ret = cmd_src_check(ctx, &bo.from);
	if (ret)
		return ret;
	if (rctl_sockaddr_parse(argv[0], (uint16_t)bo.port, false, &dst, &e))
		return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	ret = cmd_src_addr(ctx, &bo.from, &src, &o.src);
	if (ret)
		return ret;
	if (bo.token_file) {
		if (rctl_token_read(bo.token_file, token, &e))
			return cmd_error(ctx, RCTL_EXIT_USAGE, &e);
		o.token = token;
	}
	bopt.bw = bo.bw;
	bopt.event = bo.event;
	bopt.size = (uint32_t)(bo.size_given ? bo.size : bo.bw ? 65536 : bo.size);
	bopt.iters = bo.time_given ? 0 : (uint64_t)(bo.iters_given ? bo.iters : bo.bw ? 5000 : 1000);
	bopt.time_s = bo.time;
	bopt.qd = bo.bw ? (uint32_t)bo.qd : 1;
	o.dst = (struct sockaddr *)&dst;
	o.size = bopt.size;
	o.depth = bopt.qd + 2;
	o.mode = bo.bw || bopt.op == RCTL_OP_READ ? RCTL_MODE_SINK :
		 bopt.op == RCTL_OP_WRITE ? RCTL_MODE_POLL : RCTL_MODE_ECHO;
	ret = bench_connect(ctx, &c, &o);
	if (ret)
		return ret;
	h = malloc(sizeof(*h));
	r.lat = h;
	if (!h)
		ret = rctl_err_plain(&e, ENOMEM, "out of memory");
	else
		ret = rctl_bench_rdma(&c, &bopt, &r, &e);
	if (!ret)
		print_result(argv[0], &c, &r, bopt.size);
	if (!ret && bo.compare_tcp && !bo.bw)
		compare_tcp(&o, &r, bopt.size);
	rctl_conn_close(&c);
	free(h);
	return ret ? cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e) : RCTL_EXIT_OK;
}

const struct rctl_cmd cmd_bench_rdma = {
	.name = "rdma",
	.summary = "raw RDMA latency and bandwidth against 'rocectl serve' (perftest's method)",
	.args = "TARGET",
	.min_args = 1,
	.max_args = 1,
	.arg_kind = ARG_HOST,
	.opts = bench_rdma_opts,
	.fn = do_bench_rdma,
};
