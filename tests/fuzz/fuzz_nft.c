// SPDX-License-Identifier: GPL-2.0-or-later
/* The reader of "nft -j list ruleset" (lib/netfilter.c). */
#include "fuzz.h"
#include "rocectl/collect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rctl_netfilter nf = { 0 };
	struct rctl_err e = { 0 };
	char *text = fuzz_text(data, size);

	if (!text)
		return 0;
	rctl_nft_parse(text, &nf, &e);
	free(nf.rules);
	free(text);
	return 0;
}
