// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rocectl reach: prove RoCE reachability with a real RC QP (rdma_cm connect
 * at a ToS, SEND and RDMA WRITE ping-pong, optional MTU sweep), classify a
 * failure, and tell "IP reachable" from "RoCE blocked" with a plain-IP probe.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <unistd.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "rocectl/hist.h"
#include "rocectl/out.h"
#include "rocectl/probe.h"
#include "rocectl/reach.h"

static struct {
	int tos, count, port, parallel;
	uint64_t size;
	bool sweep, size_given, tos_given, compare_tcp, matrix;
	double timeout;
	const char *targets, *token_file;
	struct cmd_src src;
} ro = { .count = 10, .size = 64, .timeout = 5, .port = RCTL_PROBE_PORT, .parallel = 8 };

static const struct rctl_opt reach_opts[] = {
	{ .name = "tos", .short_name = 'T', .type = OPT_INT, .arg = "TOS", .dst = &ro.tos,
	  .min = 0, .max = 255, .given = &ro.tos_given,
	  .help = "IP ToS of the connection (DSCP << 2; default: rdma_cm's)" },
	{ .name = "count", .short_name = 'c', .type = OPT_INT, .arg = "N", .dst = &ro.count,
	  .min = 1, .max = 100000, .help = "round trips of each kind, SEND and WRITE (default 10)" },
	{ .name = "size", .short_name = 's', .type = OPT_SIZE, .arg = "BYTES", .dst = &ro.size,
	  .min = 1, .max = RCTL_PROBE_MAX_SIZE, .given = &ro.size_given,
	  .help = "message size (default 64); with --mtu-sweep the largest tried" },
	{ .name = "mtu-sweep", .short_name = 'm', .type = OPT_FLAG, .dst = &ro.sweep,
	  .help = "find the largest message that makes the round trip, and which MTU limits it" },
	{ .name = "compare-tcp", .type = OPT_FLAG, .dst = &ro.compare_tcp,
	  .help = "also time TCP round trips to serve's control port, and print the ratio" },
	{ .name = "timeout", .type = OPT_SECS, .arg = "SECS", .dst = &ro.timeout, .max = 600,
	  .help = "longest wait of each step and each message (default 5; the connect waits at least 13)" },
	CMD_SRC_OPTS(ro.src),
	{ .name = "port", .short_name = 'P', .type = OPT_INT, .arg = "PORT", .dst = &ro.port,
	  .min = 1, .max = 65535, .help = "port of 'rocectl serve' (default 18520)" },
	{ .name = "targets", .type = OPT_STR, .arg = "FILE", .dst = &ro.targets,
	  .kind = ARG_FILE, .help = "probe the addresses in FILE too (one a line, '#' comments; - is stdin)" },
	{ .name = "parallel", .type = OPT_INT, .arg = "N", .dst = &ro.parallel,
	  .min = 1, .max = RCTL_REACH_MAX_PARALLEL, .help = "targets probed at once (default 8)" },
	{ .name = "matrix", .type = OPT_FLAG, .dst = &ro.matrix,
	  .help = "read reach JSON documents (the arguments are files) and print the fleet matrix" },
	{ .name = "token-file", .type = OPT_STR, .arg = "FILE", .dst = &ro.token_file,
	  .kind = ARG_FILE, .help = "send the token in FILE to a serve that asks for one" },
	{ 0 }
};

/* ---- one target in detail --------------------------------------------- */

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
	if (p->netdev_mtu)
		out_u64(OUT_ANY, "netdev_mtu", "  netdev_mtu %" PRIu64, p->netdev_mtu);
	else
		out_null(OUT_JSON, "netdev_mtu", NULL);
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

static void mtu_field(const char *key, const char *fmt, uint32_t v)
{
	if (v)
		out_u64(OUT_ANY, key, fmt, v);
	else
		out_null(OUT_JSON, key, NULL);
}

