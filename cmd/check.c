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
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "rocectl/collect.h"
#include "rocectl/counters.h"
#include "rocectl/fileio.h"
#include "rocectl/fleet.h"
#include "rocectl/fleet_html.h"
#include "rocectl/intent.h"
#include "rocectl/lldp.h"
#include "rocectl/out.h"
#include "rocectl/prom.h"
#include "rocectl/prom_run.h"
#include "rocectl/rules.h"
#include "rocectl/snapshot.h"

static const char *const outputs[] = {
	"text", "json", "nagios", "prometheus", "openmetrics", "html", NULL
};

/* --unknown-as: what unknowns alone make of the exit, in the exit's order. */
static const char *const unknown_as[] = { "ok", "warning", "unknown", NULL };
static const int unknown_exit[] = { RCTL_EXIT_OK, RCTL_EXIT_WARN, RCTL_EXIT_UNKNOWN };

static struct {
	const char *dev;
	const char *output, *output_file, *unknown_as;
	double interval, lldp_wait;
	bool no_sample;
	struct rctl_opt_list skip;
	struct rctl_range warn, crit;
	int time_limit;
	const char *by;
	double max_age;
	struct rctl_intent_args ia;
	struct cmd_wire wire;
} o = { .interval = 2.0, .output = "text", .unknown_as = "unknown" };

#define COMMON_OPTS							\
	CMD_DEV_OPT(o.dev),						\
	{ .name = "output", .short_name = 'o', .type = OPT_CHOICE, .arg = "FORMAT", \
	  .dst = &o.output, .choices = outputs,				\
	  .help = "text (default), json (as -j), nagios (plugin status line), prometheus, " \
		  "openmetrics or html (one self-contained report page)" }, \
	{ .name = "output-file", .short_name = 'O', .type = OPT_STR, .arg = "FILE", \
	  .dst = &o.output_file, .kind = ARG_FILE,			\
	  .help = "with -o prometheus, openmetrics or html: write FILE atomically " \
		  "(node_exporter textfile, the report)" }, \
	CMD_LLDP_WAIT_OPT(o.lldp_wait),					\
	{ .name = "skip", .type = OPT_LIST, .arg = "ID", .dst = &o.skip,	\
	  .kind = ARG_RULE,						\
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
	{ .name = "unknown-as", .type = OPT_CHOICE, .arg = "STATUS",	\
	  .dst = &o.unknown_as, .choices = unknown_as,			\
	  .help = "what unknowns alone exit with: unknown (3, default), warning (1) or ok (0); " \
		  "a warning or failure always wins" }, \
	{ .name = "by", .type = OPT_CHOICE, .arg = "GROUP", .dst = &o.by,	\
	  .choices = rctl_fleet_by_names,				\
	  .help = "with several snapshots: group the hosts by switch (LLDP), driver (family) or rule" }, \
	{ .name = "max-age", .type = OPT_SECS, .arg = "SECS", .dst = &o.max_age, \
	  .help = "with several snapshots: warn of those older than SECS (default 93600, 26 h)" }, \
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
		snprintf(buf, sizeof(buf), c[RCTL_PASS] || r->area_limit[a] || r->area_caused[a] ?
			 "passed" : "nothing to check");
	else
		snprintf(buf, sizeof(buf), "%u warnings, %u errors", c[RCTL_WARN], c[RCTL_FAIL]);
	if (ran && c[RCTL_UNKNOWN])
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), ", %u unknown",
			 c[RCTL_UNKNOWN]);
	if (ran && r->area_limit[a])
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), ", %u driver limit%s",
			 r->area_limit[a], r->area_limit[a] > 1 ? "s" : "");
	if (ran && r->area_caused[a])
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), ", %u consequence%s",
			 r->area_caused[a], r->area_caused[a] > 1 ? "s" : "");
	out_obj_begin(NULL);
	out_str(OUT_ANY, "area", "%-10s", rctl_area_name(a));
	out_str(OUT_TEXT, "result", " %s\n", buf);
	out_bool(OUT_JSON, "checked", NULL, ran);
	out_u64(OUT_JSON, "pass", NULL, c[RCTL_PASS]);
	out_u64(OUT_JSON, "warn", NULL, c[RCTL_WARN]);
	out_u64(OUT_JSON, "fail", NULL, c[RCTL_FAIL]);
	out_u64(OUT_JSON, "unknown", NULL, c[RCTL_UNKNOWN]);
	out_u64(OUT_JSON, "limit_count", NULL, r->area_limit[a]);
	out_u64(OUT_JSON, "consequences", NULL, r->area_caused[a]);
	out_obj_end();
}

/* Text: a root's consequences, a line each under it. */
static void print_consequences(const struct rctl_report *r, uint32_t root)
{
	const struct rctl_finding *f;
	uint32_t i;

	if (out_json() || !r->f[root].n_consequences)
		return;
	out_text("           consequences (%u):\n", r->f[root].n_consequences);
	for (i = 0; i < r->n; i++) {
		f = &r->f[i];
		if (f->caused_by == (int32_t)root)
			out_text("             %s %s  %s: %s\n", status_upper[f->status], f->id,
				 f->target, f->message);
	}
}

