// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reach --targets file. Invariants: every target is one word, no
 * comment, and the list written one a line reads back the same.
 */
#include <ctype.h>
#include <stdio.h>

#include "fuzz.h"
#include "rocectl/reach.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char **list = NULL, **again = NULL, *text = fuzz_text(data, size), *w = NULL;
	unsigned int n = 0, m = 0, i;
	struct rctl_err e = { 0 };
	size_t len = 0;
	const char *c;
	FILE *f;

	if (!text)
		return 0;
	if (!rctl_reach_targets_parse(text, "fuzz", &list, &n, &e)) {
		f = open_memstream(&w, &len);
		for (i = 0; i < n; i++) {
			if (!*list[i] || strchr(list[i], '#'))
				abort();
			for (c = list[i]; *c; c++)
				if (isspace((unsigned char)*c))
					abort();
			fprintf(f, "%s\n", list[i]);
		}
		fclose(f);
		if (rctl_reach_targets_parse(w, "written", &again, &m, &e) || m != n)
			abort();
		for (i = 0; i < n; i++)
			if (strcmp(list[i], again[i]))
				abort();
		free(w);
	}
	rctl_reach_targets_free(list, n);
	rctl_reach_targets_free(again, m);
	free(text);
	return 0;
}
