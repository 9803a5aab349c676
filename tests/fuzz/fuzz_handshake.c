// SPDX-License-Identifier: GPL-2.0-or-later
/* The reach/serve handshake decoders (lib/probe_wire.c) on peer bytes. */
#include "fuzz.h"
#include "rocectl/probe_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rctl_hello h;
	struct rctl_welcome w;

	if (rctl_hello_decode(data, size, &h) == RCTL_PROBE_OK &&
	    (!h.size || h.size > RCTL_PROBE_MAX_SIZE || !h.depth ||
	     h.depth > RCTL_PROBE_MAX_DEPTH))
		abort();
	rctl_welcome_decode(data, size, &w);
	return 0;
}
