// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The RDMA transport of the userspace NVMe-oF host (include/rocectl/
 * nvmf_transport.h; the controller is lib/nvmf_ctrl.c). One RC QP and one
 * CQ per NVMe queue; every command has a slot holding its SQE, its data
 * buffer and its state. A slot is free again only when both the SEND and the
 * RECV (CQE) completion were seen: the response may overtake the local SEND
 * completion, and the HCA may still read the SQE (or in-capsule data) for a
 * retransmission until then. RECVs are posted before rdma_connect, so before
 * the first SEND.
 *
 * Per-I/O costs kept off the I/O path (bench nvmf): sends queued by
 * rdma_queue() go out as one WR chain per rdma_flush() (one
 * doorbell, and on rxe one system call, per batch); on I/O queues only one
 * send in SIG_EVERY is signalled, and its completion confirms every send
 * before it (a QP completes its sends in order), so a command is reported
 * done on its CQE alone and its slot is reused once its send is confirmed;
 * receives are reposted as one chain per poll; the clock (rctl_fast_ns(),
 * the calibrated TSC where it is invariant) is read once per flush and once
 * per poll that found a CQE, not per command.
 *
 * The endpoint of each queue (rdma_cm channel and id, bounded CM waits, the
 * CQ, completion channel, QP and the three registered buffers, posting and
 * teardown) is include/rocectl/rdma_ep.h; what stays here is NVMe-oF's: the
 * CM private data, the PD the queues of one controller share, the slots.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "rocectl/clock.h"
#include "rocectl/nvmf_keys.h"
#include "rocectl/nvmf_transport.h"
#include "rocectl/rdma_ep.h"

enum { PEND_SEND = 1, PEND_RECV = 2, REPORTED = 4 };
#define WR_SEND (1ull << 32)
#define SIG_EVERY_MAX 16		/* I/O queues: signal one send in this many (at most limit/2) */
#define POLL_BATCH 32			/* work completions per ibv_poll_cq */
#define CM_STATUS_CONSUMER_REJ 28	/* IB_CM_REJ_CONSUMER_DEFINED */

enum { MR_SQE, MR_CQE, MR_DATA };	/* the endpoint's registered buffers */

/* The controller's (c->tp): the PD its queues share, the MRs they hold. */
struct rtp {
	struct ibv_pd *pd;
	uint32_t max_mr;		/* the device's (ibv_query_device) */
	uint32_t mrs;			/* registered by this controller's queues */
};

struct slot {
	uint8_t pend;
	uint16_t gen;			/* of the CID (rctl_nvme_cid()) */
	uint16_t status;
	uint32_t dw0, dw1;
	uint64_t t_submit, t_done;
	struct ibv_send_wr wr;
	struct ibv_sge sge[2];
};

struct rq {
	struct rctl_nvmf_q b;		/* first: the controller's view */
	unsigned int cid_bits;		/* of the slot in a CID */
	uint16_t crqsize;
	struct rctl_rdma_ep ep;		/* one CQ (ep.rcq) for sends and receives */
	uint8_t *sqes, *rsps, *data;	/* the buffers of ep.mr[MR_SQE..MR_DATA] */
	struct slot *slots;
	uint16_t *free, nfree;
	uint16_t sig_every, unsig;	/* signal one send in sig_every */
	uint32_t seq_posted, seq_done;	/* sends posted / confirmed */
	uint16_t *sring;		/* slot of each unconfirmed send, oldest at sget */
	uint16_t sput, sget;
	struct ibv_send_wr *head, *tail;	/* queued, not yet posted */
	uint16_t nqueued;
	struct ibv_recv_wr *rwr;	/* one per RECV buffer, sge fixed */
	struct ibv_sge *rsge;
	struct rctl_nvmf_keys keys;	/* the data buffer's remote keys */
	struct ibv_mr **kmr;		/* room for two per slot, nkmr registered */
	uint32_t *rkeys;		/* kmr[i]->rkey */
	uint32_t nkmr;			/* registered */
	uint32_t mrs;			/* counted in rtp.mrs */
};

static inline struct rq *rq_of(struct rctl_nvmf_q *q)
{
	return (struct rq *)q;
}

static const char *qname(const struct rq *q, char *buf, size_t len)
{
	return rctl_nvmf_qname(&q->b, buf, len);
}

/* ---- RDMA CM --------------------------------------------------------- */

/* An rdma_ep message (e) with q's context in front: "admin queue: cannot ...". */
static int err_ctx(struct rctl_err *e, int ret, const char *ctx)
{
	char m[sizeof(e->msg)];

	snprintf(m, sizeof(m), "%s", e->msg);
	return rctl_err_plain(e, ret, "%s: %s", ctx, m);
}

