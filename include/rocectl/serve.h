/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The responder of "rocectl serve" (lib/serve.c): one rdma_cm listener and a
 * TCP control port of the same number (RCTL_PROBE_PORT by default), answering
 * the probe connections of reach and bench rdma (the handshake:
 * include/rocectl/probe_wire.h) within the bounds of rocectl-serve(8),
 * RESOURCES.
 */
#ifndef ROCECTL_SERVE_H
#define ROCECTL_SERVE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "rocectl/err.h"
#include "rocectl/model.h"
#include "rocectl/serve_peer.h"

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
	uint64_t unreported;		/* reject: of other lines, over the log's budget */
	const char *why;		/* reject/disconnect reason, or NULL */
};

typedef void (*rctl_serve_cb)(void *arg, const struct rctl_serve_event *ev);

/*
 * Run until *stop; 0 on a clean stop, -errno when it cannot listen, -ENODEV
 * when rdma_cm reports DEVICE_REMOVAL or ADDR_CHANGE on the listener.
 */
int rctl_serve(const struct rctl_serve_opts *o, rctl_serve_cb cb, void *arg,
	       struct rctl_err *e);

#endif
