// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the adaptive completion wait (lib/hybrid_wait.c) on a clock
 * the test drives: the interval is learned, half of what is left of it is
 * slept, again after each sleep, waking one sleep cost early; completions faster than a sleep
 * resolves are polled for; the cost is measured on every sleep and probed
 * again after a long run of polling; one long pause moves the interval only
 * a bounded step.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "rocectl/hybrid_wait.h"

#define US 1000ull

/* Completions found every "gap" ns, n times, from *t on. */
static void reap_every(struct rctl_hwait *h, uint64_t *t, uint64_t gap, int n)
{
	while (n--) {
		*t += gap;
		rctl_hwait_reaped(h, *t, 1);
	}
}

/* A fresh wait of sleep cost "cost" that has seen n intervals of "gap": the time of the last reap. */
static uint64_t steady(struct rctl_hwait *h, uint64_t cost, uint64_t gap, int n)
{
	uint64_t t = 1000 * US;

	rctl_hwait_init(h, cost);
	rctl_hwait_reaped(h, t, 1);
	reap_every(h, &t, gap, n);
	return t;
}

static void test_no_interval_polls(void **state)
{
	struct rctl_hwait h;

	(void)state;
	rctl_hwait_init(&h, 10 * US);
	assert_int_equal(rctl_hwait_plan(&h, 1000 * US), 0);
	rctl_hwait_reaped(&h, 1000 * US, 1);	/* one reap: no interval yet */
	assert_int_equal(rctl_hwait_plan(&h, 1001 * US), 0);
	assert_int_equal(h.interval_ns, 0);
}

/*
 * Interval 100 us, cost 10 us, 2 us after the reap: sleep half of the 98 us
 * left, less the cost: 39 us; woken at 51 us, half of 49 less 10: 14.5 us;
 * woken at 75.5 us, 2.25 us would be less than the cost: polled to the reap.
 */
static void test_sleeps_half_of_what_is_left_minus_cost(void **state)
{
	struct rctl_hwait h;
	uint64_t t;

	(void)state;
	t = steady(&h, 10 * US, 100 * US, 20);
	assert_int_equal(h.interval_ns, 100 * US);
	assert_int_equal(rctl_hwait_plan(&h, t + 2 * US), 39 * US);
	rctl_hwait_slept(&h, 39 * US, 49 * US);
	assert_int_equal(h.cost_ns, 10 * US);
	assert_int_equal(rctl_hwait_plan(&h, t + 51 * US), 14500);
	rctl_hwait_slept(&h, 14500, 24500);
	assert_int_equal(rctl_hwait_plan(&h, t + 75500), 0);
	assert_int_equal(h.declined, 0);	/* a period that slept is no reason to probe */
	/* the rest of the period is polled, without planning again */
	assert_int_equal(rctl_hwait_plan(&h, t + 76 * US), 0);
	assert_true(h.idle_planned);
	assert_int_equal(h.idles, 1);
	assert_int_equal(h.slept_idles, 1);
	assert_int_equal(h.sleeps, 2);
	assert_int_equal(h.slept_ns, 59 * US + 14500);
	/* a sleep that overshot by 20 us: the cost rises half the way, to 15 us */
	rctl_hwait_slept(&h, 38 * US, 58 * US);
	assert_int_equal(h.cost_ns, 15 * US);
	/* one that overshot by 3 us: it falls an eighth of the way, to 13.5 us */
	rctl_hwait_slept(&h, 38 * US, 41 * US);
	assert_int_equal(h.cost_ns, 13500);
	/* the next reap opens a new idle period */
	rctl_hwait_reaped(&h, t + 100 * US, 1);
	assert_false(h.idle_planned);
	assert_int_equal(rctl_hwait_plan(&h, t + 100 * US), 50 * US - 13500);
	assert_int_equal(h.idles, 2);
	assert_int_equal(h.slept_idles, 2);
}

/* Interval 30 us, cost 10 us: a 5 us sleep overshoots more than it sleeps: poll. */
static void test_faster_than_a_sleep_polls(void **state)
{
	struct rctl_hwait h;
	uint64_t t;

	(void)state;
	t = steady(&h, 10 * US, 30 * US, 20);
	assert_int_equal(rctl_hwait_plan(&h, t), 0);
	assert_int_equal(h.idles, 1);
	assert_int_equal(h.sleeps, 0);
	/* with a cheap sleep the same interval is slept: 15 - 2 = 13 us */
	t = steady(&h, 2 * US, 30 * US, 20);
	assert_int_equal(rctl_hwait_plan(&h, t), 13 * US);
}

/* The queue went idle late in the interval: too little left to sleep. */
static void test_late_in_the_interval_polls(void **state)
{
	struct rctl_hwait h;
	uint64_t t;

	(void)state;
	t = steady(&h, 10 * US, 100 * US, 20);
	assert_int_equal(rctl_hwait_plan(&h, t + 65 * US), 0);
	assert_int_equal(h.idles, 1);
	assert_int_equal(h.slept_idles, 0);
}

