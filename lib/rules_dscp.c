// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DSCP and CNP rules: trust, the DSCP -> priority map of the APP table
 * (duplicates kept, as the kernel does), and where CNPs are sent
 * (docs/roce-facts.md, "DSCP" and "CNP").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/rules.h"
#include "rocectl/settings.h"

/*
 * Priorities "dscp" maps to, from the APP table (or the MLNX_OFED dscp2prio
 * file when the table has no DSCP entry). Returns how many distinct ones;
 * *trust_dscp tells whether the port classifies by DSCP at all.
 */
/*
 * The DSCP map ice loads when its first DSCP APP entry switches the port
 * to DSCP mode (ice_dcbnl_setapp(), drivers/net/ethernet/intel/ice/
 * ice_dcb_nl.c, Linux 5.18 to 6.15): for TC i < max_tc and j < 8, DSCP
 * i * max_tc + j (and, below 8 TCs, that + max_tc * 8) goes to i, later i
 * winning; with 8 TCs DSCP d is priority d / 8. The dcbnl APP table lists
 * only the entries set through setapp, yet the rest of the map is real.
 * -1 where it sets nothing.
 */
static int ice_default_dscp_prio(int dscp, unsigned int max_tc)
{
	unsigned int i, j, d;
	int prio = -1;

	for (i = 0; i < max_tc; i++)
		for (j = 0; j < 8; j++) {
			d = i * max_tc + j;
			if (d == (unsigned int)dscp ||
			    (max_tc < 8 && d + max_tc * 8 == (unsigned int)dscp))
				prio = (int)i;
		}
	return prio;
}

/* ice in DSCP mode through dcbnl (no firmware agent), its TC count known. */
static int ice_map_prio(const struct rctl_netdev *nd, int dscp)
{
	enum rctl_family f = rctl_family_of(NULL, nd);

	if ((f != RCTL_FAM_ICE && f != RCTL_FAM_ICE_OOT) || !nd->ets.st.ok ||
	    !nd->ets.ets_cap || nd->ets.ets_cap > 8 ||
	    (nd->dcbx.st.ok && nd->dcbx.mode & RCTL_DCBX_LLD_MANAGED))
		return -1;
	return ice_default_dscp_prio(dscp, nd->ets.ets_cap);
}

int rctl_dscp_prios(const struct rctl_netdev *nd, int dscp, bool prios[8],
		    bool *trust_dscp)
{
	const struct rctl_app_table *a = &nd->app;
	uint32_t i;
	int n = 0;

	memset(prios, 0, 8);
	*trust_dscp = false;
	for (i = 0; i < a->n_apps; i++) {
		if (a->apps[i].selector != RCTL_APP_SEL_DSCP)
			continue;
		*trust_dscp = true;
		if (a->apps[i].protocol == (uint32_t)dscp && a->apps[i].priority < 8)
			prios[a->apps[i].priority] = true;
	}
	for (i = 0, n = 0; i < 8; i++)
		n += prios[i];
	if (*trust_dscp && !n && ice_map_prio(nd, dscp) >= 0)
		prios[ice_map_prio(nd, dscp)] = true;
	n = 0;
	if (!*trust_dscp && nd->qos.st.ok && !strcmp(nd->qos.trust, "dscp") &&
	    nd->qos.has_dscp2prio) {
		*trust_dscp = true;
		prios[nd->qos.dscp2prio[dscp] & 7] = true;
	}
	if (nd->qos.st.ok && !strcmp(nd->qos.trust, "pcp"))
		*trust_dscp = false;
	for (i = 0; i < 8; i++)
		n += prios[i];
	return n;
}

/*
 * Whether RoCE leaves this port untagged: no routable RoCE v2 GID on a VLAN
 * (or none at all). Link-local GIDs do not count: every port has them on its
 * own netdev, also when all RoCE runs on a VLAN above it. A port with RoCE
 * on a VLAN is a PCP design even when its untagged netdev has an address
 * too (management): dscp.trust_pcp warns about that address's GIDs.
 */
