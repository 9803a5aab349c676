// SPDX-License-Identifier: GPL-2.0-or-later
/* Pure pieces of the rules: aggregation, loss-rate arithmetic, intent config. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rocectl/intent.h"
#include "rocectl/rules.h"
#include "rocectl/snapshot.h"

#define FIXTURES "tests/fixtures/hosts"

static int exit_of(uint32_t pass, uint32_t warn, uint32_t unknown, uint32_t fail)
{
	struct rctl_report r = { 0 };

	r.count[RCTL_PASS] = pass;
	r.count[RCTL_WARN] = warn;
	r.count[RCTL_UNKNOWN] = unknown;
	r.count[RCTL_FAIL] = fail;
	return rctl_report_exit(&r);
}

static void test_aggregation(void **state)
{
	(void)state;
	assert_int_equal(exit_of(0, 0, 0, 0), 0);
	assert_int_equal(exit_of(5, 0, 0, 0), 0);
	assert_int_equal(exit_of(5, 1, 0, 0), 1);
	assert_int_equal(exit_of(5, 1, 1, 0), 1);	/* an unknown never hides a warning */
	assert_int_equal(exit_of(5, 0, 1, 0), 3);
	assert_int_equal(exit_of(5, 1, 1, 1), 2);	/* fail beats all */
	assert_int_equal(exit_of(0, 0, 0, 1), 2);
}

/* --unknown-as: unknowns alone give what the operator chose, nothing else moves. */
static void test_aggregation_unknown_as(void **state)
{
	struct rctl_report r = { .count = { [RCTL_UNKNOWN] = 2 } };

	(void)state;
	assert_int_equal(rctl_report_exit_as(&r, 0), 0);
	assert_int_equal(rctl_report_exit_as(&r, 1), 1);
	assert_int_equal(rctl_report_exit_as(&r, 3), 3);
	r.count[RCTL_WARN] = 1;
	assert_int_equal(rctl_report_exit_as(&r, 0), 1);
	r.oom = true;		/* a lost finding may have failed */
	assert_int_equal(rctl_report_exit_as(&r, 0), 3);
	r.count[RCTL_FAIL] = 1;
	assert_int_equal(rctl_report_exit_as(&r, 0), 2);
}

/* A rule run through the real emit path counts per status and per area. */
static void test_emit_counts(void **state)
{
	static const struct rctl_rule rule = { .id = "x.y", .area = RCTL_AREA_GID };
	struct rctl_host h = { .hostname = "h1" };
	struct rctl_intent in;
	struct rctl_report r = { 0 };
	struct rctl_judge j = { .h = &h, .in = &in, .r = &r, .rule = &rule };

	(void)state;
	assert_int_equal(rctl_intent_profile(&in, "lossless-dscp", NULL), 0);
	rctl_say(&j,
		 &(struct rctl_say){
			 .status = RCTL_WARN, .expected = "a", .observed = "b", .fix = "cmd" },
		 "n=%d", 3);
	rctl_say(&j, &(struct rctl_say){ .status = RCTL_PASS, .target = "t" }, "ok");
	assert_int_equal(r.n, 2);
	assert_string_equal(r.f[0].target, "h1");
	assert_string_equal(r.f[0].message, "n=3");
	assert_string_equal(r.f[0].fix, "cmd");
	assert_int_equal(r.area_count[RCTL_AREA_GID][RCTL_WARN], 1);
	assert_int_equal(rctl_report_exit(&r), 1);
	rctl_report_free(&r);
}

static void test_loss_rate(void **state)
{
	double rate = -1;

	(void)state;
	assert_false(rctl_loss_rate(5, 0, &rate));
	assert_true(rate == -1);
	assert_true(rctl_loss_rate(0, 1000, &rate));
	assert_true(rate == 0);
	assert_true(rctl_loss_rate(5160, 2145200, &rate));
	assert_true(rate > 0.0024053 && rate < 0.0024054);
	/* Exactly on the budget is within it; one more loss is over. */
	assert_true(rctl_loss_rate(1, 1000000, &rate));
	assert_false(rate > RCTL_LOSS_BUDGET);
	assert_true(rctl_loss_rate(2, 1000000, &rate));
	assert_true(rate > RCTL_LOSS_BUDGET);
	/* u64 counts far beyond 2^53 stay sane. */
	assert_true(rctl_loss_rate(UINT64_MAX / 2, UINT64_MAX, &rate));
	assert_true(rate > 0.49 && rate < 0.51);
}

static void test_delta_match(void **state)
{
	struct rctl_counter c[] = {
		{ .name = "rx_prio3_buf_discard", .delta = 7, .has_delta = true },
		{ .name = "rx_prio12_buf_discard", .delta = 5, .has_delta = true },
		{ .name = "rx_prio_buf_discard", .delta = 100, .has_delta = true },
		{ .name = "rx_prio4_buf_discard", .delta = 100, .has_delta = false },
		{ .name = "rx_discards_phy", .delta = 9, .has_delta = true },
	};

	(void)state;
	assert_int_equal(rctl_delta_match(c, 5, "rx_prio#_buf_discard"), 12);
	assert_int_equal(rctl_delta_of(c, 5, "rx_discards_phy"), 9);
	assert_int_equal(rctl_delta_of(c, 5, "rx_prio4_buf_discard"), 0);
	assert_int_equal(rctl_delta_of(c, 5, "absent"), 0);
}

