// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * PFC rules: dcbnl IEEE PFC, ETS, buffer and DCBX of the netdev under each
 * RoCE port, global pause, lldpad (docs/roce-facts.md, "PFC").
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rocectl/catalog.h"
#include "rocectl/rules.h"
#include "rocectl/settings.h"

/*
 * PFC the driver cannot report (firmware-managed): the per-priority PFC
 * frame counters still tell. Frames this NIC sent on the priority prove
 * PFC is on here; frames only received prove it only for the peer.
 */
static void pfc_by_frames(struct rctl_judge *j, const struct rctl_target *t, const char *exp)
{
	const struct rctl_netdev *nd = t->nd;
	int p = j->in->prio;
	uint64_t tx, rx;
	bool found;
	char got[96];

	tx = rctl_catalog_sum(nd->driver, RCTL_SRC_ETHTOOL, RCTL_ROLE_PFC_TX, p, nd->stats,
			      nd->n_stats, &found, NULL, 0);
	rx = rctl_catalog_sum(nd->driver, RCTL_SRC_ETHTOOL, RCTL_ROLE_PFC_RX, p, nd->stats,
			      nd->n_stats, NULL, NULL, 0);
	snprintf(got, sizeof(got),
		 "PFC read as zero; prio %d PFC frames +%llu sent, +%llu received",
		 p, (unsigned long long)tx, (unsigned long long)rx);
	if (tx) {
		rctl_pass_ev(
			j, t, exp, got, nd->pfc.st.reason,
			"PFC is on for RoCE prio %d: the driver reads zero (firmware-managed), "
			"but '%s' sent PFC frames on it",
			p, nd->name);
		return;
	}
	rctl_say(j,
		 &(struct rctl_say){ .status = RCTL_UNKNOWN,
				     .target = t->name,
				     .expected = exp,
				     .observed = found ? got : "unknown",
				     .evidence = nd->pfc.st.reason },
		 "cannot read PFC of '%s': %s; %s", nd->name, nd->pfc.st.reason,
		 !rctl_host_has_deltas(j->h) || !found ?
			 "no PFC frame counters over an interval to tell" :
		 rx ? "the peer sent PFC on the prio but this NIC sent none" :
		      "no PFC frame moved on the prio during the interval");
}

/*
 * Whether PFC of "prio" on the target's netdev is as wanted ("on"); when not,
 * fix gets the dcb command that sets it.
 */
static bool pfc_prio_as_wanted(const struct rctl_target *t, int prio, bool on, char *fix,
			       size_t len)
{
	if (t->nd->pfc.pfc_en[prio] == on)
		return true;
	snprintf(fix, len, "dcb pfc set dev %s prio-pfc %d:%s", t->nd->name, prio,
		 on ? "on" : "off");
	return false;
}

/* PFC the driver answers zero for (firmware-managed): its frame counters tell. */
bool rule_pfc_prio_unreadable(struct rctl_judge *j, const struct rctl_target *t)
{
	char exp[64];

	if (t->nd->pfc.st.err != RCTL_FW_MANAGED || !j->in->pfc)
		return false;
	snprintf(exp, sizeof(exp), "PFC on prio %d", j->in->prio);
	pfc_by_frames(j, t, exp);
	return true;
}

void rule_pfc_prio_disabled(struct rctl_judge *j, const struct rctl_target *t)
{
	char exp[64], got[64], ev[96], fix[160];
	int p = j->in->prio;
	bool ok;

	const struct rctl_pfc *pfc = &t->nd->pfc;

	if (!j->in->pfc)
		return;
	snprintf(exp, sizeof(exp), "PFC on prio %d", p);
	snprintf(got, sizeof(got), "PFC on prio %s", rctl_prio_list(pfc->pfc_en, ev, sizeof(ev)));
	snprintf(ev, sizeof(ev), "dcbnl ieee_pfc of '%s': pfc_cap %u", t->nd->name, pfc->pfc_cap);
	ok = pfc_prio_as_wanted(t, p, true, fix, sizeof(fix));
	rctl_say(j,
		 &(struct rctl_say){ .status = ok ? RCTL_PASS : RCTL_FAIL,
				     .target = t->name,
				     .expected = exp,
				     .observed = got,
				     .evidence = ev,
				     .fix = ok ? NULL : fix },
		 ok ? "PFC is on for RoCE prio %d" :
		      "PFC is off for RoCE prio %d: drops on congestion instead of pause",
		 p);
}

/* Every priority with PFC on that should not have it, as "0:off 5:off". */
static int extra_prios(const struct rctl_judge *j, const bool en[8], char *off,
		       size_t len)
{
	size_t o = 0;
	int i, n = 0;

	off[0] = '\0';
	for (i = 0; i < 8; i++) {
		if (!en[i] || (j->in->pfc && i == j->in->prio) || i == j->in->cnp_prio)
			continue;
		o += snprintf(off + o, len - o, " %d:off", i);
		n++;
	}
	return n;
}

