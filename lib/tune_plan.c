// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rocectl tune plan: from the host model and the intent, the ordered changes
 * that bring the host to the intent (see tune.h for the order and why). Only
 * settings the model read are changed; a part the driver answered
 * EOPNOTSUPP becomes a skipped change "not supported by <driver>".
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/collect.h"
#include "rocectl/rules.h"
#include "rocectl/settings.h"
#include "rocectl/sysfs.h"
#include "rocectl/tune_plan.h"

struct planner {
	const struct rctl_host *h;
	const struct rctl_intent *in;
	const char *filter;		/* --dev, as rctl_port_match; NULL all */
	struct rctl_tune_plan *p;
	bool oom;
};

/* A RoCE port and the netdev under it. */
struct tgt {
	const struct rctl_device *dev;
	const struct rctl_port *port;
	const struct rctl_netdev *nd;
	enum rctl_family fam;		/* rctl_family_of(dev, nd) */
};

#define S(dst, ...) snprintf(dst, sizeof(dst), __VA_ARGS__)

/* The settings table's id of a change, from what it writes. */
enum rctl_setting rctl_tune_setting_id(const struct rctl_tune_change *c)
{
	static const struct {
		const char *prefix;
		enum rctl_setting sid;
	} names[] = {
		{ "dscp mode: ", RCTL_SET_APP_DSCP }, { "global pause", RCTL_SET_PAUSE }, { "prio-tc", RCTL_SET_ETS_PRIO_TC },
		{ "tc-bw", RCTL_SET_ETS_BW },
		{ "prio-pfc", RCTL_SET_PFC }, { "dscp-prio", RCTL_SET_APP_DSCP },
		{ "trust", RCTL_SET_TRUST }, { "roce_np enable", RCTL_SET_ECN_NP },
		{ "roce_rp enable", RCTL_SET_ECN_RP }, { "ecn_enable", RCTL_SET_ECN },
		{ "tos_ecn", RCTL_SET_ECN_MARKING }, { "ecn_marking", RCTL_SET_ECN_MARKING }, { "roce_dcqcn_enable", RCTL_SET_ECN },
		{ "congestion control", RCTL_SET_ECN }, { "roce_prio", RCTL_SET_ROCE_PRIO },
		{ "roce_dscp", RCTL_SET_ROCE_DSCP }, { "np_cnp_dscp", RCTL_SET_CNP_DSCP },
		{ "np_cnp_prio", RCTL_SET_CNP_PRIO }, { RCTL_CM_TOS_FILE, RCTL_SET_CM_TOS },
		{ RCTL_CM_MODE_FILE, RCTL_SET_CM_MODE }, { "rdma_cm defaults", RCTL_SET_CM_MODE },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strncmp(c->setting, names[i].prefix, strlen(names[i].prefix)))
			return names[i].sid;
	return RCTL_SET_NONE;
}

static struct rctl_tune_change *add(struct planner *pl, enum rctl_tune_op op,
				    enum rctl_area area, const char *target,
				    const char *setting)
{
	struct rctl_tune_change *c;

	c = rctl_arr_push(&pl->p->ch, &pl->p->n_ch, sizeof(*c));
	if (!c) {
		pl->oom = true;
		return NULL;
	}
	c->op = op;
	c->area = area;
	S(c->target, "%s", target);
	S(c->setting, "%s", setting);
	return c;
}

static const char *nd_driver(const struct tgt *t)
{
	if (t->nd->driver[0])
		return t->nd->driver;
	return t->nd->kind[0] ? t->nd->kind : t->dev->driver;
}

/* The netdev a change is applied through, and the driver that answers it. */
static void set_netdev(struct rctl_tune_change *c, const struct tgt *t)
{
	S(c->ifname, "%s", t->nd->name);
	S(c->driver, "%s", nd_driver(t));
}

static bool is_mlx5(const struct tgt *t)
{
	return rctl_family_mlx5(t->fam);
}

/*
 * A part that was not read: a skipped change that says why, so the plan
 * shows what tune cannot reach. Parts never collected (err 0) say nothing.
 */
static bool part_usable(struct planner *pl, const struct tgt *t,
			const struct rctl_part *st, enum rctl_tune_op op,
			enum rctl_area area, const char *setting, const char *to)
{
	struct rctl_tune_change *c;

	if (st->ok)
		return true;
	if (!st->err)
		return false;
	c = add(pl, op, area, t->nd->name, setting);
	if (!c)
		return false;
	S(c->from, "unknown");
	S(c->to, "%s", to);
	set_netdev(c, t);
	if (st->err == EOPNOTSUPP)
		S(c->skip, "not supported by %s", c->driver);
	else
		S(c->skip, "current value unknown: %.120s", st->reason[0] ? st->reason : strerror(st->err));
	return false;
}

/*
 * Who owns DCB (rctl_dcb_owner). A firmware/LLD agent: bnxt_en and ice
 * refuse the write (-EINVAL) and mlx5's firmware negotiates over it, so the
 * change is skipped with the reason and the vendor tool, never forced.
 * lldpad: the write works but lldpad may override it; --force writes anyway.
 */
static void dcb_owner(struct planner *pl, const struct tgt *t,
		      struct rctl_tune_change *c)
{
	size_t o = strlen(c->warning), len = sizeof(c->warning);
	char why[sizeof(c->skip)];

	switch (rctl_dcb_owner(pl->h, t->nd, t->fam, why, sizeof(why))) {
	case RCTL_DCB_FIRMWARE:
		if (!c->skip[0])
			S(c->skip, "%s", why);
		break;
	case RCTL_DCB_LLDPAD:
		snprintf(c->warning + o, len - o, "%s%s", o ? "; " : "", why);
		c->needs_force = true;
		break;
	default:
		break;
	}
}

static const char *prio_bits(uint32_t bits, char *buf, size_t len)
{
	size_t o = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < 8; i++)
		if (bits & (1u << i))
			o += snprintf(buf + o, len - o, "%s%d", o ? "," : "", i);
	return o ? buf : "none";
}

/* ---- 1. global pause -------------------------------------------------- */

static void plan_pause(struct planner *pl, const struct tgt *t)
{
	const struct rctl_pause *pa = &t->nd->pause;
	struct rctl_tune_change *c;

	if (!part_usable(pl, t, &pa->st, RCTL_TUNE_PAUSE, RCTL_AREA_PFC, "global pause",
			 "autoneg off rx off tx off") || (!pa->rx && !pa->tx))
		return;
	c = add(pl, RCTL_TUNE_PAUSE, RCTL_AREA_PFC, t->nd->name, "global pause");
	if (!c)
		return;
	set_netdev(c, t);
	c->old_val = (pa->autoneg ? RCTL_PAUSE_AUTONEG : 0) |
		     (pa->rx ? RCTL_PAUSE_RX : 0) | (pa->tx ? RCTL_PAUSE_TX : 0);
	c->new_val = 0;
	S(c->from, "autoneg %s rx %s tx %s", pa->autoneg ? "on" : "off",
	  pa->rx ? "on" : "off", pa->tx ? "on" : "off");
	S(c->to, "autoneg off rx off tx off");
	S(c->via, "ethtool ioctl ETHTOOL_SPAUSEPARAM");
	S(c->command, "ethtool -A %s autoneg off rx off tx off", t->nd->name);
}

