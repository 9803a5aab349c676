// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dcbnl over libmnl: one RTM_GETDCB / DCB_CMD_IEEE_GET per netdev gives PFC,
 * ETS, maxrate, the DCB buffer, the APP table and the DCBX mode (kernel
 * net/dcb/dcbnl.c, dcbnl_ieee_fill()). The SET/DEL that tune writes is at
 * the end (rctl_dcb_set(), declared in rocectl/write.h: only tune calls it).
 * The kernel puts an attribute in the reply only when the driver has the
 * op and it succeeded, so a missing one is "not reported by the driver".
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/socket.h>

#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "rocectl/settings.h"
#include "rocectl/collect.h"
#include "rocectl/sysfs.h"
#include "rocectl/write.h"

/* Newer uapi: APP entries with the non-standard PCP selector (255). */
#define RCTL_DCB_ATTR_DCB_APP 2

static const char not_reported[] = "not reported by the driver";

struct dcb_reply {
	struct rctl_netdev *nd;
	bool seen[DCB_ATTR_IEEE_MAX + 1];
	bool dcbx;
	int err;	/* ENOMEM while filling */
};

/*
 * Netlink attribute payloads are only 4-byte aligned, and struct ieee_pfc,
 * ieee_maxrate and dcbnl_buffer hold u64s: every payload is copied into an
 * aligned local before a field of it is read.
 */
#define DCB_COPY(local, a) memcpy(&(local), mnl_attr_get_payload(a), sizeof(local))

static void dcb_pfc(struct rctl_pfc *p, const struct nlattr *a)
{
	struct ieee_pfc pfc, *v = &pfc;
	int i;

	DCB_COPY(pfc, a);
	p->pfc_cap = v->pfc_cap;
	p->mbc = v->mbc;
	p->delay = v->delay;
	for (i = 0; i < 8; i++) {
		p->pfc_en[i] = v->pfc_en & (1u << i);
		p->requests[i] = v->requests[i];
		p->indications[i] = v->indications[i];
	}
	p->st.ok = true;
}

static void dcb_ets(struct rctl_ets *p, const struct nlattr *a)
{
	struct ieee_ets ets, *v = &ets;

	DCB_COPY(ets, a);
	p->willing = v->willing;
	p->ets_cap = v->ets_cap;
	p->cbs = v->cbs;
	memcpy(p->prio_tc, v->prio_tc, 8);
	memcpy(p->tc_tsa, v->tc_tsa, 8);
	memcpy(p->tc_tx_bw, v->tc_tx_bw, 8);
	p->st.ok = true;
}

static void dcb_buffer(struct rctl_dcb_buffer *p, const struct nlattr *a)
{
	struct dcbnl_buffer buf, *v = &buf;
	int i;

	DCB_COPY(buf, a);
	memcpy(p->prio2buffer, v->prio2buffer, 8);
	for (i = 0; i < 8; i++)
		p->buffer_size[i] = v->buffer_size[i];
	p->total_size = v->total_size;
	p->st.ok = true;
}

static void dcb_maxrate(struct rctl_maxrate *p, const struct nlattr *a)
{
	struct ieee_maxrate rate, *v = &rate;

	DCB_COPY(rate, a);
	memcpy(p->tc_maxrate, v->tc_maxrate, sizeof(p->tc_maxrate));
	p->st.ok = true;
}

/* APP entries in kernel order; duplicates are kept on purpose. */
static int dcb_apps(struct rctl_app_table *t, const struct nlattr *nest)
{
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, nest) {
		struct dcb_app entry, *v = &entry;
		struct rctl_app *app;
		int type = mnl_attr_get_type(a);

		if ((type != DCB_ATTR_IEEE_APP && type != RCTL_DCB_ATTR_DCB_APP) ||
		    mnl_attr_validate2(a, MNL_TYPE_BINARY, sizeof(*v)) < 0)
			continue;
		DCB_COPY(entry, a);
		app = rctl_arr_push(&t->apps, &t->n_apps, sizeof(*app));
		if (!app)
			return -ENOMEM;
		app->selector = v->selector;
		app->protocol = v->protocol;
		app->priority = v->priority;
	}
	t->st.ok = true;
	return 0;
}

