// SPDX-License-Identifier: GPL-2.0-or-later
/* Netlink plumbing on libmnl shared by the RDMA, dcbnl and ethtool collectors. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>

#include "rocectl/nl.h"

int rctl_nl_open(struct rctl_nl *nl, int bus, struct rctl_err *e)
{
	struct timeval tv = {
		.tv_sec = RCTL_NL_TIMEOUT_MS / 1000,
		.tv_usec = (RCTL_NL_TIMEOUT_MS % 1000) * 1000,
	};
	int one = 1;

	memset(nl, 0, sizeof(*nl));
	nl->sk = mnl_socket_open(bus);
	if (!nl->sk)
		return rctl_err_strerror(e, errno, "cannot open netlink socket (bus %d)", bus);
	/* Every wait has a timeout: a kernel that never answers is an error. */
	setsockopt(mnl_socket_get_fd(nl->sk), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	mnl_socket_setsockopt(nl->sk, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sk, NETLINK_CAP_ACK, &one, sizeof(one));
	if (mnl_socket_bind(nl->sk, 0, MNL_SOCKET_AUTOPID) < 0) {
		int err = errno;

		mnl_socket_close(nl->sk);
		nl->sk = NULL;
		return rctl_err_strerror(e, err, "cannot bind netlink socket (bus %d)", bus);
	}
	nl->portid = mnl_socket_get_portid(nl->sk);
	nl->seq = 1;
	return 0;
}

void rctl_nl_close(struct rctl_nl *nl)
{
	if (nl->sk)
		mnl_socket_close(nl->sk);
	nl->sk = NULL;
}

struct nlmsghdr *rctl_nl_msg(struct rctl_nl *nl, uint16_t type, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(nl->buf);

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++nl->seq;
	return nlh;
}

static int nl_done_cb(const struct nlmsghdr *nlh, void *data)
{
	return MNL_CB_STOP;
}

struct nl_talk {
	struct rctl_nl *nl;
	mnl_cb_t cb;
	void *data;
};

static int nl_data_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nl_talk *t = data;

	return t->cb ? t->cb(nlh, t->data) : MNL_CB_OK;
}

/* Keep the kernel's extack text: it often says more than the errno. */
static int nl_error_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	struct rctl_nl *nl = ((struct nl_talk *)data)->nl;
	size_t plen = mnl_nlmsg_get_payload_len(nlh), off = sizeof(*err);
	const struct nlattr *a;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*err)))
		return MNL_CB_ERROR;
	/* the echoed request, unless capped; its length is the sender's word */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off = err->msg.nlmsg_len >= sizeof(err->msg) &&
		      err->msg.nlmsg_len - sizeof(err->msg) <= plen - off ?
		      off + err->msg.nlmsg_len - sizeof(err->msg) : plen + 1;
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) && off <= plen)
		mnl_attr_for_each(a, nlh, off)
			if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
			    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) >= 0)
				snprintf(nl->ext_ack, sizeof(nl->ext_ack), "%s",
					 mnl_attr_get_str(a));
	/* the kernel sends 0 or -errno: anything else is not an answer we know */
	if (err->error > 0 || err->error < -4095) {
		errno = EPROTO;
		return MNL_CB_ERROR;
	}
	errno = -err->error;
	return err->error ? MNL_CB_ERROR : MNL_CB_STOP;
}

/*
 * Every message of a read fits in it. libmnl's mnl_nlmsg_ok() compares
 * nlmsg_len as an int: a length of 2^31 or more passes, and the walk then
 * steps by MNL_ALIGN() of it, 0 for 0xffffffff, forever (fuzz_nl_talk).
 */
static bool nl_reply_ok(const char *buf, size_t n)
{
	const struct nlmsghdr *nlh;
	size_t step;

	while (n >= sizeof(*nlh)) {
		nlh = (const struct nlmsghdr *)buf;
		if (nlh->nlmsg_len < sizeof(*nlh) || nlh->nlmsg_len > n)
			return false;
		step = MNL_ALIGN(nlh->nlmsg_len);
		if (step >= n)
			break;
		buf += step;
		n -= step;
	}
	return true;
}

