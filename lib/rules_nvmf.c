// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's NVMe-oF connections (docs/nvme-host.md): each fabrics
 * controller's state and timers, each subsystem's paths, and what the RoCE
 * rules say of the port an RDMA controller runs on. A host without NVMe-oF
 * controllers gets one pass ("nothing to check"); a snapshot older than
 * the nvme part (not collected, errno 0) gets nothing at all.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/rules.h"

/* Whether the part was read; an unreadable one is said once, by nvmf.state. */
static bool nvme_read(struct rctl_judge *j, bool report)
{
	return rctl_host_part_read(j, &j->h->nvme.st, report,
				   "the NVMe controllers (/sys/class/nvme)");
}

/* "nvme0 (rdma 10.0.0.2:4420)". */
static const char *ctrl_target(const struct rctl_nvme_ctrl *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s (%s %s%s%s)", c->name, c->transport, c->traddr,
		 c->trsvcid[0] ? ":" : "", c->trsvcid);
	return buf;
}

/* A timer as the kernel shows it: "600 s", "off", "unknown". */
static const char *tmo_text(int32_t v, char *buf, size_t len)
{
	if (v == RCTL_NVME_TMO_OFF)
		snprintf(buf, len, "off");
	else if (v < 0)
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "%d s", v);
	return buf;
}

/* The RDMA port whose RoCE netdevs hold netdev "name"; its target into t. */
static bool port_of(const struct rctl_host *h, const char *name, struct rctl_target *t)
{
	uint32_t d, p;

	for (d = 0; d < h->n_devs; d++)
		for (p = 0; p < h->devs[d].n_ports; p++) {
			const struct rctl_port *pt = &h->devs[d].ports[p];
			const struct rctl_netdev *nd = rctl_host_netdev(h, pt->netdev);

			if (!nd || !rctl_roce_netdev(h, nd, name))
				continue;
			t->dev = &h->devs[d];
			t->port = pt;
			t->nd = nd;
			return true;
		}
	return false;
}

/*
 * Whether --dev selects controller c: its netdev, or the RDMA device or port
 * of that netdev; every controller without --dev.
 */
static bool selected(const struct rctl_judge *j, const struct rctl_nvme_ctrl *c)
{
	struct rctl_target t;

	if (!j->filter)
		return true;
	if (c->netdev[0] && !strcmp(j->filter, c->netdev))
		return true;
	return c->netdev[0] && port_of(j->h, c->netdev, &t) &&
	       rctl_port_match(j->filter, t.dev, t.port);
}

static uint32_t subsys_ctrls(const struct rctl_host *h, const char *subsys)
{
	uint32_t i, n = 0;

	for (i = 0; i < h->nvme.n_ctrls; i++)
		n += subsys[0] && !strcmp(h->nvme.ctrls[i].subsys, subsys);
	return n;
}

void rule_nvmf_state(struct rctl_judge *j, const struct rctl_target *host)
{
	static const struct {
		const char *state;
		enum rctl_status st;
		const char *what;
	} states[] = {
		{ "live", RCTL_PASS, "is live" },
		{ "connecting", RCTL_WARN, "is reconnecting: its path to the target is down" },
		{ "resetting", RCTL_WARN, "is being reset" },
		{ "new", RCTL_WARN, "is still being set up" },
		{ "deleting", RCTL_WARN, "is being deleted" },
		{ "deleting (no IO)", RCTL_WARN, "is being deleted" },
		{ "dead", RCTL_FAIL, "is dead: the kernel gave up on it" },
	};
	const struct rctl_nvme *nv = &j->h->nvme;
	char tgt[RCTL_NAME_LEN * 2], ev[RCTL_FIELD_LEN];
	uint32_t i, k;

	(void)host;
	if (!nvme_read(j, true))
		return;
	if (!nv->n_ctrls) {
		rctl_pass(j, NULL, "NVMe-oF controllers live", "none",
			  "no NVMe-oF controller: nothing to check");
		return;
	}
	for (i = 0; i < nv->n_ctrls; i++) {
		const struct rctl_nvme_ctrl *c = &nv->ctrls[i];

		if (!selected(j, c))
			continue;
		for (k = 0; k < sizeof(states) / sizeof(states[0]) && strcmp(states[k].state, c->state);
		     k++)
			;
		snprintf(ev, sizeof(ev), "/sys/class/nvme/%s/state: %s; %s, netdev %s", c->name,
			 c->state[0] ? c->state : "unreadable", c->subsysnqn,
			 c->netdev[0] ? c->netdev : "unknown");
		rctl_say(j,
			 &(struct rctl_say){ .status = k < sizeof(states) / sizeof(states[0]) ?
						       states[k].st : RCTL_UNKNOWN,
					     .target = ctrl_target(c, tgt, sizeof(tgt)),
					     .expected = "live",
					     .observed = c->state[0] ? c->state : "unknown",
					     .evidence = ev },
			 "controller %s %s", c->name,
			 k < sizeof(states) / sizeof(states[0]) ? states[k].what :
			 "is in a state rocectl does not know");
	}
}

