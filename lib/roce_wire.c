// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RoCE v2 on the wire (include/rocectl/roce_wire.h, where the layouts and
 * their sources are): a captured frame decoded, and the flow table of a
 * capture. Pure, bounded: every read is checked against the captured
 * length first; the table has a cap and counts what it could not keep.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/roce_wire.h"

#define ETH_P_IPV4 0x0800
#define ETH_P_IPV6 0x86dd
#define ETH_P_8021Q 0x8100
#define ETH_P_8021AD 0x88a8
#define IPPROTO_UDP_ 17
#define IPPROTO_GRE_ 47
#define GRE_ERSPAN_2 0x88be		/* type I without, II with a sequence number */
#define GRE_ERSPAN_3 0x22eb
#define BTH_LEN 12
#define DETH_LEN 8
#define MAD_HDR_LEN 24
#define SLL_LEN 16			/* pcap/sll.h struct sll_header */
#define SLL2_LEN 20			/* struct sll2_header */
#define SLL_OUTGOING 4			/* LINUX_SLL_OUTGOING */
#define MAX_TAGS 4

/* A bounded view of the frame: nothing at or past end is read. */
struct cur {
	const uint8_t *p;
	size_t len;
};

static bool has(const struct cur *c, size_t off, size_t n)
{
	return off <= c->len && n <= c->len - off;
}

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t be24(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | be24(p + 1);
}

static struct cur after(const struct cur *c, size_t off)
{
	return (struct cur){ .p = c->p + off, .len = c->len - off };
}

enum rctl_rw_class rctl_rw_class_of(uint8_t opcode, uint32_t dqpn)
{
	uint8_t tr = opcode & 0xe0, op = opcode & 0x1f;

	if (tr == 0x80)
		return RCTL_RW_CNP;
	if (tr == 0x60)
		return dqpn == 1 && op == 0x04 ? RCTL_RW_MAD : RCTL_RW_OTHER;
	if (tr != 0x00 && tr != 0x20 && tr != 0xa0)	/* RC, UC, XRC */
		return RCTL_RW_OTHER;
	if (op <= 0x0c || op == 0x13 || op == 0x14 || op == 0x16 || op == 0x17 ||
	    op == 0x1c || op == 0x1d)			/* FLUSH, ATOMIC_WRITE */
		return RCTL_RW_REQUEST;
	if ((op >= 0x0d && op <= 0x10) || op == 0x12)
		return RCTL_RW_RESPONSE;
	return op == 0x11 ? RCTL_RW_ACK : RCTL_RW_OTHER;
}

/* READ response first, last and only, ACKNOWLEDGE, ATOMIC ACKNOWLEDGE. */
static bool has_aeth(uint8_t opcode)
{
	uint8_t tr = opcode & 0xe0, op = opcode & 0x1f;

	return (tr == 0x00 || tr == 0xa0) && (op == 0x0d || (op >= 0x0f && op <= 0x12));
}

static void cm_decode(const struct cur *m, struct rctl_rw_pkt *k)
{
	const uint8_t *d = m->p + MAD_HDR_LEN;

	if (k->attr_id == RCTL_CM_ATTR_REQ && has(m, MAD_HDR_LEN, 93)) {
		k->cm_local_comm_id = be32(d);
		k->cm_qpn = be24(d + 32);
		memcpy(k->cm_local_gid, d + 56, 16);
		memcpy(k->cm_remote_gid, d + 72, 16);
		k->cm_tclass = d[92];
		k->has_cm = true;
	} else if (k->attr_id == RCTL_CM_ATTR_REP && has(m, MAD_HDR_LEN, 15)) {
		k->cm_local_comm_id = be32(d);
		k->cm_remote_comm_id = be32(d + 4);
		k->cm_qpn = be24(d + 12);
		k->has_cm = true;
	} else if (k->attr_id == RCTL_CM_ATTR_REJ && has(m, MAD_HDR_LEN, 12)) {
		k->cm_local_comm_id = be32(d);
		k->cm_remote_comm_id = be32(d + 4);
		k->cm_rej_reason = be16(d + 10);
		k->has_cm = true;
	}
}