static void print_findings(struct rctl_ctx *ctx, const struct rctl_report *r)
{
	uint32_t i;
	bool head = false;

	out_arr_begin("findings");
	for (i = 0; i < r->n; i++) {
		const struct rctl_finding *f = &r->f[i];

		/* Text shows passes with -v only, consequences under their root; JSON all. */
		if (!out_json() && ((f->status == RCTL_PASS && !ctx->verbose) || f->root_id))
			continue;
		if (!head)
			out_text("\nDetails:\n");
		head = true;
		cmd_print_finding(f, false);
		print_consequences(r, i);
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

static const struct out_col intent_cols[] = {
	{ .key = "target", .title = "PORT" },
	{ .key = "key", .title = "KEY" },
	{ .key = "value_text", .title = "VALUE" },
	{ .key = "source", .title = "SOURCE" },
};

/* One row of -v's intent table: a key, its value and where it came from. */
static void intent_row(const char *port, const struct rctl_intent *in, enum rctl_intent_key k)
{
	char v[32], src[512];

	out_row_begin();
	out_str(OUT_ANY, "target", NULL, port);
	out_str(OUT_ANY, "key", NULL, rctl_intent_key_name(k));
	out_str(OUT_ANY, "value_text", NULL, rctl_intent_value(in, k, v, sizeof(v)));
	out_str(OUT_ANY, "source", NULL, rctl_intent_source(in, k, src, sizeof(src)));
	out_row_end();
}

/* Whether a port's value of k, or where it comes from, is not the global one. */
static bool intent_differs(const struct rctl_intent *g, const struct rctl_intent *p,
			   enum rctl_intent_key k)
{
	char a[32], b[32], sa[512], sb[512];

	return strcmp(rctl_intent_value(g, k, a, sizeof(a)), rctl_intent_value(p, k, b, sizeof(b))) ||
	       strcmp(rctl_intent_source(g, k, sa, sizeof(sa)), rctl_intent_source(p, k, sb, sizeof(sb)));
}

/*
 * -v: each intent value with where it came from (default, file:line and
 * section, command line): the global ones, then each RoCE port's that a
 * config section changes (JSON: every port's, whole).
 */
static void print_intent_sources(const struct rctl_host *h, const struct rctl_intent *in)
{
	struct rctl_intent pi;
	char port[RCTL_NAME_LEN * 2 + 24];
	uint32_t i, j;
	int k;

	out_text("\nintent values and where they come from:\n");
	out_table_indent(2);
	out_table_begin("intent_sources", intent_cols, 4);
	for (k = 0; k < RCTL_IK_N; k++)
		intent_row("all", in, k);
	for (i = 0; i < h->n_devs; i++)
		for (j = 0; j < h->devs[i].n_ports; j++) {
			const struct rctl_port *p = &h->devs[i].ports[j];

			if (strcmp(p->link_layer, "Ethernet") ||
			    (o.dev && !rctl_port_match(o.dev, &h->devs[i], p)))
				continue;
			rctl_intent_of_port(in, h, &h->devs[i], p, &pi);
			snprintf(port, sizeof(port), "%s/%u%s%s%s", h->devs[i].name, p->port,
				 p->netdev[0] ? " (" : "", p->netdev, p->netdev[0] ? ")" : "");
			for (k = 0; k < RCTL_IK_N; k++)
				if (out_json() || intent_differs(in, &pi, k))
					intent_row(port, &pi, k);
		}
	out_table_end();
}

static void print_summary(const struct rctl_report *r, int status)
{
	out_obj_begin("summary");
	out_u64(OUT_ANY, "pass", "\nSummary: %" PRIu64 " passed", r->count[RCTL_PASS]);
	out_u64(OUT_ANY, "warn", ", %" PRIu64 " warnings", r->count[RCTL_WARN]);
	out_u64(OUT_ANY, "fail", ", %" PRIu64 " errors", r->count[RCTL_FAIL]);
	out_u64(OUT_ANY, "unknown", ", %" PRIu64 " unknown", r->count[RCTL_UNKNOWN]);
	out_u64(OUT_JSON, "limit_count", NULL, r->n_limit);
	out_u64(OUT_JSON, "consequences", NULL, r->n_caused);
	if (r->n_limit)
		out_text(", %u driver limit%s", r->n_limit, r->n_limit > 1 ? "s" : "");
	if (r->n_caused)
		out_text(", %u consequence%s", r->n_caused, r->n_caused > 1 ? "s" : "");
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

static const struct rctl_finding *first_of(const struct rctl_report *r, enum rctl_status st)
{
	uint32_t i;

	for (i = 0; i < r->n; i++)
		if (r->f[i].status == st && rctl_finding_counted(&r->f[i]))
			return &r->f[i];
	return NULL;
}

/* A finding of the long output, its consequences counted: one root cause, one line. */
static void nagios_line(const char *word, const struct rctl_finding *f)
{
	out_text("%s %s %s: %s", word, f->id, f->target, f->message);
	if (f->n_consequences)
		out_text(" (+%u consequence%s)", f->n_consequences, f->n_consequences > 1 ? "s" : "");
	out_text("\n");
}

/*
 * "ROCECTL WARNING - 0 failed, 1 unknown, 1 warnings, 26 passed: first
 * mode.tos ...; first unknown peer.pfc ... | perfdata", then one line per
 * finding that is not a pass (the plugin's long output). The summary names
 * the finding that decided the exit, and the first unknown beside it, so
 * that neither hides the other.
 */
static void print_nagios(struct rctl_ctx *ctx, const struct rctl_report *r,
			 const struct rctl_intent *in, double interval, int status)
{
	static const enum rctl_status order[] = { RCTL_FAIL, RCTL_WARN, RCTL_UNKNOWN };
	static const enum rctl_status by_exit[] = {
		[1] = RCTL_WARN, [2] = RCTL_FAIL, [3] = RCTL_UNKNOWN,
	};
	const struct rctl_finding *f, *u;
	char a[48], b[48];
	double loss = 0;
	uint32_t i;
	int k;

	out_text("ROCECTL %s - %u failed, %u unknown, %u warnings, %u passed",
		 nagios_word[status], r->count[RCTL_FAIL], r->count[RCTL_UNKNOWN],
		 r->count[RCTL_WARN], r->count[RCTL_PASS]);
	f = status ? first_of(r, by_exit[status]) : NULL;
	u = !f || f->status != RCTL_UNKNOWN ? first_of(r, RCTL_UNKNOWN) : NULL;
	if (f)
		out_text(": first %s %s", f->id, f->target);
	if (u)
		out_text("%s first unknown %s %s", f ? ";" : ":", u->id, u->target);
	out_text(" | pass=%u warn=%u fail=%u unknown=%u", r->count[RCTL_PASS],
		 r->count[RCTL_WARN], r->count[RCTL_FAIL], r->count[RCTL_UNKNOWN]);
	if (r->n_limit)		/* a driver limit: said, never the plugin's state */
		out_text(" limit=%u", r->n_limit);
	if (worst_ratio(r, &loss))
		out_text(" loss_rate=%s;%s;%s;0;", plain_dbl(loss, a, sizeof(a)), o.warn.text,
			 o.crit.set ? o.crit.text : plain_dbl(in->loss_budget, b, sizeof(b)));
	if (interval > 0)
		out_text(" interval=%ss", plain_dbl(interval, a, sizeof(a)));
	out_text("\n");
	for (k = 0; k < 3; k++)
		for (i = 0; i < r->n; i++)
			if (r->f[i].status == order[k] && rctl_finding_counted(&r->f[i]))
				nagios_line(status_upper[order[k]], &r->f[i]);
	for (i = 0; i < r->n; i++)
		if (r->f[i].limit && !r->f[i].root_id)
			nagios_line("LIMIT", &r->f[i]);
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
static void prom_status(struct rctl_prom *pr, const char *cmd, const struct rctl_report *r)
{
	uint32_t i, k;

	rctl_prom_family(pr, "rocectl_check_status", "gauge",
			 "Verdict of a rocectl check finding: 0 pass, 1 warn, 2 fail, 3 unknown");
	for (i = 0; i < r->n; i++) {
		const struct rctl_finding *f = &r->f[i];
		enum rctl_status worst = f->status;
		char port[16] = "";
		bool seen = false;

		/* a consequence is its root's series; a driver limit is rocectl_check_limit's */
		if (!rctl_finding_counted(f))
			continue;
		for (k = 0; k < r->n && !seen; k++)
			if (k != i && same_series(f, &r->f[k]) && rctl_finding_counted(&r->f[k]))
				seen = k < i;
		if (seen)
			continue;
		for (k = i + 1; k < r->n; k++)
			if (same_series(f, &r->f[k]) && rctl_finding_counted(&r->f[k]) &&
			    r->f[k].status > worst)
				worst = r->f[k].status;
		if (f->port)
			snprintf(port, sizeof(port), "%u", f->port);
		rctl_prom_u64(pr, (struct rctl_prom_label[]){
			{ "command", cmd }, { "id", f->id }, { "area", rctl_area_name(f->area) },
			{ "device", f->device }, { "port", port }, { "netdev", f->netdev },
		}, 6, prom_value[worst]);
	}
}

/*
 * The driver limits, one series each (1): what no host setting changes is
 * said here once, never as a warning of rocectl_check_status.
 */
static void prom_limits(struct rctl_prom *pr, const char *cmd, const struct rctl_report *r)
{
	char port[16];
	uint32_t i;

	if (!r->n_limit)
		return;
	rctl_prom_family(pr, "rocectl_check_limit", "gauge",
			 "A documented driver limit (1): a finding no host setting changes, outside rocectl_check_status");
	for (i = 0; i < r->n; i++) {
		const struct rctl_finding *f = &r->f[i];

		if (!f->limit || f->root_id)
			continue;
		snprintf(port, sizeof(port), "%u", f->port);
		rctl_prom_u64(pr, (struct rctl_prom_label[]){
			{ "command", cmd }, { "id", f->id }, { "area", rctl_area_name(f->area) },
			{ "device", f->device }, { "port", f->port ? port : "" }, { "netdev", f->netdev },
		}, 6, 1);
	}
}

/* The worst status of each area that had something to judge, as in the text's area lines. */
static void prom_areas(struct rctl_prom *pr, const char *cmd, const struct rctl_report *r,
		       unsigned int areas, bool deltas)
{
	static const enum rctl_status worst_first[] = {
		RCTL_FAIL, RCTL_UNKNOWN, RCTL_WARN, RCTL_PASS,
	};
	unsigned int k;
	int a;

	rctl_prom_family(pr, "rocectl_check_area_status", "gauge",
			 "Worst verdict of an area's findings: 0 pass, 1 warn, 2 fail, 3 unknown");
	for (a = 0; a < RCTL_AREA_N; a++) {
		if (!(areas & (1u << a)) || (!deltas && a == RCTL_AREA_COUNTERS))
			continue;
		for (k = 0; k < 4 && !r->area_count[a][worst_first[k]]; k++)
			;
		if (k < 4)
			rctl_prom_u64(pr, (struct rctl_prom_label[]){
				{ "command", cmd }, { "area", rctl_area_name(a) },
			}, 2, prom_value[worst_first[k]]);
	}
}

static void prom_loss(struct rctl_prom *pr, const char *cmd, const struct rctl_report *r)
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
			{ "command", cmd }, { "device", r->f[i].device }, { "port", port },
			{ "netdev", r->f[i].netdev },
		}, 4, r->f[i].ratio);
	}
}