/* ---- 2. ETS prio -> TC ------------------------------------------------ */

/*
 * On ice, the plan's first DSCP APP entry switches the port to DSCP mode,
 * which resets ETS, and revert's delete of that entry loads the defaults
 * (ETS TC 0, PFC off: ice_dcb_lib.c ice_dcb_sw_dflt_cfg). ETS and PFC are
 * then written after the APP entries even when they are already right, so
 * that the apply lands them on the new mode and the undo restores them.
 */
#define ICE_AGAIN "dscp mode: "	/* a write that is part of ice's first DSCP entry */
static bool ice_mode_switch(const struct planner *pl, const struct tgt *t)
{
	const struct rctl_app_table *a = &t->nd->app;
	uint32_t i;

	if ((t->fam != RCTL_FAM_ICE && t->fam != RCTL_FAM_ICE_OOT) || !a->st.ok)
		return false;
	for (i = 0; i < a->n_apps; i++)
		if (a->apps[i].selector == RCTL_APP_SEL_DSCP)
			return false;
	for (i = 0; i < pl->p->n_ch; i++)
		if (pl->p->ch[i].op == RCTL_TUNE_APP_ADD && !pl->p->ch[i].skip[0] &&
		    !strcmp(pl->p->ch[i].ifname, t->nd->name))
			return true;
	return false;
}

/*
 * ice in DSCP mode, or after the plan's first DSCP entry switches it there
 * ("after": TC 0 100 %, identity map, then the ETS write of plan_ets, whose
 * prio_tc ice ignores): a RoCE TC at 0 % is fixed by a share, which tune
 * names and leaves to the operator (the settings table's ets-tc-bw row); a
 * TC shared with the CNP priority has no host fix.
 */
static void plan_ets_share(struct planner *pl, const struct tgt *t, const struct rctl_ets *after,
			   bool switched)
{
	const struct rctl_setting_row *row = rctl_setting_row(RCTL_SET_ETS_BW, t->fam);
	int p = pl->in->prio, tc = after->prio_tc[p] & 7;
	struct rctl_tune_change *c;
	uint8_t bw[8];

	if (rctl_ets_wanted_tc(after, p, pl->in->cnp_prio) == RCTL_ETS_OK)
		return;
	c = add(pl, RCTL_TUNE_ETS, RCTL_AREA_PFC, t->nd->name, "tc-bw");
	if (!c)
		return;
	set_netdev(c, t);
	S(c->from, "tc %d: %u%%", tc, after->tc_tx_bw[tc]);
	S(c->via, "dcbnl RTM_SETDCB IEEE_SET ETS");
	if (switched)
		S(c->warning, "ice: the first DSCP entry switches '%s' to DSCP mode and resets ETS "
		  "(TC 0 100 %%, identity prio->TC map): computed for that state", t->nd->name);
	if (after->tc_tsa[tc] == RCTL_TSA_ETS && !after->tc_tx_bw[tc] &&
	    rctl_ets_share_for(after, tc, bw)) {
		S(c->to, "tc %d: %u%%", tc, bw[tc]);
		rctl_render_tc_bw(t->nd->name, after->tc_tx_bw, bw, c->command, sizeof(c->command));
		S(c->skip, "ice in DSCP mode ignores prio-tc; %s", row ? row->blocked : "a share");
	} else {
		S(c->to, "RoCE prio %d without CNP prio %d", p, pl->in->cnp_prio);
		S(c->skip, "ice in DSCP mode keeps its priority->TC map (ice_dcbnl_setets): "
		  "no host fix");
	}
	dcb_owner(pl, t, c);
}

static void plan_ets(struct planner *pl, const struct tgt *t)
{
	const struct rctl_ets *e = &t->nd->ets;
	int p = pl->in->prio, tc, ntc;
	bool again = ice_mode_switch(pl, t), fixed;
	struct rctl_tune_change *c;
	struct rctl_ets after;

	if (!e->st.ok)		/* PFC reports an unreadable DCB already */
		return;
	fixed = again || rctl_ets_prio_tc_fixed(t->fam, t->nd);
	tc = e->prio_tc[p] & 7;
	ntc = fixed ? RCTL_ETS_OK : rctl_ets_wanted_tc(e, p, pl->in->cnp_prio);
	after = *e;
	if (again) {	/* the reset, then this write's shares; its prio_tc ignored */
		rctl_ets_ice_dscp_reset(e, &after);
		memcpy(after.tc_tx_bw, e->tc_tx_bw, 8);
		memcpy(after.tc_tsa, e->tc_tsa, 8);
	}
	if (fixed)
		plan_ets_share(pl, t, &after, again);
	if (ntc == RCTL_ETS_OK && !again)
		return;
	c = add(pl, RCTL_TUNE_ETS, ntc == RCTL_ETS_OK ? RCTL_AREA_DSCP : RCTL_AREA_PFC, t->nd->name,
		ntc == RCTL_ETS_OK ? ICE_AGAIN "prio-tc" : "prio-tc");
	if (!c)
		return;
	set_netdev(c, t);
	memcpy(c->old_prio_tc, e->prio_tc, 8);
	memcpy(c->new_prio_tc, e->prio_tc, 8);
	memcpy(c->tc_tsa, e->tc_tsa, 8);
	memcpy(c->tc_tx_bw, e->tc_tx_bw, 8);
	c->ets_willing = e->willing;
	S(c->from, "%d:%d", p, tc);
	S(c->via, "dcbnl RTM_SETDCB IEEE_SET ETS");
	if (again)
		S(c->warning, "ice: the first DSCP entry switches to DSCP mode and resets ETS (TC 0 100 %%, "
		  "identity prio->TC map); its shares written again after it, prio-tc ignored from then "
		  "on, the old map restored by revert");
	dcb_owner(pl, t, c);
	if (ntc == RCTL_ETS_NO_TC) {
		S(c->to, "a traffic class of its own with bandwidth");
		S(c->skip, "no free traffic class with bandwidth on '%s'", t->nd->name);
		return;
	}
	if (ntc >= 0)
		c->new_prio_tc[p] = ntc;
	S(c->to, "%d:%d", p, c->new_prio_tc[p]);
	rctl_render_prio_tc(t->nd->name, p, c->new_prio_tc[p], c->command, sizeof(c->command));
}

/* ---- 3. PFC ----------------------------------------------------------- */

