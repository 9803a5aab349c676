// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tune apply --plan: the digest of what a plan reads (the same host digests
 * the same, a changed setting names its part, a moving counter does not),
 * the reviewed plan's reader (what it refuses, one line each) and the
 * --only/--skip selection.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "rocectl/rules.h"
#include "rocectl/snapshot.h"
#include "rocectl/tune.h"

#define FIX "tests/fixtures/hosts/"

static struct rctl_intent in;

static void load(const char *name, struct rctl_host *h)
{
	struct rctl_err e = { 0 };
	char path[256];

	snprintf(path, sizeof(path), FIX "%s.json", name);
	if (rctl_snapshot_load(path, h, &e))
		fail_msg("%s", e.msg);
}

static int setup(void **state)
{
	struct rctl_err e = { 0 };

	(void)state;
	return rctl_intent_profile(&in, "lossless-dscp", &e);
}

static void digest(const struct rctl_host *h, const struct rctl_intent *i,
		   struct rctl_tune_digest *d)
{
	struct rctl_err e = { 0 };

	assert_int_equal(rctl_tune_digest(h, i, NULL, d, &e), 0);
}

/* The part of "a" that "b" reads otherwise, "" when none. */
static const char *changed(const struct rctl_tune_digest *a, const struct rctl_tune_digest *b)
{
	const struct rctl_tune_digest_part *p;
	bool gone;

	p = rctl_tune_digest_changed(a, b, &gone);
	return p ? p->part : "";
}

static void test_digest_same_host(void **state)
{
	struct rctl_tune_digest a, b;
	struct rctl_host h;

	(void)state;
	load("mlx5-upstream-healthy", &h);
	digest(&h, &in, &a);
	/* intent, host, the port and its netdev */
	assert_int_equal(a.n, 4);
	assert_string_equal(a.parts[2].part, "port mlx5_0/1");
	assert_string_equal(a.parts[3].part, "netdev ens1f0np0");
	/* counters move by themselves: not what a plan reads */
	h.netdevs[0].pfc.requests[3] += 1000;
	h.netdevs[0].pfc.indications[3] += 7;
	strcpy(h.netdevs[0].operstate, "down");
	digest(&h, &in, &b);
	assert_string_equal(changed(&a, &b), "");
	assert_int_equal(rctl_tune_digest_all(&a), rctl_tune_digest_all(&b));
	rctl_tune_digest_free(&b);
	rctl_tune_digest_free(&a);
	rctl_host_free(&h);
}

static void test_digest_names_the_change(void **state)
{
	struct rctl_tune_digest a, b;
	struct rctl_intent other = in;
	struct rctl_host h;

	(void)state;
	load("mlx5-upstream-healthy", &h);
	digest(&h, &in, &a);

	h.netdevs[0].pfc.pfc_en[0] = true;
	digest(&h, &in, &b);
	assert_string_equal(changed(&a, &b), "netdev ens1f0np0");
	rctl_tune_digest_free(&b);
	h.netdevs[0].pfc.pfc_en[0] = false;

	h.devs[0].ports[0].cm.roce_tos = 0;
	digest(&h, &in, &b);
	assert_string_equal(changed(&a, &b), "port mlx5_0/1");
	rctl_tune_digest_free(&b);
	h.devs[0].ports[0].cm.roce_tos = 106;

	h.lldpad_running = true;
	digest(&h, &in, &b);
	assert_string_equal(changed(&a, &b), "host");
	rctl_tune_digest_free(&b);
	h.lldpad_running = false;

	other.tos = 104;
	digest(&h, &other, &b);
	assert_string_equal(changed(&a, &b), "intent");
	rctl_tune_digest_free(&b);

	/* a netdev no longer there */
	strcpy(h.devs[0].ports[0].netdev, "eth9");
	digest(&h, &in, &b);
	assert_string_equal(changed(&a, &b), "port mlx5_0/1");
	rctl_tune_digest_free(&b);
	rctl_tune_digest_free(&a);
	rctl_host_free(&h);
}

/* RoCE LAG: DCB is written on every slave, so every slave is read. */
static void test_digest_lag_slaves(void **state)
{
	struct rctl_tune_digest a, b;
	struct rctl_host h;
	uint32_t i, slaves = 0;

	(void)state;
	load("mlx5-lag-healthy", &h);
	digest(&h, &in, &a);
	for (i = 0; i < a.n; i++)
		slaves += !strncmp(a.parts[i].part, "netdev ens1f", 12);
	assert_int_equal(slaves, 2);
	for (i = 0; i < h.n_netdevs && strcmp(h.netdevs[i].name, "ens1f1np1"); i++)
		;
	assert_true(i < h.n_netdevs);
	h.netdevs[i].pfc.pfc_en[3] = !h.netdevs[i].pfc.pfc_en[3];
	digest(&h, &in, &b);
	assert_string_equal(changed(&a, &b), "netdev ens1f1np1");
	rctl_tune_digest_free(&b);
	rctl_tune_digest_free(&a);
	rctl_host_free(&h);
}

