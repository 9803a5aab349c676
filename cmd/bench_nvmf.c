// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rocectl bench nvmf: a userspace NVMe-oF host, over RDMA or TCP, measuring
 * IOPS and latency against a real target (lib/nvmf_session.c,
 * lib/nvmf_ctrl.c, lib/bench_nvmf.c); --compare-tcp runs the workload over
 * both and prints them side by side.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "rocectl/clock.h"
#include "rocectl/fio_json.h"
#include "rocectl/hist.h"
#include "rocectl/nvmf.h"
#include "rocectl/out.h"


static const char *const rw_names[] = {
	"randread", "read", "randwrite", "write", "randrw", NULL,
};

static const char *const output_names[] = { "text", "json", "fio", NULL };

static const char *const transport_names[] = { "rdma", "tcp", NULL };

static struct {
	const char *target, *nqn, *hostnqn, *rw, *cpus, *output, *transport;
	int port, nsid, mix, qd, queues, tos;
	uint64_t bs, ios;
	double time, ramp, timeout;
	bool write_ok, verify, histogram, strict, event, poll, digest, compare_tcp;
	bool time_given, ios_given, tos_given, timeout_given;
} o = {
	.port = RCTL_NVMF_PORT, .nsid = 1, .rw = "randread", .mix = 50, .qd = 1,
	.queues = 1, .bs = 4096, .time = 10, .output = "text",
};

