// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rocectl counters: every counter of an RDMA port and of its netdev, grouped
 * by the problem it points at, with its meaning, and how fast it moves.
 * What rdma statistic show, ethtool -S and a vendor's counter guide did
 * together; -o prometheus hands the same to node_exporter's textfile collector.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "rocectl/catalog.h"
#include "rocectl/clock.h"
#include "rocectl/collect.h"
#include "rocectl/counters.h"
#include "rocectl/counters_view.h"
#include "rocectl/counters_watch.h"
#include "rocectl/out.h"
#include "rocectl/prom.h"
#include "rocectl/snapshot.h"

static const char *const outputs[] = { "text", "json", "prometheus", "openmetrics", NULL };

static struct {
	const char *dev, *group, *output, *output_file;
	bool all, nonzero;
	double interval, watch;
} o;

static const struct rctl_opt counters_opts[] = {
	CMD_DEV_OPT(o.dev),
	{ .name = "group", .short_name = 'g', .type = OPT_CHOICE, .arg = "GROUP",
	  .dst = &o.group, .choices = rctl_cgroup_names,
	  .help = "show only the counters of GROUP" },
	{ .name = "all", .type = OPT_FLAG, .dst = &o.all,
	  .help = "show every counter, also zero traffic counters" },
	{ .name = "nonzero", .type = OPT_FLAG, .dst = &o.nonzero,
	  .help = "show only counters that are not zero (or moved, with rates)" },
	{ .name = "interval", .short_name = 'I', .type = OPT_SECS, .arg = "SECS",
	  .dst = &o.interval, .max = 3600,
	  .help = "sample twice SECS apart and show per-second rates" },
	/* -w is the plugin's --warning of check and doctor; counters has no
	 * warning range, so its old -w still means --watch here, unlisted. */
	{ .name = "watch", .retired_short = 'w', .type = OPT_SECS, .arg = "SECS",
	  .dst = &o.watch, .max = 3600,
	  .help = "sample every SECS until q or Ctrl-C (with -j: one JSON document per sample)" },
	{ .name = "output", .short_name = 'o', .type = OPT_CHOICE, .arg = "FORMAT",
	  .dst = &o.output, .choices = outputs,
	  .help = "text (default), json (as -j), prometheus (node_exporter textfile format) or openmetrics" },
	{ .name = "output-file", .short_name = 'O', .type = OPT_STR, .arg = "FILE",
	  .dst = &o.output_file, .kind = ARG_FILE,
	  .help = "with -o prometheus: write FILE atomically (node_exporter textfile)" },
	{ 0 }
};

/* The options that choose the rows, as the counters view takes them. */
static struct rctl_cview view(void)
{
	return (struct rctl_cview){
		.has_group = o.group != NULL,
		.group = o.group ? rctl_cgroup_parse(o.group) : -1,
		.nonzero = o.nonzero,
		.all = o.all,
	};
}

static const struct out_col cols_plain[] = {
	{ .key = "mark", .title = "" },
	{ .key = "group", .title = "GROUP" },
	{ .key = "source", .title = "SOURCE" },
	{ .key = "name", .title = "COUNTER" },
	{ .key = "value", .title = "VALUE", .flags = OUT_COL_RIGHT },
	{ .key = "meaning", .title = "MEANING" },
};

static const struct out_col cols_rate[] = {
	{ .key = "mark", .title = "" },
	{ .key = "group", .title = "GROUP" },
	{ .key = "source", .title = "SOURCE" },
	{ .key = "name", .title = "COUNTER" },
	{ .key = "value", .title = "VALUE", .flags = OUT_COL_RIGHT },
	{ .key = "rate_per_s", .title = "RATE/S", .flags = OUT_COL_RIGHT },
	{ .key = "meaning", .title = "MEANING" },
};

static void print_row(const struct rctl_crow *r, double secs)
{
	const struct rctl_counter *c = r->c;

	out_row_begin();
	/* "!" growth of an error counter; "*" changed since the last sample. */
	out_str(OUT_TEXT, "mark", NULL, rctl_crow_problem(r) ? "!" : c->has_delta && c->delta ? "*" : "");
	out_str(OUT_ANY, "group", NULL, rctl_cgroup_name(r->ce->group));
	out_str(OUT_ANY, "source", NULL, r->src);
	out_str(OUT_ANY, "name", NULL, c->name);
	out_u64(OUT_ANY, "value", NULL, c->value);
	if (c->has_delta) {
		out_u64(OUT_JSON, "delta", NULL, c->delta);
		out_dbl(OUT_ANY, "rate_per_s", "%.1f", rctl_counter_rate(c->delta, secs));
	} else if (secs > 0) {
		out_null(OUT_JSON, "delta", NULL);
		out_null(OUT_ANY, "rate_per_s", NULL);
	}
	out_bool(OUT_JSON, "bad_if_growing", NULL, r->ce->bad);
	out_bool(OUT_JSON, "problem", NULL, rctl_crow_problem(r));
	/* A counter the catalogue does not know has no meaning: null in JSON. */
	out_str(OUT_TEXT, "meaning", NULL, r->ce->meaning);
	out_str(OUT_JSON, "meaning", NULL, r->ce->meaning[0] ? r->ce->meaning : NULL);
	out_row_end();
}

