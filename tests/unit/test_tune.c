// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tune: plans computed on the fixture hosts (exact changes, safe order,
 * skips, --force marking), the state file round trip, and apply/rollback/
 * revert of file writes on temporary files (the DCB and ethtool writes need
 * a NIC and are exercised in the lab); for 'tune apply --plan', the digest
 * of what a plan reads (the same host digests the same, a changed setting
 * names its part, a moving counter does not), the reviewed plan's reader
 * (what it refuses, one line each) and the --only/--skip selection.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "rocectl/collect.h"
#include "rocectl/rules.h"
#include "rocectl/settings.h"
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

static void plan_of(const struct rctl_host *h, struct rctl_tune_plan *p)
{
	struct rctl_err e = { 0 };

	assert_int_equal(rctl_tune_plan(h, &in, p, &e), 0);
}

static void plan_file(const char *name, struct rctl_tune_plan *p)
{
	struct rctl_host h;

	load(name, &h);
	plan_of(&h, p);
	rctl_host_free(&h);
}

static int setup(void **state)
{
	struct rctl_err e = { 0 };

	(void)state;
	return rctl_intent_profile(&in, "lossless-dscp", &e);
}

static void test_healthy_empty(void **state)
{
	static const char *const names[] = {
		"mlx5-upstream-healthy", "mlx5-ofed-healthy", "bnxt-healthy",
	};
	struct rctl_tune_plan p;
	unsigned int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		plan_file(names[i], &p);
		assert_int_equal(p.n_ch, 0);
		rctl_tune_plan_free(&p);
	}
}

static void test_pfc_off(void **state)
{
	struct rctl_tune_plan p;

	(void)state;
	plan_file("fault-pfc-off-prio3", &p);
	assert_int_equal(p.n_ch, 1);
	assert_int_equal(p.ch[0].op, RCTL_TUNE_PFC);
	assert_int_equal(p.ch[0].old_val, 0);
	assert_int_equal(p.ch[0].new_val, 1 << 3);
	assert_string_equal(p.ch[0].command, "dcb pfc set dev ens1f0np0 prio-pfc 3:on");
	assert_non_null(strstr(p.ch[0].warning, "flaps the link"));
	assert_false(p.ch[0].needs_force);
	rctl_tune_plan_free(&p);
}

static void test_dscp_two_prios(void **state)
{
	struct rctl_tune_plan p;

	(void)state;
	plan_file("fault-dscp26-two-prios", &p);
	assert_int_equal(p.n_ch, 1);
	assert_int_equal(p.ch[0].op, RCTL_TUNE_APP_DEL);
	assert_int_equal(p.ch[0].app_protocol, 26);
	assert_int_equal(p.ch[0].app_prio, 5);
	rctl_tune_plan_free(&p);
}

/* mlx5 without DSCP entries: one SET each, whose undo is a DEL (no old entry). */
static void test_trust_pcp_adds(void **state)
{
	struct rctl_tune_plan p;

	(void)state;
	plan_file("fault-trust-pcp-untagged", &p);
	assert_int_equal(p.n_ch, 2);
	assert_int_equal(p.ch[0].op, RCTL_TUNE_APP_SET);
	assert_int_equal(p.ch[0].app_protocol, 26);
	assert_int_equal(p.ch[0].app_prio, 3);
	assert_int_equal(p.ch[0].old_val, RCTL_APP_NONE);
	assert_int_equal(p.ch[1].app_protocol, 48);
	assert_int_equal(p.ch[1].app_prio, 6);
	rctl_tune_plan_free(&p);
}

/*
 * mlx5 setapp replaces the DSCP's entry (en_dcbnl.c): remapping DSCP 26
 * from 0 to 3 is one SET, never ADD + DEL (the DEL would find no entry,
 * and a rollback DEL would leave DSCP 26 on priority 0). Its undo is a
 * SET of the old priority, which the plan keeps.
 */
/* The plan of a healthy fixture whose DSCP 26 sits on priority 0. */
static void plan_dscp26_at_0(const char *name, struct rctl_tune_plan *p)
{
	struct rctl_host h;
	uint32_t i;

	load(name, &h);
	for (i = 0; i < h.netdevs[0].app.n_apps; i++)
		if (h.netdevs[0].app.apps[i].protocol == 26)
			h.netdevs[0].app.apps[i].priority = 0;
	plan_of(&h, p);
	rctl_host_free(&h);
}

static void test_mlx5_dscp_replace(void **state)
{
	struct rctl_tune_plan p;

	(void)state;
	plan_dscp26_at_0("mlx5-upstream-healthy", &p);
	assert_int_equal(p.n_ch, 1);
	assert_int_equal(p.ch[0].op, RCTL_TUNE_APP_SET);
	assert_int_equal(p.ch[0].app_protocol, 26);
	assert_int_equal(p.ch[0].app_prio, 3);
	assert_int_equal(p.ch[0].old_val, 0);
	assert_string_equal(p.ch[0].command, "dcb app replace dev ens1f0np0 dscp-prio 26:3");
	assert_string_equal(p.ch[0].from, "26:0");
	rctl_tune_plan_free(&p);
}

/* ice refuses a DSCP that is already mapped: the old entry is deleted first. */
static void test_ice_dscp_del_then_add(void **state)
{
	struct rctl_tune_plan p;

	(void)state;
	plan_dscp26_at_0("ice-irdma-healthy", &p);
	assert_int_equal(p.n_ch, 2);
	assert_int_equal(p.ch[0].op, RCTL_TUNE_APP_DEL);
	assert_int_equal(p.ch[0].app_prio, 0);
	assert_int_equal(p.ch[1].op, RCTL_TUNE_APP_ADD);
	assert_int_equal(p.ch[1].app_prio, 3);
	rctl_tune_plan_free(&p);
}

/*
 * What apply and undo write: mlx5's app-set is undone by a SET of the old
 * priority (a DEL would reset the DSCP to priority 0), or by a DEL when the
 * DSCP had no entry; app-add and app-del are each other's undo.
 */
static void test_app_undo(void **state)
{
	struct rctl_tune_change c = { .op = RCTL_TUNE_APP_SET, .app_protocol = 26, .app_prio = 3,
				      .old_val = 0 };
	uint32_t prio;

	(void)state;
	assert_true(rctl_tune_app_op(&c, false, &prio));
	assert_int_equal(prio, 3);
	assert_true(rctl_tune_app_op(&c, true, &prio));
	assert_int_equal(prio, 0);
	c.old_val = RCTL_APP_NONE;
	assert_false(rctl_tune_app_op(&c, true, &prio));
	assert_int_equal(prio, 3);
	c.op = RCTL_TUNE_APP_ADD;
	assert_true(rctl_tune_app_op(&c, false, &prio));
	assert_false(rctl_tune_app_op(&c, true, &prio));
	c.op = RCTL_TUNE_APP_DEL;
	assert_false(rctl_tune_app_op(&c, false, &prio));
	assert_true(rctl_tune_app_op(&c, true, &prio));
	assert_int_equal(prio, 3);
}

