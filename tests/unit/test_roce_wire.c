// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The RoCE v2 decoder and flow table (lib/roce_wire.c) on frames built here
 * from the layouts: Ethernet/802.1Q, IPv4 (RFC 791), IPv6 (RFC 8200), UDP,
 * BTH and AETH (IBTA vol 1 9.2, 9.3.5), DETH and the MAD header
 * (include/rdma/ib_mad.h), the CM REQ/REP/REJ of include/rdma/ibta_vol1_c12.h,
 * Linux SLL2 (pcap/sll.h) and ERSPAN type II (include/net/erspan.h).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "rocectl/roce_wire.h"
#include "rocectl/snapshot.h"

struct frame {
	uint8_t b[512];
	size_t n;
};

static void put(struct frame *f, const void *v, size_t len)
{
	memcpy(f->b + f->n, v, len);
	f->n += len;
}

static void put16(struct frame *f, uint16_t v)
{
	put(f, (uint8_t[]){ v >> 8, v }, 2);
}

static void put24(struct frame *f, uint32_t v)
{
	put(f, (uint8_t[]){ v >> 16, v >> 8, v }, 3);
}

static void put32(struct frame *f, uint32_t v)
{
	put16(f, v >> 16);
	put16(f, v & 0xffff);
}

static void eth(struct frame *f, int vlan, uint16_t type)
{
	static const uint8_t macs[12] = { 2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2 };

	put(f, macs, sizeof(macs));
	if (vlan >= 0) {
		put16(f, 0x8100);
		put16(f, (uint16_t)(3 << 13 | vlan));
	}
	put16(f, type);
}

/* IPv4 10.0.0.a -> 10.0.0.b, UDP to 4791; the lengths say "ulen" bytes of UDP. */
static void ip4_udp(struct frame *f, uint8_t tos, uint8_t a, uint8_t b, size_t ulen)
{
	put(f, (uint8_t[]){ 0x45, tos }, 2);
	put16(f, (uint16_t)(20 + ulen));
	put(f, (uint8_t[]){ 0, 0, 0x40, 0, 64, 17, 0, 0, 10, 0, 0, a, 10, 0, 0, b }, 16);
	put16(f, 49152);
	put16(f, 4791);
	put16(f, (uint16_t)ulen);
	put16(f, 0);
}

static void bth(struct frame *f, uint8_t opcode, uint32_t dqpn, uint32_t psn)
{
	put(f, (uint8_t[]){ opcode, 0, 0xff, 0xff, 0 }, 5);
	put24(f, dqpn);
	put(f, (uint8_t[]){ 0x80 }, 1);
	put24(f, psn);
}

/* A whole RC frame: IPv4 ToS, opcode, QP and PSN (+ AETH syndrome when >= 0). */
static struct frame rc(uint8_t tos, uint8_t opcode, uint32_t qp, uint32_t psn, int syn)
{
	struct frame f = { .n = 0 };

	eth(&f, -1, 0x0800);
	ip4_udp(&f, tos, 1, 2, 8 + 12 + (syn >= 0 ? 4 : 0) + 4);
	bth(&f, opcode, qp, psn);
	if (syn >= 0) {
		put(&f, (uint8_t[]){ (uint8_t)syn }, 1);
		put24(&f, 7);
	}
	put32(&f, 0xdeadbeef);		/* ICRC */
	return f;
}

static int dec(const struct frame *f, struct rctl_rw_pkt *k)
{
	return rctl_rw_decode(f->b, f->n, RCTL_RW_LINK_ETH, k);
}

