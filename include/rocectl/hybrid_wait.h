/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The adaptive completion wait of a queue (lib/hybrid_wait.c), as the
 * kernel's hybrid polling does it: measure the interval between the polls
 * that find completions, sleep for a fraction of what is left of it once the
 * queue has gone idle (again after each sleep), then poll. Where completions come faster than a sleep can resolve
 * (its cost: what it overshoots what was asked, measured on every sleep), it
 * only polls, unless the commands still in flight cover several wake-ups
 * (rctl_hwait_event()): then the caller waits on the completion channel,
 * which costs no CPU however late the wake-up, and the queue stays busy
 * meanwhile. Pure code: the caller reads the clock and sleeps, so the
 * decisions are tested on a clock the test drives
 * (tests/unit/test_hybrid_wait.c).
 */
#ifndef ROCECTL_HYBRID_WAIT_H
#define ROCECTL_HYBRID_WAIT_H

#include <stdbool.h>
#include <stdint.h>

#define RCTL_HWAIT_SHIFT 3		/* EWMA weight of a new sample: 1/8 */
#define RCTL_HWAIT_COST_UP_SHIFT 1	/* a larger overshoot than the cost weighs 1/2 */
#define RCTL_HWAIT_FRAC_NUM 1		/* sleep this fraction of what is left of the interval ... */
#define RCTL_HWAIT_FRAC_DEN 2		/* ... (the kernel's hybrid poll: half) */
#define RCTL_HWAIT_MIN_NS 1000ull	/* never ask for a shorter sleep */
#define RCTL_HWAIT_MAX_NS 5000000ull	/* nor a longer one: a stalled target is polled for */
#define RCTL_HWAIT_CLAMP 8		/* one interval sample counts at most 8x the mean */
#define RCTL_HWAIT_PROBE_EVERY 1024	/* polling for its cost: one short sleep to measure it anew */
#define RCTL_HWAIT_EVENT_COVER 4	/* the channel when the commands in flight last 4 wake-ups */

struct rctl_hwait {
	uint64_t interval_ns;	/* EWMA of the time between polls that found completions; 0: none yet */
	uint64_t per_io_ns;	/* EWMA of that time per completion found: 0 none yet */
	uint64_t cost_ns;	/* EWMA of a sleep's overshoot: the shortest sleep worth taking */
	uint64_t last_reap;	/* when the last completions were found; 0: never */
	bool idle_planned;	/* this idle period is polled to its end */
	bool period_open;	/* this idle period has been counted */
	bool period_slept;	/* and has slept */
	uint32_t declined;	/* idle periods in a row too short for a sleep */
	/* what it did, for the report */
	uint64_t idles;		/* idle periods decided */
	uint64_t slept_idles;	/* of those, the ones it slept in (the rest it polled) */
	uint64_t event_idles;	/* of those, the ones it waited on the completion channel in */
	uint64_t events;	/* waits on the channel, in all */
	uint64_t sleeps;	/* sleeps, in all */
	uint64_t slept_ns;	/* time asleep, as measured */
};

/* Start with a sleep cost measured by the caller (a few short sleeps). */
void rctl_hwait_init(struct rctl_hwait *h, uint64_t cost_ns);

/* A poll found n completions at "now": one interval sample, a new idle period. */
void rctl_hwait_reaped(struct rctl_hwait *h, uint64_t now, unsigned int n);

/*
 * A poll found nothing with "outstanding" commands in flight: true when the
 * caller should wait on the completion channel, because they are at least
 * 2 and, at the rate completions have been coming, last at least
 * RCTL_HWAIT_EVENT_COVER wake-ups (the sleep cost): the queue still works
 * while the thread sleeps, and a late wake-up costs no CPU. One command
 * alone (QD1) is never waited for so: its wake-up would be its latency.
 * Counts the wait; false leaves the period to rctl_hwait_plan().
 */
bool rctl_hwait_event(struct rctl_hwait *h, unsigned int outstanding);

/*
 * A poll found nothing at "now": the nanoseconds to sleep before polling
 * again, or 0 to poll on. It plans the sleep that ends one sleep cost before
 * the fraction of what is left of the interval since the last reap, and is
 * asked again after each sleep. Once that sleep would be shorter than its own
 * cost or than RCTL_HWAIT_MIN_NS it answers 0 until the next reap (the rest
 * of the period is polled), as it does while no interval is known. After
 * RCTL_HWAIT_PROBE_EVERY idle periods in a row without a sleep it asks for
 * one of RCTL_HWAIT_MIN_NS, so a cost measured under a load that has gone is
 * measured again.
 */
uint64_t rctl_hwait_plan(struct rctl_hwait *h, uint64_t now);

/* A sleep of "asked" ns took "took" ns: the cost follows what it overshot, faster upwards. */
void rctl_hwait_slept(struct rctl_hwait *h, uint64_t asked, uint64_t took);

#endif