static int cm_step(struct rq *q, enum rdma_cm_event_type want,
		   const char *step, struct rctl_err *e)
{
	const struct rctl_nvmf_ctrl *c = q->b.ctrl;
	struct rctl_rdma_cm_ev ev;
	char qn[32];
	int ret;

	ret = rctl_rdma_ep_event(&q->ep, c->o.timeout_ms, &ev);
	qname(q, qn, sizeof(qn));
	if (ret == -ETIMEDOUT)
		return rctl_err_plain(e, ETIMEDOUT, "%s: cannot %s '%s': no answer within %d ms",
				    qn, step, c->o.traddr, c->o.timeout_ms);
	if (ret)
		return rctl_err_strerror(e, -ret, "%s: cannot %s '%s'", qn, step, c->o.traddr);
	if (ev.type == want)
		return 0;
	return rctl_err_plain(e, EHOSTUNREACH, "%s: cannot %s '%s': %s (status %d)", qn,
			    step, c->o.traddr, rdma_event_str(ev.type), ev.status);
}

static int cm_resolve(struct rq *q, struct rctl_err *e)
{
	const struct rctl_nvmf_opts *o = &q->b.ctrl->o;
	struct rdma_addrinfo hints = { .ai_port_space = RDMA_PS_TCP }, *res;
	char port[8], qn[32];
	uint8_t tos;
	int ret;

	snprintf(port, sizeof(port), "%u", o->port);
	if (rdma_getaddrinfo(o->traddr, port, &hints, &res))
		return rctl_err_plain(e, EINVAL, "cannot resolve target address '%s'",
				    o->traddr);
	ret = rdma_resolve_addr(q->ep.id, NULL, res->ai_dst_addr, o->timeout_ms);
	rdma_freeaddrinfo(res);
	if (ret)
		return rctl_err_strerror(e, errno, "%s: cannot resolve address '%s'",
				    qname(q, qn, sizeof(qn)), o->traddr);
	ret = cm_step(q, RDMA_CM_EVENT_ADDR_RESOLVED, "resolve address", e);
	if (ret)
		return ret;
	tos = (uint8_t)o->tos;
	if (o->tos >= 0 &&
	    rdma_set_option(q->ep.id, RDMA_OPTION_ID, RDMA_OPTION_ID_TOS, &tos, sizeof(tos)))
		return rctl_err_strerror(e, errno, "%s: cannot set tos %d", qn, o->tos);
	if (rdma_resolve_route(q->ep.id, o->timeout_ms))
		return rctl_err_strerror(e, errno, "%s: cannot resolve route to '%s'", qn,
				    o->traddr);
	return cm_step(q, RDMA_CM_EVENT_ROUTE_RESOLVED, "resolve route to", e);
}

static int cm_rejected(struct rq *q, const struct rctl_rdma_cm_ev *ev,
		       struct rctl_err *e)
{
	const struct rctl_nvmf_opts *o = &q->b.ctrl->o;
	const char *name;
	uint16_t sts;
	char qn[32];

	qname(q, qn, sizeof(qn));
	if (ev->status == CM_STATUS_CONSUMER_REJ &&
	    !rctl_nvmf_cm_rej(ev->priv, ev->priv_len, &sts)) {
		name = rctl_nvmf_rej_name(sts);
		return rctl_err_plain(e, ECONNREFUSED,
				    "%s: connect to '%s:%u' rejected by the target: %s (nvme rdma status %#x)",
				    qn, o->traddr, o->port, name ? name : "unknown reason", sts);
	}
	return rctl_err_plain(e, ECONNREFUSED,
			    "%s: connect to '%s:%u' rejected (cm status %d%s)", qn, o->traddr,
			    o->port, ev->status,
			    ev->status == 8 ? ": nothing listening on that port" : "");
}

