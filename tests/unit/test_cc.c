// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading congestion control (lib/cc.c) through a redirected configfs:
 * Broadcom's out-of-tree bnxt_re shows every cc/ file with "%#x" ("0x1a",
 * and "0" for zero) and parses it with "%x" (bnxt_re/configfs.c,
 * 233.2.77.9): the reads take the files in that form, as tune writes them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "rocectl/collect.h"
#include "rocectl/snapshot.h"

static char dir[] = "/tmp/rocectl-test-cc-XXXXXX";

static void put(const char *cc, const char *file, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", cc, file);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static uint64_t param(const struct rctl_cc *cc, const char *name)
{
	uint64_t v = UINT64_MAX;

	assert_true(rctl_cc_get(cc, name, &v));
	return v;
}

static void test_bnxt_oot_hex(void **state)
{
	struct rctl_err e = { 0 };
	struct rctl_netdev *nd;
	struct rctl_host h;
	char cc[400], cmd[512];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(cc, sizeof(cc), "%s/bnxt_re/bnxt_re0/ports/1/cc", dir);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s", cc);
	assert_int_equal(system(cmd), 0);
	put(cc, "ecn_enable", "0x1\n");
	put(cc, "cc_mode", "0x1\n");
	put(cc, "roce_prio", "0x3\n");
	put(cc, "roce_dscp", "0x1a\n");
	put(cc, "cnp_prio", "0x6\n");
	put(cc, "cnp_dscp", "0x30\n");
	put(cc, "ecn_marking", "0\n");
	setenv("ROCECTL_CONFIGFS", dir, 1);
	setenv("ROCECTL_SYSFS", dir, 1);	/* no MLNX_OFED ecn/ tree */
	assert_int_equal(rctl_snapshot_load("tests/fixtures/hosts/bnxt-oot-healthy.json", &h, &e), 0);
	nd = &h.netdevs[0];
	free(nd->cc.params);
	memset(&nd->cc, 0, sizeof(nd->cc));
	assert_int_equal(rctl_cc_collect(&h, &e), 0);
	assert_true(nd->cc.st.ok);
	assert_string_equal(nd->cc.source, "bnxt_re-configfs");
	assert_int_equal(param(&nd->cc, "roce_dscp"), 26);
	assert_int_equal(param(&nd->cc, "roce_prio"), 3);
	assert_int_equal(param(&nd->cc, "np_cnp_prio"), 6);
	assert_int_equal(param(&nd->cc, "np_cnp_dscp"), 48);
	assert_int_equal(param(&nd->cc, "ecn_marking"), 0);
	rctl_host_free(&h);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bnxt_oot_hex),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
