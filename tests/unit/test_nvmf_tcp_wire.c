// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NVMe/TCP PDUs against byte-exact vectors written from the NVM Express TCP
 * Transport Specification 1.0 (section 3.6) and include/linux/nvme-tcp.h:
 * ICReq/ICResp 128 bytes (PFV at 8, HPDA/CPDA at 10, DGST at 11, MAXR2T /
 * MAXH2CDATA at 12), CapsuleCmd HLEN 72, CapsuleResp/C2HData/H2CData/R2T
 * HLEN 24 (CCCID at 8, TTAG at 10, offset at 12, length at 16), the transport
 * SGL (type 0x5A), and CRC32C digests (RFC 3720's check value).
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

#include "rocectl/nvmf_tcp_wire.h"
#include "rocectl/nvmf_wire.h"

static void test_crc32c(void **state)
{
	static const uint8_t zeros[32], ones[32] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	};
	uint32_t st;

	assert_int_equal(rctl_crc32c("123456789", 9), 0xe3069283);
	/* RFC 3720 B.4: 32 bytes of zeros, of ones */
	assert_int_equal(rctl_crc32c(zeros, 32), 0x8a9136aa);
	assert_int_equal(rctl_crc32c(ones, 32), 0x62a8ab43);
	/* in pieces, as C2HData arrives */
	st = rctl_crc32c_update(0xffffffff, "1234", 4);
	st = rctl_crc32c_update(st, "56789", 5);
	assert_int_equal(~st, 0xe3069283);
}

static void test_icreq(void **state)
{
	uint8_t b[RCTL_TCP_IC_SIZE], want[RCTL_TCP_IC_SIZE] = {
		0x00, 0x00, 0x80, 0x00, 0x80, 0x00, 0x00, 0x00,	/* type 0, hlen 128, plen 128 */
		0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00,	/* pfv 0, hpda 0, both digests, maxr2t 0 */
	};

	memset(b, 0xee, sizeof(b));
	rctl_tcp_icreq_encode(b, true, true);
	assert_memory_equal(b, want, sizeof(want));
	rctl_tcp_icreq_encode(b, false, true);
	assert_int_equal(b[11], RCTL_TCP_DGST_DATA);
	rctl_tcp_icreq_encode(b, true, false);
	assert_int_equal(b[11], RCTL_TCP_DGST_HDR);
}

static void icresp_bytes(uint8_t b[RCTL_TCP_IC_SIZE])
{
	memset(b, 0, RCTL_TCP_IC_SIZE);
	b[0] = 0x01;
	b[2] = 0x80;
	b[4] = 0x80;
	b[10] = 3;			/* cpda: 16-byte alignment */
	b[11] = RCTL_TCP_DGST_HDR;
	b[12] = 0xff;			/* maxh2cdata 0xffff, as nvmet on 6.1 */
	b[13] = 0xff;
}

static void test_icresp(void **state)
{
	struct rctl_tcp_icresp r;
	uint8_t b[RCTL_TCP_IC_SIZE];

	icresp_bytes(b);
	assert_int_equal(rctl_tcp_icresp_decode(b, &r), 0);
	assert_int_equal(r.pfv, 0);
	assert_int_equal(r.cpda, 3);
	assert_true(r.hdgst);
	assert_false(r.ddgst);
	assert_int_equal(r.maxh2cdata, 0xffff);
	b[12] = 0xff, b[13] = 0x0f;	/* 4095: below the specification's minimum */
	assert_int_equal(rctl_tcp_icresp_decode(b, &r), -EPROTO);
	icresp_bytes(b);
	b[8] = 1;			/* PFV 1 */
	assert_int_equal(rctl_tcp_icresp_decode(b, &r), -EPROTO);
	icresp_bytes(b);
	b[0] = RCTL_TCP_ICREQ;
	assert_int_equal(rctl_tcp_icresp_decode(b, &r), -EPROTO);
	icresp_bytes(b);
	b[4] = 0x7f;			/* plen != 128 */
	assert_int_equal(rctl_tcp_icresp_decode(b, &r), -EPROTO);
}

static void test_pdo(void **state)
{
	assert_int_equal(rctl_tcp_pdo(72, false, 0), 72);
	assert_int_equal(rctl_tcp_pdo(72, true, 0), 76);
	assert_int_equal(rctl_tcp_pdo(72, false, 3), 80);	/* 16-byte aligned */
	assert_int_equal(rctl_tcp_pdo(24, true, 7), 32);
}

