// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Traffic rules: whether the RDMA consumers of a port send at a traffic
 * class that lands on a priority with PFC (docs/roce-facts.md, "traffic").
 * The host's settings can be right while a program sends at DSCP 0: NCCL
 * without NCCL_IB_TC, Ceph's ms_async_rdma_dscp read as a DSCP, or a kernel
 * initiator connected before the rdma_cm default changed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/rules.h"

static const char *setting(const struct rctl_tc_setting *s, uint32_t n, const char *name,
			   const char *dev, uint32_t port, const struct rctl_tc_setting **where)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(s[i].name, name) && (!dev || (!strcmp(s[i].dev, dev) &&
							  s[i].port == port))) {
			if (where)
				*where = &s[i];
			return s[i].value;
		}
	return NULL;
}

/* A ToS byte 0..255 from a setting's text; -1 when it is none. */
static int tos_num(const char *v)
{
	char *end;
	long n;

	if (!v || !*v)
		return -1;
	n = strtol(v, &end, 0);
	return *end || n < 0 || n > 255 ? -1 : (int)n;
}

static bool has_prefix_var(const struct rctl_consumer *c, const char *pfx)
{
	uint32_t i;

	for (i = 0; i < c->n_vars; i++)
		if (!strncmp(c->vars[i].name, pfx, strlen(pfx)))
			return true;
	return false;
}

/*
 * NCCL: the environment, then its files (initEnvFunc(), src/misc/param.cc):
 * NCCL_CONF_FILE or ~/.nccl.conf, and /etc/nccl.conf. Which of two files
 * wins changed between NCCL versions: two that disagree are unknown.
 */
static void nccl_class(const struct rctl_rdma_res *r, const struct rctl_consumer *c,
		       const struct rctl_intent *in, struct rctl_flow_class *fc)
{
	const struct rctl_tc_setting *w = NULL, *u = NULL, *g = NULL;
	const char *v = setting(c->vars, c->n_vars, "NCCL_IB_TC", NULL, 0, &w);
	uint32_t i;

	fc->app = "NCCL";
	snprintf(fc->fix, sizeof(fc->fix), "NCCL_IB_TC=%d in the environment of '%s'", in->tos,
		 c->name);
	for (i = 0; !v && i < r->n_conf; i++) {
		if (strcmp(r->conf[i].name, "NCCL_IB_TC"))
			continue;
		if (!strcmp(r->conf[i].where, "/etc/nccl.conf"))
			g = &r->conf[i];
		else if (!u)
			u = &r->conf[i];
	}
	if (!v && u && g && strcmp(u->value, g->value)) {
		fc->tos = -1;
		fc->from = "nccl.conf";
		snprintf(fc->why, sizeof(fc->why), "NCCL_IB_TC is %s in %s and %s in /etc/nccl.conf: "
			 "which wins depends on the NCCL version", u->value, u->where, g->value);
		return;
	}
	if (!v && (u || g)) {
		w = u ? u : g;
		v = w->value;
	}
	if (v) {
		fc->tos = tos_num(v);
		fc->from = w->source;
		snprintf(fc->source, sizeof(fc->source), "NCCL_IB_TC=%s (%s)", v, w->where);
		if (fc->tos < 0)
			snprintf(fc->why, sizeof(fc->why), "NCCL_IB_TC '%s' is not a ToS byte", v);
		return;
	}
	/* NCCL_PARAM(IbTc, "IB_TC", 0) (src/transport/net_ib.cc): unset is traffic class 0 */
	fc->tos = 0;
	fc->from = "default";
	snprintf(fc->source, sizeof(fc->source), "NCCL_IB_TC unset (NCCL's default 0)");
}

/* UCX: UCX_IB_TRAFFIC_CLASS, "auto" is 106 on RoCE v2 (src/uct/ib/base/ib_iface.c). */
static void ucx_class(const struct rctl_consumer *c, const struct rctl_intent *in,
		      struct rctl_flow_class *fc)
{
	const char *v = setting(c->vars, c->n_vars, "UCX_IB_TRAFFIC_CLASS", NULL, 0, NULL);

