// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NVMe-oF RDMA wire formats against byte-exact vectors written from the
 * layouts of Linux include/linux/nvme.h and include/linux/nvme-rdma.h
 * (offsets, widths, little-endian).
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

#include "rocectl/err.h"
#include "rocectl/nvmf_wire.h"

static void test_cc(void **state)
{
	assert_int_equal(rctl_nvme_cc(true, 0, 0), 0x00460001);
	assert_int_equal(rctl_nvme_cc(true, 0, 1), 0x00464001);	/* SHN normal */
	assert_int_equal(rctl_nvme_cc(false, 6, 0), 0x00460060);
}

static void test_sgl_keyed(void **state)
{
	const struct rctl_sgl s = { .kind = RCTL_SGL_KEYED,
				    .addr = 0x1122334455667788ull,
				    .len = 0xabcdef, .key = 0xdeadbeef };
	static const uint8_t want[16] = {
		0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
		0xef, 0xcd, 0xab, 0xef, 0xbe, 0xad, 0xde, 0x40,
	};
	uint8_t d[16];

	rctl_sgl_encode(d, &s);
	assert_memory_equal(d, want, 16);
}

static void test_sgl_null_and_offset(void **state)
{
	const struct rctl_sgl null = { 0 };
	const struct rctl_sgl off = { .kind = RCTL_SGL_OFFSET, .addr = 0, .len = 4096 };
	static const uint8_t want_null[16] = { [15] = 0x40 };
	static const uint8_t want_off[16] = { [8] = 0x00, [9] = 0x10, [15] = 0x01 };
	uint8_t d[16];

	rctl_sgl_encode(d, &null);
	assert_memory_equal(d, want_null, 16);
	rctl_sgl_encode(d, &off);
	assert_memory_equal(d, want_off, 16);
}

/* Admin Connect: opc 7F, flags 40, CID, FCTYPE 01, keyed SGL of 1024, SQSIZE 31, KATO. */
static void test_connect_admin(void **state)
{
	static const uint8_t want[64] = {
		[0] = 0x7f, [1] = 0x40, [2] = 0x34, [3] = 0x12, [4] = 0x01,
		[24] = 0x00, [25] = 0x10, [26] = 0, [27] = 0, [28] = 0, [29] = 0,
		[30] = 0, [31] = 0,
		[32] = 0x00, [33] = 0x04, [34] = 0x00,		/* len 1024 */
		[35] = 0x78, [36] = 0x56, [37] = 0x34, [38] = 0x12,	/* rkey */
		[39] = 0x40,
		[40] = 0, [41] = 0, [42] = 0, [43] = 0,		/* recfmt 0, qid 0 */
		[44] = 0x1f, [45] = 0x00, [46] = 0x00,		/* sqsize 31, cattr */
		[48] = 0x88, [49] = 0x13,			/* kato 5000 ms */
	};
	struct rctl_nvme_cmd c;
	uint8_t sqe[64];

	rctl_nvmf_connect_cmd(&c, 0, 31, 5000);
	c.cid = 0x1234;
	c.sgl = (struct rctl_sgl){ .kind = RCTL_SGL_KEYED, .addr = 0x1000,
				   .len = 1024, .key = 0x12345678 };
	rctl_nvme_sqe_encode(sqe, &c);
	assert_memory_equal(sqe, want, 64);
}

static void test_connect_io_qid(void **state)
{
	struct rctl_nvme_cmd c;
	uint8_t sqe[64];

	rctl_nvmf_connect_cmd(&c, 3, 16, 0);
	rctl_nvme_sqe_encode(sqe, &c);
	assert_int_equal(sqe[42], 3);
	assert_int_equal(sqe[43], 0);
	assert_int_equal(sqe[44], 16);
	assert_int_equal(sqe[48], 0);
	/* bytes 5..23 reserved for Fabrics, nsid must not leak in */
	for (int i = 5; i < 24; i++)
		assert_int_equal(sqe[i], 0);
}