static int cm_connect(struct rq *q, uint16_t cntlid, struct rctl_err *e)
{
	struct rctl_nvmf_ctrl *c = q->b.ctrl;
	struct rdma_conn_param p = { 0 };
	struct ibv_device_attr da;
	struct rctl_rdma_cm_ev ev;
	uint8_t pd[RCTL_NVMF_CM_PRIV_SIZE];
	char qn[32];
	int ret;

	qname(q, qn, sizeof(qn));
	if (ibv_query_device(q->ep.id->verbs, &da))
		return rctl_err_strerror(e, errno, "%s: cannot query device", qn);
	rctl_nvmf_cm_req(pd, q->b.qid, q->b.depth, q->b.depth - 1, cntlid);
	p.private_data = pd;
	p.private_data_len = sizeof(pd);
	p.responder_resources = da.max_qp_rd_atom > 255 ? 255 : (uint8_t)da.max_qp_rd_atom;
	p.initiator_depth = 0;	/* the host never issues RDMA READs */
	p.flow_control = 1;
	p.retry_count = 7;
	p.rnr_retry_count = 7;
	if (rdma_connect(q->ep.id, &p))
		return rctl_err_strerror(e, errno, "%s: cannot connect to '%s'", qn, c->o.traddr);
	ret = rctl_rdma_ep_event(&q->ep, c->o.timeout_ms, &ev);
	if (ret == -ETIMEDOUT)
		return rctl_err_plain(e, ETIMEDOUT, "%s: connect to '%s:%u': no answer within %d ms",
				    qn, c->o.traddr, c->o.port, c->o.timeout_ms);
	if (ret)
		return rctl_err_strerror(e, -ret, "%s: connect to '%s'", qn, c->o.traddr);
	if (ev.type == RDMA_CM_EVENT_REJECTED)
		return cm_rejected(q, &ev, e);
	if (ev.type != RDMA_CM_EVENT_ESTABLISHED)
		return rctl_err_plain(e, EHOSTUNREACH, "%s: connect to '%s:%u': %s (status %d)",
				    qn, c->o.traddr, c->o.port, rdma_event_str(ev.type),
				    ev.status);
	if (rctl_nvmf_cm_rep(ev.priv, ev.priv_len, &q->crqsize))
		q->crqsize = 0;
	q->ep.connected = true;
	return 0;
}

/* ---- queue resources ------------------------------------------------- */

/* ep.mr[i]: len bytes filled with 0, registered with acc on the shared PD. */
static uint8_t *reg(struct rq *q, unsigned int i, size_t len, int acc,
		    struct rctl_err *e)
{
	char qn[32];
	uint8_t *p = rctl_rdma_ep_reg(&q->ep, i, len, 0, acc, e);

	if (!p)
		err_ctx(e, e->errnum, qname(q, qn, sizeof(qn)));
	return p;
}

/* Prepared RECV WRs, one per response buffer; reposting links them into a chain. */
static void recv_wrs_init(struct rq *q)
{
	uint32_t i;

	for (i = 0; i < q->b.depth; i++) {
		q->rsge[i] = (struct ibv_sge){
			.addr = (uintptr_t)(q->rsps + i * RCTL_NVME_CQE_SIZE),
			.length = RCTL_NVME_CQE_SIZE, .lkey = q->ep.mr[MR_CQE].mr->lkey,
		};
		q->rwr[i] = (struct ibv_recv_wr){ .wr_id = i, .sg_list = &q->rsge[i],
						  .num_sge = 1 };
	}
}

/* Post the RECVs of buffers idx[0..n) as one chain; 0 or -errno. */
static int post_recvs(struct rq *q, const uint32_t *idx, int n)
{
	int i;

	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		q->rwr[idx[i]].next = i + 1 < n ? &q->rwr[idx[i + 1]] : NULL;
	return rctl_rdma_ep_post_recvs(&q->ep, &q->rwr[idx[0]]);
}

/*
 * The PD every queue of the controller shares and the device's max_mr: the
 * admin queue finds them.
 */
static int q_pd(struct rq *q, const char *qn, struct rctl_err *e)
{
	struct rctl_nvmf_ctrl *c = q->b.ctrl;
	struct ibv_context *vc = q->ep.id->verbs;
	struct ibv_device_attr da;
	struct rtp *t = c->tp;

	if (t) {
		if (t->pd->context != vc)
			return rctl_err_plain(e, EXDEV, "%s: route to '%s' uses another RDMA device",
					    qn, c->o.traddr);
		return 0;
	}
	if (ibv_query_device(vc, &da))
		return rctl_err_strerror(e, errno, "%s: cannot query '%s'", qn,
				       ibv_get_device_name(vc->device));
	t = calloc(1, sizeof(*t));
	if (!t)
		return rctl_err_strerror(e, ENOMEM, "%s: cannot allocate a protection domain", qn);
	t->pd = ibv_alloc_pd(vc);
	if (!t->pd) {
		free(t);
		return rctl_err_strerror(e, errno, "%s: cannot allocate a protection domain", qn);
	}
	t->max_mr = da.max_mr > 0 ? (uint32_t)da.max_mr : 0;
	c->tp = t;
	c->info.max_mr = t->max_mr;
	snprintf(c->info.ibdev, sizeof(c->info.ibdev), "%s", ibv_get_device_name(vc->device));
	return 0;
}

/* The access an MR of the data buffer gives the target: one direction only. */
static int key_access(enum rctl_nvmf_dir dir)
{
	/* verbs requires local write beside remote write (ibv_reg_mr(3)) */
	return dir == RCTL_NVMF_DIR_TO_HOST ? IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE
					    : IBV_ACCESS_REMOTE_READ;
}

