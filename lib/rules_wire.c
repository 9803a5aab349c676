// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The wire (docs/roce-facts.md, "The wire"): what the captured packets
 * carry against the intent. The IP header of every RoCE v2 packet holds the
 * DSCP that picks its priority (and so PFC) and the ECN field DCQCN needs
 * (a Not-ECT packet is never marked CE, so congestion ends in pause or
 * drops); a CNP's DSCP picks the CNP's priority; a CM REQ carries the
 * connection's traffic class (IBTA vol 1 12.6.5: primary traffic class),
 * which rdma_cm takes from the ToS the application set, else from configfs
 * default_roce_tos (drivers/infiniband/core/cma.c, cma_resolve_iboe_route).
 * Findings name the flow ("SRC > DST qp N"); a flow's owner is named when
 * the model knows it: the capture's word, else the RDMA consumers of the
 * host (rctl_rdma_res) that hold the destination QP (flow_owner()).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "rocectl/rules.h"

static bool wire_ok(const struct rctl_judge *j)
{
	return j->h->wire.st.ok;
}

/* The capture's own drops: a file has none to tell ("unknown"). */
static const char *drops_text(const struct rctl_wire *w, char *buf, size_t len)
{
	if (w->drops_known)
		snprintf(buf, len, "%" PRIu64, w->drops);
	else
		snprintf(buf, len, "unknown");
	return buf;
}

static const char *flow_name(const struct rctl_wire_flow *f, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s > %s qp %" PRIu32, f->src, f->dst, f->dst_qp);

	if (f->vlan && n > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - n, " vlan %" PRIu32, f->vlan);
	if (f->ifindex && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - n, " if %" PRIu32 "%s", f->ifindex,
			 f->outgoing ? " out" : " in");
	return buf;
}

/* Whether RDMA device "dev" of h has a GID whose address is "ip". */
static bool dev_has_ip(const struct rctl_host *h, const char *dev, const char *ip)
{
	const struct rctl_device *d = rctl_host_dev(h, dev);
	uint32_t k, g;

	for (k = 0; d && k < d->n_ports; k++)
		for (g = 0; g < d->ports[k].n_gids; g++)
			if (!strcmp(d->ports[k].gids[g].ip, ip))
				return true;
	return false;
}

/*
 * Who owns the flow's QP: the capture's own word, else the host's RDMA
 * consumers (rocectl flows): the QP of that number on the device that holds
 * the flow's destination address is the one the packets were sent to. ""
 * when neither knows (a remote QP, consumers not collected, not listed).
 */
static const char *flow_owner(const struct rctl_host *h, const struct rctl_wire_flow *f)
{
	const struct rctl_rdma_res *r = &h->res;
	uint32_t i;

	if (f->owner[0] || !r->st.ok)
		return f->owner;
	for (i = 0; i < r->n_list; i++)
		if (!strcmp(r->list[i].kind, "qp") && r->list[i].lqpn == f->dst_qp &&
		    dev_has_ip(h, r->list[i].dev, f->dst))
			return r->list[i].owner;
	return "";
}

/* ", owner NAME" when the model knows who owns the flow's QP. */
static const char *owner_of(const struct rctl_host *h, const struct rctl_wire_flow *f,
			    char *buf, size_t len)
{
	const char *o = flow_owner(h, f);

	snprintf(buf, len, "%s%s", o[0] ? ", owner " : "", o);
	return buf;
}

/* "DSCP 0 ECN Not-ECT x120, DSCP 26 ECN ECT(0) x4": the marks seen. */
static const char *const ecn_names[] = { "Not-ECT", "ECT(1)", "ECT(0)", "CE" };

static void marks_text(const struct rctl_wire_mark *m, uint32_t n, char *buf, size_t len)
{
	size_t off = 0;
	uint32_t i;

	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++)
		off += snprintf(buf + off, len - off, "%sDSCP %" PRIu32 " %s x%" PRIu64,
				i ? ", " : "", m[i].dscp, ecn_names[m[i].ecn & 3], m[i].packets);
}

/* Data flows: RoCE to a QP other than QP1 (whose MADs the CM rule judges). */
static bool data_flow(const struct rctl_wire_flow *f)
{
	return f->dst_qp != 1 && f->packets > f->cnps;
}

