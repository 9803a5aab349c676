// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of traffic.lossless_share's judge (lib/rules_traffic_counters.c):
 * where RoCE went, from one direction's RoCE and per-priority packet counts;
 * and the catalogue rows it reads them by.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "rocectl/catalog.h"
#include "rocectl/rules.h"

static struct rctl_prio_share share(uint64_t roce, int prio, uint64_t n, int other, uint64_t m)
{
	struct rctl_prio_share s = { .roce = roce, .has_prio = true };

	s.prio[prio] = n;
	if (other >= 0)
		s.prio[other] = m;
	return s;
}

/* RoCE on 3, TCP on 0: the priority's counter holds RoCE and more. */
static void test_on(void **state)
{
	struct rctl_prio_share s = share(1075200, 3, 1075200, 0, 401);
	int top;

	assert_int_equal(rctl_share_judge(&s, 3, &top), RCTL_SHARE_ON);
	assert_int_equal(top, 0);
	s.prio[3] = 5000000; /* other functions' traffic on 3 too */
	assert_int_equal(rctl_share_judge(&s, 3, &top), RCTL_SHARE_ON);
}

/* Half is the threshold: exactly half passes, one packet less fails. */
static void test_half(void **state)
{
	struct rctl_prio_share s = share(1001, 3, 501, 0, 1000);
	int top;

	assert_int_equal(rctl_share_judge(&s, 3, &top), RCTL_SHARE_ON);
	s.prio[3] = 500;
	assert_int_equal(rctl_share_judge(&s, 3, &top), RCTL_SHARE_OFF);
	assert_int_equal(top, 0);
}

static void test_off(void **state)
{
	struct rctl_prio_share s = share(1073213, 3, 0, 0, 1075601);
	int top;

	s.prio[6] = 2304;
	assert_int_equal(rctl_share_judge(&s, 3, &top), RCTL_SHARE_OFF);
	assert_int_equal(top, 0);
	/* the RoCE priority is the intent's: the same counts pass for prio 0 */
	assert_int_equal(rctl_share_judge(&s, 0, &top), RCTL_SHARE_ON);
}

/* Below the minimum sample a direction is not judged, whatever the counts. */
static void test_few(void **state)
{
	struct rctl_prio_share s = share(RCTL_SHARE_MIN_PKTS - 1, 3, 0, 0, 5000);
	int top;

	assert_int_equal(rctl_share_judge(&s, 3, &top), RCTL_SHARE_FEW);
	assert_int_equal(top, -1);
	s.roce = RCTL_SHARE_MIN_PKTS;
	assert_int_equal(rctl_share_judge(&s, 3, &top), RCTL_SHARE_OFF);
}

/* No priority carried the RoCE packets: loopback or another scope, unknown. */
static void test_unplaced(void **state)
{
	struct rctl_prio_share s = share(100000, 3, 1000, 0, 2000);
	int top;

	assert_int_equal(rctl_share_judge(&s, 3, &top), RCTL_SHARE_UNPLACED);
}

static void test_no_counter(void **state)
{
	struct rctl_prio_share s = { .roce = 900000 };
	int top;

	assert_int_equal(rctl_share_judge(&s, 3, &top), RCTL_SHARE_NO_COUNTER);
}

/* Sums saturate: huge counts on every other priority never wrap to a pass. */
static void test_saturation(void **state)
{
	struct rctl_prio_share s = { .roce = UINT64_MAX, .has_prio = true };
	int q, top;

	for (q = 0; q < 8; q++)
		s.prio[q] = q == 3 ? 0 : UINT64_MAX;
	assert_int_equal(rctl_share_judge(&s, 3, &top), RCTL_SHARE_OFF);
	s.prio[3] = UINT64_MAX / 2 + 1;
	assert_int_equal(rctl_share_judge(&s, 3, &top), RCTL_SHARE_ON);
}

/* The catalogue rows: mlx5_core and bnxt_en count per priority, ice does not. */
static void test_catalog_rows(void **state)
{
	int prio;

	assert_int_equal(
		rctl_catalog_lookup_prio("mlx5_core", RCTL_SRC_ETHTOOL, "tx_prio3_packets", &prio)
			->role,
		RCTL_ROLE_PRIO_TX_PKTS);
	assert_int_equal(prio, 3);
	assert_int_equal(
		rctl_catalog_lookup("mlx5_core", RCTL_SRC_ETHTOOL, "rx_prio3_packets")->role,
		RCTL_ROLE_PRIO_RX_PKTS);
	assert_int_equal(rctl_catalog_lookup("bnxt_en", RCTL_SRC_ETHTOOL, "rx_packets_pri6")->role,
			 RCTL_ROLE_PRIO_RX_PKTS);
	/* CoS queue counters are not per priority */
	assert_int_equal(rctl_catalog_lookup("bnxt_en", RCTL_SRC_ETHTOOL, "rx_packets_cos1")->role,
			 RCTL_ROLE_NONE);
	assert_string_equal(
		rctl_catalog_role_counter("mlx5_core", RCTL_SRC_ETHTOOL, RCTL_ROLE_PRIO_RX_PKTS),
		"rx_prio#_packets");
	assert_string_equal(
		rctl_catalog_role_counter("bnxt_en", RCTL_SRC_ETHTOOL, RCTL_ROLE_PRIO_TX_PKTS),
		"tx_packets_pri#");
	assert_null(rctl_catalog_role_counter("ice", RCTL_SRC_ETHTOOL, RCTL_ROLE_PRIO_RX_PKTS));
	assert_string_equal(rctl_crole_name(RCTL_ROLE_PRIO_RX_PKTS), "prio_rx_packets");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_on),	   cmocka_unit_test(test_half),
		cmocka_unit_test(test_off),	   cmocka_unit_test(test_few),
		cmocka_unit_test(test_unplaced),   cmocka_unit_test(test_no_counter),
		cmocka_unit_test(test_saturation), cmocka_unit_test(test_catalog_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