/* What follows BTH: AETH, or DETH and the MAD of a CM message. */
static void bth_tail(const struct cur *b, struct rctl_rw_pkt *k)
{
	struct cur m;

	if (has_aeth(k->opcode) && has(b, BTH_LEN, 4)) {
		k->has_aeth = true;
		k->syndrome = b->p[BTH_LEN];
	}
	if (k->cls != RCTL_RW_MAD || !has(b, BTH_LEN + DETH_LEN, MAD_HDR_LEN))
		return;
	m = after(b, BTH_LEN + DETH_LEN);
	k->has_mad = true;
	k->mgmt_class = m.p[1];
	k->method = m.p[3];
	k->attr_id = be16(m.p + 16);
	if (k->mgmt_class == RCTL_MGMT_CLASS_CM)
		cm_decode(&m, k);
}

static int udp_decode(const struct cur *u, struct rctl_rw_pkt *k)
{
	struct cur b;

	if (!has(u, 0, 8))
		return RCTL_RW_NOT_ROCE;
	if (be16(u->p + 2) != RCTL_ROCE_UDP_PORT)
		return RCTL_RW_NOT_ROCE;
	if (!has(u, 8, BTH_LEN))
		return -EBADMSG;
	b = after(u, 8);
	k->opcode = b.p[0];
	k->fecn = b.p[4] & 0x80;
	k->becn = b.p[4] & 0x40;
	k->dqpn = be24(b.p + 5);
	k->ackreq = b.p[8] & 0x80;
	k->psn = be24(b.p + 9);
	k->cls = rctl_rw_class_of(k->opcode, k->dqpn);
	bth_tail(&b, k);
	return 0;
}

static int eth_decode(const struct cur *c, struct rctl_rw_pkt *k, int depth);

/* GRE carrying ERSPAN: the mirrored frame inside, decoded once (no nesting). */
static int gre_decode(const struct cur *g, struct rctl_rw_pkt *k, int depth)
{
	size_t off = 4, hdr;
	uint16_t proto;
	struct cur in;
	uint8_t f;

	if (depth > 0 || !has(g, 0, 4))
		return RCTL_RW_NOT_ROCE;
	f = g->p[0];
	proto = be16(g->p + 2);
	off += (f & 0x80 ? 4 : 0) + (f & 0x20 ? 4 : 0) + (f & 0x10 ? 4 : 0);
	if (proto == GRE_ERSPAN_2)
		hdr = f & 0x10 ? 8 : 0;
	else if (proto == GRE_ERSPAN_3)
		hdr = 12;
	else
		return RCTL_RW_NOT_ROCE;
	if (!has(g, off, hdr))
		return RCTL_RW_NOT_ROCE;
	if (hdr && (g->p[off] >> 4) != (proto == GRE_ERSPAN_3 ? 2 : 1))
		return RCTL_RW_NOT_ROCE;
	if (proto == GRE_ERSPAN_3 && (g->p[off + 11] & 0x01))
		hdr += 8;			/* the platform specific subheader */
	if (!has(g, off, hdr))
		return RCTL_RW_NOT_ROCE;
	in = after(g, off + hdr);
	k->vlan = 0;			/* the mirror's tag is not the flow's */
	k->erspan = true;
	return eth_decode(&in, k, depth + 1);
}

/* 40 bytes: ::ffff:a.b.c.d, what a RoCE v2 GID of an IPv4 address holds. */
static void v4_mapped(uint8_t out[16], const uint8_t *a)
{
	memset(out, 0, 10);
	out[10] = out[11] = 0xff;
	memcpy(out + 12, a, 4);
}

