// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Client side of the real-QP probe: rdma_cm address and route resolution, an
 * RC QP connected with the versioned handshake, ping-pong round trips, each
 * wait bounded, each failure put in its class (see probe.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <netdb.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "rocectl/clock.h"
#include "rocectl/probe.h"

static const char *const class_ids[RCTL_REACH_NCLASSES] = {
	[RCTL_REACH_OK] = NULL,
	[RCTL_REACH_ADDR] = "reach.addr_unresolved",
	[RCTL_REACH_ROUTE] = "reach.route_unresolved",
	[RCTL_REACH_NODEV] = "reach.no_rdma_device",
	[RCTL_REACH_REJECTED] = "reach.rejected",
	[RCTL_REACH_TIMEOUT] = "reach.connect_timeout",
	[RCTL_REACH_STALLED] = "reach.traffic_stalled",
	[RCTL_REACH_VERSION] = "reach.version_mismatch",
	[RCTL_REACH_MTU] = "reach.mtu_black_hole",
};

const char *rctl_reach_class_id(enum rctl_reach_class c)
{
	return c < RCTL_REACH_NCLASSES ? class_ids[c] : NULL;
}

const char *rctl_probe_mode_name(uint8_t mode)
{
	return mode == RCTL_MODE_ECHO ? "echo" : mode == RCTL_MODE_SINK ? "sink" :
	       mode == RCTL_MODE_POLL ? "poll" : "?";
}

static void addr_str(const struct sockaddr *sa, char *buf, size_t len)
{
	const void *a = sa->sa_family == AF_INET6 ?
		(const void *)&((const struct sockaddr_in6 *)sa)->sin6_addr :
		(const void *)&((const struct sockaddr_in *)sa)->sin_addr;

	if (!inet_ntop(sa->sa_family, a, buf, len))
		snprintf(buf, len, "?");
}

static int fail(struct rctl_conn *c, enum rctl_reach_class cls,
		struct rctl_err *e, int err, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int fail(struct rctl_conn *c, enum rctl_reach_class cls,
		struct rctl_err *e, int err, const char *fmt, ...)
{
	va_list ap;

	c->cls = cls;
	if (err > 0)
		err = -err;
	if (!err)
		err = -EIO;
	e->errnum = -err;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return err;
}

static void path_dev(struct rctl_conn *c)
{
	struct sockaddr *local = rdma_get_local_addr(c->ep.id);

	snprintf(c->path.dev, sizeof(c->path.dev), "%s", rctl_rdma_ep_dev(&c->ep));
	c->path.port = c->ep.id->port_num;
	c->path.active_mtu = rctl_rdma_active_mtu(c->ep.id);
	addr_str(local, c->path.src_ip, sizeof(c->path.src_ip));
	/* The address's netdev (a VLAN's, say) carries the MTU that limits. */
	rctl_addr_netdev(local, c->path.netdev, sizeof(c->path.netdev),
			 &c->path.netdev_mtu);
}

static int resolve_addr_event(struct rctl_conn *c, const struct rctl_conn_opts *o,
			      struct rctl_err *e)
{
	struct rctl_rdma_cm_ev ev;
	char dst[RCTL_ADDR_LEN];
	int ret, type, status;

	addr_str(o->dst, dst, sizeof(dst));
	ret = rctl_rdma_ep_event(&c->ep, rctl_rdma_ms(o->timeout_s), &ev);
	if (ret == -ETIMEDOUT)
		return fail(c, RCTL_REACH_ADDR, e, ret,
			    "address resolution of '%s' timed out (no ARP/ND reply?)",
			    dst);
	if (ret)
		return rctl_err_strerror(e, ret, "cannot read rdma_cm events");
	type = ev.type;
	status = ev.status;
	if (type == RDMA_CM_EVENT_ADDR_RESOLVED && c->ep.id->verbs)
		return 0;
	if (type == RDMA_CM_EVENT_ADDR_RESOLVED || status == -ENODEV)
		return fail(c, RCTL_REACH_NODEV, e, -ENODEV,
			    "no RDMA device for the local address towards '%s'",
			    dst);
	return fail(c, RCTL_REACH_ADDR, e, status ? status : -EHOSTUNREACH,
		    "address resolution of '%s' failed: %s", dst,
		    strerror(status ? -status : EHOSTUNREACH));
}

int rctl_conn_resolve(struct rctl_conn *c, const struct rctl_conn_opts *o,
		      struct rctl_err *e)
{
	uint64_t t0;
	uint8_t tos;
	int ret;

	memset(c, 0, sizeof(*c));
	c->reject_status = -1;
	c->peer_version = -1;
	c->path.gid_index = -1;
	c->path.tos = o->tos;
	c->path.traffic_class = -1;
	for (ret = 0; ret < RCTL_STEP_NSTEPS; ret++)
		c->step_ms[ret] = -1;
	addr_str(o->dst, c->path.dst_ip, sizeof(c->path.dst_ip));
	if (o->src)
		addr_str(o->src, c->path.src_ip, sizeof(c->path.src_ip));
	ret = rctl_rdma_ep_open(&c->ep, c, false, e);
	if (ret)
		return ret;
	tos = (uint8_t)o->tos;
	if (o->tos >= 0 &&
	    rdma_set_option(c->ep.id, RDMA_OPTION_ID, RDMA_OPTION_ID_TOS, &tos, 1))
		return rctl_err_strerror(e, errno, "cannot set ToS %d", o->tos);
	t0 = rctl_clock_ns();
	if (rdma_resolve_addr(c->ep.id, (struct sockaddr *)o->src,
			      (struct sockaddr *)o->dst, rctl_rdma_ms(o->timeout_s))) {
		ret = -errno;
		if (ret == -ENODEV || ret == -EADDRNOTAVAIL)
			return fail(c, RCTL_REACH_NODEV, e, ret,
				    "no RDMA device for the local address '%s'",
				    c->path.src_ip);
		return fail(c, RCTL_REACH_ADDR, e, ret,
			    "address resolution of '%s' failed: %s",
			    c->path.dst_ip, strerror(-ret));
	}
	ret = resolve_addr_event(c, o, e);
	c->step_ms[RCTL_STEP_ADDR] = (rctl_clock_ns() - t0) / 1e6;
	if (ret)
		return ret;
	path_dev(c);
	return 0;
}

static int resolve_route(struct rctl_conn *c, const struct rctl_conn_opts *o,
			 struct rctl_err *e)
{
	struct rctl_rdma_cm_ev ev;
	int ret;
	uint64_t t0 = rctl_clock_ns();

	if (o->ack_timeout)
		/* Older kernels lack the option; the default is then used. */
		rdma_set_option(c->ep.id, RDMA_OPTION_ID, RDMA_OPTION_ID_ACK_TIMEOUT,
				(void *)&o->ack_timeout, 1);
	if (rdma_resolve_route(c->ep.id, rctl_rdma_ms(o->timeout_s)))
		return fail(c, RCTL_REACH_ROUTE, e, -errno,
			    "route resolution to '%s' failed: %s", c->path.dst_ip,
			    strerror(errno));
	ret = rctl_rdma_ep_event(&c->ep, rctl_rdma_ms(o->timeout_s), &ev);
	c->step_ms[RCTL_STEP_ROUTE] = (rctl_clock_ns() - t0) / 1e6;
	if (ret == -ETIMEDOUT)
		return fail(c, RCTL_REACH_ROUTE, e, ret,
			    "route resolution to '%s' timed out", c->path.dst_ip);
	if (ret)
		return rctl_err_strerror(e, ret, "cannot read rdma_cm events");
	if (ev.type == RDMA_CM_EVENT_ROUTE_RESOLVED)
		return 0;
	return fail(c, RCTL_REACH_ROUTE, e, ev.status ? ev.status : -EHOSTUNREACH,
		    "route resolution to '%s' failed: %s", c->path.dst_ip,
		    strerror(ev.status ? -ev.status : EHOSTUNREACH));
}

/*
 * A receive as large as a data receive, and at least as large as the ready
 * message: an old serve's first echo lands in it as in any other.
 */
static int post_ready_recv(struct rctl_conn *c)
{
	return rctl_rdma_ep_recv(&c->ep, 0, c->buf + c->size,
				 c->size > RCTL_GO_LEN ? c->size : RCTL_GO_LEN,
				 c->ep.mr[0].mr->lkey);
}

static int create_qp(struct rctl_conn *c, struct rctl_err *e)
{
	const struct rctl_rdma_caps caps = {
		.comp_channel = true,
		.cq_entries = 2 * c->depth + 2,
		.send_wr = c->depth + 1,	/* + the go */
		.recv_wr = c->depth + 1,	/* + the ready */
		.send_sge = 1, .recv_sge = 1,
		.max_inline = 64,
	};
	uint32_t i;
	int ret;

	ret = rctl_rdma_ep_create(&c->ep, &caps, e);
	if (ret)
		return ret;
	/* room past the sink for a ready message larger than a small size */
	c->buf = rctl_rdma_ep_reg(&c->ep, 0, (size_t)c->size * 2 + RCTL_GO_LEN, 0x5a,
				  IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE, e);
	if (!c->buf)
		return -e->errnum;
	/* first in the queue, so the ready message lands in it (late_mr()) */
	if (post_ready_recv(c))
		return rctl_err_strerror(e, errno, "cannot post receives");
	for (i = 0; i < c->depth; i++)
		if (rctl_conn_post_recv(c))
			return rctl_err_strerror(e, errno, "cannot post receives");
	return 0;
}

static const char *busy_why(uint8_t status)
{
	switch (status) {
	case RCTL_PROBE_BUSY: return "serve is at its client limit";
	case RCTL_PROBE_PEER_LIMIT: return "serve is at its limit of connections from this address";
	case RCTL_PROBE_NO_RESOURCES: return "serve is out of resources";
	case RCTL_PROBE_TOKEN: return "serve refused the token: see --token-file";
	case RCTL_PROBE_NOT_ALLOWED: return "this address is not in serve's --allow list";
	default: return "serve refused the request";
	}
}

static int version_mismatch(struct rctl_conn *c, unsigned int peer, struct rctl_err *e)
{
	c->cls = RCTL_REACH_VERSION;
	return rctl_err_plain(e, EPROTO,
			    "handshake version mismatch: serve at '%s' speaks v%u, this rocectl v%u",
			    c->path.dst_ip, peer, RCTL_PROBE_VERSION);
}

static int handle_reject(struct rctl_conn *c, const struct rctl_rdma_cm_ev *ev,
			 struct rctl_err *e)
{
	struct rctl_welcome w;
	char msg[160];

	c->reject_status = ev->status;
	if (!rctl_welcome_decode(ev->priv, ev->priv_len, &w)) {
		c->peer_version = w.version;
		if (w.status == RCTL_PROBE_VERSION_MISMATCH)
			return version_mismatch(c, w.version, e);
		snprintf(msg, sizeof(msg), "%s", busy_why(w.status));
	} else if (ev->status == 28) {
		/*
		 * Consumer defined, no welcome in the private data (the CM's REJ
		 * carries its zeroed bytes): how serve answers a peer outside its
		 * --allow list, with nothing at all.
		 */
		snprintf(msg, sizeof(msg), "by the listener, without a reason: a serve does so to "
			 "an address outside its --allow list");
	} else {
		snprintf(msg, sizeof(msg), "REJ reason %d: %s", ev->status,
			 rctl_rdma_rej_reason(ev->status));
	}
	c->cls = RCTL_REACH_REJECTED;
	return rctl_err_plain(e, ECONNREFUSED, "connect to '%s' port %u rejected (%s)",
			    c->path.dst_ip, ntohs(rdma_get_dst_port(c->ep.id)), msg);
}

static int take_welcome(struct rctl_conn *c, const struct rctl_rdma_cm_ev *ev,
			struct rctl_err *e)
{
	struct rctl_welcome *w = &c->peer;
	int ret;

	ret = rctl_welcome_decode(ev->priv, ev->priv_len, w);
	if (ret == -EPROTO) {
		c->cls = RCTL_REACH_VERSION;
		return rctl_err_plain(e, EPROTO, "'%s' accepted without the rocectl handshake: not 'rocectl serve'",
				    c->path.dst_ip);
	}
	c->peer_version = w->version;
	if (ret || w->version != RCTL_PROBE_VERSION)
		return version_mismatch(c, w->version, e);
	c->raddr = w->addr;
	c->rkey = w->rkey;
	c->peer_lifetime_s = w->lifetime_s;
	return 0;
}

/*
 * The kernel CM resends a REQ that got no answer after 2 × the packet life
 * time + the CM response time: 0.5 + 4.1 s to 2 + 4.1 s (drivers/infiniband/
 * core/cma.c CMA_CM_RESPONSE_TIMEOUT 20, CMA_IBOE_PACKET_LIFETIME 16 or 18;
 * cm.c cm_convert_to_ms()). The connect waits long enough for one resend, so
 * that one lost CM packet is loss, not "connect timed out".
 */
#define CM_RESEND_WAIT_S 13.0

static int connect_event(struct rctl_conn *c, const struct rctl_conn_opts *o,
			 struct rctl_err *e)
{
	struct rctl_rdma_cm_ev ev;
	int ret, type, status;

	ret = rctl_rdma_ep_event(&c->ep, rctl_rdma_ms(o->timeout_s > CM_RESEND_WAIT_S ?
						      o->timeout_s : CM_RESEND_WAIT_S), &ev);
	if (ret == -ETIMEDOUT)
		return fail(c, RCTL_REACH_TIMEOUT, e, ret,
			    "connect to '%s' timed out: no CM reply (UDP 4791 filtered on the path?)",
			    c->path.dst_ip);
	if (ret)
		return rctl_err_strerror(e, ret, "cannot read rdma_cm events");
	type = ev.type;
	status = ev.status;
	if (type == RDMA_CM_EVENT_ESTABLISHED)
		ret = take_welcome(c, &ev, e);
	else if (type == RDMA_CM_EVENT_REJECTED)
		ret = handle_reject(c, &ev, e);
	else if (type == RDMA_CM_EVENT_UNREACHABLE && status == -ETIMEDOUT)
		ret = fail(c, RCTL_REACH_TIMEOUT, e, status,
			   "connect to '%s' timed out: no CM reply (UDP 4791 filtered on the path?)",
			   c->path.dst_ip);
	else
		ret = fail(c, RCTL_REACH_TIMEOUT, e, status ? status : -EIO,
			   "connect to '%s' failed: %s", c->path.dst_ip,
			   rdma_event_str(type));
	return ret;
}

/*
 * A serve that registers its buffer only once the connection runs (welcome
 * flag RCTL_WELCOME_F_LATE_MR): send the go, then take serve's buffer from
 * its ready message, which lands in the first receive (post_ready_recv()).
 * Nothing else is sent before it.
 */
static int late_mr(struct rctl_conn *c, const struct rctl_conn_opts *o,
		   struct rctl_err *e)
{
	const struct rctl_rdma_wr go = {
		.op = IBV_WR_SEND, .addr = c->buf, .len = 8, .lkey = c->ep.mr[0].mr->lkey,
		.signaled = true, .may_inline = true,
	};
	double secs = o->timeout_s;
	uint64_t deadline = rctl_clock_ns() + (uint64_t)(secs * 1e9);
	bool sent = false, ready = false;
	struct rctl_ready r;
	struct ibv_wc wc[2];
	int n, i;

	memcpy(c->buf, "RCTLgo\0\0", 8);
	if (rctl_rdma_ep_send(&c->ep, &go))
		return rctl_err_strerror(e, errno, "cannot post a SEND to '%s'", c->path.dst_ip);
	while (!sent || !ready) {
		n = rctl_conn_poll(c, wc, 2, deadline, false);
		if (n == -ETIMEDOUT || n == -ECONNRESET)
			return fail(c, RCTL_REACH_STALLED, e, n,
				    "serve at '%s' sent no ready message within %gs",
				    c->path.dst_ip, secs);
		if (n < 0)
			return rctl_err_strerror(e, n, "cannot poll the CQ");
		for (i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS) {
				c->cls = RCTL_REACH_STALLED;
				return rctl_wc_error(&wc[i], e);
			}
			if (!(wc[i].opcode & IBV_WC_RECV)) {
				sent = true;
				continue;
			}
			if (rctl_ready_decode(c->buf + c->size, wc[i].byte_len, &r)) {
				c->cls = RCTL_REACH_VERSION;
				return rctl_err_plain(e, EPROTO, "serve at '%s' sent a malformed ready message",
						    c->path.dst_ip);
			}
			ready = true;
		}
	}
	c->raddr = r.addr;
	c->rkey = r.rkey;
	return 0;
}

/* Testing aid (ROCECTL_PROBE_HALF_OPEN): the REQ is out; never read the REP. */
static int half_open(struct rctl_conn *c, const struct rctl_conn_opts *o,
		     struct rctl_err *e)
{
	struct timespec ts = { .tv_sec = (time_t)o->half_open_s,
			       .tv_nsec = (long)((o->half_open_s - (time_t)o->half_open_s) * 1e9) };

	nanosleep(&ts, NULL);
	return fail(c, RCTL_REACH_TIMEOUT, e, ETIMEDOUT,
		    "connect to '%s' left half-open for %gs (ROCECTL_PROBE_HALF_OPEN)",
		    c->path.dst_ip, o->half_open_s);
}

static void path_qp(struct rctl_conn *c)
{
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;
	struct ibv_gid_entry g;

	if (ibv_query_qp(c->ep.id->qp, &a, IBV_QP_PATH_MTU | IBV_QP_AV |
			 IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT, &ia))
		return;
	c->path.path_mtu = rctl_rdma_mtu_bytes(a.path_mtu);
	c->path.gid_index = a.ah_attr.grh.sgid_index;
	c->path.traffic_class = a.ah_attr.grh.traffic_class;
	c->path.ack_timeout = a.timeout;
	c->path.retry_cnt = a.retry_cnt;
	if (ibv_query_gid_ex(c->ep.id->verbs, c->path.port, c->path.gid_index, &g, 0))
		return;
	inet_ntop(AF_INET6, g.gid.raw, c->path.gid, sizeof(c->path.gid));
	snprintf(c->path.roce_mode, sizeof(c->path.roce_mode), "%s",
		 g.gid_type == IBV_GID_TYPE_ROCE_V2 ? "RoCE v2" :
		 g.gid_type == IBV_GID_TYPE_ROCE_V1 ? "RoCE v1" : "IB");
	if (g.ndev_ifindex)
		if_indextoname(g.ndev_ifindex, c->path.netdev);
}

int rctl_conn_connect(struct rctl_conn *c, const struct rctl_conn_opts *o,
		      struct rctl_err *e)
{
	struct rctl_hello h = { 0 };
	uint8_t hello[RCTL_HELLO_LEN];
	struct rdma_conn_param cp = { 0 };
	struct ibv_device_attr da;
	uint64_t t0;
	int ret;

	ret = resolve_route(c, o, e);
	if (ret)
		return ret;
	c->size = o->size;
	c->depth = o->depth;
	c->write_short = o->write_short;
	ret = create_qp(c, e);
	if (ret)
		return ret;
	h.version = o->version ? o->version : RCTL_PROBE_VERSION;
	h.mode = o->mode;
	h.size = o->size;
	h.depth = o->depth;
	h.addr = (uintptr_t)(c->buf + c->size);
	h.rkey = c->ep.mr[0].mr->rkey;
	h.flags = RCTL_HELLO_F_LATE_MR;
	if (o->token) {
		h.flags |= RCTL_HELLO_F_TOKEN;
		memcpy(h.token, o->token, RCTL_TOKEN_LEN);
	}
	cp.private_data = hello;
	cp.private_data_len = (uint8_t)rctl_hello_encode(&h, hello);
	cp.retry_count = o->retry_cnt;
	cp.rnr_retry_count = 7;		/* infinite: a busy responder is not loss */
	cp.initiator_depth = cp.responder_resources = 1;
	if (!ibv_query_device(c->ep.id->verbs, &da))
		cp.initiator_depth = da.max_qp_init_rd_atom < 16 ?
				     da.max_qp_init_rd_atom : 16;
	t0 = rctl_clock_ns();
	if (rdma_connect(c->ep.id, &cp))
		return rctl_err_strerror(e, errno, "cannot connect to '%s'", c->path.dst_ip);
	if (o->half_open_s > 0)
		return half_open(c, o, e);
	ret = connect_event(c, o, e);
	c->step_ms[RCTL_STEP_CONNECT] = (rctl_clock_ns() - t0) / 1e6;
	if (ret)
		return ret;
	c->ep.connected = true;
	if (c->peer.flags & RCTL_WELCOME_F_LATE_MR) {
		ret = late_mr(c, o, e);
		if (ret)
			return ret;
	}
	path_qp(c);
	return 0;
}

void rctl_conn_close(struct rctl_conn *c)
{
	rctl_rdma_ep_close(&c->ep, 1000);	/* DREP or timewait: bounded */
	c->buf = NULL;
}

int rctl_dev_src_addr(const char *dev, uint32_t port, int gid_index,
		      struct sockaddr_storage *ss, struct rctl_err *e)
{
	static const uint8_t v4map[12] = { [10] = 0xff, [11] = 0xff };
	struct ibv_device **list;
	struct ibv_context *vc = NULL;
	struct ibv_gid_entry g[64];
	ssize_t n = -1, i, best = -1;
	int num, k;

	list = ibv_get_device_list(&num);
	if (!list)
		return rctl_err_strerror(e, errno, "cannot list RDMA devices");
	for (k = 0; k < num && !vc; k++)
		if (!strcmp(ibv_get_device_name(list[k]), dev))
			vc = ibv_open_device(list[k]);
	ibv_free_device_list(list);
	if (!vc)
		return rctl_err_plain(e, ENODEV, "no RDMA device '%s'", dev);
	n = ibv_query_gid_table(vc, g, 64, 0);
	ibv_close_device(vc);
	for (i = 0; i < n; i++) {
		if (gid_index >= 0 && g[i].port_num == port &&
		    g[i].gid_index == (uint32_t)gid_index) {
			best = i;
			break;
		}
		if (gid_index >= 0 || g[i].port_num != port ||
		    g[i].gid_type != IBV_GID_TYPE_ROCE_V2)
			continue;
		if (!memcmp(g[i].gid.raw, v4map, 12)) {
			best = i;
			break;
		}
		if (best < 0 && g[i].gid.raw[0] != 0xfe)
			best = i;
	}
	if (best < 0 && gid_index >= 0)
		return rctl_err_plain(e, EADDRNOTAVAIL, "no GID index %d on '%s' port %u",
				    gid_index, dev, port);
	if (best < 0)
		return rctl_err_plain(e, EADDRNOTAVAIL, "no RoCE v2 IP address on '%s' port %u",
				    dev, port);
	memset(ss, 0, sizeof(*ss));
	if (!memcmp(g[best].gid.raw, v4map, 12)) {
		struct sockaddr_in *sin = (struct sockaddr_in *)ss;

		sin->sin_family = AF_INET;
		memcpy(&sin->sin_addr, g[best].gid.raw + 12, 4);
	} else {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

		sin6->sin6_family = AF_INET6;
		memcpy(&sin6->sin6_addr, g[best].gid.raw, 16);
	}
	return 0;
}

int rctl_sockaddr_parse(const char *s, uint16_t port, bool numeric,
			struct sockaddr_storage *ss, struct rctl_err *e)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai;
	int ret;

	if (numeric)
		hints.ai_flags = AI_NUMERICHOST;
	ret = getaddrinfo(s, NULL, &hints, &ai);
	if (ret)
		return rctl_err_plain(e, EINVAL, "cannot resolve '%s': %s", s,
				    gai_strerror(ret));
	memset(ss, 0, sizeof(*ss));
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	freeaddrinfo(ai);
	/* sin_port and sin6_port sit at the same offset */
	((struct sockaddr_in *)ss)->sin_port = htons(port);
	return 0;
}

