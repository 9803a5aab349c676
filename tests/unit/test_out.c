// SPDX-License-Identifier: GPL-2.0-or-later
/* The output layer: u64 exactness, escaping, text and JSON from the same calls. */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rocectl/out.h"

/* What every document begins with, the stamp fixed by start(). */
#define STAMP "\"schema_version\":3,\"hostname\":\"h1\",\"time\":\"2026-01-02T03:04:05Z\","

static char *buf;
static size_t len;
static FILE *f;

static void start(bool json)
{
	f = open_memstream(&buf, &len);
	out_set_stamp("h1", "2026-01-02T03:04:05Z");
	out_init(f, json, false);
}

static char *finish(void)
{
	assert_int_equal(out_finish(), 0);
	fclose(f);
	return buf;
}

/* The same field calls, rendered in either mode. */
static void emit(void)
{
	static const struct out_col cols[] = {
		{ .key = "name", .title = "NAME" },
		{ .key = "value", .title = "VALUE", .flags = OUT_COL_RIGHT },
	};

	out_str(OUT_ANY, "dev", "dev %s\n", "rxe0");
	out_u64(OUT_ANY, "big", "big %" PRIu64 "\n", UINT64_MAX);
	out_bool(OUT_ANY, "ok", "ok %s\n", true);
	out_u64(OUT_JSON, "json_only", NULL, 7);
	out_table_begin("counters", cols, 2);
	out_row_begin();
	out_str(OUT_ANY, "name", NULL, "sent_pkts");
	out_u64(OUT_ANY, "value", NULL, 12345);
	out_row_end();
	out_row_begin();
	out_str(OUT_ANY, "name", NULL, "rcvd_seq_err");
	out_u64(OUT_ANY, "value", NULL, 3);
	out_row_end();
	out_table_end();
}

static void test_text(void **state)
{
	const char *want = "dev rxe0\nbig 18446744073709551615\nok yes\n"
			   "NAME          VALUE\n"
			   "sent_pkts     12345\n"
			   "rcvd_seq_err      3\n";

	start(false);
	emit();
	assert_string_equal(finish(), want);
	free(buf);
}

/* A width (a terminal): the same text, long lines wrapped at spaces. */
static void test_width_wraps_lines(void **state)
{
	start(false);
	out_set_width(24);
	out_str(OUT_ANY, "fix", "    fix: %s\n", "dcb pfc set dev ens1f0np0 prio-pfc 3:on");
	out_u64(OUT_ANY, "n", "count %" PRIu64, 7);		/* a line in pieces */
	out_text(" of them\n");
	out_str(OUT_ANY, "nqn", "  %s end\n", "nqn.2014-08.org.nvmexpress:uuid:3c1d");
	assert_string_equal(finish(), "    fix: dcb pfc set dev\n"
				      "      ens1f0np0 prio-pfc\n"
				      "      3:on\n"
				      "count 7 of them\n"
				      "  nqn.2014-08.org.nvmexpress:uuid:3c1d\n"	/* a word is not cut */
				      "    end\n");
	free(buf);
	/* no width: every line whole, byte for byte */
	start(false);
	out_str(OUT_ANY, "fix", "    fix: %s\n", "dcb pfc set dev ens1f0np0 prio-pfc 3:on");
	assert_string_equal(finish(), "    fix: dcb pfc set dev ens1f0np0 prio-pfc 3:on\n");
	free(buf);
}

/* A table's last column wraps under itself; too wide a table becomes records. */
static void test_width_tables(void **state)
{
	static const struct out_col cols[] = {
		{ .key = "name", .title = "NAME" },
		{ .key = "meaning", .title = "MEANING" },
	};
	static const struct out_col narrow[] = {
		{ .key = "n", .title = "N" }, { .key = "v", .title = "V" }, { .key = "m", .title = "M" },
	};
	static const char *const want[] = {
		/* 40: the meaning wraps under its column */
		"NAME           MEANING\n"
		"out_of_buffer  drops for lack of a\n"
		"               receive WQE\n",
		/* 30: fewer than 16 columns beside the others: it goes below */
		"NAME           MEANING\n"
		"out_of_buffer\n"
		"    drops for lack of a\n"
		"    receive WQE\n",
	};
	int i;

	for (i = 0; i < 2; i++) {
		start(false);
		out_set_width(i ? 30 : 40);
		out_table_begin("rows", cols, 2);
		out_row_begin();
		out_str(OUT_ANY, "name", NULL, "out_of_buffer");
		out_str(OUT_ANY, "meaning", NULL, "drops for lack of a receive WQE");
		out_row_end();
		out_table_end();
		assert_string_equal(finish(), want[i]);
		free(buf);
	}
	/* 12: not even the columns before the last fit: one record per row */
	start(false);
	out_set_width(12);
	out_table_begin("rows", narrow, 3);
	for (i = 0; i < 2; i++) {
		out_row_begin();
		out_str(OUT_ANY, "n", NULL, i ? "b" : "abcdef");
		out_str(OUT_ANY, "v", NULL, "123456");
		out_str(OUT_ANY, "m", NULL, "x");
		out_row_end();
	}
	out_table_end();
	assert_string_equal(finish(), "N  abcdef\nV  123456\nM  x\n\nN  b\nV  123456\nM  x\n");
	free(buf);
}

