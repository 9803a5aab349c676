// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one output path: text and JSON from the same field calls (out.h).
 * JSON is a cJSON tree written once at the end; text goes to the stream as
 * it comes, except tables, which are buffered to fit their columns. On a
 * terminal (out_set_width()) text goes out line by line, each line wider
 * than the terminal wrapped; elsewhere every byte as the caller wrote it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "rocectl/json.h"
#include "rocectl/out.h"

/* Field formats are chosen by the caller next to the key, by design. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

#define OUT_MAX_DEPTH 32

struct out_table {
	const struct out_col *cols;
	int ncols;
	char **cells;		/* nrows * ncols, NULL = empty */
	int nrows;
	int cap;
	bool active;
	bool in_row;
	int indent;
};

static struct {
	FILE *f;
	bool json;
	bool pretty;
	cJSON *root;
	cJSON *stack[OUT_MAX_DEPTH];
	int depth;
	struct out_table tab;
	char host[256];		/* "hostname" of the documents, "" = this host */
	char when[32];		/* "time", "" = now */
	int width;		/* text: the terminal's columns, 0 = no limit */
	char *line;		/* with a width: the text line not yet ended */
	size_t len, cap;
	int hang;		/* the line's continuation indent, -1 = its own */
} o;

static FILE *out_stream(void)
{
	return o.f ? o.f : stdout;
}

static void text_flush_line(void);

/* RFC 3339 UTC, to the second: "2026-11-30T23:45:12Z". */
static void now_rfc3339(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "1970-01-01T00:00:00Z");
}

/* Every document starts with schema_version, hostname and time. */
static void out_new_doc(void)
{
	char buf[256];

	o.root = cJSON_CreateObject();
	snprintf(buf, sizeof(buf), "%d", RCTL_SCHEMA_VERSION);
	cJSON_AddItemToObject(o.root, "schema_version", cJSON_CreateRaw(buf));
	if (!o.host[0] && gethostname(buf, sizeof(buf) - 1))
		buf[0] = '\0';
	buf[sizeof(buf) - 1] = '\0';
	cJSON_AddItemToObject(o.root, "hostname", o.host[0] ? cJSON_CreateString(o.host) :
			      buf[0] ? cJSON_CreateString(buf) : cJSON_CreateNull());
	if (!o.when[0])
		now_rfc3339(buf, sizeof(buf));
	cJSON_AddStringToObject(o.root, "time", o.when[0] ? o.when : buf);
	o.stack[0] = o.root;
	o.depth = 1;
}

void out_set_stamp(const char *hostname, const char *time_rfc3339)
{
	cJSON *v;

	if (hostname)
		snprintf(o.host, sizeof(o.host), "%s", hostname);
	if (time_rfc3339)
		snprintf(o.when, sizeof(o.when), "%s", time_rfc3339);
	if (!o.root)
		return;
	if (hostname && (v = cJSON_CreateString(hostname)))
		cJSON_ReplaceItemInObjectCaseSensitive(o.root, "hostname", v);
	if (time_rfc3339 && (v = cJSON_CreateString(time_rfc3339)))
		cJSON_ReplaceItemInObjectCaseSensitive(o.root, "time", v);
}

int out_init(FILE *f, bool json, bool pretty)
{
	text_flush_line();
	out_reset();
	o.width = 0;
	o.hang = -1;
	o.f = f;
	o.json = json || pretty;
	o.pretty = pretty;
	if (o.json)
		out_new_doc();
	return 0;
}

bool out_json(void)
{
	return o.json;
}

static void table_free(void)
{
	int i;

	for (i = 0; i < o.tab.nrows * o.tab.ncols; i++)
		free(o.tab.cells[i]);
	free(o.tab.cells);
	memset(&o.tab, 0, sizeof(o.tab));
}

void out_reset(void)
{
	table_free();
	cJSON_Delete(o.root);
	o.root = NULL;
	o.depth = 0;
}

