// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Userspace NVMe-oF RDMA host (see include/rocectl/nvmf.h). One RC QP and one
 * CQ per NVMe queue; every command has a slot holding its SQE, its data
 * buffer and its state. A slot is free again only when both the SEND and the
 * RECV (CQE) completion were seen: the response may overtake the local SEND
 * completion, and the HCA may still read the SQE (or in-capsule data) for a
 * retransmission until then. RECVs are posted before rdma_connect, so before
 * the first SEND.
 *
 * Per-I/O costs kept off the I/O path (bench nvmf): sends queued by
 * rctl_nvmf_q_queue() go out as one WR chain per rctl_nvmf_q_flush() (one
 * doorbell, and on rxe one system call, per batch); on I/O queues only one
 * send in SIG_EVERY is signalled, and its completion confirms every send
 * before it (a QP completes its sends in order), so a command is reported
 * done on its CQE alone and its slot is reused once its send is confirmed;
 * receives are reposted as one chain per poll; the clock (rctl_fast_ns(),
 * the calibrated TSC where it is invariant) is read once per flush and once
 * per poll that found a CQE, not per command.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
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
#include "rocectl/nvmf.h"

enum { PEND_SEND = 1, PEND_RECV = 2, REPORTED = 4 };
#define WR_SEND (1ull << 32)
#define SIG_EVERY_MAX 16		/* I/O queues: signal one send in this many (at most limit/2) */
#define POLL_BATCH 32			/* work completions per ibv_poll_cq */
#define ADMIN_LIMIT 2			/* one command plus one Keep Alive */
#define ADMIN_BUF (64 * 1024)		/* a page of the discovery log: 64 records */
#define CM_STATUS_CONSUMER_REJ 28	/* IB_CM_REJ_CONSUMER_DEFINED */

struct slot {
	uint8_t pend;
	uint16_t gen;			/* of the CID (rctl_nvme_cid()) */
	uint16_t status;
	uint32_t dw0, dw1;
	uint64_t t_submit, t_done;
	struct ibv_send_wr wr;
	struct ibv_sge sge[2];
};

struct rctl_nvmf_q {
	struct rctl_nvmf_ctrl *ctrl;
	uint16_t qid;
	uint16_t depth;			/* SQ entries: SQSIZE + 1 = RECVs posted */
	uint16_t limit;			/* most commands outstanding */
	unsigned int cid_bits;		/* of the slot in a CID */
	uint16_t outstanding;
	uint16_t crqsize;
	uint32_t buf_size, inline_max;
	bool connected, dead;
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	struct ibv_comp_channel *cc;
	struct ibv_cq *cq;
	uint8_t *sqes, *rsps, *data;
	struct ibv_mr *sqe_mr, *rsp_mr, *data_mr;
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
};

struct rctl_nvmf_ctrl {
	struct rctl_nvmf_opts o;
	struct rctl_nvmf_info info;
	char subnqn[256];
	uint8_t hostid[16];
	struct ibv_pd *pd;
	struct rctl_nvmf_q *admin;
	uint32_t cc;
	bool enabled;
	int ka_slot;			/* -1: no Keep Alive outstanding */
	unsigned int tries;		/* connect attempts of the admin queue */
	uint64_t ka_last, ka_sent;
};

static const char *qname(const struct rctl_nvmf_q *q, char *buf, size_t len)
{
	if (q->qid)
		snprintf(buf, len, "I/O queue %u", q->qid);
	else
		snprintf(buf, len, "admin queue");
	return buf;
}

/* ---- RDMA CM --------------------------------------------------------- */

/* Next CM event of q's channel within timeout_ms; the caller acks it. */
static int cm_event(struct rctl_nvmf_q *q, int timeout_ms,
		    struct rdma_cm_event **ev)
{
	struct pollfd pfd = { .fd = q->ch->fd, .events = POLLIN };
	int ret;

	ret = poll(&pfd, 1, timeout_ms);
	if (ret < 0)
		return -errno;
	if (!ret)
		return -ETIMEDOUT;
	if (rdma_get_cm_event(q->ch, ev))
		return errno == EAGAIN ? -ETIMEDOUT : -errno;
	return 0;
}

static int cm_step(struct rctl_nvmf_q *q, enum rdma_cm_event_type want,
		   const char *step, struct rctl_err *e)
{
	const struct rctl_nvmf_ctrl *c = q->ctrl;
	struct rdma_cm_event *ev;
	char qn[32];
	int ret, status;

	ret = cm_event(q, c->o.timeout_ms, &ev);
	qname(q, qn, sizeof(qn));
	if (ret == -ETIMEDOUT)
		return rctl_err_plain(e, ETIMEDOUT, "%s: cannot %s '%s': no answer within %d ms",
				    qn, step, c->o.traddr, c->o.timeout_ms);
	if (ret)
		return rctl_err_strerror(e, -ret, "%s: cannot %s '%s'", qn, step, c->o.traddr);
	if (ev->event == want) {
		rdma_ack_cm_event(ev);
		return 0;
	}
	status = ev->status;
	ret = rctl_err_plain(e, EHOSTUNREACH, "%s: cannot %s '%s': %s (status %d)", qn,
			   step, c->o.traddr, rdma_event_str(ev->event), status);
	rdma_ack_cm_event(ev);
	return ret;
}

static int cm_resolve(struct rctl_nvmf_q *q, struct rctl_err *e)
{
	const struct rctl_nvmf_opts *o = &q->ctrl->o;
	struct rdma_addrinfo hints = { .ai_port_space = RDMA_PS_TCP }, *res;
	char port[8], qn[32];
	uint8_t tos;
	int ret;

	snprintf(port, sizeof(port), "%u", o->port);
	if (rdma_getaddrinfo(o->traddr, port, &hints, &res))
		return rctl_err_plain(e, EINVAL, "cannot resolve target address '%s'",
				    o->traddr);
	ret = rdma_resolve_addr(q->id, NULL, res->ai_dst_addr, o->timeout_ms);
	rdma_freeaddrinfo(res);
	if (ret)
		return rctl_err_strerror(e, errno, "%s: cannot resolve address '%s'",
				    qname(q, qn, sizeof(qn)), o->traddr);
	ret = cm_step(q, RDMA_CM_EVENT_ADDR_RESOLVED, "resolve address", e);
	if (ret)
		return ret;
	tos = (uint8_t)o->tos;
	if (o->tos >= 0 &&
	    rdma_set_option(q->id, RDMA_OPTION_ID, RDMA_OPTION_ID_TOS, &tos, sizeof(tos)))
		return rctl_err_strerror(e, errno, "%s: cannot set tos %d", qn, o->tos);
	if (rdma_resolve_route(q->id, o->timeout_ms))
		return rctl_err_strerror(e, errno, "%s: cannot resolve route to '%s'", qn,
				    o->traddr);
	return cm_step(q, RDMA_CM_EVENT_ROUTE_RESOLVED, "resolve route to", e);
}

