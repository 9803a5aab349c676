// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Raw RDMA benchmark on a probe connection, measured the way perftest does it
 * (so the numbers compare): one latency sample per iteration, from one post to
 * the next, busy-polled; half the round trip for SEND and WRITE ping-pong and
 * the whole operation for READ; WRITE latency watches memory like perftest's
 * write_lat instead of taking receive completions. Bandwidth is bytes over the
 * time from the first post to the last completion, with qd WRs in flight.
 *
 * Busy polling never sleeps or yields, as perftest's: a sample taken by a
 * poller that gave its CPU away measures the scheduler. Time is rctl_fast_ns()
 * (the calibrated TSC where it is invariant, as perftest reads cycles), read
 * once per sample and once per RCTL_SPINS_PER_CLOCK empty polls for the
 * deadline. With o->event it sleeps on the completion channel instead.
 */
#include <errno.h>
#include <sched.h>
#include <string.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "rocectl/clock.h"
#include "rocectl/hist.h"
#include "rocectl/bench_rdma.h"

#define CQ_MOD 64	/* signal one WR in this many, at most qd/2 (perftest: cq_mod 100) */

static const char *op_name(enum rctl_xfer_op op)
{
	return op == RCTL_OP_SEND ? "SEND" : op == RCTL_OP_WRITE ? "RDMA WRITE" : "RDMA READ";
}

/*
 * One WR, one doorbell, as perftest posts by default. It is signalled when
 * covers is not 0; its wr_id then carries how many WRs its completion
 * accounts for. (Chains of 16 per doorbell, perftest's --post_list 16, halved
 * rxe's bandwidth when the client was pinned to one CPU, in the lab.)
 */
static int post_wr(struct rctl_conn *c, enum rctl_xfer_op op, uint32_t len, uint64_t covers)
{
	const struct rctl_rdma_wr wr = {
		.id = covers, .signaled = covers != 0,
		.addr = op == RCTL_OP_READ ? c->buf + c->size : c->buf,
		.len = len, .lkey = c->ep.mr[0].mr->lkey,
		.op = op == RCTL_OP_SEND ? IBV_WR_SEND :
		      op == RCTL_OP_WRITE ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_READ,
		.raddr = c->raddr, .rkey = c->rkey,
		.may_inline = op != RCTL_OP_READ,
	};

	return rctl_rdma_ep_send(&c->ep, &wr);
}

/* One signalled WR: a latency iteration. */
static int post(struct rctl_conn *c, enum rctl_xfer_op op, uint32_t len)
{
	return post_wr(c, op, len, 1);
}

/* In --time mode "now" decides; the caller reads the clock anyway. */
static bool more(const struct rctl_bench_rdma_opts *o, uint64_t n, uint64_t t0,
		 uint64_t now)
{
	return o->iters ? n < o->iters : now - t0 < (uint64_t)(o->time_s * 1e9);
}

static uint64_t deadline_of(const struct rctl_bench_rdma_opts *o, uint64_t now)
{
	return now + (uint64_t)(o->timeout_s * 1e9);
}

/* Spin on the CQ; the clock only once in RCTL_SPINS_PER_CLOCK empty polls. */
static int poll_busy(struct rctl_conn *c, struct ibv_wc *wc, int n, uint64_t deadline)
{
	unsigned int spins = 0;
	int got;

	for (;;) {
		got = ibv_poll_cq(c->ep.rcq, n, wc);
		if (got)
			return got < 0 ? -EIO : got;
		if (++spins % RCTL_SPINS_PER_CLOCK == 0 && rctl_fast_ns() >= deadline)
			return -ETIMEDOUT;
	}
}

/* Up to n completions, all successful; -errno with the message in e. */
static int wait_wc(struct rctl_conn *c, const struct rctl_bench_rdma_opts *o,
		   struct ibv_wc *wc, int n, uint64_t deadline, struct rctl_err *e)
{
	int got, i;

	/* the event path takes a CLOCK_MONOTONIC deadline: same origin, same scale */
	got = o->event ? rctl_conn_poll(c, wc, n, deadline, false) :
			 poll_busy(c, wc, n, deadline);
	if (got == -ETIMEDOUT)
		return rctl_err_msg(e, ETIMEDOUT, "no %s completion within %gs",
				    op_name(o->op), o->timeout_s);
	if (got < 0)
		return rctl_err_set(e, got, "%s failed", op_name(o->op));
	for (i = 0; i < got; i++)
		if (wc[i].status != IBV_WC_SUCCESS)
			return rctl_wc_error(&wc[i], e);
	return got;
}

/*
 * One latency sample per iteration, as perftest takes them: from the clock
 * read just before one post to the one just before the next, halved for a
 * round trip. "step" runs one iteration; *t is the time of its post.
 */
typedef int (*lat_step)(struct rctl_conn *c, const struct rctl_bench_rdma_opts *o,
			uint64_t seq, uint64_t t, struct rctl_err *e);

static int lat_loop(struct rctl_conn *c, const struct rctl_bench_rdma_opts *o,
		    lat_step step, struct rctl_bench_rdma_result *r, struct rctl_err *e)
{
	uint64_t t0 = rctl_fast_ns(), t = t0, next;
	int ret;

	while (more(o, r->iters, t0, t)) {
		ret = step(c, o, r->iters + 1, t, e);
		if (ret)
			return ret;
		next = rctl_fast_ns();
		rctl_hist_add(r->lat, r->half_rtt ? (next - t) / 2 : next - t);
		t = next;
		r->iters++;
	}
	r->secs = (t - t0) / 1e9;
	return 0;
}

