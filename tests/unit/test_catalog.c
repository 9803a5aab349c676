// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the counter catalogue: per-driver semantics, patterns, groups. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "rocectl/catalog.h"
#include "rocectl/model.h"

static const struct rctl_centry *hw(const char *drv, const char *name)
{
	return rctl_catalog_lookup(drv, RCTL_SRC_HW, name);
}

static void test_rxe(void **state)
{
	const struct rctl_centry *c = hw("rxe", "sent_pkts");

	assert_int_equal(c->group, RCTL_CG_TRAFFIC);
	assert_false(c->bad);
	c = hw("rxe", "out_of_seq_request");
	assert_int_equal(c->group, RCTL_CG_LOSS);
	assert_true(c->bad);
	assert_true(hw("rxe", "completer_retry_err")->bad);
	assert_int_equal(hw("rxe", "send_rnr_err")->group, RCTL_CG_APPLICATION);
	assert_int_equal(hw("rxe", "link_downed")->group, RCTL_CG_LINK);
}

/*
 * The same name, keyed by driver (lib/catalog.c cites the files): mlx5 Q
 * counters are 32-bit, bnxt_re counters 64-bit; irdma accumulates its 32-bit
 * hardware counters into 64 bits itself.
 */
static void test_same_name_other_driver(void **state)
{
	const struct rctl_centry *m = hw("mlx5", "out_of_buffer");
	const struct rctl_centry *b = hw("bnxt_re", "out_of_buffer");

	assert_int_equal(m->group, RCTL_CG_APPLICATION);
	assert_int_equal(m->role, RCTL_ROLE_NO_WQE);
	assert_int_equal(b->role, RCTL_ROLE_NO_WQE);
	assert_string_not_equal(m->meaning, b->meaning);
	assert_int_equal(m->bits, 32);
	assert_int_equal(hw("mlx5", "np_cnp_sent")->bits, 64);
	assert_int_equal(hw("bnxt_re", "duplicate_request")->bits, 64);
	assert_int_equal(hw("irdma", "cnpSent")->bits, 64);
	/* rxe has no out_of_buffer at all: a name of another driver is "other". */
	assert_int_equal(hw("rxe", "out_of_buffer")->group, RCTL_CG_OTHER);
}

/* bnxt_re inbox (hw_counters.c) and Broadcom's out-of-tree (mlx5-style) names. */
static void test_bnxt_names(void **state)
{
	const char *inbox_loss[] = { "dup_req", "missing_resp", "oos_drop_count",
				     "to_retransmits", "seq_err_naks_rcvd" };
	const char *oot_loss[] = { "out_of_sequence", "packet_seq_err", "implied_nak_seq_err",
				   "local_ack_timeout_err", "duplicate_request", "roce_adp_retrans" };
	size_t i;

	for (i = 0; i < sizeof(inbox_loss) / sizeof(inbox_loss[0]); i++)
		assert_int_equal(hw("bnxt_re", inbox_loss[i])->role, RCTL_ROLE_LOSS);
	for (i = 0; i < sizeof(oot_loss) / sizeof(oot_loss[0]); i++)
		assert_int_equal(hw("bnxt_re", oot_loss[i])->role, RCTL_ROLE_LOSS);
	assert_int_equal(hw("bnxt_re", "rx_roce_discards")->role, RCTL_ROLE_DISCARD);
	assert_int_equal(hw("bnxt_re", "tx_cnp_pkts")->role, RCTL_ROLE_CNP_SENT);
	assert_int_equal(hw("bnxt_re", "np_cnp_sent")->role, RCTL_ROLE_CNP_SENT);
	assert_int_equal(hw("bnxt_re", "rp_cnp_ignored")->role, RCTL_ROLE_CNP_IGNORED);
	assert_true(hw("bnxt_re", "roce_adp_retrans_to")->bad);
	/* a name no bnxt_re driver has */
	assert_int_equal(hw("bnxt_re", "np_cnp_pkts")->group, RCTL_CG_OTHER);
	/* irdma spells it with a small r */
	assert_true(hw("irdma", "rxVlanErrors")->bad);
	assert_int_equal(hw("irdma", "RxVlanErrors")->group, RCTL_CG_OTHER);
}

