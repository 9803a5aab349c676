// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The watch loop of rocectl counters, driven as the command drives it but
 * with a scripted clock and a scripted reading: when it waits and how long,
 * when it samples and stops, and the deltas, rates, wraps and resets of the
 * samples it takes.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rocectl/counters_watch.h"

#define SEC 1000000000ull

/* What the next reading returns: out_of_sequence (32 bits on mlx5), a 64-bit one. */
struct script {
	uint64_t oos, big;
	int err;
	int reads;
};

static int read_scripted(struct rctl_host *h, void *arg, struct rctl_err *e)
{
	struct script *s = arg;
	struct rctl_port *p = &h->devs[0].ports[0];

	s->reads++;
	if (s->err)
		return rctl_err_strerror(e, s->err, "cannot read counters");
	p->hw = calloc(2, sizeof(*p->hw));
	assert_non_null(p->hw);
	p->n_hw = 2;
	strcpy(p->hw[0].name, "out_of_sequence");
	p->hw[0].value = s->oos;
	strcpy(p->hw[1].name, "some_new_counter");
	p->hw[1].value = s->big;
	return 0;
}

static struct rctl_port port = { .port = 1 };
static struct rctl_device dev = { .name = "mlx5_0", .driver = "mlx5", .ports = &port, .n_ports = 1 };
static struct rctl_host host = { .devs = &dev, .n_devs = 1 };

/* The first sample, as rctl_collect_counters() left it. */
static int first_sample(void **state)
{
	static struct script s;

	s = (struct script){ 0 };
	port.hw = calloc(1, sizeof(*port.hw));
	assert_non_null(port.hw);
	port.n_hw = 1;
	strcpy(port.hw[0].name, "out_of_sequence");
	port.hw[0].value = 100;
	host.sample_interval_s = 0;
	*state = &s;
	return 0;
}

static int drop_sample(void **state)
{
	(void)state;
	free(port.hw);
	port.hw = NULL;
	port.n_hw = 0;
	return 0;
}

static void start(struct rctl_watch *w, struct script *s, double every_s, uint64_t t0)
{
	rctl_watch_init(w, every_s, t0);
	w->read = read_scripted;
	w->arg = s;
}

static void test_waits_at_most_one_period(void **state)
{
	struct rctl_watch w;
	int ms = -1;

	start(&w, *state, 2.0, 10 * SEC);
	assert_int_equal(rctl_watch_next(&w, 10 * SEC, &ms), RCTL_WATCH_WAIT);
	assert_int_equal(ms, 2001);
	assert_int_equal(rctl_watch_next(&w, 10 * SEC + SEC / 2, &ms), RCTL_WATCH_WAIT);
	assert_int_equal(ms, 1501);
	/* a clock that went back never makes the wait longer than a period */
	assert_int_equal(rctl_watch_next(&w, 9 * SEC, &ms), RCTL_WATCH_WAIT);
	assert_int_equal(ms, 2001);
	assert_int_equal(rctl_watch_next(&w, 12 * SEC, &ms), RCTL_WATCH_SAMPLE);
	assert_int_equal(ms, 0);
	assert_int_equal(rctl_watch_next(&w, 30 * SEC, &ms), RCTL_WATCH_SAMPLE);
}

static void test_q_and_signals_stop(void **state)
{
	struct script *s = *state;
	struct rctl_watch w;
	struct rctl_err e = { 0 };
	int ms;

	start(&w, s, 1.0, 0);
	rctl_watch_key(&w, 'x');
	rctl_watch_key(&w, '\n');
	assert_int_equal(rctl_watch_next(&w, 0, &ms), RCTL_WATCH_WAIT);
	rctl_watch_key(&w, 'q');
	assert_int_equal(rctl_watch_next(&w, 0, &ms), RCTL_WATCH_STOP);
	assert_int_equal(w.stop, RCTL_WATCH_QUIT);
	/* the first reason stays; a stopped watch takes no sample */
	rctl_watch_stop(&w, RCTL_WATCH_SIGNAL);
	assert_int_equal(w.stop, RCTL_WATCH_QUIT);
	assert_int_equal(rctl_watch_sample(&w, &host, 5 * SEC, &e), 0);
	assert_int_equal(s->reads, 0);

	start(&w, s, 1.0, 0);
	rctl_watch_key(&w, 'Q');
	assert_int_equal(w.stop, RCTL_WATCH_QUIT);
	start(&w, s, 1.0, 0);
	rctl_watch_stop(&w, RCTL_WATCH_SIGNAL);
	assert_int_equal(rctl_watch_next(&w, 5 * SEC, &ms), RCTL_WATCH_STOP);
}