static int cm_rejected(struct rctl_nvmf_q *q, struct rdma_cm_event *ev,
		       struct rctl_err *e)
{
	const struct rctl_nvmf_opts *o = &q->ctrl->o;
	const void *pd = ev->param.conn.private_data;
	uint8_t len = ev->param.conn.private_data_len;
	const char *name;
	uint16_t sts;
	char qn[32];

	qname(q, qn, sizeof(qn));
	if (ev->status == CM_STATUS_CONSUMER_REJ && !rctl_nvmf_cm_rej(pd, len, &sts)) {
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

static int cm_connect(struct rctl_nvmf_q *q, uint16_t cntlid, struct rctl_err *e)
{
	struct rctl_nvmf_ctrl *c = q->ctrl;
	struct rdma_conn_param p = { 0 };
	struct ibv_device_attr da;
	struct rdma_cm_event *ev;
	uint8_t pd[RCTL_NVMF_CM_PRIV_SIZE];
	char qn[32];
	int ret;

	qname(q, qn, sizeof(qn));
	if (ibv_query_device(q->id->verbs, &da))
		return rctl_err_strerror(e, errno, "%s: cannot query device", qn);
	rctl_nvmf_cm_req(pd, q->qid, q->depth, q->depth - 1, cntlid);
	p.private_data = pd;
	p.private_data_len = sizeof(pd);
	p.responder_resources = da.max_qp_rd_atom > 255 ? 255 : (uint8_t)da.max_qp_rd_atom;
	p.initiator_depth = 0;	/* the host never issues RDMA READs */
	p.flow_control = 1;
	p.retry_count = 7;
	p.rnr_retry_count = 7;
	if (rdma_connect(q->id, &p))
		return rctl_err_strerror(e, errno, "%s: cannot connect to '%s'", qn, c->o.traddr);
	ret = cm_event(q, c->o.timeout_ms, &ev);
	if (ret == -ETIMEDOUT)
		return rctl_err_plain(e, ETIMEDOUT, "%s: connect to '%s:%u': no answer within %d ms",
				    qn, c->o.traddr, c->o.port, c->o.timeout_ms);
	if (ret)
		return rctl_err_strerror(e, -ret, "%s: connect to '%s'", qn, c->o.traddr);
	if (ev->event == RDMA_CM_EVENT_ESTABLISHED) {
		if (rctl_nvmf_cm_rep(ev->param.conn.private_data,
				     ev->param.conn.private_data_len, &q->crqsize))
			q->crqsize = 0;
		q->connected = true;
		ret = 0;
	} else if (ev->event == RDMA_CM_EVENT_REJECTED) {
		ret = cm_rejected(q, ev, e);
	} else {
		ret = rctl_err_plain(e, EHOSTUNREACH, "%s: connect to '%s:%u': %s (status %d)",
				   qn, c->o.traddr, c->o.port, rdma_event_str(ev->event),
				   ev->status);
	}
	rdma_ack_cm_event(ev);
	return ret;
}

/* ---- queue resources ------------------------------------------------- */

static struct ibv_mr *reg(struct rctl_nvmf_q *q, uint8_t **buf, size_t len, int acc)
{
	*buf = aligned_alloc(4096, (len + 4095) & ~(size_t)4095);
	if (!*buf)
		return NULL;
	memset(*buf, 0, len);
	return ibv_reg_mr(q->ctrl->pd, *buf, len, acc);
}

/* Prepared RECV WRs, one per response buffer; reposting links them into a chain. */
static void recv_wrs_init(struct rctl_nvmf_q *q)
{
	uint32_t i;

	for (i = 0; i < q->depth; i++) {
		q->rsge[i] = (struct ibv_sge){
			.addr = (uintptr_t)(q->rsps + i * RCTL_NVME_CQE_SIZE),
			.length = RCTL_NVME_CQE_SIZE, .lkey = q->rsp_mr->lkey,
		};
		q->rwr[i] = (struct ibv_recv_wr){ .wr_id = i, .sg_list = &q->rsge[i],
						  .num_sge = 1 };
	}
}

/* Post the RECVs of buffers idx[0..n) as one chain. */
static int post_recvs(struct rctl_nvmf_q *q, const uint32_t *idx, int n)
{
	struct ibv_recv_wr *bad;
	int i;

	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		q->rwr[idx[i]].next = i + 1 < n ? &q->rwr[idx[i + 1]] : NULL;
	return ibv_post_recv(q->id->qp, &q->rwr[idx[0]], &bad);
}

static int q_verbs(struct rctl_nvmf_q *q, bool event, struct rctl_err *e)
{
	struct rctl_nvmf_ctrl *c = q->ctrl;
	struct ibv_qp_init_attr qa = { .qp_type = IBV_QPT_RC };
	int acc = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE;
	char qn[32];
	uint32_t i;

	qname(q, qn, sizeof(qn));
	if (!c->pd) {
		c->pd = ibv_alloc_pd(q->id->verbs);
		if (!c->pd)
			return rctl_err_strerror(e, errno, "%s: cannot allocate a protection domain", qn);
		snprintf(c->info.ibdev, sizeof(c->info.ibdev), "%s",
			 ibv_get_device_name(q->id->verbs->device));
	} else if (c->pd->context != q->id->verbs) {
		return rctl_err_plain(e, EXDEV, "%s: route to '%s' uses another RDMA device",
				    qn, c->o.traddr);
	}
	if (event && !(q->cc = ibv_create_comp_channel(q->id->verbs)))
		return rctl_err_strerror(e, errno, "%s: cannot create a completion channel", qn);
	q->cq = ibv_create_cq(q->id->verbs, 2 * (q->depth + 1), q, q->cc, 0);
	if (!q->cq)
		return rctl_err_strerror(e, errno, "%s: cannot create a completion queue", qn);
	qa.send_cq = qa.recv_cq = q->cq;
	qa.cap.max_send_wr = q->limit + 1;
	qa.cap.max_recv_wr = q->depth + 1;
	qa.cap.max_send_sge = 2;
	qa.cap.max_recv_sge = 1;
	if (rdma_create_qp(q->id, c->pd, &qa))
		return rctl_err_strerror(e, errno, "%s: cannot create a queue pair", qn);
	q->sqe_mr = reg(q, &q->sqes, (size_t)q->limit * RCTL_NVME_SQE_SIZE, IBV_ACCESS_LOCAL_WRITE);
	q->rsp_mr = reg(q, &q->rsps, (size_t)q->depth * RCTL_NVME_CQE_SIZE, IBV_ACCESS_LOCAL_WRITE);
	q->data_mr = reg(q, &q->data, (size_t)q->limit * q->buf_size, acc);
	if (!q->sqe_mr || !q->rsp_mr || !q->data_mr)
		return rctl_err_strerror(e, errno, "%s: cannot register %u bytes of buffers", qn,
				    q->limit * q->buf_size);
	recv_wrs_init(q);
	for (i = 0; i < q->depth; i++)
		q->rwr[i].next = i + 1 < q->depth ? &q->rwr[i + 1] : NULL;
	if (ibv_post_recv(q->id->qp, &q->rwr[0], &(struct ibv_recv_wr *){ NULL }))
		return rctl_err_strerror(e, errno, "%s: cannot post receives", qn);
	if (q->cc && fcntl(q->cc->fd, F_SETFL, fcntl(q->cc->fd, F_GETFL) | O_NONBLOCK))
		return rctl_err_strerror(e, errno, "%s: cannot set the completion channel non-blocking", qn);
	return 0;
}

static void q_free(struct rctl_nvmf_q *q)
{
	if (!q)
		return;
	if (q->connected)
		rdma_disconnect(q->id);
	if (q->id && q->id->qp)
		rdma_destroy_qp(q->id);
	if (q->cq)
		ibv_destroy_cq(q->cq);
	if (q->cc)
		ibv_destroy_comp_channel(q->cc);
	if (q->sqe_mr)
		ibv_dereg_mr(q->sqe_mr);
	if (q->rsp_mr)
		ibv_dereg_mr(q->rsp_mr);
	if (q->data_mr)
		ibv_dereg_mr(q->data_mr);
	free(q->sqes);
	free(q->rsps);
	free(q->data);
	free(q->slots);
	free(q->free);
	free(q->sring);
	free(q->rwr);
	free(q->rsge);
	if (q->id)
		rdma_destroy_id(q->id);
	if (q->ch)
		rdma_destroy_event_channel(q->ch);
	free(q);
}

static int q_alloc(struct rctl_nvmf_ctrl *c, uint16_t qid, uint16_t depth,
		   uint16_t limit, uint32_t buf_size, struct rctl_nvmf_q **out,
		   struct rctl_err *e)
{
	struct rctl_nvmf_q *q = calloc(1, sizeof(*q));
	uint16_t i;

	if (!q)
		return rctl_err_strerror(e, ENOMEM, "cannot allocate queue %u", qid);
	*out = q;
	q->ctrl = c;
	q->qid = qid;
	q->depth = depth;
	q->limit = limit;
	q->cid_bits = rctl_nvme_cid_bits(limit);
	q->buf_size = buf_size;
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
	q->ch = rdma_create_event_channel();
	if (!q->ch)
		return rctl_err_strerror(e, errno, "cannot connect to '%s': no rdma_cm event channel",
				    c->o.traddr);
	if (fcntl(q->ch->fd, F_SETFL, fcntl(q->ch->fd, F_GETFL) | O_NONBLOCK))
		return rctl_err_strerror(e, errno, "cannot set the rdma_cm channel non-blocking");
	if (rdma_create_id(q->ch, &q->id, q, RDMA_PS_TCP))
		return rctl_err_strerror(e, errno, "cannot create an rdma_cm id");
	return 0;
}

/* ---- commands -------------------------------------------------------- */

int rctl_nvmf_q_alloc(struct rctl_nvmf_q *q)
{
	if (!q->nfree)
		return -EBUSY;
	return q->free[--q->nfree];
}

void *rctl_nvmf_q_buf(struct rctl_nvmf_q *q, int slot)
{
	return q->data + (size_t)slot * q->buf_size;
}

uint16_t rctl_nvmf_q_limit(const struct rctl_nvmf_q *q)
{
	return q->limit;
}

uint16_t rctl_nvmf_q_outstanding(const struct rctl_nvmf_q *q)
{
	return q->outstanding;
}

uint32_t rctl_nvmf_q_inline_max(const struct rctl_nvmf_q *q)
{
	return q->inline_max;
}

/* Fill slot's SQE and its send WR; the WR goes into the queue's pending chain. */
int rctl_nvmf_q_queue(struct rctl_nvmf_q *q, int slot, struct rctl_nvme_cmd *cmd,
		      uint32_t len, struct rctl_err *e)
{
	struct slot *s = &q->slots[slot];
	uint8_t *buf = rctl_nvmf_q_buf(q, slot);
	char qn[32];

	if (q->dead)
		return rctl_err_plain(e, ENOTCONN, "%s: queue is down", qname(q, qn, sizeof(qn)));
	s->gen = rctl_nvme_gen_next(s->gen, q->cid_bits);
	cmd->cid = rctl_nvme_cid((uint16_t)slot, s->gen, q->cid_bits);
	memset(&cmd->sgl, 0, sizeof(cmd->sgl));
	s->sge[0] = (struct ibv_sge){ .addr = (uintptr_t)(q->sqes + slot * RCTL_NVME_SQE_SIZE),
				      .length = RCTL_NVME_SQE_SIZE, .lkey = q->sqe_mr->lkey };
	s->sge[1] = (struct ibv_sge){ .addr = (uintptr_t)buf, .length = len,
				      .lkey = q->data_mr->lkey };
	s->wr = (struct ibv_send_wr){ .sg_list = s->sge, .num_sge = 1, .opcode = IBV_WR_SEND };
	if (len && cmd->opc == RCTL_NVME_OPC_WRITE && q->qid && len <= q->inline_max) {
		cmd->sgl.kind = RCTL_SGL_OFFSET;
		cmd->sgl.len = len;
		s->wr.num_sge = 2;
	} else if (len) {
		cmd->sgl.addr = (uintptr_t)buf;
		cmd->sgl.len = len;
		cmd->sgl.key = q->data_mr->rkey;
	}
	rctl_nvme_sqe_encode(q->sqes + slot * RCTL_NVME_SQE_SIZE, cmd);
	/* send sequence numbers: the ring maps each unconfirmed one to its slot */
	s->wr.wr_id = WR_SEND | q->seq_posted;
	q->seq_posted++;
	q->sring[q->sput] = (uint16_t)slot;
	q->sput = (uint16_t)((q->sput + 1) % q->limit);
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
	q->outstanding++;
	return 0;
}

/* Post every queued send as one chain; one clock read stamps them all. */
int rctl_nvmf_q_flush(struct rctl_nvmf_q *q, struct rctl_err *e)
{
	struct ibv_send_wr *bad, *w;
	uint64_t now;
	char qn[32];

	if (!q->head)
		return 0;
	now = rctl_fast_ns();
	for (w = q->head; w; w = w->next)
		((struct slot *)((char *)w - offsetof(struct slot, wr)))->t_submit = now;
	w = q->head;
	q->head = q->tail = NULL;
	q->nqueued = 0;
	if (ibv_post_send(q->id->qp, w, &bad)) {
		q->dead = true;
		return rctl_err_strerror(e, errno, "%s: cannot post a send", qname(q, qn, sizeof(qn)));
	}
	return 0;
}

int rctl_nvmf_q_submit(struct rctl_nvmf_q *q, int slot, struct rctl_nvme_cmd *cmd,
		       uint32_t len, struct rctl_err *e)
{
	int ret = rctl_nvmf_q_queue(q, slot, cmd, len, e);

	return ret ? ret : rctl_nvmf_q_flush(q, e);
}

static void slot_report(struct rctl_nvmf_q *q, int slot, struct rctl_nvmf_done *d)
{
	struct slot *s = &q->slots[slot];

	d->slot = slot;
	d->status = s->status;
	d->dw0 = s->dw0;
	d->dw1 = s->dw1;
	d->t_submit_ns = s->t_submit;
	d->t_done_ns = s->t_done;
	s->pend |= REPORTED;
	q->outstanding--;
}

/* Both halves seen: report (unless done already) and free the slot. */
static int slot_finish(struct rctl_nvmf_q *q, int slot, struct rctl_nvmf_done *d)
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
static int on_recv(struct rctl_nvmf_q *q, uint32_t idx, uint32_t byte_len, uint64_t now,
		   struct rctl_nvmf_done *d, struct rctl_err *e)
{
	struct rctl_nvme_cqe cqe;
	struct slot *s;
	unsigned int n;
	char qn[32];

	if (rctl_nvme_cqe_recv(q->rsps + idx * RCTL_NVME_CQE_SIZE, byte_len, &cqe)) {
		q->dead = true;
		return rctl_err_plain(e, EPROTO, "%s: a completion of %u bytes, not %u",
				    qname(q, qn, sizeof(qn)), byte_len, RCTL_NVME_CQE_SIZE);
	}
	n = rctl_nvme_cid_slot(cqe.cid, q->cid_bits);
	s = n < q->limit ? &q->slots[n] : NULL;
	if (!s || !(s->pend & PEND_RECV) || s->gen != rctl_nvme_cid_gen(cqe.cid, q->cid_bits)) {
		q->dead = true;
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
static int on_send(struct rctl_nvmf_q *q, uint32_t seq, struct rctl_nvmf_done *d)
{
	struct slot *s;
	int n = 0, slot;

	while ((int32_t)(seq - q->seq_done) >= 0) {
		slot = q->sring[q->sget];
		q->sget = (uint16_t)((q->sget + 1) % q->limit);
		q->seq_done++;
		s = &q->slots[slot];
		s->pend &= ~PEND_SEND;
		if (!(s->pend & PEND_RECV))
			n += slot_finish(q, slot, &d[n]);
	}
	return n;
}

static int wc_failed(struct rctl_nvmf_q *q, const struct ibv_wc *wc, struct rctl_err *e)
{
	char qn[32];

	q->dead = true;
	return rctl_err_plain(e, ECONNRESET, "%s: %s completion failed: %s (%d)",
			    qname(q, qn, sizeof(qn)), wc->wr_id & WR_SEND ? "send" : "receive",
			    ibv_wc_status_str(wc->status), wc->status);
}

/*
 * At most max reports: an I/O queue reports only on CQEs (one per work
 * completion), the admin queue (every send signalled) one per completion.
 */
int rctl_nvmf_q_poll(struct rctl_nvmf_q *q, struct rctl_nvmf_done *d, int max,
		     struct rctl_err *e)
{
	struct ibv_wc wc[POLL_BATCH];
	uint32_t rx[POLL_BATCH];
	int i, n, nrx = 0, done = 0, ret = 0;
	uint64_t now = 0;
	char qn[32];

	if (q->dead)
		return rctl_err_plain(e, ENOTCONN, "queue %u is down", q->qid);
	n = ibv_poll_cq(q->cq, max < POLL_BATCH ? max : POLL_BATCH, wc);
	if (n < 0)
		return rctl_err_plain(e, EIO, "queue %u: cannot poll the completion queue", q->qid);
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
		q->dead = true;
		return rctl_err_strerror(e, errno, "%s: cannot repost receives", qname(q, qn, sizeof(qn)));
	}
	return done;
}

int rctl_nvmf_arm(struct rctl_nvmf_q **qs, int n, struct rctl_err *e)
{
	int i;

	for (i = 0; i < n; i++)
		if (ibv_req_notify_cq(qs[i]->cq, 0))
			return rctl_err_strerror(e, errno, "queue %u: cannot arm the completion queue",
					    qs[i]->qid);
	return 0;
}

int rctl_nvmf_wait(struct rctl_nvmf_q **qs, int n, int timeout_ms, struct rctl_err *e)
{
	struct pollfd pfd[64];
	struct ibv_cq *cq;
	void *ctx;
	int i, ret;

	for (i = 0; i < n && i < 64; i++) {
		pfd[i].fd = qs[i]->cc->fd;	/* non-blocking since q_verbs() */
		pfd[i].events = POLLIN;
	}
	ret = poll(pfd, (nfds_t)i, timeout_ms);
	if (ret < 0)
		return errno == EINTR ? 0 : rctl_err_strerror(e, errno, "cannot wait for completions");
	for (i = 0; i < n && i < 64; i++)
		if ((pfd[i].revents & POLLIN) && !ibv_get_cq_event(qs[i]->cc, &cq, &ctx))
			ibv_ack_cq_events(cq, 1);
	return 0;
}

/* A free slot for a synchronous command (bring-up runs one at a time). */
static int sync_slot(struct rctl_nvmf_q *q, struct rctl_err *e)
{
	int slot = rctl_nvmf_q_alloc(q);
	char qn[32];

	if (slot < 0)
		return rctl_err_plain(e, EBUSY, "%s: no free slot", qname(q, qn, sizeof(qn)));
	return slot;
}

/* Submit cmd on slot and wait for it; a failed status is the caller's to judge. */
static int exec(struct rctl_nvmf_q *q, int slot, struct rctl_nvme_cmd *cmd,
		uint32_t len, struct rctl_nvmf_done *out, struct rctl_err *e)
{
	uint64_t deadline = rctl_clock_ns() + (uint64_t)q->ctrl->o.timeout_ms * 1000000;
	struct rctl_nvmf_done d[4];
	int i, n, ret;
	char qn[32];

	ret = rctl_nvmf_q_submit(q, slot, cmd, len, e);
	if (ret)
		return ret;
	while (rctl_clock_ns() < deadline) {
		n = rctl_nvmf_q_poll(q, d, 4, e);
		if (n < 0)
			return n;
		for (i = 0; i < n; i++)
			if (d[i].slot == slot) {
				*out = d[i];
				return 0;
			}
	}
	q->dead = true;
	return rctl_err_plain(e, ETIMEDOUT, "%s: command %#x got no answer within %d ms",
			    qname(q, qn, sizeof(qn)), cmd->opc, q->ctrl->o.timeout_ms);
}

/* exec() on a fresh slot, a failed status turned into "STEP: <status phrase>". */
static int exec_ok(struct rctl_nvmf_q *q, int slot, struct rctl_nvme_cmd *cmd,
		   uint32_t len, const char *step, struct rctl_nvmf_done *d,
		   struct rctl_err *e)
{
	char st[160];
	int ret;

	if (slot < 0)
		slot = sync_slot(q, e);
	if (slot < 0)
		return slot;
	ret = exec(q, slot, cmd, len, d, e);
	if (ret)
		return ret;
	if (!d->status)
		return 0;
	rctl_nvme_status_str(st, sizeof(st), d->status, d->dw0,
			     cmd->opc == RCTL_NVME_OPC_FABRICS && cmd->fctype == RCTL_NVMF_CONNECT);
	return rctl_err_plain(e, EIO, "%s: %s", step, st);
}

/* Fabrics Connect on q; the 1024-byte data goes by keyed SGL (nvmet's admin RECVs are 64 B). */
static int fabrics_connect(struct rctl_nvmf_q *q, uint16_t cntlid, uint32_t kato,
			   uint16_t *cntlid_out, struct rctl_err *e)
{
	struct rctl_nvmf_ctrl *c = q->ctrl;
	struct rctl_nvmf_done d;
	struct rctl_nvme_cmd cmd;
	int slot = sync_slot(q, e), ret;
	char step[400], qn[32];

	if (slot < 0)
		return slot;
	rctl_nvmf_connect_data(rctl_nvmf_q_buf(q, slot), c->hostid, cntlid, c->subnqn,
			       c->info.hostnqn);
	rctl_nvmf_connect_cmd(&cmd, q->qid, q->depth - 1, kato);
	qname(q, qn, sizeof(qn));
	if (!q->qid && !strcmp(c->subnqn, RCTL_NVMF_DISC_NQN))
		snprintf(step, sizeof(step), "%s: connect to the discovery subsystem on '%s:%u' failed",
			 qn, c->o.traddr, c->o.port);
	else
		snprintf(step, sizeof(step), "%s: connect to subsystem '%s' on '%s:%u' failed",
			 qn, c->subnqn, c->o.traddr, c->o.port);
	ret = exec_ok(q, slot, &cmd, RCTL_NVMF_CONNECT_DATA_SIZE, step, &d, e);
	if (ret)
		return ret;
	*cntlid_out = (uint16_t)d.dw0;
	return 0;
}

/* Connect the RDMA side of q, then its Fabrics Connect. */
static int q_open(struct rctl_nvmf_q *q, bool event, uint16_t cntlid, uint32_t kato,
		  uint16_t *cntlid_out, struct rctl_err *e)
{
	int ret;

	ret = cm_resolve(q, e);
	if (!ret)
		ret = q_verbs(q, event, e);
	if (!ret)
		ret = cm_connect(q, cntlid, e);
	if (!ret)
		ret = fabrics_connect(q, cntlid, kato, cntlid_out, e);
	return ret;
}

/* ---- controller ------------------------------------------------------ */

static int prop_get(struct rctl_nvmf_ctrl *c, uint32_t reg, bool eight,
		    uint64_t *v, struct rctl_err *e)
{
	static const char *const names[] = { [0x00] = "cap", [0x08] = "vs",
					     [0x14] = "cc", [0x1c] = "csts" };
	struct rctl_nvme_cmd cmd;
	struct rctl_nvmf_done d;
	char step[64];
	int ret;

	rctl_nvmf_prop_get_cmd(&cmd, reg, eight);
	snprintf(step, sizeof(step), "property get %s failed", names[reg]);
	ret = exec_ok(c->admin, -1, &cmd, 0, step, &d, e);
	if (!ret)
		*v = d.dw0 | (eight ? (uint64_t)d.dw1 << 32 : 0);
	return ret;
}

static int prop_set_cc(struct rctl_nvmf_ctrl *c, uint32_t v, struct rctl_err *e)
{
	struct rctl_nvme_cmd cmd;
	struct rctl_nvmf_done d;
	char step[64];

	rctl_nvmf_prop_set_cmd(&cmd, RCTL_NVME_REG_CC, v);
	snprintf(step, sizeof(step), "property set cc %#x failed", v);
	return exec_ok(c->admin, -1, &cmd, 0, step, &d, e);
}

/*
 * Poll CSTS until (csts & mask) == want, within (CAP.TO + 1) x 500 ms but no
 * longer than wait_ms: CAP.TO is the target's word, up to 128 s.
 */
static int csts_wait(struct rctl_nvmf_ctrl *c, uint32_t mask, uint32_t want,
		     const char *what, struct rctl_err *e)
{
	uint64_t ms = rctl_nvme_ready_ms(c->info.cap, (uint64_t)c->o.wait_ms), v = 0;
	uint64_t deadline = rctl_clock_ns() + ms * 1000000;
	struct timespec pause = { 0, 1000000 };
	int ret;

	do {
		ret = prop_get(c, RCTL_NVME_REG_CSTS, false, &v, e);
		if (ret)
			return ret;
		if ((v & mask) == want)
			return 0;
		if (v & RCTL_NVME_CSTS_CFS)
			return rctl_err_plain(e, EIO, "controller fatal status (csts %#x) while %s",
					    (uint32_t)v, what);
		nanosleep(&pause, NULL);
	} while (rctl_clock_ns() < deadline);
	return rctl_err_plain(e, ETIMEDOUT, "controller not %s within %llu ms (csts %#x)",
			    what, (unsigned long long)ms, (uint32_t)v);
}

static int identify(struct rctl_nvmf_ctrl *c, uint8_t cns, uint32_t nsid,
		    const uint8_t **page, struct rctl_err *e)
{
	struct rctl_nvme_cmd cmd;
	struct rctl_nvmf_done d;
	char step[64];
	int slot = sync_slot(c->admin, e), ret;

	if (slot < 0)
		return slot;
	rctl_nvme_identify_cmd(&cmd, cns, nsid);
	snprintf(step, sizeof(step), "identify (cns %u, nsid %u) failed", cns, nsid);
	ret = exec_ok(c->admin, slot, &cmd, RCTL_NVME_IDENTIFY_SIZE, step, &d, e);
	*page = rctl_nvmf_q_buf(c->admin, slot);
	return ret;
}

static int enable(struct rctl_nvmf_ctrl *c, struct rctl_err *e)
{
	const uint8_t *page;
	uint64_t vs;
	int ret;

	ret = prop_get(c, RCTL_NVME_REG_CAP, true, &c->info.cap, e);
	if (!ret)
		ret = prop_get(c, RCTL_NVME_REG_VS, false, &vs, e);
	if (ret)
		return ret;
	c->info.vs = (uint32_t)vs;
	c->cc = rctl_nvme_cc(true, 0, 0);
	ret = prop_set_cc(c, c->cc, e);
	if (!ret)
		ret = csts_wait(c, RCTL_NVME_CSTS_RDY, RCTL_NVME_CSTS_RDY, "ready", e);
	if (ret)
		return ret;
	c->enabled = true;
	ret = identify(c, 0x01, 0, &page, e);
	if (ret)
		return ret;
	rctl_nvme_id_ctrl_decode(page, &c->info.id);
	if (!(c->info.id.sgls & RCTL_NVME_SGLS_KEYED))
		return rctl_err_plain(e, ENOTSUP, "subsystem '%s' does not support keyed SGLs",
				    c->subnqn);
	return 0;
}

static void default_hostnqn(struct rctl_nvmf_ctrl *c)
{
	const uint8_t *u = c->hostid;

	snprintf(c->info.hostnqn, sizeof(c->info.hostnqn),
		 "nqn.2014-08.org.nvmexpress:uuid:%02x%02x%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2], u[3], u[4], u[5],
		 u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

/* A random (version 4) UUID per run: the probe is its own host. */
static int make_hostid(struct rctl_nvmf_ctrl *c, struct rctl_err *e)
{
	if (getrandom(c->hostid, sizeof(c->hostid), 0) != sizeof(c->hostid))
		return rctl_err_strerror(e, errno, "cannot make a host id");
	c->hostid[6] = (c->hostid[6] & 0x0f) | 0x40;
	c->hostid[8] = (c->hostid[8] & 0x3f) | 0x80;
	return 0;
}

static int ctrl_init(struct rctl_nvmf_ctrl *c, const struct rctl_nvmf_opts *o,
		     struct rctl_err *e)
{
	c->o = *o;
	c->ka_slot = -1;
	if (strlen(o->subnqn) > RCTL_NVMF_NQN_MAX || !o->subnqn[0])
		return rctl_err_plain(e, EINVAL, "subsystem NQN '%s' is empty or longer than %d bytes",
				    o->subnqn, RCTL_NVMF_NQN_MAX);
	if (o->hostnqn && (strlen(o->hostnqn) > RCTL_NVMF_NQN_MAX || !o->hostnqn[0]))
		return rctl_err_plain(e, EINVAL, "host NQN '%s' is empty or longer than %d bytes",
				    o->hostnqn, RCTL_NVMF_NQN_MAX);
	snprintf(c->subnqn, sizeof(c->subnqn), "%s", o->subnqn);
	if (make_hostid(c, e))
		return -e->errnum;
	if (o->hostnqn)
		snprintf(c->info.hostnqn, sizeof(c->info.hostnqn), "%s", o->hostnqn);
	else
		default_hostnqn(c);
	return 0;
}

struct rctl_nvmf_opts rctl_nvmf_opts_default(const char *traddr, uint16_t port,
					     const char *subnqn)
{
	return (struct rctl_nvmf_opts){
		.traddr = traddr, .port = port, .subnqn = subnqn, .tos = -1,
		.timeout_ms = RCTL_NVMF_CM_TIMEOUT_MS, .wait_ms = RCTL_NVMF_WAIT_MS,
		.kato_ms = strcmp(subnqn, RCTL_NVMF_DISC_NQN) ? RCTL_NVMF_KATO_MS : 0,
	};
}

/*
 * Whether a failed connect is tried again, and after how long. The kernel
 * host (drivers/nvme/host/rdma.c) waits for each rdma_cm step with no timer
 * of its own (nvme_rdma_wait_for_cm(): the CM retransmits a lost REQ itself)
 * and, once a controller was live, reconnects every reconnect_delay (10 s)
 * until ctrl_loss_tmo (600 s) unless the target answered with DNR set
 * (nvme_rdma_reconnect_or_remove(), nvmf_should_reconnect() in fabrics.c).
 * A benchmark has less patience: RCTL_NVMF_CONNECT_TRIES attempts, each
 * bounded by timeout_ms per step, backing off from RETRY_DELAY_MS, doubling
 * up to RETRY_DELAY_MAX_MS. Only silence and lost connections are retried:
 * a rejection, a refusal or an NVMe status is an answer and stands.
 */
#define RETRY_DELAY_MS 250
#define RETRY_DELAY_MAX_MS 2000

bool rctl_nvmf_retry(int errnum, unsigned int attempt, uint32_t *delay_ms)
{
	uint32_t d = RETRY_DELAY_MS;
	unsigned int i;

	if (attempt >= RCTL_NVMF_CONNECT_TRIES)
		return false;
	if (errnum != ETIMEDOUT && errnum != EHOSTUNREACH && errnum != ECONNRESET &&
	    errnum != ENOTCONN)
		return false;
	for (i = 1; i < attempt && d < RETRY_DELAY_MAX_MS; i++)
		d *= 2;
	*delay_ms = d < RETRY_DELAY_MAX_MS ? d : RETRY_DELAY_MAX_MS;
	return true;
}

static void sleep_ms(uint32_t ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* After the last attempt: say how many there were, keeping the first message. */
static int tries_note(struct rctl_err *e, unsigned int tries, uint64_t t0)
{
	char msg[sizeof(e->msg)];

	if (tries > 1) {
		snprintf(msg, sizeof(msg), "%s (%u attempts in %.1f s)", e->msg, tries,
			 (double)(rctl_clock_ns() - t0) / 1e9);
		snprintf(e->msg, sizeof(e->msg), "%s", msg);
	}
	return -e->errnum;
}

/* One attempt: admin queue, Fabrics Connect, enable, Identify. */
static int connect_once(struct rctl_nvmf_ctrl *c, struct rctl_err *e)
{
	uint16_t cntlid = 0;
	int ret;

	ret = q_alloc(c, 0, RCTL_NVME_AQ_DEPTH, ADMIN_LIMIT, ADMIN_BUF, &c->admin, e);
	if (!ret)
		ret = q_open(c->admin, false, 0xffff, c->o.kato_ms, &cntlid, e);
	c->info.cntlid = cntlid;
	c->info.admin_crqsize = c->admin ? c->admin->crqsize : 0;
	if (!ret)
		ret = enable(c, e);
	if (ret) {
		c->enabled = false;	/* a half-enabled controller goes with its queue */
		q_free(c->admin);
		c->admin = NULL;
	}
	return ret;
}

int rctl_nvmf_connect(const struct rctl_nvmf_opts *o, struct rctl_nvmf_ctrl **out,
		      struct rctl_err *e)
{
	struct rctl_nvmf_ctrl *c = calloc(1, sizeof(*c));
	uint64_t t0 = rctl_clock_ns();
	unsigned int tries = 0;
	uint32_t delay;
	int ret;

	*out = NULL;
	if (!c)
		return rctl_err_strerror(e, ENOMEM, "cannot allocate a controller");
	ret = ctrl_init(c, o, e);
	while (!ret) {
		ret = connect_once(c, e);
		if (!ret || !rctl_nvmf_retry(e->errnum, ++tries, &delay))
			break;
		sleep_ms(delay);
		ret = 0;
	}
	c->tries = tries;
	if (ret) {
		tries_note(e, tries, t0);
		rctl_nvmf_close(c);
		return ret;
	}
	c->ka_last = rctl_clock_ns();
	*out = c;
	return 0;
}

const struct rctl_nvmf_info *rctl_nvmf_info(const struct rctl_nvmf_ctrl *c)
{
	return &c->info;
}

/* CC.SHN = normal, wait for SHST complete; skipped when the admin queue is down. */
static void shutdown_ctrl(struct rctl_nvmf_ctrl *c)
{
	struct rctl_err e = { 0 };

	if (!c->enabled || !c->admin || c->admin->dead || c->admin->nfree < 1)
		return;
	if (c->o.timeout_ms > 2000)
		c->o.timeout_ms = 2000;
	if (prop_set_cc(c, rctl_nvme_cc(true, 0, 1), &e))
		return;
	csts_wait(c, 0x3u << 2, 0x2u << 2, "shut down", &e);
}

void rctl_nvmf_close(struct rctl_nvmf_ctrl *c)
{
	if (!c)
		return;
	shutdown_ctrl(c);
	q_free(c->admin);
	if (c->pd)
		ibv_dealloc_pd(c->pd);
	free(c);
}

/* ---- admin commands for the bench ----------------------------------- */

/* One page of the discovery log (rctl_nvmf_log_read). */
static int get_log(void *ctx, uint64_t off, uint32_t len, const uint8_t **page,
		   struct rctl_err *e)
{
	struct rctl_nvmf_ctrl *c = ctx;
	struct rctl_nvme_cmd cmd;
	struct rctl_nvmf_done d;
	int slot = sync_slot(c->admin, e), ret;

	if (slot < 0)
		return slot;
	rctl_nvme_get_log_cmd(&cmd, RCTL_NVME_LOG_DISC, len, off);
	ret = exec_ok(c->admin, slot, &cmd, len, "get log page discovery failed", &d, e);
	*page = rctl_nvmf_q_buf(c->admin, slot);
	return ret;
}

int rctl_nvmf_discover(struct rctl_nvmf_ctrl *c, struct rctl_nvmf_disc_entry **ents,
		       uint32_t *n, struct rctl_err *e)
{
	return rctl_nvmf_disc_read(get_log, c, ADMIN_BUF, ents, n, e);
}

int rctl_nvmf_set_queues(struct rctl_nvmf_ctrl *c, uint16_t want, uint16_t *got,
			 struct rctl_err *e)
{
	struct rctl_nvme_cmd cmd;
	struct rctl_nvmf_done d;
	uint16_t nsq, ncq;
	int ret;

	rctl_nvme_set_nq_cmd(&cmd, want, want);
	ret = exec_ok(c->admin, -1, &cmd, 0, "set features number of queues failed", &d, e);
	if (ret)
		return ret;
	rctl_nvme_nq_decode(d.dw0, &nsq, &ncq);
	*got = want < nsq ? want : nsq;
	if (ncq < *got)
		*got = ncq;
	return 0;
}

int rctl_nvmf_active_ns(struct rctl_nvmf_ctrl *c, uint32_t *ids, uint32_t max,
			uint32_t *n, struct rctl_err *e)
{
	const uint8_t *page;
	int ret = identify(c, 0x02, 0, &page, e);

	*n = ret ? 0 : rctl_nvme_ns_list_decode(page, ids, max);
	return ret;
}

int rctl_nvmf_identify_ns(struct rctl_nvmf_ctrl *c, uint32_t nsid,
			  struct rctl_nvme_id_ns *ns, struct rctl_err *e)
{
	const uint8_t *page;
	int ret = identify(c, 0x00, nsid, &page, e);

	if (ret)
		return ret;
	rctl_nvme_id_ns_decode(page, ns);
	if (!ns->nsze)
		return rctl_err_plain(e, ENOENT, "namespace %u of '%s' is not active", nsid,
				    c->subnqn);
	return 0;
}

int rctl_nvmf_keep_alive(struct rctl_nvmf_ctrl *c, uint64_t now, struct rctl_err *e)
{
	struct rctl_nvmf_done d[2];
	struct rctl_nvme_cmd cmd;
	uint64_t kato = (uint64_t)c->o.kato_ms * 1000000;
	int i, n;

	if (!kato)
		return 0;
	n = rctl_nvmf_q_poll(c->admin, d, 2, e);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		if (d[i].slot != c->ka_slot)
			continue;
		c->ka_slot = -1;
		if (d[i].status)
			return rctl_err_plain(e, EIO, "keep-alive failed: %s",
					    rctl_nvme_status_name(d[i].status) ?: "unknown status");
	}
	if (c->ka_slot >= 0 && now - c->ka_last > kato)
		return rctl_err_plain(e, ETIMEDOUT, "keep-alive: no answer within kato %u ms",
				    c->o.kato_ms);
	if (c->ka_slot >= 0 || now - c->ka_last < kato / 2)
		return 0;
	c->ka_slot = sync_slot(c->admin, e);
	if (c->ka_slot < 0)
		return c->ka_slot;
	rctl_nvme_keep_alive_cmd(&cmd);
	c->ka_last = now;
	c->ka_sent++;
	return rctl_nvmf_q_submit(c->admin, c->ka_slot, &cmd, 0, e);
}

uint64_t rctl_nvmf_ka_sent(const struct rctl_nvmf_ctrl *c)
{
	return c->ka_sent;
}

/* ---- I/O queues ------------------------------------------------------ */

/* In-capsule writes only when SGLS.SAOS is set, ICDOFF is 0 and they fit IOCCSZ. */
static uint32_t inline_max(const struct rctl_nvme_id_ctrl *id)
{
	if (!(id->sgls & RCTL_NVME_SGLS_SAOS) || id->icdoff)
		return 0;
	return rctl_nvme_inline_max(id->ioccsz);
}

static int ioq_create_once(struct rctl_nvmf_ctrl *c, uint16_t qid, uint16_t qd,
			   uint32_t buf_size, bool event, struct rctl_nvmf_q **out,
			   struct rctl_err *e)
{
	struct rctl_nvmf_q *q = NULL;
	uint16_t cntlid, i;
	int ret;

	*out = NULL;
	if (buf_size < RCTL_NVMF_CONNECT_DATA_SIZE)
		buf_size = RCTL_NVMF_CONNECT_DATA_SIZE;
	/* SQSIZE = qd (0's based): qd + 1 entries, so qd commands fit (one stays empty). */
	ret = q_alloc(c, qid, (uint16_t)(qd + 1), qd, buf_size, &q, e);
	if (!ret)
		ret = q_open(q, event, c->info.cntlid, 0, &cntlid, e);
	if (!ret && q->crqsize > 1 && q->crqsize - 1 < q->limit) {
		q->limit = q->crqsize - 1;	/* the target posted fewer RECVs */
		for (q->nfree = 0, i = 0; i < q->limit; i++)
			q->free[q->nfree++] = q->limit - 1 - i;
		q->sput = q->sget = 0;		/* empty: Connect was confirmed */
	}
	if (!ret)
		q->sig_every = q->limit / 2 > SIG_EVERY_MAX ? SIG_EVERY_MAX :
			       q->limit / 2 ? q->limit / 2 : 1;
	if (ret) {
		q_free(q);
		return ret;
	}
	q->inline_max = inline_max(&c->info.id);
	*out = q;
	return 0;
}

void rctl_nvmf_ioq_destroy(struct rctl_nvmf_q *q)
{
	q_free(q);
}

/* An I/O queue's connect is retried as the admin queue's (rctl_nvmf_retry()). */
int rctl_nvmf_ioq_create(struct rctl_nvmf_ctrl *c, uint16_t qid, uint16_t qd,
			 uint32_t buf_size, bool event, struct rctl_nvmf_q **out,
			 struct rctl_err *e)
{
	uint64_t t0 = rctl_clock_ns();
	unsigned int tries = 0;
	uint32_t delay;
	int ret;

	for (;;) {
		ret = ioq_create_once(c, qid, qd, buf_size, event, out, e);
		if (!ret || !rctl_nvmf_retry(e->errnum, ++tries, &delay))
			break;
		sleep_ms(delay);
	}
	return ret ? tries_note(e, tries, t0) : 0;
}

unsigned int rctl_nvmf_connect_tries(const struct rctl_nvmf_ctrl *c)
{
	return c->tries;
}
