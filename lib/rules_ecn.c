// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ECN/DCQCN rules: per-priority enables of the notification and reaction
 * points from whichever home the driver has, and whether the congestion-
 * control parameters could be read at all (docs/roce-facts.md, "ECN").
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rocectl/rules.h"
#include "rocectl/sysfs.h"
#include "rocectl/settings.h"

bool rctl_dcqcn_hardwired_off(const struct rctl_target *t)
{
	return rctl_family_of(t->dev, t->nd) == RCTL_FAM_ICE && !t->dev->driver_version[0] &&
	       !t->nd->cc.st.ok;
}

/*
 * The ECN codepoint of the RoCE packets this host sends, 0 Not-ECT, which
 * no switch marks: the reaction point never gets a CNP, whatever the
 * enable says; the notification point still answers the peers' marked
 * packets. Broadcom's out-of-tree bnxt_re shows it as configfs ecn_marking
 * (configfs.c ecn_marking_show/_store: tos_ecn, 0..2), inbox bnxt_re as
 * debugfs cc_config/tos_ecn (debugfs.c); both are cc_param->tos_ecn, which
 * bnxt_qplib_modify_cc() (qplib_sp.c, Linux 6.15) sends in tos_dscp_tos_ecn.
 */
static bool not_ect(const struct rctl_cc *cc)
{
	uint64_t v;

	if (!cc->st.ok)
		return false;
	if (!strcmp(cc->source, "bnxt_re-configfs"))
		return rctl_cc_get(cc, "ecn_marking", &v) && !v;
	return !strcmp(cc->source, "bnxt_re-debugfs") && rctl_cc_get(cc, "ecn_enable", &v) && v &&
	       rctl_cc_get(cc, "tos_ecn", &v) && !v;
}

int rctl_ecn_on(const struct rctl_target *t, int prio, bool np)
{
	const struct rctl_cc *cc = &t->nd->cc;
	uint64_t v;

	if (rctl_dcqcn_hardwired_off(t) || (!np && not_ect(cc)))
		return 0;
	if (!cc->st.ok)
		return -2;
	if (cc->enable_known)
		return np ? cc->np_enable[prio] : cc->rp_enable[prio];
	if (rctl_cc_get(cc, "ecn_enable", &v))	/* bnxt_re: both sides */
		return v != 0;
	if (rctl_cc_get(cc, "roce_dcqcn_enable", &v))	/* irdma */
		return v != 0;
	return -1;
}

/* The command that turns ECN on, in the home the driver has: each vendor its own. */
enum rctl_setting rctl_ecn_setting(const struct rctl_target *t, bool np)
{
	if (rctl_dcqcn_hardwired_off(t))	/* none tune writes */
		return RCTL_SET_NONE;
	if (!np && not_ect(&t->nd->cc))		/* Broadcom's bnxt_re: the codepoint */
		return RCTL_SET_ECN_MARKING;
	if (!strcmp(t->nd->cc.source, "mlx5-sysfs"))	/* MLNX_OFED: one file per side and prio */
		return np ? RCTL_SET_ECN_NP : RCTL_SET_ECN_RP;
	return RCTL_SET_ECN;
}

const char *rctl_ecn_evidence(const struct rctl_target *t, bool np)
{
	if (rctl_dcqcn_hardwired_off(t))
		return "upstream irdma: dcqcn_en false in every RoCE QP context "
		       "(irdma/verbs.c irdma_roce_fill_and_set_qpctx_info)";
	if (!np && not_ect(&t->nd->cc))
		return strcmp(t->nd->cc.source, "bnxt_re-debugfs") ?
		       "bnxt_re-configfs ecn_marking 0: RoCE packets leave Not-ECT (driver copy)" :
		       "bnxt_re-debugfs tos_ecn 0: RoCE packets leave Not-ECT (bnxt_qplib_modify_cc)";
	return rctl_cc_evidence(&t->nd->cc);
}