/* Register q->keys' MRs; 0 or -errno (errno of ibv_reg_mr), the MRs kept for q_free(). */
static int keys_reg(struct rq *q)
{
	struct rtp *t = q->b.ctrl->tp;
	uint32_t n = rctl_nvmf_keys_count(&q->keys);
	enum rctl_nvmf_dir dir;
	uint64_t addr;
	size_t len;

	for (; q->nkmr < n; q->nkmr++) {
		rctl_nvmf_keys_mr(&q->keys, q->nkmr, &addr, &len, &dir);
		q->kmr[q->nkmr] = ibv_reg_mr(t->pd, (void *)(uintptr_t)addr, len, key_access(dir));
		if (!q->kmr[q->nkmr])
			return -errno;
		q->rkeys[q->nkmr] = q->kmr[q->nkmr]->rkey;
		q->mrs++;
		t->mrs++;
	}
	return 0;
}

/* Deregister q's keys (a target still holding one gets a remote access error). */
static void keys_dereg(struct rq *q)
{
	struct rtp *t = q->b.ctrl->tp;

	for (; q->nkmr; q->nkmr--) {
		ibv_dereg_mr(q->kmr[q->nkmr - 1]);
		q->mrs--;
		t->mrs--;
	}
}

/*
 * The data buffer's remote keys (include/rocectl/nvmf_keys.h): two per slot
 * while the device's max_mr allows, else one per direction over the buffer.
 * max_mr also counts other users' MRs, so per-slot keys the device refuses
 * for want of room (ENOMEM, ENOSPC) fall back the same way.
 */
static int q_keys(struct rq *q, const char *qn, struct rctl_err *e)
{
	struct rctl_nvmf_ctrl *c = q->b.ctrl;
	struct rtp *t = c->tp;
	uint32_t n;
	int ret;

	q->keys = (struct rctl_nvmf_keys){
		.base = (uintptr_t)q->data, .buf_size = q->b.buf_size, .nslots = q->b.limit,
		.per_slot = rctl_nvmf_keys_fit(t->max_mr, t->mrs, q->b.limit),
	};
	n = 2u * q->b.limit;		/* the most either layout needs */
	q->kmr = calloc(n, sizeof(*q->kmr));
	q->rkeys = calloc(n, sizeof(*q->rkeys));
	if (!q->kmr || !q->rkeys)
		return rctl_err_strerror(e, ENOMEM, "%s: cannot allocate %u keys", qn, n);
	ret = keys_reg(q);
	if ((ret == -ENOMEM || ret == -ENOSPC) && q->keys.per_slot) {
		keys_dereg(q);
		q->keys.per_slot = false;
		ret = keys_reg(q);
	}
	if (ret)
		return rctl_err_strerror(e, -ret, "%s: cannot register the data keys on '%s'",
				       qn, c->info.ibdev);
	if (!q->keys.per_slot)
		c->info.keys_shared = true;
	return 0;
}

/*
 * PD, CQ (with a non-blocking completion channel unless busy-polling), QP,
 * buffers, keys, RECVs.
 *
 * The data buffer's own MR gives the target nothing. Each slot has two more
 * MRs, registered here once: one the target may only write (for reads), one
 * it may only read (for writes and Connect); a command's keyed SGL carries the
 * key of its own slot and direction, so a key reaches one slot's bytes one
 * way (q_keys(), include/rocectl/nvmf_keys.h). They stay registered between
 * commands, until the queue is freed: nothing is invalidated after a
 * response, so a target that kept a key could still reach that slot in that
 * direction while later commands use it. Measured in the lab (rxe, Linux
 * 6.1, rdma-core 44, TCG, 4 KiB slots): 30 to 140 us of CPU per
 * registration, so a QD32 queue's 64 cost 2 to 4 ms once, QD128's 256 27 to
 * 36 ms, 1024 slots 82 to 111 ms; rxe's max_mr is 524287. The I/O path
 * only looks up another rkey: bench nvmf 4k randread against the one-MR
 * build, same boot, five rounds interleaved on a loaded host, showed no
 * slowdown (median IOPS 0.94x to 1.56x of it at QD1 and QD32, --poll and
 * --event; single rounds varied up to 2x with the host's load). A device whose
 * max_mr cannot hold two per slot beside the MRs already registered, or that
 * refuses them for want of room, gets one MR per direction over the whole
 * buffer (bench nvmf says so in -v and JSON).
 *
 * Why not less: ibv_reg_mr + ibv_dereg_mr of 4 KiB cost 270 us of CPU per
 * pair, more than a whole I/O, so no MR per command; ibv_rereg_mr is
 * EOPNOTSUPP on rxe; rxe has type 2B windows
 * (ibv_alloc_mw + dealloc 21 us, once per slot), but a window per slot bound
 * ahead of each send and invalidated by the target's Send with Invalidate
 * (keyed SGL subtype 0xF) left QD32 commands unanswered for 5 s under rxe's
 * retransmissions (QD1 and QD4 passed), and destroying the QP with windows
 * still bound trips rxe_pool.c's cleanup WARN (windows hold a QP reference:
 * deallocate them first). Branch mr38 commit 971e08b has that attempt.
 */
