// SPDX-License-Identifier: GPL-2.0-or-later
/* The rule table, findings, targets and the verdict (rules.h). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/rules.h"

#define R(i, a, m, f, txt) { .id = i, .area = RCTL_AREA_##a, .ref = m, .fn = f, .meaning = txt }
#define RD(i, a, m, f, txt) { .id = i, .area = RCTL_AREA_##a, .ref = m, .fn = f, \
			      .meaning = txt, .needs_deltas = true }

/* The one table; the man page rocectl-check(8) lists the same ids. */
const struct rctl_rule rctl_rules[] = {
	R("pfc.prio_disabled", PFC, "pfc", rule_pfc_prio_disabled,
	  "PFC is off on the RoCE priority (lossless profile)"),
	R("pfc.extra_prio", PFC, "pfc", rule_pfc_extra_prio,
	  "PFC is on for other priorities than the RoCE one (any, in the lossy profile)"),
	R("pfc.cnp_prio", PFC, "pfc", rule_pfc_cnp_prio,
	  "PFC is on for the CNP priority"),
	R("pfc.without_ecn", PFC, "ecn", rule_pfc_without_ecn,
	  "PFC is on for the RoCE priority but ECN/DCQCN is off: pause storms, head-of-line blocking"),
	R("pfc.global_pause", PFC, "pfc", rule_pfc_global_pause,
	  "global 802.3x pause is on together with, or instead of, PFC"),
	R("pfc.buffer", PFC, "pfc", rule_pfc_buffer,
	  "the RoCE priority maps to a receive buffer of size 0"),
	R("pfc.ets", PFC, "pfc", rule_pfc_ets,
	  "the traffic class of the RoCE priority has no bandwidth guarantee or a rate limit"),
	R("pfc.dcbx_owner", PFC, "pfc", rule_pfc_dcbx_owner,
	  "DCB is managed by a firmware/LLDP agent, not by the host"),
	R("pfc.lldpad", PFC, "pfc", rule_pfc_lldpad,
	  "lldpad runs and may override the host's DCB settings"),
	R("ecn.np_disabled", ECN, "ecn", rule_ecn_np_disabled,
	  "ECN notification point (CNP generation) is off on the RoCE priority"),
	R("ecn.rp_disabled", ECN, "ecn", rule_ecn_rp_disabled,
	  "ECN reaction point (rate reduction) is off on the RoCE priority"),
	R("ecn.without_pfc", ECN, "ecn", rule_ecn_without_pfc,
	  "ECN is on but PFC is off in the lossless profile: throughput collapses on the first drop"),
	R("ecn.sriov_vf", ECN, "sriov", rule_ecn_sriov_vf,
	  "the RoCE netdev is an SR-IOV VF: judged through its PF when the PF is in the run, else a pointer to it"),
	R("dcqcn.params", DCQCN, "ecn", rule_dcqcn_params,
	  "DCQCN parameters and where they were read; unreadable (debugfs, root, VF) is unknown"),
	R("dscp.trust_pcp", DSCP, "dscp", rule_dscp_trust_pcp,
	  "the port trusts PCP while RoCE runs untagged, or on a VLAN whose egress-qos-map gives it another PCP"),
	R("dscp.missing", DSCP, "dscp", rule_dscp_missing,
	  "the RoCE DSCP is not mapped to the RoCE priority"),
	R("dscp.ambiguous", DSCP, "dscp", rule_dscp_ambiguous,
	  "the RoCE DSCP is mapped to more than one priority"),
	R("cnp.data_prio", CNP, "cnp", rule_cnp_data_prio,
	  "CNPs are sent on the RoCE data DSCP/priority or on a PFC priority"),
	R("cnp.mismatch", CNP, "cnp", rule_cnp_mismatch,
	  "CNP DSCP or 802.1p priority differs from the intent"),
	R("mtu.active", MTU, "mtu", rule_mtu_active,
	  "active_mtu, or the MTU of a VLAN or bond carrying RoCE GIDs, is below the intended RoCE MTU (+ 96)"),
	RD("mtu.oversize", MTU, "mtu", rule_mtu_oversize,
	   "frames larger than the local MTU arrived during the interval (peer MTU larger)"),
	R("gid.no_v2", GID, "gid", rule_gid_no_v2,
	  "an IPv4 address of the RoCE netdev (or a VLAN or bond above it) has no RoCE v2 GID"),
	R("gid.index", GID, "gid", rule_gid_index,
	  "index of the RoCE v2 GID of each IPv4 address (compare hosts with rocectl compare)"),
	R("mode.roce_v1", MODE, "rdma-cm", rule_mode_roce_version,
	  "rdma_cm default RoCE mode is not the intended one (v1 instead of v2)"),
	R("mode.tos", MODE, "rdma-cm", rule_mode_tos,
	  "rdma_cm default ToS differs from the intent (0: RDMA-CM traffic runs at DSCP 0, lossy)"),
	R("mode.roce_disabled", MODE, "rdma-cm", rule_mode_roce_disabled,
	  "no RDMA device, an RDMA port without netdev or not ACTIVE, or a RoCE NIC without RDMA device"),
	R("counters.unreadable", COUNTERS, "unknown", rule_counters_unreadable,
	  "counters could not be read"),
	RD("counters.pause_storm", COUNTERS, "pause-storm", rule_counters_pause_storm,
	   "PFC pause storm events rose during the interval"),
	RD("counters.rx_discards", COUNTERS, "counters", rule_counters_rx_discards,
	   "the NIC dropped received packets for lack of buffer during the interval"),
	RD("counters.no_wqe", COUNTERS, "counters", rule_counters_no_wqe,
	   "the receiver had no WQE posted (an application problem, not the fabric)"),
	RD("counters.loss", COUNTERS, "counters", rule_counters_loss,
	   "sequence errors, out-of-sequence packets or retransmissions rose; where the loss is"),
	RD("counters.loss_budget", COUNTERS, "counters", rule_counters_loss_budget,
	   "RoCE loss rate (sequence errors + out-of-sequence + retransmissions) / packets over the budget"),
	R("counters.optional_cc", COUNTERS, "counters", rule_counters_optional_cc,
	  "optional congestion counters (cc_*) are not enabled, so received CNPs are invisible"),
	R("firewall.roce_udp", FIREWALL, "firewall", rule_firewall_roce_udp,
	  "a netfilter rule drops UDP 4791: it blocks Soft-RoCE (rxe); hardware RoCE bypasses netfilter"),
	R("firewall.oob_tcp", FIREWALL, "firewall", rule_firewall_oob_tcp,
	  "a netfilter rule drops out-of-band TCP: 4420 (NVMe/TCP) or 18515 (perftest)"),
};

