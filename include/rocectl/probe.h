/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Real-QP probing over librdmacm (RDMA_PS_TCP, RC): the client side used by
 * "rocectl reach" and "rocectl bench rdma", the responder of "rocectl serve",
 * and the small protocol they share.
 *
 * Wire: only RoCE v2 (UDP 4791) is needed between the two hosts: the CM
 * exchange runs over QP1 MADs, the data over the RC QP. The handshake rides in
 * the CM private data (the hello in the REQ, the welcome in the REP or the
 * REJ; encoded and decoded in lib/probe_wire.c). The TCP port of the same
 * number is an optional plain-IP control port: serve answers it with one
 * banner line, so that a client can tell "IP reachable" from "RoCE blocked",
 * and then echoes what the client sends (the TCP round trip of
 * --compare-tcp).
 *
 * Every wait is bounded: each step waits at most the caller's timeout.
 */
#ifndef ROCECTL_PROBE_H
#define ROCECTL_PROBE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "rocectl/err.h"
#include "rocectl/model.h"
#include "rocectl/probe_wire.h"
#include "rocectl/serve_peer.h"

#define RCTL_PROBE_PORT 18520		/* rdma_cm (RDMA_PS_TCP) and TCP control */

/* Why a probe failed; each has its finding id (rctl_reach_class_id()). */
enum rctl_reach_class {
	RCTL_REACH_OK = 0,
	RCTL_REACH_ADDR,	/* address resolution failed (no route, no ARP) */
	RCTL_REACH_ROUTE,	/* route resolution failed */
	RCTL_REACH_NODEV,	/* no RDMA device for the local address */
	RCTL_REACH_REJECTED,	/* connect rejected (nothing listening, REJ) */
	RCTL_REACH_TIMEOUT,	/* connect timed out (UDP 4791 filtered?) */
	RCTL_REACH_STALLED,	/* connected, traffic stalls or retries run out */
	RCTL_REACH_VERSION,	/* handshake version mismatch */
	RCTL_REACH_MTU,		/* larger messages stall: MTU black hole */
	RCTL_REACH_NCLASSES
};

const char *rctl_reach_class_id(enum rctl_reach_class c);

/* What a connected QP actually uses, read back from the QP and GID table. */
struct rctl_rpath {
	char dev[RCTL_NAME_LEN];
	uint32_t port;
	int gid_index;			/* -1 unknown */
	char gid[RCTL_ADDR_LEN];
	char roce_mode[16];		/* "RoCE v2" ... */
	char netdev[RCTL_IFNAME_LEN];
	char src_ip[RCTL_ADDR_LEN];
	char dst_ip[RCTL_ADDR_LEN];
	uint32_t active_mtu;		/* port, bytes */
	uint32_t netdev_mtu;		/* of the source address's netdev, 0 unknown */
	uint32_t path_mtu;		/* QP, bytes; 0 before connect */
	int tos;			/* requested, -1 = rdma_cm default */
	int traffic_class;		/* QP GRH traffic class, -1 unknown */
	uint32_t ack_timeout;		/* QP local ACK timeout exponent */
	uint32_t retry_cnt;
};

enum { RCTL_STEP_ADDR, RCTL_STEP_ROUTE, RCTL_STEP_CONNECT, RCTL_STEP_NSTEPS };

struct rctl_conn_opts {
	const struct sockaddr *dst;	/* with the port set */
	const struct sockaddr *src;	/* NULL: the kernel picks */
	int tos;			/* -1: rdma_cm default */
	double timeout_s;		/* each step waits at most this */
	uint8_t mode;			/* enum rctl_probe_mode */
	uint32_t size;			/* largest message */
	uint32_t depth;			/* send/recv queue depth */
	uint8_t retry_cnt;		/* RC transport retries, 0..7 */
	uint8_t ack_timeout;		/* 0: rdma_cm default */
	uint8_t version;		/* 0: RCTL_PROBE_VERSION */
	const uint8_t *token;		/* RCTL_TOKEN_LEN bytes (--token-file), or NULL */
	double half_open_s;		/* testing aid: send the REQ, never complete
					 * the handshake, give up after this long */
	uint32_t write_short;		/* testing aid: WRITE round trips write this
					 * many bytes fewer than their immediate says */
};

/* A connection and what the connect learnt on the way. */
struct rctl_conn {
	struct rdma_event_channel *ch;
	struct rdma_cm_id *id;
	struct ibv_pd *pd;
	struct ibv_comp_channel *cc;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	char *buf;			/* [0,size) source; [size,2*size) sink */
	uint32_t size, depth, max_inline;
	uint64_t raddr;
	uint32_t rkey;
	bool connected;
	bool cq_armed;
	uint64_t seq;
	uint32_t send_outstanding;	/* signalled WRs not yet completed */
	uint32_t write_short;		/* rctl_conn_opts */