static int q_verbs(struct rq *q, bool event, struct rctl_err *e)
{
	struct rtp *t;
	char qn[32];
	struct rctl_rdma_caps caps = {
		.who = qname(q, qn, sizeof(qn)),
		.comp_channel = event, .cc_nonblock = true,
		.cq_entries = 2 * (q->b.depth + 1),
		.send_wr = q->b.limit + 1, .recv_wr = q->b.depth + 1,
		.send_sge = 2,		/* the SQE, in-capsule data */
		.recv_sge = 1,
	};
	uint32_t i;
	int ret;

	ret = q_pd(q, qn, e);
	if (ret)
		return ret;
	caps.pd = ((struct rtp *)q->b.ctrl->tp)->pd;	/* shared: the endpoint does not free it */
	ret = rctl_rdma_ep_create(&q->ep, &caps, e);
	if (ret)
		return ret;
	q->sqes = reg(q, MR_SQE, (size_t)q->b.limit * RCTL_NVME_SQE_SIZE, IBV_ACCESS_LOCAL_WRITE, e);
	if (!q->sqes)
		return -e->errnum;
	q->rsps = reg(q, MR_CQE, (size_t)q->b.depth * RCTL_NVME_CQE_SIZE, IBV_ACCESS_LOCAL_WRITE, e);
	if (!q->rsps)
		return -e->errnum;
	q->data = reg(q, MR_DATA, (size_t)q->b.limit * q->b.buf_size, IBV_ACCESS_LOCAL_WRITE, e);
	if (!q->data)
		return -e->errnum;
	t = q->b.ctrl->tp;
	q->mrs += RCTL_RDMA_EP_MRS;
	t->mrs += RCTL_RDMA_EP_MRS;
	ret = q_keys(q, qn, e);
	if (ret)
		return -e->errnum;
	recv_wrs_init(q);
	for (i = 0; i < q->b.depth; i++)
		q->rwr[i].next = i + 1 < q->b.depth ? &q->rwr[i + 1] : NULL;
	if (rctl_rdma_ep_post_recvs(&q->ep, &q->rwr[0]))
		return rctl_err_strerror(e, errno, "%s: cannot post receives", qn);
	return 0;
}

/*
 * The keys first (a target still holding one gets a remote access error),
 * then the endpoint in verbs' order (disconnect unawaited, QP, MRs, CQ,
 * channels); the PD stays.
 */
static void q_free(struct rq *q)
{
	struct rtp *t;

	if (!q)
		return;
	t = q->b.ctrl->tp;
	if (t) {
		keys_dereg(q);
		t->mrs -= q->mrs;	/* the endpoint's */
	}
	rctl_rdma_ep_close(&q->ep, 0);
	free(q->kmr);
	free(q->rkeys);
	free(q->slots);
	free(q->free);
	free(q->sring);
	free(q->rwr);
	free(q->rsge);
	free(q);
}

static int q_alloc(struct rctl_nvmf_ctrl *c, uint16_t qid, uint16_t depth,
		   uint16_t limit, uint32_t buf_size, struct rq **out,
		   struct rctl_err *e)
{
	struct rq *q = calloc(1, sizeof(*q));
	char what[300];
	uint16_t i;

	if (!q)
		return rctl_err_strerror(e, ENOMEM, "cannot allocate queue %u", qid);
	*out = q;
	q->b.tr = &rctl_nvmf_rdma;
	q->b.ctrl = c;
	q->b.qid = qid;
	q->b.depth = depth;
	q->b.limit = limit;
	q->cid_bits = rctl_nvme_cid_bits(limit);
	q->b.buf_size = buf_size;
	q->slots = calloc(limit, sizeof(*q->slots));
	q->free = calloc(limit, sizeof(*q->free));
	q->sring = calloc(limit, sizeof(*q->sring));
	q->rwr = calloc(depth, sizeof(*q->rwr));
	q->rsge = calloc(depth, sizeof(*q->rsge));
	if (!q->slots || !q->free || !q->sring || !q->rwr || !q->rsge)
		return rctl_err_strerror(e, ENOMEM, "cannot allocate queue %u", qid);
	q->sig_every = 1;
	for (i = 0; i < limit; i++)
		q->free[q->nfree++] = limit - 1 - i;
	/* a non-blocking channel: the CM waits poll(2) it with a timeout */
	if (rctl_rdma_ep_open(&q->ep, q, true, e)) {
		snprintf(what, sizeof(what), "cannot connect to '%s'", c->o.traddr);
		return err_ctx(e, e->errnum, what);
	}
	return 0;
}