/* Why a set is missing, said as data: "not exported by this driver" is no error. */
static const char *why_missing(int err, bool pma)
{
	if (!err)
		return NULL;
	if (err == ENOENT)
		return "not exported by this driver";
	if (err == EOPNOTSUPP)
		return pma ? "N/A (no PMA)" : "not supported by this driver";
	return strerror(err);
}

/* Why a part is missing: its reason; NULL when read; older snapshots lack it. */
static const char *part_missing(const struct rctl_part *st)
{
	return st->ok ? NULL : st->err ? st->reason : "not collected";
}

/*
 * The optional hw counters (docs/roce-facts.md, "Counters"): a CNP counter
 * that exists but is off counts nothing.
 */
static void print_opt_counters(const struct rctl_opt_counters *oc)
{
	uint32_t i;

	if (out_json()) {
		out_str(OUT_JSON, "optional_counters_missing", NULL, part_missing(&oc->st));
		if (!oc->st.ok) {
			out_null(OUT_JSON, "optional_counters", NULL);
			return;
		}
		out_arr_begin("optional_counters");
		for (i = 0; i < oc->n; i++) {
			out_obj_begin(NULL);
			out_str(OUT_JSON, "name", NULL, oc->c[i].name);
			out_bool(OUT_JSON, "enabled", NULL, oc->c[i].enabled);
			out_obj_end();
		}
		out_arr_end();
		return;
	}
	if (!oc->st.ok && !oc->st.err)
		return;
	out_text("  optional hw counters:");
	if (!oc->st.ok)
		out_text(" %s", oc->st.reason);
	else if (!oc->n)
		out_text(" none");
	for (i = 0; oc->st.ok && i < oc->n; i++)
		out_text("%s %s %s", i ? "," : "", oc->c[i].name, oc->c[i].enabled ? "on" : "off");
	out_text("\n");
}

/* JSON says why a set is missing as data; null when it is there. */
static void print_port_json_head(const struct rctl_device *d, const struct rctl_port *p,
				 const struct rctl_netdev *nd)
{
	out_str(OUT_JSON, "device", NULL, d->name);
	out_u64(OUT_JSON, "port", NULL, p->port);
	out_str(OUT_JSON, "driver", NULL, d->driver);
	out_str(OUT_JSON, "state", NULL, p->state[0] ? p->state : NULL);
	out_str(OUT_JSON, "netdev", NULL, p->netdev[0] ? p->netdev : NULL);
	out_str(OUT_JSON, "netdev_driver", NULL, nd && nd->driver[0] ? nd->driver : NULL);
	out_dbl(OUT_JSON, "hw_counters_lifespan_s", NULL, p->hw_lifespan_ms / 1000.0);
	out_str(OUT_JSON, "hw_counters_missing", NULL, why_missing(p->hw_err, false));
	out_str(OUT_JSON, "pma_counters_missing", NULL, why_missing(p->pma_err, true));
	out_str(OUT_JSON, "ethtool_stats_missing", NULL,
		nd ? why_missing(nd->stats_err, false) : "no netdev");
	out_str(OUT_JSON, "pause_stats_missing", NULL,
		nd ? part_missing(&nd->pause_stats.st) : "no netdev");
}

/* The text rendering prints only what it has: a missing set is one line. */
static void print_missing_text(const struct rctl_port *p, const struct rctl_netdev *nd)
{
	if (p->hw_err)
		out_text("  hw_counters: %s\n", why_missing(p->hw_err, false));
	if (p->pma_err && p->pma_err != ENOENT)
		out_text("  counters/ (PMA): %s\n", why_missing(p->pma_err, true));
	if (nd && nd->stats_err)
		out_text("  ethtool -S %s: %s\n", nd->name, why_missing(nd->stats_err, false));
	if (nd && nd->pause_stats.st.err)
		out_text("  pause statistics of %s: %s\n", nd->name, nd->pause_stats.st.reason);
}