/* The CM REQ that set up this flow's connection, either way; NULL when none was seen. */
static const struct rctl_wire_conn *conn_of(const struct rctl_wire *w,
					    const struct rctl_wire_flow *f)
{
	uint32_t i;

	for (i = 0; i < w->n_conns; i++) {
		const struct rctl_wire_conn *c = &w->conns[i];

		if ((!strcmp(f->dst, c->src) && f->dst_qp == c->qpn) ||
		    (!strcmp(f->dst, c->dst) && c->reply[0] == 'r' && f->dst_qp == c->rep_qpn))
			return c;
	}
	return NULL;
}

/* The local RDMA device whose GID is "ip", for the configfs fix; "DEV" when none. */
static const char *dev_of_ip(const struct rctl_host *h, const char *ip, uint32_t *port)
{
	uint32_t i, k, g;

	for (i = 0; i < h->n_devs; i++)
		for (k = 0; k < h->devs[i].n_ports; k++)
			for (g = 0; g < h->devs[i].ports[k].n_gids; g++)
				if (!strcmp(h->devs[i].ports[k].gids[g].ip, ip)) {
					*port = h->devs[i].ports[k].port;
					return h->devs[i].name;
				}
	*port = 1;
	return "DEV";
}

static void tos_fix(const struct rctl_judge *j, const char *src, char *buf, size_t len)
{
	uint32_t port;
	const char *dev = dev_of_ip(j->h, src, &port);

	snprintf(buf, len, "on %s: nvme connect ... --tos %d (an application: rdma_set_option "
		 "RDMA_OPTION_ID_TOS %d), or for every rdma_cm connection of %s: mkdir -p "
		 "/sys/kernel/config/rdma_cm/%s && echo %d > /sys/kernel/config/rdma_cm/%s/"
		 "ports/%" PRIu32 "/default_roce_tos", src, j->in->tos, j->in->tos, dev, dev,
		 j->in->tos, dev, port);
}

void rule_wire_capture(struct rctl_judge *j, const struct rctl_target *t)
{
	const struct rctl_wire *w = &j->h->wire;
	char ev[RCTL_FIELD_LEN * 2], fix[RCTL_FIELD_LEN * 2], drops[32];

	if (!w->st.ok) {
		if (w->st.err)
			rctl_say(j, &(struct rctl_say){ .status = RCTL_UNKNOWN, .observed = "unknown",
							 .evidence = w->st.reason },
				 "no capture to judge: %s", w->st.reason);
		return;
	}
	snprintf(ev, sizeof(ev), "%s %s, %s, %.1f s, %" PRIu64 " frames, capture drops %s, "
		 "packets of flows beyond the cap of %" PRIu32 ": %" PRIu64, w->source,
		 w->file[0] ? w->file : w->iface, w->link_type, w->seconds, w->frames,
		 drops_text(w, drops, sizeof(drops)), w->flow_cap, w->flow_overflow);
	if (w->roce_packets && !w->bypass[0]) {
		rctl_pass_ev(j, t, "RoCE v2 packets", "captured", ev,
			     "%" PRIu64 " RoCE v2 packets in %" PRIu32 " flows, %" PRIu32
			     " connection requests", w->roce_packets, w->n_flows, w->n_conns);
		return;
	}
	if (w->roce_packets)
		return;		/* RoCE seen beside a bypassing NIC: the flows say it all */
	if (w->bypass[0]) {
		snprintf(fix, sizeof(fix), "capture where RoCE is visible: tcpdump -i %s -w roce.pcap "
			 "(libpcap's RDMA sniffer), ibdump -d %s, or a switch mirror port; then "
			 "rocectl check wire -r roce.pcap", w->bypass_dev, w->bypass_dev);
		rctl_say(j, &(struct rctl_say){ .status = RCTL_UNKNOWN, .expected = "RoCE v2 packets",
						 .observed = "none visible", .evidence = ev, .fix = fix },
			 "a capture on '%s' cannot see RoCE: %s (%s) sends and receives it in the "
			 "NIC, past the kernel", w->iface, w->bypass_dev, w->bypass);
		return;
	}
	rctl_say(j, &(struct rctl_say){ .status = RCTL_UNKNOWN, .expected = "RoCE v2 packets",
					 .observed = "none", .evidence = ev,
					 .fix = "capture while RoCE traffic runs, or longer (--seconds)" },
		 "no RoCE v2 packet (UDP 4791) in the capture: nothing to judge");
}

