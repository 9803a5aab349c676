// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tune state file reader and its checks: an accepted state file must
 * name only what tune writes (checked again here on every change), and
 * write back to a file that reads back identical.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "fuzz.h"
#include "rocectl/tune.h"

/*
 * The invariant beyond "reads back": the state written from what was read
 * back is the state written from what was read, key for key ("time" aside,
 * the clock's).
 */
static void written_reads_identical(const char *t1, const struct rctl_tune_plan *q,
				    enum rctl_tune_status status)
{
	char *t2 = rctl_tune_state_text(q, status);
	cJSON *a = cJSON_Parse(t1), *b = t2 ? cJSON_Parse(t2) : NULL;

	if (!a || !b)
		abort();
	cJSON_DeleteItemFromObjectCaseSensitive(a, "time");
	cJSON_DeleteItemFromObjectCaseSensitive(b, "time");
	if (!cJSON_Compare(a, b, true)) {
		fprintf(stderr, "state read back differs:\n%s\n%s\n", t1, t2);
		abort();
	}
	cJSON_Delete(a);
	cJSON_Delete(b);
	free(t2);
}

/* Two changes alike, the rdma_cm connections compared by value, not by pointer. */
static bool same_changes(const struct rctl_tune_plan *p, const struct rctl_tune_plan *q)
{
	uint32_t i;

	for (i = 0; i < p->n_ch; i++)
		if (memcmp(&p->ch[i], &q->ch[i], offsetof(struct rctl_tune_change, cm)) ||
		    p->ch[i].n_cm != q->ch[i].n_cm ||
		    (p->ch[i].n_cm &&
		     memcmp(p->ch[i].cm, q->ch[i].cm, p->ch[i].n_cm * sizeof(*p->ch[i].cm))))
			return false;
	return true;
}

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
		/* What revert writes back is what it read: nothing lost, nothing changed. */
		if (status2 != status || q.n_ch != p.n_ch || !same_changes(&p, &q)) {
			fprintf(stderr, "written state reads back different\n");
			abort();
		}
		written_reads_identical(t, &q, status);
		rctl_tune_plan_free(&q);
		free(t);
		rctl_tune_plan_free(&p);
	}
	free(text);
	return 0;
}