bool rctl_roce_untagged(const struct rctl_host *h, const struct rctl_port *p)
{
	const struct rctl_netdev *nd;
	uint32_t i;

	for (i = 0; i < p->n_gids; i++) {
		if (strcmp(p->gids[i].type, "RoCE v2") || !p->gids[i].ip[0] ||
		    !strncmp(p->gids[i].ip, "fe80:", 5))
			continue;
		nd = rctl_host_netdev(h, p->gids[i].netdev);
		if (nd && !strcmp(nd->kind, "vlan"))
			return false;
	}
	return true;
}

/*
 * Trust PCP with RoCE on VLANs is a valid design when the VLAN tag carries
 * the RoCE priority: rdma_cm sets the SL, which mlx5 sends as the PCP, to
 * egress-qos-map[rt_tos2priority(ToS)] of the VLAN (iboe_tos_to_sl(),
 * drivers/infiniband/core/cma.c). Judge that PCP on each VLAN.
 */
/*
 * Upstream irdma before Linux 6.5 puts rt_tos2priority(ToS) itself into the
 * VLAN tag (irdma_modify_qp_roce: vlan_tag = vlan_id | user_pri << 13);
 * irdma_roce_get_vlan_prio(), which applies the VLAN's egress-qos-map, came
 * with 6.5. Intel's out-of-tree irdma applies the map on every kernel: its
 * irdma_roce_get_vlan_prio() (irdma 1.11.58 src/irdma/irdma_kcompat.c, both
 * the SET_ROCE_CM_INFO_VER_3 and the older variant) maps the priority
 * through vlan_dev_get_egress_qos_mask(), as upstream 6.5 does.
 */
static bool irdma_pcp_is_skprio(const struct rctl_judge *j, const struct rctl_target *t)
{
	unsigned int major = 0, minor = 0;

	if (rctl_family_of(t->dev, t->nd) != RCTL_FAM_ICE || t->dev->driver_version[0] ||
	    sscanf(j->h->kernel, "%u.%u", &major, &minor) != 2)
		return false;
	return major < 6 || (major == 6 && minor < 5);
}

static void vlan_pcp(struct rctl_judge *j, const struct rctl_target *t)
{
	uint32_t skprio = rctl_tos2priority(j->in->tos), i, n, pcp, *first;
	bool direct = irdma_pcp_is_skprio(j, t);
	const struct rctl_netdev *v;
	char exp[48], got[96], ev[160], fix[160];
	int err;

	snprintf(exp, sizeof(exp), "PCP %d for ToS %d", j->in->prio, j->in->tos);
	first = rctl_gid_uppers(t->port, true, &n, &err);	/* not a scan per GID */
	if (err)
		j->r->oom = true;
	for (i = 0; i < n; i++) {
		v = rctl_host_netdev(j->h, t->port->gids[first[i]].netdev);
		if (!v || strcmp(v->kind, "vlan"))
			continue;
		pcp = direct ? skprio & 7 : v->vlan_egress_qos[skprio & 7];
		snprintf(got, sizeof(got), "trust pcp, ToS %d -> skb priority %u -> PCP %u on '%s'",
			 j->in->tos, skprio, pcp, v->name);
		if (direct)
			snprintf(ev, sizeof(ev), "irdma of Linux %s tags RoCE with rt_tos2priority(ToS), "
				 "not through the egress-qos-map of '%s' (irdma_modify_qp_roce)",
				 j->h->kernel, v->name);
		else
			snprintf(ev, sizeof(ev), "egress-qos-map of '%s' (VLAN %u on '%s')", v->name,
				 v->vlan_id, v->vlan_lower);
		if (pcp == (uint32_t)j->in->prio) {
			rctl_pass_ev(j, t, exp, got, ev,
				     "PCP trust with RoCE on VLAN %u: the VLAN tag carries prio %u",
				     v->vlan_id, pcp);
			continue;
		}
		if (direct)
			snprintf(fix, sizeof(fix), "Linux 6.5 or later (irdma applies the egress-qos-map), "
				 "or DSCP trust: dcb app add dev %s dscp-prio %d:%d", t->nd->name,
				 j->in->dscp, j->in->prio);
		else
			snprintf(fix, sizeof(fix), "ip link set dev %s type vlan egress-qos-map %u:%d",
				 v->name, skprio, j->in->prio);
		rctl_say(
			j,
			&(struct rctl_say){ .status = RCTL_FAIL,
					    .target = t->name,
					    .expected = exp,
					    .observed = got,
					    .evidence = ev,
					    .fix = fix },
			"RoCE on VLAN %u leaves with PCP %u: the port trusts PCP, so it lands on prio %u, not %d",
			v->vlan_id, pcp, pcp, j->in->prio);
		if (direct)
			rctl_emit_setting(j, RCTL_SET_NONE);	/* no map tune could write */
	}
	free(first);
}

