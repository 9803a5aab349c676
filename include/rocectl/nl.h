/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libmnl sockets with a receive timeout and errno/extack capture. */
#ifndef ROCECTL_NL_H
#define ROCECTL_NL_H

#include <stdint.h>
#include <sys/types.h>

#include <libmnl/libmnl.h>

#include "rocectl/err.h"

#define RCTL_NL_TIMEOUT_MS 5000

/*
 * A seam for the fuzz harness of rctl_nl_talk(): replies come from recv()
 * instead of the socket (and the request goes nowhere). NULL in rocectl.
 */
struct rctl_nl_io {
	ssize_t (*recv)(void *ctx, void *buf, size_t len);
	void *ctx;
};

struct rctl_nl {
	struct mnl_socket *sk;
	unsigned int portid;
	uint32_t seq;
	char buf[32768];
	char ext_ack[256];	/* kernel's extended ack message, if any */
	const struct rctl_nl_io *io;
};

int rctl_nl_open(struct rctl_nl *nl, int bus, struct rctl_err *e);
void rctl_nl_close(struct rctl_nl *nl);

/* Start a request in nl->buf with a fresh sequence number. */
struct nlmsghdr *rctl_nl_msg(struct rctl_nl *nl, uint16_t type, uint16_t flags);

/*
 * Send "req" and run "cb" on every reply until the dump ends or the ack
 * arrives. Returns 0 or -errno (the kernel's, or -ETIMEDOUT).
 */
int rctl_nl_talk(struct rctl_nl *nl, struct nlmsghdr *req, mnl_cb_t cb,
		 void *data);

/*
 * mnl_attr_parse() callback for RDMA nldev replies: fills tb (sized
 * RDMA_NLDEV_ATTR_MAX) with the attributes rocectl reads that validate
 * (mnl_attr_validate with the kernel's type; strings NUL-terminated).
 */
int rctl_nldev_attr_cb(const struct nlattr *a, void *tb);

#endif
