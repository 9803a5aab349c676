// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NVMe/TCP PDU encoders and decoders (see include/rocectl/nvmf_tcp_wire.h).
 * Offsets: NVM Express TCP Transport Specification 1.0, section 3.6;
 * include/linux/nvme-tcp.h (struct nvme_tcp_hdr, _icreq_pdu, _icresp_pdu,
 * _cmd_pdu, _rsp_pdu, _data_pdu, _r2t_pdu, _term_pdu).
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>

#include "rocectl/nvmf_le.h"
#include "rocectl/nvmf_tcp_wire.h"

/* ---- CRC32C ------------------------------------------------------------ */

static uint32_t crc_table[256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_table_init(void)
{
	uint32_t i, c;
	int k;

	for (i = 0; i < 256; i++) {
		for (c = i, k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0x82f63b78u : c >> 1;
		crc_table[i] = c;
	}
}

static uint32_t crc_sw(uint32_t c, const uint8_t *p, size_t n)
{
	pthread_once(&crc_once, crc_table_init);
	while (n--)
		c = crc_table[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c;
}

#if defined(__x86_64__)
/* SSE4.2's CRC32 instruction computes exactly this polynomial. */
__attribute__((target("sse4.2"))) static uint32_t crc_hw(uint32_t c, const uint8_t *p,
							 size_t n)
{
	uint64_t v, s = c;

	for (; n >= 8; n -= 8, p += 8) {
		memcpy(&v, p, 8);
		s = __builtin_ia32_crc32di(s, v);
	}
	c = (uint32_t)s;
	while (n--)
		c = __builtin_ia32_crc32qi(c, *p++);
	return c;
}

uint32_t rctl_crc32c_update(uint32_t state, const void *buf, size_t len)
{
	static int hw = -1;

	if (hw < 0)
		hw = __builtin_cpu_supports("sse4.2") ? 1 : 0;
	return hw ? crc_hw(state, buf, len) : crc_sw(state, buf, len);
}
#else
uint32_t rctl_crc32c_update(uint32_t state, const void *buf, size_t len)
{
	return crc_sw(state, buf, len);
}
#endif

uint32_t rctl_crc32c(const void *buf, size_t len)
{
	return ~rctl_crc32c_update(0xffffffffu, buf, len);
}

void rctl_tcp_hdgst_put(uint8_t *b, uint8_t hlen)
{
	rctl_le_put32(b + hlen, rctl_crc32c(b, hlen));
}

bool rctl_tcp_hdgst_ok(const uint8_t *b, uint8_t hlen)
{
	return rctl_le_get32(b + hlen) == rctl_crc32c(b, hlen);
}

/* ---- headers ----------------------------------------------------------- */

void rctl_tcp_hdr_decode(const uint8_t b[RCTL_TCP_HDR_SIZE], struct rctl_tcp_hdr *h)
{
	h->type = b[0];
	h->flags = b[1];
	h->hlen = b[2];
	h->pdo = b[3];
	h->plen = rctl_le_get32(b + 4);
}

static void hdr_put(uint8_t *b, uint8_t type, uint8_t flags, uint8_t hlen, uint8_t pdo,
		    uint32_t plen)
{
	b[0] = type;
	b[1] = flags;
	b[2] = hlen;
	b[3] = pdo;
	rctl_le_put32(b + 4, plen);
}

uint32_t rctl_tcp_pdo(uint8_t hlen, bool hdgst, uint8_t pda)
{
	uint32_t align = ((uint32_t)pda + 1) * 4, off = hlen + (hdgst ? RCTL_TCP_DIGEST : 0);

	return (off + align - 1) / align * align;
}

/* The header length of each type the controller sends; 0: not one it sends. */
static uint8_t c2h_hlen(uint8_t type)
{
	switch (type) {
	case RCTL_TCP_ICRESP:
		return RCTL_TCP_IC_SIZE;
	case RCTL_TCP_C2H_TERM:
		return RCTL_TCP_TERM_HLEN;
	case RCTL_TCP_RSP:
		return RCTL_TCP_RSP_HLEN;
	case RCTL_TCP_C2H_DATA:
	case RCTL_TCP_R2T:
		return RCTL_TCP_DATA_HLEN;
	}
	return 0;
}

static const char *data_check(const struct rctl_tcp_hdr *h, uint32_t hd, uint32_t dd,
			      uint32_t *hdr_len, uint32_t *data_len)
{
	if (h->pdo < h->hlen + hd)
		return "data offset inside the header";
	if (h->plen < (uint32_t)h->pdo + dd)
		return "length shorter than its data offset";
	if (h->plen - h->pdo - dd == 0)
		return "data PDU without data";
	if (!dd != !(h->flags & RCTL_TCP_F_DDGST))
		return "data digest flag differs from what was agreed";
	if ((h->flags & RCTL_TCP_F_DATA_SUCCESS) && !(h->flags & RCTL_TCP_F_DATA_LAST))
		return "SUCCESS without LAST_PDU";
	*hdr_len = h->pdo;
	*data_len = h->plen - h->pdo - dd;
	return NULL;
}

const char *rctl_tcp_hdr_check(const struct rctl_tcp_hdr *h, bool hdgst, bool ddgst,
			       uint32_t *hdr_len, uint32_t *data_len)
{
	uint8_t want = c2h_hlen(h->type);
	bool no_dgst = h->type == RCTL_TCP_ICRESP || h->type == RCTL_TCP_C2H_TERM;
	uint32_t hd = hdgst && !no_dgst ? RCTL_TCP_DIGEST : 0;

	*hdr_len = *data_len = 0;
	if (!want)
		return "not a PDU a controller sends";
	if (h->hlen != want)
		return "header length wrong for its type";
	if (!hd != !(h->flags & RCTL_TCP_F_HDGST))
		return "header digest flag differs from what was agreed";
	if (h->type == RCTL_TCP_C2H_DATA)
		return data_check(h, hd, ddgst ? RCTL_TCP_DIGEST : 0, hdr_len, data_len);
	if (h->type == RCTL_TCP_C2H_TERM) {
		if (h->plen < h->hlen || h->plen > RCTL_TCP_TERM_HLEN + RCTL_TCP_TERM_DATA_MAX)
			return "terminate request of a wrong length";
	} else if (h->plen != h->hlen + hd) {
		return "length differs from its header";
	}
	if (h->pdo)
		return "data offset on a PDU without data";
	*hdr_len = h->plen;
	return NULL;
}

/* ---- connection set-up -------------------------------------------------- */

void rctl_tcp_icreq_encode(uint8_t b[RCTL_TCP_IC_SIZE], bool hdgst, bool ddgst)
{
	memset(b, 0, RCTL_TCP_IC_SIZE);
	hdr_put(b, RCTL_TCP_ICREQ, 0, RCTL_TCP_IC_SIZE, 0, RCTL_TCP_IC_SIZE);
	rctl_le_put16(b + 8, 0);		/* PFV 1.0 */
	b[10] = 0;			/* HPDA: no alignment */
	b[11] = (hdgst ? RCTL_TCP_DGST_HDR : 0) | (ddgst ? RCTL_TCP_DGST_DATA : 0);
	rctl_le_put32(b + 12, 0);		/* MAXR2T, 0's based: one */
}

int rctl_tcp_icresp_decode(const uint8_t b[RCTL_TCP_IC_SIZE], struct rctl_tcp_icresp *r)
{
	struct rctl_tcp_hdr h;

	rctl_tcp_hdr_decode(b, &h);
	memset(r, 0, sizeof(*r));
	if (h.type != RCTL_TCP_ICRESP || h.hlen != RCTL_TCP_IC_SIZE ||
	    h.plen != RCTL_TCP_IC_SIZE)
		return -EPROTO;
	r->pfv = rctl_le_get16(b + 8);
	r->cpda = b[10];
	r->hdgst = b[11] & RCTL_TCP_DGST_HDR;
	r->ddgst = b[11] & RCTL_TCP_DGST_DATA;
	r->maxh2cdata = rctl_le_get32(b + 12);
	if (r->pfv != 0 || r->maxh2cdata < RCTL_TCP_MAXH2C_MIN || r->cpda > 31)
		return -EPROTO;
	return 0;
}

/* ---- capsules and data ---------------------------------------------------- */

static uint32_t data_pdu_put(uint8_t *b, uint8_t type, uint8_t flags, uint8_t hlen,
			     bool hdgst, bool ddgst, uint8_t pda, uint32_t data_len)
{
	uint32_t hd = hdgst ? RCTL_TCP_DIGEST : 0, pdo = 0, plen = hlen + hd;

	if (hdgst)
		flags |= RCTL_TCP_F_HDGST;
	if (data_len) {
		pdo = rctl_tcp_pdo(hlen, hdgst, pda);
		plen = pdo + data_len + (ddgst ? RCTL_TCP_DIGEST : 0);
		if (ddgst)
			flags |= RCTL_TCP_F_DDGST;
	}
	hdr_put(b, type, flags, hlen, (uint8_t)pdo, plen);
	if (hdgst)
		rctl_tcp_hdgst_put(b, hlen);
	if (pdo > hlen + hd)
		memset(b + hlen + hd, 0, pdo - hlen - hd);
	return pdo ? pdo : hlen + hd;
}

uint32_t rctl_tcp_cmd_encode(uint8_t *b, bool hdgst, bool ddgst, uint8_t cpda,
			     uint32_t data_len)
{
	return data_pdu_put(b, RCTL_TCP_CMD, 0, RCTL_TCP_CMD_HLEN, hdgst, ddgst, cpda,
			    data_len);
}

uint32_t rctl_tcp_h2c_encode(uint8_t *b, bool hdgst, bool ddgst, uint8_t cpda,
			     const struct rctl_tcp_data *d, bool last)
{
	rctl_le_put16(b + 8, d->cccid);
	rctl_le_put16(b + 10, d->ttag);
	rctl_le_put32(b + 12, d->offset);
	rctl_le_put32(b + 16, d->length);
	rctl_le_put32(b + 20, 0);
	return data_pdu_put(b, RCTL_TCP_H2C_DATA, last ? RCTL_TCP_F_DATA_LAST : 0,
			    RCTL_TCP_DATA_HLEN, hdgst, ddgst, cpda, d->length);
}

void rctl_tcp_data_decode(const uint8_t b[RCTL_TCP_DATA_HLEN], struct rctl_tcp_data *d)
{
	d->cccid = rctl_le_get16(b + 8);
	d->ttag = rctl_le_get16(b + 10);
	d->offset = rctl_le_get32(b + 12);
	d->length = rctl_le_get32(b + 16);
}

uint16_t rctl_tcp_term_fes(const uint8_t b[RCTL_TCP_TERM_HLEN])
{
	return rctl_le_get16(b + 8);
}

const char *rctl_tcp_fes_name(uint16_t fes)
{
	static const char *const names[] = {
		[0x01] = "invalid PDU header field",
		[0x02] = "PDU sequence error",
		[0x03] = "header digest error",
		[0x04] = "data transfer out of range",
		[0x05] = "R2T or data transfer limit exceeded",
		[0x06] = "unsupported parameter",
	};

	return fes < sizeof(names) / sizeof(names[0]) && names[fes] ? names[fes] :
	       "unknown fatal error";
}

const char *rctl_tcp_pdu_name(uint8_t type)
{
	static const char *const names[] = {
		[RCTL_TCP_ICREQ] = "icreq", [RCTL_TCP_ICRESP] = "icresp",
		[RCTL_TCP_H2C_TERM] = "h2c term", [RCTL_TCP_C2H_TERM] = "c2h term",
		[RCTL_TCP_CMD] = "capsule cmd", [RCTL_TCP_RSP] = "capsule resp",
		[RCTL_TCP_H2C_DATA] = "h2c data", [RCTL_TCP_C2H_DATA] = "c2h data",
		[RCTL_TCP_R2T] = "r2t",
	};

	return type < sizeof(names) / sizeof(names[0]) && names[type] ? names[type] :
	       "unknown";
}