/* A plan document as 'tune plan -j' writes its plan parts. */
static char *plan_doc(const struct rctl_tune_plan *p, const struct rctl_tune_digest *d,
		      int to_apply, int skipped)
{
	cJSON *doc = cJSON_CreateObject(), *ch = cJSON_CreateArray();
	uint32_t i;
	char *s;

	cJSON_AddNumberToObject(doc, "schema_version", 3);
	cJSON_AddStringToObject(doc, "hostname", "node11");
	cJSON_AddStringToObject(doc, "profile", "lossless-dscp");
	cJSON_AddNumberToObject(doc, "plan_version", RCTL_TUNE_PLAN_VERSION);
	cJSON_AddItemToObject(doc, "digest", rctl_tune_digest_json(d));
	cJSON_AddNumberToObject(doc, "to_apply", to_apply);
	cJSON_AddNumberToObject(doc, "skipped", skipped);
	for (i = 0; i < p->n_ch; i++)
		cJSON_AddItemToArray(ch, rctl_tune_change_json(&p->ch[i]));
	cJSON_AddItemToObject(doc, "changes", ch);
	s = cJSON_Print(doc);
	cJSON_Delete(doc);
	return s;
}

/* The plan and digest of a fixture with a wrong ToS and PFC off on the RoCE priority. */
static void two_changes(struct rctl_host *h, struct rctl_tune_plan *p, struct rctl_tune_digest *d)
{
	struct rctl_err e = { 0 };

	load("fault-pfc-off-prio3", h);
	h->devs[0].ports[0].cm.roce_tos = 0;
	assert_int_equal(rctl_tune_plan(h, &in, p, &e), 0);
	assert_int_equal(p->n_ch, 2);
	digest(h, &in, d);
}

static int parse(const char *text, struct rctl_tune_reviewed *r, struct rctl_err *e)
{
	return rctl_tune_plan_parse(text, strlen(text), "plan.json", r, e);
}

static void test_plan_reads_back(void **state)
{
	struct rctl_tune_reviewed r;
	struct rctl_err e = { 0 };
	struct rctl_tune_digest d;
	struct rctl_tune_plan p;
	struct rctl_host h;
	char *s;

	(void)state;
	two_changes(&h, &p, &d);
	s = plan_doc(&p, &d, 2, 0);
	if (parse(s, &r, &e))
		fail_msg("%s", e.msg);
	assert_int_equal(r.plan.n_ch, 2);
	assert_memory_equal(r.plan.ch, p.ch, sizeof(*p.ch) * 2);
	assert_string_equal(r.hostname, "node11");
	assert_int_equal(r.digest.n, d.n);
	assert_int_equal(rctl_tune_digest_all(&r.digest), rctl_tune_digest_all(&d));
	assert_string_equal(changed(&r.digest, &d), "");
	rctl_tune_reviewed_free(&r);
	free(s);
	rctl_tune_digest_free(&d);
	rctl_tune_plan_free(&p);
	rctl_host_free(&h);
}

/* Each refusal: -EINVAL and its one line. */
static void refused(const char *text, const char *msg)
{
	struct rctl_tune_reviewed r;
	struct rctl_err e = { 0 };

	assert_int_equal(parse(text, &r, &e), -EINVAL);
	if (!strstr(e.msg, msg))
		fail_msg("'%s' does not say '%s'", e.msg, msg);
	assert_null(strchr(e.msg, '\n'));
}

static void test_plan_refused(void **state)
{
	struct rctl_tune_digest d;
	struct rctl_tune_plan p;
	struct rctl_host h;
	char *s, *cut;

	(void)state;
	two_changes(&h, &p, &d);

	/* truncated anywhere: not JSON */
	s = plan_doc(&p, &d, 2, 0);
	cut = strdup(s);
	cut[strlen(cut) / 2] = '\0';
	refused(cut, "plan.json");
	free(cut);
	free(s);

	/* a change fewer than it says (cut at a change, or edited) */
	p.n_ch = 1;
	s = plan_doc(&p, &d, 2, 0);
	refused(s, "it lists 1 changes to apply and 0 skipped, but says 2 and 0 (truncated or edited)");
	free(s);
	p.n_ch = 2;

	/* a path tune does not write */
	snprintf(p.ch[1].path, sizeof(p.ch[1].path), "/etc/shadow");
	s = plan_doc(&p, &d, 2, 0);
	refused(s, "cannot read plan 'plan.json': change 2: not a file tune writes: '/etc/shadow'");
	free(s);
	snprintf(p.ch[1].path, sizeof(p.ch[1].path), "%s", p.ch[1].via);

	/* a netdev name the kernel would not take */
	snprintf(p.ch[0].ifname, sizeof(p.ch[0].ifname), "../x");
	s = plan_doc(&p, &d, 2, 0);
	refused(s, "change 1: not a netdev name");
	free(s);
	snprintf(p.ch[0].ifname, sizeof(p.ch[0].ifname), "ens1f0np0");

	/* a state file's change, with its outcome */
	p.ch[0].status = RCTL_TUNE_APPLIED;
	s = plan_doc(&p, &d, 2, 0);
	refused(s, "change 1: has an outcome");
	free(s);
	p.ch[0].status = RCTL_TUNE_STATUS_NONE;

	/* not a plan at all */
	refused("{\"schema_version\": 1, \"kind\": \"rocectl-tune-state\", \"status\": \"applied\", "
		"\"changes\": []}", "not the output of 'rocectl tune plan -j'");
	refused("[]", "not a JSON object");
	refused("{\"plan_version\": 1, \"changes\": [], \"hostname\": \"h\", \"profile\": \"p\", "
		"\"to_apply\": 0, \"skipped\": 0}", "no digest of what it read");
	refused("{\"plan_version\": 1, \"changes\": [], \"hostname\": \"h\", \"profile\": \"p\", "
		"\"to_apply\": 0, \"skipped\": 0, \"digest\": {\"all\": \"0000000000000000\", "
		"\"parts\": [{\"part\": \"intent\", \"digest\": \"0000000000000001\"}]}}",
		"its digest does not match its parts (edited or truncated)");
	rctl_tune_digest_free(&d);
	rctl_tune_plan_free(&p);
	rctl_host_free(&h);
}