static void test_profiles(void **state)
{
	struct rctl_intent in;
	struct rctl_err e = { 0 };

	(void)state;
	assert_int_equal(rctl_intent_profile(&in, "lossless-dscp", &e), 0);
	assert_true(in.pfc && in.ecn);
	assert_int_equal(in.prio, 3);
	assert_int_equal(in.dscp, 26);
	assert_int_equal(in.cnp_dscp, 48);
	assert_int_equal(in.cnp_prio, 6);
	assert_int_equal(in.tos, 106);
	assert_int_equal(in.tos, rctl_tos_for(26));
	assert_int_equal(in.mtu, 4096);
	assert_int_equal(in.roce_version, 2);
	assert_int_equal(rctl_intent_profile(&in, "lossy-ecn", &e), 0);
	assert_false(in.pfc);
	assert_true(in.ecn);
	assert_int_equal(rctl_intent_profile(&in, "nope", &e), -EINVAL);
	assert_string_equal(e.msg, "unknown profile 'nope': expected lossless-dscp or lossy-ecn");
}

static void test_conf_parse(void **state)
{
	struct rctl_intent in;
	struct rctl_err e = { 0 };
	const char *text =
		"# site values\n"
		"\n"
		"dscp = 24   # CS3\n"
		"  prio=4\n"
		"roce_mode = v2\n"
		"loss_budget = 1e-5\n"
		"profile = lossy-ecn\n";

	(void)state;
	assert_int_equal(rctl_intent_parse_conf(&in, text, "t.conf", NULL, &e), 0);
	assert_string_equal(in.profile, "lossy-ecn");	/* applied first, wherever it is */
	assert_false(in.pfc);
	assert_int_equal(in.dscp, 24);
	assert_int_equal(in.tos, 24 << 2 | 2);		/* ToS follows the DSCP */
	assert_int_equal(in.prio, 4);
	assert_true(in.loss_budget > 0.99e-5 && in.loss_budget < 1.01e-5);
	/* An explicit profile argument wins over the file's. */
	assert_int_equal(rctl_intent_parse_conf(&in, text, "t.conf", "lossless-dscp", &e), 0);
	assert_true(in.pfc);
	assert_int_equal(in.dscp, 24);
	/* An explicit tos is kept even after dscp. */
	assert_int_equal(rctl_intent_parse_conf(&in, "tos = 0\ndscp = 10\n", "t", NULL, &e), 0);
	assert_int_equal(in.tos, 0);
}

static void test_conf_errors(void **state)
{
	struct rctl_intent in;
	struct rctl_err e = { 0 };

	(void)state;
	assert_int_equal(rctl_intent_parse_conf(&in, "prio = 8\n", "a.conf", NULL, &e), -EINVAL);
	assert_string_equal(e.msg, "'a.conf' line 1: invalid value '8' for 'prio'");
	assert_int_equal(rctl_intent_parse_conf(&in, "\ncolour = red\n", "a.conf", NULL, &e), -EINVAL);
	assert_string_equal(e.msg, "'a.conf' line 2: unknown key 'colour'");
	assert_int_equal(rctl_intent_parse_conf(&in, "prio 3\n", "a.conf", NULL, &e), -EINVAL);
	assert_string_equal(e.msg, "'a.conf' line 1: expected 'key = value'");
	assert_int_equal(rctl_intent_parse_conf(&in, "mtu = 3000\n", "a.conf", NULL, &e), -EINVAL);
	assert_int_equal(rctl_intent_parse_conf(&in, "loss_budget = 2\n", "a.conf", NULL, &e), -EINVAL);
	assert_int_equal(rctl_intent_parse_conf(&in, "roce_mode = v3\n", "a.conf", NULL, &e), -EINVAL);
	assert_int_equal(rctl_intent_parse_conf(&in, "profile = x\n", "a.conf", NULL, &e), -EINVAL);
	assert_int_equal(rctl_intent_parse_conf(&in, "prio =\n", "a.conf", NULL, &e), -EINVAL);
	/* a key given twice: neither value is taken on a guess */
	assert_int_equal(rctl_intent_parse_conf(&in, "dscp = 26\nprio = 3\n# x\ndscp = 24\n", "a.conf",
						NULL, &e), -EINVAL);
	assert_string_equal(e.msg, "'a.conf' line 4: 'dscp' given again (first on line 1)");
	assert_int_equal(rctl_intent_parse_conf(&in, "profile = lossy-ecn\nprofile = lossy-ecn\n",
						"a.conf", NULL, &e), -EINVAL);
}

