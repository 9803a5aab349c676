// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rocectl collect: the whole host model as one snapshot (JSON, schema
 * versioned) for --input, the fixtures and 'rocectl compare'. It reads
 * only: what it cannot read lands in the snapshot as "unreadable" with
 * the reason, never as a value.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cmd.h"
#include "rocectl/collect.h"
#include "rocectl/fileio.h"
#include "rocectl/counters.h"
#include "rocectl/lldp.h"
#include "rocectl/out.h"
#include "rocectl/snapshot.h"

static struct {
	const char *output;
	double interval, lldp_wait;
	struct cmd_wire wire;
} o;

static const struct rctl_opt collect_opts[] = {
	{ .name = "output-file", .short_name = 'O', .type = OPT_STR, .arg = "FILE",
	  .dst = &o.output, .kind = ARG_FILE,
	  .help = "write the snapshot to FILE ('-': standard output, the default)" },
	{ .name = "interval", .short_name = 'I', .type = OPT_SECS, .arg = "SECS",
	  .dst = &o.interval, .max = 3600,
	  .help = "take a second counter sample after SECS and store the deltas" },
	CMD_LLDP_WAIT_OPT(o.lldp_wait),
	CMD_WIRE_OPTS(o.wire),
	{ 0 }
};

/* The snapshot and its newline, atomically: a reader never sees half a file. */
static int write_file(const char *path, const char *text, struct rctl_err *e)
{
	char *buf;
	int ret;

	if (asprintf(&buf, "%s\n", text) < 0)
		return rctl_err_strerror(e, ENOMEM, "cannot write '%s'", path);
	ret = rctl_write_atomic(path, buf, strlen(buf), e);
	free(buf);
	return ret;
}

static const struct out_col unread_cols[] = {
	{ .key = "what", .title = "UNREADABLE" },
	{ .key = "errno_name", .title = "ERRNO" },
	{ .key = "reason", .title = "REASON" },
};

/* What went to the file, and what could not be read (text or JSON). */
static void print_summary(const struct rctl_host *h, const char *path)
{
	uint32_t i;

	out_str(OUT_ANY, "output_file", "wrote %s:", path);
	/* Counts end in _count: "devices" and "netdevs" are arrays in every document. */
	out_u64(OUT_ANY, "device_count", " %" PRIu64 " RDMA devices,", h->n_devs);
	out_u64(OUT_ANY, "netdev_count", " %" PRIu64 " netdevs,", h->n_netdevs);
	out_u64(OUT_ANY, "unreadable_count", " %" PRIu64 " parts unreadable\n", h->n_unread);
	cmd_nvme_print(h, 2);	/* the NVMe-oF controllers, when the host has some */
	if (!h->n_unread)
		return;
	out_table_indent(2);
	out_table_begin("unreadable_parts", unread_cols, 3);
	for (i = 0; i < h->n_unread; i++) {
		const struct rctl_unread *u = &h->unread[i];
		const char *name = u->errnum ? strerrorname_np(u->errnum) : NULL;

		out_row_begin();
		out_str(OUT_ANY, "what", NULL, u->what);
		out_u64(OUT_JSON, "errno", NULL, u->errnum);
		out_str(OUT_ANY, "errno_name", NULL, name);
		out_str(OUT_ANY, "reason", NULL, u->reason);
		out_row_end();
	}
	out_table_end();
}

static int collect_host(struct rctl_ctx *ctx, struct rctl_host *h)
{
	unsigned int what = RCTL_COLLECT_INVENTORY | RCTL_COLLECT_COUNTERS | RCTL_COLLECT_QOS |
			    RCTL_COLLECT_CONSUMERS | RCTL_COLLECT_NVME;
	struct rctl_err e = { 0 }, e2 = { 0 };
	struct rctl_lldp_cap *cap;
	int ret;

	if (rctl_collect(h, what, &e)) {
		rctl_host_free(h);
		return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	}
	/* The switch's frames may come during the interval too. */
	if (rctl_lldp_begin(h, o.interval > 0 || o.lldp_wait > 0, &cap, &e)) {
		rctl_lldp_end(h, cap, 0, &e);
		rctl_host_free(h);
		return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	}
	ret = o.interval > 0 ? rctl_sample_deltas(h, o.interval, &e) : 0;
	if (rctl_lldp_end(h, cap, ret ? 0 : o.lldp_wait, ret ? &e2 : &e) || ret) {
		rctl_host_free(h);
		return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	}
	/* The capture's summary goes into the snapshot: 'check wire --input' judges it. */
	ret = cmd_wire_capture(ctx, &o.wire, 0, 0, h);
	if (ret)
		rctl_host_free(h);
	return ret;
}

static int do_collect(struct rctl_ctx *ctx, int argc, char **argv)
{
	const char *path = o.output && strcmp(o.output, "-") ? o.output : NULL;
	struct rctl_err e = { 0 };
	struct rctl_host h;
	char *text;
	int ret;

	(void)argc;
	(void)argv;
	ret = collect_host(ctx, &h);
	if (ret)
		return ret;
	text = rctl_snapshot_text(&h, true);
	if (!text)
		ret = cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "cannot render the snapshot: out of memory");
	else if (path && write_file(path, text, &e))
		ret = cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	else if (path)
		print_summary(&h, path);
	else {
		/* The snapshot is the document: no second one after it. */
		out_init(NULL, false, false);
		if (fputs(text, stdout) < 0 || fputc('\n', stdout) < 0)
			ret = cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "cannot write the snapshot: %s",
					 strerror(errno));
		else if (h.n_unread)
			cmd_warn(ctx, "%u parts of the host were unreadable (see \"unreadable\")",
				 h.n_unread);
	}
	cJSON_free(text);
	rctl_host_free(&h);
	return ret;
}

const struct rctl_cmd cmd_collect = {
	.name = "collect",
	.summary = "write this host's whole model as a snapshot (JSON)",
	.opts = collect_opts,
	.fn = do_collect,
};