/* The dcbnl core's list (bnxt_en): add the new entry first, then delete the old. */
static void test_bnxt_dscp_add_then_del(void **state)
{
	struct rctl_tune_plan p;

	(void)state;
	plan_dscp26_at_0("bnxt-healthy", &p);
	assert_int_equal(p.n_ch, 2);
	assert_int_equal(p.ch[0].op, RCTL_TUNE_APP_ADD);
	assert_int_equal(p.ch[0].app_prio, 3);
	assert_int_equal(p.ch[1].op, RCTL_TUNE_APP_DEL);
	assert_int_equal(p.ch[1].app_prio, 0);
	rctl_tune_plan_free(&p);
}

static void test_lldpad_needs_force(void **state)
{
	struct rctl_tune_plan p;
	struct rctl_host h;

	(void)state;
	load("fault-lldpad-running", &h);
	plan_of(&h, &p);
	assert_int_equal(p.n_ch, 0);	/* nothing to write: lldpad is no change */
	rctl_tune_plan_free(&p);
	h.netdevs[0].pfc.pfc_en[3] = false;
	plan_of(&h, &p);
	assert_int_equal(p.n_ch, 1);
	assert_true(p.ch[0].needs_force);
	assert_non_null(strstr(p.ch[0].warning, "lldpad"));
	rctl_tune_plan_free(&p);
	rctl_host_free(&h);
}

