// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The config file (rocectl.conf(5)) parser. Invariants: an accepted file
 * gives an intent inside the ranges rocectl.conf(5) documents, for every
 * port its sections may name too, and reading it again over that intent
 * changes nothing (the reader is a function of the text).
 */
#include <math.h>
#include <string.h>

#include "fuzz.h"
#include "rocectl/intent.h"

static void in_range(const struct rctl_intent *in)
{
	if (in->prio < 0 || in->prio > 7 || in->cnp_prio < 0 || in->cnp_prio > 7 ||
	    in->dscp < 0 || in->dscp > 63 || in->cnp_dscp < 0 || in->cnp_dscp > 63 ||
	    in->tos < 0 || in->tos > 255 || (in->roce_version != 1 && in->roce_version != 2) ||
	    in->mtu < 256 || in->mtu > 4096 || (in->mtu & (in->mtu - 1)) ||
	    !isfinite(in->loss_budget) || in->loss_budget < 0 ||
	    (in->profile[0] && !rctl_profile_find(in->profile)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rctl_intent in, again, port;
	uint32_t i;
	struct rctl_err e = { 0 };
	char *text = fuzz_text(data, size);

	if (!text)
		return 0;
	if (rctl_intent_profile(&in, "lossless-dscp", &e))
		abort();
	if (!rctl_intent_parse_conf(&in, text, "fuzz.conf", NULL, &e)) {
		in_range(&in);
		for (i = 0; i < in.n_sec; i++) {
			const char *n = in.sec[i].name;

			if (!n[0] || in.sec[i].level < RCTL_LVL_DRIVER || in.sec[i].level > RCTL_LVL_NETDEV)
				abort();
			/* a port every section names: all of them applied */
			rctl_intent_for(&in, n, n, n, n, n, &port);
			in_range(&port);
		}
		again = in;
		if (rctl_intent_parse_conf(&again, text, "fuzz.conf", NULL, &e) ||
		    memcmp(&in, &again, sizeof(in)))
			abort();
	}
	free(text);
	return 0;
}
