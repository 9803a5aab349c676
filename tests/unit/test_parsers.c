// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Regression tests of the parsers of outside input found by the hardening
 * audit: MLNX_OFED qos/dscp2prio (both shapes, and the %n misuse that read
 * past the buffer), dcbnl payloads read in place (misaligned u64s), nldev
 * attributes used without length or NUL checks.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <linux/dcbnl.h>
#include <linux/rtnetlink.h>
#include <rdma/rdma_netlink.h>

#include "rocectl/collect.h"
#include "rocectl/sysfs.h"

/* 8-byte aligned, so a payload at offset 28 is misaligned for a u64. */
static uint64_t nlbuf[1024];

/* Older MLNX_OFED: a header line, then "<dscp> <prio>" rows. */
static void test_dscp2prio_rows(void **state)
{
	char txt[2048];
	uint8_t map[64] = { 0 };
	size_t len = 0;
	int d;

	len += snprintf(txt + len, sizeof(txt) - len, "dscp\tprio\n");
	for (d = 0; d < 64; d++)
		len += snprintf(txt + len, sizeof(txt) - len, "%d\t%d\n", d,
				d == 26 ? 3 : d == 48 ? 6 : 0);
	assert_true(rctl_qos_parse_dscp2prio(txt, map));
	assert_int_equal(map[26], 3);
	assert_int_equal(map[48], 6);
	assert_int_equal(map[24], 0);
}

/* "prio:P dscp:D,D,..." lines. */
static void test_dscp2prio_prio_lines(void **state)
{
	uint8_t map[64] = { 0 };

	assert_true(rctl_qos_parse_dscp2prio("dscp2prio mapping:\n"
		"\tprio:0 dscp:07,06,05,04,03,02,01,00,\n"
		"\tprio:3 dscp:31,30,29,28,27,26,25,24,\n"
		"\tprio:6 dscp:55,54,53,52,51,50,49,48,", map));
	assert_int_equal(map[26], 3);
	assert_int_equal(map[48], 6);
	assert_int_equal(map[7], 0);
}

/*
 * The old parser added an unset %n to its read pointer when "prio:N" was
 * not followed by " dscp:", and walked past the end; a long run of zeros
 * in a real file did it every time. Every entry here is out of shape or
 * out of range: nothing may be read, nothing read past the text.
 */
static void test_dscp2prio_bad(void **state)
{
	static const char *const bad[] = {
		"prio:3", "prio:3 dscp", "prio:3 dscp:", "prio:9 dscp:26",
		"prio:3 dscp:64", "prio:3 dscp:-1", "prio:99999999999999999999 dscp:1",
		"26", "26 8", "64 3", "26 3 x", "-1 3", "prio:", "dscp:26",
		"",
	};
	uint8_t map[64];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(map, 0xee, sizeof(map));
		assert_false(rctl_qos_parse_dscp2prio(bad[i], map));
		assert_int_equal(map[26], 0xee);
	}
}

static void test_dscp2prio_zeros(void **state)
{
	size_t n = 100000, len;
	char *txt = malloc(n + 64);
	uint8_t map[64] = { 0 };

	assert_non_null(txt);
	/* "prio:000…0003 dscp:000…00026," then the same as a row. */
	len = (size_t)sprintf(txt, "prio:");
	memset(txt + len, '0', n / 2);
	len += n / 2;
	len += (size_t)sprintf(txt + len, "3 dscp:");
	memset(txt + len, '0', n / 2 - 64);
	len += n / 2 - 64;
	strcpy(txt + len, "26,\n");
	assert_true(rctl_qos_parse_dscp2prio(txt, map));
	assert_int_equal(map[26], 3);
	/* Zeros with no end: one long number, value 0, no entry of its own. */
	memset(txt, '0', n);
	txt[n] = '\0';
	assert_false(rctl_qos_parse_dscp2prio(txt, map));
	free(txt);
}

static struct nlmsghdr *dcb_msg(void)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(nlbuf);
	struct dcbmsg *dm = mnl_nlmsg_put_extra_header(nlh, sizeof(*dm));

	nlh->nlmsg_type = RTM_GETDCB;
	dm->cmd = DCB_CMD_IEEE_GET;
	return nlh;
}

/*
 * PFC at offset 28 of an 8-aligned buffer: its u64 counters are misaligned
 * (UBSan aborted on the old in-place read in the ASan build).
 */
