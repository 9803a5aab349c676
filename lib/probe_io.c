// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Traffic on a probe connection (bounded completion waits, ping-pong), the
 * plain-IP control probe of serve's TCP port, and the port's hw_counters.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "rocectl/collect.h"
#include "rocectl/catalog.h"
#include "rocectl/clock.h"
#include "rocectl/hist.h"
#include "rocectl/probe.h"
#include "rocectl/sysfs.h"

/* One sample into the histogram and the running mean and variance (Welford). */
void rctl_stat_add(struct rctl_hist *h, struct rctl_stat *st, uint64_t ns)
{
	double d = (double)ns - st->mean;

	rctl_hist_add(h, ns);
	st->n++;
	st->mean += d / (double)st->n;
	st->m2 += d * ((double)ns - st->mean);
}

/* Sleep on the completion channel and the CM channel, at most "ms". */
static int conn_sleep(struct rctl_conn *c, int ms)
{
	struct pollfd p[2] = {
		{ .fd = c->ep.cc->fd, .events = POLLIN },
		{ .fd = c->ep.ch->fd, .events = POLLIN },
	};
	struct rdma_cm_event *ev;
	int type;

	if (poll(p, 2, ms) < 0)
		return errno == EINTR ? 0 : -errno;
	if ((p[0].revents & POLLIN) && rctl_rdma_ep_cq_event(&c->ep))
		c->ep.armed = false;
	if ((p[1].revents & POLLIN) && !rdma_get_cm_event(c->ep.ch, &ev)) {
		type = ev->event;
		rdma_ack_cm_event(ev);
		if (type == RDMA_CM_EVENT_DISCONNECTED) {
			c->ep.connected = false;
			return -ECONNRESET;
		}
	}
	return 0;
}

/*
 * Up to n completions, at least one, before deadline_ns. busy: spin; else
 * arm the CQ and sleep. -ETIMEDOUT, -ECONNRESET (peer disconnected).
 */
int rctl_conn_poll(struct rctl_conn *c, struct ibv_wc *wc, int n,
		   uint64_t deadline_ns, bool busy)
{
	unsigned int spins = 0;
	uint64_t now, since = 0;
	int got, ret;

	for (;;) {
		got = ibv_poll_cq(c->ep.rcq, n, wc);
		if (got)
			return got < 0 ? -EIO : got;
		if (busy && ++spins % RCTL_SPINS_PER_CLOCK)
			continue;
		now = rctl_clock_ns();
		if (now >= deadline_ns)
			return -ETIMEDOUT;
		if (busy) {
			if (!since)
				since = now;
			else if (now - since > RCTL_YIELD_NS)
				sched_yield();
			continue;
		}
		if (!c->ep.armed) {
			ret = rctl_rdma_ep_arm(&c->ep, false);
			if (ret)
				return ret;
			c->ep.armed = true;
			continue;	/* a completion may have raced the arm */
		}
		ret = conn_sleep(c, (int)((deadline_ns - now) / 1000000) + 1);
		if (ret)
			return ret;
	}
}

int rctl_wc_error(const struct ibv_wc *wc, struct rctl_err *e)
{
	return rctl_err_plain(e, EIO, "work completion failed: %s (vendor error 0x%x)",
			    ibv_wc_status_str(wc->status), wc->vendor_err);
}

/* The bytes a round trip of len puts on the wire (rctl_conn_opts.write_short). */
static uint32_t wire_len(const struct rctl_conn *c, enum rctl_xfer_op op, uint32_t len)
{
	if (op == RCTL_OP_SEND)
		return len;
	return c->write_short < len ? len - c->write_short : 0;
}

static int post_one(struct rctl_conn *c, enum rctl_xfer_op op, uint32_t len)
{
	const struct rctl_rdma_wr wr = {
		.id = ++c->seq, .addr = c->buf, .len = wire_len(c, op, len),
		.lkey = c->ep.mr[0].mr->lkey, .signaled = true,
		/* inline when the size asked for fits */
		.may_inline = len <= c->ep.max_inline,
		.op = op == RCTL_OP_SEND ? IBV_WR_SEND : IBV_WR_RDMA_WRITE_WITH_IMM,
		.raddr = c->raddr, .rkey = c->rkey,
		.imm = len,	/* the echo answers with as much */
	};

	return rctl_rdma_ep_send(&c->ep, &wr);
}

int rctl_conn_post_recv(struct rctl_conn *c)
{
	return rctl_rdma_ep_recv(&c->ep, 0, c->buf + c->size, c->size,
				 c->ep.mr[0].mr->lkey);
}

int rctl_conn_pingpong(struct rctl_conn *c, enum rctl_xfer_op op, uint32_t len,
		       double timeout_s, bool busy, uint64_t *rtt_ns,
		       struct rctl_err *e)
{
	uint64_t t0, t1 = 0, deadline;
	bool sent = false, back = false;
	struct ibv_wc wc[4];
	int n, i, ret;

