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
 * What a peer can hold is bounded: a client gets at most --max-per-peer of the
 * --max-clients slots, a connection that has not reached ESTABLISHED within
 * HANDSHAKE_NS is dropped, and a worker starts only once the connection is
 * established. The TCP control port answers each connection with a banner
 * line and then echoes what it reads (the TCP round trip of reach
 * --compare-tcp), for at most TCP_IDLE_NS of silence, on as many connections
 * as there are client slots. An idle client is probed with a zero-length RDMA
 * WRITE every KEEPALIVE_NS, so that one whose disconnect was lost frees its
 * slot within seconds.
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

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "rocectl/clock.h"
#include "rocectl/probe.h"

/*
 * Keep polling this long after the last message. A client on a loaded host
 * is descheduled for a few scheduler slices at a time; a worker that slept
 * meanwhile wakes no earlier than whatever runs on its CPU lets it (its
 * vruntime is no lower than theirs), a slice per message: with 2 ms, 150000
 * SENDs beside two CPU hogs did not end in 120 s.
 */
#define SPIN_NS 200000000ull
#define TICK_MS 100		/* sleeps are this short, to notice stop and lifetime */
#define NAP_NS 200000L		/* an idle poll worker looks at its buffer this often */
#define ACK_TIMEOUT 14		/* 67 ms, as the clients and perftest use */
#define HANDSHAKE_NS 10000000000ull	/* REQ to ESTABLISHED, at most */
#define TCP_IDLE_NS 10000000000ull	/* an echo connection silent this long is closed */
#define TCP_BUF 65536
#define KEEPALIVE_NS 2000000000ull	/* an idle client is probed this often, and
					 * must acknowledge within as long */
#define KEEPALIVE_WRID 0x4b41ull		/* wr_id of a probe; answers carry 0 */

struct sconn {
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_comp_channel *cc;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	char *buf;			/* [0,size) in, [size,2*size) out */
	uint32_t size, depth, max_inline;
	uint8_t mode;
	bool one_cpu;			/* the client may be polling on our CPU */
	uint64_t caddr;
	uint32_t crkey;
	pthread_t thr;
	bool started, established;
	volatile int stop, done;
	uint64_t msgs, t0, deadline, accepted, next_keepalive, keepalive_sent;
	const char *why;
	char peer[RCTL_ADDR_LEN + 8];
	char peer_ip[RCTL_ADDR_LEN];
	struct sconn *next;
};

struct server {
	const struct rctl_serve_opts *o;
	rctl_serve_cb cb;
	void *arg;
	struct rdma_event_channel *ch;
	struct rdma_cm_id *lid;
	int tcp;
	struct sconn *conns;
	unsigned int n;
	struct tconn *tconns;		/* max_clients echo connections */
};

struct tconn {
	int fd;				/* -1: free */
	uint64_t last;
	uint32_t off, len;		/* bytes read and not yet written back */
	char buf[TCP_BUF];
};

static void peer_ip(struct rdma_cm_id *id, char *ip, size_t len)
{
	struct sockaddr *sa = rdma_get_peer_addr(id);
	const void *a = sa->sa_family == AF_INET6 ?
		(const void *)&((struct sockaddr_in6 *)sa)->sin6_addr :
		(const void *)&((struct sockaddr_in *)sa)->sin_addr;

	if (!inet_ntop(sa->sa_family, a, ip, (socklen_t)len))
		snprintf(ip, len, "?");
}

static void peer_str(struct rdma_cm_id *id, char *buf, size_t len)
{
	char ip[RCTL_ADDR_LEN];

	peer_ip(id, ip, sizeof(ip));
	snprintf(buf, len, "%s:%u", ip, ntohs(rdma_get_dst_port(id)));
}

static int post_recv(struct sconn *s)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)s->buf, .length = s->size, .lkey = s->mr->lkey,
	};
	struct ibv_recv_wr wr = { .sg_list = &sge, .num_sge = 1 }, *bad;

	return ibv_post_recv(s->id->qp, &wr, &bad);
}