static const struct rctl_opt nvmf_opts[] = {
	{ .name = "target", .aliases = "traddr", .short_name = 'a', .type = OPT_STR, .arg = "ADDR",
	  .dst = &o.target, .kind = ARG_HOST,
	  .help = "address of the NVMe-oF target (required)" },
	{ .name = "port", .aliases = "trsvcid", .type = OPT_INT, .arg = "PORT", .dst = &o.port,
	  .min = 1, .max = 65535,
	  .help = "RDMA CM or TCP port of the target (default 4420, both transports)" },
	/* nvme-cli's -t is check's and doctor's time limit here: long options only */
	{ .name = "transport", .aliases = "trtype", .type = OPT_CHOICE, .arg = "TRTYPE",
	  .dst = &o.transport, .choices = transport_names,
	  .help = "rdma (default) or tcp" },
	{ .name = "digest", .type = OPT_FLAG, .dst = &o.digest,
	  .help = "TCP: header and data digests (CRC32C) on every PDU" },
	{ .name = "compare-tcp", .type = OPT_FLAG, .dst = &o.compare_tcp,
	  .help = "run the workload over RDMA, then over TCP to the same subsystem, "
		  "and print both side by side" },
	{ .name = "nqn", .short_name = 'n', .type = OPT_STR, .arg = "NQN", .dst = &o.nqn,
	  .help = "subsystem NQN (default: the only one in the discovery log)" },
	{ .name = "nsid", .type = OPT_INT, .arg = "N", .dst = &o.nsid,
	  .min = 1, .max = 0x7fffffff, .help = "namespace ID (default 1)" },
	{ .name = "rw", .type = OPT_CHOICE, .arg = "PATTERN", .dst = &o.rw,
	  .choices = rw_names, .help = "I/O pattern (default randread)" },
	{ .name = "mix", .type = OPT_INT, .arg = "PCT", .dst = &o.mix, .min = 0,
	  .max = 100, .help = "percent reads with --rw randrw (default 50)" },
	{ .name = "bs", .type = OPT_SIZE, .arg = "SIZE", .dst = &o.bs, .min = 512,
	  .max = 16 * 1024 * 1024 - 1, .help = "I/O size in bytes (default 4096)" },
	{ .name = "qd", .aliases = "iodepth", .type = OPT_INT, .arg = "N", .dst = &o.qd, .min = 1,
	  .max = 4095, .help = "commands outstanding per queue (default 1)" },
	{ .name = "queues", .aliases = "numjobs", .type = OPT_INT, .arg = "N", .dst = &o.queues, .min = 1,
	  .max = 64, .help = "I/O queues, one RC QP or TCP connection each (default 1)" },
	{ .name = "time", .aliases = "runtime", .type = OPT_SECS, .arg = "SECS", .dst = &o.time,
	  .max = 86400, .given = &o.time_given,
	  .help = "measure for SECS seconds (default 10)" },
	{ .name = "ios", .type = OPT_SIZE, .arg = "N", .dst = &o.ios, .min = 1,
	  .given = &o.ios_given, .help = "measure N I/Os instead of a time" },
	{ .name = "cpus", .type = OPT_STR, .arg = "LIST", .dst = &o.cpus,
	  .help = "pin the thread of queue i to the i-th CPU of LIST, e.g. 0-1,4 "
		  "(default: one thread per queue, not pinned)" },
	{ .name = "ramp", .type = OPT_SECS, .arg = "SECS", .dst = &o.ramp, .max = 3600,
	  .help = "run SECS seconds before measuring" },
	{ .name = "timeout", .type = OPT_SECS, .arg = "SECS", .dst = &o.timeout,
	  .max = 3600, .given = &o.timeout_given,
	  .help = "bound of each connect step, command, I/O and controller "
		  "enable/shutdown wait (default 3, 5 and 10 s)" },
	{ .name = "tos", .short_name = 'T', .type = OPT_INT, .arg = "TOS", .dst = &o.tos, .min = 0,
	  .max = 255, .given = &o.tos_given,
	  .help = "IP TOS byte of the connections (default: rdma_cm's or the socket's)" },
	{ .name = "hostnqn", .type = OPT_STR, .arg = "NQN", .dst = &o.hostnqn,
	  .help = "host NQN (default: a fresh uuid NQN per run)" },
	{ .name = "write-ok", .type = OPT_FLAG, .dst = &o.write_ok,
	  .help = "allow writes: the namespace's data is destroyed" },
	{ .name = "verify", .type = OPT_FLAG, .dst = &o.verify,
	  .help = "write a pattern and read it back (needs --write-ok)" },
	{ .name = "histogram", .type = OPT_FLAG, .dst = &o.histogram,
	  .help = "print the latency histogram" },
	{ .name = "strict", .type = OPT_FLAG, .dst = &o.strict,
	  .help = "refuse instead of clamping --qd and --queues to the target's limits" },
	{ .name = "poll", .type = OPT_FLAG, .dst = &o.poll,
	  .help = "busy-poll the completion queues (default: adaptive, sleep part of the "
		  "measured interval between completions, then poll)" },
	{ .name = "event", .type = OPT_FLAG, .dst = &o.event,
	  .help = "after 10 us without a completion, sleep on completion events" },
	{ .name = "output", .short_name = 'o', .type = OPT_CHOICE, .arg = "FORMAT", .dst = &o.output,
	  .choices = output_names,
	  .help = "text (default), json (as -j) or fio (fio's json+ document, for tools that read fio's output)" },
	{ 0 }
};

static enum rctl_nvmf_rw rw_of(const char *s)
{
	int i;

	for (i = 0; rw_names[i]; i++)
		if (!strcmp(s, rw_names[i]))
			return (enum rctl_nvmf_rw)i;
	return RCTL_RW_RANDREAD;
}

static bool writes(enum rctl_nvmf_rw rw)
{
	return rw == RCTL_RW_RANDWRITE || rw == RCTL_RW_WRITE || rw == RCTL_RW_RANDRW;
}

static int cpu_list[64], ncpus;	/* --cpus */

/* -o fio: the run is one document in fio's shape, and nothing else is printed. */
static bool fio_out(void)
{
	return !strcmp(o.output, "fio");
}

/* --transport: rdma unless tcp is given (NULL: not given). */
static enum rctl_nvmf_trtype trtype_of(const char *s)
{
	return s && !strcmp(s, "tcp") ? RCTL_NVMF_TR_TCP : RCTL_NVMF_TR_RDMA;
}

