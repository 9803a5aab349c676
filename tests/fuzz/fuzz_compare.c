// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare: up to four snapshots, NUL-separated, read as `rocectl compare`
 * reads its files, then the outliers. Invariants: every outlier names a row
 * and column that exist, a value that applies (never an n/a one), and a
 * majority row of the same group that holds another value.
 */
#include <stdio.h>

#include "fuzz.h"
#include "rocectl/compare.h"
#include "rocectl/snapshot.h"

static void check(const struct rctl_cmp *c, const struct rctl_cmp_outlier *o, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (o[i].row >= c->n || o[i].col >= RCTL_CMP_N || o[i].common >= (int32_t)c->n ||
		    o[i].common < -1)
			abort();
		if (!c->rows[o[i].row].v[o[i].col][0])
			abort();
		if (o[i].common >= 0 &&
		    (!strcmp(c->rows[o[i].row].v[o[i].col], c->rows[o[i].common].v[o[i].col]) ||
		     strcmp(c->rows[o[i].row].group, c->rows[o[i].common].group)))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rctl_cmp c = { .dscp = 26 };
	struct rctl_cmp_outlier *o = NULL;
	char *text = fuzz_text(data, size), *p;
	struct rctl_err e = { 0 };
	struct rctl_host h;
	uint32_t n = 0;
	int k;

	if (!text)
		return 0;
	for (p = text, k = 0; k < 4 && p <= text + size; k++, p += strlen(p) + 1) {
		if (rctl_snapshot_parse(p, "fuzz", &h, &e))
			continue;
		rctl_cmp_add_host(&c, &h, "fuzz");
		rctl_host_free(&h);
	}
	if (!rctl_cmp_outliers(&c, &o, &n))
		check(&c, o, n);
	free(o);
	rctl_cmp_free(&c);
	free(text);
	return 0;
}
