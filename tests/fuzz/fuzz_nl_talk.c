// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rctl_nl_talk() as a whole, through its rctl_nl_io seam: the input is the
 * kernel's side, a series of reads ([u16 length][bytes]) holding multi-part
 * dumps, DONE, ERROR with or without extack, truncated and foreign messages.
 * Invariants: it returns 0 or -errno, reads no more than the input holds
 * (then -ETIMEDOUT, never a hang) and keeps ext_ack a NUL-terminated string.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <rdma/rdma_netlink.h>

#include "fuzz.h"
#include "rocectl/nl.h"

struct feed {
	const uint8_t *p;
	size_t left;
	unsigned int reads, msgs;
	bool eof;		/* read past the input */
};

static ssize_t feed_recv(void *ctx, void *buf, size_t len)
{
	struct feed *f = ctx;
	size_t n;

	if (f->left < 2) {
		f->eof = true;
		errno = EAGAIN;	/* what SO_RCVTIMEO gives */
		return -1;
	}
	n = (size_t)f->p[0] | (size_t)f->p[1] << 8;
	f->p += 2;
	f->left -= 2;
	n = n < f->left ? n : f->left;
	n = n < len ? n : len;
	memcpy(buf, f->p, n);
	f->p += n;
	f->left -= n;
	f->reads++;
	return (ssize_t)n;
}

static int count_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[RDMA_NLDEV_ATTR_MAX] = { 0 };
	struct feed *f = data;

	f->msgs++;
	return mnl_attr_parse(nlh, 0, rctl_nldev_attr_cb, tb) < 0 ? MNL_CB_ERROR : MNL_CB_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct feed f = { .p = data, .left = size };
	const struct rctl_nl_io io = { .recv = feed_recv, .ctx = &f };
	static struct rctl_nl nl;
	struct nlmsghdr *req;
	int ret;

	memset(&nl, 0, sizeof(nl));
	nl.io = &io;
	req = rctl_nl_msg(&nl, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, RDMA_NLDEV_CMD_GET),
			  NLM_F_DUMP);
	ret = rctl_nl_talk(&nl, req, count_cb, &f);
	if (ret > 0 || ret < -4095)
		abort();
	if (strnlen(nl.ext_ack, sizeof(nl.ext_ack)) == sizeof(nl.ext_ack))
		abort();
	if (f.reads > size / 2 + 1)
		abort();
	if (f.eof && ret != -ETIMEDOUT)
		abort();	/* nothing more came: that is a timeout, whatever came before */
	return 0;
}