/* RDMA READ: post one, wait for its completion. */
static int read_step(struct rctl_conn *c, const struct rctl_bench_rdma_opts *o,
		     uint64_t seq, uint64_t t, struct rctl_err *e)
{
	struct ibv_wc wc;
	int ret;

	ret = post(c, RCTL_OP_READ, o->size);
	if (ret)
		return rctl_err_set(e, ret, "cannot post an RDMA READ");
	ret = wait_wc(c, o, &wc, 1, deadline_of(o, t), e);
	return ret < 0 ? ret : 0;
}

/* SEND, then its completion and the echoed SEND; the receive is re-posted. */
static int send_step(struct rctl_conn *c, const struct rctl_bench_rdma_opts *o,
		     uint64_t seq, uint64_t t, struct rctl_err *e)
{
	bool sent = false, back = false;
	struct ibv_wc wc[2];
	int n, i, ret;

	ret = post(c, RCTL_OP_SEND, o->size);
	if (ret)
		return rctl_err_set(e, ret, "cannot post a SEND");
	while (!sent || !back) {
		n = wait_wc(c, o, wc, 2, deadline_of(o, t), e);
		if (n < 0)
			return n;
		for (i = 0; i < n; i++) {
			if (!(wc[i].opcode & IBV_WC_RECV)) {
				sent = true;
				continue;
			}
			back = true;
			ret = rctl_conn_post_recv(c);
			if (ret)
				return rctl_err_set(e, ret, "cannot post a receive");
		}
	}
	return 0;
}

/*
 * RDMA WRITE with the iteration number in the last byte; the responder
 * (RCTL_MODE_POLL) watches its copy of that byte and writes the same number
 * back into the second half of our buffer, which we watch in turn.
 */
static int write_step(struct rctl_conn *c, const struct rctl_bench_rdma_opts *o,
		      uint64_t seq, uint64_t t, struct rctl_err *e)
{
	volatile char *out = c->buf + o->size - 1;
	volatile char *in = c->buf + c->size + o->size - 1;
	uint64_t deadline = deadline_of(o, t), now;
	unsigned int spins;
	struct ibv_wc wc;
	int ret;

	*out = (char)seq;
	ret = post(c, RCTL_OP_WRITE, o->size);
	if (ret)
		return rctl_err_set(e, ret, "cannot post an RDMA WRITE");
	ret = wait_wc(c, o, &wc, 1, deadline, e);
	if (ret < 0)
		return ret;
	for (spins = 1; *in != (char)seq; spins++) {
		if (spins % RCTL_SPINS_PER_CLOCK)
			continue;
		now = rctl_fast_ns();
		if (now >= deadline)
			return rctl_err_msg(e, ETIMEDOUT, "no RDMA WRITE came back within %gs",
					    o->timeout_s);
		if (o->event && now - t > RCTL_YIELD_NS)
			sched_yield();	/* memory raises no event to sleep on: yield */
	}
	return 0;
}

static int bw(struct rctl_conn *c, const struct rctl_bench_rdma_opts *o,
	      struct rctl_bench_rdma_result *r, struct rctl_err *e)
{
	uint64_t posted = 0, done = 0, last_sig = 0, t0, now, covers;
	uint32_t mod = o->qd / 2 < CQ_MOD ? (o->qd / 2 ? o->qd / 2 : 1) : CQ_MOD;
	struct ibv_wc wc[16];
	bool stop = false;
	int n, i, ret;

	t0 = now = rctl_fast_ns();
	while (done < posted || !stop) {
		/* top up to qd in flight; one WR in mod, and the last, signalled */
		while (!stop && posted - done < o->qd) {
			stop = !more(o, ++posted, t0, now);
			covers = stop || posted % mod == 0 ? posted - last_sig : 0;
			if (covers)
				last_sig = posted;
			ret = post_wr(c, o->op, o->size, covers);
			if (ret)
				return rctl_err_set(e, ret, "cannot post a %s", op_name(o->op));
		}
		n = wait_wc(c, o, wc, 16, deadline_of(o, now), e);
		if (n < 0)
			return n;
		for (i = 0; i < n; i++)
			done += wc[i].wr_id;
		/* one clock read per completion batch: deadline and --time */
		now = rctl_fast_ns();
	}
	r->iters = done;
	r->bytes = done * o->size;
	r->secs = (now - t0) / 1e9;
	return 0;
}

int rctl_bench_rdma(struct rctl_conn *c, const struct rctl_bench_rdma_opts *o,
		    struct rctl_bench_rdma_result *r, struct rctl_err *e)
{
	rctl_hist_init(r->lat);
	r->clock_source = rctl_fast_clock_init();
	r->iters = r->bytes = 0;
	r->secs = 0;
	r->half_rtt = false;
	if (o->bw)
		return bw(c, o, r, e);
	if (o->op == RCTL_OP_READ)
		return lat_loop(c, o, read_step, r, e);
	r->half_rtt = true;
	if (o->op == RCTL_OP_WRITE) {
		/* the first answer carries 1 */
		c->buf[c->size + o->size - 1] = 0;
		return lat_loop(c, o, write_step, r, e);
	}
	return lat_loop(c, o, send_step, r, e);
}
