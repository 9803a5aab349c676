// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's NVMe-oF host (lib/nvme_host.c): the "address" and timer
 * attributes as drivers/nvme/host/fabrics.c nvmf_get_address() and core.c
 * show them (Linux 6.1), and a whole fake sysfs (ROCECTL_SYSFS) with two
 * RDMA paths, a TCP controller and a PCIe one. Its secrets (dhchap_secret,
 * dhchap_ctrl_secret, tls_key, tls_configured_key) are FIFOs without a
 * writer: opening one blocks, so reading it would hang the test (an alarm
 * turns that into a failure).
 */
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
#include "rocectl/snapshot.h"

static void test_address(void **state)
{
	struct rctl_nvme_ctrl c = { 0 };

	(void)state;
	assert_int_equal(rctl_nvme_parse_address("traddr=10.0.0.2,trsvcid=4420\n", &c), 0);
	assert_string_equal(c.traddr, "10.0.0.2");
	assert_string_equal(c.trsvcid, "4420");
	assert_string_equal(c.host_traddr, "");

	memset(&c, 0, sizeof(c));
	assert_int_equal(rctl_nvme_parse_address("traddr=fd00::2,trsvcid=4420,"
						 "host_traddr=fd00::1,host_iface=ens1f0np0", &c), 0);
	assert_string_equal(c.traddr, "fd00::2");
	assert_string_equal(c.host_traddr, "fd00::1");
	assert_string_equal(c.host_iface, "ens1f0np0");

	/* FC: "traddr=nn-0x..:pn-0x..,host_traddr=nn-..:pn-.." (fc.c) */
	memset(&c, 0, sizeof(c));
	assert_int_equal(rctl_nvme_parse_address("traddr=nn-0x20000090fa942779:pn-0x10000090fa942779,"
						 "host_traddr=nn-0x1:pn-0x2", &c), 0);
	assert_string_equal(c.host_traddr, "nn-0x1:pn-0x2");

	/* a key of a later kernel is passed over; a PCIe address is no list */
	memset(&c, 0, sizeof(c));
	assert_int_equal(rctl_nvme_parse_address("traddr=1.2.3.4,src_addr=1.2.3.5", &c), 0);
	assert_string_equal(c.traddr, "1.2.3.4");
	assert_int_equal(rctl_nvme_parse_address("0000:01:00.0", &c), -EINVAL);
	assert_int_equal(rctl_nvme_parse_address("=x", &c), -EINVAL);
	assert_int_equal(rctl_nvme_parse_address("host_iface=an-interface-name-longer-than-32-bytes",
						 &c), -ENAMETOOLONG);
	assert_int_equal(rctl_nvme_parse_address("", &c), 0);
}

static void test_tmo(void **state)
{
	int32_t v = 7;

	(void)state;
	assert_int_equal(rctl_nvme_parse_tmo("off", &v), 0);
	assert_int_equal(v, RCTL_NVME_TMO_OFF);
	assert_int_equal(rctl_nvme_parse_tmo("600", &v), 0);
	assert_int_equal(v, 600);
	assert_int_equal(rctl_nvme_parse_tmo("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(rctl_nvme_parse_tmo("-1", &v), -EINVAL);
	assert_int_equal(rctl_nvme_parse_tmo("Off", &v), -EINVAL);
	assert_int_equal(rctl_nvme_parse_tmo("4294967296", &v), -ERANGE);
}

static char dir[] = "/tmp/rocectl-test-nvme-XXXXXX";

static void put(const char *d, const char *file, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, d, file);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void mk(const char *d)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "mkdir -p %s/%s", dir, d);
	assert_int_equal(system(cmd), 0);
}

/* A secret: a FIFO nobody writes, so open(O_RDONLY) blocks. */
static void secret(const char *d, const char *file)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s/%s", dir, d, file);
	assert_int_equal(mkfifo(path, 0600), 0);
}