static void print_port(const struct rctl_host *h, const struct rctl_device *d,
		       const struct rctl_port *p)
{
	const struct rctl_netdev *nd = rctl_host_netdev(h, p->netdev);
	double secs = h->sample_interval_s;
	uint32_t n, i, hidden = 0;
	struct rctl_crow *rows = rctl_port_rows(h, d, p, &n);
	struct rctl_cview v = view();

	out_obj_begin(NULL);
	if (out_json()) {
		print_port_json_head(d, p, nd);
	} else {
		out_text("%s/%u  driver %s  %s  netdev %s", d->name, p->port, d->driver,
			 p->state[0] ? p->state : "-", p->netdev[0] ? p->netdev : "-");
		if (p->hw_lifespan_ms)
			out_text("  (hw_counters cached %u ms)", p->hw_lifespan_ms);
		out_text("\n");
		print_missing_text(p, nd);
	}
	print_opt_counters(&p->opt_counters);
	out_table_indent(2);
	out_table_begin("counters", secs > 0 ? cols_rate : cols_plain, secs > 0 ? 7 : 6);
	for (i = 0; rows && i < n; i++) {
		if (rctl_crow_shown(&rows[i], &v, !out_json()))
			print_row(&rows[i], secs);
		else
			hidden++;
	}
	out_table_end();
	if (hidden && !o.nonzero && !o.group)
		out_text("  (%u zero counters hidden; --all shows them)\n", hidden);
	out_text("\n");
	out_obj_end();
	free(rows);
}

static uint32_t print_ports(const struct rctl_host *h, const char *filter)
{
	uint32_t i, j, shown = 0;

	out_dbl(OUT_JSON, "sample_interval_s", NULL, h->sample_interval_s);
	out_arr_begin("ports");
	for (i = 0; i < h->n_devs; i++)
		for (j = 0; j < h->devs[i].n_ports; j++)
			if (rctl_port_match(filter, &h->devs[i], &h->devs[i].ports[j])) {
				print_port(h, &h->devs[i], &h->devs[i].ports[j]);
				shown++;
			}
	out_arr_end();
	return shown;
}

/* ---- Prometheus ------------------------------------------------------ */

static int print_prom(struct rctl_ctx *ctx, const struct rctl_host *h, const char *filter)
{
	struct rctl_prom pr = { .openmetrics = !strcmp(o.output, "openmetrics") };
	struct rctl_cview v = view();

	rctl_counters_prom(&pr, h, filter, &v);
	return cmd_prom_finish(ctx, &pr, o.output_file, true);
}

/* ---- watch ----------------------------------------------------------- */

static volatile sig_atomic_t stop_watch;

static void on_stop(int sig)
{
	(void)sig;
	stop_watch = 1;
}

/* Wait what the watch says, for q on a terminal, or for a signal. */
static void watch_wait(struct rctl_watch *w, bool keys)
{
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	int ms;
	char c;

	for (;;) {
		if (stop_watch)		/* also one that came while printing */
			rctl_watch_stop(w, RCTL_WATCH_SIGNAL);
		if (rctl_watch_next(w, rctl_clock_ns(), &ms) != RCTL_WATCH_WAIT)
			return;
		if (poll(keys ? &pfd : NULL, keys ? 1 : 0, ms) > 0 &&
		    read(STDIN_FILENO, &c, 1) == 1)
			rctl_watch_key(w, c);
	}
}

static void watch_frame(const struct rctl_host *h, const char *filter, bool tty)
{
	time_t now = time(NULL);
	char ts[32];

	strftime(ts, sizeof(ts), "%H:%M:%S", localtime(&now));
	if (tty)
		out_ctrl("\033[H\033[J");	/* home, clear: redraw in place */
	out_text("rocectl counters every %gs  %s  (! error counter growing, * changed; q quits)\n\n",
		 o.watch, ts);
	print_ports(h, filter);
}

/* Keys without Enter or echo, on a terminal; false when stdin is none. */
static bool keys_raw(struct termios *saved)
{
	struct termios raw;

	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, saved))
		return false;
	raw = *saved;
	raw.c_lflag &= ~(ICANON | ECHO);
	raw.c_cc[VMIN] = 0;
	raw.c_cc[VTIME] = 0;
	tcsetattr(STDIN_FILENO, TCSANOW, &raw);
	return true;
}

static int watch(struct rctl_ctx *ctx, struct rctl_host *h, const char *filter)
{
	struct sigaction sa = { .sa_handler = on_stop }, ign = { .sa_handler = SIG_IGN };
	bool tty = !ctx->json && isatty(STDOUT_FILENO), keys;
	struct rctl_err e = { 0 };
	struct rctl_watch w;
	struct termios saved;
	int ret;

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGPIPE, &ign, NULL);
	keys = keys_raw(&saved);
	rctl_watch_init(&w, o.watch, rctl_clock_ns());
	do {
		watch_frame(h, filter, tty);
		if (out_flush_doc())
			rctl_watch_stop(&w, RCTL_WATCH_OUTPUT);
		watch_wait(&w, keys);
		ret = rctl_watch_sample(&w, h, rctl_clock_ns(), &e);
	} while (ret > 0);
	if (keys)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved);
	if (ret)
		return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	out_reset();	/* every sample is out; no empty document at exit */
	return RCTL_EXIT_OK;
}

