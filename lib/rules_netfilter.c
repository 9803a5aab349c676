// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Firewall rules (docs/roce-facts.md, "Firewall"): netfilter rules that
 * drop or reject RoCE's ports.
 * Hardware RoCE (mlx5, bnxt_re, irdma) bypasses netfilter, so a drop of UDP
 * 4791 changes nothing there: it is a warning, never "blocked". Soft-RoCE
 * (rxe) sends RoCE v2 through the kernel's UDP stack, where the same rule
 * really cuts it: a failure. Out-of-band TCP (NVMe/TCP 4420, perftest
 * 18515) is blocked whatever the NIC.
 */
#include <stdio.h>
#include <string.h>

#include "rocectl/settings.h"
#include "rocectl/rules.h"

/* "veth0" matches "" (any), "veth0" and "!eth1". */
static bool if_match(const char *rule, const char *name)
{
	if (!rule[0])
		return true;
	if (rule[0] == '!')
		return strcmp(rule + 1, name) != 0;
	return !strcmp(rule, name);
}

/* The i-th rule on proto/dport that applies to netdev "nd" (NULL: any). */
static const struct rctl_nf_rule *nf_find(const struct rctl_netfilter *nf,
					  const char *proto, uint32_t dport,
					  const char *nd, uint32_t *count)
{
	const struct rctl_nf_rule *first = NULL, *r;
	uint32_t i;

	*count = 0;
	for (i = 0; i < nf->n_rules; i++) {
		r = &nf->rules[i];
		if (strcmp(r->proto, proto) || r->dport != dport ||
		    (nd && (!if_match(r->iifname, nd) || !if_match(r->oifname, nd))))
			continue;
		if (!first)
			first = r;
		(*count)++;
	}
	return first;
}

/* "nft inet filter input handle 7: iifname veth0 udp dport 4791 drop". */
static void nf_describe(const struct rctl_nf_rule *r, char *buf, size_t len)
{
	snprintf(buf, len, "nft %s %s %s handle %llu:%s%s%s%s %s dport %u %s", r->family,
		 r->table, r->chain, (unsigned long long)r->handle,
		 r->iifname[0] ? " iifname " : "", r->iifname,
		 r->oifname[0] ? " oifname " : "", r->oifname, r->proto, r->dport, r->verdict);
}

static void nf_fix(const struct rctl_nf_rule *r, char *buf, size_t len)
{
	snprintf(buf, len, "nft delete rule %s %s %s handle %llu", r->family, r->table,
		 r->chain, (unsigned long long)r->handle);
}

/* Reports the unreadable ruleset once, for both rules. */
static bool nf_ok(struct rctl_judge *j, bool report)
{
	return rctl_host_part_read(j, &j->h->netfilter.st, report, "the netfilter ruleset");
}

void rule_firewall_roce_udp(struct rctl_judge *j, const struct rctl_target *host)
{
	const struct rctl_netfilter *nf = &j->h->netfilter;
	const struct rctl_nf_rule *r;
	char got[48], ev[RCTL_FIELD_LEN * 2], fix[RCTL_FIELD_LEN];
	struct rctl_target t;
	uint32_t n;

	if (!nf_ok(j, true))
		return;
	for (uint32_t di = 0, pi = 0; rctl_target_next(j, &t, &di, &pi);) {
		if (!t.nd)
			continue;
		r = nf_find(nf, "udp", 4791, t.nd->name, &n);
		if (!r) {
			snprintf(got, sizeof(got), "none among %u rules", nf->n_rules_read);
			rctl_say(j,
				 &(struct rctl_say){ .status = RCTL_PASS,
						     .target = t.name,
						     .expected = "no drop of UDP 4791",
						     .observed = got },
				 "no netfilter rule drops UDP 4791 on '%s'", t.nd->name);
			continue;
		}
		snprintf(got, sizeof(got), "%u rule%s: %s UDP 4791", n, n > 1 ? "s" : "",
			 r->verdict);
		nf_describe(r, ev, sizeof(ev));
		nf_fix(r, fix, sizeof(fix));
		if (rctl_family_of(t.dev, NULL) == RCTL_FAM_RXE)
			rctl_say(
				j,
				&(struct rctl_say){ .status = RCTL_FAIL,
						    .target = t.name,
						    .expected = "no drop of UDP 4791",
						    .observed = got,
						    .evidence = ev,
						    .fix = fix },
				"a netfilter rule drops UDP 4791 on '%s': it blocks Soft-RoCE (rxe runs RoCE v2 through the kernel's UDP stack)",
				t.nd->name);
		else
			rctl_say(
				j,
				&(struct rctl_say){ .status = RCTL_WARN,
						    .target = t.name,
						    .expected = "no drop of UDP 4791",
						    .observed = got,
						    .evidence = ev,
						    .fix = fix },
				"netfilter rule present: ineffective for hardware RoCE (it bypasses netfilter), but it blocks Soft-RoCE and OOB TCP");
	}
}

void rule_firewall_oob_tcp(struct rctl_judge *j, const struct rctl_target *host)
{
	static const struct {
		uint32_t port;
		const char *what;
	} oob[] = {
		{ 4420, "NVMe/TCP; NVMe-oF over RDMA connects through RDMA-CM on UDP 4791 instead" },
		{ 18515, "the perftest/pingpong out-of-band exchange" },
	};
	const struct rctl_netfilter *nf = &j->h->netfilter;
	const struct rctl_nf_rule *r;
	char exp[32], got[48], ev[RCTL_FIELD_LEN * 2], fix[RCTL_FIELD_LEN];
	uint32_t n;
	size_t i;

	if (!nf_ok(j, false))
		return;
	for (i = 0; i < sizeof(oob) / sizeof(oob[0]); i++) {
		r = nf_find(nf, "tcp", oob[i].port, NULL, &n);
		snprintf(exp, sizeof(exp), "no drop of TCP %u", oob[i].port);
		if (!r) {
			rctl_pass(j, NULL, exp, "none", "no netfilter rule drops TCP %u", oob[i].port);
			continue;
		}
		snprintf(got, sizeof(got), "%u rule%s: %s TCP %u", n, n > 1 ? "s" : "",
			 r->verdict, oob[i].port);
		nf_describe(r, ev, sizeof(ev));
		nf_fix(r, fix, sizeof(fix));
		rctl_say(j,
			 &(struct rctl_say){ .status = RCTL_WARN,
					     .expected = exp,
					     .observed = got,
					     .evidence = ev,
					     .fix = fix },
			 "a netfilter rule drops TCP %u (%s)", oob[i].port, oob[i].what);
	}
}
