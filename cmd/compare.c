// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rocectl compare FILE...: several hosts' snapshots side by side (docs/roce-facts.md, "GID").
 * Every RoCE port of every host is one row (lib/compare.c); in each column a
 * value that differs from the most common one is an outlier (with no value
 * held by most ports, every value is). A fleet collects with what it has
 * (pdsh, Ansible) and compares once.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "rocectl/compare.h"
#include "rocectl/out.h"
#include "rocectl/snapshot.h"

static struct {
	int dscp;
	const char *by;
} o = { .dscp = 26, .by = "driver" };

static const struct rctl_opt compare_opts[] = {
	{ .name = "dscp", .type = OPT_INT, .arg = "DSCP", .dst = &o.dscp,
	  .min = 0, .max = 63, .help = "DSCP whose priority is shown (default 26)" },
	{ .name = "by", .type = OPT_CHOICE, .arg = "GROUP", .dst = &o.by,
	  .choices = rctl_cmp_by_names,
	  .help = "compare each port with its driver family (driver, the default) or all (none); "
		  "switch: as driver, outliers grouped by the LLDP switch of each port" },
	{ 0 }
};

/* host, target, then the columns of lib/compare.c in their order. */
static const char *const titles[RCTL_CMP_N] = {
	[RCTL_CMP_TRUST] = "TRUST", [RCTL_CMP_DSCP] = "DSCP>PRIO", [RCTL_CMP_MAP] = "MAP",
	[RCTL_CMP_PFC] = "PFC", [RCTL_CMP_CNP_DSCP] = "CNP_DSCP", [RCTL_CMP_CNP_PRIO] = "CNP_PRIO",
	[RCTL_CMP_TOS] = "TOS", [RCTL_CMP_MODE] = "MODE", [RCTL_CMP_GID] = "V2_GID",
	[RCTL_CMP_MTU] = "MTU", [RCTL_CMP_DCQCN] = "DCQCN", [RCTL_CMP_FW] = "FW",
	[RCTL_CMP_DRIVER] = "DRIVER", [RCTL_CMP_SW_PFC] = "SW_PFC",
	[RCTL_CMP_CONSUMERS] = "CONSUMERS", [RCTL_CMP_CONSUMER_TC] = "CONSUMER_TC",
};

static void print_not_applicable(const struct rctl_cmp_row *r)
{
	int i;

	out_arr_begin("not_applicable");
	for (i = 0; i < RCTL_CMP_N; i++)
		if (!r->v[i][0])
			out_str(OUT_JSON, NULL, NULL, rctl_cmp_keys[i]);
	out_arr_end();
}

static void print_rows(const struct rctl_cmp *c)
{
	struct out_col cols[5 + RCTL_CMP_N] = { { .key = "host", .title = "HOST" } };
	bool files = rctl_cmp_hosts_repeat(c);
	int i, n = 1;
	uint32_t k;

	if (files)	/* the same host name twice: say which file a row is */
		cols[n++] = (struct out_col){ .key = "file", .title = "FILE" };
	cols[n++] = (struct out_col){ .key = "target", .title = "PORT" };
	cols[n++] = (struct out_col){ .key = "switch", .title = "SWITCH" };
	cols[n++] = (struct out_col){ .key = "switch_port", .title = "SW_PORT" };
	for (i = 0; i < RCTL_CMP_N; i++)
		cols[n++] = (struct out_col){ .key = rctl_cmp_keys[i], .title = titles[i],
					      .flags = i == RCTL_CMP_MTU ? OUT_COL_RIGHT : 0 };
	out_table_begin("ports", cols, n);
	for (k = 0; k < c->n; k++) {
		const struct rctl_cmp_row *r = &c->rows[k];

		out_row_begin();
		out_str(OUT_ANY, "host", NULL, r->host);
		out_str(files ? OUT_ANY : OUT_JSON, "file", NULL, r->file);
		out_str(OUT_ANY, "target", NULL, r->target);
		out_str(OUT_ANY, "switch", NULL, r->sw);
		out_str(OUT_ANY, "switch_port", NULL, r->sw_port);
		out_str(OUT_JSON, "group", NULL, r->group);
		for (i = 0; i < RCTL_CMP_N; i++)
			cmd_cmp_value(NULL, i, r->v[i]);
		print_not_applicable(r);
		out_row_end();
	}
	out_table_end();
}

