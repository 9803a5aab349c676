// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Snapshot reader -> rules -> tune plan -> writer -> reader: whatever the
 * reader accepts, the rules and the planner must digest, and the writer's
 * text must read back to the same text.
 */
#include <stdio.h>

#include "fuzz.h"
#include "rocectl/intent.h"
#include "rocectl/rules.h"
#include "rocectl/snapshot.h"
#include "rocectl/tune.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rctl_intent in;
	struct rctl_err e = { 0 };
	struct rctl_report r = { 0 };
	struct rctl_tune_plan p = { 0 };
	struct rctl_host h, h2;
	char *text = fuzz_text(data, size), *t1, *t2;

	if (!text || rctl_intent_profile(&in, "lossless-dscp", &e))
		abort();
	if (rctl_snapshot_parse(text, "fuzz", &h, &e)) {
		free(text);
		return 0;
	}
	rctl_judge_host(&h, &in, ~0u, NULL, &r);
	rctl_report_free(&r);
	if (!rctl_tune_plan(&h, &in, &p, &e))
		rctl_tune_plan_free(&p);
	t1 = rctl_snapshot_text(&h, false);
	if (!t1 || rctl_snapshot_parse(t1, "fuzz-written", &h2, &e)) {
		fprintf(stderr, "written snapshot does not read back: %s\n", e.msg);
		abort();
	}
	t2 = rctl_snapshot_text(&h2, false);
	if (!t2 || strcmp(t1, t2)) {
		fprintf(stderr, "write -> read -> write differs:\n%s\n%s\n", t1, t2);
		abort();
	}
	free(t1);
	free(t2);
	rctl_host_free(&h);
	rctl_host_free(&h2);
	free(text);
	return 0;
}
