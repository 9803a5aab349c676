// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rocectl compare FILE...: several hosts' snapshots side by side (docs/roce-facts.md, "GID").
 * Every RoCE port of every host is one row; in each column a value that
 * differs from the most common one is an outlier (on a tie, every value is).
 * A fleet collects with what it has (pdsh, Ansible) and compares once.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "rocectl/out.h"
#include "rocectl/rules.h"
#include "rocectl/snapshot.h"

static struct {
	int dscp;
} o = { .dscp = 26 };

static const struct rctl_opt compare_opts[] = {
	{ .name = "dscp", .type = OPT_INT, .arg = "DSCP", .dst = &o.dscp,
	  .min = 0, .max = 63, .help = "DSCP whose priority is shown (default 26)" },
	{ 0 }
};

enum col { C_TRUST, C_DSCP, C_MAP, C_PFC, C_CNP_DSCP, C_CNP_PRIO, C_TOS, C_MODE,
	   C_GID, C_MTU, C_DCQCN, C_N };

static const struct out_col cols[] = {
	{ .key = "host", .title = "HOST" },
	{ .key = "target", .title = "PORT" },
	{ .key = "trust", .title = "TRUST" },
	{ .key = "dscp_prio", .title = "DSCP>PRIO" },
	{ .key = "dscp_map", .title = "MAP" },
	{ .key = "pfc_prios", .title = "PFC" },
	{ .key = "cnp_dscp", .title = "CNP_DSCP" },
	{ .key = "cnp_prio", .title = "CNP_PRIO" },
	{ .key = "roce_tos", .title = "TOS" },
	{ .key = "roce_mode", .title = "MODE" },
	{ .key = "v2_gid_index", .title = "V2_GID" },
	{ .key = "active_mtu", .title = "MTU", .flags = OUT_COL_RIGHT },
	{ .key = "dcqcn", .title = "DCQCN" },
};

struct row {
	char host[RCTL_NAME_LEN];
	char target[RCTL_NAME_LEN * 2];
	char v[C_N][48];
};

static uint32_t fnv(const char *s, uint32_t hsh)
{
	for (; *s; s++)
		hsh = (hsh ^ (unsigned char)*s) * 16777619u;
	return hsh;
}

static void fill_dscp(struct row *r, const struct rctl_netdev *nd)
{
	char map[65];
	uint32_t i, d;
	bool any = false;

	memset(map, '-', 64);
	map[64] = '\0';
	for (i = 0; nd->app.st.ok && i < nd->app.n_apps; i++) {
		const struct rctl_app *a = &nd->app.apps[i];

		if (a->selector != RCTL_APP_SEL_DSCP || a->protocol > 63)
			continue;
		d = a->protocol;
		map[d] = map[d] == '-' ? (char)('0' + (a->priority & 7)) : '*';
		any = true;
	}
	snprintf(r->v[C_TRUST], 48, "%s", !nd->app.st.ok ? "?" : any ? "dscp" : "pcp");
	snprintf(r->v[C_DSCP], 48, "%c", nd->app.st.ok ? map[o.dscp] : '?');
	snprintf(r->v[C_MAP], 48, nd->app.st.ok ? "%08x" : "?", fnv(map, 2166136261u));
}

static void fill_cc(struct row *r, const struct rctl_netdev *nd)
{
	uint32_t i, hsh = 2166136261u;
	char kv[96];
	uint64_t v;

	snprintf(r->v[C_CNP_DSCP], 48, "?");
	snprintf(r->v[C_CNP_PRIO], 48, "?");
	snprintf(r->v[C_DCQCN], 48, "?");
	if (!nd->cc.st.ok)
		return;
	if (rctl_cc_get(&nd->cc, "np_cnp_dscp", &v))
		snprintf(r->v[C_CNP_DSCP], 48, "%" PRIu64, v);
	if (rctl_cc_get(&nd->cc, "np_cnp_prio", &v))
		snprintf(r->v[C_CNP_PRIO], 48, "%" PRIu64, v);
	/* Parameters in the order of the collector: the same for one driver. */
	for (i = 0; i < nd->cc.n_params; i++) {
		snprintf(kv, sizeof(kv), "%s=%" PRIu64 ";", nd->cc.params[i].name,
			 nd->cc.params[i].value);
		hsh = fnv(kv, hsh);
	}
	snprintf(r->v[C_DCQCN], 48, "%08x", hsh);
}

