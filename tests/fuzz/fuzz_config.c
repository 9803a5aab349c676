// SPDX-License-Identifier: GPL-2.0-or-later
/* The config file (rocectl.conf(5)) parser. */
#include "fuzz.h"
#include "rocectl/intent.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rctl_intent in = { 0 };
	struct rctl_err e = { 0 };
	char *text = fuzz_text(data, size);

	if (!text)
		return 0;
	rctl_intent_parse_conf(&in, text, "fuzz.conf", NULL, &e);
	free(text);
	return 0;
}
