// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The switch port, seen from the host (docs/roce-facts.md, "The switch
 * port"): what the LLDP neighbour of each RoCE netdev advertises (lib/lldp.c
 * decodes it), against the intent the host is judged by. Each fix names the
 * side to change. A neighbour that was not looked for (a snapshot older than
 * the neighbour, a command that did not read it) gives no finding; one that
 * was looked for and not found is unknown, with the reason.
 */
#include <stdio.h>
#include <string.h>

#include "rocectl/lldp.h"
#include "rocectl/rules.h"
#include "rocectl/settings.h"

/* Ethernet header (14) and FCS (4) around the MTU; an 802.1Q tag adds 4. */
#define ETH_OVERHEAD 18
#define VLAN_TAG 4

/* The neighbour of t.nd when one was read; report: say why not (one rule). */
static const struct rctl_lldp_peer *peer_of(struct rctl_judge *j, const struct rctl_target *t,
					    bool report)
{
	const struct rctl_lldp_peer *p = &t->nd->lldp;

	if (p->st.ok)
		return p;
	if (report && p->st.err)
		rctl_say(j,
			 &(struct rctl_say){ .status = RCTL_UNKNOWN,
					     .target = t->name,
					     .observed = "unknown",
					     .evidence = p->st.reason },
			 "no LLDP neighbour of '%s': %s", t->nd->name, p->st.reason);
	return NULL;
}

/* "switch leaf-07 port Ethernet1/7", the side a fix names. */
static const char *sw(const struct rctl_lldp_peer *p, char *buf, size_t len)
{
	snprintf(buf, len, "switch %s port %s", p->system_name[0] ? p->system_name :
		 p->chassis_id, p->port_id);
	return buf;
}

static void evidence(const struct rctl_lldp_peer *p, const char *what, char *buf, size_t len)
{
	snprintf(buf, len, "LLDP %s of %s port %s, read through %s", what,
		 p->system_name[0] ? p->system_name : p->chassis_id, p->port_id, p->source);
}

void rule_peer_neighbor(struct rctl_judge *j, const struct rctl_target *t)
{
	const struct rctl_lldp_peer *p;
	char ev[RCTL_FIELD_LEN * 2], who[RCTL_FIELD_LEN];

	p = peer_of(j, t, true);
	if (!p)
		return;
	snprintf(ev, sizeof(ev), "chassis %s, port %s%s%s, ttl %u s, via %s", p->chassis_id,
		 p->port_id, p->port_descr[0] ? " " : "", p->port_descr, p->ttl, p->source);
	rctl_say(j, &(struct rctl_say){ .status = RCTL_PASS, .target = t->name, .evidence = ev },
		 "'%s' is on %s", t->nd->name, sw(p, who, sizeof(who)));
}

void rule_peer_dcbx_absent(struct rctl_judge *j, const struct rctl_target *t)
{
	const struct rctl_lldp_peer *p;
	char who[RCTL_FIELD_LEN], fix[RCTL_FIELD_LEN * 2];

	p = peer_of(j, t, false);
	if (!p || rctl_lldp_has_dcbx(p))
		return;
	snprintf(fix, sizeof(fix),
		 "%s: send the IEEE DCBX TLVs (ETS, PFC, application "
		 "priority) in its LLDP",
		 sw(p, who, sizeof(who)));
	rctl_say(j,
		 &(struct rctl_say){ .status = RCTL_WARN,
				     .target = t->name,
				     .expected = "ETS, PFC and APP TLVs",
				     .observed = "none",
				     .fix = fix },
		 "%s sends no DCBX TLVs: PFC cannot be negotiated, and its PFC, ETS and "
		 "DSCP map cannot be seen from the host",
		 who);
}

