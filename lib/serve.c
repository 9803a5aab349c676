// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The responder of "rocectl serve": one rdma_cm listener (RDMA_PS_TCP) and a
 * TCP control port of the same number. The main thread owns the CM channel
 * and the client list; each accepted client gets an RC QP and a worker thread
 * that answers it (echo), consumes its SENDs (sink) or watches its buffer and
 * answers each RDMA WRITE with one (poll) until it disconnects, fails, or
 * reaches its lifetime. Workers spin while traffic flows and sleep (on the
 * completion channel, or in short naps for poll) when it stops, so idle
 * clients cost next to no CPU.
 *
 * What a peer can hold is bounded (rocectl-serve(8), RESOURCES): a peer
 * outside --allow, or without the --token-file token, is refused before
 * anything is allocated; a client gets at most --max-per-peer of the
 * --max-clients slots (peers counted by their binary address); a connection
 * that has not reached ESTABLISHED within HANDSHAKE_NS is dropped, and until
 * then holds one page of registered memory: its buffer is registered, and its
 * worker started, only once it is established (a client of before the late-MR
 * flag gets its buffer at once, one such half-open connection at a time).
 * The lifetime ends a client however busy it is (the worker reads the clock
 * every RCTL_SPINS_PER_CLOCK turns, and reap() ends it too). Echoes are never
 * larger than what arrived and at most RCTL_SERVE_ECHO_INFLIGHT are in
 * flight; a worker polls RCTL_SERVE_SPIN_CREDIT_NS per message received, then
 * sleeps. The TCP control port answers each connection with a banner line and
 * then echoes what it reads (the TCP round trip of reach --compare-tcp), for
 * at most TCP_IDLE_NS of silence and the lifetime, on as many connections as
 * there are client slots, --max-per-peer of them per peer. An idle client is
 * probed with a zero-length RDMA WRITE every KEEPALIVE_NS, and an RDMA WRITE
 * of poll mode must complete within WRITE_BACK_NS, so that a vanished client
 * frees its slot within seconds. DEVICE_REMOVAL or ADDR_CHANGE on the
 * listener ends serve with an error, for systemd to restart it.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <infiniband/ib.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "rocectl/clock.h"
#include "rocectl/probe_wire.h"
#include "rocectl/rdma_ep.h"
#include "rocectl/serve.h"
#include "rocectl/serve_peer.h"
#include "rocectl/serve_sched.h"

/*
 * Polling after messages: each message received buys RCTL_SERVE_SPIN_CREDIT_NS
 * more of it, up to RCTL_SERVE_SPIN_MAX_NS ahead, then the worker sleeps. A
 * client on a loaded host is descheduled for a few scheduler slices at a time;
 * a worker that slept meanwhile wakes no earlier than whatever runs on its CPU
 * lets it (its vruntime is no lower than theirs), a slice per message: with a
 * fixed 2 ms, 150000 SENDs beside two CPU hogs did not end in 120 s. A client
 * that sends fast earns the full 200 ms and rides through such gaps; one that
 * sends a message now and then costs 2 ms of CPU per message, not 200 ms.
 */
#define TICK_MS 100		/* sleeps are this short, to notice stop and lifetime */
#define NAP_NS 200000L		/* an idle poll worker looks at its buffer this often */
#define ACK_TIMEOUT 14		/* 67 ms, as the clients and perftest use */
#define HANDSHAKE_NS 10000000000ull	/* REQ to ESTABLISHED, at most */
#define TCP_IDLE_NS 10000000000ull	/* an echo connection silent this long is closed */
#define TCP_BUF 65536
#define TCP_AUTH_NS 3000000000ull	/* a control connection's token must be in by then */
#define KEEPALIVE_NS RCTL_SERVE_KEEPALIVE_NS
#define WRITE_BACK_NS KEEPALIVE_NS	/* a poll-mode answer must complete within */
enum {
	REPLY_WRID = 0,			/* an echo answer */
	KEEPALIVE_WRID = 0x4b41,	/* an idle probe */
	CTRL_WRID = 0x4354,		/* the receive of the client's go */
	READY_WRID = 0x5244,		/* the ready message */
};

enum { BUF_MR, CTRL_MR };		/* the sconn's buffers in ep.mr[] */

struct sconn {
	struct rctl_rdma_ep ep;		/* on the listener's channel; rcq: receives,
					 * scq: sends (answers, probes) */
	char *buf;			/* ep.mr[BUF_MR]: [0,size) in, [size,2*size) out */
	char *ctrl;			/* ep.mr[CTRL_MR], one page: the go lands
					 * here, the ready leaves */
	uint32_t size, depth, echo_cap, inflight;
	uint8_t mode;
	bool late;			/* buffer registered at ESTABLISHED */
	bool one_cpu;			/* the client may be polling on our CPU */
	uint64_t caddr;
	uint32_t crkey;
	pthread_t thr;
	bool started, established;
	volatile int stop, done;
	uint64_t msgs, t0, deadline, accepted, next_keepalive, keepalive_sent;
	const char *why;
	char peer[RCTL_ADDR_LEN + 8];
	struct rctl_peer_key key;
	struct sconn *next;
};

struct server {
	const struct rctl_serve_opts *o;
	rctl_serve_cb cb;
	void *arg;
	struct rctl_rdma_ep lep;	/* the listener */
	int tcp;
	struct sconn *conns;
	unsigned int n;
	struct tconn *tconns;		/* max_clients echo connections */
	struct rctl_reject_log rlog;
	char dev[RCTL_NAME_LEN];	/* of the listener, when bound to one */
	int lost;			/* DEVICE_REMOVAL or ADDR_CHANGE on the listener */
};

