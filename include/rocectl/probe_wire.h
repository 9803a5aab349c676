/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The reach/serve handshake on the wire, kept apart from verbs so that it can
 * be unit-tested and fuzzed: pure encoders and bounds-checked decoders of the
 * CM private data. Integers are big-endian; nothing is read through a cast.
 *
 * hello (REQ, 32 bytes, the same layout in versions 1 and 2):
 *	0 magic "RCTL"  4 version  5 mode  6 flags  7 reserved  8 size  12 depth
 *	16 addr (u64)  24 rkey  28 reserved[4]
 *	with flags & RCTL_HELLO_F_TOKEN: 32 token[24] (NUL padded; 56 bytes)
 * welcome (REP or REJ):
 *	0 magic "RCTL"  4 version  5 status  6 flags  7 reserved  8 addr (u64)
 *	16 rkey  20 size  24 lifetime_s  28 reserved[4]          (v1: 32 bytes)
 *	32 active_mtu  36 netdev_mtu  40 netdev[16] (NUL padded) (v2: 56 bytes)
 * ready (serve's first SEND on a late-MR connection, 24 bytes):
 *	0 magic "RCTL"  4 kind (1)  5 reserved[3]  8 addr (u64)  16 rkey  20 size
 * REQ private data holds at most 56 bytes for RDMA_PS_TCP, a REJ 148, a REP 196.
 *
 * The flags are compatible extensions of version 2: an older peer sends zero
 * there (and the kernel pads a 32-byte hello to 56 with zeroes) and ignores
 * what it does not know. A client that sets RCTL_HELLO_F_LATE_MR takes serve's
 * buffer from the ready message instead of the welcome, so that serve
 * registers it only once the connection is established (a half-open
 * connection pins no client-sized memory); serve says it does so with
 * RCTL_WELCOME_F_LATE_MR. The client's first SEND on such a connection (its
 * "go", at most RCTL_GO_LEN bytes, content ignored) tells serve the
 * connection runs even when the RTU was lost; only after the ready message
 * does it send anything else.
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
#define RCTL_TOKEN_LEN 24u		/* shared token of --token-file, at most */
#define RCTL_TOKEN_MIN 16u
#define RCTL_HELLO_TOKEN_LEN (RCTL_HELLO_LEN + RCTL_TOKEN_LEN)
#define RCTL_READY_LEN 24u
#define RCTL_GO_LEN 64u
#define RCTL_MSG_READY 1u		/* byte 4 of the ready message */

enum {
	RCTL_HELLO_F_TOKEN = 1 << 0,	/* a token follows the 32 bytes */
	RCTL_HELLO_F_LATE_MR = 1 << 1,	/* the client waits for the ready message */
};

enum { RCTL_WELCOME_F_LATE_MR = 1 << 1 };	/* addr and rkey come in the ready message */

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
	RCTL_PROBE_TOKEN = 6,		/* v2: token missing or wrong */
	RCTL_PROBE_NOT_ALLOWED = 7,	/* v2: address not in --allow */
};

struct rctl_hello {
	uint8_t version;
	uint8_t mode;
	uint8_t flags;		/* RCTL_HELLO_F_* */
	uint8_t token[RCTL_TOKEN_LEN];	/* with RCTL_HELLO_F_TOKEN, NUL padded */
	uint32_t size;		/* largest message, bytes */
	uint32_t depth;		/* receives the responder keeps posted */
	uint64_t addr;		/* client buffer the responder writes into */
	uint32_t rkey;
};

struct rctl_welcome {
	uint8_t version;
	uint8_t status;
	uint8_t flags;		/* RCTL_WELCOME_F_* */
	uint64_t addr;		/* responder buffer (READ/WRITE target) */
	uint32_t rkey;
	uint32_t size;
	uint32_t lifetime_s;	/* the responder disconnects after this */
	bool has_mtu;		/* v2: the fields below were sent */
	uint32_t active_mtu;	/* responder's port, bytes; 0 unknown */
	uint32_t netdev_mtu;	/* responder's netdev, bytes; 0 unknown */
	char netdev[RCTL_WIRE_IFNAME];	/* printable, NUL terminated */
};

struct rctl_ready {
	uint64_t addr;		/* responder buffer */
	uint32_t rkey;
	uint32_t size;
};

/*
 * Write h into buf (RCTL_HELLO_TOKEN_LEN bytes with RCTL_HELLO_F_TOKEN, else
 * RCTL_HELLO_LEN); returns the length.
 */
size_t rctl_hello_encode(const struct rctl_hello *h, uint8_t *buf);
/*
 * Decode and validate a REQ's private data. RCTL_PROBE_OK,
 * RCTL_PROBE_BAD_REQUEST (short, no magic, a size, depth or mode out of
 * range, a token flag without a token) or RCTL_PROBE_VERSION_MISMATCH
 * (h->version says which). Unknown flags are ignored.
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

/* The ready message into buf (RCTL_READY_LEN bytes); returns the length. */
size_t rctl_ready_encode(const struct rctl_ready *r, uint8_t *buf);
/*
 * 0, or -EPROTO when it is short or not a ready message, -EBADMSG when its
 * size is 0 or above RCTL_PROBE_MAX_SIZE.
 */
int rctl_ready_decode(const void *buf, size_t len, struct rctl_ready *r);

#endif
