// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Raw RDMA benchmark on a probe connection, measured the way perftest does it
 * (so the numbers compare): latency samples are per iteration, busy-polled,
 * half the round trip for SEND and WRITE ping-pong and the whole operation
 * for READ; bandwidth is bytes over the time from the first post to the last
 * completion, with qd work requests in flight.
 */
#include <errno.h>
#include <string.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "rocectl/hist.h"
#include "rocectl/probe.h"

#define CQ_MOD 32	/* signal one WR in this many (perftest: cq_mod) */

static const char *op_name(enum rctl_xfer_op op)
{
	return op == RCTL_OP_SEND ? "SEND" : op == RCTL_OP_WRITE ? "RDMA WRITE" : "RDMA READ";
}

/* wr_id carries how many WRs a signalled completion accounts for. */
static int post(struct rctl_conn *c, enum rctl_xfer_op op, uint32_t len,
		bool signaled, uint64_t covers)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)(op == RCTL_OP_READ ? c->buf + c->size : c->buf),
		.length = len, .lkey = c->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = covers, .sg_list = &sge, .num_sge = 1,
		.send_flags = signaled ? IBV_SEND_SIGNALED : 0,
	}, *bad;

	wr.opcode = op == RCTL_OP_SEND ? IBV_WR_SEND :
		    op == RCTL_OP_WRITE ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_READ;
	if (op != RCTL_OP_SEND) {
		wr.wr.rdma.remote_addr = c->raddr;
		wr.wr.rdma.rkey = c->rkey;
	}
	if (op != RCTL_OP_READ && len <= c->max_inline)
		wr.send_flags |= IBV_SEND_INLINE;
	return ibv_post_send(c->id->qp, &wr, &bad) ? -errno : 0;
}

static bool more(const struct rctl_bench_rdma_opts *o, uint64_t n, uint64_t t0)
{
	return o->iters ? n < o->iters : rctl_now_ns() - t0 < (uint64_t)(o->time_s * 1e9);
}

static int wait_one(struct rctl_conn *c, const struct rctl_bench_rdma_opts *o,
		    struct ibv_wc *wc, int n, struct rctl_err *e)
{
	int got, i;

	got = rctl_conn_poll(c, wc, n, rctl_now_ns() + (uint64_t)(o->timeout_s * 1e9), true);
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

static int read_lat(struct rctl_conn *c, const struct rctl_bench_rdma_opts *o,
		    struct rctl_bench_rdma_result *r, struct rctl_err *e)
{
	uint64_t t0 = rctl_now_ns(), t;
	struct ibv_wc wc;
	int ret;

	while (more(o, r->iters, t0)) {
		t = rctl_now_ns();
		ret = post(c, RCTL_OP_READ, o->size, true, 1);
		if (ret)
			return rctl_err_set(e, ret, "cannot post an RDMA READ");
		ret = wait_one(c, o, &wc, 1, e);
		if (ret < 0)
			return ret;
		rctl_hist_add(r->lat, rctl_now_ns() - t);
		r->iters++;
	}
	r->secs = (rctl_now_ns() - t0) / 1e9;
	return 0;
}

static int pingpong_lat(struct rctl_conn *c, const struct rctl_bench_rdma_opts *o,
			struct rctl_bench_rdma_result *r, struct rctl_err *e)
{
	uint64_t t0 = rctl_now_ns(), rtt;
	int ret;

	r->half_rtt = true;
	while (more(o, r->iters, t0)) {
		ret = rctl_conn_pingpong(c, o->op, o->size, o->timeout_s, true, &rtt, e);
		if (ret)
			return ret;
		rctl_hist_add(r->lat, rtt / 2);
		r->iters++;
	}
	r->secs = (rctl_now_ns() - t0) / 1e9;
	return 0;
}

static int bw(struct rctl_conn *c, const struct rctl_bench_rdma_opts *o,
	      struct rctl_bench_rdma_result *r, struct rctl_err *e)
{
	uint64_t posted = 0, done = 0, last_sig = 0, t0, tend = 0;
	uint32_t mod = o->qd / 2 < CQ_MOD ? (o->qd / 2 ? o->qd / 2 : 1) : CQ_MOD;
	bool stop = false, sig;
	struct ibv_wc wc[16];
	int n, i, ret;

	t0 = rctl_now_ns();
	while (done < posted || !stop) {
		while (!stop && posted - done < o->qd) {
			stop = !more(o, posted + 1, t0);
			sig = stop || (posted + 1) % mod == 0;
			ret = post(c, o->op, o->size, sig, sig ? posted + 1 - last_sig : 0);
			if (ret)
				return rctl_err_set(e, ret, "cannot post a %s", op_name(o->op));
			posted++;
			if (sig)
				last_sig = posted;
		}
		n = wait_one(c, o, wc, 16, e);
		if (n < 0)
			return n;
		for (i = 0; i < n; i++)
			done += wc[i].wr_id;
		tend = rctl_now_ns();
	}
	r->iters = done;
	r->bytes = done * o->size;
	r->secs = (tend - t0) / 1e9;
	return 0;
}

int rctl_bench_rdma(struct rctl_conn *c, const struct rctl_bench_rdma_opts *o,
		    struct rctl_bench_rdma_result *r, struct rctl_err *e)
{
	rctl_hist_init(r->lat);
	r->iters = r->bytes = 0;
	r->secs = 0;
	r->half_rtt = false;
	if (o->bw)
		return bw(c, o, r, e);
	if (o->op == RCTL_OP_READ)
		return read_lat(c, o, r, e);
	return pingpong_lat(c, o, r, e);
}