struct tconn {
	int fd;				/* -1: free */
	struct rctl_peer_key key;
	uint64_t last, born;
	uint32_t off, len;		/* bytes read and not yet written back */
	uint32_t tokgot;		/* token bytes read; echoes once it is all in */
	bool authed;			/* no --token-file, or its token was read */
	uint8_t tok[RCTL_TOKEN_LEN];
	char peer[RCTL_ADDR_LEN + 8];
	char buf[TCP_BUF];
};

/* "10.0.0.1:34567", "[fd00::1]:34567"; an AF_IB peer by its GID. */
static void addr_port_str(const struct sockaddr *sa, char *buf, size_t len)
{
	char ip[RCTL_ADDR_LEN] = "?";
	const void *a = &((const struct sockaddr_in *)sa)->sin_addr;
	int fam = sa->sa_family;

	if (fam == AF_INET6)
		a = &((const struct sockaddr_in6 *)sa)->sin6_addr;
	if (fam == AF_IB) {
		a = &((const struct sockaddr_ib *)sa)->sib_addr;
		fam = AF_INET6;
	}
	inet_ntop(fam, a, ip, sizeof(ip));
	snprintf(buf, len, fam == AF_INET6 ? "[%s]:%u" : "%s:%u", ip,
		 ntohs(((const struct sockaddr_in *)sa)->sin_port));
	if (sa->sa_family == AF_IB)
		snprintf(buf, len, "%s", ip);
}

static void peer_str(struct rdma_cm_id *id, char *buf, size_t len)
{
	addr_port_str(rdma_get_peer_addr(id), buf, len);
}

static int post_recv(struct sconn *s)
{
	return rctl_rdma_ep_recv(&s->ep, 0, s->buf, s->size, s->ep.mr[BUF_MR].mr->lkey);
}

/*
 * Answer in kind: SEND with a SEND, WRITE_WITH_IMM with a WRITE_WITH_IMM, as
 * long as what arrived (byte_len: the SEND's or the WRITE's length), never
 * longer: the immediate is the client's word, and a 0-byte WRITE saying 8 MiB
 * must not make serve send 8 MiB.
 */
static int reply(struct sconn *s, const struct ibv_wc *wc)
{
	uint32_t len = wc->byte_len;
	struct rctl_rdma_wr wr = {
		.id = REPLY_WRID, .addr = s->buf, .lkey = s->ep.mr[BUF_MR].mr->lkey,
		.signaled = true, .may_inline = true,
		.raddr = s->caddr, .rkey = s->crkey,
	};

	if (wc->opcode != IBV_WC_RECV && ntohl(wc->imm_data) < len)
		len = ntohl(wc->imm_data);
	wr.len = len < s->size ? len : s->size;
	wr.op = wc->opcode == IBV_WC_RECV ? IBV_WR_SEND : IBV_WR_RDMA_WRITE_WITH_IMM;
	wr.imm = wr.len;
	if (rctl_rdma_ep_send(&s->ep, &wr))
		return -1;
	s->inflight++;
	return 0;
}

/* A completion of our probe: the client is there. */
static void keepalive_done(struct sconn *s, const struct ibv_wc *wc)
{
	if (wc->wr_id == KEEPALIVE_WRID && wc->status == IBV_WC_SUCCESS)
		s->keepalive_sent = 0;
}

static int wc_failed(struct sconn *s, const struct ibv_wc *wc)
{
	s->why = wc->status == IBV_WC_WR_FLUSH_ERR ? "flushed" : ibv_wc_status_str(wc->status);
	return -1;
}

/* Send completions: answers leave the in-flight count; 0, or -1 when finished. */
static int send_wcs(struct sconn *s, const struct ibv_wc *wc, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		keepalive_done(s, &wc[i]);
		if (wc[i].status != IBV_WC_SUCCESS)
			return wc_failed(s, &wc[i]);
		if (wc[i].wr_id == REPLY_WRID && s->inflight)
			s->inflight--;
	}
	return 0;
}

/* Handle a batch of receives; 0 to go on, -1 when this client is finished. */
static int serve_wcs(struct sconn *s, const struct ibv_wc *wc, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (wc[i].status != IBV_WC_SUCCESS)
			return wc_failed(s, &wc[i]);
		if (wc[i].wr_id == CTRL_WRID)
			continue;	/* the go: not a message, not re-posted */
		s->msgs++;
		/* Answer first: the re-posted receive is not on the critical path. */
		if ((s->mode == RCTL_MODE_ECHO && reply(s, &wc[i])) || post_recv(s)) {
			s->why = "cannot post a work request";
			return -1;
		}
	}
	return 0;
}

/*
 * The first rest arms both CQs and returns, so that a completion that raced
 * the arm is seen by the polls before the next; the next sleeps until an
 * event, at most TICK_MS.
 */
static void worker_sleep(struct sconn *s)
{
	struct pollfd p = { .fd = s->ep.cc->fd, .events = POLLIN };

	if (!s->ep.armed) {
		s->ep.armed = !rctl_rdma_ep_arm(&s->ep, false);
		return;
	}
	if (poll(&p, 1, TICK_MS) == 1 && rctl_rdma_ep_cq_event(&s->ep))
		s->ep.armed = false;
}

static void worker_nap(struct sconn *s)
{
	static const struct timespec nap = { .tv_nsec = NAP_NS };

	nanosleep(&nap, NULL);
}

/*
 * A client whose DREQ was lost (or whose host died) would hold its slot until
 * its lifetime: nothing tells serve it is gone. A zero-length RDMA WRITE to
 * an idle client is acknowledged by its QP while it exists. Once it is gone
 * the transport retries: with retry_cnt 7 a NIC gives up after about half a
 * second at ACK timeout 14, but rxe never does (rxe_comp.c does not count
 * down a retry_cnt of 7), so a probe unacknowledged for KEEPALIVE_NS ends the
 * client either way. False when the client is gone.
 */