static int ipv4_decode(const struct cur *c, struct rctl_rw_pkt *k, int depth)
{
	size_t ihl;

	if (!has(c, 0, 20) || c->p[0] >> 4 != 4)
		return RCTL_RW_NOT_ROCE;
	ihl = (size_t)(c->p[0] & 0x0f) * 4;
	/* Not the first fragment: no UDP header here. */
	if (ihl < 20 || !has(c, 0, ihl) || (be16(c->p + 6) & 0x1fff))
		return RCTL_RW_NOT_ROCE;
	if (c->p[9] == IPPROTO_GRE_)
		return gre_decode(&(struct cur){ c->p + ihl, c->len - ihl }, k, depth);
	if (c->p[9] != IPPROTO_UDP_)
		return RCTL_RW_NOT_ROCE;
	k->ipv6 = false;
	k->tos = c->p[1];
	k->ip_len = be16(c->p + 2);
	v4_mapped(k->src, c->p + 12);
	v4_mapped(k->dst, c->p + 16);
	return udp_decode(&(struct cur){ c->p + ihl, c->len - ihl }, k);
}

static int ipv6_decode(const struct cur *c, struct rctl_rw_pkt *k, int depth)
{
	if (!has(c, 0, 40) || c->p[0] >> 4 != 6)
		return RCTL_RW_NOT_ROCE;
	/* RoCE v2 carries no extension headers: UDP follows directly. */
	if (c->p[6] == IPPROTO_GRE_)
		return gre_decode(&(struct cur){ c->p + 40, c->len - 40 }, k, depth);
	if (c->p[6] != IPPROTO_UDP_)
		return RCTL_RW_NOT_ROCE;
	k->ipv6 = true;
	k->tos = (uint8_t)((c->p[0] & 0x0f) << 4 | c->p[1] >> 4);
	k->ip_len = 40u + be16(c->p + 4);
	memcpy(k->src, c->p + 8, 16);
	memcpy(k->dst, c->p + 24, 16);
	return udp_decode(&(struct cur){ c->p + 40, c->len - 40 }, k);
}

/* The frame of ethertype "type" from "off" on, through its 802.1Q tags. */
static int proto_decode(const struct cur *c, uint16_t type, size_t off, struct rctl_rw_pkt *k,
			int depth)
{
	int tags = 0;

	while (type == ETH_P_8021Q || type == ETH_P_8021AD) {
		if (++tags > MAX_TAGS || !has(c, off, 4))
			return RCTL_RW_NOT_ROCE;
		if (!k->vlan)
			k->vlan = be16(c->p + off) & 0x0fff;
		type = be16(c->p + off + 2);
		off += 4;
	}
	if (type == ETH_P_IPV4)
		return ipv4_decode(&(struct cur){ c->p + off, c->len - off }, k, depth);
	if (type == ETH_P_IPV6)
		return ipv6_decode(&(struct cur){ c->p + off, c->len - off }, k, depth);
	return RCTL_RW_NOT_ROCE;
}

static int eth_decode(const struct cur *c, struct rctl_rw_pkt *k, int depth)
{
	if (!has(c, 0, 14))
		return RCTL_RW_NOT_ROCE;
	return proto_decode(c, be16(c->p + 12), 14, k, depth);
}

int rctl_rw_decode(const uint8_t *p, size_t caplen, enum rctl_rw_link link,
		   struct rctl_rw_pkt *k)
{
	struct cur c = { .p = p, .len = p ? caplen : 0 };

	memset(k, 0, sizeof(*k));
	switch (link) {
	case RCTL_RW_LINK_ETH:
		return eth_decode(&c, k, 0);
	case RCTL_RW_LINK_SLL:
		if (!has(&c, 0, SLL_LEN))
			return RCTL_RW_NOT_ROCE;
		k->outgoing = be16(p) == SLL_OUTGOING;
		return proto_decode(&c, be16(p + 14), SLL_LEN, k, 0);
	case RCTL_RW_LINK_SLL2:
		if (!has(&c, 0, SLL2_LEN))
			return RCTL_RW_NOT_ROCE;
		k->outgoing = p[10] == SLL_OUTGOING;
		k->ifindex = be32(p + 4);
		return proto_decode(&c, be16(p), SLL2_LEN, k, 0);
	case RCTL_RW_LINK_RAW:
		if (has(&c, 0, 1) && p[0] >> 4 == 6)
			return ipv6_decode(&c, k, 0);
		return ipv4_decode(&c, k, 0);
	}
	return RCTL_RW_NOT_ROCE;
}

