// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The escaping of the HTML report (lib/fleet_html.c) over any bytes a
 * snapshot's string may hold: what comes out is text, never markup (no < > "
 * ', every & the start of one of its references), well-formed UTF-8 (the
 * strict JSON reader's test of it, lib/json.c) without control characters
 * but tab and newline, and a cut keeps no more characters than asked.
 */
#include <assert.h>

#include "fuzz.h"
#include "rocectl/fleet_html.h"
#include "rocectl/json.h"

static void check(const char *s, size_t n, size_t max)
{
	static const char *const refs[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&#39;" };
	const unsigned char *p = (const unsigned char *)s, *end = p + n;
	size_t chars = 0, k, len;
	unsigned int i;

	while (p < end) {
		assert(*p != '<' && *p != '>' && *p != '"' && *p != '\'');
		assert(*p >= 0x20 || *p == '\t' || *p == '\n');
		assert(*p != 0x7f);
		if (*p == '&') {
			for (i = 0; i < 5 && strncmp((const char *)p, refs[i], strlen(refs[i])); i++)
				;
			assert(i < 5);
			p += strlen(refs[i]);
			chars++;
			continue;
		}
		len = *p < 0x80 ? 1 : rctl_utf8_len(p, (size_t)(end - p));
		assert(len);
		assert(!(len == 2 && p[0] == 0xc2 && p[1] < 0xa0));
		p += len;
		chars++;
	}
	k = max ? max + 1 : chars;	/* a cut adds its ellipsis */
	assert(chars <= k);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_text(data, size), *out;
	size_t n, max = size ? data[0] % 16 : 0;

	if (!s)
		return 0;
	n = rctl_html_escape(NULL, 0, s, max);
	out = malloc(n + 1);
	if (out) {
		assert(rctl_html_escape(out, n + 1, s, max) == n && strlen(out) == n);
		check(out, n, max);
		free(out);
	}
	free(s);
	return 0;
}
