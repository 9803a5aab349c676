// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The generic JSON <-> struct engine: any struct described by a field table
 * (struct rctl_schema) to JSON and back, with exact 64-bit integers and
 * strict ranges, and freed through the same table. It knows no model field:
 * the host's tables are lib/model_fields.c, the documents lib/snapshot.c.
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
#include "rocectl/schema.h"

/* ---- model → JSON ---------------------------------------------------- */

cJSON *rctl_json_raw_num(const char *fmt, ...)
{
	char buf[32];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return cJSON_CreateRaw(buf);
}

/*
 * The shortest of %.15g, %.16g, %.17g that reads back as the same double
 * (cJSON's own printer compares with a tolerance and drops the last digits).
 */
static cJSON *dbl_to_json(double d)
{
	char buf[40];
	int prec;

	if (!isfinite(d))
		return cJSON_CreateNull();
	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	snprintf(buf, sizeof(buf), "%.*g", prec, d);
	return cJSON_CreateRaw(buf);
}

static cJSON *vec_to_json(const struct rctl_field *f, const char *p)
{
	cJSON *a = cJSON_CreateArray();
	size_t i, n = f->type == FT_U64V ? f->size / 8 : f->size;

	for (i = 0; i < n; i++) {
		if (f->type == FT_U8V)
			cJSON_AddItemToArray(a, rctl_json_raw_num("%u", ((const uint8_t *)p)[i]));
		else if (f->type == FT_BOOLV)
			cJSON_AddItemToArray(a, cJSON_CreateBool(((const bool *)p)[i]));
		else
			cJSON_AddItemToArray(a, rctl_json_raw_num("%" PRIu64, ((const uint64_t *)p)[i]));
	}
	return a;
}

/* Unknown is null, never "" (one JSON style): an empty string or name. */
static cJSON *enum_to_json(const struct rctl_field *f, int v)
{
	if (v < 0 || (size_t)v >= f->n_names || !f->names[v] || !f->names[v][0])
		return cJSON_CreateNull();
	return cJSON_CreateString(f->names[v]);
}

static cJSON *field_to_json(const struct rctl_field *f, const char *base)
{
	const char *p = base + f->off;
	cJSON *a;
	uint32_t i, n;

	switch (f->type) {
	case FT_STR: return *p ? cJSON_CreateString(p) : cJSON_CreateNull();
	case FT_U32: return rctl_json_raw_num("%" PRIu32, *(const uint32_t *)p);
	case FT_U64: return rctl_json_raw_num("%" PRIu64, *(const uint64_t *)p);
	case FT_S32: return rctl_json_raw_num("%" PRId32, *(const int32_t *)p);
	case FT_S64: return rctl_json_raw_num("%" PRId64, *(const int64_t *)p);
	case FT_BOOL: return cJSON_CreateBool(*(const bool *)p);
	case FT_DBL: return dbl_to_json(*(const double *)p);
	case FT_OBJ: return rctl_schema_to_json(f->sub, p);
	case FT_U8V: case FT_BOOLV: case FT_U64V: return vec_to_json(f, p);
	case FT_ENUM: return enum_to_json(f, *(const int *)p);
	case FT_ARR:
		a = cJSON_CreateArray();
		n = *(const uint32_t *)(base + f->count_off);
		for (i = 0; i < n; i++)
			cJSON_AddItemToArray(a, rctl_schema_to_json(f->sub,
				*(char *const *)p + (size_t)i * f->sub->size));
		return a;
	}
	return cJSON_CreateNull();
}

cJSON *rctl_schema_to_json(const struct rctl_schema *s, const void *p)
{
	cJSON *o = cJSON_CreateObject();
	const struct rctl_field *f;

	for (f = s->fields; f->key; f++)
		cJSON_AddItemToObject(o, f->key, field_to_json(f, p));
	return o;
}

/* ---- JSON → model ---------------------------------------------------- */

static int bad(struct rctl_err *e, const char *where, const char *key,
	       const char *what)
{
	return rctl_err_plain(e, EINVAL, "%s: '%s' %s", where, key, what);
}