/* What serve said about itself in the handshake (version 2). */
static void print_peer(const struct rctl_reach_result *r)
{
	const struct rctl_welcome *w = &r->c.peer;

	if (r->c.peer_version < 0)
		return;
	out_obj_begin("peer");
	out_s64(OUT_ANY, "version", "  peer   serve v%" PRId64, r->c.peer_version);
	if (w->has_mtu) {
		out_str(OUT_ANY, "netdev", "  netdev %s", w->netdev[0] ? w->netdev : NULL);
		mtu_field("netdev_mtu", "  netdev_mtu %" PRIu64, w->netdev_mtu);
		mtu_field("active_mtu", "  active_mtu %" PRIu64, w->active_mtu);
	}
	out_text("\n");
	out_obj_end();
}

static uint64_t ms_to_ns(double ms)
{
	return (uint64_t)(ms * 1e6 + 0.5);
}

static void print_steps(const struct rctl_reach_result *r)
{
	static const char *const names[RCTL_STEP_NSTEPS] = {
		"resolve_addr", "resolve_route", "connect",
	};
	char fmt[48];
	int i;

	/* Text in ms for people; JSON in integer ns like every other duration of a step. */
	out_text("  steps ");
	out_obj_begin("steps_ns");
	for (i = 0; i < RCTL_STEP_NSTEPS; i++) {
		snprintf(fmt, sizeof(fmt), "  %s %%.1f ms", names[i]);
		if (r->c.step_ms[i] >= 0) {
			out_dbl(OUT_TEXT, names[i], fmt, r->c.step_ms[i]);
			out_u64(OUT_JSON, names[i], NULL, ms_to_ns(r->c.step_ms[i]));
		} else {
			out_null(OUT_JSON, names[i], NULL);
		}
	}
	if (r->traffic_ms > 0) {
		out_dbl(OUT_TEXT, "traffic", "  traffic %.1f ms", r->traffic_ms);
		out_u64(OUT_JSON, "traffic", NULL, ms_to_ns(r->traffic_ms));
	}
	out_obj_end();
	out_text("\n");
}

static void print_rtt(const char *key, const struct rctl_lat *l, uint32_t size)
{
	char fmt[64];

	if (!l->count)
		return;
	out_obj_begin(key);
	snprintf(fmt, sizeof(fmt), "  %-5s %%" PRIu64, key);
	out_u64(OUT_ANY, "count", fmt, l->count);
	out_u64(OUT_ANY, "size_bytes", " x %" PRIu64 " B", size);
	cmd_print_rtt_ns(l);
	out_obj_end();
}

static uint32_t rtt_size(void)
{
	return ro.sweep && ro.size > 64 ? 64 : (uint32_t)ro.size;
}

static double ratio(uint64_t tcp, uint64_t rdma)
{
	return rdma ? (double)tcp / (double)rdma : 0;
}

/* TCP against RDMA on the same path and size: medians and their ratio. */
static void print_compare(const struct rctl_reach_result *r)
{
	if (!ro.compare_tcp || (!r->tcp_done && !r->tcp_err.msg[0]))
		return;
	out_obj_begin("compare_tcp");
	if (!r->tcp_done) {
		out_str(OUT_ANY, "error", "  tcp    %s\n", r->tcp_err.msg);
		out_obj_end();
		return;
	}
	out_obj_begin("tcp");
	out_u64(OUT_ANY, "count", "  tcp   %" PRIu64, r->tcp.count);
	out_u64(OUT_ANY, "size_bytes", " x %" PRIu64 " B", (uint64_t)ro.size);
	cmd_print_rtt_ns(&r->tcp);
	out_obj_end();
	out_dbl(OUT_ANY, "tcp_to_send_ratio", "  tcp/rdma p50 ratio: SEND %.2f",
		ratio(r->tcp.p50, r->rtt[0].p50));
	out_dbl(OUT_ANY, "tcp_to_write_ratio", "  WRITE %.2f\n",
		ratio(r->tcp.p50, r->rtt[1].p50));
	out_obj_end();
}

static void print_sweep(const struct rctl_reach_result *r)
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
	if (s->smallest_bad)
		out_str(OUT_JSON, "cause", NULL, rctl_mtu_side_name(r->mtu_side));
	else
		out_null(OUT_JSON, "cause", NULL);
	out_obj_end();
}

