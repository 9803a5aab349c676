// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The strict JSON reader (json.h): one linear scan refuses what cJSON would
 * let through and quotes long integers, cJSON parses, one walk finds
 * duplicate keys.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocectl/json.h"

struct scan {
	const unsigned char *s;
	size_t len, i;
	char *out;
	size_t k;
	const char *why;	/* what is wrong, NULL while all is well */
	size_t at;		/* and at which byte */
};

static bool fail(struct scan *sc, const char *why)
{
	sc->why = why;
	sc->at = sc->i;
	return false;
}

size_t rctl_utf8_len(const unsigned char *s, size_t n)
{
	size_t want, i;
	unsigned char lo = 0x80, hi = 0xbf;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		want = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		want = 3, lo = s[0] == 0xe0 ? 0xa0 : 0x80, hi = s[0] == 0xed ? 0x9f : 0xbf;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		want = 4, lo = s[0] == 0xf0 ? 0x90 : 0x80, hi = s[0] == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	if (n < want || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < want; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return want;
}

/* A string from its opening quote to past its closing one, copied. */
static bool scan_string(struct scan *sc)
{
	size_t n;

	sc->out[sc->k++] = (char)sc->s[sc->i++];
	while (sc->i < sc->len) {
		unsigned char c = sc->s[sc->i];

		if (c == '"') {
			sc->out[sc->k++] = (char)sc->s[sc->i++];
			return true;
		}
		if (c < 0x20)
			return fail(sc, c ? "a control character in a string" : "a NUL byte");
		if (c == '\\' && sc->i + 1 < sc->len && sc->s[sc->i + 1] == 'u' &&
		    sc->i + 6 <= sc->len && !memcmp(sc->s + sc->i + 2, "0000", 4))
			return fail(sc, "\\u0000 in a string");
		n = c < 0x80 ? (c == '\\' && sc->i + 1 < sc->len ? 2 : 1) :
			       rctl_utf8_len(sc->s + sc->i, sc->len - sc->i);
		if (!n)
			return fail(sc, "a string that is not UTF-8");
		memcpy(sc->out + sc->k, sc->s + sc->i, n);
		sc->k += n;
		sc->i += n;
	}
	return fail(sc, "the document ends inside a string");
}

/* A number token; an integer of 16 digits or more goes out quoted. */
static void scan_number(struct scan *sc)
{
	size_t b = sc->i, n;
	bool integer = true;

	sc->i += sc->s[sc->i] == '-';
	while (sc->i < sc->len && strchr("0123456789.eE+-", sc->s[sc->i]) && sc->s[sc->i]) {
		if (!strchr("0123456789", sc->s[sc->i]))
			integer = false;
		sc->i++;
	}
	n = sc->i - b;
	if (integer && n >= 16)
		sc->out[sc->k++] = '"';
	memcpy(sc->out + sc->k, sc->s + b, n);
	sc->k += n;
	if (integer && n >= 16)
		sc->out[sc->k++] = '"';
}

_Static_assert(RCTL_JSON_MAX_DEPTH == 32 && RCTL_JSON_MAX_VALUES == 4194304,
	       "scan()'s messages name the bounds");

static bool scan(struct scan *sc)
{
	size_t values = 1;
	int depth = 0;
	bool ended = false;

	while (sc->i < sc->len) {
		unsigned char c = sc->s[sc->i];

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			sc->out[sc->k++] = (char)sc->s[sc->i++];
			continue;
		}
		if (!c)
			return fail(sc, "a NUL byte");
		if (ended)
			return fail(sc, "data after the end of the document");
		if (c == '"') {
			if (!scan_string(sc))
				return false;
			ended = !depth;
			continue;
		}
		if (c == '-' || (c >= '0' && c <= '9')) {
			scan_number(sc);
			ended = !depth;
			continue;
		}
		if ((c == '{' || c == '[') && ++depth > RCTL_JSON_MAX_DEPTH)
			return fail(sc, "nesting deeper than 32 levels");
		/* each value after the first of its container follows a comma */
		if ((c == ',' || c == '{' || c == '[') && ++values > RCTL_JSON_MAX_VALUES)
			return fail(sc, "more than 4194304 values");
		if ((c == '}' || c == ']') && --depth <= 0)
			ended = true;
		sc->out[sc->k++] = (char)sc->s[sc->i++];
	}
	if (depth > 0)
		return fail(sc, "the document ends before it is closed");
	/* the rest (true, false, null, what is not JSON) cJSON refuses */
	return true;
}

static int key_cmp(const void *a, const void *b)
{
	return strcmp((*(cJSON *const *)a)->string, (*(cJSON *const *)b)->string);
}

/* The key that "o" holds twice, NULL if none: sorted, O(n log n). */
static const char *dup_key(const cJSON *o, const cJSON **seen, size_t cap)
{
	const cJSON *c;
	size_t n = 0, i;

	for (c = o->child; c; c = c->next)
		seen[n++] = c;
	if (n > cap)
		return NULL;
	qsort(seen, n, sizeof(*seen), key_cmp);
	for (i = 1; i < n; i++)
		if (!strcmp(seen[i - 1]->string, seen[i]->string))
			return seen[i]->string;
	return NULL;
}