/* "-"? digits, nothing else: what rctl_json_read() keeps as a string. */
static bool int_digits(const char *s, bool neg_ok)
{
	if (neg_ok && *s == '-')
		s++;
	return *s && strspn(s, "0123456789") == strlen(s);
}

/* A number, or the exact digits rctl_json_read() kept as a string. */
static int get_int(const cJSON *j, long double min, long double max, long double *v)
{
	if (cJSON_IsNumber(j)) {
		*v = j->valuedouble;
	} else if (cJSON_IsString(j) && int_digits(j->valuestring, true)) {
		errno = 0;
		*v = strtold(j->valuestring, NULL);
		if (errno)
			return -ERANGE;
	} else {
		return -EINVAL;
	}
	if (!isfinite(*v) || *v != floorl(*v) || *v < min || *v > max)
		return -ERANGE;
	return 0;
}

static int int_from_json(const struct rctl_field *f, const cJSON *j, char *p)
{
	long double v;
	int ret;

	/* Exact: " -1", "" and "1e3" are not u64 digits (strtoull took them). */
	if (f->type == FT_U64 && cJSON_IsString(j)) {
		if (!int_digits(j->valuestring, false))
			return -EINVAL;
		errno = 0;
		*(uint64_t *)p = strtoull(j->valuestring, NULL, 10);
		return errno ? -ERANGE : 0;
	}
	switch (f->type) {
	case FT_U32: ret = get_int(j, 0, UINT32_MAX, &v); if (!ret) *(uint32_t *)p = v; break;
	case FT_U64: ret = get_int(j, 0, 18446744073709551615.0L, &v); if (!ret) *(uint64_t *)p = v; break;
	case FT_S32: ret = get_int(j, INT32_MIN, INT32_MAX, &v); if (!ret) *(int32_t *)p = v; break;
	default: ret = get_int(j, INT64_MIN, INT64_MAX, &v); if (!ret) *(int64_t *)p = v; break;
	}
	return ret;
}

static int vec_from_json(const struct rctl_field *f, const cJSON *j, char *p,
			 const char *where, struct rctl_err *e)
{
	size_t i, n = f->type == FT_U64V ? f->size / 8 : f->size;
	struct rctl_field one = { .key = f->key, .type = FT_U64 };
	const cJSON *it;
	uint64_t v;

	if (!cJSON_IsArray(j) || (size_t)cJSON_GetArraySize(j) != n)
		return bad(e, where, f->key, "is not an array of the right length");
	i = 0;
	cJSON_ArrayForEach(it, j) {
		if (f->type == FT_BOOLV) {
			if (!cJSON_IsBool(it))
				return bad(e, where, f->key, "holds a non-boolean");
			((bool *)p)[i++] = cJSON_IsTrue(it);
			continue;
		}
		if (int_from_json(&one, it, (char *)&v) ||
		    (f->type == FT_U8V && v > 255))
			return bad(e, where, f->key, "holds a bad number");
		if (f->type == FT_U8V)
			((uint8_t *)p)[i++] = v;
		else
			((uint64_t *)p)[i++] = v;
	}
	return 0;
}

