// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The LLDP TLV decoder (include/rocectl/lldp.h): an LLDPDU or one of
 * lldpd's unknown organisation TLVs into the model's rctl_lldp_peer.
 * Pure: takes a buffer, so tests/fuzz/fuzz_lldp.c can call it.
 *
 * TLV header (802.1AB 8.4): 7 bits type, 9 bits length, big endian. An
 * organisation TLV (type 127) begins with a 3-octet OUI and a subtype.
 * 802.1Q-2018 D.2.9 ETS configuration: W(1) CBS(1) reserved(3) max TCs(3),
 * the priority assignment table (4 octets, priority 0 in the high nibble of
 * the first), TC bandwidth (8 octets), TSA (8 octets). D.2.9.1 the
 * recommendation: a reserved octet, then the same three tables. D.2.10 PFC:
 * W(1) MBC(1) reserved(2) PFC cap(4), then the enable octet, bit n priority
 * n. D.2.11 application priority: a reserved octet, then 3-octet entries:
 * priority(3) reserved(2) selector(3), protocol ID (16 bits). The same
 * positions as the ICE_IEEE_* masks of the kernel's ice_dcb.h (Linux 6.1).
 * 802.3-2018 79.3.4 maximum frame size: 2 octets.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/lldp.h"

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

void rctl_lldp_clear(struct rctl_lldp_peer *p)
{
	struct rctl_part st = p->st;
	char source[sizeof(p->source)], fw[sizeof(p->fw_agent)];

	memcpy(source, p->source, sizeof(source));
	memcpy(fw, p->fw_agent, sizeof(fw));
	free(p->apps);
	memset(p, 0, sizeof(*p));
	p->st = st;
	memcpy(p->source, source, sizeof(source));
	memcpy(p->fw_agent, fw, sizeof(fw));
}

static bool printable(const uint8_t *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!isprint(s[i]))
			return false;
	return len > 0;
}

static void hex_text(const uint8_t *id, size_t len, char sep, char *buf, size_t size)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < len && off + 4 < size; i++) {
		if (i && sep)
			buf[off++] = sep;
		off += snprintf(buf + off, size - off, "%02x", id[i]);
	}
}

void rctl_lldp_id_text(uint32_t subtype, bool chassis, const uint8_t *id, size_t len,
		       char *buf, size_t size)
{
	uint32_t mac = chassis ? 4 : 3, addr = chassis ? 5 : 4;

	if (subtype == mac && len == 6) {
		hex_text(id, len, ':', buf, size);
	} else if (subtype == addr && len == 5 && id[0] == 1) {	/* IANA 1: IPv4 */
		inet_ntop(AF_INET, id + 1, buf, size);
	} else if (subtype == addr && len == 17 && id[0] == 2) {	/* IANA 2: IPv6 */
		inet_ntop(AF_INET6, id + 1, buf, size);
	} else if (printable(id, len)) {
		snprintf(buf, size, "%.*s", (int)len, (const char *)id);
	} else {
		hex_text(id, len, 0, buf, size);
	}
}

static void text_of(const uint8_t *s, size_t len, char *buf, size_t size)
{
	size_t i, n = len < size - 1 ? len : size - 1;

	for (i = 0; i < n; i++)
		buf[i] = isprint(s[i]) ? (char)s[i] : '?';
	buf[n] = '\0';
}

/* The three tables of an ETS TLV, after its first octet. */
static void ets_tables(const uint8_t *t, uint8_t prio_tc[8], uint8_t bw[8], uint8_t tsa[8])
{
	int i;

	for (i = 0; i < 8; i++) {
		prio_tc[i] = i % 2 ? t[i / 2] & 0x0f : t[i / 2] >> 4;
		bw[i] = t[4 + i];
		tsa[i] = t[12 + i];
	}
}

static int app_table(const uint8_t *info, size_t len, struct rctl_lldp_peer *p)
{
	struct rctl_app *a;
	size_t off;

	free(p->apps);
	p->apps = NULL;
	p->n_apps = 0;
	for (off = 1; off + 3 <= len; off += 3) {
		a = rctl_arr_push(&p->apps, &p->n_apps, sizeof(*a));
		if (!a)
			return -ENOMEM;
		a->priority = info[off] >> 5;
		a->selector = info[off] & 0x07;
		a->protocol = be16(info + off + 1);
	}
	p->has_app = true;
	return 0;
}

static int org_8021(uint8_t subtype, const uint8_t *info, size_t len,
		    struct rctl_lldp_peer *p)
{
	int i;