/* ---- commands -------------------------------------------------------- */

static int rdma_alloc(struct rctl_nvmf_q *bq)
{
	struct rq *q = rq_of(bq);

	if (!q->nfree)
		return -EBUSY;
	return q->free[--q->nfree];
}

static void *rdma_buf(struct rctl_nvmf_q *bq, int slot)
{
	struct rq *q = rq_of(bq);

	return q->data + (size_t)slot * q->b.buf_size;
}

/* Fill slot's SQE and its send WR; the WR goes into the queue's pending chain. */
static int rdma_queue(struct rctl_nvmf_q *bq, int slot, struct rctl_nvme_cmd *cmd,
		      uint32_t len, struct rctl_err *e)
{
	struct rq *q = rq_of(bq);
	struct slot *s = &q->slots[slot];
	uint8_t *buf = rdma_buf(bq, slot);
	char qn[32];

	if (q->b.dead)
		return rctl_err_plain(e, ENOTCONN, "%s: queue is down", qname(q, qn, sizeof(qn)));
	s->gen = rctl_nvme_gen_next(s->gen, q->cid_bits);
	cmd->cid = rctl_nvme_cid((uint16_t)slot, s->gen, q->cid_bits);
	s->sge[0] = (struct ibv_sge){ .addr = (uintptr_t)(q->sqes + slot * RCTL_NVME_SQE_SIZE),
				      .length = RCTL_NVME_SQE_SIZE, .lkey = q->ep.mr[MR_SQE].mr->lkey };
	s->sge[1] = (struct ibv_sge){ .addr = (uintptr_t)buf, .length = len,
				      .lkey = q->ep.mr[MR_DATA].mr->lkey };
	s->wr = (struct ibv_send_wr){ .sg_list = s->sge, .num_sge = 1, .opcode = IBV_WR_SEND };
	if (len && cmd->opc == RCTL_NVME_OPC_WRITE && q->b.qid && len <= q->b.inline_max) {
		memset(&cmd->sgl, 0, sizeof(cmd->sgl));
		cmd->sgl.kind = RCTL_SGL_OFFSET;
		cmd->sgl.len = len;
		s->wr.num_sge = 2;
	} else {
		rctl_nvmf_keys_sgl(&q->keys, q->rkeys, (uint16_t)slot, cmd, len);
	}
	rctl_nvme_sqe_encode(q->sqes + slot * RCTL_NVME_SQE_SIZE, cmd);
	/* send sequence numbers: the ring maps each unconfirmed one to its slot */
	s->wr.wr_id = WR_SEND | q->seq_posted;
	q->seq_posted++;
	q->sring[q->sput] = (uint16_t)slot;
	q->sput = (uint16_t)((q->sput + 1) % q->b.limit);
	if (++q->unsig >= q->sig_every) {
		q->unsig = 0;
		s->wr.send_flags = IBV_SEND_SIGNALED;
	}
	s->pend = PEND_SEND | PEND_RECV;
	if (q->tail)
		q->tail->next = &s->wr;
	else
		q->head = &s->wr;
	q->tail = &s->wr;
	q->nqueued++;
	q->b.outstanding++;
	return 0;
}

/* Post every queued send as one chain; one clock read stamps them all. */
static int rdma_flush(struct rctl_nvmf_q *bq, struct rctl_err *e)
{
	struct rq *q = rq_of(bq);
	struct ibv_send_wr *w;
	uint64_t now;
	char qn[32];
	int ret;

	if (!q->head)
		return 0;
	now = rctl_fast_ns();
	for (w = q->head; w; w = w->next)
		((struct slot *)((char *)w - offsetof(struct slot, wr)))->t_submit = now;
	w = q->head;
	q->head = q->tail = NULL;
	q->nqueued = 0;
	ret = rctl_rdma_ep_post_sends(&q->ep, w);
	if (ret) {
		q->b.dead = true;
		return rctl_err_strerror(e, -ret, "%s: cannot post a send", qname(q, qn, sizeof(qn)));
	}
	return 0;
}