static void plan_pfc(struct planner *pl, const struct tgt *t)
{
	const struct rctl_pfc *pf = &t->nd->pfc;
	uint32_t cur = 0, want = pl->in->pfc ? 1u << pl->in->prio : 0;
	struct rctl_tune_change *c;
	char a[32], b[32];
	bool again;
	int i;

	S(b, "%s", prio_bits(want, a, sizeof(a)));
	if (!part_usable(pl, t, &pf->st, RCTL_TUNE_PFC, RCTL_AREA_PFC, "prio-pfc", b))
		return;
	for (i = 0; i < 8; i++)
		cur |= pf->pfc_en[i] ? 1u << i : 0;
	again = ice_mode_switch(pl, t);
	if (cur == want && !again)
		return;
	c = add(pl, RCTL_TUNE_PFC, cur == want ? RCTL_AREA_DSCP : RCTL_AREA_PFC, t->nd->name,
		cur == want ? ICE_AGAIN "prio-pfc" : "prio-pfc");
	if (!c)
		return;

	set_netdev(c, t);
	c->old_val = cur;
	c->new_val = want;
	c->pfc_cap = pf->pfc_cap;
	c->pfc_mbc = pf->mbc;
	c->pfc_delay = pf->delay;
	S(c->from, "%s", prio_bits(cur, a, sizeof(a)));
	S(c->to, "%s", prio_bits(want, a, sizeof(a)));
	S(c->via, "dcbnl RTM_SETDCB IEEE_SET PFC");
	/* ice re-assert: name every priority of the wanted set */
	rctl_render_pfc(t->nd->name, cur == want ? ~want & 0xff : cur, want, c->command,
			sizeof(c->command));
	if (again)
		S(c->warning, "ice: revert's delete of the last DSCP entry loads the defaults "
		  "(PFC off); written after the APP entries so that revert restores it");
	if (is_mlx5(t))
		S(c->warning, "changing PFC flaps the link of '%s' (mlx5 toggles the port)",
		  t->nd->name);
	dcb_owner(pl, t, c);
}

/* ---- 4. ECN/DCQCN enables, CNP DSCP/priority -------------------------- */

/* configfs drivers (bnxt_re, irdma) need their device directory to exist. */
static void cc_mkdir(const struct rctl_cc *cc, const char *drv, char *buf, size_t len)
{
	char key[24];
	const char *s, *end;

	buf[0] = '\0';
	S(key, "/%s/", drv);
	s = strstr(cc->path, key);
	if (!s)
		return;
	end = strchr(s + strlen(key), '/');
	if (end && (size_t)(end - cc->path) < len)
		snprintf(buf, len, "%.*s", (int)(end - cc->path), cc->path);
}

static void add_file(struct planner *pl, const struct tgt *t, enum rctl_area area,
		     const char *setting, const char *path, uint64_t old, uint64_t want)
{
	const struct rctl_cc *cc = &t->nd->cc;
	bool bnxt = t->fam == RCTL_FAM_BNXT_OOT;
	struct rctl_tune_change *c = add(pl, RCTL_TUNE_WRITE, area, t->nd->name, setting);

	if (!c)
		return;
	S(c->driver, "%s", t->dev->driver);
	S(c->path, "%s", path);
	S(c->via, "%s", path);
	/* Written in the base the driver parses (bnxt_re configfs: hex); shown decimal. */
	rctl_cc_value_text(cc, old, c->old_text, sizeof(c->old_text));
	rctl_cc_value_text(cc, want, c->new_text, sizeof(c->new_text));
	S(c->from, "%llu", (unsigned long long)old);
	S(c->to, "%llu", (unsigned long long)want);
	if (bnxt)
		cc_mkdir(cc, "bnxt_re", c->mkdir, sizeof(c->mkdir));
	else if (t->fam == RCTL_FAM_ICE_OOT)
		cc_mkdir(cc, "irdma", c->mkdir, sizeof(c->mkdir));
	if (bnxt)	/* value, then apply, as one step */
		S(c->commit, "%s/apply", cc->path);
	if (!strcmp(cc->source, "bnxt_re-debugfs"))
		S(c->skip, "inbox bnxt_re has no write path tune owns: "
		  "use bnxt_setupcc.sh or niccli (Broadcom)");
	rctl_cc_write_cmd(cc, path, c->new_text, c->command, sizeof(c->command));
}

static void plan_ecn_enables(struct planner *pl, const struct tgt *t)
{
	const struct rctl_cc *cc = &t->nd->cc;
	static const char *const side[] = { "np", "rp" };
	char path[RCTL_TUNE_PATH_LEN], set[48];
	int p = pl->in->prio, s;
	uint64_t v;

	if (!pl->in->ecn)
		return;
	if (!strcmp(cc->source, "mlx5-sysfs")) {	/* MLNX_OFED only: per priority */
		for (s = 0; s < 2; s++) {
			bool on = s ? cc->rp_enable[p] : cc->np_enable[p];

			if (on)
				continue;
			S(path, "%s/class/net/%s/ecn/roce_%s/enable/%d", rctl_sysfs(),
			  t->nd->name, side[s], p);
			S(set, "roce_%s enable prio %d", side[s], p);
			add_file(pl, t, RCTL_AREA_ECN, set, path, 0, 1);
		}
	} else if (rctl_cc_get(cc, "ecn_enable", &v) && !v) {
		S(path, "%s/ecn_enable", cc->path);
		add_file(pl, t, RCTL_AREA_ECN, "ecn_enable", path, 0, 1);
	} else if (rctl_cc_get(cc, "roce_dcqcn_enable", &v) && !v) {
		S(path, "%s/roce_dcqcn_enable", cc->path);
		add_file(pl, t, RCTL_AREA_ECN, "roce_dcqcn_enable", path, 0, 1);
	}
	/*
	 * bnxt_re: RoCE packets Not-ECT are never marked; the field is
	 * cc_param->tos_ecn, out-of-tree configfs ecn_marking, inbox debugfs
	 * tos_ecn (qplib_sp.c bnxt_qplib_modify_cc).
	 */
	if (t->fam == RCTL_FAM_BNXT_OOT && rctl_cc_get(cc, "ecn_marking", &v) && !v) {
		S(path, "%s/ecn_marking", cc->path);
		add_file(pl, t, RCTL_AREA_ECN, "ecn_marking", path, 0, RCTL_ECN_MARKING_ECT1);
	} else if (!strcmp(cc->source, "bnxt_re-debugfs") && rctl_cc_get(cc, "tos_ecn", &v) && !v) {
		S(path, "%s/tos_ecn", cc->path);
		add_file(pl, t, RCTL_AREA_ECN, "tos_ecn", path, 0, RCTL_ECN_MARKING_ECT1);
	}
}

/* A normalized parameter that differs from "want", written where it was read. */
static void plan_cc_param(struct planner *pl, const struct tgt *t,
			  enum rctl_area area, const char *name, uint64_t want)
{
	const struct rctl_cc *cc = &t->nd->cc;
	char path[RCTL_TUNE_PATH_LEN];
	uint64_t v;

	if (rctl_cc_get(cc, name, &v) && v != want &&
	    rctl_cc_param_path(cc, name, path, sizeof(path)))
		add_file(pl, t, area, name, path, v, want);
}

