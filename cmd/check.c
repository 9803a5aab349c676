// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rocectl check AREA and rocectl doctor: judge a host (live, or a snapshot
 * with --input) against the intent and print the verdict the way NetQ's
 * "check roce" does: one line per area, then each finding with what was
 * expected, what was read and the command that fixes it. Read-only.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "rocectl/collect.h"
#include "rocectl/counters.h"
#include "rocectl/fileio.h"
#include "rocectl/intent.h"
#include "rocectl/lldp.h"
#include "rocectl/out.h"
#include "rocectl/prom.h"
#include "rocectl/prom_run.h"
#include "rocectl/rules.h"
#include "rocectl/snapshot.h"

static const char *const outputs[] = {
	"text", "json", "nagios", "prometheus", "openmetrics", NULL
};

static struct {
	const char *dev;
	const char *output, *output_file;
	double interval, lldp_wait;
	bool no_sample;
	struct rctl_opt_list skip;
	struct rctl_range warn, crit;
	int time_limit;
	struct rctl_intent_args ia;
	struct cmd_wire wire;
} o = { .interval = 2.0, .output = "text" };

#define COMMON_OPTS							\
	CMD_DEV_OPT(o.dev),						\
	{ .name = "output", .short_name = 'o', .type = OPT_CHOICE, .arg = "FORMAT", \
	  .dst = &o.output, .choices = outputs,				\
	  .help = "text (default), json (as -j), nagios (plugin status line), prometheus or openmetrics" }, \
	{ .name = "output-file", .short_name = 'O', .type = OPT_STR, .arg = "FILE", \
	  .dst = &o.output_file, .kind = ARG_FILE,			\
	  .help = "with -o prometheus: write FILE atomically (node_exporter textfile)" }, \
	CMD_LLDP_WAIT_OPT(o.lldp_wait),					\
	{ .name = "skip", .type = OPT_LIST, .arg = "ID", .dst = &o.skip,	\
	  .help = "leave out this rule id or area (repeatable)" },	\
	{ .name = "warning", .short_name = 'w', .type = OPT_RANGE, .arg = "RANGE", \
	  .dst = &o.warn,						\
	  .help = "warn when the loss rate alerts against RANGE (plugin range: 10, 10:, ~:10, 10:20, @10:20)" }, \
	{ .name = "critical", .short_name = 'c', .type = OPT_RANGE, .arg = "RANGE", \
	  .dst = &o.crit,						\
	  .help = "fail when the loss rate alerts against RANGE, instead of above the loss budget" }, \
	{ .name = "time-limit", .aliases = "timeout", .short_name = 't', .type = OPT_INT, \
	  .arg = "SECS", .dst = &o.time_limit, .min = 1, .max = 3600,	\
	  .help = "give up after SECS seconds: UNKNOWN, exit 3 (a plugin's -t)" }, \
	CMD_WIRE_OPTS(o.wire),						\
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
static void area_line(const struct rctl_report *r, int a, bool ran, bool captured)
{
	const uint32_t *c = r->area_count[a];
	char buf[96];

	if (!ran)
		snprintf(buf, sizeof(buf), "skipped: needs two counter samples (rocectl doctor)");
	else if (a == RCTL_AREA_WIRE && !captured)
		snprintf(buf, sizeof(buf), "nothing to check: no capture (--capture IFACE, or -r FILE)");
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
		cmd_print_finding(f, false);
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

/*
 * The counter deltas and, when the peer area runs, the switch's LLDP: doctor
 * listens during its sampling interval (and --lldp-wait more), check only
 * with --lldp-wait; lldpd is asked either way.
 */
static int sample_host(struct rctl_host *h, bool sample, bool peer, struct rctl_err *e)
{
	struct rctl_lldp_cap *cap = NULL;
	int ret;

	if (peer && rctl_lldp_begin(h, sample || o.lldp_wait > 0, &cap, e)) {
		rctl_lldp_end(h, cap, 0, e);
		return -1;
	}
	ret = sample ? rctl_sample_deltas(h, o.interval, e) : 0;
	if (peer && rctl_lldp_end(h, cap, ret ? 0 : o.lldp_wait, e))
		ret = -1;
	return ret;
}

/* check's positional that is no area: a usage error unless the host has it. */
static const char *pos_dev;

static int pos_dev_known(struct rctl_ctx *ctx, const struct rctl_host *h)
{
	if (!pos_dev || rctl_host_matches(h, pos_dev) || rctl_host_netdev(h, pos_dev))
		return 0;
	return cmd_errorf(ctx, ctx->nagios ? RCTL_EXIT_UNKNOWN : RCTL_EXIT_USAGE,
			  "%s: '%s' is neither an area nor an RDMA device, DEV/PORT or netdev "
			  "of '%s' (see 'rocectl check --help')", ctx->path, pos_dev, h->hostname);
}

/* Load the snapshot or read this host (and, for doctor, sample twice). */
static int load_host(struct rctl_ctx *ctx, struct rctl_host *h, bool sample, bool peer)
{
	struct rctl_err e = { 0 };
	int ret;

	if (cmd_load_host(ctx, 0, h, &e))
		return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	ret = pos_dev_known(ctx, h) ?: cmd_check_filter(ctx, h, o.dev);
	if (ret) {
		rctl_host_free(h);
		return ret;
	}
	if (!ctx->input && sample_host(h, sample, peer, &e)) {
		rctl_host_free(h);
		return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	}
	return 0;
}

/* ---- Nagios / Icinga ------------------------------------------------- */

static const char *const nagios_word[] = { "OK", "WARNING", "CRITICAL", "UNKNOWN" };

/* Perfdata values take no exponent: a ratio as a plain decimal. */
static const char *plain_dbl(double v, char *buf, size_t len)
{
	char *e;

	snprintf(buf, len, "%.12f", v);
	e = buf + strlen(buf) - 1;
	while (e > buf && *e == '0')
		*e-- = '\0';
	if (*e == '.')
		*e = '\0';
	return buf;
}

/* The worst loss rate measured, if any. */
static bool worst_ratio(const struct rctl_report *r, double *v)
{
	bool any = false;
	uint32_t i;

	for (i = 0; i < r->n; i++)
		if (r->f[i].has_ratio && (!any || r->f[i].ratio > *v)) {
			*v = r->f[i].ratio;
			any = true;
		}
	return any;
}

/*
 * "ROCECTL CRITICAL - 1 failed (mtu.active rxe0/1 (veth0)), ... | perfdata",
 * then one line per finding that is not a pass (the plugin's long output).
 */
static void print_nagios(struct rctl_ctx *ctx, const struct rctl_report *r,
			 const struct rctl_intent *in, double interval, int status)
{
	static const enum rctl_status order[] = { RCTL_FAIL, RCTL_UNKNOWN, RCTL_WARN };
	static const enum rctl_status by_exit[] = {
		[1] = RCTL_WARN, [2] = RCTL_FAIL, [3] = RCTL_UNKNOWN,
	};
	char a[48], b[48];
	double loss = 0;
	uint32_t i;
	int k;

	out_text("ROCECTL %s - %u failed, %u unknown, %u warnings, %u passed",
		 nagios_word[status], r->count[RCTL_FAIL], r->count[RCTL_UNKNOWN],
		 r->count[RCTL_WARN], r->count[RCTL_PASS]);
	/* The first finding of the status that decided the exit, for the summary. */
	for (i = 0; status && i < r->n; i++)
		if (r->f[i].status == by_exit[status]) {
			out_text(": first %s %s", r->f[i].id, r->f[i].target);
			break;
		}
	out_text(" | pass=%u warn=%u fail=%u unknown=%u", r->count[RCTL_PASS],
		 r->count[RCTL_WARN], r->count[RCTL_FAIL], r->count[RCTL_UNKNOWN]);
	if (worst_ratio(r, &loss))
		out_text(" loss_rate=%s;%s;%s;0;", plain_dbl(loss, a, sizeof(a)), o.warn.text,
			 o.crit.set ? o.crit.text : plain_dbl(in->loss_budget, b, sizeof(b)));
	if (interval > 0)
		out_text(" interval=%ss", plain_dbl(interval, a, sizeof(a)));
	out_text("\n");
	for (k = 0; k < 3; k++)
		for (i = 0; i < r->n; i++)
			if (r->f[i].status == order[k])
				out_text("%s %s %s: %s\n", status_upper[order[k]], r->f[i].id,
					 r->f[i].target, r->f[i].message);
	ctx->status_line = true;
}

/* ---- Prometheus ------------------------------------------------------ */

/* The gauge's values: 0 pass, 1 warn, 2 fail, 3 unknown. */
static const unsigned int prom_value[] = {
	[RCTL_PASS] = 0, [RCTL_WARN] = 1, [RCTL_FAIL] = 2, [RCTL_UNKNOWN] = 3,
};

static bool same_series(const struct rctl_finding *a, const struct rctl_finding *b)
{
	return !strcmp(a->id, b->id) && !strcmp(a->device, b->device) &&
	       a->port == b->port && !strcmp(a->netdev, b->netdev);
}

/*
 * One series per finding; findings with the same labels (gid.index of two
 * addresses, host-wide ones) become one series holding the worst status.
 */
static void prom_status(struct rctl_prom *pr, const struct rctl_report *r)
{
	uint32_t i, k;

	rctl_prom_family(pr, "rocectl_check_status", "gauge",
			 "Verdict of a rocectl check finding: 0 pass, 1 warn, 2 fail, 3 unknown");
	for (i = 0; i < r->n; i++) {
		const struct rctl_finding *f = &r->f[i];
		enum rctl_status worst = f->status;
		char port[16] = "";
		bool seen = false;

		for (k = 0; k < r->n && !seen; k++)
			if (k != i && same_series(f, &r->f[k]))
				seen = k < i;
		if (seen)
			continue;
		for (k = i + 1; k < r->n; k++)
			if (same_series(f, &r->f[k]) && r->f[k].status > worst)
				worst = r->f[k].status;
		if (f->port)
			snprintf(port, sizeof(port), "%u", f->port);
		rctl_prom_u64(pr, (struct rctl_prom_label[]){
			{ "id", f->id }, { "area", rctl_area_name(f->area) },
			{ "device", f->device }, { "port", port }, { "netdev", f->netdev },
		}, 5, prom_value[worst]);
	}
}

static void prom_loss(struct rctl_prom *pr, const struct rctl_report *r)
{
	char port[16];
	uint32_t i;

	rctl_prom_family(pr, "rocectl_check_loss_ratio", "gauge",
			 "RoCE loss rate over the sampled interval: (sequence errors + out-of-sequence + retransmissions) / packets");
	for (i = 0; i < r->n; i++) {
		if (!r->f[i].has_ratio)
			continue;
		snprintf(port, sizeof(port), "%u", r->f[i].port);
		rctl_prom_dbl(pr, (struct rctl_prom_label[]){
			{ "device", r->f[i].device }, { "port", port },
			{ "netdev", r->f[i].netdev },
		}, 3, r->f[i].ratio);
	}
}

/* The switch port of each RoCE netdev that has one: which ToR, which port. */
static void prom_neighbors(struct rctl_prom *pr, const struct rctl_host *h)
{
	const struct rctl_lldp_peer *p;
	uint32_t i, k, n;
	char port[16];

	for (i = 0, n = 0; i < h->n_devs; i++)
		for (k = 0; k < h->devs[i].n_ports; k++) {
			const struct rctl_port *pt = &h->devs[i].ports[k];
			const struct rctl_netdev *nd = rctl_host_netdev(h, pt->netdev);

			p = nd ? &nd->lldp : NULL;
			if (!p || !p->st.ok || (o.dev && !rctl_port_match(o.dev, &h->devs[i], pt)))
				continue;
			if (!n++)
				rctl_prom_family(pr, "rocectl_lldp_neighbor_info", "info",
						 "The switch port at the other end of a RoCE netdev, by LLDP");
			snprintf(port, sizeof(port), "%u", pt->port);
			rctl_prom_u64(pr, (struct rctl_prom_label[]){
				{ "device", h->devs[i].name }, { "port", port },
				{ "netdev", nd->name }, { "switch", p->system_name },
				{ "switch_port", p->port_id }, { "chassis_id", p->chassis_id },
				{ "source", p->source },
			}, 7, 1);
		}
}

static int print_prom(struct rctl_ctx *ctx, const struct rctl_report *r,
		      const struct rctl_host *h, const struct rctl_intent *in, int status)
{
	double interval = h->sample_interval_s;
	struct rctl_prom pr = { .openmetrics = !strcmp(o.output, "openmetrics") };
	int ret;

	prom_status(&pr, r);
	prom_loss(&pr, r);
	prom_neighbors(&pr, h);
	rctl_prom_family(&pr, "rocectl_check_loss_budget_ratio", "gauge",
			 "The loss budget of the intent the host was judged against");
	rctl_prom_dbl(&pr, NULL, 0, in->loss_budget);
	rctl_prom_family(&pr, "rocectl_check_sample_interval_seconds", "gauge",
			 "Seconds between the two counter samples (0: one sample, no counter deltas)");
	rctl_prom_dbl(&pr, NULL, 0, interval);
	rctl_prom_family(&pr, "rocectl_check_exit_status", "gauge",
			 "Exit status of the check: 0 ok, 1 warning, 2 failure, 3 unknown");
	rctl_prom_u64(&pr, NULL, 0, status);
	rctl_prom_family(&pr, "rocectl_check_timestamp_seconds", "gauge",
			 "When the check ran, in seconds since the epoch");
	rctl_prom_u64(&pr, NULL, 0, (uint64_t)time(NULL));
	ret = cmd_prom_finish(ctx, &pr, o.output_file, true);
	/* With -O the verdict is in FILE: the exit says the check ran and FILE is written. */
	return ret ? ret : o.output_file ? RCTL_EXIT_OK : status;
}

/* ---- the commands ---------------------------------------------------- */

static void print_text(struct rctl_ctx *ctx, const struct rctl_report *r,
		       const struct rctl_host *h, const struct rctl_intent *in,
		       unsigned int areas, int status)
{
	bool deltas = rctl_host_has_deltas(h);
	int a;

	out_text("%s: ", h->hostname);
	out_dbl(OUT_ANY, "sample_interval_s", deltas ? "counters over %.1f s, " :
		"one counter sample, ", h->sample_interval_s);
	print_intent(in);
	out_text("\n");
	out_arr_begin("areas");
	for (a = 0; a < RCTL_AREA_N; a++)
		if (areas & (1u << a))
			area_line(r, a, deltas || a != RCTL_AREA_COUNTERS,
				  h->wire.st.ok || h->wire.st.err);
	out_arr_end();
	print_findings(ctx, r);
	print_summary(r, status);
}

/* Output options that exclude each other: a usage error (3 with -o nagios). */
static int check_output(struct rctl_ctx *ctx)
{
	const char *why = NULL;

	if (strcmp(o.output, "text") && ctx->json)
		why = "'-o' and '--json' exclude each other";
	else if (o.output_file && strcmp(o.output, "prometheus") && strcmp(o.output, "openmetrics"))
		why = "'--output-file' needs '-o prometheus' or '-o openmetrics'";
	if (!why)
		return 0;
	return cmd_errorf(ctx, ctx->nagios ? RCTL_EXIT_UNKNOWN : RCTL_EXIT_USAGE,
			  "%s: %s (see 'rocectl %s --help')", ctx->path, why, ctx->path);
}

/* -t SECS: a plugin that has not answered by then says UNKNOWN and exits 3. */
static int time_limit;
static bool time_limit_nagios;

static void on_time_limit(int sig)
{
	char msg[96];
	int n;

	(void)sig;
	n = snprintf(msg, sizeof(msg), "%stimeout after %d s\n",
		     time_limit_nagios ? "ROCECTL UNKNOWN - " : "rocectl: ", time_limit);
	if (write(time_limit_nagios ? STDOUT_FILENO : STDERR_FILENO, msg, n) < 0)
		_exit(RCTL_EXIT_UNKNOWN);
	_exit(RCTL_EXIT_UNKNOWN);
}

static void arm_time_limit(struct rctl_ctx *ctx)
{
	struct sigaction sa = { .sa_handler = on_time_limit };

	if (!o.time_limit)
		return;
	time_limit = o.time_limit;
	time_limit_nagios = ctx->nagios;
	sigaction(SIGALRM, &sa, NULL);
	alarm(o.time_limit);
}

static int run_checks(struct rctl_ctx *ctx, unsigned int areas, bool sample)
{
	struct rctl_rule rules[rctl_n_rules];
	struct rctl_err e = { 0 };
	struct rctl_intent in;
	struct rctl_report r;
	struct rctl_host h;
	unsigned int n_rules;
	int status;

	status = check_output(ctx);
	if (status)
		return status;
	if (rctl_intent_resolve(&in, &o.ia, &e) ||
	    rctl_rules_skip(o.skip.v, o.skip.n, &areas, rules, &n_rules, &e))
		return cmd_error(ctx, ctx->nagios ? RCTL_EXIT_UNKNOWN : RCTL_EXIT_USAGE, &e);
	arm_time_limit(ctx);
	status = load_host(ctx, &h, sample, areas & (1u << RCTL_AREA_PEER));
	if (!status) {
		status = cmd_wire_capture(ctx, &o.wire, 0, 0, &h);
		if (status)
			rctl_host_free(&h);
	}
	if (status)
		return cmd_prom_failed(ctx, o.output, o.output_file, status);
	if (areas == 1u << RCTL_AREA_COUNTERS && !rctl_host_has_deltas(&h)) {
		rctl_host_free(&h);
		return cmd_prom_failed(ctx, o.output, o.output_file, cmd_errorf(ctx, RCTL_EXIT_UNKNOWN,
				  "no counter deltas to judge: use 'rocectl doctor' or a snapshot of two samples"));
	}
	rctl_judge_rules(&h, &in, areas, o.dev, rules, n_rules, &r);
	rctl_report_ratio_ranges(&r, &o.warn, &o.crit);
	status = rctl_report_exit(&r);
	if (!strcmp(o.output, "nagios"))
		print_nagios(ctx, &r, &in, h.sample_interval_s, status);
	else if (!strcmp(o.output, "prometheus") || !strcmp(o.output, "openmetrics"))
		status = print_prom(ctx, &r, &h, &in, status);
	else
		print_text(ctx, &r, &h, &in, areas, status);
	rctl_report_free(&r);
	rctl_host_free(&h);
	return status;
}

/*
 * The area of the verb, and those named after it: "check pfc ecn"; a name
 * that is no area is the device, as --dev (one; the host must have it).
 */
static int do_check(struct rctl_ctx *ctx, int argc, char **argv)
{
	int usage = ctx->nagios ? RCTL_EXIT_UNKNOWN : RCTL_EXIT_USAGE;
	const char *name = ctx->cmd->name, *dev = NULL;
	unsigned int areas = 0;
	int i, a;

	for (i = -1; i < argc; i++) {
		if (i >= 0)
			name = argv[i];
		a = rctl_area_parse(name);
		if (a >= 0 || !strcmp(name, "all"))
			areas |= a < 0 ? (1u << RCTL_AREA_N) - 1 : 1u << a;
		else if (dev)
			return cmd_errorf(ctx, usage, "%s: '%s' and '%s' are no areas, and one "
					  "device at most is judged (see 'rocectl check --help')",
					  ctx->path, dev, name);
		else
			dev = name;
	}
	if (dev && o.dev && strcmp(dev, o.dev))
		return cmd_errorf(ctx, usage, "%s: '%s' and '--dev %s' name two devices; give one",
				  ctx->path, dev, o.dev);
	pos_dev = dev;
	o.dev = dev ? dev : o.dev;
	return run_checks(ctx, areas, false);
}

static int do_doctor(struct rctl_ctx *ctx, int argc, char **argv)
{
	int ret = cmd_dev_arg(ctx, o.dev, argc, argv, &o.dev);

	return ret ? ret : run_checks(ctx, (1u << RCTL_AREA_N) - 1,
				      !ctx->input && !o.no_sample);
}

/* check and doctor judge the whole model, live or from --input. */
#define CHECK_HOST (RCTL_COLLECT_INVENTORY | RCTL_COLLECT_COUNTERS |	\
		    RCTL_COLLECT_QOS)