/* Everything that can be refused before touching the network. */
static int check_usage(struct rctl_ctx *ctx)
{
	struct rctl_err e = { 0 };

	if (!o.target)
		return cmd_errorf(ctx, RCTL_EXIT_USAGE, "bench nvmf: --target is required "
				  "(see 'rocectl bench nvmf --help')");
	if (o.time_given && o.ios_given)
		return cmd_errorf(ctx, RCTL_EXIT_USAGE,
				  "bench nvmf: --time and --ios exclude each other");
	if ((writes(rw_of(o.rw)) || o.verify) && !o.write_ok)
		return cmd_errorf(ctx, RCTL_EXIT_USAGE,
				  "bench nvmf: %s%s writes to namespace %d and destroys its data; "
				  "add --write-ok if that is what you want",
				  o.verify ? "--verify" : "--rw ", o.verify ? "" : o.rw, o.nsid);
	if (o.cpus && rctl_cpu_list_parse(o.cpus, cpu_list, 64, &ncpus, &e))
		return cmd_errorf(ctx, RCTL_EXIT_USAGE, "bench nvmf: --cpus: %s", e.msg);
	if (fio_out() && ctx->json)
		return cmd_errorf(ctx, RCTL_EXIT_USAGE,
				  "bench nvmf: -o fio and --json are two output formats; choose one");
	if (o.bs % 512)
		return cmd_errorf(ctx, RCTL_EXIT_USAGE,
				  "bench nvmf: --bs %" PRIu64 " is not a multiple of 512", o.bs);
	if (o.compare_tcp && (o.transport || fio_out()))
		return cmd_errorf(ctx, RCTL_EXIT_USAGE, "bench nvmf: --compare-tcp runs both "
				  "transports and prints its own table; drop --transport and -o fio");
	if (o.poll && o.event)
		return cmd_errorf(ctx, RCTL_EXIT_USAGE,
				  "bench nvmf: --poll and --event exclude each other");
	if (o.digest && !o.compare_tcp && trtype_of(o.transport) != RCTL_NVMF_TR_TCP)
		return cmd_errorf(ctx, RCTL_EXIT_USAGE,
				  "bench nvmf: --digest is for --transport tcp (NVMe/TCP digests)");
	return 0;
}

static enum rctl_nvmf_wait_mode wait_mode(void)
{
	return o.poll ? RCTL_WAIT_POLL : o.event ? RCTL_WAIT_EVENT : RCTL_WAIT_ADAPTIVE;
}

static int secs_ms(double secs)
{
	return secs * 1000 < 1 ? 1 : (int)(secs * 1000);
}

static struct rctl_nvmf_opts conn_opts(enum rctl_nvmf_trtype tr)
{
	struct rctl_nvmf_opts co = rctl_nvmf_opts_default(o.target, (uint16_t)o.port, "");

	co.trtype = tr;
	co.hdgst = co.ddgst = tr == RCTL_NVMF_TR_TCP && o.digest;
	co.hostnqn = o.hostnqn;
	co.tos = o.tos_given ? o.tos : -1;
	if (o.timeout_given)
		co.timeout_ms = co.wait_ms = secs_ms(o.timeout);
	return co;
}

static const struct out_col disc_cols[] = {
	{ .key = "subtype", .title = "SUBTYPE" },
	{ .key = "trtype", .title = "TRTYPE" },
	{ .key = "traddr", .title = "TRADDR" },
	{ .key = "trsvcid", .title = "TRSVCID" },
	{ .key = "subnqn", .title = "SUBNQN" },
};