/* The switch port of each RoCE netdev that has one: which ToR, which port. */
static void prom_neighbors(struct rctl_prom *pr, const char *cmd, const struct rctl_host *h)
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
				{ "command", cmd }, { "device", h->devs[i].name }, { "port", port },
				{ "netdev", nd->name }, { "switch", p->system_name },
				{ "switch_port", p->port_id }, { "chassis_id", p->chassis_id },
				{ "source", p->source },
			}, 8, 1);
		}
}

/*
 * Every series carries command="doctor", "check pfc" (as rocectl_up): two
 * textfiles of one host (doctor and check pfc) never give node_exporter the
 * same series twice.
 */
static int print_prom(struct rctl_ctx *ctx, const struct rctl_report *r,
		      const struct rctl_host *h, const struct rctl_intent *in, unsigned int areas,
		      int status)
{
	double interval = h->sample_interval_s;
	struct rctl_prom pr = { .openmetrics = !strcmp(o.output, "openmetrics") };
	const struct rctl_prom_label cmd = { "command", ctx->path };
	int ret;

	prom_status(&pr, ctx->path, r);
	prom_limits(&pr, ctx->path, r);
	prom_areas(&pr, ctx->path, r, areas, rctl_host_has_deltas(h));
	prom_loss(&pr, ctx->path, r);
	prom_neighbors(&pr, ctx->path, h);
	rctl_prom_family(&pr, "rocectl_check_loss_budget_ratio", "gauge",
			 "The loss budget of the intent the host was judged against");
	rctl_prom_dbl(&pr, &cmd, 1, in->loss_budget);
	rctl_prom_family(&pr, "rocectl_check_sample_interval_seconds", "gauge",
			 "Seconds between the two counter samples (0: one sample, no counter deltas)");
	rctl_prom_dbl(&pr, &cmd, 1, interval);
	rctl_prom_family(&pr, "rocectl_check_exit_status", "gauge",
			 "Exit status of the check: 0 ok, 1 warning, 2 failure, 3 unknown");
	rctl_prom_u64(&pr, &cmd, 1, status);
	rctl_prom_family(&pr, "rocectl_check_timestamp_seconds", "gauge",
			 "When the judged state was read (a snapshot's own time with --input), in seconds since the epoch");
	rctl_prom_u64(&pr, &cmd, 1, ctx->input && h->time > 0 ? (uint64_t)h->time : (uint64_t)time(NULL));
	ret = cmd_prom_finish(ctx, &pr, o.output_file, true);
	/* With -O the verdict is in FILE: the exit says the check ran and FILE is written. */
	return ret ? ret : o.output_file ? RCTL_EXIT_OK : status;
}

/* ---- a fleet: many snapshots ----------------------------------------- */

/*
 * check and doctor over several snapshots (-i repeated, a directory, a
 * pattern): one at a time, judged and freed (lib/fleet.c), then a hosts x
 * areas table, the groups of --by and compare's outliers, in every format.
 */
static bool fleet_input(const struct rctl_ctx *ctx)
{
	return ctx->inputs && (ctx->inputs->n > 1 ||
			       (ctx->inputs->n == 1 && rctl_fleet_spec_many(ctx->inputs->v[0])));
}

static enum rctl_fleet_by fleet_by(void)
{
	int i;

	for (i = 0; o.by && i < RCTL_FLEET_BY_N; i++)
		if (!strcmp(rctl_fleet_by_names[i], o.by))
			return i;
	return RCTL_FLEET_BY_NONE;
}

static double fleet_max_age(void)
{
	return o.max_age > 0 ? o.max_age : RCTL_FLEET_MAX_AGE_S;
}

/* "3h", "2d", "45m", "12s": the age of a snapshot at a glance; "-" unknown. */
static const char *age_text(const struct rctl_fleet_host *h, int64_t now, char *buf, size_t len)
{
	int64_t a = now - h->time;

	if (h->time <= 0)
		snprintf(buf, len, "-");
	else if (a < 0)
		snprintf(buf, len, "future");
	else if (a < 120)
		snprintf(buf, len, "%" PRId64 "s", a);
	else if (a < 2 * 3600)
		snprintf(buf, len, "%" PRId64 "m", a / 60);
	else if (a < 2 * 86400)
		snprintf(buf, len, "%" PRId64 "h", a / 3600);
	else
		snprintf(buf, len, "%" PRId64 "d", a / 86400);
	return buf;
}