static void print_counters(const struct rctl_reach_result *r)
{
	uint64_t b, d;
	uint32_t i;

	if (!r->n_after)
		return;
	out_text("  counters %s/%u:", r->cdev, r->cport);
	out_arr_begin("counters");
	for (i = 0; i < r->n_after; i++) {
		const struct rctl_counter *a = &r->after[i];
		bool loss = rctl_counter_is_loss(a->name);

		if (!rctl_reach_counter_delta(r, i, &b, &d))
			continue;
		out_obj_begin(NULL);
		out_str(OUT_JSON, "name", NULL, a->name);
		out_u64(OUT_JSON, "before", NULL, b);
		out_u64(OUT_JSON, "after", NULL, a->value);
		out_u64(OUT_JSON, "delta", NULL, d);
		out_bool(OUT_JSON, "loss", NULL, loss);
		if (d && (loss || r->cls || !strcmp(a->name, "sent_pkts") ||
			  !strcmp(a->name, "rcvd_pkts")))
			out_text(" %s%s +%" PRIu64, loss ? "LOSS " : "", a->name, d);
		out_obj_end();
	}
	out_arr_end();
	out_u64(OUT_JSON, "loss_delta", NULL, r->loss_delta);
	if (!r->loss_delta)
		out_text("  (no loss or retry counter moved)");
	out_text("\n");
}

static void print_ctl(const struct rctl_reach_result *r)
{
	bool ip = rctl_ctl_ip_reachable(r->ctl);

	if (!r->ctl_done)
		return;
	out_obj_begin("control_probe");
	out_u64(OUT_ANY, "tcp_port", "  control probe tcp/%" PRIu64, (uint64_t)ro.port);
	out_str(OUT_ANY, "result", ": %s", rctl_ctl_result_name(r->ctl));
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
		return "MTU black hole or loss on the path: compare MTUs end to end (rocectl reach --mtu-sweep) and the loss counters";
	case RCTL_REACH_MTU:
		return "give every host and switch port on the path the same MTU; 'rocectl check mtu' on each host shows what limits its active_mtu";
	case RCTL_REACH_REJECTED:
		return "is 'rocectl serve' running on the target, on that port, with a free slot?";
	case RCTL_REACH_VERSION:
		return "run the same rocectl version on both hosts";
	case RCTL_REACH_NODEV:
		return "the source address is on no RoCE netdev: see 'rocectl devices'";
	default:
		return NULL;
	}
}

/* The finding in the agreed shape; null when the target passed. */
static void print_finding(const struct rctl_reach_result *r)
{
	const char *id = rctl_reach_class_id(r->cls);

	if (!id) {
		out_null(OUT_JSON, "finding", NULL);
		return;
	}
	out_obj_begin("finding");
	out_str(OUT_JSON, "id", NULL, id);
	out_str(OUT_JSON, "status", NULL, "fail");
	out_str(OUT_JSON, "area", NULL, "reach");
	out_str(OUT_JSON, "target", NULL, r->target);
	out_str(OUT_JSON, "device", NULL, r->c.path.dev[0] ? r->c.path.dev : NULL);
	if (r->c.path.dev[0])
		out_u64(OUT_JSON, "port", NULL, r->c.path.port);
	else
		out_null(OUT_JSON, "port", NULL);
	out_str(OUT_JSON, "netdev", NULL, r->c.path.netdev[0] ? r->c.path.netdev : NULL);
	out_str(OUT_ANY, "message", "  %s\n", r->why.msg);
	out_null(OUT_JSON, "expected", NULL);
	out_null(OUT_JSON, "got", NULL);
	out_null(OUT_JSON, "evidence", NULL);
	out_str(OUT_ANY, "fix", "  hint: %s\n", cls_hint(r->cls));
	out_obj_end();
}

static const char *verdict(const struct rctl_reach_result *r)
{
	return !r->evaluated ? "unknown" : r->cls ? "fail" : "ok";
}

static int status_of(const struct rctl_reach_result *r)
{
	return !r->evaluated ? RCTL_EXIT_UNKNOWN : r->cls ? RCTL_EXIT_FAIL : RCTL_EXIT_OK;
}

