// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The RDMA endpoint (include/rocectl/rdma_ep.h): rdma_cm channel and id,
 * bounded CM waits, the verbs objects of one RC QP, posting, teardown.
 */
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>

#include "rocectl/rdma_ep.h"

static int set_nonblock(int fd)
{
	int flags = fcntl(fd, F_GETFL);

	return flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) ? -errno : 0;
}

int rctl_rdma_ep_open(struct rctl_rdma_ep *ep, void *ctx, bool nonblock,
		      struct rctl_err *e)
{
	memset(ep, 0, sizeof(*ep));
	ep->ch = rdma_create_event_channel();
	if (!ep->ch)
		return rctl_err_strerror(e, errno, "cannot open rdma_cm (is rdma_ucm loaded?)");
	/* never block in rdma_get_cm_event: poll said there is one, but be sure */
	if (nonblock && set_nonblock(ep->ch->fd))
		return rctl_err_strerror(e, errno, "cannot set the rdma_cm channel non-blocking");
	if (rdma_create_id(ep->ch, &ep->id, ctx, RDMA_PS_TCP)) {
		ep->id = NULL;
		return rctl_err_strerror(e, errno, "cannot create an rdma_cm id");
	}
	return 0;
}

void rctl_rdma_ep_adopt(struct rctl_rdma_ep *ep, struct rdma_cm_id *id)
{
	memset(ep, 0, sizeof(*ep));
	ep->id = id;
}

int rctl_rdma_ms(double secs)
{
	if (!(secs > 0))
		return 0;
	return secs * 1000 > INT_MAX ? INT_MAX : (int)(secs * 1000);
}

int rctl_rdma_cm_wait(struct rdma_event_channel *ch, int timeout_ms,
		      struct rdma_cm_event **ev)
{
	struct pollfd p = { .fd = ch->fd, .events = POLLIN };
	int n;

	n = poll(&p, 1, timeout_ms);
	if (n < 0)
		return -errno;
	if (n == 0)
		return -ETIMEDOUT;
	if (rdma_get_cm_event(ch, ev))
		return errno == EAGAIN ? -ETIMEDOUT : -errno;
	return 0;
}

void rctl_rdma_cm_ev_copy(struct rctl_rdma_cm_ev *out, const struct rdma_cm_event *ev)
{
	const struct rdma_conn_param *cp = &ev->param.conn;
	size_t n = cp->private_data ? cp->private_data_len : 0;

	memset(out, 0, sizeof(*out));
	out->type = ev->event;
	out->status = ev->status;
	out->initiator_depth = cp->initiator_depth;
	out->responder_resources = cp->responder_resources;
	if (n > sizeof(out->priv))
		n = sizeof(out->priv);
	if (n)
		memcpy(out->priv, cp->private_data, n);
	out->priv_len = (uint8_t)n;
}

int rctl_rdma_ep_event(struct rctl_rdma_ep *ep, int timeout_ms,
		       struct rctl_rdma_cm_ev *out)
{
	struct rdma_cm_event *ev;
	int ret;

	ret = rctl_rdma_cm_wait(ep->ch, timeout_ms, &ev);
	if (ret)
		return ret;
	rctl_rdma_cm_ev_copy(out, ev);
	rdma_ack_cm_event(ev);
	return 0;
}

const char *rctl_rdma_ep_dev(const struct rctl_rdma_ep *ep)
{
	return ep->id && ep->id->verbs ? ibv_get_device_name(ep->id->verbs->device) : "?";
}

static int create_fail(const struct rctl_rdma_ep *ep, const struct rctl_rdma_caps *caps,
		       struct rctl_err *e, const char *what)
{
	return rctl_err_strerror(e, errno, "%s%scannot %s on '%s'", caps->who ? caps->who : "",
			    caps->who ? ": " : "", what, rctl_rdma_ep_dev(ep));
}

void rctl_rdma_qp_attr(const struct rctl_rdma_ep *ep, const struct rctl_rdma_caps *caps,
		       struct ibv_qp_init_attr *qa)
{
	*qa = (struct ibv_qp_init_attr){
		.send_cq = ep->scq, .recv_cq = ep->rcq, .qp_type = IBV_QPT_RC,
		.cap = {
			.max_send_wr = caps->send_wr, .max_recv_wr = caps->recv_wr,
			.max_send_sge = caps->send_sge, .max_recv_sge = caps->recv_sge,
			.max_inline_data = caps->max_inline,
		},
	};
}

