// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare of a stream of snapshots as pdsh prints it ("host: {...}" lines,
 * pdsh's own "pdsh@admin: node4: ..." lines, several documents), read by
 * the reader reach --matrix shares (lib/json.c). Invariants: every input
 * left out says why; every row is of the stream's file; every priorities
 * value the rows hold reads back as the array JSON writes (rctl_cmp_prios).
 */
#include <stdio.h>

#include "fuzz.h"
#include "rocectl/compare.h"

static void check(const struct rctl_cmp *c)
{
	uint32_t i;
	uint8_t m;
	int k;

	for (i = 0; i < c->n_bad; i++)
		if (!c->bad[i].reason[0] || strcmp(c->bad[i].file, "fuzz"))
			abort();
	for (i = 0; i < c->n; i++) {
		if (strcmp(c->rows[i].file, "fuzz"))
			abort();
		for (k = 0; k < RCTL_CMP_N; k++) {
			const char *v = c->rows[i].v[k];

			if (rctl_cmp_type(k) == RCTL_CMP_T_PRIOS && v[0] && strcmp(v, RCTL_CMP_UNKNOWN) &&
			    rctl_cmp_prios(v, &m))
				abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rctl_cmp c = { .dscp = 26 };
	char *text = fuzz_text(data, size);

	if (!text)
		return 0;
	(void)rctl_cmp_is_stream(text);
	if (!rctl_cmp_add_stream(&c, text, "fuzz"))
		check(&c);
	rctl_cmp_free(&c);
	free(text);
	return 0;
}