void rule_peer_pfc_prio(struct rctl_judge *j, const struct rctl_target *t)
{
	const struct rctl_lldp_peer *p;
	char exp[48], got[48], who[RCTL_FIELD_LEN], ev[RCTL_FIELD_LEN * 2], fix[RCTL_FIELD_LEN * 2];
	int pr = j->in->prio;

	p = peer_of(j, t, false);
	if (!p || !p->has_pfc || !j->in->pfc)
		return;
	snprintf(exp, sizeof(exp), "switch PFC on %d", pr);
	snprintf(got, sizeof(got), "switch PFC on ");
	rctl_prio_list(p->pfc_en, got + strlen(got), sizeof(got) - strlen(got));
	evidence(p, "PFC configuration TLV", ev, sizeof(ev));
	sw(p, who, sizeof(who));
	if (p->pfc_en[pr]) {
		rctl_pass_ev(j, t, exp, got, ev, "%s has PFC on RoCE priority %d", who, pr);
		return;
	}
	snprintf(fix, sizeof(fix), "%s: enable PFC (no-drop) on priority %d", who, pr);
	rctl_say(j,
		 &(struct rctl_say){ .status = RCTL_FAIL,
				     .target = t->name,
				     .expected = exp,
				     .observed = got,
				     .evidence = ev,
				     .fix = fix },
		 "%s has PFC off on RoCE priority %d: it drops instead of pausing", who, pr);
}

void rule_peer_pfc_extra(struct rctl_judge *j, const struct rctl_target *t)
{
	const struct rctl_lldp_peer *p;
	char exp[48], got[48], extra[24], who[RCTL_FIELD_LEN], ev[RCTL_FIELD_LEN * 2];
	char fix[RCTL_FIELD_LEN * 2];
	bool more[8];
	int i, n;

	p = peer_of(j, t, false);
	if (!p || !p->has_pfc)
		return;
	for (i = 0, n = 0; i < 8; i++)
		n += more[i] = p->pfc_en[i] && !(j->in->pfc && i == j->in->prio);
	if (j->in->pfc)
		snprintf(exp, sizeof(exp), "switch PFC on %d only", j->in->prio);
	else
		snprintf(exp, sizeof(exp), "switch PFC on none");
	snprintf(got, sizeof(got), "switch PFC on ");
	rctl_prio_list(p->pfc_en, got + strlen(got), sizeof(got) - strlen(got));
	evidence(p, "PFC configuration TLV", ev, sizeof(ev));
	sw(p, who, sizeof(who));
	if (!n) {
		rctl_pass_ev(j, t, exp, got, ev, "%s has PFC on no other priority", who);
		return;
	}
	rctl_prio_list(more, extra, sizeof(extra));
	snprintf(fix, sizeof(fix), "%s: disable PFC on priority %s", who, extra);
	rctl_say(j,
		 &(struct rctl_say){ .status = RCTL_WARN,
				     .target = t->name,
				     .expected = exp,
				     .observed = got,
				     .evidence = ev,
				     .fix = fix },
		 "%s has PFC on priority %s, which the host does not expect: those "
		 "pause frames stop traffic the host treats as lossy",
		 who, extra);
}

/* The priorities the switch's APP table gives DSCP "dscp"; how many DSCP entries it has. */
static int app_dscp(const struct rctl_lldp_peer *p, int dscp, bool prios[8])
{
	uint32_t i;
	int n = 0;

	memset(prios, 0, 8 * sizeof(bool));
	for (i = 0; i < p->n_apps; i++) {
		if (p->apps[i].selector != RCTL_APP_SEL_DSCP)
			continue;
		n++;
		if (p->apps[i].protocol == (uint32_t)dscp)
			prios[p->apps[i].priority & 7] = true;
	}
	return n;
}

