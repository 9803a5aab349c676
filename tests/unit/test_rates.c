// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of counter arithmetic: deltas, 32-bit wrap, resets, rates, lookup. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "rocectl/counters.h"

static void test_plain_delta(void **state)
{
	uint64_t d = 99;

	assert_true(rctl_counter_delta(10, 25, 64, &d));
	assert_int_equal(d, 15);
	assert_true(rctl_counter_delta(7, 7, 32, &d));
	assert_int_equal(d, 0);
	/* Exact far above 2^53, where a double would round. */
	assert_true(rctl_counter_delta(UINT64_MAX - 5, UINT64_MAX, 64, &d));
	assert_int_equal(d, 5);
}

static void test_wrap32(void **state)
{
	uint64_t d = 0;

	assert_true(rctl_counter_delta(UINT32_MAX - 9, 5, 32, &d));
	assert_int_equal(d, 15);
	assert_true(rctl_counter_delta(UINT32_MAX, 0, 32, &d));
	assert_int_equal(d, 1);
	assert_true(rctl_counter_delta(1, 0, 32, &d));
	assert_int_equal(d, UINT32_MAX);
}

/* A 64-bit counter going backwards was reset: no delta, never a huge one. */
static void test_reset(void **state)
{
	uint64_t d = 42;

	assert_false(rctl_counter_delta(1000, 3, 64, &d));
	assert_int_equal(d, 0);
	/* A "32-bit" counter above 2^32 cannot have wrapped at 2^32. */
	assert_false(rctl_counter_delta((uint64_t)1 << 33, 3, 32, &d));
}

static void test_rate(void **state)
{
	assert_true(rctl_counter_rate(100, 2.0) == 50.0);
	assert_true(rctl_counter_rate(0, 1.0) == 0.0);
	assert_true(rctl_counter_rate(100, 0) == 0.0);
	assert_true(rctl_counter_rate(100, -1) == 0.0);
	assert_true(rctl_counter_rate(3, 0.5) == 6.0);
}

static void test_find(void **state)
{
	struct rctl_counter c[3] = { { .name = "a" }, { .name = "sent_pkts", .value = 7 },
				     { .name = "b" } };

	assert_ptr_equal(rctl_counter_find(c, 3, "sent_pkts"), &c[1]);
	assert_null(rctl_counter_find(c, 3, "sent"));
	assert_null(rctl_counter_find(NULL, 0, "a"));
}

/* The refusal needs no kernel: it is decided before any sampling. */
static void test_interval_vs_lifespan(void **state)
{
	struct rctl_port p[2] = { { .port = 1, .hw_lifespan_ms = 12 },
				  { .port = 2, .hw_lifespan_ms = 250 } };
	struct rctl_device d = { .name = "rxe0", .ports = p, .n_ports = 2 };
	struct rctl_host h = { .devs = &d, .n_devs = 1 };
	struct rctl_err e = { 0 };

	assert_int_equal(rctl_counters_lifespan_ms(&h), 250);
	assert_int_equal(rctl_sample_deltas(&h, 0.2, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "shorter than the hw_counters lifespan (250 ms)"));
	assert_int_equal(rctl_sample_deltas(&h, 0, &e), -EINVAL);
	assert_int_equal(rctl_sample_deltas(&h, -1, &e), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_delta),
		cmocka_unit_test(test_wrap32),
		cmocka_unit_test(test_reset),
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_interval_vs_lifespan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