void rctl_ecn_fix(const struct rctl_target *t, int prio, bool np, char *buf, size_t len)
{
	const struct rctl_netdev *nd = t->nd;
	const struct rctl_cc *cc = &nd->cc;
	char path[384], one[8];
	uint64_t v;

	buf[0] = '\0';
	rctl_cc_value_text(cc, 1, one, sizeof(one));
	if (rctl_dcqcn_hardwired_off(t)) {
		snprintf(buf, len, "Intel's out-of-tree irdma for %s, then echo 1 > "
			 "%s/irdma/%s/roce_dcqcn_enable (upstream irdma has no DCQCN switch)",
			 t->dev->name, rctl_configfs(), t->dev->name);
		return;
	}
	if (!np && not_ect(cc) && !strcmp(cc->source, "bnxt_re-debugfs")) {
		snprintf(buf, len, "bnxt_setupcc.sh or niccli (Broadcom) for %s: tos_ecn 1 "
			 "(inbox bnxt_re's cc_config is read-only)", nd->name);
		return;
	}
	if (!np && not_ect(cc)) {		/* ECT(1): the codepoint a switch marks */
		snprintf(path, sizeof(path), "%s/ecn_marking", cc->path);
		rctl_cc_value_text(cc, RCTL_ECN_MARKING_ECT1, one, sizeof(one));
		rctl_cc_write_cmd(cc, path, one, buf, len);
		return;
	}
	if (!strcmp(cc->source, "mlx5-sysfs"))		/* MLNX_OFED only */
		snprintf(path, sizeof(path), "%s/class/net/%s/ecn/roce_%s/enable/%d",
			 rctl_sysfs(), nd->name, np ? "np" : "rp", prio);
	else if (!strcmp(cc->source, "bnxt_re-debugfs")) {
		snprintf(buf, len, "bnxt_setupcc.sh or niccli (Broadcom) for %s: enable_cc 1, "
			 "tos_ecn 1 (inbox bnxt_re has no persistent ECN setting)", nd->name);
		return;
	} else if (rctl_cc_get(cc, "ecn_enable", &v) || rctl_cc_get(cc, "roce_dcqcn_enable", &v))
		snprintf(path, sizeof(path), "%s/%s", cc->path,
			 rctl_cc_get(cc, "ecn_enable", &v) ? "ecn_enable" : "roce_dcqcn_enable");
	else
		return;
	rctl_cc_write_cmd(cc, path, one, buf, len);	/* tune's render */
}

/* Upstream mlx5: the enable is firmware's; only counters can hint it is off. */
static void ecn_by_counters(struct rctl_judge *j, const struct rctl_target *t,
			    bool np, const char *exp)
{
	const struct rctl_port *p = t->port;
	uint64_t marked = rctl_delta_of(p->hw, p->n_hw, "np_ecn_marked_roce_packets");
	uint64_t sent = rctl_delta_of(p->hw, p->n_hw, "np_cnp_sent");
	uint64_t rx_cnp = rctl_delta_of(p->hw, p->n_hw, "cc_rx_cnp_pkts");
	uint64_t handled = rctl_delta_of(p->hw, p->n_hw, "rp_cnp_handled");
	uint64_t ignored = rctl_delta_of(p->hw, p->n_hw, "rp_cnp_ignored");
	char got[96], fix[160];

	snprintf(fix, sizeof(fix), "mlxconfig -d %s set ROCE_CC_PRIO_MASK_P%u=255",
		 t->nd->pci[0] ? t->nd->pci : t->dev->name, p->port);
	if (np && marked && !sent) {
		snprintf(got, sizeof(got), "+%llu CE-marked, +0 CNPs sent",
			 (unsigned long long)marked);
		rctl_say(j,
			 &(struct rctl_say){ .status = RCTL_WARN,
					     .target = t->name,
					     .expected = exp,
					     .observed = got,
					     .evidence = "hw_counters deltas",
					     .fix = fix },
			 "CE-marked RoCE packets arrived but no CNP was sent: NP looks disabled");
	} else if (!np && (ignored || (rx_cnp && !handled))) {
		snprintf(got, sizeof(got), "+%llu CNPs received, +%llu handled, +%llu ignored",
			 (unsigned long long)rx_cnp, (unsigned long long)handled,
			 (unsigned long long)ignored);
		rctl_say(j,
			 &(struct rctl_say){ .status = RCTL_WARN,
					     .target = t->name,
					     .expected = exp,
					     .observed = got,
					     .evidence = "hw_counters deltas",
					     .fix = fix },
			 "CNPs arrived but the RP did not react: RP looks disabled");
	} else {
		rctl_say(
			j,
			&(struct rctl_say){ .status = RCTL_PASS,
					    .target = t->name,
					    .expected = exp,
					    .observed = "firmware setting (NVCONFIG)",
					    .evidence = t->nd->cc.source },
			"per-priority ECN enable lives in firmware; counters show no sign of it being off");
	}
}