/* A mixed fleet's file: the most specific section wins for a port, the options over all. */
static const char mixed[] =
	"dscp = 24\n"				/* line 1 */
	"[driver bnxt_en]\n"
	"dscp = 26\n"				/* line 3 */
	"cnp_dscp = 46\n"
	"[device mlx5_1]\n"			/* line 5 */
	"prio = 4\n"
	"tos = 96\n"				/* line 7 */
	"[netdev ens2f0np0]\n"
	"cnp_dscp = 40\n"			/* line 9 */
	"[driver mlx5_core]\n"
	"roce_mode = v1\n";			/* line 11 */

static void src_is(const struct rctl_intent *in, enum rctl_intent_key k, const char *want)
{
	char buf[512];

	assert_string_equal(rctl_intent_source(in, k, buf, sizeof(buf)), want);
}

static void test_conf_sections(void **state)
{
	struct rctl_intent in, p;
	struct rctl_err e = { 0 };

	(void)state;
	assert_int_equal(rctl_intent_parse_conf(&in, mixed, "m.conf", NULL, &e), 0);
	snprintf(in.conf, sizeof(in.conf), "m.conf");
	assert_int_equal(in.n_sec, 4);
	/* the global intent: the file's keys before the first section */
	assert_int_equal(in.dscp, 24);
	assert_int_equal(in.tos, 98);
	assert_int_equal(in.cnp_dscp, 48);
	src_is(&in, RCTL_IK_DSCP, "m.conf:1");
	src_is(&in, RCTL_IK_TOS, "follows dscp, m.conf:1");
	src_is(&in, RCTL_IK_PRIO, "default (profile lossless-dscp)");

	/* a bnxt port: its driver's section, then its netdev's (more specific) */
	rctl_intent_for(&in, "bnxt_re", "bnxt_en", "bnxt_re0", "ens2f0np0", "bnxt_re0/1", &p);
	assert_int_equal(p.dscp, 26);
	assert_int_equal(p.tos, 106);		/* follows the section's DSCP */
	assert_int_equal(p.cnp_dscp, 40);
	src_is(&p, RCTL_IK_DSCP, "m.conf:3 [driver bnxt_en]");
	src_is(&p, RCTL_IK_CNP_DSCP, "m.conf:9 [netdev ens2f0np0]");
	src_is(&p, RCTL_IK_TOS, "follows dscp, m.conf:3 [driver bnxt_en]");
	assert_string_equal(p.port, "bnxt_re0/1");

	/* another bnxt netdev: the driver's section only */
	rctl_intent_for(&in, "bnxt_re", "bnxt_en", "bnxt_re1", "ens2f1np1", NULL, &p);
	assert_int_equal(p.cnp_dscp, 46);

	/* mlx5_1: its device's section over the netdev driver's */
	rctl_intent_for(&in, "mlx5", "mlx5_core", "mlx5_1", "ens1f1np1", NULL, &p);
	assert_int_equal(p.prio, 4);
	assert_int_equal(p.tos, 96);		/* explicit in a more specific section */
	assert_int_equal(p.dscp, 24);
	assert_int_equal(p.roce_version, 1);
	src_is(&p, RCTL_IK_TOS, "m.conf:7 [device mlx5_1]");
	src_is(&p, RCTL_IK_ROCE_MODE, "m.conf:11 [driver mlx5_core]");

	/* a port no section names: the global intent */
	rctl_intent_for(&in, "irdma", "ice", "irdma0", "ens5f0np0", NULL, &p);
	assert_int_equal(p.dscp, 24);
	assert_int_equal(p.cnp_dscp, 48);
	assert_int_equal(p.roce_version, 2);
	src_is(&p, RCTL_IK_DSCP, "m.conf:1");
}

static void test_conf_section_errors(void **state)
{
	struct rctl_intent in;
	struct rctl_err e = { 0 };

	(void)state;
	assert_int_equal(rctl_intent_parse_conf(&in, "[port mlx5_0/1]\nprio = 3\n", "a.conf", NULL, &e),
			 -EINVAL);
	assert_string_equal(e.msg, "'a.conf' line 1: unknown section '[port]': expected [driver NAME], "
			    "[device NAME] or [netdev NAME]");
	assert_int_equal(rctl_intent_parse_conf(&in, "[netdev eth0]\ndscp = 26\n\n[netdev eth0]\n",
						"a.conf", NULL, &e), -EINVAL);
	assert_string_equal(e.msg, "'a.conf' line 4: section '[netdev eth0]' given again (first on line 1)");
	/* the same name as another kind is another section */
	assert_int_equal(rctl_intent_parse_conf(&in, "[driver mlx5]\n[device mlx5]\n", "a.conf", NULL, &e),
			 0);
	assert_int_equal(rctl_intent_parse_conf(&in, "[netdev]\n", "a.conf", NULL, &e), -EINVAL);
	assert_string_equal(e.msg, "'a.conf' line 1: expected '[netdev NAME]' with one name of at most 31 characters");
	assert_int_equal(rctl_intent_parse_conf(&in, "[netdev a b]\n", "a.conf", NULL, &e), -EINVAL);
	assert_int_equal(rctl_intent_parse_conf(&in, "[netdev eth0\n", "a.conf", NULL, &e), -EINVAL);
	assert_string_equal(e.msg, "'a.conf' line 1: expected '[driver|device|netdev NAME]'");
	assert_int_equal(rctl_intent_parse_conf(&in, "[driver x]\nprofile = lossy-ecn\n", "a.conf",
						NULL, &e), -EINVAL);
	assert_string_equal(e.msg, "'a.conf' line 2: 'profile' is the whole file's: set it before the first section");
	/* a key twice in one section; once in the file and once in a section is an override */
	assert_int_equal(rctl_intent_parse_conf(&in, "dscp = 1\n[driver x]\ndscp = 2\ndscp = 3\n",
						"a.conf", NULL, &e), -EINVAL);
	assert_string_equal(e.msg, "'a.conf' line 4: 'dscp' given again (first on line 3)");
	assert_int_equal(rctl_intent_parse_conf(&in, "[driver x]\nprio = 9\n", "a.conf", NULL, &e), -EINVAL);
	assert_string_equal(e.msg, "'a.conf' line 2: invalid value '9' for 'prio'");
}