static void plan_cc(struct planner *pl, const struct tgt *t)
{
	const struct rctl_cc *cc = &t->nd->cc;

	if (!part_usable(pl, t, &cc->st, RCTL_TUNE_WRITE, RCTL_AREA_ECN, "congestion control",
			 pl->in->ecn ? "ECN on" : "as is"))
		return;
	plan_ecn_enables(pl, t);
	plan_cc_param(pl, t, RCTL_AREA_DSCP, "roce_prio", pl->in->prio);	/* bnxt_re */
	plan_cc_param(pl, t, RCTL_AREA_DSCP, "roce_dscp", pl->in->dscp);
	plan_cc_param(pl, t, RCTL_AREA_CNP, "np_cnp_dscp", pl->in->cnp_dscp);
	/*
	 * mlx5's np_cnp_prio_mode 1 makes np_cnp_prio unused (cong.c): the mode
	 * goes to 0 first. Undone in reverse, the mode comes back last, after
	 * the old np_cnp_prio, whose write sets the mode to 0 again.
	 */
	if (rctl_cc_get(cc, "np_cnp_prio", &(uint64_t){ 0 }))
		plan_cc_param(pl, t, RCTL_AREA_CNP, "np_cnp_prio_mode", 0);
	plan_cc_param(pl, t, RCTL_AREA_CNP, "np_cnp_prio", pl->in->cnp_prio);
}

/* ---- 5. DSCP -> priority APP entries ---------------------------------- */

static void app_change(struct planner *pl, const struct tgt *t, bool add_it,
		       uint32_t dscp, uint32_t prio, const char *from)
{
	struct rctl_tune_change *c;
	char set[32];

	S(set, "dscp-prio %u", dscp);
	c = add(pl, add_it ? RCTL_TUNE_APP_ADD : RCTL_TUNE_APP_DEL, RCTL_AREA_DSCP,
		t->nd->name, set);
	if (!c)
		return;
	set_netdev(c, t);
	c->app_selector = RCTL_APP_SEL_DSCP;
	c->app_protocol = dscp;
	c->app_prio = prio;
	S(c->from, "%s", from);
	if (add_it)
		S(c->to, "%u:%u", dscp, prio);
	else
		S(c->to, "none");
	S(c->via, "dcbnl RTM_SETDCB IEEE_%s APP", add_it ? "SET" : "DEL");
	S(c->command, "dcb app %s dev %s dscp-prio %u:%u", add_it ? "add" : "del",
	  t->nd->name, dscp, prio);
	dcb_owner(pl, t, c);
}

/* The entries of "dscp" as "26:0 26:5", or "none". */
static void app_list(const struct rctl_app_table *a, uint32_t dscp, char *buf, size_t len)
{
	size_t o = 0;
	uint32_t i;

	buf[0] = '\0';
	for (i = 0; i < a->n_apps; i++)
		if (a->apps[i].selector == RCTL_APP_SEL_DSCP && a->apps[i].protocol == dscp)
			o += snprintf(buf + o, len - o, "%s%u:%u", o ? " " : "", dscp,
				      a->apps[i].priority);
	if (!o)
		snprintf(buf, len, "none");
}

/* mlx5: one SET that replaces the DSCP's entry; its old priority is kept for the undo. */
static void plan_dscp_replace(struct planner *pl, const struct tgt *t, uint32_t dscp,
			      uint32_t prio, const char *from)
{
	const struct rctl_app_table *a = &t->nd->app;
	struct rctl_tune_change *c;
	uint32_t i, old = RCTL_APP_NONE;

	for (i = 0; i < a->n_apps; i++)
		if (a->apps[i].selector == RCTL_APP_SEL_DSCP && a->apps[i].protocol == dscp)
			old = a->apps[i].priority;
	app_change(pl, t, true, dscp, prio, from);
	if (pl->oom)
		return;
	c = &pl->p->ch[pl->p->n_ch - 1];
	c->op = RCTL_TUNE_APP_SET;
	c->old_val = old;
	S(c->via, "dcbnl RTM_SETDCB IEEE_SET APP (mlx5 replaces the entry of DSCP %u)", dscp);
	S(c->command, "dcb app replace dev %s dscp-prio %u:%u", t->nd->name, dscp, prio);
}

/*
 * One DSCP. mlx5 keeps one entry per DSCP: a SET replaces it. The dcbnl
 * core (bnxt_en, ice) keeps a list: add dscp:prio if missing, then delete
 * the DSCP's other priorities.
 */
static void plan_dscp(struct planner *pl, const struct tgt *t, bool adds,
		      uint32_t dscp, uint32_t prio)
{
	const struct rctl_app_table *a = &t->nd->app;
	bool have = false, prios[8], trust;
	char from[80];
	uint32_t i;


	app_list(a, dscp, from, sizeof(from));
	for (i = 0; i < a->n_apps; i++)
		have |= a->apps[i].selector == RCTL_APP_SEL_DSCP &&
			a->apps[i].protocol == dscp && a->apps[i].priority == prio;
	/* ice's default map of DSCP mode already puts it there (rules_dscp.c) */
	if (adds && rctl_dscp_prios(t->nd, (int)dscp, prios, &trust) == 1 && trust &&
	    prios[prio & 7])
		have = true;
	if (is_mlx5(t)) {
		if (adds && !have)
			plan_dscp_replace(pl, t, dscp, prio, from);
		return;
	}
	if (adds) {
		if (!have)
			app_change(pl, t, true, dscp, prio, from);
		return;
	}
	for (i = 0; i < a->n_apps; i++)
		if (a->apps[i].selector == RCTL_APP_SEL_DSCP &&
		    a->apps[i].protocol == dscp && a->apps[i].priority != prio) {
			S(from, "%u:%u", dscp, a->apps[i].priority);
			app_change(pl, t, false, dscp, a->apps[i].priority, from);
		}
}

/* MLNX_OFED exposes trust as a file; inbox mlx5 derives it from the APP table. */
static void plan_trust(struct planner *pl, const struct tgt *t)
{
	const struct rctl_ofed_qos *q = &t->nd->qos;
	char path[RCTL_TUNE_PATH_LEN];
	struct rctl_tune_change *c;

	if (!q->st.ok || !q->trust[0] || !strcmp(q->trust, "dscp"))
		return;
	S(path, "%s/class/net/%s/qos/trust", rctl_sysfs(), t->nd->name);
	c = add(pl, RCTL_TUNE_WRITE, RCTL_AREA_DSCP, t->nd->name, "trust");
	if (!c)
		return;
	S(c->driver, "%s", t->dev->driver);
	S(c->path, "%s", path);
	S(c->via, "%s", path);
	S(c->old_text, "%s", q->trust);
	S(c->new_text, "dscp");
	S(c->from, "%s", q->trust);
	S(c->to, "dscp");
	S(c->command, "mlnx_qos -i %s --trust dscp", t->nd->name);
	dcb_owner(pl, t, c);
}

/*
 * Adds come first, so the table never passes through "no entry" for the
 * DSCP; but ice refuses a DSCP that is already mapped (ice_dcb_nl.c
 * ice_dcbnl_setapp(): the dscp_mapped bitmap), so there the old entry goes
 * first.
 */
static bool dels_first(const struct tgt *t)
{
	return t->fam == RCTL_FAM_ICE || t->fam == RCTL_FAM_ICE_OOT;
}

