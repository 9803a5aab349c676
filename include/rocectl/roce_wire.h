/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RoCE v2 on the wire (lib/roce_wire.c): one captured frame decoded, and the
 * flow table that sums the frames of a capture into the model's struct
 * rctl_wire. Pure: buffers in, data out, so tests/fuzz/fuzz_roce_wire.c and
 * the unit tests call it on frames built from the layouts:
 *
 *   Ethernet (802.1Q tags) | IPv4 or IPv6 | UDP 4791 | BTH | ... | ICRC
 *
 * BTH (IBTA vol 1 9.2, 12 bytes): opcode, SE/M/pad/TVer, P_Key, FECN/BECN and
 * 6 reserved bits, DestQP (24), AckReq and 7 reserved bits, PSN (24).
 * AETH (9.3.5, 4 bytes): syndrome, MSN (24); after the BTH of ACKNOWLEDGE,
 * ATOMIC ACKNOWLEDGE and the first, last and only READ responses.
 * CNP: the opcode range 0x80-0x9f (include/rdma/ib_pack.h IB_OPCODE_CNP
 * 0x80; RoCE v2 annex A17 sends 0x81).
 * CM MADs: UD SEND only to QP 1, DETH (8 bytes), the MAD header (24 bytes,
 * include/rdma/ib_mad.h struct ib_mad_hdr), then the CM message at the
 * offsets of include/rdma/ibta_vol1_c12.h (Linux 6.1, IBTA vol 1 12.6):
 * REQ local comm id 0, local QPN 32 (24 bits), primary local and remote port
 * GIDs 56 and 72, primary traffic class 92; REP local/remote comm id 0/4,
 * local QPN 12; REJ local/remote comm id 0/4, reason 10 (16 bits).
 * ERSPAN (include/net/erspan.h): GRE protocol 0x88be, type II (sequence bit
 * set, 8-byte header) or type I (none); 0x22eb type III (12 bytes, 8 more
 * with the O bit), then the mirrored Ethernet frame.
 */
#ifndef ROCECTL_ROCE_WIRE_H
#define ROCECTL_ROCE_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rocectl/model.h"

#define RCTL_ROCE_UDP_PORT 4791

/*
 * Bytes of a frame the decoder needs at most: Ethernet with two tags, ERSPAN
 * over IPv6 around it, IPv6, UDP, BTH, DETH, the MAD header and a CM REQ up
 * to its traffic class. A capture keeps no more (no payload).
 */
#define RCTL_RW_SNAPLEN 320

/* The link layer a frame starts with (libpcap's DLT_*, lib/capture.c maps them). */
enum rctl_rw_link {
	RCTL_RW_LINK_ETH,	/* DLT_EN10MB */
	RCTL_RW_LINK_SLL,	/* DLT_LINUX_SLL: tcpdump -i any, 16 bytes */
	RCTL_RW_LINK_SLL2,	/* DLT_LINUX_SLL2: 20 bytes */
	RCTL_RW_LINK_RAW,	/* DLT_RAW: the IP header first */
};

/* Opcode classes (BTH opcode: transport in bits 7-5, operation in 4-0). */
enum rctl_rw_class {
	RCTL_RW_REQUEST,
	RCTL_RW_RESPONSE,
	RCTL_RW_ACK,
	RCTL_RW_CNP,
	RCTL_RW_MAD,
	RCTL_RW_OTHER,
};

/* CM attribute ids (IBTA vol 1 Table 104) decoded. */
#define RCTL_CM_ATTR_REQ 0x0010
#define RCTL_CM_ATTR_REJ 0x0012
#define RCTL_CM_ATTR_REP 0x0013
#define RCTL_MGMT_CLASS_CM 0x07

struct rctl_rw_pkt {
	uint8_t src[16], dst[16];	/* IPv4 as ::ffff:a.b.c.d */
	bool ipv6;
	bool erspan;			/* found inside an ERSPAN mirror */
	uint32_t vlan;			/* the first 802.1Q id, 0 untagged */
	uint32_t ifindex;		/* Linux SLL2's interface, else 0 */
	bool outgoing;			/* Linux SLL/SLL2 packet type 4, OUTGOING */
	uint8_t tos;			/* IPv4 ToS, IPv6 traffic class: DSCP << 2 | ECN */
	uint32_t ip_len;		/* the IP packet's length, by its header */
	uint8_t opcode;
	enum rctl_rw_class cls;
	uint32_t dqpn;
	uint32_t psn;
	bool fecn, becn, ackreq;
	bool has_aeth;
	uint8_t syndrome;		/* AETH syndrome */
	bool has_mad;
	uint8_t mgmt_class, method;
	uint16_t attr_id;
	bool has_cm;			/* a REQ, REP or REJ long enough for its fields */
	uint32_t cm_local_comm_id, cm_remote_comm_id;
	uint32_t cm_qpn;		/* REQ and REP local QPN */
	uint8_t cm_tclass;		/* REQ primary traffic class */
	uint8_t cm_local_gid[16], cm_remote_gid[16];
	uint16_t cm_rej_reason;
};

/* rctl_rw_decode(): 0 a RoCE v2 packet, one of these, or -EBADMSG. */
#define RCTL_RW_NOT_ROCE 1		/* not UDP to 4791: someone else's frame */

/*
 * Decode the frame p[0..caplen) of link type "link"; "k" is filled for a
 * RoCE v2 packet. -EBADMSG: UDP to 4791 but cut short before a whole BTH, or
 * lengths that contradict each other. Reads nothing at or past p + caplen.
 */
int rctl_rw_decode(const uint8_t *p, size_t caplen, enum rctl_rw_link link,
		   struct rctl_rw_pkt *k);

/* The opcode's class; its name for people ("RC SEND_ONLY"...) is not needed. */
enum rctl_rw_class rctl_rw_class_of(uint8_t opcode, uint32_t dqpn);

/*
 * The flow table: flows keyed by addresses, VLAN and destination QP, at most
 * "cap" (RCTL_WIRE_MAX_FLOWS when 0) of them, the packets of later flows
 * counted in flow_overflow; CM REQs matched with their REP or REJ.
 */
struct rctl_rw_table;

struct rctl_rw_table *rctl_rw_table_new(uint32_t cap);
void rctl_rw_table_free(struct rctl_rw_table *t);
/* Count one decoded packet (rctl_rw_decode() returned 0); -ENOMEM. */
int rctl_rw_table_add(struct rctl_rw_table *t, const struct rctl_rw_pkt *k);
/* Frames counted so far, RoCE or not. */
uint64_t rctl_rw_table_frames(const struct rctl_rw_table *t);
/* Count one frame that was not RoCE, or was malformed (the decode's return). */
void rctl_rw_table_skip(struct rctl_rw_table *t, int decode_ret);
/*
 * The summary into w (its flows and connections, frames, roce_packets,
 * malformed, flow_cap and the overflows; the rest is the caller's): 0, or
 * -ENOMEM with w's arrays freed.
 */
int rctl_rw_table_summary(const struct rctl_rw_table *t, struct rctl_wire *w);

/* Free the arrays of w (what rctl_rw_table_summary() allocated) and zero them. */
void rctl_wire_clear(struct rctl_wire *w);

/* An address of the decoder as text: dotted IPv4 for ::ffff:a.b.c.d, else IPv6. */
void rctl_rw_addr_text(const uint8_t a[16], char *buf, size_t len);

#endif