static void fleet_cell(const struct rctl_fleet_cell *c, int a)
{
	const char *key = rctl_area_name(a);

	out_str(OUT_TEXT, key, NULL, rctl_fleet_cell_word(c));
	out_obj_begin(NULL);
	out_str(OUT_JSON, "area", NULL, key);
	out_bool(OUT_JSON, "checked", NULL, c->ran);
	out_str(OUT_JSON, "status", NULL, c->ran && c->n ? rctl_status_name(c->worst) : NULL);
	out_str(OUT_JSON, "first", NULL, c->ran && c->n && c->worst ? c->first : NULL);
	out_u64(OUT_JSON, "finding_count", NULL, c->n);
	out_obj_end();
}

static void fleet_links(const struct rctl_fleet_host *h)
{
	uint32_t i;

	out_arr_begin("ports");
	for (i = 0; i < h->n_links; i++) {
		const struct rctl_fleet_link *l = &h->links[i];

		out_obj_begin(NULL);
		out_str(OUT_JSON, "device", NULL, l->device);
		out_u64(OUT_JSON, "port", NULL, l->port);
		out_str(OUT_JSON, "netdev", NULL, l->netdev);
		out_str(OUT_JSON, "driver_family", NULL, l->family);
		out_str(OUT_JSON, "switch", NULL, l->has_peer ? l->sw : NULL);
		out_str(OUT_JSON, "switch_port", NULL, l->has_peer ? l->sw_port : NULL);
		out_obj_end();
	}
	out_arr_end();
}

static void fleet_host(struct rctl_ctx *ctx, const struct rctl_fleet_host *h, unsigned int areas,
		       int64_t now)
{
	const struct rctl_finding *first = rctl_fleet_first(h);
	char age[16], when[32], buf[RCTL_NAME_LEN * 3];
	uint32_t i;
	int a;

	out_row_begin();
	out_str(OUT_ANY, "host", NULL, h->hostname);
	out_str(OUT_ANY, "file", NULL, h->file);
	out_str(OUT_JSON, "time", NULL, rctl_fleet_time(h->time, when, sizeof(when)));
	out_str(OUT_TEXT, "age", NULL, age_text(h, now, age, sizeof(age)));
	if (h->time > 0)
		out_s64(OUT_JSON, "age_s", NULL, now - h->time);
	else
		out_null(OUT_JSON, "age_s", NULL);
	out_bool(OUT_JSON, "stale", NULL, rctl_fleet_stale(h, now, fleet_max_age()));
	out_str(OUT_ANY, "status", NULL, rctl_status_name(rctl_fleet_exit_status(h->exit)));
	out_u64(OUT_JSON, "exit_status", NULL, h->exit);
	out_dbl(OUT_JSON, "sample_interval_s", NULL, h->sample_interval_s);
	out_arr_begin("areas");
	for (a = 0; a < RCTL_AREA_N; a++)
		if (areas & (1u << a))
			fleet_cell(&h->area[a], a);
	out_arr_end();
	if (first)
		snprintf(buf, sizeof(buf), "%s %s", first->id, first->target);
	out_str(OUT_TEXT, "first", NULL, first ? buf : "-");
	fleet_links(h);
	out_arr_begin("findings");
	for (i = 0; out_json() && i < h->n_f; i++)
		cmd_print_finding(&h->f[i], false);
	out_arr_end();
	out_row_end();
	(void)ctx;
}

static void fleet_table(struct rctl_ctx *ctx, const struct rctl_fleet *fl, unsigned int areas,
			int64_t now)
{
	struct out_col cols[6 + RCTL_AREA_N];
	bool files = rctl_cmp_hosts_repeat(&fl->cmp);
	uint32_t i;
	int a, n = 0;

	cols[n++] = (struct out_col){ .key = "host", .title = "HOST" };
	if (files)	/* one host name twice: say which file a row is */
		cols[n++] = (struct out_col){ .key = "file", .title = "FILE" };
	cols[n++] = (struct out_col){ .key = "age", .title = "AGE", .flags = OUT_COL_RIGHT };
	cols[n++] = (struct out_col){ .key = "status", .title = "STATUS" };
	for (a = 0; a < RCTL_AREA_N; a++)
		if (areas & (1u << a))
			cols[n++] = (struct out_col){ .key = rctl_area_name(a),
						      .title = rctl_area_name(a) };
	cols[n++] = (struct out_col){ .key = "first", .title = "FIRST" };
	out_table_begin("hosts", cols, n);
	for (i = 0; i < fl->n; i++)
		fleet_host(ctx, &fl->hosts[i], areas, now);
	out_table_end();
}

/* Text: each host's findings that are no pass (-v); JSON has them in "hosts". */
static void fleet_details(struct rctl_ctx *ctx, const struct rctl_fleet *fl)
{
	uint32_t i, k;

	if (out_json() || !ctx->verbose)
		return;
	for (i = 0; i < fl->n; i++) {
		if (!fl->hosts[i].n_f)
			continue;
		out_text("\n%s (%s):\n", fl->hosts[i].hostname, fl->hosts[i].file);
		for (k = 0; k < fl->hosts[i].n_f; k++)
			cmd_print_finding(&fl->hosts[i].f[k], false);
	}
}

static void fleet_unreadable(const struct rctl_fleet *fl)
{
	uint32_t i;

	out_arr_begin("unreadable");
	for (i = 0; i < fl->cmp.n_bad; i++) {
		if (!i)
			out_text("\nUnreadable snapshots (%u), not judged:\n", fl->cmp.n_bad);
		out_obj_begin(NULL);
		out_str(OUT_ANY, "file", "  %s: ", fl->cmp.bad[i].file);
		out_str(OUT_ANY, "message", "%s\n", fl->cmp.bad[i].reason);
		out_obj_end();
	}
	out_arr_end();
}

/* Text lists of hosts stop after this many lines without -v: the counts say the rest. */
#define FLEET_TEXT_LINES 20

static uint32_t fleet_stale_text(const struct rctl_fleet *fl, int64_t now, bool verbose)
{
	char age[16], when[32];
	uint32_t i, n = 0;

	for (i = 0; i < fl->n; i++) {
		const struct rctl_fleet_host *h = &fl->hosts[i];

		if (!rctl_fleet_stale(h, now, fleet_max_age()))
			continue;
		if (!n++)
			out_text("\nStale snapshots (older than %g h, or of no known time):\n",
				 fleet_max_age() / 3600);
		if (n > FLEET_TEXT_LINES && !verbose)
			continue;
		out_text("  %s  %s  taken %s (%s ago)\n", h->hostname, h->file,
			 rctl_fleet_time(h->time, when, sizeof(when)) ?: "at an unknown time",
			 age_text(h, now, age, sizeof(age)));
	}
	if (n > FLEET_TEXT_LINES && !verbose)
		out_text("  ... and %u more (-v lists them all)\n", n - FLEET_TEXT_LINES);
	return n;
}

