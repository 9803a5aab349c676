// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of a serve worker's schedule (lib/serve_sched.c), turn by turn
 * on a clock the test drives: a client that never pauses is ended at its
 * lifetime, the clock is read once in RCTL_SPINS_PER_CLOCK turns, an idle
 * client is probed and rested, messages buy a bounded spin.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "rocectl/rdma_ep.h"
#include "rocectl/serve.h"
#include "rocectl/serve_sched.h"

static uint64_t fake_now, clock_reads;

/* The test's clock: 1 us passes per read, as a worker's turns take time. */
static uint64_t test_clock(void)
{
	clock_reads++;
	fake_now += 1000;
	return fake_now;
}

static void reset(uint64_t start)
{
	fake_now = start;
	clock_reads = 0;
}

/*
 * Busy on every turn, one message per turn, time jumping 1 ms per turn: the
 * turn that first reads a clock past the deadline ends the client.
 */
static void test_busy_client_ends_at_lifetime(void **state)
{
	struct rctl_sched s = { .deadline = 5000000000ull };
	uint64_t turn, ended = 0;
	unsigned int act;

	reset(4000000000ull);
	for (turn = 1; turn <= 100 * RCTL_SPINS_PER_CLOCK; turn++) {
		fake_now += 1000000;
		act = rctl_sched_turn(&s, true, turn, test_clock);
		if (act) {
			ended = turn;
			break;
		}
	}
	assert_int_not_equal(ended, 0);
	assert_int_equal(act, RCTL_SCHED_END);
	assert_true(s.now >= s.deadline);
	/* within one clock period of the deadline */
	assert_true(s.now - s.deadline <= RCTL_SPINS_PER_CLOCK * 1001000ull);
}

/* The clock costs microseconds on HPET: one read per RCTL_SPINS_PER_CLOCK turns. */
static void test_clock_read_rarely(void **state)
{
	struct rctl_sched s = { .deadline = UINT64_MAX };
	unsigned int i;

	reset(1);
	for (i = 0; i < 10 * RCTL_SPINS_PER_CLOCK; i++)
		rctl_sched_turn(&s, i % 2, i, test_clock);
	assert_int_equal(clock_reads, 10);
}

/* Idle: rest once the spin its messages bought is spent, probe after the keepalive. */
static void test_idle_rests_and_probes(void **state)
{
	struct rctl_sched s = { .deadline = UINT64_MAX };
	unsigned int i, act = 0;

	reset(1000);
	/* one message: 2 ms of spin credit, then rest */
	for (i = 0; i < RCTL_SPINS_PER_CLOCK; i++)
		act = rctl_sched_turn(&s, true, 1, test_clock);
	assert_int_equal(act, 0);
	assert_true(s.spin_end > s.now);
	assert_true(s.spin_end - s.now <= RCTL_SERVE_SPIN_CREDIT_NS);
	for (i = 0; i < RCTL_SPINS_PER_CLOCK; i++)
		act = rctl_sched_turn(&s, false, 1, test_clock);
	assert_int_equal(act, 0);	/* still within the credit */
	fake_now += RCTL_SERVE_SPIN_CREDIT_NS;
	for (i = 0; i < RCTL_SPINS_PER_CLOCK; i++)
		act = rctl_sched_turn(&s, false, 1, test_clock);
	assert_int_equal(act, RCTL_SCHED_REST);
	fake_now += RCTL_SERVE_KEEPALIVE_NS;
	for (i = 0; i < RCTL_SPINS_PER_CLOCK; i++)
		act = rctl_sched_turn(&s, false, 1, test_clock);
	assert_int_equal(act, RCTL_SCHED_PROBE | RCTL_SCHED_REST);
}

/* A burst buys at most RCTL_SERVE_SPIN_MAX_NS of polling. */
static void test_spin_credit_capped(void **state)
{
	struct rctl_sched s = { .deadline = UINT64_MAX };
	unsigned int i;

	reset(1000);
	for (i = 0; i < RCTL_SPINS_PER_CLOCK; i++)
		rctl_sched_turn(&s, true, 1000000, test_clock);
	assert_int_equal(s.spin_end - s.now, RCTL_SERVE_SPIN_MAX_NS);
}

/* On one CPU an idle worker within its credit yields to the client beside it. */
static void test_one_cpu_yields(void **state)
{
	struct rctl_sched s = { .deadline = UINT64_MAX, .one_cpu = true };
	unsigned int i, act = 0;

	reset(1000);
	for (i = 0; i < RCTL_SPINS_PER_CLOCK; i++)
		rctl_sched_turn(&s, true, 1, test_clock);
	for (i = 0; i < RCTL_SPINS_PER_CLOCK; i++)
		rctl_sched_turn(&s, false, 1, test_clock);
	fake_now += RCTL_YIELD_NS + 1;
	for (i = 0; i < RCTL_SPINS_PER_CLOCK; i++)
		act = rctl_sched_turn(&s, false, 1, test_clock);
	assert_int_equal(act, RCTL_SCHED_YIELD);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_busy_client_ends_at_lifetime),
		cmocka_unit_test(test_clock_read_rarely),
		cmocka_unit_test(test_idle_rests_and_probes),
		cmocka_unit_test(test_spin_credit_capped),
		cmocka_unit_test(test_one_cpu_yields),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
