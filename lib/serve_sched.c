// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The schedule of a serve worker (include/rocectl/serve_sched.h).
 */
#include "rocectl/rdma_ep.h"
#include "rocectl/serve.h"
#include "rocectl/serve_sched.h"

/* Messages since the last clock read buy polling time (RCTL_SERVE_SPIN_*). */
static void spin_credit(struct rctl_sched *s, uint64_t msgs)
{
	uint64_t fresh = msgs - s->credited;

	s->credited = msgs;
	if (!fresh)
		return;
	if (s->spin_end < s->now)
		s->spin_end = s->now;
	s->spin_end += fresh * RCTL_SERVE_SPIN_CREDIT_NS;
	if (s->spin_end > s->now + RCTL_SERVE_SPIN_MAX_NS)
		s->spin_end = s->now + RCTL_SERVE_SPIN_MAX_NS;
}

/*
 * The clock costs microseconds on HPET, so it is read once in
 * RCTL_SPINS_PER_CLOCK turns, busy or idle: a schedule that read it only
 * after RCTL_SPINS_PER_CLOCK empty polls in a row let a client that never
 * paused outlive its lifetime, holding its slot and a CPU.
 */
unsigned int rctl_sched_turn(struct rctl_sched *s, bool active, uint64_t msgs,
			     uint64_t (*clock_ns)(void))
{
	unsigned int act = 0;

	if (active)
		s->idle_since = 0;
	if (++s->turns % RCTL_SPINS_PER_CLOCK)
		return 0;
	s->now = clock_ns();
	if (s->now >= s->deadline)
		return RCTL_SCHED_END;
	spin_credit(s, msgs);
	if (active)
		return 0;
	if (!s->idle_since)
		s->idle_since = s->now;
	if (s->now - s->idle_since > RCTL_SERVE_KEEPALIVE_NS)
		act |= RCTL_SCHED_PROBE;
	/*
	 * A yield hands the CPU to whatever else is runnable, for the rest of
	 * its slice: on a loaded host, milliseconds per message (lab, two CPU
	 * hogs: 100000 SEND round trips did not end in 100 s with it, took
	 * 14 s without; perftest's server never yields). Only on one CPU,
	 * where the client polls beside us, does it help.
	 */
	if (s->now >= s->spin_end)
		act |= RCTL_SCHED_REST;
	else if (s->one_cpu && s->now - s->idle_since > RCTL_YIELD_NS)
		act |= RCTL_SCHED_YIELD;
	return act;
}