static bool keepalive(struct sconn *s, uint64_t now)
{
	const struct rctl_rdma_wr wr = {
		.id = KEEPALIVE_WRID, .op = IBV_WR_RDMA_WRITE, .signaled = true,
		.addr = s->buf, .len = 0, .lkey = s->ep.mr[BUF_MR].mr->lkey,
		.raddr = s->caddr, .rkey = s->crkey,
	};

	if (s->keepalive_sent) {
		if (now - s->keepalive_sent < KEEPALIVE_NS)
			return true;
		s->why = "client gone: idle probe not acknowledged";
		return false;
	}
	if (now < s->next_keepalive)
		return true;
	s->next_keepalive = now + KEEPALIVE_NS;
	/* A full send queue means answers are in flight: no probe needed. */
	if (!rctl_rdma_ep_send(&s->ep, &wr))
		s->keepalive_sent = now;
	return true;
}

/*
 * One turn of a worker, busy or idle, by its schedule (lib/serve_sched.c):
 * end at the client's lifetime however busy it is, probe an idle client, and
 * "rest" once the polling the messages bought is spent. False to stop.
 */
static bool worker_turn(struct sconn *s, struct rctl_sched *w, bool active,
			void (*rest)(struct sconn *s))
{
	unsigned int act = rctl_sched_turn(w, active, s->msgs, rctl_clock_ns);

	if (act & RCTL_SCHED_END) {
		s->why = "lifetime reached";
		return false;
	}
	if ((act & RCTL_SCHED_PROBE) && !keepalive(s, w->now))
		return false;
	if (act & RCTL_SCHED_REST)
		rest(s);
	else if (act & RCTL_SCHED_YIELD)
		sched_yield();
	return true;
}

/*
 * Echo and sink: answers are polled first; receives only while fewer than
 * echo_cap answers are in flight (the receives left waiting are not
 * re-posted meanwhile: the client's next SENDs wait in RNR, its backpressure).
 */
static void *worker(void *arg)
{
	struct sconn *s = arg;
	struct rctl_sched w = { .deadline = s->deadline, .one_cpu = s->one_cpu };
	struct ibv_wc wc[16];
	int n, m, room;

	while (!s->stop) {
		n = ibv_poll_cq(s->ep.scq, 16, wc);
		if (n < 0 || (n > 0 && send_wcs(s, wc, n)))
			break;
		room = s->mode == RCTL_MODE_ECHO ? (int)(s->echo_cap - s->inflight) : 16;
		m = room > 0 ? ibv_poll_cq(s->ep.rcq, room < 16 ? room : 16, wc) : 0;
		if (m < 0 || (m > 0 && serve_wcs(s, wc, m)))
			break;
		if (!worker_turn(s, &w, n > 0 || m > 0, worker_sleep))
			break;
	}
	s->done = 1;
	return NULL;
}

/*
 * The completion of a poll-mode answer, within WRITE_BACK_NS: rxe retries a
 * retry_cnt of 7 for ever, so a vanished client is not ended by the transport;
 * the lifetime and stop end the wait too.
 */
static int write_wait(struct sconn *s)
{
	unsigned int spins = 0;
	uint64_t now, t0 = 0;
	struct ibv_wc wc;
	int n;

	for (;;) {
		n = ibv_poll_cq(s->ep.scq, 1, &wc);
		if (n == 1) {
			keepalive_done(s, &wc);
			/* a probe's or the ready message's completion */
			if (wc.wr_id != REPLY_WRID && wc.status == IBV_WC_SUCCESS)
				continue;
			return wc.status == IBV_WC_SUCCESS ? 0 : wc_failed(s, &wc);
		}
		if (n < 0 || s->stop)
			break;
		if (++spins % RCTL_SPINS_PER_CLOCK)
			continue;
		now = rctl_clock_ns();
		if (!t0)
			t0 = now;
		if (now >= s->deadline || now - t0 > WRITE_BACK_NS) {
			s->why = now >= s->deadline ? "lifetime reached" :
				 "client gone: RDMA WRITE not acknowledged";
			return -1;
		}
	}
	s->why = n < 0 ? "cannot poll the CQ" : NULL;
	return -1;
}

/* RDMA WRITE the second half of our buffer back; wait for its completion. */
static int write_back(struct sconn *s)
{
	const struct rctl_rdma_wr wr = {
		.id = REPLY_WRID, .op = IBV_WR_RDMA_WRITE, .signaled = true,
		.may_inline = true, .addr = s->buf + s->size, .len = s->size,
		.lkey = s->ep.mr[BUF_MR].mr->lkey, .raddr = s->caddr, .rkey = s->crkey,
	};

	if (rctl_rdma_ep_send(&s->ep, &wr)) {
		s->why = "cannot post a work request";
		return -1;
	}
	return write_wait(s);
}

/* Poll mode sees completions only of its own WRITEs: a failed one ends it. */
static bool cq_ok(struct sconn *s)
{
	struct ibv_wc wc;
	int n = ibv_poll_cq(s->ep.scq, 1, &wc);

	if (n == 1)
		keepalive_done(s, &wc);
	if (n <= 0 || wc.status == IBV_WC_SUCCESS)
		return n >= 0;
	return !wc_failed(s, &wc);
}

/*
 * RCTL_MODE_POLL, perftest's write_lat: the client's n-th RDMA WRITE ends in
 * the byte n; answer it with an RDMA WRITE whose last byte is n too. Reads of
 * the clock are rare: they cost microseconds on HPET.
 */