static void test_capsule_cmd(void **state)
{
	struct rctl_nvme_cmd c;
	uint8_t b[512];
	uint32_t pdo;

	memset(b, 0xee, sizeof(b));
	rctl_nvme_rw_cmd(&c, true, 1, 0x10, 8);
	c.cid = 0x1234;
	c.sgl = (struct rctl_sgl){ .kind = RCTL_SGL_OFFSET, .len = 4096 };
	rctl_nvme_sqe_encode(b + 8, &c);
	pdo = rctl_tcp_cmd_encode(b, false, false, 0, 4096);
	assert_int_equal(pdo, 72);
	assert_int_equal(b[0], RCTL_TCP_CMD);
	assert_int_equal(b[1], 0);
	assert_int_equal(b[2], 72);
	assert_int_equal(b[3], 72);			/* pdo */
	assert_int_equal(b[4] | b[5] << 8 | b[6] << 16, 72 + 4096);
	assert_int_equal(b[8], 0x01);			/* the SQE follows: opcode write */
	assert_int_equal(b[8 + 39], 0x01);		/* in-capsule: data block, offset */
	/* with both digests: HDGST after the header, PDO past it, DDGST in PLEN */
	pdo = rctl_tcp_cmd_encode(b, true, true, 0, 4096);
	assert_int_equal(pdo, 76);
	assert_int_equal(b[1], RCTL_TCP_F_HDGST | RCTL_TCP_F_DDGST);
	assert_int_equal(b[3], 76);
	assert_int_equal(b[4] | b[5] << 8 | b[6] << 16, 76 + 4096 + 4);
	assert_true(rctl_tcp_hdgst_ok(b, 72));
	b[20] ^= 1;
	assert_false(rctl_tcp_hdgst_ok(b, 72));
	/* no data: no PDO, no DDGST flag, PLEN = header (+ digest) */
	pdo = rctl_tcp_cmd_encode(b, true, true, 0, 0);
	assert_int_equal(pdo, 76);
	assert_int_equal(b[1], RCTL_TCP_F_HDGST);
	assert_int_equal(b[3], 0);
	assert_int_equal(b[4], 76);
	/* CPDA 3: padding zeroed up to 16-byte alignment */
	memset(b + 72, 0xee, 16);
	pdo = rctl_tcp_cmd_encode(b, false, false, 3, 512);
	assert_int_equal(pdo, 80);
	assert_int_equal(b[3], 80);
	assert_int_equal(b[72] | b[79], 0);
}

static void test_sgl_transport(void **state)
{
	const struct rctl_sgl s = { .kind = RCTL_SGL_TRANSPORT, .len = 0x20000 };
	static const uint8_t want[16] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x00, 0x02, 0x00, 0, 0, 0, 0x5a,
	};
	uint8_t d[16];

	rctl_sgl_encode(d, &s);
	assert_memory_equal(d, want, 16);
}

static void test_h2c(void **state)
{
	const struct rctl_tcp_data d = { .cccid = 0x0203, .ttag = 0x0405, .offset = 0xffff,
					 .length = 0x10001 };
	static const uint8_t want[24] = {
		0x06, 0x04, 0x18, 0x18, 0x19, 0x00, 0x01, 0x00,	/* last, pdo 24, plen 24 + 65537 */
		0x03, 0x02, 0x05, 0x04, 0xff, 0xff, 0x00, 0x00,
		0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
	};
	struct rctl_tcp_data back;
	uint8_t b[64];

	memset(b, 0xee, sizeof(b));
	assert_int_equal(rctl_tcp_h2c_encode(b, false, false, 0, &d, true), 24);
	assert_memory_equal(b, want, 24);
	rctl_tcp_data_decode(b, &back);
	assert_memory_equal(&back, &d, sizeof(d));
	assert_int_equal(rctl_tcp_h2c_encode(b, false, false, 0, &d, false), 24);
	assert_int_equal(b[1], 0);
}

static void hdr(uint8_t *b, uint8_t type, uint8_t flags, uint8_t hlen, uint8_t pdo,
		uint32_t plen)
{
	b[0] = type, b[1] = flags, b[2] = hlen, b[3] = pdo;
	b[4] = (uint8_t)plen, b[5] = (uint8_t)(plen >> 8);
	b[6] = (uint8_t)(plen >> 16), b[7] = (uint8_t)(plen >> 24);
}

static const char *check(uint8_t type, uint8_t flags, uint8_t hlen, uint8_t pdo,
			 uint32_t plen, bool hd, bool dd, uint32_t *hl, uint32_t *dl)
{
	struct rctl_tcp_hdr h;
	uint8_t b[8];

	hdr(b, type, flags, hlen, pdo, plen);
	rctl_tcp_hdr_decode(b, &h);
	return rctl_tcp_hdr_check(&h, hd, dd, hl, dl);
}