	/* Samples on the fast clock; the deadline on the monotonic clock the poll reads. */
	deadline = rctl_clock_ns() + (uint64_t)(timeout_s * 1e9);
	t0 = rctl_fast_ns();
	ret = post_one(c, op, len);
	if (ret)
		return rctl_err_strerror(e, ret, "cannot post a %u-byte %s", len,
				    op == RCTL_OP_SEND ? "SEND" : "RDMA WRITE");
	while (!sent || !back) {
		n = rctl_conn_poll(c, wc, 4, deadline, busy);
		if (n == -ETIMEDOUT)
			return rctl_err_plain(e, ETIMEDOUT, "no answer to a %u-byte %s within %gs",
					    len, op == RCTL_OP_SEND ? "SEND" : "RDMA WRITE",
					    timeout_s);
		if (n == -ECONNRESET)
			return rctl_err_plain(e, ECONNRESET, "the peer disconnected during a %u-byte %s",
					    len, op == RCTL_OP_SEND ? "SEND" : "RDMA WRITE");
		if (n < 0)
			return rctl_err_strerror(e, n, "cannot poll the CQ");
		for (i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS)
				return rctl_wc_error(&wc[i], e);
			if (wc[i].opcode & IBV_WC_RECV) {
				t1 = rctl_fast_ns();
				back = true;
				/* an echo is as long as what was sent, never longer */
				if (wc[i].byte_len != wire_len(c, op, len))
					return rctl_err_plain(e, EPROTO, "serve answered a %u-byte %s with %u bytes",
							    wire_len(c, op, len),
							    op == RCTL_OP_SEND ? "SEND" : "RDMA WRITE",
							    wc[i].byte_len);
				if (rctl_conn_post_recv(c))
					return rctl_err_strerror(e, errno, "cannot post a receive");
			} else {
				sent = true;
			}
		}
	}
	*rtt_ns = t1 - t0;
	return 0;
}

/* ---- control probe ---------------------------------------------------- */

static enum rctl_ctl_result ctl_banner(int fd, int ms, int *peer_version)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char buf[64];
	ssize_t n;
	unsigned int v;

	if (poll(&p, 1, ms) != 1)
		return RCTL_CTL_OPEN;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return RCTL_CTL_OPEN;
	buf[n] = '\0';
	if (sscanf(buf, "rocectl-serve %u", &v) != 1)
		return RCTL_CTL_OPEN;
	*peer_version = (int)v;
	return RCTL_CTL_SERVE;
}

enum rctl_ctl_result rctl_ctl_probe(const struct sockaddr *dst,
				    const struct sockaddr *src, double timeout_s,
				    int *peer_version, int *err)
{
	socklen_t len = dst->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) :
						     sizeof(struct sockaddr_in);
	struct pollfd p = { .events = POLLOUT };
	enum rctl_ctl_result r = RCTL_CTL_ERROR;
	int fd, soerr = 0, ms = (int)(timeout_s * 1000);
	socklen_t sl = sizeof(soerr);

	*err = 0;
	*peer_version = -1;
	fd = socket(dst->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		*err = errno;
		return RCTL_CTL_ERROR;
	}
	if (src && bind(fd, src, len) < 0)
		*err = errno;
	else if (!connect(fd, dst, len) || errno == EINPROGRESS) {
		p.fd = fd;
		if (poll(&p, 1, ms) != 1)
			r = RCTL_CTL_SILENT;
		else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) || soerr)
			*err = soerr;
		else
			r = ctl_banner(fd, ms, peer_version);
	} else {
		*err = errno;
	}
	if (*err == ECONNREFUSED)
		r = RCTL_CTL_REFUSED;
	close(fd);
	return r;
}

const char *rctl_ctl_result_name(enum rctl_ctl_result r)
{
	static const char *const n[] = {
		[RCTL_CTL_SERVE] = "serve answered", [RCTL_CTL_OPEN] = "port open",
		[RCTL_CTL_REFUSED] = "refused", [RCTL_CTL_SILENT] = "no answer",
		[RCTL_CTL_ERROR] = "unreachable",
	};
	return n[r];
}

bool rctl_ctl_ip_reachable(enum rctl_ctl_result r)
{
	return r == RCTL_CTL_SERVE || r == RCTL_CTL_OPEN || r == RCTL_CTL_REFUSED;
}

/* ---- TCP round trips against serve's control port ------------------- */

static int ctl_connect(const struct sockaddr *dst, const struct sockaddr *src,
		       int ms, struct rctl_err *e)
{
	socklen_t len = dst->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) :
						     sizeof(struct sockaddr_in);
	struct pollfd p = { .events = POLLOUT };
	int fd, one = 1, soerr = 0;
	socklen_t sl = sizeof(soerr);

	fd = socket(dst->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return rctl_err_strerror(e, errno, "cannot open a TCP socket");
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	p.fd = fd;
	if ((src && bind(fd, src, len)) ||
	    (connect(fd, dst, len) && errno != EINPROGRESS))
		soerr = errno;
	else if (poll(&p, 1, ms) != 1)
		soerr = ETIMEDOUT;
	else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl))
		soerr = errno;
	if (soerr) {
		close(fd);
		return rctl_err_strerror(e, soerr, "cannot connect to serve's TCP control port");
	}
	return fd;
}