/*
 * The document as cJSON printed it, but the C1 controls (U+0080..U+009F,
 * UTF-8 C2 80..C2 9F) written as \u0080..\u009f: cJSON escapes only those
 * below U+0020, and a terminal takes U+009B for a CSI, as ESC [. Outside
 * strings a JSON document is ASCII, so the bytes can only be in a string:
 * the same document, every string the same value.
 */
static void put_json(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p; p++)
		if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			fprintf(f, "\\u%04x", *++p);
		else
			fputc(*p, f);
}

static int out_write_doc(void)
{
	FILE *f = out_stream();
	char *s;

	if (!o.root)
		return 0;
	s = o.pretty ? cJSON_Print(o.root) : cJSON_PrintUnformatted(o.root);
	if (!s)
		return -ENOMEM;
	put_json(f, s);
	fputc('\n', f);
	cJSON_free(s);
	return 0;
}

static int out_flush_stream(void)
{
	FILE *f = out_stream();

	text_flush_line();
	errno = 0;
	if (fflush(f) == EOF || ferror(f)) {
		int err = errno ? errno : EIO;

		clearerr(f);
		return -err;
	}
	return 0;
}

int out_finish(void)
{
	int ret = 0;

	if (o.tab.active)
		out_table_end();
	if (o.json)
		ret = out_write_doc();
	out_reset();
	if (ret)
		return ret;
	return out_flush_stream();
}

int out_flush_doc(void)
{
	int ret;

	if (!o.json)
		return out_flush_stream();
	ret = out_write_doc();
	cJSON_Delete(o.root);
	out_new_doc();
	return ret ? ret : out_flush_stream();
}

static cJSON *out_top(void)
{
	return o.depth ? o.stack[o.depth - 1] : NULL;
}

static void json_add(const char *key, cJSON *item)
{
	cJSON *top = out_top();

	if (!top || !item) {
		cJSON_Delete(item);
		return;
	}
	if (cJSON_IsArray(top))
		cJSON_AddItemToArray(top, item);
	else
		cJSON_AddItemToObject(top, key, item);
}

static void json_push(const char *key, cJSON *item)
{
	if (o.depth >= OUT_MAX_DEPTH) {
		cJSON_Delete(item);
		return;
	}
	json_add(key, item);
	o.stack[o.depth++] = item;
}

void out_json_item(const char *key, cJSON *item)
{
	if (o.json)
		json_add(key, item);
	else
		cJSON_Delete(item);
}

void out_json_fields(cJSON *obj)
{
	cJSON *top = out_top(), *it;

	while (o.json && top && cJSON_IsObject(top) && obj && (it = obj->child)) {
		cJSON_DetachItemViaPointer(obj, it);
		if (cJSON_GetObjectItemCaseSensitive(top, it->string))
			cJSON_Delete(it);
		else
			cJSON_AddItemToObject(top, it->string, it);
	}
	cJSON_Delete(obj);
}

void out_obj_begin(const char *key)
{
	if (o.json)
		json_push(key, cJSON_CreateObject());
}

void out_obj_end(void)
{
	if (o.json && o.depth > 1)
		o.depth--;
}

void out_arr_begin(const char *key)
{
	if (o.json)
		json_push(key, cJSON_CreateArray());
}

void out_arr_end(void)
{
	out_obj_end();
}

static int table_col(const char *key)
{
	int i;

	for (i = 0; i < o.tab.ncols; i++)
		if (!strcmp(o.tab.cols[i].key, key))
			return i;
	return -1;
}

char *out_escape(const char *s, bool layout)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + strlen(s);
	char *buf = malloc((size_t)(end - p) * 4 + 1), *q = buf;
	size_t n;

	if (!buf)
		return NULL;
	while (*p) {
		if (*p >= 0x20 && *p < 0x7f) {
			*q++ = (char)*p++;
		} else if (layout && (*p == '\n' || *p == '\t')) {
			*q++ = (char)*p++;
		} else if ((n = rctl_utf8_len(p, (size_t)(end - p))) &&
			   !(p[0] == 0xc2 && p[1] < 0xa0)) {	/* C1: U+0080..U+009F */
			memcpy(q, p, n);
			q += n, p += n;
		} else {
			q += sprintf(q, "\\x%02x", *p++);
		}
	}
	*q = '\0';
	return buf;
}

