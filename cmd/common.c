// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What several commands share (cmd.h): error reporting, the device argument,
 * loading the host, and the printers more than one command uses.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "rocectl/capture.h"
#include "rocectl/collect.h"
#include "rocectl/compare.h"
#include "rocectl/fileio.h"
#include "rocectl/hist.h"
#include "rocectl/lldp.h"
#include "rocectl/out.h"
#include "rocectl/probe.h"
#include "rocectl/prom.h"
#include "rocectl/prom_run.h"
#include "rocectl/reach.h"
#include "rocectl/rules.h"
#include "rocectl/snapshot.h"
#include "rocectl/tune_store.h"

/* ---- errors ---------------------------------------------------------- */

/* The last error, for the Nagios status line of a run that failed early. */
char cmd_last_err[600];

static void verr(struct rctl_ctx *ctx, const char *prefix, int errnum,
		 const char *fmt, va_list ap)
{
	char msg[600], *text;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	/* a file name or a snapshot's string may hold escapes: the terminal gets them escaped */
	text = out_escape(msg, false);
	if (!*prefix)
		snprintf(cmd_last_err, sizeof(cmd_last_err), "%s", text ? text : "");
	fprintf(stderr, "rocectl: %s%s\n", prefix, text ? text : "");
	free(text);
	if (ctx && ctx->json && !*prefix)
		out_error(errnum, msg);
}

int cmd_errorf(struct rctl_ctx *ctx, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(ctx, "", 0, fmt, ap);
	va_end(ap);
	return status;
}