/*
 * The APP change tune plans for DSCP d -> prio p, as one command line: mlx5
 * replaces the DSCP's entry (mlx5e_dcbnl_ieee_setapp); the dcbnl core's list
 * (bnxt_en) gets the new entry, then loses the old ones; ice refuses a DSCP
 * already mapped, so there the old ones go first, and its first DSCP entry
 * resets ETS, which tune writes again after it.
 */
static void app_fix(const struct rctl_target *t, int d, int p, const bool prios[8],
		    char *fix, size_t len)
{
	enum rctl_family f = rctl_family_of(t->dev, t->nd);
	bool ice = f == RCTL_FAM_ICE || f == RCTL_FAM_ICE_OOT;
	size_t o = 0;
	int i, pass;

	if (rctl_family_mlx5(f)) {
		rctl_render_app(t->nd->name, "replace", d, p, fix, len);
		return;
	}
	fix[0] = '\0';
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < 8; i++) {
			bool del = pass == ice ? false : true;

			if ((del && (!prios[i] || i == p)) || (!del && i != p) || o >= len)
				continue;
			o += snprintf(fix + o, len - o, "%s", o ? " && " : "");
			if (o < len)
				rctl_render_app(t->nd->name, del ? "del" : "add", d, i, fix + o, len - o);
			o = strlen(fix);
		}
	if (ice && o < len)
		snprintf(fix + o, len - o, " (ice: the first DSCP entry resets ETS: set ETS and PFC "
			 "again after it)");
}

/* A routable GID of p on a netdev that is no VLAN: RoCE through it leaves untagged. */
static bool untagged_gid(const struct rctl_host *h, const struct rctl_port *p, uint32_t i)
{
	const struct rctl_netdev *nd;

	if (!p->gids[i].ip[0] || !strncmp(p->gids[i].ip, "fe80:", 5))
		return false;
	nd = rctl_host_netdev(h, p->gids[i].netdev);
	return !nd || strcmp(nd->kind, "vlan");
}

/* Whether some RoCE of p leaves untagged: a routable GID on no VLAN. */
static bool any_untagged_gid(const struct rctl_host *h, const struct rctl_port *p)
{
	uint32_t i;

	for (i = 0; i < p->n_gids; i++)
		if (untagged_gid(h, p, i))
			return true;
	return false;
}

/*
 * A PCP design (RoCE on VLANs, their egress-qos-map giving the PCP) whose
 * untagged netdev also has an address (management): RoCE through that
 * address's GIDs leaves without a tag and lands on priority 0, RoCE on the
 * VLANs does not. A warning naming those GIDs, not a failure of the port.
 */
static void untagged_gids(struct rctl_judge *j, const struct rctl_target *t, const bool prios[8])
{
	const struct rctl_port *p = t->port;
	char got[RCTL_FIELD_LEN], fix[RCTL_FIELD_LEN * 2];
	size_t o = 0;
	uint32_t i, n = 0;

	got[0] = '\0';
	for (i = 0; i < p->n_gids; i++)
		if (untagged_gid(j->h, p, i) && o < sizeof(got)) {
			o += snprintf(got + o, sizeof(got) - o, "%sGID %u (%s %s on '%s')",
				      n++ ? ", " : "", p->gids[i].index, p->gids[i].type,
				      p->gids[i].ip, p->gids[i].netdev);
		}
	o = snprintf(fix, sizeof(fix), "use the VLANs' GIDs for RoCE, or trust DSCP: ");
	app_fix(t, j->in->dscp, j->in->prio, prios, fix + o, sizeof(fix) - o);
	rctl_say(j,
		 &(struct rctl_say){ .status = RCTL_WARN,
				     .target = t->name,
				     .expected = "RoCE tagged on its VLANs",
				     .observed = got,
				     .evidence = "trust pcp (no DSCP entries); routable GIDs on an untagged netdev",
				     .fix = fix },
		 "the port trusts PCP: RoCE through %s leaves untagged and lands on prio 0 "
		 "(RoCE on the VLANs keeps its PCP)", got);
	rctl_emit_setting(j, RCTL_SET_NONE);	/* a design choice: tune changes no trust here */
}