static void dscp_fail(struct rctl_judge *j, const struct rctl_wire_flow *f, const char *name,
		      uint64_t off, const char *got)
{
	const struct rctl_wire_conn *c = conn_of(&j->h->wire, f);
	char exp[48], fix[RCTL_FIELD_LEN * 2], own[RCTL_NAME_LEN + 16];
	uint64_t data = f->packets - f->cnps;

	snprintf(exp, sizeof(exp), "DSCP %d", j->in->dscp);
	if (c && (int)c->traffic_class >> 2 == j->in->dscp) {
		rctl_say(j, &(struct rctl_say){ .status = RCTL_FAIL, .target = name,
						 .expected = exp, .observed = got,
						 .evidence = "the packets; the CM REQ's traffic class",
						 .fix = "find the device on the path that rewrites DSCP (switch "
							"policy, host firewall 'ip dscp set'); capture on both "
							"ends to place it" },
			 "%" PRIu64 " of %" PRIu64 " packets are not DSCP %d although the "
			 "connection was set up with traffic class %" PRIu32 ": the DSCP was "
			 "rewritten on the path%s", off, data, j->in->dscp, c->traffic_class,
			 owner_of(j->h, f, own, sizeof(own)));
		return;
	}
	/* Both sides of a connection send with the REQ's traffic class: fix the active one. */
	tos_fix(j, c ? c->src : f->src, fix, sizeof(fix));
	rctl_say(j, &(struct rctl_say){ .status = RCTL_FAIL, .target = name, .expected = exp,
					 .observed = got, .evidence = "the packets' IP header",
					 .fix = fix },
		 "%" PRIu64 " of %" PRIu64 " packets are not DSCP %d: they miss the RoCE "
		 "priority (and its PFC)%s", off, data, j->in->dscp, owner_of(j->h, f, own, sizeof(own)));
}

void rule_wire_data_dscp(struct rctl_judge *j, const struct rctl_target *t)
{
	const struct rctl_wire *w = &j->h->wire;
	char name[RCTL_NAME_LEN * 2], got[RCTL_FIELD_LEN], exp[48];
	uint32_t i, m;

	if (!wire_ok(j))
		return;
	snprintf(exp, sizeof(exp), "DSCP %d", j->in->dscp);
	for (i = 0; i < w->n_flows; i++) {
		const struct rctl_wire_flow *f = &w->flows[i];
		uint64_t off = 0;

		if (!data_flow(f))
			continue;
		for (m = 0; m < f->n_marks; m++)
			off += (int)f->marks[m].dscp != j->in->dscp ? f->marks[m].packets : 0;
		flow_name(f, name, sizeof(name));
		marks_text(f->marks, f->n_marks, got, sizeof(got));
		if (off)
			dscp_fail(j, f, name, off, got);
		else
			rctl_say(j, &(struct rctl_say){ .status = RCTL_PASS, .target = name,
							 .expected = exp, .observed = got },
				 "every packet is DSCP %d", j->in->dscp);
	}
}

void rule_wire_data_ecn(struct rctl_judge *j, const struct rctl_target *t)
{
	const struct rctl_wire *w = &j->h->wire;
	char name[RCTL_NAME_LEN * 2], got[RCTL_FIELD_LEN], own[RCTL_NAME_LEN + 16];
	uint32_t i, m;

	if (!wire_ok(j) || !j->in->ecn)
		return;
	for (i = 0; i < w->n_flows; i++) {
		const struct rctl_wire_flow *f = &w->flows[i];
		uint64_t not_ect = 0;

		if (!data_flow(f))
			continue;
		for (m = 0; m < f->n_marks; m++)
			not_ect += f->marks[m].ecn == RCTL_ECN_NOT_ECT ? f->marks[m].packets : 0;
		flow_name(f, name, sizeof(name));
		marks_text(f->marks, f->n_marks, got, sizeof(got));
		if (!not_ect) {
			rctl_say(j, &(struct rctl_say){ .status = RCTL_PASS, .target = name,
							 .expected = "ECT", .observed = got },
				 "every packet is ECN-capable");
			continue;
		}
		rctl_say(j, &(struct rctl_say){ .status = RCTL_WARN, .target = name,
						 .expected = "ECT(0) or ECT(1)", .observed = got,
						 .evidence = "the packets' IP header",
						 .fix = "send with an ECT ToS (106 = DSCP 26 with ECT(0), not "
							"104), or turn on the sender's ECN marking" },
			 "%" PRIu64 " of %" PRIu64 " packets are Not-ECT: no switch can mark "
			 "them, so DCQCN never slows this flow and congestion ends in pause or "
			 "drops%s", not_ect, f->packets - f->cnps, owner_of(j->h, f, own, sizeof(own)));
	}
}