static void fleet_groups(struct rctl_ctx *ctx, const struct rctl_fleet *fl)
{
	enum rctl_fleet_by by = fleet_by();
	struct rctl_fleet_group *g;
	uint32_t i, k, n, shown;

	if (by == RCTL_FLEET_BY_NONE)
		return;
	if (rctl_fleet_groups(fl, by, &g, &n)) {
		cmd_warn(ctx, "cannot group the hosts by %s: out of memory", o.by);
		return;
	}
	/* "groups" is the array; what they are grouped by is beside it. */
	out_str(OUT_ANY, "group_by", "\nBy %s:\n", o.by);
	out_arr_begin("groups");
	for (i = 0; i < n; i++) {
		out_obj_begin(NULL);
		out_str(OUT_ANY, "key", "  %s:", g[i].key);
		out_u64(OUT_ANY, "fail", " %" PRIu64 " failed,", g[i].count[RCTL_FAIL]);
		out_u64(OUT_ANY, "unknown", " %" PRIu64 " unknown,", g[i].count[RCTL_UNKNOWN]);
		out_u64(OUT_ANY, "warn", " %" PRIu64 " warnings,", g[i].count[RCTL_WARN]);
		out_u64(OUT_ANY, "pass", " %" PRIu64 " ok", g[i].count[RCTL_PASS]);
		out_u64(OUT_ANY, "host_count", " of %" PRIu64 " hosts", g[i].n);
		out_str(by == RCTL_FLEET_BY_SWITCH ? OUT_ANY : OUT_JSON, "switch_ports",
			g[i].ports[0] ? "; not ok on ports %s" : NULL, g[i].ports);
		out_text("\n");
		out_arr_begin("members");
		for (k = 0, shown = 0; k < g[i].n; k++) {
			const struct rctl_fleet_member *m = &g[i].m[k];
			bool show = out_json() || (m->status != RCTL_PASS &&
						   (++shown <= FLEET_TEXT_LINES || ctx->verbose));

			out_obj_begin(NULL);
			/* text: the hosts that are no pass; JSON: all */
			if (show) {
				out_str(OUT_ANY, "status", "    %-7s", rctl_status_name(m->status));
				out_str(OUT_ANY, "host", " %s", fl->hosts[m->host].hostname);
				out_str(OUT_ANY, "where", m->where[0] ? " (%s)\n" : "\n", m->where);
			}
			out_obj_end();
		}
		out_arr_end();
		if (shown > FLEET_TEXT_LINES && !ctx->verbose)
			out_text("    ... and %u more (-v lists them all)\n", shown - FLEET_TEXT_LINES);
		out_obj_end();
	}
	out_arr_end();
	rctl_fleet_groups_free(g, n);
}

/* compare's outliers among the fleet's ports: what one host does unlike its peers. */
static void fleet_outliers(struct rctl_ctx *ctx, const struct rctl_fleet *fl)
{
	struct rctl_cmp_outlier *ol = NULL;
	uint32_t i, n = 0;

	if (rctl_cmp_outliers(&fl->cmp, &ol, &n)) {
		cmd_warn(ctx, "cannot find the outliers: out of memory");
		return;
	}
	out_arr_begin("outliers");
	for (i = 0; i < n; i++) {
		const struct rctl_cmp_row *r = &fl->cmp.rows[ol[i].row];
		const char *common = ol[i].common >= 0 ? fl->cmp.rows[ol[i].common].v[ol[i].col] : NULL;

		if (!i)
			out_text("\nOutliers among %s ports (as 'rocectl compare'):\n",
				 "their driver family's");
		out_obj_begin(NULL);
		out_str(OUT_ANY, "host", "  %s", r->host);
		out_str(OUT_JSON, "file", NULL, r->file);
		out_str(OUT_ANY, "target", " %s:", r->target);
		out_str(OUT_ANY, "field", " %s", rctl_cmp_keys[ol[i].col]);
		out_text(" ");
		/* As compare prints it: under the column's own key, in its type. */
		cmd_cmp_value("%s", ol[i].col, r->v[ol[i].col]);
		if (common) {
			out_text(" (most common ");
			out_obj_begin("most_common");
			cmd_cmp_value("%s", ol[i].col, common);
			out_obj_end();
		} else {
			out_null(OUT_ANY, "most_common", " (no value is held by most");
		}
		out_str(OUT_ANY, "group", " among %s ports)\n", r->group);
		out_obj_end();
	}
	out_arr_end();
	free(ol);
}

struct fleet_counts {
	uint32_t hosts[RCTL_STATUS_N];
	uint32_t stale;
};

static void fleet_count(const struct rctl_fleet *fl, int64_t now, struct fleet_counts *c)
{
	uint32_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < fl->n; i++) {
		c->hosts[rctl_fleet_exit_status(fl->hosts[i].exit)]++;
		c->stale += rctl_fleet_stale(&fl->hosts[i], now, fleet_max_age());
	}
}

static void fleet_summary(const struct rctl_fleet *fl, const struct fleet_counts *c, int status)
{
	out_obj_begin("summary");
	out_u64(OUT_ANY, "host_count", "\nSummary: %" PRIu64 " hosts judged", fl->n);
	out_u64(OUT_ANY, "pass", ": %" PRIu64 " ok", c->hosts[RCTL_PASS]);
	out_u64(OUT_ANY, "warn", ", %" PRIu64 " warnings", c->hosts[RCTL_WARN]);
	out_u64(OUT_ANY, "fail", ", %" PRIu64 " failed", c->hosts[RCTL_FAIL]);
	out_u64(OUT_ANY, "unknown", ", %" PRIu64 " unknown", c->hosts[RCTL_UNKNOWN]);
	out_u64(OUT_ANY, "unreadable_count", "; %" PRIu64 " snapshots unreadable", fl->cmp.n_bad);
	out_u64(OUT_ANY, "stale_count", ", %" PRIu64 " stale", c->stale);
	out_dbl(OUT_JSON, "max_age_s", NULL, fleet_max_age());
	out_u64(OUT_ANY, "exit_status", " (exit %" PRIu64 ")\n", status);
	out_obj_end();
}

static void fleet_print_text(struct rctl_ctx *ctx, const struct rctl_fleet *fl,
			     const struct rctl_intent *in, unsigned int areas, int64_t now,
			     int status)
{
	struct fleet_counts c;

	fleet_count(fl, now, &c);
	out_text("fleet: %u snapshots, ", fl->n + fl->cmp.n_bad);
	print_intent(in);
	out_text("\n");
	fleet_table(ctx, fl, areas, now);
	fleet_unreadable(fl);
	if (!out_json())
		fleet_stale_text(fl, now, ctx->verbose);
	fleet_groups(ctx, fl);
	fleet_outliers(ctx, fl);
	fleet_details(ctx, fl);
	fleet_summary(fl, &c, status);
}

/*
 * "ROCECTL CRITICAL - 40 hosts: 2 failed, 0 unknown, 1 warnings, 37 ok; 1
 * unreadable, 0 stale: first fail node11 pfc.prio_disabled ... | perfdata",
 * then one line per host that is not ok and per unreadable snapshot.
 */