void rule_dscp_trust_pcp(struct rctl_judge *j, const struct rctl_target *t)
{
	char fix[320];
	bool prios[8], trust;

	rctl_dscp_prios(t->nd, j->in->dscp, prios, &trust);
	if (trust) {
		rctl_pass(j, t, "trust dscp", "trust dscp", "the port classifies by DSCP");
	} else if (!rctl_roce_untagged(j->h, t->port)) {
		vlan_pcp(j, t);
		if (any_untagged_gid(j->h, t->port))
			untagged_gids(j, t, prios);
	} else {
		app_fix(t, j->in->dscp, j->in->prio, prios, fix, sizeof(fix));
		rctl_say(j,
			 &(struct rctl_say){ .status = RCTL_FAIL,
					     .target = t->name,
					     .expected = "trust dscp",
					     .observed = "trust pcp (no DSCP entries)",
					     .evidence = "no DSCP selector in the APP table",
					     .fix = fix },
			 "the port trusts PCP but RoCE is untagged L3: all RoCE lands on prio 0");
	}
}

void rule_dscp_missing(struct rctl_judge *j, const struct rctl_target *t)
{
	char exp[48], got[64], fix[320], list[24];
	bool prios[8], trust;
	int d = j->in->dscp, p = j->in->prio, n;

	n = rctl_dscp_prios(t->nd, d, prios, &trust);
	if (!trust) /* dscp.trust_pcp says it */
		return;
	snprintf(exp, sizeof(exp), "DSCP %d -> prio %d", d, p);
	snprintf(got, sizeof(got), "DSCP %d -> prio %s", d,
		 rctl_prio_list(prios, list, sizeof(list)));
	if (prios[p]) {
		rctl_pass(j, t, exp, got, "DSCP %d maps to RoCE prio %d", d, p);
		return;
	}
	app_fix(t, d, p, prios, fix, sizeof(fix));
	rctl_say(j,
		 &(struct rctl_say){ .status = RCTL_FAIL,
				     .target = t->name,
				     .expected = exp,
				     .observed = got,
				     .fix = fix },
		 n ? "DSCP %d maps to another priority than RoCE prio %d: RoCE runs lossy" :
		     "DSCP %d is not in the DSCP map: RoCE lands on the default priority, not %d",
		 d, p);
}

void rule_dscp_ambiguous(struct rctl_judge *j, const struct rctl_target *t)
{
	char got[64], fix[160], list[24];
	bool prios[8], trust;
	int d = j->in->dscp, n, i, k;
	size_t off;

	n = rctl_dscp_prios(t->nd, d, prios, &trust);
	if (!trust || !n)
		return;
	snprintf(got, sizeof(got), "DSCP %d -> prio %s", d,
		 rctl_prio_list(prios, list, sizeof(list)));
	if (n == 1) {
		rctl_pass(j, t, "one priority", got, "DSCP %d maps to one priority", d);
		return;
	}
	/* Keep the intended priority if present, else the first one. */
	for (k = 0; k < 7 && !prios[k]; k++)
		;
	if (prios[j->in->prio])
		k = j->in->prio;
	off = snprintf(fix, sizeof(fix), "dcb app del dev %s dscp-prio", t->nd->name);
	for (i = 0; i < 8; i++) {
		if (!prios[i] || i == k)
			continue;
		off += snprintf(fix + off, sizeof(fix) - off, " %d:%d", d, i);
	}
	rctl_say(j,
		 &(struct rctl_say){ .status = RCTL_FAIL,
				     .target = t->name,
				     .expected = "one priority",
				     .observed = got,
				     .fix = fix },
		 "DSCP %d is mapped to %d priorities: which one applies depends on the driver", d,
		 n);
}

/*
 * The command that sets a CNP parameter where the driver keeps it, in the
 * base it parses: the same render as tune's change (rocectl/settings.h).
 */