void rule_pfc_extra_prio(struct rctl_judge *j, const struct rctl_target *t)
{
	char exp[64], got[64], off[64], fix[160];

	const struct rctl_pfc *pfc = &t->nd->pfc;

	if (j->in->pfc)
		snprintf(exp, sizeof(exp), "PFC on prio %d only", j->in->prio);
	else
		snprintf(exp, sizeof(exp), "no PFC (%s)", j->in->profile);
	snprintf(got, sizeof(got), "PFC on prio %s", rctl_prio_list(pfc->pfc_en, off, sizeof(off)));
	if (!extra_prios(j, pfc->pfc_en, off, sizeof(off))) {
		rctl_pass(j, t, exp, got, "no PFC on other priorities");
		return;
	}
	snprintf(fix, sizeof(fix), "dcb pfc set dev %s prio-pfc%s", t->nd->name, off);
	rctl_say(j,
		 &(struct rctl_say){ .status = RCTL_WARN,
				     .target = t->name,
				     .expected = exp,
				     .observed = got,
				     .fix = fix },
		 "PFC is on for priorities that do not carry RoCE: pauses spread to other traffic");
}

void rule_pfc_cnp_prio(struct rctl_judge *j, const struct rctl_target *t)
{
	char exp[64], got[64], fix[160];
	int c = j->in->cnp_prio;
	bool ok;

	const struct rctl_pfc *pfc = &t->nd->pfc;

	if (j->in->pfc && c == j->in->prio)
		return;
	snprintf(exp, sizeof(exp), "PFC off on CNP prio %d", c);
	snprintf(got, sizeof(got), "PFC %s on prio %d", pfc->pfc_en[c] ? "on" : "off", c);
	ok = pfc_prio_as_wanted(t, c, false, fix, sizeof(fix));
	rctl_say(
		j,
		&(struct rctl_say){ .status = ok ? RCTL_PASS : RCTL_WARN,
				    .target = t->name,
				    .expected = exp,
				    .observed = got,
				    .fix = ok ? NULL : fix },
		ok ? "CNP prio %d has no PFC" :
		     "PFC is on for the CNP prio %d: CNPs belong in a strict-priority queue, not a paused one",
		c);
}

/* PFC and ECN are a pair: PFC alone turns congestion into pause storms. */
void rule_pfc_without_ecn(struct rctl_judge *j, const struct rctl_target *t)
{
	char exp[64], got[64], fix[320];
	int p = j->in->prio, np, rp;

	if (!t->nd->pfc.pfc_en[p])
		return;
	np = rctl_ecn_on(t, p, true);
	rp = rctl_ecn_on(t, p, false);
	if (np < 0 || rp < 0) /* reported by dcqcn.params / ecn.* */
		return;
	snprintf(exp, sizeof(exp), "PFC and ECN on prio %d", p);
	snprintf(got, sizeof(got), "PFC on, ECN np %s rp %s", np ? "on" : "off", rp ? "on" : "off");
	if (np && rp) {
		rctl_pass(j, t, exp, got, "PFC and ECN/DCQCN are both on for prio %d", p);
		return;
	}
	rctl_ecn_fix(t, p, !np, fix, sizeof(fix));
	rctl_say(
		j,
		&(struct rctl_say){ .status = RCTL_WARN,
				    .target = t->name,
				    .expected = exp,
				    .observed = got,
				    .fix = fix },
		"PFC without ECN/DCQCN on prio %d: congestion becomes pause storms and head-of-line blocking",
		p);
	rctl_emit_setting(j, rctl_ecn_setting(t, !np));
}

void rule_pfc_global_pause(struct rctl_judge *j, const struct rctl_target *t)
{
	char got[80], fix[160], pr[32];
	bool any_pfc;
	int i;

	const struct rctl_pause *pa = &t->nd->pause;

	any_pfc = false;
	for (i = 0; t->nd->pfc.st.ok && i < 8; i++)
		any_pfc |= t->nd->pfc.pfc_en[i];
	snprintf(got, sizeof(got), "pause rx %s tx %s, PFC on prio %s", pa->rx ? "on" : "off",
		 pa->tx ? "on" : "off",
		 t->nd->pfc.st.ok ? rctl_prio_list(t->nd->pfc.pfc_en, pr, sizeof(pr)) : "unknown");
	snprintf(fix, sizeof(fix), "ethtool -A %s autoneg off rx off tx off", t->nd->name);
	if (!pa->rx && !pa->tx)
		rctl_pass(j, t, "global pause off", got, "global pause is off");
	else if (any_pfc)
		rctl_say(j,
			 &(struct rctl_say){ .status = RCTL_FAIL,
					     .target = t->name,
					     .expected = "global pause off",
					     .observed = got,
					     .fix = fix },
			 "global 802.3x pause is on together with PFC: they exclude each other");
	else
		rctl_say(
			j,
			&(struct rctl_say){ .status = RCTL_WARN,
					    .target = t->name,
					    .expected = "global pause off",
					    .observed = got,
					    .fix = fix },
			"global 802.3x pause is on instead of PFC: every class pauses (head-of-line blocking)");
}