const unsigned int rctl_n_rules = sizeof(rctl_rules) / sizeof(rctl_rules[0]);

static const char *const status_names[] = { "pass", "warn", "unknown", "fail" };

const char *const rctl_area_names[] = {
	"pfc", "ecn", "dcqcn", "dscp", "cnp", "mtu", "gid", "mode", "counters",
	"firewall", "all", NULL
};

const char *rctl_status_name(enum rctl_status s)
{
	return s < RCTL_STATUS_N ? status_names[s] : "?";
}

const char *rctl_area_name(enum rctl_area a)
{
	return a < RCTL_AREA_N ? rctl_area_names[a] : "?";
}

int rctl_area_parse(const char *name)
{
	int i;

	for (i = 0; i < RCTL_AREA_N; i++)
		if (!strcmp(rctl_area_names[i], name))
			return i;
	return -1;
}

/*
 * The structured target of a finding, from the model: "DEV/PORT (NETDEV)" or
 * "DEV/PORT" names a port; a netdev name names the netdev and the RDMA port
 * on it; anything else (the hostname) stays empty.
 */
static void finding_locate(const struct rctl_host *h, struct rctl_finding *f)
{
	char name[sizeof(f->target)];
	uint32_t i, k;

	for (i = 0; i < h->n_devs; i++)
		for (k = 0; k < h->devs[i].n_ports; k++) {
			const struct rctl_port *p = &h->devs[i].ports[k];
			bool by_nd = p->netdev[0] && !strcmp(f->target, p->netdev);

			snprintf(name, sizeof(name), "%s/%u", h->devs[i].name, p->port);
			if (!by_nd && strncmp(f->target, name, strlen(name)))
				continue;
			if (!by_nd && f->target[strlen(name)] && f->target[strlen(name)] != ' ')
				continue;
			snprintf(f->device, sizeof(f->device), "%s", h->devs[i].name);
			f->port = p->port;
			snprintf(f->netdev, sizeof(f->netdev), "%s", p->netdev);
			return;
		}
	for (i = 0; i < h->n_netdevs; i++)
		if (!strcmp(f->target, h->netdevs[i].name))
			snprintf(f->netdev, sizeof(f->netdev), "%s", f->target);
}