static void test_dcb_misaligned_pfc(void **state)
{
	struct nlmsghdr *nlh = dcb_msg();
	struct ieee_pfc pfc = { .pfc_cap = 8, .pfc_en = 1 << 3 };
	struct rctl_netdev nd = { 0 };
	struct nlattr *n;

	pfc.requests[3] = 0x1122334455667788ull;
	n = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
	mnl_attr_put(nlh, DCB_ATTR_IEEE_PFC, sizeof(pfc), &pfc);
	mnl_attr_nest_end(nlh, n);
	mnl_attr_put_u8(nlh, DCB_ATTR_DCBX, 0x0d);
	assert_int_equal((uintptr_t)mnl_attr_get_payload(
		(struct nlattr *)((char *)nlbuf + 24)) % 8, 4);
	assert_int_equal(rctl_dcb_parse(nlh, &nd), 0);
	assert_true(nd.pfc.st.ok);
	assert_true(nd.pfc.pfc_en[3] && !nd.pfc.pfc_en[2]);
	assert_true(nd.pfc.requests[3] == 0x1122334455667788ull);
	assert_true(nd.dcbx.st.ok && nd.dcbx.mode == 0x0d);
	assert_false(nd.ets.st.ok);
	free(nd.app.apps);
}

/* A short PFC and a DCBX of the wrong size are "not reported", not read. */
static void test_dcb_short(void **state)
{
	struct nlmsghdr *nlh = dcb_msg();
	struct rctl_netdev nd = { 0 };
	uint8_t junk[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	struct nlattr *n;

	n = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
	mnl_attr_put(nlh, DCB_ATTR_IEEE_PFC, sizeof(junk), junk);
	mnl_attr_nest_end(nlh, n);
	mnl_attr_put_u32(nlh, DCB_ATTR_DCBX, 0x0d);
	assert_int_equal(rctl_dcb_parse(nlh, &nd), 0);
	assert_false(nd.pfc.st.ok);
	assert_false(nd.dcbx.st.ok);
}

/* dcbnl's reply to a SET: the driver's return value as DCB_ATTR_IEEE u8. */
static struct nlmsghdr *dcb_set_reply(int driver_ret)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(nlbuf);
	struct dcbmsg *dm = mnl_nlmsg_put_extra_header(nlh, sizeof(*dm));

	nlh->nlmsg_type = RTM_SETDCB;
	dm->cmd = DCB_CMD_IEEE_SET;
	mnl_attr_put_u8(nlh, DCB_ATTR_IEEE, (uint8_t)driver_ret);
	return nlh;
}

/* ice answers setapp 1 (ICE_DCB_NO_HW_CHG) and delapp 2 (ICE_DCB_HW_CHG) on success. */
static void test_dcb_set_status(void **state)
{
	struct nlmsghdr *nlh;

	assert_int_equal(rctl_dcb_set_status(dcb_set_reply(0)), 0);
	assert_int_equal(rctl_dcb_set_status(dcb_set_reply(1)), 0);
	assert_int_equal(rctl_dcb_set_status(dcb_set_reply(2)), 0);
	assert_int_equal(rctl_dcb_set_status(dcb_set_reply(-EINVAL)), -EINVAL);
	assert_int_equal(rctl_dcb_set_status(dcb_set_reply(-EOPNOTSUPP)), -EOPNOTSUPP);
	assert_int_equal(rctl_dcb_set_status(dcb_set_reply(-EBUSY)), -EBUSY);
	nlh = mnl_nlmsg_put_header(nlbuf);	/* no dcbmsg: nothing to read */
	assert_int_equal(rctl_dcb_set_status(nlh), 0);
}

static struct nlmsghdr *nldev_msg(void)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(nlbuf);

	nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET);
	return nlh;
}

/* /proc/net/unix lines (Linux 6.1 unix_seq_show()): lldpad's socket, its client's, others. */
static void test_unix_line_lldpad(void **state)
{
	(void)state;
	assert_true(rctl_unix_line_lldpad("0000000000000000: 00000002 00000000 00000000 0002 01 "
					  "21345 @/com/intel/lldpad\n"));
	assert_false(rctl_unix_line_lldpad("0000000000000000: 00000002 00000000 00000000 0002 01 "
					   "21399 @/com/intel/lldpad/812\n"));
	assert_false(rctl_unix_line_lldpad("0000000000000000: 00000002 00000000 00010000 0001 01 "
					   "18772 /run/lldpd.socket\n"));
	assert_false(rctl_unix_line_lldpad("0000000000000000: 00000003 00000000 00000000 0001 03 "
					   "22011\n"));
	assert_false(rctl_unix_line_lldpad("Num       RefCount Protocol Flags    Type St Inode Path\n"));
}