static size_t ieee_min_len(int type)
{
	switch (type) {
	case DCB_ATTR_IEEE_PFC: return sizeof(struct ieee_pfc);
	case DCB_ATTR_IEEE_ETS: return sizeof(struct ieee_ets);
	case DCB_ATTR_IEEE_MAXRATE: return sizeof(struct ieee_maxrate);
	case DCB_ATTR_DCB_BUFFER: return sizeof(struct dcbnl_buffer);
	default: return 0;
	}
}

static int dcb_ieee(struct dcb_reply *r, const struct nlattr *nest)
{
	struct rctl_netdev *nd = r->nd;
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, nest) {
		int type = mnl_attr_get_type(a);

		if (type > DCB_ATTR_IEEE_MAX ||
		    mnl_attr_get_payload_len(a) < ieee_min_len(type))
			continue;
		if (type == DCB_ATTR_IEEE_APP_TABLE &&
		    mnl_attr_validate(a, MNL_TYPE_NESTED) < 0)
			continue;
		r->seen[type] = true;
		switch (type) {
		case DCB_ATTR_IEEE_PFC: dcb_pfc(&nd->pfc, a); break;
		case DCB_ATTR_IEEE_ETS: dcb_ets(&nd->ets, a); break;
		case DCB_ATTR_IEEE_MAXRATE: dcb_maxrate(&nd->maxrate, a); break;
		case DCB_ATTR_DCB_BUFFER: dcb_buffer(&nd->buffer, a); break;
		case DCB_ATTR_IEEE_APP_TABLE:
			if (dcb_apps(&nd->app, a))
				return -ENOMEM;
			break;
		default: break;
		}
	}
	return 0;
}

static int dcb_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dcb_reply *r = data;
	const struct nlattr *a;

	if (!mnl_nlmsg_ok(nlh, (int)nlh->nlmsg_len) ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(struct dcbmsg))
		return MNL_CB_OK;
	mnl_attr_for_each(a, nlh, sizeof(struct dcbmsg)) {
		switch (mnl_attr_get_type(a)) {
		case DCB_ATTR_IEEE:
			if (mnl_attr_validate(a, MNL_TYPE_NESTED) < 0)
				break;
			if (dcb_ieee(r, a)) {
				r->err = ENOMEM;
				return MNL_CB_ERROR;
			}
			break;
		case DCB_ATTR_DCBX:
			if (mnl_attr_validate(a, MNL_TYPE_U8) < 0)
				break;
			r->nd->dcbx.mode = mnl_attr_get_u8(a);
			r->nd->dcbx.st.ok = true;
			r->dcbx = true;
			break;
		}
	}
	return MNL_CB_OK;
}

static void dcb_fail_all(struct rctl_netdev *nd, int err, const char *reason)
{
	struct rctl_part *parts[] = {
		&nd->pfc.st, &nd->ets.st, &nd->app.st, &nd->buffer.st,
		&nd->dcbx.st, &nd->maxrate.st,
	};
	size_t i;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		rctl_part_fail(parts[i], err, reason);
}

/* Parts the reply left out: the driver lacks the op (or it failed). */
static void dcb_mark_missing(struct rctl_netdev *nd, const struct dcb_reply *r)
{
	if (!r->seen[DCB_ATTR_IEEE_PFC])
		rctl_part_fail(&nd->pfc.st, EOPNOTSUPP, not_reported);
	if (!r->seen[DCB_ATTR_IEEE_ETS])
		rctl_part_fail(&nd->ets.st, EOPNOTSUPP, not_reported);
	if (!r->seen[DCB_ATTR_IEEE_MAXRATE])
		rctl_part_fail(&nd->maxrate.st, EOPNOTSUPP, not_reported);
	if (!r->seen[DCB_ATTR_DCB_BUFFER])
		rctl_part_fail(&nd->buffer.st, EOPNOTSUPP, not_reported);
	if (!r->seen[DCB_ATTR_IEEE_APP_TABLE])
		rctl_part_fail(&nd->app.st, EOPNOTSUPP, not_reported);
	if (!r->dcbx)
		rctl_part_fail(&nd->dcbx.st, EOPNOTSUPP, not_reported);
}

/*
 * bnxt_en (drivers/net/ethernet/broadcom/bnxt/bnxt_dcb.c, bnxt_dcbnl_ieee_
 * getpfc/getets): in host DCBX mode, until PFC or ETS is set through dcbnl
 * since the driver loaded, the get ops return success with only pfc_cap or
 * ets_cap filled, without asking the firmware. Broadcom's tools (niccli,
 * bnxt_setupcc.sh) configure the firmware instead, so those zeroes are
 * "unknown, firmware-managed", never "PFC off" or "all priorities on TC 0".
 * The APP table is the dcbnl core's own list: a DSCP map made in the
 * firmware is not in it, and an empty table says nothing about trust.
 */
