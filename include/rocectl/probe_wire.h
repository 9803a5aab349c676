/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The reach/serve handshake on the wire, kept apart from verbs so that it can
 * be unit-tested and fuzzed: pure encoders and bounds-checked decoders of the
 * CM private data. Integers are big-endian; nothing is read through a cast.
 *
 * hello (REQ, 32 bytes, the same layout in versions 1 and 2):
 *	0 magic "RCTL"  4 version  5 mode  6 reserved[2]  8 size  12 depth
 *	16 addr (u64)  24 rkey  28 reserved[4]
 * welcome (REP or REJ):
 *	0 magic "RCTL"  4 version  5 status  6 reserved[2]  8 addr (u64)
 *	16 rkey  20 size  24 lifetime_s  28 reserved[4]          (v1: 32 bytes)
 *	32 active_mtu  36 netdev_mtu  40 netdev[16] (NUL padded) (v2: 56 bytes)
 * REQ private data holds at most 56 bytes for RDMA_PS_TCP, a REJ 148, a REP 196.
 */
#ifndef ROCECTL_PROBE_WIRE_H
#define ROCECTL_PROBE_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RCTL_PROBE_VERSION 2
#define RCTL_PROBE_MIN_VERSION 1	/* oldest client version serve answers */
#define RCTL_PROBE_MAGIC "RCTL"
#define RCTL_PROBE_MAX_SIZE (8u << 20)	/* per message, per client */
#define RCTL_PROBE_MAX_DEPTH 1024u
#define RCTL_HELLO_LEN 32u
#define RCTL_WELCOME_V1_LEN 32u
#define RCTL_WELCOME_LEN 56u
#define RCTL_WIRE_IFNAME 16u

enum rctl_probe_mode {
	RCTL_MODE_ECHO = 1,	/* answer each SEND / WRITE_WITH_IMM in kind */
	RCTL_MODE_SINK = 2,	/* consume SENDs; READ/WRITE need no responder */
	RCTL_MODE_POLL = 3,	/* watch the last byte of the buffer and answer
				 * each RDMA WRITE with one (perftest's write_lat) */
};

/* Status in the welcome (REP: OK; REJ: why). */
enum rctl_probe_status {
	RCTL_PROBE_OK = 0,
	RCTL_PROBE_VERSION_MISMATCH = 1,
	RCTL_PROBE_BUSY = 2,
	RCTL_PROBE_BAD_REQUEST = 3,
	RCTL_PROBE_NO_RESOURCES = 4,
	RCTL_PROBE_PEER_LIMIT = 5,	/* v2: too many slots for this address */
};

struct rctl_hello {
	uint8_t version;
	uint8_t mode;
	uint32_t size;		/* largest message, bytes */
	uint32_t depth;		/* receives the responder keeps posted */
	uint64_t addr;		/* client buffer the responder writes into */
	uint32_t rkey;
};

struct rctl_welcome {
	uint8_t version;
	uint8_t status;
	uint64_t addr;		/* responder buffer (READ/WRITE target) */
	uint32_t rkey;
	uint32_t size;
	uint32_t lifetime_s;	/* the responder disconnects after this */
	bool has_mtu;		/* v2: the fields below were sent */
	uint32_t active_mtu;	/* responder's port, bytes; 0 unknown */
	uint32_t netdev_mtu;	/* responder's netdev, bytes; 0 unknown */
	char netdev[RCTL_WIRE_IFNAME];	/* printable, NUL terminated */
};

/* Write h into buf (at least RCTL_HELLO_LEN bytes); returns the length. */
size_t rctl_hello_encode(const struct rctl_hello *h, uint8_t *buf);
/*
 * Decode and validate a REQ's private data. RCTL_PROBE_OK,
 * RCTL_PROBE_BAD_REQUEST (short, no magic, a size, depth or mode out of
 * range) or RCTL_PROBE_VERSION_MISMATCH (h->version says which).
 */
enum rctl_probe_status rctl_hello_decode(const void *buf, size_t len,
					 struct rctl_hello *h);

/* Write w as version w->version (1: 32 bytes, 2: 56); returns the length. */
size_t rctl_welcome_encode(const struct rctl_welcome *w, uint8_t *buf);
/*
 * Decode a REP's or REJ's private data: 0, or -EPROTO when it is not a
 * rocectl welcome (short or no magic), -EBADMSG when shorter than its version
 * needs. A version above ours is decoded as far as version 2 reaches (its
 * status and version are what the caller needs to report the mismatch).
 */
int rctl_welcome_decode(const void *buf, size_t len, struct rctl_welcome *w);

#endif
