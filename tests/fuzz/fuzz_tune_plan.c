// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reviewed plan reader of 'tune apply --plan': an accepted plan names
 * only what tune writes (every change it would write passes the state
 * file's allow-list again here), its counts and digest agree, and its
 * changes and digest written again read back identical.
 */
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "fuzz.h"
#include "rocectl/tune.h"

/* The input with its changes and digest replaced by their writing, read again. */
static void reads_back(const char *text, const struct rctl_tune_reviewed *r)
{
	struct rctl_tune_reviewed q;
	struct rctl_err e = { 0 };
	cJSON *doc = cJSON_Parse(text), *ch = cJSON_CreateArray();
	uint32_t i;
	char *t;

	if (!doc)
		abort();
	for (i = 0; i < r->plan.n_ch; i++)
		cJSON_AddItemToArray(ch, rctl_tune_change_json(&r->plan.ch[i]));
	cJSON_ReplaceItemInObjectCaseSensitive(doc, "changes", ch);
	cJSON_ReplaceItemInObjectCaseSensitive(doc, "digest", rctl_tune_digest_json(&r->digest));
	t = cJSON_PrintUnformatted(doc);
	if (!t || rctl_tune_plan_parse(t, strlen(t), "fuzz-written", &q, &e)) {
		fprintf(stderr, "written plan does not read back: %s\n", e.msg);
		abort();
	}
	if (q.plan.n_ch != r->plan.n_ch || q.digest.n != r->digest.n ||
	    (r->plan.n_ch && memcmp(q.plan.ch, r->plan.ch, sizeof(*q.plan.ch) * q.plan.n_ch)) ||
	    (r->digest.n && memcmp(q.digest.parts, r->digest.parts,
				   sizeof(*q.digest.parts) * q.digest.n)) ||
	    strcmp(q.hostname, r->hostname)) {
		fprintf(stderr, "written plan reads back different\n");
		abort();
	}
	rctl_tune_reviewed_free(&q);
	cJSON_free(t);
	cJSON_Delete(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rctl_tune_reviewed r;
	struct rctl_err e = { 0 };
	struct rctl_tune_change c;
	char *text = fuzz_text(data, size);
	uint32_t i;

	if (!text || rctl_tune_plan_parse(text, strlen(text), "fuzz", &r, &e)) {
		free(text);
		return 0;
	}
	for (i = 0; i < r.plan.n_ch; i++) {
		/* What apply writes is what revert may write back: tune's own files. */
		c = r.plan.ch[i];
		if (c.skip[0])
			continue;
		c.status = RCTL_TUNE_APPLIED;
		if (rctl_tune_change_check(&c, "fuzz", i, &e)) {
			fprintf(stderr, "accepted plan writes what tune does not: %s\n", e.msg);
			abort();
		}
	}
	reads_back(text, &r);
	rctl_tune_reviewed_free(&r);
	free(text);
	return 0;
}