/*
 * Every object of the tree, depth first, with the path to it for the message
 * ("host.devices[0]"). "seen" holds as many items as the document has, so
 * any object's children fit.
 */
static const char *walk(const cJSON *j, char *path, size_t plen, const cJSON **seen,
			size_t cap)
{
	const cJSON *c;
	const char *dup;
	size_t n = strlen(path), i = 0;

	if (cJSON_IsObject(j) && (dup = dup_key(j, seen, cap)))
		return dup;
	for (c = j ? j->child : NULL; c; c = c->next, i++) {
		if (!cJSON_IsObject(c) && !cJSON_IsArray(c))
			continue;
		if (cJSON_IsObject(j))
			snprintf(path + n, plen - n, "%s%s", n ? "." : "", c->string);
		else
			snprintf(path + n, plen - n, "[%zu]", i);
		if ((dup = walk(c, path, plen, seen, cap)))
			return dup;
		path[n] = '\0';
	}
	return NULL;
}

static size_t count_items(const cJSON *j)
{
	const cJSON *c;
	size_t n = 1;

	for (c = j->child; c; c = c->next)
		n += count_items(c);
	return n;
}

static int check_keys(const cJSON *doc, const char *what, struct rctl_err *e)
{
	size_t cap = count_items(doc);
	const cJSON **seen = malloc(cap * sizeof(*seen));
	const char *dup;
	char path[512] = "";

	if (!seen)
		return rctl_err_strerror(e, ENOMEM, "cannot read %s", what);
	dup = walk(doc, path, sizeof(path), seen, cap);
	if (dup)
		rctl_err_plain(e, EINVAL, "cannot read %s: key \"%.64s\" twice in %s",
			     what, dup, path[0] ? path : "the top object");
	free(seen);
	return dup ? -EINVAL : 0;
}

int rctl_json_read(const char *text, size_t len, const char *what,
		   const char *name, cJSON **doc, struct rctl_err *e)
{
	struct scan sc = { .s = (const unsigned char *)text, .len = len };
	const char *end = NULL;
	char subj[320];
	int ret;

	snprintf(subj, sizeof(subj), name ? "%s '%.256s'" : "%s", what, name);
	what = subj;

	*doc = NULL;
	if (len > RCTL_JSON_MAX_BYTES)
		return rctl_err_plain(e, EFBIG, "cannot read %s: larger than %u MiB",
				    what, RCTL_JSON_MAX_BYTES >> 20);
	/* quoting adds 2 bytes to a number of 16 or more */
	sc.out = malloc(len + len / 8 + 16);
	if (!sc.out)
		return rctl_err_strerror(e, ENOMEM, "cannot read %s", what);
	if (!scan(&sc)) {
		free(sc.out);
		return rctl_err_plain(e, EINVAL, "cannot read %s: %s at byte %zu",
				    what, sc.why, sc.at);
	}
	sc.out[sc.k] = '\0';
	*doc = cJSON_ParseWithLengthOpts(sc.out, sc.k + 1, &end, 1);
	free(sc.out);
	if (!*doc)
		return rctl_err_plain(e, EINVAL, "cannot read %s: not valid JSON", what);
	ret = check_keys(*doc, what, e);
	if (ret) {
		cJSON_Delete(*doc);
		*doc = NULL;
	}
	return ret;
}

/* ---- streams of documents, as pdsh prints them (reach --matrix, compare) ---- */

/* pdsh's "host: " before a line: the host names the document. */
const char *rctl_pdsh_prefix(const char *p, char *host, size_t len)
{
	size_t n = strcspn(p, ": \t\n{");

	if (p[n] != ':' || p[n + 1] != ' ' || !n || n >= len)
		return p;
	memcpy(host, p, n);
	host[n] = '\0';
	return p + n + 2;
}

/*
 * pdsh's own line about a host ("pdsh@admin: node4: ssh exited with exit
 * code 255"): that host's run is missing, and this says why.
 */
bool rctl_pdsh_line(const char *p, const char **host, size_t *hlen, const char **why)
{
	const char *c;

	if (strncmp(p, "pdsh@", 5) || !(c = strstr(p, ": ")))
		return false;
	*host = c + 2;
	*hlen = strcspn(*host, ": \n");
	*why = (*host)[*hlen] == ':' ? *host + *hlen + 1 + strspn(*host + *hlen + 1, " ") : c + 2;
	return true;
}

/* After what could not be read: on to the next line that starts a document. */
const char *rctl_pdsh_next_doc(const char *p)
{
	char host[256];

	while ((p = strchr(p, '\n'))) {
		p++;
		if (*rctl_pdsh_prefix(p, host, sizeof(host)) == '{' || !strncmp(p, "pdsh@", 5))
			return p;
	}
	return "";
}