static void test_sample_deltas_and_rates(void **state)
{
	struct script *s = *state;
	struct rctl_err e = { 0 };
	struct rctl_watch w;
	int ms;

	start(&w, s, 2.0, 10 * SEC);
	s->oos = 350;
	s->big = 7;
	assert_int_equal(rctl_watch_sample(&w, &host, 10 * SEC + 5 * SEC / 2, &e), 1);
	assert_int_equal(w.samples, 1);
	assert_true(host.sample_interval_s == 2.5);
	assert_true(port.hw[0].has_delta);
	assert_int_equal(port.hw[0].delta, 250);
	assert_true(rctl_counter_rate(port.hw[0].delta, host.sample_interval_s) == 100.0);
	/* a counter the previous sample lacked has no delta yet */
	assert_false(port.hw[1].has_delta);
	/* the next one is due a period after this sample, not after the first */
	assert_int_equal(rctl_watch_next(&w, 14 * SEC + 4 * SEC / 10, &ms), RCTL_WATCH_WAIT);
	assert_int_equal(ms, 101);
	assert_int_equal(rctl_watch_next(&w, 14 * SEC + SEC / 2, &ms), RCTL_WATCH_SAMPLE);
}

static void test_wrap_and_reset(void **state)
{
	struct script *s = *state;
	struct rctl_err e = { 0 };
	struct rctl_watch w;

	start(&w, s, 1.0, 0);
	s->oos = 4294967290u;
	s->big = 1000;
	assert_int_equal(rctl_watch_sample(&w, &host, SEC, &e), 1);
	/* out_of_sequence is a 32-bit Q counter of mlx5: one wrap is corrected */
	s->oos = 5;
	s->big = 10;
	assert_int_equal(rctl_watch_sample(&w, &host, 2 * SEC, &e), 1);
	assert_true(port.hw[0].has_delta);
	assert_int_equal(port.hw[0].delta, 11);
	/* a 64-bit counter that went back was reset: no delta, not a huge one */
	assert_string_equal(port.hw[1].name, "some_new_counter");
	assert_false(port.hw[1].has_delta);
	assert_int_equal(port.hw[1].delta, 0);
	assert_int_equal(port.hw[1].value, 10);
}

static void test_failed_sample_stops_and_keeps_the_last(void **state)
{
	struct script *s = *state;
	struct rctl_err e = { 0 };
	struct rctl_watch w;
	int ms;

	start(&w, s, 1.0, 0);
	s->err = EIO;
	assert_int_equal(rctl_watch_sample(&w, &host, SEC, &e), -EIO);
	assert_int_equal(e.errnum, EIO);
	assert_int_equal(w.stop, RCTL_WATCH_ERROR);
	assert_int_equal(rctl_watch_next(&w, 2 * SEC, &ms), RCTL_WATCH_STOP);
	assert_int_equal(port.n_hw, 1);
	assert_int_equal(port.hw[0].value, 100);
	assert_true(host.sample_interval_s == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_waits_at_most_one_period, first_sample, drop_sample),
		cmocka_unit_test_setup_teardown(test_q_and_signals_stop, first_sample, drop_sample),
		cmocka_unit_test_setup_teardown(test_sample_deltas_and_rates, first_sample, drop_sample),
		cmocka_unit_test_setup_teardown(test_wrap_and_reset, first_sample, drop_sample),
		cmocka_unit_test_setup_teardown(test_failed_sample_stops_and_keeps_the_last,
						first_sample, drop_sample),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