/* The switch port a netdev leads to (its own LLDP, or its VLAN's lower's). */
static const struct rctl_lldp_peer *tor_of(const struct rctl_host *h, const char *name)
{
	const struct rctl_netdev *nd = rctl_host_netdev(h, name);

	if (nd && nd->vlan_lower[0] && !nd->lldp.st.ok)
		nd = rctl_host_netdev(h, nd->vlan_lower);
	return nd ? &nd->lldp : NULL;
}

struct paths_seen {
	uint32_t n;			/* controllers of the subsystem */
	bool selected;			/* one of them by --dev (all without) */
	bool two_nd, two_tor;		/* a netdev, a switch other than the first */
	const char *first_nd, *first_tor, *tor_name, *no_nd, *no_tor;
	char tor_why[RCTL_REASON_LEN];
	char list[RCTL_FIELD_LEN];	/* "nvme0 via ens1f0np0, nvme1 via ens1f1np1" */
};

static void paths_walk(const struct rctl_judge *j, const struct rctl_nvme_subsys *s,
		       struct paths_seen *p)
{
	const struct rctl_host *h = j->h;
	const struct rctl_lldp_peer *l;
	size_t o = 0;
	uint32_t i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < h->nvme.n_ctrls; i++) {
		const struct rctl_nvme_ctrl *c = &h->nvme.ctrls[i];

		if (strcmp(c->subsys, s->name))
			continue;
		p->n++;
		p->selected |= selected(j, c);
		if (o < sizeof(p->list))
			o += snprintf(p->list + o, sizeof(p->list) - o, "%s%s via %s", o ? ", " : "",
				      c->name, c->netdev[0] ? c->netdev : "?");
		if (!c->netdev[0]) {
			p->no_nd = c->name;
			continue;
		}
		if (!p->first_nd)
			p->first_nd = c->netdev;
		p->two_nd |= strcmp(p->first_nd, c->netdev) != 0;
		l = tor_of(h, c->netdev);
		if (!l || !l->st.ok) {
			p->no_tor = c->netdev;
			snprintf(p->tor_why, sizeof(p->tor_why), "%s",
				 !l ? "not in the model" : l->st.reason[0] ? l->st.reason :
				 "LLDP not read");
			continue;
		}
		if (!p->first_tor) {
			p->first_tor = l->chassis_id;
			p->tor_name = l->system_name[0] ? l->system_name : l->chassis_id;
		}
		p->two_tor |= strcmp(p->first_tor, l->chassis_id) != 0;
	}
}

/* ANA: a path that serves no I/O. */
static bool ana_down(const char *s)
{
	return !strcmp(s, "inaccessible") || !strcmp(s, "persistent-loss") || !strcmp(s, "change");
}

static void paths_ana(struct rctl_judge *j, const struct rctl_nvme_subsys *s)
{
	struct rctl_say say = { .target = s->nqn,
				.expected = "every path optimized or non-optimized",
				.evidence = "ana_state of each path (/sys/class/nvme/*/nvme*c*n*)" };
	uint32_t i, up = 0, known = 0;
	char ev[RCTL_FIELD_LEN];
	size_t o = 0;

	ev[0] = '\0';
	for (i = 0; i < s->n_paths; i++) {
		if (!s->paths[i].ana_state[0])
			continue;
		known++;
		up += !ana_down(s->paths[i].ana_state);
		if (o < sizeof(ev))
			o += snprintf(ev + o, sizeof(ev) - o, "%s%s %s", o ? ", " : "",
				      s->paths[i].name, s->paths[i].ana_state);
	}
	if (!known || up == known)
		return;
	say.status = up ? RCTL_WARN : RCTL_FAIL;
	say.observed = ev;
	if (up)
		rctl_say(j, &say, "%u of the %u paths of %s serve no I/O (ANA)", known - up, known,
			 s->name);
	else
		rctl_say(j, &say, "no path of %s serves I/O (ANA): each is inaccessible or in change",
			 s->name);
}