static int errf_num(struct rctl_ctx *ctx, int status, int errnum,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int errf_num(struct rctl_ctx *ctx, int status, int errnum,
		    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(ctx, "", errnum, fmt, ap);
	va_end(ap);
	return status;
}

int cmd_error(struct rctl_ctx *ctx, int status, const struct rctl_err *e)
{
	return errf_num(ctx, status, e->errnum, "%s",
			e->msg[0] ? e->msg : "unknown error");
}

void cmd_warn(struct rctl_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	if (ctx && ctx->quiet)
		return;
	va_start(ap, fmt);
	verr(ctx, "warning: ", 0, fmt, ap);
	va_end(ap);
}

int cmd_dev_arg(struct rctl_ctx *ctx, const char *opt, int argc, char **argv,
		const char **dev)
{
	*dev = opt;
	if (!argc)
		return 0;
	if (opt && strcmp(opt, argv[0]))
		return cmd_errorf(ctx, RCTL_EXIT_USAGE, "%s: '%s' and '--dev %s' name two devices; "
				  "give one", ctx->path, argv[0], opt);
	*dev = argv[0];
	return 0;
}

const char *cmd_rfc3339(int64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!t || !gmtime_r(&tt, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		return NULL;
	return buf;
}

/*
 * Which rdma_cm connections were made before tune changed their port's
 * default ToS: the newest applied state file, read only. A state that
 * cannot be read is said and left out; the host is judged without it.
 */
static void cm_history(struct rctl_ctx *ctx, struct rctl_host *h)
{
	struct rctl_err e = { 0 };

	if (rctl_tune_cm_history(h, RCTL_TUNE_STATE_DIR, &e))
		cmd_warn(ctx, "%s", e.msg);
}

int cmd_load_host(struct rctl_ctx *ctx, unsigned int more, struct rctl_host *h,
		  struct rctl_err *e)
{
	unsigned int need = ctx->cmd->host;
	bool snap = ctx->input && ctx->cmd->host_input;
	char when[32];
	int ret;

	ret = snap ? rctl_snapshot_load(ctx->input, h, e) : rctl_collect(h, need | more, e);
	if (!ret && !snap && ((need | more) & RCTL_COLLECT_CONSUMERS) && h->res.st.ok)
		cm_history(ctx, h);
	/* The host described, and for a snapshot the time it was read, not now. */
	if (!ret)
		out_set_stamp(h->hostname, snap ? cmd_rfc3339(h->time, when, sizeof(when)) : NULL);
	return ret;
}

int cmd_load_lldp(struct rctl_ctx *ctx, struct rctl_host *h, double wait_s)
{
	struct rctl_err e = { 0 };

	if (ctx->input || !rctl_lldp_collect(h, wait_s, &e))
		return 0;
	rctl_host_free(h);
	return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
}

/* ---- the wire ---------------------------------------------------------- */

static volatile sig_atomic_t wire_stop;

static void on_wire_stop(int sig)
{
	(void)sig;
	wire_stop = 1;
}

int cmd_wire_capture(struct rctl_ctx *ctx, const struct cmd_wire *w, uint64_t count,
		     uint32_t buffer_kib, struct rctl_host *h)
{
	struct rctl_capture_opts co = {
		.iface = w->iface, .file = w->file, .count = count, .buffer_kib = buffer_kib,
		.seconds = w->seconds > 0 ? w->seconds : CMD_WIRE_SECONDS, .stop = &wire_stop,
	};
	struct sigaction sa = { .sa_handler = on_wire_stop }, old_int, old_term;
	struct rctl_err e = { 0 };
	int ret;

	if (w->iface && w->file)
		return cmd_errorf(ctx, RCTL_EXIT_USAGE, "%s: '--capture' and '--read' exclude each "
				  "other (see 'rocectl %s --help')", ctx->path, ctx->path);
	if (w->seconds > 0 && !w->iface)
		return cmd_errorf(ctx, RCTL_EXIT_USAGE, "%s: '--seconds' is the time of a live "
				  "capture: it needs '--capture IFACE'", ctx->path);
	if (!w->iface && !w->file)
		return 0;
	/* ^C ends a live capture early, and what it saw is still judged. */
	wire_stop = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	ret = rctl_capture_run(&co, h, &h->wire, &e);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	return ret ? cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e) : 0;
}

/* ---- findings (check, doctor, tune) ---------------------------------- */

static const char *const status_upper[] = { "PASS", "WARN", "UNKNOWN", "FAIL" };

static const char *nz(const char *s)
{
	return s[0] ? s : NULL;
}

/* The structured target of a finding: null where it does not apply. */
void cmd_finding_target(const struct rctl_finding *f)
{
	out_str(OUT_JSON, "device", NULL, nz(f->device));
	if (f->port)
		out_u64(OUT_JSON, "port", NULL, f->port);
	else
		out_null(OUT_JSON, "port", NULL);
	out_str(OUT_JSON, "netdev", NULL, nz(f->netdev));
}

/*
 * One finding, the same JSON object wherever it is printed (check, doctor,
 * tune's re-check); the text is the detailed block, or with one_line the
 * summary line tune prints after an apply.
 */
/*
 * One root cause, one finding (rules.h): a consequence names its root, a root
 * counts its consequences, a driver limit says what it is.
 */
static void finding_cause(const struct rctl_finding *f, bool block)
{
	out_str(OUT_JSON, "limit", NULL, f->limit);
	if (f->root_id) {
		out_obj_begin("caused_by");
		out_str(OUT_JSON, "id", NULL, f->root_id);
		out_str(OUT_JSON, "target", NULL, f->root_target);
		out_obj_end();
	} else {
		out_null(OUT_JSON, "caused_by", NULL);
	}
	out_u64(OUT_JSON, "consequences", NULL, f->n_consequences);
	if (block && f->limit && !f->root_id)
		out_text("           limit: %s\n", f->limit);
	if (block && f->root_id)
		out_text("           caused by: %s %s\n", f->root_id, f->root_target);
}

void cmd_print_finding(const struct rctl_finding *f, bool one_line)
{
	bool block = !one_line;

	out_obj_begin(NULL);
	out_str(OUT_JSON, "status", NULL, rctl_status_name(f->status));
	if (block)
		out_text("  %-7s", f->limit && !f->root_id ? "LIMIT" : status_upper[f->status]);
	else
		out_text("  %-7s", rctl_status_name(f->status));
	out_str(OUT_ANY, "id", " %s", f->id);
	out_str(OUT_JSON, "area", NULL, rctl_area_name(f->area));
	out_str(OUT_ANY, "target", block ? "  %s\n" : " %s", f->target);
	cmd_finding_target(f);
	out_str(OUT_ANY, "message", block ? "           %s\n" : ": %s\n", f->message);
	out_str(OUT_JSON, "expected", NULL, nz(f->expected));
	out_str(OUT_JSON, "got", NULL, nz(f->observed));
	if (block && f->expected[0])
		out_text("           expected %s, got %s\n", f->expected, f->observed);
	out_str(OUT_JSON, "evidence", NULL, nz(f->evidence));
	out_str(OUT_JSON, "fix", NULL, nz(f->fix));
	out_str(OUT_JSON, "setting_id", NULL, rctl_setting_name(f->setting));
	if (block && f->evidence[0])
		out_text("           evidence: %s\n", f->evidence);
	if (block && f->fix[0])
		out_text("           fix: %s\n", f->fix);
	finding_cause(f, block);
	out_obj_end();
}

/* A --dev that names nothing must not turn a check green: status 3. */
int cmd_check_filter(struct rctl_ctx *ctx, const struct rctl_host *h, const char *filter)
{
	if (!filter || rctl_host_matches(h, filter))
		return 0;
	if (rctl_host_netdev(h, filter))
		return cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "netdev '%s' has no RDMA port on '%s' "
				  "(is its RDMA driver loaded?)", filter, h->hostname);
	return cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "no RDMA device, port or netdev matches "
			  "'--dev %s' on '%s'", filter, h->hostname);
}

