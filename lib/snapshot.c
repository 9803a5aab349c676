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
#include "rocectl/json.h"
#include "rocectl/model_fields.h"
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

static int parse_doc(const char *text, size_t len, const char *name, struct rctl_host *h,
		     struct rctl_err *e)
{
	const cJSON *ver, *kind, *host;
	cJSON *doc;
	uint32_t i;
	int ret;

	memset(h, 0, sizeof(*h));
	ret = rctl_json_read(text, len, "snapshot", name, &doc, e);
	if (ret)
		return ret;
	ver = cJSON_GetObjectItemCaseSensitive(doc, "schema_version");
	kind = cJSON_GetObjectItemCaseSensitive(doc, "kind");
	host = cJSON_GetObjectItemCaseSensitive(doc, "host");
	if (!cJSON_IsObject(doc) || !cJSON_IsNumber(ver) || !cJSON_IsString(kind) ||
	    strcmp(kind->valuestring, "rocectl-host-snapshot") || !host)
		ret = rctl_err_plain(e, EINVAL, "cannot read snapshot '%s': not a rocectl host snapshot", name);
	else if (ver->valuedouble != RCTL_SNAPSHOT_VERSION &&
		 ver->valuedouble != RCTL_SNAPSHOT_VERSION_MIN)
		ret = rctl_err_plain(e, EINVAL, "cannot read snapshot '%s': schema_version %g, expected %d to %d",
				   name, ver->valuedouble, RCTL_SNAPSHOT_VERSION_MIN,
				   RCTL_SNAPSHOT_VERSION);
	else if ((ret = rctl_schema_from_json(&rctl_host_schema, host, h, "host", e))) {
		/* the engine says where in the document ("host.devices[0]: ..."); this says which */
		char msg[sizeof(e->msg)];

		snprintf(msg, sizeof(msg), "%s", e->msg);
		rctl_err_plain(e, EINVAL, "cannot read snapshot '%s': %.400s", name, msg);
	}
	cJSON_Delete(doc);
	if (ret) {
		rctl_host_free(h);
		return ret;
	}
	/* Snapshots of an older rocectl took bnxt_en's host-DCBX zeroes for values. */
	for (i = 0; i < h->n_netdevs; i++)
		rctl_dcb_fw_managed(&h->netdevs[i]);
	rctl_host_index(h);
	return 0;
}

int rctl_snapshot_parse(const char *text, const char *name, struct rctl_host *h,
			struct rctl_err *e)
{
	return parse_doc(text, strlen(text), name, h, e);
}

/* One byte more than the reader takes, so that it names the bound. */
#define SNAPSHOT_MAX (RCTL_JSON_MAX_BYTES + 1)

int rctl_snapshot_load(const char *path, struct rctl_host *h, struct rctl_err *e)
{
	FILE *f = fopen(path, "r");
	size_t n = 0, cap = 65536, got;
	char *buf, *more;
	struct stat st;
	int ret;

	memset(h, 0, sizeof(*h));
	if (!f)
		return rctl_err_strerror(e, errno, "cannot open snapshot '%s'", path);
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
		fclose(f);
		return rctl_err_plain(e, EISDIR, "cannot read snapshot '%s': it is a directory", path);
	}
	buf = malloc(cap);
	while (buf && n < SNAPSHOT_MAX) {
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (n < cap)
			break;
		cap *= 2;
		more = realloc(buf, cap);
		if (!more)
			free(buf);
		buf = more;
	}
	if (!buf) {
		fclose(f);
		return rctl_err_strerror(e, ENOMEM, "cannot read snapshot '%s'", path);
	}
	if (ferror(f)) {
		ret = errno ? errno : EIO;
		fclose(f);
		free(buf);
		return rctl_err_strerror(e, ret, "cannot read snapshot '%s'", path);
	}
	fclose(f);
	ret = parse_doc(buf, n, path, h, e);
	free(buf);
	return ret;
}