/*
 * Read the banner line; serve of version 2 and later echoes after it, and
 * first wants the --token-file token when the line ends in " token".
 */
static int ctl_hello(int fd, int ms, const uint8_t *token, struct rctl_err *e)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char line[64], word[16] = "";
	size_t got = 0;
	unsigned int v;
	ssize_t n;

	while (got < sizeof(line) - 1 && !memchr(line, '\n', got)) {
		if (poll(&p, 1, ms) != 1)
			return rctl_err_plain(e, ETIMEDOUT, "no banner from serve's TCP control port");
		n = read(fd, line + got, sizeof(line) - 1 - got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	line[got] = '\0';
	if (sscanf(line, "rocectl-serve %u %15s", &v, word) < 1)
		return rctl_err_plain(e, EPROTO, "the TCP control port does not answer as 'rocectl serve'");
	if (v < 2)
		return rctl_err_plain(e, EPROTO, "serve speaks v%u: it does not echo on its TCP control port", v);
	if (strcmp(word, "token"))
		return 0;
	if (!token)
		return rctl_err_plain(e, EACCES, "serve's TCP control port wants the token of "
				    "its --token-file: give it with --token-file");
	/* 24 bytes into an empty socket buffer: written whole or not at all */
	errno = 0;
	if (write(fd, token, RCTL_TOKEN_LEN) != RCTL_TOKEN_LEN)
		return rctl_err_strerror(e, errno ? errno : EIO,
				    "cannot send the token to serve's TCP control port");
	return 0;
}

/* Send len bytes and read len back, interleaved (neither side can stall). */
static int tcp_round(int fd, char *buf, uint32_t len, uint64_t deadline)
{
	struct pollfd p = { .fd = fd };
	uint32_t sent = 0, got = 0;
	uint64_t now;
	ssize_t n;

	while (got < len) {
		now = rctl_clock_ns();
		if (now >= deadline)
			return -ETIMEDOUT;
		p.events = POLLIN | (sent < len ? POLLOUT : 0);
		if (poll(&p, 1, (int)((deadline - now) / 1000000) + 1) < 0)
			return -errno;
		if ((p.revents & POLLOUT) && sent < len) {
			n = write(fd, buf, len - sent);
			if (n < 0 && errno != EAGAIN)
				return -errno;
			sent += n > 0 ? (uint32_t)n : 0;
		}
		if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
			n = read(fd, buf + len, len - got);
			if (n == 0)
				return -ECONNRESET;
			if (n < 0 && errno != EAGAIN)
				return -errno;
			got += n > 0 ? (uint32_t)n : 0;
		}
	}
	return 0;
}

int rctl_tcp_pingpong(const struct sockaddr *dst, const struct sockaddr *src,
		      uint32_t len, unsigned int count, double timeout_s,
		      const uint8_t *token, struct rctl_hist *h, struct rctl_stat *st,
		      struct rctl_err *e)
{
	int fd, ret = 0, ms = (int)(timeout_s * 1000);
	unsigned int i;
	uint64_t t0;
	char *buf;

	buf = malloc((size_t)len * 2);
	if (!buf)
		return rctl_err_strerror(e, ENOMEM, "cannot allocate %u bytes", len);
	memset(buf, 0x5a, len);
	fd = ctl_connect(dst, src, ms, e);
	if (fd < 0) {
		free(buf);
		return fd;
	}
	ret = ctl_hello(fd, ms, token, e);
	for (i = 0; !ret && i < count; i++) {
		t0 = rctl_fast_ns();
		ret = tcp_round(fd, buf, len, rctl_clock_ns() + (uint64_t)(timeout_s * 1e9));
		if (ret)
			rctl_err_strerror(e, ret, "TCP round trip of %u bytes", len);
		else
			rctl_stat_add(h, st, rctl_fast_ns() - t0);
	}
	close(fd);
	free(buf);
	return ret;
}

/* ---- port counters ---------------------------------------------------- */

int rctl_port_hw_read(const char *dev, uint32_t port, struct rctl_counter **c,
		      uint32_t *n)
{
	char dir[512];

	*c = NULL;
	*n = 0;
	snprintf(dir, sizeof(dir), "%s/class/infiniband/%s/ports/%u/hw_counters",
		 rctl_sysfs(), dev, port);
	return rctl_sysfs_counter_dir(dir, RCTL_CDIR_SKIP_UNREADABLE, c, n);
}

/* Loss, retry or drop trouble on any driver: the counter catalogue says (lib/catalog.c). */
bool rctl_counter_is_loss(const char *name)
{
	return rctl_catalog_bad_any(RCTL_SRC_HW, name);
}