static void fake_ctrl(const char *name, const char *transport, const char *address,
		      const char *state, const char *loss)
{
	char d[64];

	snprintf(d, sizeof(d), "class/nvme/%s", name);
	mk(d);
	put(d, "transport", transport);
	put(d, "state", state);
	put(d, "address", address);
	put(d, "subsysnqn", "nqn.2014-08.org.rocectl:lab\n");
	put(d, "cntlid", "1\n");
	put(d, "queue_count", "3\n");
	put(d, "sqsize", "127\n");
	put(d, "kato", "5\n");
	put(d, "ctrl_loss_tmo", loss);
	put(d, "reconnect_delay", "10\n");
	put(d, "fast_io_fail_tmo", "off\n");
	secret(d, "dhchap_secret");
	secret(d, "dhchap_ctrl_secret");
	secret(d, "tls_key");
	secret(d, "tls_configured_key");
}

static void fake_tree(void)
{
	char cmd[600];

	assert_non_null(mkdtemp(dir));
	fake_ctrl("nvme0", "rdma\n", "traddr=127.0.0.1,trsvcid=4420\n", "live\n", "600\n");
	fake_ctrl("nvme1", "rdma\n", "traddr=10.1.0.2,trsvcid=4420,host_iface=ens2\n",
		  "connecting\n", "off\n");
	fake_ctrl("nvme2", "tcp\n", "traddr=127.0.0.1,trsvcid=4420,host_traddr=127.0.0.1\n",
		  "live\n", "600\n");
	mk("class/nvme/nvme3");
	put("class/nvme/nvme3", "transport", "pcie\n");
	secret("class/nvme/nvme3", "state");	/* a PCIe controller is not read */
	mk("class/nvme/nvme0/nvme0c0n1");
	put("class/nvme/nvme0/nvme0c0n1", "nsid", "1\n");
	put("class/nvme/nvme0/nvme0c0n1", "ana_state", "optimized\n");
	mk("class/nvme/nvme1/nvme1c1n1");
	put("class/nvme/nvme1/nvme1c1n1", "nsid", "1\n");
	put("class/nvme/nvme1/nvme1c1n1", "ana_state", "inaccessible\n");
	mk("class/nvme-subsystem/nvme-subsys0");
	put("class/nvme-subsystem/nvme-subsys0", "subsysnqn", "nqn.2014-08.org.rocectl:lab\n");
	put("class/nvme-subsystem/nvme-subsys0", "iopolicy", "numa\n");
	snprintf(cmd, sizeof(cmd), "cd %s/class/nvme-subsystem/nvme-subsys0 && "
		 "ln -s ../../nvme/nvme0 nvme0 && ln -s ../../nvme/nvme1 nvme1 && "
		 "mkdir nvme0n1", dir);
	assert_int_equal(system(cmd), 0);
	mk("class/nvme-subsystem/nvme-subsys1");
	put("class/nvme-subsystem/nvme-subsys1", "subsysnqn", "nqn.2014-08.org.rocectl:tcp\n");
	put("class/nvme-subsystem/nvme-subsys1", "iopolicy", "round-robin\n");
	snprintf(cmd, sizeof(cmd), "ln -s ../../nvme/nvme2 %s/class/nvme-subsystem/nvme-subsys1/nvme2",
		 dir);
	assert_int_equal(system(cmd), 0);
	mk("class/nvme-fabrics/ctl");
	mk("module/nvme_core/parameters");
	put("module/nvme_core/parameters", "multipath", "Y\n");
	setenv("ROCECTL_SYSFS", dir, 1);
}