static void test_connect_data(void **state)
{
	static const uint8_t hostid[16] = { 1, 2, 3, 4, 5, 6, 7, 8,
					    9, 10, 11, 12, 13, 14, 15, 16 };
	uint8_t d[1024];
	char longnqn[300];

	assert_int_equal(rctl_nvmf_connect_data(d, hostid, 0xffff,
						"nqn.2014-08.org.rocectl:lab",
						"nqn.2014-08.org.nvmexpress:uuid:x"), 0);
	assert_memory_equal(d, hostid, 16);
	assert_int_equal(d[16], 0xff);
	assert_int_equal(d[17], 0xff);
	assert_string_equal((char *)d + 256, "nqn.2014-08.org.rocectl:lab");
	assert_string_equal((char *)d + 512, "nqn.2014-08.org.nvmexpress:uuid:x");
	assert_int_equal(d[18], 0);
	assert_int_equal(d[1023], 0);
	memset(longnqn, 'a', 224);
	longnqn[224] = '\0';
	assert_int_equal(rctl_nvmf_connect_data(d, hostid, 1, longnqn, "h"), -EINVAL);
	longnqn[223] = '\0';
	assert_int_equal(rctl_nvmf_connect_data(d, hostid, 1, longnqn, "h"), 0);
	assert_int_equal(rctl_nvmf_connect_data(d, hostid, 1, "", "h"), -EINVAL);
}

static void test_property(void **state)
{
	struct rctl_nvme_cmd c;
	uint8_t sqe[64];

	rctl_nvmf_prop_get_cmd(&c, RCTL_NVME_REG_CAP, true);
	rctl_nvme_sqe_encode(sqe, &c);
	assert_int_equal(sqe[0], 0x7f);
	assert_int_equal(sqe[1], 0x40);
	assert_int_equal(sqe[4], 0x04);
	assert_int_equal(sqe[40], 1);		/* ATTRIB: 8 bytes */
	assert_int_equal(sqe[44], 0x00);
	assert_int_equal(sqe[39], 0x40);	/* null keyed SGL */

	rctl_nvmf_prop_get_cmd(&c, RCTL_NVME_REG_CSTS, false);
	rctl_nvme_sqe_encode(sqe, &c);
	assert_int_equal(sqe[40], 0);
	assert_int_equal(sqe[44], 0x1c);

	rctl_nvmf_prop_set_cmd(&c, RCTL_NVME_REG_CC, rctl_nvme_cc(true, 0, 0));
	rctl_nvme_sqe_encode(sqe, &c);
	static const uint8_t want[] = { 0x01, 0x00, 0x46, 0x00 };
	assert_int_equal(sqe[4], 0x00);
	assert_int_equal(sqe[40], 0);
	assert_int_equal(sqe[44], 0x14);
	assert_memory_equal(sqe + 48, want, 4);
	assert_int_equal(sqe[52], 0);
}

static void test_admin_cmds(void **state)
{
	struct rctl_nvme_cmd c;
	uint8_t sqe[64];

	rctl_nvme_identify_cmd(&c, 0x01, 0);
	rctl_nvme_sqe_encode(sqe, &c);
	assert_int_equal(sqe[0], 0x06);
	assert_int_equal(sqe[40], 0x01);

	rctl_nvme_identify_cmd(&c, 0x00, 7);
	rctl_nvme_sqe_encode(sqe, &c);
	assert_int_equal(sqe[4], 7);
	assert_int_equal(sqe[40], 0x00);

	rctl_nvme_set_nq_cmd(&c, 4, 4);
	rctl_nvme_sqe_encode(sqe, &c);
	static const uint8_t nq[] = { 0x07, 0, 0, 0, 0x03, 0x00, 0x03, 0x00 };
	assert_int_equal(sqe[0], 0x09);
	assert_memory_equal(sqe + 40, nq, 8);

	/* 3072 bytes = 768 dwords, NUMD 767 = 0x2ff in NUMDL */
	rctl_nvme_get_log_cmd(&c, 0x70, 3072, 0);
	rctl_nvme_sqe_encode(sqe, &c);
	static const uint8_t gl[] = { 0x70, 0x00, 0xff, 0x02, 0, 0, 0, 0 };
	assert_int_equal(sqe[0], 0x02);
	assert_memory_equal(sqe + 40, gl, 8);

	rctl_nvme_keep_alive_cmd(&c);
	rctl_nvme_sqe_encode(sqe, &c);
	assert_int_equal(sqe[0], 0x18);
	assert_int_equal(sqe[1], 0x40);
}