#define CHECK_INPUT_HELP "judge a snapshot written by 'rocectl collect' instead of this host"

#define CHECK_VERB(v, what)						\
	static const struct rctl_cmd check_##v = {			\
		.name = #v, .summary = "check " what, .opts = check_opts, \
		.args = "[AREA...] [DEV]", .max_args = -1,		\
		.arg_kind = ARG_AREA_DEV,				\
		.fn = do_check, .flags = CMD_CHECK, .host = CHECK_HOST,	\
		.host_input = true, .input_help = CHECK_INPUT_HELP,	\
	}

CHECK_VERB(pfc, "PFC, global pause, buffers, ETS, DCBX owner and lldpad");
CHECK_VERB(ecn, "ECN/DCQCN enables and the PFC/ECN pair");
CHECK_VERB(dcqcn, "that DCQCN parameters are readable, and their home");
CHECK_VERB(dscp, "DSCP trust and the DSCP to priority map");
CHECK_VERB(cnp, "where congestion notification packets are sent");
CHECK_VERB(mtu, "active_mtu against the intent, oversize frames");
CHECK_VERB(gid, "RoCE v2 GIDs of the IPv4 and IPv6 addresses, and their index");
CHECK_VERB(mode, "rdma_cm default RoCE mode and ToS, RoCE presence");
CHECK_VERB(counters, "counter deltas: pause storms, discards, no WQE, loss budget");
CHECK_VERB(firewall, "netfilter rules that drop RoCE (UDP 4791) or out-of-band TCP");
CHECK_VERB(peer, "the switch port by LLDP: PFC, DSCP map, ETS, willing bits, frame size");
CHECK_VERB(wire, "captured RoCE packets: DSCP and ECN of data and CNPs, connection ToS, NAKs");
CHECK_VERB(all, "every area");

static const struct rctl_cmd *const check_sub[] = {
	&check_pfc, &check_ecn, &check_dcqcn, &check_dscp, &check_cnp, &check_mtu,
	&check_gid, &check_mode, &check_counters, &check_firewall, &check_peer, &check_wire,
	&check_all,
	NULL
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
	.args = "[DEV]",
	.max_args = 1,
	.arg_kind = ARG_DEV,
	.fn = do_doctor,
	.flags = CMD_CHECK,
	.host = CHECK_HOST,
	.host_input = true,
	.input_help = CHECK_INPUT_HELP,
};
