/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The loop of rocectl counters --watch (lib/counters_watch.c), as an
 * iterator the command drives: when the next sample is due and how long to
 * wait for it, the sample itself (deltas and the interval for rates against
 * the previous one, wraps and resets as rctl_counters_next() handles them),
 * and when the watch stops. It never prints and never waits: the command
 * waits for keys and signals at most the time rctl_watch_next() gives it.
 */
#ifndef ROCECTL_COUNTERS_WATCH_H
#define ROCECTL_COUNTERS_WATCH_H

#include <stddef.h>
#include <stdint.h>

#include "rocectl/counters.h"

enum rctl_watch_stop {
	RCTL_WATCH_RUNNING,
	RCTL_WATCH_QUIT,	/* q was typed */
	RCTL_WATCH_SIGNAL,	/* SIGINT or SIGTERM */
	RCTL_WATCH_OUTPUT,	/* the output could not be written (a closed pipe) */
	RCTL_WATCH_ERROR,	/* a sample failed: the last good one stays */
};

struct rctl_watch {
	double every_s;			/* seconds between samples */
	uint64_t last_ns;		/* when the host's sample was taken (monotonic) */
	uint64_t samples;		/* taken since the first */
	enum rctl_watch_stop stop;
	rctl_counters_read_fn read;	/* NULL: the live host (rctl_counters_resample) */
	void *arg;
};

/* Start watching at now_ns (rctl_clock_ns()), the host's first sample just taken. */
void rctl_watch_init(struct rctl_watch *w, double every_s, uint64_t now_ns);

enum rctl_watch_next {
	RCTL_WATCH_WAIT,	/* wait *timeout_ms for a key or a signal, then ask again */
	RCTL_WATCH_SAMPLE,	/* the next sample is due: rctl_watch_sample() */
	RCTL_WATCH_STOP,
};

/*
 * What to do at now_ns. A wait is at least 1 ms and at most one period
 * (plus the millisecond that puts its end past the due time).
 */
enum rctl_watch_next rctl_watch_next(const struct rctl_watch *w, uint64_t now_ns,
				     int *timeout_ms);

/* A key typed while waiting: q or Q stops the watch; others are ignored. */
void rctl_watch_key(struct rctl_watch *w, char c);

/* Stop the watch for a reason the command saw (a signal, the output). */
void rctl_watch_stop(struct rctl_watch *w, enum rctl_watch_stop why);

/*
 * Take the next sample into h at now_ns; h->sample_interval_s becomes the
 * time since the previous one. 1 when taken (a frame to show), 0 when the
 * watch has stopped, -errno with e filled when the sample failed (the watch
 * stops with RCTL_WATCH_ERROR and h keeps the previous sample).
 */
int rctl_watch_sample(struct rctl_watch *w, struct rctl_host *h, uint64_t now_ns,
		      struct rctl_err *e);

#endif
