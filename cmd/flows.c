// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rocectl flows: who uses RDMA on this host, on which port and netdev, at
 * which traffic class (and where the host shows it), and whether that class
 * lands on a priority with PFC; what to change in the program's own terms
 * when not. The verdicts are check's traffic area (lib/rules_traffic.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "rocectl/collect.h"
#include "rocectl/intent.h"
#include "rocectl/out.h"
#include "rocectl/rules.h"

static struct {
	const char *dev;
} o;

static const struct rctl_opt flows_opts[] = {
	CMD_DEV_OPT(o.dev),
	{ 0 }
};

static const struct out_col consumer_cols[] = {
	{ .key = "owner", .title = "OWNER" },
	{ .key = "pid", .title = "PID", .flags = OUT_COL_RIGHT },
	{ .key = "qps", .title = "QPS", .flags = OUT_COL_RIGHT },
	{ .key = "cm_ids", .title = "CM_IDS", .flags = OUT_COL_RIGHT },
	{ .key = "app", .title = "APP" },
	{ .key = "tos", .title = "TOS", .flags = OUT_COL_RIGHT },
	{ .key = "prio", .title = "PRIO", .flags = OUT_COL_RIGHT },
	{ .key = "status", .title = "VERDICT" },
	{ .key = "source", .title = "SOURCE" },
};

static const struct out_col entry_cols[] = {
	{ .key = "kind", .title = "KIND" },
	{ .key = "port", .title = "PORT", .flags = OUT_COL_RIGHT },
	{ .key = "lqpn", .title = "LQPN", .flags = OUT_COL_RIGHT },
	{ .key = "qp_type", .title = "TYPE" },
	{ .key = "state", .title = "STATE" },
	{ .key = "port_space", .title = "PS" },
	{ .key = "src", .title = "SRC" },
	{ .key = "dst", .title = "DST" },
	{ .key = "owner", .title = "OWNER" },
};

static void u64_or_null(const char *key, bool known, uint64_t v)
{
	if (known)
		out_u64(OUT_ANY, key, NULL, v);
	else
		out_null(OUT_ANY, key, NULL);
}

/* A consumer of the port with its verdict, computed once for its row and its advice. */
struct judged {
	const struct rctl_consumer *c;
	struct rctl_flow_class fc;
	enum rctl_status st;
	int prio;
};

static void print_consumer(const struct judged *v)
{
	const struct rctl_flow_class *fc = &v->fc;
	const struct rctl_consumer *c = v->c;

	out_row_begin();
	out_str(OUT_ANY, "owner", NULL, c->name);
	u64_or_null("pid", c->pid, c->pid);
	out_u64(OUT_ANY, "qps", NULL, c->n_qps);
	out_u64(OUT_ANY, "cm_ids", NULL, c->n_cm_ids);
	out_str(OUT_ANY, "app", NULL, fc->app);
	u64_or_null("tos", fc->tos >= 0, (uint64_t)fc->tos);
	u64_or_null("dscp", fc->tos >= 0, (uint64_t)fc->tos >> 2);
	u64_or_null("prio", v->prio >= 0, (uint64_t)v->prio);
	out_str(OUT_ANY, "status", NULL, rctl_status_name(v->st));
	out_str(OUT_ANY, "source", NULL, fc->source[0] ? fc->source : fc->why);
	out_str(OUT_JSON, "reason", NULL, v->st == RCTL_UNKNOWN ? fc->why : NULL);
	out_str(OUT_JSON, "fix", NULL, v->st != RCTL_PASS && fc->fix[0] ? fc->fix : NULL);
	out_str(OUT_JSON, "before_tune", NULL, fc->before[0] ? fc->before : NULL);
	out_row_end();
}

/* Under the table, in text: what to change, or why the host cannot tell. */
static void print_advice(const struct judged *v)
{
	if (v->st == RCTL_UNKNOWN && v->fc.source[0])
		out_text("  %s: %s\n", v->c->name, v->fc.why);
	if (v->st != RCTL_PASS && v->fc.fix[0])
		out_text("  %s: fix: %s\n", v->c->name, v->fc.fix);
}

/*
 * The change of the port's default ToS tune applied (its newest applied
 * state file), and in text, when some are live still, the connections it
 * did not reach.
 */