/* ---- Prometheus (check, doctor, counters) ------------------------------ */

/*
 * The end of every -o prometheus|openmetrics run of check, doctor and
 * counters: rocectl's own families (prom_run.h), then the text to stdout or,
 * with -O FILE, atomically to FILE. With -O a run that could not reach its
 * result still writes FILE, with rocectl_up 0 and the last success read back
 * from the FILE it replaces: node_exporter then serves the failure, not the
 * last good file.
 */
/* Whether this run's metrics went out already (or failed to): then nothing is written again. */
static bool prom_finished;

int cmd_prom_finish(struct rctl_ctx *ctx, struct rctl_prom *pr, const char *file, bool up)
{
	struct rctl_prom_run run = {
		.command = ctx->path, .up = up, .now = (uint64_t)time(NULL),
		.error = up ? NULL : cmd_last_err,
	};
	struct rctl_err e = { 0 };
	int ret;

	prom_finished = true;
	if (!up && file)
		rctl_prom_run_read_last(&run, file);
	rctl_prom_run_families(pr, &run);
	rctl_prom_end(pr);
	ret = rctl_prom_status(pr, &e);
	if (!ret && file)
		ret = rctl_write_atomic(file, pr->buf ? pr->buf : "", pr->len, &e);
	else if (!ret && pr->buf)
		out_text("%s", pr->buf);
	rctl_prom_free(pr);
	return ret ? cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e) : 0;
}

int cmd_prom_failed(struct rctl_ctx *ctx, const char *format, const char *file, int status)
{
	struct rctl_prom pr = { .openmetrics = !strcmp(format, "openmetrics") };

	if (!file || !status || status == RCTL_EXIT_WARN || status == RCTL_EXIT_FAIL || prom_finished ||
	    (strcmp(format, "prometheus") && strcmp(format, "openmetrics")))
		return status;
	cmd_prom_finish(ctx, &pr, file, false);
	return status;
}

/*
 * A value in the type its key has in every command (docs/json.md): a count a
 * number, priorities an array of numbers; unknown and not applicable null,
 * "?" and "n/a" for people.
 */