/* Answer in kind: SEND with a SEND, WRITE_WITH_IMM with a WRITE_WITH_IMM. */
static int reply(struct sconn *s, const struct ibv_wc *wc)
{
	uint32_t len = wc->opcode == IBV_WC_RECV ? wc->byte_len : ntohl(wc->imm_data);
	struct ibv_sge sge = { .addr = (uintptr_t)s->buf, .lkey = s->mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1,
				  .send_flags = IBV_SEND_SIGNALED }, *bad;

	sge.length = len < s->size ? len : s->size;
	if (sge.length <= s->max_inline)
		wr.send_flags |= IBV_SEND_INLINE;
	if (wc->opcode == IBV_WC_RECV) {
		wr.opcode = IBV_WR_SEND;
	} else {
		wr.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
		wr.imm_data = htonl(sge.length);
		wr.wr.rdma.remote_addr = s->caddr;
		wr.wr.rdma.rkey = s->crkey;
	}
	return ibv_post_send(s->id->qp, &wr, &bad);
}

/* A completion of our probe: the client is there. */
static void keepalive_done(struct sconn *s, const struct ibv_wc *wc)
{
	if (wc->wr_id == KEEPALIVE_WRID && wc->status == IBV_WC_SUCCESS)
		s->keepalive_sent = 0;
}

/* Handle a batch; 0 to go on, -1 when this client is finished. */
static int serve_wcs(struct sconn *s, const struct ibv_wc *wc, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		keepalive_done(s, &wc[i]);
		if (wc[i].status != IBV_WC_SUCCESS) {
			s->why = wc[i].status == IBV_WC_WR_FLUSH_ERR ? "flushed" :
				 ibv_wc_status_str(wc[i].status);
			return -1;
		}
		if (!(wc[i].opcode & IBV_WC_RECV))
			continue;
		s->msgs++;
		/* Answer first: the re-posted receive is not on the critical path. */
		if ((s->mode == RCTL_MODE_ECHO && reply(s, &wc[i])) || post_recv(s)) {
			s->why = "cannot post a work request";
			return -1;
		}
	}
	return 0;
}

static void worker_sleep(struct sconn *s)
{
	struct pollfd p = { .fd = s->cc->fd, .events = POLLIN };
	struct ibv_cq *cq;
	struct ibv_wc wc;
	void *ctx;

	if (ibv_req_notify_cq(s->cq, 0))
		return;
	/* A completion that raced the arm is seen by the next poll. */
	if (ibv_poll_cq(s->cq, 0, &wc) == 0 && poll(&p, 1, TICK_MS) == 1 &&
	    !ibv_get_cq_event(s->cc, &cq, &ctx))
		ibv_ack_cq_events(cq, 1);
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
	struct ibv_sge sge = { .addr = (uintptr_t)s->buf, .lkey = s->mr->lkey };
	struct ibv_send_wr wr = {
		.wr_id = KEEPALIVE_WRID, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = s->caddr, .rkey = s->crkey },
	}, *bad;

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
	if (!ibv_post_send(s->id->qp, &wr, &bad))
		s->keepalive_sent = now;
	return true;
}

/*
 * One empty poll of a worker: every RCTL_SPINS_PER_CLOCK of them read the
 * clock (it costs microseconds on HPET), end at the client's lifetime, probe
 * an idle client, and "rest" once nothing arrived for SPIN_NS. False to stop.
 */
static bool worker_idle(struct sconn *s, unsigned int *spins, uint64_t *busy,
			void (*rest)(struct sconn *s))
{
	uint64_t now;

	if (++*spins % RCTL_SPINS_PER_CLOCK)
		return true;
	now = rctl_clock_ns();
	if (!*busy)
		*busy = now;
	if (now >= s->deadline) {
		s->why = "lifetime reached";
		return false;
	}
	if (now - *busy > KEEPALIVE_NS && !keepalive(s, now))
		return false;
	/*
	 * A yield hands the CPU to whatever else is runnable, for the rest of
	 * its slice: on a loaded host, milliseconds per message (lab, two CPU
	 * hogs: 100000 SEND round trips did not end in 100 s with it, took
	 * 14 s without; perftest's server never yields). Only on one CPU,
	 * where the client polls beside us, does it help.
	 */
	if (now - *busy > SPIN_NS)
		rest(s);
	else if (s->one_cpu && now - *busy > RCTL_YIELD_NS)
		sched_yield();
	return true;
}

static void *worker(void *arg)
{
	struct sconn *s = arg;
	uint64_t busy = 0;
	unsigned int spins = 0;
	struct ibv_wc wc[16];
	int n;

	while (!s->stop) {
		n = ibv_poll_cq(s->cq, 16, wc);
		if (n < 0 || (n > 0 && serve_wcs(s, wc, n)))
			break;
		if (n > 0) {
			spins = 0;
			busy = 0;
			continue;
		}
		if (!worker_idle(s, &spins, &busy, worker_sleep))
			break;
	}
	s->done = 1;
	return NULL;
}