static void print_discovery(const struct rctl_nvmf_disc_entry *d, uint32_t n)
{
	uint32_t i;

	if (fio_out())
		return;
	out_text("discovery log of %s:%d\n", o.target, o.port);
	out_table_indent(2);
	out_table_begin("discovery", disc_cols, 5);
	for (i = 0; i < n; i++) {
		out_row_begin();
		out_str(OUT_ANY, "subtype", NULL, rctl_nvmf_subtype_name(d[i].subtype));
		out_str(OUT_ANY, "trtype", NULL, rctl_nvmf_trtype_name(d[i].trtype));
		out_str(OUT_JSON, "adrfam", NULL, rctl_nvmf_adrfam_name(d[i].adrfam));
		out_str(OUT_ANY, "traddr", NULL, d[i].traddr);
		out_str(OUT_ANY, "trsvcid", NULL, d[i].trsvcid);
		out_str(OUT_ANY, "subnqn", NULL, d[i].subnqn);
		out_u64(OUT_JSON, "portid", NULL, d[i].portid);
		out_row_end();
	}
	out_table_end();
}

/*
 * What the target's keys reach (lib/nvmf_rdma.c, q_keys()): one slot one
 * way, or, where the device's max_mr is too small, a queue's buffer one way.
 */
static void print_keys(const struct rctl_nvmf_info *in, bool verbose)
{
	if (!in->ibdev[0]) {
		out_null(OUT_JSON, "rdma_keys", NULL);
		out_null(OUT_JSON, "rdma_max_mr", NULL);
		return;
	}
	out_str(OUT_JSON, "rdma_keys", NULL, in->keys_shared ? "buffer" : "slot");
	out_u64(OUT_JSON, "rdma_max_mr", NULL, in->max_mr);
	if (!verbose)
		return;
	if (in->keys_shared)
		out_text("data keys: one per direction over each queue's buffer: the device "
			 "(max_mr %" PRIu32 ") has no room for two per slot\n", in->max_mr);
	else
		out_text("data keys: one per slot and direction, registered until the queue "
			 "closes (max_mr %" PRIu32 ")\n", in->max_mr);
}

static void print_setup(const struct rctl_nvmf_session *s, bool verbose)
{
	const struct rctl_nvmf_info *in = rctl_nvmf_info(s->c);

	if (fio_out())
		return;
	out_str(OUT_ANY, "target", "target %s", o.target);
	out_u64(OUT_ANY, "port", ":%" PRIu64, (uint64_t)o.port);
	out_str(OUT_ANY, "subnqn", "  subsystem %s", s->nqn);
	out_u64(OUT_ANY, "cntlid", "  controller %" PRIu64, in->cntlid);
	out_str(OUT_ANY, "transport", "  over %s", in->transport);
	if (in->ibdev[0])
		out_str(OUT_ANY, "rdma_device", " via %s", in->ibdev);
	else
		out_null(OUT_JSON, "rdma_device", NULL);
	if (!strcmp(in->transport, "tcp")) {
		out_bool(OUT_ANY, "header_digest", in->hdgst ? "  header digest" : "", in->hdgst);
		out_bool(OUT_ANY, "data_digest", in->ddgst ? "  data digest" : "", in->ddgst);
		out_u64(OUT_JSON, "maxh2cdata", NULL, in->maxh2cdata);
	}
	out_text("\n");
	print_keys(in, verbose);
	out_str(OUT_JSON, "hostnqn", NULL, in->hostnqn);
	out_u64(OUT_JSON, "mqes", NULL, RCTL_NVME_CAP_MQES(in->cap));
	out_u64(OUT_JSON, "mdts", NULL, in->id.mdts);
	out_u64(OUT_JSON, "ioccsz", NULL, in->id.ioccsz);
	out_u64(OUT_JSON, "inline_write_max_bytes", NULL, rctl_nvmf_q_inline_max(s->q[0]));
	out_u64(OUT_ANY, "nsid", "namespace %" PRIu64, (uint64_t)o.nsid);
	out_u64(OUT_ANY, "blocks", ": %" PRIu64 " blocks", s->ns.nsze);
	out_u64(OUT_ANY, "block_size_bytes", " of %" PRIu64 " bytes\n", (uint64_t)rctl_nvme_block_size(s->ns.lbads));
	out_str(OUT_ANY, "rw", "%s", o.rw);
	if (!strcmp(o.rw, "randrw"))
		out_u64(OUT_ANY, "mix_read_pct", " (%" PRIu64 "%% reads)", (uint64_t)o.mix);
	out_u64(OUT_ANY, "size_bytes", "  bs %" PRIu64, o.bs);
	out_u64(OUT_ANY, "qd", "  qd %" PRIu64, s->qd);
	out_u64(OUT_ANY, "queues", "  queues %" PRIu64, (uint64_t)s->nq);
	out_str(OUT_ANY, "mode", "  %s", rctl_nvmf_wait_name(wait_mode()));
	out_str(OUT_ANY, "clock_source", "  clock %s", rctl_fast_clock_init());
	out_bool(OUT_ANY, "verify", o.verify ? "  verify\n" : "\n", o.verify);
	if (o.event)
		out_text("event mode: sleeps on completion events, for shared machines; "
			 "latency includes the wake-up\n");
}