static void test_collect(void **state)
{
	struct rctl_err e = { 0 };
	struct rctl_host h = { 0 }, h2 = { 0 };
	const struct rctl_nvme_ctrl *c;
	char cmd[600], *t1, *t2;

	(void)state;
	fake_tree();
	alarm(20);	/* a secret opened blocks: fail instead of hanging */
	assert_int_equal(rctl_nvme_collect(&h, &e), 0);
	alarm(0);
	assert_true(h.nvme.st.ok);
	assert_true(h.nvme.fabrics);
	assert_int_equal(h.nvme.multipath, 1);
	assert_int_equal(h.nvme.n_ctrls, 3);	/* nvme3 is PCIe */

	c = &h.nvme.ctrls[0];
	assert_string_equal(c->name, "nvme0");
	assert_string_equal(c->transport, "rdma");
	assert_string_equal(c->state, "live");
	assert_string_equal(c->traddr, "127.0.0.1");
	assert_string_equal(c->trsvcid, "4420");
	assert_int_equal(c->queue_count, 3);
	assert_int_equal(c->sqsize, 127);
	assert_int_equal(c->kato, 5);
	assert_int_equal(c->ctrl_loss_tmo, 600);
	assert_int_equal(c->reconnect_delay, 10);
	assert_int_equal(c->fast_io_fail_tmo, RCTL_NVME_TMO_OFF);
	assert_string_equal(c->subsys, "nvme-subsys0");
	assert_string_equal(c->netdev, "lo");	/* the kernel's route to 127.0.0.1 */
	assert_string_equal(c->netdev_by, "route");

	c = &h.nvme.ctrls[1];
	assert_string_equal(c->state, "connecting");
	assert_int_equal(c->ctrl_loss_tmo, RCTL_NVME_TMO_OFF);
	assert_string_equal(c->netdev, "ens2");
	assert_string_equal(c->netdev_by, "host_iface");

	c = &h.nvme.ctrls[2];
	assert_string_equal(c->transport, "tcp");
	assert_string_equal(c->subsys, "nvme-subsys1");
	assert_string_equal(c->netdev, "lo");
	assert_string_equal(c->netdev_by, "host_traddr");
	assert_string_equal(c->src, "127.0.0.1");

	assert_int_equal(h.nvme.n_subsys, 2);
	assert_string_equal(h.nvme.subsys[0].nqn, "nqn.2014-08.org.rocectl:lab");
	assert_string_equal(h.nvme.subsys[0].iopolicy, "numa");
	assert_int_equal(h.nvme.subsys[0].n_paths, 2);
	assert_string_equal(h.nvme.subsys[0].paths[0].name, "nvme0c0n1");
	assert_string_equal(h.nvme.subsys[0].paths[0].ctrl, "nvme0");
	assert_int_equal(h.nvme.subsys[0].paths[0].nsid, 1);
	assert_string_equal(h.nvme.subsys[0].paths[0].ana_state, "optimized");
	assert_string_equal(h.nvme.subsys[0].paths[1].ana_state, "inaccessible");
	assert_int_equal(h.nvme.subsys[1].n_paths, 0);

	/* through the snapshot and back: the same text */
	t1 = rctl_snapshot_text(&h, false);
	assert_int_equal(rctl_snapshot_parse(t1, "n", &h2, &e), 0);
	t2 = rctl_snapshot_text(&h2, false);
	assert_string_equal(t1, t2);
	free(t1);
	free(t2);
	rctl_host_free(&h);
	rctl_host_free(&h2);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* Without nvme_core: read, and nothing there. */
static void test_no_nvme(void **state)
{
	struct rctl_err e = { 0 };
	struct rctl_host h = { 0 };

	(void)state;
	setenv("ROCECTL_SYSFS", "/nonexistent-rocectl", 1);
	assert_int_equal(rctl_nvme_collect(&h, &e), 0);
	assert_true(h.nvme.st.ok);
	assert_false(h.nvme.fabrics);
	assert_int_equal(h.nvme.multipath, -1);
	assert_int_equal(h.nvme.n_ctrls, 0);
	rctl_host_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_address),
		cmocka_unit_test(test_tmo),
		cmocka_unit_test(test_collect),
		cmocka_unit_test(test_no_nvme),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
