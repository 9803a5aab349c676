/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A userspace NVMe-oF host: a transport-neutral controller (lib/nvmf_ctrl.c)
 * over two transports (include/rocectl/nvmf_transport.h). RDMA (librdmacm
 * and libibverbs, lib/nvmf_rdma.c): one RC QP per NVMe queue, keyed SGLs for
 * data, in-capsule writes when the target allows them. TCP (NVMe/TCP,
 * lib/nvmf_tcp.c): one socket per NVMe queue, C2HData for reads, R2T and
 * H2CData for writes beyond the in-capsule size, optional header and data
 * digests. On both, the admin queue is brought up as the Linux host does
 * (Connect, CAP/VS, CC, CSTS.RDY, Identify), I/O queues each with their own
 * Connect, keep-alive on the admin queue. Every wait is bounded by
 * opts.timeout_ms.
 *
 * Order of teardown: rctl_nvmf_ioq_destroy() every I/O queue, then
 * rctl_nvmf_close() (CC.SHN, then disconnect of the admin queue).
 */
#ifndef ROCECTL_NVMF_H
#define ROCECTL_NVMF_H

#include <stdbool.h>
#include <stdint.h>

#include "rocectl/err.h"
#include "rocectl/nvmf_wire.h"

enum rctl_nvmf_trtype { RCTL_NVMF_TR_RDMA, RCTL_NVMF_TR_TCP };

struct rctl_nvmf_opts {
	enum rctl_nvmf_trtype trtype;
	const char *traddr;
	uint16_t port;
	const char *subnqn;	/* RCTL_NVMF_DISC_NQN for discovery */
	const char *hostnqn;	/* NULL: nqn.2014-08.org.nvmexpress:uuid:<hostid> */
	uint32_t kato_ms;	/* 0: no keep-alive */
	int tos;		/* -1: rdma_cm's (RDMA) or the socket's (TCP) default */
	bool hdgst, ddgst;	/* TCP: header and data digests (CRC32C) */
	int timeout_ms;		/* each CM step and each command */
	int wait_ms;		/* CSTS waits (enable, shutdown): at most this; 0: CAP.TO */
};

struct rctl_nvmf_info {
	uint16_t cntlid;
	uint64_t cap;
	uint32_t vs;
	struct rctl_nvme_id_ctrl id;
	uint16_t admin_crqsize;
	char hostnqn[256];
	char ibdev[64];		/* RDMA device the route resolved to ("" on TCP) */
	uint32_t max_mr;	/* RDMA: the device's MRs at most (ibv_query_device) */
	bool keys_shared;	/* RDMA: a queue's keys span its buffer, not a slot (max_mr) */
	const char *transport;	/* "rdma", "tcp" */
	bool hdgst, ddgst;	/* TCP: digests the target agreed to */
	uint32_t maxh2cdata;	/* TCP: largest H2CData PDU the target takes */
};

struct rctl_nvmf_ctrl;
struct rctl_nvmf_q;

/* Session defaults (bench nvmf's --timeout replaces the CM, I/O and wait bounds). */
#define RCTL_NVMF_CM_TIMEOUT_MS 3000	/* each rdma_cm or TCP connect step, each admin command */
#define RCTL_NVMF_IO_TIMEOUT_MS 5000	/* no completion for this long: target gone */
#define RCTL_NVMF_KATO_MS 10000		/* keep-alive sent every KATO/2 */
#define RCTL_NVMF_WAIT_MS 10000		/* controller enable/shutdown, unless CAP.TO is shorter */

/*
 * Options with those defaults, RDMA, no host NQN, the default ToS;
 * keep-alive only for an NVM subsystem: a discovery controller is asked
 * once and left.
 */
struct rctl_nvmf_opts rctl_nvmf_opts_default(const char *traddr, uint16_t port,
					     const char *subnqn);

/*
 * Connect attempts of the admin queue and of each I/O queue: a connect that
 * met silence or lost its connection is tried again (rctl_nvmf_retry()).
 */
#define RCTL_NVMF_CONNECT_TRIES 5