/* Sleeps that overshoot by 50 us raise the cost until the 100 us interval is polled. */
static void test_cost_is_learned(void **state)
{
	struct rctl_hwait h;
	uint64_t t, ask;
	int i;

	(void)state;
	t = steady(&h, 1 * US, 100 * US, 20);
	for (i = 0; i < 100; i++) {
		ask = rctl_hwait_plan(&h, t);
		if (!ask)
			break;
		rctl_hwait_slept(&h, ask, ask + 50 * US);
		reap_every(&h, &t, 100 * US, 1);
	}
	assert_true(i > 0 && i < 100);
	assert_true(h.cost_ns > 24 * US && h.cost_ns <= 50 * US);
	assert_int_equal(h.sleeps, (uint64_t)i);
	assert_true(h.slept_ns >= (uint64_t)i * 50 * US);
}

/* A sleep never asked for beyond RCTL_HWAIT_MAX_NS, whatever the interval. */
static void test_sleep_is_bounded(void **state)
{
	struct rctl_hwait h;
	uint64_t t;

	(void)state;
	t = steady(&h, 10 * US, 100000 * US, 3);
	assert_int_equal(rctl_hwait_plan(&h, t), RCTL_HWAIT_MAX_NS);
}

/* One pause of a second among 100 us intervals: counted as 8 intervals at most. */
static void test_one_long_pause_is_clamped(void **state)
{
	struct rctl_hwait h;
	uint64_t t;

	(void)state;
	t = steady(&h, 10 * US, 100 * US, 20);
	reap_every(&h, &t, 1000000 * US, 1);
	assert_int_equal(h.interval_ns, 100 * US + (700 * US >> RCTL_HWAIT_SHIFT));
	/* and a burst of fast completions brings it down */
	reap_every(&h, &t, 5 * US, 60);
	assert_true(h.interval_ns < 10 * US);
	assert_int_equal(rctl_hwait_plan(&h, t), 0);
}

/* Polling because of the cost: every RCTL_HWAIT_PROBE_EVERY idle periods, one short sleep. */
static void test_cost_is_probed_again(void **state)
{
	struct rctl_hwait h;
	uint64_t t, ask;
	int i, probes = 0;

	(void)state;
	t = steady(&h, 200 * US, 100 * US, 20);
	for (i = 0; i < 2 * RCTL_HWAIT_PROBE_EVERY; i++) {
		ask = rctl_hwait_plan(&h, t);
		if (ask) {
			assert_int_equal(ask, RCTL_HWAIT_MIN_NS);
			probes++;
			rctl_hwait_slept(&h, ask, ask + 2 * US);	/* the load has gone */
		}
		reap_every(&h, &t, 100 * US, 1);
	}
	assert_int_equal(probes, 2);
	assert_true(h.cost_ns < 200 * US);
}

/*
 * 32 in flight, a completion every 50 us (two per reap of 100 us), wake-up
 * cost 300 us: 32 x 50 = 1600 us covers 4 x 300 = 1200 us, so the channel;
 * with 20 in flight (1000 us) it does not, nor does one command alone
 * however slow: its wake-up would be its latency.
 */
static void test_channel_when_in_flight_covers_wakeups(void **state)
{
	struct rctl_hwait h;
	uint64_t t = 1000 * US;
	int i;

	(void)state;
	rctl_hwait_init(&h, 300 * US);
	assert_false(rctl_hwait_event(&h, 32));		/* no rate known yet */
	rctl_hwait_reaped(&h, t, 2);
	for (i = 0; i < 20; i++) {
		t += 100 * US;
		rctl_hwait_reaped(&h, t, 2);
	}
	assert_int_equal(h.per_io_ns, 50 * US);
	assert_int_equal(h.interval_ns, 100 * US);
	assert_false(rctl_hwait_event(&h, 20));
	assert_int_equal(h.events, 0);
	assert_true(rctl_hwait_event(&h, 32));
	assert_true(rctl_hwait_event(&h, 32));		/* woken with nothing: waits again */
	assert_int_equal(h.events, 2);
	assert_int_equal(h.idles, 1);
	assert_int_equal(h.slept_idles, 1);
	assert_int_equal(h.event_idles, 1);
	/* the next reap opens a new period */
	rctl_hwait_reaped(&h, t + 100 * US, 2);
	assert_true(rctl_hwait_event(&h, 32));
	assert_int_equal(h.idles, 2);
	assert_int_equal(h.event_idles, 2);
	/* QD1: a completion every 10 ms against a 300 us wake-up, still polled or slept */
	rctl_hwait_init(&h, 300 * US);
	steady(&h, 300 * US, 10000 * US, 20);
	assert_false(rctl_hwait_event(&h, 1));
	assert_int_equal(h.events, 0);
	assert_int_not_equal(rctl_hwait_plan(&h, h.last_reap + 10 * US), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_interval_polls),
		cmocka_unit_test(test_sleeps_half_of_what_is_left_minus_cost),
		cmocka_unit_test(test_faster_than_a_sleep_polls),
		cmocka_unit_test(test_late_in_the_interval_polls),
		cmocka_unit_test(test_cost_is_learned),
		cmocka_unit_test(test_sleep_is_bounded),
		cmocka_unit_test(test_one_long_pause_is_clamped),
		cmocka_unit_test(test_cost_is_probed_again),
		cmocka_unit_test(test_channel_when_in_flight_covers_wakeups),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