void rctl_rw_addr_text(const uint8_t a[16], char *buf, size_t len)
{
	static const uint8_t prefix[12] = { [10] = 0xff, [11] = 0xff };
	char tmp[INET6_ADDRSTRLEN];

	if (!memcmp(a, prefix, sizeof(prefix)))
		inet_ntop(AF_INET, a + 12, tmp, sizeof(tmp));
	else
		inet_ntop(AF_INET6, a, tmp, sizeof(tmp));
	snprintf(buf, len, "%s", tmp);
}

/* ---- the flow table ---------------------------------------------------- */

struct rw_key {
	uint8_t src[16], dst[16];
	uint32_t vlan, dqpn, ifindex;
	bool outgoing;
};

struct rw_slot {
	struct rw_key key;
	struct rctl_wire_flow f;
	uint64_t tos[256], cnp_tos[256];	/* packets by ToS byte */
	uint32_t last_psn;
	bool has_psn;
};

struct rw_conn {
	uint8_t src[16], dst[16];
	struct rctl_wire_conn c;
};

struct rctl_rw_table {
	struct rw_slot *slots;
	uint32_t n, alloc, cap;
	uint32_t *hash;			/* slot index + 1, 0 empty; open addressing */
	uint32_t hash_size;		/* a power of two, over twice the cap */
	struct rw_conn *conns;
	uint32_t n_conns;
	uint64_t frames, roce, malformed, flow_overflow, conn_overflow;
};

struct rctl_rw_table *rctl_rw_table_new(uint32_t cap)
{
	struct rctl_rw_table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->cap = cap ? cap : RCTL_WIRE_MAX_FLOWS;
	for (t->hash_size = 16; t->hash_size < 2 * t->cap; t->hash_size *= 2)
		;
	t->hash = calloc(t->hash_size, sizeof(*t->hash));
	if (!t->hash) {
		free(t);
		return NULL;
	}
	return t;
}

void rctl_rw_table_free(struct rctl_rw_table *t)
{
	if (!t)
		return;
	free(t->slots);
	free(t->hash);
	free(t->conns);
	free(t);
}