/* A VLAN whose egress-qos-map sends RoCE at another PCP: name the fix (tune owns no VLAN). */
static void vlan_map_fix(struct planner *pl, const struct tgt *t, struct rctl_tune_change *c)
{
	uint32_t skprio = rctl_tos2priority(pl->in->tos) & 7, i, n, *first;
	const struct rctl_netdev *v;
	int err;

	first = rctl_gid_uppers(t->port, true, &n, &err);	/* not a scan per GID */
	if (err)
		pl->oom = true;
	for (i = 0; i < n; i++) {
		v = rctl_host_netdev(pl->h, t->port->gids[first[i]].netdev);
		if (!v || strcmp(v->kind, "vlan") || v->vlan_egress_qos[skprio] == (uint32_t)pl->in->prio)
			continue;
		S(c->skip, "trust pcp with RoCE on VLANs, but '%s' sends it at PCP %u: "
			   "ip link set dev %s type vlan egress-qos-map %u:%d (tune does not write VLANs)",
		  v->name, v->vlan_egress_qos[skprio], v->name, skprio, pl->in->prio);
		break;
	}
	free(first);
}

/*
 * A port that trusts PCP while all its RoCE runs on VLANs is a PCP design:
 * the priority comes from each VLAN's egress-qos-map, which dscp.trust_pcp
 * judges. A first DSCP APP entry would switch mlx5 to DSCP trust under the
 * running traffic, so tune leaves the design alone and says so.
 */
static bool pcp_design(struct planner *pl, const struct tgt *t, const char *to)
{
	struct rctl_tune_change *c;
	bool prios[8], trust;

	rctl_dscp_prios(t->nd, pl->in->dscp, prios, &trust);
	if (trust || rctl_roce_untagged(pl->h, t->port))
		return false;
	c = add(pl, RCTL_TUNE_APP_ADD, RCTL_AREA_DSCP, t->nd->name, "dscp-prio");
	if (!c)
		return true;
	S(c->from, "trust pcp");
	S(c->to, "%s", to);
	set_netdev(c, t);
	S(c->skip, "trust pcp with RoCE on VLANs: the VLAN egress-qos-map sets the priority "
		   "(see dscp.trust_pcp); tune does not switch it to DSCP trust");
	vlan_map_fix(pl, t, c);
	return true;
}

static void plan_app(struct planner *pl, const struct tgt *t)
{
	const struct rctl_intent *in = pl->in;
	char to[32];
	int i, pass;

	S(to, "%d:%d %d:%d", in->dscp, in->prio, in->cnp_dscp, in->cnp_prio);
	if (!part_usable(pl, t, &t->nd->app.st, RCTL_TUNE_APP_ADD, RCTL_AREA_DSCP, "dscp-prio", to))
		return;
	if (pcp_design(pl, t, to))
		return;
	plan_trust(pl, t);
	for (i = 0; i < 2; i++) {
		pass = dels_first(t) ? i : !i;
		plan_dscp(pl, t, pass, in->dscp, in->prio);
		if (in->cnp_dscp != in->dscp)
			plan_dscp(pl, t, pass, in->cnp_dscp, in->cnp_prio);
	}
}

/* ---- 6. rdma_cm defaults ---------------------------------------------- */

static void cm_change(struct planner *pl, const struct tgt *t, const char *file,
		      const char *old, const char *want)
{
	char target[RCTL_NAME_LEN + 16];
	struct rctl_tune_change *c;

	S(target, "%s/%u", t->dev->name, t->port->port);
	c = add(pl, RCTL_TUNE_WRITE, RCTL_AREA_MODE, target, file);
	if (!c)
		return;
	S(c->driver, "%s", t->dev->driver);
	rctl_cm_dir(c->mkdir, sizeof(c->mkdir), t->dev->name);
	rctl_cm_file(c->path, sizeof(c->path), t->dev->name, t->port->port, file);
	S(c->via, "%s", c->path);
	S(c->old_text, "%s", old);
	S(c->new_text, "%s", want);
	S(c->from, "%s", old);
	S(c->to, "%s", want);
	rctl_render_cm(c->mkdir, c->path, want, c->command, sizeof(c->command));
}

/*
 * The rdma_cm connections this host made on the port (rctl_res_cm_active():
 * an accepted one takes the peer's class, not our default): each keeps the
 * ToS it was made with, the old default, until it reconnects (cma.c takes
 * id_priv->tos, or the default, when it resolves the route). They go into
 * the change, for flows and check to say later which are still live.
 */
static uint32_t cm_live(struct planner *pl, const struct tgt *t, struct rctl_tune_change *c)
{
	const struct rctl_rdma_res *r = &pl->h->res;
	struct rctl_tune_cm *k;
	uint32_t i, n = 0;

	for (i = 0; i < r->n_list; i++) {
		const struct rctl_res_entry *e = &r->list[i];

		if (e->port != t->port->port || strcmp(e->dev, t->dev->name) ||
		    !rctl_res_cm_active(r, e))
			continue;
		n++;
		k = rctl_arr_push(&c->cm, &c->n_cm, sizeof(*k));
		if (!k) {
			pl->oom = true;
			return n;
		}
		S(k->dev, "%s", e->dev);
		k->port = e->port;
		k->id = e->id;
		k->pid = e->pid;
		S(k->owner, "%s", e->pid ? "" : e->owner);
		S(k->src, "%s", e->src);
		S(k->dst, "%s", e->dst);
	}
	return n;
}

static void plan_cm(struct planner *pl, const struct tgt *t, bool tos)
{
	const struct rctl_cm_cfg *cm = &t->port->cm;
	const char *mode = pl->in->roce_version == 1 ? "IB/RoCE v1" : "RoCE v2";
	struct rctl_tune_change *c;
	char old[16], want[16];
	uint32_t n;

	if (!cm->st.ok) {
		if (!tos && cm->st.err) {
			struct tgt u = *t;
			struct rctl_netdev nd = *t->nd;

			/* Reported against the port, not the netdev. */
			snprintf(nd.name, sizeof(nd.name), "%.24s/%u", t->dev->name, t->port->port);
			u.nd = &nd;
			part_usable(pl, &u, &cm->st, RCTL_TUNE_WRITE, RCTL_AREA_MODE,
				    "rdma_cm defaults", mode);
		}
		return;
	}
	if (!tos && strcmp(cm->roce_mode, mode))
		cm_change(pl, t, RCTL_CM_MODE_FILE, cm->roce_mode, mode);
	if (tos && cm->roce_tos != (uint32_t)pl->in->tos) {
		S(old, "%u", cm->roce_tos);
		S(want, "%d", pl->in->tos);
		cm_change(pl, t, RCTL_CM_TOS_FILE, old, want);
		c = pl->p->n_ch ? &pl->p->ch[pl->p->n_ch - 1] : NULL;
		if (c && !strcmp(c->setting, RCTL_CM_TOS_FILE) && (n = cm_live(pl, t, c)))
			S(c->warning, "%u live rdma_cm connections on %s/%u keep the ToS they were made "
			  "with (the default was %u) until they reconnect", n, t->dev->name,
			  t->port->port, cm->roce_tos);
	}
}

/* ---- the plan --------------------------------------------------------- */