static void print_lat(const struct rctl_hist *h)
{
	unsigned int i;

	cmd_latency_json("latency_ns", h, rctl_hist_cutoffs, RCTL_HIST_NCUTOFFS);
	out_text("latency us: avg %.1f  min %.1f  max %.1f\n", rctl_hist_mean(h) / 1000,
		 rctl_hist_min(h) / 1000.0, rctl_hist_max(h) / 1000.0);
	for (i = 0; i < RCTL_HIST_NCUTOFFS; i++)
		out_text("  %9.5f%% : %10.1f us\n", rctl_hist_cutoffs[i],
			 rctl_hist_percentile(h, rctl_hist_cutoffs[i]) / 1000.0);
}

/* What the adaptive wait did: how many idle moments it slept through, what it measured. */
static void print_wait(const struct rctl_nvmf_wait_stat *w)
{
	double share = w->idles ? (double)w->slept / (double)w->idles : 0;

	if (wait_mode() != RCTL_WAIT_ADAPTIVE)
		return;
	out_obj_begin("adaptive");
	out_u64(OUT_ANY, "idles", "adaptive: %" PRIu64 " idle waits", w->idles);
	out_u64(OUT_ANY, "slept", ", %" PRIu64 " slept in", w->slept);
	out_u64(OUT_JSON, "polls", NULL, w->idles - w->slept);
	out_dbl(OUT_JSON, "sleep_share", NULL, share);
	out_text(" (%.1f%%, the rest polled;", share * 100);
	out_u64(OUT_ANY, "event_idles", " %" PRIu64 " on the completion channel)", w->event_idles);
	out_u64(OUT_ANY, "sleeps", ", %" PRIu64 " timed sleeps", w->sleeps);
	out_u64(OUT_ANY, "events", ", %" PRIu64 " channel waits", w->events);
	out_dbl(OUT_ANY, "slept_s", "  asleep %.2f s", w->slept_s);
	out_u64(OUT_JSON, "interval_ns", NULL, w->interval_ns);
	out_u64(OUT_JSON, "sleep_cost_ns", NULL, w->cost_ns);
	out_text("  interval %.1f us  sleep cost %.1f us\n", (double)w->interval_ns / 1000,
		 (double)w->cost_ns / 1000);
	out_obj_end();
}