static bool pfc_zeroed(const struct rctl_pfc *p)
{
	int i;

	for (i = 0; i < 8; i++)
		if (p->pfc_en[i] || p->requests[i] || p->indications[i])
			return false;
	return !p->mbc && !p->delay;
}

static bool ets_zeroed(const struct rctl_ets *e)
{
	int i;

	for (i = 0; i < 8; i++)
		if (e->prio_tc[i] || e->tc_tsa[i] || e->tc_tx_bw[i])
			return false;
	return true;
}

/*
 * Without DCB_CAP_DCBX_HOST (the firmware agent's LLD_MANAGED|VER_IEEE of
 * bnxt_dcb_init(), or VER_IEEE alone), getpfc/getets ask the firmware and
 * answer its real values, but bnxt_dcbnl_ieee_setapp refuses every entry:
 * the APP table stays empty whatever DSCP map the firmware agent uses.
 */
void rctl_dcb_fw_managed(struct rctl_netdev *nd)
{
	static const char why[] =
		"firmware-managed: bnxt_en in host DCBX mode reports zeroes until DCB is set "
		"through dcbnl (niccli/bnxt_setupcc.sh set the firmware)";
	bool host;

	if (rctl_family_of_driver(nd->driver) != RCTL_FAM_BNXT || !nd->dcbx.st.ok)
		return;
	host = nd->dcbx.mode & RCTL_DCBX_HOST;
	if (host && nd->pfc.st.ok && pfc_zeroed(&nd->pfc))
		rctl_part_fail(&nd->pfc.st, RCTL_FW_MANAGED, why);
	if (host && nd->ets.st.ok && ets_zeroed(&nd->ets))
		rctl_part_fail(&nd->ets.st, RCTL_FW_MANAGED, why);
	if (nd->app.st.ok && !nd->app.n_apps)
		rctl_part_fail(&nd->app.st, RCTL_FW_MANAGED, host ?
			       "firmware-managed: the bnxt_en APP table holds only entries set "
			       "through dcbnl; the firmware's DSCP map is not in it" :
			       "firmware-managed: bnxt_en without DCBX HOST refuses every APP "
			       "entry; the firmware agent's DSCP map is not in the table");
}

/* The netdev's driver from sysfs when ethtool has not named it yet. */
static void dcb_driver(struct rctl_netdev *nd)
{
	char link[PATH_MAX], target[PATH_MAX];
	const char *base;
	ssize_t n;

	if (nd->driver[0])
		return;
	snprintf(link, sizeof(link), "%s/class/net/%s/device/driver", rctl_sysfs(), nd->name);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = '\0';
	base = strrchr(target, '/');
	snprintf(nd->driver, sizeof(nd->driver), "%.*s", (int)sizeof(nd->driver) - 1,
		 base ? base + 1 : target);
}

/* One DCB_CMD_IEEE_GET reply into nd (the collector's parser, for tests). */
int rctl_dcb_parse(const struct nlmsghdr *nlh, struct rctl_netdev *nd)
{
	struct dcb_reply r = { .nd = nd };

	if (dcb_cb(nlh, &r) != MNL_CB_OK)
		return -ENOMEM;
	dcb_mark_missing(nd, &r);
	return 0;
}

static const char *dcb_reason(int err)
{
	switch (err) {
	case EOPNOTSUPP: return "DCB not supported by the driver";
	case ENODEV: return "no such netdev";
	case ETIMEDOUT: return "no answer from the kernel";
	default: return NULL;
	}
}

static int dcb_one(struct rctl_nl *nl, struct rctl_host *h, struct rctl_netdev *nd)
{
	struct dcb_reply r = { .nd = nd };
	struct nlmsghdr *nlh;
	struct dcbmsg *dm;
	int ret;

	nlh = rctl_nl_msg(nl, RTM_GETDCB, NLM_F_ACK);
	dm = mnl_nlmsg_put_extra_header(nlh, sizeof(*dm));
	dm->dcb_family = AF_UNSPEC;
	dm->cmd = DCB_CMD_IEEE_GET;
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, nd->name);
	ret = rctl_nl_talk(nl, nlh, dcb_cb, &r);
	if (r.err == ENOMEM)
		return -ENOMEM;
	if (ret) {
		dcb_fail_all(nd, -ret, dcb_reason(-ret));
		rctl_host_unread(h, ret, nd->pfc.st.reason, "dcb of '%s'", nd->name);
		return 0;
	}
	dcb_mark_missing(nd, &r);
	dcb_driver(nd);
	rctl_dcb_fw_managed(nd);
	return 0;
}