static void ecn_side(struct rctl_judge *j, const struct rctl_target *t, bool np)
{
	const char *side = np ? "notification point" : "reaction point";
	char exp[48], fix[320];
	int p = j->in->prio, on;

	if (!j->in->ecn)
		return;
	on = rctl_ecn_on(t, p, np);
	snprintf(exp, sizeof(exp), "ECN %s on prio %d", np ? "np" : "rp", p);
	if (on == -2) /* dcqcn.params reports it */
		return;
	if (on == -1) {
		ecn_by_counters(j, t, np, exp);
		return;
	}
	if (on) {
		rctl_pass_ev(j, t, exp, "on", rctl_ecn_evidence(t, np), "ECN %s is on for prio %d",
			     side, p);
		return;
	}
	rctl_ecn_fix(t, p, np, fix, sizeof(fix));
	/*
	 * Inbox irdma: no host setting turns DCQCN on (only another driver
	 * does), so a healthy E810 host is warned of it, never failed.
	 */
	rctl_say(j,
		 &(struct rctl_say){ .status = rctl_dcqcn_hardwired_off(t) ? RCTL_WARN : RCTL_FAIL,
				     .target = t->name,
				     .expected = exp,
				     .observed = "off",
				     .evidence = rctl_ecn_evidence(t, np),
				     .fix = fix },
		 "ECN %s is off for RoCE prio %d: %s", side, p,
		 np		     ? "no CNPs are sent, senders never slow down" :
		 not_ect(&t->nd->cc) ? "RoCE packets leave Not-ECT, no switch marks them, "
				       "this host never slows down" :
				       "CNPs are ignored, this host never slows down");
	rctl_emit_setting(j, rctl_ecn_setting(t, np));
}

void rule_ecn_np_disabled(struct rctl_judge *j, const struct rctl_target *t)
{
	ecn_side(j, t, true);
}

void rule_ecn_rp_disabled(struct rctl_judge *j, const struct rctl_target *t)
{
	ecn_side(j, t, false);
}

/* The other half of the pair: in a lossless design ECN alone is not enough. */
void rule_ecn_without_pfc(struct rctl_judge *j, const struct rctl_target *t)
{
	char exp[48], fix[160];
	int p = j->in->prio;

	if (!j->in->pfc || t->nd->pfc.pfc_en[p] ||
	    rctl_ecn_on(t, p, true) != 1)
		return;
	snprintf(exp, sizeof(exp), "ECN and PFC on prio %d", p);
	snprintf(fix, sizeof(fix), "dcb pfc set dev %s prio-pfc %d:on", t->nd->name, p);
	rctl_say(
		j,
		&(struct rctl_say){ .status = RCTL_WARN,
				    .target = t->name,
				    .expected = exp,
				    .observed = "ECN on, PFC off",
				    .fix = fix },
		"ECN without PFC on prio %d in the %s profile: throughput collapses on the first drop",
		p, j->in->profile);
}