/* ---- the command ----------------------------------------------------- */

static int usage(struct rctl_ctx *ctx, const char *why)
{
	return cmd_errorf(ctx, RCTL_EXIT_USAGE, "counters: %s (see 'rocectl counters --help')", why);
}

static int check_options(struct rctl_ctx *ctx, bool prom)
{
	if (prom && ctx->json)
		return usage(ctx, "'-o prometheus' and '--json' exclude each other");
	if (o.interval > 0 && o.watch > 0)
		return usage(ctx, "'--interval' and '--watch' exclude each other");
	if (ctx->input && (o.interval > 0 || o.watch > 0))
		return usage(ctx, "a snapshot ('--input') cannot be sampled again");
	if (o.output_file && !prom)
		return usage(ctx, "'--output-file' needs '-o prometheus' or '-o openmetrics'");
	if (prom && o.watch > 0)
		return usage(ctx, "'-o prometheus' writes one sample; use '--interval' or none");
	if (o.all && o.nonzero)
		return usage(ctx, "'--all' and '--nonzero' exclude each other");
	return 0;
}

static uint32_t count_matches(const struct rctl_host *h, const char *filter)
{
	uint32_t i, j, n = 0;

	for (i = 0; i < h->n_devs; i++)
		for (j = 0; j < h->devs[i].n_ports; j++)
			n += rctl_port_match(filter, &h->devs[i], &h->devs[i].ports[j]);
	return n;
}

/*
 * Counters need RDMA netlink (devices, ports, netdev names) and ethtool only:
 * the inventory (verbs, which loads every libibverbs provider, and libnl's
 * link and address caches) is read only for what Prometheus shows of it
 * (active_mtu).
 */
static int load_host(struct rctl_ctx *ctx, struct rctl_host *h, bool prom)
{
	struct rctl_err e = { 0 };

	if (cmd_load_host(ctx, prom ? RCTL_COLLECT_INVENTORY : 0, h, &e))
		return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	return 0;
}

/* A sampling interval the kernel's counter cache would make meaningless. */
static int check_lifespan(struct rctl_ctx *ctx, const struct rctl_host *h)
{
	double secs = o.interval > 0 ? o.interval : o.watch;
	uint32_t ms = rctl_counters_lifespan_ms(h);

	if (secs > 0 && secs * 1000 < ms)
		return cmd_errorf(ctx, RCTL_EXIT_USAGE,
				  "counters: interval %gs is shorter than the hw_counters lifespan "
				  "(%u ms): the kernel would answer from its cache", secs, ms);
	return 0;
}

static int do_counters(struct rctl_ctx *ctx, int argc, char **argv)
{
	bool prom = o.output && (!strcmp(o.output, "prometheus") || !strcmp(o.output, "openmetrics"));
	struct rctl_err e = { 0 };
	const char *filter;
	struct rctl_host h;
	int ret;

	ret = cmd_dev_arg(ctx, o.dev, argc, argv, &filter) ?: check_options(ctx, prom);
	if (ret)
		return prom ? cmd_prom_failed(ctx, o.output, o.output_file, ret) : ret;
	ret = load_host(ctx, &h, prom);
	if (ret)
		return prom ? cmd_prom_failed(ctx, o.output, o.output_file, ret) : ret;
	if (!count_matches(&h, filter))
		ret = filter ? cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "no RDMA port '%s'", filter) :
			       cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "no RDMA device found");
	if (!ret)
		ret = check_lifespan(ctx, &h);
	if (!ret && o.interval > 0 && rctl_sample_deltas(&h, o.interval, &e))
		ret = cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	if (!ret && o.watch > 0)
		ret = watch(ctx, &h, filter);
	else if (!ret && prom)
		ret = print_prom(ctx, &h, filter);
	else if (!ret)
		print_ports(&h, filter);
	rctl_host_free(&h);
	return prom ? cmd_prom_failed(ctx, o.output, o.output_file, ret) : ret;
}

const struct rctl_cmd cmd_counters = {
	.name = "counters",
	.summary = "show RDMA port and netdev counters: grouped, explained, with rates",
	.args = "[DEV[/PORT] | NETDEV]",
	.max_args = 1,
	.arg_kind = ARG_DEV,
	.opts = counters_opts,
	.fn = do_counters,
	.host = RCTL_COLLECT_COUNTERS,
	.host_input = true,
};