typedef void (*phase_fn)(struct planner *pl, const struct tgt *t);

static void plan_mode(struct planner *pl, const struct tgt *t)
{
	plan_cm(pl, t, false);
}

static void plan_tos(struct planner *pl, const struct tgt *t)
{
	plan_cm(pl, t, true);
}

/*
 * The netdev phases by rctl_phase; each family runs them in its own order
 * (rctl_family_phases: ice puts the APP entries before ETS and PFC). The
 * rdma_cm defaults run per port, last, mode before ToS.
 */
static const phase_fn netdev_fns[RCTL_PHASE_N] = {
	[RCTL_PHASE_PAUSE] = plan_pause,
	[RCTL_PHASE_ETS] = plan_ets,
	[RCTL_PHASE_PFC] = plan_pfc,
	[RCTL_PHASE_CC] = plan_cc,
	[RCTL_PHASE_APP] = plan_app,
};
static const phase_fn port_fns[] = { plan_mode, plan_tos };
#define N_SLOTS 5	/* netdev phases of every family's order */

/*
 * Whether a port before (i, j) that the filter keeps has the same netdev:
 * netdev phases run once per netdev.
 */
static bool seen_before(const struct planner *pl, uint32_t i, uint32_t j)
{
	const struct rctl_host *h = pl->h;
	const char *nd = h->devs[i].ports[j].netdev;
	uint32_t m, n;

	for (m = 0; m <= i; m++)
		for (n = 0; n < h->devs[m].n_ports && (m < i || n < j); n++)
			if (!strcmp(h->devs[m].ports[n].netdev, nd) &&
			    rctl_port_match(pl->filter, &h->devs[m], &h->devs[m].ports[n]))
				return true;
	return false;
}

/*
 * RoCE LAG: DCB lives on every slave of the bond, not only on the one the
 * RDMA port names (docs/roce-vlan-lag-vf.md); cc stays the port's.
 */
static void run_on_slaves(struct planner *pl, phase_fn fn, struct tgt t)
{
	const struct rctl_netdev *bond = rctl_bond_of(pl->h, t.nd);
	uint32_t i;

	for (i = 0; bond && fn != plan_cc && i < pl->h->n_netdevs; i++) {
		t.nd = &pl->h->netdevs[i];
		if (!strcmp(t.nd->master, bond->name) && !rctl_port_netdev(pl->h, t.nd->name))
			fn(pl, &t);
	}
}

/* The function of slot k for a target: its family's k-th netdev phase, or a port phase. */
static phase_fn slot_fn(const struct tgt *t, unsigned int k)
{
	const enum rctl_phase *order;
	size_t n;

	if (k >= N_SLOTS)
		return port_fns[k - N_SLOTS];
	order = rctl_family_phases(t->fam, &n);
	return k < n ? netdev_fns[order[k]] : NULL;
}

static void run_phase(struct planner *pl, unsigned int k)
{
	const struct rctl_intent *global = pl->in;
	const struct rctl_host *h = pl->h;
	struct rctl_intent port;
	struct rctl_netdev none = { 0 };
	bool per_port = k >= N_SLOTS;
	uint32_t i, j;
	phase_fn fn;

	for (i = 0; i < h->n_devs; i++)
		for (j = 0; j < h->devs[i].n_ports; j++) {
			struct tgt t = { &h->devs[i], &h->devs[i].ports[j], NULL, 0 };

			if (strcmp(t.port->link_layer, "Ethernet") ||
			    !rctl_port_match(pl->filter, t.dev, t.port))
				continue;
			t.nd = rctl_host_netdev(h, t.port->netdev);
			if (!per_port && (!t.nd || seen_before(pl, i, j)))
				continue;
			if (!t.nd)
				t.nd = &none;
			t.fam = rctl_family_of(t.dev, t.nd);
			fn = slot_fn(&t, k);
			if (!fn)
				continue;
			/* The port's own intent: the config sections that name it. */
			if (rctl_intent_has_sections(global)) {
				rctl_intent_of_port(global, h, t.dev, t.port, &port);
				pl->in = &port;
			}
			fn(pl, &t);
			if (!per_port)
				run_on_slaves(pl, fn, t);
			pl->in = global;
		}
}

int rctl_tune_plan(const struct rctl_host *h, const struct rctl_intent *in,
		   struct rctl_tune_plan *p, struct rctl_err *e)
{
	return rctl_tune_plan_dev(h, in, NULL, p, e);
}

int rctl_tune_plan_dev(const struct rctl_host *h, const struct rctl_intent *in,
		       const char *filter, struct rctl_tune_plan *p, struct rctl_err *e)
{
	struct planner pl = { .h = h, .in = in, .filter = filter, .p = p };
	unsigned int k;

	memset(p, 0, sizeof(*p));
	for (k = 0; k < N_SLOTS + sizeof(port_fns) / sizeof(port_fns[0]); k++)
		run_phase(&pl, k);
	if (pl.oom) {
		rctl_tune_plan_free(p);
		return rctl_err_strerror(e, ENOMEM, "cannot build the tune plan");
	}
	return 0;
}

/* A change's target: a netdev, a device, or DEV/PORT for rdma_cm. */
static bool change_on(const struct rctl_tune_change *c, const struct rctl_finding *f)
{
	char port[RCTL_NAME_LEN + 16];

	snprintf(port, sizeof(port), "%s/%u", f->device, f->port);
	return (f->netdev[0] && !strcmp(c->target, f->netdev)) ||
	       (f->device[0] && (!strcmp(c->target, f->device) || !strcmp(c->target, port)));
}

bool rctl_tune_plan_covers(const struct rctl_tune_plan *p, const struct rctl_finding *f)
{
	uint32_t i;

	if (f->setting == RCTL_SET_NONE)
		return false;
	for (i = 0; i < p->n_ch; i++)
		if ((!p->ch[i].skip[0] || p->ch[i].held) &&
		    rctl_tune_setting_id(&p->ch[i]) == f->setting &&
		    change_on(&p->ch[i], f))
			return true;
	return false;
}

const char *rctl_tune_lost_on(const struct rctl_tune_change *c, char *buf, size_t len)
{
	if (c->area == RCTL_AREA_MODE)
		snprintf(buf, len, "reboot, rdma_cm module reload");
	else if (!strcmp(c->driver, "mlx5"))
		/*
		 * The kernel module, one name for one driver: nldev's "mlx5"
		 * (the RDMA device's driver) is no module; the settings live in
		 * the function mlx5_core resets when it is reloaded.
		 */
		snprintf(buf, len, "reboot, mlx5_core driver reload");
	else if (c->driver[0])
		snprintf(buf, len, "reboot, %s driver reload", c->driver);
	else
		snprintf(buf, len, "reboot, driver reload");
	return buf;
}