static void test_rw(void **state)
{
	struct rctl_nvme_cmd c;
	uint8_t sqe[64];
	static const uint8_t want[] = {
		0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,	/* SLBA */
		0x07, 0x00, 0x00, 0x00,				/* NLB 8 -> 7 */
	};

	rctl_nvme_rw_cmd(&c, false, 1, 0x0102030405060708ull, 8);
	c.cid = 0xa005;
	rctl_nvme_sqe_encode(sqe, &c);
	assert_int_equal(sqe[0], 0x02);
	assert_int_equal(sqe[2], 0x05);
	assert_int_equal(sqe[3], 0xa0);
	assert_int_equal(sqe[4], 1);
	assert_memory_equal(sqe + 40, want, sizeof(want));
	rctl_nvme_rw_cmd(&c, true, 1, 0, 1);
	rctl_nvme_sqe_encode(sqe, &c);
	assert_int_equal(sqe[0], 0x01);
	assert_int_equal(sqe[48], 0);
}

static void test_cqe(void **state)
{
	/* Connect Invalid Parameters + DNR, IATTR data, IPO 256 (subnqn). */
	static const uint8_t raw[16] = {
		0x00, 0x01, 0x01, 0x00, 0, 0, 0, 0,
		0x05, 0x00, 0x00, 0x00, 0x07, 0x20, 0x04, 0x83,
	};
	struct rctl_nvme_cqe c;
	uint8_t back[16];
	char buf[160];

	rctl_nvme_cqe_decode(raw, &c);
	assert_int_equal(c.dw0, 0x00010100);
	assert_int_equal(c.sqhd, 5);
	assert_int_equal(c.sqid, 0);
	assert_int_equal(c.cid, 0x2007);
	assert_int_equal(c.status, 0x4182);
	assert_int_equal(RCTL_NVME_SCT(c.status), 1);
	assert_int_equal(RCTL_NVME_SC(c.status), 0x82);
	assert_int_equal(RCTL_NVME_DNR(c.status), 1);
	rctl_nvme_status_str(buf, sizeof(buf), c.status, c.dw0, true);
	assert_string_equal(buf, "connect invalid parameters (sct 0x1 sc 0x82 dnr; "
				 "connect data byte 256: subnqn)");
	rctl_nvme_cqe_encode(back, &c);
	back[14] |= raw[14] & 1;	/* the phase bit is not kept */
	assert_memory_equal(back, raw, 16);

	rctl_nvme_status_str(buf, sizeof(buf), 0x4182, 44, true);
	assert_string_equal(buf, "connect invalid parameters (sct 0x1 sc 0x82 dnr; "
				 "command byte 44: sqsize)");
	rctl_nvme_status_str(buf, sizeof(buf), 0x400b, 0, false);
	assert_string_equal(buf, "invalid namespace or format (sct 0 sc 0xb dnr)");
	assert_string_equal(rctl_nvme_status_name(0x184), "invalid host");
	assert_null(rctl_nvme_status_name(0x1ff));
	rctl_nvme_status_str(buf, sizeof(buf), 0x1ff, 0, false);
	assert_string_equal(buf, "unknown status (sct 0x1 sc 0xff)");
}