static void print_detail(const struct rctl_reach_result *r)
{
	const char *id = rctl_reach_class_id(r->cls);

	out_str(OUT_ANY, "target", "reach %s", r->target);
	out_u64(OUT_ANY, "port", " port %" PRIu64, (uint64_t)(r->port ? r->port : ro.port));
	out_str(OUT_ANY, "verdict", ": %s", verdict(r));
	out_text("%s%s\n", id ? " " : "", id ? id : "");
	if (!r->evaluated) {
		out_str(OUT_ANY, "error", "  %s\n", r->err.msg);
		return;
	}
	print_finding(r);
	print_path(&r->c.path);
	print_peer(r);
	print_steps(r);
	out_str(OUT_ANY, "clock_source", "  clock %s\n", r->clock_source);
	print_rtt("send", &r->rtt[0], rtt_size());
	print_rtt("write", &r->rtt[1], rtt_size());
	print_compare(r);
	print_sweep(r);
	print_ctl(r);
	print_counters(r);
}

/* ---- many targets: a table, worst first ------------------------------- */

static const struct out_col target_cols[] = {
	{ "target", "TARGET", 0 }, { "verdict", "VERDICT", 0 },
	{ "finding", "FINDING", 0 }, { "path_mtu", "PATH_MTU", OUT_COL_RIGHT },
	{ "rtt_p50", "RTT_P50_US", OUT_COL_RIGHT }, { "rtt_p99", "RTT_P99_US", OUT_COL_RIGHT },
	{ "loss", "LOSS", OUT_COL_RIGHT },
};

static void print_row(const struct rctl_reach_result *r)
{
	const struct rctl_lat *l = &r->rtt[0];

	out_str(OUT_TEXT, "target", NULL, r->target);
	out_str(OUT_TEXT, "verdict", NULL, verdict(r));
	out_str(OUT_TEXT, "finding", NULL, rctl_reach_class_id(r->cls));
	if (r->c.path.path_mtu)
		out_u64(OUT_TEXT, "path_mtu", NULL, r->c.path.path_mtu);
	if (l->count) {
		out_dbl(OUT_TEXT, "rtt_p50", "%.1f", l->p50 / 1e3);
		out_dbl(OUT_TEXT, "rtt_p99", "%.1f", l->p99 / 1e3);
	}
	if (r->evaluated && r->n_after)
		out_u64(OUT_TEXT, "loss", NULL, r->loss_delta);
}

