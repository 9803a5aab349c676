/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one clock of rocectl. rctl_clock_ns() is CLOCK_MONOTONIC for every wait
 * and deadline. rctl_fast_ns() is for hot loops that time each operation:
 * the TSC scaled to nanoseconds after rctl_fast_clock_init() calibrated it
 * against CLOCK_MONOTONIC (as perftest reads cycles), but only when the CPU
 * says its TSC is invariant (constant_tsc and nonstop_tsc in /proc/cpuinfo);
 * otherwise it is rctl_clock_ns() and the source names the kernel clocksource
 * behind it (a slow one, e.g. hpet or acpi_pm, costs microseconds per read).
 */
#ifndef ROCECTL_CLOCK_H
#define ROCECTL_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

uint64_t rctl_clock_ns(void);

struct rctl_fast_clock {
	bool tsc;		/* false: rctl_fast_ns() is rctl_clock_ns() */
	uint64_t tsc0, ns0;	/* one calibration point */
	uint64_t mult;		/* ns per tick, << 32 */
	char source[48];	/* "tsc" or "clock_gettime (clocksource hpet)" */
};

extern struct rctl_fast_clock rctl_fastclk;

/* Calibrate once (about 10 ms); returns the source's name. Thread-safe after. */
const char *rctl_fast_clock_init(void);
const char *rctl_fast_clock_source(void);

/* True when a /proc/cpuinfo "flags" line names both invariant-TSC flags. */
bool rctl_tsc_flags_invariant(const char *flags);

#if defined(__x86_64__)
static inline uint64_t rctl_rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static inline uint64_t rctl_fast_ns(void)
{
	const struct rctl_fast_clock *c = &rctl_fastclk;
	uint64_t d;

	if (!c->tsc)
		return rctl_clock_ns();
	d = rctl_rdtsc() - c->tsc0;
	return c->ns0 + (uint64_t)(((unsigned __int128)d * c->mult) >> 32);
}
#else
static inline uint64_t rctl_fast_ns(void)
{
	return rctl_clock_ns();
}
#endif

#endif