static bool is_nf_tables(const char *line)
{
	return rctl_nft_builtin(line);
}

/* modules.builtin read line by line, the last without its newline; a missing file is -ENOENT. */
static void test_file_any_line(void **state)
{
	char path[] = "/tmp/rocectl-lines-XXXXXX";
	int fd = mkstemp(path);
	static const char txt[] = "kernel/net/netfilter/nfnetlink.ko\n"
				  "kernel/net/netfilter/nf_tables_set.ko\n"
				  "kernel/net/netfilter/nf_tables.ko";

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(rctl_file_any_line(path, is_nf_tables), 0);
	assert_int_equal(write(fd, txt, sizeof(txt) - 1), (ssize_t)sizeof(txt) - 1);
	close(fd);
	assert_int_equal(rctl_file_any_line(path, is_nf_tables), 1);
	unlink(path);
	assert_int_equal(rctl_file_any_line(path, is_nf_tables), -ENOENT);
}

static void test_nldev_dev(void **state)
{
	struct nlmsghdr *nlh = nldev_msg();
	struct rctl_host h = { 0 };

	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 4);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0");
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_FW_VERSION, "22.39.1002");
	mnl_attr_put_u64(nlh, RDMA_NLDEV_ATTR_NODE_GUID, 0x0c42a10300112233ull);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_DEV_NODE_TYPE, 1);
	assert_int_equal(rctl_rdma_parse_dev(nlh, &h), 0);
	assert_int_equal(h.n_devs, 1);
	assert_string_equal(h.devs[0].name, "mlx5_0");
	assert_string_equal(h.devs[0].fw, "22.39.1002");
	assert_string_equal(h.devs[0].node_guid, "0c42:a103:0011:2233");
	assert_string_equal(h.devs[0].node_type, "ca");
	rctl_host_free(&h);
}

/*
 * A name without its NUL (the old code printed it with %s and read on), an
 * index of two bytes and a GUID of four: none of them is read.
 */
static void test_nldev_dev_malformed(void **state)
{
	struct nlmsghdr *nlh = nldev_msg();
	struct rctl_host h = { 0 };
	uint16_t idx = 4;

	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 4);
	mnl_attr_put(nlh, RDMA_NLDEV_ATTR_DEV_NAME, 8, "mlx5_0XX");
	assert_int_equal(rctl_rdma_parse_dev(nlh, &h), 0);
	assert_int_equal(h.n_devs, 0);

	nlh = nldev_msg();
	mnl_attr_put(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, sizeof(idx), &idx);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0");
	assert_int_equal(rctl_rdma_parse_dev(nlh, &h), 0);
	assert_int_equal(h.n_devs, 0);

	nlh = nldev_msg();
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 4);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0");
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_NODE_GUID, 7);
	mnl_attr_put(nlh, RDMA_NLDEV_ATTR_FW_VERSION, 3, "abc");
	assert_int_equal(rctl_rdma_parse_dev(nlh, &h), 0);
	assert_int_equal(h.n_devs, 1);
	assert_string_equal(h.devs[0].node_guid, "");
	assert_string_equal(h.devs[0].fw, "");
	rctl_host_free(&h);
}

static void test_nldev_port(void **state)
{
	struct nlmsghdr *nlh = nldev_msg();
	struct rctl_device d = { 0 };

	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_PORT_STATE, 4);
	mnl_attr_put(nlh, RDMA_NLDEV_ATTR_NDEV_NAME, 4, "eth0");	/* no NUL */
	mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_NDEV_INDEX, 9);		/* u8, not u32 */
	assert_int_equal(rctl_rdma_parse_port(nlh, &d), 0);
	assert_int_equal(d.n_ports, 1);
	assert_string_equal(d.ports[0].state, "ACTIVE");
	assert_string_equal(d.ports[0].netdev, "");
	assert_int_equal(d.ports[0].netdev_ifindex, 0);
	free(d.ports);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dscp2prio_rows),
		cmocka_unit_test(test_dscp2prio_prio_lines),
		cmocka_unit_test(test_dscp2prio_bad),
		cmocka_unit_test(test_dscp2prio_zeros),
		cmocka_unit_test(test_dcb_misaligned_pfc),
		cmocka_unit_test(test_dcb_short),
		cmocka_unit_test(test_dcb_set_status),
		cmocka_unit_test(test_unix_line_lldpad),
		cmocka_unit_test(test_file_any_line),
		cmocka_unit_test(test_nldev_dev),
		cmocka_unit_test(test_nldev_dev_malformed),
		cmocka_unit_test(test_nldev_port),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
