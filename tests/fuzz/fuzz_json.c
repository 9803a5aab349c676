// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The strict JSON reader (lib/json.c). Invariants: what it accepts stays
 * within its bounds, and what it accepts, written by cJSON, it accepts again
 * and, from the second writing on, writes the same.
 */
#include <stdbool.h>
#include <stdio.h>

#include "fuzz.h"
#include "rocectl/json.h"

static int depth(const cJSON *j)
{
	const cJSON *c;
	int d = 0, k;

	for (c = j->child; c; c = c->next)
		if ((k = depth(c)) > d)
			d = k;
	return d + (cJSON_IsObject(j) || cJSON_IsArray(j));
}

/* Read text strictly and write it back; NULL (and abort unless may_fail) when refused. */
static char *rewrite(const char *text, size_t len, bool may_fail)
{
	struct rctl_err e = { 0 };
	cJSON *doc;
	char *t;

	if (rctl_json_read(text, len, "fuzz", "fuzz", &doc, &e)) {
		if (may_fail)
			return NULL;
		fprintf(stderr, "written JSON not read back: %s\n%s\n", e.msg, text);
		abort();
	}
	if (len > RCTL_JSON_MAX_BYTES || depth(doc) > RCTL_JSON_MAX_DEPTH)
		abort();
	t = cJSON_PrintUnformatted(doc);
	cJSON_Delete(doc);
	return t;
}

/*
 * The second writing equals the third: the first may differ, as a double of
 * 16 digits or more that cJSON writes without a fraction reads back as
 * exact-integer digits (a string), and stays one.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *t1, *t2 = NULL, *t3 = NULL;

	t1 = rewrite((const char *)data, size, true);
	if (t1)
		t2 = rewrite(t1, strlen(t1), false);
	if (t2)
		t3 = rewrite(t2, strlen(t2), false);
	if (t3 && strcmp(t2, t3)) {
		fprintf(stderr, "written twice, differs:\n%s\n%s\n", t2, t3);
		abort();
	}
	free(t1);
	free(t2);
	free(t3);
	return 0;
}
