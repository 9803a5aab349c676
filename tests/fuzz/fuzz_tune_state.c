// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tune state file reader and its checks: an accepted state file must
 * name only what tune writes (checked again here on every change), and
 * write back to a file that reads back the same.
 */
#include <stdio.h>

#include "fuzz.h"
#include "rocectl/tune.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rctl_tune_plan p, q;
	struct rctl_err e = { 0 };
	enum rctl_tune_status status, status2;
	char *text = fuzz_text(data, size), *t;
	uint32_t i;

	if (!text)
		return 0;
	if (!rctl_tune_state_parse(text, "fuzz", &p, &status, &e)) {
		for (i = 0; i < p.n_ch; i++)
			if (rctl_tune_change_check(&p.ch[i], "fuzz", i, &e))
				abort();
		t = rctl_tune_state_text(&p, status);
		if (!t || rctl_tune_state_parse(t, "fuzz-written", &q, &status2, &e)) {
			fprintf(stderr, "written state does not read back: %s\n", e.msg);
			abort();
		}
		rctl_tune_plan_free(&q);
		free(t);
		rctl_tune_plan_free(&p);
	}
	free(text);
	return 0;
}
