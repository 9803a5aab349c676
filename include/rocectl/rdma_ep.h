/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One RDMA endpoint: the rdma_cm event channel and cm_id (RDMA_PS_TCP), CM
 * waits that are always bounded and hand back a copy of the event (its
 * private data included), the verbs objects of one RC QP (PD, completion
 * channel, one CQ or a send and a receive CQ, the QP with the caller's caps,
 * up to RCTL_RDMA_EP_MRS registered buffers), posting one work request or a
 * chain, arming the CQs, and one teardown in the order verbs needs. reach's
 * and bench rdma's probe connection (lib/probe.c), serve's listener and
 * clients (lib/serve.c) and the NVMe-oF RDMA queues (lib/nvmf_rdma.c) stand
 * on it.
 *
 * The endpoint owns what it created: close() frees exactly that, so a
 * half-built endpoint is closed like a whole one.
 */
#ifndef ROCECTL_RDMA_EP_H
#define ROCECTL_RDMA_EP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "rocectl/err.h"

/*
 * Busy polling reads the clock only once in RCTL_SPINS_PER_CLOCK empty polls:
 * where the clocksource is HPET (many VMs) a read costs microseconds.
 */
#define RCTL_SPINS_PER_CLOCK 512u
/*
 * A busy poller that has waited this long yields the CPU at each clock read:
 * a peer polling on the same CPU (a VM with few vCPUs) then runs at once
 * instead of after a scheduler slice. Round trips shorter than this never
 * yield.
 */
#define RCTL_YIELD_NS 100000u

#define RCTL_RDMA_EP_MRS 3		/* NVMe-oF: SQEs, CQEs, data */
#define RCTL_RDMA_PRIV_MAX 256		/* librdmacm's RDMA_MAX_PRIVATE_DATA */

struct rctl_rdma_buf {
	char *p;			/* page aligned, freed by close */
	size_t len;
	struct ibv_mr *mr;
};

struct rctl_rdma_ep {
	struct rdma_event_channel *ch;	/* NULL: the id is on a listener's channel */
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	bool own_pd;			/* false: the caller's, shared (NVMe-oF) */
	struct ibv_comp_channel *cc;	/* NULL: the CQs are polled only */
	struct ibv_cq *scq, *rcq;	/* the same CQ unless caps.split_cq */
	struct rctl_rdma_buf mr[RCTL_RDMA_EP_MRS];
	uint32_t max_inline;		/* what the QP granted */
	bool armed;			/* CQs armed: the next wait sleeps */
	bool connected;			/* close() disconnects first */
};

/* An event channel (non-blocking if asked) and an RDMA_PS_TCP id with context ctx. */
int rctl_rdma_ep_open(struct rctl_rdma_ep *ep, void *ctx, bool nonblock,
		      struct rctl_err *e);
/* An endpoint around an id a listener's CONNECT_REQUEST brought (no channel of its own). */
void rctl_rdma_ep_adopt(struct rctl_rdma_ep *ep, struct rdma_cm_id *id);

/* Seconds as poll(2) milliseconds, clamped to INT_MAX; never negative. */
int rctl_rdma_ms(double secs);

/*
 * The next event of ch within timeout_ms; the caller acks it. -ETIMEDOUT when
 * none came (a non-blocking channel's EAGAIN too), -errno otherwise.
 */
int rctl_rdma_cm_wait(struct rdma_event_channel *ch, int timeout_ms,
		      struct rdma_cm_event **ev);

/* A CM event, copied and acked. */
struct rctl_rdma_cm_ev {
	enum rdma_cm_event_type type;
	int status;
	uint8_t initiator_depth, responder_resources;
	uint8_t priv_len;
	uint8_t priv[RCTL_RDMA_PRIV_MAX];
};
void rctl_rdma_cm_ev_copy(struct rctl_rdma_cm_ev *out, const struct rdma_cm_event *ev);
/* rctl_rdma_cm_wait() on the endpoint's channel, the event copied into *out and acked. */
int rctl_rdma_ep_event(struct rctl_rdma_ep *ep, int timeout_ms,
		       struct rctl_rdma_cm_ev *out);