static void test_rc_write(void **state)
{
	struct frame f = rc(0x6a, 0x0a, 0x11, 100, -1);	/* RC RDMA WRITE ONLY */
	struct rctl_rw_pkt k;
	char a[48];

	(void)state;
	assert_int_equal(dec(&f, &k), 0);
	assert_int_equal(k.tos, 0x6a);
	assert_int_equal(k.tos >> 2, 26);
	assert_int_equal(k.opcode, 0x0a);
	assert_int_equal(k.cls, RCTL_RW_REQUEST);
	assert_int_equal(k.dqpn, 0x11);
	assert_int_equal(k.psn, 100);
	assert_true(k.ackreq);
	assert_false(k.has_aeth);
	assert_int_equal(k.ip_len, 20 + 8 + 12 + 4);
	rctl_rw_addr_text(k.src, a, sizeof(a));
	assert_string_equal(a, "10.0.0.1");
	rctl_rw_addr_text(k.dst, a, sizeof(a));
	assert_string_equal(a, "10.0.0.2");
}

static void test_ack_nak(void **state)
{
	struct frame f = rc(0x6a, 0x11, 0x22, 5, 0x60);	/* NAK, PSN sequence error */
	struct rctl_rw_pkt k;

	(void)state;
	assert_int_equal(dec(&f, &k), 0);
	assert_int_equal(k.cls, RCTL_RW_ACK);
	assert_true(k.has_aeth);
	assert_int_equal(k.syndrome, 0x60);
	f = rc(0, 0x10, 0x22, 5, 0x1f);			/* READ RESPONSE ONLY */
	assert_int_equal(dec(&f, &k), 0);
	assert_int_equal(k.cls, RCTL_RW_RESPONSE);
	assert_true(k.has_aeth);
	f = rc(0xc0, 0x81, 0x22, 0, -1);		/* CNP */
	assert_int_equal(dec(&f, &k), 0);
	assert_int_equal(k.cls, RCTL_RW_CNP);
	assert_int_equal(k.tos >> 2, 48);
}

static void test_vlan_ipv6(void **state)
{
	struct frame f = { .n = 0 };
	struct rctl_rw_pkt k;
	uint8_t src[16] = { 0xfd, 0, [15] = 1 }, dst[16] = { 0xfd, 0, [15] = 2 };
	char a[48];

	(void)state;
	eth(&f, 42, 0x86dd);
	/* version 6, traffic class 0x6a, flow label 0 */
	put(&f, (uint8_t[]){ 0x66, 0xa0, 0, 0 }, 4);
	put16(&f, 8 + 12 + 4);
	put(&f, (uint8_t[]){ 17, 64 }, 2);
	put(&f, src, 16);
	put(&f, dst, 16);
	put16(&f, 1);
	put16(&f, 4791);
	put16(&f, 24);
	put16(&f, 0);
	bth(&f, 0x04, 0x33, 9);
	put32(&f, 0);
	assert_int_equal(dec(&f, &k), 0);
	assert_true(k.ipv6);
	assert_int_equal(k.vlan, 42);
	assert_int_equal(k.tos, 0x6a);
	assert_int_equal(k.ip_len, 40 + 24);
	rctl_rw_addr_text(k.dst, a, sizeof(a));
	assert_string_equal(a, "fd00::2");
}

/* A CM MAD: UD SEND ONLY to QP 1, DETH, MAD header, the message. */
static struct frame cm(uint8_t a, uint8_t b, uint16_t attr, const uint8_t *msg, size_t len)
{
	struct frame f = { .n = 0 };

	eth(&f, -1, 0x0800);
	ip4_udp(&f, 0, a, b, 8 + 12 + 8 + 24 + len + 4);
	bth(&f, 0x64, 1, 0);
	put32(&f, 0x80010000);		/* Q_Key of QP1 */
	put32(&f, 1);			/* source QP 1 */
	put(&f, (uint8_t[]){ 1, 0x07, 2, 0x03, 0, 0, 0, 0 }, 8);
	put32(&f, 0);
	put32(&f, 1);
	put16(&f, attr);
	put16(&f, 0);
	put32(&f, 0);
	put(&f, msg, len);
	put32(&f, 0);
	return f;
}

static struct frame cm_req(uint8_t tclass)
{
	uint8_t m[140] = { 0 };