static void cc_fix(const struct rctl_cc *cc, const char *name, unsigned int v,
		   char *buf, size_t len)
{
	char path[384], text[24];

	buf[0] = '\0';
	if (!strcmp(cc->source, "bnxt_re-debugfs")) {	/* no write path tune owns */
		snprintf(buf, len, "bnxt_setupcc.sh or niccli (Broadcom): %s %u", name, v);
		return;
	}
	if (rctl_cc_param_path(cc, name, path, sizeof(path)))
		rctl_cc_write_cmd(cc, path, rctl_cc_value_text(cc, v, text, sizeof(text)), buf, len);
}

/*
 * mlx5's np_cnp_prio_mode 1: the CNP takes the priority of the packet it
 * answers, np_cnp_prio is unused (cong.c: cnp_prio_mode beside
 * cnp_802p_prio; a write of np_cnp_prio sets the mode back to 0).
 */
static bool cnp_prio_follows(const struct rctl_cc *cc)
{
	uint64_t m;

	return rctl_cc_get(cc, "np_cnp_prio_mode", &m) && m == 1;
}

/* Where CNPs land: their priority from the map, else np_cnp_prio. */
static int cnp_lands(const struct rctl_netdev *nd, uint64_t cdscp, bool hp,
		     uint64_t cprio)
{
	bool prios[8], trust;
	int i;

	if (rctl_dscp_prios(nd, cdscp & 63, prios, &trust) && trust)
		for (i = 0; i < 8; i++)
			if (prios[i])
				return i;
	return hp ? (int)(cprio & 7) : -1;
}

static bool no_cnp_setting(const struct rctl_target *t)
{
	enum rctl_family f = rctl_family_of(t->dev, t->nd);

	return f == RCTL_FAM_ICE || f == RCTL_FAM_ICE_OOT;
}

/* E810 has no CNP setting to judge, readable or not. */
bool rule_cnp_data_prio_unreadable(struct rctl_judge *j, const struct rctl_target *t)
{
	(void)j;
	return no_cnp_setting(t);
}

void rule_cnp_data_prio(struct rctl_judge *j, const struct rctl_target *t)
{
	char got[64], fix[320];
	uint64_t cd, cp = 0;
	bool hp, pfc;
	int lands;

	const struct rctl_cc *cc = &t->nd->cc;

	/*
	 * E810 (irdma, inbox or Intel's) has no CNP DSCP or priority
	 * setting at all: nothing to judge, also where cc is unreadable.
	 */
	if (no_cnp_setting(t))
		return;
	if (!rctl_cc_get(cc, "np_cnp_dscp", &cd)) {
		rctl_say(j,
			 &(struct rctl_say){ .status = RCTL_UNKNOWN,
					     .target = t->name,
					     .observed = "unknown",
					     .evidence = cc->source },
			 "%s does not export the CNP DSCP", cc->source);
		return;
	}
	hp = rctl_cc_get(cc, "np_cnp_prio", &cp);
	/* Following the packet, a CNP answering RoCE data takes the data's priority. */
	if (cnp_prio_follows(cc)) {
		hp = true;
		cp = (uint64_t)j->in->prio;
	}
	lands = cnp_lands(t->nd, cd, hp, cp);
	pfc = lands >= 0 && t->nd->pfc.st.ok && t->nd->pfc.pfc_en[lands];
	snprintf(got, sizeof(got), "CNP DSCP %llu -> prio %d%s", (unsigned long long)cd, lands,
		 cnp_prio_follows(cc) ? " (np_cnp_prio_mode 1)" : "");
	if (cd != (uint64_t)j->in->dscp && lands != j->in->prio && !pfc) {
		rctl_pass(j, t, "CNPs apart from data", got, "CNPs travel apart from RoCE data");
		return;
	}
	if (cd == (uint64_t)j->in->dscp || !cnp_prio_follows(cc))
		cc_fix(cc, "np_cnp_dscp", j->in->cnp_dscp, fix, sizeof(fix));
	else
		cc_fix(cc, "np_cnp_prio", j->in->cnp_prio, fix, sizeof(fix));
	rctl_say(j,
		 &(struct rctl_say){ .status = RCTL_FAIL,
				     .target = t->name,
				     .expected = "CNPs apart from data",
				     .observed = got,
				     .evidence = rctl_cc_evidence(cc),
				     .fix = fix },
		 "CNPs share %s: they queue behind the congestion they report",
		 lands == j->in->prio || cd == (uint64_t)j->in->dscp ? "the RoCE data priority" :
								       "a PFC priority");
	if (cd != (uint64_t)j->in->dscp && cnp_prio_follows(cc))
		rctl_emit_setting(j, RCTL_SET_CNP_PRIO);
}