static void print_tune_tos(const struct rctl_host *h, const struct rctl_device *d,
			   const struct rctl_port *p)
{
	const struct rctl_tos_change *t = rctl_res_tos_change(&h->res, d->name, p->port);
	char when[32];

	if (!t) {
		out_null(OUT_JSON, "tune_tos_change", NULL);
		return;
	}
	rctl_utc_time(t->time, when, sizeof(when));
	out_obj_begin("tune_tos_change");
	out_u64(OUT_JSON, "time", NULL, t->time);
	out_u64(OUT_JSON, "old_tos", NULL, t->old_tos);
	out_u64(OUT_JSON, "new_tos", NULL, t->new_tos);
	out_u64(OUT_JSON, "connections_before", NULL, t->n_before);
	out_u64(OUT_JSON, "still_live", NULL, t->n_live);
	out_str(OUT_JSON, "state_file", NULL, t->state);
	out_obj_end();
	if (t->n_live)
		out_text("  %u rdma_cm connection%s made before tune changed the default ToS at %s; "
			 "they keep ToS %u until they reconnect\n", t->n_live,
			 t->n_live == 1 ? " was" : "s were", when, t->old_tos);
}

/* The consumers of port p judged, into a malloc'ed array; -ENOMEM. */
static int judge_port(const struct rctl_host *h, const struct rctl_intent *in,
		      const struct rctl_device *d, const struct rctl_port *p,
		      const struct rctl_netdev *nd, struct judged **out, uint32_t *n)
{
	const struct rctl_rdma_res *r = &h->res;
	struct judged *v;
	uint32_t i;

	*n = 0;
	*out = v = calloc(r->n_consumers ? r->n_consumers : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < r->n_consumers; i++) {
		if (!rctl_consumer_judged(&r->consumers[i]) ||
		    !rctl_consumer_on(r, &r->consumers[i], d->name, p->port))
			continue;
		v[*n].c = &r->consumers[i];
		v[*n].st = rctl_consumer_verdict(h, in, v[*n].c, d, p, nd, &v[*n].fc,
						 &v[*n].prio);
		++*n;
	}
	return 0;
}

/* "mlx5_0/1 (eth2): trust dscp, pfc 3, rdma_cm default tos 106" and its consumers. */
static int print_port(const struct rctl_host *h, const struct rctl_intent *in,
		      const struct rctl_device *d, const struct rctl_port *p)
{
	const struct rctl_netdev *nd = rctl_host_netdev(h, p->netdev);
	bool prios[8], trust = false;
	struct judged *v;
	uint32_t i, n;
	char buf[24];

	out_obj_begin(NULL);
	out_str(OUT_ANY, "device", "%s", d->name);
	out_u64(OUT_ANY, "port", "/%" PRIu64, p->port);
	out_str(OUT_ANY, "netdev", " (%s):", p->netdev[0] ? p->netdev : NULL);
	if (nd && nd->app.st.ok)
		rctl_dscp_prios(nd, in->dscp, prios, &trust);
	out_str(OUT_ANY, "trust", " trust %s", nd && nd->app.st.ok ? trust ? "dscp" : "pcp" : NULL);
	if (nd && nd->pfc.st.ok) {
		out_arr_begin("pfc_prios");
		for (i = 0; i < 8; i++)
			if (nd->pfc.pfc_en[i])
				out_u64(OUT_JSON, NULL, NULL, i);
		out_arr_end();
		out_text(", pfc %s", rctl_prio_list(nd->pfc.pfc_en, buf, sizeof(buf)));
	} else {
		out_null(OUT_ANY, "pfc_prios", ", pfc %s");
	}
	if (p->cm.st.ok)
		out_u64(OUT_ANY, "rdma_cm_tos", ", rdma_cm default tos %" PRIu64 "\n",
			p->cm.roce_tos);
	else
		out_null(OUT_ANY, "rdma_cm_tos", ", rdma_cm default tos %s\n");
	if (judge_port(h, in, d, p, nd, &v, &n))
		return -ENOMEM;
	out_table_indent(2);
	out_table_begin("consumers", consumer_cols, 9);
	for (i = 0; i < n; i++)
		print_consumer(&v[i]);
	out_table_end();
	for (i = 0; i < n; i++)
		print_advice(&v[i]);
	print_tune_tos(h, d, p);
	out_obj_end();
	free(v);
	return 0;
}

/* Whether --dev names entry e: its port, or its device when it has no port yet. */
static bool entry_match(const struct rctl_host *h, const struct rctl_res_entry *e,
			const char *filter)
{
	const struct rctl_device *d = rctl_host_dev(h, e->dev);
	uint32_t k;

	if (!filter)
		return true;
	if (!d)
		return false;
	for (k = 0; k < d->n_ports; k++)
		if (d->ports[k].port == e->port)
			return rctl_port_match(filter, d, &d->ports[k]);
	return !strcmp(filter, d->name);
}