static void fleet_nagios(struct rctl_ctx *ctx, const struct rctl_fleet *fl, int64_t now,
			 int status)
{
	const struct rctl_finding *f;
	struct fleet_counts c;
	uint32_t i;

	fleet_count(fl, now, &c);
	out_text("ROCECTL %s - %u hosts: %u failed, %u unknown, %u warnings, %u ok; "
		 "%u unreadable, %u stale", nagios_word[status], fl->n, c.hosts[RCTL_FAIL],
		 c.hosts[RCTL_UNKNOWN], c.hosts[RCTL_WARN], c.hosts[RCTL_PASS], fl->cmp.n_bad,
		 c.stale);
	/* hosts are sorted worst first: the first one is the worst */
	if (fl->n && (f = rctl_fleet_first(&fl->hosts[0])))
		out_text(": first %s %s %s %s", rctl_status_name(f->status), fl->hosts[0].hostname,
			 f->id, f->target);
	out_text(" | hosts=%u ok=%u warn=%u fail=%u unknown=%u unreadable=%u stale=%u\n", fl->n,
		 c.hosts[RCTL_PASS], c.hosts[RCTL_WARN], c.hosts[RCTL_FAIL],
		 c.hosts[RCTL_UNKNOWN], fl->cmp.n_bad, c.stale);
	for (i = 0; i < fl->n; i++)
		if ((f = rctl_fleet_first(&fl->hosts[i])))
			out_text("%s %s %s %s: %s\n", status_upper[f->status], fl->hosts[i].hostname,
				 f->id, f->target, f->message);
	for (i = 0; i < fl->cmp.n_bad; i++)
		out_text("UNKNOWN %s: %s\n", fl->cmp.bad[i].file, fl->cmp.bad[i].reason);
	for (i = 0; i < fl->n; i++)
		if (rctl_fleet_stale(&fl->hosts[i], now, fleet_max_age()))
			out_text("STALE %s: snapshot '%s' is older than %g h\n", fl->hosts[i].hostname,
				 fl->hosts[i].file, fleet_max_age() / 3600);
	ctx->status_line = true;
}

/*
 * The fleet's metrics: the families of one host's, each series with the
 * host's name (its snapshot's hostname) beside the command, so that one
 * textfile holds them all and never collides with another's.
 */
static void fleet_prom_status(struct rctl_prom *pr, const char *cmd, const struct rctl_fleet_host *const *hv,
			      uint32_t nh)
{
	char port[16];
	uint32_t i, k;

	rctl_prom_family(pr, "rocectl_check_status", "gauge",
			 "Verdict of a rocectl check finding: 0 pass, 1 warn, 2 fail, 3 unknown");
	for (i = 0; i < nh; i++)
		for (k = 0; k < hv[i]->n_series; k++) {
			const struct rctl_fleet_series *s = &hv[i]->series[k];

			snprintf(port, sizeof(port), s->port ? "%u" : "", s->port);
			rctl_prom_u64(pr, (struct rctl_prom_label[]){
				{ "command", cmd }, { "host", hv[i]->hostname },
				{ "id", s->id }, { "area", rctl_area_name(s->area) },
				{ "device", s->device }, { "port", port }, { "netdev", s->netdev },
			}, 7, prom_value[s->status]);
		}
	rctl_prom_family(pr, "rocectl_check_area_status", "gauge",
			 "Worst verdict of an area's findings: 0 pass, 1 warn, 2 fail, 3 unknown");
	for (i = 0; i < nh; i++)
		for (k = 0; k < RCTL_AREA_N; k++)
			if (hv[i]->area[k].ran && hv[i]->area[k].n)
				rctl_prom_u64(pr, (struct rctl_prom_label[]){
					{ "command", cmd }, { "host", hv[i]->hostname },
					{ "area", rctl_area_name(k) },
				}, 3, prom_value[hv[i]->area[k].worst]);
}

static void fleet_prom_ports(struct rctl_prom *pr, const char *cmd, const struct rctl_fleet_host *const *hv,
			     uint32_t nh)
{
	char port[16];
	uint32_t i, k;

	rctl_prom_family(pr, "rocectl_check_loss_ratio", "gauge",
			 "RoCE loss rate over the sampled interval: (sequence errors + out-of-sequence + retransmissions) / packets");
	for (i = 0; i < nh; i++)
		for (k = 0; k < hv[i]->n_series; k++) {
			const struct rctl_fleet_series *s = &hv[i]->series[k];

			if (!s->has_ratio)
				continue;
			snprintf(port, sizeof(port), "%u", s->port);
			rctl_prom_dbl(pr, (struct rctl_prom_label[]){
				{ "command", cmd }, { "host", hv[i]->hostname },
				{ "device", s->device }, { "port", port }, { "netdev", s->netdev },
			}, 5, s->ratio);
		}
	rctl_prom_family(pr, "rocectl_lldp_neighbor_info", "info",
			 "The switch port at the other end of a RoCE netdev, by LLDP");
	for (i = 0; i < nh; i++)
		for (k = 0; k < hv[i]->n_links; k++) {
			const struct rctl_fleet_link *l = &hv[i]->links[k];

			if (!l->has_peer)
				continue;
			snprintf(port, sizeof(port), "%u", l->port);
			rctl_prom_u64(pr, (struct rctl_prom_label[]){
				{ "command", cmd }, { "host", hv[i]->hostname },
				{ "device", l->device }, { "port", port }, { "netdev", l->netdev },
				{ "switch", l->sw }, { "switch_port", l->sw_port },
				{ "chassis_id", l->chassis_id }, { "source", l->source },
			}, 9, 1);
		}
}

static void fleet_prom_hosts(struct rctl_prom *pr, const char *cmd, const struct rctl_fleet_host *const *hv,
			     uint32_t nh)
{
	uint32_t i;

	rctl_prom_family(pr, "rocectl_check_exit_status", "gauge",
			 "Exit status of the check: 0 ok, 1 warning, 2 failure, 3 unknown");
	for (i = 0; i < nh; i++)
		rctl_prom_u64(pr, (struct rctl_prom_label[]){
			{ "command", cmd }, { "host", hv[i]->hostname },
		}, 2, hv[i]->exit);
	rctl_prom_family(pr, "rocectl_check_snapshot_timestamp_seconds", "gauge",
			 "When the judged snapshot was taken, in seconds since the epoch");
	for (i = 0; i < nh; i++)
		if (hv[i]->time > 0)
			rctl_prom_u64(pr, (struct rctl_prom_label[]){
				{ "command", cmd }, { "host", hv[i]->hostname },
			}, 2, (uint64_t)hv[i]->time);
	rctl_prom_family(pr, "rocectl_check_sample_interval_seconds", "gauge",
			 "Seconds between the two counter samples (0: one sample, no counter deltas)");
	for (i = 0; i < nh; i++)
		rctl_prom_dbl(pr, (struct rctl_prom_label[]){
			{ "command", cmd }, { "host", hv[i]->hostname },
		}, 2, hv[i]->sample_interval_s);
}