void cmd_cmp_value(const char *fmt, int col, const char *v)
{
	const char *key = rctl_cmp_keys[col];
	uint8_t mask;
	int i;

	if (!v[0] || !strcmp(v, RCTL_CMP_UNKNOWN)) {
		out_str(OUT_TEXT, key, fmt, v[0] ? v : "n/a");
		out_null(OUT_JSON, key, NULL);
	} else if (rctl_cmp_type(col) == RCTL_CMP_T_NUMBER) {
		out_u64(OUT_ANY, key, fmt ? "%" PRIu64 : NULL, strtoull(v, NULL, 10));
	} else if (rctl_cmp_type(col) == RCTL_CMP_T_PRIOS && !rctl_cmp_prios(v, &mask)) {
		out_str(OUT_TEXT, key, fmt, v);
		out_arr_begin(key);
		for (i = 0; i < 8; i++)
			if (mask & (1u << i))
				out_u64(OUT_JSON, NULL, NULL, i);
		out_arr_end();
	} else {
		out_str(OUT_ANY, key, fmt, v);
	}
}

/* A whole input file as text ("-": standard input), NUL-terminated, at most 64 MiB. */
int cmd_read_text(const char *path, char **text, struct rctl_err *e)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : dup(STDIN_FILENO);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
	size_t cap = 64 << 20, got;

	if (!f) {
		got = (size_t)errno;
		if (fd >= 0)
			close(fd);
		return rctl_err_strerror(e, (int)got, "cannot open '%s'", path);
	}
	*text = malloc(cap + 1);
	got = *text ? fread(*text, 1, cap, f) : 0;
	if (!*text || ferror(f) || !feof(f)) {
		fclose(f);
		free(*text);
		*text = NULL;
		return rctl_err_plain(e, EIO, "cannot read '%s': read error or larger than 64 MiB", path);
	}
	fclose(f);
	(*text)[got] = '\0';
	return 0;
}

/* ---- latency (bench nvmf, bench rdma, reach) ------------------------- */

void cmd_latency_json(const char *key, const struct rctl_hist *h, const double *pcts, int n)
{
	char k[16];
	int i;

	out_obj_begin(key);
	out_u64(OUT_JSON, "min", NULL, rctl_hist_min(h));
	out_u64(OUT_JSON, "mean", NULL, (uint64_t)(rctl_hist_mean(h) + 0.5));
	out_u64(OUT_JSON, "stddev", NULL, (uint64_t)(rctl_hist_stddev(h) + 0.5));
	out_u64(OUT_JSON, "max", NULL, rctl_hist_max(h));
	out_obj_begin("percentiles");
	for (i = 0; i < n; i++) {
		snprintf(k, sizeof(k), "%g", pcts[i]);
		out_u64(OUT_JSON, k, NULL, rctl_hist_percentile(h, pcts[i]));
	}
	out_obj_end();
	out_obj_end();
}

/* Bars over groups of 16 buckets (4 per octave); JSON gets the exact buckets. */
void cmd_histogram(const struct rctl_hist *h)
{
	uint64_t lo, hi, glo = 0, n = 0, cum = 0, peak = 1, g[RCTL_HIST_BUCKETS / 16 + 1];
	unsigned int i;

	memset(g, 0, sizeof(g));
	for (i = 0; i < RCTL_HIST_BUCKETS; i++)
		g[i / 16] += h->bucket[i];
	for (i = 0; i <= RCTL_HIST_BUCKETS / 16; i++)
		peak = g[i] > peak ? g[i] : peak;
	out_arr_begin("histogram");
	for (i = 0; i < RCTL_HIST_BUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		rctl_hist_bucket_range(i, &lo, &hi);
		out_obj_begin(NULL);
		out_u64(OUT_JSON, "lo_ns", NULL, lo);
		out_u64(OUT_JSON, "hi_ns", NULL, hi);
		out_u64(OUT_JSON, "count", NULL, h->bucket[i]);
		out_obj_end();
	}
	out_arr_end();
	out_text("histogram (us):\n");
	for (i = 0; i < RCTL_HIST_BUCKETS; i++) {
		if (i % 16 == 0)
			rctl_hist_bucket_range(i, &glo, &hi);
		n += h->bucket[i];
		if (i % 16 != 15 || !n)
			continue;
		rctl_hist_bucket_range(i, &lo, &hi);
		cum += n;
		out_text("  %10.3f - %10.3f  %6.2f%%  %-40.*s %" PRIu64 "\n", glo / 1000.0,
			 (hi + 1) / 1000.0, 100.0 * (double)cum / (double)h->count,
			 (int)(40 * n / peak) ? (int)(40 * n / peak) : 1,
			 "########################################", n);
		n = 0;
	}
}

