/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * LLDP: the one decoder of the TLVs a switch port sends (lib/lldp.c), shared
 * by both sources of the neighbour (lib/lldp_collect.c): an LLDPDU captured
 * from the wire, or the TLVs lldpd kept. The layouts are IEEE 802.1AB-2016
 * clause 8 (chassis, port, TTL, system name), IEEE 802.1Q-2018 Annex D.2.8-
 * D.2.10 (ETS configuration and recommendation, PFC configuration, the
 * application priority table with the DSCP selector of 802.1Qcd) and IEEE
 * 802.3-2018 79.3.4 (maximum frame size); the bit positions are those the
 * kernel's ice driver decodes (drivers/net/ethernet/intel/ice/ice_dcb.c,
 * ice_parse_ieee_*_tlv, Linux 6.1). docs/roce-facts.md, "The switch port".
 */
#ifndef ROCECTL_LLDP_H
#define ROCECTL_LLDP_H

#include <stddef.h>
#include <stdint.h>

#include "rocectl/err.h"
#include "rocectl/model.h"

#define RCTL_LLDP_ETHERTYPE 0x88cc

/* TLV types of 802.1AB 8.4.1 */
#define RCTL_LLDP_TLV_END 0
#define RCTL_LLDP_TLV_CHASSIS_ID 1
#define RCTL_LLDP_TLV_PORT_ID 2
#define RCTL_LLDP_TLV_TTL 3
#define RCTL_LLDP_TLV_PORT_DESCR 4
#define RCTL_LLDP_TLV_SYSTEM_NAME 5
#define RCTL_LLDP_TLV_ORG 127

/* The organisations and subtypes decoded. */
#define RCTL_LLDP_OUI_8021 0x0080c2
#define RCTL_LLDP_OUI_8023 0x00120f
#define RCTL_LLDP_8021_ETS_CFG 9
#define RCTL_LLDP_8021_ETS_RECO 10
#define RCTL_LLDP_8021_PFC 11
#define RCTL_LLDP_8021_APP 12
#define RCTL_LLDP_8023_MFS 4

/*
 * An LLDPDU (the TLVs after the Ethernet header) into p. Unknown TLVs are
 * skipped; decoding stops at the End TLV or the end of the buffer. 0, or
 * -EBADMSG when a TLV runs past the buffer or a mandatory TLV (chassis ID,
 * port ID, TTL) is missing or malformed, with what was decoded kept; -ENOMEM.
 */
int rctl_lldp_decode(const uint8_t *buf, size_t len, struct rctl_lldp_peer *p);

/*
 * A whole Ethernet frame: destination, source, an optional 802.1Q tag, the
 * LLDP ethertype, then the LLDPDU. -EPROTO when it is not an LLDP frame.
 */
int rctl_lldp_decode_frame(const uint8_t *frame, size_t len, struct rctl_lldp_peer *p);

/*
 * One organisationally specific TLV's information string (after the OUI and
 * the subtype), as lldpd keeps those it does not know: 0, 1 when the OUI or
 * subtype is not one rocectl decodes, -EBADMSG when too short, -ENOMEM.
 */
int rctl_lldp_decode_org(uint32_t oui, uint8_t subtype, const uint8_t *info, size_t len,
			 struct rctl_lldp_peer *p);

/* Free what the decoder allocated (the APP entries) and zero the TLV fields. */
void rctl_lldp_clear(struct rctl_lldp_peer *p);

/* An ID of chassis/port subtype "subtype" as text: a MAC, printable text, else hex. */
void rctl_lldp_id_text(uint32_t subtype, bool chassis, const uint8_t *id, size_t len,
		       char *buf, size_t size);

/* Whether the neighbour sent any of the DCBX TLVs (ETS, PFC, APP). */
bool rctl_lldp_has_dcbx(const struct rctl_lldp_peer *p);

/*
 * Collect the neighbour of every RoCE netdev of an inventoried host: from
 * lldpd when it runs; else, with capture, from one frame per netdev seen on
 * an AF_PACKET socket. rctl_lldp_begin() opens the sockets (nothing is
 * sent), rctl_lldp_end() waits at most wait_s more seconds for the frames
 * and says why for each netdev nothing arrived, and frees cap (also after
 * a failed begin). Out of memory is the only failure.
 */
struct rctl_lldp_cap;
int rctl_lldp_begin(struct rctl_host *h, bool capture, struct rctl_lldp_cap **cap,
		    struct rctl_err *e);
int rctl_lldp_end(struct rctl_host *h, struct rctl_lldp_cap *cap, double wait_s,
		  struct rctl_err *e);
/* Both, for a command that does not sample: capture when wait_s > 0. */
int rctl_lldp_collect(struct rctl_host *h, double wait_s, struct rctl_err *e);

#endif
