// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The LLDP TLV decoder (lib/lldp.c) on hand-built frames: the layouts of
 * IEEE 802.1AB-2016 clause 8, IEEE 802.1Q-2018 D.2.9-D.2.11 and IEEE
 * 802.3-2018 79.3.4, with the bit positions of the kernel's ice_dcb.h.
 * The PFC and MFS bytes are those the lab's lldpd sends for
 * "custom-tlv oui 00,80,c2 subtype 11 oui-info 08,10" and
 * "oui 00,12,0f subtype 4 oui-info 05,f2".
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rocectl/lldp.h"

struct frame {
	uint8_t b[1500];
	size_t n;
};

static void tlv(struct frame *f, unsigned int type, const void *v, size_t len)
{
	f->b[f->n++] = (uint8_t)(type << 1 | len >> 8);
	f->b[f->n++] = (uint8_t)len;
	memcpy(f->b + f->n, v, len);
	f->n += len;
}

static void org(struct frame *f, uint32_t oui, uint8_t sub, const void *v, size_t len)
{
	uint8_t b[512] = { oui >> 16, oui >> 8, oui, sub };

	memcpy(b + 4, v, len);
	tlv(f, RCTL_LLDP_TLV_ORG, b, len + 4);
}

/* Chassis MAC, port "Ethernet1/7", TTL 120, system name leaf-07. */
static void mandatory(struct frame *f)
{
	static const uint8_t chassis[] = { 4, 0x0c, 0x42, 0xa1, 0x00, 0x00, 0x07 };
	static const uint8_t port[] = { 5, 'E', 't', 'h', 'e', 'r', 'n', 'e', 't', '1', '/', '7' };
	static const uint8_t ttl[] = { 0, 120 };

	tlv(f, RCTL_LLDP_TLV_CHASSIS_ID, chassis, sizeof(chassis));
	tlv(f, RCTL_LLDP_TLV_PORT_ID, port, sizeof(port));
	tlv(f, RCTL_LLDP_TLV_TTL, ttl, sizeof(ttl));
	tlv(f, RCTL_LLDP_TLV_SYSTEM_NAME, "leaf-07", 7);
}

/* A switch port of the intent: PFC on 3, DSCP 26 -> 3 and 48 -> 6, TC 3 at 50 %. */
static void dcbx(struct frame *f)
{
	static const uint8_t pfc[] = { 0x08, 0x08 };
	static const uint8_t ets[] = {
		0x08,				/* not willing, no CBS, max TCs 8 (0) */
		0x00, 0x03, 0x00, 0x60,		/* prio 3 -> TC 3, prio 6 -> TC 6 */
		50, 0, 0, 50, 0, 0, 0, 0,	/* TC bandwidth */
		2, 2, 2, 2, 2, 2, 0, 2,		/* TSA: ETS, TC 6 strict */
	};
	static const uint8_t app[] = { 0, 3 << 5 | 5, 0, 26, 6 << 5 | 5, 0, 48,
				       3 << 5 | 3, 0x12, 0xb7 };	/* UDP 4791 -> 3 */
	static const uint8_t mfs[] = { 0x23, 0xa0 };	/* 9120 */

	org(f, RCTL_LLDP_OUI_8021, RCTL_LLDP_8021_PFC, pfc, sizeof(pfc));
	org(f, RCTL_LLDP_OUI_8021, RCTL_LLDP_8021_ETS_CFG, ets, sizeof(ets));
	org(f, RCTL_LLDP_OUI_8021, RCTL_LLDP_8021_APP, app, sizeof(app));
	org(f, RCTL_LLDP_OUI_8023, RCTL_LLDP_8023_MFS, mfs, sizeof(mfs));
}

static void test_identity(void **state)
{
	struct rctl_lldp_peer p = { 0 };
	struct frame f = { 0 };

	mandatory(&f);
	tlv(&f, RCTL_LLDP_TLV_END, "", 0);
	assert_int_equal(rctl_lldp_decode(f.b, f.n, &p), 0);
	assert_string_equal(p.chassis_id, "0c:42:a1:00:00:07");
	assert_int_equal(p.chassis_id_subtype, 4);
	assert_string_equal(p.port_id, "Ethernet1/7");
	assert_int_equal(p.port_id_subtype, 5);
	assert_string_equal(p.system_name, "leaf-07");
	assert_int_equal(p.ttl, 120);
	assert_false(rctl_lldp_has_dcbx(&p));
	assert_false(p.has_mfs);
	rctl_lldp_clear(&p);
}

static void test_dcbx(void **state)
{
	struct rctl_lldp_peer p = { 0 };
	struct frame f = { 0 };

	mandatory(&f);
	dcbx(&f);
	assert_int_equal(rctl_lldp_decode(f.b, f.n, &p), 0);
	assert_true(p.has_pfc);
	assert_false(p.pfc_willing);
	assert_int_equal(p.pfc_cap, 8);
	for (int i = 0; i < 8; i++)
		assert_int_equal(p.pfc_en[i], i == 3);
	assert_true(p.has_ets);
	assert_false(p.ets_willing);
	assert_int_equal(p.ets_prio_tc[3], 3);
	assert_int_equal(p.ets_prio_tc[6], 6);
	assert_int_equal(p.ets_prio_tc[0], 0);
	assert_int_equal(p.ets_tc_bw[3], 50);
	assert_int_equal(p.ets_tc_tsa[6], RCTL_TSA_STRICT);
	assert_int_equal(p.ets_tc_tsa[3], RCTL_TSA_ETS);
	assert_true(p.has_app);
	assert_int_equal(p.n_apps, 3);
	assert_int_equal(p.apps[0].selector, RCTL_APP_SEL_DSCP);
	assert_int_equal(p.apps[0].protocol, 26);
	assert_int_equal(p.apps[0].priority, 3);
	assert_int_equal(p.apps[1].protocol, 48);
	assert_int_equal(p.apps[1].priority, 6);
	assert_int_equal(p.apps[2].selector, RCTL_APP_SEL_DGRAM);
	assert_int_equal(p.apps[2].protocol, 4791);
	assert_true(p.has_mfs);
	assert_int_equal(p.mfs, 9120);
	rctl_lldp_clear(&p);
	assert_null(p.apps);
}