/* RDMA WRITE the second half of our buffer back; wait for its completion. */
static int write_back(struct sconn *s)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)(s->buf + s->size), .length = s->size,
		.lkey = s->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE,
		.send_flags = IBV_SEND_SIGNALED, .wr.rdma = {
			.remote_addr = s->caddr, .rkey = s->crkey },
	}, *bad;
	struct ibv_wc wc;
	int n;

	if (s->size <= s->max_inline)
		wr.send_flags |= IBV_SEND_INLINE;
	if (ibv_post_send(s->id->qp, &wr, &bad)) {
		s->why = "cannot post a work request";
		return -1;
	}
	/* Bounded by the transport, or by stop (rxe retries a retry_cnt of 7 forever). */
	do {
		while (!(n = ibv_poll_cq(s->cq, 1, &wc)) && !s->stop)
			;
		if (n == 1)
			keepalive_done(s, &wc);
	} while (n == 1 && wc.wr_id == KEEPALIVE_WRID && wc.status == IBV_WC_SUCCESS);
	if (n == 1 && wc.status == IBV_WC_SUCCESS)
		return 0;
	s->why = n < 0 ? "cannot poll the CQ" : n == 0 ? NULL :
		 wc.status == IBV_WC_WR_FLUSH_ERR ? "flushed" : ibv_wc_status_str(wc.status);
	return -1;
}

