/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The engine of "rocectl bench rdma" (lib/bench_rdma.c) on a probe connection. */
#ifndef ROCECTL_BENCH_RDMA_H
#define ROCECTL_BENCH_RDMA_H

#include <stdbool.h>
#include <stdint.h>

#include "rocectl/err.h"
#include "rocectl/probe.h"

struct rctl_bench_rdma_opts {
	enum rctl_xfer_op op;
	uint32_t size;
	uint64_t iters;			/* 0: run for time_s */
	double time_s;
	uint32_t qd;			/* bandwidth: WRs in flight */
	bool bw;
	bool event;			/* sleep on the CQ's channel instead of busy polling */
	double timeout_s;		/* longest wait for one completion */
};

struct rctl_hist;
struct rctl_bench_rdma_result {
	struct rctl_hist *lat;		/* ns; half the round trip for SEND/WRITE */
	bool half_rtt;
	uint64_t iters;
	uint64_t bytes;
	double secs;			/* first post to last completion */
	const char *clock_source;	/* rctl_fast_clock_source() */
};

/*
 * perftest's method. Latency: SEND ping-pong (every SEND signalled and
 * inline when small, the answer a SEND), RDMA WRITE ping-pong where each side
 * watches the last byte of its buffer (no receive, no completion on the
 * passive side), or one RDMA READ at a time; a sample is the time from one
 * post to the next, halved for SEND and WRITE. Bandwidth: qd WRs in flight,
 * one in CQ_MOD signalled, over the time from the first post to the last
 * completion. The connection must use RCTL_MODE_ECHO for SEND latency,
 * RCTL_MODE_POLL for WRITE latency, RCTL_MODE_SINK otherwise.
 */
int rctl_bench_rdma(struct rctl_conn *c, const struct rctl_bench_rdma_opts *o,
		    struct rctl_bench_rdma_result *r, struct rctl_err *e);

#endif