	m[3] = 0x77;					/* local comm id */
	m[32] = 0x00, m[33] = 0x01, m[34] = 0x23;	/* local QPN */
	m[56 + 10] = m[56 + 11] = 0xff, m[56 + 12] = 10, m[56 + 15] = 1;
	m[72 + 10] = m[72 + 11] = 0xff, m[72 + 12] = 10, m[72 + 15] = 2;
	m[92] = tclass;
	return cm(1, 2, RCTL_CM_ATTR_REQ, m, sizeof(m));
}

static void test_cm_req_rep(void **state)
{
	struct frame f = cm_req(106);
	struct rctl_rw_pkt k;
	uint8_t rep[36] = { [3] = 0x99, [7] = 0x77, [12] = 0, [13] = 0x04, [14] = 0x56 };
	char a[48];

	(void)state;
	assert_int_equal(dec(&f, &k), 0);
	assert_int_equal(k.cls, RCTL_RW_MAD);
	assert_true(k.has_cm);
	assert_int_equal(k.attr_id, RCTL_CM_ATTR_REQ);
	assert_int_equal(k.cm_local_comm_id, 0x77);
	assert_int_equal(k.cm_qpn, 0x123);
	assert_int_equal(k.cm_tclass, 106);
	rctl_rw_addr_text(k.cm_remote_gid, a, sizeof(a));
	assert_string_equal(a, "10.0.0.2");
	f = cm(2, 1, RCTL_CM_ATTR_REP, rep, sizeof(rep));
	assert_int_equal(dec(&f, &k), 0);
	assert_true(k.has_cm);
	assert_int_equal(k.cm_remote_comm_id, 0x77);
	assert_int_equal(k.cm_qpn, 0x456);
	/* A REQ cut before its traffic class is a MAD, but no CM message. */
	f = cm_req(106);
	assert_int_equal(rctl_rw_decode(f.b, f.n - 4 - 140 + 92, RCTL_RW_LINK_ETH, &k), 0);
	assert_true(k.has_mad);
	assert_false(k.has_cm);
}

static void test_not_roce_and_truncated(void **state)
{
	struct frame f = rc(0, 0x04, 1, 1, -1);
	struct rctl_rw_pkt k;
	size_t i;

	(void)state;
	/* UDP to 4791 cut inside the BTH: malformed; before UDP: not RoCE. */
	assert_int_equal(rctl_rw_decode(f.b, 14 + 20 + 8 + 11, RCTL_RW_LINK_ETH, &k), -EBADMSG);
	assert_int_equal(rctl_rw_decode(f.b, 14 + 20 + 4, RCTL_RW_LINK_ETH, &k), RCTL_RW_NOT_ROCE);
	for (i = 0; i <= f.n; i++)
		assert_true(rctl_rw_decode(f.b, i, RCTL_RW_LINK_ETH, &k) <= RCTL_RW_NOT_ROCE);
	f.b[14 + 20 + 3] = 0x50;			/* dport 4688 */
	assert_int_equal(dec(&f, &k), RCTL_RW_NOT_ROCE);
	f = rc(0, 0x04, 1, 1, -1);
	f.b[14 + 6] = 0x20;				/* a later fragment */
	f.b[14 + 7] = 0x10;
	assert_int_equal(dec(&f, &k), RCTL_RW_NOT_ROCE);
	assert_int_equal(rctl_rw_decode(NULL, 100, RCTL_RW_LINK_ETH, &k), RCTL_RW_NOT_ROCE);
}