void rctl_emit(struct rctl_judge *j, enum rctl_status st, const char *target,
	       const char *expected, const char *observed, const char *evidence,
	       const char *fix, const char *fmt, ...)
{
	struct rctl_report *r = j->r;
	struct rctl_finding *f;
	va_list ap;

	f = rctl_arr_push(&r->f, &r->n, sizeof(*f));
	if (!f) {
		r->oom = true;
		return;
	}
	f->id = j->rule->id;
	f->area = j->rule->area;
	f->status = st;
	snprintf(f->target, sizeof(f->target), "%s", target ? target : j->h->hostname);
	f->device[0] = f->netdev[0] = '\0';
	f->port = 0;
	f->has_ratio = false;
	if (target)
		finding_locate(j->h, f);
	snprintf(f->expected, sizeof(f->expected), "%s", expected ? expected : "");
	snprintf(f->observed, sizeof(f->observed), "%s", observed ? observed : "");
	snprintf(f->evidence, sizeof(f->evidence), "%s", evidence ? evidence : "");
	snprintf(f->fix, sizeof(f->fix), "%s", fix ? fix : "");
	va_start(ap, fmt);
	vsnprintf(f->message, sizeof(f->message), fmt, ap);
	va_end(ap);
	r->count[st]++;
	r->area_count[f->area][st]++;
}

void rctl_emit_ratio(struct rctl_judge *j, double ratio)
{
	if (!j->r->n || j->r->f[j->r->n - 1].id != j->rule->id)
		return;
	j->r->f[j->r->n - 1].ratio = ratio;
	j->r->f[j->r->n - 1].has_ratio = true;
}

bool rctl_target_next(struct rctl_judge *j, struct rctl_target *t,
		      uint32_t *di, uint32_t *pi)
{
	const struct rctl_host *h = j->h;

	for (; *di < h->n_devs; (*di)++, *pi = 0) {
		const struct rctl_device *d = &h->devs[*di];

		while (*pi < d->n_ports) {
			const struct rctl_port *p = &d->ports[(*pi)++];

			if (strcmp(p->link_layer, "Ethernet") ||
			    !rctl_port_match(j->filter, d, p))
				continue;
			t->dev = d;
			t->port = p;
			t->nd = p->netdev[0] ? rctl_host_netdev(h, p->netdev) : NULL;
			snprintf(t->name, sizeof(t->name), "%s/%u%s%s%s", d->name,
				 p->port, p->netdev[0] ? " (" : "", p->netdev,
				 p->netdev[0] ? ")" : "");
			return true;
		}
	}
	return false;
}

/* A bond (as the port's netdev) that has slaves in the model. */
static bool bond_with_slaves(const struct rctl_host *h, const struct rctl_netdev *nd)
{
	uint32_t i;

	if (!nd || strcmp(nd->kind, "bond"))
		return false;
	for (i = 0; i < h->n_netdevs; i++)
		if (!strcmp(h->netdevs[i].master, nd->name))
			return true;
	return false;
}

bool rctl_qos_target_next(struct rctl_judge *j, struct rctl_target *t, uint32_t cur[3])
{
	const struct rctl_host *h = j->h;
	const struct rctl_netdev *pnd, *bond, *nd;

	for (;;) {
		if (!cur[2]) {		/* next port; its own netdev first */
			if (!rctl_target_next(j, t, &cur[0], &cur[1]))
				return false;
			cur[2] = 1;
			if (!bond_with_slaves(h, t->nd))
				return true;
		}
		pnd = rctl_host_netdev(h, t->port->netdev);
		bond = pnd ? rctl_bond_of(h, pnd) : NULL;
		while (bond && cur[2] <= h->n_netdevs) {
			nd = &h->netdevs[cur[2]++ - 1];
			if (strcmp(nd->master, bond->name) || nd == pnd ||
			    rctl_port_netdev(h, nd->name))
				continue;
			t->nd = nd;
			snprintf(t->name, sizeof(t->name), "%s/%u (%s in %s)", t->dev->name,
				 t->port->port, nd->name, bond->name);
			return true;
		}
		cur[2] = 0;
	}
}