static void print_results(const struct rctl_nvmf_session *s, const struct rctl_nvmf_bench_res *r)
{
	double t = r->elapsed_s > 0 ? r->elapsed_s : 0;
	double iops = t > 0 ? (double)r->ios / t : 0;
	uint32_t i;

	out_obj_begin("results");
	out_bool(OUT_JSON, "partial", NULL, r->partial);
	out_u64(OUT_ANY, "ios", "ios %" PRIu64, r->ios);
	out_u64(OUT_JSON, "reads", NULL, r->reads);
	out_u64(OUT_JSON, "writes", NULL, r->writes);
	out_u64(OUT_JSON, "transferred_bytes", NULL, r->bytes);
	out_dbl(OUT_ANY, "elapsed_s", " in %.2f s", t);
	out_dbl(OUT_ANY, "ios_per_s", "  IOPS %.1f", iops);
	out_dbl(OUT_JSON, "bytes_per_s", NULL, t > 0 ? (double)r->bytes / t : 0);
	out_text("  MiB/s %.2f", t > 0 ? (double)r->bytes / t / 1048576 : 0);
	out_dbl(OUT_ANY, "cpu_s", "  cpu %.2f s", r->cpu_s);
	out_u64(OUT_JSON, "cpu_per_io_ns", NULL,
		r->ios ? (uint64_t)(r->cpu_s * 1e9 / (double)r->ios + 0.5) : 0);
	out_u64(OUT_JSON, "keep_alives", NULL, r->ka_sent);
	if (o.verify)
		out_u64(OUT_ANY, "verified", "  verified %" PRIu64, r->verified);
	out_text("%s\n", r->partial ? "  (partial)" : "");
	print_wait(&r->wait);
	print_lat(&r->lat);
	if (r->reads && r->writes) {
		out_u64(OUT_JSON, "read_mean_ns", NULL, (uint64_t)(rctl_hist_mean(&r->rlat) + 0.5));
		out_u64(OUT_JSON, "write_mean_ns", NULL, (uint64_t)(rctl_hist_mean(&r->wlat) + 0.5));
		out_text("read avg %.1f us  write avg %.1f us\n", rctl_hist_mean(&r->rlat) / 1000,
			 rctl_hist_mean(&r->wlat) / 1000);
	}
	out_arr_begin("per_queue");
	for (i = 0; i < r->nq; i++) {
		out_obj_begin(NULL);
		out_u64(OUT_ANY, "qid", "queue %" PRIu64, i + 1);
		out_u64(OUT_ANY, "ios", ": ios %" PRIu64, r->q[i].ios);
		out_dbl(OUT_ANY, "ios_per_s", "  IOPS %.1f", t > 0 ? (double)r->q[i].ios / t : 0);
		out_dbl(OUT_ANY, "cpu_s", "  cpu %.2f s", r->q[i].cpu_s);
		if (r->q[i].cpu >= 0)
			out_u64(OUT_ANY, "cpu", "  on CPU %" PRIu64, (uint64_t)r->q[i].cpu);
		else
			out_null(OUT_JSON, "cpu", NULL);
		out_text("\n");
		out_obj_end();
	}
	out_arr_end();
	if (o.histogram)
		cmd_histogram(&r->lat);
	out_obj_end();
	(void)s;
}

/* The run as fio's json+ would have it (rocectl/fio_json.h). */
static void print_fio(const struct rctl_nvmf_session *s, const struct rctl_nvmf_bench_res *r)
{
	struct rctl_fio_job job = {
		.jobname = "rocectl-bench-nvmf", .rw = o.rw, .rwmixread = (unsigned int)o.mix,
		.bs = o.bs, .iodepth = s->qd, .numjobs = (unsigned int)s->nq,
		.elapsed_s = r->elapsed_s, .usr_s = r->usr_s, .sys_s = r->sys_s,
		.timestamp = time(NULL),
	};
	struct rctl_fio_dir rd = { r->reads, r->reads * o.bs, &r->rlat };
	struct rctl_fio_dir wr = { r->writes, r->writes * o.bs, &r->wlat };
	char *doc = rctl_fio_json("rocectl-" ROCECTL_VERSION, &job, &rd, &wr);

	if (doc)
		out_text("%s\n", doc);
	free(doc);
}

static bool show_progress;

static void on_progress(const struct rctl_nvmf_progress *p, void *arg)
{
	if (p->elapsed_s < 0)
		fprintf(stderr, "\rramp %5.1f s   ", -p->elapsed_s);
	else
		fprintf(stderr, "\r%6.1f s  %" PRIu64 " ios  %.0f IOPS  %.2f MiB/s   ",
			p->elapsed_s, p->ios, p->iops, p->mibs);
	fflush(stderr);
}