/* JSON names the inputs left out; text has said so on stderr as each was read. */
static void print_unreadable(const struct rctl_cmp *c)
{
	uint32_t i;

	out_arr_begin("unreadable");
	for (i = 0; i < c->n_bad; i++) {
		out_obj_begin(NULL);
		out_str(OUT_JSON, "file", NULL, c->bad[i].file);
		out_str(OUT_JSON, "message", NULL, c->bad[i].reason);
		out_obj_end();
	}
	out_arr_end();
}

/* "(most common 106 among mlx5 inbox ports)", "(no value is held by most ports)". */
static const char *group_fmt(const struct rctl_cmp_row *r, bool common)
{
	if (!r->group[0])
		return common ? ")\n" : " ports)\n";
	return common ? " among %s ports)\n" : " %s ports)\n";
}

/* --by switch: the outliers of each switch together, switches by name, rows in order. */
static const struct rctl_cmp *sort_cmp;

static int by_switch(const void *a, const void *b)
{
	const struct rctl_cmp_outlier *x = a, *y = b;
	int d = strcmp(sort_cmp->rows[x->row].sw, sort_cmp->rows[y->row].sw);

	if (d)
		return d;
	return x->row != y->row ? (x->row < y->row ? -1 : 1) : (int)x->col - (int)y->col;
}

/* "leaf-07: 3 outliers on 2 hosts" before the first outlier of each switch. */
static void switch_head(const struct rctl_cmp *c, const struct rctl_cmp_outlier *ol,
			uint32_t n, uint32_t i)
{
	uint32_t k, hosts = 0, count = 0;
	const char *sw = c->rows[ol[i].row].sw;

	for (k = i; k < n && !strcmp(c->rows[ol[k].row].sw, sw); k++) {
		count++;
		hosts += k == i || strcmp(c->rows[ol[k].row].host, c->rows[ol[k - 1].row].host);
	}
	out_text("  %s: %u outlier%s on %u host%s\n", strcmp(sw, "?") ? sw : "(switch unknown)",
		 count, count == 1 ? "" : "s", hosts, hosts == 1 ? "" : "s");
}

static void print_outliers(const struct rctl_cmp *c, struct rctl_cmp_outlier *ol,
			   uint32_t n)
{
	bool grouped = !strcmp(o.by, "switch");
	uint32_t i;

	if (grouped) {
		sort_cmp = c;
		qsort(ol, n, sizeof(*ol), by_switch);
	}
	out_arr_begin("outliers");
	for (i = 0; i < n; i++) {
		const struct rctl_cmp_row *r = &c->rows[ol[i].row];

		if (!i)
			out_text(grouped ? "\nOutliers by switch:\n" : "\nOutliers:\n");
		if (grouped && (!i || strcmp(r->sw, c->rows[ol[i - 1].row].sw)))
			switch_head(c, ol, n, i);
		out_obj_begin(NULL);
		out_str(OUT_JSON, "switch", NULL, r->sw);
		out_text(grouped ? "  " : "");
		out_str(OUT_ANY, "host", "  %s", r->host);
		out_str(OUT_ANY, "target", " %s:", r->target);
		out_str(OUT_ANY, "field", " %s", rctl_cmp_keys[ol[i].col]);
		out_text(" ");
		/* Under the column's own key, in its type: "pfc_prios": [0, 3]. */
		cmd_cmp_value("%s", ol[i].col, r->v[ol[i].col]);
		if (ol[i].common >= 0) {
			out_text(" (most common ");
			out_obj_begin("most_common");
			cmd_cmp_value("%s", ol[i].col, c->rows[ol[i].common].v[ol[i].col]);
			out_obj_end();
		} else
			out_null(OUT_ANY, "most_common", " (no value is held by most");
		out_str(OUT_ANY, "group", group_fmt(r, ol[i].common >= 0), r->group);
		out_obj_end();
	}
	out_arr_end();
}