void out_set_width(int cols)
{
	o.width = cols > 0 ? cols : 0;
}

/* Columns of n bytes of UTF-8 on a terminal: one per character. */
static int text_cols(const char *s, size_t n)
{
	int c = 0;

	for (; n; s++, n--)
		c += ((unsigned char)*s & 0xc0) != 0x80;
	return c;
}

/*
 * Where to end a piece of s (len bytes) that fits "room" columns: after the
 * last space that keeps it within them, past "min" bytes so that a piece is
 * never only indent. A word wider than the room is not cut (a command or an
 * NQN stays one word to copy): the piece ends after it, wider than the room.
 */
static size_t text_cut(const char *s, size_t len, int room, size_t min)
{
	size_t i;
	int c = 0;
	size_t cut = 0;

	for (i = 0; i < len; i++) {
		if (((unsigned char)s[i] & 0xc0) == 0x80)
			continue;
		if (s[i] == ' ' && i > min) {
			if (c > room && cut)
				break;
			cut = i;
			if (c >= room)
				break;
		}
		c++;
	}
	return cut ? cut : len;
}

/*
 * One ended line at the terminal's width: pieces broken at spaces, each
 * continuation indented by the line's own indent plus two (or, for a table
 * row, to its last column), so that a wrapped line still reads as one.
 */
static void text_put_wrapped(FILE *f, const char *s, size_t len)
{
	size_t ind = strspn(s, " "), cut;
	int hang = o.hang >= 0 ? o.hang : (int)ind + 2, room = o.width;

	if (hang > o.width / 2)
		hang = o.width / 2;
	while (text_cols(s, len) > room) {
		size_t end;

		cut = text_cut(s, len, room, ind);
		for (end = cut; end > ind && s[end - 1] == ' '; end--)
			;
		while (cut < len && s[cut] == ' ')
			cut++;
		if (cut >= len)
			break;	/* one word, or only spaces after it: no break */
		fwrite(s, 1, end, f);
		fprintf(f, "\n%*s", hang, "");
		s += cut, len -= cut;
		room = o.width - hang;
		ind = 0;
	}
	fwrite(s, 1, len, f);
}

/* The text line held so far, as it is (a partial line before a control). */
static void text_flush_line(void)
{
	if (o.len)
		fwrite(o.line, 1, o.len, out_stream());
	o.len = 0;
}

/* Every byte of text output: as it is, or with a width, line by line. */
static void text_write(const char *s)
{
	FILE *f = out_stream();
	const char *nl;
	size_t n;

	if (!o.width) {
		fputs(s, f);
		return;
	}
	for (; *s; s = nl + 1) {
		nl = strchr(s, '\n');
		n = nl ? (size_t)(nl - s) : strlen(s);
		if (o.len + n + 1 > o.cap) {
			size_t cap = (o.len + n + 1) * 2;
			char *l = realloc(o.line, cap);

			if (!l) {	/* no memory to wrap: the text unwrapped */
				text_flush_line();
				fputs(s, f);
				return;
			}
			o.line = l, o.cap = cap;
		}
		memcpy(o.line + o.len, s, n);
		o.len += n;
		if (!nl)
			return;
		text_put_wrapped(f, o.line, o.len);
		fputc('\n', f);
		o.len = 0;
	}
}

static void text_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void text_printf(const char *fmt, ...)
{
	char *s;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	text_write(s);
	free(s);
}

/* A table cell, or printed with its format. */
static void text_cell(const char *key, const char *fmt, const char *s)
{
	int col;

	if (o.tab.active && o.tab.in_row) {
		col = table_col(key);
		if (col < 0)
			return;
		free(o.tab.cells[(o.tab.nrows - 1) * o.tab.ncols + col]);
		o.tab.cells[(o.tab.nrows - 1) * o.tab.ncols + col] = strdup(s);
		return;
	}
	if (fmt)
		text_printf(fmt, s);
}

