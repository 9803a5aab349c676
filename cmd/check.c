// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rocectl check AREA and rocectl doctor: judge a host (live, or a snapshot
 * with --input) against the intent and print the verdict the way NetQ's
 * "check roce" does: one line per area, then each finding with what was
 * expected, what was read and the command that fixes it. Read-only.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "rocectl/collect.h"
#include "rocectl/counters.h"
#include "rocectl/intent.h"
#include "rocectl/out.h"
#include "rocectl/rules.h"
#include "rocectl/snapshot.h"

static struct {
	const char *input;
	const char *dev;
	double interval;
	bool no_sample;
	struct rctl_intent_args ia;
} o = { .interval = 2.0 };

#define COMMON_OPTS							\
	{ .name = "dev", .short_name = 'd', .type = OPT_STR, .arg = "DEV",	\
	  .dst = &o.dev, .kind = ARG_DEV,				\
	  .help = "only this RDMA device, DEV/PORT or netdev" },	\
	{ .name = "input", .short_name = 'i', .type = OPT_STR, .arg = "FILE", \
	  .dst = &o.input, .kind = ARG_FILE,				\
	  .help = "judge a snapshot written by 'rocectl collect' instead of this host" }, \
	RCTL_INTENT_OPTS(o.ia)

static const struct rctl_opt check_opts[] = {
	COMMON_OPTS,
	{ 0 }
};

static const struct rctl_opt doctor_opts[] = {
	COMMON_OPTS,
	{ .name = "interval", .short_name = 'I', .type = OPT_SECS, .arg = "SECS",
	  .dst = &o.interval, .max = 3600,
	  .help = "seconds between the two counter samples (default 2)" },
	{ .name = "no-sample", .type = OPT_FLAG, .dst = &o.no_sample,
	  .help = "take one sample only: skip the counter-delta rules" },
	{ 0 }
};

static const char *const status_upper[] = { "PASS", "WARN", "UNKNOWN", "FAIL" };

/* "passed", or "N warnings, M errors" (and unknowns), as NetQ prints. */
static void area_line(const struct rctl_report *r, int a, bool ran)
{
	const uint32_t *c = r->area_count[a];
	char buf[96];

	if (!ran)
		snprintf(buf, sizeof(buf), "skipped: needs two counter samples (rocectl doctor)");
	else if (!c[RCTL_WARN] && !c[RCTL_FAIL] && !c[RCTL_UNKNOWN])
		snprintf(buf, sizeof(buf), c[RCTL_PASS] ? "passed" : "nothing to check");
	else
		snprintf(buf, sizeof(buf), "%u warnings, %u errors", c[RCTL_WARN], c[RCTL_FAIL]);
	if (ran && c[RCTL_UNKNOWN])
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), ", %u unknown",
			 c[RCTL_UNKNOWN]);
	out_obj_begin(NULL);
	out_str(OUT_ANY, "area", "%-10s", rctl_area_name(a));
	out_str(OUT_TEXT, "result", " %s\n", buf);
	out_bool(OUT_JSON, "checked", NULL, ran);
	out_u64(OUT_JSON, "pass", NULL, c[RCTL_PASS]);
	out_u64(OUT_JSON, "warn", NULL, c[RCTL_WARN]);
	out_u64(OUT_JSON, "fail", NULL, c[RCTL_FAIL]);
	out_u64(OUT_JSON, "unknown", NULL, c[RCTL_UNKNOWN]);
	out_obj_end();
}