static int worse_first(const void *a, const void *b)
{
	const struct rctl_reach_result *x = *(const struct rctl_reach_result *const *)a;
	const struct rctl_reach_result *y = *(const struct rctl_reach_result *const *)b;
	int sx = status_of(x), sy = status_of(y);

	if (sx != sy)
		return rctl_reach_worst(sx, sy) == sx ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void print_table(struct rctl_reach_result *r, unsigned int n)
{
	struct rctl_reach_result **v = calloc(n, sizeof(*v));
	unsigned int i;

	if (!v)
		return;
	for (i = 0; i < n; i++)
		v[i] = &r[i];
	qsort(v, n, sizeof(*v), worse_first);
	out_table_begin("targets", target_cols, sizeof(target_cols) / sizeof(target_cols[0]));
	for (i = 0; i < n; i++) {
		out_row_begin();
		print_row(v[i]);
		out_row_end();
	}
	out_table_end();
	for (i = 0; i < n && status_of(v[i]); i++)
		out_text("  %s: %s\n", v[i]->target,
			 v[i]->evaluated ? v[i]->why.msg : v[i]->err.msg);
	free(v);
}

static void print_many(struct rctl_reach_result *r, unsigned int n)
{
	unsigned int i;

	if (!out_json()) {
		print_table(r, n);
		return;
	}
	out_arr_begin("targets");
	for (i = 0; i < n; i++) {
		out_obj_begin(NULL);
		print_detail(&r[i]);
		out_obj_end();
	}
	out_arr_end();
}

/* ---- --matrix FILE... --------------------------------------------------- */

static void print_pair(const struct rctl_matrix *m, const struct rctl_pair *p)
{
	out_obj_begin(NULL);
	out_str(OUT_ANY, "source", "  %-16s", m->sources[p->src]);
	out_str(OUT_ANY, "target", " -> %-16s", m->targets[p->dst]);
	out_str(OUT_ANY, "verdict", " %-7s", p->verdict);
	out_str(OUT_ANY, "finding", " %s", p->finding[0] ? p->finding : NULL);
	out_str(OUT_ANY, "message", ": %s\n", p->message[0] ? p->message : NULL);
	if (p->path_mtu)
		out_u64(OUT_JSON, "path_mtu", NULL, p->path_mtu);
	else
		out_null(OUT_JSON, "path_mtu", NULL);
	if (p->rtt_p50_ns)
		out_u64(OUT_JSON, "rtt_p50_ns", NULL, p->rtt_p50_ns);
	else
		out_null(OUT_JSON, "rtt_p50_ns", NULL);
	out_obj_end();
}

static void print_labels(const char *key, char **labels, const unsigned int *order,
			 unsigned int n)
{
	unsigned int i;

	out_arr_begin(key);
	for (i = 0; i < n; i++)
		out_str(OUT_JSON, NULL, NULL, labels[order[i]]);
	out_arr_end();
}

/* The grid, text only: rows sources, columns targets, worst first. */
static void print_grid(const struct rctl_matrix *m)
{
	const struct rctl_pair *p;
	unsigned int i, j;

	out_text("\n%-18s", "SOURCE \\ TARGET");
	for (j = 0; j < m->ntgt; j++)
		out_text(j + 1 < m->ntgt ? " %-16s" : " %s", m->targets[m->col_order[j]]);
	out_text("\n");
	for (i = 0; i < m->nsrc; i++) {
		out_text("%-18s", m->sources[m->row_order[i]]);
		for (j = 0; j < m->ntgt; j++) {
			p = rctl_matrix_at(m, m->row_order[i], m->col_order[j]);
			out_text(j + 1 < m->ntgt ? " %-16s" : " %s",
				 !p ? "-" : !strcmp(p->verdict, "ok") ? "ok" :
				 p->finding[0] ? p->finding + 6 : p->verdict);	/* "reach." */
		}
		out_text("\n");
	}
}

/*
 * Too many targets for a grid a terminal shows (100 targets: 1,717
 * columns): a row per source, with its counts and its failing targets.
 */
#define RCTL_GRID_WIDTH 160

static void print_sources(const struct rctl_matrix *m)
{
	const struct rctl_pair *p;
	unsigned int i, j, ok, bad, none, shown;

	out_text("\n%-18s %6s %8s %10s  %s\n", "SOURCE", "OK", "FAILING", "NOT_PROBED",
		 "FAILING TARGETS");
	for (i = 0; i < m->nsrc; i++) {
		ok = bad = none = 0;
		for (j = 0; j < m->ntgt; j++) {
			p = rctl_matrix_at(m, m->row_order[i], j);
			ok += p && !strcmp(p->verdict, "ok");
			bad += p && strcmp(p->verdict, "ok");
			none += !p;
		}
		out_text("%-18s %6u %8u %10u", m->sources[m->row_order[i]], ok, bad, none);
		for (j = shown = 0; j < m->ntgt; j++) {
			p = rctl_matrix_at(m, m->row_order[i], m->col_order[j]);
			if (p && strcmp(p->verdict, "ok"))
				out_text(shown++ ? " %s" : "  %s", m->targets[m->col_order[j]]);
		}
		out_text("\n");
	}
	out_text("(no grid: %u targets are too many columns; -j has every pair)\n", m->ntgt);
}

static int print_matrix(const struct rctl_matrix *m)
{
	unsigned int i;

	out_text("%u sources x %u targets: %u pairs probed, %u failing, %u not probed",
		 m->nsrc, m->ntgt, m->npresent, m->nfailed,
		 m->nsrc * m->ntgt - m->npresent);
	out_text(m->nbad ? "; inputs unreadable: %u\n" : "\n", m->nbad);
	print_labels("sources", m->sources, m->row_order, m->nsrc);
	print_labels("targets", m->targets, m->col_order, m->ntgt);
	out_u64(OUT_JSON, "pairs_probed", NULL, m->npresent);
	out_u64(OUT_JSON, "pairs_failing", NULL, m->nfailed);
	out_u64(OUT_JSON, "pairs_missing", NULL, (uint64_t)m->nsrc * m->ntgt - m->npresent);
	if (m->nfailed)
		out_text("\nfailing pairs:\n");
	out_arr_begin("pairs");
	for (i = 0; i < m->npresent; i++)
		if (out_json() || strcmp(m->order[i]->verdict, "ok"))
			print_pair(m, m->order[i]);
	out_arr_end();
	if (18 + 17 * m->ntgt <= RCTL_GRID_WIDTH)
		print_grid(m);
	else
		print_sources(m);
	return m->nfailed ? RCTL_EXIT_FAIL : m->nbad ? RCTL_EXIT_UNKNOWN : RCTL_EXIT_OK;
}

/* What was left out: stderr as it goes for people, "unreadable" for programs. */
static void print_unreadable(struct rctl_ctx *ctx, const struct rctl_matrix *m)
{
	unsigned int i;

	out_arr_begin("unreadable");
	for (i = 0; i < m->nbad; i++) {
		cmd_warn(ctx, "%s (left out)", m->bad[i].reason);
		out_obj_begin(NULL);
		out_str(OUT_JSON, "name", NULL, m->bad[i].name);
		out_str(OUT_JSON, "message", NULL, m->bad[i].reason);
		out_obj_end();
	}
	out_arr_end();
	out_u64(OUT_JSON, "unreadable_count", NULL, m->nbad);
}

static int reach_matrix(struct rctl_ctx *ctx, int argc, char **argv)
{
	struct rctl_matrix m = { 0 };
	struct rctl_err e = { 0 };
	char *text = NULL;
	int i, ret = 0;

	for (i = 0; i < argc && !ret; i++) {
		rctl_err_clear(&e);
		if (cmd_read_text(argv[i], &text, &e))
			ret = rctl_matrix_add_bad(&m, argv[i], e.msg);
		else
			ret = rctl_matrix_add_doc(&m, text, argv[i], &e);
		free(text);
		text = NULL;
	}
	if (!ret && !m.npairs && m.nbad) {	/* nothing to show: the one line why */
		ret = m.nbad == 1 ? rctl_err_plain(&e, EINVAL, "%s", m.bad[0].reason) :
		      rctl_err_plain(&e, EINVAL, "none of the %u inputs holds a reach document", m.nbad);
	} else if (!ret && rctl_matrix_finish(&m)) {
		ret = rctl_err_strerror(&e, ENOMEM, "cannot build the matrix");
	}
	if (ret) {
		ret = cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	} else {
		print_unreadable(ctx, &m);
		ret = print_matrix(&m);
	}
	rctl_matrix_free(&m);
	return ret;
}

/* ---- the command ---------------------------------------------------------- */

static int reach_targets(struct rctl_ctx *ctx, int argc, char **argv,
			 char ***list, unsigned int *n)
{
	struct rctl_err e = { 0 };
	int i;

	for (i = 0; i < argc; i++)
		if (rctl_reach_targets_add(list, n, argv[i], &e))
			return cmd_error(ctx, RCTL_EXIT_USAGE, &e);
	/* A file that cannot be read is a runtime error, as a missing --input is; a bad line in it is usage. */
	if (ro.targets && rctl_reach_targets_load(ro.targets, list, n, &e))
		return cmd_error(ctx, e.errnum && e.errnum != EINVAL ? RCTL_EXIT_UNKNOWN : RCTL_EXIT_USAGE,
				 &e);
	if (!*n)
		return cmd_errorf(ctx, RCTL_EXIT_USAGE, "reach: no target (give TARGET or --targets FILE)");
	return 0;
}

static int reach_check(struct rctl_ctx *ctx, int argc)
{
	int ret = cmd_src_check(ctx, &ro.src);

	if (ret)
		return ret;
	if (ro.matrix && ro.targets)
		return cmd_errorf(ctx, RCTL_EXIT_USAGE, "reach: --matrix reads files; --targets does not apply");
	if (ro.matrix && !argc)
		return cmd_errorf(ctx, RCTL_EXIT_USAGE, "reach: --matrix needs the JSON files of reach runs");
	return 0;
}

static int reach_runs(struct rctl_ctx *ctx, char **list, unsigned int n,
		      const struct rctl_reach_opts *o, bool many)
{
	struct rctl_reach_result *r = calloc(n, sizeof(*r));
	struct rctl_err e = { 0 };
	unsigned int i;
	int ret = RCTL_EXIT_OK;

	if (!r)
		return cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "out of memory");
	if (rctl_reach_many(o, list, n, (unsigned int)ro.parallel, r, &e)) {
		free(r);
		return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	}
	if (!many && !r[0].evaluated)
		ret = cmd_error(ctx, RCTL_EXIT_UNKNOWN, &r[0].err);
	else if (many)
		print_many(r, n);
	else
		print_detail(&r[0]);
	for (i = 0; i < n; i++) {
		if (many || r[i].evaluated)
			ret = rctl_reach_worst(ret, status_of(&r[i]));
		rctl_reach_result_free(&r[i]);
	}
	free(r);
	return ret;
}

