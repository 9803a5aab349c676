// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What every rule stands on (rules.h): findings, targets, the verdict, and
 * running a rule table. The table itself is lib/rules_table.c, above the
 * rules_*.c files it lists, so no rule calls back up into it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/opt.h"
#include "rocectl/rules.h"

static const char *const status_names[] = { "pass", "warn", "unknown", "fail" };

const char *const rctl_area_names[] = {
	"pfc", "ecn", "dcqcn", "dscp", "cnp", "mtu", "gid", "mode", "counters",
	"firewall", "peer", "traffic", "nvmf", "wire", "all", NULL
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
/*
 * "DEV/PORT (SLAVE in BOND)": a RoCE LAG slave judged for its port (see
 * rctl_qos_target_next); "DEV/PORT (VF via PF PFNAME)": a VF's port judged on
 * its PF. The netdev of the finding is the slave or the PF, the one its fix
 * and tune's change name.
 */
static void lag_slave(struct rctl_finding *f, size_t at)
{
	const char *s = f->target + at, *end;

	if (strncmp(s, " (", 2))
		return;
	if ((end = strstr(s + 2, " via PF ")))	/* "(VF via PF PFNAME)": the PF */
		snprintf(f->netdev, sizeof(f->netdev), "%.*s", (int)strcspn(end + 8, ")"), end + 8);
	else if ((end = strstr(s + 2, " in ")))
		snprintf(f->netdev, sizeof(f->netdev), "%.*s", (int)(end - s - 2), s + 2);
}

static bool port_is(const struct rctl_device *d, const struct rctl_port *p, const char *target)
{
	size_t n = strlen(d->name);
	const char *end;

	if (p->netdev[0] && !strcmp(target, p->netdev))
		return true;
	if (strncmp(target, d->name, n) || target[n] != '/')
		return false;
	end = target + n + 1;
	if (*end < '0' || *end > '9' || strtoul(end, (char **)&end, 10) != p->port)
		return false;
	return !*end || *end == ' ';
}

/* Ports sorted by netdev name, then by device name and port number. */
static const struct rctl_port *const *sort_ports;
static const struct rctl_device *const *sort_devs;

static int by_netdev(const void *a, const void *b)
{
	return strcmp(sort_ports[*(const uint32_t *)a]->netdev,
		      sort_ports[*(const uint32_t *)b]->netdev);
}

static int by_dev_port(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = strcmp(sort_devs[x]->name, sort_devs[y]->name);

	return c ? c : (sort_ports[x]->port > sort_ports[y]->port) -
			       (sort_ports[x]->port < sort_ports[y]->port);
}

/* Whether two neighbours of idx[0..n), sorted by cmp, compare equal. */
static bool sorted_dup(uint32_t *idx, uint32_t n, int (*cmp)(const void *, const void *))
{
	uint32_t i;

	qsort(idx, n, sizeof(*idx), cmp);
	for (i = 1; i < n; i++)
		if (!cmp(&idx[i - 1], &idx[i]))
			return true;
	return false;
}

/*
 * Whether a target names at most one port (port_is()): no netdev name and
 * no device and port number twice, no '/' or ' ' in the names. Then the
 * port a finding names may be looked for from the last one on; otherwise
 * only the scan from the first port gives the first one (a bad snapshot).
 */
static bool ports_unique(const struct rctl_host *h)
{
	const struct rctl_port **pp = NULL;
	const struct rctl_device **dp = NULL;
	uint32_t i, k, n = 0, m = 0, *idx = NULL;
	bool ok = false;

	for (i = 0; i < h->n_devs; i++)
		n += h->devs[i].n_ports;
	pp = malloc((n + 1) * sizeof(*pp));
	dp = malloc((n + 1) * sizeof(*dp));
	idx = malloc((n + 1) * sizeof(*idx));
	if (!pp || !dp || !idx)
		goto out;
	for (i = 0, n = 0; i < h->n_devs; i++) {
		if (strpbrk(h->devs[i].name, "/ "))
			goto out;
		for (k = 0; k < h->devs[i].n_ports; k++, n++) {
			pp[n] = &h->devs[i].ports[k], dp[n] = &h->devs[i];
			if (strpbrk(pp[n]->netdev, "/ "))
				goto out;
			if (pp[n]->netdev[0])
				idx[m++] = n;
		}
	}
	sort_ports = pp, sort_devs = dp;
	if (sorted_dup(idx, m, by_netdev))
		goto out;
	for (i = 0; i < n; i++)
		idx[i] = i;
	ok = !sorted_dup(idx, n, by_dev_port);
out:
	free(pp);
	free(dp);
	free(idx);
	return ok;
}

/* Whether port [i, k] exists and "target" names it. */
static bool port_at_is(const struct rctl_host *h, uint32_t i, uint32_t k, const char *target)
{
	return i < h->n_devs && k < h->devs[i].n_ports &&
	       port_is(&h->devs[i], &h->devs[i].ports[k], target);
}

/*
 * The first port "target" names. Where a target names one port at most, it
 * is tried first on the port of the finding before and the one after it
 * (the rules judge port by port, in order): findings cost O(1) each, not a
 * scan of every port (quadratic in the ports over a rule).
 */
static void finding_locate(struct rctl_judge *j, struct rctl_finding *f)
{
	const struct rctl_host *h = j->h;
	uint32_t i, k;

	if (!j->unique_known) {
		j->unique_known = true;
		j->unique = ports_unique(h);
	}
	if (j->unique && j->has_last) {
		i = j->last_dev, k = j->last_port;
		if (port_at_is(h, i, k, f->target))
			goto found;
		if (port_at_is(h, i, ++k, f->target) || port_at_is(h, ++i, k = 0, f->target))
			goto found;
	}
	for (i = 0; i < h->n_devs; i++)
		for (k = 0; k < h->devs[i].n_ports; k++)
			if (port_is(&h->devs[i], &h->devs[i].ports[k], f->target))
				goto found;
	if (rctl_host_netdev(h, f->target))
		snprintf(f->netdev, sizeof(f->netdev), "%s", f->target);
	return;
found:
	j->has_last = true;
	j->last_dev = i;
	j->last_port = k;
	snprintf(f->device, sizeof(f->device), "%s", h->devs[i].name);
	f->port = h->devs[i].ports[k].port;
	snprintf(f->netdev, sizeof(f->netdev), "%s", h->devs[i].ports[k].netdev);
	lag_slave(f, strcspn(f->target, " "));
}

/*
 * What each rule's findings judge, as the settings table names it: tune's
 * change of the same setting on the same target carries the same
 * "setting_id" (tests/cli/one-truth.bats matches them). Rules about no
 * setting tune could change (counters, GIDs, firewalls, who owns DCB) have
 * none.
 */
static const struct {
	const char *id;
	enum rctl_setting s;
} rule_settings[] = {
	{ "pfc.prio_disabled", RCTL_SET_PFC }, { "pfc.extra_prio", RCTL_SET_PFC },
	{ "pfc.cnp_prio", RCTL_SET_PFC }, { "pfc.without_ecn", RCTL_SET_ECN },
	{ "pfc.global_pause", RCTL_SET_PAUSE }, { "pfc.buffer", RCTL_SET_BUFFER },
	{ "pfc.ets", RCTL_SET_ETS_PRIO_TC }, { "ecn.np_disabled", RCTL_SET_ECN },
	{ "ecn.rp_disabled", RCTL_SET_ECN }, { "ecn.without_pfc", RCTL_SET_PFC },
	{ "dscp.trust_pcp", RCTL_SET_APP_DSCP }, { "dscp.missing", RCTL_SET_APP_DSCP },
	{ "dscp.ambiguous", RCTL_SET_APP_DSCP }, { "cnp.data_prio", RCTL_SET_CNP_DSCP },
	{ "cnp.mismatch", RCTL_SET_CNP_DSCP }, { "mtu.active", RCTL_SET_MTU },
	{ "mtu.oversize", RCTL_SET_MTU }, { "mode.roce_v1", RCTL_SET_CM_MODE },
	{ "mode.tos", RCTL_SET_CM_TOS },
};

enum rctl_setting rctl_rule_setting(const char *rule_id)
{
	size_t i;

	for (i = 0; i < sizeof(rule_settings) / sizeof(rule_settings[0]); i++)
		if (!strcmp(rule_settings[i].id, rule_id))
			return rule_settings[i].s;
	return RCTL_SET_NONE;
}

/*
 * A DCB fix on a netdev whose DCB a firmware agent owns: the host's command
 * would be refused (bnxt_en, ice) or negotiated away (mlx5), so the fix is
 * what tune's skipped change names, the vendor tool (rctl_dcb_owner).
 */
static void owned_fix(const struct rctl_host *h, struct rctl_finding *f)
{
	const struct rctl_netdev *nd = f->netdev[0] ? rctl_host_netdev(h, f->netdev) : NULL;
	const struct rctl_device *d = NULL;
	char why[256];
	const char *tool;
	uint32_t i;

	if (!f->fix[0] || !nd || (f->setting != RCTL_SET_PFC && f->setting != RCTL_SET_ETS_PRIO_TC &&
				  f->setting != RCTL_SET_APP_DSCP))
		return;
	for (i = 0; i < h->n_devs; i++)
		if (!strcmp(h->devs[i].name, f->device))
			d = &h->devs[i];
	if (rctl_dcb_owner(h, nd, rctl_family_of(d, nd), why, sizeof(why)) != RCTL_DCB_FIRMWARE)
		return;
	tool = strstr(why, "): ");
	snprintf(f->fix, sizeof(f->fix), "%s", tool ? tool + 3 : why);
}

static void say_v(struct rctl_judge *j, const struct rctl_say *s, const char *fmt, va_list ap)
{
	struct rctl_report *r = j->r;
	enum rctl_status st = s->status;
	const char *target = s->target;
	struct rctl_finding *f;

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
		finding_locate(j, f);
	snprintf(f->expected, sizeof(f->expected), "%s", s->expected ? s->expected : "");
	snprintf(f->observed, sizeof(f->observed), "%s", s->observed ? s->observed : "");
	snprintf(f->evidence, sizeof(f->evidence), "%s", s->evidence ? s->evidence : "");
	snprintf(f->fix, sizeof(f->fix), "%s", s->fix ? s->fix : "");
	f->setting = rctl_rule_setting(f->id);
	f->cause = NULL;
	f->caused_by = -1;
	f->root_id = f->limit = NULL;
	f->root_target[0] = '\0';
	f->n_consequences = 0;
	owned_fix(j->h, f);
	vsnprintf(f->message, sizeof(f->message), fmt, ap);
	r->count[st]++;
	r->area_count[f->area][st]++;
}

void rctl_say(struct rctl_judge *j, const struct rctl_say *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say_v(j, s, fmt, ap);
	va_end(ap);
}

static void pass_v(struct rctl_judge *j, const struct rctl_target *t, const char *expected,
		   const char *observed, const char *evidence, const char *fmt, va_list ap)
{
	const struct rctl_say s = { .status = RCTL_PASS,
				    .target = t ? t->name : NULL,
				    .expected = expected,
				    .observed = observed,
				    .evidence = evidence };

	say_v(j, &s, fmt, ap);
}

void rctl_pass(struct rctl_judge *j, const struct rctl_target *t, const char *expected,
	       const char *observed, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pass_v(j, t, expected, observed, NULL, fmt, ap);
	va_end(ap);
}

void rctl_pass_ev(struct rctl_judge *j, const struct rctl_target *t, const char *expected,
		  const char *observed, const char *evidence, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pass_v(j, t, expected, observed, evidence, fmt, ap);
	va_end(ap);
}

void rctl_emit_setting(struct rctl_judge *j, enum rctl_setting s)
{
	if (j->r->n && j->r->f[j->r->n - 1].id == j->rule->id)
		j->r->f[j->r->n - 1].setting = s;
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
			    !(rctl_port_match(j->filter, d, p) || rctl_port_lag_slave(h, p, j->filter)))
				continue;
			t->dev = d;
			t->port = p;
			t->first = true;
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

/* --dev names one LAG slave of the port: only that netdev is judged. */
static bool filtered_out(const struct rctl_judge *j, const struct rctl_target *t,
			 const struct rctl_netdev *nd)
{
	return j->filter && nd && strcmp(nd->name, j->filter) &&
	       rctl_port_lag_slave(j->h, t->port, j->filter);
}

bool rctl_qos_target_next(struct rctl_judge *j, struct rctl_target *t, uint32_t cur[3])
{
	const struct rctl_host *h = j->h;
	const struct rctl_netdev *pnd, *bond, *nd;

	t->first = false;
	for (;;) {
		if (!cur[2]) {		/* next port; its own netdev first */
			if (!rctl_target_next(j, t, &cur[0], &cur[1]))
				return false;
			cur[2] = 1;
			if (!bond_with_slaves(h, t->nd) && !filtered_out(j, t, t->nd))
				return true;
		}
		pnd = rctl_host_netdev(h, t->port->netdev);
		bond = pnd ? rctl_bond_of(h, pnd) : NULL;
		while (bond && cur[2] <= h->n_netdevs) {
			nd = &h->netdevs[cur[2]++ - 1];
			if (strcmp(nd->master, bond->name) || nd == pnd ||
			    rctl_port_netdev(h, nd->name) || filtered_out(j, t, nd))
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

static const struct rctl_gid *sort_gids;

/* By netdev name, then by index: the first of each netdev leads its run. */
static int gid_by_netdev(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = strcmp(sort_gids[x].netdev, sort_gids[y].netdev);

	return c ? c : (x > y) - (x < y);
}

uint32_t *rctl_gid_uppers(const struct rctl_port *p, bool routable, uint32_t *n, int *err)
{
	uint32_t i, m = 0, *idx = malloc((p->n_gids + 1) * sizeof(*idx));

	*n = 0;
	*err = idx ? 0 : -ENOMEM;
	if (!idx)
		return NULL;
	for (i = 0; i < p->n_gids; i++)	/* the GIDs rctl_gid_upper() compares */
		if (!strcmp(p->gids[i].type, "RoCE v2") &&
		    !(routable && !strncmp(p->gids[i].ip, "fe80:", 5)))
			idx[m++] = i;
	sort_gids = p->gids;
	qsort(idx, m, sizeof(*idx), gid_by_netdev);
	for (i = 0; i < m; i++)
		if ((!i || strcmp(p->gids[idx[i - 1]].netdev, p->gids[idx[i]].netdev)) &&
		    strcmp(p->gids[idx[i]].netdev, p->netdev))
			idx[(*n)++] = idx[i];
	qsort(idx, *n, sizeof(*idx), rctl_u32_cmp);
	return idx;
}

/*
 * An SR-IOV VF's DCB, pause and congestion control live on its PF: a QOS or
 * PF target of a VF port is the PF's netdev; false when that is not in the
 * model (ecn.sriov_vf points at it).
 */
static bool via_pf(const struct rctl_judge *j, struct rctl_target *t)
{
	const struct rctl_netdev *pf;

	if (!t->nd || !t->nd->sriov_vf)
		return true;
	pf = t->nd->sriov_pf[0] ? rctl_host_netdev(j->h, t->nd->sriov_pf) : NULL;
	if (!pf)
		return false;
	snprintf(t->name, sizeof(t->name), "%s/%u (%s via PF %s)", t->dev->name, t->port->port,
		 t->nd->name, pf->name);
	t->nd = pf;
	return true;
}

/* The next target of the running rule's scope (rctl_rule.scope); cur[] starts zeroed. */
static bool scope_next(struct rctl_judge *j, struct rctl_target *t, uint32_t cur[3])
{
	const struct rctl_rule *r = j->rule;

	if (r->needs_deltas && !rctl_host_has_deltas(j->h))
		return false;
	for (;;) {
		if (r->scope == RCTL_SCOPE_QOS) {
			if (!rctl_qos_target_next(j, t, cur))
				return false;
			if (t->nd && via_pf(j, t) && !(r->needs_deltas && t->nd->stats_err))
				return true;
			continue;
		}
		if (!rctl_target_next(j, t, &cur[0], &cur[1]))
			return false;
		if (r->scope == RCTL_SCOPE_PF && (!t->nd || !via_pf(j, t)))
			continue;
		if ((r->scope != RCTL_SCOPE_NETDEV || t->nd) &&
		    !(r->needs_deltas && t->port->hw_err))
			return true;
	}
}

/* The model parts a rule may need (enum rctl_need), in its order. */
static const struct {
	const char *what;	/* "cannot read WHAT of 'eth2'" */
	bool optional;		/* EOPNOTSUPP: the driver has none, nothing to judge */
} parts[] = {
	{ "PFC", false }, { "ETS", true }, { "the DCB APP table", false },
	{ "DCB buffer", true }, { "DCBX mode", true }, { "pause parameters", false },
	{ "congestion control (DCQCN)", false }, { "rdma_cm defaults", false },
};

static const struct rctl_part *part_of(const struct rctl_target *t, unsigned int i)
{
	const struct rctl_netdev *nd = t->nd;

	switch (1u << i) {
	case RCTL_NEED_PFC: return &nd->pfc.st;
	case RCTL_NEED_ETS: return &nd->ets.st;
	case RCTL_NEED_APP: return &nd->app.st;
	case RCTL_NEED_BUFFER: return &nd->buffer.st;
	case RCTL_NEED_DCBX: return &nd->dcbx.st;
	case RCTL_NEED_PAUSE: return &nd->pause.st;
	case RCTL_NEED_CC: return &nd->cc.st;
	default: return &t->port->cm.st;
	}
}

/* Whether the unreadable part p was reported in this run; marks it when not. */
static bool said_before(struct rctl_judge *j, const struct rctl_part *p)
{
	const struct rctl_part **slot;
	uint32_t i;

	for (i = 0; i < j->n_said; i++)
		if (j->said[i] == p)
			return true;
	slot = rctl_arr_push(&j->said, &j->n_said, sizeof(*slot));
	if (slot)
		*slot = p;
	return false;
}

bool rctl_part_said(struct rctl_judge *j, const struct rctl_part *p)
{
	return said_before(j, p);
}

bool rctl_host_part_read(struct rctl_judge *j, const struct rctl_part *st, bool report,
			 const char *what)
{
	if (st->ok)
		return true;
	if (report && st->err)
		rctl_say(j,
			 &(struct rctl_say){ .status = RCTL_UNKNOWN,
					     .observed = "unknown",
					     .evidence = st->reason },
			 "cannot read %s: %s", what, st->reason);
	return false;
}

/*
 * Whether every part the running rule needs was read on t. Where one was
 * not: the rule's own word on it, else the run's one unknown with the reason.
 */
static bool parts_read(struct rctl_judge *j, const struct rctl_target *t)
{
	const struct rctl_rule *r = j->rule;
	const struct rctl_part *p;
	unsigned int i;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (!(r->parts & 1u << i) || (p = part_of(t, i))->ok)
			continue;
		if ((r->unreadable && r->unreadable(j, t)) || !(r->says & 1u << i) ||
		    (parts[i].optional && p->err == EOPNOTSUPP) || said_before(j, p))
			return false;
		rctl_say(j,
			 &(struct rctl_say){ .status = RCTL_UNKNOWN,
					     .target = t->name,
					     .observed = "unknown",
					     .evidence = p->reason },
			 "cannot read %s of '%s': %s", parts[i].what, t->nd ? t->nd->name : t->name,
			 p->err ? p->reason : "not collected");
		return false;
	}
	return true;
}

void rctl_intent_of_port(const struct rctl_intent *in, const struct rctl_host *h,
			 const struct rctl_device *d, const struct rctl_port *p,
			 struct rctl_intent *out)
{
	const struct rctl_netdev *nd = rctl_host_netdev(h, p->netdev);
	char port[sizeof(out->port)];

	snprintf(port, sizeof(port), "%.*s/%u", (int)sizeof(port) - 12, d->name, p->port);
	rctl_intent_for(in, d->driver, nd ? nd->driver : NULL, d->name, p->netdev, port, out);
}

/* The rule's root cause, where it applies to t, on the findings it just made there. */
static void mark_cause(struct rctl_judge *j, const struct rctl_target *t, uint32_t from)
{
	const struct rctl_cause *c = j->rule->cause;

	if (!c || !t->nd || !c->applies(t))
		return;
	for (; from < j->r->n; from++)
		if (j->r->f[from].status != RCTL_PASS)
			j->r->f[from].cause = c;
}

/*
 * Each target is judged against its port's intent: the global one with the
 * config sections that name the port (host-wide rules: the global one).
 */
static void run_rule(struct rctl_judge *j)
{
	const struct rctl_intent *global = j->in;
	struct rctl_intent port;
	uint32_t cur[3] = { 0 }, from;
	struct rctl_target t;

	if (j->rule->scope == RCTL_SCOPE_HOST) {
		j->rule->fn(j, NULL);
		return;
	}
	while (scope_next(j, &t, cur)) {
		from = j->r->n;
		if (parts_read(j, &t)) {
			if (rctl_intent_has_sections(global)) {
				rctl_intent_of_port(global, j->h, t.dev, t.port, &port);
				j->in = &port;
			}
			j->rule->fn(j, &t);
			j->in = global;
		}
		mark_cause(j, &t, from);
	}
}

bool rctl_finding_counted(const struct rctl_finding *f)
{
	return !f->root_id && !f->limit;
}

static uint32_t root_of(const struct rctl_report *r, uint32_t i)
{
	while (r->f[i].caused_by >= 0)
		i = (uint32_t)r->f[i].caused_by;
	return i;
}

static void attach(struct rctl_report *r, uint32_t i, uint32_t root)
{
	root = root_of(r, root);
	if (i == root || r->f[i].status > r->f[root].status)	/* a fail never hides under a warning */
		return;
	r->f[i].caused_by = (int32_t)root;
}

static bool same_port(const struct rctl_finding *a, const struct rctl_finding *b)
{
	return !strcmp(a->device, b->device) && a->port == b->port;
}

/* The findings of one root cause on one port: under its root rule's, else the first. */
static void group_causes(struct rctl_report *r)
{
	uint32_t i, k, root;

	for (i = 0; i < r->n; i++) {
		const struct rctl_finding *f = &r->f[i];

		if (!f->cause || f->caused_by >= 0)
			continue;
		root = i;
		for (k = 0; k < r->n; k++)
			if (r->f[k].cause == f->cause && same_port(&r->f[k], f) &&
			    !strcmp(r->f[k].id, f->cause->root)) {
				root = k;
				break;
			}
		for (k = 0; k < r->n; k++)
			if (k != root && r->f[k].cause == f->cause && same_port(&r->f[k], f) &&
			    r->f[k].caused_by < 0)
				attach(r, k, root);
		r->f[root].limit = f->cause->limit;	/* the root's only: a fail left out stays one */
	}
}

/*
 * A VF's port judged on its PF ("DEV/PORT (VF via PF PF)") repeats the PF's
 * own finding of the same rule on the same netdev: under it, or under the
 * first VF's when the PF's port was not judged.
 */
static void group_vfs(struct rctl_report *r)
{
	uint32_t i, k, root;

	for (i = 0; i < r->n; i++) {
		const struct rctl_finding *f = &r->f[i];

		if (f->status == RCTL_PASS || f->caused_by >= 0 || !strstr(f->target, " via PF "))
			continue;
		root = i;
		for (k = 0; k < r->n; k++) {
			const struct rctl_finding *g = &r->f[k];

			if (k == i || g->id != f->id || g->status != f->status ||
			    strcmp(g->netdev, f->netdev))
				continue;
			if (!strstr(g->target, " via PF ")) {
				root = k;
				break;
			}
			if (k < root)
				root = k;
		}
		attach(r, i, root);
	}
}

static void uncount(struct rctl_report *r, const struct rctl_finding *f)
{
	r->count[f->status]--;
	r->area_count[f->area][f->status]--;
}

/* One root cause, one finding: group, mark the driver limits, count the roots. */
static void report_group(struct rctl_report *r)
{
	uint32_t i, root;

	group_causes(r);
	group_vfs(r);
	for (i = 0; i < r->n; i++) {
		struct rctl_finding *f = &r->f[i];

		if (f->caused_by < 0)
			continue;
		root = root_of(r, i);
		f->caused_by = (int32_t)root;
		f->root_id = r->f[root].id;
		snprintf(f->root_target, sizeof(f->root_target), "%s", r->f[root].target);
	}
	for (i = 0; i < r->n; i++) {
		struct rctl_finding *f = &r->f[i];

		if (f->root_id) {
			f->limit = r->f[f->caused_by].limit;
			r->f[f->caused_by].n_consequences++;
			r->n_caused++;
			r->area_caused[f->area]++;
			uncount(r, f);
		} else if (f->limit) {
			r->n_limit++;
			r->area_limit[f->area]++;
			uncount(r, f);
		}
	}
}

void rctl_judge_rules(const struct rctl_host *h, const struct rctl_intent *in,
		      unsigned int areas, const char *filter, const struct rctl_rule *rules,
		      unsigned int n, struct rctl_report *r)
{
	struct rctl_judge j = { .h = h, .in = in, .filter = filter, .r = r };
	unsigned int i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < n; i++) {
		if (!(areas & (1u << rules[i].area)))
			continue;
		j.rule = &rules[i];
		run_rule(&j);
	}
	report_group(r);
	free(j.said);
}

void rctl_report_free(struct rctl_report *r)
{
	free(r->f);
	memset(r, 0, sizeof(*r));
}

int rctl_report_exit_as(const struct rctl_report *r, int unknown_exit)
{
	if (r->count[RCTL_FAIL])
		return 2;
	/* Findings were lost: one of them may have failed. */
	if (r->oom)
		return 3;
	if (r->count[RCTL_WARN])
		return 1;
	if (r->count[RCTL_UNKNOWN])
		return unknown_exit;
	return 0;
}

int rctl_report_exit(const struct rctl_report *r)
{
	return rctl_report_exit_as(r, 3);
}

static void set_status(struct rctl_report *r, struct rctl_finding *f, enum rctl_status st)
{
	if (!rctl_finding_counted(f)) {
		f->status = st;
		return;
	}
	r->count[f->status]--;
	r->area_count[f->area][f->status]--;
	f->status = st;
	r->count[st]++;
	r->area_count[f->area][st]++;
}

void rctl_report_ratio_ranges(struct rctl_report *r, const struct rctl_range *warn,
			      const struct rctl_range *crit)
{
	enum rctl_status st;
	uint32_t i;

	if (!warn->set && !crit->set)
		return;
	for (i = 0; i < r->n; i++) {
		struct rctl_finding *f = &r->f[i];

		if (!f->has_ratio)
			continue;
		st = crit->set ? (rctl_range_alert(crit, f->ratio) ? RCTL_FAIL : RCTL_PASS) : f->status;
		if (st != RCTL_FAIL && rctl_range_alert(warn, f->ratio))
			st = RCTL_WARN;
		set_status(r, f, st);
		snprintf(f->expected, sizeof(f->expected), "loss rate within%s%s%s%s%s",
			 warn->set ? " -w " : "", warn->set ? warn->text : "",
			 crit->set ? " -c " : "", crit->set ? crit->text : "",
			 crit->set ? "" : " and the budget");
		snprintf(f->message, sizeof(f->message), "RoCE loss rate %.3g %s", f->ratio,
			 st == RCTL_FAIL && crit->set ? "alerts against the critical range -c" :
			 st == RCTL_FAIL ? "exceeds the loss budget" :
			 st == RCTL_WARN ? "alerts against the warning range -w" :
			 "is within the thresholds");
		if (st == RCTL_FAIL && crit->set)
			snprintf(f->message + strlen(f->message), sizeof(f->message) - strlen(f->message),
				 " '%s'", crit->text);
		else if (st == RCTL_WARN)
			snprintf(f->message + strlen(f->message), sizeof(f->message) - strlen(f->message),
				 " '%s'", warn->text);
	}
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
