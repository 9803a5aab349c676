// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Snapshot documents: the host model as a JSON file ("kind":
 * "rocectl-host-snapshot", schema_version) written and loaded through the
 * engine of lib/schema.c and the field tables of lib/model_fields.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rocectl/collect.h"
#include "rocectl/snapshot.h"

/* ---- documents ------------------------------------------------------- */

char *rctl_snapshot_text(const struct rctl_host *h, bool pretty)
{
	cJSON *doc = cJSON_CreateObject();
	char *s;

	cJSON_AddItemToObject(doc, "schema_version", rctl_json_raw_num("%d", RCTL_SNAPSHOT_VERSION));
	cJSON_AddStringToObject(doc, "kind", "rocectl-host-snapshot");
	cJSON_AddItemToObject(doc, "host", rctl_schema_to_json(&rctl_host_schema, h));
	s = pretty ? cJSON_Print(doc) : cJSON_PrintUnformatted(doc);
	cJSON_Delete(doc);
	return s;
}

/* The end of the JSON number token at s: -? digits (. digits)? ([eE] [+-]? digits)? */
static size_t num_token(const char *s, size_t len, size_t i, bool *integer)
{
	size_t d;

	i += s[i] == '-';
	d = strspn(s + i, "0123456789");
	i += d;
	*integer = true;
	if (i < len && s[i] == '.') {
		*integer = false;
		i++;
		i += strspn(s + i, "0123456789");
	}
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		*integer = false;
		i++;
		i += s[i] == '+' || s[i] == '-';
		i += strspn(s + i, "0123456789");
	}
	return i;
}

/*
 * cJSON keeps numbers as doubles, which lose integers above 2^53 (counters).
 * Quote integer tokens of 16 digits or more before parsing; the readers
 * accept digit strings for integer fields. A fraction or an exponent is part
 * of its number, never an integer of its own ("0.30000000000000004").
 */
cJSON *rctl_json_parse_exact(const char *text)
{
	size_t len = strlen(text), i = 0, k = 0, end;
	bool in_str = false, integer;
	char *buf = malloc(len * 2 + 1);
	cJSON *j;

	if (!buf)
		return NULL;
	while (i < len) {
		char c = text[i];

		if (in_str) {
			buf[k++] = text[i++];
			if (c == '\\' && i < len)
				buf[k++] = text[i++];
			else if (c == '"')
				in_str = false;
			continue;
		}
		if (c == '"')
			in_str = true;
		if (c == '-' || (c >= '0' && c <= '9')) {
			end = num_token(text, len, i, &integer);
			if (integer && end - i >= 16)
				buf[k++] = '"';
			memcpy(buf + k, text + i, end - i);
			k += end - i;
			if (integer && end - i >= 16)
				buf[k++] = '"';
			i = end;
			continue;
		}
		buf[k++] = text[i++];
	}
	buf[k] = '\0';
	j = cJSON_Parse(buf);
	free(buf);
	return j;
}

int rctl_snapshot_parse(const char *text, const char *name, struct rctl_host *h,
			struct rctl_err *e)
{
	const cJSON *ver, *kind, *host;
	cJSON *doc;
	uint32_t i;
	int ret;

	memset(h, 0, sizeof(*h));
	doc = rctl_json_parse_exact(text);
	if (!doc)
		return rctl_err_msg(e, EINVAL, "cannot read snapshot '%s': not valid JSON", name);
	ver = cJSON_GetObjectItemCaseSensitive(doc, "schema_version");
	kind = cJSON_GetObjectItemCaseSensitive(doc, "kind");
	host = cJSON_GetObjectItemCaseSensitive(doc, "host");
	if (!cJSON_IsObject(doc) || !cJSON_IsNumber(ver) || !cJSON_IsString(kind) ||
	    strcmp(kind->valuestring, "rocectl-host-snapshot") || !host)
		ret = rctl_err_msg(e, EINVAL, "cannot read snapshot '%s': not a rocectl host snapshot", name);
	else if (ver->valuedouble != RCTL_SNAPSHOT_VERSION &&
		 ver->valuedouble != RCTL_SNAPSHOT_VERSION_MIN)
		ret = rctl_err_msg(e, EINVAL, "cannot read snapshot '%s': schema_version %g, expected %d to %d",
				   name, ver->valuedouble, RCTL_SNAPSHOT_VERSION_MIN,
				   RCTL_SNAPSHOT_VERSION);
	else
		ret = rctl_schema_from_json(&rctl_host_schema, host, h, "host", e);
	if (ret && e->errnum && strncmp(e->msg, "cannot", 6)) {
		char msg[sizeof(e->msg)];

		snprintf(msg, sizeof(msg), "%s", e->msg);
		rctl_err_msg(e, EINVAL, "cannot read snapshot '%s': %.400s", name, msg);
	}
	cJSON_Delete(doc);
	if (ret) {
		rctl_host_free(h);
		return ret;
	}
	/* Snapshots of an older rocectl took bnxt_en's host-DCBX zeroes for values. */
	for (i = 0; i < h->n_netdevs; i++)
		rctl_dcb_fw_managed(&h->netdevs[i]);
	return 0;
}

#define SNAPSHOT_MAX (64u << 20)

int rctl_snapshot_load(const char *path, struct rctl_host *h, struct rctl_err *e)
{
	FILE *f = fopen(path, "r");
	size_t n = 0, cap = 65536;
	char *buf, *more;
	struct stat st;
	int ret;

	memset(h, 0, sizeof(*h));
	if (!f)
		return rctl_err_set(e, errno, "cannot open snapshot '%s'", path);
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
		fclose(f);
		return rctl_err_msg(e, EISDIR, "cannot read snapshot '%s': it is a directory", path);
	}
	buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n - 1, f);
		if (n < cap - 1 || cap >= SNAPSHOT_MAX)
			break;
		cap *= 2;
		more = realloc(buf, cap);
		if (!more)
			free(buf);
		buf = more;
	}
	if (!buf) {
		fclose(f);
		return rctl_err_set(e, ENOMEM, "cannot read snapshot '%s'", path);
	}
	if (ferror(f) || n >= SNAPSHOT_MAX - 1) {
		ret = ferror(f) ? errno : EFBIG;
		fclose(f);
		free(buf);
		return rctl_err_set(e, ret ? ret : EIO, "cannot read snapshot '%s'", path);
	}
	fclose(f);
	buf[n] = '\0';
	ret = rctl_snapshot_parse(buf, path, h, e);
	free(buf);
	return ret;
}