static void print_finding(const struct rctl_finding *f)
{
	out_obj_begin(NULL);
	out_str(OUT_JSON, "status", NULL, rctl_status_name(f->status));
	out_text("  %-7s", status_upper[f->status]);
	out_str(OUT_ANY, "id", " %s", f->id);
	out_str(OUT_JSON, "area", NULL, rctl_area_name(f->area));
	out_str(OUT_ANY, "target", "  %s\n", f->target);
	out_str(OUT_ANY, "message", "           %s\n", f->message);
	out_str(OUT_JSON, "expected", NULL, f->expected);
	out_str(OUT_JSON, "observed", NULL, f->observed);
	if (f->expected[0])
		out_text("           expected %s, got %s\n", f->expected, f->observed);
	out_str(OUT_ANY, "evidence", f->evidence[0] ? "           evidence: %s\n" : NULL,
		f->evidence[0] ? f->evidence : NULL);
	out_str(OUT_ANY, "fix", f->fix[0] ? "           fix: %s\n" : NULL,
		f->fix[0] ? f->fix : NULL);
	out_obj_end();
}

static void print_findings(struct rctl_ctx *ctx, const struct rctl_report *r)
{
	uint32_t i;
	bool head = false;

	out_arr_begin("findings");
	for (i = 0; i < r->n; i++) {
		const struct rctl_finding *f = &r->f[i];

		/* Text shows passes with -v only; JSON always has them all. */
		if (f->status == RCTL_PASS && !ctx->verbose && !out_json())
			continue;
		if (!head)
			out_text("\nDetails:\n");
		head = true;
		print_finding(f);
	}
	out_arr_end();
}

static void print_intent(const struct rctl_intent *in)
{
	out_obj_begin("intent");
	out_str(OUT_ANY, "profile", "intent %s:", in->profile);
	out_u64(OUT_ANY, "prio", " prio %" PRIu64, in->prio);
	out_u64(OUT_ANY, "dscp", " dscp %" PRIu64, in->dscp);
	out_bool(OUT_JSON, "pfc", NULL, in->pfc);
	out_bool(OUT_JSON, "ecn", NULL, in->ecn);
	out_u64(OUT_ANY, "cnp_prio", " cnp-prio %" PRIu64, in->cnp_prio);
	out_u64(OUT_ANY, "cnp_dscp", " cnp-dscp %" PRIu64, in->cnp_dscp);
	out_u64(OUT_ANY, "tos", " tos %" PRIu64, in->tos);
	out_u64(OUT_ANY, "mtu_bytes", " mtu %" PRIu64, in->mtu);
	out_u64(OUT_ANY, "roce_version", " roce v%" PRIu64, in->roce_version);
	out_dbl(OUT_ANY, "loss_budget", " loss-budget %g", in->loss_budget);
	out_str(OUT_JSON, "config", NULL, in->conf[0] ? in->conf : NULL);
	if (in->conf[0])
		out_text(" (%s)", in->conf);
	out_text("\n");
	out_obj_end();
}

static void print_summary(const struct rctl_report *r, int status)
{
	out_obj_begin("summary");
	out_u64(OUT_ANY, "pass", "\nSummary: %" PRIu64 " passed", r->count[RCTL_PASS]);
	out_u64(OUT_ANY, "warn", ", %" PRIu64 " warnings", r->count[RCTL_WARN]);
	out_u64(OUT_ANY, "fail", ", %" PRIu64 " errors", r->count[RCTL_FAIL]);
	out_u64(OUT_ANY, "unknown", ", %" PRIu64 " unknown", r->count[RCTL_UNKNOWN]);
	out_u64(OUT_ANY, "exit_status", " (exit %" PRIu64 ")\n", status);
	out_obj_end();
}

/* Load the snapshot or read this host (and, for doctor, sample twice). */
static int load_host(struct rctl_ctx *ctx, struct rctl_host *h, bool sample)
{
	struct rctl_err e = { 0 };
	int ret;

	if (o.input)
		return rctl_snapshot_load(o.input, h, &e) ? cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e) : 0;
	ret = rctl_collect(h, RCTL_COLLECT_INVENTORY | RCTL_COLLECT_COUNTERS |
			   RCTL_COLLECT_QOS, &e);
	if (ret)
		return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	if (sample && rctl_sample_deltas(h, o.interval, &e)) {
		rctl_host_free(h);
		return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	}
	return 0;
}