static int create_qp(struct rctl_rdma_ep *ep, const struct rctl_rdma_caps *caps)
{
	struct ibv_qp_init_attr qa;

	rctl_rdma_qp_attr(ep, caps, &qa);
	if (rdma_create_qp(ep->id, ep->pd, &qa)) {
		/* some devices take no inline data at all */
		if (!caps->max_inline)
			return -errno;
		qa.cap.max_inline_data = 0;
		if (rdma_create_qp(ep->id, ep->pd, &qa))
			return -errno;
	}
	ep->max_inline = qa.cap.max_inline_data;
	return 0;
}

int rctl_rdma_ep_create(struct rctl_rdma_ep *ep, const struct rctl_rdma_caps *caps,
			struct rctl_err *e)
{
	struct ibv_context *vc = ep->id->verbs;

	ep->pd = caps->pd;
	if (!ep->pd) {
		ep->pd = ibv_alloc_pd(vc);
		if (!ep->pd)
			return create_fail(ep, caps, e, "allocate a protection domain");
		ep->own_pd = true;
	}
	if (caps->comp_channel && !(ep->cc = ibv_create_comp_channel(vc)))
		return create_fail(ep, caps, e, "create a completion channel");
	if (ep->cc && caps->cc_nonblock && set_nonblock(ep->cc->fd))
		return create_fail(ep, caps, e, "make the completion channel non-blocking");
	ep->rcq = ibv_create_cq(vc, (int)caps->cq_entries, ep, ep->cc, 0);
	if (!ep->rcq)
		return create_fail(ep, caps, e, "create a CQ");
	ep->scq = caps->split_cq ? ibv_create_cq(vc, (int)caps->cq_entries, ep, ep->cc, 0) :
				   ep->rcq;
	if (!ep->scq)
		return create_fail(ep, caps, e, "create a CQ");
	if (create_qp(ep, caps))
		return create_fail(ep, caps, e, "create an RC QP");
	return 0;
}

size_t rctl_rdma_page_round(size_t len)
{
	return (len + 4095) & ~(size_t)4095;
}

void *rctl_rdma_ep_reg(struct rctl_rdma_ep *ep, unsigned int i, size_t len,
		       int fill, int access, struct rctl_err *e)
{
	struct rctl_rdma_buf *b = &ep->mr[i];

	b->p = aligned_alloc(4096, rctl_rdma_page_round(len));
	if (!b->p) {
		rctl_err_strerror(e, ENOMEM, "cannot allocate %zu bytes", len);
		return NULL;
	}
	b->len = len;
	memset(b->p, fill, len);
	b->mr = ibv_reg_mr(ep->pd, b->p, len, access);
	if (!b->mr) {
		rctl_err_strerror(e, errno, "cannot register %zu bytes on '%s'", len,
			     rctl_rdma_ep_dev(ep));
		return NULL;
	}
	return b->p;
}

unsigned int rctl_rdma_send_flags(const struct rctl_rdma_ep *ep,
				  const struct rctl_rdma_wr *w)
{
	unsigned int f = w->signaled ? IBV_SEND_SIGNALED : 0;

	if (w->may_inline && w->len <= ep->max_inline)
		f |= IBV_SEND_INLINE;
	return f;
}

int rctl_rdma_ep_send(struct rctl_rdma_ep *ep, const struct rctl_rdma_wr *w)
{
	struct ibv_sge sge = { .addr = (uintptr_t)w->addr, .length = w->len, .lkey = w->lkey };
	struct ibv_send_wr wr = {
		.wr_id = w->id, .sg_list = &sge, .num_sge = 1, .opcode = w->op,
		.send_flags = rctl_rdma_send_flags(ep, w),
	};

	if (w->op != IBV_WR_SEND) {
		wr.wr.rdma.remote_addr = w->raddr;
		wr.wr.rdma.rkey = w->rkey;
	}
	if (w->op == IBV_WR_RDMA_WRITE_WITH_IMM || w->op == IBV_WR_SEND_WITH_IMM)
		wr.imm_data = htonl(w->imm);
	return rctl_rdma_ep_post_sends(ep, &wr);
}

int rctl_rdma_ep_recv(struct rctl_rdma_ep *ep, uint64_t id, void *addr,
		      uint32_t len, uint32_t lkey)
{
	struct ibv_sge sge = { .addr = (uintptr_t)addr, .length = len, .lkey = lkey };
	struct ibv_recv_wr wr = { .wr_id = id, .sg_list = &sge, .num_sge = 1 };

	return rctl_rdma_ep_post_recvs(ep, &wr);
}

int rctl_rdma_ep_post_sends(struct rctl_rdma_ep *ep, struct ibv_send_wr *chain)
{
	struct ibv_send_wr *bad;
	int ret = ibv_post_send(ep->id->qp, chain, &bad);

	/* providers return the errno, some set errno as well */
	return ret ? -(errno = ret) : 0;
}