/* JSON "rtt_ns" in the agreed style; text in microseconds. */
void cmd_print_rtt_ns(const struct rctl_lat *l)
{
	out_obj_begin("rtt_ns");
	out_u64(OUT_JSON, "min", NULL, l->min);
	out_u64(OUT_JSON, "mean", NULL, l->mean);
	out_u64(OUT_JSON, "stddev", NULL, l->stddev);
	out_u64(OUT_JSON, "max", NULL, l->max);
	out_obj_begin("percentiles");
	out_u64(OUT_JSON, "50", NULL, l->p50);
	out_u64(OUT_JSON, "99", NULL, l->p99);
	out_u64(OUT_JSON, "99.9", NULL, l->p999);
	out_obj_end();
	out_obj_end();
	out_text("  rtt_us min %.1f avg %.1f p50 %.1f p99 %.1f max %.1f\n",
		 l->min / 1e3, l->mean / 1e3, l->p50 / 1e3, l->p99 / 1e3, l->max / 1e3);
}

/* ---- where a probe sends from (reach, bench rdma) ---------------------- */

int cmd_src_check(struct rctl_ctx *ctx, const struct cmd_src *s)
{
	if (s->dev && s->src)
		return cmd_errorf(ctx, RCTL_EXIT_USAGE, "%s: --dev and --src exclude each other",
				  ctx->path);
	if (s->gid_given && !s->dev)
		return cmd_errorf(ctx, RCTL_EXIT_USAGE, "%s: --gid-index needs --dev", ctx->path);
	return 0;
}

int cmd_src_addr(struct rctl_ctx *ctx, const struct cmd_src *s,
		 struct sockaddr_storage *ss, const struct sockaddr **sa)
{
	struct rctl_err e = { 0 };

	*sa = NULL;
	if (s->src && rctl_sockaddr_parse(s->src, 0, true, ss, &e))
		return cmd_error(ctx, RCTL_EXIT_USAGE, &e);
	if (s->dev && rctl_dev_src_addr(s->dev, 1, s->gid_given ? s->gid_index : -1, ss, &e))
		return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	if (s->dev || s->src)
		*sa = (const struct sockaddr *)ss;
	return 0;
}

static const struct out_col nvme_ctrl_cols[] = {
	{ .key = "name", .title = "CTRL" },
	{ .key = "transport", .title = "TRANSPORT" },
	{ .key = "state", .title = "STATE" },
	{ .key = "traddr", .title = "TRADDR" },
	{ .key = "trsvcid", .title = "TRSVCID" },
	{ .key = "netdev", .title = "NETDEV" },
	{ .key = "queue_count", .title = "QUEUES", .flags = OUT_COL_RIGHT },
	{ .key = "sqsize", .title = "SQSIZE", .flags = OUT_COL_RIGHT },
	{ .key = "kato_s", .title = "KATO", .flags = OUT_COL_RIGHT },
	{ .key = "ctrl_loss_tmo_s", .title = "CTRL_LOSS_TMO", .flags = OUT_COL_RIGHT },
	{ .key = "reconnect_delay_s", .title = "RECONNECT_DELAY", .flags = OUT_COL_RIGHT },
	{ .key = "fast_io_fail_tmo_s", .title = "FAST_IO_FAIL_TMO", .flags = OUT_COL_RIGHT },
	{ .key = "subsystem", .title = "SUBSYSTEM" },
};

static const struct out_col nvme_path_cols[] = {
	{ .key = "subsystem", .title = "SUBSYSTEM" },
	{ .key = "path", .title = "PATH" },
	{ .key = "controller", .title = "CTRL" },
	{ .key = "ana_state", .title = "ANA_STATE" },
	{ .key = "iopolicy", .title = "IOPOLICY" },
};