/* The lossy profile has no use for PFC headroom: nothing to judge. */
bool rule_pfc_buffer_unreadable(struct rctl_judge *j, const struct rctl_target *t)
{
	(void)t;
	return !j->in->pfc;
}

void rule_pfc_buffer(struct rctl_judge *j, const struct rctl_target *t)
{
	char got[80], ev[120], fix[120];
	int p = j->in->prio, b, k;

	const struct rctl_dcb_buffer *bu = &t->nd->buffer;

	if (!j->in->pfc)
		return;
	b = bu->prio2buffer[p] & 7;
	snprintf(got, sizeof(got), "prio %d -> buffer %d of %llu bytes", p, b,
		 (unsigned long long)bu->buffer_size[b]);
	snprintf(ev, sizeof(ev), "dcbnl buffer of '%s': total %llu bytes", t->nd->name,
		 (unsigned long long)bu->total_size);
	if (bu->buffer_size[b]) {
		rctl_pass_ev(j, t, "a buffer of non-zero size", got, ev,
			     "prio %d has a receive buffer", p);
		return;
	}
	for (k = 7; k > 0 && !bu->buffer_size[k]; k--)
		;
	fix[0] = '\0';
	if (bu->buffer_size[k])
		snprintf(fix, sizeof(fix), "dcb buffer set dev %s prio-buffer %d:%d", t->nd->name,
			 p, k);
	rctl_say(j,
		 &(struct rctl_say){ .status = RCTL_WARN,
				     .target = t->name,
				     .expected = "a buffer of non-zero size",
				     .observed = got,
				     .evidence = ev,
				     .fix = fix },
		 "RoCE prio %d maps to an empty receive buffer: no headroom for PFC", p);
}

/*
 * The fix of an ETS finding is tune's change: move the RoCE priority to a
 * traffic class of its own with bandwidth (rctl_ets_wanted_tc). Giving the
 * 0 % class a share instead ("tc-bw TC:50") would break the sum of 100 that
 * mlx5, bnxt_en and ice require and take bandwidth from the other classes.
 */
/*
 * ice in DSCP mode ignores prio-tc (rctl_ets_prio_tc_fixed): a TC at 0 % gets
 * a share; a TC shared with the CNP priority has no host fix. True when so.
 */
static bool ets_fix_fixed_map(const struct rctl_target *t, const struct rctl_ets *e, int p,
			      char *fix, size_t len)
{
	int tc = e->prio_tc[p] & 7;
	uint8_t bw[8];

	if (!rctl_ets_prio_tc_fixed(rctl_family_of(t->dev, t->nd), t->nd))
		return false;
	if (e->tc_tsa[tc] == RCTL_TSA_ETS && !e->tc_tx_bw[tc] && rctl_ets_share_for(e, tc, bw)) {
		rctl_render_tc_bw(t->nd->name, e->tc_tx_bw, bw, fix, len);
		snprintf(fix + strlen(fix), len - strlen(fix), " (ice in DSCP mode ignores prio-tc: "
			 "tc %d needs a share)", tc);
	} else {
		snprintf(fix, len, "none on the host: ice in DSCP mode keeps its priority->TC map "
			 "(ice_dcbnl_setets)");
	}
	return true;
}

static void ets_fix(const struct rctl_target *t, const struct rctl_ets *e, int p, int want,
		    char *fix, size_t len)
{
	if (ets_fix_fixed_map(t, e, p, fix, len))
		return;
	if (want >= 0)
		rctl_render_prio_tc(t->nd->name, p, want, fix, len);
	else
		snprintf(fix, len, "no free traffic class with bandwidth on '%s': "
			 "dcb ets set dev %s prio-tc %d:TC with a TC of its own", t->nd->name,
			 t->nd->name, p);
	(void)e;
}