static enum rctl_phase phase_of(const struct rctl_tune_change *c)
{
	switch (c->op) {
	case RCTL_TUNE_PAUSE: return RCTL_PHASE_PAUSE;
	case RCTL_TUNE_ETS: return RCTL_PHASE_ETS;
	case RCTL_TUNE_PFC: return RCTL_PHASE_PFC;
	case RCTL_TUNE_APP_ADD:
	case RCTL_TUNE_APP_DEL:
	case RCTL_TUNE_APP_SET: return RCTL_PHASE_APP;
	default:
		break;
	}
	if (c->area == RCTL_AREA_MODE)
		return RCTL_PHASE_CM;
	return c->area == RCTL_AREA_DSCP && !strcmp(c->setting, "trust") ? RCTL_PHASE_APP :
	       RCTL_PHASE_CC;
}

/* Undo first: the higher rank, then the later step. */
static bool undo_before(const struct rctl_tune_plan *p, uint32_t a, uint32_t b)
{
	const struct rctl_tune_change *x = &p->ch[a], *y = &p->ch[b];
	unsigned int ra = rctl_setting_undo_rank(rctl_family_of_driver(x->driver), phase_of(x));
	unsigned int rb = rctl_setting_undo_rank(rctl_family_of_driver(y->driver), phase_of(y));

	return ra != rb ? ra > rb : a > b;
}

void rctl_tune_undo_order(const struct rctl_tune_plan *p, uint32_t *order)
{
	uint32_t i, k, v;

	for (i = 0; i < p->n_ch; i++) {		/* insertion sort: plans are short */
		v = i;
		for (k = i; k > 0 && undo_before(p, v, order[k - 1]); k--)
			order[k] = order[k - 1];
		order[k] = v;
	}
}

/* ---- the digest of what the plan reads -------------------------------- */

/* One part being digested: FNV-1a 64 over its canonical text, line by line. */
struct dg {
	uint64_t h;
};