static void test_cm_private_data(void **state)
{
	static const uint8_t want[32] = { 0, 0, 0x02, 0, 0x11, 0, 0x10, 0, 0x05, 0 };
	static const uint8_t rep[32] = { 0, 0, 0x80, 0 };
	static const uint8_t rej[4] = { 0, 0, 0x04, 0 };
	static const uint8_t badfmt[4] = { 1, 0, 0x04, 0 };
	uint8_t pd[32];
	uint16_t v;

	rctl_nvmf_cm_req(pd, 2, 17, 16, 5);
	assert_memory_equal(pd, want, 32);
	assert_int_equal(rctl_nvmf_cm_rep(rep, sizeof(rep), &v), 0);
	assert_int_equal(v, 128);
	assert_int_equal(rctl_nvmf_cm_rej(rej, sizeof(rej), &v), 0);
	assert_int_equal(v, 4);
	assert_string_equal(rctl_nvmf_rej_name(v), "invalid host SQ size");
	assert_string_equal(rctl_nvmf_rej_name(9), "invalid controller ID");
	assert_null(rctl_nvmf_rej_name(0x42));
	assert_int_equal(rctl_nvmf_cm_rej(rej, 3, &v), -EINVAL);
	assert_int_equal(rctl_nvmf_cm_rej(badfmt, 4, &v), -EINVAL);
	assert_int_equal(rctl_nvmf_cm_rep(NULL, 0, &v), -EINVAL);
}

static void test_id_ctrl(void **state)
{
	static uint8_t p[4096];
	struct rctl_nvme_id_ctrl c;

	memset(p, 0, sizeof(p));
	p[77] = 8;
	p[78] = 0x01;
	p[80] = 0x00; p[81] = 0x03; p[82] = 0x01; p[83] = 0x00;	/* 1.3.0 */
	p[111] = 1;
	p[320] = 10;
	p[512] = 0x66;
	p[513] = 0x44;
	p[514] = 128;
	p[516] = 0x20;
	p[536] = 0x05; p[538] = 0x10;		/* SGLS bits 0, 2, 20 */
	memcpy(p + 768, "nqn.2014-08.org.rocectl:lab", 27);
	p[1792] = 0x04; p[1793] = 0x01;		/* IOCCSZ 260 */
	p[1796] = 1;
	p[1803] = 1;
	rctl_nvme_id_ctrl_decode(p, &c);
	assert_int_equal(c.mdts, 8);
	assert_int_equal(c.cntlid, 1);
	assert_int_equal(c.ver, 0x00010300);
	assert_int_equal(c.cntrltype, 1);
	assert_int_equal(c.kas, 10);
	assert_int_equal(c.sqes, 0x66);
	assert_int_equal(c.cqes, 0x44);
	assert_int_equal(c.maxcmd, 128);
	assert_int_equal(c.nn, 32);
	assert_true(c.sgls & RCTL_NVME_SGLS_KEYED);
	assert_true(c.sgls & RCTL_NVME_SGLS_SAOS);
	assert_string_equal(c.subnqn, "nqn.2014-08.org.rocectl:lab");
	assert_int_equal(c.ioccsz, 260);
	assert_int_equal(c.iorcsz, 1);
	assert_int_equal(c.msdbd, 1);
}

static void test_id_ns_and_list(void **state)
{
	static uint8_t p[4096];
	struct rctl_nvme_id_ns ns;
	uint32_t ids[8];

	memset(p, 0, sizeof(p));
	p[0] = 0x00; p[1] = 0x00; p[2] = 0x80; p[3] = 0x00;	/* 8 Mi blocks */
	p[25] = 1;
	p[26] = 0x01;				/* LBAF 1 in use */
	p[128 + 2] = 9;
	p[132 + 2] = 12;
	rctl_nvme_id_ns_decode(p, &ns);
	assert_int_equal(ns.nsze, 0x800000);
	assert_int_equal(ns.nlbaf, 1);
	assert_int_equal(ns.lbads, 12);

	memset(p, 0, sizeof(p));
	rctl_nvme_id_ns_decode(p, &ns);		/* inactive nsid: all zero */
	assert_int_equal(ns.nsze, 0);

	p[0] = 1;
	p[4] = 7;
	p[8] = 0;
	assert_int_equal(rctl_nvme_ns_list_decode(p, ids, 8), 2);
	assert_int_equal(ids[0], 1);
	assert_int_equal(ids[1], 7);
	assert_int_equal(rctl_nvme_ns_list_decode(p, ids, 1), 1);
}

