// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The congestion-control collector on trees laid out as the drivers make
 * them: inbox bnxt_re's debugfs cc_config/ (drivers/infiniband/hw/bnxt_re/
 * debugfs.c: one "%d\n" file per parameter, under the PCI name), and the
 * reason given when mlx5's 0600 cc_params are refused under lockdown.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "rocectl/collect.h"

static char tree[] = "/tmp/rocectl-cc-XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX], *s;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tree, rel);
	for (s = path + strlen(tree) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void host_one(struct rctl_host *h, const char *driver, const char *pci)
{
	struct rctl_device *d;
	struct rctl_netdev *nd;

	memset(h, 0, sizeof(*h));
	d = rctl_arr_push(&h->devs, &h->n_devs, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "bnxt_re0");
	snprintf(d->driver, sizeof(d->driver), "%s", driver);
	rctl_arr_push(&d->ports, &d->n_ports, sizeof(*d->ports));
	d->ports[0].port = 1;
	snprintf(d->ports[0].netdev, sizeof(d->ports[0].netdev), "ens2f0np0");
	nd = rctl_arr_push(&h->netdevs, &h->n_netdevs, sizeof(*nd));
	snprintf(nd->name, sizeof(nd->name), "ens2f0np0");
	snprintf(nd->pci, sizeof(nd->pci), "%s", pci);
}

static int setup(void **state)
{
	char dir[PATH_MAX];

	if (!mkdtemp(tree))
		return -1;
	snprintf(dir, sizeof(dir), "%s/debug", tree);
	setenv("ROCECTL_DEBUGFS", dir, 1);
	snprintf(dir, sizeof(dir), "%s/config", tree);	/* no bnxt_re/ in it: inbox */
	setenv("ROCECTL_CONFIGFS", dir, 1);
	setenv("ROCECTL_SYSFS", tree, 1);
	return 0;
}

/* Inbox bnxt_re: cc_config read, normalized to the names the rules use. */
static void test_bnxt_inbox_debugfs(void **state)
{
	static const char *const files[][2] = {
		{ "enable_cc", "1\n" }, { "tos_ecn", "1\n" }, { "tos_dscp", "26\n" },
		{ "alt_vlan_pcp", "6\n" }, { "alt_vlan_dscp", "48\n" }, { "cc_mode", "1\n" },
		{ "rtt", "40\n" },
	};
	struct rctl_err e = { 0 };
	struct rctl_host h;
	struct rctl_cc *cc;
	char rel[128];
	uint64_t v;
	size_t i;

	mkdir(getenv("ROCECTL_CONFIGFS"), 0755);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(rel, sizeof(rel), "debug/bnxt_re/0000:41:00.0/cc_config/%s", files[i][0]);
		put(rel, files[i][1]);
	}
	host_one(&h, "bnxt_re", "0000:41:00.0");
	cc = &h.netdevs[0].cc;
	assert_int_equal(rctl_cc_collect(&h, &e), 0);
	assert_true(cc->st.ok);
	assert_string_equal(cc->source, "bnxt_re-debugfs");
	assert_non_null(strstr(cc->path, "/bnxt_re/0000:41:00.0/cc_config"));
	assert_true(rctl_cc_get(cc, "ecn_enable", &v) && v == 1);
	assert_true(rctl_cc_get(cc, "roce_dscp", &v) && v == 26);
	assert_true(rctl_cc_get(cc, "np_cnp_prio", &v) && v == 6);
	assert_true(rctl_cc_get(cc, "np_cnp_dscp", &v) && v == 48);
	assert_false(cc->enable_known);		/* no per-priority enables on bnxt */
	rctl_host_free(&h);

	/* another function without cc_config: unknown, and why */
	host_one(&h, "bnxt_re", "0000:41:00.1");
	cc = &h.netdevs[0].cc;
	assert_int_equal(rctl_cc_collect(&h, &e), 0);
	assert_false(cc->st.ok);
	assert_int_equal(cc->st.err, ENOENT);
	assert_non_null(strstr(cc->st.reason, "before Linux 6.15"));
	rctl_host_free(&h);
}

/* mlx5 cc_params refused: lockdown is named when it is on, root otherwise. */
static void test_lockdown_reason(void **state)
{
	char buf[160];

	put("kernel/security/lockdown", "none [integrity] confidentiality\n");
	assert_non_null(rctl_cc_denied_reason(-EPERM, buf, sizeof(buf)));
	assert_non_null(strstr(buf, "kernel lockdown (integrity"));
	assert_non_null(strstr(buf, "0600"));
	put("kernel/security/lockdown", "[none] integrity confidentiality\n");
	assert_string_equal(rctl_cc_denied_reason(-EACCES, buf, sizeof(buf)), "needs root");
	assert_string_equal(rctl_cc_denied_reason(EPERM, buf, sizeof(buf)),
			    "not permitted (not root)");
	assert_null(rctl_cc_denied_reason(-ENOENT, buf, sizeof(buf)));
}

static int cleanup(void **state)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree);
	return system(cmd) ? -1 : 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bnxt_inbox_debugfs),
		cmocka_unit_test(test_lockdown_reason),
	};

	return cmocka_run_group_tests(tests, setup, cleanup);
}
