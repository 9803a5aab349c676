// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the netlink replies the counters collectors parse: ethtool
 * PAUSE_GET statistics and RDMA STAT_GET_STATUS optional counters, built
 * attribute by attribute as the kernel lays them out.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <rdma/rdma_netlink.h>

#include "rocectl/counters.h"

static char buf[4096];

/* A PAUSE_GET_REPLY: header nest, the pause bits, then the stats nest. */
static struct nlmsghdr *pause_reply(bool with_stats, bool extra)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	struct nlattr *n;

	g->cmd = ETHTOOL_MSG_PAUSE_GET_REPLY;
	n = mnl_attr_nest_start(nlh, ETHTOOL_A_PAUSE_HEADER);
	mnl_attr_put_u32(nlh, ETHTOOL_A_HEADER_DEV_INDEX, 7);
	mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, "eth2");
	mnl_attr_nest_end(nlh, n);
	mnl_attr_put_u8(nlh, ETHTOOL_A_PAUSE_RX, 1);
	mnl_attr_put_u8(nlh, ETHTOOL_A_PAUSE_TX, 1);
	if (!with_stats)
		return nlh;
	n = mnl_attr_nest_start(nlh, ETHTOOL_A_PAUSE_STATS);
	mnl_attr_put(nlh, ETHTOOL_A_PAUSE_STAT_PAD, 0, NULL);
	mnl_attr_put_u64(nlh, ETHTOOL_A_PAUSE_STAT_TX_FRAMES, 12345678901234567ULL);
	mnl_attr_put_u64(nlh, ETHTOOL_A_PAUSE_STAT_RX_FRAMES, 42);
	if (extra)	/* a statistic newer than our headers */
		mnl_attr_put_u64(nlh, ETHTOOL_A_PAUSE_STAT_RX_FRAMES + 1, 9);
	mnl_attr_nest_end(nlh, n);
	if (extra)	/* an attribute newer than our headers */
		mnl_attr_put_u32(nlh, ETHTOOL_A_PAUSE_MAX + 3, 1);
	return nlh;
}

static void test_pause_stats(void **state)
{
	struct rctl_counter_set s = { 0 };

	assert_int_equal(rctl_pause_stats_parse(pause_reply(true, false), &s), 0);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.c[0].name, "tx_pause_frames");
	assert_true(s.c[0].value == 12345678901234567ULL);
	assert_string_equal(s.c[1].name, "rx_pause_frames");
	assert_int_equal(s.c[1].value, 42);
	free(s.c);
}

/* Newer statistics and attributes are skipped, the known ones still read. */
static void test_pause_stats_newer(void **state)
{
	struct rctl_counter_set s = { 0 };

	assert_int_equal(rctl_pause_stats_parse(pause_reply(true, true), &s), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.c[1].value, 42);
	free(s.c);
}

/* A driver without get_pause_stats: no stats nest, nothing read, no error. */
static void test_pause_no_stats(void **state)
{
	struct rctl_counter_set s = { 0 };

	assert_int_equal(rctl_pause_stats_parse(pause_reply(false, false), &s), 0);
	assert_int_equal(s.n, 0);
	assert_null(s.c);
}

static void status_entry(struct nlmsghdr *nlh, const char *name, uint32_t idx, int dyn)
{
	struct nlattr *e = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY);

	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME, name);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX, idx);
	if (dyn >= 0)
		mnl_attr_put_u8(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC, dyn);
	mnl_attr_nest_end(nlh, e);
}

/* Only counters with HWCOUNTER_DYNAMIC are optional; its value is "enabled". */
static void test_opt_counters(void **state)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct rctl_opt_counters oc = { 0 };
	struct nlattr *t;

	nlh->nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_STAT_GET_STATUS);
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_DEV_INDEX, 0);
	mnl_attr_put_strz(nlh, RDMA_NLDEV_ATTR_DEV_NAME, "mlx5_0");
	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	t = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	status_entry(nlh, "out_of_sequence", 0, -1);
	status_entry(nlh, "cc_rx_ce_pkts", 1, 0);
	status_entry(nlh, "cc_rx_cnp_pkts", 2, 1);
	mnl_attr_nest_end(nlh, t);
	assert_int_equal(rctl_opt_counters_parse(nlh, &oc), MNL_CB_OK);
	assert_int_equal(oc.n, 2);
	assert_string_equal(oc.c[0].name, "cc_rx_ce_pkts");
	assert_false(oc.c[0].enabled);
	assert_string_equal(oc.c[1].name, "cc_rx_cnp_pkts");
	assert_true(oc.c[1].enabled);
	free(oc.c);
}

/* rxe on Linux 6.1: every counter listed, none optional. */
static void test_opt_counters_none(void **state)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct rctl_opt_counters oc = { 0 };
	struct nlattr *t;

	mnl_attr_put_u32(nlh, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
	t = mnl_attr_nest_start(nlh, RDMA_NLDEV_ATTR_STAT_HWCOUNTERS);
	status_entry(nlh, "sent_pkts", 0, -1);
	status_entry(nlh, "rcvd_pkts", 1, -1);
	mnl_attr_nest_end(nlh, t);
	assert_int_equal(rctl_opt_counters_parse(nlh, &oc), MNL_CB_OK);
	assert_int_equal(oc.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pause_stats),
		cmocka_unit_test(test_pause_stats_newer),
		cmocka_unit_test(test_pause_no_stats),
		cmocka_unit_test(test_opt_counters),
		cmocka_unit_test(test_opt_counters_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