/* The lab's lldpd custom TLVs, as lldpd hands them over (info string only). */
static void test_org_lldpd(void **state)
{
	static const uint8_t pfc4[] = { 0x08, 0x10 }, mfs[] = { 0x05, 0xf2 };
	static const uint8_t willing[] = { 0x88, 0x08 };
	struct rctl_lldp_peer p = { 0 };

	assert_int_equal(rctl_lldp_decode_org(RCTL_LLDP_OUI_8021, 11, pfc4, 2, &p), 0);
	assert_true(p.pfc_en[4]);
	assert_false(p.pfc_en[3]);
	assert_int_equal(rctl_lldp_decode_org(RCTL_LLDP_OUI_8023, 4, mfs, 2, &p), 0);
	assert_int_equal(p.mfs, 1522);
	assert_int_equal(rctl_lldp_decode_org(RCTL_LLDP_OUI_8021, 11, willing, 2, &p), 0);
	assert_true(p.pfc_willing);
	assert_true(p.pfc_en[3]);
	/* Not ours: an 802.1 VLAN name, another organisation. */
	assert_int_equal(rctl_lldp_decode_org(RCTL_LLDP_OUI_8021, 3, pfc4, 2, &p), 1);
	assert_int_equal(rctl_lldp_decode_org(0x001b21, 11, pfc4, 2, &p), 1);
	/* Too short for its layout. */
	assert_int_equal(rctl_lldp_decode_org(RCTL_LLDP_OUI_8021, 9, pfc4, 2, &p), -EBADMSG);
	assert_int_equal(rctl_lldp_decode_org(RCTL_LLDP_OUI_8023, 4, mfs, 1, &p), -EBADMSG);
	rctl_lldp_clear(&p);
}

static void test_bad(void **state)
{
	static const uint8_t ttl[] = { 0, 120 };
	struct rctl_lldp_peer p = { 0 };
	struct frame f = { 0 };

	/* No chassis ID and port ID: not an LLDPDU. */
	tlv(&f, RCTL_LLDP_TLV_TTL, ttl, sizeof(ttl));
	assert_int_equal(rctl_lldp_decode(f.b, f.n, &p), -EBADMSG);
	/* A TLV longer than the buffer. */
	f.n = 0;
	mandatory(&f);
	assert_int_equal(rctl_lldp_decode(f.b, f.n - 1, &p), -EBADMSG);
	/* A short PFC TLV is skipped, the rest decodes. */
	f.n = 0;
	mandatory(&f);
	org(&f, RCTL_LLDP_OUI_8021, RCTL_LLDP_8021_PFC, ttl, 1);
	assert_int_equal(rctl_lldp_decode(f.b, f.n, &p), 0);
	assert_false(p.has_pfc);
	assert_int_equal(rctl_lldp_decode(NULL, 0, &p), -EBADMSG);
	rctl_lldp_clear(&p);
}

static void test_frame(void **state)
{
	struct rctl_lldp_peer p = { 0 };
	struct frame f = { .b = { 0x01, 0x80, 0xc2, 0, 0, 0x0e, 2, 0, 0, 0, 0, 1 } };

	f.n = 12;
	f.b[f.n++] = 0x88;
	f.b[f.n++] = 0xcc;
	mandatory(&f);
	dcbx(&f);
	assert_int_equal(rctl_lldp_decode_frame(f.b, f.n, &p), 0);
	assert_string_equal(p.system_name, "leaf-07");
	assert_true(p.pfc_en[3]);
	f.b[12] = 0x08;
	f.b[13] = 0x00;
	assert_int_equal(rctl_lldp_decode_frame(f.b, f.n, &p), -EPROTO);
	assert_int_equal(rctl_lldp_decode_frame(f.b, 10, &p), -EPROTO);
	rctl_lldp_clear(&p);
}

static void test_id_text(void **state)
{
	static const uint8_t ip[] = { 1, 10, 0, 0, 2 }, bin[] = { 0, 1, 0xfe };
	char buf[RCTL_LLDP_ID_LEN];

	rctl_lldp_id_text(5, true, ip, sizeof(ip), buf, sizeof(buf));
	assert_string_equal(buf, "10.0.0.2");
	rctl_lldp_id_text(7, false, bin, sizeof(bin), buf, sizeof(buf));
	assert_string_equal(buf, "0001fe");
	rctl_lldp_id_text(3, false, (const uint8_t *)"\x02\0\0\0\0\x01", 6, buf, sizeof(buf));
	assert_string_equal(buf, "02:00:00:00:00:01");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identity),
		cmocka_unit_test(test_dcbx),
		cmocka_unit_test(test_org_lldpd),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_frame),
		cmocka_unit_test(test_id_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