/* The command line wins over every section; --roce-mode is the RoCE mode's option. */
static void test_options_over_sections(void **state)
{
	struct rctl_intent_args a = { 0 };
	struct rctl_intent in, p;
	struct rctl_err e = { 0 };
	/* a file of its own: the .deb's build runs the tests with no build/ */
	char path[] = "/tmp/rocectl-test-mixed-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(mixed, f);
	fclose(f);
	a.config = path;
	a.cnp_dscp = 50;
	a.cnp_dscp_set = true;
	a.roce_mode = "v1";
	assert_int_equal(rctl_intent_resolve(&in, &a, &e), 0);
	assert_int_equal(in.roce_version, 1);
	rctl_intent_for(&in, "bnxt_re", "bnxt_en", "bnxt_re0", "ens2f0np0", NULL, &p);
	assert_int_equal(p.cnp_dscp, 50);
	assert_int_equal(p.dscp, 26);
	assert_int_equal(p.roce_version, 1);
	src_is(&p, RCTL_IK_CNP_DSCP, "command line (--cnp-dscp)");
	src_is(&p, RCTL_IK_ROCE_MODE, "command line (--roce-mode)");
	/* --dscp: the ToS follows it everywhere, over a section's tos */
	a.dscp = 10;
	a.dscp_set = true;
	assert_int_equal(rctl_intent_resolve(&in, &a, &e), 0);
	rctl_intent_for(&in, "mlx5", "mlx5_core", "mlx5_1", "x", NULL, &p);
	assert_int_equal(p.dscp, 10);
	assert_int_equal(p.tos, 42);
	a.roce_mode = "v3";
	assert_int_equal(rctl_intent_resolve(&in, &a, &e), -EINVAL);
	remove(path);
}

static void test_resolve_layers(void **state)
{
	struct rctl_intent_args a = { .config = "/nonexistent/rocectl.conf" };
	struct rctl_intent in;
	struct rctl_err e = { 0 };

	(void)state;
	assert_int_equal(rctl_intent_resolve(&in, &a, &e), -ENOENT);
	assert_string_equal(e.msg, "cannot read config '/nonexistent/rocectl.conf': No such file or directory");
	a.config = "/dev/null";		/* empty file: the profile alone */
	a.dscp = 10;
	a.dscp_set = true;
	a.mtu = 1024;
	a.mtu_set = true;
	a.loss_budget = "0";
	assert_int_equal(rctl_intent_resolve(&in, &a, &e), 0);
	assert_int_equal(in.dscp, 10);
	assert_int_equal(in.tos, 42);
	assert_int_equal(in.mtu, 1024);
	assert_true(in.loss_budget == 0);
	a.mtu = 1000;
	assert_int_equal(rctl_intent_resolve(&in, &a, &e), -EINVAL);
}

static void test_area_names(void **state)
{
	(void)state;
	assert_int_equal(rctl_area_parse("pfc"), RCTL_AREA_PFC);
	assert_int_equal(rctl_area_parse("counters"), RCTL_AREA_COUNTERS);
	assert_int_equal(rctl_area_parse("all"), -1);
	assert_string_equal(rctl_status_name(RCTL_UNKNOWN), "unknown");
	/* Every rule id is "area.name" of its own area, and unique. */
	for (unsigned int i = 0; i < rctl_n_rules; i++) {
		const char *area = rctl_area_name(rctl_rules[i].area);

		assert_int_equal(strncmp(rctl_rules[i].id, area, strlen(area)), 0);
		assert_int_equal(rctl_rules[i].id[strlen(area)], '.');
		for (unsigned int k = 0; k < i; k++)
			assert_string_not_equal(rctl_rules[i].id, rctl_rules[k].id);
	}
}