/*
 * After failed attempt number attempt (1-based) with errnum: true and the
 * pause before the next in *delay_ms, or false to give up.
 */
bool rctl_nvmf_retry(int errnum, unsigned int attempt, uint32_t *delay_ms);

/* Connect the admin queue and enable the controller. */
int rctl_nvmf_connect(const struct rctl_nvmf_opts *o, struct rctl_nvmf_ctrl **out,
		      struct rctl_err *e);
const struct rctl_nvmf_info *rctl_nvmf_info(const struct rctl_nvmf_ctrl *c);
unsigned int rctl_nvmf_connect_tries(const struct rctl_nvmf_ctrl *c);
/* Orderly shutdown (CC.SHN, disconnect) when possible, then free. */
void rctl_nvmf_close(struct rctl_nvmf_ctrl *c);

/* Discovery log page; *ents is malloc'ed. */
int rctl_nvmf_discover(struct rctl_nvmf_ctrl *c, struct rctl_nvmf_disc_entry **ents,
		       uint32_t *n, struct rctl_err *e);
/* Set Features Number of Queues: *got = min(want, granted). */
int rctl_nvmf_set_queues(struct rctl_nvmf_ctrl *c, uint16_t want, uint16_t *got,
			 struct rctl_err *e);
int rctl_nvmf_active_ns(struct rctl_nvmf_ctrl *c, uint32_t *ids, uint32_t max,
			uint32_t *n, struct rctl_err *e);
/* -ENOENT (with a message) when nsid is inactive (NSZE 0). */
int rctl_nvmf_identify_ns(struct rctl_nvmf_ctrl *c, uint32_t nsid,
			  struct rctl_nvme_id_ns *ns, struct rctl_err *e);
/*
 * Call often from the I/O loop: sends Keep Alive every KATO/2 and reaps its
 * answer. -ETIMEDOUT when one went unanswered for KATO; -EIO on a failed one.
 */
int rctl_nvmf_keep_alive(struct rctl_nvmf_ctrl *c, uint64_t now_ns,
			 struct rctl_err *e);
uint64_t rctl_nvmf_ka_sent(const struct rctl_nvmf_ctrl *c);

/* ---- I/O queues ------------------------------------------------------ */

/*
 * Create I/O queue qid with room for qd outstanding commands (SQSIZE = qd,
 * so qd <= CAP.MQES), each with a buf_size data buffer. With "event" the
 * queue can be slept on with rctl_nvmf_wait() (RDMA: a completion channel;
 * TCP: its socket).
 */
int rctl_nvmf_ioq_create(struct rctl_nvmf_ctrl *c, uint16_t qid, uint16_t qd,
			 uint32_t buf_size, bool event, struct rctl_nvmf_q **out,
			 struct rctl_err *e);
void rctl_nvmf_ioq_destroy(struct rctl_nvmf_q *q);

/* Outstanding commands never exceed this (what the target granted). */
uint16_t rctl_nvmf_q_limit(const struct rctl_nvmf_q *q);
uint16_t rctl_nvmf_q_outstanding(const struct rctl_nvmf_q *q);
/* Largest write sent in-capsule on this queue (0: none). */
uint32_t rctl_nvmf_q_inline_max(const struct rctl_nvmf_q *q);

/* A free slot, or -EBUSY. Its buffer stays valid until the slot is reused. */
int rctl_nvmf_q_alloc(struct rctl_nvmf_q *q);
void *rctl_nvmf_q_buf(struct rctl_nvmf_q *q, int slot);

/*
 * Send cmd (CID and SGL are filled here) with len bytes of the slot's buffer:
 * Write commands in-capsule when they fit, everything else by keyed SGL
 * (RDMA) or by the target's R2T and C2HData (TCP).
 * rctl_nvmf_q_queue() only queues it; rctl_nvmf_q_flush() posts everything
 * queued as one WR chain (one doorbell); rctl_nvmf_q_submit() does both.
 */
int rctl_nvmf_q_queue(struct rctl_nvmf_q *q, int slot, struct rctl_nvme_cmd *cmd,
		      uint32_t len, struct rctl_err *e);
