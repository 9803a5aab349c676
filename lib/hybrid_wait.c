// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The adaptive completion wait (include/rocectl/hybrid_wait.h). A busy
 * poller holds a CPU the work it waits for (rxe, the target, other
 * processes) may need; a poller that sleeps on every idle moment pays a
 * wake-up per completion. Between the two: learn the interval at which
 * completions are found, sleep through part of it, poll for the rest.
 * Unlike the kernel's single sleep, it sleeps again for half of what is left
 * while that is still worth a sleep: each sleep ends before the completion is
 * expected, so latency pays no more than one sleep's error, and the poller
 * spins for a few sleep costs instead of half the interval.
 */
#include "rocectl/hybrid_wait.h"

static uint64_t ewma(uint64_t mean, uint64_t sample)
{
	if (sample >= mean)
		return mean + ((sample - mean) >> RCTL_HWAIT_SHIFT);
	return mean - ((mean - sample) >> RCTL_HWAIT_SHIFT);
}

void rctl_hwait_init(struct rctl_hwait *h, uint64_t cost_ns)
{
	*h = (struct rctl_hwait){ .cost_ns = cost_ns };
}

void rctl_hwait_reaped(struct rctl_hwait *h, uint64_t now, unsigned int n)
{
	uint64_t gap, per;

	if (h->last_reap && now > h->last_reap) {
		gap = now - h->last_reap;
		/*
		 * One long pause (a target that stalled, a run's start) must
		 * not make the next sleeps long: a sample counts at most
		 * RCTL_HWAIT_CLAMP means, so a real slow-down still wins in
		 * a few samples.
		 */
		if (h->interval_ns && gap > h->interval_ns * RCTL_HWAIT_CLAMP)
			gap = h->interval_ns * RCTL_HWAIT_CLAMP;
		h->interval_ns = h->interval_ns ? ewma(h->interval_ns, gap) : gap;
		per = gap / (n ? n : 1);
		h->per_io_ns = h->per_io_ns ? ewma(h->per_io_ns, per) : per;
	}
	h->last_reap = now;
	h->idle_planned = h->period_open = h->period_slept = false;
}

/* A new idle period's first plan counts it; one that never sleeps counts as polled. */
static void count_period(struct rctl_hwait *h)
{
	if (h->period_open)
		return;
	h->period_open = true;
	h->idles++;
}

bool rctl_hwait_event(struct rctl_hwait *h, unsigned int outstanding)
{
	if (outstanding < 2 || !h->per_io_ns ||
	    outstanding * h->per_io_ns < RCTL_HWAIT_EVENT_COVER * h->cost_ns)
		return false;
	count_period(h);
	if (!h->period_slept) {
		h->slept_idles++;
		h->event_idles++;
	}
	h->period_slept = true;
	h->events++;
	return true;
}

uint64_t rctl_hwait_plan(struct rctl_hwait *h, uint64_t now)
{
	uint64_t remaining, elapsed, ask;

	if (h->idle_planned || !h->interval_ns || !h->last_reap)
		return 0;
	count_period(h);
	elapsed = now > h->last_reap ? now - h->last_reap : 0;
	remaining = h->interval_ns > elapsed ? h->interval_ns - elapsed : 0;
	/* part of what is left, waking one cost early: a sleep overshoots by about that */
	ask = remaining * RCTL_HWAIT_FRAC_NUM / RCTL_HWAIT_FRAC_DEN;
	ask = ask > h->cost_ns ? ask - h->cost_ns : 0;
	/* shorter than what it overshoots: completions come faster than a sleep resolves */
	if (ask < h->cost_ns || ask < RCTL_HWAIT_MIN_NS) {
		h->idle_planned = true;		/* poll until the next completion */
		if (h->period_slept || ++h->declined < RCTL_HWAIT_PROBE_EVERY)
			return 0;
		ask = RCTL_HWAIT_MIN_NS;
	}
	h->declined = 0;
	if (!h->period_slept)
		h->slept_idles++;
	h->period_slept = true;
	return ask < RCTL_HWAIT_MAX_NS ? ask : RCTL_HWAIT_MAX_NS;
}

/*
 * A wake-up's delay has a long tail (a loaded host, a vCPU descheduled while
 * idle): a late wake costs the queue a whole idle period, an early one a
 * little spinning. So the cost rises half the way to a larger overshoot and
 * falls an eighth of the way to a smaller one.
 */
void rctl_hwait_slept(struct rctl_hwait *h, uint64_t asked, uint64_t took)
{
	uint64_t over = took > asked ? took - asked : 0;

	h->sleeps++;
	h->slept_ns += took;
	if (over > h->cost_ns)
		h->cost_ns += (over - h->cost_ns) >> RCTL_HWAIT_COST_UP_SHIFT;
	else
		h->cost_ns = ewma(h->cost_ns, over);
}
