// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one clock (see include/rocectl/clock.h). The TSC counts at a constant
 * rate across P-states only with constant_tsc, and keeps counting in deep
 * C-states only with nonstop_tsc (arch/x86/kernel/cpu: X86_FEATURE_CONSTANT_TSC,
 * X86_FEATURE_NONSTOP_TSC, shown in /proc/cpuinfo under those names); without
 * both, cycles are not time and rocectl falls back to clock_gettime().
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "rocectl/clock.h"

#define CALIB_NS 10000000ull	/* calibration interval: 10 ms */

struct rctl_fast_clock rctl_fastclk;

uint64_t rctl_clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static bool has_word(const char *s, const char *w)
{
	size_t n = strlen(w);
	const char *p;

	for (p = strstr(s, w); p; p = strstr(p + 1, w))
		if ((p == s || p[-1] == ' ' || p[-1] == '\t' || p[-1] == ':') &&
		    (!p[n] || p[n] == ' ' || p[n] == '\n' || p[n] == '\t'))
			return true;
	return false;
}

bool rctl_tsc_flags_invariant(const char *flags)
{
	return flags && has_word(flags, "constant_tsc") && has_word(flags, "nonstop_tsc");
}

/* The first "flags" line of /proc/cpuinfo names the boot CPU's features. */
static bool cpu_tsc_invariant(void)
{
	char line[4096];
	bool ok = false;
	FILE *f = fopen("/proc/cpuinfo", "re");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "flags", 5)) {
			ok = rctl_tsc_flags_invariant(line);
			break;
		}
	fclose(f);
	return ok;
}

static void name_fallback(struct rctl_fast_clock *c)
{
	char cs[32] = "";
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "re");

	if (f) {
		if (!fgets(cs, sizeof(cs), f))
			cs[0] = 0;
		fclose(f);
	}
	cs[strcspn(cs, "\n")] = 0;
	snprintf(c->source, sizeof(c->source), cs[0] ? "clock_gettime (clocksource %s)" :
		 "clock_gettime", cs);
}

#if defined(__x86_64__)
static bool calibrate(struct rctl_fast_clock *c)
{
	struct timespec pause = { 0, (long)CALIB_NS };
	uint64_t t0, n0, t1, n1;

	n0 = rctl_clock_ns();
	t0 = rctl_rdtsc();
	nanosleep(&pause, NULL);
	n1 = rctl_clock_ns();
	t1 = rctl_rdtsc();
	if (t1 <= t0 || n1 <= n0)
		return false;
	c->mult = (uint64_t)(((unsigned __int128)(n1 - n0) << 32) / (t1 - t0));
	c->tsc0 = t1;
	c->ns0 = n1;
	snprintf(c->source, sizeof(c->source), "tsc");
	return c->mult != 0;
}
#else
static bool calibrate(struct rctl_fast_clock *c)
{
	(void)c;
	return false;
}
#endif

const char *rctl_fast_clock_init(void)
{
	struct rctl_fast_clock c = { 0 };

	if (rctl_fastclk.source[0])
		return rctl_fastclk.source;
	c.tsc = cpu_tsc_invariant() && calibrate(&c);
	if (!c.tsc)
		name_fallback(&c);
	rctl_fastclk = c;
	return rctl_fastclk.source;
}

const char *rctl_fast_clock_source(void)
{
	return rctl_fastclk.source[0] ? rctl_fastclk.source : "clock_gettime";
}
