/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The reach/serve handshake as bytes: the rdma_cm private data of the REQ
 * (struct rctl_hello) and of the REP (struct rctl_welcome), decoded from
 * what the peer sent, checked, into host order. Pure functions, so serve's
 * and reach's decoders are the ones the fuzz harness runs.
 */
#ifndef ROCECTL_PROBE_WIRE_H
#define ROCECTL_PROBE_WIRE_H

#include <stddef.h>

#include "rocectl/probe.h"

/*
 * A REQ's private data into *h (size, depth, addr, rkey in host order).
 * RCTL_PROBE_OK, RCTL_PROBE_VERSION_MISMATCH or RCTL_PROBE_BAD_REQUEST (too
 * short, no magic, size/depth/mode out of range).
 */
uint8_t rctl_hello_decode(const void *pd, size_t len, struct rctl_hello *h);

/*
 * A REP's private data into *w (addr, rkey, size, lifetime_s in host order):
 * 0, -EPROTO without the magic (not rocectl serve), -EPROTONOSUPPORT for
 * another version (w->version set).
 */
int rctl_welcome_decode(const void *pd, size_t len, struct rctl_welcome *w);

#endif
