/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Who a peer of "rocectl serve" is, and whether it may connect: canonical
 * binary peer keys (the per-peer limit counts them), the --allow CIDR list,
 * and the rate limit of the lines that report rejected peers. Pure code: no
 * verbs, no I/O, no allocation.
 */
#ifndef ROCECTL_SERVE_PEER_H
#define ROCECTL_SERVE_PEER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "rocectl/err.h"

#ifndef AF_IB
#define AF_IB 27
#endif

/*
 * A peer's address as bytes: AF_INET (addr[0..3]), AF_INET6 (addr[0..15]) or
 * AF_IB (the 16-byte GID). An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is
 * folded to AF_INET, so that one host is one key whichever form its address
 * arrives in; the port is not part of it.
 */
struct rctl_peer_key {
	uint8_t family;
	uint8_t addr[16];
};

/* 0, or -EAFNOSUPPORT for another family (k is then zeroed). */
int rctl_peer_key_of(const struct sockaddr *sa, struct rctl_peer_key *k);
bool rctl_peer_key_eq(const struct rctl_peer_key *a, const struct rctl_peer_key *b);

/* A network of --allow: "10.0.0.0/24", "fd00::/8", a host "10.0.0.7" (/32). */
struct rctl_cidr {
	struct rctl_peer_key net;	/* AF_INET or AF_INET6, host bits zero */
	uint8_t bits;
};

#define RCTL_SERVE_MAX_ALLOW 32u

/*
 * Parse one network; -EINVAL with a message naming it when it is not an
 * address with an optional prefix length, or has bits set past the prefix
 * (a typo in an access list must not widen it).
 */
int rctl_cidr_parse(const char *s, struct rctl_cidr *c, struct rctl_err *e);
/* Whether k lies in one of the n networks; an empty list allows every peer. */
bool rctl_cidr_match(const struct rctl_cidr *c, unsigned int n,
		     const struct rctl_peer_key *k);

/*
 * Reject lines, rate-limited: the first rejection of a peer for a reason is
 * reported at once, later ones of the same peer and reason at most once per
 * RCTL_REJECT_LOG_NS, with how many there were. The table remembers the
 * RCTL_REJECT_LOG_SLOTS most recent pairs (the oldest is forgotten first), so
 * a flood from many addresses costs no memory; and whatever the addresses,
 * at most RCTL_REJECT_LOG_BURST lines are reported per RCTL_REJECT_LOG_NS:
 * the rejections past that are counted and said in the next line reported.
 */
#define RCTL_REJECT_LOG_SLOTS 64u
#define RCTL_REJECT_LOG_NS 60000000000ull
#define RCTL_REJECT_LOG_BURST 64u

struct rctl_reject_log {
	struct rctl_reject_slot {
		struct rctl_peer_key key;
		uint8_t why;
		bool used;
		uint64_t last;		/* when it was last reported */
		uint64_t count;		/* rejections not yet reported */
	} slot[RCTL_REJECT_LOG_SLOTS];
	uint64_t window;		/* start of the current RCTL_REJECT_LOG_NS */
	unsigned int lines;		/* reported in it */
	uint64_t unreported;		/* rejections over the budget, not yet said */
};

/*
 * Count one rejection at now (ns); true when it is to be reported now, with
 * *count the rejections of this peer and reason the line stands for (this
 * one included) and *others those of any peer that went unreported because
 * the budget was spent.
 */
bool rctl_reject_log_note(struct rctl_reject_log *l, const struct rctl_peer_key *k,
			  uint8_t why, uint64_t now, uint64_t *count, uint64_t *others);

/* Compare n bytes in time that does not depend on where they differ. */
bool rctl_const_eq(const void *a, const void *b, size_t n);

#endif