static void test_sll2_erspan(void **state)
{
	struct frame in = rc(0x68, 0x04, 0x44, 1, -1), f = { .n = 0 };
	struct rctl_rw_pkt k;

	(void)state;
	/* SLL2: protocol, reserved, ifindex, hatype, pkttype 4 (outgoing), halen, addr */
	put16(&f, 0x0800);
	put16(&f, 0);
	put32(&f, 7);
	put16(&f, 1);
	put(&f, (uint8_t[]){ 4, 6, 2, 0, 0, 0, 0, 1, 0, 0 }, 10);
	put(&f, in.b + 14, in.n - 14);
	assert_int_equal(rctl_rw_decode(f.b, f.n, RCTL_RW_LINK_SLL2, &k), 0);
	assert_int_equal(k.ifindex, 7);
	assert_true(k.outgoing);
	assert_int_equal(k.tos & 3, RCTL_ECN_NOT_ECT);
	/* ERSPAN II: outer IPv4 GRE, S bit and sequence, version 1 header, the frame. */
	f.n = 0;
	eth(&f, 5, 0x0800);
	put(&f, (uint8_t[]){ 0x45, 0 }, 2);
	put16(&f, (uint16_t)(20 + 8 + 8 + in.n));
	put(&f, (uint8_t[]){ 0, 0, 0x40, 0, 64, 47, 0, 0, 192, 0, 2, 1, 192, 0, 2, 2 }, 16);
	put(&f, (uint8_t[]){ 0x10, 0 }, 2);
	put16(&f, 0x88be);
	put32(&f, 1);
	put32(&f, 0x10000001);
	put32(&f, 0);
	put(&f, in.b, in.n);
	assert_int_equal(dec(&f, &k), 0);
	assert_true(k.erspan);
	assert_int_equal(k.vlan, 0);
	assert_int_equal(k.dqpn, 0x44);
	assert_int_equal(k.tos, 0x68);
	f.b[18 + 20 + 8] = 0x20;			/* ERSPAN version 2 under 0x88be */
	assert_int_equal(dec(&f, &k), RCTL_RW_NOT_ROCE);
}

static void add(struct rctl_rw_table *t, const struct frame *f)
{
	struct rctl_rw_pkt k;
	int ret = dec(f, &k);

	if (ret)
		rctl_rw_table_skip(t, ret);
	else
		assert_int_equal(rctl_rw_table_add(t, &k), 0);
}

static void test_table(void **state)
{
	struct rctl_rw_table *t = rctl_rw_table_new(2);
	struct rctl_wire w = { 0 };
	uint32_t psn[] = { 1, 2, 3, 2, 3, 4, 0xfffffe, 5 };
	struct frame f;
	size_t i;

	(void)state;
	assert_non_null(t);
	for (i = 0; i < sizeof(psn) / sizeof(psn[0]); i++) {
		f = rc(i < 2 ? 0x68 : 0x6a, 0x04, 0x10, psn[i], -1);
		add(t, &f);
	}
	f = rc(0x6a, 0x11, 0x20, 3, 0x60);	/* seq NAK, another flow */
	add(t, &f);
	f = rc(0x6a, 0x11, 0x20, 3, 0x21);	/* RNR NAK */
	add(t, &f);
	f = rc(0xc0, 0x81, 0x20, 0, -1);	/* CNP, same flow */
	add(t, &f);
	f = rc(0x6a, 0x04, 0x30, 0, -1);	/* a third flow: over the cap */
	add(t, &f);
	add(t, &(struct frame){ .n = 10 });
	f = cm_req(0);
	add(t, &f);				/* a third flow too (QP1) */
	assert_int_equal(rctl_rw_table_summary(t, &w), 0);
	assert_int_equal(w.frames, 14);
	assert_int_equal(w.roce_packets, 13);
	assert_int_equal(w.flow_overflow, 2);
	assert_int_equal(w.n_flows, 2);
	assert_int_equal(w.flows[0].dst_qp, 0x10);
	assert_int_equal(w.flows[0].requests, 8);
	/* 3 -> 2, and 0xfffffe after 4 (serial arithmetic: behind) */
	assert_int_equal(w.flows[0].psn_regressions, 2);
	assert_int_equal(w.flows[0].n_marks, 2);
	assert_int_equal(w.flows[0].marks[0].dscp, 26);
	assert_int_equal(w.flows[0].marks[0].ecn, RCTL_ECN_NOT_ECT);
	assert_int_equal(w.flows[0].marks[0].packets, 2);
	assert_int_equal(w.flows[0].marks[1].ecn, RCTL_ECN_ECT0);
	assert_int_equal(w.flows[0].marks[1].packets, 6);
	assert_int_equal(w.flows[1].nak_psn_seq, 1);
	assert_int_equal(w.flows[1].nak_rnr, 1);
	assert_int_equal(w.flows[1].cnps, 1);
	assert_int_equal(w.flows[1].n_cnp_marks, 1);
	assert_int_equal(w.flows[1].cnp_marks[0].dscp, 48);
	assert_int_equal(w.n_conns, 1);		/* QP1's flow did not fit, its REQ did */
	rctl_wire_clear(&w);
	rctl_rw_table_free(t);
}

