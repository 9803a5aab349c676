/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the libFuzzer harnesses: the input as a NUL-terminated string. */
#ifndef ROCECTL_FUZZ_H
#define ROCECTL_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A malloc'ed copy with a NUL after it (embedded NULs end the text early). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
	}
	return s;
}

#endif