void rule_nvmf_paths(struct rctl_judge *j, const struct rctl_target *host)
{
	const struct rctl_host *h = j->h;
	char exp[RCTL_FIELD_LEN], fix[RCTL_FIELD_LEN * 2];
	struct paths_seen p;
	uint32_t i;

	(void)host;
	if (!nvme_read(j, false))
		return;
	for (i = 0; i < h->nvme.n_subsys; i++) {
		const struct rctl_nvme_subsys *s = &h->nvme.subsys[i];
		struct rctl_say say = { .target = s->nqn, .expected = exp, .evidence = p.list };

		paths_walk(j, s, &p);
		if (!p.n || !p.selected)
			continue;
		paths_ana(j, s);
		snprintf(exp, sizeof(exp), "two paths or more, through two netdevs and two switches");
		snprintf(fix, sizeof(fix), "connect a second path through another netdev and switch: "
			 "nvme connect -t %s -a <target's other address> -n %s --host-iface <netdev>",
			 h->nvme.ctrls[0].transport, s->nqn);
		say.observed = p.list;
		say.fix = fix;
		if (p.n == 1) {
			say.status = RCTL_WARN;
			rctl_say(j, &say, "%s has one path: a link, NIC or switch failure stops its I/O",
				 s->name);
		} else if (p.no_nd) {
			say.status = RCTL_UNKNOWN;
			say.fix = NULL;
			rctl_say(j, &say, "%s has %u paths; the netdev of %s is unknown", s->name, p.n,
				 p.no_nd);
		} else if (!p.two_nd) {
			say.status = RCTL_WARN;
			rctl_say(j, &say, "the %u paths of %s all leave by %s: one link or NIC failure "
				 "stops its I/O", p.n, s->name, p.first_nd);
		} else if (p.no_tor) {
			say.status = RCTL_UNKNOWN;
			say.fix = NULL;
			rctl_say(j, &say, "the %u paths of %s leave by two netdevs or more; whether they "
				 "reach two switches is unknown: no LLDP neighbour of %s (%s)", p.n,
				 s->name, p.no_tor, p.tor_why);
		} else if (!p.two_tor) {
			say.status = RCTL_WARN;
			rctl_say(j, &say, "the %u paths of %s all reach switch %s (LLDP): one switch "
				 "failure stops its I/O", p.n, s->name, p.tor_name);
		} else {
			say.status = RCTL_PASS;
			say.fix = NULL;
			rctl_say(j, &say, "%s has %u paths through two netdevs and two switches (LLDP)",
				 s->name, p.n);
		}
	}
}

/*
 * How long I/O waits while no path reaches the target. A request on a
 * controller that is not live is requeued (core.c nvme_fail_nonready_command)
 * until fast_io_fail_tmo expires (NVME_CTRL_FAILFAST_EXPIRED, core.c
 * nvme_failfast_work()) or ctrl_loss_tmo removes the controller; native
 * multipath holds a bio while any path is still reconnecting
 * (multipath.c nvme_available_path), with the same limit. "off" for both:
 * forever.
 */