const struct rctl_netdev *rctl_gid_upper(const struct rctl_host *h,
					 const struct rctl_port *p, uint32_t i,
					 bool routable)
{
	const struct rctl_gid *g = &p->gids[i];
	uint32_t k;

	if (strcmp(g->type, "RoCE v2") || !strcmp(g->netdev, p->netdev) ||
	    (routable && !strncmp(g->ip, "fe80:", 5)))
		return NULL;
	for (k = 0; k < i; k++)
		if (!strcmp(p->gids[k].netdev, g->netdev) &&
		    !strcmp(p->gids[k].type, "RoCE v2") &&
		    !(routable && !strncmp(p->gids[k].ip, "fe80:", 5)))
			return NULL;
	return rctl_host_netdev(h, g->netdev);
}

void rctl_judge_host(const struct rctl_host *h, const struct rctl_intent *in,
		     unsigned int areas, const char *filter, struct rctl_report *r)
{
	struct rctl_judge j = { .h = h, .in = in, .filter = filter, .r = r };
	unsigned int i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < rctl_n_rules; i++) {
		if (!(areas & (1u << rctl_rules[i].area)))
			continue;
		j.rule = &rctl_rules[i];
		j.rule->fn(&j);
	}
}

void rctl_report_free(struct rctl_report *r)
{
	free(r->f);
	memset(r, 0, sizeof(*r));
}

int rctl_report_exit(const struct rctl_report *r)
{
	if (r->count[RCTL_FAIL])
		return 2;
	if (r->count[RCTL_UNKNOWN] || r->oom)
		return 3;
	if (r->count[RCTL_WARN])
		return 1;
	return 0;
}

/* The parts an SR-IOV VF leaves to its PF: DCB, pause, ECN/DCQCN, OFED qos. */
static bool pf_part(const struct rctl_netdev *nd, const struct rctl_part *p)
{
	return nd && nd->sriov_vf &&
	       (p == &nd->pfc.st || p == &nd->ets.st || p == &nd->app.st ||
		p == &nd->buffer.st || p == &nd->dcbx.st || p == &nd->maxrate.st ||
		p == &nd->pause.st || p == &nd->cc.st || p == &nd->qos.st);
}

bool rctl_part_ok(struct rctl_judge *j, const struct rctl_target *t,
		  const struct rctl_part *p, const char *what, bool report)
{
	if (p->ok)
		return true;
	/* Unreadable on a VF is expected: ecn.sriov_vf points at the PF. */
	if (report && !pf_part(t->nd, p))
		rctl_emit(j, RCTL_UNKNOWN, t->name, NULL, "unknown", p->reason, NULL,
			  "cannot read %s of '%s': %s", what, t->nd ? t->nd->name : t->name,
			  p->err ? p->reason : "not collected");
	return false;
}

const char *rctl_prio_list(const bool en[8], char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < 8; i++)
		if (en[i] && off < len)
			off += snprintf(buf + off, len - off, "%s%d", off ? "," : "", i);
	if (!off)
		snprintf(buf, len, "none");
	return buf;
}

bool rctl_host_has_deltas(const struct rctl_host *h)
{
	return h->sample_interval_s > 0;
}

uint64_t rctl_delta_of(const struct rctl_counter *c, uint32_t n, const char *name)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(c[i].name, name))
			return c[i].has_delta ? c[i].delta : 0;
	return 0;
}

/* "rx_prio#_buf_discard": '#' matches a run of digits. */
static bool name_match(const char *pat, const char *s)
{
	for (; *pat; pat++) {
		if (*pat == '#') {
			if (!isdigit((unsigned char)*s))
				return false;
			while (isdigit((unsigned char)*s))
				s++;
		} else if (*pat != *s++) {
			return false;
		}
	}
	return !*s;
}

uint64_t rctl_delta_match(const struct rctl_counter *c, uint32_t n, const char *pat)
{
	uint64_t sum = 0;
	uint32_t i;

	for (i = 0; i < n; i++)
		if (c[i].has_delta && name_match(pat, c[i].name))
			sum += c[i].delta;
	return sum;
}

bool rctl_loss_rate(uint64_t lost, uint64_t packets, double *rate)
{
	if (!packets)
		return false;
	*rate = (double)lost / (double)packets;
	return true;
}
