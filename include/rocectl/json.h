/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one strict JSON reader: every document rocectl reads (snapshots, tune
 * state files, reach result files, nft's ruleset) goes through it.
 */
#ifndef ROCECTL_JSON_H
#define ROCECTL_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "rocectl/err.h"

/*
 * The bounds, measured on this project's largest real shape, a snapshot of
 * 512 RoCE ports with a full 256-entry GID table each, half of it on a VLAN
 * (bench/rules.sh): 25.0 MB, 1.83 million values, 260 MB peak RSS for
 * `rocectl devices -i`. cJSON spends ~80 bytes on each value (its node and
 * the key's copy), whatever its length: 32 MiB of the smallest values
 * ("[0,0,...]", 16.7 million) took 1.38 GB, so the values are bounded too.
 * 4194304 values (2.3 times the 512-port snapshot) and 32 MiB cap a document
 * at ~430 MB (2 million {"a":0} took 429 MB, 4 million zeros 347 MB); 32
 * levels is four times what a snapshot nests (8).
 */
#define RCTL_JSON_MAX_BYTES (32u << 20)
#define RCTL_JSON_MAX_VALUES 4194304u
#define RCTL_JSON_MAX_DEPTH 32

/*
 * Parse text[0..len) as exactly one JSON document, or refuse it: larger than
 * RCTL_JSON_MAX_BYTES (EFBIG), more values than RCTL_JSON_MAX_VALUES, nested
 * deeper than RCTL_JSON_MAX_DEPTH, a NUL
 * byte, data after the document, a raw control character, \u0000 or bytes
 * that are not UTF-8 (RFC 3629) in a string, or a key twice in one object
 * (jq would take the last, cJSON the first: neither is what the writer meant).
 * Integers of 16 digits or more are kept exact, as strings (lib/schema.c reads
 * both). On error: -errno and one line, "cannot read <what> '<name>': why"
 * ("cannot read <what>: why" when name is NULL).
 */
int rctl_json_read(const char *text, size_t len, const char *what,
		   const char *name, cJSON **doc, struct rctl_err *e);

/*
 * A stream of documents, one a line, as "pdsh -w h1,h2 rocectl ... -j" prints
 * them: each line behind pdsh's "host: ", and pdsh's own line about a host
 * that did not answer ("pdsh@admin: node4: ssh exited with exit code 255").
 * The one reader of such streams: reach --matrix and compare.
 *
 * rctl_pdsh_prefix(): past "host: " at p (host copied, at most len - 1
 * bytes), else p itself and host untouched.
 * rctl_pdsh_line(): whether p is pdsh's own line; then the host it names
 * (*host, *hlen) and why (*why, to the end of the line).
 * rctl_pdsh_next_doc(): after a line that could not be read, the next line
 * that starts a document or is pdsh's own; "" at the end.
 */
const char *rctl_pdsh_prefix(const char *p, char *host, size_t len);
bool rctl_pdsh_line(const char *p, const char **host, size_t *hlen, const char **why);
const char *rctl_pdsh_next_doc(const char *p);

/* Length of the UTF-8 sequence at s[0..n) (RFC 3629, table 3-7), 0 if none. */
size_t rctl_utf8_len(const unsigned char *s, size_t n);

#endif
