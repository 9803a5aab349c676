/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one output path of rocectl. Every field is written by one call that
 * serves both the text and the JSON rendering (the iproute2 json_print model):
 *
 *	out_u64(OUT_ANY, "active_mtu", "  active_mtu %" PRIu64, mtu);
 *
 * In JSON mode the value lands in the current object (or array) under "key";
 * in text mode "fmt" is printed, or, inside a table row, the value fills the
 * column whose key matches. JSON is built in memory (cJSON) and written once
 * by out_finish(), so a run prints exactly one document. 64-bit integers are
 * written as raw JSON numbers, never through a double.
 */
#ifndef ROCECTL_OUT_H
#define ROCECTL_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Version of every command's JSON document (not of snapshots or state files).
 * 2: hostname and time in every document, one JSON style (CONTRIBUTING.md).
 * 3: compare's values typed (counts as numbers, unknown null) with group and
 *    file; findings and tune changes name their setting (setting_id); a
 *    finding on a RoCE LAG slave names the slave as its netdev.
 */
#define RCTL_SCHEMA_VERSION 3

enum {
	OUT_TEXT = 1 << 0,	/* text rendering only */
	OUT_JSON = 1 << 1,	/* JSON rendering only */
	OUT_ANY = OUT_TEXT | OUT_JSON,
};

/* Table columns (text mode); JSON ignores them. */
enum { OUT_COL_RIGHT = 1 << 0 };

struct out_col {
	const char *key;	/* field key that fills this column */
	const char *title;	/* header, upper case by convention */
	unsigned int flags;
};

/* Start a run: text to "f" (stdout when NULL), or one JSON document. */
int out_init(FILE *f, bool json, bool pretty);
bool out_json(void);

/*
 * Every document begins with "schema_version", "hostname" and "time" (RFC 3339
 * UTC, taken when the document starts). A command that describes another
 * host (a snapshot) sets its hostname; tests fix both. NULL keeps a value.
 */
void out_set_stamp(const char *hostname, const char *time_rfc3339);

/* Write the document, flush, and report a failed write as -errno. */
int out_finish(void);

/* JSON lines (watch mode): write the current document and start a new one. */
int out_flush_doc(void);

/* Drop everything and free (used by tests and after a failed write). */
void out_reset(void);

/* Containers. In text mode these are no-ops. */
void out_obj_begin(const char *key);
void out_obj_end(void);
void out_arr_begin(const char *key);
void out_arr_end(void);

/*
 * Fields. A NULL string is JSON null and prints as "-" in text; an empty
 * string is JSON null too (the JSON style has no "" for unknown). Text output
 * escapes what a terminal would obey (out_escape()); JSON keeps the string
 * exact (cJSON writes controls as \uNNNN).
 */
void out_str(int where, const char *key, const char *fmt, const char *v);
void out_u64(int where, const char *key, const char *fmt, uint64_t v);
void out_s64(int where, const char *key, const char *fmt, int64_t v);
void out_dbl(int where, const char *key, const char *fmt, double v);
void out_bool(int where, const char *key, const char *fmt, bool v);
void out_null(int where, const char *key, const char *fmt);

/*
 * JSON only: the items of object "obj" (a cJSON tree the caller made, taken
 * and freed) into the object being written, each unless its key is there
 * already: a struct of lib/ written by its schema table beside the fields
 * that text shows too.
 */
struct cJSON;
void out_json_fields(struct cJSON *obj);
/* JSON only: "item" (taken and freed) under "key". */
void out_json_item(const char *key, struct cJSON *item);

/*
 * A malloc'd copy of s fit for a terminal, as systemd's
 * utf8_escape_non_printable() does it: C0 controls, DEL, C1 controls and
 * bytes that are not UTF-8 become \xNN (a C1 written in UTF-8 is two, \xc2\x9b);
 * printable UTF-8 stays. "layout" keeps newline and tab (free text whose
 * format lays out lines). A backslash stays itself. NULL without memory.
 */
char *out_escape(const char *s, bool layout);

/*
 * A terminal control sequence of rocectl's own ("\033[H\033[J" to redraw),
 * text mode only: the one text that is not escaped, so never pass it
 * anything read from outside.
 */
void out_ctrl(const char *seq);

/* Free text in text mode only (headings, blank lines), escaped with layout. */
void out_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Aligned tables for people. out_table_begin() opens a JSON array "key";
 * each row is a JSON object. In text mode rows are buffered and printed with
 * column widths fitted to their content by out_table_end().
 */
void out_table_begin(const char *key, const struct out_col *cols, int ncols);
void out_row_begin(void);
void out_row_end(void);
void out_table_end(void);
/*
 * Text for a terminal of "cols" columns (0: no limit, the default, and what
 * out_init() sets): a line wider is wrapped at spaces, its continuation
 * indented (a table row's to its last column), and a table that does not fit
 * even without its last column is printed as one record per row. Pipes and
 * files keep every line whole: only cmd/ knows a terminal and sets this.
 */
void out_set_width(int cols);

/* Left margin of the next text table, in spaces. */
void out_table_indent(int n);

/* Attach {"message": msg, "errno": n} as "error" to the JSON document. */
void out_error(int errnum, const char *msg);

/* Format a u64 the way JSON receives it (exact decimal). */
const char *out_u64_str(uint64_t v, char *buf, size_t len);

#endif