/* Text rendering of one field, its control characters escaped. */
static void text_put(const char *key, const char *fmt, const char *raw)
{
	char *s = out_escape(raw, false);

	if (!s)
		return;
	text_cell(key, fmt, s);
	free(s);
}

static bool text_mode(int where)
{
	return !o.json && (where & OUT_TEXT);
}

static bool json_mode(int where)
{
	return o.json && (where & OUT_JSON);
}

void out_str(int where, const char *key, const char *fmt, const char *v)
{
	if (json_mode(where))	/* "" is unknown too: null (CONTRIBUTING.md) */
		json_add(key, v && *v ? cJSON_CreateString(v) : cJSON_CreateNull());
	if (text_mode(where))
		text_put(key, fmt, v ? v : "-");
}

const char *out_u64_str(uint64_t v, char *buf, size_t len)
{
	snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

/* Integers: formatted once with the caller's format for text, exactly for JSON. */
void out_u64(int where, const char *key, const char *fmt, uint64_t v)
{
	char buf[32];

	if (json_mode(where))
		json_add(key, cJSON_CreateRaw(out_u64_str(v, buf, sizeof(buf))));
	if (text_mode(where)) {
		char txt[64];

		snprintf(txt, sizeof(txt), "%" PRIu64, v);
		if (!(o.tab.active && o.tab.in_row) && fmt)
			text_printf(fmt, v);
		else
			text_put(key, NULL, txt);
	}
}

void out_s64(int where, const char *key, const char *fmt, int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	if (json_mode(where))
		json_add(key, cJSON_CreateRaw(buf));
	if (text_mode(where)) {
		if (!(o.tab.active && o.tab.in_row) && fmt)
			text_printf(fmt, v);
		else
			text_put(key, NULL, buf);
	}
}

void out_dbl(int where, const char *key, const char *fmt, double v)
{
	char buf[64];

	if (json_mode(where))
		json_add(key, cJSON_CreateNumber(v));
	if (text_mode(where)) {
		snprintf(buf, sizeof(buf), fmt ? fmt : "%g", v);
		if (!(o.tab.active && o.tab.in_row))
			text_write(buf);
		else
			text_put(key, NULL, buf);
	}
}

void out_bool(int where, const char *key, const char *fmt, bool v)
{
	if (json_mode(where))
		json_add(key, cJSON_CreateBool(v));
	if (text_mode(where))
		text_put(key, fmt, v ? "yes" : "no");
}

void out_null(int where, const char *key, const char *fmt)
{
	if (json_mode(where))
		json_add(key, cJSON_CreateNull());
	if (text_mode(where))
		text_put(key, fmt, "-");
}

void out_text(const char *fmt, ...)
{
	char *raw, *s;
	va_list ap;
	int n;

	if (o.json)
		return;
	va_start(ap, fmt);
	n = vasprintf(&raw, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	s = out_escape(raw, true);
	if (s)
		text_write(s);
	free(s);
	free(raw);
}

void out_ctrl(const char *seq)
{
	if (o.json)
		return;
	text_flush_line();
	fputs(seq, out_stream());
}

static int next_indent;

void out_table_indent(int n)
{
	next_indent = n;
}

void out_table_begin(const char *key, const struct out_col *cols, int ncols)
{
	out_arr_begin(key);
	if (o.json)
		return;
	table_free();
	o.tab.indent = next_indent;
	next_indent = 0;
	o.tab.cols = cols;
	o.tab.ncols = ncols;
	o.tab.active = true;
}

void out_row_begin(void)
{
	out_obj_begin(NULL);
	if (o.json || !o.tab.active)
		return;
	if (o.tab.nrows == o.tab.cap) {
		int cap = o.tab.cap ? o.tab.cap * 2 : 16;
		char **c = realloc(o.tab.cells, sizeof(*c) * cap * o.tab.ncols);

		if (!c)
			return;
		o.tab.cells = c;
		o.tab.cap = cap;
	}
	memset(&o.tab.cells[o.tab.nrows * o.tab.ncols], 0,
	       sizeof(char *) * o.tab.ncols);
	o.tab.nrows++;
	o.tab.in_row = true;
}

void out_row_end(void)
{
	out_obj_end();
	o.tab.in_row = false;
}

/*
 * One row; with "below", the last column on a line of its own under the
 * others, indented (a terminal with no room left beside them for it).
 */
static void table_print_row(const int *w, char *const *cells, bool header, bool below)
{
	int i, last = o.tab.ncols - 1;

	text_printf("%*s", o.tab.indent, "");
	for (i = 0; i < o.tab.ncols; i++) {
		const char *s = header ? o.tab.cols[i].title :
				(cells[i] ? cells[i] : "");
		bool right = !header && (o.tab.cols[i].flags & OUT_COL_RIGHT);

		if (i == last && below) {
			text_write("\n");
			if (*s)
				text_printf("%*s%s\n", o.hang, "", s);
			break;
		}
		if (right)
			text_printf("%*s", w[i], s);
		else if (i == last)
			text_write(s);
		else if (i == last - 1 && below)
			text_write(s);	/* no padding left at the line's end */
		else
			text_printf("%-*s", w[i], s);
		text_write(i == last ? "\n" : i == last - 1 && below ? "" : "  ");
	}
}

/*
 * A table too wide for the terminal even without its last column: each row
 * as a record, a title and its value a line, the records a blank line
 * apart (psql's expanded display), so that no column is cut off.
 */
static void table_print_records(void)
{
	int r, c, tw = 0;

	for (c = 0; c < o.tab.ncols; c++)
		if ((int)strlen(o.tab.cols[c].title) > tw)
			tw = strlen(o.tab.cols[c].title);
	for (r = 0; r < o.tab.nrows; r++) {
		if (r)
			text_write("\n");
		for (c = 0; c < o.tab.ncols; c++) {
			char *s = o.tab.cells[r * o.tab.ncols + c];

			if (!o.tab.cols[c].title[0] && !(s && *s))
				continue;	/* a marker column, empty here */
			text_printf("%*s%-*s  %s\n", o.tab.indent, "", tw, o.tab.cols[c].title,
				    s ? s : "");
		}
	}
}

void out_table_end(void)
{
	int *w, r, c, prefix;
	bool below;

	out_arr_end();
	if (o.json || !o.tab.active)
		return;
	w = calloc(o.tab.ncols, sizeof(*w));
	if (!w)
		goto out;
	for (c = 0; c < o.tab.ncols; c++) {
		w[c] = strlen(o.tab.cols[c].title);
		for (r = 0; r < o.tab.nrows; r++) {
			char *s = o.tab.cells[r * o.tab.ncols + c];

			if (s && (int)strlen(s) > w[c])
				w[c] = strlen(s);
		}
	}
	/* where the last column begins: its wrapped lines go on there */
	for (prefix = o.tab.indent, c = 0; c < o.tab.ncols - 1; c++)
		prefix += w[c] + 2;
	below = o.width && prefix + w[o.tab.ncols - 1] > o.width && prefix + 16 > o.width;
	if (below && prefix > o.width) {
		table_print_records();
	} else {
		o.hang = below ? o.tab.indent + 4 : prefix;
		table_print_row(w, NULL, true, false);
		for (r = 0; r < o.tab.nrows; r++)
			table_print_row(w, &o.tab.cells[r * o.tab.ncols], false, below);
		o.hang = -1;
	}
	free(w);
out:
	table_free();
}

void out_error(int errnum, const char *msg)
{
	cJSON *e;

	if (!o.json || !o.root || cJSON_GetObjectItemCaseSensitive(o.root, "error"))
		return;
	e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "message", msg);
	if (errnum)	/* null: a usage error or a verdict has no errno */
		cJSON_AddNumberToObject(e, "errno", errnum);
	else
		cJSON_AddNullToObject(e, "errno");
	cJSON_AddItemToObject(o.root, "error", e);
}