void rule_nvmf_timers(struct rctl_judge *j, const struct rctl_target *host)
{
	const struct rctl_nvme *nv = &j->h->nvme;
	char tgt[RCTL_NAME_LEN * 2], ev[RCTL_FIELD_LEN * 2], fix[RCTL_FIELD_LEN * 2];
	char k[16], l[16], r[16], f[16];
	uint32_t i;

	(void)host;
	if (!nvme_read(j, false))
		return;
	for (i = 0; i < nv->n_ctrls; i++) {
		const struct rctl_nvme_ctrl *c = &nv->ctrls[i];
		struct rctl_say say = { .target = ctrl_target(c, tgt, sizeof(tgt)), .evidence = ev,
					.fix = fix };

		if (!selected(j, c))
			continue;
		snprintf(ev, sizeof(ev), "/sys/class/nvme/%s: kato %s, ctrl_loss_tmo %s, "
			 "reconnect_delay %s, fast_io_fail_tmo %s; nvme_core multipath %s; %u path(s)",
			 c->name, tmo_text(c->kato, k, sizeof(k)),
			 tmo_text(c->ctrl_loss_tmo, l, sizeof(l)),
			 tmo_text(c->reconnect_delay, r, sizeof(r)),
			 tmo_text(c->fast_io_fail_tmo, f, sizeof(f)),
			 nv->multipath > 0 ? "Y" : nv->multipath == 0 ? "N" : "absent",
			 subsys_ctrls(j->h, c->subsys));
		say.observed = ev + strlen("/sys/class/nvme/") + strlen(c->name) + 2;
		if (c->kato == 0) {
			say.status = RCTL_WARN;
			say.expected = "a keep-alive (kato > 0)";
			snprintf(fix, sizeof(fix), "reconnect with nvme connect ... --keep-alive-tmo=5");
			rctl_say(j, &say, "%s has no keep-alive: a dead target is noticed only when "
				 "I/O times out", c->name);
		}
		if (c->ctrl_loss_tmo == RCTL_NVME_TMO_OFF && c->fast_io_fail_tmo == RCTL_NVME_TMO_OFF) {
			say.status = RCTL_WARN;
			say.expected = "I/O fails after a bounded time without a path";
			snprintf(fix, sizeof(fix), "echo 5 > /sys/class/nvme/%s/fast_io_fail_tmo "
				 "(reconnects go on; nvme connect ... --fast_io_fail_tmo=5)", c->name);
			rctl_say(j, &say, "%s has ctrl_loss_tmo and fast_io_fail_tmo off: I/O waits "
				 "forever while the target is unreachable", c->name);
		} else if (nv->multipath == 0 && c->fast_io_fail_tmo == RCTL_NVME_TMO_OFF) {
			say.status = RCTL_WARN;
			say.expected = "fast_io_fail_tmo set without native multipath";
			snprintf(fix, sizeof(fix), "echo 5 > /sys/class/nvme/%s/fast_io_fail_tmo "
				 "(nvme connect ... --fast_io_fail_tmo=5)", c->name);
			rctl_say(j, &say, "without native multipath, I/O on a lost path of %s is held "
				 "for ctrl_loss_tmo (%s) before dm-multipath sees an error", c->name, l);
		} else if (c->kato != 0) {
			say.status = RCTL_PASS;
			say.expected = "keep-alive on, I/O bounded without a path";
			say.fix = NULL;
			rctl_say(j, &say, "%s: keep-alive %s; without a path I/O fails after %s",
				 c->name, k, c->fast_io_fail_tmo >= 0 ? f : l);
		}
	}
}

/* Each RDMA controller on a port with PFC off on the RoCE priority (lossless intent). */
void rule_nvmf_port_pfc(struct rctl_judge *j, const struct rctl_target *host)
{
	const struct rctl_nvme *nv = &j->h->nvme;
	char tgt[RCTL_NAME_LEN * 2], exp[64], got[64], ev[RCTL_FIELD_LEN], fix[RCTL_FIELD_LEN];
	struct rctl_target t;
	uint32_t i;
	int p = j->in->prio;

	(void)host;
	if (!nvme_read(j, false) || !j->in->pfc)
		return;
	snprintf(exp, sizeof(exp), "PFC on prio %d of the controller's port", p);
	for (i = 0; i < nv->n_ctrls; i++) {
		const struct rctl_nvme_ctrl *c = &nv->ctrls[i];
		struct rctl_say say = { .target = ctrl_target(c, tgt, sizeof(tgt)), .expected = exp,
					.evidence = ev };

		if (strcmp(c->transport, "rdma") || !selected(j, c))
			continue;
		if (!c->netdev[0] || !port_of(j->h, c->netdev, &t)) {
			say.status = RCTL_UNKNOWN;
			say.observed = "unknown";
			snprintf(ev, sizeof(ev), "%s", c->netdev[0] ? "no RDMA port carries it" :
				 c->netdev_reason);
			rctl_say(j, &say, "the RDMA port of %s is unknown: netdev %s", c->name,
				 c->netdev[0] ? c->netdev : "unknown");
			continue;
		}
		snprintf(ev, sizeof(ev), "%s leaves by %s (%s), port %s/%u, dcbnl ieee_pfc of '%s'",
			 c->name, c->netdev, c->netdev_by, t.dev->name, t.port->port, t.nd->name);
		if (!t.nd->pfc.st.ok) {
			if (rctl_part_said(j, &t.nd->pfc.st))
				continue;	/* the pfc area said it */
			say.status = RCTL_UNKNOWN;
			say.observed = "unknown";
			rctl_say(j, &say, "PFC of '%s' under %s is unknown: %s", t.nd->name, c->name,
				 t.nd->pfc.st.reason);
			continue;
		}
		snprintf(got, sizeof(got), "PFC on prio %s", rctl_prio_list(t.nd->pfc.pfc_en, fix,
									      sizeof(fix)));
		say.observed = got;
		say.status = t.nd->pfc.pfc_en[p] ? RCTL_PASS : RCTL_FAIL;
		snprintf(fix, sizeof(fix), "dcb pfc set dev %s prio-pfc %d:on", t.nd->name, p);
		if (say.status == RCTL_PASS)
			say.fix = NULL;
		else
			say.fix = fix;
		rctl_say(j, &say, say.status == RCTL_PASS ?
			 "%s runs on %s/%u, PFC on for prio %d" :
			 "%s runs on %s/%u, whose PFC is off for prio %d: its RDMA queues drop on "
			 "congestion", c->name, t.dev->name, t.port->port, p);
	}
}