static void *poll_worker(void *arg)
{
	struct sconn *s = arg;
	volatile char *in = s->buf + s->size - 1;
	struct rctl_sched w = { .deadline = s->deadline, .one_cpu = s->one_cpu };
	bool active;
	char seq = 0;

	while (!s->stop) {
		active = *in == (char)(seq + 1);
		if (active) {
			s->buf[2 * s->size - 1] = ++seq;
			if (write_back(s))
				break;
			s->msgs++;
		} else if (!cq_ok(s)) {
			break;
		}
		if (!worker_turn(s, &w, active, worker_nap))
			break;
	}
	s->done = 1;
	return NULL;
}

static void sconn_free(struct sconn *s)
{
	if (s->started) {
		s->stop = 1;
		pthread_join(s->thr, NULL);
	}
	rctl_rdma_ep_close(&s->ep, 0);
	free(s);
}

/* The client-sized buffer: registered, its receives posted. */
static int sconn_buf(struct sconn *s)
{
	uint32_t i;

	s->buf = rctl_rdma_ep_reg(&s->ep, BUF_MR, (size_t)s->size * 2, 0xa5,
				  IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				  IBV_ACCESS_REMOTE_READ, NULL);
	if (!s->buf)
		return -1;
	s->buf[s->size - 1] = 0;	/* RCTL_MODE_POLL: the first WRITE brings 1 */
	for (i = 0; i < s->depth; i++)
		if (post_recv(s))
			return -1;
	return 0;
}

/* Before ESTABLISHED, a late-MR client holds this page: one receive for its go. */
static int sconn_ctrl(struct sconn *s)
{
	s->ctrl = rctl_rdma_ep_reg(&s->ep, CTRL_MR, RCTL_SERVE_CTRL_BYTES, 0,
				   IBV_ACCESS_LOCAL_WRITE, NULL);
	if (!s->ctrl)
		return -1;
	return rctl_rdma_ep_recv(&s->ep, CTRL_WRID, s->ctrl, RCTL_GO_LEN,
				 s->ep.mr[CTRL_MR].mr->lkey);
}

/* The buffer of a late-MR client, and the ready message that names it. */
static int send_ready(struct sconn *s)
{
	struct rctl_ready r = { .size = s->size };
	struct rctl_rdma_wr wr = {
		.id = READY_WRID, .op = IBV_WR_SEND, .signaled = true, .may_inline = true,
		.addr = s->ctrl + RCTL_GO_LEN,
	};

	if (sconn_buf(s))
		return -1;
	r.addr = (uintptr_t)s->buf;
	r.rkey = s->ep.mr[BUF_MR].mr->rkey;
	wr.len = (uint32_t)rctl_ready_encode(&r, (uint8_t *)s->ctrl + RCTL_GO_LEN);
	wr.lkey = s->ep.mr[CTRL_MR].mr->lkey;
	return rctl_rdma_ep_send(&s->ep, &wr);
}

static int sconn_setup(struct sconn *s)
{
	const struct rctl_rdma_caps caps = {
		.comp_channel = true, .split_cq = true,
		.cq_entries = s->depth + 2,
		.send_wr = s->depth + 1, .recv_wr = s->depth + 1,	/* + the go or the ready */
		.send_sge = 1, .recv_sge = 1,
		.max_inline = 64,	/* small answers inline, as perftest sends */
	};

	if (rctl_rdma_ep_create(&s->ep, &caps, NULL))
		return -1;
	s->echo_cap = s->depth < RCTL_SERVE_ECHO_INFLIGHT ? s->depth : RCTL_SERVE_ECHO_INFLIGHT;
	if (s->late ? sconn_ctrl(s) : sconn_buf(s))
		return -1;
	/* armed: the main loop sees data that arrives before ESTABLISHED */
	return rctl_rdma_ep_arm(&s->ep, true) ? -1 : 0;
}

static unsigned int peer_slots(const struct server *sv, const struct rctl_peer_key *k)
{
	const struct sconn *s;
	unsigned int n = 0;

	for (s = sv->conns; s; s = s->next)
		n += rctl_peer_key_eq(&s->key, k);
	return n;
}

/* Half-open connections of clients that had their buffer registered at the REQ. */
static unsigned int early_half_open(const struct server *sv)
{
	const struct sconn *s;
	unsigned int n = 0;

	for (s = sv->conns; s; s = s->next)
		n += !s->late && !s->started;
	return n;
}

/* Who may connect, and with what: nothing is allocated before this passes. */
static uint8_t check_hello(struct server *sv, const struct rdma_cm_event *ev,
			   struct rctl_hello *h, struct rctl_peer_key *k)
{
	enum rctl_probe_status st;

	memset(h, 0, sizeof(*h));
	if (rctl_peer_key_of(rdma_get_peer_addr(ev->id), k) ||
	    !rctl_cidr_match(sv->o->allow, sv->o->nallow, k))
		return RCTL_PROBE_NOT_ALLOWED;
	st = rctl_hello_decode(ev->param.conn.private_data,
			       ev->param.conn.private_data_len, h);
	if (st != RCTL_PROBE_OK)
		return st;
	if (sv->o->token && (!(h->flags & RCTL_HELLO_F_TOKEN) ||
			     !rctl_const_eq(h->token, sv->o->token, RCTL_TOKEN_LEN)))
		return RCTL_PROBE_TOKEN;
	if (sv->n >= sv->o->max_clients)
		return RCTL_PROBE_BUSY;
	if (peer_slots(sv, k) >= sv->o->max_per_peer)
		return RCTL_PROBE_PEER_LIMIT;
	if (!(h->flags & RCTL_HELLO_F_LATE_MR) && early_half_open(sv))
		return RCTL_PROBE_BUSY;
	return RCTL_PROBE_OK;
}