static int do_reach(struct rctl_ctx *ctx, int argc, char **argv)
{
	struct sockaddr_storage src;
	struct rctl_reach_opts o = {
		.port = (uint16_t)ro.port, .tos = ro.tos_given ? ro.tos : -1,
		.count = (unsigned int)ro.count, .size = (uint32_t)ro.size,
		.sweep = ro.sweep, .compare_tcp = ro.compare_tcp, .timeout_s = ro.timeout,
		.sweep_max = ro.size_given ? (uint32_t)ro.size : RCTL_REACH_SWEEP_MAX,
	};
	uint8_t token[RCTL_TOKEN_LEN];
	struct rctl_err e = { 0 };
	char **list = NULL;
	unsigned int n = 0;
	int ret;

	ret = reach_check(ctx, argc);
	if (ret)
		return ret;
	if (ro.matrix)
		return reach_matrix(ctx, argc, argv);
	ret = cmd_src_addr(ctx, &ro.src, &src, &o.src);
	if (ret)
		return ret;
	if (getenv("ROCECTL_PROBE_VERSION"))	/* testing aid: speak another version */
		o.version = (uint8_t)atoi(getenv("ROCECTL_PROBE_VERSION"));
	if (getenv("ROCECTL_PROBE_HALF_OPEN"))	/* testing aid: a connect that never completes */
		o.half_open_s = atof(getenv("ROCECTL_PROBE_HALF_OPEN"));
	if (getenv("ROCECTL_PROBE_WRITE_SHORT"))	/* testing aid: WRITEs shorter than they say */
		o.write_short = (uint32_t)atol(getenv("ROCECTL_PROBE_WRITE_SHORT"));
	if (getenv("ROCECTL_PROBE_GAP"))	/* testing aid: a client that sends now and then */
		o.gap_s = atof(getenv("ROCECTL_PROBE_GAP"));
	if (ro.token_file) {
		if (rctl_token_read(ro.token_file, token, &e))
			return cmd_error(ctx, RCTL_EXIT_USAGE, &e);
		o.token = token;
	}
	ret = reach_targets(ctx, argc, argv, &list, &n);
	if (!ret)
		ret = reach_runs(ctx, list, n, &o, n > 1 || ro.targets);
	rctl_reach_targets_free(list, n);
	return ret;
}

const struct rctl_cmd cmd_reach = {
	.name = "reach",
	.summary = "prove RoCE reachability with a real RC QP against 'rocectl serve'",
	.args = "TARGET...",
	.min_args = 0,
	.max_args = -1,
	.arg_kind = ARG_HOST,
	.opts = reach_opts,
	.fn = do_reach,
	.flags = CMD_CHECK,
};