	switch (subtype) {
	case RCTL_LLDP_8021_ETS_CFG:
		if (len < 21)
			return -EBADMSG;
		p->ets_willing = info[0] & 0x80;
		p->ets_cbs = info[0] & 0x40;
		p->ets_max_tcs = info[0] & 0x07;
		ets_tables(info + 1, p->ets_prio_tc, p->ets_tc_bw, p->ets_tc_tsa);
		p->has_ets = true;
		return 0;
	case RCTL_LLDP_8021_ETS_RECO:
		if (len < 21)
			return -EBADMSG;
		ets_tables(info + 1, p->reco_prio_tc, p->reco_tc_bw, p->reco_tc_tsa);
		p->has_ets_reco = true;
		return 0;
	case RCTL_LLDP_8021_PFC:
		if (len < 2)
			return -EBADMSG;
		p->pfc_willing = info[0] & 0x80;
		p->pfc_mbc = info[0] & 0x40;
		p->pfc_cap = info[0] & 0x0f;
		for (i = 0; i < 8; i++)
			p->pfc_en[i] = info[1] & (1u << i);
		p->has_pfc = true;
		return 0;
	case RCTL_LLDP_8021_APP:
		if (len < 1)
			return -EBADMSG;
		return app_table(info, len, p);
	}
	return 1;
}

int rctl_lldp_decode_org(uint32_t oui, uint8_t subtype, const uint8_t *info, size_t len,
			 struct rctl_lldp_peer *p)
{
	if (oui == RCTL_LLDP_OUI_8021)
		return org_8021(subtype, info, len, p);
	if (oui != RCTL_LLDP_OUI_8023 || subtype != RCTL_LLDP_8023_MFS)
		return 1;
	if (len < 2)
		return -EBADMSG;
	p->mfs = be16(info);
	p->has_mfs = true;
	return 0;
}

/* One TLV of an LLDPDU; a malformed optional TLV is skipped, not fatal. */
static int one_tlv(unsigned int type, const uint8_t *v, size_t len,
		   struct rctl_lldp_peer *p, unsigned int *seen)
{
	int ret;

	switch (type) {
	case RCTL_LLDP_TLV_CHASSIS_ID:
	case RCTL_LLDP_TLV_PORT_ID:
		if (len < 2 || len > 256)
			return -EBADMSG;
		if (type == RCTL_LLDP_TLV_CHASSIS_ID) {
			p->chassis_id_subtype = v[0];
			rctl_lldp_id_text(v[0], true, v + 1, len - 1, p->chassis_id,
					  sizeof(p->chassis_id));
		} else {
			p->port_id_subtype = v[0];
			rctl_lldp_id_text(v[0], false, v + 1, len - 1, p->port_id,
					  sizeof(p->port_id));
		}
		break;
	case RCTL_LLDP_TLV_TTL:
		if (len < 2)
			return -EBADMSG;
		p->ttl = be16(v);
		break;
	case RCTL_LLDP_TLV_PORT_DESCR:
		text_of(v, len, p->port_descr, sizeof(p->port_descr));
		break;
	case RCTL_LLDP_TLV_SYSTEM_NAME:
		text_of(v, len, p->system_name, sizeof(p->system_name));
		break;
	case RCTL_LLDP_TLV_ORG:
		if (len < 4)
			return 0;
		ret = rctl_lldp_decode_org((uint32_t)v[0] << 16 | v[1] << 8 | v[2], v[3],
					   v + 4, len - 4, p);
		return ret == -ENOMEM ? ret : 0;
	}
	if (type < 8)
		*seen |= 1u << type;
	return 0;
}

int rctl_lldp_decode(const uint8_t *buf, size_t len, struct rctl_lldp_peer *p)
{
	const unsigned int mandatory = 1u << RCTL_LLDP_TLV_CHASSIS_ID |
		1u << RCTL_LLDP_TLV_PORT_ID | 1u << RCTL_LLDP_TLV_TTL;
	unsigned int seen = 0, type;
	size_t off = 0, tlen;
	int ret;

	rctl_lldp_clear(p);
	while (off + 2 <= len) {
		type = buf[off] >> 1;
		tlen = (size_t)(buf[off] & 1) << 8 | buf[off + 1];
		off += 2;
		if (type == RCTL_LLDP_TLV_END)
			break;
		if (tlen > len - off)
			return -EBADMSG;
		ret = one_tlv(type, buf + off, tlen, p, &seen);
		if (ret)
			return ret;
		off += tlen;
	}
	return (seen & mandatory) == mandatory ? 0 : -EBADMSG;
}

int rctl_lldp_decode_frame(const uint8_t *frame, size_t len, struct rctl_lldp_peer *p)
{
	size_t off = 12;

	if (len >= 18 && be16(frame + off) == 0x8100)
		off += 4;
	if (len < off + 2 || be16(frame + off) != RCTL_LLDP_ETHERTYPE)
		return -EPROTO;
	return rctl_lldp_decode(frame + off + 2, len - off - 2, p);
}

bool rctl_lldp_has_dcbx(const struct rctl_lldp_peer *p)
{
	return p->has_pfc || p->has_ets || p->has_ets_reco || p->has_app;
}
