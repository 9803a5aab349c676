/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host snapshots: the host model as JSON and back, driven by one table of
 * fields per struct (lib/model_fields.c, run by the engine of lib/schema.c;
 * the documents are lib/snapshot.c), so adding a model field is one line.
 * Reading rejects anything that is not exactly the schema: another
 * schema_version, wrong types, truncated text. u64 values are exact both ways.
 */
#ifndef ROCECTL_SNAPSHOT_H
#define ROCECTL_SNAPSHOT_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "rocectl/err.h"
#include "rocectl/model.h"

/*
 * 2 added the netdev stacking fields (vlan_*, master). A version 1 snapshot
 * reads as a host without VLANs or bonds: the fields it lacks stay zero.
 * 3 moved "hostname" and "time" (now RFC 3339 UTC, was an epoch) out of
 * "host" to the top, as in every rocectl document, and writes unknown
 * (an empty string) as null; versions 1 and 2 are still read.
 */
#define RCTL_SNAPSHOT_VERSION 3
#define RCTL_SNAPSHOT_VERSION_MIN 1

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

extern const struct rctl_schema rctl_host_schema;

/* Generic conversion for any schema (also used by other JSON files). */
cJSON *rctl_schema_to_json(const struct rctl_schema *s, const void *p);
int rctl_schema_from_json(const struct rctl_schema *s, const cJSON *j, void *p,
			  const char *where, struct rctl_err *e);
void rctl_schema_free(const struct rctl_schema *s, void *p);
/* A number printed exactly as fmt says (64-bit integers stay exact in JSON). */
cJSON *rctl_json_raw_num(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The whole snapshot document: schema_version, hostname, time, kind, host. */
char *rctl_snapshot_text(const struct rctl_host *h, bool pretty);
/* Strictly (rctl_json_read()), then through the field tables. */
int rctl_snapshot_parse(const char *text, const char *name, struct rctl_host *h,
			struct rctl_err *e);
int rctl_snapshot_load(const char *path, struct rctl_host *h, struct rctl_err *e);


#endif