static int arr_from_json(const struct rctl_field *f, const cJSON *j, char *base,
			 const char *where, struct rctl_err *e)
{
	uint32_t *cnt = (uint32_t *)(base + f->count_off);
	char **arr = (char **)(base + f->off);
	char sub[256];
	const cJSON *it;
	int ret, n;

	if (!cJSON_IsArray(j))
		return bad(e, where, f->key, "is not an array");
	n = cJSON_GetArraySize(j);
	*arr = n ? calloc(n, f->sub->size) : NULL;
	if (n && !*arr)
		return rctl_err_plain(e, ENOMEM, "%s: out of memory", where);
	*cnt = 0;
	cJSON_ArrayForEach(it, j) {
		snprintf(sub, sizeof(sub), "%s.%s[%u]", where, f->key, *cnt);
		ret = rctl_schema_from_json(f->sub, it, *arr + (size_t)*cnt * f->sub->size,
					    sub, e);
		(*cnt)++;
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Every double of the model is a duration: finite, not negative. A whole
 * number of 16+ digits (1e16 printed by %.17g) arrives quoted.
 */
static int dbl_from_json(const struct rctl_field *f, const cJSON *j, double *d,
			 const char *where, struct rctl_err *e)
{
	double v;

	if (cJSON_IsNull(j))
		return 0;
	if (cJSON_IsNumber(j))
		v = j->valuedouble;
	else if (cJSON_IsString(j) && int_digits(j->valuestring, true))
		v = strtod(j->valuestring, NULL);
	else
		return bad(e, where, f->key, "is not a number");
	if (!isfinite(v) || v < 0)
		return bad(e, where, f->key, "is not a finite number >= 0");
	*d = v;
	return 0;
}

/* Exactly one of the names (null is the name ""); the value is its index. */
static int enum_from_json(const struct rctl_field *f, const cJSON *j, int *v,
			  const char *where, struct rctl_err *e)
{
	const char *name = cJSON_IsNull(j) ? "" : cJSON_GetStringValue(j);
	size_t i;

	if (!name)
		return bad(e, where, f->key, "is not a string");
	for (i = 0; i < f->n_names; i++)
		if (f->names[i] && !strcmp(f->names[i], name)) {
			*v = (int)i;
			return 0;
		}
	return rctl_err_plain(e, EINVAL, "%s: unknown %s '%.80s'", where, f->key,
			    name[0] ? name : "null");
}

static int field_from_json(const struct rctl_field *f, const cJSON *j, char *base,
			   const char *where, struct rctl_err *e)
{
	char *p = base + f->off, sub[256];

	switch (f->type) {
	case FT_STR:
		if (cJSON_IsNull(j))
			return 0;
		if (!cJSON_IsString(j))
			return bad(e, where, f->key, "is not a string");
		if (strlen(j->valuestring) >= f->size)
			return bad(e, where, f->key, "is too long");
		strcpy(p, j->valuestring);
		return 0;
	case FT_BOOL:
		if (!cJSON_IsBool(j))
			return bad(e, where, f->key, "is not a boolean");
		*(bool *)p = cJSON_IsTrue(j);
		return 0;
	case FT_DBL:
		return dbl_from_json(f, j, (double *)p, where, e);
	case FT_OBJ:
		snprintf(sub, sizeof(sub), "%s.%s", where, f->key);
		return rctl_schema_from_json(f->sub, j, p, sub, e);
	case FT_ARR:
		return arr_from_json(f, j, base, where, e);
	case FT_U8V: case FT_BOOLV: case FT_U64V:
		return vec_from_json(f, j, p, where, e);
	case FT_ENUM:
		return enum_from_json(f, j, (int *)p, where, e);
	default:
		if (int_from_json(f, j, p))
			return bad(e, where, f->key, "is not an integer in range");
		return 0;
	}
}

/* Missing keys keep their zero value; present keys must have the right type. */
int rctl_schema_from_json(const struct rctl_schema *s, const cJSON *j, void *p,
			  const char *where, struct rctl_err *e)
{
	const struct rctl_field *f;
	const cJSON *it;
	int ret;

	if (!cJSON_IsObject(j))
		return rctl_err_plain(e, EINVAL, "%s: expected an object (%s)", where, s->name);
	for (f = s->fields; f->key; f++) {
		it = cJSON_GetObjectItemCaseSensitive(j, f->key);
		if (!it)
			continue;
		ret = field_from_json(f, it, p, where, e);
		if (ret)
			return ret;
	}
	return 0;
}

void rctl_schema_free(const struct rctl_schema *s, void *p)
{
	const struct rctl_field *f;
	uint32_t i, n;
	char *arr;

	for (f = s->fields; f->key; f++) {
		if (f->type == FT_OBJ)
			rctl_schema_free(f->sub, (char *)p + f->off);
		if (f->type != FT_ARR)
			continue;
		arr = *(char **)((char *)p + f->off);
		n = *(uint32_t *)((char *)p + f->count_off);
		for (i = 0; arr && i < n; i++)
			rctl_schema_free(f->sub, arr + (size_t)i * f->sub->size);
		free(arr);
	}
}