/* One DSCP the host marks (RoCE data or CNP) against the switch's APP table. */
static void app_one(struct rctl_judge *j, const struct rctl_target *t,
		    const struct rctl_lldp_peer *p, const char *what, int dscp, int prio)
{
	char exp[48], got[64], who[RCTL_FIELD_LEN], ev[RCTL_FIELD_LEN * 2], fix[RCTL_FIELD_LEN * 2];
	bool prios[8];
	int i, n = app_dscp(p, dscp, prios), other = 0;

	for (i = 0; i < 8; i++)
		other += prios[i] && i != prio;
	snprintf(exp, sizeof(exp), "switch DSCP %d -> prio %d", dscp, prio);
	snprintf(got, sizeof(got), "switch DSCP %d -> prio ", dscp);
	rctl_prio_list(prios, got + strlen(got), sizeof(got) - strlen(got));
	evidence(p, "application priority TLV", ev, sizeof(ev));
	sw(p, who, sizeof(who));
	snprintf(fix, sizeof(fix), "%s: trust DSCP and map DSCP %d to priority %d", who, dscp,
		 prio);
	if (!n)
		rctl_say(j,
			 &(struct rctl_say){ .status = RCTL_WARN,
					     .target = t->name,
					     .expected = exp,
					     .observed = "no DSCP entries",
					     .evidence = ev,
					     .fix = fix },
			 "%s advertises no DSCP map: it may not classify the %s DSCP %d at all",
			 who, what, dscp);
	else if (prios[prio] && !other)
		rctl_pass_ev(j, t, exp, got, ev, "%s maps the %s DSCP %d to priority %d", who, what,
			     dscp, prio);
	else
		rctl_say(j,
			 &(struct rctl_say){ .status = RCTL_FAIL,
					     .target = t->name,
					     .expected = exp,
					     .observed = got,
					     .evidence = ev,
					     .fix = fix },
			 "%s maps the %s DSCP %d to another priority than the host's %d", who, what,
			 dscp, prio);
}

/*
 * A PCP design: every routable RoCE v2 GID of the port on a VLAN (whose
 * egress-qos-map puts the priority in the tag) and the host trusting PCP (no
 * DSCP entry in its APP table). The switch then classifies RoCE by the PCP:
 * a DSCP map it does not advertise is not needed there.
 */
static bool pcp_design(const struct rctl_judge *j, const struct rctl_target *t)
{
	bool prios[8], trust_dscp;

	if (!t->nd->app.st.ok || rctl_roce_untagged(j->h, t->port))
		return false;
	rctl_dscp_prios(t->nd, j->in->dscp, prios, &trust_dscp);
	return !trust_dscp;
}

void rule_peer_app_dscp(struct rctl_judge *j, const struct rctl_target *t)
{
	const struct rctl_lldp_peer *p;
	char who[RCTL_FIELD_LEN];
	bool prios[8];

	p = peer_of(j, t, false);
	if (!p || !rctl_lldp_has_dcbx(p))
		return;
	if (pcp_design(j, t) && (!p->has_app || !app_dscp(p, j->in->dscp, prios))) {
		rctl_pass(j, t, "no DSCP map needed", p->has_app ? "no DSCP entries" : "no APP TLV",
			  "%s advertises no DSCP map: not needed, RoCE runs on VLANs with the host "
			  "trusting PCP",
			  sw(p, who, sizeof(who)));
		return;
	}
	if (!p->has_app) {
		rctl_say(j,
			 &(struct rctl_say){
				 .status = RCTL_UNKNOWN, .target = t->name, .observed = "unknown" },
			 "%s sends no application priority TLV: its DSCP map cannot be "
			 "seen from the host",
			 sw(p, who, sizeof(who)));
		return;
	}
	app_one(j, t, p, "RoCE", j->in->dscp, j->in->prio);
	app_one(j, t, p, "CNP", j->in->cnp_dscp, j->in->cnp_prio);
}