static void dg_put(struct dg *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void dg_put(struct dg *g, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n, i;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;
	for (i = 0; i < n; i++)
		g->h = (g->h ^ (unsigned char)line[i]) * 0x100000001b3ull;
	g->h = (g->h ^ '\n') * 0x100000001b3ull;
}

/* Whether the part could be read, not why not: a reason's text may vary. */
static void dg_part(struct dg *g, const char *what, const struct rctl_part *st)
{
	dg_put(g, "%s %d %d", what, st->ok, st->ok ? 0 : st->err);
}

static void dg_u8s(struct dg *g, const char *what, const uint8_t *v, size_t n)
{
	char buf[8 * 4 + 1] = "";
	size_t i, o = 0;

	for (i = 0; i < n && i < 8; i++)
		o += snprintf(buf + o, sizeof(buf) - o, "%u,", v[i]);
	dg_put(g, "%s %s", what, buf);
}

static unsigned int bits8(const bool *v)
{
	unsigned int i, m = 0;

	for (i = 0; i < 8; i++)
		m |= v[i] ? 1u << i : 0;
	return m;
}

/* DCB, pause, congestion control and trust: what the planner reads of a netdev. */
static void dg_netdev(struct dg *g, const struct rctl_netdev *nd)
{
	const struct rctl_cc *cc = &nd->cc;
	uint32_t i;

	dg_put(g, "kind %s driver %s master %s vlan %s %u", nd->kind, nd->driver, nd->master,
	       nd->vlan_lower, nd->vlan_id);
	dg_u8s(g, "egress", nd->vlan_egress_qos, 8);
	dg_part(g, "pause", &nd->pause.st);
	dg_put(g, "pause %d %d %d", nd->pause.autoneg, nd->pause.rx, nd->pause.tx);
	dg_part(g, "pfc", &nd->pfc.st);
	dg_put(g, "pfc %u %02x %u %u", nd->pfc.pfc_cap, bits8(nd->pfc.pfc_en), nd->pfc.mbc,
	       nd->pfc.delay);
	dg_part(g, "ets", &nd->ets.st);
	dg_put(g, "ets %d %u %d", nd->ets.willing, nd->ets.ets_cap, nd->ets.cbs);
	dg_u8s(g, "prio_tc", nd->ets.prio_tc, 8);
	dg_u8s(g, "tsa", nd->ets.tc_tsa, 8);
	dg_u8s(g, "bw", nd->ets.tc_tx_bw, 8);
	dg_part(g, "app", &nd->app.st);
	for (i = 0; i < nd->app.n_apps; i++)
		dg_put(g, "app %u %u %u", nd->app.apps[i].selector, nd->app.apps[i].protocol,
		       nd->app.apps[i].priority);
	dg_part(g, "dcbx", &nd->dcbx.st);
	dg_put(g, "dcbx %u", nd->dcbx.mode);
	dg_part(g, "cc", &cc->st);
	dg_put(g, "cc %s %s %d %02x %02x", cc->source, cc->path, cc->enable_known,
	       bits8(cc->rp_enable), bits8(cc->np_enable));
	for (i = 0; i < cc->n_params; i++)
		dg_put(g, "cc %s %s %llu", cc->params[i].name, cc->params[i].src,
		       (unsigned long long)cc->params[i].value);
	dg_part(g, "qos", &nd->qos.st);
	dg_put(g, "trust %s %d", nd->qos.trust, nd->qos.has_dscp2prio);
	if (nd->qos.has_dscp2prio)
		for (i = 0; i < 64; i += 8)
			dg_u8s(g, "dscp2prio", nd->qos.dscp2prio + i, 8);
}

/* The intent a plan is made for: not the loss budget, which no change writes. */
static void dg_intent(struct dg *g, const struct rctl_intent *in)
{
	dg_put(g, "profile %s pfc %d ecn %d prio %d dscp %d cnp %d %d tos %d mtu %u roce v%d",
	       in->profile, in->pfc, in->ecn, in->prio, in->dscp, in->cnp_prio, in->cnp_dscp,
	       in->tos, in->mtu, in->roce_version);
}

/* The rdma_cm defaults, the GIDs (VLAN or not) and the netdev of a port. */
static void dg_port(struct dg *g, const struct rctl_device *d, const struct rctl_port *p)
{
	uint32_t i;

	dg_put(g, "driver %s netdev %s link %s", d->driver, p->netdev, p->link_layer);
	dg_part(g, "cm", &p->cm.st);
	dg_put(g, "cm %s %u", p->cm.roce_mode, p->cm.roce_tos);
	for (i = 0; i < p->n_gids; i++)
		dg_put(g, "gid %s %s %s", p->gids[i].type, p->gids[i].ip, p->gids[i].netdev);
}

static bool dg_has(const struct rctl_tune_digest *d, const char *part)
{
	uint32_t i;

	for (i = 0; i < d->n; i++)
		if (!strcmp(d->parts[i].part, part))
			return true;
	return false;
}

static int dg_add(struct rctl_tune_digest *d, const char *part, uint64_t h)
{
	struct rctl_tune_digest_part *p = rctl_arr_push(&d->parts, &d->n, sizeof(*p));

	if (!p)
		return -ENOMEM;
	snprintf(p->part, sizeof(p->part), "%s", part);
	p->hash = h;
	return 0;
}

#define DG_INIT { 0xcbf29ce484222325ull }

/* A netdev the plan reads, once; "name" absent from the model digests as such. */
static int dg_add_netdev(const struct rctl_host *h, struct rctl_tune_digest *d,
			 const char *name)
{
	const struct rctl_netdev *nd = rctl_host_netdev(h, name);
	char part[sizeof(d->parts[0].part)];
	struct dg g = DG_INIT;

	snprintf(part, sizeof(part), "netdev %s", name);
	if (!name[0] || dg_has(d, part))
		return 0;
	if (nd)
		dg_netdev(&g, nd);
	else
		dg_put(&g, "absent");
	return dg_add(d, part, g.h);
}

/* The bond above "nd" and its other slaves (RoCE LAG: DCB on every slave). */
static int dg_add_lag(const struct rctl_host *h, struct rctl_tune_digest *d,
		      const struct rctl_netdev *nd)
{
	const struct rctl_netdev *bond = nd ? rctl_bond_of(h, nd) : NULL;
	uint32_t i;
	int ret = 0;

	if (!bond)
		return 0;
	ret = dg_add_netdev(h, d, bond->name);
	for (i = 0; !ret && i < h->n_netdevs; i++)
		if (!strcmp(h->netdevs[i].master, bond->name))
			ret = dg_add_netdev(h, d, h->netdevs[i].name);
	return ret;
}

static int dg_add_port(const struct rctl_host *h, const struct rctl_intent *in,
		       struct rctl_tune_digest *d, const struct rctl_device *dev,
		       const struct rctl_port *p)
{
	char part[sizeof(d->parts[0].part)];
	struct rctl_intent pi;
	struct dg g = DG_INIT;
	uint32_t i;
	int ret;

	snprintf(part, sizeof(part), "port %.40s/%u", dev->name, p->port);
	dg_port(&g, dev, p);
	/* A config section that names the port: its intent is part of what the plan read. */
	if (rctl_intent_has_sections(in)) {
		rctl_intent_of_port(in, h, dev, p, &pi);
		dg_intent(&g, &pi);
	}
	ret = dg_add(d, part, g.h);
	if (!ret)
		ret = dg_add_netdev(h, d, p->netdev);
	if (!ret)
		ret = dg_add_lag(h, d, rctl_host_netdev(h, p->netdev));
	for (i = 0; !ret && i < p->n_gids; i++)
		ret = dg_add_netdev(h, d, p->gids[i].netdev);
	return ret;
}

int rctl_tune_digest(const struct rctl_host *h, const struct rctl_intent *in,
		     const char *filter, struct rctl_tune_digest *d, struct rctl_err *e)
{
	struct dg gi = DG_INIT, gh = DG_INIT;
	uint32_t i, j;
	int ret;

	memset(d, 0, sizeof(*d));
	dg_intent(&gi, in);
	dg_part(&gh, "procs", &h->procs);
	dg_put(&gh, "lldpad %d", h->lldpad_running);
	ret = dg_add(d, "intent", gi.h);
	if (!ret)
		ret = dg_add(d, "host", gh.h);
	for (i = 0; !ret && i < h->n_devs; i++)
		for (j = 0; !ret && j < h->devs[i].n_ports; j++) {
			const struct rctl_port *p = &h->devs[i].ports[j];

			if (!strcmp(p->link_layer, "Ethernet") &&
			    rctl_port_match(filter, &h->devs[i], p))
				ret = dg_add_port(h, in, d, &h->devs[i], p);
		}
	if (ret) {
		rctl_tune_digest_free(d);
		return rctl_err_strerror(e, -ret, "cannot digest the host for the plan");
	}
	return 0;
}

const struct rctl_tune_digest_part *rctl_tune_digest_changed(const struct rctl_tune_digest *plan,
							      const struct rctl_tune_digest *now,
							      bool *gone)
{
	uint32_t i, k;

	for (i = 0; i < plan->n; i++) {
		for (k = 0; k < now->n && strcmp(now->parts[k].part, plan->parts[i].part); k++)
			;
		*gone = k == now->n;
		if (*gone || now->parts[k].hash != plan->parts[i].hash)
			return &plan->parts[i];
	}
	*gone = false;
	return NULL;
}

/* ---- --only and --skip ------------------------------------------------- */

static bool sel_known(const char *name)
{
	int s;

	if (rctl_area_parse(name) >= 0)
		return true;
	for (s = 1; s < RCTL_SET_N; s++)
		if (!strcmp(rctl_setting_name(s), name))
			return true;
	return false;
}

bool rctl_tune_select_name(const char *name)
{
	return sel_known(name);
}

/* Whether one name of a comma list "names" is the change's area or setting id. */
static bool sel_match(const struct rctl_tune_change *c, const char *names, char *which,
		      size_t len)
{
	const char *set = rctl_setting_name(rctl_tune_setting_id(c));
	const char *area = rctl_area_name(c->area);
	const char *s = names;
	size_t n;

	while (*s) {
		n = strcspn(s, ",");
		if ((area && strlen(area) == n && !strncmp(s, area, n)) ||
		    (set && strlen(set) == n && !strncmp(s, set, n))) {
			snprintf(which, len, "%.*s", (int)n, s);
			return true;
		}
		s += n + (s[n] == ',');
	}
	return false;
}

static int sel_check(const char *const *v, unsigned int n, const char *opt, struct rctl_err *e)
{
	char name[64];
	const char *s;
	unsigned int i;
	size_t k;

	for (i = 0; i < n; i++)
		for (s = v[i]; ; s += k + 1) {
			k = strcspn(s, ",");
			snprintf(name, sizeof(name), "%.*s", (int)k, s);
			if (k >= sizeof(name) || !sel_known(name))
				return rctl_err_plain(e, EINVAL, "invalid value '%.*s' for '%s': "
						    "expected an area or a setting id (rocectl-tune(8))",
						    (int)k, s, opt);
			if (!s[k])
				break;
		}
	return 0;
}

static void hold(struct rctl_tune_change *c, bool only, const char *names)
{
	snprintf(c->skip, sizeof(c->skip), "%s %.200s", only ? "not in --only" : "--skip", names);
	c->held = true;
}

int rctl_tune_select(struct rctl_tune_plan *p, const char *const *only, unsigned int n_only,
		     const char *const *skip, unsigned int n_skip, struct rctl_err *e)
{
	char which[64], list[256];
	uint32_t i, k;
	size_t o = 0;
	bool in;

	if (sel_check(only, n_only, "--only", e) || sel_check(skip, n_skip, "--skip", e))
		return -EINVAL;
	list[0] = '\0';
	for (k = 0; k < n_only; k++)
		o += snprintf(list + o, o < sizeof(list) ? sizeof(list) - o : 0, "%s%s",
			      k ? "," : "", only[k]);
	for (i = 0; i < p->n_ch; i++) {
		struct rctl_tune_change *c = &p->ch[i];

		if (c->skip[0])
			continue;
		for (k = 0, in = !n_only; k < n_only && !in; k++)
			in = sel_match(c, only[k], which, sizeof(which));
		if (!in) {
			hold(c, true, list);
			continue;
		}
		for (k = 0; k < n_skip; k++)
			if (sel_match(c, skip[k], which, sizeof(which))) {
				hold(c, false, which);
				break;
			}
	}
	return 0;
}