/* Open a session; print its discovery log (when read) and its clamps. */
static int open_session(struct rctl_ctx *ctx, enum rctl_nvmf_trtype tr, const char *nqn,
			struct rctl_nvmf_session **s, struct rctl_err *e)
{
	struct rctl_nvmf_session_cfg cfg = {
		.conn = conn_opts(tr), .nqn = nqn, .nsid = (uint32_t)o.nsid,
		.bs = (uint32_t)o.bs, .qd = o.qd, .queues = o.queues, .strict = o.strict,
		.event = wait_mode() != RCTL_WAIT_POLL,	/* adaptive waits on the channel too */
	};
	const struct rctl_nvmf_clamp *c;
	int ret = rctl_nvmf_session_open(&cfg, s, e), i;

	if (*s && (*s)->disc)
		print_discovery((*s)->disc, (*s)->ndisc);
	for (i = 0; !ret && i < (*s)->nclamp; i++) {
		c = &(*s)->clamp[i];
		cmd_warn(ctx, "--%s %d exceeds the target's limit of %d: clamped to %d", c->what,
			 c->want, c->max, c->max);
	}
	return ret;
}

/* Measure on an open session and print the results; r is filled even on error. */
static int run(struct rctl_nvmf_session *s, struct rctl_nvmf_bench_res *r,
	       struct rctl_err *e)
{
	struct rctl_nvmf_bench_cfg cfg = {
		.rw = rw_of(o.rw), .mix_read = (unsigned int)o.mix, .bs = (uint32_t)o.bs,
		.nsid = (uint32_t)o.nsid, .ns_blocks = s->ns.nsze, .lbads = s->ns.lbads,
		.time_s = o.ios_given ? 0 : o.time, .ios = o.ios_given ? o.ios : 0,
		.ramp_s = o.ramp, .verify = o.verify, .wait = wait_mode(),
		.io_timeout_ms = o.timeout_given ? secs_ms(o.timeout) : RCTL_NVMF_IO_TIMEOUT_MS,
		.progress = show_progress ? on_progress : NULL,
	};
	int ret;

	cfg.cpus = cpu_list;
	cfg.ncpus = ncpus;
	ret = rctl_nvmf_bench_run(s->c, s->q, s->nq, &cfg, r, e);
	if (show_progress)
		fprintf(stderr, "\r%70s\r", "");
	if (fio_out())
		print_fio(s, r);
	else
		print_results(s, r);
	return ret;
}

/*
 * One transport: open, print the set-up, measure. *opened says whether the
 * session came up (an error before it is the target's answer to connecting).
 */
static int bench_one(struct rctl_ctx *ctx, enum rctl_nvmf_trtype tr, const char *nqn,
		     struct rctl_nvmf_bench_res *r, char *nqn_out, bool *opened,
		     struct rctl_err *e)
{
	struct rctl_nvmf_session *s = NULL;
	int ret = open_session(ctx, tr, nqn, &s, e);

	*opened = !ret;
	if (!ret) {
		print_setup(s, ctx->verbose);
		ret = run(s, r, e);
	}
	if (nqn_out && s)
		snprintf(nqn_out, 257, "%s", s->nqn);
	rctl_nvmf_session_close(s);
	return ret;
}

static const struct out_col cmp_cols[] = {
	{ .key = "metric", .title = "METRIC" },
	{ .key = "rdma", .title = "RDMA", .flags = OUT_COL_RIGHT },
	{ .key = "tcp", .title = "TCP", .flags = OUT_COL_RIGHT },
	{ .key = "tcp_over_rdma", .title = "TCP/RDMA", .flags = OUT_COL_RIGHT },
};