static int fleet_prom(struct rctl_ctx *ctx, const struct rctl_fleet *fl,
		      const struct rctl_intent *in, int64_t now, int status)
{
	struct rctl_prom pr = { .openmetrics = !strcmp(o.output, "openmetrics") };
	const struct rctl_prom_label cmd = { "command", ctx->path };
	const struct rctl_fleet_host **hv = calloc(fl->n ? fl->n : 1, sizeof(*hv));
	bool *keep = calloc(fl->n ? fl->n : 1, sizeof(*keep));
	struct fleet_counts c;
	uint32_t i, nh = 0;
	int ret;

	if (!hv || !keep || rctl_fleet_newest(fl, keep)) {
		free(hv);
		free(keep);
		return cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "cannot write the metrics: %s",
				  strerror(ENOMEM));
	}
	/* a host of several snapshots: its newest only, one series each */
	for (i = 0; i < fl->n; i++)
		if (keep[i])
			hv[nh++] = &fl->hosts[i];
	fleet_count(fl, now, &c);
	fleet_prom_status(&pr, ctx->path, hv, nh);
	fleet_prom_ports(&pr, ctx->path, hv, nh);
	fleet_prom_hosts(&pr, ctx->path, hv, nh);
	free(hv);
	free(keep);
	rctl_prom_family(&pr, "rocectl_check_snapshots", "gauge",
			 "Snapshots of the fleet: judged, unreadable (not judged), stale (judged, older than the bound)");
	rctl_prom_u64(&pr, (struct rctl_prom_label[]){ cmd, { "state", "judged" } }, 2, fl->n);
	rctl_prom_u64(&pr, (struct rctl_prom_label[]){ cmd, { "state", "unreadable" } }, 2,
		      fl->cmp.n_bad);
	rctl_prom_u64(&pr, (struct rctl_prom_label[]){ cmd, { "state", "stale" } }, 2, c.stale);
	rctl_prom_family(&pr, "rocectl_check_loss_budget_ratio", "gauge",
			 "The loss budget of the intent the host was judged against");
	rctl_prom_dbl(&pr, &cmd, 1, in->loss_budget);
	rctl_prom_family(&pr, "rocectl_check_fleet_exit_status", "gauge",
			 "Exit status of the check over every snapshot: 0 ok, 1 warning, 2 failure, 3 unknown");
	rctl_prom_u64(&pr, &cmd, 1, status);
	rctl_prom_family(&pr, "rocectl_check_timestamp_seconds", "gauge",
			 "When the check ran, in seconds since the epoch");
	rctl_prom_u64(&pr, &cmd, 1, (uint64_t)now);
	ret = cmd_prom_finish(ctx, &pr, o.output_file, true);
	return ret ? ret : o.output_file ? RCTL_EXIT_OK : status;
}

/* Every snapshot in turn; -t bounds the whole run (arm_time_limit()). */
static int fleet_judge(struct rctl_ctx *ctx, struct rctl_fleet *fl, const struct rctl_fleet_judge *j)
{
	struct rctl_err e = { 0 };
	char **files;
	uint32_t n, i;
	int ret = 0;

	if (rctl_fleet_expand(ctx->inputs->v, ctx->inputs->n, &files, &n, &e))
		return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	for (i = 0; i < n && !ret; i++)
		ret = rctl_fleet_add_file(fl, files[i], j);
	rctl_fleet_files_free(files, n);
	if (ret)
		return cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "cannot judge the snapshots: %s",
				  strerror(-ret));
	for (i = 0; i < fl->cmp.n_bad && !out_json() && !ctx->nagios &&
	     strcmp(o.output, "prometheus") && strcmp(o.output, "openmetrics"); i++)
		cmd_warn(ctx, "%s (not judged)", fl->cmp.bad[i].reason);
	return 0;
}

/*
 * -o html: the report page (lib/fleet_html.c) to stdout, or with -O to FILE
 * atomically; the exit is the verdict's either way, as with text.
 */
static int print_html(struct rctl_ctx *ctx, const struct rctl_fleet *fl,
		      const struct rctl_intent *in, unsigned int areas, int64_t now,
		      double max_age, int status)
{
	const struct rctl_fleet_html r = {
		.fl = fl, .in = in, .command = ctx->path, .areas = areas, .by = fleet_by(),
		.now = now, .max_age_s = max_age, .status = status,
	};
	struct rctl_err e = { 0 };
	size_t len;
	char *buf;
	int ret = 0;

	if (rctl_fleet_html(&r, &buf, &len))
		return cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "cannot write the report: %s",
				  strerror(ENOMEM));
	if (o.output_file)
		ret = rctl_write_atomic(o.output_file, buf, len, &e);
	else
		out_text("%s", buf);
	free(buf);
	return ret ? cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e) : status;
}

static struct rctl_fleet_judge fleet_judge_of(const struct rctl_intent *in, unsigned int areas,
					      const struct rctl_rule *rules, unsigned int n_rules)
{
	return (struct rctl_fleet_judge){
		.in = in, .areas = areas, .filter = o.dev, .rules = rules, .n_rules = n_rules,
		.warn = &o.warn, .crit = &o.crit,
	};
}

static int run_fleet(struct rctl_ctx *ctx, const struct rctl_intent *in, unsigned int areas,
		     const struct rctl_rule *rules, unsigned int n_rules)
{
	struct rctl_fleet fl = { .cmp = { .dscp = (int)in->dscp, .by = RCTL_CMP_BY_DRIVER } };
	const struct rctl_fleet_judge j = fleet_judge_of(in, areas, rules, n_rules);
	int64_t now = (int64_t)time(NULL);
	int status;

	status = fleet_judge(ctx, &fl, &j);
	if (status) {
		rctl_fleet_free(&fl);
		return cmd_prom_failed(ctx, o.output, o.output_file, status);
	}
	rctl_fleet_sort(&fl);
	status = rctl_fleet_exit(&fl, now, fleet_max_age());
	if (!strcmp(o.output, "nagios"))
		fleet_nagios(ctx, &fl, now, status);
	else if (!strcmp(o.output, "prometheus") || !strcmp(o.output, "openmetrics"))
		status = fleet_prom(ctx, &fl, in, now, status);
	else if (!strcmp(o.output, "html"))
		status = print_html(ctx, &fl, in, areas, now, fleet_max_age(), status);
	else
		fleet_print_text(ctx, &fl, in, areas, now, status);
	rctl_fleet_free(&fl);
	return status;
}

/*
 * One host (live, or one snapshot) as a report of one: judged as a fleet's
 * host is, its age not judged (as the text's), --unknown-as applied.
 */
static int host_html(struct rctl_ctx *ctx, const struct rctl_host *h,
		     const struct rctl_intent *in, unsigned int areas,
		     const struct rctl_rule *rules, unsigned int n_rules, int unknowns)
{
	struct rctl_fleet fl = { .cmp = { .dscp = (int)in->dscp, .by = RCTL_CMP_BY_DRIVER } };
	const struct rctl_fleet_judge j = fleet_judge_of(in, areas, rules, n_rules);
	int status;

	if (rctl_fleet_add_host(&fl, ctx->input ? ctx->input : "", h, &j)) {
		rctl_fleet_free(&fl);
		return cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "cannot judge '%s': %s", h->hostname,
				  strerror(ENOMEM));
	}
	status = fl.hosts[0].exit == RCTL_EXIT_UNKNOWN ? unknowns : fl.hosts[0].exit;
	status = print_html(ctx, &fl, in, areas, 0, 0, status);
	rctl_fleet_free(&fl);
	return status;
}

/* ---- the commands ---------------------------------------------------- */