void rule_cnp_mismatch(struct rctl_judge *j, const struct rctl_target *t)
{
	char exp[48], got[80], fix[320];
	uint64_t cd, cp = 0;
	bool hp;

	const struct rctl_cc *cc = &t->nd->cc;

	if (!rctl_cc_get(cc, "np_cnp_dscp", &cd) ||
	    cd == (uint64_t)j->in->dscp) /* cnp.data_prio */
		return;
	hp = rctl_cc_get(cc, "np_cnp_prio", &cp);
	snprintf(exp, sizeof(exp), "CNP DSCP %d prio %d", j->in->cnp_dscp, j->in->cnp_prio);
	if (cnp_prio_follows(cc))
		snprintf(got, sizeof(got), "CNP DSCP %llu prio of each packet (np_cnp_prio_mode 1)",
			 (unsigned long long)cd);
	else
		snprintf(got, sizeof(got), "CNP DSCP %llu prio %lld", (unsigned long long)cd,
			 hp ? (long long)cp : -1LL);
	if (cd != (uint64_t)j->in->cnp_dscp)
		cc_fix(cc, "np_cnp_dscp", j->in->cnp_dscp, fix, sizeof(fix));
	else if (hp && (cp != (uint64_t)j->in->cnp_prio || cnp_prio_follows(cc)))
		cc_fix(cc, "np_cnp_prio", j->in->cnp_prio, fix, sizeof(fix));
	else {
		rctl_pass_ev(j, t, exp, got, rctl_cc_evidence(cc),
			     "CNP DSCP and priority are as intended");
		return;
	}
	rctl_say(j,
		 &(struct rctl_say){ .status = RCTL_WARN,
				     .target = t->name,
				     .expected = exp,
				     .observed = got,
				     .evidence = rctl_cc_evidence(cc),
				     .fix = fix },
		 "CNP marking differs from the intent (and likely from the switches)");
	if (cd == (uint64_t)j->in->cnp_dscp)
		rctl_emit_setting(j, RCTL_SET_CNP_PRIO);
}

/*
 * Broadcom's bnxt_re keeps the RoCE DSCP and priority in its cc/ configfs
 * (roce_dscp, roce_prio): the firmware's DSCP -> priority map for RoCE
 * (bnxt_re_init_d2p_map, configfs.c 233.2.77.9). Another DSCP there sends
 * RoCE outside the lossless class, as a missing APP entry does elsewhere.
 */
void rule_dscp_roce_marking(struct rctl_judge *j, const struct rctl_target *t)
{
	char exp[48], got[48], fix[320];
	uint64_t d, p;

	const struct rctl_cc *cc = &t->nd->cc;
	bool bad_d, bad_p;

	if (!rctl_cc_get(cc, "roce_dscp", &d) || !rctl_cc_get(cc, "roce_prio", &p))
		return;
	snprintf(exp, sizeof(exp), "RoCE DSCP %d prio %d", j->in->dscp, j->in->prio);
	snprintf(got, sizeof(got), "RoCE DSCP %llu prio %llu", (unsigned long long)d,
		 (unsigned long long)p);
	bad_d = d != (uint64_t)j->in->dscp;
	bad_p = p != (uint64_t)j->in->prio;
	if (!bad_d && !bad_p) {
		rctl_pass_ev(j, t, exp, got, rctl_cc_evidence(cc),
			     "the driver maps the RoCE DSCP to the RoCE priority");
		return;
	}
	cc_fix(cc, bad_d ? "roce_dscp" : "roce_prio", bad_d ? j->in->dscp : j->in->prio, fix,
	       sizeof(fix));
	rctl_say(j,
		 &(struct rctl_say){ .status = RCTL_WARN,
				     .target = t->name,
				     .expected = exp,
				     .observed = got,
				     .evidence = rctl_cc_evidence(cc),
				     .fix = fix },
		 "bnxt_re marks or maps RoCE at %s: RoCE leaves the lossless class",
		 bad_d ? "another DSCP" : "another priority");
	rctl_emit_setting(j, bad_d ? RCTL_SET_ROCE_DSCP : RCTL_SET_ROCE_PRIO);
}