/* "10.0.0.2:4420" or "[fe80::1]:4420" (lib/rdma_nl.c res_addr()) into address and port. */
static bool endpoint(const char *ep, struct in6_addr *a, bool *v6, unsigned long *port)
{
	char ip[RCTL_ENDPOINT_LEN];
	const char *colon = strrchr(ep, ':');
	size_t n;

	if (!colon || !colon[1])
		return false;
	n = (size_t)(colon - ep);
	if (ep[0] == '[' && n >= 2 && ep[n - 1] == ']') {
		snprintf(ip, sizeof(ip), "%.*s", (int)(n - 2), ep + 1);
		*v6 = true;
	} else {
		snprintf(ip, sizeof(ip), "%.*s", (int)n, ep);
		*v6 = false;
	}
	*port = strtoul(colon + 1, NULL, 10);
	return inet_pton(*v6 ? AF_INET6 : AF_INET, ip, a) == 1;
}

/*
 * Whether cm_id e leads to controller c: nvme_rdma_alloc_queue() resolves
 * each queue's cm_id to ctrl->addr, the traddr:trsvcid the controller shows
 * (drivers/nvme/host/rdma.c, Linux 6.1). The addresses compare as numbers:
 * the controller shows traddr as it was given to nvme connect.
 */
static bool cm_to_ctrl(const struct rctl_res_entry *e, const struct rctl_nvme_ctrl *c)
{
	struct in6_addr a, b;
	unsigned long port;
	bool v6;

	if (strcmp(e->kind, "cm_id") || strcmp(e->owner, "[nvme_rdma]") ||
	    !endpoint(e->dst, &a, &v6, &port))
		return false;
	memset(&b, 0, sizeof(b));
	if (inet_pton(v6 ? AF_INET6 : AF_INET, c->traddr, &b) != 1)
		return false;
	return !memcmp(&a, &b, v6 ? 16 : 4) &&
	       port == (c->trsvcid[0] ? strtoul(c->trsvcid, NULL, 10) : 4420);
}

/* The rdma_cm IDs of controller c; the port of the first into t. 0 when none is listed. */
static uint32_t ctrl_cm_ids(const struct rctl_host *h, const struct rctl_nvme_ctrl *c,
			    struct rctl_target *t, uint32_t *n_before)
{
	const struct rctl_rdma_res *r = &h->res;
	const struct rctl_device *d;
	uint32_t i, k, n = 0;

	*n_before = 0;
	for (i = 0; r->st.ok && i < r->n_list; i++) {
		const struct rctl_res_entry *e = &r->list[i];

		if (!cm_to_ctrl(e, c))
			continue;
		*n_before += e->made_before_tune;
		if (n++ || !(d = rctl_host_dev(h, e->dev)))
			continue;
		for (k = 0; k < d->n_ports; k++)
			if (d->ports[k].port == e->port) {
				t->dev = d;
				t->port = &d->ports[k];
				t->nd = rctl_host_netdev(h, d->ports[k].netdev);
			}
	}
	return n;
}

/*
 * Evidence: where the queues run and the default they take without --tos;
 * *n the controller's rdma_cm IDs, t their port (or its netdev's).
 */