static void test_nq_decode(void **state)
{
	uint32_t nsq, ncq;

	rctl_nvme_nq_decode(0x007f007f, &nsq, &ncq);	/* nvmet max_qid 128 */
	assert_int_equal(nsq, 128);
	assert_int_equal(ncq, 128);
	rctl_nvme_nq_decode(0x00030001, &nsq, &ncq);
	assert_int_equal(nsq, 2);
	assert_int_equal(ncq, 4);
	rctl_nvme_nq_decode(0xffffffff, &nsq, &ncq);	/* no 16-bit wrap to 0 */
	assert_int_equal(nsq, 65536);
	assert_int_equal(ncq, 65536);
	/* granted: never more than asked, never 0 */
	assert_int_equal(rctl_nvme_nq_granted(0x007f007f, 4), 4);
	assert_int_equal(rctl_nvme_nq_granted(0x00030001, 4), 2);
	assert_int_equal(rctl_nvme_nq_granted(0xffffffff, 4), 4);
	assert_int_equal(rctl_nvme_nq_granted(0xffffffff, 65535), 65535);
	assert_int_equal(rctl_nvme_nq_granted(0, 8), 1);
}

static void test_discovery(void **state)
{
	static uint8_t hdr[1024], e[1024];
	struct rctl_nvmf_disc_hdr h;
	struct rctl_nvmf_disc_entry d;

	memset(hdr, 0, sizeof(hdr));
	hdr[0] = 3;
	hdr[8] = 2;
	rctl_nvmf_disc_hdr_decode(hdr, &h);
	assert_int_equal(h.genctr, 3);
	assert_int_equal(h.numrec, 2);
	assert_int_equal(h.recfmt, 0);

	memset(e, 0, sizeof(e));
	e[0] = 1; e[1] = 1; e[2] = 2; e[3] = 4;
	e[4] = 1;
	e[6] = 0xff; e[7] = 0xff;
	e[8] = 0x20;
	memcpy(e + 32, "4420", 4);
	memset(e + 36, ' ', 28);		/* space padded, as in the spec */
	memcpy(e + 256, "nqn.2014-08.org.rocectl:lab", 27);
	memcpy(e + 512, "10.0.0.2", 8);
	e[768] = 1; e[769] = 1; e[770] = 1;
	e[776] = 0xff; e[777] = 0xff;
	rctl_nvmf_disc_entry_decode(e, &d);
	assert_int_equal(d.trtype, 1);
	assert_string_equal(rctl_nvmf_trtype_name(d.trtype), "rdma");
	assert_string_equal(rctl_nvmf_adrfam_name(d.adrfam), "ipv4");
	assert_string_equal(rctl_nvmf_subtype_name(d.subtype), "nvm");
	assert_string_equal(rctl_nvmf_subtype_name(3), "current discovery");
	assert_string_equal(rctl_nvmf_subtype_name(9), "unknown");
	assert_int_equal(d.portid, 1);
	assert_int_equal(d.cntlid, 0xffff);
	assert_int_equal(d.asqsz, 32);
	assert_string_equal(d.trsvcid, "4420");
	assert_string_equal(d.subnqn, "nqn.2014-08.org.rocectl:lab");
	assert_string_equal(d.traddr, "10.0.0.2");
	assert_int_equal(d.cms, 1);
	assert_int_equal(d.pkey, 0xffff);
}

/* Slot bits as the queue needs, the generation the rest; a stale generation never matches. */
static void test_cid(void **state)
{
	unsigned int bits = rctl_nvme_cid_bits(32), b;
	uint16_t gen = 0, cid;
	uint32_t i;

	assert_int_equal(bits, 5);
	assert_int_equal(rctl_nvme_cid_bits(2), 1);
	assert_int_equal(rctl_nvme_cid_bits(1024), 10);
	assert_int_equal(rctl_nvme_cid_bits(4096), 12);
	assert_int_equal(rctl_nvme_cid(5, 0xa, 12), 0xa005);
	assert_int_equal(rctl_nvme_cid(31, 0x7ff, bits), 0xffff);
	cid = rctl_nvme_cid(17, 1000, bits);
	assert_int_equal(rctl_nvme_cid_slot(cid, bits), 17);
	assert_int_equal(rctl_nvme_cid_gen(cid, bits), 1000);
	/* a slot's generation comes back only after 2^11 commands at 32 slots (was 16) */
	for (i = 1; i < 2048; i++) {
		gen = rctl_nvme_gen_next(gen, bits);
		assert_int_not_equal(gen, 0);
	}
	assert_int_equal(rctl_nvme_gen_next(gen, bits), 0);
	for (b = 1; b <= 12; b++)
		assert_int_equal(rctl_nvme_gen_next((uint16_t)((1u << (16 - b)) - 1), b), 0);
}

