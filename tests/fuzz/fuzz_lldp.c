// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The LLDP TLV decoder (lib/lldp.c): the input as a whole Ethernet frame,
 * as an LLDPDU, and, from its fifth byte on, as one organisation TLV's
 * information string of the OUI and subtype its first four bytes name (what
 * lldpd hands over).
 */
#include "fuzz.h"
#include "rocectl/lldp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rctl_lldp_peer p = { 0 };

	rctl_lldp_decode_frame(data, size, &p);
	rctl_lldp_decode(data, size, &p);
	if (size >= 4)
		rctl_lldp_decode_org((uint32_t)data[0] << 16 | data[1] << 8 | data[2], data[3],
				     data + 4, size - 4, &p);
	rctl_lldp_clear(&p);
	return 0;
}