	fc->app = "UCX";
	snprintf(fc->fix, sizeof(fc->fix), "UCX_IB_TRAFFIC_CLASS=%d in the environment of '%s'",
		 in->tos, c->name);
	if (!v || !strcmp(v, "auto")) {
		fc->tos = 106;
		fc->from = "default";
		snprintf(fc->source, sizeof(fc->source), "UCX_IB_TRAFFIC_CLASS %s (UCX: 106 on RoCE v2)",
			 v ? "auto" : "unset");
		return;
	}
	fc->tos = tos_num(v);
	fc->from = "environ";
	snprintf(fc->source, sizeof(fc->source), "UCX_IB_TRAFFIC_CLASS=%s (/proc/%u/environ)", v,
		 c->pid);
	if (fc->tos < 0)
		snprintf(fc->why, sizeof(fc->why), "UCX_IB_TRAFFIC_CLASS '%s' is not a ToS byte", v);
}

/*
 * Ceph: ms_async_rdma_dscp goes into the GRH traffic_class as it is
 * (src/msg/async/rdma/Infiniband.cc): it is the ToS byte, not a DSCP, so
 * "26" sends DSCP 6. Its default, 96, is DSCP 24.
 */
static void ceph_class(const struct rctl_rdma_res *r, const struct rctl_intent *in,
		       struct rctl_flow_class *fc)
{
	const struct rctl_tc_setting *w = NULL;
	const char *v = setting(r->conf, r->n_conf, "ms_async_rdma_dscp", NULL, 0, &w);

	fc->app = "Ceph";
	snprintf(fc->fix, sizeof(fc->fix),
		 "ms_async_rdma_dscp = %d in /etc/ceph/ceph.conf (a ToS byte: DSCP %d << 2)",
		 in->dscp << 2, in->dscp);
	if (!v) {
		fc->tos = -1;
		fc->from = "default";
		snprintf(fc->why, sizeof(fc->why),
			 "ms_async_rdma_dscp is not in ceph.conf: 96 (DSCP 24) unless the monitors' configuration sets it");
		return;
	}
	fc->tos = tos_num(v);
	fc->from = "ceph.conf";
	snprintf(fc->source, sizeof(fc->source), "ms_async_rdma_dscp = %s (%s; a ToS byte)", v,
		 w->where);
	if (fc->tos < 0)
		snprintf(fc->why, sizeof(fc->why), "ms_async_rdma_dscp '%s' is not a number", v);
}

/* c's rdma_cm connections on DEV/PORT that tune's newest applied state recorded. */
static uint32_t made_before(const struct rctl_rdma_res *r, const struct rctl_consumer *c,
			    const char *dev, uint32_t port)
{
	uint32_t i, n = 0;

	for (i = 0; i < r->n_list; i++)
		n += r->list[i].made_before_tune && r->list[i].pid == c->pid &&
		     r->list[i].port == port && !strcmp(r->list[i].dev, dev) &&
		     (c->pid || !strcmp(r->list[i].owner, c->name));
	return n;
}

/*
 * "2 rdma_cm connections were made before tune changed the default ToS at
 * TIME; they keep ToS 0 until they reconnect", or nothing.
 */
static void before_tune(const struct rctl_rdma_res *r, const struct rctl_consumer *c,
			const char *dev, uint32_t port, char *buf, size_t len)
{
	const struct rctl_tos_change *t = rctl_res_tos_change(r, dev, port);
	uint32_t n = made_before(r, c, dev, port);
	char when[32];

	buf[0] = '\0';
	if (t && n)
		snprintf(buf, len, "%u rdma_cm connection%s made before tune changed the default "
			 "ToS at %s; they keep ToS %u until they reconnect", n,
			 n == 1 ? " was" : "s were", rctl_utc_time(t->time, when, sizeof(when)),
			 t->old_tos);
}

static void rdma_cm_class(const struct rctl_rdma_res *r, const struct rctl_consumer *c,
			  const struct rctl_device *d, const struct rctl_port *p,
			  const struct rctl_intent *in, struct rctl_flow_class *fc)
{
	bool kernel = !c->pid;
	char dflt[48];

	fc->app = "rdma_cm";
	fc->from = "default";
	fc->tos = -1;
	if (p->cm.st.ok)
		snprintf(dflt, sizeof(dflt), "%u (DSCP %u)", p->cm.roce_tos, p->cm.roce_tos >> 2);
	else
		snprintf(dflt, sizeof(dflt), "unknown");
	before_tune(r, c, d->name, p->port, fc->before, sizeof(fc->before));
	snprintf(fc->why, sizeof(fc->why),
		 "the kernel does not report a connection's ToS: the rdma_cm default %s unless %s",
		 dflt, kernel ? "it was connected with its own (nvme connect --tos)" :
				"the program sets RDMA_OPTION_ID_TOS");
	if (kernel && !strcmp(c->name, "[nvme_rdma]"))
		snprintf(fc->fix, sizeof(fc->fix), "nvme connect -t rdma ... --tos %d", in->tos);
}