	struct rctl_rpath path;
	double step_ms[RCTL_STEP_NSTEPS];	/* < 0 when not reached */
	enum rctl_reach_class cls;		/* of a failed open */
	int reject_status;			/* REJ reason, -1 none */
	int peer_version;			/* -1 unknown */
	uint32_t peer_lifetime_s;
	struct rctl_welcome peer;		/* serve's welcome (its MTUs) */
};

/*
 * Resolve the address (the local device becomes known: c->path.dev/port).
 * On failure returns -errno: c->cls says which class (RCTL_REACH_OK when the
 * failure is not a reachability finding, e.g. no rdma_cm at all).
 */
int rctl_conn_resolve(struct rctl_conn *c, const struct rctl_conn_opts *o,
		      struct rctl_err *e);
/* Resolve the route, create the QP and connect with the handshake. */
int rctl_conn_connect(struct rctl_conn *c, const struct rctl_conn_opts *o,
		      struct rctl_err *e);
void rctl_conn_close(struct rctl_conn *c);

enum rctl_xfer_op { RCTL_OP_SEND, RCTL_OP_WRITE, RCTL_OP_READ };

/*
 * One round trip of "len" bytes against an echo responder: SEND answered by
 * SEND, or RDMA WRITE (with immediate) answered in kind. busy: spin on the CQ
 * instead of sleeping on the completion channel. -ETIMEDOUT when nothing came
 * back within timeout_s, -ECONNRESET when the peer disconnected, -EIO on a
 * failed work completion (the message names the status).
 */
int rctl_conn_pingpong(struct rctl_conn *c, enum rctl_xfer_op op, uint32_t len,
		       double timeout_s, bool busy, uint64_t *rtt_ns,
		       struct rctl_err *e);

struct ibv_wc;
/*
 * Up to n completions, at least one, before deadline_ns (rctl_clock_ns()).
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
int rctl_conn_poll(struct rctl_conn *c, struct ibv_wc *wc, int n,
		   uint64_t deadline_ns, bool busy);
int rctl_conn_post_recv(struct rctl_conn *c);
/* "work completion failed: <status>" into e; returns -EIO. */
int rctl_wc_error(const struct ibv_wc *wc, struct rctl_err *e);

/* --mtu-sweep: the largest SEND that makes the round trip. */
struct rctl_sweep {
	uint32_t largest_ok;		/* 0: not even the smallest passed */
	uint32_t smallest_bad;		/* 0: everything up to the maximum passed */
	uint32_t max;
	unsigned int probes;
	char why[160];			/* how the smallest bad size failed */
};

/*
 * Powers of two from 64 to "max", then a bisection between the last size that
 * passed and the first that did not. A failed size leaves the QP in error, so
 * the connection is made again (resolve + connect) before the next probe; *c
 * is connected on return unless that failed (-errno, message in e).
 */
int rctl_mtu_sweep(struct rctl_conn *c, const struct rctl_conn_opts *o,
		   uint32_t max, struct rctl_sweep *r, struct rctl_err *e);

/*
 * The shared token of --token-file: the file's first line (one trailing
 * newline dropped), RCTL_TOKEN_MIN to RCTL_TOKEN_LEN printable bytes, into tok
 * (NUL padded). -EPERM when the file is readable or writable by every user,
 * -EINVAL when the token is malformed, -errno when it cannot be read.
 */
int rctl_token_read(const char *path, uint8_t tok[RCTL_TOKEN_LEN], struct rctl_err *e);

/* A numeric address (or, unless numeric, a host name) with the port set. */
int rctl_sockaddr_parse(const char *s, uint16_t port, bool numeric,
			struct sockaddr_storage *ss, struct rctl_err *e);

/* The netdev holding a local address, and its MTU (0 when unreadable). */
int rctl_addr_netdev(const struct sockaddr *sa, char *ifname, size_t len,
		     uint32_t *mtu);

/* ---- latency summaries (JSON: "rtt_ns" {min, mean, stddev, max, percentiles}) */

struct rctl_hist;
struct rctl_stat {		/* running mean and variance (Welford) */
	uint64_t n;
	double mean, m2;
};
struct rctl_lat {
	uint64_t count, min, max, mean, stddev, p50, p99, p999;	/* ns */
};
/* Add one sample to the histogram and the running moments. */
void rctl_stat_add(struct rctl_hist *h, struct rctl_stat *st, uint64_t ns);
void rctl_lat_of(struct rctl_lat *l, const struct rctl_hist *h,
		 const struct rctl_stat *st);