static void print_text(struct rctl_ctx *ctx, const struct rctl_report *r,
		       const struct rctl_host *h, const struct rctl_intent *in,
		       unsigned int areas, int status)
{
	bool deltas = rctl_host_has_deltas(h);
	char when[32];
	int a;

	/* A snapshot says when it was read: its verdict is of that time. */
	out_text("%s", h->hostname);
	if (ctx->input && cmd_rfc3339(h->time, when, sizeof(when)))
		out_text(" at %s", when);
	out_text(": ");
	out_dbl(OUT_ANY, "sample_interval_s", deltas ? "counters over %.1f s, " :
		"one counter sample, ", h->sample_interval_s);
	print_intent(in);
	if (ctx->verbose || out_json())
		print_intent_sources(h, in);
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
	else if (o.output_file && strcmp(o.output, "prometheus") && strcmp(o.output, "openmetrics") &&
		 strcmp(o.output, "html"))
		why = "'--output-file' needs '-o prometheus', '-o openmetrics' or '-o html'";
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

/*
 * A plugin never hangs (a FIFO as --input, a wedged read): -o nagios without
 * -t gives up after 30 s, or the sampling and LLDP waits and 25 s more.
 */
#define NAGIOS_TIME_LIMIT 30

static void arm_time_limit(struct rctl_ctx *ctx, bool sample)
{
	struct sigaction sa = { .sa_handler = on_time_limit };
	double waits = (sample ? o.interval : 0) + o.lldp_wait + 25;

	if (!o.time_limit && ctx->nagios)
		o.time_limit = waits > NAGIOS_TIME_LIMIT ? (int)waits + 1 : NAGIOS_TIME_LIMIT;
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
	int status, i;

	status = check_output(ctx);
	if (status)
		return status;
	if (rctl_intent_resolve(&in, &o.ia, &e) ||
	    rctl_rules_skip(o.skip.v, o.skip.n, &areas, rules, &n_rules, &e))
		return cmd_prom_failed(ctx, o.output, o.output_file,
				       cmd_error(ctx, ctx->nagios ? RCTL_EXIT_UNKNOWN : RCTL_EXIT_USAGE, &e));
	arm_time_limit(ctx, sample);
	if (fleet_input(ctx))
		return run_fleet(ctx, &in, areas, rules, n_rules);
	if (o.by || o.max_age > 0)
		return cmd_errorf(ctx, ctx->nagios ? RCTL_EXIT_UNKNOWN : RCTL_EXIT_USAGE,
				  "%s: '--%s' needs several snapshots: '--input' repeated, a "
				  "directory or a pattern (see 'rocectl %s --help')", ctx->path,
				  o.by ? "by" : "max-age", ctx->path);
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
	for (i = 0; strcmp(unknown_as[i], o.unknown_as); i++)
		;
	if (!strcmp(o.output, "html")) {
		status = host_html(ctx, &h, &in, areas, rules, n_rules, unknown_exit[i]);
		rctl_host_free(&h);
		return status;
	}
	rctl_judge_rules(&h, &in, areas, o.dev, rules, n_rules, &r);
	rctl_report_ratio_ranges(&r, &o.warn, &o.crit);
	status = rctl_report_exit_as(&r, unknown_exit[i]);
	if (!strcmp(o.output, "nagios"))
		print_nagios(ctx, &r, &in, h.sample_interval_s, status);
	else if (!strcmp(o.output, "prometheus") || !strcmp(o.output, "openmetrics"))
		status = print_prom(ctx, &r, &h, &in, areas, status);
	else
		print_text(ctx, &r, &h, &in, areas, status);
	rctl_report_free(&r);
	rctl_host_free(&h);
	return status;
}

/*
 * "check pfc ecn" of the areas judged, in the rule table's order, "check all"
 * for every one: the command's name in messages and in the metrics' command
 * label, so that "check pfc ecn" and "check pfc" write different series.
 */
static const char *areas_path(const char *path, unsigned int areas)
{
	static char buf[16 * (RCTL_AREA_N + 1)];
	int a;

	if (areas == (1u << RCTL_AREA_N) - 1)
		return "check all";
	snprintf(buf, sizeof(buf), "check");
	for (a = 0; a < RCTL_AREA_N; a++)
		if (areas & (1u << a))
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " %s",
				 rctl_area_name(a));
	return strcmp(buf, path) ? buf : path;
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
			return cmd_prom_failed(ctx, o.output, o.output_file, cmd_errorf(ctx, usage,
					"%s: '%s' and '%s' are no areas, and one device at most is "
					"judged (see 'rocectl check --help')", ctx->path, dev, name));
		else
			dev = name;
	}
	if (dev && o.dev && strcmp(dev, o.dev))
		return cmd_prom_failed(ctx, o.output, o.output_file, cmd_errorf(ctx, usage,
				"%s: '%s' and '--dev %s' name two devices; give one", ctx->path, dev, o.dev));
	pos_dev = dev;
	o.dev = dev ? dev : o.dev;
	ctx->path = areas_path(ctx->path, areas);
	return run_checks(ctx, areas, false);
}

static int do_doctor(struct rctl_ctx *ctx, int argc, char **argv)
{
	int ret = cmd_dev_arg(ctx, o.dev, argc, argv, &o.dev);

	return ret ? cmd_prom_failed(ctx, o.output, o.output_file, ret) : run_checks(ctx, (1u << RCTL_AREA_N) - 1,
				      !ctx->input && !o.no_sample);
}

/* check and doctor judge the whole model, live or from --input. */
#define CHECK_HOST (RCTL_COLLECT_INVENTORY | RCTL_COLLECT_COUNTERS |	\
		    RCTL_COLLECT_QOS | RCTL_COLLECT_CONSUMERS | \
		    RCTL_COLLECT_NVME)
#define CHECK_INPUT_HELP "judge snapshots written by 'rocectl collect' instead of this host: "	\
	"a file, a directory or a pattern (repeatable: a fleet)"

#define CHECK_VERB(v, what)						\
	static const struct rctl_cmd check_##v = {			\
		.name = #v, .summary = "check " what, .opts = check_opts, \
		.args = "[AREA...] [DEV]", .max_args = -1,		\
		.arg_kind = ARG_AREA_DEV,				\
		.fn = do_check, .flags = CMD_CHECK, .host = CHECK_HOST,	\
		.host_input = true, .input_help = CHECK_INPUT_HELP,	\
		.host_inputs = true,					\
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
CHECK_VERB(traffic, "the traffic class of each RDMA consumer, and RoCE on its lossless priority (counter deltas)");
CHECK_VERB(nvmf, "the kernel's NVMe-oF controllers: state, paths, timers, PFC and ToS");
CHECK_VERB(wire, "captured RoCE packets: DSCP and ECN of data and CNPs, connection ToS, NAKs");
CHECK_VERB(all, "every area");

static const struct rctl_cmd *const check_sub[] = {
	&check_pfc, &check_ecn, &check_dcqcn, &check_dscp, &check_cnp, &check_mtu,
	&check_gid, &check_mode, &check_counters, &check_firewall, &check_peer, &check_traffic, &check_nvmf, &check_wire,
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
	.host_inputs = true,
};