/* The traffic class consumer c sends at on port p, and where that was read. */
void rctl_consumer_class(const struct rctl_host *h, const struct rctl_intent *in,
			 const struct rctl_consumer *c, const struct rctl_device *d,
			 const struct rctl_port *p, struct rctl_flow_class *fc)
{
	const struct rctl_rdma_res *r = &h->res;
	const struct rctl_tc_setting *w = NULL;
	const char *g = setting(r->conf, r->n_conf, "traffic_class", d->name, p->port, &w);

	memset(fc, 0, sizeof(*fc));
	fc->tos = -1;
	fc->from = "-";
	if (g && tos_num(g) >= 0) {
		/* MLNX_OFED's global tclass replaces every QP's traffic class on the port */
		fc->app = "MLNX_OFED";
		fc->from = "sysfs";
		fc->tos = tos_num(g);
		snprintf(fc->source, sizeof(fc->source), "Global tclass=%s (%s)", g, w->where);
		snprintf(fc->fix, sizeof(fc->fix), "echo %d > %s", in->tos, w->where);
		return;
	}
	g = setting(r->conf, r->n_conf, "traffic_class_rules", d->name, p->port, &w);
	if (g) {
		/* without a global one, each rule sets the class of the QPs to its peers */
		fc->app = "MLNX_OFED";
		fc->from = "sysfs";
		snprintf(fc->why, sizeof(fc->why),
			 "%s per-destination tclass rules in %s set the class of the QPs to the "
			 "peers they match: which apply is not known", g, w->where);
		snprintf(fc->fix, sizeof(fc->fix), "echo %d > %s", in->tos, w->where);
		return;
	}
	if (c->pid && has_prefix_var(c, "NCCL_")) {
		nccl_class(r, c, in, fc);
		return;
	}
	if (c->pid && has_prefix_var(c, "UCX_")) {
		ucx_class(c, in, fc);
		return;
	}
	if (c->pid && !strncmp(c->name, "ceph-", 5)) {
		ceph_class(r, in, fc);
		return;
	}
	if (c->n_cm_ids) {
		rdma_cm_class(r, c, d, p, in, fc);
		return;
	}
	fc->app = "verbs";
	if (c->pid && !c->env.ok && c->env.err)
		snprintf(fc->why, sizeof(fc->why), "its environment is unreadable: %s", c->env.reason);
	else
		snprintf(fc->why, sizeof(fc->why),
			 "a verbs program: the traffic class it sets in its QPs is not visible to the host");
}

/*
 * The priority a ToS lands on at netdev nd, -1 when the host cannot tell
 * (why says so). The map is the one the dscp rules judge (rctl_dscp_prios()).
 */
int rctl_tos_prio(const struct rctl_host *h, const struct rctl_port *p,
		  const struct rctl_netdev *nd, int tos, char *why, size_t len)
{
	int dscp = tos >> 2, n, i;
	bool prios[8], trust;

	n = rctl_dscp_prios(nd, dscp, prios, &trust);
	if (!trust) {
		if (rctl_roce_untagged(h, p))
			return 0;	/* trust PCP, untagged: the default priority */
		snprintf(why, len, "RoCE runs on a VLAN: its egress-qos-map gives the priority");
		return -1;
	}
	if (n == 1)
		for (i = 0; i < 8; i++)
			if (prios[i])
				return i;
	if (n > 1) {
		snprintf(why, len, "DSCP %d is mapped to more than one priority", dscp);
		return -1;
	}
	/* not in the map: the default map puts DSCP 0..7 on priority 0 */
	if (dscp < 8)
		return 0;
	snprintf(why, len, "DSCP %d is not in the DSCP map", dscp);
	return -1;
}

/* Whether consumer c holds resources on port p of device d. */
bool rctl_consumer_on(const struct rctl_rdma_res *r, const struct rctl_consumer *c,
		      const char *dev, uint32_t port)
{
	uint32_t i;

	for (i = 0; i < r->n_counts; i++)
		if (r->counts[i].pid == c->pid && r->counts[i].port == port &&
		    !strcmp(r->counts[i].dev, dev) &&
		    (c->pid || !strcmp(r->counts[i].owner, c->name)))
			return true;
	return false;
}

/*
 * The consumers a traffic rule judges: processes, and kernel modules with
 * rdma_cm ids (the ULPs); the kernel's own QPs (GSI, a driver's) carry no
 * application traffic.
 */