static struct rctl_counter ctr(const char *name, uint64_t delta)
{
	struct rctl_counter c = { .delta = delta, .has_delta = true };

	snprintf(c.name, sizeof(c.name), "%s", name);
	return c;
}

/* Sums by role, per priority, with the counters that moved listed. */
static void test_sum_roles(void **state)
{
	struct rctl_counter c[] = {
		ctr("rx_prio3_pause", 12), ctr("rx_prio0_pause", 5), ctr("tx_prio3_pause", 7),
		ctr("tx_prio3_pause_duration", 900), ctr("rx_discards_phy", 0),
		ctr("rx_prio3_buf_discard", 4),
	};
	char which[128] = "";
	bool found;

	assert_int_equal(rctl_catalog_sum("mlx5_core", RCTL_SRC_ETHTOOL, RCTL_ROLE_PFC_RX, -1, c, 6,
					  &found, NULL, 0), 17);
	assert_true(found);
	assert_int_equal(rctl_catalog_sum("mlx5_core", RCTL_SRC_ETHTOOL, RCTL_ROLE_PFC_RX, 3, c, 6,
					  NULL, NULL, 0), 12);
	assert_int_equal(rctl_catalog_sum("mlx5_core", RCTL_SRC_ETHTOOL, RCTL_ROLE_PAUSE_US_TX, 3,
					  c, 6, NULL, NULL, 0), 900);
	assert_int_equal(rctl_catalog_sum("mlx5_core", RCTL_SRC_ETHTOOL, RCTL_ROLE_DISCARD, -1, c, 6,
					  &found, which, sizeof(which)), 4);
	assert_true(found);
	assert_string_equal(which, "rx_prio3_buf_discard +4");
	/* storm counters absent (a ConnectX-5 without stall_detect): not found */
	rctl_catalog_sum("mlx5_core", RCTL_SRC_ETHTOOL, RCTL_ROLE_STORM_ERR, -1, c, 6, &found,
			 NULL, 0);
	assert_false(found);
	/* the same names on another driver mean nothing */
	assert_int_equal(rctl_catalog_sum("bnxt_en", RCTL_SRC_ETHTOOL, RCTL_ROLE_PFC_RX, -1, c, 6,
					  NULL, NULL, 0), 0);
}

/* Every role has a name, for labels; none for NONE. */
static void test_role_names(void **state)
{
	int r;

	for (r = RCTL_ROLE_LOSS; r < RCTL_ROLE_N; r++)
		assert_true(strlen(rctl_crole_name(r)) > 0);
	assert_string_equal(rctl_crole_name(RCTL_ROLE_NONE), "");
	assert_string_equal(rctl_crole_name(RCTL_ROLE_PAUSE_US_TX), "pause_us_tx");
	assert_string_equal(rctl_crole_name(RCTL_ROLE_N), "");
}

/* reach asks without a driver: trouble on any driver counts. */
static void test_bad_any(void **state)
{
	assert_true(rctl_catalog_bad_any(RCTL_SRC_HW, "out_of_buffer"));
	assert_true(rctl_catalog_bad_any(RCTL_SRC_HW, "oos_drop_count"));
	assert_true(rctl_catalog_bad_any(RCTL_SRC_HW, "out_of_seq_request"));
	assert_false(rctl_catalog_bad_any(RCTL_SRC_HW, "rx_write_requests"));
	assert_false(rctl_catalog_bad_any(RCTL_SRC_HW, "np_cnp_sent"));
}

/* Pause statistics (ethtool netlink) mean the same on every driver; the source keys them. */
static void test_pause_any_driver(void **state)
{
	const struct rctl_centry *c = rctl_catalog_lookup("mlx5_core", RCTL_SRC_PAUSE,
							  "tx_pause_frames");

	assert_int_equal(c->group, RCTL_CG_PFC);
	assert_false(c->bad);
	assert_ptr_equal(c, rctl_catalog_lookup("bnxt_en", RCTL_SRC_PAUSE, "tx_pause_frames"));
	assert_int_equal(rctl_catalog_lookup("ice", RCTL_SRC_PAUSE, "rx_pause_frames")->group,
			 RCTL_CG_PFC);
	/* the same name as an ethtool -S string is not the pause statistic */
	assert_int_equal(rctl_catalog_lookup("veth", RCTL_SRC_ETHTOOL, "tx_pause_frames")->group,
			 RCTL_CG_OTHER);
}