void rule_wire_cnp_dscp(struct rctl_judge *j, const struct rctl_target *t)
{
	const struct rctl_wire *w = &j->h->wire;
	char name[RCTL_NAME_LEN * 2], got[RCTL_FIELD_LEN], exp[48], fix[RCTL_FIELD_LEN];
	uint32_t i, m;

	if (!wire_ok(j))
		return;
	snprintf(exp, sizeof(exp), "DSCP %d", j->in->cnp_dscp);
	for (i = 0; i < w->n_flows; i++) {
		const struct rctl_wire_flow *f = &w->flows[i];
		uint64_t off = 0;

		if (!f->cnps)
			continue;
		for (m = 0; m < f->n_cnp_marks; m++)
			off += (int)f->cnp_marks[m].dscp != j->in->cnp_dscp ? f->cnp_marks[m].packets : 0;
		flow_name(f, name, sizeof(name));
		marks_text(f->cnp_marks, f->n_cnp_marks, got, sizeof(got));
		if (!off) {
			rctl_say(j, &(struct rctl_say){ .status = RCTL_PASS, .target = name,
							 .expected = exp, .observed = got },
				 "every CNP is DSCP %d", j->in->cnp_dscp);
			continue;
		}
		snprintf(fix, sizeof(fix), "on %s (the notification point): rocectl tune plan, "
			 "which sets the CNP DSCP to %d", f->src, j->in->cnp_dscp);
		rctl_say(j, &(struct rctl_say){ .status = RCTL_FAIL, .target = name, .expected = exp,
						 .observed = got, .evidence = "the CNPs' IP header",
						 .fix = fix },
			 "%" PRIu64 " of %" PRIu64 " CNPs are not DSCP %d: they do not travel in "
			 "the CNP priority and reach the sender late", off, f->cnps, j->in->cnp_dscp);
	}
}

void rule_wire_cm_tos(struct rctl_judge *j, const struct rctl_target *t)
{
	const struct rctl_wire *w = &j->h->wire;
	char name[RCTL_NAME_LEN * 2], got[64], exp[48], fix[RCTL_FIELD_LEN * 2];
	uint32_t i;

	if (!wire_ok(j))
		return;
	snprintf(exp, sizeof(exp), "traffic class %d (DSCP %d)", j->in->tos, j->in->tos >> 2);
	for (i = 0; i < w->n_conns; i++) {
		const struct rctl_wire_conn *c = &w->conns[i];

		snprintf(name, sizeof(name), "%s > %s REQ qp %" PRIu32, c->src, c->dst, c->qpn);
		snprintf(got, sizeof(got), "traffic class %" PRIu32 " (DSCP %" PRIu32 ")",
			 c->traffic_class, c->traffic_class >> 2);
		if ((int)c->traffic_class == j->in->tos) {
			rctl_say(j, &(struct rctl_say){ .status = RCTL_PASS, .target = name,
							 .expected = exp, .observed = got },
				 "the connection was set up with traffic class %d", j->in->tos);
			continue;
		}
		tos_fix(j, c->src, fix, sizeof(fix));
		/* The right DSCP with other ECN bits: the priority holds, DCQCN does not. */
		if ((int)c->traffic_class >> 2 == j->in->tos >> 2) {
			rctl_say(j, &(struct rctl_say){ .status = RCTL_WARN, .target = name,
							 .expected = exp, .observed = got,
							 .evidence = "CM REQ primary traffic class",
							 .fix = fix },
				 "the connection was set up with traffic class %" PRIu32 ": DSCP %"
				 PRIu32 " as intended, but ECN %s, not %s", c->traffic_class,
				 c->traffic_class >> 2, ecn_names[c->traffic_class & 3],
				 ecn_names[j->in->tos & 3]);
			continue;
		}
		rctl_say(j, &(struct rctl_say){ .status = RCTL_FAIL, .target = name, .expected = exp,
						 .observed = got, .evidence = "CM REQ primary traffic class",
						 .fix = fix },
			 "the connection was set up with traffic class %" PRIu32 ": its packets "
			 "carry DSCP %" PRIu32 ", not %d (an 'nvme connect' without --tos, or the "
			 "rdma_cm default)", c->traffic_class, c->traffic_class >> 2, j->in->dscp);
	}
}