void rule_peer_ets(struct rctl_judge *j, const struct rctl_target *t)
{
	const struct rctl_lldp_peer *p;
	char got[80], who[RCTL_FIELD_LEN], ev[RCTL_FIELD_LEN * 2], fix[RCTL_FIELD_LEN * 2];
	int pr = j->in->prio, tc;

	p = peer_of(j, t, false);
	if (!p || !p->has_ets)
		return;
	tc = p->ets_prio_tc[pr] & 7;
	snprintf(got, sizeof(got), "switch prio %d -> tc %d, tsa %u, bw %u%%", pr, tc,
		 p->ets_tc_tsa[tc], p->ets_tc_bw[tc]);
	evidence(p, "ETS configuration TLV", ev, sizeof(ev));
	sw(p, who, sizeof(who));
	if (p->ets_tc_tsa[tc] == RCTL_TSA_ETS && !p->ets_tc_bw[tc]) {
		snprintf(fix, sizeof(fix), "%s: give traffic class %d an ETS share (e.g. 50%%)",
			 who, tc);
		rctl_say(j,
			 &(struct rctl_say){ .status = RCTL_FAIL,
					     .target = t->name,
					     .expected = "switch ETS share > 0 or strict",
					     .observed = got,
					     .evidence = ev,
					     .fix = fix },
			 "%s gives tc %d of RoCE priority %d no bandwidth", who, tc, pr);
	} else if (j->in->cnp_prio != pr && (p->ets_prio_tc[j->in->cnp_prio & 7] & 7) == tc) {
		/* as pfc.ets on the host: one queue per TC, CNPs behind the data */
		snprintf(fix, sizeof(fix), "%s: put priority %d (CNPs) in a traffic class of its "
			 "own, apart from tc %d", who, j->in->cnp_prio, tc);
		rctl_say(j,
			 &(struct rctl_say){ .status = RCTL_WARN,
					     .target = t->name,
					     .expected = "switch RoCE prio in a TC without the CNP prio",
					     .observed = got,
					     .evidence = ev,
					     .fix = fix },
			 "%s puts CNP priority %d in tc %d with RoCE priority %d: CNPs queue behind "
			 "the congestion they report",
			 who, j->in->cnp_prio, tc, pr);
	} else {
		rctl_pass_ev(j, t, "switch ETS share > 0 or strict", got, ev,
			     "%s gives tc %d of RoCE priority %d bandwidth", who, tc, pr);
	}
}

/* Whether what the switch advertises differs from the intent; what, into why. */
static bool differs(const struct rctl_judge *j, const struct rctl_lldp_peer *p, char *why,
		    size_t len)
{
	bool prios[8];
	int i, tc;

	for (i = 0; p->has_pfc && i < 8; i++)
		if (p->pfc_en[i] != (j->in->pfc && i == j->in->prio)) {
			snprintf(why, len, "PFC on priority %d %s", i, p->pfc_en[i] ? "on" : "off");
			return true;
		}
	if (p->has_app && app_dscp(p, j->in->dscp, prios) && !prios[j->in->prio]) {
		snprintf(why, len, "DSCP %d not on priority %d", j->in->dscp, j->in->prio);
		return true;
	}
	tc = p->ets_prio_tc[j->in->prio] & 7;
	if (p->has_ets && p->ets_tc_tsa[tc] == RCTL_TSA_ETS && !p->ets_tc_bw[tc]) {
		snprintf(why, len, "no ETS share for tc %d", tc);
		return true;
	}
	return false;
}

void rule_peer_willing(struct rctl_judge *j, const struct rctl_target *t)
{
	const struct rctl_lldp_peer *p;
	char got[64], why[64], who[RCTL_FIELD_LEN], ev[RCTL_FIELD_LEN * 2], fix[RCTL_FIELD_LEN * 2];
	bool sw_will, host_will;

	p = peer_of(j, t, false);
	if (!p || !(p->has_pfc || p->has_ets) || !t->nd->ets.st.ok)
		return;
	/*
	 * The host's willing bit travels only in the TLVs of an agent that
	 * speaks DCBX: lldpad, or the NIC's firmware. Without one (the host
	 * owns DCB through dcbnl; ice's software DCB keeps willing 1 from
	 * ice_dcb_sw_dflt_cfg()) nothing is negotiated and nothing is judged.
	 */
	if (rctl_dcb_owner(j->h, t->nd, rctl_family_of(t->dev, t->nd), why, sizeof(why)) ==
	    RCTL_DCB_HOST) {
		rctl_pass(j, t, "one side willing", "no DCBX agent on the host",
			  "no DCBX agent runs on the host (no lldpad, no firmware agent): its "
			  "willing bit is sent to no one, nothing is negotiated");
		return;
	}
	sw_will = (p->has_pfc && p->pfc_willing) || (p->has_ets && p->ets_willing);
	host_will = t->nd->ets.willing;
	snprintf(got, sizeof(got), "host %swilling, switch %swilling", host_will ? "" : "not ",
		 sw_will ? "" : "not ");
	snprintf(ev, sizeof(ev),
		 "host: dcbnl ETS willing %d; switch: LLDP PFC willing %d, "
		 "ETS willing %d, via %s",
		 host_will, p->pfc_willing, p->ets_willing, p->source);
	sw(p, who, sizeof(who));
	if (host_will && sw_will) {
		snprintf(fix, sizeof(fix),
			 "%s: advertise not willing (the switch owns the "
			 "configuration), or host: dcb ets set dev %s willing off",
			 who, t->nd->name);
		rctl_say(j,
			 &(struct rctl_say){ .status = RCTL_WARN,
					     .target = t->name,
					     .expected = "one side willing",
					     .observed = got,
					     .evidence = ev,
					     .fix = fix },
			 "both ends are willing: which configuration applies is left to "
			 "DCBX's tie-break, not to the operator");
	} else if (host_will && differs(j, p, why, sizeof(why))) {
		snprintf(fix, sizeof(fix),
			 "%s: advertise the intent (%s), or host: dcb ets "
			 "set dev %s willing off",
			 who, why, t->nd->name);
		rctl_say(j,
			 &(struct rctl_say){ .status = RCTL_FAIL,
					     .target = t->name,
					     .expected =
						     "willing host, switch advertising the intent",
					     .observed = got,
					     .evidence = ev,
					     .fix = fix },
			 "the host is willing and takes %s's configuration, "
			 "which differs from the intent: %s",
			 who, why);
	} else {
		rctl_pass_ev(j, t, "one side willing", got, ev,
			     "DCBX willing bits leave one configuration in charge");
	}
}