/* rt_tos2priority() as net/ipv4/route.c's ip_tos2prio[] gives it. */
static void test_tos2priority(void **state)
{
	(void)state;
	assert_int_equal(rctl_tos2priority(0), 0);
	assert_int_equal(rctl_tos2priority(106), 2);	/* DSCP 26: TC_PRIO_BULK */
	assert_int_equal(rctl_tos2priority(104), 2);
	assert_int_equal(rctl_tos2priority(0x10), 6);	/* IPTOS_LOWDELAY */
	assert_int_equal(rctl_tos2priority(0x18), 4);
	assert_int_equal(rctl_tos2priority(0xb8), 4);	/* DSCP 46 (EF) */
	assert_int_equal(rctl_tos2priority(0xff), 4);
}

/* Load a fixture and judge it with the lossless-dscp intent. */
static void judge(const char *name, struct rctl_host *h, struct rctl_report *r,
		  const char *filter)
{
	struct rctl_err e = { 0 };
	struct rctl_intent in;
	char path[256];

	snprintf(path, sizeof(path), FIXTURES "/%s.json", name);
	if (name[0])
		assert_int_equal(rctl_snapshot_load(path, h, &e), 0);
	assert_int_equal(rctl_intent_profile(&in, "lossless-dscp", NULL), 0);
	rctl_judge_host(h, &in, ~0u, filter, r);
}

/* A rule that judges nothing: it says which target the runner gave it. */
static void name_target(struct rctl_judge *j, const struct rctl_target *t)
{
	rctl_say(j, &(struct rctl_say){ .status = RCTL_PASS, .target = t ? t->name : NULL }, "%s%s",
		 t ? t->nd ? t->nd->name : "-" : "host", t && t->first ? " first" : "");
}

/* The messages of the findings of one scope's rule, run on fixture "name". */
static void scope_run(const char *name, enum rctl_scope sc, bool deltas, const char *filter,
		      char *out, size_t len)
{
	const struct rctl_rule rules[] = { { .id = "x.scope",
					     .area = RCTL_AREA_MODE,
					     .scope = sc,
					     .fn = name_target,
					     .needs_deltas = deltas } };
	struct rctl_err e = { 0 };
	struct rctl_host h = { 0 };
	struct rctl_intent in;
	struct rctl_report r;
	char path[256];
	size_t off = 0;
	uint32_t i;

	snprintf(path, sizeof(path), FIXTURES "/%s.json", name);
	assert_int_equal(rctl_snapshot_load(path, &h, &e), 0);
	assert_int_equal(rctl_intent_profile(&in, "lossless-dscp", NULL), 0);
	rctl_judge_rules(&h, &in, ~0u, filter, rules, 1, &r);
	out[0] = '\0';
	for (i = 0; i < r.n && off < len; i++)
		off += snprintf(out + off, len - off, "%s%s", i ? ", " : "", r.f[i].message);
	rctl_report_free(&r);
	rctl_host_free(&h);
}

/*
 * The runner iterates what a rule declares: the host once, each port, each
 * port with a netdev, each netdev that carries a port (every RoCE LAG
 * slave), --dev SLAVE selecting one; deltas only where they were read.
 */
static void test_rule_scopes(void **state)
{
	char got[256];

	(void)state;
	scope_run("mlx5-lag-healthy", RCTL_SCOPE_HOST, false, NULL, got, sizeof(got));
	assert_string_equal(got, "host");
	scope_run("mlx5-lag-healthy", RCTL_SCOPE_PORT, false, NULL, got, sizeof(got));
	assert_string_equal(got, "ens1f0np0 first");
	scope_run("mlx5-lag-healthy", RCTL_SCOPE_QOS, false, NULL, got, sizeof(got));
	assert_string_equal(got, "ens1f0np0 first, ens1f1np1");
	scope_run("mlx5-lag-healthy", RCTL_SCOPE_QOS, true, "ens1f1np1", got, sizeof(got));
	assert_string_equal(got, "ens1f1np1 first");
	scope_run("mlx5-lag-healthy", RCTL_SCOPE_PORT, false, "ens1f1np1", got, sizeof(got));
	assert_string_equal(got, "ens1f0np0 first");
	scope_run("mlx5-vlan-healthy", RCTL_SCOPE_QOS, true, NULL, got, sizeof(got));
	assert_string_equal(got, "ens1f0np0 first"); /* the VLAN carries no DCB */
	/* A VF's DCB and congestion control are its PF's: none without the PF. */
	scope_run("mlx5-sriov-vf", RCTL_SCOPE_QOS, true, NULL, got, sizeof(got));
	assert_string_equal(got, "");
	scope_run("mlx5-sriov-vf", RCTL_SCOPE_PF, false, NULL, got, sizeof(got));
	assert_string_equal(got, "");
	scope_run("mlx5-sriov-vf", RCTL_SCOPE_NETDEV, false, NULL, got, sizeof(got));
	assert_string_equal(got, "ens1f0v0 first");
	scope_run("mlx5-vf-beside-pf-healthy", RCTL_SCOPE_PF, false, NULL, got, sizeof(got));
	assert_string_equal(got, "ens1f0np0 first, ens1f0np0 first");
	scope_run("mlx5-vf-beside-pf-healthy", RCTL_SCOPE_QOS, false, "ens1f0v0", got, sizeof(got));
	assert_string_equal(got, "ens1f0np0 first");
	scope_run("mlx5-upstream-healthy-v1", RCTL_SCOPE_NETDEV, false, "mlx5_9", got, sizeof(got));
	assert_string_equal(got, "");
}