static void print_entries(const struct rctl_rdma_res *r, const char *filter,
			  const struct rctl_host *h)
{
	uint32_t i;

	out_text("\n");
	out_table_begin("entries", entry_cols, 9);
	for (i = 0; i < r->n_list; i++) {
		const struct rctl_res_entry *e = &r->list[i];

		if (!entry_match(h, e, filter))
			continue;
		out_row_begin();
		out_str(OUT_ANY, "kind", NULL, e->kind);
		out_str(OUT_JSON, "device", NULL, e->dev);
		u64_or_null("port", e->port, e->port);
		u64_or_null("lqpn", e->lqpn, e->lqpn);
		out_str(OUT_ANY, "qp_type", NULL, e->qp_type);
		out_str(OUT_ANY, "state", NULL, e->state);
		out_str(OUT_ANY, "port_space", NULL, e->ps);
		out_str(OUT_ANY, "src", NULL, e->src);
		out_str(OUT_ANY, "dst", NULL, e->dst);
		out_str(OUT_ANY, "owner", NULL, e->owner);
		u64_or_null("pid", e->pid, e->pid);
		/* a cm_id's restrack id (RES_CM_IDN), what tune's state keeps of it */
		if (strcmp(e->kind, "cm_id"))
			out_null(OUT_JSON, "id", NULL);
		else
			out_u64(OUT_JSON, "id", NULL, e->id);
		out_bool(OUT_JSON, "made_before_tune", NULL, e->made_before_tune);
		out_row_end();
	}
	out_table_end();
}

static int print_flows(struct rctl_ctx *ctx, const struct rctl_host *h,
		       const struct rctl_intent *in, const char *filter)
{
	const struct rctl_rdma_res *r = &h->res;
	uint32_t i, k;
	int ret = 0;

	out_arr_begin("ports");
	for (i = 0; !ret && i < h->n_devs; i++)
		for (k = 0; !ret && k < h->devs[i].n_ports; k++)
			if (rctl_port_match(filter, &h->devs[i], &h->devs[i].ports[k]) &&
			    !strcmp(h->devs[i].ports[k].link_layer, "Ethernet"))
				ret = print_port(h, in, &h->devs[i], &h->devs[i].ports[k]);
	out_arr_end();
	if (ret)
		return ret;
	cmd_nvme_print(h, 2);	/* the kernel's NVMe-oF controllers, when the host has some */
	out_u64(OUT_ANY, "qps", "\n%" PRIu64 " QPs", r->n_qps);
	out_u64(OUT_ANY, "cm_ids", " and %" PRIu64 " rdma_cm ids on this host", r->n_cm_ids);
	out_u64(OUT_ANY, "unlisted", "; %" PRIu64 " beyond the list", r->n_unlisted);
	out_text("%s\n", ctx->verbose ? "" : " (-v lists them)");
	if (ctx->verbose)
		print_entries(r, filter, h);
	return 0;
}

static int do_flows(struct rctl_ctx *ctx, int argc, char **argv)
{
	struct rctl_err e = { 0 };
	struct rctl_intent in;
	const char *filter;
	struct rctl_host h;
	int ret;

	ret = cmd_dev_arg(ctx, o.dev, argc, argv, &filter);
	if (ret)
		return ret;
	if (rctl_intent_resolve(&in, &(struct rctl_intent_args){ 0 }, &e))
		return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	if (cmd_load_host(ctx, 0, &h, &e))
		return cmd_error(ctx, RCTL_EXIT_UNKNOWN, &e);
	ret = cmd_check_filter(ctx, &h, filter);
	if (!ret && !h.res.st.ok)
		ret = cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "cannot read the RDMA consumers: %s",
				 h.res.st.err ? h.res.st.reason : "not in this snapshot");
	if (!ret && print_flows(ctx, &h, &in, filter))
		ret = cmd_errorf(ctx, RCTL_EXIT_UNKNOWN, "cannot show the RDMA consumers: %s",
				 strerror(ENOMEM));
	rctl_host_free(&h);
	return ret;
}

const struct rctl_cmd cmd_flows = {
	.name = "flows",
	.summary = "show who uses RDMA on which port, at which traffic class, with PFC or not",
	.args = "[DEV[/PORT] | NETDEV]",
	.max_args = 1,
	.arg_kind = ARG_DEV,
	.opts = flows_opts,
	.fn = do_flows,
	.host = RCTL_COLLECT_INVENTORY | RCTL_COLLECT_QOS | RCTL_COLLECT_CONSUMERS |
		RCTL_COLLECT_NVME,
	.host_input = true,
};