/* NAKs other than the PSN sequence error (which the loss rule counts). */
void rule_wire_naks(struct rctl_judge *j, const struct rctl_target *t)
{
	const struct rctl_wire *w = &j->h->wire;
	char name[RCTL_NAME_LEN * 2], got[RCTL_FIELD_LEN];
	uint32_t i;

	if (!wire_ok(j))
		return;
	for (i = 0; i < w->n_flows; i++) {
		const struct rctl_wire_flow *f = &w->flows[i];
		uint64_t bad = f->nak_invalid_req + f->nak_remote_access + f->nak_remote_op;

		if (!bad && !f->nak_rnr)
			continue;
		flow_name(f, name, sizeof(name));
		snprintf(got, sizeof(got), "RNR %" PRIu64 ", invalid request %" PRIu64
			 ", remote access %" PRIu64 ", remote operational %" PRIu64, f->nak_rnr,
			 f->nak_invalid_req, f->nak_remote_access, f->nak_remote_op);
		rctl_say(j, &(struct rctl_say){ .status = bad ? RCTL_FAIL : RCTL_WARN,
						 .target = name, .expected = "no NAK", .observed = got,
						 .evidence = "AETH syndromes of the ACKs to this QP" },
			 bad ? "the responder refused requests (NAK): an application error, the "
			       "connection is broken" :
			       "receiver-not-ready NAKs: the responder had no receive buffer posted "
			       "and the sender waits");
	}
}

/*
 * Retransmissions seen (a request PSN going back, a PSN sequence error NAK)
 * against the loss budget. A capture's own drops hide packets, they never
 * make a PSN go back: they make "none seen" a lower bound, not loss.
 */
void rule_wire_loss(struct rctl_judge *j, const struct rctl_target *t)
{
	const struct rctl_wire *w = &j->h->wire;
	uint64_t req = 0, back = 0, naks = 0, lost;
	char exp[48], got[96], ev[RCTL_FIELD_LEN], drops[32];
	uint32_t i;
	double rate;

	if (!wire_ok(j))
		return;
	for (i = 0; i < w->n_flows; i++) {
		req += w->flows[i].requests;
		back += w->flows[i].psn_regressions;
		naks += w->flows[i].nak_psn_seq;
	}
	if (!req)
		return;
	/* A sequence NAK makes its requester go back once: one event, seen twice. */
	lost = back > naks ? back : naks;
	rate = (double)lost / (double)req;
	snprintf(exp, sizeof(exp), "at most %g", j->in->loss_budget);
	snprintf(got, sizeof(got), "%" PRIu64 " retransmissions in %" PRIu64 " requests (%g)",
		 lost, req, rate);
	snprintf(ev, sizeof(ev), "PSN regressions %" PRIu64 ", sequence-error NAKs %" PRIu64
		 "; capture drops %s", back, naks, drops_text(w, drops, sizeof(drops)));
	if (rate <= j->in->loss_budget) {
		if (w->drops)
			rctl_pass_ev(j, t, exp, got, ev, "no retransmission beyond the loss budget; "
				     "the capture dropped %" PRIu64 " packets, so the count is a lower "
				     "bound, not loss", w->drops);
		else
			rctl_pass_ev(j, t, exp, got, ev, "no retransmission beyond the loss budget");
		return;
	}
	rctl_say(j, &(struct rctl_say){ .status = RCTL_FAIL, .expected = exp, .observed = got,
					 .evidence = ev,
					 .fix = "find the drops: rocectl counters (out_of_sequence, "
						"discards), the switch's PFC and buffers" },
		 "requests were sent again %" PRIu64 " times in %" PRIu64 ", over the loss "
		 "budget: packets (or their ACKs) were lost on the way", lost, req);
}
