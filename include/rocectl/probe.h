/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The probe connection (lib/probe.c, lib/probe_io.c): the client side used by
 * "rocectl reach" and "rocectl bench rdma", over librdmacm (RDMA_PS_TCP, RC)
 * on one endpoint (include/rocectl/rdma_ep.h); its answerer is "rocectl
 * serve" (include/rocectl/serve.h), bench rdma's engine is
 * include/rocectl/bench_rdma.h.
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

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "rocectl/err.h"
#include "rocectl/model.h"
#include "rocectl/probe_wire.h"
#include "rocectl/rdma_ep.h"

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
	struct rctl_rdma_ep ep;		/* one CQ; ep.mr[0] holds buf */
	char *buf;			/* [0,size) source; [size,2*size) sink */
	uint32_t size, depth;
	uint64_t raddr;
	uint32_t rkey;
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
 * Up to n completions, at least one, before deadline_ns (rctl_clock_ns()),
 * busy polling (RCTL_SPINS_PER_CLOCK, RCTL_YIELD_NS) or sleeping on the
 * completion channel.
 */
int rctl_conn_poll(struct rctl_conn *c, struct ibv_wc *wc, int n,
		   uint64_t deadline_ns, bool busy);
int rctl_conn_post_recv(struct rctl_conn *c);
/* "work completion failed: <status>" into e; returns -EIO. */
int rctl_wc_error(const struct ibv_wc *wc, struct rctl_err *e);

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
 * control port (connect, banner, the token when the banner asks for one,
 * then echo; TCP_NODELAY), each bounded by timeout_s. token: RCTL_TOKEN_LEN
 * bytes of --token-file, or NULL. 0, or -errno with the message in e
 * (-EPROTO: not a serve that echoes; -EACCES: it wants a token we lack).
 */
int rctl_tcp_pingpong(const struct sockaddr *dst, const struct sockaddr *src,
		      uint32_t len, unsigned int count, double timeout_s,
		      const uint8_t *token, struct rctl_hist *h, struct rctl_stat *st,
		      struct rctl_err *e);

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

const char *rctl_probe_mode_name(uint8_t mode);

#endif