static void judge_pfc(struct rctl_judge *j, const struct rctl_target *t)
{
	rctl_pass(j, t, NULL, NULL, "judged %s", t->nd->name);
}

/*
 * A part a rule needs and could not be read: the rule is not called; the
 * first rule that reports it gives the one unknown, once per part and
 * netdev; an optional part the driver has none of (EOPNOTSUPP) none.
 */
static void test_unreadable_parts(void **state)
{
	const struct rctl_rule rules[] = {
		{ .id = "x.needs", .area = RCTL_AREA_PFC, .scope = RCTL_SCOPE_QOS, .fn = judge_pfc,
		  .parts = RCTL_NEED_PFC },
		{ .id = "x.says", .area = RCTL_AREA_PFC, .scope = RCTL_SCOPE_QOS, .fn = judge_pfc,
		  .parts = RCTL_NEED_PFC | RCTL_NEED_ETS, .says = RCTL_NEED_PFC | RCTL_NEED_ETS },
		{ .id = "x.again", .area = RCTL_AREA_PFC, .scope = RCTL_SCOPE_PF, .fn = judge_pfc,
		  .parts = RCTL_NEED_PFC, .says = RCTL_NEED_PFC },
	};
	struct rctl_err e = { 0 };
	struct rctl_host h = { 0 };
	struct rctl_intent in;
	struct rctl_report r;

	(void)state;
	assert_int_equal(rctl_snapshot_load(FIXTURES "/mlx5-upstream-healthy.json", &h, &e), 0);
	assert_int_equal(rctl_intent_profile(&in, "lossless-dscp", NULL), 0);
	h.netdevs[0].pfc.st = (struct rctl_part){ .err = EIO, .reason = "dcbnl: I/O error" };
	rctl_judge_rules(&h, &in, ~0u, NULL, rules, 3, &r);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.f[0].id, "x.says");
	assert_int_equal(r.f[0].status, RCTL_UNKNOWN);
	assert_string_equal(r.f[0].message, "cannot read PFC of 'ens1f0np0': dcbnl: I/O error");
	rctl_report_free(&r);
	h.netdevs[0].pfc.st = (struct rctl_part){ .ok = true };
	h.netdevs[0].ets.st = (struct rctl_part){ .err = EOPNOTSUPP, .reason = "not supported" };
	rctl_judge_rules(&h, &in, ~0u, NULL, rules, 3, &r);
	assert_int_equal(r.n, 2);
	assert_string_equal(r.f[0].id, "x.needs");
	assert_string_equal(r.f[1].id, "x.again");
	rctl_report_free(&r);
	rctl_host_free(&h);
}

/* The finding "id" on "target", or NULL. */
static const struct rctl_finding *finding(const struct rctl_report *r, const char *id,
					  const char *target)
{
	uint32_t i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->f[i].id, id) && !strcmp(r->f[i].target, target))
			return &r->f[i];
	return NULL;
}

static void test_vlan(void **state)
{
	const struct rctl_finding *f;
	struct rctl_report r;
	struct rctl_host h;

	(void)state;
	judge("mlx5-vlan-healthy", &h, &r, NULL);
	assert_int_equal(rctl_report_exit(&r), 0);
	f = finding(&r, "dscp.trust_pcp", "mlx5_0/1 (ens1f0np0)");
	assert_non_null(f);
	assert_string_equal(f->observed, "trust pcp, ToS 106 -> skb priority 2 -> PCP 3 on 'ens1f0np0.100'");
	f = finding(&r, "mtu.active", "mlx5_0/1 (ens1f0np0.100)");
	assert_non_null(f);
	assert_int_equal(f->status, RCTL_PASS);
	rctl_report_free(&r);

	/* The VLAN MTU bounds RoCE even when active_mtu is 4096. */
	h.netdevs[1].mtu = 1500;
	judge("", &h, &r, NULL);
	f = finding(&r, "mtu.active", "mlx5_0/1 (ens1f0np0.100)");
	assert_int_equal(f->status, RCTL_FAIL);
	assert_string_equal(f->fix, "ip link set dev ens1f0np0.100 mtu 4192");
	assert_int_equal(finding(&r, "mtu.active", "mlx5_0/1 (ens1f0np0)")->status, RCTL_PASS);
	rctl_report_free(&r);
	rctl_host_free(&h);

	judge("fault-vlan-no-egress-map", &h, &r, NULL);
	f = finding(&r, "dscp.trust_pcp", "mlx5_0/1 (ens1f0np0)");
	assert_int_equal(f->status, RCTL_FAIL);
	assert_string_equal(f->fix, "ip link set dev ens1f0np0.100 type vlan egress-qos-map 2:3");
	assert_int_equal(r.count[RCTL_FAIL], 1);
	rctl_report_free(&r);

	/* The same host without the VLAN in the model: untagged, trust PCP fails. */
	h.n_netdevs = 1;
	judge("", &h, &r, NULL);
	assert_int_equal(finding(&r, "dscp.trust_pcp", "mlx5_0/1 (ens1f0np0)")->status, RCTL_FAIL);
	assert_string_equal(finding(&r, "dscp.trust_pcp", "mlx5_0/1 (ens1f0np0)")->observed,
			    "trust pcp (no DSCP entries)");
	h.n_netdevs = 2;
	rctl_report_free(&r);
	rctl_host_free(&h);
}