/* Several faults at once come out in the safe order of tune.h. */
static void test_order(void **state)
{
	static const enum rctl_tune_op want[] = {
		RCTL_TUNE_PAUSE, RCTL_TUNE_PFC, RCTL_TUNE_APP_SET, RCTL_TUNE_WRITE,
	};
	struct rctl_tune_plan p;
	struct rctl_host h;
	struct rctl_netdev *nd;
	unsigned int i;

	(void)state;
	load("mlx5-upstream-healthy", &h);
	nd = &h.netdevs[0];
	nd->pause.rx = true;
	nd->pfc.pfc_en[3] = false;
	for (i = 0; i < nd->app.n_apps; i++)
		if (nd->app.apps[i].protocol == 26)
			nd->app.apps[i].priority = 0;
	h.devs[0].ports[0].cm.roce_tos = 0;
	plan_of(&h, &p);
	assert_int_equal(p.n_ch, 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(p.ch[i].op, want[i]);
	assert_int_equal(p.ch[2].old_val, 0);
	assert_string_equal(p.ch[3].setting, "default_roce_tos");
	assert_string_equal(p.ch[3].new_text, "106");
	rctl_tune_plan_free(&p);
	rctl_host_free(&h);
}

static void test_unsupported_skipped(void **state)
{
	struct rctl_tune_plan p;
	struct rctl_host h;

	(void)state;
	load("mlx5-upstream-healthy", &h);
	rctl_part_fail(&h.netdevs[0].pfc.st, EOPNOTSUPP, NULL);
	plan_of(&h, &p);
	assert_int_equal(p.n_ch, 1);
	assert_int_equal(rctl_tune_plan_active(&p), 0);
	assert_string_equal(p.ch[0].skip, "not supported by mlx5_core");
	rctl_tune_plan_free(&p);
	rctl_host_free(&h);
}

/* The RoCE prio in a TC without bandwidth moves to a free TC that has some. */
static void test_ets_move(void **state)
{
	struct rctl_tune_plan p;
	struct rctl_host h;
	struct rctl_ets *e;
	int i;

	(void)state;
	load("mlx5-upstream-healthy", &h);
	e = &h.netdevs[0].ets;
	for (i = 0; i < 8; i++) {
		e->prio_tc[i] = i < 4 ? 0 : 1;
		e->tc_tsa[i] = RCTL_TSA_ETS;
		e->tc_tx_bw[i] = i == 2 ? 100 : 0;
	}
	plan_of(&h, &p);
	assert_int_equal(p.n_ch, 1);
	assert_int_equal(p.ch[0].op, RCTL_TUNE_ETS);
	assert_int_equal(p.ch[0].old_prio_tc[3], 0);
	assert_int_equal(p.ch[0].new_prio_tc[3], 2);
	assert_string_equal(p.ch[0].command, "dcb ets set dev ens1f0np0 prio-tc 3:2");
	rctl_tune_plan_free(&p);
	rctl_host_free(&h);
}

static void test_state_round_trip(void **state)
{
	struct rctl_tune_plan p, q;
	struct rctl_err e = { 0 };
	enum rctl_tune_status status;
	char *text;

	(void)state;
	plan_file("fault-trust-pcp-untagged", &p);
	text = rctl_tune_state_text(&p, RCTL_TUNE_APPLIED);
	assert_non_null(text);
	assert_int_equal(rctl_tune_state_parse(text, "t", &q, &status, &e), 0);
	assert_int_equal(status, RCTL_TUNE_APPLIED);
	assert_int_equal(q.n_ch, p.n_ch);
	assert_memory_equal(q.ch, p.ch, sizeof(*p.ch) * p.n_ch);
	free(text);
	rctl_tune_plan_free(&q);
	assert_int_not_equal(rctl_tune_state_parse("{\"kind\":\"x\"}", "t", &q, &status, &e), 0);
	assert_non_null(strstr(e.msg, "not a rocectl tune state"));
	rctl_tune_plan_free(&p);
	rctl_tune_plan_free(&q);
}

/*
 * Every state file apply writes passes revert's checks: the plan of every
 * fixture (and of the lab's rxe snapshot, whose rdma_cm ToS is off), with
 * the statuses apply gives, written and read back.
 */
static void state_accepted(const char *name)
{
	struct rctl_tune_plan p, q;
	struct rctl_err e = { 0 };
	enum rctl_tune_status status;
	char *text;
	uint32_t i;

	plan_file(name, &p);
	for (i = 0; i < p.n_ch; i++)
		p.ch[i].status = p.ch[i].skip[0] ? RCTL_TUNE_SKIPPED : RCTL_TUNE_APPLIED;
	text = rctl_tune_state_text(&p, RCTL_TUNE_APPLIED);
	if (rctl_tune_state_parse(text, name, &q, &status, &e))
		fail_msg("%s: %s", name, e.msg);
	free(text);
	rctl_tune_plan_free(&p);
	rctl_tune_plan_free(&q);
}

static void test_state_of_every_plan(void **state)
{
	static const char *const names[] = {
		"fault-trust-pcp-untagged", "fault-dscp26-missing", "fault-dscp26-two-prios",
		"fault-pfc-off-prio3", "fault-pfc-on-0-and-3", "fault-tos-0",
		"fault-roce-mode-v1", "fault-ecn-np-disabled", "fault-global-pause-with-pfc",
		"fault-cnp-dscp-on-data-prio", "fault-lldpad-running", "fault-debugfs-unreadable",
		"bnxt-healthy", "mlx5-sriov-vf", "../../cli/data/rxe-lab",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		state_accepted(names[i]);
}

/* ---- apply / rollback / revert on plain files ------------------------- */

static char dir[64];

static void put(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(s, f);
	fclose(f);
}

static const char *get(const char *path)
{
	static char buf[512];
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/* Files of a tree tune writes (the OFED ECN enables), under a fake sysfs. */
static void file_plan(struct rctl_tune_plan *p, int n)
{
	char cmd[160];
	int i;

	snprintf(cmd, sizeof(cmd), "mkdir -p %s/class/net/eth0/ecn/roce_np/enable", dir);
	assert_int_equal(system(cmd), 0);
	setenv("ROCECTL_SYSFS", dir, 1);
	p->n_ch = n;
	p->ch = calloc(n, sizeof(*p->ch));
	for (i = 0; i < n; i++) {
		struct rctl_tune_change *c = &p->ch[i];

		c->op = RCTL_TUNE_WRITE;
		snprintf(c->setting, sizeof(c->setting), "f%d", i);
		snprintf(c->target, sizeof(c->target), "eth0");
		snprintf(c->path, sizeof(c->path), "%s/class/net/eth0/ecn/roce_np/enable/%d",
			 dir, i);
		snprintf(c->via, sizeof(c->via), "%s", c->path);
		snprintf(c->old_text, sizeof(c->old_text), "old%d", i);
		snprintf(c->new_text, sizeof(c->new_text), "new%d", i);
		put(c->path, "old\n");
	}
}

static int setup_dir(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/rocectl-tune-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown_dir(void **state)
{
	char cmd[128];

	(void)state;
	unsetenv(RCTL_TUNE_FAIL_ENV);
	unsetenv("ROCECTL_SYSFS");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

/* --persist: the drop-in and the enable link, and revert removing exactly those. */
static void test_persist(void **state)
{
	char unit[256], path[256], link[512], dropin[512];
	struct rctl_err e = { 0 };
	bool removed;
	ssize_t n;

	struct rctl_intent bi = { .profile = "lossless-dscp", .prio = 3, .dscp = 26,
				  .cnp_prio = 6, .cnp_dscp = 48, .tos = 104, .mtu = 4096 };

	setenv(RCTL_SYSTEMD_DIR_ENV, dir, 1);
	snprintf(unit, sizeof(unit), "%s/rocectl-tune.service", dir);
	assert_int_equal(rctl_tune_persist(&bi, NULL, false, dropin, sizeof(dropin), &e), -ENOENT);
	assert_non_null(strstr(e.msg, "not installed"));
	put(unit, "[Service]\n");
	assert_int_equal(rctl_tune_persist(&bi, "mlx5_0", false, dropin, sizeof(dropin), &e), 0);
	snprintf(path, sizeof(path), "%s/rocectl-tune.service.d/persist.conf", dir);
	assert_string_equal(dropin, path);
	assert_non_null(strstr(get(path), "\n[Service]\nEnvironment=\"ROCECTL_TUNE_ARGS=--profile "
			       "lossless-dscp --prio 3 --dscp 26 --cnp-prio 6 --cnp-dscp 48 "
			       "--tos 104 --mtu 4096 --dev mlx5_0\"\n"));
	snprintf(path, sizeof(path), "%s/multi-user.target.wants/rocectl-tune.service", dir);
	n = readlink(path, link, sizeof(link) - 1);
	assert_true(n > 0);
	link[n] = '\0';
	assert_string_equal(link, unit);
	/* again: replaced, not refused */
	bi.tos = 106;
	assert_int_equal(rctl_tune_persist(&bi, NULL, true, dropin, sizeof(dropin), &e), 0);
	/* an admin's own drop-bi stays, and so does its directory */
	snprintf(path, sizeof(path), "%s/rocectl-tune.service.d/local.conf", dir);
	put(path, "[Unit]\n");
	assert_int_equal(rctl_tune_unpersist(&removed, &e), 0);
	assert_true(removed);
	assert_int_equal(access(dropin, F_OK), -1);
	assert_int_equal(access(path, F_OK), 0);
	snprintf(path, sizeof(path), "%s/multi-user.target.wants/rocectl-tune.service", dir);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(access(unit, F_OK), 0);
	assert_int_equal(rctl_tune_unpersist(&removed, &e), 0);
	assert_false(removed);
	unsetenv(RCTL_SYSTEMD_DIR_ENV);
}

/* The state directory of a test, opened and locked as apply and revert do. */
static void open_sd(struct rctl_tune_dir *d, const char *sub)
{
	struct rctl_err e = { 0 };
	char sd[128];

	snprintf(sd, sizeof(sd), "%s/%s", dir, sub);
	if (rctl_tune_dir_open(d, sd, true, &e))
		fail_msg("%s", e.msg);
}

/*
 * systemd reads the drop-in without a word (a wrong quote or a lone % is
 * "Invalid syntax, ignoring"), next to a copy of the unit, when
 * systemd-analyze is there (tests/cli/units.bats checks the unit itself).
 */
static void verify_dropin(const char *text)
{
	char d[256], cmd[1024], out[512] = "";
	FILE *f;
	size_t n;

	if (access("/usr/bin/systemd-analyze", X_OK))
		return;
	snprintf(d, sizeof(d), "%s/u/rocectl-tune.service.d", dir);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s' && sed 's|^ExecStart=rocectl |ExecStart=/bin/true |' "
		 "systemd/rocectl-tune.service >'%s/u/rocectl-tune.service'", d, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s/persist.conf", d);
	put(cmd, text);
	snprintf(cmd, sizeof(cmd), "systemd-analyze verify --man=no '%s/u/rocectl-tune.service' 2>&1",
		 dir);
	f = popen(cmd, "r");
	assert_non_null(f);
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = '\0';
	assert_int_equal(pclose(f), 0);
	assert_string_equal(out, "");
}

/*
 * The config path in the drop-in: absolute (from the working directory),
 * a regular file, printable, and quoted so systemd reads it back as it is.
 */
static void test_persist_config_path(void **state)
{
	struct rctl_intent bi = { .profile = "lossless-dscp", .mtu = 4096 };
	char sub[256], cwd[256], text[8192];
	struct rctl_err e = { 0 };

	(void)state;
	snprintf(sub, sizeof(sub), "%s/a b%%n\\\"q", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(bi.conf, sizeof(bi.conf), "%s/r.conf", sub);
	put(bi.conf, "");
	assert_int_equal(rctl_tune_dropin_text(&bi, NULL, false, text, sizeof(text), &e), 0);
	snprintf(sub, sizeof(sub), "\nEnvironment=\"ROCECTL_CONF=%s/a b%%%%n\\\\\\\"q/r.conf\"\n",
		 dir);
	assert_non_null(strstr(text, sub));
	verify_dropin(text);
	/* relative: made absolute */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	snprintf(bi.conf, sizeof(bi.conf), "a b%%n\\\"q/r.conf");
	assert_int_equal(rctl_tune_dropin_text(&bi, NULL, false, text, sizeof(text), &e), 0);
	assert_non_null(strstr(text, sub));
	assert_int_equal(chdir(cwd), 0);
	/* a newline would start a directive of its own */
	snprintf(bi.conf, sizeof(bi.conf), "%s/x\"\nExecStartPre=/bin/sh", dir);
	assert_int_equal(rctl_tune_dropin_text(&bi, NULL, false, text, sizeof(text), &e), -EINVAL);
	assert_non_null(strstr(e.msg, "control character"));
	/* systemd ignores an Environment= that is not UTF-8: the boot would use the default */
	snprintf(bi.conf, sizeof(bi.conf), "%s/caf\xe9.conf", dir);
	put(bi.conf, "");
	assert_int_equal(rctl_tune_dropin_text(&bi, NULL, false, text, sizeof(text), &e), -EINVAL);
	assert_non_null(strstr(e.msg, "its path holds bytes that are not UTF-8"));
	snprintf(bi.conf, sizeof(bi.conf), "%s/caf\xc3\xa9.conf", dir);
	put(bi.conf, "");
	assert_int_equal(rctl_tune_dropin_text(&bi, NULL, false, text, sizeof(text), &e), 0);
	snprintf(bi.conf, sizeof(bi.conf), "%s", dir);
	assert_int_equal(rctl_tune_dropin_text(&bi, NULL, false, text, sizeof(text), &e), -EINVAL);
	assert_non_null(strstr(e.msg, "not a regular file"));
	snprintf(bi.conf, sizeof(bi.conf), "%s/missing.conf", dir);
	assert_int_equal(rctl_tune_dropin_text(&bi, NULL, false, text, sizeof(text), &e), -ENOENT);
	bi.conf[0] = '\0';
	assert_int_equal(rctl_tune_dropin_text(&bi, "eth0 --x", false, text, sizeof(text), &e),
			 -EINVAL);
	assert_non_null(strstr(e.msg, "not a plain device name"));
}

static void test_apply_rollback(void **state)
{
	struct rctl_tune_plan p, q;
	struct rctl_err e = { 0 };
	char name[256] = "", newest[256];
	struct rctl_tune_dir d;

	(void)state;
	open_sd(&d, "state");
	file_plan(&p, 3);
	setenv(RCTL_TUNE_FAIL_ENV, "3", 1);
	assert_int_equal(rctl_tune_apply(&p, &d, name, sizeof(name), &e), -EIO);
	unsetenv(RCTL_TUNE_FAIL_ENV);
	assert_non_null(strstr(e.msg, "step 3 failed"));
	assert_non_null(strstr(e.msg, "rolled back 2 changes"));
	/* Rollback wrote the saved values, last first. */
	assert_string_equal(get(p.ch[0].path), "old0\n");
	assert_string_equal(get(p.ch[1].path), "old1\n");
	assert_string_equal(get(p.ch[2].path), "old\n");
	assert_int_equal(p.ch[0].status, RCTL_TUNE_UNDONE);
	assert_int_equal(p.ch[2].status, RCTL_TUNE_FAILED);
	/* The state file says so, and revert has nothing to pick. */
	assert_int_equal(rctl_tune_revert(&d, name, &q, &e), 0);
	rctl_tune_plan_free(&q);
	assert_int_not_equal(rctl_tune_newest_state(&d, newest, sizeof(newest), &e), 0);
	rctl_tune_plan_free(&p);
	rctl_tune_dir_close(&d);
}

static void test_apply_revert(void **state)
{
	struct rctl_tune_plan p, q;
	struct rctl_err e = { 0 };
	char name[256] = "", newest[256];
	struct rctl_tune_dir d;

	(void)state;
	open_sd(&d, "state2");
	file_plan(&p, 2);
	assert_int_equal(rctl_tune_apply(&p, &d, name, sizeof(name), &e), 0);
	assert_string_equal(get(p.ch[0].path), "new0\n");
	assert_string_equal(get(p.ch[1].path), "new1\n");
	assert_true(p.ch[0].applied_at > 1700000000);	/* when each was written */
	assert_int_equal(rctl_tune_newest_state(&d, newest, sizeof(newest), &e), 0);
	assert_string_equal(newest, name);
	assert_int_equal(rctl_tune_revert(&d, newest, &q, &e), 0);
	assert_string_equal(get(p.ch[0].path), "old0\n");
	assert_string_equal(get(p.ch[1].path), "old1\n");
	assert_int_equal(q.ch[0].status, RCTL_TUNE_REVERTED);
	/* Reverted: no longer the newest to revert. */
	assert_int_not_equal(rctl_tune_newest_state(&d, newest, sizeof(newest), &e), 0);
	rctl_tune_plan_free(&q);
	rctl_tune_plan_free(&p);
	rctl_tune_dir_close(&d);
}

/* A call that must succeed; when it fails, the test says why (its message). */
static void ok_or_say(int ret, const struct rctl_err *e)
{
	if (ret)
		fail_msg("%d: %s", ret, e->msg);
}

/* The change of DEV/PORT's default_roce_tos in plan p, or NULL. */
static struct rctl_tune_change *tos_change(struct rctl_tune_plan *p, const char *target)
{
	uint32_t i;

	for (i = 0; i < p->n_ch; i++)
		if (!strcmp(p->ch[i].setting, RCTL_CM_TOS_FILE) && !strcmp(p->ch[i].target, target))
			return &p->ch[i];
	return NULL;
}

static void load_snap(const char *name, struct rctl_host *h)
{
	struct rctl_err e = { 0 };
	char path[256];

	snprintf(path, sizeof(path), "tests/fixtures/snapshots/%s.json", name);
	if (rctl_snapshot_load(path, h, &e))
		fail_msg("%s", e.msg);
}

static struct rctl_res_entry *cm_entry(struct rctl_host *h, const char *owner, const char *dev)
{
	uint32_t i;

	for (i = 0; i < h->res.n_list; i++)
		if (!strcmp(h->res.list[i].kind, "cm_id") && !strcmp(h->res.list[i].owner, owner) &&
		    !strcmp(h->res.list[i].dev, dev) && !strcmp(h->res.list[i].state, "CONNECT"))
			return &h->res.list[i];
	return NULL;
}

/*
 * A new default ToS records the rdma_cm connections this host made on the
 * port (the lab's rxe0: two of nvme_rdma, one of rping; rxe1's three were
 * accepted, so none); the state file keeps them and when the write was made,
 * an older state file without them still reads; later, the cm_ids of the
 * dump that are the same connections are marked, and one that reconnected
 * (a new source port, a new cm_id) is not.
 */
static void test_tos_connections(void **state)
{
	struct rctl_tune_plan p, q;
	struct rctl_err e = { 0 };
	enum rctl_tune_status status;
	struct rctl_tune_change *c;
	struct rctl_flow_class fc;
	struct rctl_host h;
	char *text, *old;
	uint32_t i;

	(void)state;
	load_snap("rxe-lab-flows-v4", &h);
	plan_of(&h, &p);
	rctl_host_free(&h);
	c = tos_change(&p, "rxe0/1");
	assert_non_null(c);
	assert_int_equal(c->n_cm, 3);
	assert_string_equal(c->cm[0].owner, "[nvme_rdma]");
	assert_string_equal(c->cm[0].src, "10.0.0.1:37574");
	assert_string_equal(c->cm[2].owner, "");	/* rping: its pid says who */
	assert_int_not_equal(c->cm[2].pid, 0);
	assert_int_equal(tos_change(&p, "rxe1/1")->n_cm, 0);
	for (i = 0; i < p.n_ch; i++) {
		p.ch[i].status = p.ch[i].skip[0] ? RCTL_TUNE_SKIPPED : RCTL_TUNE_APPLIED;
		p.ch[i].applied_at = 1764911073;
	}
	text = rctl_tune_state_text(&p, RCTL_TUNE_APPLIED);
	ok_or_say(rctl_tune_state_parse(text, "t", &q, &status, &e), &e);
	c = tos_change(&q, "rxe0/1");
	assert_int_equal(c->n_cm, 3);
	assert_int_equal(c->applied_at, 1764911073);
	assert_memory_equal(c->cm, tos_change(&p, "rxe0/1")->cm, 3 * sizeof(*c->cm));

	load_snap("rxe-lab-flows-v4", &h);
	snprintf(cm_entry(&h, "rping", "rxe0")->src, RCTL_ENDPOINT_LEN, "10.0.0.1:50000");
	assert_int_equal(rctl_tune_mark_cm(&h, &q, "tune-20251205.json"), 0);
	assert_int_equal(h.res.n_tos_changes, 2);
	assert_string_equal(h.res.tos_changes[0].dev, "rxe0");
	assert_int_equal(h.res.tos_changes[0].old_tos, 0);
	assert_int_equal(h.res.tos_changes[0].new_tos, 106);
	assert_int_equal(h.res.tos_changes[0].n_before, 3);
	assert_int_equal(h.res.tos_changes[0].n_live, 2);
	assert_true(cm_entry(&h, "[nvme_rdma]", "rxe0")->made_before_tune);
	assert_false(cm_entry(&h, "rping", "rxe0")->made_before_tune);
	assert_false(cm_entry(&h, "[nvmet_rdma]", "rxe1")->made_before_tune);
	for (i = 0; i < h.res.n_consumers && strcmp(h.res.consumers[i].name, "[nvme_rdma]"); i++)
		;
	rctl_consumer_class(&h, &in, &h.res.consumers[i], &h.devs[0], &h.devs[0].ports[0], &fc);
	assert_string_equal(fc.before, "2 rdma_cm connections were made before tune changed the "
			    "default ToS at 2025-12-05 05:04:33 UTC; they keep ToS 0 until they "
			    "reconnect");
	rctl_host_free(&h);
	rctl_tune_plan_free(&q);

	/* A state file of an older rocectl: no connections, no time; it still reads. */
	assert_non_null(strstr(text, "\"applied_at\""));
	while ((old = strstr(text, "\"applied_at\"")))
		memcpy(old, "\"applied_ax\"", 12);
	while ((old = strstr(text, "\"rdma_cm_connections\"")))
		memcpy(old, "\"rdma_cm_connectionz\"", 21);
	ok_or_say(rctl_tune_state_parse(text, "t", &q, &status, &e), &e);
	assert_int_equal(tos_change(&q, "rxe0/1")->n_cm, 0);
	assert_int_equal(tos_change(&q, "rxe0/1")->applied_at, 0);
	load_snap("rxe-lab-flows-v4", &h);
	assert_int_equal(rctl_tune_mark_cm(&h, &q, "old.json"), 0);
	assert_int_equal(h.res.n_tos_changes, 0);
	rctl_host_free(&h);
	free(text);
	rctl_tune_plan_free(&q);
	rctl_tune_plan_free(&p);
}

/* Read only: the newest applied state of a directory; none, or no directory: nothing. */
static void test_tos_history_dir(void **state)
{
	struct rctl_err e = { 0 };
	struct rctl_tune_plan p;
	struct rctl_tune_dir d;
	char name[256] = "", sd[128];
	struct rctl_host h;
	uint32_t i;

	(void)state;
	load_snap("rxe-lab-flows-v4", &h);
	snprintf(sd, sizeof(sd), "%s/none", dir);
	assert_int_equal(rctl_tune_cm_history(&h, sd, &e), 0);
	assert_int_equal(h.res.n_tos_changes, 0);
	plan_of(&h, &p);
	open_sd(&d, "state9");
	ok_or_say(rctl_tune_state_create(&p, &d, name, sizeof(name), &e), &e);
	snprintf(sd, sizeof(sd), "%s", d.path);
	rctl_tune_dir_close(&d);
	/* planned, not applied: nothing to say */
	assert_int_equal(rctl_tune_cm_history(&h, sd, &e), 0);
	assert_int_equal(h.res.n_tos_changes, 0);
	for (i = 0; i < p.n_ch; i++) {
		p.ch[i].status = p.ch[i].skip[0] ? RCTL_TUNE_SKIPPED : RCTL_TUNE_APPLIED;
		p.ch[i].applied_at = 1764911073;
	}
	open_sd(&d, "state9");
	ok_or_say(rctl_tune_state_write(&d, name, &p, RCTL_TUNE_APPLIED, &e), &e);
	rctl_tune_dir_close(&d);
	ok_or_say(rctl_tune_cm_history(&h, sd, &e), &e);
	assert_int_equal(h.res.n_tos_changes, 2);
	assert_int_equal(h.res.tos_changes[0].n_live, 3);
	assert_string_equal(h.res.tos_changes[0].state, name);
	rctl_tune_plan_free(&p);
	rctl_host_free(&h);
}

/* A temporary file that a killed apply left is gone at the next open. */
static void test_killed_temp_swept(void **state)
{
	struct rctl_tune_dir d;
	char path[256];

	(void)state;
	open_sd(&d, "state-sweep");
	rctl_tune_dir_close(&d);
	snprintf(path, sizeof(path), "%s/state-sweep/.tune-20261204.json.4242.7123.tmp", dir);
	put(path, "{");
	snprintf(path, sizeof(path), "%s/state-sweep/.keep", dir);
	put(path, "x");
	open_sd(&d, "state-sweep");
	snprintf(path, sizeof(path), "%s/state-sweep/.tune-20261204.json.4242.7123.tmp", dir);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/state-sweep/.keep", dir);
	assert_int_equal(access(path, F_OK), 0);
	rctl_tune_dir_close(&d);
}

/*
 * A shorter value over a longer one leaves only itself: "0" over "106" of a
 * regular file (the tests' redirected roots) reads "0", not "0\n6".
 */
static void test_write_truncates(void **state)
{
	struct rctl_tune_plan p;
	struct rctl_err e = { 0 };
	char name[256] = "";
	struct rctl_tune_dir d;

	(void)state;
	open_sd(&d, "state-trunc");
	file_plan(&p, 1);
	snprintf(p.ch[0].new_text, sizeof(p.ch[0].new_text), "0");
	put(p.ch[0].path, "106\n");
	assert_int_equal(rctl_tune_apply(&p, &d, name, sizeof(name), &e), 0);
	assert_string_equal(get(p.ch[0].path), "0\n");
	rctl_tune_plan_free(&p);
	rctl_tune_dir_close(&d);
}

/*
 * An undo that fails stays to be done: the state file is not marked
 * reverted, and the next revert retries that undo, and only that one.
 */
static void test_revert_retries_failed_undo(void **state)
{
	struct rctl_tune_plan p, q;
	struct rctl_err e = { 0 };
	enum rctl_tune_status st;
	char name[256] = "", newest[256];
	struct rctl_tune_dir d;

	(void)state;
	open_sd(&d, "state3");
	file_plan(&p, 2);
	assert_int_equal(rctl_tune_apply(&p, &d, name, sizeof(name), &e), 0);
	setenv(RCTL_TUNE_FAIL_ENV, "2", 1);
	assert_int_equal(rctl_tune_revert(&d, name, &q, &e), -EIO);
	unsetenv(RCTL_TUNE_FAIL_ENV);
	assert_string_equal(e.msg, "1 of 2 changes not undone, first: f1 of 'eth0': "
			    "injected failure (ROCECTL_TUNE_FAIL_STEP=2)");
	assert_int_equal(q.ch[0].status, RCTL_TUNE_REVERTED);
	assert_int_equal(q.ch[1].status, RCTL_TUNE_REVERT_FAILED);
	assert_string_equal(get(p.ch[0].path), "old0\n");
	assert_string_equal(get(p.ch[1].path), "new1\n");
	rctl_tune_plan_free(&q);
	assert_int_equal(rctl_tune_state_load(&d, name, &q, &st, &e), 0);
	assert_int_equal(st, RCTL_TUNE_REVERT_FAILED);
	rctl_tune_plan_free(&q);
	assert_int_equal(rctl_tune_newest_state(&d, newest, sizeof(newest), &e), 0);
	assert_string_equal(newest, name);
	/* The retry undoes change 2 only: change 1, now changed by hand, stays. */
	put(p.ch[0].path, "admin\n");
	assert_int_equal(rctl_tune_revert(&d, name, &q, &e), 0);
	assert_string_equal(get(p.ch[0].path), "admin\n");
	assert_string_equal(get(p.ch[1].path), "old1\n");
	assert_false(q.ch[0].tried);	/* what the output may claim */
	assert_true(q.ch[1].tried);
	rctl_tune_plan_free(&q);
	assert_int_equal(rctl_tune_state_load(&d, name, &q, &st, &e), 0);
	assert_int_equal(st, RCTL_TUNE_REVERTED);
	rctl_tune_plan_free(&q);
	rctl_tune_plan_free(&p);
	rctl_tune_dir_close(&d);
}

/*
 * SIGKILL right after the write of step 2 of 3: step 1 is applied, step 2
 * may have been written, step 3 never ran. Revert undoes 1 and 2, never 3.
 */
static void test_killed_apply_reverts_what_ran(void **state)
{
	struct rctl_tune_plan p, q;
	struct rctl_err e = { 0 };
	char name[256] = "";
	struct rctl_tune_dir d;
	enum rctl_tune_status st;
	int wst;
	pid_t pid;

	(void)state;
	file_plan(&p, 3);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		open_sd(&d, "state4");
		setenv(RCTL_TUNE_KILL_ENV, "2", 1);
		rctl_tune_apply(&p, &d, name, sizeof(name), &e);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &wst, 0), pid);
	assert_true(WIFSIGNALED(wst) && WTERMSIG(wst) == SIGKILL);
	open_sd(&d, "state4");
	assert_int_equal(rctl_tune_newest_state(&d, name, sizeof(name), &e), 0);
	assert_int_equal(rctl_tune_state_load(&d, name, &q, &st, &e), 0);
	assert_int_equal(st, RCTL_TUNE_IN_PROGRESS);
	assert_int_equal(q.ch[0].status, RCTL_TUNE_APPLIED);
	assert_int_equal(q.ch[1].status, RCTL_TUNE_IN_PROGRESS);
	assert_int_equal(q.ch[2].status, RCTL_TUNE_PENDING);
	rctl_tune_plan_free(&q);
	assert_string_equal(get(p.ch[1].path), "new1\n");
	assert_int_equal(rctl_tune_revert(&d, name, &q, &e), 0);
	assert_string_equal(get(p.ch[0].path), "old0\n");
	assert_string_equal(get(p.ch[1].path), "old1\n");
	assert_string_equal(get(p.ch[2].path), "old\n");	/* never written, never "undone" */
	assert_int_equal(q.ch[2].status, RCTL_TUNE_PENDING);
	rctl_tune_plan_free(&q);
	rctl_tune_plan_free(&p);
	rctl_tune_dir_close(&d);
}

/* One apply or revert at a time per state directory. */
static void test_dir_lock(void **state)
{
	struct rctl_tune_dir d, d2;
	struct rctl_err e = { 0 };
	struct stat st;

	(void)state;
	open_sd(&d, "state5");
	assert_int_equal(stat(d.path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);	/* created so */
	assert_int_equal(rctl_tune_dir_open(&d2, d.path, false, &e), -EBUSY);
	assert_non_null(strstr(e.msg, "another tune apply or revert holds"));
	rctl_tune_dir_close(&d);
	assert_int_equal(rctl_tune_dir_open(&d2, d.path, false, &e), 0);
	rctl_tune_dir_close(&d2);
}


/*
 * Fixture "name" with its bnxt_re configfs cc/ directory made under the test
 * directory (ROCECTL_CONFIGFS), cc/apply in it, and the files given as
 * NULL-terminated name, text pairs; cc gets its path.
 */
static void bnxt_cc_tree(const char *name, struct rctl_host *h, char *cc, size_t len, ...)
{
	char cmd[400], f[320];
	const char *file;
	va_list ap;

	load(name, h);
	snprintf(cc, len, "%s/bnxt_re/bnxt_re0/ports/1/cc", dir);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s", cc);
	assert_int_equal(system(cmd), 0);
	setenv("ROCECTL_CONFIGFS", dir, 1);
	snprintf(h->netdevs[0].cc.path, sizeof(h->netdevs[0].cc.path), "%s", cc);
	snprintf(f, sizeof(f), "%s/apply", cc);
	put(f, "");
	va_start(ap, len);
	while ((file = va_arg(ap, const char *))) {
		snprintf(f, sizeof(f), "%s/%s", cc, file);
		put(f, va_arg(ap, const char *));
	}
	va_end(ap);
}

static void bnxt_cc_done(struct rctl_host *h, struct rctl_tune_plan *p, struct rctl_tune_plan *q,
			 struct rctl_tune_dir *d)
{
	unsetenv("ROCECTL_CONFIGFS");
	rctl_tune_plan_free(q);
	rctl_tune_plan_free(p);
	rctl_host_free(h);
	rctl_tune_dir_close(d);
}

/*
 * Broadcom's bnxt_re parses cc/ files with sscanf("%x") and shows "%#x"
 * (configfs.c 233.2.77.9): tune writes hex, commits with apply in the same
 * step, and rollback/revert write the old value in hex too. Through a
 * configfs root redirected with ROCECTL_CONFIGFS.
 */
static void test_bnxt_oot_hex_write(void **state)
{
	struct rctl_tune_plan p, q;
	struct rctl_err e = { 0 };
	char cc[256], f[320], sp[512] = "";	/* "": apply names a new state file */
	struct rctl_tune_dir d;
	struct rctl_host h;

	(void)state;
	bnxt_cc_tree("fault-bnxt-oot-cnp-dscp", &h, cc, sizeof(cc), "roce_dscp", "0x18\n", "cnp_dscp",
		     "0xa\n", NULL);
	plan_of(&h, &p);
	assert_int_equal(p.n_ch, 2);
	assert_string_equal(p.ch[0].new_text, "0x1a");	/* DSCP 26, not 0x26 = 38 */
	assert_string_equal(p.ch[0].old_text, "0x18");
	assert_string_equal(p.ch[1].new_text, "0x30");	/* 48; "48" would be 0x48 = 72: EINVAL */
	assert_string_equal(p.ch[1].from, "10");
	open_sd(&d, "state-hex");
	ok_or_say(rctl_tune_apply(&p, &d, sp, sizeof(sp), &e), &e);
	snprintf(f, sizeof(f), "%s/roce_dscp", cc);
	assert_string_equal(get(f), "0x1a\n");
	snprintf(f, sizeof(f), "%s/cnp_dscp", cc);
	assert_string_equal(get(f), "0x30\n");
	snprintf(f, sizeof(f), "%s/apply", cc);
	assert_string_equal(get(f), "1\n");
	ok_or_say(rctl_tune_revert(&d, sp, &q, &e), &e);
	snprintf(f, sizeof(f), "%s/roce_dscp", cc);
	assert_string_equal(get(f), "0x18\n");
	snprintf(f, sizeof(f), "%s/cnp_dscp", cc);
	/* a regular file is not truncated as an attribute is: compare the first line */
	assert_memory_equal(get(f), "0xa\n", 4);
	bnxt_cc_done(&h, &p, &q, &d);
}

/*
 * Broadcom's bnxt_re: ecn_marking 0 sends RoCE Not-ECT, which no switch marks
 * (configfs.c ecn_marking_store: sscanf("%x"), 3 and more EINVAL; committed
 * by apply). tune writes ECT(1), the fix check names, and revert writes 0x0.
 */
static void test_bnxt_oot_ecn_marking(void **state)
{
	struct rctl_tune_plan p, q;
	struct rctl_err e = { 0 };
	char cc[256], f[320], sp[512] = "";	/* "": apply names a new state file */
	struct rctl_tune_dir d;
	struct rctl_host h;

	(void)state;
	bnxt_cc_tree("fault-bnxt-oot-not-ect", &h, cc, sizeof(cc), "ecn_marking", "0\n", NULL);
	plan_of(&h, &p);
	assert_int_equal(p.n_ch, 1);
	assert_string_equal(p.ch[0].setting, "ecn_marking");
	assert_int_equal(rctl_tune_setting_id(&p.ch[0]), RCTL_SET_ECN_MARKING);
	assert_string_equal(p.ch[0].old_text, "0");
	assert_string_equal(p.ch[0].new_text, "0x1");
	open_sd(&d, "state-ecn-marking");
	ok_or_say(rctl_tune_apply(&p, &d, sp, sizeof(sp), &e), &e);
	snprintf(f, sizeof(f), "%s/ecn_marking", cc);
	assert_string_equal(get(f), "0x1\n");
	snprintf(f, sizeof(f), "%s/apply", cc);
	assert_string_equal(get(f), "1\n");
	ok_or_say(rctl_tune_revert(&d, sp, &q, &e), &e);
	snprintf(f, sizeof(f), "%s/ecn_marking", cc);
	assert_memory_equal(get(f), "0\n", 2);
	bnxt_cc_done(&h, &p, &q, &d);
}

/*
 * ice: the first DSCP entry switches to DSCP mode and resets ETS; deleting
 * the last loads defaults (ice_dcb_nl.c). So the APP entries come first,
 * ETS and PFC are written after them, and undo takes the APP entries back
 * before ETS and PFC are restored.
 */
static void test_ice_app_before_ets(void **state)
{
	struct rctl_tune_plan p;
	enum rctl_family f;
	unsigned int i;

	(void)state;
	plan_file("fault-ice-no-dscp", &p);
	assert_int_equal(p.n_ch, 5);
	assert_int_equal(p.ch[0].op, RCTL_TUNE_APP_ADD);
	assert_int_equal(p.ch[1].op, RCTL_TUNE_APP_ADD);
	/*
	 * After the switch prio 3 is on TC 3 (identity) with the VLAN shares
	 * written again (TC 3 0 %): a share, named, not written (issue 37.2).
	 */
	assert_int_equal(p.ch[2].op, RCTL_TUNE_ETS);
	assert_string_equal(p.ch[2].setting, "tc-bw");
	assert_string_equal(p.ch[2].command, "dcb ets set dev ens5f0np0 tc-bw 0:25 3:25");
	assert_true(p.ch[2].skip[0] && strstr(p.ch[2].warning, "switches 'ens5f0np0' to DSCP mode"));
	assert_int_equal(p.ch[3].op, RCTL_TUNE_ETS);
	assert_int_equal(p.ch[3].old_prio_tc[3], 1);	/* revert restores the original map */
	assert_int_equal(p.ch[3].new_prio_tc[3], 1);
	assert_int_equal(p.ch[4].op, RCTL_TUNE_PFC);
	assert_int_equal(p.ch[4].old_val, 1u << 3);
	for (i = 0; i < p.n_ch; i++)
		assert_string_equal(p.ch[i].driver, "ice");
	f = rctl_family_of_driver(p.ch[0].driver);
	assert_int_equal(f, RCTL_FAM_ICE);
	assert_true(rctl_setting_undo_rank(f, RCTL_PHASE_APP) >
		    rctl_setting_undo_rank(f, RCTL_PHASE_ETS));
	assert_true(rctl_setting_undo_rank(f, RCTL_PHASE_APP) >
		    rctl_setting_undo_rank(f, RCTL_PHASE_PFC));
	/* elsewhere undo is the reverse of apply: APP last in, first out */
	assert_true(rctl_setting_undo_rank(RCTL_FAM_MLX5, RCTL_PHASE_APP) >
		    rctl_setting_undo_rank(RCTL_FAM_MLX5, RCTL_PHASE_PFC));
	assert_true(rctl_setting_undo_rank(RCTL_FAM_MLX5, RCTL_PHASE_PFC) >
		    rctl_setting_undo_rank(RCTL_FAM_MLX5, RCTL_PHASE_ETS));
	{
		uint32_t order[5];

		rctl_tune_undo_order(&p, order);
		/* the APP adds (last first), then PFC, then ETS */
		assert_int_equal(order[0], 1);
		assert_int_equal(order[1], 0);
		assert_int_equal(order[2], 4);
	}
	rctl_tune_plan_free(&p);
}

/*
 * A firmware/LLD agent owns DCB: bnxt_en and ice refuse the write, mlx5's
 * firmware (mode 0x0c, no HOST bit) negotiates over it. Skipped with the
 * vendor tool, never needs_force; lldpad alone still needs --force.
 */
/* Elsewhere the undo order is the reverse of the plan. */
static void test_undo_order_reverse(void **state)
{
	struct rctl_tune_plan p;
	uint32_t order[8], i;
	struct rctl_host h;

	(void)state;
	load("mlx5-upstream-healthy", &h);
	h.netdevs[0].pause.rx = true;
	h.netdevs[0].pfc.pfc_en[3] = false;
	h.devs[0].ports[0].cm.roce_tos = 0;
	plan_of(&h, &p);
	assert_int_equal(p.n_ch, 3);
	rctl_tune_undo_order(&p, order);
	for (i = 0; i < p.n_ch; i++)
		assert_int_equal(order[i], p.n_ch - 1 - i);
	rctl_tune_plan_free(&p);
	rctl_host_free(&h);
}

static void test_firmware_dcb_skipped(void **state)
{
	static const char *const fx[] = { "fault-ice-fw-lldp", "fault-mlx5-fw-dcbx" };
	static const char *const tool[] = { "fw-lldp-agent off", "dcb dcbx set dev ens1f0np0 host" };
	struct rctl_tune_plan p;
	unsigned int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		plan_file(fx[i], &p);
		assert_int_equal(p.n_ch, 1);
		assert_int_equal(p.ch[0].op, RCTL_TUNE_PFC);
		assert_false(p.ch[0].needs_force);
		assert_non_null(strstr(p.ch[0].skip, "firmware DCBX agent owns DCB"));
		assert_non_null(strstr(p.ch[0].skip, tool[i]));
		assert_int_equal(rctl_tune_plan_active(&p), 0);
		rctl_tune_plan_free(&p);
	}
}

/* One classifier for every driver-name question. */
static void test_family_of(void **state)
{
	static const struct {
		const char *fixture;
		enum rctl_family f;
	} want[] = {
		{ "mlx5-upstream-healthy", RCTL_FAM_MLX5 }, { "mlx5-ofed-healthy", RCTL_FAM_MLX5_OFED },
		{ "bnxt-healthy", RCTL_FAM_BNXT }, { "bnxt-oot-healthy", RCTL_FAM_BNXT_OOT },
		{ "ice-irdma-healthy", RCTL_FAM_ICE_OOT },
	};
	struct rctl_host h;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		load(want[i].fixture, &h);
		assert_int_equal(rctl_family_of(&h.devs[0], &h.netdevs[0]), want[i].f);
		rctl_host_free(&h);
	}
	assert_int_equal(rctl_family_of_driver("rxe"), RCTL_FAM_RXE);
	assert_int_equal(rctl_family_of_driver("veth"), RCTL_FAM_UNKNOWN);
	assert_int_equal(rctl_setting_row(RCTL_SET_CNP_DSCP, RCTL_FAM_BNXT_OOT)->base, 16);
	assert_int_equal(rctl_setting_row(RCTL_SET_CNP_DSCP, RCTL_FAM_MLX5)->base, 10);
	/* a vendor variant falls back to its inbox row */
	assert_ptr_equal(rctl_setting_row(RCTL_SET_PFC, RCTL_FAM_ICE_OOT),
			 rctl_setting_row(RCTL_SET_PFC, RCTL_FAM_ICE));
}

/* ---- tune apply --plan ------------------------------------------------- */

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
		"\"parts\": [{\"part\": \"intent\", \"hash\": \"0000000000000001\"}]}}",
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
		cmocka_unit_test(test_healthy_empty),
		cmocka_unit_test(test_pfc_off),
		cmocka_unit_test(test_dscp_two_prios),
		cmocka_unit_test(test_trust_pcp_adds),
		cmocka_unit_test(test_mlx5_dscp_replace),
		cmocka_unit_test(test_bnxt_dscp_add_then_del),
		cmocka_unit_test(test_app_undo),
		cmocka_unit_test(test_ice_dscp_del_then_add),
		cmocka_unit_test(test_lldpad_needs_force),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_unsupported_skipped),
		cmocka_unit_test(test_ets_move),
		cmocka_unit_test(test_state_round_trip),
		cmocka_unit_test(test_state_of_every_plan),
		cmocka_unit_test_setup_teardown(test_apply_rollback, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_persist, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_persist_config_path, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_apply_revert, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_write_truncates, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_killed_temp_swept, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_revert_retries_failed_undo, setup_dir,
						teardown_dir),
		cmocka_unit_test_setup_teardown(test_killed_apply_reverts_what_ran, setup_dir,
						teardown_dir),
		cmocka_unit_test_setup_teardown(test_dir_lock, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_bnxt_oot_hex_write, setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(test_bnxt_oot_ecn_marking, setup_dir, teardown_dir),
		cmocka_unit_test(test_ice_app_before_ets),
		cmocka_unit_test(test_tos_connections),
		cmocka_unit_test_setup_teardown(test_tos_history_dir, setup_dir, teardown_dir),
		cmocka_unit_test(test_firmware_dcb_skipped),
		cmocka_unit_test(test_undo_order_reverse),
		cmocka_unit_test(test_family_of),
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