static const char *status_why(uint8_t st)
{
	switch (st) {
	case RCTL_PROBE_VERSION_MISMATCH: return "handshake version mismatch";
	case RCTL_PROBE_BUSY: return "client limit reached";
	case RCTL_PROBE_PEER_LIMIT: return "per-peer limit reached";
	case RCTL_PROBE_BAD_REQUEST: return "not a rocectl handshake";
	case RCTL_PROBE_TOKEN: return "token missing or wrong";
	case RCTL_PROBE_NOT_ALLOWED: return "not in --allow";
	default: return "out of resources";
	}
}

/* Our welcome: version 2 unless the client speaks 1; our port's MTUs. */
static size_t welcome(struct rdma_cm_id *id, uint8_t version, uint8_t st,
		      struct rctl_welcome *w, uint8_t *buf)
{
	w->version = version < RCTL_PROBE_VERSION && version >= RCTL_PROBE_MIN_VERSION ?
		     version : RCTL_PROBE_VERSION;
	w->status = st;
	w->active_mtu = rctl_rdma_active_mtu(id);
	rctl_addr_netdev(rdma_get_local_addr(id), w->netdev, sizeof(w->netdev),
			 &w->netdev_mtu);
	return rctl_welcome_encode(w, buf);
}

/* A reject line, at most one per peer and reason a minute (serve_peer.h). */
static void report_reject(struct server *sv, const struct rctl_peer_key *k,
			  uint8_t key_why, const char *peer, const char *why)
{
	struct rctl_serve_event ev = { .kind = RCTL_SERVE_REJECT, .clients = sv->n,
				       .why = why };

	if (!rctl_reject_log_note(&sv->rlog, k, key_why, rctl_clock_ns(), &ev.count,
				  &ev.unreported))
		return;
	snprintf(ev.peer, sizeof(ev.peer), "%s", peer);
	sv->cb(sv->arg, &ev);
}

/*
 * A peer outside --allow gets a bare REJ: no status, no version, and no
 * work done for it (no port or netdev query). Any other refusal gets our
 * version and the status, in the full layout (its first 32 bytes are
 * version 1's, so a client of any version reads them), and no MTUs or
 * netdev name: they are for clients that are served.
 */
static void reject(struct server *sv, struct rdma_cm_id *id, uint8_t st,
		   const struct rctl_peer_key *k)
{
	struct rctl_welcome w = { .version = RCTL_PROBE_VERSION, .status = st };
	uint8_t buf[RCTL_WELCOME_LEN];
	char peer[RCTL_ADDR_LEN + 8];
	size_t n;

	if (st == RCTL_PROBE_NOT_ALLOWED) {
		rdma_reject(id, NULL, 0);
	} else {
		n = rctl_welcome_encode(&w, buf);
		rdma_reject(id, buf, (uint8_t)n);
	}
	peer_str(id, peer, sizeof(peer));
	report_reject(sv, k, st, peer, status_why(st));
}

static int accept_conn(struct server *sv, struct sconn *s, uint8_t version,
		       const struct rdma_cm_event *cev)
{
	struct rctl_welcome w = {
		.size = s->size, .lifetime_s = (uint32_t)sv->o->lifetime_s,
	};
	uint8_t buf[RCTL_WELCOME_LEN];
	struct rdma_conn_param cp = { 0 };
	struct ibv_device_attr da;
	uint8_t ack_timeout = ACK_TIMEOUT;

	if (s->late) {
		w.flags = RCTL_WELCOME_F_LATE_MR;
	} else {
		w.addr = (uintptr_t)s->buf;
		w.rkey = s->ep.mr[BUF_MR].mr->rkey;
	}
	cp.private_data = buf;
	cp.private_data_len = (uint8_t)welcome(s->ep.id, version, RCTL_PROBE_OK, &w, buf);
	cp.rnr_retry_count = 7;
	cp.retry_count = 7;
	cp.responder_resources = cev->param.conn.initiator_depth;
	cp.initiator_depth = cev->param.conn.responder_resources;
	if (!ibv_query_device(s->ep.id->verbs, &da)) {
		if (cp.responder_resources > da.max_qp_rd_atom)
			cp.responder_resources = da.max_qp_rd_atom;
		if (cp.initiator_depth > da.max_qp_init_rd_atom)
			cp.initiator_depth = da.max_qp_init_rd_atom;
	}
	/* Older kernels lack the option; rdma_cm's default is then used. */
	rdma_set_option(s->ep.id, RDMA_OPTION_ID, RDMA_OPTION_ID_ACK_TIMEOUT,
			&ack_timeout, 1);
	s->accepted = rctl_clock_ns();
	return rdma_accept(s->ep.id, &cp);
}

/*
 * ESTABLISHED (or the client's first message): only now does a late-MR client
 * get its buffer, and any client its worker and its lifetime.
 */
static int start_worker(struct server *sv, struct sconn *s)
{
	if (s->late && !s->ep.mr[BUF_MR].mr && send_ready(s))
		return -1;
	s->t0 = rctl_clock_ns();
	s->deadline = s->t0 + (uint64_t)(sv->o->lifetime_s * 1e9);
	s->next_keepalive = s->t0 + KEEPALIVE_NS;
	s->one_cpu = sysconf(_SC_NPROCESSORS_ONLN) < 2;
	if (pthread_create(&s->thr, NULL, s->mode == RCTL_MODE_POLL ? poll_worker : worker, s))
		return -1;
	s->started = true;
	return 0;
}