int rctl_dcb_collect(struct rctl_host *h, struct rctl_err *e)
{
	struct rctl_nl nl;
	uint32_t i;
	int ret;

	if (rctl_nl_open(&nl, NETLINK_ROUTE, e)) {
		for (i = 0; i < h->n_netdevs; i++)
			dcb_fail_all(&h->netdevs[i], e->errnum, NULL);
		rctl_host_unread(h, e->errnum, e->msg, "dcb (route netlink)");
		rctl_err_clear(e);
		return 0;
	}
	for (i = 0; i < h->n_netdevs; i++) {
		ret = dcb_one(&nl, h, &h->netdevs[i]);
		if (ret) {
			rctl_nl_close(&nl);
			return rctl_err_strerror(e, -ret, "cannot read DCB of '%s'",
					    h->netdevs[i].name);
		}
	}
	rctl_nl_close(&nl);
	return 0;
}

/* ---- SET (tune only: rocectl/write.h) --------------------------------- */

/*
 * dcbnl answers a SET or DEL with its own message whose DCB_ATTR_IEEE u8 is
 * the driver's return value (net/dcb/dcbnl.c, dcbnl_ieee_set/dcbnl_ieee_del:
 * "err = nla_put_u8(skb, DCB_ATTR_IEEE, err)", truncated to 8 bits), and acks
 * 0 regardless. A negative errno arrives as 256 - errno (> 127). Some drivers
 * return a positive status on success: ice_dcbnl_setapp ICE_DCB_NO_HW_CHG (1),
 * ice_dcbnl_delapp ICE_DCB_HW_CHG (2) (drivers/net/ethernet/intel/ice/
 * ice_dcb_nl.c, Linux 6.x), so 1..127 is success. (An errno of 129..255
 * would read as success too; dcbnl's ops return none of those.)
 */
int rctl_dcb_set_status(const struct nlmsghdr *nlh)
{
	const struct nlattr *a;
	int status = 0;

	if (!mnl_nlmsg_ok(nlh, (int)nlh->nlmsg_len) ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(struct dcbmsg))
		return 0;
	mnl_attr_for_each(a, nlh, sizeof(struct dcbmsg))
		if (mnl_attr_get_type(a) == DCB_ATTR_IEEE &&
		    mnl_attr_get_payload_len(a) >= 1) {
			uint8_t v = *(const uint8_t *)mnl_attr_get_payload(a);

			status = v > 127 ? -(256 - v) : 0;
		}
	return status;
}

static int dcb_reply_cb(const struct nlmsghdr *nlh, void *data)
{
	int *status = data, ret = rctl_dcb_set_status(nlh);

	if (ret)
		*status = ret;
	return MNL_CB_OK;
}

int rctl_dcb_set(const char *ifname, uint8_t cmd, uint16_t attr,
		   const void *data, size_t len)
{
	struct rctl_nl *nl = malloc(sizeof(*nl));
	struct nlattr *ieee, *tab = NULL;
	struct nlmsghdr *nlh;
	struct dcbmsg *d;
	int ret, status = 0;

	if (!nl)
		return -ENOMEM;
	ret = rctl_nl_open(nl, NETLINK_ROUTE, NULL);
	if (ret)
		goto out;
	nlh = rctl_nl_msg(nl, RTM_SETDCB, NLM_F_ACK);
	d = mnl_nlmsg_put_extra_header(nlh, sizeof(*d));
	d->dcb_family = AF_UNSPEC;
	d->cmd = cmd;
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, ifname);
	ieee = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
	if (attr == DCB_ATTR_IEEE_APP_TABLE) {
		tab = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE_APP_TABLE);
		attr = DCB_ATTR_IEEE_APP;
	}
	mnl_attr_put(nlh, attr, len, data);
	if (tab)
		mnl_attr_nest_end(nlh, tab);
	mnl_attr_nest_end(nlh, ieee);
	ret = rctl_nl_talk(nl, nlh, dcb_reply_cb, &status);
	if (!ret && status)
		ret = status;
	rctl_nl_close(nl);
out:
	free(nl);
	return ret;
}