static int run_checks(struct rctl_ctx *ctx, unsigned int areas, bool sample)
{
	struct rctl_err e = { 0 };
	struct rctl_intent in;
	struct rctl_report r;
	struct rctl_host h;
	bool deltas;
	int a, status;

	if (rctl_intent_resolve(&in, &o.ia, &e))
		return cmd_error(ctx, RCTL_EXIT_USAGE, &e);
	status = load_host(ctx, &h, sample);
	if (status)
		return status;
	deltas = rctl_host_has_deltas(&h);
	if (areas == 1u << RCTL_AREA_COUNTERS && !deltas) {
		rctl_host_free(&h);
		return cmd_errorf(ctx, RCTL_EXIT_UNKNOWN,
				  "no counter deltas to judge: use 'rocectl doctor' or a snapshot of two samples");
	}
	rctl_judge_host(&h, &in, areas, o.dev, &r);
	status = rctl_report_exit(&r);
	out_str(OUT_ANY, "hostname", "%s: ", h.hostname);
	out_dbl(OUT_ANY, "sample_interval_s", deltas ? "counters over %.1f s, " : "one counter sample, ",
		h.sample_interval_s);
	print_intent(&in);
	out_text("\n");
	out_arr_begin("areas");
	for (a = 0; a < RCTL_AREA_N; a++)
		if (areas & (1u << a))
			area_line(&r, a, deltas || a != RCTL_AREA_COUNTERS);
	out_arr_end();
	print_findings(ctx, &r);
	print_summary(&r, status);
	rctl_report_free(&r);
	rctl_host_free(&h);
	return status;
}

static int do_check(struct rctl_ctx *ctx, int argc, char **argv)
{
	int a = rctl_area_parse(ctx->cmd->name);

	return run_checks(ctx, a < 0 ? (1u << RCTL_AREA_N) - 1 : 1u << a, false);
}

static int do_doctor(struct rctl_ctx *ctx, int argc, char **argv)
{
	return run_checks(ctx, (1u << RCTL_AREA_N) - 1, !o.input && !o.no_sample);
}

#define CHECK_VERB(v, what)						\
	static const struct rctl_cmd check_##v = {			\
		.name = #v, .summary = "check " what, .opts = check_opts, \
		.fn = do_check, .flags = CMD_CHECK,			\
	}

CHECK_VERB(pfc, "PFC, global pause, buffers, ETS, DCBX owner and lldpad");
CHECK_VERB(ecn, "ECN/DCQCN enables and the PFC/ECN pair");
CHECK_VERB(dcqcn, "that DCQCN parameters are readable, and their home");
CHECK_VERB(dscp, "DSCP trust and the DSCP to priority map");
CHECK_VERB(cnp, "where congestion notification packets are sent");
CHECK_VERB(mtu, "active_mtu against the intent, oversize frames");
CHECK_VERB(gid, "RoCE v2 GIDs of the IPv4 addresses, and their index");
CHECK_VERB(mode, "rdma_cm default RoCE mode and ToS, RoCE presence");
CHECK_VERB(counters, "counter deltas: pause storms, discards, no WQE, loss budget");
CHECK_VERB(firewall, "netfilter rules that drop RoCE (UDP 4791) or out-of-band TCP");
CHECK_VERB(all, "every area");

static const struct rctl_cmd *const check_sub[] = {
	&check_pfc, &check_ecn, &check_dcqcn, &check_dscp, &check_cnp, &check_mtu,
	&check_gid, &check_mode, &check_counters, &check_firewall, &check_all, NULL
};

const struct rctl_cmd cmd_check = {
	.name = "check",
	.summary = "judge the host's RoCE settings against the intent",
	.sub = check_sub,
};

const struct rctl_cmd cmd_doctor = {
	.name = "doctor",
	.summary = "run every check with two counter samples",
	.opts = doctor_opts,
	.fn = do_doctor,
	.flags = CMD_CHECK,
};