bool rctl_consumer_judged(const struct rctl_consumer *c)
{
	return c->pid || c->n_cm_ids;
}

enum rctl_status rctl_consumer_verdict(const struct rctl_host *h, const struct rctl_intent *in,
				       const struct rctl_consumer *c, const struct rctl_device *d,
				       const struct rctl_port *p, const struct rctl_netdev *nd,
				       struct rctl_flow_class *fc, int *prio)
{
	rctl_consumer_class(h, in, c, d, p, fc);
	*prio = -1;
	if (fc->tos < 0)
		return RCTL_UNKNOWN;
	if (!nd || !nd->pfc.st.ok) {
		snprintf(fc->why, sizeof(fc->why), "the PFC of '%s' is unknown",
			 nd ? nd->name : p->netdev);
		return RCTL_UNKNOWN;
	}
	*prio = rctl_tos_prio(h, p, nd, fc->tos, fc->why, sizeof(fc->why));
	if (*prio < 0)
		return RCTL_UNKNOWN;
	return nd->pfc.pfc_en[*prio] ? RCTL_PASS : RCTL_FAIL;
}

static void judge_one(struct rctl_judge *j, const struct rctl_target *t,
		      const struct rctl_consumer *c)
{
	struct rctl_flow_class fc;
	char exp[64], got[96], ev[RCTL_FIELD_LEN * 2];
	enum rctl_status st;
	int prio;

	st = rctl_consumer_verdict(j->h, j->in, c, t->dev, t->port, t->nd, &fc, &prio);
	snprintf(exp, sizeof(exp), "a priority with PFC (prio %d, DSCP %d)", j->in->prio,
		 j->in->dscp);
	if (fc.tos < 0) {
		snprintf(ev, sizeof(ev), "%s%s%s", fc.why, fc.before[0] ? "; " : "", fc.before);
		rctl_say(j, &(struct rctl_say){ .status = RCTL_UNKNOWN, .target = t->name,
						.expected = exp, .observed = "unknown",
						.evidence = ev, .fix = fc.fix },
			 "%s (%s): traffic class unknown: %s", c->name, fc.app, fc.why);
		return;
	}
	if (prio < 0)
		snprintf(got, sizeof(got), "tos %d (DSCP %d)", fc.tos, fc.tos >> 2);
	else
		snprintf(got, sizeof(got), "tos %d (DSCP %d) -> prio %d", fc.tos, fc.tos >> 2,
			 prio);
	if (st == RCTL_UNKNOWN) {
		rctl_say(j, &(struct rctl_say){ .status = RCTL_UNKNOWN, .target = t->name,
						.expected = exp, .observed = got,
						.evidence = fc.source, .fix = fc.fix },
			 "%s (%s) sends DSCP %d: %s", c->name, fc.app, fc.tos >> 2, fc.why);
	} else if (st == RCTL_PASS) {
		rctl_pass_ev(j, t, exp, got, fc.source, "%s (%s) sends DSCP %d on prio %d, with PFC",
			     c->name, fc.app, fc.tos >> 2, prio);
	} else {
		rctl_say(j, &(struct rctl_say){ .status = RCTL_FAIL, .target = t->name,
						.expected = exp, .observed = got,
						.evidence = fc.source, .fix = fc.fix },
			 "%s (%s) sends DSCP %d, which lands on prio %d without PFC: its RDMA runs lossy",
			 c->name, fc.app, fc.tos >> 2, prio);
	}
}

void rule_traffic_consumer_class(struct rctl_judge *j, const struct rctl_target *t)
{
	const struct rctl_rdma_res *r = &j->h->res;
	uint32_t i, n = 0;

	if (!r->st.ok) {
		/* a snapshot before schema 4, or a command that did not ask: nothing to say */
		if (r->st.err)
			rctl_say(j, &(struct rctl_say){ .status = RCTL_UNKNOWN, .target = t->name,
							.expected = "the RDMA consumers",
							.observed = "unreadable",
							.evidence = r->st.reason },
				 "the RDMA consumers of %s are unknown: %s", t->name, r->st.reason);
		return;
	}
	for (i = 0; i < r->n_consumers; i++) {
		if (!rctl_consumer_judged(&r->consumers[i]) ||
		    !rctl_consumer_on(r, &r->consumers[i], t->dev->name, t->port->port))
			continue;
		n++;
		judge_one(j, t, &r->consumers[i]);
	}
	if (!n)
		rctl_pass(j, t, "", "none", "no RDMA consumer on %s", t->name);
}