/* FNV-1a of the key's bytes: flows are few, the lookup per packet is what counts. */
static uint32_t key_hash(const struct rw_key *k)
{
	const uint8_t *p = (const uint8_t *)k;
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < sizeof(*k); i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

static void key_of(const struct rctl_rw_pkt *k, struct rw_key *key)
{
	memset(key, 0, sizeof(*key));
	memcpy(key->src, k->src, 16);
	memcpy(key->dst, k->dst, 16);
	key->vlan = k->vlan;
	key->dqpn = k->dqpn;
	key->ifindex = k->ifindex;
	key->outgoing = k->outgoing;
}

/* The slot of the key, a new one, or NULL: the table is full (or no memory, *err). */
static struct rw_slot *slot_get(struct rctl_rw_table *t, const struct rw_key *key, int *err)
{
	uint32_t i = key_hash(key) & (t->hash_size - 1);
	struct rw_slot *s;

	for (; t->hash[i]; i = (i + 1) & (t->hash_size - 1)) {
		s = &t->slots[t->hash[i] - 1];
		if (!memcmp(&s->key, key, sizeof(*key)))
			return s;
	}
	if (t->n == t->cap)
		return NULL;
	if (t->n == t->alloc) {
		uint32_t alloc = t->alloc ? t->alloc * 2 : 8;
		struct rw_slot *more;

		alloc = alloc > t->cap ? t->cap : alloc;
		more = realloc(t->slots, alloc * sizeof(*more));
		if (!more) {
			*err = -ENOMEM;
			return NULL;
		}
		t->slots = more;
		t->alloc = alloc;
	}
	s = &t->slots[t->n];
	memset(s, 0, sizeof(*s));
	s->key = *key;
	t->hash[i] = ++t->n;
	return s;
}

/* AETH syndrome (IBTA 9.7.5.2.8): bits 6-5 01 RNR NAK, 11 NAK with its code. */
static void count_nak(struct rctl_wire_flow *f, uint8_t syn)
{
	if ((syn & 0x60) == 0x20) {
		f->nak_rnr++;
		return;
	}
	if ((syn & 0x60) != 0x60)
		return;
	switch (syn & 0x1f) {
	case 0:
		f->nak_psn_seq++;
		break;
	case 1:
	case 4:			/* invalid RD request */
		f->nak_invalid_req++;
		break;
	case 2:
		f->nak_remote_access++;
		break;
	case 3:
		f->nak_remote_op++;
		break;
	}
}

/*
 * A request PSN below the last one of its flow (24-bit serial arithmetic):
 * the requester went back, a retransmission. Equal PSNs are not counted: a
 * capture of both ends' netdevs may hand one packet over twice.
 */
static void count_psn(struct rw_slot *s, uint32_t psn)
{
	uint32_t d = (psn - s->last_psn) & 0xffffff;

	if (s->has_psn && d >= 0x800000)
		s->f.psn_regressions++;
	if (!s->has_psn || (d && d < 0x800000))
		s->last_psn = psn;
	s->has_psn = true;
}

static void count_class(struct rw_slot *s, const struct rctl_rw_pkt *k)
{
	struct rctl_wire_flow *f = &s->f;

	switch (k->cls) {
	case RCTL_RW_REQUEST:
		f->requests++;
		count_psn(s, k->psn);
		break;
	case RCTL_RW_RESPONSE:
		f->responses++;
		break;
	case RCTL_RW_ACK:
		f->acks++;
		break;
	case RCTL_RW_CNP:
		f->cnps++;
		break;
	case RCTL_RW_MAD:
		f->mads++;
		break;
	case RCTL_RW_OTHER:
		f->other++;
		break;
	}
	if (k->has_aeth)
		count_nak(f, k->syndrome);
	if (k->cls == RCTL_RW_CNP)
		s->cnp_tos[k->tos]++;
	else
		s->tos[k->tos]++;
}

static struct rw_conn *conn_find(struct rctl_rw_table *t, const uint8_t *src, const uint8_t *dst,
				 uint32_t comm_id)
{
	uint32_t i;

	for (i = 0; i < t->n_conns; i++)
		if (t->conns[i].c.comm_id == comm_id && !memcmp(t->conns[i].src, src, 16) &&
		    !memcmp(t->conns[i].dst, dst, 16))
			return &t->conns[i];
	return NULL;
}

static int conn_req(struct rctl_rw_table *t, const struct rctl_rw_pkt *k)
{
	struct rw_conn *c = conn_find(t, k->src, k->dst, k->cm_local_comm_id), *more;

	if (!c) {
		if (t->n_conns == RCTL_WIRE_MAX_CONNS) {
			t->conn_overflow++;
			return 0;
		}
		more = realloc(t->conns, (t->n_conns + 1) * sizeof(*more));
		if (!more)
			return -ENOMEM;
		t->conns = more;
		c = &t->conns[t->n_conns++];
		memset(c, 0, sizeof(*c));
		memcpy(c->src, k->src, 16);
		memcpy(c->dst, k->dst, 16);
		rctl_rw_addr_text(k->src, c->c.src, sizeof(c->c.src));
		rctl_rw_addr_text(k->dst, c->c.dst, sizeof(c->c.dst));
		rctl_rw_addr_text(k->cm_local_gid, c->c.local_gid, sizeof(c->c.local_gid));
		rctl_rw_addr_text(k->cm_remote_gid, c->c.remote_gid, sizeof(c->c.remote_gid));
		c->c.comm_id = k->cm_local_comm_id;
		c->c.qpn = k->cm_qpn;
	}
	/* A retry carries what the first did; the last one seen is kept. */
	c->c.traffic_class = k->cm_tclass;
	c->c.ip_tos = k->tos;
	c->c.reqs++;
	return 0;
}

/* A REP or REJ answers the REQ whose comm id it names, the other way. */
static void conn_reply(struct rctl_rw_table *t, const struct rctl_rw_pkt *k)
{
	struct rw_conn *c = conn_find(t, k->dst, k->src, k->cm_remote_comm_id);

	if (!c)
		return;
	if (k->attr_id == RCTL_CM_ATTR_REP) {
		snprintf(c->c.reply, sizeof(c->c.reply), "rep");
		c->c.rep_qpn = k->cm_qpn;
	} else {
		snprintf(c->c.reply, sizeof(c->c.reply), "rej");
		c->c.rej_reason = k->cm_rej_reason;
	}
}

int rctl_rw_table_add(struct rctl_rw_table *t, const struct rctl_rw_pkt *k)
{
	struct rw_key key;
	struct rw_slot *s;
	int err = 0;

	t->frames++;
	t->roce++;
	key_of(k, &key);
	s = slot_get(t, &key, &err);
	if (err)
		return err;
	if (s) {
		s->f.packets++;
		s->f.bytes += k->ip_len;
		count_class(s, k);
	} else {
		t->flow_overflow++;
	}
	if (!k->has_cm)
		return 0;
	if (k->attr_id == RCTL_CM_ATTR_REQ)
		return conn_req(t, k);
	conn_reply(t, k);
	return 0;
}

uint64_t rctl_rw_table_frames(const struct rctl_rw_table *t)
{
	return t->frames;
}

void rctl_rw_table_skip(struct rctl_rw_table *t, int decode_ret)
{
	t->frames++;
	if (decode_ret < 0)
		t->malformed++;
}

void rctl_wire_clear(struct rctl_wire *w)
{
	uint32_t i;

	for (i = 0; i < w->n_flows; i++) {
		free(w->flows[i].marks);
		free(w->flows[i].cnp_marks);
	}
	free(w->flows);
	free(w->conns);
	w->flows = NULL;
	w->conns = NULL;
	w->n_flows = w->n_conns = 0;
}

/* The ToS histogram as marks, DSCP then ECN ascending: 0, or -ENOMEM. */
static int marks_of(const uint64_t tos[256], struct rctl_wire_mark **out, uint32_t *n)
{
	uint32_t i, k = 0;

	for (i = 0; i < 256; i++)
		k += tos[i] != 0;
	*n = 0;
	*out = NULL;
	if (!k)
		return 0;
	*out = calloc(k, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (i = 0; i < 256; i++)
		if (tos[i])
			(*out)[(*n)++] = (struct rctl_wire_mark){
				.dscp = i >> 2, .ecn = i & 3, .packets = tos[i] };
	return 0;
}

int rctl_rw_table_summary(const struct rctl_rw_table *t, struct rctl_wire *w)
{
	uint32_t i;

	rctl_wire_clear(w);
	w->frames = t->frames;
	w->roce_packets = t->roce;
	w->malformed = t->malformed;
	w->flow_cap = t->cap;
	w->flow_overflow = t->flow_overflow;
	w->conn_overflow = t->conn_overflow;
	if ((t->n && !(w->flows = calloc(t->n, sizeof(*w->flows)))) ||
	    (t->n_conns && !(w->conns = calloc(t->n_conns, sizeof(*w->conns)))))
		goto oom;
	for (i = 0; i < t->n; i++) {
		struct rctl_wire_flow *f = &w->flows[i];
		const struct rw_slot *s = &t->slots[i];

		*f = s->f;
		f->marks = f->cnp_marks = NULL;
		w->n_flows++;
		rctl_rw_addr_text(s->key.src, f->src, sizeof(f->src));
		rctl_rw_addr_text(s->key.dst, f->dst, sizeof(f->dst));
		f->dst_qp = s->key.dqpn;
		f->vlan = s->key.vlan;
		f->ifindex = s->key.ifindex;
		f->outgoing = s->key.outgoing;
		if (marks_of(s->tos, &f->marks, &f->n_marks) ||
		    marks_of(s->cnp_tos, &f->cnp_marks, &f->n_cnp_marks))
			goto oom;
	}
	for (i = 0; i < t->n_conns; i++)
		w->conns[w->n_conns++] = t->conns[i].c;
	return 0;
oom:
	rctl_wire_clear(w);
	return -ENOMEM;
}
