// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SR-IOV VF detection of the qos collector (docs/roce-facts.md, "SR-IOV VFs") on a sysfs tree laid out as
 * the kernel does (ROCECTL_SYSFS): a VF's device/physfn links to its PF's PCI
 * device, whose net/ holds the PF's netdev.
 */
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

static char tree[64];

static void mkdirs(const char *rel)
{
	char path[PATH_MAX], *p;

	snprintf(path, sizeof(path), "%s/%s", tree, rel);
	for (p = path + strlen(tree) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

static void link_at(const char *target, const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", tree, rel);
	assert_int_equal(symlink(target, path), 0);
}

static void add_netdev(struct rctl_host *h, const char *name)
{
	struct rctl_netdev *nd = rctl_arr_push(&h->netdevs, &h->n_netdevs, sizeof(*nd));

	assert_non_null(nd);
	snprintf(nd->name, sizeof(nd->name), "%s", name);
}

static void test_vf_and_pf(void **state)
{
	struct rctl_err e = { 0 };
	struct rctl_host h = { 0 };

	(void)state;
	mkdirs("devices/pci0000:3a/0000:3b:00.0/net/ens1f0np0");
	mkdirs("devices/pci0000:3a/0000:3b:00.2/net/ens1f0v0");
	link_at("../0000:3b:00.0", "devices/pci0000:3a/0000:3b:00.2/physfn");
	/* A VF whose PF has no netdev (bound to vfio-pci, say). */
	mkdirs("devices/pci0000:3a/0000:5e:00.0");
	mkdirs("devices/pci0000:3a/0000:5e:00.3/net/ens2v1");
	link_at("../0000:5e:00.0", "devices/pci0000:3a/0000:5e:00.3/physfn");
	mkdirs("class/net");
	link_at("../../devices/pci0000:3a/0000:3b:00.0/net/ens1f0np0", "class/net/ens1f0np0");
	link_at("../../devices/pci0000:3a/0000:3b:00.2/net/ens1f0v0", "class/net/ens1f0v0");
	link_at("../../devices/pci0000:3a/0000:5e:00.3/net/ens2v1", "class/net/ens2v1");
	link_at("../../../0000:3b:00.0", "devices/pci0000:3a/0000:3b:00.0/net/ens1f0np0/device");
	link_at("../../../0000:3b:00.2", "devices/pci0000:3a/0000:3b:00.2/net/ens1f0v0/device");
	link_at("../../../0000:5e:00.3", "devices/pci0000:3a/0000:5e:00.3/net/ens2v1/device");

	add_netdev(&h, "ens1f0np0");
	add_netdev(&h, "ens1f0v0");
	add_netdev(&h, "ens2v1");
	add_netdev(&h, "veth0");	/* not in this sysfs at all */
	assert_int_equal(rctl_qos_collect(&h, &e), 0);

	assert_false(h.netdevs[0].sriov_vf);
	assert_string_equal(h.netdevs[0].sriov_pf, "");
	assert_true(h.netdevs[1].sriov_vf);
	assert_string_equal(h.netdevs[1].sriov_pf, "ens1f0np0");
	assert_string_equal(h.netdevs[1].sriov_pf_pci, "0000:3b:00.0");
	assert_true(h.netdevs[2].sriov_vf);
	assert_string_equal(h.netdevs[2].sriov_pf, "");
	assert_string_equal(h.netdevs[2].sriov_pf_pci, "0000:5e:00.0");
	assert_false(h.netdevs[3].sriov_vf);
	rctl_host_free(&h);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tree, sizeof(tree), "/tmp/rocectl-sriov.XXXXXX");
	if (!mkdtemp(tree))
		return -1;
	return setenv("ROCECTL_SYSFS", tree, 1);
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	/* Only the tree this test made. */
	snprintf(cmd, sizeof(cmd), "rm -rf -- '%s'", tree);
	return system(cmd) ? -1 : 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vf_and_pf),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