static void test_json(void **state)
{
	const char *want = "{" STAMP "\"dev\":\"rxe0\","
			   "\"big\":18446744073709551615,\"ok\":true,\"json_only\":7,"
			   "\"counters\":[{\"name\":\"sent_pkts\",\"value\":12345},"
			   "{\"name\":\"rcvd_seq_err\",\"value\":3}]}\n";

	start(true);
	emit();
	assert_string_equal(finish(), want);
	free(buf);
}

/* 2^53 + 1 is the first integer a double cannot hold. */
static void test_u64_above_2_53(void **state)
{
	start(true);
	out_u64(OUT_ANY, "v", NULL, 9007199254740993ULL);
	assert_non_null(strstr(finish(), "\"v\":9007199254740993}"));
	free(buf);
}

static void test_escaping(void **state)
{
	start(true);
	out_str(OUT_ANY, "s", NULL, "a\"b\\c\n\x01");
	assert_non_null(strstr(finish(), "\"s\":\"a\\\"b\\\\c\\n\\u0001\""));
	free(buf);
}

/* Terminal text: C0, DEL, C1 and non-UTF-8 bytes as \xNN; printable UTF-8 kept. */
static void test_terminal_escaping(void **state)
{
	static const struct { const char *in, *want; } t[] = {
		{ "eth\x1b[2J0", "eth\\x1b[2J0" },
		{ "a\x7f" "b\x9b" "c", "a\\x7fb\\x9bc" },		/* DEL; a lone 8-bit CSI */
		{ "\xc2\x9b" "1m", "\\xc2\\x9b1m" },			/* CSI (U+009B) in UTF-8 */
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80" },
		{ "\xc0\xaf", "\\xc0\\xaf" },				/* overlong '/' */
		{ "\xed\xa0\x80", "\\xed\\xa0\\x80" },			/* a surrogate */
		{ "\xe2\x82", "\\xe2\\x82" },				/* cut short */
		{ "a\tb\nc\\d", "a\\x09b\\x0ac\\d" },
	};
	size_t i;
	char *e;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		e = out_escape(t[i].in, false);
		assert_string_equal(e, t[i].want);
		free(e);
	}
	e = out_escape("a\tb\n\x1b", true);
	assert_string_equal(e, "a\tb\n\\x1b");
	free(e);
	/* out_str and out_text escape in text; JSON keeps the string exact */
	start(false);
	out_str(OUT_ANY, "n", "n %s\n", "x\x1b]0;t\x07");
	out_text("h %s\n", "y\x1b[H");
	out_ctrl("\033[H\033[J");	/* rocectl's own redraw goes out as it is */
	assert_string_equal(finish(), "n x\\x1b]0;t\\x07\nh y\\x1b[H\n\033[H\033[J");
	free(buf);
	start(true);
	out_str(OUT_ANY, "n", NULL, "x\x1b]0;t\x07");
	assert_non_null(strstr(finish(), "\"n\":\"x\\u001b]0;t\\u0007\""));
	free(buf);
}

static void test_null_and_error(void **state)
{
	start(true);
	out_str(OUT_ANY, "missing", "%s", NULL);
	out_error(19, "no RDMA device 'x'");
	out_error(5, "second error is dropped");
	assert_string_equal(finish(), "{" STAMP "\"missing\":null,"
			    "\"error\":{\"message\":\"no RDMA device 'x'\",\"errno\":19}}\n");
	free(buf);
	start(false);
	out_str(OUT_ANY, "missing", "m %s\n", NULL);
	assert_string_equal(finish(), "m -\n");
	free(buf);
}

static void test_nesting(void **state)
{
	start(true);
	out_arr_begin("devices");
	out_obj_begin(NULL);
	out_str(OUT_ANY, "name", NULL, "mlx5_0");
	out_arr_begin("ports");
	out_obj_begin(NULL);
	out_u64(OUT_ANY, "port", NULL, 1);
	out_obj_end();
	out_arr_end();
	out_obj_end();
	out_arr_end();
	assert_string_equal(finish(), "{" STAMP "\"devices\":[{\"name\":\"mlx5_0\","
			    "\"ports\":[{\"port\":1}]}]}\n");
	free(buf);
}

/* JSON lines: each flushed document is complete and carries schema_version. */
static void test_json_lines(void **state)
{
	start(true);
	out_u64(OUT_ANY, "sample", NULL, 1);
	assert_int_equal(out_flush_doc(), 0);
	out_u64(OUT_ANY, "sample", NULL, 2);
	assert_string_equal(finish(), "{" STAMP "\"sample\":1}\n"
			    "{" STAMP "\"sample\":2}\n");
	free(buf);
}

static void test_write_error(void **state)
{
	FILE *full = fopen("/dev/full", "w");

	if (!full)
		fail_msg("cannot open /dev/full");
	out_init(full, true, false);
	out_str(OUT_ANY, "x", NULL, "y");
	assert_true(out_finish() < 0);
	fclose(full);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_u64_above_2_53),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_terminal_escaping),
		cmocka_unit_test(test_null_and_error),
		cmocka_unit_test(test_nesting),
		cmocka_unit_test(test_json_lines),
		cmocka_unit_test(test_write_error),
		cmocka_unit_test(test_width_wraps_lines),
		cmocka_unit_test(test_width_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