/* Poll mode sees completions only of its own WRITEs: a failed one ends it. */
static bool cq_ok(struct sconn *s)
{
	struct ibv_wc wc;
	int n = ibv_poll_cq(s->cq, 1, &wc);

	if (n == 1)
		keepalive_done(s, &wc);
	if (n <= 0 || wc.status == IBV_WC_SUCCESS)
		return n >= 0;
	s->why = wc.status == IBV_WC_WR_FLUSH_ERR ? "flushed" : ibv_wc_status_str(wc.status);
	return false;
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
	uint64_t busy = 0;
	unsigned int spins = 0;
	char seq = 0;

	while (!s->stop) {
		if (*in == (char)(seq + 1)) {
			s->buf[2 * s->size - 1] = ++seq;
			if (write_back(s))
				break;
			s->msgs++;
			spins = 0;
			busy = 0;
			continue;
		}
		if (!worker_idle(s, &spins, &busy, worker_nap) || !cq_ok(s))
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
	if (s->id && s->id->qp)
		rdma_destroy_qp(s->id);
	if (s->mr)
		ibv_dereg_mr(s->mr);
	if (s->cq)
		ibv_destroy_cq(s->cq);
	if (s->cc)
		ibv_destroy_comp_channel(s->cc);
	if (s->pd)
		ibv_dealloc_pd(s->pd);
	if (s->id)
		rdma_destroy_id(s->id);
	free(s->buf);
	free(s);
}

static int sconn_setup(struct sconn *s)
{
	struct ibv_qp_init_attr qa = { 0 };
	struct ibv_context *vc = s->id->verbs;
	uint32_t i;

	s->pd = ibv_alloc_pd(vc);
	s->cc = s->pd ? ibv_create_comp_channel(vc) : NULL;
	s->cq = s->cc ? ibv_create_cq(vc, 2 * s->depth + 2, s, s->cc, 0) : NULL;
	s->buf = s->cq ? aligned_alloc(4096, ((size_t)s->size * 2 + 4095) & ~(size_t)4095) : NULL;
	if (!s->buf)
		return -1;
	memset(s->buf, 0xa5, (size_t)s->size * 2);
	s->buf[s->size - 1] = 0;	/* RCTL_MODE_POLL: the first WRITE brings 1 */
	s->mr = ibv_reg_mr(s->pd, s->buf, (size_t)s->size * 2, IBV_ACCESS_LOCAL_WRITE |
			   IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	qa.send_cq = qa.recv_cq = s->cq;
	qa.qp_type = IBV_QPT_RC;
	qa.cap.max_send_wr = qa.cap.max_recv_wr = s->depth;
	qa.cap.max_send_sge = qa.cap.max_recv_sge = 1;
	qa.cap.max_inline_data = 64;	/* small answers inline, as perftest sends */
	if (!s->mr)
		return -1;
	if (rdma_create_qp(s->id, s->pd, &qa)) {
		qa.cap.max_inline_data = 0;
		if (rdma_create_qp(s->id, s->pd, &qa))
			return -1;
	}
	s->max_inline = qa.cap.max_inline_data;
	for (i = 0; i < s->depth; i++)
		if (post_recv(s))
			return -1;
	/* armed: the main loop sees data that arrives before ESTABLISHED */
	return ibv_req_notify_cq(s->cq, 0) ? -1 : 0;
}

static unsigned int peer_slots(const struct server *sv, const char *ip)
{
	const struct sconn *s;
	unsigned int n = 0;

	for (s = sv->conns; s; s = s->next)
		n += !strcmp(s->peer_ip, ip);
	return n;
}

static uint8_t check_hello(struct server *sv, const struct rdma_cm_event *ev,
			   struct rctl_hello *h)
{
	enum rctl_probe_status st;
	char ip[RCTL_ADDR_LEN];

	st = rctl_hello_decode(ev->param.conn.private_data,
			       ev->param.conn.private_data_len, h);
	if (st != RCTL_PROBE_OK)
		return st;
	if (sv->n >= sv->o->max_clients)
		return RCTL_PROBE_BUSY;
	peer_ip(ev->id, ip, sizeof(ip));
	if (peer_slots(sv, ip) >= sv->o->max_per_peer)
		return RCTL_PROBE_PEER_LIMIT;
	return RCTL_PROBE_OK;
}

static const char *status_why(uint8_t st)
{
	switch (st) {
	case RCTL_PROBE_VERSION_MISMATCH: return "handshake version mismatch";
	case RCTL_PROBE_BUSY: return "client limit reached";
	case RCTL_PROBE_PEER_LIMIT: return "per-peer limit reached";
	case RCTL_PROBE_BAD_REQUEST: return "not a rocectl handshake";
	default: return "out of resources";
	}
}

/* Our welcome: version 2 unless the client speaks 1; our port's MTUs. */
static size_t welcome(struct rdma_cm_id *id, uint8_t version, uint8_t st,
		      struct rctl_welcome *w, uint8_t *buf)
{
	struct ibv_port_attr pa;

	w->version = version < RCTL_PROBE_VERSION && version >= RCTL_PROBE_MIN_VERSION ?
		     version : RCTL_PROBE_VERSION;
	w->status = st;
	if (id->verbs && !ibv_query_port(id->verbs, id->port_num, &pa) &&
	    pa.active_mtu >= IBV_MTU_256)
		w->active_mtu = 128u << pa.active_mtu;
	rctl_addr_netdev(rdma_get_local_addr(id), w->netdev, sizeof(w->netdev),
			 &w->netdev_mtu);
	return rctl_welcome_encode(w, buf);
}

static void reject(struct server *sv, struct rdma_cm_id *id, uint8_t st)
{
	struct rctl_welcome w = { 0 };
	uint8_t buf[RCTL_WELCOME_LEN];
	struct rctl_serve_event ev = { .kind = RCTL_SERVE_REJECT,
				       .clients = sv->n, .why = status_why(st) };
	size_t n;

	/*
	 * Our own version, in the full layout: its first 32 bytes are version
	 * 1's, so a client of any version reads the status and our version.
	 */
	n = welcome(id, RCTL_PROBE_VERSION, st, &w, buf);
	peer_str(id, ev.peer, sizeof(ev.peer));
	rdma_reject(id, buf, (uint8_t)n);
	sv->cb(sv->arg, &ev);
}

static int accept_conn(struct server *sv, struct sconn *s, uint8_t version,
		       const struct rdma_cm_event *cev)
{
	struct rctl_welcome w = {
		.addr = (uintptr_t)s->buf, .rkey = s->mr->rkey, .size = s->size,
		.lifetime_s = (uint32_t)sv->o->lifetime_s,
	};
	uint8_t buf[RCTL_WELCOME_LEN];
	struct rdma_conn_param cp = { 0 };
	struct ibv_device_attr da;
	uint8_t ack_timeout = ACK_TIMEOUT;

	cp.private_data = buf;
	cp.private_data_len = (uint8_t)welcome(s->id, version, RCTL_PROBE_OK, &w, buf);
	cp.rnr_retry_count = 7;
	cp.retry_count = 7;
	cp.responder_resources = cev->param.conn.initiator_depth;
	cp.initiator_depth = cev->param.conn.responder_resources;
	if (!ibv_query_device(s->id->verbs, &da)) {
		if (cp.responder_resources > da.max_qp_rd_atom)
			cp.responder_resources = da.max_qp_rd_atom;
		if (cp.initiator_depth > da.max_qp_init_rd_atom)
			cp.initiator_depth = da.max_qp_init_rd_atom;
	}
	/* Older kernels lack the option; rdma_cm's default is then used. */
	rdma_set_option(s->id, RDMA_OPTION_ID, RDMA_OPTION_ID_ACK_TIMEOUT,
			&ack_timeout, 1);
	s->accepted = rctl_clock_ns();
	return rdma_accept(s->id, &cp);
}

/* ESTABLISHED: only now does the client get a worker and its lifetime. */
static int start_worker(struct server *sv, struct sconn *s)
{
	if (s->started)
		return 0;
	s->t0 = rctl_clock_ns();
	s->deadline = s->t0 + (uint64_t)(sv->o->lifetime_s * 1e9);
	s->next_keepalive = s->t0 + KEEPALIVE_NS;
	s->one_cpu = sysconf(_SC_NPROCESSORS_ONLN) < 2;
	if (pthread_create(&s->thr, NULL, s->mode == RCTL_MODE_POLL ? poll_worker : worker, s))
		return -1;
	s->started = true;
	return 0;
}

/* CONNECT_REQUEST: the event's id is new; it is ours to accept or destroy. */
static void on_request(struct server *sv, struct rdma_cm_event *ev)
{
	struct rdma_cm_id *id = ev->id;
	struct rctl_hello h;
	struct sconn *s;
	uint8_t st;

	st = check_hello(sv, ev, &h);
	s = st == RCTL_PROBE_OK ? calloc(1, sizeof(*s)) : NULL;
	if (s) {
		s->id = id;
		s->size = h.size;
		s->depth = h.depth;
		s->mode = h.mode;
		s->caddr = h.addr;
		s->crkey = h.rkey;
		peer_str(id, s->peer, sizeof(s->peer));
		peer_ip(id, s->peer_ip, sizeof(s->peer_ip));
		id->context = s;
		if (sconn_setup(s) || accept_conn(sv, s, h.version, ev)) {
			if (id->qp)
				rdma_destroy_qp(id);
			s->id = NULL;	/* destroyed below, after the ack */
			sconn_free(s);
			s = NULL;
			st = RCTL_PROBE_NO_RESOURCES;
		}
	}
	if (!s) {
		if (!st)
			st = RCTL_PROBE_NO_RESOURCES;
		reject(sv, id, st);
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
	rdma_disconnect(s->id);
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

static void on_event(struct server *sv, struct rdma_cm_event *ev)
{
	struct sconn *s = ev->id->context;
	struct rctl_serve_event out = { .kind = RCTL_SERVE_CONNECT };
	int type = ev->event;

	if (type == RDMA_CM_EVENT_CONNECT_REQUEST) {
		on_request(sv, ev);
		return;
	}
	rdma_ack_cm_event(ev);
	if (!s)
		return;
	switch (type) {
	case RDMA_CM_EVENT_ESTABLISHED:
		s->established = true;
		if (start_worker(sv, s)) {
			finish(sv, s, "cannot start a worker");
			break;
		}
		snprintf(out.peer, sizeof(out.peer), "%s", s->peer);
		snprintf(out.dev, sizeof(out.dev), "%s",
			 ibv_get_device_name(s->id->verbs->device));
		out.mode = s->mode;
		out.size = s->size;
		out.clients = sv->n;
		sv->cb(sv->arg, &out);
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
		return rctl_err_set(e, errno, "cannot open the TCP control socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, sa, len) || listen(fd, 16)) {
		rctl_err_set(e, errno, "cannot listen on TCP control port %u",
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

/*
 * A banner line, then an echo; a prober that only wants the banner just
 * closes. With every echo slot taken, the banner alone.
 */
static void tcp_accept(struct server *sv, int lfd)
{
	struct tconn *t = NULL;
	unsigned int i;
	int fd, one = 1;
	char banner[32];

	fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	for (i = 0; i < sv->o->max_clients && !t; i++)
		if (sv->tconns[i].fd < 0)
			t = &sv->tconns[i];
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
	t->last = rctl_clock_ns();
	t->off = 0;
	t->len = (uint32_t)snprintf(t->buf, sizeof(t->buf), "rocectl-serve %u\n",
				    RCTL_PROBE_VERSION);
}

/* Write back what is pending, then read more: never blocks. */
static void tcp_echo(struct tconn *t, short revents, uint64_t now)
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
	n = read(t->fd, t->buf, sizeof(t->buf));
	if (n == 0 || (n < 0 && errno != EAGAIN))
		return tcp_close(t);
	if (n > 0) {
		t->len = (uint32_t)n;
		t->last = now;
		tcp_echo(t, 0, now);
	}
}

static int listen_cm(struct server *sv, struct rctl_err *e)
{
	const struct sockaddr_in *sin = (const void *)sv->o->bind;

	sv->ch = rdma_create_event_channel();
	if (!sv->ch)
		return rctl_err_set(e, errno, "cannot open rdma_cm (is rdma_ucm loaded?)");
	if (rdma_create_id(sv->ch, &sv->lid, NULL, RDMA_PS_TCP))
		return rctl_err_set(e, errno, "cannot create an rdma_cm id");
	if (rdma_bind_addr(sv->lid, (struct sockaddr *)sv->o->bind))
		return rctl_err_set(e, errno, "cannot bind rdma_cm to port %u",
				    ntohs(sin->sin_port));
	if (rdma_listen(sv->lid, 16))
		return rctl_err_set(e, errno, "cannot listen on rdma_cm port %u",
				    ntohs(sin->sin_port));
	return 0;
}

/* Drop clients past their handshake bound and those whose worker ended. */
static void reap(struct server *sv)
{
	uint64_t now = rctl_clock_ns();	/* after every accept of this round */
	struct sconn *s, *next;

	for (s = sv->conns; s; s = next) {
		next = s->next;
		if (s->done)
			finish(sv, s, "worker ended");
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
	struct ibv_cq *cq;
	void *ctx;

	if (!ibv_get_cq_event(s->cc, &cq, &ctx))
		ibv_ack_cq_events(cq, 1);
	rdma_notify(s->id, IBV_EVENT_COMM_EST);
	if (start_worker(sv, s))
		finish(sv, s, "cannot start a worker");
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
			f->p[f->n++] = (struct pollfd){ .fd = s->cc->fd, .events = POLLIN };
		}
}

static void loop_serve(struct server *sv, struct loop_fds *f)
{
	struct rdma_cm_event *ev;
	uint64_t now = rctl_clock_ns();
	unsigned int i;

	for (i = 0; i < f->ntc; i++)
		if (f->p[2 + i].revents)
			tcp_echo(f->tc[i], f->p[2 + i].revents, now);
		else if (now > f->tc[i]->last && now - f->tc[i]->last > TCP_IDLE_NS)
			tcp_close(f->tc[i]);
	/* before CM events, which may free a connection of the list */
	for (i = 0; i < f->nsc; i++)
		if ((f->p[2 + f->ntc + i].revents & POLLIN) && !f->sc[i]->started)
			on_early_data(sv, f->sc[i]);
	if ((f->p[0].revents & POLLIN) && !rdma_get_cm_event(sv->ch, &ev))
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
		f.p[0] = (struct pollfd){ .fd = sv->ch->fd, .events = POLLIN };
		f.p[1] = (struct pollfd){ .fd = sv->tcp, .events = POLLIN };
		while (!*sv->o->stop) {
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
		return rctl_err_msg(e, EINVAL, "serve: %u clients: expected 1 to %u",
				    o->max_clients, RCTL_SERVE_MAX_CLIENTS);
	sv.tconns = calloc(o->max_clients, sizeof(*sv.tconns));
	if (!sv.tconns)
		return rctl_err_set(e, ENOMEM, "cannot start serve");
	for (i = 0; i < o->max_clients; i++)
		sv.tconns[i].fd = -1;
	ret = listen_cm(&sv, e);
	if (!ret) {
		sv.tcp = tcp_listen(o->bind, e);
		ret = sv.tcp < 0 ? sv.tcp : 0;
	}
	if (!ret) {
		if (sv.lid->verbs)
			snprintf(ev.dev, sizeof(ev.dev), "%s",
				 ibv_get_device_name(sv.lid->verbs->device));
		cb(arg, &ev);
		serve_loop(&sv);
		while (sv.conns)
			finish(&sv, sv.conns, "serve stopping");
	}
	for (i = 0; i < o->max_clients; i++)
		if (sv.tconns[i].fd >= 0)
			close(sv.tconns[i].fd);
	free(sv.tconns);
	if (sv.tcp >= 0)
		close(sv.tcp);
	if (sv.lid)
		rdma_destroy_id(sv.lid);
	if (sv.ch)
		rdma_destroy_event_channel(sv.ch);
	return ret;
}
