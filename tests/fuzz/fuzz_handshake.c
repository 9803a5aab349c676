// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reach/serve handshake decoders (lib/probe_wire.c) on peer bytes: the
 * hello (with its flags and token), the welcome and the ready message.
 * Invariants: what decodes is in range, and encodes back to the bytes it
 * came from.
 */
#include "fuzz.h"
#include "rocectl/probe_wire.h"

static void hello_invariants(const uint8_t *data, size_t size)
{
	struct rctl_hello h;
	uint8_t again[RCTL_HELLO_TOKEN_LEN];
	size_t n;

	if (rctl_hello_decode(data, size, &h) != RCTL_PROBE_OK)
		return;
	if (!h.size || h.size > RCTL_PROBE_MAX_SIZE || !h.depth ||
	    h.depth > RCTL_PROBE_MAX_DEPTH)
		abort();
	if ((h.flags & RCTL_HELLO_F_TOKEN) ? !h.token[0] : h.token[0] != 0)
		abort();
	n = rctl_hello_encode(&h, again);
	/* the reserved bytes are not kept: compare what the decoder reads */
	if (memcmp(again, data, 6) || memcmp(again + 6, data + 6, 1) ||
	    memcmp(again + 8, data + 8, 20) ||
	    (n == RCTL_HELLO_TOKEN_LEN && memcmp(again + 32, data + 32, RCTL_TOKEN_LEN)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rctl_welcome w;
	struct rctl_ready r;
	uint8_t again[RCTL_READY_LEN];

	hello_invariants(data, size);
	rctl_welcome_decode(data, size, &w);
	if (!rctl_ready_decode(data, size, &r)) {
		if (!r.size || r.size > RCTL_PROBE_MAX_SIZE)
			abort();
		rctl_ready_encode(&r, again);
		if (memcmp(again, data, 5) || memcmp(again + 8, data + 8, 16))
			abort();
	}
	return 0;
}