/* The sconn of an accepted hello, or NULL (st then says why). */
static struct sconn *sconn_new(struct server *sv, struct rdma_cm_event *ev,
			       const struct rctl_hello *h, const struct rctl_peer_key *k,
			       uint8_t *st)
{
	struct rdma_cm_id *id = ev->id;
	struct sconn *s = calloc(1, sizeof(*s));

	*st = RCTL_PROBE_NO_RESOURCES;
	if (!s)
		return NULL;
	rctl_rdma_ep_adopt(&s->ep, id);
	s->size = h->size;
	s->depth = h->depth;
	s->mode = h->mode;
	s->late = h->flags & RCTL_HELLO_F_LATE_MR;
	s->caddr = h->addr;
	s->crkey = h->rkey;
	s->key = *k;
	peer_str(id, s->peer, sizeof(s->peer));
	id->context = s;
	if (sconn_setup(s) || accept_conn(sv, s, h->version, ev)) {
		if (id->qp)
			rdma_destroy_qp(id);
		s->ep.id = NULL;	/* destroyed by the caller, after the ack */
		sconn_free(s);
		return NULL;
	}
	*st = RCTL_PROBE_OK;
	return s;
}

/* CONNECT_REQUEST: the event's id is new; it is ours to accept or destroy. */
static void on_request(struct server *sv, struct rdma_cm_event *ev)
{
	struct rdma_cm_id *id = ev->id;
	struct rctl_peer_key k;
	struct rctl_hello h;
	struct sconn *s = NULL;
	uint8_t st;

	st = check_hello(sv, ev, &h, &k);
	if (st == RCTL_PROBE_OK)
		s = sconn_new(sv, ev, &h, &k, &st);
	if (!s) {
		reject(sv, id, st, &k);
		rdma_ack_cm_event(ev);
		rdma_destroy_id(id);
		return;
	}
	s->next = sv->conns;
	sv->conns = s;
	sv->n++;
	rdma_ack_cm_event(ev);
}