static void test_lag(void **state)
{
	const struct rctl_finding *f;
	struct rctl_report r;
	struct rctl_host h;

	(void)state;
	judge("mlx5-lag-healthy", &h, &r, NULL);
	assert_int_equal(rctl_report_exit(&r), 0);
	/* DCB on both slaves; ECN where cc_params are (PF 0), once. */
	assert_non_null(finding(&r, "pfc.prio_disabled", "mlx5_bond_0/1 (ens1f0np0)"));
	assert_non_null(finding(&r, "pfc.prio_disabled", "mlx5_bond_0/1 (ens1f1np1 in bond0)"));
	assert_non_null(finding(&r, "ecn.np_disabled", "mlx5_bond_0/1 (ens1f0np0)"));
	assert_null(finding(&r, "ecn.np_disabled", "mlx5_bond_0/1 (ens1f1np1 in bond0)"));
	assert_null(finding(&r, "mode.roce_disabled", "ens1f1np1"));
	assert_non_null(strstr(finding(&r, "gid.no_v2", "mlx5_bond_0/1 (ens1f0np0)")->message,
			       "on 'bond0'"));
	rctl_report_free(&r);
	rctl_host_free(&h);

	judge("fault-lag-pfc-off-slave", &h, &r, NULL);
	f = finding(&r, "pfc.prio_disabled", "mlx5_bond_0/1 (ens1f1np1 in bond0)");
	assert_int_equal(f->status, RCTL_FAIL);
	assert_string_equal(f->fix, "dcb pfc set dev ens1f1np1 prio-pfc 3:on");
	assert_int_equal(finding(&r, "pfc.prio_disabled", "mlx5_bond_0/1 (ens1f0np0)")->status,
			 RCTL_PASS);
	rctl_report_free(&r);
	rctl_host_free(&h);
}

static void test_vf_beside_pf(void **state)
{
	const struct rctl_finding *f;
	struct rctl_report r;
	struct rctl_host h;

	(void)state;
	judge("mlx5-vf-beside-pf-healthy", &h, &r, "mlx5_2");
	f = finding(&r, "ecn.sriov_vf", "mlx5_2/1 (ens1f0v0)");
	assert_int_equal(f->status, RCTL_PASS);
	assert_int_equal(rctl_report_exit(&r), 0);
	rctl_report_free(&r);

	/* The PF's failure is the VF's, also when only the VF is asked for. */
	h.netdevs[0].pfc.pfc_en[3] = false;
	judge("", &h, &r, "ens1f0v0");
	f = finding(&r, "pfc.prio_disabled", "mlx5_2/1 (ens1f0v0 via PF ens1f0np0)");
	assert_int_equal(f->status, RCTL_FAIL);
	assert_string_equal(f->device, "mlx5_2");
	assert_string_equal(f->netdev, "ens1f0np0");
	assert_string_equal(f->fix, "dcb pfc set dev ens1f0np0 prio-pfc 3:on");
	assert_int_equal(finding(&r, "ecn.sriov_vf", "mlx5_2/1 (ens1f0v0)")->status, RCTL_PASS);
	assert_null(finding(&r, "pfc.prio_disabled", "mlx5_0/1 (ens1f0np0)"));
	rctl_report_free(&r);
	rctl_host_free(&h);

	/* Without the PF's port in the run: a warning pointing at it. */
	judge("mlx5-sriov-vf", &h, &r, NULL);
	assert_int_equal(finding(&r, "ecn.sriov_vf", "mlx5_2/1 (ens1f0v0)")->status, RCTL_WARN);
	assert_int_equal(rctl_report_exit(&r), 1);
	rctl_report_free(&r);
	rctl_host_free(&h);
}

/*
 * bnxt_en in host DCBX mode answers PFC/ETS with zeroes until dcbnl set them
 * (bnxt_dcb.c): never "PFC off"; the PFC frames it sent on prio 3 prove PFC
 * on; ETS and the APP table stay unknown, firmware-managed.
 */
