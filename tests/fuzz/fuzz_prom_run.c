// SPDX-License-Identifier: GPL-2.0-or-later
/* The line parser that reads rocectl_last_success_timestamp_seconds back from an old textfile. */
#include "fuzz.h"
#include "rocectl/prom_run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	uint64_t ts;

	if (!text)
		return 0;
	rctl_prom_run_parse_line(text, "doctor", &ts);
	free(text);
	return 0;
}
