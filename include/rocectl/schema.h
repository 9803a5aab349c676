/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The generic JSON <-> struct engine (lib/schema.c): a struct described as a
 * table of fields converts to JSON and back, strictly (wrong types, unknown
 * enum names and bad sizes are errors, u64 values stay exact), and is freed
 * by the same table. The host model's tables are lib/model_fields.c
 * (model_fields.h); tune's state file has its own.
 */
#ifndef ROCECTL_SCHEMA_H
#define ROCECTL_SCHEMA_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "rocectl/err.h"

enum rctl_ftype {
	FT_STR,		/* char[size] */
	FT_U32,
	FT_U64,
	FT_S32,
	FT_S64,
	FT_BOOL,
	FT_DBL,
	FT_ARR,		/* pointer at off, uint32_t count at count_off, of sub */
	FT_OBJ,		/* embedded struct of sub */
	FT_U8V,		/* uint8_t[size] as an array of numbers */
	FT_BOOLV,	/* bool[size] as an array of booleans */
	FT_U64V,	/* uint64_t[size / 8] as an array of numbers */
	FT_ENUM,	/* an enum (int) as its name: names[n_names], "" allowed */
};

struct rctl_schema;

struct rctl_field {
	const char *key;
	enum rctl_ftype type;
	size_t off;
	size_t size;
	const struct rctl_schema *sub;
	size_t count_off;
	const char *const *names;	/* FT_ENUM: the name of each value */
	size_t n_names;
};

struct rctl_schema {
	const char *name;
	size_t size;
	const struct rctl_field *fields;	/* terminated by key NULL */
};

/* Generic conversion for any schema (also used by other JSON files). */
cJSON *rctl_schema_to_json(const struct rctl_schema *s, const void *p);
int rctl_schema_from_json(const struct rctl_schema *s, const cJSON *j, void *p,
			  const char *where, struct rctl_err *e);
void rctl_schema_free(const struct rctl_schema *s, void *p);
/* A number printed exactly as fmt says (64-bit integers stay exact in JSON). */
cJSON *rctl_json_raw_num(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
