/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The interface between the NVMe-oF controller (lib/nvmf_ctrl.c: Fabrics
 * Connect, properties, enable, Identify, discovery, features, keep-alive)
 * and its transports (lib/nvmf_rdma.c, lib/nvmf_tcp.c). A transport moves
 * 64-byte commands, their data and 16-byte completions on one queue; the
 * controller knows nothing of verbs or sockets. lib/ only: the commands see
 * include/rocectl/nvmf.h.
 *
 * Every transport queue starts with struct rctl_nvmf_q, so the controller
 * and the public rctl_nvmf_q_*() calls reach the transport through q->tr.
 */
#ifndef ROCECTL_NVMF_TRANSPORT_H
#define ROCECTL_NVMF_TRANSPORT_H

#include <stdio.h>

#include "rocectl/nvmf.h"

struct rctl_nvmf_q {
	const struct rctl_nvmf_transport *tr;
	struct rctl_nvmf_ctrl *ctrl;
	uint16_t qid;
	uint16_t depth;			/* SQ entries: SQSIZE + 1 */
	uint16_t limit;			/* most commands outstanding */
	uint16_t outstanding;
	uint32_t buf_size;		/* data buffer of each slot */
	uint32_t inline_max;		/* largest in-capsule write (0: none) */
	bool dead;			/* the connection failed: no more commands */
};

struct rctl_nvmf_ctrl {
	struct rctl_nvmf_opts o;
	const struct rctl_nvmf_transport *tr;
	void *tp;			/* the transport's per-controller state */
	struct rctl_nvmf_info info;
	char subnqn[256];
	uint8_t hostid[16];
	struct rctl_nvmf_q *admin;
	uint32_t cc;
	bool enabled;
	int ka_slot;			/* -1: no Keep Alive outstanding */
	unsigned int tries;		/* connect attempts of the admin queue */
	uint64_t ka_last, ka_sent;
};

/* What a queue is opened with: the controller's choice, the transport's to honour. */
struct rctl_nvmf_qparams {
	uint16_t qid, depth, limit;
	uint32_t buf_size, inline_max;
	uint16_t cntlid;		/* 0xffff on the admin queue */
	bool event;			/* completions can be waited for (rctl_nvmf_wait()) */
};

struct rctl_nvmf_transport {
	const char *name;		/* "rdma", "tcp": as nvme-cli's --transport */
	bool keyed_sgl;			/* data moves by keyed SGL: SGLS must offer it */
	/* Largest in-capsule write on queue qid (from Identify on I/O queues). */
	uint32_t (*inline_max)(const struct rctl_nvmf_ctrl *c, uint16_t qid);
	/* Allocate and connect the transport's side of a queue; frees it on failure. */
	int (*q_open)(struct rctl_nvmf_ctrl *c, const struct rctl_nvmf_qparams *p,
		      struct rctl_nvmf_q **out, struct rctl_err *e);
	/* After a good Fabrics Connect, with no command outstanding. */
	void (*q_ready)(struct rctl_nvmf_q *q);
	void (*q_free)(struct rctl_nvmf_q *q);
	int (*alloc)(struct rctl_nvmf_q *q);
	void *(*buf)(struct rctl_nvmf_q *q, int slot);
	int (*queue)(struct rctl_nvmf_q *q, int slot, struct rctl_nvme_cmd *cmd,
		     uint32_t len, struct rctl_err *e);
	int (*flush)(struct rctl_nvmf_q *q, struct rctl_err *e);
	int (*poll)(struct rctl_nvmf_q *q, struct rctl_nvmf_done *d, int max,
		    struct rctl_err *e);
	/* Event mode: arm, the fd to poll (and its events), consume its event. */
	int (*arm)(struct rctl_nvmf_q *q, struct rctl_err *e);
	int (*wait_fd)(struct rctl_nvmf_q *q, short *events);
	void (*ack)(struct rctl_nvmf_q *q);
	void (*ctrl_free)(struct rctl_nvmf_ctrl *c);
};

extern const struct rctl_nvmf_transport rctl_nvmf_rdma;
extern const struct rctl_nvmf_transport rctl_nvmf_tcp;

/*
 * The NVMe/TCP queue without a socket, for tests and fuzzing: commands go
 * through q->tr as always; rctl_nvmf_tcp_rx() appends what the target
 * "sent" (as much as the receive buffer takes: *taken) and runs the receive
 * state machine over it, up to max completions (their number, or <0 and the
 * queue dead); rctl_nvmf_tcp_tx_sent() is the flush: it takes n bytes of the
 * send buffer as written to the socket and returns what is still pending,
 * *bound the most it may ever hold. Free with q->tr->q_free().
 */
int rctl_nvmf_tcp_q_detached(const struct rctl_nvmf_qparams *p, bool hdgst, bool ddgst,
			     uint32_t maxh2c, struct rctl_nvmf_q **out, struct rctl_err *e);
int rctl_nvmf_tcp_rx(struct rctl_nvmf_q *q, const uint8_t *b, size_t len, size_t *taken,
		     uint64_t now, struct rctl_nvmf_done *d, int max, struct rctl_err *e);
size_t rctl_nvmf_tcp_tx_sent(struct rctl_nvmf_q *q, size_t n, size_t *bound);

/*
 * "admin queue", "I/O queue 3": the subject of a queue's messages (inline:
 * the transports call nothing of the controller, which calls them).
 */
static inline const char *rctl_nvmf_qname(const struct rctl_nvmf_q *q, char *buf, size_t len)
{
	if (q->qid)
		snprintf(buf, len, "I/O queue %u", q->qid);
	else
		snprintf(buf, len, "admin queue");
	return buf;
}

#endif