/* Upstream irdma has no parameters: DCQCN is off by its code, not unreadable. */
bool rule_dcqcn_params_unreadable(struct rctl_judge *j, const struct rctl_target *t)
{
	if (!rctl_dcqcn_hardwired_off(t))
		return false;
	rctl_say(j,
		 &(struct rctl_say){ .status = j->in->ecn ? RCTL_WARN : RCTL_PASS,
				     .target = t->name,
				     .expected = j->in->ecn ? "DCQCN on" : "readable",
				     .observed = "off, no parameters",
				     .evidence = rctl_ecn_evidence(t, false) },
		 "DCQCN is off on upstream irdma: the driver turns it off in every "
		 "RoCE QP and has no parameters to read");
	return true;
}

void rule_dcqcn_params(struct rctl_judge *j, const struct rctl_target *t)
{
	char ev[320], cd[24] = "unknown", cp[24] = "unknown";
	uint64_t v;

	const struct rctl_cc *cc = &t->nd->cc;

	if (rctl_cc_get(cc, "np_cnp_dscp", &v))
		snprintf(cd, sizeof(cd), "%llu", (unsigned long long)v);
	if (rctl_cc_get(cc, "np_cnp_prio", &v))
		snprintf(cp, sizeof(cp), "%llu", (unsigned long long)v);
	snprintf(ev, sizeof(ev), "%s %s: %u parameters%s", cc->source, cc->path, cc->n_params,
		 cc->enable_known ? ", per-priority enables" : "");
	rctl_pass_ev(j, t, "readable", "readable", ev,
		     "DCQCN parameters read from %s (cnp_dscp %s, cnp_prio %s)", cc->source, cd,
		     cp);
}

/*
 * On an SR-IOV VF, trust, the DSCP map, PFC and ECN/DCQCN are the PF's
 * (docs/roce-facts.md, "SR-IOV VFs": OFED makes no ecn/ sysfs for VFs, DSCP
 * cannot be set on a VF). When the PF's netdev is in the model the runner
 * judges the VF's port on it (RCTL_SCOPE_QOS, RCTL_SCOPE_PF: "DEV/PORT (VF
 * via PF PF)"), and this finding says so; otherwise it says where to look.
 */
void rule_ecn_sriov_vf(struct rctl_judge *j, const struct rctl_target *t)
{
	char exp[64], got[80], fix[96];
	const char *pf;

	if (!t->nd->sriov_vf)
		return;
	pf = t->nd->sriov_pf[0] ? t->nd->sriov_pf : t->nd->sriov_pf_pci;
	snprintf(exp, sizeof(exp), "settings checked on the PF '%s'", pf);
	snprintf(got, sizeof(got), "'%s' is a VF of '%s' (%s)", t->nd->name, pf,
		 t->nd->sriov_pf_pci);
	snprintf(fix, sizeof(fix), "rocectl check all --dev %s", pf);
	if (t->nd->sriov_pf[0] && rctl_host_netdev(j->h, pf)) {
		rctl_pass(j, t, exp, got, "'%s' is an SR-IOV VF: PFC, DSCP trust and ECN/DCQCN are judged on its PF '%s' "
			  "(the findings on '%s via PF %s')",
			  t->nd->name, pf, t->nd->name, pf);
		return;
	}
	rctl_say(
		j,
		&(struct rctl_say){ .status = RCTL_WARN,
				    .target = t->name,
				    .expected = exp,
				    .observed = got,
				    .evidence = "device/physfn",
				    .fix = t->nd->sriov_pf[0] ? fix : NULL },
		"'%s' is an SR-IOV VF: PFC, DSCP trust and ECN/DCQCN are set on its PF '%s' and must be checked there",
		t->nd->name, pf);
}