/*
 * --compare-tcp: "count" round trips of "len" bytes over TCP against serve's
 * control port (connect, banner, then echo; TCP_NODELAY), each bounded by
 * timeout_s. 0, or -errno with the message in e (-EPROTO: not a serve that
 * echoes).
 */
int rctl_tcp_pingpong(const struct sockaddr *dst, const struct sockaddr *src,
		      uint32_t len, unsigned int count, double timeout_s,
		      struct rctl_hist *h, struct rctl_stat *st, struct rctl_err *e);

/* ---- bench rdma (lib/bench_rdma.c) ---- */

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

/*
 * The IPv4 (else IPv6) address of the first RoCE v2 GID of dev/port, or of
 * the GID at gid_index when it is >= 0.
 */
int rctl_dev_src_addr(const char *dev, uint32_t port, int gid_index,
		      struct sockaddr_storage *ss, struct rctl_err *e);

/* Plain-IP control probe of serve's TCP port. */
enum rctl_ctl_result {
	RCTL_CTL_SERVE,		/* connected and serve's banner came back */
	RCTL_CTL_OPEN,		/* connected, no banner: something else listens */
	RCTL_CTL_REFUSED,	/* the host answered with a reset: IP reachable */
	RCTL_CTL_SILENT,	/* no answer within the timeout */
	RCTL_CTL_ERROR,		/* unreachable (ICMP) or local error */
};
enum rctl_ctl_result rctl_ctl_probe(const struct sockaddr *dst,
				    const struct sockaddr *src, double timeout_s,
				    int *peer_version, int *err);
const char *rctl_ctl_result_name(enum rctl_ctl_result r);
bool rctl_ctl_ip_reachable(enum rctl_ctl_result r);

/* Port hw_counters from sysfs, in file-name order. */
int rctl_port_hw_read(const char *dev, uint32_t port, struct rctl_counter **c,
		      uint32_t *n);
/* Whether a counter name counts loss, retransmission or retry trouble. */
bool rctl_counter_is_loss(const char *name);

/* ---- serve ---- */

#define RCTL_SERVE_MAX_CLIENTS 256u

struct rctl_serve_opts {
	const struct sockaddr *bind;	/* with the port set */
	unsigned int max_clients;
	unsigned int max_per_peer;	/* of max_clients, per peer address */
	double lifetime_s;		/* per client, RDMA and TCP echo */
	const struct rctl_cidr *allow;	/* --allow: peers outside are refused */
	unsigned int nallow;		/* 0: every peer */
	const uint8_t *token;		/* RCTL_TOKEN_LEN bytes, or NULL: none asked */
	const volatile sig_atomic_t *stop;
};

/*
 * What one client can hold, from the code below (rocectl-serve(8) states the
 * totals): before ESTABLISHED one page of registered memory (the control
 * receive) and its QP; once established 2 x size registered; echo answers in
 * flight at most RCTL_SERVE_ECHO_INFLIGHT; polling at most
 * RCTL_SERVE_SPIN_CREDIT_NS per message received, RCTL_SERVE_SPIN_MAX_NS in
 * a row.
 */
#define RCTL_SERVE_CTRL_BYTES 4096u
#define RCTL_SERVE_ECHO_INFLIGHT 16u
#define RCTL_SERVE_SPIN_CREDIT_NS 2000000ull
#define RCTL_SERVE_SPIN_MAX_NS 200000000ull

enum rctl_serve_ev { RCTL_SERVE_LISTEN, RCTL_SERVE_CONNECT, RCTL_SERVE_REJECT,
		     RCTL_SERVE_DISCONNECT };

struct rctl_serve_event {
	enum rctl_serve_ev kind;
	char peer[RCTL_ADDR_LEN + 8];	/* "10.0.0.1:34567" */
	char dev[RCTL_NAME_LEN];
	uint8_t mode;
	uint32_t size;
	unsigned int clients;		/* connected after this event */
	uint64_t messages;		/* handled, on disconnect */
	double secs;			/* connected for, on disconnect */
	uint64_t count;			/* reject: rejections this line stands for */
	const char *why;		/* reject/disconnect reason, or NULL */
};

typedef void (*rctl_serve_cb)(void *arg, const struct rctl_serve_event *ev);

/*
 * Run until *stop; 0 on a clean stop, -errno when it cannot listen, -ENODEV
 * when rdma_cm reports DEVICE_REMOVAL or ADDR_CHANGE on the listener.
 */
int rctl_serve(const struct rctl_serve_opts *o, rctl_serve_cb cb, void *arg,
	       struct rctl_err *e);

const char *rctl_probe_mode_name(uint8_t mode);

#endif