/* What the verbs objects of an endpoint are made with. */
struct rctl_rdma_caps {
	const char *who;		/* message prefix ("admin queue"), or NULL */
	struct ibv_pd *pd;		/* a shared PD, or NULL: the endpoint's own */
	bool comp_channel;		/* the CQs report to a completion channel */
	bool cc_nonblock;		/* ... a non-blocking one (several polled at once) */
	bool split_cq;			/* a send CQ and a receive CQ */
	uint32_t cq_entries;		/* of each CQ */
	uint32_t send_wr, recv_wr, send_sge, recv_sge;
	uint32_t max_inline;		/* asked; the QP is made without when refused */
};

/*
 * PD (unless shared), completion channel, CQ(s) and the RC QP on the resolved
 * id. The messages name the device: "cannot create a CQ on 'rxe0'".
 */
int rctl_rdma_ep_create(struct rctl_rdma_ep *ep, const struct rctl_rdma_caps *caps,
			struct rctl_err *e);

/* The RC QP's init attributes from caps and the endpoint's CQs (pure). */
void rctl_rdma_qp_attr(const struct rctl_rdma_ep *ep, const struct rctl_rdma_caps *caps,
		       struct ibv_qp_init_attr *qa);

/* len rounded up to whole 4 KiB pages: what aligned_alloc() is asked for (pure). */
size_t rctl_rdma_page_round(size_t len);
/* ep->mr[i]: len bytes, page aligned, filled with fill, registered with access. */
void *rctl_rdma_ep_reg(struct rctl_rdma_ep *ep, unsigned int i, size_t len,
		       int fill, int access, struct rctl_err *e);

/* One work request of one SGE. */
struct rctl_rdma_wr {
	uint64_t id;
	enum ibv_wr_opcode op;
	const void *addr;
	uint32_t len, lkey;
	uint64_t raddr;			/* RDMA WRITE and READ */
	uint32_t rkey;
	uint32_t imm;			/* host order, for *_WITH_IMM */
	bool signaled;
	bool may_inline;		/* inline when len fits max_inline */
};

/* The send flags of w on ep: signalled, inline (pure). */
unsigned int rctl_rdma_send_flags(const struct rctl_rdma_ep *ep,
				  const struct rctl_rdma_wr *w);
/* Post w; 0 or -errno. */
int rctl_rdma_ep_send(struct rctl_rdma_ep *ep, const struct rctl_rdma_wr *w);
/* Post one receive of len bytes at addr; 0 or -errno. */
int rctl_rdma_ep_recv(struct rctl_rdma_ep *ep, uint64_t id, void *addr,
		      uint32_t len, uint32_t lkey);
/* Post a chain of work requests with one doorbell; 0 or -errno. */
int rctl_rdma_ep_post_sends(struct rctl_rdma_ep *ep, struct ibv_send_wr *chain);
int rctl_rdma_ep_post_recvs(struct rctl_rdma_ep *ep, struct ibv_recv_wr *chain);

/* Arm the receive CQ, and the send CQ when it is another; 0 or -errno. */
int rctl_rdma_ep_arm(struct rctl_rdma_ep *ep, bool recv_only);
/* Take and ack one event of the completion channel (after poll(2) said POLLIN). */
bool rctl_rdma_ep_cq_event(struct rctl_rdma_ep *ep);

/*
 * Disconnect when connected (waiting at most wait_ms for the DREP or timewait
 * event when the endpoint has a channel of its own), then destroy what the
 * endpoint holds; it is all zero afterwards.
 */
void rctl_rdma_ep_close(struct rctl_rdma_ep *ep, int wait_ms);

/* The device name of the endpoint's id ("?" before address resolution). */
const char *rctl_rdma_ep_dev(const struct rctl_rdma_ep *ep);
/* enum ibv_mtu in bytes, 0 for anything that is not one (pure). */
uint32_t rctl_rdma_mtu_bytes(int mtu);
/* The active MTU of the port of a resolved id in bytes, 0 unknown. */
uint32_t rctl_rdma_active_mtu(struct rdma_cm_id *id);
/* IB CM REJ reasons worth naming (IBTA 12.6.7.2; ib_cm_rej_reason), pure. */
const char *rctl_rdma_rej_reason(int status);

/* The netdev holding a local address, and its MTU (0 when unreadable). */
int rctl_addr_netdev(const struct sockaddr *sa, char *ifname, size_t len,
		     uint32_t *mtu);

#endif