/* A SEND shorter than a CQE is refused, never decoded from the buffer's old bytes. */
static void test_short_send(void **state)
{
	uint8_t buf[RCTL_NVME_CQE_SIZE];
	struct rctl_nvme_cqe c = { .cid = 0x1234, .status = 0 }, got;
	uint32_t len;

	rctl_nvme_cqe_encode(buf, &c);
	for (len = 0; len < RCTL_NVME_CQE_SIZE; len++) {
		assert_int_equal(rctl_nvme_cqe_recv(buf, len, &got), -EPROTO);
		assert_int_equal(got.cid, 0);
	}
	assert_int_equal(rctl_nvme_cqe_recv(buf, RCTL_NVME_CQE_SIZE, &got), 0);
	assert_int_equal(got.cid, 0x1234);
	assert_int_equal(rctl_nvme_cqe_recv(buf, 64, &got), 0);
}

/* A discovery log in memory: numrec records, genctr bumped after "change_after" reads. */
struct fake_log {
	uint8_t log[1024 + 200 * 1024];
	uint8_t page[64 * 1024];
	uint64_t numrec;
	int reads, change_after, changes;
};

static void fake_header(struct fake_log *f, uint64_t genctr)
{
	int i;

	for (i = 0; i < 8; i++) {
		f->log[i] = (uint8_t)(genctr >> (8 * i));
		f->log[8 + i] = (uint8_t)(f->numrec >> (8 * i));
	}
}

static int fake_read(void *ctx, uint64_t off, uint32_t len, const uint8_t **page,
		     struct rctl_err *e)
{
	struct fake_log *f = ctx;

	assert_true(len <= sizeof(f->page));
	assert_true(off + len <= sizeof(f->log));
	assert_int_equal(off % 4, 0);
	if (f->change_after && ++f->reads % f->change_after == 0 && f->changes) {
		f->changes--;
		fake_header(f, f->log[0] + 1u);
	}
	memcpy(f->page, f->log + off, len);
	*page = f->page;
	return 0;
}

static void fake_init(struct fake_log *f, uint64_t numrec)
{
	uint64_t i;

	memset(f, 0, sizeof(*f));
	f->numrec = numrec;
	fake_header(f, 7);
	for (i = 0; i < numrec && i < 200; i++)
		snprintf((char *)f->log + 1024 + i * 1024 + 256, 256, "nqn.2014-08.org.rocectl:s%u",
			 (unsigned int)i);
}