static void fill_row(struct row *r, const struct rctl_host *h, const struct rctl_target *t)
{
	const struct rctl_cm_cfg *cm = &t->port->cm;
	uint32_t i;
	char buf[24];

	snprintf(r->host, sizeof(r->host), "%s", h->hostname);
	snprintf(r->target, sizeof(r->target), "%s", t->name);
	for (i = 0; i < C_N; i++)
		snprintf(r->v[i], 48, "?");
	snprintf(r->v[C_MTU], 48, "%u", t->port->active_mtu);
	for (i = 0; i < t->port->n_gids; i++)
		if (!strcmp(t->port->gids[i].type, "RoCE v2") &&
		    strchr(t->port->gids[i].ip, '.')) {
			snprintf(r->v[C_GID], 48, "%u", t->port->gids[i].index);
			break;
		}
	if (cm->st.ok) {
		snprintf(r->v[C_TOS], 48, "%u", cm->roce_tos);
		snprintf(r->v[C_MODE], 48, "%s", strcmp(cm->roce_mode, "RoCE v2") ? "v1" : "v2");
	}
	if (!t->nd)
		return;
	if (t->nd->pfc.st.ok)
		snprintf(r->v[C_PFC], 48, "%s", rctl_prio_list(t->nd->pfc.pfc_en, buf, sizeof(buf)));
	fill_dscp(r, t->nd);
	fill_cc(r, t->nd);
}

/* Append the RoCE ports of one host as rows. */
static int add_host(const struct rctl_host *h, struct row **rows, uint32_t *n)
{
	struct rctl_judge j = { .h = h };
	struct rctl_target t;
	uint32_t di = 0, pi = 0;
	struct row *r;

	while (rctl_target_next(&j, &t, &di, &pi)) {
		r = rctl_arr_push(rows, n, sizeof(*r));
		if (!r)
			return -1;
		fill_row(r, h, &t);
	}
	return 0;
}

/* How many rows share row k's value in column c. */
static uint32_t same(const struct row *rows, uint32_t n, uint32_t k, int c)
{
	uint32_t i, m = 0;

	for (i = 0; i < n; i++)
		m += !strcmp(rows[i].v[c], rows[k].v[c]);
	return m;
}

/* An outlier: fewer rows share its value than share the most common one. */
static bool outlier(const struct row *rows, uint32_t n, uint32_t k, int c, uint32_t *best)
{
	uint32_t i, m, top = 0;

	for (i = 0; i < n; i++) {
		m = same(rows, n, i, c);
		if (m > top) {
			top = m;
			*best = i;
		}
	}
	return top < n && (same(rows, n, k, c) < top || top * 2 <= n);
}

static uint32_t print_outliers(const struct row *rows, uint32_t n)
{
	uint32_t k, best = 0, found = 0;
	int c;

	out_arr_begin("outliers");
	for (k = 0; k < n; k++)
		for (c = 0; c < C_N; c++) {
			if (!outlier(rows, n, k, c, &best))
				continue;
			if (!found++)
				out_text("\nOutliers:\n");
			out_obj_begin(NULL);
			out_str(OUT_ANY, "host", "  %s", rows[k].host);
			out_str(OUT_ANY, "target", " %s:", rows[k].target);
			out_str(OUT_ANY, "field", " %s", cols[c + 2].key);
			out_str(OUT_ANY, "value", " %s", rows[k].v[c]);
			out_str(OUT_ANY, "most_common", " (most common %s)\n",
				rows[best].v[c]);
			out_obj_end();
		}
	out_arr_end();
	return found;
}

static void print_rows(const struct row *rows, uint32_t n)
{
	uint32_t k;
	int c;

	out_table_begin("ports", cols, sizeof(cols) / sizeof(cols[0]));
	for (k = 0; k < n; k++) {
		out_row_begin();
		out_str(OUT_ANY, "host", NULL, rows[k].host);
		out_str(OUT_ANY, "target", NULL, rows[k].target);
		for (c = 0; c < C_N; c++)
			out_str(OUT_ANY, cols[c + 2].key, NULL, rows[k].v[c]);
		out_row_end();
	}
	out_table_end();
}

static int do_compare(struct rctl_ctx *ctx, int argc, char **argv)
{
	struct rctl_err e = { 0 };
	struct row *rows = NULL;
	struct rctl_host h;
	uint32_t n = 0, bad;
	int i, ret = 0;

	for (i = 0; i < argc && !ret; i++) {
		if (rctl_snapshot_load(argv[i], &h, &e)) {
			ret = cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
			break;
		}
		if (add_host(&h, &rows, &n))
			ret = cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "cannot compare: out of memory");
		rctl_host_free(&h);
	}
	if (!ret) {
		print_rows(rows, n);
		bad = print_outliers(rows, n);
		out_u64(OUT_ANY, "outlier_count", "\n%" PRIu64 " outliers", bad);
		out_u64(OUT_ANY, "ports", " among %" PRIu64 " RoCE ports\n", n);
		ret = bad ? RCTL_EXIT_WARN : RCTL_EXIT_OK;
		out_u64(OUT_JSON, "exit_status", NULL, ret);
	}
	free(rows);
	return ret;
}

const struct rctl_cmd cmd_compare = {
	.name = "compare",
	.summary = "compare snapshots of several hosts and flag outliers",
	.args = "FILE...",
	.min_args = 2,
	.max_args = -1,
	.arg_kind = ARG_FILE,
	.opts = compare_opts,
	.fn = do_compare,
	.flags = CMD_CHECK,
};