void rule_pfc_ets(struct rctl_judge *j, const struct rctl_target *t)
{
	char got[96], fix[192];
	int p = j->in->prio, cp = j->in->cnp_prio, tc, want;
	uint64_t rate;

	const struct rctl_ets *e = &t->nd->ets;

	tc = e->prio_tc[p] & 7;
	rate = t->nd->maxrate.st.ok ? t->nd->maxrate.tc_maxrate[tc] : 0;
	snprintf(got, sizeof(got), "prio %d -> tc %d, tsa %u, bw %u%%, maxrate %llu", p, tc,
		 e->tc_tsa[tc], e->tc_tx_bw[tc], (unsigned long long)rate);
	want = rctl_ets_wanted_tc(e, p, cp);
	if (want != RCTL_ETS_OK)
		ets_fix(t, e, p, want, fix, sizeof(fix));
	if (want != RCTL_ETS_OK && e->tc_tsa[tc] == RCTL_TSA_ETS && !e->tc_tx_bw[tc]) {
		rctl_say(j,
			 &(struct rctl_say){ .status = RCTL_WARN,
					     .target = t->name,
					     .expected = "ETS share > 0 or strict",
					     .observed = got,
					     .fix = fix },
			 "tc %d of RoCE prio %d has an ETS share of 0%%", tc, p);
		if (rctl_ets_prio_tc_fixed(rctl_family_of(t->dev, t->nd), t->nd))
			rctl_emit_setting(j, RCTL_SET_ETS_BW);	/* a share, not a move */
	} else if (want != RCTL_ETS_OK) {
		/* one queue per TC: CNPs would wait behind the data they report on */
		rctl_say(j,
			 &(struct rctl_say){ .status = RCTL_WARN,
					     .target = t->name,
					     .expected = "RoCE prio in a TC without the CNP prio",
					     .observed = got,
					     .fix = fix },
			 "CNP prio %d shares tc %d with RoCE prio %d: CNPs queue "
			 "behind the congestion they report",
			 cp, tc, p);
		if (rctl_ets_prio_tc_fixed(rctl_family_of(t->dev, t->nd), t->nd))
			rctl_emit_setting(j, RCTL_SET_ETS_BW);	/* tune's change: no host fix */
	} else if (rate) {
		snprintf(fix, sizeof(fix), "dcb maxrate set dev %s tc-maxrate %d:0", t->nd->name,
			 tc);
		rctl_say(j,
			 &(struct rctl_say){ .status = RCTL_WARN,
					     .target = t->name,
					     .expected = "no rate limit",
					     .observed = got,
					     .fix = fix },
			 "tc %d of RoCE prio %d is rate limited", tc, p);
		rctl_emit_setting(j, RCTL_SET_NONE); /* tune leaves rate limits */
	} else {
		rctl_pass(j, t, "ETS share > 0 or strict", got, "tc %d of RoCE prio %d has bandwidth", tc, p);
	}
}

/*
 * Who owns DCB, as tune decides it (rctl_dcb_owner): LLD_MANAGED, or a mode
 * without HOST on mlx5 (firmware DCBX shows 0x0c), bnxt_en and ice. A legal
 * setup, not a fault: the other DCB rules judge what the firmware reports,
 * and their fixes name the vendor tool (owned_fix in lib/rules.c). Here the
 * owner is stated, with the tool as evidence.
 */
void rule_pfc_dcbx_owner(struct rctl_judge *j, const struct rctl_target *t)
{
	char got[48], why[256];

	const struct rctl_dcbx *d = &t->nd->dcbx;
	enum rctl_family f = rctl_family_of(t->dev, t->nd);
	bool fw;

	fw = rctl_dcb_owner(j->h, t->nd, f, why, sizeof(why)) == RCTL_DCB_FIRMWARE;
	snprintf(got, sizeof(got), "dcbx 0x%02x (%s)", d->mode,
		 fw ? "firmware/LLDP agent" : "host");
	if (!fw) {
		rctl_pass(j, t, "DCB owner known", got, "DCB is managed by the host");
		return;
	}
	rctl_pass_ev(j, t, "DCB owner known", got, why,
		     "DCB of '%s' is managed by the firmware DCBX agent (host settings %s): "
		     "judged as the firmware reports it",
		     t->nd->name, rctl_dcb_owner_refuses(f) ? "are refused" : "may be overwritten");
}

void rule_pfc_lldpad(struct rctl_judge *j, const struct rctl_target *host)
{
	const struct rctl_host *h = j->h;
	char got[48];

	if (!h->procs.ok) {
		if (h->procs.err)
			rctl_say(j,
				 &(struct rctl_say){ .status = RCTL_UNKNOWN,
						     .observed = "unknown",
						     .evidence = h->procs.reason },
				 "cannot tell whether lldpad runs: %s", h->procs.reason);
		return;
	}
	if (!h->lldpad_running) {
		rctl_pass(j, NULL, "lldpad not running", "not running", "lldpad does not run");
		return;
	}
	snprintf(got, sizeof(got), "lldpad running, pid %u", h->lldpad_pid);
	rctl_say(j,
		 &(struct rctl_say){ .status = RCTL_WARN,
				     .expected = "lldpad not running",
				     .observed = got,
				     .fix = "systemctl disable --now lldpad" },
		 "lldpad runs and may override the host's DCB settings (as mlnx_qos warns)");
}
