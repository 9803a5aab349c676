// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The NVMe/TCP PDU parser on target-supplied bytes (lib/nvmf_tcp_wire.c):
 * the input is an ICResp followed by a stream of controller-to-host PDUs,
 * walked as lib/nvmf_tcp.c walks its receive buffer (common header, check,
 * header, data, data digest), under the digests the first input byte
 * chooses. Invariants: an accepted header consumes exactly PLEN bytes, more
 * than its common header, so the walk always advances; its header part
 * covers HLEN (and the header digest); C2HData's data is never empty; an
 * accepted ICResp has PFV 0, CPDA <= 31 and MAXH2CDATA >= 4096; PDO from
 * any HLEN and PDA covers the header and is aligned; CRC32C in two pieces
 * equals CRC32C whole.
 */
#include "fuzz.h"
#include "rocectl/nvmf_tcp_wire.h"

static void walk(const uint8_t *p, size_t n, bool hd, bool dd)
{
	struct rctl_tcp_data d;
	struct rctl_tcp_hdr h;
	uint32_t hl, dl, used;

	while (n >= RCTL_TCP_HDR_SIZE) {
		rctl_tcp_hdr_decode(p, &h);
		if (rctl_tcp_hdr_check(&h, hd, dd, &hl, &dl))
			return;
		used = h.type == RCTL_TCP_C2H_DATA ? hl + dl + (dd ? RCTL_TCP_DIGEST : 0) : hl;
		if (used != h.plen || used <= RCTL_TCP_HDR_SIZE || hl < h.hlen)
			abort();
		if (h.type == RCTL_TCP_C2H_DATA && (!dl || hl != h.pdo))
			abort();
		if (h.type != RCTL_TCP_C2H_DATA && dl)
			abort();
		if (hl > n)
			return;
		if ((h.flags & RCTL_TCP_F_HDGST) && hl >= h.hlen + 4u)
			rctl_tcp_hdgst_ok(p, h.hlen);
		if (h.hlen >= RCTL_TCP_DATA_HLEN) {
			rctl_tcp_data_decode(p, &d);
			rctl_tcp_term_fes(p);
		}
		rctl_tcp_pdu_name(h.type);
		if (used > n)
			return;
		p += used;
		n -= used;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rctl_tcp_icresp r;
	uint8_t ic[RCTL_TCP_IC_SIZE] = { 0 };
	uint32_t pdo, a;
	size_t cut;

	if (size < 1)
		return 0;
	memcpy(ic, data + 1, size - 1 < sizeof(ic) ? size - 1 : sizeof(ic));
	if (!rctl_tcp_icresp_decode(ic, &r) &&
	    (r.pfv || r.cpda > 31 || r.maxh2cdata < RCTL_TCP_MAXH2C_MIN))
		abort();
	pdo = rctl_tcp_pdo(ic[2], data[0] & 1, ic[10] & 31);
	a = ((ic[10] & 31) + 1u) * 4;
	if (pdo < ic[2] + (data[0] & 1 ? 4u : 0) || pdo % a || pdo > 255 + 4 + 128)
		abort();
	cut = size / 3;
	if (~rctl_crc32c_update(rctl_crc32c_update(0xffffffff, data, cut), data + cut,
				size - cut) != rctl_crc32c(data, size))
		abort();
	if (size > 1 + RCTL_TCP_IC_SIZE)
		walk(data + 1 + RCTL_TCP_IC_SIZE, size - 1 - RCTL_TCP_IC_SIZE, data[0] & 1,
		     data[0] & 2);
	return 0;
}