static void tos_evidence(const struct rctl_host *h, const struct rctl_nvme_ctrl *c,
			 struct rctl_target *t0, uint32_t *n0, char *ev, size_t len)
{
	struct rctl_target t = { 0 };
	uint32_t before, n = ctrl_cm_ids(h, c, &t, &before);
	const struct rctl_tos_change *tc;
	char when[32];
	int k = 0;

	*t0 = t;
	*n0 = n;
	if (n && t.port)
		k = snprintf(ev, len, "%u rdma_cm connection%s of [nvme_rdma] to %s:%s on %s/%u (%s); ",
			     n, n == 1 ? "" : "s", c->traddr, c->trsvcid[0] ? c->trsvcid : "4420", t.dev->name,
			     t.port->port, t.port->netdev[0] ? t.port->netdev : "no netdev");
	else if (!(c->netdev[0] && port_of(h, c->netdev, &t)))
		t.port = NULL;
	if (k < 0 || (size_t)k >= len)
		return;
	if (t.port && t.port->cm.st.ok)
		k += snprintf(ev + k, len - k, "without --tos its queues take default_roce_tos %u of "
			      "%s/%u; the kernel reports no connection's ToS",
			      t.port->cm.roce_tos, t.dev->name, t.port->port);
	else
		k += snprintf(ev + k, len - k, "the kernel reports no connection's ToS; the rdma_cm "
			      "default of its port is unknown too");
	tc = t.port ? rctl_res_tos_change(&h->res, t.dev->name, t.port->port) : NULL;
	if (before && tc && k >= 0 && (size_t)k < len)
		snprintf(ev + k, len - k, "; %u of them were made before tune changed the default "
			 "ToS at %s; they keep ToS %u until they reconnect", before,
			 rctl_utc_time(tc->time, when, sizeof(when)), tc->old_tos);
	*t0 = t;
	*n0 = n;
}

/*
 * The kernel shows no controller's ToS: nvmf_get_address() writes no tos,
 * and core.c has no tos attribute (Linux 6.1 to 6.12); nor does RDMA
 * netlink's cm_id (fill_res_cm_id_entry() has no ToS). An RDMA queue's
 * rdma_cm ID takes --tos when given (drivers/nvme/host/rdma.c
 * nvme_rdma_alloc_queue: rdma_set_service_type), else its port's
 * default_roce_tos when it resolves its route: unknown, with that default,
 * the controller joined to its rdma_cm IDs to name their port.
 */
void rule_nvmf_tos(struct rctl_judge *j, const struct rctl_target *host)
{
	const struct rctl_nvme *nv = &j->h->nvme;
	char tgt[RCTL_NAME_LEN * 2], exp[32], ev[RCTL_FIELD_LEN * 2], fix[RCTL_FIELD_LEN];
	char what[RCTL_NAME_LEN * 3];
	struct rctl_target t;
	uint32_t i, n;

	(void)host;
	if (!nvme_read(j, false))
		return;
	snprintf(exp, sizeof(exp), "ToS %d", j->in->tos);
	for (i = 0; i < nv->n_ctrls; i++) {
		const struct rctl_nvme_ctrl *c = &nv->ctrls[i];

		if (strcmp(c->transport, "rdma") || !selected(j, c))
			continue;
		tos_evidence(j->h, c, &t, &n, ev, sizeof(ev));
		snprintf(fix, sizeof(fix), "nvme connect -t rdma -a %s -s %s -n %s --tos %d",
			 c->traddr, c->trsvcid[0] ? c->trsvcid : "4420", c->subsysnqn, j->in->tos);
		if (n && t.port)
			snprintf(what, sizeof(what), "%u rdma_cm connection%s on %s/%u (%s)", n,
				 n == 1 ? "" : "s", t.dev->name, t.port->port,
				 t.port->netdev[0] ? t.port->netdev : "-");
		else
			snprintf(what, sizeof(what), "RDMA queues");
		rctl_say(j,
			 &(struct rctl_say){ .status = RCTL_UNKNOWN,
					     .target = ctrl_target(c, tgt, sizeof(tgt)),
					     .expected = exp,
					     .observed = "unknown",
					     .evidence = ev,
					     .fix = fix },
			 "the ToS of %s's %s is unknown: connect with --tos %d to be sure",
			 c->name, what, j->in->tos);
	}
}
