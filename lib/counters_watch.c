// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The watch loop of rocectl counters, without its printing and waiting: the
 * schedule of samples, the samples (lib/counters.c) and the stop condition.
 */
#include "rocectl/counters_watch.h"

/* Seconds since the host's sample; a clock that went back counts as none. */
static double since_last(const struct rctl_watch *w, uint64_t now_ns)
{
	return now_ns > w->last_ns ? (double)(now_ns - w->last_ns) / 1e9 : 0;
}

void rctl_watch_init(struct rctl_watch *w, double every_s, uint64_t now_ns)
{
	*w = (struct rctl_watch){ .every_s = every_s, .last_ns = now_ns };
}

enum rctl_watch_next rctl_watch_next(const struct rctl_watch *w, uint64_t now_ns,
				     int *timeout_ms)
{
	double left;

	*timeout_ms = 0;
	if (w->stop != RCTL_WATCH_RUNNING)
		return RCTL_WATCH_STOP;
	left = w->every_s - since_last(w, now_ns);
	if (left <= 0)
		return RCTL_WATCH_SAMPLE;
	/* +1: a wait that ends with the due time still ahead would spin. */
	*timeout_ms = (int)(left * 1000) + 1;
	return RCTL_WATCH_WAIT;
}

void rctl_watch_key(struct rctl_watch *w, char c)
{
	if (c == 'q' || c == 'Q')
		rctl_watch_stop(w, RCTL_WATCH_QUIT);
}

void rctl_watch_stop(struct rctl_watch *w, enum rctl_watch_stop why)
{
	if (w->stop == RCTL_WATCH_RUNNING)
		w->stop = why;
}

int rctl_watch_sample(struct rctl_watch *w, struct rctl_host *h, uint64_t now_ns,
		      struct rctl_err *e)
{
	double elapsed = since_last(w, now_ns);
	int ret;

	if (w->stop != RCTL_WATCH_RUNNING)
		return 0;
	ret = w->read ? rctl_counters_next(h, elapsed, w->read, w->arg, e) :
			rctl_counters_resample(h, elapsed, e);
	if (ret) {
		rctl_watch_stop(w, RCTL_WATCH_ERROR);
		return ret;
	}
	w->last_ns = now_ns;
	w->samples++;
	return 1;
}