int rctl_rdma_ep_post_recvs(struct rctl_rdma_ep *ep, struct ibv_recv_wr *chain)
{
	struct ibv_recv_wr *bad;
	int ret = ibv_post_recv(ep->id->qp, chain, &bad);

	return ret ? -(errno = ret) : 0;
}

int rctl_rdma_ep_arm(struct rctl_rdma_ep *ep, bool recv_only)
{
	if (ibv_req_notify_cq(ep->rcq, 0))
		return -errno;
	if (!recv_only && ep->scq != ep->rcq && ibv_req_notify_cq(ep->scq, 0))
		return -errno;
	return 0;
}

bool rctl_rdma_ep_cq_event(struct rctl_rdma_ep *ep)
{
	struct ibv_cq *cq;
	void *ctx;

	if (ibv_get_cq_event(ep->cc, &cq, &ctx))
		return false;
	ibv_ack_cq_events(cq, 1);
	return true;
}

static void free_bufs(struct rctl_rdma_ep *ep)
{
	unsigned int i;

	for (i = 0; i < RCTL_RDMA_EP_MRS; i++) {
		if (ep->mr[i].mr)
			ibv_dereg_mr(ep->mr[i].mr);
		free(ep->mr[i].p);
	}
}

void rctl_rdma_ep_close(struct rctl_rdma_ep *ep, int wait_ms)
{
	struct rdma_cm_event *ev;

	if (ep->connected && ep->id && !rdma_disconnect(ep->id) && ep->ch && wait_ms > 0 &&
	    !rctl_rdma_cm_wait(ep->ch, wait_ms, &ev))	/* DREP or timewait: bounded */
		rdma_ack_cm_event(ev);
	if (ep->id && ep->id->qp)
		rdma_destroy_qp(ep->id);
	free_bufs(ep);
	if (ep->rcq)
		ibv_destroy_cq(ep->rcq);
	if (ep->scq && ep->scq != ep->rcq)
		ibv_destroy_cq(ep->scq);
	if (ep->cc)
		ibv_destroy_comp_channel(ep->cc);
	if (ep->pd && ep->own_pd)
		ibv_dealloc_pd(ep->pd);
	if (ep->id)
		rdma_destroy_id(ep->id);
	if (ep->ch)
		rdma_destroy_event_channel(ep->ch);
	memset(ep, 0, sizeof(*ep));
}

uint32_t rctl_rdma_mtu_bytes(int mtu)
{
	return mtu >= IBV_MTU_256 && mtu <= IBV_MTU_4096 ? 128u << mtu : 0;
}

uint32_t rctl_rdma_active_mtu(struct rdma_cm_id *id)
{
	struct ibv_port_attr pa;

	if (!id || !id->verbs || ibv_query_port(id->verbs, id->port_num, &pa))
		return 0;
	return rctl_rdma_mtu_bytes(pa.active_mtu);
}

const char *rctl_rdma_rej_reason(int status)
{
	switch (status) {
	case 1: return "no QP";
	case 3: return "no resources";
	case 4: return "timeout";
	case 8: return "invalid service id: nothing listening on that port";
	case 14: return "stale connection";
	case 26: return "invalid MTU";
	case 28: return "rejected by the listener";
	default: return "see IBTA REJ reasons";
	}
}

/* ---- the netdev of a local address ------------------------------------ */

static bool same_addr(const struct sockaddr *a, const struct sockaddr *b)
{
	if (a->sa_family != b->sa_family)
		return false;
	if (a->sa_family == AF_INET)
		return !memcmp(&((const struct sockaddr_in *)a)->sin_addr,
			       &((const struct sockaddr_in *)b)->sin_addr, 4);
	return a->sa_family == AF_INET6 &&
	       !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
		       &((const struct sockaddr_in6 *)b)->sin6_addr, 16);
}

int rctl_addr_netdev(const struct sockaddr *sa, char *ifname, size_t len,
		     uint32_t *mtu)
{
	struct ifaddrs *ifa, *i;
	struct ifreq ifr = { 0 };
	int fd, ret = -ENODEV;

	*mtu = 0;
	if (getifaddrs(&ifa))
		return -errno;
	for (i = ifa; i; i = i->ifa_next)
		if (i->ifa_addr && same_addr(i->ifa_addr, sa)) {
			snprintf(ifname, len, "%s", i->ifa_name);
			ret = 0;
			break;
		}
	freeifaddrs(ifa);
	if (ret)
		return ret;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (!ioctl(fd, SIOCGIFMTU, &ifr) && ifr.ifr_mtu > 0)
		*mtu = (uint32_t)ifr.ifr_mtu;
	close(fd);
	return 0;
}