static void test_bnxt_fw_managed_dcb(void **state)
{
	static const char port[] = "bnxt_re0/1 (ens2f0np0)";
	const struct rctl_finding *f;
	struct rctl_report r;
	struct rctl_host h;
	uint32_t i;

	(void)state;
	judge("bnxt-fw-dcb", &h, &r, NULL);
	assert_int_equal(r.count[RCTL_FAIL], 0);
	assert_int_equal(r.count[RCTL_WARN], 0);
	f = finding(&r, "pfc.prio_disabled", port);
	assert_non_null(f);
	assert_int_equal(f->status, RCTL_PASS);
	assert_non_null(strstr(f->message, "firmware-managed"));
	assert_non_null(strstr(f->observed, "+7 sent"));
	f = finding(&r, "pfc.ets", port);
	assert_int_equal(f->status, RCTL_UNKNOWN);
	assert_non_null(strstr(f->message, "firmware-managed"));
	assert_int_equal(finding(&r, "dscp.trust_pcp", port)->status, RCTL_UNKNOWN);
	rctl_report_free(&r);

	/* no PFC frame sent on prio 3: unknown, still never a failure */
	for (i = 0; i < h.netdevs[0].n_stats; i++)
		if (!strcmp(h.netdevs[0].stats[i].name, "tx_pfc_ena_frames_pri3"))
			h.netdevs[0].stats[i].delta = 0;
	judge("", &h, &r, NULL);
	f = finding(&r, "pfc.prio_disabled", port);
	assert_int_equal(f->status, RCTL_UNKNOWN);
	assert_non_null(strstr(f->message, "the peer sent PFC on the prio but this NIC sent none"));
	assert_int_equal(r.count[RCTL_FAIL], 0);
	rctl_report_free(&r);
	rctl_host_free(&h);
}

/* A ConnectX-5 without storm counters: the pause duration shows the storm. */
static void test_pause_storm_by_duration(void **state)
{
	const struct rctl_finding *f;
	struct rctl_report r;
	struct rctl_host h;

	(void)state;
	judge("mlx5-cx5-healthy", &h, &r, NULL);
	assert_int_equal(r.count[RCTL_FAIL] + r.count[RCTL_WARN] + r.count[RCTL_UNKNOWN], 0);
	rctl_report_free(&r);
	rctl_host_free(&h);
	judge("fault-pause-duration-cx5", &h, &r, NULL);
	f = finding(&r, "counters.pause_storm", "mlx5_0/1 (ens1f0np0)");
	assert_non_null(f);
	assert_int_equal(f->status, RCTL_FAIL);
	assert_string_equal(f->observed, "prio 3 sent pause for 94% of 10.0 s");
	rctl_report_free(&r);
	rctl_host_free(&h);
}

/*
 * Healthy hosts of every vendor and driver flavour: nothing but passes, but
 * on ice, which counts no packets per priority: there which priority RoCE
 * used is unknown, never a pass.
 */
static void test_vendor_healthy(void **state)
{
	static const char *const names[] = {
		"mlx5-upstream-healthy", "mlx5-ofed-healthy", "mlx5-cx5-healthy",
		"bnxt-healthy", "bnxt-oot-healthy", "ice-irdma-healthy",
	};
	const struct rctl_finding *f;
	struct rctl_report r;
	struct rctl_host h;
	uint32_t unknown;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		judge(names[i], &h, &r, NULL);
		unknown = r.count[RCTL_UNKNOWN];
		if (!strncmp(names[i], "ice-", 4)) {
			f = finding(&r, "traffic.lossless_share", "rocep152s0f0/1 (ens5f0np0)");
			assert_non_null(f);
			assert_int_equal(f->status, RCTL_UNKNOWN);
			assert_non_null(strstr(f->message, "ice counts no packets per priority"));
			unknown--;
		}
		if (r.count[RCTL_FAIL] + r.count[RCTL_WARN] + unknown)
			fail_msg("%s: not healthy", names[i]);
		rctl_report_free(&r);
		rctl_host_free(&h);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aggregation),
		cmocka_unit_test(test_aggregation_unknown_as),
		cmocka_unit_test(test_emit_counts),
		cmocka_unit_test(test_rule_scopes),
		cmocka_unit_test(test_loss_rate),
		cmocka_unit_test(test_delta_match),
		cmocka_unit_test(test_profiles),
		cmocka_unit_test(test_conf_parse),
		cmocka_unit_test(test_conf_errors),
		cmocka_unit_test(test_resolve_layers),
		cmocka_unit_test(test_conf_sections),
		cmocka_unit_test(test_conf_section_errors),
		cmocka_unit_test(test_options_over_sections),
		cmocka_unit_test(test_area_names),
		cmocka_unit_test(test_tos2priority),
		cmocka_unit_test(test_vlan),
		cmocka_unit_test(test_lag),
		cmocka_unit_test(test_vf_beside_pf),
		cmocka_unit_test(test_unreadable_parts),
		cmocka_unit_test(test_bnxt_fw_managed_dcb),
		cmocka_unit_test(test_pause_storm_by_duration),
		cmocka_unit_test(test_vendor_healthy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
