/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NVMe/TCP PDUs (NVM Express TCP Transport Specification 1.0, section 3.6;
 * the layouts of include/linux/nvme-tcp.h): the 8-byte common header, ICReq
 * and ICResp (128 bytes), CapsuleCmd (72), CapsuleResp, C2HData, H2CData and
 * R2T (24 each), C2HTermReq, and the CRC32C of header and data digests. All
 * multi-byte fields are little-endian; pure code on the buffers given.
 */
#ifndef ROCECTL_NVMF_TCP_WIRE_H
#define ROCECTL_NVMF_TCP_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum rctl_tcp_pdu_type {
	RCTL_TCP_ICREQ = 0x00,
	RCTL_TCP_ICRESP = 0x01,
	RCTL_TCP_H2C_TERM = 0x02,
	RCTL_TCP_C2H_TERM = 0x03,
	RCTL_TCP_CMD = 0x04,
	RCTL_TCP_RSP = 0x05,
	RCTL_TCP_H2C_DATA = 0x06,
	RCTL_TCP_C2H_DATA = 0x07,
	RCTL_TCP_R2T = 0x09,
};

/* FLAGS of the common header */
#define RCTL_TCP_F_HDGST 0x01
#define RCTL_TCP_F_DDGST 0x02
#define RCTL_TCP_F_DATA_LAST 0x04
#define RCTL_TCP_F_DATA_SUCCESS 0x08
/* DGST of ICReq/ICResp */
#define RCTL_TCP_DGST_HDR 0x01
#define RCTL_TCP_DGST_DATA 0x02

#define RCTL_TCP_HDR_SIZE 8
#define RCTL_TCP_IC_SIZE 128
#define RCTL_TCP_CMD_HLEN 72		/* common header + SQE */
#define RCTL_TCP_RSP_HLEN 24		/* common header + CQE */
#define RCTL_TCP_DATA_HLEN 24		/* C2HData, H2CData, R2T */
#define RCTL_TCP_TERM_HLEN 24
#define RCTL_TCP_TERM_DATA_MAX 152	/* the offending header a C2HTermReq may carry */
#define RCTL_TCP_DIGEST 4
#define RCTL_TCP_ADMIN_CCSZ 8192	/* in-capsule data on the admin queue (Linux host) */
#define RCTL_TCP_MAXH2C_MIN 4096	/* MAXH2CDATA is at least this */

struct rctl_tcp_hdr {
	uint8_t type, flags, hlen, pdo;
	uint32_t plen;
};

void rctl_tcp_hdr_decode(const uint8_t b[RCTL_TCP_HDR_SIZE], struct rctl_tcp_hdr *h);

/*
 * Check a controller-to-host header against its type and the digests agreed
 * in ICReq/ICResp: the type is one the controller sends, HLEN is its size,
 * the HDGST/DDGST flags match, PDO and PLEN are consistent. For C2HData
 * *data_len is the data the PDU carries (PLEN - PDO - data digest); *hdr_len
 * is how many bytes to read before the data (PDO for C2HData, PLEN for
 * everything else). NULL when good, else a phrase saying what is wrong.
 */
const char *rctl_tcp_hdr_check(const struct rctl_tcp_hdr *h, bool hdgst, bool ddgst,
			       uint32_t *hdr_len, uint32_t *data_len);

/* ICReq: PFV 0, HPDA 0, MAXR2T 0 (one R2T per command), the digests asked for. */
void rctl_tcp_icreq_encode(uint8_t b[RCTL_TCP_IC_SIZE], bool hdgst, bool ddgst);

struct rctl_tcp_icresp {
	uint16_t pfv;
	uint8_t cpda;
	bool hdgst, ddgst;
	uint32_t maxh2cdata;
};

/* -EPROTO when the bytes are no ICResp of PFV 0 or MAXH2CDATA is below 4096. */
int rctl_tcp_icresp_decode(const uint8_t b[RCTL_TCP_IC_SIZE], struct rctl_tcp_icresp *r);

/* C2HData, H2CData and R2T after the common header. */
struct rctl_tcp_data {
	uint16_t cccid, ttag;
	uint32_t offset, length;
};

void rctl_tcp_data_decode(const uint8_t b[RCTL_TCP_DATA_HLEN], struct rctl_tcp_data *d);

/*
 * Bytes from the start of a PDU to its data: header, header digest, then
 * padding to the (pda + 1) dwords the receiver asked for.
 */
uint32_t rctl_tcp_pdo(uint8_t hlen, bool hdgst, uint8_t pda);

/*
 * The header of a CapsuleCmd (sqe filled by the caller at b + 8) or an
 * H2CData PDU (d at b + 8) carrying data_len bytes of data; the header
 * digest, when on, is written too. Returns the PDO (the padding bytes are
 * zeroed), the bytes to send before the data; PLEN covers data and digest.
 */
uint32_t rctl_tcp_cmd_encode(uint8_t *b, bool hdgst, bool ddgst, uint8_t cpda,
			     uint32_t data_len);
uint32_t rctl_tcp_h2c_encode(uint8_t *b, bool hdgst, bool ddgst, uint8_t cpda,
			     const struct rctl_tcp_data *d, bool last);
/* Header digest of a header of hlen bytes, written at b + hlen. */
void rctl_tcp_hdgst_put(uint8_t *b, uint8_t hlen);
/* True when the header digest at b + hlen matches. */
bool rctl_tcp_hdgst_ok(const uint8_t *b, uint8_t hlen);

/* C2HTermReq: the fatal error status; a phrase for it ("header digest error"). */
uint16_t rctl_tcp_term_fes(const uint8_t b[RCTL_TCP_TERM_HLEN]);
const char *rctl_tcp_fes_name(uint16_t fes);

/* "icresp", "c2h data" ...; "unknown" otherwise. */
const char *rctl_tcp_pdu_name(uint8_t type);

/*
 * CRC32C (Castagnoli, reflected 0x82F63B78) as NVMe/TCP digests use it:
 * rctl_crc32c(buf, len) is the finished value (initial ~0, final ~), stored
 * little-endian; the update form carries the raw state across pieces:
 * rctl_crc32c_update(0xffffffff, ...) ... then ~state.
 */
uint32_t rctl_crc32c_update(uint32_t state, const void *buf, size_t len);
uint32_t rctl_crc32c(const void *buf, size_t len);

#endif