/* The largest frame the host sends on t: its MTU or the intent's, headers, a tag. */
static uint32_t host_frame(const struct rctl_judge *j, const struct rctl_target *t,
			   uint32_t *mtu, bool *tagged)
{
	*mtu = t->nd->mtu;
	if (j->in->mtu + 96 > *mtu)
		*mtu = j->in->mtu + 96;
	*tagged = !rctl_roce_untagged(j->h, t->port);
	return *mtu + ETH_OVERHEAD + (*tagged ? VLAN_TAG : 0);
}

void rule_peer_mfs(struct rctl_judge *j, const struct rctl_target *t)
{
	const struct rctl_lldp_peer *p;
	char exp[RCTL_FIELD_LEN], got[32], who[RCTL_FIELD_LEN], ev[RCTL_FIELD_LEN * 2];
	char fix[RCTL_FIELD_LEN * 2];
	uint32_t need, mtu;
	bool tagged;

	p = peer_of(j, t, false);
	if (!p || !p->has_mfs)
		return;
	need = host_frame(j, t, &mtu, &tagged);
	snprintf(exp, sizeof(exp), "switch MFS >= %u (MTU %u + 14 Ethernet header + 4 FCS%s)", need,
		 mtu, tagged ? " + 4 VLAN tag" : "");
	snprintf(got, sizeof(got), "switch MFS %u", p->mfs);
	snprintf(ev, sizeof(ev),
		 "LLDP 802.3 maximum frame size TLV via %s; host netdev "
		 "mtu %u, intent RoCE MTU %u (+ 96 headers)",
		 p->source, t->nd->mtu, j->in->mtu);
	sw(p, who, sizeof(who));
	if (p->mfs >= need) {
		rctl_pass_ev(j, t, exp, got, ev, "%s admits the host's %u-byte frames", who, need);
		return;
	}
	snprintf(fix, sizeof(fix),
		 "%s: raise the port's MTU to admit %u-byte frames "
		 "(or host: ip link set dev %s mtu %u)",
		 who, need, t->nd->name,
		 p->mfs > ETH_OVERHEAD + VLAN_TAG ?
			 p->mfs - ETH_OVERHEAD - (tagged ? VLAN_TAG : 0) :
			 0);
	rctl_say(j,
		 &(struct rctl_say){ .status = RCTL_FAIL,
				     .target = t->name,
				     .expected = exp,
				     .observed = got,
				     .evidence = ev,
				     .fix = fix },
		 "%s drops the host's %u-byte frames: its maximum frame size is %u", who, need,
		 p->mfs);
}
