// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Snapshot documents: the host model as a JSON file ("kind":
 * "rocectl-host-snapshot", schema_version) written and loaded through the
 * engine of lib/schema.c and the field tables of lib/model_fields.c.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rocectl/collect.h"
#include "rocectl/json.h"
#include "rocectl/model_fields.h"
#include "rocectl/snapshot.h"

/* ---- the stamp: hostname and time ------------------------------------- */

#define STAMP_F(k, t, m) { .key = k, .type = t, .off = offsetof(struct rctl_host, m), \
			   .size = sizeof(((struct rctl_host *)0)->m) }

/* Schema 3: top-level "hostname" (the time is RFC 3339, read by hand). */
static const struct rctl_field name_fields[] = {
	STAMP_F("hostname", FT_STR, hostname),
	{ 0 }
};
static const struct rctl_schema name_schema = {
	"snapshot", sizeof(struct rctl_host), name_fields
};

/* Schemas 1 and 2: "hostname" and an epoch "time" inside "host". */
static const struct rctl_field old_stamp_fields[] = {
	STAMP_F("hostname", FT_STR, hostname),
	STAMP_F("time", FT_S64, time),
	{ 0 }
};
static const struct rctl_schema old_stamp_schema = {
	"host", sizeof(struct rctl_host), old_stamp_fields
};

/* RFC 3339 UTC to the second, as every rocectl document; 0 is unknown (null). */
static cJSON *time_to_json(int64_t t)
{
	time_t tt = (time_t)t;
	char buf[32];
	struct tm tm;

	if (!t || !gmtime_r(&tt, &tm) || !strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
		return cJSON_CreateNull();
	return cJSON_CreateString(buf);
}

/* Digits where the template has 'd', its own character elsewhere. */
static bool rfc3339_shape(const char *s)
{
	const char *t = "dddd-dd-ddTdd:dd:ddZ";

	for (; *t; s++, t++)
		if (*t == 'd' ? !isdigit((unsigned char)*s) : *s != *t)
			return false;
	return !*s;
}

/* Exactly "YYYY-MM-DDTHH:MM:SSZ", a real date: what time_to_json() writes. */
static int time_from_json(const cJSON *j, int64_t *t)
{
	struct tm tm = { 0 }, back;
	const char *s;
	time_t tt;
	int n = 0;

	if (!j || cJSON_IsNull(j))
		return 0;
	s = cJSON_GetStringValue(j);
	if (!s || !rfc3339_shape(s) ||
	    sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
		   &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) != 6 || n != 20)
		return -EINVAL;
	tm.tm_year -= 1900;
	tm.tm_mon--;
	back = tm;
	tt = timegm(&tm);
	if (tt == (time_t)-1 || tm.tm_mday != back.tm_mday || tm.tm_mon != back.tm_mon ||
	    tm.tm_hour != back.tm_hour || tm.tm_min != back.tm_min || tm.tm_sec != back.tm_sec)
		return -EINVAL;
	*t = tt;
	return 0;
}

/* ---- documents ------------------------------------------------------- */

/*
 * Like every rocectl document: schema_version, hostname and time first, null
 * for unknown; then the kind and the model.
 */
char *rctl_snapshot_text(const struct rctl_host *h, bool pretty)
{
	cJSON *doc = cJSON_CreateObject(), *host;
	char *s;

	cJSON_AddItemToObject(doc, "schema_version", rctl_json_raw_num("%d", RCTL_SNAPSHOT_VERSION));
	cJSON_AddItemToObject(doc, "hostname", h->hostname[0] ? cJSON_CreateString(h->hostname) :
			      cJSON_CreateNull());
	cJSON_AddItemToObject(doc, "time", time_to_json(h->time));
	cJSON_AddStringToObject(doc, "kind", "rocectl-host-snapshot");
	host = rctl_schema_to_json(&rctl_host_schema, h);
	/* No capture taken: no "wire", as in a snapshot older than it. */
	if (host && !h->wire.st.ok && !h->wire.st.err)
		cJSON_DeleteItemFromObjectCaseSensitive(host, "wire");
	cJSON_AddItemToObject(doc, "host", host);
	s = pretty ? cJSON_Print(doc) : cJSON_PrintUnformatted(doc);
	cJSON_Delete(doc);
	return s;
}

/* The stamp where the document's version keeps it, then the model. */
/* The engine says where in the document ("host.devices[0]: ..."); this says which. */
static int schema_read(const struct rctl_schema *s, const cJSON *j, const char *where,
		       const char *name, struct rctl_host *h, struct rctl_err *e)
{
	char msg[sizeof(e->msg)];

	if (!rctl_schema_from_json(s, j, h, where, e))
		return 0;
	snprintf(msg, sizeof(msg), "%s", e->msg);
	return rctl_err_plain(e, EINVAL, "cannot read snapshot '%s': %.400s", name, msg);
}

static int read_host(const cJSON *doc, int version, const cJSON *host, const char *name,
		     struct rctl_host *h, struct rctl_err *e)
{
	int ret;

	if (version < 3)
		ret = schema_read(&old_stamp_schema, host, "host", name, h, e);
	else if (time_from_json(cJSON_GetObjectItemCaseSensitive(doc, "time"), &h->time))
		ret = rctl_err_plain(e, EINVAL, "cannot read snapshot '%s': 'time' is not "
				     "an RFC 3339 UTC time (YYYY-MM-DDTHH:MM:SSZ)", name);
	else
		ret = schema_read(&name_schema, doc, "snapshot", name, h, e);
	return ret ? ret : schema_read(&rctl_host_schema, host, "host", name, h, e);
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
	else if (ver->valuedouble != floor(ver->valuedouble) ||
		 ver->valuedouble < RCTL_SNAPSHOT_VERSION_MIN ||
		 ver->valuedouble > RCTL_SNAPSHOT_VERSION)
		ret = rctl_err_plain(e, EINVAL, "cannot read snapshot '%s': schema_version %g, expected %d to %d",
				   name, ver->valuedouble, RCTL_SNAPSHOT_VERSION_MIN,
				   RCTL_SNAPSHOT_VERSION);
	else
		ret = read_host(doc, (int)ver->valuedouble, host, name, h, e);
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

/* "-" is standard input, as 'rocectl collect -O -' writes to standard output. */
static FILE *snapshot_open(const char *path)
{
	int fd;
	FILE *f;

	if (strcmp(path, "-"))
		return fopen(path, "re");
	fd = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
	f = fd < 0 ? NULL : fdopen(fd, "r");
	if (!f && fd >= 0)
		close(fd);
	return f;
}

int rctl_snapshot_load(const char *path, struct rctl_host *h, struct rctl_err *e)
{
	FILE *f = snapshot_open(path);
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
