/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The schedule of a "rocectl serve" worker (lib/serve.c): when it reads the
 * clock, ends its client at the lifetime, probes an idle client, and rests
 * or yields. Pure code: the clock is the caller's, so the schedule is tested
 * turn by turn (tests/unit/test_serve_sched.c).
 */
#ifndef ROCECTL_SERVE_SCHED_H
#define ROCECTL_SERVE_SCHED_H

#include <stdbool.h>
#include <stdint.h>

/* An idle client is probed this often, and must acknowledge within as long. */
#define RCTL_SERVE_KEEPALIVE_NS 2000000000ull

struct rctl_sched {
	uint64_t deadline;		/* the client's lifetime ends here */
	bool one_cpu;			/* the client may be polling on our CPU */
	/* kept by rctl_sched_turn() */
	uint64_t turns, now, idle_since, spin_end, credited;
};

/* What rctl_sched_turn() asks of the worker; 0: poll on. */
#define RCTL_SCHED_END (1u << 0)	/* the lifetime is over: end the client */
#define RCTL_SCHED_PROBE (1u << 1)	/* idle past the keepalive: probe it */
#define RCTL_SCHED_REST (1u << 2)	/* the polling its messages bought is spent */
#define RCTL_SCHED_YIELD (1u << 3)	/* one CPU, idle a while: let the client run */

/*
 * One turn of the worker's loop, busy ("active": it received or answered
 * something) or idle; "msgs" is its client's message count so far. Every
 * RCTL_SPINS_PER_CLOCK turns it reads clock_ns() (into s->now): a client
 * that sends without pause is ended at its lifetime as surely as an idle one.
 */
unsigned int rctl_sched_turn(struct rctl_sched *s, bool active, uint64_t msgs,
			     uint64_t (*clock_ns)(void));

#endif