int rctl_nvmf_q_flush(struct rctl_nvmf_q *q, struct rctl_err *e);
int rctl_nvmf_q_submit(struct rctl_nvmf_q *q, int slot, struct rctl_nvme_cmd *cmd,
		       uint32_t len, struct rctl_err *e);

struct rctl_nvmf_done {
	int slot;
	uint16_t status;
	uint32_t dw0, dw1;
	uint64_t t_submit_ns;	/* rctl_fast_ns() just before ibv_post_send / send() */
	uint64_t t_done_ns;	/* rctl_fast_ns() when the CQE (or the last C2HData) was seen */
};

/*
 * Reap completions. On the admin queue a command is done when both its SEND
 * and its RECV (CQE) completions were seen; on an I/O queue when its CQE came
 * (its slot and buffer are reused only once its SEND is confirmed too).
 * Returns how many went into d[], or -errno: a failed work completion, a CQE
 * with an unknown CID, or a disconnected queue.
 */
int rctl_nvmf_q_poll(struct rctl_nvmf_q *q, struct rctl_nvmf_done *d, int max,
		     struct rctl_err *e);

/*
 * Event mode: arm the CQs, poll once more (completions that came before the
 * arming raise no event), and only when that found nothing, sleep in
 * rctl_nvmf_wait() until a CQ has an event or timeout_ms passed.
 */
int rctl_nvmf_arm(struct rctl_nvmf_q **qs, int n, struct rctl_err *e);
int rctl_nvmf_wait(struct rctl_nvmf_q **qs, int n, int timeout_ms,
		   struct rctl_err *e);


/* ---- the session of 'rocectl bench nvmf' (lib/nvmf_session.c) ------- */

struct rctl_nvmf_session_cfg {
	struct rctl_nvmf_opts conn;	/* subnqn unused: nqn below */
	const char *nqn;		/* NULL: the only NVM subsystem of the discovery log */
	uint32_t nsid;
	uint32_t bs;			/* bytes per I/O */
	int qd, queues;
	bool strict;			/* refuse instead of clamping qd and queues */
	bool event;
};

/* A request above the target's limit, clamped (without strict). */
struct rctl_nvmf_clamp {
	const char *what;		/* "qd", "queues" */
	int want, max;
};

struct rctl_nvmf_session {
	struct rctl_nvmf_ctrl *c;
	struct rctl_nvmf_q *q[64];
	int nq;
	uint16_t qd;
	struct rctl_nvme_id_ns ns;
	char nqn[257];
	struct rctl_nvmf_disc_entry *disc;	/* the discovery log, when it was read */
	uint32_t ndisc;
	struct rctl_nvmf_clamp clamp[2];
	int nclamp;
};

/*
 * Everything before the I/O: without cfg->nqn the discovery log (kept in
 * s->disc) and its only NVM subsystem (subtype 2); Connect; the namespace,
 * its block size and MDTS against cfg->bs; qd against CAP.MQES and queues
 * against Set Features Number of Queues (clamped, or refused with strict);
 * the I/O queues. *out is set even on error (the discovery log may be worth
 * showing); rctl_nvmf_session_close() it either way. A subsystem the target
 * does not have is named with the target's NVM subsystems in the message.
 */
int rctl_nvmf_session_open(const struct rctl_nvmf_session_cfg *cfg,
			   struct rctl_nvmf_session **out, struct rctl_err *e);
void rctl_nvmf_session_close(struct rctl_nvmf_session *s);

/* ---- the I/O engine of 'rocectl bench nvmf' (lib/bench_nvmf.c) -------- */

#include "rocectl/hist.h"

enum rctl_nvmf_rw {
	RCTL_RW_RANDREAD, RCTL_RW_READ, RCTL_RW_RANDWRITE, RCTL_RW_WRITE, RCTL_RW_RANDRW,
};

struct rctl_nvmf_progress {
	double elapsed_s;	/* since the measurement started (negative in ramp) */
	uint64_t ios;
	double iops, mibs;	/* over the last interval */
};