static void slot_report(struct rq *q, int slot, struct rctl_nvmf_done *d)
{
	struct slot *s = &q->slots[slot];

	d->slot = slot;
	d->status = s->status;
	d->dw0 = s->dw0;
	d->dw1 = s->dw1;
	d->t_submit_ns = s->t_submit;
	d->t_done_ns = s->t_done;
	s->pend |= REPORTED;
	q->b.outstanding--;
}

/* Both halves seen: report (unless done already) and free the slot. */
static int slot_finish(struct rq *q, int slot, struct rctl_nvmf_done *d)
{
	struct slot *s = &q->slots[slot];
	int n = 0;

	if (!(s->pend & REPORTED)) {
		slot_report(q, slot, d);
		n = 1;
	}
	s->pend = 0;
	q->free[q->nfree++] = (uint16_t)slot;
	return n;
}

/* A CQE arrived in RECV buffer idx: match it to its slot. */
static int on_recv(struct rq *q, uint32_t idx, uint32_t byte_len, uint64_t now,
		   struct rctl_nvmf_done *d, struct rctl_err *e)
{
	struct rctl_nvme_cqe cqe;
	struct slot *s;
	unsigned int n;
	char qn[32];

	if (rctl_nvme_cqe_recv(q->rsps + idx * RCTL_NVME_CQE_SIZE, byte_len, &cqe)) {
		q->b.dead = true;
		return rctl_err_plain(e, EPROTO, "%s: a completion of %u bytes, not %u",
				    qname(q, qn, sizeof(qn)), byte_len, RCTL_NVME_CQE_SIZE);
	}
	n = rctl_nvme_cid_slot(cqe.cid, q->cid_bits);
	s = n < q->b.limit ? &q->slots[n] : NULL;
	if (!s || !(s->pend & PEND_RECV) || s->gen != rctl_nvme_cid_gen(cqe.cid, q->cid_bits)) {
		q->b.dead = true;
		return rctl_err_plain(e, EPROTO, "%s: completion with unknown CID %#x",
				    qname(q, qn, sizeof(qn)), cqe.cid);
	}
	s->t_done = now;
	s->status = cqe.status;
	s->dw0 = cqe.dw0;
	s->dw1 = cqe.dw1;
	s->pend &= ~PEND_RECV;
	if (!(s->pend & PEND_SEND))
		return slot_finish(q, (int)n, d);
	if (q->sig_every == 1)
		return 0;	/* its own send completion comes */
	slot_report(q, (int)n, d);	/* done; the slot waits for its send */
	return 1;
}

/* A signalled send completed: it and every send before it are confirmed. */
static int on_send(struct rq *q, uint32_t seq, struct rctl_nvmf_done *d)
{
	struct slot *s;
	int n = 0, slot;

	while ((int32_t)(seq - q->seq_done) >= 0) {
		slot = q->sring[q->sget];
		q->sget = (uint16_t)((q->sget + 1) % q->b.limit);
		q->seq_done++;
		s = &q->slots[slot];
		s->pend &= ~PEND_SEND;
		if (!(s->pend & PEND_RECV))
			n += slot_finish(q, slot, &d[n]);
	}
	return n;
}

static int wc_failed(struct rq *q, const struct ibv_wc *wc, struct rctl_err *e)
{
	char qn[32];

	q->b.dead = true;
	return rctl_err_plain(e, ECONNRESET, "%s: %s completion failed: %s (%d)",
			    qname(q, qn, sizeof(qn)), wc->wr_id & WR_SEND ? "send" : "receive",
			    ibv_wc_status_str(wc->status), wc->status);
}

/*
 * At most max reports: an I/O queue reports only on CQEs (one per work
 * completion), the admin queue (every send signalled) one per completion.
 */
static int rdma_poll(struct rctl_nvmf_q *bq, struct rctl_nvmf_done *d, int max,
		     struct rctl_err *e)
{
	struct rq *q = rq_of(bq);
	struct ibv_wc wc[POLL_BATCH];
	uint32_t rx[POLL_BATCH];
	int i, n, nrx = 0, done = 0, ret = 0;
	uint64_t now = 0;
	char qn[32];

	if (q->b.dead)
		return rctl_err_plain(e, ENOTCONN, "queue %u is down", q->b.qid);
	n = ibv_poll_cq(q->ep.rcq, max < POLL_BATCH ? max : POLL_BATCH, wc);
	if (n < 0)
		return rctl_err_plain(e, EIO, "queue %u: cannot poll the completion queue", q->b.qid);
	if (n)
		now = rctl_fast_ns();
	for (i = 0; i < n && ret >= 0; i++) {
		if (wc[i].status != IBV_WC_SUCCESS)
			return wc_failed(q, &wc[i], e);
		if (wc[i].wr_id & WR_SEND) {
			ret = on_send(q, (uint32_t)wc[i].wr_id, &d[done]);
		} else {
			rx[nrx++] = (uint32_t)wc[i].wr_id;
			ret = on_recv(q, (uint32_t)wc[i].wr_id, wc[i].byte_len, now, &d[done], e);
		}
		done += ret > 0 ? ret : 0;
	}
	if (ret < 0)
		return ret;
	if (post_recvs(q, rx, nrx)) {
		q->b.dead = true;
		return rctl_err_strerror(e, errno, "%s: cannot repost receives", qname(q, qn, sizeof(qn)));
	}
	return done;
}