static void test_discovery_pages(void **state)
{
	static struct fake_log f;
	struct rctl_nvmf_disc_entry *d;
	struct rctl_err e = { 0 };
	uint32_t n;

	/* 150 records (more than the 63 of one 64 KiB read), in pages of 64 */
	fake_init(&f, 150);
	assert_int_equal(rctl_nvmf_disc_read(fake_read, &f, 64 * 1024, &d, &n, &e), 0);
	assert_int_equal(n, 150);
	assert_string_equal(d[0].subnqn, "nqn.2014-08.org.rocectl:s0");
	assert_string_equal(d[63].subnqn, "nqn.2014-08.org.rocectl:s63");
	assert_string_equal(d[149].subnqn, "nqn.2014-08.org.rocectl:s149");
	free(d);
	/* genctr moves once while reading: read again, the second read stands */
	fake_init(&f, 100);
	f.change_after = 2;
	f.changes = 1;
	assert_int_equal(rctl_nvmf_disc_read(fake_read, &f, 64 * 1024, &d, &n, &e), 0);
	assert_int_equal(n, 100);
	assert_true(f.reads > 4);
	free(d);
	/* genctr moves on every read: refused after RCTL_NVMF_DISC_RETRIES */
	fake_init(&f, 10);
	f.change_after = 2;
	f.changes = 1000;
	assert_int_equal(rctl_nvmf_disc_read(fake_read, &f, 64 * 1024, &d, &n, &e), -EAGAIN);
	assert_null(d);
	assert_int_equal(n, 0);
	assert_string_equal(e.msg, "discovery log changed (genctr) in each of 10 reads");
	/* an empty log, and one that claims more records than are read */
	fake_init(&f, 0);
	assert_int_equal(rctl_nvmf_disc_read(fake_read, &f, 64 * 1024, &d, &n, &e), 0);
	assert_int_equal(n, 0);
	free(d);
	fake_init(&f, 1ull << 40);
	assert_int_equal(rctl_nvmf_disc_read(fake_read, &f, 64 * 1024, &d, &n, &e), -EPROTO);
	assert_string_equal(e.msg, "discovery log of 1099511627776 records: more than 16384");
}

/* Target-supplied LBADS, MDTS, IOCCSZ and CAP.TO: range-checked, no UB shift. */
static void test_limits(void **state)
{
	assert_int_equal(rctl_nvme_block_size(9), 512);
	assert_int_equal(rctl_nvme_block_size(12), 4096);
	assert_int_equal(rctl_nvme_block_size(16), 65536);
	assert_int_equal(rctl_nvme_block_size(8), 0);
	assert_int_equal(rctl_nvme_block_size(32), 0);	/* was 1u << 32 */
	assert_int_equal(rctl_nvme_block_size(255), 0);

	assert_true(rctl_nvme_mdts_bytes(0) == UINT64_MAX);
	assert_true(rctl_nvme_mdts_bytes(5) == 131072);
	assert_true(rctl_nvme_mdts_bytes(51) == 4096ull << 51);
	assert_true(rctl_nvme_mdts_bytes(52) == UINT64_MAX);	/* 2^64: no limit */
	assert_true(rctl_nvme_mdts_bytes(64) == UINT64_MAX);	/* was UB */
	assert_true(rctl_nvme_mdts_bytes(255) == UINT64_MAX);

	assert_int_equal(rctl_nvme_inline_max(0), 0);
	assert_int_equal(rctl_nvme_inline_max(4), 0);
	assert_int_equal(rctl_nvme_inline_max(260), 4096);	/* nvmet-rdma: 4 KiB */
	/* 0x10000000 * 16 wrapped to 0 in u32 arithmetic. */
	assert_int_equal(rctl_nvme_inline_max(0x10000000u), 0xffffffc0u);
	assert_int_equal(rctl_nvme_inline_max(UINT32_MAX), UINT32_MAX);

	assert_true(rctl_nvme_ready_ms(0, 0) == 500);
	assert_true(rctl_nvme_ready_ms(0xffull << 24, 0) == 128000);
	assert_true(rctl_nvme_ready_ms(0xffull << 24, 10000) == 10000);
	assert_true(rctl_nvme_ready_ms(1ull << 24, 10000) == 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cc),
		cmocka_unit_test(test_sgl_keyed),
		cmocka_unit_test(test_sgl_null_and_offset),
		cmocka_unit_test(test_connect_admin),
		cmocka_unit_test(test_connect_io_qid),
		cmocka_unit_test(test_connect_data),
		cmocka_unit_test(test_property),
		cmocka_unit_test(test_admin_cmds),
		cmocka_unit_test(test_rw),
		cmocka_unit_test(test_cqe),
		cmocka_unit_test(test_cm_private_data),
		cmocka_unit_test(test_id_ctrl),
		cmocka_unit_test(test_id_ns_and_list),
		cmocka_unit_test(test_nq_decode),
		cmocka_unit_test(test_discovery),
		cmocka_unit_test(test_cid),
		cmocka_unit_test(test_short_send),
		cmocka_unit_test(test_discovery_pages),
		cmocka_unit_test(test_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