static void test_unknown_is_other(void **state)
{
	const struct rctl_centry *c = hw("mlx5", "brand_new_counter");

	assert_int_equal(c->group, RCTL_CG_OTHER);
	assert_false(c->bad);
	assert_int_equal(c->bits, 64);
	assert_non_null(c->meaning);
	assert_int_equal(hw("nosuchdriver", "sent_pkts")->group, RCTL_CG_OTHER);
}

/* The source matters: link_downed is rxe hw and PMA, rx_out_of_buffer mlx5 ethtool. */
static void test_sources(void **state)
{
	assert_int_equal(rctl_catalog_lookup("rxe", RCTL_SRC_PMA, "link_downed")->group,
			 RCTL_CG_LINK);
	assert_int_equal(rctl_catalog_lookup("anything", RCTL_SRC_PMA, "port_xmit_data")->group,
			 RCTL_CG_TRAFFIC);
	assert_int_equal(rctl_catalog_lookup("mlx5_core", RCTL_SRC_ETHTOOL,
					     "rx_out_of_buffer")->group, RCTL_CG_APPLICATION);
	assert_int_equal(rctl_catalog_lookup("mlx5_core", RCTL_SRC_HW,
					     "rx_out_of_buffer")->group, RCTL_CG_OTHER);
}

static void test_digit_patterns(void **state)
{
	const char *ok[] = { "rx_prio0_pause", "tx_prio7_pause", "rx_prio3_pause_duration",
			     "rx_prio12_buf_discard" };
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		assert_int_not_equal(rctl_catalog_lookup("mlx5_core", RCTL_SRC_ETHTOOL,
							 ok[i])->group, RCTL_CG_OTHER);
	assert_int_equal(rctl_catalog_lookup("mlx5_core", RCTL_SRC_ETHTOOL,
					     "rx_prio3_pause")->group, RCTL_CG_PFC);
	/* '#' needs at least one digit, and nothing may trail. */
	assert_int_equal(rctl_catalog_lookup("mlx5_core", RCTL_SRC_ETHTOOL,
					     "rx_prio_pause")->group, RCTL_CG_OTHER);
	assert_int_equal(rctl_catalog_lookup("mlx5_core", RCTL_SRC_ETHTOOL,
					     "rx_prio3_pausex")->group, RCTL_CG_OTHER);
	assert_int_equal(rctl_catalog_lookup("mlx5_core", RCTL_SRC_ETHTOOL,
					     "rx_prioX_pause")->group, RCTL_CG_OTHER);
	assert_int_equal(rctl_catalog_lookup("ice", RCTL_SRC_ETHTOOL,
					     "rx_priority_3_xoff.nic")->group, RCTL_CG_PFC);
	assert_int_equal(hw("irdma", "ip6InDiscards")->group, RCTL_CG_BUFFER);
	assert_int_equal(rctl_catalog_lookup("veth", RCTL_SRC_ETHTOOL,
					     "rx_queue_0_drops")->group, RCTL_CG_LOSS);
}

static void test_group_names(void **state)
{
	int g;

	for (g = 0; g < RCTL_CG_N; g++) {
		assert_non_null(rctl_cgroup_names[g]);
		assert_int_equal(rctl_cgroup_parse(rctl_cgroup_name(g)), g);
	}
	assert_null(rctl_cgroup_names[RCTL_CG_N]);
	assert_int_equal(rctl_cgroup_parse("nope"), -1);
	assert_int_equal(rctl_cgroup_parse(""), -1);
	assert_string_equal(rctl_cgroup_name(RCTL_CG_PFC), "pfc");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rxe),
		cmocka_unit_test(test_same_name_other_driver),
		cmocka_unit_test(test_bnxt_names),
		cmocka_unit_test(test_sum_roles),
		cmocka_unit_test(test_bad_any),
		cmocka_unit_test(test_role_names),
		cmocka_unit_test(test_pause_any_driver),
		cmocka_unit_test(test_unknown_is_other),
		cmocka_unit_test(test_sources),
		cmocka_unit_test(test_digit_patterns),
		cmocka_unit_test(test_group_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