int rctl_nl_talk(struct rctl_nl *nl, struct nlmsghdr *req, mnl_cb_t cb,
		 void *data)
{
	/* A control array replaces libmnl's defaults, so DONE is ours too. */
	mnl_cb_t ctl[NLMSG_MIN_TYPE] = {
		[NLMSG_ERROR] = nl_error_cb,
		[NLMSG_DONE] = nl_done_cb,
	};
	struct nl_talk t = { .nl = nl, .cb = cb, .data = data };
	uint32_t seq = req->nlmsg_seq;
	char buf[MNL_SOCKET_BUFFER_SIZE * 2];
	ssize_t n;
	int ret;

	nl->ext_ack[0] = '\0';
	if (!nl->io && mnl_socket_sendto(nl->sk, req, req->nlmsg_len) < 0)
		return -errno;
	do {
		n = nl->io ? nl->io->recv(nl->io->ctx, buf, sizeof(buf)) :
			     mnl_socket_recvfrom(nl->sk, buf, sizeof(buf));
		if (n < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK ? -ETIMEDOUT : -errno;
		if (!nl_reply_ok(buf, (size_t)n))
			return -EPROTO;
		errno = 0;
		ret = mnl_cb_run2(buf, n, seq, nl->portid, nl_data_cb, &t, ctl,
				  NLMSG_MIN_TYPE);
		if (ret == MNL_CB_ERROR)
			return -(errno ? errno : EIO);
	} while (ret > MNL_CB_STOP);
	return 0;
}

/*
 * The libmnl type of every nldev attribute rocectl reads (kernel
 * drivers/infiniband/core/nldev.c, nldev_policy[]). Strings must end in NUL,
 * numbers have their exact size, nests hold whole attributes.
 */
static const enum mnl_attr_data_type nldev_policy[RDMA_NLDEV_ATTR_MAX] = {
	[RDMA_NLDEV_ATTR_DEV_INDEX] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_DEV_NAME] = MNL_TYPE_NUL_STRING,
	[RDMA_NLDEV_ATTR_PORT_INDEX] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_FW_VERSION] = MNL_TYPE_NUL_STRING,
	[RDMA_NLDEV_ATTR_NODE_GUID] = MNL_TYPE_U64,
	[RDMA_NLDEV_ATTR_SYS_IMAGE_GUID] = MNL_TYPE_U64,
	[RDMA_NLDEV_ATTR_DEV_NODE_TYPE] = MNL_TYPE_U8,
	[RDMA_NLDEV_ATTR_PORT_STATE] = MNL_TYPE_U8,
	[RDMA_NLDEV_ATTR_PORT_PHYS_STATE] = MNL_TYPE_U8,
	[RDMA_NLDEV_ATTR_NDEV_INDEX] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_NDEV_NAME] = MNL_TYPE_NUL_STRING,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME] = MNL_TYPE_NUL_STRING,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE] = MNL_TYPE_U64,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC] = MNL_TYPE_U8,
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID] = MNL_TYPE_U32,
	/* the resource dumps: fill_res_qp_entry(), fill_res_cm_id_entry() */
	[RDMA_NLDEV_ATTR_RES_QP] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_RES_QP_ENTRY] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_RES_CM_ID] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_RES_LQPN] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_RES_TYPE] = MNL_TYPE_U8,
	[RDMA_NLDEV_ATTR_RES_STATE] = MNL_TYPE_U8,
	[RDMA_NLDEV_ATTR_RES_PID] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_RES_KERN_NAME] = MNL_TYPE_NUL_STRING,
	[RDMA_NLDEV_ATTR_RES_PS] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_RES_CM_IDN] = MNL_TYPE_U32,
	/* a struct __kernel_sockaddr_storage: its length is checked where read */
	[RDMA_NLDEV_ATTR_RES_SRC_ADDR] = MNL_TYPE_BINARY,
	[RDMA_NLDEV_ATTR_RES_DST_ADDR] = MNL_TYPE_BINARY,
};

int rctl_nldev_attr_cb(const struct nlattr *a, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(a);

	/* Attributes newer than our headers, or not read, are ignored. */
	if (mnl_attr_type_valid(a, RDMA_NLDEV_ATTR_MAX - 1) <= 0 ||
	    nldev_policy[type] == MNL_TYPE_UNSPEC)
		return MNL_CB_OK;
	/* One that does not validate is treated as absent, never read. */
	if (mnl_attr_validate(a, nldev_policy[type]) < 0)
		return MNL_CB_OK;
	tb[type] = a;
	return MNL_CB_OK;
}
