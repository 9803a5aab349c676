// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Peer keys, the --allow list and the rate limit of reject lines of
 * "rocectl serve" (include/rocectl/serve_peer.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>

#include <infiniband/ib.h>

#include "rocectl/serve_peer.h"

static const uint8_t v4mapped[12] = { [10] = 0xff, [11] = 0xff };

static void key_of_in6(const uint8_t *a, struct rctl_peer_key *k)
{
	if (!memcmp(a, v4mapped, sizeof(v4mapped))) {
		k->family = AF_INET;
		memcpy(k->addr, a + 12, 4);
	} else {
		k->family = AF_INET6;
		memcpy(k->addr, a, 16);
	}
}

int rctl_peer_key_of(const struct sockaddr *sa, struct rctl_peer_key *k)
{
	memset(k, 0, sizeof(*k));
	switch (sa ? sa->sa_family : AF_UNSPEC) {
	case AF_INET:
		k->family = AF_INET;
		memcpy(k->addr, &((const struct sockaddr_in *)sa)->sin_addr, 4);
		return 0;
	case AF_INET6:
		key_of_in6(((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr, k);
		return 0;
	case AF_IB:
		k->family = AF_IB;
		memcpy(k->addr, &((const struct sockaddr_ib *)sa)->sib_addr, 16);
		return 0;
	default:
		return -EAFNOSUPPORT;
	}
}

bool rctl_peer_key_eq(const struct rctl_peer_key *a, const struct rctl_peer_key *b)
{
	return a->family == b->family && !memcmp(a->addr, b->addr, sizeof(a->addr));
}

/* Whether the first "bits" bits of a and b agree. */
static bool prefix_eq(const uint8_t *a, const uint8_t *b, unsigned int bits)
{
	unsigned int whole = bits / 8, rest = bits % 8;
	uint8_t mask = (uint8_t)(0xff00u >> rest);

	if (memcmp(a, b, whole))
		return false;
	return !rest || !((a[whole] ^ b[whole]) & mask);
}

static int cidr_bad(struct rctl_err *e, const char *s, const char *why)
{
	return rctl_err_plain(e, EINVAL, "invalid network '%s' for '--allow': %s", s, why);
}

/* The prefix length after '/', or the full length when there is none. */
static int cidr_bits(const char *slash, unsigned int max, unsigned int *bits)
{
	char *end;
	unsigned long v;

	if (!slash) {
		*bits = max;
		return 0;
	}
	if (slash[1] < '0' || slash[1] > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(slash + 1, &end, 10);
	if (errno || *end || v > max)
		return -EINVAL;
	*bits = (unsigned int)v;
	return 0;
}

int rctl_cidr_parse(const char *s, struct rctl_cidr *c, struct rctl_err *e)
{
	const char *slash = strchr(s, '/');
	uint8_t a[16];
	char addr[INET6_ADDRSTRLEN];
	unsigned int bits, max, len = slash ? (unsigned int)(slash - s) : (unsigned int)strlen(s);
	bool v6 = memchr(s, ':', len) != NULL;

	memset(c, 0, sizeof(*c));
	if (!len || len >= sizeof(addr))
		return cidr_bad(e, s, "expected ADDR or ADDR/LEN");
	memcpy(addr, s, len);
	addr[len] = '\0';
	if (inet_pton(v6 ? AF_INET6 : AF_INET, addr, a) != 1)
		return cidr_bad(e, s, "not a numeric IPv4 or IPv6 address");
	max = v6 ? 128 : 32;
	if (cidr_bits(slash, max, &bits))
		return cidr_bad(e, s, v6 ? "prefix length must be 0 to 128" :
					   "prefix length must be 0 to 32");
	if (v6) {
		key_of_in6(a, &c->net);
		/* ::ffff:10.0.0.0/104 is 10.0.0.0/8 */
		if (c->net.family == AF_INET && bits < 96)
			return cidr_bad(e, s, "an IPv4-mapped network needs a prefix of at least 96");
		if (c->net.family == AF_INET)
			bits -= 96;
	} else {
		c->net.family = AF_INET;
		memcpy(c->net.addr, a, 4);
	}
	c->bits = (uint8_t)bits;
	/* Bits past the prefix: compare the address with itself cut to the prefix. */
	memcpy(a, c->net.addr, 16);
	memset(c->net.addr, 0, 16);
	memcpy(c->net.addr, a, (bits + 7) / 8);
	if (bits % 8)
		c->net.addr[bits / 8] &= (uint8_t)(0xff00u >> (bits % 8));
	if (memcmp(a, c->net.addr, 16))
		return cidr_bad(e, s, "bits are set past the prefix length");
	return 0;
}

bool rctl_cidr_match(const struct rctl_cidr *c, unsigned int n,
		     const struct rctl_peer_key *k)
{
	unsigned int i;

	if (!n)
		return true;
	for (i = 0; i < n; i++)
		if (c[i].net.family == k->family && prefix_eq(c[i].net.addr, k->addr, c[i].bits))
			return true;
	return false;
}

static struct rctl_reject_slot *reject_slot(struct rctl_reject_log *l,
					    const struct rctl_peer_key *k, uint8_t why)
{
	struct rctl_reject_slot *old = &l->slot[0];
	unsigned int i;

	for (i = 0; i < RCTL_REJECT_LOG_SLOTS; i++) {
		struct rctl_reject_slot *s = &l->slot[i];

		if (s->used && s->why == why && rctl_peer_key_eq(&s->key, k))
			return s;
		if (!s->used || (old->used && s->last < old->last))
			old = s;
	}
	memset(old, 0, sizeof(*old));
	old->key = *k;
	old->why = why;
	return old;
}

/* The line budget of every peer together: false when it is spent. */
static bool reject_budget(struct rctl_reject_log *l, uint64_t now)
{
	if (!l->lines || now - l->window >= RCTL_REJECT_LOG_NS) {
		l->window = now;
		l->lines = 0;
	}
	if (l->lines >= RCTL_REJECT_LOG_BURST) {
		l->unreported++;
		return false;
	}
	l->lines++;
	return true;
}

bool rctl_reject_log_note(struct rctl_reject_log *l, const struct rctl_peer_key *k,
			  uint8_t why, uint64_t now, uint64_t *count, uint64_t *others)
{
	struct rctl_reject_slot *s = reject_slot(l, k, why);

	if (s->used && now - s->last < RCTL_REJECT_LOG_NS) {
		s->count++;
		return false;
	}
	if (!reject_budget(l, now))
		return false;	/* counted in unreported, not in the slot */
	s->count++;
	*others = l->unreported;
	l->unreported = 0;
	s->used = true;
	s->last = now;
	*count = s->count;
	s->count = 0;
	return true;
}

bool rctl_const_eq(const void *a, const void *b, size_t n)
{
	const volatile uint8_t *x = a, *y = b;
	uint8_t d = 0;
	size_t i;

	for (i = 0; i < n; i++)
		d |= x[i] ^ y[i];
	return !d;
}