/*
 * A timer in seconds: "off" is text "off" and, in JSON, null with
 * "<key>_off" true (null alone would say unknown); an attribute the kernel
 * lacks is unknown.
 */
static void nvme_timer(const char *key, int32_t v)
{
	char off[48];

	snprintf(off, sizeof(off), "%.*s_off", (int)(strlen(key) - 2), key);
	if (v >= 0)
		out_u64(OUT_ANY, key, NULL, (uint64_t)v);
	else if (v == RCTL_NVME_TMO_OFF)
		out_str(OUT_TEXT, key, NULL, "off");
	else
		out_null(OUT_ANY, key, NULL);
	if (v == RCTL_NVME_TMO_OFF)
		out_null(OUT_JSON, key, NULL);
	out_bool(OUT_JSON, off, NULL, v == RCTL_NVME_TMO_OFF);
}

void cmd_nvme_print(const struct rctl_host *h, int indent)
{
	const struct rctl_nvme *nv = &h->nvme;
	uint32_t i, k;

	if (!nv->n_ctrls)
		return;
	out_table_indent(indent);
	out_table_begin("nvme_controllers", nvme_ctrl_cols,
			sizeof(nvme_ctrl_cols) / sizeof(nvme_ctrl_cols[0]));
	for (i = 0; i < nv->n_ctrls; i++) {
		const struct rctl_nvme_ctrl *c = &nv->ctrls[i];

		out_row_begin();
		out_str(OUT_ANY, "name", NULL, c->name);
		out_str(OUT_ANY, "transport", NULL, c->transport);
		out_str(OUT_ANY, "state", NULL, c->state);
		out_str(OUT_ANY, "subsysnqn", NULL, c->subsysnqn);
		out_str(OUT_ANY, "traddr", NULL, c->traddr);
		out_str(OUT_ANY, "trsvcid", NULL, c->trsvcid);
		out_str(OUT_JSON, "host_traddr", NULL, c->host_traddr);
		out_str(OUT_JSON, "host_iface", NULL, c->host_iface);
		out_str(OUT_ANY, "netdev", NULL, c->netdev);
		out_str(OUT_JSON, "netdev_by", NULL, c->netdev_by);
		out_str(OUT_JSON, "src", NULL, c->src);
		out_u64(OUT_ANY, "queue_count", NULL, c->queue_count);
		out_u64(OUT_ANY, "sqsize", NULL, c->sqsize);
		nvme_timer("kato_s", c->kato);
		nvme_timer("ctrl_loss_tmo_s", c->ctrl_loss_tmo);
		nvme_timer("reconnect_delay_s", c->reconnect_delay);
		nvme_timer("fast_io_fail_tmo_s", c->fast_io_fail_tmo);
		out_str(OUT_ANY, "subsystem", NULL, c->subsys);
		out_row_end();
	}
	out_table_end();
	out_table_indent(indent);
	out_table_begin("nvme_paths", nvme_path_cols,
			sizeof(nvme_path_cols) / sizeof(nvme_path_cols[0]));
	for (i = 0; i < nv->n_subsys; i++)
		for (k = 0; k < nv->subsys[i].n_paths; k++) {
			const struct rctl_nvme_path *p = &nv->subsys[i].paths[k];

			out_row_begin();
			out_str(OUT_ANY, "subsystem", NULL, nv->subsys[i].name);
			out_str(OUT_JSON, "nqn", NULL, nv->subsys[i].nqn);
			out_str(OUT_ANY, "path", NULL, p->name);
			out_str(OUT_ANY, "controller", NULL, p->ctrl);
			out_u64(OUT_JSON, "nsid", NULL, p->nsid);
			out_str(OUT_ANY, "ana_state", NULL, p->ana_state);
			out_str(OUT_ANY, "iopolicy", NULL, nv->subsys[i].iopolicy);
			out_row_end();
		}
	out_table_end();
}