static void test_hdr_check(void **state)
{
	uint32_t hl, dl;

	/* CapsuleResp as nvmet sends it: hlen 24, pdo 0, plen 24 (+4 with HDGST) */
	assert_null(check(RCTL_TCP_RSP, 0, 24, 0, 24, false, false, &hl, &dl));
	assert_int_equal(hl, 24);
	assert_null(check(RCTL_TCP_RSP, RCTL_TCP_F_HDGST, 24, 0, 28, true, false, &hl, &dl));
	assert_int_equal(hl, 28);
	assert_non_null(check(RCTL_TCP_RSP, 0, 24, 0, 28, true, false, &hl, &dl));
	assert_non_null(check(RCTL_TCP_RSP, 0, 72, 0, 72, false, false, &hl, &dl));
	/* C2HData: data after PDO, data digest after the data */
	assert_null(check(RCTL_TCP_C2H_DATA, RCTL_TCP_F_DATA_LAST, 24, 24, 24 + 4096, false,
			  false, &hl, &dl));
	assert_int_equal(hl, 24);
	assert_int_equal(dl, 4096);
	assert_null(check(RCTL_TCP_C2H_DATA, RCTL_TCP_F_HDGST | RCTL_TCP_F_DDGST |
			  RCTL_TCP_F_DATA_LAST | RCTL_TCP_F_DATA_SUCCESS, 24, 28, 28 + 512 + 4,
			  true, true, &hl, &dl));
	assert_int_equal(hl, 28);
	assert_int_equal(dl, 512);
	/* SUCCESS without LAST_PDU, PDO inside the header, no data, digest disagreement */
	assert_non_null(check(RCTL_TCP_C2H_DATA, RCTL_TCP_F_DATA_SUCCESS, 24, 24, 100, false,
			      false, &hl, &dl));
	assert_non_null(check(RCTL_TCP_C2H_DATA, 0, 24, 20, 100, false, false, &hl, &dl));
	assert_non_null(check(RCTL_TCP_C2H_DATA, 0, 24, 24, 24, false, false, &hl, &dl));
	assert_non_null(check(RCTL_TCP_C2H_DATA, RCTL_TCP_F_HDGST, 24, 28, 128, false, false,
			      &hl, &dl));
	assert_non_null(check(RCTL_TCP_C2H_DATA, 0, 24, 24, 128, false, true, &hl, &dl));
	/* R2T: header only */
	assert_null(check(RCTL_TCP_R2T, 0, 24, 0, 24, false, false, &hl, &dl));
	assert_non_null(check(RCTL_TCP_R2T, 0, 24, 24, 24, false, false, &hl, &dl));
	/* C2HTermReq carries no digest, may carry the offending header */
	assert_null(check(RCTL_TCP_C2H_TERM, 0, 24, 0, 24 + 72, true, true, &hl, &dl));
	assert_int_equal(hl, 96);
	assert_non_null(check(RCTL_TCP_C2H_TERM, 0, 24, 0, 1000, false, false, &hl, &dl));
	/* what only a host sends, or no type at all */
	assert_non_null(check(RCTL_TCP_CMD, 0, 72, 0, 72, false, false, &hl, &dl));
	assert_non_null(check(RCTL_TCP_H2C_DATA, 0, 24, 24, 64, false, false, &hl, &dl));
	assert_non_null(check(0x08, 0, 24, 0, 24, false, false, &hl, &dl));
}

static void test_term(void **state)
{
	uint8_t b[24] = { RCTL_TCP_C2H_TERM, 0, 24, 0, 24, 0, 0, 0, 0x03, 0x00 };

	assert_int_equal(rctl_tcp_term_fes(b), 3);
	assert_string_equal(rctl_tcp_fes_name(3), "header digest error");
	assert_string_equal(rctl_tcp_fes_name(0x99), "unknown fatal error");
	assert_string_equal(rctl_tcp_pdu_name(RCTL_TCP_R2T), "r2t");
	assert_string_equal(rctl_tcp_pdu_name(0x08), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc32c),
		cmocka_unit_test(test_icreq),
		cmocka_unit_test(test_icresp),
		cmocka_unit_test(test_pdo),
		cmocka_unit_test(test_capsule_cmd),
		cmocka_unit_test(test_sgl_transport),
		cmocka_unit_test(test_h2c),
		cmocka_unit_test(test_hdr_check),
		cmocka_unit_test(test_term),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