static void cmp_row(const char *metric, double rdma, double tcp)
{
	out_row_begin();
	out_str(OUT_ANY, "metric", NULL, metric);
	out_dbl(OUT_ANY, "rdma", "%.1f", rdma);
	out_dbl(OUT_ANY, "tcp", "%.1f", tcp);
	if (rdma > 0)
		out_dbl(OUT_ANY, "tcp_over_rdma", "%.2f", tcp / rdma);
	else
		out_null(OUT_ANY, "tcp_over_rdma", "-");
	out_row_end();
}

static double cpu_per_io_us(const struct rctl_nvmf_bench_res *r)
{
	return r->ios ? r->cpu_s * 1e6 / (double)r->ios : 0;
}

/* The side-by-side table of --compare-tcp. */
static void print_compare(const struct rctl_nvmf_bench_res *r)
{
	const struct rctl_nvmf_bench_res *t = &r[1];

	out_text("\nRDMA vs TCP, same target, subsystem and workload:\n");
	out_table_indent(2);
	out_table_begin("compare", cmp_cols, 4);
	cmp_row("IOPS", r->elapsed_s > 0 ? (double)r->ios / r->elapsed_s : 0,
		t->elapsed_s > 0 ? (double)t->ios / t->elapsed_s : 0);
	cmp_row("mean latency us", rctl_hist_mean(&r->lat) / 1000,
		rctl_hist_mean(&t->lat) / 1000);
	cmp_row("p99 latency us", rctl_hist_percentile(&r->lat, 99.0) / 1000.0,
		rctl_hist_percentile(&t->lat, 99.0) / 1000.0);
	cmp_row("CPU per I/O us (this host)", cpu_per_io_us(r), cpu_per_io_us(t));
	out_table_end();
}

/* Both transports must answer: say clearly which one the target did not take. */
static int compare_fail(struct rctl_ctx *ctx, const char *tr, bool opened,
			const struct rctl_err *e)
{
	if (opened)
		return cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "bench nvmf --compare-tcp: the %s run "
				  "failed: %s", tr, e->msg);
	return cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "bench nvmf --compare-tcp: '%s:%d' did not "
			  "take NVMe/%s (the target must listen on both transports): %s",
			  o.target, o.port, tr, e->msg);
}

static int compare(struct rctl_ctx *ctx, struct rctl_nvmf_bench_res *r)
{
	struct rctl_err e = { 0 };
	char nqn[257] = "";
	bool opened;
	int ret;

	out_text("== NVMe/RDMA ==\n");
	out_obj_begin("rdma");
	ret = bench_one(ctx, RCTL_NVMF_TR_RDMA, o.nqn, &r[0], nqn, &opened, &e);
	out_obj_end();
	if (ret)
		return compare_fail(ctx, "RDMA", opened, &e);
	out_text("\n== NVMe/TCP ==\n");
	out_obj_begin("tcp");
	ret = bench_one(ctx, RCTL_NVMF_TR_TCP, nqn, &r[1], NULL, &opened, &e);
	out_obj_end();
	if (ret)
		return compare_fail(ctx, "TCP", opened, &e);
	print_compare(r);
	return RCTL_EXIT_OK;
}

static int do_bench_nvmf(struct rctl_ctx *ctx, int argc, char **argv)
{
	struct rctl_nvmf_bench_res *r;
	struct rctl_err e = { 0 };
	bool opened;
	int ret;

	ret = check_usage(ctx);
	if (ret)
		return ret;
	show_progress = !ctx->quiet && !ctx->json && isatty(STDOUT_FILENO) &&
			isatty(STDERR_FILENO);
	r = calloc(2, sizeof(*r));
	if (!r)
		return cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "cannot allocate results");
	if (o.compare_tcp)
		ret = compare(ctx, r);
	else if (bench_one(ctx, trtype_of(o.transport), o.nqn, r, NULL, &opened, &e))
		ret = cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	free(r);
	return ret;
}

const struct rctl_cmd cmd_bench_nvmf = {
	.name = "nvmf",
	.summary = "measure IOPS and latency of an NVMe-oF target (RDMA or TCP) from userspace",
	.opts = nvmf_opts,
	.fn = do_bench_nvmf,
};