/* "area setting_id skip" of each change, for the selection tests. */
static void selected(const char *const *only, unsigned int n_only, const char *const *skip,
		     unsigned int n_skip, const char *want0, const char *want1)
{
	struct rctl_err e = { 0 };
	struct rctl_tune_digest d;
	struct rctl_tune_plan p;
	struct rctl_host h;

	two_changes(&h, &p, &d);
	assert_int_equal(rctl_tune_select(&p, only, n_only, skip, n_skip, &e), 0);
	assert_string_equal(p.ch[0].skip, want0);
	assert_string_equal(p.ch[1].skip, want1);
	assert_int_equal(p.ch[0].held, !!want0[0]);
	assert_int_equal(p.ch[1].held, !!want1[0]);
	rctl_tune_digest_free(&d);
	rctl_tune_plan_free(&p);
	rctl_host_free(&h);
}

static void test_select(void **state)
{
	static const char *const pfc[] = { "pfc" }, *const tos[] = { "cm-tos" },
		*const both[] = { "pfc,mode" }, *const two[] = { "ecn", "mode" };
	struct rctl_tune_plan none = { 0 };
	struct rctl_err e = { 0 };

	(void)state;
	/* change 0: pfc prio-pfc (setting id pfc), change 1: mode default_roce_tos (cm-tos) */
	selected(NULL, 0, NULL, 0, "", "");
	selected(pfc, 1, NULL, 0, "", "not in --only pfc");
	selected(NULL, 0, pfc, 1, "--skip pfc", "");
	selected(tos, 1, NULL, 0, "not in --only cm-tos", "");
	selected(both, 1, NULL, 0, "", "");
	selected(two, 2, NULL, 0, "not in --only ecn,mode", "");
	selected(NULL, 0, both, 1, "--skip pfc", "--skip mode");
	selected(pfc, 1, pfc, 1, "--skip pfc", "not in --only pfc");

	assert_int_equal(rctl_tune_select(&none, (const char *const[]){ "pfcc" }, 1, NULL, 0, &e),
			 -EINVAL);
	assert_string_equal(e.msg, "invalid value 'pfcc' for '--only': expected an area or a setting id (rocectl-tune(8))");
	assert_int_equal(rctl_tune_select(&none, NULL, 0, (const char *const[]){ "pfc," }, 1, &e),
			 -EINVAL);
	assert_true(rctl_tune_select_name("ets-prio-tc"));
	assert_false(rctl_tune_select_name("prio-pfc"));
}

/* A held change is scheduled apart, not a manual step: it covers its finding. */
static void test_held_covers(void **state)
{
	static const char *const skip[] = { "pfc" };
	struct rctl_report r = { 0 };
	struct rctl_err e = { 0 };
	struct rctl_tune_digest d;
	struct rctl_tune_plan p;
	struct rctl_host h;
	uint32_t i, pfc = 0;

	(void)state;
	two_changes(&h, &p, &d);
	assert_int_equal(rctl_tune_select(&p, NULL, 0, skip, 1, &e), 0);
	rctl_judge_host(&h, &in, 1u << RCTL_AREA_PFC, NULL, &r);
	for (i = 0; i < r.n; i++)
		if (r.f[i].status == RCTL_FAIL && r.f[i].setting == RCTL_SET_PFC) {
			pfc++;
			assert_true(rctl_tune_plan_covers(&p, &r.f[i]));
		}
	assert_int_equal(pfc, 1);
	rctl_report_free(&r);
	rctl_tune_digest_free(&d);
	rctl_tune_plan_free(&p);
	rctl_host_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_digest_same_host),
		cmocka_unit_test(test_digest_names_the_change),
		cmocka_unit_test(test_digest_lag_slaves),
		cmocka_unit_test(test_plan_reads_back),
		cmocka_unit_test(test_plan_refused),
		cmocka_unit_test(test_select),
		cmocka_unit_test(test_held_covers),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