static int rdma_arm(struct rctl_nvmf_q *bq, struct rctl_err *e)
{
	struct rq *q = rq_of(bq);
	int ret = rctl_rdma_ep_arm(&q->ep, false);

	if (ret)
		return rctl_err_strerror(e, -ret, "queue %u: cannot arm the completion queue",
				    q->b.qid);
	return 0;
}

/* The completion channel, non-blocking since q_verbs(). */
static int rdma_wait_fd(struct rctl_nvmf_q *bq, short *events)
{
	*events = POLLIN;
	return rq_of(bq)->ep.cc->fd;
}

static void rdma_ack(struct rctl_nvmf_q *bq)
{
	rctl_rdma_ep_cq_event(&rq_of(bq)->ep);
}

/* Resolve, create the verbs resources, connect; Fabrics Connect is the controller's. */
static int rdma_q_open(struct rctl_nvmf_ctrl *c, const struct rctl_nvmf_qparams *p,
		       struct rctl_nvmf_q **out, struct rctl_err *e)
{
	struct rq *q = NULL;
	int ret;

	*out = NULL;
	ret = q_alloc(c, p->qid, p->depth, p->limit, p->buf_size, &q, e);
	if (!ret) {
		q->b.inline_max = p->inline_max;
		ret = cm_resolve(q, e);
	}
	if (!ret)
		ret = q_verbs(q, p->event, e);
	if (!ret)
		ret = cm_connect(q, p->cntlid, e);
	if (!p->qid)
		c->info.admin_crqsize = q ? q->crqsize : 0;
	if (ret) {
		q_free(q);
		return ret;
	}
	*out = &q->b;
	return 0;
}

/*
 * After the Fabrics Connect of an I/O queue: the target may have posted
 * fewer RECVs than asked (CRQSIZE), and one send in sig_every is signalled.
 */
static void rdma_q_ready(struct rctl_nvmf_q *bq)
{
	struct rq *q = rq_of(bq);
	uint16_t i;

	if (!q->b.qid)
		return;
	if (q->crqsize > 1 && q->crqsize - 1 < q->b.limit) {
		q->b.limit = q->crqsize - 1;
		for (q->nfree = 0, i = 0; i < q->b.limit; i++)
			q->free[q->nfree++] = q->b.limit - 1 - i;
		q->sput = q->sget = 0;		/* empty: Connect was confirmed */
	}
	q->sig_every = q->b.limit / 2 > SIG_EVERY_MAX ? SIG_EVERY_MAX :
		       q->b.limit / 2 ? q->b.limit / 2 : 1;
}

static void rdma_q_free(struct rctl_nvmf_q *bq)
{
	q_free(rq_of(bq));
}

/* In-capsule writes only when SGLS.SAOS is set, ICDOFF is 0 and they fit IOCCSZ. */
static uint32_t rdma_inline_max(const struct rctl_nvmf_ctrl *c, uint16_t qid)
{
	const struct rctl_nvme_id_ctrl *id = &c->info.id;

	if (!qid || !(id->sgls & RCTL_NVME_SGLS_SAOS) || id->icdoff)
		return 0;
	return rctl_nvme_inline_max(id->ioccsz);
}

static void rdma_ctrl_free(struct rctl_nvmf_ctrl *c)
{
	struct rtp *t = c->tp;

	if (t) {
		ibv_dealloc_pd(t->pd);
		free(t);
	}
	c->tp = NULL;
}

const struct rctl_nvmf_transport rctl_nvmf_rdma = {
	.name = "rdma",
	.keyed_sgl = true,
	.inline_max = rdma_inline_max,
	.q_open = rdma_q_open,
	.q_ready = rdma_q_ready,
	.q_free = rdma_q_free,
	.alloc = rdma_alloc,
	.buf = rdma_buf,
	.queue = rdma_queue,
	.flush = rdma_flush,
	.poll = rdma_poll,
	.arm = rdma_arm,
	.wait_fd = rdma_wait_fd,
	.ack = rdma_ack,
	.ctrl_free = rdma_ctrl_free,
};