int rctl_token_read(const char *path, uint8_t tok[RCTL_TOKEN_LEN], struct rctl_err *e)
{
	char buf[RCTL_TOKEN_LEN + 3];
	struct stat st;
	ssize_t n;
	size_t i;
	int fd;

	memset(tok, 0, RCTL_TOKEN_LEN);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return rctl_err_strerror(e, errno, "cannot open token file '%s'", path);
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (st.st_mode & (S_IROTH | S_IWOTH))) {
		close(fd);
		return rctl_err_plain(e, EPERM, "token file '%s' must be a regular file that other users cannot read or write (chmod o-rw)",
				    path);
	}
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return rctl_err_strerror(e, errno, "cannot read token file '%s'", path);
	if (n > 0 && buf[n - 1] == '\n')
		n--;
	for (i = 0; i < (size_t)n && buf[i] > 0x20 && buf[i] < 0x7f; i++)
		;
	if (i != (size_t)n || n < RCTL_TOKEN_MIN || n > RCTL_TOKEN_LEN)
		return rctl_err_plain(e, EINVAL, "token in '%s' must be one line of %u to %u printable characters without spaces",
				    path, RCTL_TOKEN_MIN, RCTL_TOKEN_LEN);
	memcpy(tok, buf, (size_t)n);
	return 0;
}