static void finish(struct server *sv, struct sconn *s, const char *why)
{
	struct sconn **pp;
	struct rctl_serve_event ev = { .kind = RCTL_SERVE_DISCONNECT };

	for (pp = &sv->conns; *pp && *pp != s; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = s->next;
	sv->n--;
	/*
	 * Stop the worker before disconnecting: a disconnect first flushes its
	 * work requests, and the worker would report "flushed" instead of why
	 * the server ended the client.
	 */
	s->stop = 1;
	if (s->started)
		pthread_join(s->thr, NULL);
	s->started = false;
	rdma_disconnect(s->ep.id);
	snprintf(ev.peer, sizeof(ev.peer), "%s", s->peer);
	ev.mode = s->mode;
	ev.size = s->size;
	ev.clients = sv->n;
	ev.messages = s->msgs;
	ev.secs = s->t0 ? (rctl_clock_ns() - s->t0) / 1e9 : 0;
	ev.why = s->why ? s->why : why;
	sv->cb(sv->arg, &ev);
	sconn_free(s);
}

/*
 * Serve s from now on (ESTABLISHED, or its first message): its worker, then
 * the connected line, before the worker has answered anything.
 */
static void serve_client(struct server *sv, struct sconn *s)
{
	struct rctl_serve_event out = { .kind = RCTL_SERVE_CONNECT };

	if (s->started)
		return;
	if (start_worker(sv, s)) {
		finish(sv, s, "cannot start a worker");
		return;
	}
	snprintf(out.peer, sizeof(out.peer), "%s", s->peer);
	snprintf(out.dev, sizeof(out.dev), "%s", rctl_rdma_ep_dev(&s->ep));
	out.mode = s->mode;
	out.size = s->size;
	out.clients = sv->n;
	sv->cb(sv->arg, &out);
}

static void on_event(struct server *sv, struct rdma_cm_event *ev)
{
	struct rdma_cm_id *id = ev->id;
	struct sconn *s = id->context;
	int type = ev->event;

	if (type == RDMA_CM_EVENT_CONNECT_REQUEST) {
		on_request(sv, ev);
		return;
	}
	rdma_ack_cm_event(ev);
	/* The listener's device or address is gone: serve would stay up but deaf. */
	if (id == sv->lep.id && (type == RDMA_CM_EVENT_DEVICE_REMOVAL ||
			      type == RDMA_CM_EVENT_ADDR_CHANGE))
		sv->lost = type;
	if (!s || id == sv->lep.id)
		return;
	switch (type) {
	case RDMA_CM_EVENT_ESTABLISHED:
		s->established = true;
		serve_client(sv, s);
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
		finish(sv, s, "client disconnected");
		break;
	case RDMA_CM_EVENT_REJECTED:
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		finish(sv, s, rdma_event_str(type));
		break;
	default:
		break;
	}
}

static int tcp_listen(const struct sockaddr *sa, struct rctl_err *e)
{
	socklen_t len = sa->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) :
						    sizeof(struct sockaddr_in);
	int fd, one = 1;

	fd = socket(sa->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return rctl_err_strerror(e, errno, "cannot open the TCP control socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, sa, len) || listen(fd, 16)) {
		rctl_err_strerror(e, errno, "cannot listen on TCP control port %u",
			     ntohs(((const struct sockaddr_in *)sa)->sin_port));
		close(fd);
		return -e->errnum;
	}
	return fd;
}

static void tcp_close(struct tconn *t)
{
	close(t->fd);
	t->fd = -1;
}

/* A free echo slot, unless this peer holds its --max-per-peer of them. */
static struct tconn *tcp_slot(struct server *sv, const struct rctl_peer_key *k)
{
	struct tconn *t = NULL;
	unsigned int i, mine = 0;

	for (i = 0; i < sv->o->max_clients; i++)
		if (sv->tconns[i].fd < 0)
			t = t ? t : &sv->tconns[i];
		else
			mine += rctl_peer_key_eq(&sv->tconns[i].key, k);
	return mine < sv->o->max_per_peer ? t : NULL;
}

/*
 * A banner line, then an echo; a prober that only wants the banner just
 * closes. With every echo slot taken, or this peer's share of them, the
 * banner alone; a peer outside --allow gets nothing.
 */
static void tcp_accept(struct server *sv, int lfd)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct rctl_peer_key k;
	struct tconn *t;
	unsigned int i;
	int fd, one = 1;
	char banner[32], peer[RCTL_ADDR_LEN + 8];

	fd = accept4(lfd, (struct sockaddr *)&ss, &sl, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	if (rctl_peer_key_of((struct sockaddr *)&ss, &k) ||
	    !rctl_cidr_match(sv->o->allow, sv->o->nallow, &k)) {
		close(fd);
		addr_port_str((struct sockaddr *)&ss, peer, sizeof(peer));
		report_reject(sv, &k, 0x80 | RCTL_PROBE_NOT_ALLOWED, peer,
			      "not in --allow, tcp control port");
		return;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	t = tcp_slot(sv, &k);
	if (!t) {
		i = (unsigned int)snprintf(banner, sizeof(banner), "rocectl-serve %u\n",
					   RCTL_PROBE_VERSION);
		/* Best effort: the prober may already be gone. */
		if (write(fd, banner, i) < 0)
			errno = 0;
		close(fd);
		return;
	}
	t->fd = fd;
	t->key = k;
	t->born = t->last = rctl_clock_ns();
	t->off = 0;
	t->tokgot = 0;
	t->authed = !sv->o->token;
	addr_port_str((struct sockaddr *)&ss, t->peer, sizeof(t->peer));
	/* " token": echoes begin after the --token-file token (probe_io.c sends it) */
	t->len = (uint32_t)snprintf(t->buf, sizeof(t->buf), "rocectl-serve %u%s\n",
				    RCTL_PROBE_VERSION, t->authed ? "" : " token");
}

/*
 * Before its first echo, a connection to a serve with --token-file sends the
 * token (RCTL_TOKEN_LEN bytes, NUL padded); a wrong one is closed and logged.
 */
static void tcp_auth(struct server *sv, struct tconn *t)
{
	ssize_t n = read(t->fd, t->tok + t->tokgot, RCTL_TOKEN_LEN - t->tokgot);

	if (n == 0 || (n < 0 && errno != EAGAIN))
		return tcp_close(t);
	t->tokgot += n > 0 ? (uint32_t)n : 0;
	if (t->tokgot < RCTL_TOKEN_LEN)
		return;
	if (rctl_const_eq(t->tok, sv->o->token, RCTL_TOKEN_LEN)) {
		t->authed = true;
		return;
	}
	report_reject(sv, &t->key, 0x80 | RCTL_PROBE_TOKEN, t->peer,
		      "token missing or wrong, tcp control port");
	tcp_close(t);
}

/* Write back what is pending, then read more: never blocks. */
static void tcp_echo(struct server *sv, struct tconn *t, short revents, uint64_t now)
{
	ssize_t n;

	if (t->len > t->off) {
		n = write(t->fd, t->buf + t->off, t->len - t->off);
		if (n < 0 && errno != EAGAIN)
			return tcp_close(t);
		t->off += n > 0 ? (uint32_t)n : 0;
		if (t->off < t->len)
			return;
		t->off = t->len = 0;
		t->last = now;
	}
	if (!(revents & (POLLIN | POLLHUP | POLLERR)))
		return;
	if (!t->authed)
		return tcp_auth(sv, t);
	n = read(t->fd, t->buf, sizeof(t->buf));
	if (n == 0 || (n < 0 && errno != EAGAIN))
		return tcp_close(t);
	if (n > 0) {
		t->len = (uint32_t)n;
		t->last = now;
		tcp_echo(sv, t, 0, now);
	}
}

static int listen_cm(struct server *sv, struct rctl_err *e)
{
	const struct sockaddr_in *sin = (const void *)sv->o->bind;
	int ret;

	ret = rctl_rdma_ep_open(&sv->lep, NULL, true, e);
	if (ret)
		return ret;
	if (rdma_bind_addr(sv->lep.id, (struct sockaddr *)sv->o->bind))
		return rctl_err_strerror(e, errno, "cannot bind rdma_cm to port %u",
				    ntohs(sin->sin_port));
	if (rdma_listen(sv->lep.id, 16))
		return rctl_err_strerror(e, errno, "cannot listen on rdma_cm port %u",
				    ntohs(sin->sin_port));
	return 0;
}

/*
 * Drop clients past their handshake bound or their lifetime (a worker stuck
 * in a verbs call still ends here) and those whose worker ended.
 */
static void reap(struct server *sv)
{
	uint64_t now = rctl_clock_ns();	/* after every accept of this round */
	struct sconn *s, *next;

	for (s = sv->conns; s; s = next) {
		next = s->next;
		if (s->done)
			finish(sv, s, "worker ended");
		else if (s->started && now >= s->deadline)
			finish(sv, s, "lifetime reached");
		else if (!s->started && now > s->accepted && now - s->accepted > HANDSHAKE_NS)
			finish(sv, s, "handshake timed out");
	}
}

/*
 * Data on a connection that is not yet ESTABLISHED proves the client got our
 * REP and its QP runs: its RTU was lost. Tell rdma_cm (the kernel CM then
 * establishes the connection, as on IB's COMM_EST) and start the worker at
 * once, instead of leaving the client unanswered until the REP is resent.
 */
static void on_early_data(struct server *sv, struct sconn *s)
{
	rctl_rdma_ep_cq_event(&s->ep);
	rdma_notify(s->ep.id, IBV_EVENT_COMM_EST);
	serve_client(sv, s);
}

struct loop_fds {
	struct pollfd *p;
	struct tconn **tc;		/* [i - 2] for TCP echo entries */
	struct sconn **sc;		/* [i - ntc - 2] for connections not started */
	unsigned int ntc, nsc, n;
};

static void loop_fill(struct server *sv, struct loop_fds *f)
{
	struct sconn *s;
	unsigned int i;

	f->n = 2;
	f->ntc = f->nsc = 0;
	for (i = 0; i < sv->o->max_clients; i++)
		if (sv->tconns[i].fd >= 0) {
			f->tc[f->ntc++] = &sv->tconns[i];
			f->p[f->n++] = (struct pollfd){ .fd = sv->tconns[i].fd,
				.events = sv->tconns[i].len ? POLLOUT : POLLIN };
		}
	for (s = sv->conns; s && f->nsc < sv->o->max_clients; s = s->next)
		if (!s->started) {
			f->sc[f->nsc++] = s;
			f->p[f->n++] = (struct pollfd){ .fd = s->ep.cc->fd, .events = POLLIN };
		}
}

static void loop_serve(struct server *sv, struct loop_fds *f)
{
	struct rdma_cm_event *ev;
	uint64_t now = rctl_clock_ns(), lifetime = (uint64_t)(sv->o->lifetime_s * 1e9);
	unsigned int i;

	for (i = 0; i < f->ntc; i++)
		if (now > f->tc[i]->born && (now - f->tc[i]->born > lifetime ||
					     (!f->tc[i]->authed &&
					      now - f->tc[i]->born > TCP_AUTH_NS)))
			tcp_close(f->tc[i]);
		else if (f->p[2 + i].revents)
			tcp_echo(sv, f->tc[i], f->p[2 + i].revents, now);
		else if (now > f->tc[i]->last && now - f->tc[i]->last > TCP_IDLE_NS)
			tcp_close(f->tc[i]);
	/* before CM events, which may free a connection of the list */
	for (i = 0; i < f->nsc; i++)
		if ((f->p[2 + f->ntc + i].revents & POLLIN) && !f->sc[i]->started)
			on_early_data(sv, f->sc[i]);
	if ((f->p[0].revents & POLLIN) && !rdma_get_cm_event(sv->lep.ch, &ev))
		on_event(sv, ev);
	if (f->p[1].revents & POLLIN)
		tcp_accept(sv, sv->tcp);
	reap(sv);
}

static void serve_loop(struct server *sv)
{
	unsigned int nt = sv->o->max_clients;
	struct loop_fds f = {
		.p = calloc(2 * nt + 2, sizeof(*f.p)),
		.tc = calloc(nt, sizeof(*f.tc)),
		.sc = calloc(nt, sizeof(*f.sc)),
	};

	if (f.p && f.tc && f.sc) {
		f.p[0] = (struct pollfd){ .fd = sv->lep.ch->fd, .events = POLLIN };
		f.p[1] = (struct pollfd){ .fd = sv->tcp, .events = POLLIN };
		while (!*sv->o->stop && !sv->lost) {
			loop_fill(sv, &f);
			if (poll(f.p, f.n, TICK_MS) < 0 && errno != EINTR)
				break;
			loop_serve(sv, &f);
		}
	}
	free(f.p);
	free(f.tc);
	free(f.sc);
}

int rctl_serve(const struct rctl_serve_opts *o, rctl_serve_cb cb, void *arg,
	       struct rctl_err *e)
{
	struct server sv = { .o = o, .cb = cb, .arg = arg, .tcp = -1 };
	struct rctl_serve_event ev = { .kind = RCTL_SERVE_LISTEN };
	unsigned int i;
	int ret;

	if (!o->max_clients || o->max_clients > RCTL_SERVE_MAX_CLIENTS)
		return rctl_err_plain(e, EINVAL, "serve: %u clients: expected 1 to %u",
				    o->max_clients, RCTL_SERVE_MAX_CLIENTS);
	sv.tconns = calloc(o->max_clients, sizeof(*sv.tconns));
	if (!sv.tconns)
		return rctl_err_strerror(e, ENOMEM, "cannot start serve");
	for (i = 0; i < o->max_clients; i++)
		sv.tconns[i].fd = -1;
	ret = listen_cm(&sv, e);
	if (!ret) {
		sv.tcp = tcp_listen(o->bind, e);
		ret = sv.tcp < 0 ? sv.tcp : 0;
	}
	if (!ret) {
		if (sv.lep.id->verbs)
			snprintf(ev.dev, sizeof(ev.dev), "%s", rctl_rdma_ep_dev(&sv.lep));
		snprintf(sv.dev, sizeof(sv.dev), "%s", ev.dev);
		cb(arg, &ev);
		serve_loop(&sv);
		while (sv.conns)
			finish(&sv, sv.conns, sv.lost ? rdma_event_str(sv.lost) : "serve stopping");
		if (sv.lost)
			ret = rctl_err_plain(e, ENODEV, "rdma_cm reported %s on the listener of device '%s': serve stops",
					   rdma_event_str(sv.lost), sv.dev[0] ? sv.dev : "?");
	}
	for (i = 0; i < o->max_clients; i++)
		if (sv.tconns[i].fd >= 0)
			close(sv.tconns[i].fd);
	free(sv.tconns);
	if (sv.tcp >= 0)
		close(sv.tcp);
	rctl_rdma_ep_close(&sv.lep, 0);
	return ret;
}