static void test_conn(void **state)
{
	struct rctl_rw_table *t = rctl_rw_table_new(0);
	uint8_t rej[84] = { [3] = 0x55, [7] = 0x77, [11] = 8 };
	struct rctl_wire w = { 0 };
	struct frame f;

	(void)state;
	f = cm_req(0);
	add(t, &f);
	add(t, &f);
	f = cm(2, 1, RCTL_CM_ATTR_REJ, rej, sizeof(rej));
	add(t, &f);
	assert_int_equal(rctl_rw_table_summary(t, &w), 0);
	assert_int_equal(w.n_conns, 1);
	assert_int_equal(w.conns[0].traffic_class, 0);
	assert_int_equal(w.conns[0].reqs, 2);
	assert_int_equal(w.conns[0].qpn, 0x123);
	assert_string_equal(w.conns[0].src, "10.0.0.1");
	assert_string_equal(w.conns[0].local_gid, "10.0.0.1");
	assert_string_equal(w.conns[0].reply, "rej");
	assert_int_equal(w.conns[0].rej_reason, 8);
	rctl_wire_clear(&w);
	rctl_rw_table_free(t);
}

/* The summary in a host model goes through the snapshot and back unchanged. */
static void test_snapshot(void **state)
{
	struct rctl_rw_table *t = rctl_rw_table_new(0);
	struct rctl_host h = { .time = 1764480000 }, back;
	struct rctl_err e = { 0 };
	struct frame f;
	char *t1, *t2;

	(void)state;
	snprintf(h.hostname, sizeof(h.hostname), "lab");
	f = rc(0x6a, 0x0a, 0x11, 1, -1);
	add(t, &f);
	f = rc(0xc0, 0x81, 0x11, 0, -1);
	add(t, &f);
	f = cm_req(106);
	add(t, &f);
	assert_int_equal(rctl_rw_table_summary(t, &h.wire), 0);
	h.wire.st.ok = true;
	h.wire.drops_known = true;
	h.wire.drops = 3;
	snprintf(h.wire.source, sizeof(h.wire.source), "live");
	t1 = rctl_snapshot_text(&h, false);
	assert_non_null(strstr(t1, "\"wire\":{\"ok\":true"));
	assert_int_equal(rctl_snapshot_parse(t1, "t", &back, &e), 0);
	assert_int_equal(back.wire.n_flows, 2);
	assert_int_equal(back.wire.n_conns, 1);
	assert_int_equal(back.wire.conns[0].traffic_class, 106);
	assert_int_equal(back.wire.flows[0].cnp_marks[0].dscp, 48);
	t2 = rctl_snapshot_text(&back, false);
	assert_string_equal(t1, t2);
	cJSON_free(t1);
	cJSON_free(t2);
	rctl_host_free(&back);
	rctl_host_free(&h);
	rctl_rw_table_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rc_write),
		cmocka_unit_test(test_ack_nak),
		cmocka_unit_test(test_vlan_ipv6),
		cmocka_unit_test(test_cm_req_rep),
		cmocka_unit_test(test_not_roce_and_truncated),
		cmocka_unit_test(test_sll2_erspan),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_conn),
		cmocka_unit_test(test_snapshot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