static enum rctl_cmp_by by_of(const char *name)
{
	int i;

	for (i = 0; i < RCTL_CMP_BY_N && strcmp(rctl_cmp_by_names[i], name); i++)
		;
	return i < RCTL_CMP_BY_N ? i : RCTL_CMP_BY_DRIVER;
}

/*
 * A stream of snapshots, as "pdsh -w h1,h2 rocectl collect -O -" prints them
 * (the reader reach --matrix has, lib/json.c): every host a row, every host
 * pdsh names as failed left out. 1 when the file is no stream.
 */
static bool streams;	/* a stream was read: one file may hold the whole fleet */

static int read_stream(struct rctl_ctx *ctx, struct rctl_cmp *c, const char *path, int *ret)
{
	struct rctl_err e = { 0 };
	uint32_t i, bad = c->n_bad;
	char *text = NULL;

	if (cmd_read_text(path, &text, &e)) {
		free(text);
		return 1;	/* the snapshot reader says why, in its words */
	}
	if (rctl_cmp_is_stream(text))
		streams = true;
	else if (strcmp(path, "-")) {
		free(text);
		return 1;
	}
	/* standard input is read once: one snapshot there is a stream of one */
	*ret = rctl_cmp_add_stream(c, text, path);
	free(text);
	for (i = bad; i < c->n_bad; i++)
		cmd_warn(ctx, "%s (left out)", c->bad[i].reason);
	return 0;
}

/* Every file that reads becomes rows; one that does not is named and left out. */
static int read_all(struct rctl_ctx *ctx, struct rctl_cmp *c, int argc, char **argv)
{
	struct rctl_err e = { 0 };
	struct rctl_host h;
	int i, ret = 0;

	for (i = 0; i < argc && !ret; i++) {
		rctl_err_clear(&e);
		if (!read_stream(ctx, c, argv[i], &ret))
			continue;
		if (rctl_snapshot_load(argv[i], &h, &e)) {
			cmd_warn(ctx, "%s (left out)", e.msg);
			ret = rctl_cmp_add_bad(c, argv[i], e.msg);
			continue;
		}
		ret = rctl_cmp_add_host(c, &h, argv[i]);
		rctl_host_free(&h);
	}
	return ret;
}

static int do_compare(struct rctl_ctx *ctx, int argc, char **argv)
{
	struct rctl_cmp c = { .dscp = o.dscp, .by = by_of(o.by) };
	struct rctl_cmp_outlier *ol = NULL;
	uint32_t n_ol = 0;
	int ret = 0;

	if (read_all(ctx, &c, argc, argv) || rctl_cmp_outliers(&c, &ol, &n_ol))
		ret = cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "cannot compare: out of memory");
	else if (argc < 2 && !streams)	/* one file: a stream of several hosts, or a mistake */
		ret = cmd_errorf(ctx, RCTL_EXIT_USAGE, "compare: needs two or more snapshots, "
				 "got only '%s' (see 'rocectl compare --help')", argv[0]);
	if (!ret) {
		print_rows(&c);
		print_outliers(&c, ol, n_ol);
		print_unreadable(&c);
		out_u64(OUT_ANY, "outlier_count", "\n%" PRIu64 " outliers", n_ol);
		out_u64(OUT_ANY, "port_count", " among %" PRIu64 " RoCE ports", c.n);
		out_u64(OUT_ANY, "unreadable_count", c.n_bad ? "; inputs unreadable: %" PRIu64 "\n" : "\n",
			c.n_bad);
		ret = rctl_cmp_exit(&c, n_ol);
		out_u64(OUT_JSON, "exit_status", NULL, ret);
	}
	free(ol);
	rctl_cmp_free(&c);
	return ret;
}

const struct rctl_cmd cmd_compare = {
	.name = "compare",
	.summary = "compare snapshots of several hosts and flag outliers",
	.args = "FILE...",
	.min_args = 1,
	.max_args = -1,
	.arg_kind = ARG_FILE,
	.opts = compare_opts,
	.fn = do_compare,
	.flags = CMD_CHECK,
};