/*
 * How a queue thread waits for its completions: adaptive (the default) sleeps
 * part of the interval it measures, then polls (rocectl/hybrid_wait.h); poll
 * busy-polls; event sleeps on the completion channel after 10 us idle (the
 * queues must be created with event).
 */
enum rctl_nvmf_wait_mode { RCTL_WAIT_ADAPTIVE, RCTL_WAIT_POLL, RCTL_WAIT_EVENT };

/* Its name in text and JSON: "adaptive", "busy-poll" (as before the adaptive wait), "event". */
const char *rctl_nvmf_wait_name(enum rctl_nvmf_wait_mode m);

struct rctl_nvmf_bench_cfg {
	enum rctl_nvmf_rw rw;
	unsigned int mix_read;	/* randrw: percent reads */
	uint32_t bs;		/* bytes, a multiple of the block size */
	uint32_t nsid;
	uint64_t ns_blocks;
	unsigned int lbads;	/* log2 block size */
	double time_s;		/* measured seconds, 0 with ios */
	uint64_t ios;		/* measured I/Os, 0 with time_s */
	double ramp_s;
	bool verify;		/* each I/O unit: write a pattern, read it back, compare */
	enum rctl_nvmf_wait_mode wait;
	const int *cpus;	/* thread of queue i pinned to cpus[i % ncpus]; 0: unpinned */
	int ncpus;
	int io_timeout_ms;	/* no completion for this long: the target is gone */
	void (*progress)(const struct rctl_nvmf_progress *p, void *arg);
	void *arg;
};

struct rctl_nvmf_qstat {
	uint64_t ios, bytes;
	double cpu_s;		/* CPU time of the queue's thread */
	int cpu;		/* pinned to this CPU, -1: not pinned */
};

/* What the adaptive wait did, summed over the queues. */
struct rctl_nvmf_wait_stat {
	uint64_t idles;		/* idle periods it decided */
	uint64_t slept;		/* of those, the ones it slept in (the rest it polled) */
	uint64_t event_idles;	/* of the slept ones, those it waited on the completion channel in */
	uint64_t events;	/* waits on the channel, in all */
	uint64_t sleeps;	/* sleeps, in all */
	double slept_s;		/* time asleep */
	uint64_t interval_ns;	/* the queues' mean interval at the end */
	uint64_t cost_ns;	/* the queues' mean sleep cost at the end */
};

struct rctl_nvmf_bench_res {
	struct rctl_hist lat, rlat, wlat;	/* ns, merged from every queue */
	uint64_t ios, reads, writes, bytes;
	uint64_t verified;			/* units written, read back and equal */
	double elapsed_s, cpu_s;		/* cpu_s = usr_s + sys_s, the process's */
	double usr_s, sys_s;
	uint64_t ka_sent;
	bool partial;				/* stopped by an error */
	const char *clock_source;		/* rctl_fast_clock_source() */
	uint32_t nq;
	struct rctl_nvmf_qstat q[64];
	struct rctl_nvmf_wait_stat wait;	/* adaptive mode only */
};

/* Run on nq ready I/O queues (nq <= 64); res is filled even on error (partial). */
int rctl_nvmf_bench_run(struct rctl_nvmf_ctrl *c, struct rctl_nvmf_q **qs, int nq,
			const struct rctl_nvmf_bench_cfg *cfg,
			struct rctl_nvmf_bench_res *res, struct rctl_err *e);

/*
 * Parse a CPU list as taskset(1) and the kernel's cpulist files write it,
 * "0-3,6,8-9", into cpus[] in that order (at most max, no repeats, each below
 * CPU_SETSIZE). -EINVAL with a message naming the bad part.
 */
int rctl_cpu_list_parse(const char *s, int *cpus, int max, int *n, struct rctl_err *e);

/* The verify pattern of unit u (exposed for the unit tests). */
void rctl_nvmf_pattern_fill(void *buf, uint32_t len, uint64_t unit, uint64_t seed);
/* Offset of the first differing byte, or -1 when equal. */
long rctl_nvmf_pattern_check(const void *buf, uint32_t len, uint64_t unit, uint64_t seed);

#endif
